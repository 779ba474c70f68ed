"""Distil: turn short-term notes into long-term memory.

Layout B: picked daily-log lines become MEMORY.md items with ``<!-- source: memory/DATE.md:N -->``,
and ``<!-- distilled: N, M -->`` (or ``dropped``) is appended to the append-only log.  Layout A:
picked lines of ``contexts/DATE.md`` become new entries of memories.md, the file moves to
``contexts/archive/``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..files.profile import Profile, inside
from ..format.edit import EditError
from ..format.entries import decode
from ..format.fields import next_id
from ..lifecycle.operations import Builder, append_new, new_entry_meta
from ..lifecycle.plan import FileChange, Files, Plan, now_iso
from ..lifecycle.undo import Step, write_plan, write_steps
from .edits import encode, ending_before, insert_into_section, text_plan
from .model import load_daily_logs, parse_log

_TIME_RE = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])?\s*(?:\d{1,2}:\d{2}\s+)?")


def line_text(raw: str) -> str:
    """The words of a log line: bullet and a leading "09:40" time dropped."""
    return raw[_TIME_RE.match(raw).end():].strip() if _TIME_RE.match(raw) else raw.strip()  # type: ignore[union-attr]


@dataclass
class DistilResult:
    plan: Plan
    items: list[str]


def _log_lines(path: Path, numbers: Sequence[int]) -> dict[int, str]:
    text, _bom, _ok = decode(path.read_bytes())
    content = {ln.number: ln.text for ln in parse_log(text)}
    missing = [n for n in numbers if n not in content]
    if missing:
        raise EditError(f"{path.name} has no content line {missing[0]}")
    return {n: content[n] for n in numbers}


def mark_log(path: Path, distilled: Sequence[int], dropped: Sequence[int] = ()) -> Plan:
    """Append the distilled/dropped marks to a log (its earlier bytes stay as they are)."""

    def transform(text: str) -> str:
        nl = ending_before(text, len(text))
        out = text if not text or text.endswith("\n") else text + nl
        if distilled:
            out += f"<!-- distilled: {', '.join(str(n) for n in sorted(set(distilled)))} -->{nl}"
        if dropped:
            out += f"<!-- dropped: {', '.join(str(n) for n in sorted(set(dropped)))} -->{nl}"
        return out

    return text_plan(path, f"mark {path.name}", transform)


def distil_plan(
    workspace: Path,
    log_rel: str,
    lines: Sequence[int],
    section_key: str | None,
    *,
    dropped: Sequence[int] = (),
) -> DistilResult:
    """One plan that appends the picked log lines to MEMORY.md and marks them in the log."""
    log = workspace / log_rel
    mem = workspace / "MEMORY.md"
    if not inside(workspace, log) or not log.is_file():
        raise EditError(f"{log_rel}: no such daily log in the workspace")
    if not inside(workspace, mem):
        raise EditError("MEMORY.md leaves the workspace")
    picked = _log_lines(log, lines)
    _log_lines(log, dropped)
    bodies = [f"{line_text(raw)} <!-- source: {log_rel}:{n} -->" for n, raw in picked.items()]

    def build() -> Plan:
        before = mem.read_bytes() if mem.exists() else None
        text, bom, _ok = decode(before) if before is not None else ("", False, True)
        inserted = insert_into_section(text, section_key, bodies, " in MEMORY.md")  # checks the section
        new_text = inserted if bodies else text
        mark = mark_log(log, list(picked), dropped)
        return Plan(f"distil {len(picked)} line(s) of {log_rel}",
                    [FileChange(mem, before, encode(new_text, bom)), *mark.changes], rebuild=build)

    return DistilResult(build(), bodies)


def removable_logs(workspace: Path, today: dt.date | None = None) -> list[str]:
    """Fully distilled logs older than 30 days: they can go (git keeps them)."""
    return [lg.rel for lg in load_daily_logs(workspace, today) if lg.fully_distilled and lg.age_days > 30]


def remove_logs(workspace: Path, rels: Sequence[str]) -> str | None:
    """Remove logs (each compared against the bytes read first) and commit the removal; the sha or None."""
    steps = []
    for rel in rels:
        p = workspace / rel
        if not inside(workspace, p) or not p.is_file():
            raise EditError(f"{rel}: no such daily log in the workspace")
        steps.append(Step(p, p.read_bytes(), None))
    write_steps(steps)
    return commit_files(workspace, [workspace / r for r in rels], f"remove {len(rels)} distilled daily log(s)\n\n"
                        + "\n".join(f"- {r}: distilled into MEMORY.md, removed" for r in rels) + "\n")


def commit_files(workspace: Path, paths: Sequence[Path], message: str) -> str | None:
    """Commit exactly these paths (additions, changes, removals) when the workspace is in git."""
    from ..git.gitrepo import find_repo, head_sha, run_git

    repo = find_repo(workspace)
    if repo is None:
        return None
    rels = [repo.rel(p.parent) + "/" + p.name if repo.rel(p.parent) else p.name for p in paths]
    run_git(["add", "-A", "--", *rels], repo.root)
    args = ["commit", "-q", "--no-verify", "-F", "-"]
    if head_sha(repo) is not None:
        args += ["--only", "--", *rels]
    run_git(args, repo.root, input=message.encode("utf-8"))
    return head_sha(repo)


# --- layout A: contexts/{date}.md → memories.md ----------------------------------------------


def distil_context_plan(profile: Profile, context_rel: str, lines: Sequence[int], *, archive: bool = True,
                        now: dt.datetime | None = None) -> Plan:
    """The plan, not yet written: a new active entry of memories.md per picked line (``source:
    contexts/…md:N``, body the line's words) and, with ``archive``, the context file moved to
    ``contexts/archive/``."""
    src = profile.path / context_rel
    if not context_rel.startswith("contexts/") or context_rel.startswith("contexts/archive/") \
            or not inside(profile.path, src) or not src.is_file():
        raise EditError(f"{context_rel}: not a context file of the profile")
    if not lines:
        raise EditError("pick at least one line to distil")
    dest = profile.path / "contexts" / "archive" / src.name
    if archive:
        if dest.exists():
            raise EditError(f"contexts/archive/{src.name} exists already; the context file stays")
        if not inside(profile.path, dest.parent if dest.parent.exists() else profile.path / "contexts"):
            raise EditError("contexts/archive leaves the profile folder")

    def build() -> Plan:
        picked = _log_lines(src, lines)
        files = Files.of(profile)
        ids = set(files.all_ids())
        b = Builder(files, f"distil {len(picked)} line(s) of {context_rel}")
        for n, raw in picked.items():
            meta = new_entry_meta(files, {}, now_iso(now), source=f"{context_rel}:{n}")
            meta["id"] = next_id(ids)
            ids.add(str(meta["id"]))
            append_new(b, files.memories, meta, line_text(raw) + "\n")
        plan = b.build()
        plan.rebuild = build
        if archive:
            data = src.read_bytes()
            plan.changes.append(FileChange(dest, None, data))
            plan.removed[src] = data
            plan.title += f", moved to contexts/archive/{src.name}"
        return plan

    return build()


def distil_context(profile: Profile, context_rel: str, lines: Sequence[int], *, archive: bool = True,
                   now: dt.datetime | None = None) -> tuple[Plan, list[str], Path | None]:
    """``distil_context_plan`` written in one journaled step (a crash leaves all of it or none);
    returns (the applied plan, the new ids, where the file went)."""
    plan = distil_context_plan(profile, context_rel, lines, archive=archive, now=now)
    if archive:
        (profile.path / "contexts" / "archive").mkdir(parents=True, exist_ok=True)
    plan = write_plan(plan)
    dest = profile.path / "contexts" / "archive" / Path(context_rel).name if archive else None
    return plan, plan.added, dest
