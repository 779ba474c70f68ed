"""Layout B's ``dangling-file`` for a distil reference ``<!-- source: memory/….md:N -->`` in MEMORY.md
whose log is gone (dreaming's promotion markers are references already, refs.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..files.profile import Profile, inside

Add = Callable[[str, str, "int | None", "str | None", str], None]

_SOURCE_ANY_RE = re.compile(r"<!--[ \t]*source:[ \t]*(memory/[^\s:>]+?\.md)(?::\d+)?[ \t]*-->")


def check_workspace_extra(profile: Profile, add: Add) -> None:
    by_rel = {f.rel: f for f in [*profile.bootstrap, *profile.other]}
    for rel in ("MEMORY.md", "memory.md"):
        mem = by_rel.get(rel)
        if mem is None or mem.error is not None or not mem.utf8:
            continue
        text = mem.text
        if "source:" in text:
            for m in _SOURCE_ANY_RE.finditer(text):
                target = profile.path / m.group(1)
                if inside(profile.path, target) and not target.exists():
                    line = text.count("\n", 0, m.start()) + 1
                    add("dangling-file", rel, line, None, f"{rel} references {m.group(1)}, which does not exist")


