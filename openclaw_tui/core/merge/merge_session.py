"""A merge being resolved by a reviewer: every conflicted file, the choices so far, the result.

Choices stay in memory (with undo) until ``complete()`` checks the results and writes them all,
compare-and-swapped, then stages them; ``conclude()`` commits, ``abort()`` aborts.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ..files.profile import ARCHIVE_REL
from ..files.safe_write import write_many
from ..format.entries import decode, parse
from ..format.yamlio import compose_bounded
from ..git.gitrepo import (
    Continued,
    GitError,
    Repo,
    continue_operation,
    find_repo,
    git_text,
    read_blob,
    run_git,
    status,
)
from ..git.threeway import renumber_note
from . import conflicts as cf
from .conflicts import BOTH, OURS, THEIRS, Choice, ConflictItem, Conflicts, Edited, ResolutionError
from .references import (
    RefRule,
    apply_rule,
    clear_record,
    current_sides,
    profile_rel,
    recorded_renumberings,
    reference_rules,
)

SKIP_NAMES = ("audit.log",)
MAX_SCAN_BYTES = 256 * 1024 * 1024


def files_with_markers(folder: Path) -> list[Path]:
    """Regular files under ``folder`` (hidden folders and lock files skipped) holding conflict regions."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".lock") or name in SKIP_NAMES or name.startswith("."):
                continue
            path = Path(dirpath) / name
            try:
                if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_SCAN_BYTES:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            # a byte search first: most files have no marker to parse for
            if (data.startswith(b"<<<<<<<") or b"\n<<<<<<<" in data) and cf.has_markers(decode(data)[0]):
                found.append(path)
    return found


def _yaml_problem(text: str) -> str | None:
    """Why ``text`` is not a YAML document a reader can use (None when it is)."""
    try:
        node = compose_bounded(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        return f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}"
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if isinstance(n, yaml.MappingNode):
            seen: set[str] = set()
            for k, v in n.value:
                if isinstance(k, yaml.ScalarNode):
                    if k.value in seen:
                        return f"the key {k.value!r} appears twice (line {k.start_mark.line + 1})"
                    seen.add(k.value)
                stack.append(v)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    return None


@dataclass
class FileResolution:
    """One conflicted file: what to decide, the decisions so far, and an undo stack."""

    path: Path
    display: str  # the path shown (relative to the scope)
    conflicts: Conflicts
    data: bytes | None  # the bytes read (None: the file does not exist: deleted on one side)
    unmerged: bool  # git lists it as unmerged
    choices: dict[str, Choice] = field(default_factory=dict)
    undo_stack: list[dict[str, Choice]] = field(default_factory=list)
    extra_ids: set[str] = field(default_factory=set)  # ids defined in the sibling memory file
    theirs_added: set[str] = field(default_factory=set)  # ids only theirs added (git's stages), for renumbering
    notes: list[str] = field(default_factory=list)  # what was decided for the user (ids renumbered)

    @classmethod
    def load(cls, path: Path, display: str, unmerged: bool = False, repo: Repo | None = None) -> FileResolution:
        try:
            c = cf.load(path)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return cls(path, display, cf.analyze("", path.name), None, unmerged)
        theirs_added: set[str] = set()
        base_ids: set[str] | None = None
        if unmerged and repo is not None and c.mode == "entries" and c.items:
            stages = _stage_ids(repo, path)
            if stages is not None:
                base_ids, ours_ids, theirs_ids = stages
                theirs_added = theirs_ids - base_ids - ours_ids
                analyzed = cf.analyze(decode(c.data or b"")[0], path.name, c.conflict.regions[0].marker_size, base_ids)
                c = replace(analyzed, name=c.name, bom=c.bom, data=c.data)
        f = cls(path, display, c, c.data, unmerged, theirs_added=theirs_added)
        # only entries of the base can be in content conflict: two entries both sides added under one
        # id are both kept (decided here, and said); an entry one side alone added is kept
        for it in c.items:
            if it.collision:
                f.choices[it.key] = BOTH
            elif it.kind == "entry" and base_ids is not None and it.key not in base_ids:
                f.choices[it.key] = THEIRS if it.ours is None else OURS
        return f

    def renumbered(self) -> dict[str, str]:
        """Id -> new id of theirs' additions that collided with ours' (as the result gives them)."""
        renames: dict[str, str] = {}
        if any(it.collision for it in self.items):
            try:
                cf.render_resolution(self.conflicts, {**{it.key: OURS for it in self.items}, **self.choices},
                                     extra_ids=self.extra_ids, theirs_added=self.theirs_added, renames=renames)
            except ResolutionError:
                return {}
        return renames

    def collision_notes(self) -> list[str]:
        """One line per renumbered addition, to tell the user."""
        return [f"{self.display}: {renumber_note(old, new)}" for old, new in self.renumbered().items()]

    @property
    def items(self) -> tuple[ConflictItem, ...]:
        return self.conflicts.items

    @property
    def is_memory(self) -> bool:
        return cf.is_memory_file(self.path.name)

    @property
    def remaining(self) -> int:
        return cf.remaining(self.conflicts, self.choices)

    @property
    def labels(self) -> tuple[str, str | None, str]:
        """(ours, base, theirs) labels from the first region's markers."""
        regions = self.conflicts.conflict.regions
        if not regions:
            return "ours", None, "theirs"
        r = regions[0]
        return r.ours_label or "ours", r.base_label, r.theirs_label or "theirs"

    def choose(self, key: str, choice: Choice) -> None:
        """Decide one item (an Edited text is checked first; raises ResolutionError)."""
        item = self.conflicts.item(key)
        if isinstance(choice, Edited):
            reason = cf.validate_edit(item, choice.text)
            if reason:
                raise ResolutionError(reason)
        elif choice not in (OURS, THEIRS, BOTH):
            raise ResolutionError(f"unknown choice {choice!r}")
        self.undo_stack.append(dict(self.choices))
        self.choices[key] = choice

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.choices = self.undo_stack.pop()
        return True

    def accept_suggestions(self) -> int:
        """Take the side that alone changed an item, for every undecided item where that is clear."""
        picked = {it.key: s for it in self.items if it.key not in self.choices
                  for s in [cf.suggestion(it)] if s is not None}
        if picked:
            self.undo_stack.append(dict(self.choices))
            self.choices.update(picked)
        return len(picked)

    def _taken(self) -> set[str]:
        c = self.conflicts
        return set(self.extra_ids).union(*(mf.ids() for mf in (c._ours, c._theirs) if mf is not None))

    def preview(self, key: str) -> str | None:
        """The text the current choice puts in place of the item (None: not decided)."""
        choice = self.choices.get(key)
        if choice is None:
            return None
        taken = self._taken() if self.conflicts.mode == "entries" else set()
        renames: dict[str, str] = {}
        for it in self.items:  # ids both sides added take their new ids first (as in the result)
            if it.collision and self.choices.get(it.key) == BOTH:
                cf._renumbered(it.key, it.theirs or "", taken, renames)
        for it in self.items:  # items before this one that were kept with BOTH took new ids already
            if it.key == key:
                return cf._choose_text(it, choice, taken, renames)
            earlier = self.choices.get(it.key)
            if earlier == BOTH:
                cf._choose_text(it, earlier, taken, renames)
        return None

    def result_text(self) -> str:
        """The whole resolved text (raises ResolutionError while something is undecided or wrong)."""
        if not self.conflicts.conflict.regions:
            return self.conflicts.conflict.text
        return cf.render_resolution(self.conflicts, self.choices, extra_ids=self.extra_ids,
                                    theirs_added=self.theirs_added)

    def result_bytes(self) -> bytes:
        return (("\ufeff" if self.conflicts.bom else "") + self.result_text()).encode("utf-8", "surrogateescape")

    def problem(self) -> str | None:
        """Why this file cannot be completed yet (None: it can)."""
        if self.data is None:
            return None
        left = self.remaining
        if left:
            return f"{left} conflict{'s' if left != 1 else ''} left"
        try:
            text = self.result_text()
        except ResolutionError as exc:
            return str(exc)
        if cf.has_markers(text):
            return "conflict markers remain in the result"
        # a memory file's new malformed blocks were refused by result_text
        if self.path.suffix.lower() in (".yaml", ".yml"):
            reason = _yaml_problem(text)
            if reason is not None and _yaml_problem(self.conflicts.conflict.side("ours") or "") is None:
                return reason
        return None


def their_name(repo: Repo) -> str | None:
    """The branch (or commit) being merged in, for display."""
    try:
        heads = (repo.git_dir / "MERGE_HEAD").read_text(encoding="utf-8").split()
    except OSError:
        return None
    if not heads:
        return None
    try:
        msg = (repo.git_dir / "MERGE_MSG").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        msg = []
    if msg and msg[0].startswith("Merge "):
        return msg[0].removeprefix("Merge ")
    try:
        return git_text(["name-rev", "--name-only", heads[0]], repo.root) or heads[0][:7]
    except GitError:
        return heads[0][:7]


@dataclass
class MergeSession:
    """Every conflicted file in the scope, resolved together."""

    scope: Path
    repo: Repo | None
    operation: str | None
    files: list[FileResolution]
    merging: str | None = None  # what is being merged ("branch 'agent-thread-b'")
    reference_notes_done: list[str] = field(default_factory=list)  # what complete() rewrote, to tell the user
    last_written: list[tuple[Path, bytes]] = field(default_factory=list)  # the exact bytes complete() wrote

    @classmethod
    def open(cls, scope: Path | str, folders: Iterable[Path | str] = ()) -> MergeSession:
        scope = Path(scope).absolute()
        repo = find_repo(scope)
        paths: dict[Path, bool] = {}
        for folder in [Path(f).absolute() for f in folders] or [scope]:
            for p in files_with_markers(folder):
                paths.setdefault(p, False)
        operation = None
        if repo is not None:
            st = status(repo.root)
            if st is not None:
                operation = st.operation
                for rel in st.conflicted:
                    paths[repo.root / rel] = True
        base = repo.root if repo is not None else scope
        files = [FileResolution.load(p, _display(base, p), unmerged, repo) for p, unmerged in sorted(paths.items())]
        session = cls(scope, repo, operation, files, their_name(repo) if repo is not None else None)
        session._link_ids()
        return session

    def _link_ids(self) -> None:
        """Give each memory file the ids of its sibling (memories.md <-> archive), so BOTH picks fresh ids."""
        for f in self.files:
            if not f.is_memory:
                continue
            profile = _profile_of(f.path)
            sibling = profile / ARCHIVE_REL if f.path.parent == profile else profile / "memories.md"
            f.extra_ids = _ids_of(sibling)

    def renumberings(self) -> dict[str, list[tuple[str, str]]]:
        """Profile folder (repository-relative) -> ids their branch's additions were renumbered to:
        by the merge driver (its record) and by this session (ids both sides added, kept with BOTH)."""
        if self.repo is None:
            return {}
        found: dict[str, list[tuple[str, str]]] = {}
        for rel, pairs in recorded_renumberings(self.repo).items():
            found.setdefault(profile_rel(rel), []).extend(pairs)
        for f in self.files:
            if f.is_memory and _inside(self.repo, f.path):
                pairs = list(f.renumbered().items())
                if pairs:
                    found.setdefault(profile_rel(self.repo.rel(f.path)), []).extend(pairs)
        return found

    def reference_rules(self) -> list[RefRule]:
        """Lines of the profiles' other files (state.yaml, contexts/...) their branch added that name a
        renumbered id: ``complete()`` puts the new id in them."""
        if self.repo is None:
            return []
        mapping = self.renumberings()
        if not mapping:
            return []
        sides = current_sides(self.repo)
        if sides is None:
            return []
        rules: list[RefRule] = []
        for profile, pairs in sorted(mapping.items()):
            rules.extend(reference_rules(self.repo, sides, profile, pairs))
        for f in self.files:  # a memory file git merged as text: lines their branch added to other entries
            own = list(f.renumbered().items()) if f.is_memory and _inside(self.repo, f.path) else []
            if own:
                rel = self.repo.rel(f.path)
                rules.extend(reference_rules(self.repo, sides, profile_rel(rel), own, only=[rel]))
        return rules

    def reference_notes(self, rules: list[RefRule] | None = None) -> list[str]:
        """One line per file whose references to a renumbered addition are (or will be) rewritten."""
        return [
            f"{r.path}: {len(r.lines)} line{'s' if len(r.lines) != 1 else ''} their branch added now name "
            + ", ".join(f"{new} (was {old})" for old, new in r.renumbered)
            for r in (self.reference_rules() if rules is None else rules)
        ]

    @property
    def remaining(self) -> int:
        return sum(f.remaining for f in self.files)

    @property
    def total(self) -> int:
        return sum(len(f.items) for f in self.files)

    def problems(self) -> list[tuple[FileResolution, str]]:
        return [(f, reason) for f in self.files for reason in [f.problem()] if reason]

    def can_complete(self) -> bool:
        return bool(self.files) and not self.problems()

    def complete(self) -> list[Path]:
        """Write every resolved file (all or nothing, each compare-and-swapped) and stage them."""
        bad = self.problems()
        if bad:
            f, reason = bad[0]
            raise ResolutionError(f"{f.display}: {reason}")
        results: list[tuple[FileResolution, bytes]] = []
        assigned: dict[Path, set[str]] = {}
        for f in self.files:
            if f.data is None:
                continue
            profile = _profile_of(f.path)
            if f.is_memory:
                f.extra_ids |= assigned.get(profile, set())
            data = f.result_bytes()
            if f.is_memory:
                assigned.setdefault(profile, set()).update(parse(decode(data)[0]).ids())
            results.append((f, data))
        # archives first, memories.md last: a crash in between duplicates, never loses
        results.sort(key=lambda r: 0 if r[0].path.as_posix().endswith(ARCHIVE_REL) else 1)
        changes: list[tuple[Path, bytes | None, bytes]] = [(f.path, f.data, data) for f, data in results]
        rewritten: list[Path] = []
        applied: list[RefRule] = []
        rules = self.reference_rules()
        if rules and self.repo is not None:
            by_path = {Path(os.path.realpath(p)): i for i, (p, _, _) in enumerate(changes)}
            for rule in rules:
                target = self.repo.root / rule.path
                i = by_path.get(Path(os.path.realpath(target)))
                if i is not None:  # a file resolved here: rewrite its result
                    p, before, after = changes[i]
                    new_after, count = apply_rule(after, rule)
                    if count and new_after != after:
                        changes[i] = (p, before, new_after)
                        rewritten.append(p)
                        applied.append(rule)
                    continue
                if not _plain_file_inside(target, self.repo.root / profile_rel(rule.path)):
                    continue  # a link, or gone: never written through
                try:
                    current = target.read_bytes()
                except OSError:
                    continue
                new_data, count = apply_rule(current, rule)
                if count and new_data != current:
                    changes.append((target, current, new_data))  # appended: the indexes above stay right
                    rewritten.append(target)
                    applied.append(rule)
        self.reference_notes_done = self.reference_notes(applied) if applied else []
        write_many(changes)
        written = [p for p, _, _ in changes]
        if self.repo is not None:
            stage = [f.path for f in self.files if f.unmerged or self.operation is not None and _inside(self.repo, f.path)]
            stage += [p for p in rewritten if p not in stage]
            if stage:
                rels = [self.repo.rel(p) for p in stage]
                run_git(["add", "-A", "--", *rels], self.repo.root)
        final = {p: data for p, _, data in changes}
        self.last_written = list(final.items())
        for f, _ in results:
            f.data = final[f.path]
        return written

    def unmerged_left(self) -> tuple[str, ...]:
        if self.repo is None:
            return ()
        st = status(self.repo.root)
        return st.conflicted if st is not None else ()

    def conclude(self, message: str | None = None) -> Continued:
        """Commit the merge, cherry-pick or revert (git's message unless one is given), or continue
        the rebase (which may stop again at its next conflict: see ``Continued.still``)."""
        if self.repo is None:
            raise GitError(["commit"], 128, "not inside a git repository")
        done = continue_operation(self.repo, message)
        clear_record(self.repo)  # the driver's renumberings belonged to the step just concluded
        return done

    def abort(self) -> None:
        """``git merge --abort`` (or ``cherry-pick``/``revert --abort``): back to the state before the merge."""
        if self.repo is None:
            raise GitError(["merge", "--abort"], 128, "not inside a git repository")
        op = self.operation or "merge"
        clear_record(self.repo)
        if op not in ("merge", "cherry-pick", "revert", "rebase", "am"):
            raise GitError([op, "--abort"], 1, f"a {op} cannot be aborted from here")
        run_git([op, "--abort"], self.repo.root)


def _stage_ids(repo: Repo, path: Path) -> tuple[set[str], set[str], set[str]] | None:
    """Ids of the base, ours and theirs versions git keeps for an unmerged file (None: unknown)."""
    try:
        rel = repo.rel(path)
    except ValueError:
        return None
    base, ours, theirs = (read_blob(repo, f":{stage}", rel) for stage in (1, 2, 3))  # git's index stages
    if ours is None or theirs is None:
        return None
    return _blob_ids(base), _blob_ids(ours), _blob_ids(theirs)


def _blob_ids(data: bytes | None) -> set[str]:
    return {i for i in parse(decode(data or b"")[0]).ids() if i}


def _plain_file_inside(path: Path, folder: Path) -> bool:
    """A regular file, not a link, whose real path lies in ``folder``'s."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
    except OSError:
        return False
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _inside(repo: Repo, path: Path) -> bool:
    try:
        repo.rel(path)
    except ValueError:
        return False
    return True


def _display(scope: Path, path: Path) -> str:
    try:
        return Path(os.path.relpath(path, scope)).as_posix()
    except ValueError:
        return str(path)


def _profile_of(path: Path) -> Path:
    return path.parent.parent.parent if path.as_posix().endswith(ARCHIVE_REL) else path.parent


def _ids_of(path: Path) -> set[str]:
    """Ids defined in a memory file (both sides, when it holds conflict markers)."""
    try:
        text = decode(path.read_bytes())[0]
    except OSError:
        return set()
    ct = cf.parse_conflicts(text)
    if not ct.regions:
        return set(parse(text).ids())
    return {i for side in ("ours", "theirs", "base") for i in parse(ct.side(side) or "").ids()}


def choice_label(choice: Choice | None) -> str:
    """undecided, edited, or the side chosen (ours, theirs, both)."""
    return "undecided" if choice is None else "edited" if isinstance(choice, Edited) else choice
