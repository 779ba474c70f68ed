"""Issue 24 point 1: a write by another program during start-up always shows (the watcher starts after the
first read; once it runs, every loaded file is compared with disk and what differs is reloaded)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.ui.app import OpenClawApp
from tests.support import until
from tests.ui.test_ui_live import memories, view_ids
from tests.ui_support import REPO, TODAY, write_profile

# Another program: imports first, says "ready", then on "go" waits DELAY seconds and adds an entry
# through the write protocol (operations.add_entry: temp + fsync + os.replace under the lock).
WRITER = """
import sys, time
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.lifecycle import operations
print("ready", flush=True)
sys.stdin.readline()
time.sleep(float(sys.argv[2]))
plan = operations.add_entry(load_profile(sys.argv[1]), {"id": "mem-0900", "tags": ["late"]}, "Written at start-up.\\n")
print(plan.new_id, flush=True)
"""


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2, 0.35, 0.6])
async def test_a_write_during_start_up_shows(tmp_path: Path, delay: float) -> None:
    prof = write_profile(tmp_path, "xiaoyu", memories(*range(1, 30)))
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(prof), str(delay)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "ready"
        app = OpenClawApp(prof, today=TODAY)
        async with app.run_test(size=(120, 36)) as pilot:
            writer.stdin.write("go\n")
            writer.stdin.flush()
            main = app.main_screen
            await until(lambda: writer.poll() is not None, "the writer", pilot=pilot)
            assert writer.returncode == 0
            await until(lambda: "mem-0900" in view_ids(main), "the entry written at start-up", pilot=pilot)
            tree = main.files_tree
            label = str(tree.find_node(prof.resolve(), "memories.md").label)  # type: ignore[union-attr]
            await until(lambda: str(tree.find_node(prof.resolve(), "memories.md").label)  # type: ignore[union-attr]
                        .startswith("memories.md (30)"), f"the tree's count (now {label})", pilot=pilot)
    finally:
        if writer.poll() is None:
            writer.kill()
        writer.wait()
