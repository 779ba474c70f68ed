"""Background work in the app waits while the person types into a filter (the keystroke goes first)."""

from __future__ import annotations

import threading
import time

from openclaw_tui.session.controller import Session


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
    session.user_typed()
    started = time.monotonic()
    session.yield_to_user(lambda: True)
    assert time.monotonic() - started < session.TYPING_PAUSE
