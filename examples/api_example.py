#!/usr/bin/env python3
"""An agent writing its memory through ``openclaw_tui.api``, end to end.

    python examples/api_example.py [PROFILE]

With no PROFILE it works on a throwaway copy of the bundled sample profile
``atlas`` (nothing of yours is touched).  It remembers a fact (the duplicate
and conflict candidates come back with the new id), remembers a correction
that supersedes it, archives the old one, searches, asks what the agent
would load for a topic, and runs the consistency check.  Every write uses
the same write protocol as ``openclaw-tui``; the printed lines are what a
test compares.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from openclaw_tui.api import EditError, open_profile

SAMPLE = Path(__file__).resolve().parent.parent / "sample_profiles" / "profiles" / "atlas"


def main(argv: list[str]) -> int:
    if argv:
        return run(Path(argv[0]))
    with tempfile.TemporaryDirectory(prefix="openclaw-api-") as tmp:
        copy = Path(tmp) / "atlas"
        shutil.copytree(SAMPLE, copy)
        return run(copy)


def run(path: Path) -> int:
    mem = open_profile(path)
    print(f"opened {mem.path.name}: {len(mem.entries())} entries in memories.md")

    # 1. dedupe, then conflict detection, then write: one call
    first = mem.remember("The on-call rotation hands over on Mondays at 10:00.",
                         tags=["oncall"], importance="medium", source="chat#42")
    print(f"remembered {first.id}; shares tags with: {', '.join(c.id for c in first.conflicts) or 'none'}")

    # the same text again: reported as a duplicate; skip_duplicate writes nothing
    again = mem.remember("The on-call rotation hands over on Mondays at 10:00.", tags=["oncall"],
                         skip_duplicate=True)
    print(f"same text again: written={again.written}, id={again.id}, "
          f"duplicates={[d.id for d in again.duplicates]}")

    # 2. a correction: a new entry marked as contradicting the first, then the first superseded by it
    fix = mem.remember("The on-call rotation hands over on Tuesdays at 09:00.", tags=["oncall"],
                       importance="high", source="chat#43", conflict=first.id)
    print(f"remembered {fix.id}; near duplicates: {[d.id for d in fix.duplicates]}")
    change = mem.supersede(first.id, fix.id)
    print(f"{change.title}: {'; '.join(change.lines)}")

    # 3. archive it (all or none; a dry run shows the diff first)
    preview = mem.archive(first.id, dry_run=True)
    names = ", ".join(p.relative_to(mem.path).as_posix() for p in preview.files)
    print(f"dry run would change {names} (written={preview.written})")
    done = mem.archive(first.id)
    print(f"{done.title}: written={done.written}")

    # bad input raises EditError and writes nothing
    try:
        mem.remember("x", importance="urgent")
    except EditError as exc:
        print(f"refused: {exc}")

    # 4. search and context
    hits = mem.search("on-call Tuesdays", limit=3)
    print("search:", ", ".join(f"{h.id or h.file} ({h.score:.2f})" for h in hits))
    try:
        ctx = mem.context("on-call handover")
        print(f"context: {len(ctx.to_json().get('parts', []))} parts")
    except NotImplementedError as exc:
        print(f"context: not in this build ({exc.__class__.__name__})")

    # 5. the consistency check sees no new problem
    errors = [f for f in mem.check() if f.severity == "error"]
    print(f"check: {len(errors)} errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
