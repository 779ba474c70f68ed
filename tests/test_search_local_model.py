"""The local model2vec provider on a real (tiny) model, loaded through our loading code, offline.

No registry package ships a model2vec model (model2vec's wheel has no test model; sentence-transformers
needs torch, far too big for this suite), so the test builds one: a word-level tokenizer and a numpy
table where "coffee" and 咖/啡 share a dimension, saved with model2vec's own ``save_pretrained``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.format.profile import discover
from openclaw_tui.core.search.providers import Chain, LocalProvider
from openclaw_tui.core.search.search import SearchIndex
from tests.search_corpus import entry, write

np = pytest.importorskip("numpy")
model2vec = pytest.importorskip("model2vec")
tokenizers = pytest.importorskip("tokenizers")

CONCEPTS = [("coffee", "咖啡"), ("tea", "茶"), ("dog", "狗"), ("rain", "雨")]


@pytest.fixture
def model(tmp_path: Path) -> Path:
    vocab = {"[UNK]": 0, "[PAD]": 1}
    rows = [[0.0] * 4, [0.0] * 4]
    for i, (en, zh) in enumerate(CONCEPTS):
        for token in (en, *zh):
            vocab[token] = len(vocab)
            rows.append([1.0 if k == i else 0.0 for k in range(4)])
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tok.normalizer = tokenizers.normalizers.BertNormalizer(handle_chinese_chars=True, lowercase=True)
    tok.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    folder = tmp_path / "tiny-m2v"
    model2vec.StaticModel(np.asarray(rows, dtype=np.float32), tok, normalize=True).save_pretrained(str(folder))
    return folder


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    p = tmp_path / "p"
    write(p / "memories.md", "".join([
        entry("mem-0001", "用户每天喝两杯咖啡。"),
        entry("mem-0002", "The user walks the dog in the rain."),
        entry("mem-0003", "用户喜欢喝茶。"),
    ]))
    return p


def test_our_loader_reads_the_model_and_its_vectors_mean_what_the_table_says(model: Path) -> None:
    provider = LocalProvider(f"model2vec:{model}")
    a, b, c = provider.embed(["用户每天喝两杯咖啡。", "Coffee, please", "the dog in the rain"])
    assert len(a) == 4
    assert sum(x * y for x, y in zip(a, b, strict=True)) > 0.99  # the other language, the same concept
    assert abs(sum(x * y for x, y in zip(a, c, strict=True))) < 1e-6


def test_a_query_in_one_language_finds_the_entry_in_the_other(model: Path, profile: Path) -> None:
    chain = Chain.from_settings(["local"], {"local": {"model": f"model2vec:{model}"}})
    idx = SearchIndex.build(discover(profile).profiles)
    idx.chain = chain
    hits = idx.search("coffee", 3)  # no chunk holds the word: the result comes from the vectors
    assert idx.last is not None and idx.last.provider == f"local:model2vec:{model}"
    assert [h.id for h in hits][:1] == ["mem-0001"] and hits[0].text_score == 0.0 and hits[0].vector_score
    idx.close()


def test_the_cli_uses_the_configured_local_model_offline(model: Path, profile: Path, tmp_path: Path) -> None:
    cfg = write(tmp_path / "config.toml", f'[search]\nproviders = ["local"]\n[search.local]\nmodel = "model2vec:{model}"\n')
    env = {**os.environ, "OPENCLAW_TUI_CONFIG": str(cfg), "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "search", str(profile), "tea", "--json"],
                         capture_output=True, env=env, timeout=120, check=False)
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["provider"] == f"local:model2vec:{model}"
    assert [r["id"] for r in doc["results"]][:1] == ["mem-0003"]
