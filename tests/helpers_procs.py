"""Worker processes for the concurrency and crash-safety tests (run as a script, not collected).

    python tests/helpers_procs.py edit PROFILE WORKER COUNT
        COUNT rounds of: add an entry and set this worker's counter field through the operations,
        alternating an id of its own and the next free id; prints one line per added id.
    python tests/helpers_procs.py versions FILE
        writes version 1, 2... of FILE through plan.apply_changes, forever (until killed).
    python tests/helpers_procs.py shuffle PROFILE
        archives and restores entries through the lifecycle operations, forever.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.files.safe_write import ConcurrentModification
from openclaw_tui.core.format.edit import EditError
from openclaw_tui.core.format.entries import parse_bytes
from openclaw_tui.core.lifecycle import archive as lc
from openclaw_tui.core.lifecycle import operations
from openclaw_tui.core.lifecycle.plan import FileChange, Plan, apply_changes


def version_text(k: int, entries: int = 400) -> str:
    """The k-th version written by ``versions``: big enough that a kill often lands mid-write."""
    parts = ["# versions\n"]
    for i in range(1, entries + 1):
        parts.append(f"---\nid: mem-{i:04d}\nversion: {k}\n---\n{'body text ' * 20}{k}\n")
    return "".join(parts)


def retry(fn, attempts: int = 200):  # type: ignore[no-untyped-def]
    for _ in range(attempts):
        try:
            return fn()
        except ConcurrentModification:
            time.sleep(0.002)
    raise SystemExit("gave up after repeated concurrent modifications")


def edit_worker(profile: Path, worker: int, count: int) -> None:
    own = f"mem-{worker:04d}"
    for i in range(count):
        if i % 2 == 0:  # an id of the worker's own, kept when the plan is rebuilt on a newer file
            meta = {"id": f"w{worker}-{i}", "source": f"worker {worker}"}
            plan = retry(lambda m=meta, i=i: operations.add_entry(load_profile(profile), m, f"added by {worker} round {i}\n"))
        else:  # the next free id, allocated afresh when the plan is rebuilt
            plan = retry(lambda i=i: operations.add_entry(load_profile(profile), {"tags": [f"w{worker}"]}, f"op {i}\n"))
        new_id = plan.new_id
        retry(lambda i=i: operations.set_entry(load_profile(profile), own, {f"counter_{worker}": i}))
        print(new_id, flush=True)


def versions_worker(path: Path) -> None:
    k = 0
    data = path.read_bytes()
    while True:
        k += 1
        new = version_text(k).encode()
        apply_changes(Plan(f"version {k}", [FileChange(path, data, new)]))  # the one write path
        data = new
        print(k, flush=True)


def shuffle_worker(profile: Path) -> None:
    n = 0
    while True:
        ids = parse_bytes((profile / "memories.md").read_bytes()).ids()
        arc = profile / "contexts" / "archive" / "memories.md"
        archived = parse_bytes(arc.read_bytes()).ids() if arc.exists() else []
        try:
            if ids and (n % 3 or not archived):
                lc.archive(load_profile(profile), ids[n % len(ids)])
            elif archived:
                lc.restore(load_profile(profile), archived[n % len(archived)])
        except EditError:
            pass
        n += 1


def main(argv: list[str]) -> None:
    mode = argv[0]
    if mode == "edit":
        edit_worker(Path(argv[1]), int(argv[2]), int(argv[3]))
    elif mode == "versions":
        versions_worker(Path(argv[1]))
    elif mode == "shuffle":
        shuffle_worker(Path(argv[1]))
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
