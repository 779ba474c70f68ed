"""Shared helpers for the UI tests: sample copies, small profiles, waiting for workers."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "sample_profiles"
TODAY = dt.date(2026, 11, 30)
SIZE = (160, 50)


def samples() -> Path:
    """The bundled ``sample_profiles`` folder; a test that needs it fails (never skips, never uses a stand-in)
    when it is missing or incomplete."""
    for rel in ("profiles/xiaoyu/memories.md", "profiles/atlas/memories.md", "workspace"):
        if not (SAMPLES / rel).exists():
            pytest.fail(f"the bundled samples are incomplete: {SAMPLES / rel} is missing", pytrace=False)
    return SAMPLES


def copy_samples(tmp_path: Path) -> Path:
    """A copy of the bundled samples; returns the profiles root (``…/profiles``)."""
    dest = tmp_path / "samples"
    shutil.copytree(samples(), dest)
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
        while True:
            try:
                await pilot.app.workers.wait_for_complete()
                break
            except WorkerCancelled:  # an exclusive worker replaced by a newer one: wait for the others
                continue
        await pilot.pause()


async def open_merge_screen(pilot: Pilot[object]) -> tuple[object, list[str]]:
    """Press ``m`` on a loaded app and wait for the merge screen; returns it and the notices so far."""
    from openclaw_tui.ui.screens.merge.merge_screen import MergeScreen

    app = pilot.app
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, MergeScreen) and screen.session is not None
    await settle(pilot)
    return screen, notices(app)


def notices(app: object) -> list[str]:
    """The texts of the notifications the app has shown."""
    return [n.message for n in app._notifications]  # type: ignore[attr-defined]  # noqa: SLF001


def widget_text(widget: object) -> str:
    """The text a widget shows (all its lines, styles dropped)."""
    from textual.geometry import Region
    from textual.widget import Widget

    assert isinstance(widget, Widget)
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join("".join(seg.text for seg in strip).rstrip() for strip in strips)
