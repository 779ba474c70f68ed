"""Repairing dangling and inactive references: candidates, best first, and the plan that applies one.

``find_problems`` turns every repairable finding into a ``Problem``: its reference, where its bytes
are, and its ``Candidate`` repairs, best first, each with why.  ``plan_repair`` builds a ``plan.Plan``
that changes only the reference's bytes (or its line, ``refbytes.removal``); a plan that touches only
references inside entries is redone on the new bytes when the agent wrote meanwhile, unless one of
those entries changed.  ``plan_all_safe`` combines every certain repair into one plan.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..files.profile import ARCHIVE_REL, Profile, load_profile
from ..files.safe_write import read_bytes
from ..format.blocks import Block
from ..format.edit import DELETE, EditError
from ..format.entries import Entry
from ..lifecycle.archive import plan_restore
from ..lifecycle.operations import Builder
from ..lifecycle.plan import FileChange, Files, Plan, apply_changes
from .codes import REPAIRABLE
from .findings import Finding, Suggestion
from .refbytes import (
    file_bytes,
    line_bounds,
    locate,
    order_candidates,
    removal,
    removal_why,
    whole_value,
    written,
)
from .refs import Ref, scan_references
from .rules import check_profile
from .suggest import IdFacts, file_suggestions, id_suggestions, missing_file, profile_files, tokens

SAFE_KINDS = frozenset({"superseded", "archive", "merged", "git"})
CONTEXT_SCAN_MAX = 20_000  # entries looked at for shared tags/words (a bigger profile skips that kind)


@dataclass(frozen=True)
class Candidate:
    """One repair: ``action`` (rewrite, restore, restore-git, reactivate, remove) with ``target``."""

    action: str
    target: str  # the id or file written instead; the id restored; "" for remove
    why: str
    kind: str  # superseded, archive, merged, git, cold, typo, context, file, remove
    safe: bool = False  # certain enough for --all-safe
    text: str | None = field(default=None, compare=False)  # restore-git: the entry's last version
    commit: str | None = None  # restore-git: the commit that still held it
    into: str | None = None  # restore-git: the memory file it goes back to

    def describe(self) -> str:
        if self.action == "rewrite":
            return f"rewrite to {self.target}: {self.why}"
        if self.action == "restore":
            return f"restore {self.target} from the archive: {self.why}"
        if self.action in ("restore-git", "restore-file"):
            return f"restore {self.target} from commit {self.commit}: {self.why}"
        if self.action == "reactivate":
            return f"make {self.target} active: {self.why}"
        return f"remove the reference: {self.why}"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"action": self.action, "target": self.target, "why": self.why, "kind": self.kind,
                             "safe": self.safe}
        if self.action in ("restore-git", "restore-file"):
            d.update(commit=self.commit, into=self.into, text=self.text)
        return d


@dataclass(frozen=True)
class Problem:
    """A reference finding, its reference, the reference's bytes, and its candidates (best first)."""

    number: int  # 1-based, in the check's order
    finding: Finding
    ref: Ref | None
    span: tuple[int, int] | None  # byte offsets of the reference as written in ``finding.file``
    candidates: tuple[Candidate, ...]

    @property
    def target(self) -> str:
        """What the reference names: the entry id, or the missing file."""
        if self.ref is not None:
            return self.ref.target_id or self.ref.target_file or self.ref.text
        return self.finding.id or ""

    @property
    def safe(self) -> Candidate | None:
        """The first candidate when it is certain (and no other candidate is as good)."""
        return self.candidates[0] if self.candidates and self.candidates[0].safe else None

    def to_json(self) -> dict[str, Any]:
        f = self.finding
        return {"number": self.number, "code": f.code, "file": f.file, "line": f.line, "id": f.id,
                "target": self.target, "message": f.message,
                "candidates": [c.to_json() for c in self.candidates]}


# --- finding the problems -------------------------------------------------------------


def find_problems(
    profile: Profile, *, today: dt.date | None = None, history: bool = True,
    findings: Sequence[Finding] | None = None,
) -> list[Problem]:
    """Every reference finding of ``profile`` with its candidates (``history``: ask git for deleted ids)."""
    if findings is None:
        findings = check_profile(profile, today=today)
    wanted = [f for f in findings if f.code in REPAIRABLE]
    if not wanted:
        return []
    refs = scan_references(profile)
    pending: dict[tuple[str, int | None, str], list[tuple[Ref, int]]] = {}
    seen: dict[tuple[str, int | None, str], int] = {}
    for r in refs:
        key = (r.file, r.line, r.target_id if r.target_id is not None else "\0file")
        nth = seen.get((r.file, r.line, r.text), 0)
        seen[(r.file, r.line, r.text)] = nth + 1
        if (r.target_id is not None) or (r.missing and not r.escapes):
            pending.setdefault(key, []).append((r, nth))
    ctx = _Context(profile, history)
    out: list[Problem] = []
    for n, f in enumerate(wanted, start=1):
        target = f.id if f.code != "dangling-file" else "\0file"  # one finding per missing-file reference, in order
        queue = pending.get((f.file, f.line, target or ""), [])
        ref, nth = queue.pop(0) if queue else (None, 0)
        span = ctx.span(ref, nth) if ref is not None else None
        out.append(Problem(n, f, ref, span, tuple(ctx.candidates(f, ref, span))))
    return out


class _Context:
    """What candidate-making needs from the profile, loaded when first needed."""

    def __init__(self, profile: Profile, history: bool) -> None:
        self.profile = profile
        self.history = history
        self.facts = IdFacts(profile)
        self._files: list[str] | None = None
        self._tokens: list[tuple[Entry, frozenset[str], frozenset[str]]] | None = None
        self._git: dict[str, Candidate | None] = {}

    # bytes -------------------------------------------------------------------------

    def span(self, ref: Ref, nth: int) -> tuple[int, int] | None:
        data = file_bytes(self.profile, ref.file)
        if data is None or ref.line is None:
            return None
        return locate(data, ref.line, written(ref), nth)

    def row(self, rel: str, line: int | None) -> str:
        data = file_bytes(self.profile, rel)
        if data is None or line is None:
            return ""
        a, b = line_bounds(data, line)
        return data[a:b].decode("utf-8", "replace")

    # candidates --------------------------------------------------------------------

    def candidates(self, f: Finding, ref: Ref | None, span: tuple[int, int] | None) -> list[Candidate]:
        if f.code == "dangling-file":
            out = self.file_candidates(f, ref)
        elif f.code == "inactive-ref":
            out = _candidates(id_suggestions(f.id or "", self.facts, inactive=True))
        else:
            out = self.dangling_candidates(f, ref)
        if ref is not None and span is not None and removal(self.profile, ref, span) is not None:
            out.append(Candidate("remove", "", removal_why(ref), "remove"))
        out = order_candidates(out)
        # a rewrite is done unasked only where the reference is a whole value (not inside a sentence)
        rewrite_ok = ref is not None and span is not None and whole_value(self.profile, ref, span)
        return _mark_safe(out, rewrite_ok)

    def dangling_candidates(self, f: Finding, ref: Ref | None) -> list[Candidate]:
        ident = f.id or ""
        tags, words = self.context_of(ref)
        out = _candidates(id_suggestions(ident, self.facts, inactive=False, tags=tags, words=words, near=4, two=True))
        git = self.git_version(ident)
        if git is not None:
            out.append(git)  # order_candidates puts it after the compactors, before the near ids
        taken = {c.target for c in out}
        for e, score, shared in self.context_matches(ref, tags, words):
            if e.id is not None and e.id not in taken and score >= 2:
                out.append(Candidate("rewrite", e.id, "shares " + ", ".join(shared[:3]), "context"))
        return out

    def file_candidates(self, f: Finding, ref: Ref | None) -> list[Candidate]:
        missing = ref.target_file if ref is not None else missing_file(f)
        if not missing:
            return []
        if self._files is None:
            self._files = profile_files(self.profile)
        out = _candidates(file_suggestions(missing, self._files, f.file))
        if self.history:
            git = _git_file_candidate(self.profile, missing)
            if git is not None:
                out.insert(0, git)
        return out

    # git ---------------------------------------------------------------------------

    def git_version(self, ident: str) -> Candidate | None:
        if not self.history or self.profile.layout != "profile":
            return None
        if ident not in self._git:
            self._git[ident] = _git_candidate(self.profile, ident)
        return self._git[ident]

    # context -----------------------------------------------------------------------

    def context_of(self, ref: Ref | None) -> tuple[frozenset[str], frozenset[str]]:
        """Tags and words around the reference: its entry's, or its line's (and the line before)."""
        if ref is None:
            return frozenset(), frozenset()
        if ref.source_id is not None:
            e = self.facts.get(ref.source_id)
            if e is not None:
                return frozenset(e.tags), tokens(e.body)
        text = self.row(ref.file, ref.line)
        if ref.line and ref.line > 1:
            text = self.row(ref.file, ref.line - 1) + "\n" + text
        return frozenset(), tokens(text)

    def context_matches(
        self, ref: Ref | None, tags: frozenset[str], words: frozenset[str]
    ) -> list[tuple[Entry, int, list[str]]]:
        if not tags and not words:
            return []
        if self._tokens is None:
            self._tokens = []
            mem = self.profile.memories
            if mem is not None and mem.utf8 and len(mem.mf.entries) <= CONTEXT_SCAN_MAX:
                for e in mem.mf.well_formed():
                    if e.status == "active":
                        self._tokens.append((e, frozenset(e.tags), tokens(e.body)))
        source = ref.source_id if ref is not None else None
        found = []
        for e, etags, ewords in self._tokens:
            if e.id == source:
                continue
            st, sw = tags & etags, words & ewords
            score = 3 * len(st) + len(sw)
            if score:
                found.append((e, score, [f"tag {t}" for t in sorted(st)] + [f"“{w}”" for w in sorted(sw)]))
        found.sort(key=lambda t: -t[1])
        return found[:3]


def _candidates(suggestions: Iterable[Suggestion]) -> list[Candidate]:
    return [Candidate(s.action, s.target, s.why, s.kind) for s in suggestions]


def _mark_safe(cands: list[Candidate], rewrite_ok: bool = True) -> list[Candidate]:
    """Only a lone certain candidate is safe: pointing forward (chain end, compactor) wins over restoring;
    two different forward targets, or two different restorations, are a choice for a person."""
    if not cands or cands[0].kind not in SAFE_KINDS or (cands[0].action == "rewrite" and not rewrite_ok):
        return cands
    certain = [c for c in cands if c.kind in SAFE_KINDS]
    forward = {(c.action, c.target) for c in certain if c.kind in ("superseded", "merged")}
    if forward:
        ok = len(forward) == 1 and cands[0].kind in ("superseded", "merged")
    else:
        ok = len({(c.action, c.target) for c in certain}) == 1
    if not ok:
        return cands
    first = Candidate(**{**cands[0].__dict__, "safe": True})
    return [first, *cands[1:]]


def _git_candidate(profile: Profile, ident: str) -> Candidate | None:
    from ..git.entry_history import entry_history
    from ..git.gitrepo import GitError, find_repo

    repo = find_repo(profile.path)
    if repo is None:
        return None
    try:
        versions = entry_history(repo, profile, ident)
    except (GitError, OSError):
        return None
    if not versions:
        return None
    last = versions[0]
    if last.kind == "removed":
        text = last.previous
        sha = last.commit.parents[0][:7] if last.commit.parents else last.commit.short
        removed = f"removed in {last.commit.short} ({last.commit.date[:10]}: {last.commit.subject})"
        into = next((v.file for v in versions[1:] if v.file), None) or "memories.md"
    else:  # still in the last commit: deleted since, not committed
        text = last.raw
        sha = last.commit.short
        removed = "deleted since the last commit"
        into = last.file or "memories.md"
    if not text:
        return None
    return Candidate("restore-git", ident, f"{ident} was {removed}", "git", text=text, commit=sha, into=into)


def _git_file_candidate(profile: Profile, rel: str) -> Candidate | None:
    """The last committed version of a missing profile file (deleted since): "restore it from commit X"."""
    from ..git.gitrepo import GitError, find_repo, run_git

    repo = find_repo(profile.path)
    if repo is None:
        return None
    path = repo.rel(profile.path / rel)
    try:
        log = run_git(["log", "-1", "--format=%H%x00%h%x00%as%x00%s", "--", path], repo.root,
                      env={"GIT_OPTIONAL_LOCKS": "0"}, check=False)
        fields = log.stdout.decode("utf-8", "replace").strip().split("\0")
        if log.returncode != 0 or len(fields) < 4:
            return None
        sha, short, date, subject = fields[:4]
        shown = run_git(["show", f"{sha}:{path}"], repo.root, env={"GIT_OPTIONAL_LOCKS": "0"}, check=False)
        why = f"{rel} is in commit {short}; deleted since"
        if shown.returncode != 0:  # that commit removed it: take its parent's
            shown = run_git(["show", f"{sha}^:{path}"], repo.root, env={"GIT_OPTIONAL_LOCKS": "0"}, check=False)
            why = f"{rel} was removed in {short} ({date}: {subject})"
            parent = run_git(["rev-parse", "--short", f"{sha}^"], repo.root, check=False)
            short = parent.stdout.decode().strip() or short
        if shown.returncode != 0:
            return None
    except GitError:
        return None
    return Candidate("restore-file", rel, why, "git-file", text=shown.stdout.decode("utf-8", "surrogateescape"),
                     commit=short, into=rel)


# --- plans -------------------------------------------------------------------------------


def together(problems: Sequence[Problem], one: Problem, cand: Candidate) -> list[Problem]:
    """``one`` and every other problem naming the same target that offers the same repair."""
    out = [one]
    for p in problems:
        if p is not one and p.finding.code == one.finding.code and p.target == one.target:
            if any((c.action, c.target) == (cand.action, cand.target) for c in p.candidates):
                out.append(p)
    return out


def plan_repair(profile: Profile, problems: Sequence[Problem], cand: Candidate) -> Plan:
    """The plan that applies ``cand`` to ``problems`` (all naming one target); writes nothing."""
    if not problems:
        raise EditError("nothing to repair")
    target = problems[0].target
    if cand.action == "restore":
        plan = plan_restore(profile, cand.target)
        plan.title = f"repair: restore {cand.target} from the archive"
        return plan
    if cand.action == "restore-git":
        return _plan_git_restore(profile, cand)
    if cand.action == "restore-file":
        assert cand.text is not None
        dest = profile.path / cand.target
        if os.path.lexists(dest):
            raise EditError(f"{cand.target} exists already")
        if not dest.parent.is_dir():
            raise EditError(f"{posixpath.dirname(cand.target)}/ does not exist")
        plan = Plan(f"repair: restore {cand.target} from commit {cand.commit}")
        plan.changes.append(FileChange(dest, None, cand.text.encode("utf-8", "surrogateescape")))
        return plan
    if cand.action == "reactivate":
        files = Files.of(profile)
        b = Builder(files, f"repair: make {cand.target} active")
        doc, k, e = b.entry(cand.target)
        changes: dict[str, Any] = {"status": "active"}
        if "superseded_by" in e.meta:
            changes["superseded_by"] = DELETE
        b.edit(doc, k, changes)
        b.plan.changed[cand.target] = list(changes)
        plan = b.build()
        plan.rebuild = lambda: plan_repair(profile.reload(), problems, cand)
        return plan
    # rewrite / remove: byte edits of the references
    edits: dict[str, list[tuple[int, int, bytes]]] = {}
    for p in problems:
        if p.ref is None or p.span is None:
            raise EditError(f"the reference of finding {p.number} could not be found in {p.finding.file}")
        if cand.action == "remove":
            cut = removal(profile, p.ref, p.span)
            if cut is None:
                raise EditError(f"finding {p.number}: this reference cannot be removed cleanly")
            edits.setdefault(p.ref.file, []).append(cut)
        else:
            new = _rewritten(profile, p, cand.target)
            edits.setdefault(p.ref.file, []).append((p.span[0], p.span[1], new.encode("utf-8")))
    verb = f"{target} → {cand.target}" if cand.action == "rewrite" else f"remove references to {target}"
    plan = Plan(f"repair: {verb}")
    for rel, cuts in edits.items():
        before = file_bytes(profile, rel)
        if before is None:
            raise EditError(f"{rel} cannot be read")
        after = before
        last = None
        for lo, hi, new_b in sorted(set(cuts), reverse=True):
            if last is not None and hi > last:
                raise EditError(f"two repairs overlap in {rel}")
            after = after[:lo] + new_b + after[hi:]
            last = lo
        plan.changes.append(FileChange(profile.path / rel, before, after))
        if rel in ("memories.md", ARCHIVE_REL):
            ids = {p.ref.source_id for p in problems if p.ref is not None and p.ref.file == rel and p.ref.source_id}
            for i in ids:
                plan.changed.setdefault(i, []).append("references")
            plan.touched[profile.path / rel] = frozenset(ids)
    if all(rel in ("memories.md", ARCHIVE_REL) for rel in edits) and all(
        p.ref is not None and p.ref.source_id for p in problems
    ):
        # only entries' references: when the agent wrote meanwhile, redo the repair on the new bytes
        # (apply_changes refuses it when one of the entries holding a reference changed)
        plan.rebuild = lambda: _rebuilt(profile, problems, cand)
    return plan


def _rebuilt(profile: Profile, problems: Sequence[Problem], cand: Candidate) -> Plan:
    """The same repair on the profile as it is on disk now: the same entries' references to the same target."""
    fresh = profile.reload()
    wanted = {(p.finding.code, p.target, p.ref.file, p.ref.source_id) for p in problems if p.ref is not None}
    group: list[Problem] = []
    for p in problems:
        for q in _fresh_group(fresh, p):
            assert q.ref is not None
            if (q.finding.code, q.target, q.ref.file, q.ref.source_id) in wanted and q.span not in {
                g.span for g in group if g.ref is not None and g.ref.file == q.ref.file
            }:
                group.append(q)
    if not group:
        raise EditError("the references to repair are gone")
    return plan_repair(fresh, group, cand)


def _rewritten(profile: Profile, p: Problem, target: str) -> str:
    """``target`` written the way the reference was (a link relative to its file's folder)."""
    assert p.ref is not None
    if p.ref.target_id is not None:
        return target
    if p.ref.kind == "link":
        folder = posixpath.dirname(p.ref.file)
        new = posixpath.relpath(target, folder) if folder else target
        data = file_bytes(profile, p.ref.file) or b""
        assert p.span is not None
        old = data[p.span[0] : p.span[1]].decode("utf-8", "surrogateescape")
        return quote(new, safe="/") if old != p.ref.text else new
    return target


def _plan_git_restore(profile: Profile, cand: Candidate) -> Plan:
    assert cand.text is not None
    files = Files.of(profile)
    if any(d.mf.get(cand.target) is not None for d in files.docs()):
        raise EditError(f"{cand.target} is defined again already")
    b = Builder(files, f"repair: restore {cand.target} from commit {cand.commit}")
    doc = files.archive if cand.into == ARCHIVE_REL else files.memories
    b.append(doc, Block(cand.text, cand.target))
    b.plan.restored.append(cand.target)
    plan = b.build()
    plan.rebuild = lambda: _plan_git_restore(profile.reload(), cand)
    return plan


# --- all safe repairs at once -------------------------------------------------------------


@dataclass
class SafeRun:
    """What ``plan_all_safe`` did: the combined plan and the repairs it holds."""

    plan: Plan
    done: list[tuple[Problem, Candidate]]
    left: list[Problem]


def plan_all_safe(profile: Profile, problems: Sequence[Problem] | None = None, *, today: dt.date | None = None) -> SafeRun:
    """Every repair with one certain candidate, in one plan: applied one after the other to a scratch copy,
    the plan takes the real files to the copy's final bytes (writes nothing here)."""
    if problems is None:
        problems = find_problems(profile, today=today)
    todo = [(p, p.safe) for p in problems if p.safe is not None]
    plan = Plan("repair: every safe repair")
    if not todo:
        return SafeRun(plan, [], list(problems))
    with tempfile.TemporaryDirectory(prefix="openclaw-repair-") as tmp:
        scratch = Path(tmp) / "p"
        shutil.copytree(profile.path, scratch, symlinks=True, ignore=shutil.ignore_patterns(".git", "*.lock"))
        done: list[tuple[Problem, Candidate]] = []
        handled: set[int] = set()
        for p, cand in todo:
            assert cand is not None
            if p.number in handled:
                continue
            copy = load_profile(scratch, profile.rel, profile.layout)
            mine = _fresh_group(copy, p)
            if cand.action == "rewrite":  # unasked, only whole values are rewritten (never inside a sentence)
                mine = [q for q in mine if q.ref is not None and q.span is not None
                        and whole_value(copy, q.ref, q.span)]
            if not mine and cand.action not in ("restore", "restore-git", "reactivate", "restore-file"):
                handled.add(p.number)  # an earlier repair fixed it too
                done.append((p, cand))
                continue
            step = plan_repair(copy, mine, cand)
            apply_changes(step)
            for q in problems:
                if q.finding.code == p.finding.code and q.target == p.target and q.safe == cand:
                    handled.add(q.number)
                    done.append((q, cand))
        for rel in _all_files(scratch):
            before = read_bytes(profile.path / rel)
            after = read_bytes(scratch / rel)
            if after is not None and before != after:
                plan.changes.append(FileChange(profile.path / rel, before, after))
    plan.changes.sort(key=lambda c: 0 if c.path.name == "memories.md" and c.path.parent.name == "archive" else 1)
    for _p, cand in done:
        if cand.action in ("restore", "restore-git"):
            plan.restored.append(cand.target)
    plan.title = f"repair: {len(done)} safe repair{'s' if len(done) != 1 else ''}"
    left = [p for p in problems if p.number not in handled]
    return SafeRun(plan, done, left)


def _fresh_group(copy: Profile, p: Problem) -> list[Problem]:
    """The references of ``copy`` that ``p``'s finding code reports for its target (no check run)."""
    code, target = p.finding.code, p.target
    out: list[Problem] = []
    seen: dict[tuple[str, int | None, str], int] = {}
    for r in scan_references(copy):
        key = (r.file, r.line, r.text)
        nth = seen.get(key, 0)
        seen[key] = nth + 1
        if code == "inactive-ref":
            hit = r.kind == "state" and r.target_id == target
        elif code == "dangling-ref":
            hit = r.target_id == target
        else:
            hit = r.target_file == target and r.missing and not r.escapes
        if not hit or r.line is None:
            continue
        data = file_bytes(copy, r.file)
        span = locate(data, r.line, written(r), nth) if data is not None else None
        stub = Finding(code, copy.name, r.file, r.line, r.target_id, p.finding.message, copy.rel)
        out.append(Problem(p.number, stub, r, span, ()))
    return out


def _all_files(scratch: Path) -> Iterable[str]:
    for dirpath, dirnames, filenames in os.walk(scratch):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in filenames:
            if not name.endswith(".lock"):
                yield Path(dirpath, name).relative_to(scratch).as_posix()
