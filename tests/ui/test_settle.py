"""tests.ui_support.settle waits for the app's workers, also when one is replaced by a newer one."""

from __future__ import annotations

import asyncio

from textual.app import App

from tests.ui_support import settle


async def test_settle_waits_past_a_worker_that_a_newer_one_cancelled() -> None:
    app: App[None] = App()
    done: list[str] = []

    async def work(name: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        done.append(name)

    async with app.run_test() as pilot:
        app.run_worker(work("first", 30), group="state", exclusive=True)
        # a refresh while the first still runs: Textual cancels it (the git state's exclusive worker does this)
        app.set_timer(0.1, lambda: app.run_worker(work("second", 0.3), group="state", exclusive=True))
        await settle(pilot)
        assert done == ["second"]
