"""The bootstrap injection preview and openclaw.json limits, on real workspace folders."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from openclaw_tui.core.config import Limits
from openclaw_tui.core.workspace.bootstrap import inject_preview
from openclaw_tui.core.workspace.injection import CURRENT_RELEASE
from openclaw_tui.core.workspace.openclaw_config import OpenClawConfigError, load_openclaw_config


def _ws(tmp_path: Path, files: dict[str, str]) -> Path:
    ws = tmp_path / "workspace"
    for rel, text in files.items():
        p = ws / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return ws


def truncate(tmp_path: Path, text: str, name: str, limit: int, release: str = "older") -> tuple[str, int | None]:
    """(the copy ``context`` injects of a file ``name`` holding ``text`` under ``limit``, its marker's offset)."""
    ws = _ws(tmp_path / f"{name}-{limit}-{len(text)}", {name: text})
    limits = Limits(bootstrap_max_chars=limit, bootstrap_total_max_chars=60_000, user_max_chars=4000)
    part = next(p for p in inject_preview(ws, limits, include_daily=False, release=release) if p.file == name)
    return part.text, part.marker_at


def test_truncate_keeps_70_head_20_tail_around_marker(tmp_path: Path) -> None:
    text = "".join(chr(0x4E00 + i % 500) for i in range(1000))  # Chinese characters count one each
    out, at = truncate(tmp_path, text, "MEMORY.md", 100)
    assert at == 70
    assert out[:70] == text[:70]
    assert out.endswith(text[-20:])
    marker = out[70:len(out) - 20]
    assert "[...truncated, read MEMORY.md for full content...]" in marker
    assert "kept 70+20 chars of 1000" in marker
    assert truncate(tmp_path, "short", "SOUL.md", 100) == ("short", None)


def test_order_sessions_and_caps(tmp_path: Path) -> None:
    ws = _ws(tmp_path, {
        "MEMORY.md": "m" * 500, "USER.md": "u" * 300, "AGENTS.md": "a\n", "SOUL.md": "  \n",
        "IDENTITY.md": "i\n", "memory/2026-03-14.md": "today\n", "memory/2026-03-13-trip.md": "yest\n",
        "memory/2026-03-12.md": "old\n",
    })
    limits = Limits(bootstrap_max_chars=400, bootstrap_total_max_chars=10_000, user_max_chars=200)
    parts = inject_preview(ws, limits, today=dt.date(2026, 3, 14))
    assert [p.file for p in parts] == [
        "AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "MEMORY.md", "memory/2026-03-13-trip.md", "memory/2026-03-14.md",
    ]
    by = {p.file: p for p in parts}
    assert not by["SOUL.md"].loaded  # blank
    assert by["USER.md"].truncated and by["USER.md"].limit == 200 and by["USER.md"].limit_kind == "user"
    assert by["MEMORY.md"].truncated and by["MEMORY.md"].limit == 400
    assert by["MEMORY.md"].text.startswith("m" * 280) and by["MEMORY.md"].text.endswith("m" * 80)
    assert by["memory/2026-03-14.md"].reason.startswith("today's")
    shared = {p.file: p for p in inject_preview(ws, limits, "shared", today=dt.date(2026, 3, 14))}
    assert not shared["MEMORY.md"].loaded and "main" in shared["MEMORY.md"].reason
    sub = inject_preview(ws, limits, "subagent", today=dt.date(2026, 3, 14))
    assert [p.file for p in sub if p.loaded] == ["AGENTS.md"]
    assert (ws / "MEMORY.md").read_text() == "m" * 500  # the file on disk is untouched


def test_total_budget_cuts_later_files(tmp_path: Path) -> None:
    ws = _ws(tmp_path, {"AGENTS.md": "a" * 900, "SOUL.md": "s" * 900, "MEMORY.md": "m" * 900})
    limits = Limits(bootstrap_max_chars=1000, bootstrap_total_max_chars=1200, user_max_chars=4000)
    parts = inject_preview(ws, limits, include_daily=False)
    a, s, m = parts
    assert not a.truncated and a.chars_injected == 900
    assert s.truncated and s.over_total and s.limit == 300 and s.limit_kind == "total"
    assert a.chars_injected + s.chars_injected == 1200
    assert not m.loaded and m.over_total


def test_openclaw_json_wins_and_is_labelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws = _ws(tmp_path, {"AGENTS.md": "x"})
    base = Limits(bootstrap_max_chars=20_000, bootstrap_total_max_chars=60_000)
    assert load_openclaw_config(ws, base=base).source == "defaults"
    (tmp_path / "openclaw.json").write_text(
        "// JSON5: comments and trailing commas\n{agents: {defaults: {bootstrapMaxChars: 12000,}},"
        " memory: {search: {provider: 'openai'}}}\n", encoding="utf-8")
    cfg = load_openclaw_config(ws, base=base)
    assert cfg.found and cfg.source == str(tmp_path / "openclaw.json")
    assert cfg.limits.bootstrap_max_chars == 12_000 and cfg.limits.bootstrap_total_max_chars == 60_000
    assert cfg.overridden == ("bootstrap_max_chars",) and cfg.generation == "current"
    bad = tmp_path / "bad.json"
    bad.write_text("{agents: ", encoding="utf-8")
    with pytest.raises(OpenClawConfigError):
        load_openclaw_config(ws, bad)
    # a home config applies only when it names this workspace
    home = Path.home() / ".openclaw"
    home.mkdir(parents=True, exist_ok=True)
    (tmp_path / "openclaw.json").unlink()
    (home / "openclaw.json").write_text('{"agents": {"defaults": {"workspace": "/elsewhere", "bootstrapTotalMaxChars": 5}}}')
    assert not load_openclaw_config(ws, base=base).found
    import json

    (home / "openclaw.json").write_text(json.dumps({"agents": {"defaults": {
        "workspace": str(ws), "bootstrapTotalMaxChars": 5000, "memorySearch": {"query": {"hybrid": {"vectorWeight": 0.7}}},
    }}}))
    cfg = load_openclaw_config(ws, base=base)
    assert cfg.found and cfg.limits.bootstrap_total_max_chars == 5000 and cfg.generation == "older"


def test_check_uses_the_workspace_openclaw_json(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    ws = _ws(tmp_path, {"AGENTS.md": "a" * 15_000})

    def codes(*extra: str) -> list[str]:
        res = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "check", str(ws), "--format", "json", *extra],
                             capture_output=True, text=True, timeout=120)
        assert res.returncode in (0, 1), res.stderr
        return [f["code"] for f in json.loads(res.stdout)["findings"]]

    assert codes() == []
    (tmp_path / "openclaw.json").write_text("{agents: {defaults: {bootstrapMaxChars: 12000}}}", encoding="utf-8")
    assert codes() == ["oversized-bootstrap"]
    assert codes("--bootstrap-max-chars", "16000") == []  # the command line wins
    other = tmp_path / "other.json5"
    other.write_text("{agents: {defaults: {bootstrapMaxChars: 30000}}}", encoding="utf-8")
    assert codes("--openclaw-config", str(other)) == []
    res = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "check", str(ws), "--openclaw-config",
                          str(tmp_path / "missing.json")], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stderr.startswith("openclaw-tui: ") and res.stderr.count("\n") == 1


# --- the two releases' cuts (openclaw/openclaw src/agents/pi-embedded-helpers/bootstrap.ts) -----


def test_70_20_measures_after_dropping_trailing_whitespace(tmp_path: Path) -> None:
    assert truncate(tmp_path, "x" * 100 + "\n\n  \n", "SOUL.md", 100) == ("x" * 100, None)  # 100 after trimEnd: fits
    out, at = truncate(tmp_path, "y" * 101 + "\n", "SOUL.md", 100)
    marker = "\n[...truncated, read SOUL.md for full content...]\n…(truncated SOUL.md: kept 70+20 chars of 101)…\n"
    assert at == 70 and out == "y" * 70 + "\n" + marker + "\n" + "y" * 20  # the marker is not reserved


def test_75_25_reserves_the_marker_and_splits_the_rest(tmp_path: Path) -> None:
    text = "".join(chr(0x4E00 + i % 500) for i in range(1000))
    out, at = truncate(tmp_path, text, "MEMORY.md", 400, CURRENT_RELEASE)
    assert len(out) <= 400 and at is not None
    marker_line = out[at:].split("\n")[1]
    head, tail = (int(n) for n in marker_line.split("kept ")[1].split(" chars")[0].split("+"))
    assert marker_line == f"…(truncated MEMORY.md: kept {head}+{tail} chars of 1000)…"
    assert out[at:].startswith("[...truncated, read MEMORY.md for full content...]\n")
    # head, "\n", the marker (which starts and ends with a newline), "\n", tail
    assert out.startswith(text[:head] + "\n\n[...truncated") and out.endswith(")…\n\n" + text[-tail:])
    assert 2.9 <= head / tail <= 3.1 and 400 - len(out) <= 2  # the budget is used up to a rounding
    # a limit too small for the full marker: the compact one
    small, at2 = truncate(tmp_path, "z" * 500, "IDENTITY.md", 60, CURRENT_RELEASE)
    assert len(small) <= 60 and at2 is not None and small[at2:].startswith("[…truncated ") and "/500]" in small


def test_75_25_agents_md_keeps_a_digest_of_its_rules(tmp_path: Path) -> None:
    filler = "".join(f"Some prose about the project, paragraph {i}.\n" for i in range(60))
    text = "# AGENTS\n\n" + filler + "- Never push to main without review.\n" + filler + "The end.\n"
    out, at = truncate(tmp_path, text, "AGENTS.md", 600, CURRENT_RELEASE)
    assert len(out) <= 600 and at is not None
    assert "[Policy digest from AGENTS.md]\n" in out and "- Never push to main without review." in out
    assert "…(truncated AGENTS.md: kept " in out and "+policy " in out
    assert out.startswith("# AGENTS\n") and out.endswith("The end.")
    # the 70/20 release cuts AGENTS.md like any other file
    plain, _ = truncate(tmp_path, text, "AGENTS.md", 600)
    assert "Policy digest" not in plain and "Never push" not in plain


def test_the_config_selects_the_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    ws = _ws(tmp_path, {"MEMORY.md": "m" * 3000, "AGENTS.md": "a\n"})
    limits = Limits(bootstrap_max_chars=1000, bootstrap_total_max_chars=60_000, user_max_chars=4000)
    assert load_openclaw_config(ws).truncation == "75/25"  # no config: the current release's
    (tmp_path / "openclaw.json").write_text("{agents: {defaults: {memorySearch: {}}}}\n", encoding="utf-8")
    assert load_openclaw_config(ws).truncation == "70/20"  # an older release's config
    (tmp_path / "openclaw.json").write_text("{memory: {search: {}}}\n", encoding="utf-8")
    cfg = load_openclaw_config(ws)
    assert cfg.truncation == "75/25" and cfg.as_dict()["truncation"] == "75/25"
    old = next(p for p in inject_preview(ws, limits, include_daily=False, release="older") if p.file == "MEMORY.md")
    new = next(p for p in inject_preview(ws, limits, include_daily=False, release=cfg.release)
               if p.file == "MEMORY.md")
    assert old.chars_injected > 1000 >= new.chars_injected and "kept 700+200" in old.text


def test_what_the_total_leaves_is_clamped_with_an_ellipsis(tmp_path: Path) -> None:
    ws = _ws(tmp_path, {"AGENTS.md": "a" * 900, "SOUL.md": "s" * 400})
    limits = Limits(bootstrap_max_chars=1000, bootstrap_total_max_chars=1200, user_max_chars=4000)
    a, s = inject_preview(ws, limits, include_daily=False)
    assert s.truncated and s.limit == 300 and s.limit_kind == "total"
    assert s.chars_injected == 300 and s.text.endswith("…") and a.chars_injected + s.chars_injected == 1200


@pytest.mark.parametrize("text", ["", "plain", "中文，全角！", "emoji 😀 and 𠀀", "\U0010ffff", "a\ud800b", "\udc00"])
def test_js_strings_as_javascript_indexes_and_encodes_them(text: str) -> None:
    """UTF-16 units for characters outside the BMP; a lone surrogate encodes as U+FFFD (as Node's Buffer)."""
    from openclaw_tui.core.workspace.injection import from_js, js_utf8, to_js

    js = to_js(text)
    assert len(js) == len(text.encode("utf-16-le", "surrogatepass")) // 2
    assert from_js(js) == text
    assert js_utf8(js) == "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text).encode("utf-8")
