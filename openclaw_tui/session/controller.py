"""The session: everything the UI holds about the opened memory, in plain Python (no Textual).

``Session`` owns the loaded profiles (``data``, ``order``), the selection
(``current``, ``current_file``), the undo stack, every write the app makes
(lifecycle plans through the core's safe path, undo and redo), reloads
(with generations, so a late result of an older reload is dropped), and the
file watcher together with the app's own-write expectations: each write
the session makes is announced to the watcher with its exact bytes, so the
watcher recognises it by content, and git operations the app runs are
bracketed with :meth:`own_operation` / :meth:`end_own_operation`.

Screens call these typed methods from the UI thread (the loading and
checking ones from thread workers, as their docstrings say) and render what
they return; nothing here notifies, pushes screens or touches widgets.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.files.reload import IdDiff, diff_ids, nearest_surviving, summary
from ..core.files.safe_write import ConcurrentModification, index_writes
from ..core.format.edit import EditError
from ..core.format.entries import Entry
from ..core.format.profile import ARCHIVE_REL, Discovery, NotMemory, Profile, discover, load_profile
from ..core.format.rows import (
    MEMORY_FILES,
    BlockRows,
    EntryRow,
    RawText,
    apply_findings,
    fill_all,
    lower_in_slices,
)
from ..core.format.spans import block_starts_in_parts, parse_in_steps
from ..core.git.gitrepo import GitError, find_repo
from ..core.lifecycle.picks import find_block
from ..core.lifecycle.plan import Files, Plan
from ..core.lifecycle.undo import UndoStack
from ..i18n import _
from ..ui_adapters import build_refs, run_check
from ..widgets.plan_text import plan_title
from .profiles import ProfileData, no_gc, preview_rows, reread_docs

IGNORED_NAMES = ("audit.log",)  # written by the check itself: never news
IGNORED_SUFFIXES = (".lock",)
WATCH_DEBOUNCE = 0.06  # quiet seconds before a change is reloaded (an agent's lock, temp file, replace: ~ms)
INDEX_CHUNK = 500  # rows filled between two looks at the keyboard (~10 ms: a key waits no longer for the thread)


class Refused(Exception):
    """An operation the session would not do; the message says why, in the reviewer's words."""


@dataclass
class EntryTarget:
    """The block being edited: in ``memories.md`` (file "memories") or the archive ("archive")."""

    file: str
    rel: str
    entry: Entry


@dataclass(frozen=True)
class WriteOutcome:
    """What a write, an undo or a redo did: ``plan`` when written, else ``error`` (``stale``: re-read first)."""

    plan: Plan | None = None
    error: str | None = None
    stale: bool = False
    nothing: bool = False  # nothing to undo or redo (a note, not an error)

    @property
    def ok(self) -> bool:
        return self.plan is not None


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
        from ..core.search.index import note_reloaded

        note_reloaded(before, after)
    except Exception:  # noqa: BLE001 - an index is a cache: the search screen's refresh reads the files anyway
        pass


class Session:
    """The opened memory and everything done to it in this run of the app."""

    def __init__(self, source_path: Path | None = None, discovery: Discovery | None = None,
                 today: dt.date | None = None, clock: Callable[[], dt.datetime] | None = None,
                 *, watch: bool = True) -> None:
        self.source_path = source_path
        index_writes(False)  # the search index is fed by the reload worker (feed_search_index), not the UI thread
        self.watch_enabled = watch  # reload profiles other programs change (False in some tests)
        self.discovery = discovery
        self.today = today
        self.clock = clock  # the time new timestamps get (tests fix it); None: now
        self.data: dict[Path, ProfileData] = {}
        self.order: list[Path] = []
        self.current: ProfileData | None = None
        self.current_file = "memories.md"
        self.undo_stack = UndoStack()
        self.watcher: Any = None  # core.files.watch.MemoryWatcher while watching
        self._reloads: dict[Path, int] = {}  # profile -> generation of its latest reload
        self._reloading: set[Path] = set()
        self._external: dict[Path, ProfileData] = {}  # profile -> its data before another program changed it
        self._own: list[_OwnOperation] = []
        self._git_ok: dict[Path, bool] = {}
        self._lock = threading.Lock()
        self._typed_at = 0.0  # time.monotonic() of the last key typed into a filter (background work waits)
        self._blocks: dict[Path, RawText] = {}  # profile -> its memories.md over its blocks, until parsed

    # --- time ---------------------------------------------------------------------------

    def now(self) -> dt.datetime | None:
        """The time new timestamps get (None: now)."""
        return self.clock() if self.clock is not None else None

    def today_or_now(self) -> dt.date:
        return self.today or dt.date.today()

    # --- loading (worker threads) -------------------------------------------------------

    def discover(self, *, lazy: bool = False) -> Discovery:
        """The profiles under the opened path (``lazy``: memory files read, not parsed yet). Raises
        NotMemory. (Worker thread.)"""
        if self.discovery is not None:
            return self.discovery
        return discover(self.source_path or Path("."), lazy=lazy, workspaces=True)  # W: a workspace under a root

    @staticmethod
    def preview(profile: Profile) -> list[EntryRow]:
        """The first rows of ``profile``'s memories.md, from its first part only (worker thread)."""
        if profile.layout != "profile" or profile.memories is None:
            return []
        return preview_rows(profile.memories, "memories.md")

    def blocks(self, profile: Profile, first: Sequence[EntryRow],
               on_part: Callable[[RawText], None] | None = None) -> RawText | None:
        """The text of ``profile``'s memories.md over every one of its blocks, before the file is parsed
        (:class:`BlockRows`; ``first``: its preview rows), for a filter typed meanwhile; None when only
        the parse can say where its blocks are (``spans.block_starts``).  :meth:`lower` then lowers it, and
        the parse of :meth:`read` goes in steps between these starts, yielding to the person typing.
        ``on_part`` takes each run of the file's first blocks found meanwhile, over more blocks than ``first``
        (``spans.block_starts_in_parts``: the scan takes 0.15-0.45 s at 100k entries, and the third filter key
        came while it ran). (Worker thread.)"""
        doc = profile.memories
        if profile.layout != "profile" or doc is None or doc.parsed:
            return None
        for found in block_starts_in_parts(doc.text, pause=lambda: time.sleep(0)):
            if found is None:
                return None
            starts, lines, end = found
            if end is not None:  # a run of the first blocks
                if on_part is not None and len(starts) > len(first):
                    on_part(RawText.of_blocks(BlockRows(doc.text, starts, "memories.md", first, lines, end)))
                continue
            blocks = BlockRows(doc.text, starts, "memories.md", first, lines)
            raw = self._blocks[profile.path] = RawText.of_blocks(blocks)
            return raw
        return None

    def lower(self, raw: RawText) -> None:
        """Give ``raw`` its lowered text (words with letters then find their rows too). (Worker thread.)"""
        if raw.text is not None and raw.low is None:
            low = lower_in_slices(raw.text, pause=self.yield_to_user)
            raw.low = low if len(low) == len(raw.text) else None  # offsets kept (else words with case wait)

    def read_found(self, profiles: Sequence[Profile]) -> list[ProfileData]:
        """:meth:`read`, each memories.md whose block starts :meth:`blocks` found parsed first in steps
        between them, sleeping while the person types (a filter meanwhile reads the blocks it needs on its
        own), and its lowered text kept. (Worker thread.)"""
        blocks = {p.path: self._blocks.pop(p.path) for p in profiles if p.path in self._blocks}
        for p in profiles:
            doc, raw = p.memories, blocks.get(p.path)
            if doc is not None and raw is not None and raw.text is doc.text and not doc.parsed:
                with no_gc():
                    doc.adopt(parse_in_steps(doc.text, doc.bom, raw.starts, pause=self._parse_pause))
        datas = self.read(profiles)
        for data in datas:
            made, raw = data.raw.get("memories.md"), blocks.get(data.path)
            if made is not None and raw is not None and raw.text is made.text:
                made.low = raw.low  # lowered meanwhile (else None: the index lowers it)
        return datas

    @staticmethod
    def read(profiles: Sequence[Profile]) -> list[ProfileData]:
        """Rows for each profile, each file with its text's positions (:class:`RawText`, not lowered) for a
        filter typed before the rows are indexed: made here, not by the table on the UI thread. (Worker
        thread.)"""
        with no_gc():
            datas = [ProfileData(p) for p in profiles]
            for data in datas:
                for file, rows in data.files.items():
                    if rows:
                        data.raw[file] = RawText(rows, lower=False)
            return datas

    def _parse_pause(self) -> None:
        self.yield_to_user()
        time.sleep(0)

    @staticmethod
    def read_again(profile: Profile, previous: ProfileData | None = None) -> ProfileData:
        """A profile re-read from disk. (Worker thread.)

        With ``previous`` (the profile as shown now) only what changed is re-read: an unchanged memory
        file keeps its parse and rows, a changed one is re-parsed from its first changed line and keeps
        the rows of its unchanged blocks (see ``ProfileData``): an agent's one-entry write to a 100k-entry
        file costs a read and a compare, not a parse, an index and a check of everything before it shows.
        """
        if previous is None or previous.profile.layout != profile.layout:
            fresh = load_profile(profile.path, profile.rel, profile.layout)
            with no_gc():
                return ProfileData(fresh)
        fresh = load_profile(profile.path, profile.rel, profile.layout, lazy=True)
        reread_docs(fresh, previous.profile)
        with no_gc():
            return ProfileData(fresh, previous)

    # --- the person first: background work waits while they type ---------------------------

    RELOAD_WAIT = 5.0  # seconds background work waits at most for a re-read in flight
    TYPING_PAUSE = 0.4  # seconds after a key during which background Python work stays asleep

    def user_typed(self) -> None:
        """A key went into a filter (UI thread): background work yields the interpreter for a moment."""
        self._typed_at = time.monotonic()

    def since_typed(self) -> float:
        """Seconds since the last key typed into a filter (or since the filter was focused to type)."""
        return time.monotonic() - self._typed_at

    def yield_to_user(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Sleep while the person is typing (worker thread): a thread filling rows holds the interpreter
        lock between its switches and would halve the UI's share of the one interpreter; the child
        process running the check goes on meanwhile on the other core."""
        while time.monotonic() - self._typed_at < self.TYPING_PAUSE and not cancelled():
            time.sleep(0.02)

    def index(self, data: ProfileData, cancelled: Callable[[], bool]) -> bool:
        """Fill every row's fields and haystack (filters, counts). False when cancelled. (Worker thread.)"""
        if data.indexed:
            return True
        for file, rows in data.files.items():  # first: a filter typed meanwhile finds rows by their text
            made = data.raw.get(file)
            if rows and not all(r.filled for r in rows[-1:]) and (made is None or made.low is None):
                self.yield_to_user(cancelled)
                data.raw[file] = RawText(rows, pause=lambda: self.yield_to_user(cancelled))
        with no_gc():
            for rows in data.files.values():
                for start in range(0, len(rows), INDEX_CHUNK):
                    self.yield_to_user(cancelled)
                    self.wait_for_reload(data.path, cancelled)  # the re-read goes first; it keeps these rows
                    if cancelled():
                        return False
                    fill_all(rows[start : start + INDEX_CHUNK])
        data.indexed = True
        data.raw = {}
        return True

    def check(self, data: ProfileData, cancelled: Callable[[], bool] | None = None) -> None:
        """Run the consistency check and mark the rows. (Worker thread.)

        With ``cancelled`` the check runs in a child process that quitting kills at once."""
        findings, note = run_check(data.profile, self.today, cancelled=cancelled)
        if self.stale(data) and data.path in self.data:
            return  # re-read meanwhile: its rows are the newer version's, checked by its own run
        apply_findings(data.files, findings)
        data.findings, data.check_note = findings, note
        data.findings_stale = False

    @staticmethod
    def index_refs(data: ProfileData) -> None:
        data.refs = build_refs(data.profile)
        data.refs_stale = False

    # --- loaded state (UI thread) ---------------------------------------------------------

    def adopt(self, discovery: Discovery, data: Sequence[ProfileData]) -> None:
        self.discovery = discovery
        self.data = {d.path: d for d in data}
        self.order = [d.path for d in data]

    def profiles(self) -> list[ProfileData]:
        return [self.data[p] for p in self.order]

    def profile_data(self, path: Path | None) -> ProfileData | None:
        return self.current if path is None else self.data.get(Path(path))

    def select(self, data: ProfileData, file: str) -> tuple[str, bool]:
        """Make ``data`` current on ``file`` (the first memory file when it has none); returns
        (the file shown, whether the profile changed: picks belong to one profile's list)."""
        switched = self.current is not None and self.current.path != data.path
        self.current = data
        if file not in data.files:
            file = next(iter(data.files), "memories.md")
        self.current_file = file
        return file, switched

    def stale(self, data: ProfileData) -> bool:
        """A worker result for a profile that was reloaded since (a newer run will report)."""
        return self.data.get(data.path) is not data

    def all_indexed(self) -> bool:
        return all(d.indexed for d in self.data.values())

    def all_checked(self) -> bool:
        return all(d.findings is not None and not d.findings_stale for d in self.data.values())

    def most_serious(self) -> ProfileData | None:
        """The profile with most findings (errors and warnings), when any has one."""
        ranked = sorted((d for d in self.profiles() if d.serious()), key=lambda d: -d.serious())
        return ranked[0] if ranked else None

    def known_ids(self) -> list[str]:
        return list(self.current.by_id) if self.current is not None else []

    def lookup(self, ident: str) -> EntryRow | None:
        return self.current.by_id.get(ident) if self.current is not None else None

    # --- reloads ------------------------------------------------------------------------

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
        """Sleep while ``path`` is being re-read (worker thread): an agent writing again finds the interpreter
        free for that re-read, which is what the person waits for, not for an index of the older version.
        Never longer than ``RELOAD_WAIT`` seconds (a re-read that failed is no reason to stop for good)."""
        end = time.monotonic() + self.RELOAD_WAIT
        while self.reload_pending(path) and not cancelled() and time.monotonic() < end:
            time.sleep(0.02)

    def prepare_reload(self, data: ProfileData) -> None:
        """What showing a re-read profile needs that can be made off the UI thread (worker thread, after
        :meth:`read_again`): the notices saying by id what another program changed (a compare of both
        versions' blocks) and the counts the status bar shows."""
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
        out = []
        for folder in self.order:
            if any(_inside(c.path, folder) for c in plan.changes):
                out.append(folder)
        return out

    # --- editing -----------------------------------------------------------------------------

    def edit_profile(self) -> Profile:
        """The current profile when its memory files can be edited (layout A). Raises Refused."""
        data = self.current
        if data is None:
            raise Refused(_("No profile is open."))
        if data.profile.layout != "profile":
            raise Refused(_("This is an OpenClaw workspace: it has no memories.md entries to edit."))
        return data.profile

    def editable(self) -> bool:
        """False only when the open profile is a workspace (entry actions are hidden then)."""
        return self.current is None or self.current.profile.layout == "profile"

    def fresh_profile(self) -> Profile:
        profile = self.edit_profile()
        return load_profile(profile.path, profile.rel, profile.layout)

    def files(self) -> Files:
        """Both memory files of the current profile as they are on disk now."""
        return Files.of(self.fresh_profile())

    def profile_root(self) -> Path:
        return self.current.path if self.current is not None else Path(".")

    def target(self, row: EntryRow | None, *, well_formed: bool = True) -> tuple[Files, EntryTarget]:
        """The selected entry, re-read from disk, with the files it was read from. Raises Refused
        (``Refused.args[1]`` is True when the block changed on disk: reload)."""
        self.edit_profile()
        if row is None:
            raise Refused(_("Select an entry first."))
        if row.malformed and well_formed:
            raise Refused(_("This block is broken; fix it first with e (edit)."))
        try:
            files = self.files()
        except (EditError, OSError) as exc:
            raise Refused(str(exc)) from None
        file = "archive" if row.file == ARCHIVE_REL else "memories"
        doc = files.archive if file == "archive" else files.memories
        entry = find_block(doc.mf.entries, row.entry)
        if entry is None:
            raise Refused(_("%(id)s changed on disk; reloading.") % {"id": row.id} if row.id
                          else _("The block changed on disk; reloading."), True)
        return files, EntryTarget(file, row.file, entry)

    def entry_by_id(self, entry_id: str) -> tuple[Files, EntryTarget]:
        files = self.files()
        for file, rel, doc in (("memories", "memories.md", files.memories), ("archive", ARCHIVE_REL, files.archive)):
            entry = next((e for e in doc.mf.entries if e.id == entry_id and e.error is None), None)
            if entry is not None:
                return files, EntryTarget(file, rel, entry)
        raise Refused(_("%(id)s is not defined.") % {"id": entry_id})

    # --- writes ------------------------------------------------------------------------------

    def _expect(self, changes: Sequence[tuple[Path, bytes | None]]) -> None:
        watcher = self.watcher
        if watcher is not None:
            for path, data in changes:
                watcher.expect_write(path, data)

    def expect_writes(self, changes: Sequence[tuple[Path, bytes | None]]) -> None:
        """Announce files the app writes itself (any thread): the watcher then does not report them."""
        self._expect(changes)

    def write(self, plan: Plan) -> WriteOutcome:
        """Write ``plan`` (undoable) through the core's safe path."""
        # not at start-up: it imports YAML and the secret scan
        from ..core.lifecycle.redact import RedactError

        self._expect([(c.path, c.after) for c in plan.changes if c.changed] + [(p, None) for p in plan.removed])
        try:
            written = self.undo_stack.apply(plan)
        except ConcurrentModification as exc:
            return WriteOutcome(error=_("Not written: %(why)s. Another program changed the file after the preview; "
                                        "look again (ctrl+r) and retry.") % {"why": exc}, stale=True)
        except (EditError, RedactError, OSError) as exc:
            return WriteOutcome(error=_("Not written: %(why)s") % {"why": exc})
        if written is not plan:
            self._expect([(c.path, c.after) for c in written.changes if c.changed])
        return WriteOutcome(written)

    def undo(self) -> WriteOutcome:
        plan = self.undo_stack.peek()
        if plan is None:
            return WriteOutcome(error=_("Nothing to undo in this session."), nothing=True)
        self._expect([(c.path, c.before) for c in plan.changes if c.changed] + list(plan.removed.items()))
        try:
            self.undo_stack.undo()
        except ConcurrentModification as exc:
            return WriteOutcome(error=_("Cannot undo “%(title)s”: %(file)s changed on disk since it was written. "
                                        "Nothing was changed.") % {"title": plan_title(plan.title), "file": exc.path.name})
        except OSError as exc:
            return WriteOutcome(error=_("Cannot undo: %(why)s") % {"why": exc})
        return WriteOutcome(plan)

    def redo(self) -> WriteOutcome:
        if not self.undo_stack.can_redo:
            return WriteOutcome(error=_("Nothing to redo."), nothing=True)
        nxt = self.undo_stack.peek_redo()
        if nxt is not None:
            self._expect([(c.path, c.after) for c in nxt.changes if c.changed] + [(p, None) for p in nxt.removed])
        try:
            plan = self.undo_stack.redo()
        except ConcurrentModification as exc:
            return WriteOutcome(error=_("Cannot redo: %(file)s changed on disk since. Nothing was changed.")
                                % {"file": exc.path.name})
        except OSError as exc:
            return WriteOutcome(error=_("Cannot redo: %(why)s") % {"why": exc})
        return WriteOutcome(plan)

    # --- git ---------------------------------------------------------------------------------

    def git_ok(self) -> bool:
        """The current profile is inside a git repository (cached; :meth:`forget_git` after a commit)."""
        data = self.current
        if data is None:
            return False
        path = data.path
        if path not in self._git_ok:
            try:
                self._git_ok[path] = find_repo(path) is not None
            except (GitError, OSError):
                self._git_ok[path] = False
        return self._git_ok[path]

    def forget_git(self) -> None:
        self._git_ok.clear()

    def scope(self) -> Path:
        """The folder the app was opened on (the discovery root once loaded)."""
        if self.discovery is not None:
            return Path(self.discovery.root).absolute()
        return Path(self.source_path).absolute() if self.source_path is not None else Path.cwd()

    # --- watching ----------------------------------------------------------------------------

    def watch(self, root: Path, on_change: Callable[[Any], None]) -> Any:
        """Start the watcher on ``root`` (``on_change`` runs on its thread). Raises OSError."""
        from ..core.files.watch import MemoryWatcher

        watcher = MemoryWatcher(root, on_change, WATCH_DEBOUNCE)
        watcher.start()
        self.watcher = watcher
        return watcher

    def stop_watching(self) -> None:
        if self.watcher is not None:
            self.watcher.stop(timeout=1.0)
            self.watcher = None

    def own_operation(self, what: str) -> None:
        """The app starts a git operation (merge conclusion, abort, checkout, pull, rollback...):
        file events until :meth:`end_own_operation` are its own, not another program's."""
        self._own.append(_OwnOperation(what))

    def mark_files_own(self) -> None:
        """Announce the current bytes of every loaded profile's files as the app's own (any thread,
        right after an operation the app ran itself: a late event for them is then recognised)."""
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
        self._expect(own)

    def missed_changes(self) -> Any:
        """The loaded files that differ from disk now, as a watcher's batch (None when none differ).

        Run once the watcher is on (a worker thread): whatever another program wrote between the
        first read and the watcher's start raised no event, and would otherwise never show."""
        from ..core.files.watch import ChangeBatch

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
        """What another program changed, per loaded profile (the app's own writes left out).

        Records, for every changed profile, the data before the change, so that :meth:`accept_reload`
        words it by id.  During an own operation the batch is kept for :meth:`end_own_operation`.
        """
        if self._own:
            self._own[-1].deferred.append(batch)
            return []
        out = self._classify(batch)
        for change in out:
            # Every change, not only one to a memory file: an agent's temp file (``.memories.md.123.tmp``)
            # is often announced alone, its rename a batch later (watchdog holds a lone IN_MOVED_FROM back
            # for half a second), and the re-read started by the temp file already reads the replaced
            # memories.md.  Without the version before it, that reload would show the agent's change
            # with no notice, and the rename's reload would then compare the new version with itself.
            # An unchanged memory file costs one compare of its text (``diff_ids``).
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


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


__all__ = ["EntryTarget", "ExternalChange", "NotMemory", "ProfileData", "Refused", "Session", "WriteOutcome",
           "relevant"]
