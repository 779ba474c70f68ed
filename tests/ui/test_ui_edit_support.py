"""Helpers for the editing UI tests (test_ui_edit*, test_ui_lifecycle*, test_ui_commit*).

Every test works on a copy of ``sample_profiles/profiles/xiaoyu`` in tmp_path,
opens the real app headless with a fixed clock, and compares the files'
bytes with the originals line by line.
"""

from __future__ import annotations

import datetime as dt
import difflib
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual import events
from textual.keys import _character_to_key
from textual.pilot import Pilot

from openclaw_tui.core.check.rules import check_profile
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.rows import Location
from openclaw_tui.ui.screens.review.main_screen import MainScreen
from tests.ui_support import SAMPLES, SIZE, TODAY, settle

XIAOYU = SAMPLES / "profiles" / "xiaoyu"
MEM = "memories.md"
ARC = "contexts/archive/memories.md"
REFS = "secrets_refs.yaml"
FIXED = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
STAMP = "2026-11-30T10:00:00+08:00"


def test_samples_are_there() -> None:
    assert (XIAOYU / MEM).is_file(), "the UI editing tests need sample_profiles/profiles/xiaoyu"


def copy_xiaoyu(tmp_path: Path) -> Path:
    dest = tmp_path / "xiaoyu"
    shutil.copytree(XIAOYU, dest)
    return dest


def original(rel: str) -> bytes:
    return (XIAOYU / rel).read_bytes()


def current(prof: Path, rel: str) -> bytes:
    return (prof / rel).read_bytes()


def text(data: bytes) -> str:
    return data.decode("utf-8")


def raw_block(data: bytes, ident: str) -> str:
    """The raw text of entry ``ident`` in a memory file's bytes."""
    mf = parse_bytes(data)
    found = [e.raw for e in mf.entries if e.id == ident and e.error is None]
    assert found, f"{ident} not found"
    return found[0]


def changes(before: bytes, after: bytes) -> tuple[list[str], list[str]]:
    """(lines removed, lines added) between two versions (difflib opcodes)."""
    a, b = text(before).splitlines(), text(after).splitlines()
    removed: list[str] = []
    added: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            removed += a[i1:i2]
        if op in ("replace", "insert"):
            added += b[j1:j2]
    return removed, added


def unchanged(prof: Path, *rels: str) -> None:
    for rel in rels:
        assert current(prof, rel) == original(rel), f"{rel} changed"


def codes_for(prof: Path, ident: str | None = None, code: str | None = None) -> list[str]:
    """Finding codes of the profile now (only those about ``ident`` / of ``code`` when given)."""
    findings = check_profile(load_profile(prof), today=TODAY)
    return [f.code for f in findings if (ident is None or f.id == ident) and (code is None or f.code == code)]


@asynccontextmanager
async def opened(prof: Path) -> AsyncIterator[tuple[Pilot[int], OpenClawApp, MainScreen]]:
    app = OpenClawApp(prof, today=TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        main.session.clock = lambda: FIXED
        yield pilot, app, main


async def select(pilot: Pilot[int], main: MainScreen, ident: str, file: str | None = None) -> None:
    assert main.jump(Location(file, None, ident)), f"cannot select {ident}"
    await settle(pilot)
    row = main.selected_entry()
    assert row is not None and row.id == ident


async def type_text(pilot: Pilot[int], value: str) -> None:
    """Type ``value`` key by key, as a terminal sends it (CJK punctuation included)."""
    names = {" ": "space", "\n": "enter"}
    for ch in value:
        if ch in names or ch.isascii() or ch.isalnum():
            await pilot.press(names.get(ch, ch))
            continue
        driver = pilot.app._driver
        assert driver is not None
        event = events.Key(_character_to_key(ch), ch)
        event.set_sender(pilot.app)
        driver.send_message(event)
        await pilot.pause()


def notifications(app: OpenClawApp) -> list[str]:
    return [n.message for n in app._notifications]


async def press(pilot: Pilot[int], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)
