"""The app's watcher feeds the search index: after another program changes an entry, the app's reload (off
the event loop) re-indexes it, so the search screen finds the new text with nothing left to re-index."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

from textual.widgets import Input

from openclaw_tui.core.search.index import Index
from openclaw_tui.core.search.index_cache import index_path_for
from openclaw_tui.core.search.index_files import roots_of
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.screens.search.search_screen import SearchScreen
from tests.support import until
from tests.ui.test_ui_live import main, memories, shows, started
from tests.ui_support import SIZE, TODAY, settle, write_profile


def files_row(root: Path, path: Path) -> tuple[object, ...] | None:
    """The index's row for ``path``, read with a plain SQLite connection: opening an ``Index`` takes the
    index's lock, and the app's reload, feeding the index, does not wait for that lock (``note_written`` opens
    with ``wait=False``: a write never waits for a search).  Polled every 50 ms, the probe itself made the
    feed give up now and then (the reload is posted before the feed starts), and the row never came."""
    db = sqlite3.connect(index_path_for(root), timeout=30)
    try:
        return db.execute("SELECT size, hash FROM files WHERE path = ?", (str(path),)).fetchone()
    finally:
        db.close()


async def test_an_external_write_reaches_the_index_and_the_search_screen(tmp_path: Path) -> None:
    prof = write_profile(tmp_path, "xiaoyu", memories(1, 2, 3, 4, 5), {"identity.md": "# Xiaoyu\n"})
    index = Index.for_folder(prof)  # the index a search of this folder made earlier
    index.refresh(roots_of(prof))
    index.close()
    mem = prof / "memories.md"
    new = memories(1, 2, 3, 4, 5, m3="The agent learnt about 抹茶 matcha.")
    app = OpenClawApp(prof, today=TODAY, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        m = await started(pilot)
        tmp = mem.with_name(".memories.md.42.tmp")  # as an agent saves: temp file, then rename
        tmp.write_text(new, encoding="utf-8")
        os.replace(tmp, mem)
        await until(lambda: shows(m, [f"mem-{n:04d}" for n in range(1, 6)], ("mem-0003", "matcha")),
                    "the reload", pilot=pilot)
        digest = hashlib.sha1(new.encode()).hexdigest()
        await until(lambda: files_row(prof, mem) == (len(new.encode()), digest), "the index fed", pilot=pilot)
        screen = SearchScreen(prof, today=None)
        await app.push_screen(screen)
        await until(lambda: screen.ready, "the search screen", pilot=pilot)
        status = str(screen.query_one("#search-status").render())
        assert "re-indexed" not in status  # the reload had already brought the index up to date
        screen.query_one("#search-input", Input).value = "抹茶"
        await until(lambda: screen.last_query == "抹茶", "the search", pilot=pilot)
        assert [h.id for h in screen.hits] == ["mem-0003"]


async def test_the_app_s_own_write_is_indexed_by_its_reload_worker(tmp_path: Path) -> None:
    from openclaw_tui.core.lifecycle.operations import plan_set

    prof = write_profile(tmp_path, "xiaoyu", memories(1, 2, 3), {"identity.md": "# Xiaoyu\n"})
    index = Index.for_folder(prof)
    index.refresh(roots_of(prof))
    index.close()
    mem = prof / "memories.md"
    app = OpenClawApp(prof, today=TODAY, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        m = main(app)
        outcome = m.session.write(plan_set(m.session.files(), "mem-0002", {}, body="Now about 乌龙 oolong."))
        assert outcome.ok and outcome.plan is not None
        m.reload_for_plan(outcome.plan)
        data = mem.read_bytes()
        await until(lambda: files_row(prof, mem) == (len(data), hashlib.sha1(data).hexdigest()),
                    "the index fed by the reload", pilot=pilot)
    idx = Index.for_folder(prof)
    try:
        assert any("乌龙" in body for *_x, body in idx.documents(mem))
    finally:
        idx.close()
