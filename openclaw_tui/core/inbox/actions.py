"""Approve inbox changes (the mark takes them) or revert them (a plan giving the folder the mark's bytes)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..lifecycle.plan import FileChange, Plan
from ..lifecycle.undo import write_plan
from .inbox import Change, Inbox, load_inbox, row_pairs
from .mark import Mark, folder_files, write_mark
from .segments import transplant


class InboxError(ValueError):
    """An id the inbox does not hold, or nothing to do."""


def pick(inbox: Inbox, ids: Iterable[str]) -> list[Change]:
    """The changes named by id, or a group name ("dreaming 2026-04-27") for all of its changes."""
    out: list[Change] = []
    groups = inbox.groups()
    for i in ids:
        found = [inbox.get(i)] if inbox.get(i) else groups.get(i, [])
        if not found:
            raise InboxError(f"no change {i!r} in the inbox (`inbox PATH` lists them)")
        out += [c for c in found if c is not None and c not in out]
    return out


def _apply(files: Mapping[str, bytes | None], source: dict[str, bytes], changes: Sequence[Change],
           forward: bool) -> dict[str, bytes | None]:
    """``files`` with each change's units taken from ``source``: forward (approve) puts the new side in,
    backward (revert) puts the old side back."""
    out: dict[str, bytes | None] = dict(files)
    # rows before headings: a row's keys name the heading path it had before any heading was reworded
    units = sorted((u for c in changes for u in c.units), key=lambda u: (u.old or u.new or ("",))[0] == "section")
    for u in units:
        if u.whole_file:
            out[u.rel] = source.get(u.rel)
            continue
        remove, put = (u.old, u.new) if forward else (u.new, u.old)
        placed = put is not None and (remove is None or not u.in_place)  # put after its neighbour
        pairs = row_pairs(u.rel, source.get(u.rel), out.get(u.rel)) if placed else {}
        out[u.rel] = transplant(u.rel, out.get(u.rel), source.get(u.rel), remove, put, u.in_place, pairs, u.keep)
    return out


def approve(folder: Path | str, ids: Iterable[str]) -> Mark:
    """The mark takes the named changes (byte for byte); the others stay in the inbox."""
    inbox = load_inbox(folder)
    chosen = pick(inbox, ids)
    marked = _apply(inbox.mark.files, inbox.current, chosen, forward=True)
    # the same parent as before: the other changes are still told by the commits after it
    return write_mark(inbox.folder, {k: v for k, v in marked.items() if v is not None}, parent=inbox.mark.base)


def approve_all(folder: Path | str) -> Mark:
    """The mark moves to the folder as it is now."""
    from ..git.gitrepo import find_repo

    folder = Path(folder).absolute()
    return write_mark(folder, folder_files(folder, find_repo(folder)))


def revert_plan(folder: Path | str, ids: Iterable[str]) -> Plan:
    """A plan giving the named changes' entries / rows / files back the mark's bytes (rebuilt on newer
    files when the agent writes meanwhile)."""
    wanted = list(ids)

    def build() -> Plan:
        inbox = load_inbox(folder)
        chosen = pick(inbox, wanted)
        now = inbox.current
        after = _apply(now, inbox.mark.files, chosen, forward=False)
        plan = Plan(f"revert {', '.join(c.title[:30] for c in chosen)}", rebuild=build)
        for rel in sorted({u.rel for c in chosen for u in c.units}):
            path = inbox.folder / rel
            before, new = now.get(rel), after.get(rel)
            if new is None and before is not None:
                plan.removed[path] = before
            elif new is not None and new != before:
                plan.changes.append(FileChange(path, before, new))
        return plan

    return build()


def revert(folder: Path | str, ids: Iterable[str]) -> Plan:
    """Revert the named changes now (see ``revert_plan``); returns the plan written (for undo)."""
    plan = revert_plan(folder, ids)
    if plan.empty:
        raise InboxError("nothing to revert")
    for c in plan.changes:
        c.path.parent.mkdir(parents=True, exist_ok=True)
    return write_plan(plan)
