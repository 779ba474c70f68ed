"""MemoryWatcher with real filesystem events: save patterns, noise, own writes, git, polling, stop."""

from __future__ import annotations

import errno
import importlib.metadata
import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from openclaw_tui.core.files import watch
from openclaw_tui.core.files.profile import load_profile
from openclaw_tui.core.files.safe_write import atomic_write, locked
from openclaw_tui.core.files.watch import ChangeBatch, MemoryWatcher, classify
from openclaw_tui.core.lifecycle.operations import plan_add, plan_set
from openclaw_tui.core.lifecycle.plan import apply_changes

TIMEOUT = 20.0  # generous: only reached when something is broken


class Batches:
    """Collects batches from the watcher thread; waits on a queue, never sleeps blindly."""

    def __init__(self) -> None:
        self.q: queue.Queue[ChangeBatch] = queue.Queue()
        self.seen: list[ChangeBatch] = []
        self.threads: set[str] = set()

    def __call__(self, batch: ChangeBatch) -> None:
        self.threads.add(threading.current_thread().name)
        self.q.put(batch)

    def next(self, timeout: float = TIMEOUT) -> ChangeBatch:
        b = self.q.get(timeout=timeout)
        self.seen.append(b)
        return b

    def until(self, pred: Callable[[set[str], bool], bool], timeout: float = TIMEOUT) -> tuple[set[str], bool]:
        """Union of batches until ``pred(paths, git)`` holds."""
        paths: set[str] = set()
        git = False
        while not pred(paths, git):
            b = self.next(timeout)
            paths |= b.paths
            git = git or b.git
        return paths, git

    def none_within(self, seconds: float) -> bool:
        """True when no batch arrives in ``seconds`` (used only where silence is the expected outcome)."""
        try:
            self.seen.append(self.q.get(timeout=seconds))
        except queue.Empty:
            return True
        return False


@pytest.fixture
def root(tmp_path: Path) -> Path:
    prof = tmp_path / "profiles" / "assistant"
    prof.mkdir(parents=True)
    (prof / "memories.md").write_text("---\nid: mem-0001\n---\nfirst\n", encoding="utf-8")
    return tmp_path


@pytest.fixture
def watched(root: Path) -> Iterator[tuple[MemoryWatcher, Batches]]:
    got = Batches()
    w = MemoryWatcher(root, got)
    w.start()
    yield w, got
    w.stop()


MEM = "profiles/assistant/memories.md"


def threads_alive(w: MemoryWatcher) -> bool:
    """True while the watcher's observer or dispatch thread still runs."""
    return any(t is not None and t.is_alive() for t in (w._observer, w._thread))


def sentinel(root: Path, name: str = "sentinel.md") -> str:
    """A plain write whose batch proves that everything before it was delivered."""
    (root / name).write_text("x", encoding="utf-8")
    return name


# --- save patterns ------------------------------------------------------------------------------


def test_in_place_write(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    w, got = watched
    assert w.mode == "inotify"
    with open(root / MEM, "a", encoding="utf-8") as fh:
        fh.write("more\n")
    assert got.next().paths == {MEM}
    assert got.threads == {"openclaw-tui-watch"}  # the callback runs on the watcher thread


def test_atomic_rename_reports_the_destination(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    _, got = watched
    tmp = root / "profiles" / "assistant" / ".memories.md.k2j3.tmp"
    tmp.write_text("---\nid: mem-0001\n---\nreplaced\n", encoding="utf-8")
    os.replace(tmp, root / MEM)
    assert got.next().paths == {MEM}


def test_vim_backup_rename_then_write(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    _, got = watched
    folder = root / "profiles" / "assistant"
    (folder / "4913").write_bytes(b"")
    (folder / "4913").unlink()
    os.rename(folder / "memories.md", folder / "memories.md~")
    (folder / "memories.md").write_text("---\nid: mem-0001\n---\nvim\n", encoding="utf-8")
    (folder / ".memories.md.swp").write_bytes(b"swap")
    (folder / "memories.md~").unlink()
    assert got.next().paths == {MEM}


def test_delete_then_recreate(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    _, got = watched
    (root / MEM).unlink()
    (root / MEM).write_text("---\nid: mem-0002\n---\nnew\n", encoding="utf-8")
    paths, _ = got.until(lambda p, g: MEM in p)
    assert paths == {MEM}
    assert (root / MEM).exists()


def test_many_files_at_once_coalesce(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    _, got = watched
    names = {f"profiles/assistant/contexts/2025-06-{i:02d}_notes.md" for i in range(1, 21)}
    (root / "profiles" / "assistant" / "contexts").mkdir()
    for n in sorted(names):
        atomic_write(root / n, f"# {n}\n".encode())
    paths, _ = got.until(lambda p, g: names <= p)
    assert paths == names | {"profiles/assistant/contexts"}
    assert len(got.seen) < len(names)  # bursts are coalesced


def test_profile_folder_created_and_removed(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    _, got = watched
    new = root / "profiles" / "atlas"
    new.mkdir()
    (new / "memories.md").write_text("---\nid: mem-0001\n---\natlas\n", encoding="utf-8")
    paths, _ = got.until(lambda p, g: "profiles/atlas" in p)
    assert any("profiles/atlas" in b.dirs for b in got.seen)
    shutil.rmtree(new)
    got.seen.clear()
    paths, _ = got.until(lambda p, g: "profiles/atlas" in p)
    assert any("profiles/atlas" in b.dirs for b in got.seen)


def test_noise_is_not_reported(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    _, got = watched
    folder = root / "profiles" / "assistant"
    (folder / "memories.md.lock").write_bytes(b"")
    (folder / ".memories.md.a1b2.tmp").write_bytes(b"tmp")
    (folder / "4913").write_bytes(b"")
    (folder / "notes.md~").write_bytes(b"backup")
    (folder / ".notes.md.swp").write_bytes(b"swap")
    (folder / ".#notes.md").write_bytes(b"emacs")
    (root / ".git" / "objects" / "ab").mkdir(parents=True)
    (root / ".git" / "objects" / "ab" / "cdef").write_bytes(b"blob")
    (root / ".git" / "index.lock").write_bytes(b"")
    name = sentinel(root)
    first = got.next()
    assert first.paths == {name} and not first.git


def test_a_tree_made_at_once_brings_no_warning_from_watchdog(root: Path, recwarn: pytest.WarningsRecorder) -> None:
    """``mkdir -p`` under the watched root: watchdog finds a new folder both by walking its new parent and by
    the folder's own create event, registers it twice, and warned "Callback with id ... already exists" (now
    and then in test_noise_is_not_reported, whose .git/objects/ab is such a tree).  Ten deep trees at once
    make the race near certain; every folder of them is still reported."""
    got = Batches()
    trees = [f"t{i}/a/b/c/d" for i in range(10)]
    with MemoryWatcher(root, got):
        for tree in trees:
            (root / tree).mkdir(parents=True)
        paths, _ = got.until(lambda p, g: set(trees) <= p)
    assert not [w for w in recwarn if "already exists" in str(w.message)], [str(w.message)[:120] for w in recwarn]


def test_watchdog_registering_a_folder_again_is_silent_and_changes_nothing(root: Path,
                                                                          recwarn: pytest.WarningsRecorder) -> None:
    """What the race above does, made certain: the real watch group of the running observer registers a folder
    it already watches (its ``_add_callback``, as its create-event handler calls it).  watchdog warns; we
    ignore exactly that warning, and the folder's changes still come once.  Written against watchdog 7's
    inner names on purpose: when they change, the reason the warning is ignored must be checked again."""
    if int(importlib.metadata.version("watchdog").split(".")[0]) < 7:
        pytest.skip("the warning and the names used here are watchdog 7's")
    got = Batches()
    with MemoryWatcher(root, got) as w:
        assert w._observer is not None
        (emitter,) = w._observer.emitters
        group = emitter._inotify  # type: ignore[attr-defined]
        with group._lock:
            group._add_callback(os.fsencode(root / "profiles" / "assistant"))
        (root / MEM).write_text("---\nid: mem-0001\n---\nagain\n", encoding="utf-8")
        assert got.next().paths == {MEM}
        name = sentinel(root)
        assert got.next().paths == {name}  # nothing more came for MEM: one callback, not two
    assert not [m for m in recwarn if "already exists" in str(m.message)]
    assert recwarn.list == [], [str(m.message)[:200] for m in recwarn]


def test_classify() -> None:
    assert classify("profiles/a/memories.md") == "file"
    assert classify(".git/HEAD") == "git" and classify(".git/MERGE_HEAD") == "git"
    assert classify(".git/index") == "git" and classify(".git/refs/heads/main") == "git"
    assert classify(".git/objects/ab/cd") == "ignore" and classify(".git/index.lock") == "ignore"
    assert classify("sub/.git/HEAD") == "git"
    for noise in ("a/memories.md.lock", "a/.memories.md.x.tmp", "a/4913", "a/b~", "a/.b.swp", "a/.#b"):
        assert classify(noise) == "ignore"
    assert classify("a/memories.tmp") == "file"


def test_a_continuous_storm_is_delivered_within_the_cap(root: Path) -> None:
    got = Batches()
    stop = threading.Event()
    w = MemoryWatcher(root, got, debounce=0.3, max_delay=0.8)
    w.start()

    def storm() -> None:
        i = 0
        while not stop.wait(0.05):  # faster than the debounce: never quiet
            (root / MEM).write_text(f"---\nid: mem-0001\n---\n{i}\n", encoding="utf-8")
            i += 1
            if i > 400:  # ~20 s: far beyond the cap
                break

    t = threading.Thread(target=storm)
    t.start()
    try:
        b = got.next()
        assert t.is_alive(), "the batch should arrive while the storm still blows"
        assert b.paths == {MEM}
    finally:
        stop.set()
        t.join()
        w.stop()


def test_a_failing_callback_does_not_stop_the_watcher(root: Path) -> None:
    got = Batches()
    first = threading.Event()

    def flaky(b: ChangeBatch) -> None:
        if not first.is_set():
            first.set()
            raise RuntimeError("boom")
        got(b)

    with MemoryWatcher(root, flaky):
        sentinel(root, "one.md")
        assert first.wait(TIMEOUT)
        name = sentinel(root, "two.md")
        assert name in got.until(lambda p, g: name in p)[0]


# --- own writes ---------------------------------------------------------------------------------


def test_own_commit_is_not_reported_but_a_following_write_is(root: Path,
                                                             watched: tuple[MemoryWatcher, Batches]) -> None:
    w, got = watched
    path = root / MEM
    plan = plan_set(load_profile(path.parent), "mem-0001", {"importance": "high"})
    w.expect_write(path, plan.changes[0].after)
    written = apply_changes(plan)
    assert b"importance: high" in path.read_bytes() and written.changes[0].after == path.read_bytes()
    name = sentinel(root)
    first = got.next()
    assert first.paths == {name}  # the own write produced no report (or only as ``own``)
    assert not any(MEM in b.paths for b in got.seen)
    # an external write right after it is reported
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("appended by the agent\n")
    paths, _ = got.until(lambda p, g: MEM in p)
    assert MEM in paths


def test_own_write_followed_at_once_by_another_write_is_reported(root: Path,
                                                                 watched: tuple[MemoryWatcher, Batches]) -> None:
    w, got = watched
    path = root / MEM
    plan = plan_add(load_profile(path.parent), {"id": "mem-0002"}, "mine\n")
    w.expect_write(path, plan.changes[0].after)
    apply_changes(plan)
    with locked(path):  # the agent writes within the same burst
        atomic_write(path, path.read_bytes() + b"---\nid: mem-0003\n---\ntheirs\n")
    b = got.next()
    assert MEM in b.paths


def test_expected_deletion_is_own(root: Path, watched: tuple[MemoryWatcher, Batches]) -> None:
    w, got = watched
    extra = root / "profiles" / "assistant" / "contexts"
    extra.mkdir()
    w.expect_write(extra / "gone.md", None)
    (extra / "gone.md").write_text("x", encoding="utf-8")
    (extra / "gone.md").unlink()
    name = sentinel(root)
    paths, _ = got.until(lambda p, g: name in p)
    assert "profiles/assistant/contexts/gone.md" not in paths


# --- git ----------------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def test_git_checkout_of_another_branch(root: Path) -> None:
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    git(root, "checkout", "-qb", "other")
    (root / MEM).write_text("---\nid: mem-0001\n---\nfirst\n---\nid: mem-0002\n---\nother branch\n", encoding="utf-8")
    git(root, "commit", "-qam", "second")
    git(root, "checkout", "-q", "main")
    got = Batches()
    with MemoryWatcher(root, got):
        git(root, "checkout", "-q", "other")
        paths, flag = got.until(lambda p, g: MEM in p and g)
    assert flag and paths == {MEM}
    assert b"other branch" in (root / MEM).read_bytes()


# --- modes and lifecycle ------------------------------------------------------------------------


def test_polling_forced_by_environment(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_TUI_POLLING", "1")
    got = Batches()
    w = MemoryWatcher(root, got, poll_interval=0.2)
    w.start()
    try:
        assert w.mode == "polling" and w.fallback_reason and "OPENCLAW_TUI_POLLING" in w.fallback_reason
        tmp = root / "profiles" / "assistant" / ".memories.md.zz.tmp"
        tmp.write_text("---\nid: mem-0001\n---\npolled\n", encoding="utf-8")
        os.replace(tmp, root / MEM)
        paths, _ = got.until(lambda p, g: MEM in p)
        assert paths == {MEM}
    finally:
        w.stop()
    assert not threads_alive(w)


class _NoWatchesLeft(watch.Observer):  # type: ignore[misc, valid-type]
    """The native observer as it fails when fs.inotify.max_user_watches is exhausted."""

    def start(self) -> None:
        raise OSError(errno.ENOSPC, "inotify watch limit reached")


def test_polling_when_inotify_cannot_start(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENCLAW_TUI_POLLING", raising=False)
    monkeypatch.setattr(watch, "NATIVE_OBSERVER", _NoWatchesLeft)
    got = Batches()
    with MemoryWatcher(root, got, poll_interval=0.2) as w:
        assert w.mode == "polling" and "max_user_watches" in (w.fallback_reason or "")
        (root / MEM).write_text("changed\n", encoding="utf-8")
        assert got.until(lambda p, g: MEM in p)[0] == {MEM}


def test_start_and_stop_are_idempotent_and_join_the_threads(root: Path) -> None:
    w = MemoryWatcher(root, Batches())
    assert w.mode is None and not w.running
    w.start()
    w.start()
    assert w.running and threads_alive(w)
    w.stop()
    assert not threads_alive(w) and not w.running
    w.stop()
    with pytest.raises(RuntimeError):
        w.start()
    never = MemoryWatcher(root, Batches())
    never.stop()  # stopping a watcher that never started is harmless
    assert not threads_alive(never)


def test_stop_from_inside_the_callback(root: Path) -> None:
    done = threading.Event()
    holder: list[MemoryWatcher] = []

    def cb(b: ChangeBatch) -> None:
        holder[0].stop()
        done.set()

    w = MemoryWatcher(root, cb)
    holder.append(w)
    w.start()
    sentinel(root)
    assert done.wait(TIMEOUT)
    w._thread.join(TIMEOUT)  # type: ignore[union-attr]
    assert not threads_alive(w)


def test_missing_root_raises(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        MemoryWatcher(tmp_path / "nope", Batches()).start()
