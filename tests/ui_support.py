"""Shared helpers for the UI tests: sample copies, small profiles, waiting for workers."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from textual.pilot import Pilot

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_profiles"
TODAY = dt.date(2026, 11, 30)
SIZE = (160, 50)


def copy_samples(tmp_path: Path) -> Path:
    """A copy of the bundled samples; returns the profiles root (``…/profiles``)."""
    dest = tmp_path / "samples"
    if (SAMPLES / "profiles" / "xiaoyu" / "memories.md").is_file():
        shutil.copytree(SAMPLES, dest)
        return dest / "profiles"
    return build_small_samples(dest)


def build_small_samples(dest: Path) -> Path:
    """A stand-in for the samples with the features the UI tests look at."""
    prof = dest / "profiles" / "xiaoyu"
    (prof / "contexts" / "archive").mkdir(parents=True)
    (prof / "skills").mkdir()
    entries = [
        ("mem-0007", "medium", "active", "", "用户每天早上一杯美式。"),
        ("mem-0011", "medium", "superseded", "superseded_by: mem-0033\n", "用户在准备半程马拉松。"),
        ("mem-0012", "high", "active", "conflict: mem-0007\n", "用户表示自己现在不能摄入咖啡因。"),
        ("mem-0033", "medium", "active", "", "半马跑了 2:05。"),
        ("mem-0037", "urgent", "active", "", "Q4 的 OKR 自评。"),
    ]
    text = "<!-- memory -->\n\n"
    for ident, imp, status, extra, body in entries:
        text += (f"---\nid: {ident}\ntimestamp: 2025-06-01T14:32:00+08:00\nimportance: {imp}\n"
                 f"status: {status}\ntags: [test]\n{extra}---\n{body}\n\n")
    text += "---\nid: mem-0031\ntags: [health, sleep\n---\n半夜三点醒。\n"
    (prof / "memories.md").write_text(text, encoding="utf-8")
    (prof / "identity.md").write_text("# 小雨\n\n基本信息见 mem-0007。\n", encoding="utf-8")
    (prof / "state.yaml").write_text(
        "# state\ncurrent_focus: mem-0012\n提醒:\n  健康: mem-0012\n  待确认: mem-0099\n", encoding="utf-8"
    )
    (prof / "contexts" / "2025-06-01_todo.md").write_text("# todo\n\n记在 mem-0012。\n", encoding="utf-8")
    (prof / "skills" / "work.md").write_text("# Work\n\nSee mem-0033.\n", encoding="utf-8")
    atlas = dest / "profiles" / "atlas"
    atlas.mkdir()
    (atlas / "memories.md").write_text(
        "---\nid: mem-0001\nimportance: high\nstatus: active\ntags: [team]\n---\nPriya is an SRE.\n",
        encoding="utf-8",
    )
    return dest / "profiles"


def write_profile(root: Path, name: str, memories: str, files: dict[str, str] | None = None) -> Path:
    """A profile folder with ``memories.md`` and other files (relative path -> text)."""
    prof = root / name
    prof.mkdir(parents=True, exist_ok=True)
    (prof / "memories.md").write_text(memories, encoding="utf-8")
    for rel, text in (files or {}).items():
        path = prof / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return prof


async def settle(pilot: Pilot[object], rounds: int = 3) -> None:
    """Wait until the background workers are done and their messages handled."""
    for _ in range(rounds):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def widget_text(widget: object) -> str:
    """The text a widget shows (all its lines, styles dropped)."""
    from textual.geometry import Region
    from textual.widget import Widget

    assert isinstance(widget, Widget)
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join("".join(seg.text for seg in strip).rstrip() for strip in strips)
