"""detect-secrets' token formats, read once and kept in the cache folder (core/check/credentials.py).

A check must find the same tokens whether the patterns came from detect-secrets' plugins or from the
cache file; a missing, damaged or stale cache file is rebuilt from the plugins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = ("token: ghp_" + "a1" * 18 + "\nAWS AKIAABCDEFGH1JKLMNOP\nslack xoxb-123456789012-abcdefghij\n"
        "密钥 sk-proj-" + "Zx9" * 10 + "\n")
# one fresh process: the credentials it finds, the cache file, and whether detect-secrets' scanner was loaded
PROBE = """
import json, sys
from openclaw_tui.core.check.credentials import find_credentials
text = sys.stdin.read()
found = find_credentials(text, lambda anchors, lower: [(0, len(text))])
print(json.dumps({"found": found, "scanner": "detect_secrets.core.scan" in sys.modules}))
"""


def probe(cache: Path) -> dict:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE], input=TEXT, capture_output=True, text=True, env=env,
                         check=True)
    return json.loads(out.stdout)


def cache_file(cache: Path) -> Path:
    return cache / "openclaw-tui" / "detect-secrets-patterns.json"


def test_a_cached_catalogue_finds_what_the_plugins_find_without_loading_the_scanner(tmp_path: Path) -> None:
    first = probe(tmp_path)
    assert first["scanner"]  # no cache yet: the patterns came from the plugins
    assert cache_file(tmp_path).is_file()
    kinds = {kind for kind, _, _ in first["found"]}
    assert kinds == {"api-key"} and len({(a, b) for _, a, b in first["found"]}) >= 4
    second = probe(tmp_path)
    assert second == {"found": first["found"], "scanner": False}


def test_a_damaged_or_stale_cache_file_is_rebuilt(tmp_path: Path) -> None:
    want = probe(tmp_path)["found"]
    path = cache_file(tmp_path)
    kept = json.loads(path.read_text(encoding="utf-8"))
    path.write_text('{"key": ', encoding="utf-8")  # damaged
    assert probe(tmp_path) == {"found": want, "scanner": True}
    assert json.loads(path.read_text(encoding="utf-8")) == kept
    # another detect-secrets: the stored key no longer matches its files, and its stored patterns are not used
    kept["key"][0][2] += 1
    kept["patterns"] = []
    path.write_text(json.dumps(kept), encoding="utf-8")
    assert probe(tmp_path) == {"found": want, "scanner": True}
    assert json.loads(path.read_text(encoding="utf-8"))["patterns"]
