"""Watching the opened folder from the app: other programs' changes told apart from the app's own writes
and git operations, and the reloads they start (with generations: a late result of an older one is dropped)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.files.profile import ARCHIVE_REL, Profile
from ...core.files.reload import IdDiff, diff_ids, nearest_surviving, summary
from ...core.i18n import _
from ...core.lifecycle.plan import Plan
from ...core.search.index_feed import note_reloaded
from ..rows import MEMORY_FILES, EntryRow
from .profiles import ProfileData

IGNORED_NAMES = ("audit.log",)  # written by the check itself: never news
IGNORED_SUFFIXES = (".lock",)
WATCH_DEBOUNCE = 0.06  # quiet seconds before a change is reloaded (an agent's lock, temp file, replace: ~ms)


@dataclass(frozen=True)
class ExternalChange:
    """Files of one profile another program changed (``memory``: memories.md or the archive among them)."""

    profile: Path
    name: str
    files: tuple[str, ...]  # other files, relative to the profile
    memory: bool
    git: bool = False  # only the repository moved (checkout, commit by another program)

    def notice(self) -> str | None:
        """The notice for the files that are not worded by id after the reload."""
        if not self.files:
            return None
        shown = ", ".join(self.files[:3])
        if len(self.files) > 3:
            shown = _("%(files)s and %(n)s more") % {"files": shown, "n": len(self.files) - 3}
        return _("%(profile)s: %(files)s changed by another program; reloaded.") % {"profile": self.name, "files": shown}


@dataclass
class _OwnOperation:
    what: str
    deferred: list[Any] = field(default_factory=list)


def feed_search_index(before: Profile, after: Profile) -> None:
    """The search indexes covering a re-read profile take its changed files (issue 13; best-effort, this thread)."""
    try:
        note_reloaded(before, after)
    except Exception:  # noqa: BLE001 - an index is a cache: the search screen's refresh reads the files anyway
        pass


class Watching:
    """The watching part of ``Session``: the watcher, own operations, external changes and reloads (the app's
    own writes are announced by ``Writing.expect_writes``)."""

    RELOAD_WAIT = 5.0  # seconds background work waits at most for a re-read in flight

    data: dict[Path, ProfileData]
    order: list[Path]
    current: ProfileData | None
    watcher: Any
    _reloads: dict[Path, int]
    _reloading: set[Path]
    _external: dict[Path, ProfileData]
    _own: list[_OwnOperation]
    if TYPE_CHECKING:  # what Writing provides (for the type checker only)
        def expect_writes(self, changes: Sequence[tuple[Path, bytes | None]]) -> None: ...

    def begin_reload(self, path: Path) -> tuple[Profile, int] | None:
        """Start re-reading a profile: its current Profile and the generation the result must carry."""
        data = self.data.get(Path(path))
        if data is None:
            return None
        gen = self._reloads[data.path] = self._reloads.get(data.path, 0) + 1
        self._reloading.add(data.path)
        return data.profile, gen

    @property
    def reloading(self) -> bool:
        return bool(self._reloading)

    def reload_pending(self, path: Path) -> bool:
        """A re-read of ``path`` is on its way (any thread): work on its current data would be thrown away."""
        return Path(path) in self._reloading

    def wait_for_reload(self, path: Path, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Sleep while ``path`` is being re-read (worker thread), never longer than ``RELOAD_WAIT`` seconds."""
        end = time.monotonic() + self.RELOAD_WAIT
        while self.reload_pending(path) and not cancelled() and time.monotonic() < end:
            time.sleep(0.02)

    def prepare_reload(self, data: ProfileData) -> None:
        """What showing a re-read profile needs, made off the UI thread (after :meth:`read_again`): the
        notices saying by id what another program changed, and the status bar's counts."""
        before = self._external.get(data.path)
        if before is not None:
            data.notices = (before, external_notices(before, data))
        for file in data.files:
            data.status_counts(file)

    def accept_reload(self, data: ProfileData, gen: int) -> tuple[ProfileData | None, list[str]] | None:
        """Take a re-read profile; None when a newer reload is on its way. Returns the data it replaces
        and, when another program changed memory files, the notices saying by id what changed."""
        if gen != self._reloads.get(data.path, 0):
            return None
        old = self.data.get(data.path)
        before = self._external.pop(data.path, None)
        notices: list[str] = []
        if before is not None:
            made = data.notices
            notices = made[1] if made is not None and made[0] is before else external_notices(before, data)
        data.notices = None
        data.adopt_rows()
        self.data[data.path] = data
        if self.current is not None and self.current.path == data.path:
            self.current = data
        self._reloading.discard(data.path)  # last: a worker seeing no reload pending sees the new data
        return old, notices

    @staticmethod
    def kept_row(old: ProfileData, new: ProfileData, file: str, row: EntryRow | None) -> EntryRow | str | None:
        """The entry to select after a reload: the same id, else the nearest surviving one."""
        if row is None or not row.id:
            return row
        same = new.by_id.get(row.id)
        if same is not None and same.file == file:
            return row.id  # still there (no list of 100k ids on the UI thread for the common case)
        new_ids = [r.id for r in new.files.get(file, []) if r.id]
        if row.id in set(new_ids):
            return row.id
        old_ids = [r.id for r in old.files.get(file, []) if r.id]
        return nearest_surviving(old_ids, row.id, new_ids)

    def profiles_touched(self, plan: Plan) -> list[Path]:
        """The loaded profiles holding a file ``plan`` changed (to reload after writing it)."""
        return [folder for folder in self.order
                if any(c.path.resolve().is_relative_to(folder.resolve()) for c in plan.changes)]

    # --- watching ----------------------------------------------------------------------------

    def watch(self, root: Path, on_change: Callable[[Any], None]) -> Any:
        """Start the watcher on ``root`` (``on_change`` runs on its thread). Raises OSError."""
        from ...core.files.watch import MemoryWatcher

        watcher = MemoryWatcher(root, on_change, WATCH_DEBOUNCE)
        watcher.start()
        self.watcher = watcher
        return watcher

    def stop_watching(self) -> None:
        if self.watcher is not None:
            self.watcher.stop(timeout=1.0)
            self.watcher = None

    def own_operation(self, what: str) -> None:
        """The app starts a git operation: file events until :meth:`end_own_operation` are its own."""
        self._own.append(_OwnOperation(what))

    def mark_files_own(self) -> None:
        """Announce the current bytes of every loaded profile's files as the app's own (any thread)."""
        if self.watcher is None:
            return
        paths: list[Path] = []
        for data in list(self.data.values()):
            prof = data.profile
            paths += [prof.memories_path, prof.archive_path]
            paths += [prof.path / f.rel for f in prof.text_files()]
        own: list[tuple[Path, bytes | None]] = []
        for p in paths:
            try:
                own.append((p, p.read_bytes()))
            except FileNotFoundError:
                own.append((p, None))
            except OSError:
                continue
        self.expect_writes(own)

    def missed_changes(self) -> Any:
        """The loaded files that differ from disk now, as a watcher's batch (None when none differ); run
        once the watcher is on, for what was written before it started (worker thread)."""
        from ...core.files.watch import ChangeBatch

        changed: set[str] = set()
        for data in list(self.data.values()):
            prof = data.profile
            loaded: list[tuple[str, bytes | None]] = [
                ("memories.md", prof.memories.data if prof.memories is not None else None),
                (ARCHIVE_REL, prof.archive.data if prof.archive is not None else None),
            ]
            loaded += [(f.rel, f.data) for f in prof.text_files() if f.error is None]
            for rel, before in loaded:
                try:
                    now: bytes | None = (prof.path / rel).read_bytes()
                except FileNotFoundError:
                    now = None
                except OSError:
                    continue  # unreadable now: the next event (or ctrl+r) says so
                if now != before:
                    changed.add(data.prefix + rel)
        return ChangeBatch(paths=frozenset(changed)) if changed else None

    def end_own_operation(self) -> list[Path]:
        """The operation is over: the profiles its deferred file events touched (to reload)."""
        if not self._own:
            return []
        op = self._own.pop()
        touched: list[Path] = []
        for batch in op.deferred:
            for change in self._classify(batch):
                if change.profile not in touched:
                    touched.append(change.profile)
        return touched

    def changes(self, batch: Any) -> list[ExternalChange]:
        """What another program changed, per loaded profile (the app's own writes left out); records the
        data before the change for :meth:`accept_reload`.  During an own operation the batch waits."""
        if self._own:
            self._own[-1].deferred.append(batch)
            return []
        out = self._classify(batch)
        for change in out:
            # every change, not only one to a memory file: an agent's temp file is often announced alone,
            # and the re-read it starts already reads the replaced memories.md (the notice needs the before)
            self._external.setdefault(change.profile, self.data[change.profile])
        return out

    def _classify(self, batch: Any) -> list[ExternalChange]:
        changed = {f for f in batch.files() - batch.own if relevant(f)}
        out: list[ExternalChange] = []
        for path in self.order:
            data = self.data[path]
            prefix = data.prefix
            mine = sorted(f[len(prefix):] for f in changed if f.startswith(prefix))
            if mine or (batch.git and not prefix):
                others = tuple(f for f in mine if f not in MEMORY_FILES)
                out.append(ExternalChange(path, data.profile.name, others, len(others) < len(mine),
                                          git=not mine))
        return out


def relevant(rel: str) -> bool:
    """A changed file worth a reload: not a lock file, not the audit log the check appends to."""
    name = rel.rsplit("/", 1)[-1]
    return not rel.endswith(IGNORED_SUFFIXES) and name not in IGNORED_NAMES


def external_notices(old: ProfileData, new: ProfileData) -> list[str]:
    """Say by id what another program changed in the memory files (``xiaoyu/memories.md: 2 added``)."""
    out = []
    for rel, attr in (("memories.md", "memories"), (ARCHIVE_REL, "archive")):
        before, after = getattr(old.profile, attr), getattr(new.profile, attr)
        if before is None and after is None:
            continue
        if before is None:
            diff = IdDiff(added=tuple(after.mf.by_id()), other=True)
        elif after is None:
            diff = IdDiff(removed=tuple(before.mf.by_id()), other=True)
        else:
            diff = diff_ids(before.mf, after.mf)
        if diff:
            out.append(summary(f"{new.profile.name}/{rel}", diff))
    return out
