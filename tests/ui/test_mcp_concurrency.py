"""Two MCP clients (two server processes) writing 200 entries into one profile while the app is open on it."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import anyio
import pytest

from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.ui.app import OpenClawApp
from tests.mcp_support import SAMPLES, call, connect
from tests.support import until
from tests.ui.test_ui_live import started, view_ids
from tests.ui_support import SIZE, TODAY

PER_CLIENT = 100
LETTERS = "bcdfghjklmnpqrstvwxz"


def bodies(client: str, count: int) -> list[str]:
    """Distinct texts made of made-up words, so that none looks like a duplicate of another."""
    rng = random.Random(client)
    return [f"Client {client} noted " + " ".join("".join(rng.choice(LETTERS) for _ in range(7)) for _ in range(6)) + "."
            for _ in range(count)]


@pytest.mark.slow
async def test_two_clients_write_200_entries_while_the_app_watches(tmp_path: Path) -> None:
    prof = tmp_path / "xiaoyu"
    shutil.copytree(SAMPLES / "profiles" / "xiaoyu", prof)
    before = [e.id for e in parse_bytes((prof / "memories.md").read_bytes()).well_formed()]
    written: dict[str, str] = {}  # id -> body, as the servers answered

    async def client(name: str) -> None:
        async with connect(str(prof), "--allow-write") as s:
            for body in bodies(name, PER_CLIENT):
                done = await call(s, "memory_remember", body=body, source=f"client-{name}")
                assert done["written"] is True, done
                assert done["id"] not in written
                written[done["id"]] = body

    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        async with anyio.create_task_group() as group:
            group.start_soon(client, "A")
            group.start_soon(client, "B")
        assert len(written) == 2 * PER_CLIENT
        # the app, reloading on the watcher's events, shows every entry
        await until(lambda: set(written) <= set(view_ids(m)), "the app to show the 200 new entries", pilot=pilot)

    entries = list(parse_bytes((prof / "memories.md").read_bytes()).well_formed())
    ids = [e.id for e in entries]
    assert len(ids) == len(set(ids)) == len(before) + 2 * PER_CLIENT  # nothing lost, no id given twice
    assert ids[: len(before)] == before
    assert {e.id: e.body.strip() for e in entries if e.id in written} == written
