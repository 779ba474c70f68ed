"""Background work in the app waits while the person types into a filter (the keystroke goes first)."""

from __future__ import annotations

import threading
import time

from openclaw_tui.ui.session.controller import Session


def test_background_work_sleeps_while_keys_come_and_resumes_after_the_pause() -> None:
    session = Session(watch=False)
    session.yield_to_user()  # nobody typed: returns at once (no pause to wait out)
    session.user_typed()
    done = threading.Event()
    worker = threading.Thread(target=lambda: (session.yield_to_user(), done.set()))
    worker.start()
    time.sleep(session.TYPING_PAUSE / 4)
    assert not done.is_set()  # still typing: the worker sleeps
    session.user_typed()  # another key extends the pause
    time.sleep(session.TYPING_PAUSE / 2)
    assert not done.is_set()
    worker.join(timeout=10)
    assert done.is_set()  # the person stopped: the work goes on


def test_a_cancelled_worker_does_not_wait_for_the_typing_to_stop() -> None:
    session = Session(watch=False)
    session.TYPING_PAUSE = 3600.0  # type: ignore[misc]  # (waiting it out would hang the test)
    session.user_typed()
    session.yield_to_user(lambda: True)  # returns: cancelled


def test_the_reference_index_of_a_version_being_re_read_waits_for_the_re_read(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from openclaw_tui.core.files.profile import load_profile
    from tests.ui_support import write_profile

    prof = write_profile(tmp_path, "p", "---\nid: a\n---\nA.\n")
    session = Session(prof, watch=False)
    found = session.discover()
    session.adopt(found, session.read(found.profiles))
    path = session.order[0]
    session.wait_for_reload(path)  # nothing re-read: returns at once
    started = session.begin_reload(path)
    assert started is not None and session.reload_pending(path)
    done = threading.Event()
    worker = threading.Thread(target=lambda: (session.wait_for_reload(path), done.set()))
    worker.start()
    time.sleep(0.2)
    assert not done.is_set()  # the re-read is on its way: the index of the older version waits
    fresh = session.read_again(load_profile(prof), session.data[path])
    assert session.accept_reload(fresh, started[1]) is not None
    worker.join(timeout=10)
    assert done.is_set() and not session.reload_pending(path)
    session.RELOAD_WAIT = 3600.0  # type: ignore[misc]  # (waiting it out would hang the test)
    session.begin_reload(path)
    session.wait_for_reload(path, lambda: True)  # a cancelled worker does not wait: returns
    assert session.reload_pending(path)


def test_a_reload_is_worded_and_counted_by_its_worker_and_pending_until_its_data_is_in(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from openclaw_tui.core.files.profile import load_profile
    from openclaw_tui.core.files.watch import ChangeBatch
    from openclaw_tui.ui.session.watching import external_notices
    from tests.ui_support import write_profile

    prof = write_profile(tmp_path, "p", "---\nid: a\nstatus: active\n---\nA.\n\n---\nid: b\n---\nB.\n")
    session = Session(prof, watch=False)
    found = session.discover()
    session.adopt(found, session.read(found.profiles))
    path = session.order[0]
    before = session.data[path]
    assert session.index(before, lambda: False)
    (prof / "memories.md").write_text("---\nid: a\nstatus: cold\n---\nA.\n\n---\nid: c\n---\nC.\n", encoding="utf-8")
    assert [c.memory for c in session.changes(ChangeBatch(paths=frozenset({"memories.md"})))] == [True]
    _profile, gen = session.begin_reload(path)  # type: ignore[misc]
    fresh = session.read_again(load_profile(prof), before)
    session.prepare_reload(fresh)  # the worker's part
    assert fresh.notices is not None and fresh.notices[0] is before
    want = external_notices(before, fresh)
    assert want and fresh.notices[1] == want
    assert fresh.indexed and set(fresh._counts) == {"memories.md"}  # the status bar's counts are made too
    fresh.notices = (before, ["made by the worker"])  # accept_reload takes what the worker made...
    seen: list[bool] = []
    session.data = _Spy(session.data, lambda: seen.append(session.reload_pending(path)))  # type: ignore[assignment]
    old, notices = session.accept_reload(fresh, gen)  # type: ignore[misc]
    assert old is before and notices == ["made by the worker"] and fresh.notices is None
    assert seen == [True]  # still pending while the new data goes in: no worker starts on the old one
    assert not session.reload_pending(path) and session.data[path] is fresh


class _Spy(dict):  # type: ignore[type-arg]
    """A dict that calls ``hook`` when an item is set (to see what other threads would see then)."""

    def __init__(self, data: dict, hook) -> None:  # type: ignore[no-untyped-def,type-arg]
        super().__init__(data)
        self.hook = hook

    def __setitem__(self, key, value) -> None:  # type: ignore[no-untyped-def]
        self.hook()
        super().__setitem__(key, value)


def test_a_re_read_that_never_comes_stops_no_background_work_for_good(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.ui_support import write_profile

    prof = write_profile(tmp_path, "p", "---\nid: a\n---\nA.\n")
    session = Session(prof, watch=False)
    found = session.discover()
    session.adopt(found, session.read(found.profiles))
    path = session.order[0]
    session.RELOAD_WAIT = 0.3  # type: ignore[misc]
    session.begin_reload(path)  # and no result ever (the re-read failed)
    session.wait_for_reload(path)  # returns after RELOAD_WAIT, the re-read still pending
    assert session.reload_pending(path)
