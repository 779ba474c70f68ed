"""The entry-history index: which entries a change between two versions may have touched.

``touched_ids`` must never leave out an entry whose text changed (it may
name more, or give up with None); with the index, an entry's history must
be exactly the one read from every version.  Real repositories throughout.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openclaw_tui.core.format.entries import common_prefix, common_suffix, decode, parse, split_trailing
from openclaw_tui.core.git import entry_history as eh
from openclaw_tui.core.git.entry_index import EntryIndex, touched_ids
from tests.cli.test_git_helpers import entry, git, make_repo, memfile
from tests.helpers_memgen import SOUP, memory_files


def E(i: int, body: str, **fields: str) -> str:
    return entry(f"mem-{i:04d}", body, **fields)


def _definitions(data: bytes) -> dict[str, list[str]]:
    text, bom, _ok = decode(data)
    out: dict[str, list[str]] = {}
    for e in parse(text, bom=bom).entries:
        if e.id is not None and not e.error:
            out.setdefault(e.id, []).append(split_trailing(e.raw)[0])
    return out


def _really_changed(old: bytes, new: bytes) -> set[str]:
    """Ids whose definitions (all of them, in order) differ between the two versions, by a full parse."""
    o, n = _definitions(old), _definitions(new)
    return {i for i in set(o) | set(n) if o.get(i) != n.get(i)}


# --- touched_ids never misses a changed entry --------------------------------------------------------

EDIT_PIECES = [s.encode() for s in SOUP] + [
    b"\n", b"\n---\n", b"\nid: mem-0003\n", b"---\nid: mem-0042\n---\nnew entry\n", b"x", b"```", b"\r\n",
    b"status: cold\n", b"\xff\xfe", b"tags: [a]\n", b"  ",
]


@st.composite
def byte_edits(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with one stretch replaced (a change is one stretch between two versions, or looks like one)."""
    a = draw(st.integers(0, len(data)))
    b = draw(st.integers(a, min(len(data), a + draw(st.sampled_from([0, 1, 3, 20, 200])))))
    insert = b"".join(draw(st.lists(st.sampled_from(EDIT_PIECES), max_size=3)))
    return data[:a] + insert + data[b:]


@given(st.data())
def test_touched_ids_names_every_entry_a_byte_edit_changed(data: st.DataObject) -> None:
    old = data.draw(memory_files(max_blocks=10)).data
    new = data.draw(byte_edits(old))
    touched = touched_ids(old, new)
    if touched is not None:
        assert _really_changed(old, new) <= touched


PIECES = [E(i, f"body {i}", importance="low") for i in range(1, 25)] + [
    "---\ntags: [broken\n---\nmalformed body\n",
    "Some text\n\n---\n\nafter a rule\n",
    "---\ntimestamp: 2025-01-01T00:00:00+00:00\nid: mem-0041\n---\nfield before the id\n",
    "---\nimportance: low\nid: 'mem-0042'  # quoted\n---\nanother\n",
    E(3, "a duplicate id, defined again"),
]


@given(
    st.lists(st.sampled_from(PIECES), max_size=25),
    st.tuples(st.sampled_from(["drop", "edit", "insert", "swap", "pre", "trail"]), st.integers(0, 40)),
)
def test_touched_ids_names_every_entry_an_edit_by_entry_changed(pieces: list[str], op: tuple[str, int]) -> None:
    new_pieces = list(pieces)
    kind, k = op
    i = k % max(1, len(new_pieces))
    if kind == "insert" or not new_pieces:
        new_pieces.insert(i, E(30 + k, f"new {k}"))
    elif kind == "drop":
        del new_pieces[i]
    elif kind == "edit":
        new_pieces[i] = new_pieces[i].replace("body", "BODY").replace("importance: low", "importance: high")
    elif kind == "pre":
        new_pieces[i] = new_pieces[i].replace("2025-01-01", "2026-02-02").replace("importance: low\nid:", "id:")
    elif kind == "trail":
        new_pieces[i] = new_pieces[i] + "\n\n"
    else:
        j = (i + 1) % len(new_pieces)
        new_pieces[i], new_pieces[j] = new_pieces[j], new_pieces[i]
    old, new = ("# pre\n\n" + "\n".join(pieces)).encode(), ("# pre\n\n" + "\n".join(new_pieces)).encode()
    touched = touched_ids(old, new)
    if touched is not None:
        assert _really_changed(old, new) <= touched


PLAIN = [E(i, f"body {i}", importance="low") for i in range(1, 13)]


@given(
    st.lists(st.sampled_from(range(len(PLAIN))), min_size=1, max_size=12, unique=True),
    st.tuples(st.sampled_from(["drop", "edit", "insert", "swap", "trail"]), st.integers(0, 40)),
)
def test_touched_ids_answers_for_well_formed_files_and_names_little_more(order: list[int], op: tuple[str, int]) -> None:
    """Without fences or malformed blocks ``touched_ids`` must answer (a None would make every property above
    hold vacuously), name every changed entry, and only entries near the change besides."""
    pieces = [PLAIN[k] for k in order]
    new_pieces = list(pieces)
    kind, k = op
    i = k % len(new_pieces)
    if kind == "insert":
        new_pieces.insert(i, E(30 + k, f"new {k}"))
    elif kind == "drop":
        del new_pieces[i]
    elif kind == "edit":
        new_pieces[i] = new_pieces[i].replace("body", "BODY").replace("importance: low", "importance: high")
    elif kind == "trail":
        new_pieces[i] = new_pieces[i] + "\n\n"
    else:
        j = (i + 1) % len(new_pieces)
        new_pieces[i], new_pieces[j] = new_pieces[j], new_pieces[i]
    old, new = ("# pre\n\n" + "\n".join(pieces)).encode(), ("# pre\n\n" + "\n".join(new_pieces)).encode()
    changed = _really_changed(old, new)
    touched = touched_ids(old, new)
    assert touched is not None
    assert changed <= touched
    # and nothing beyond the entries that differ in place and their neighbours
    ids_old = [parse(p).entries[0].id for p in pieces]
    ids_new = [parse(p).entries[0].id for p in new_pieces]
    head = 0
    while head < min(len(pieces), len(new_pieces)) and pieces[head] == new_pieces[head]:
        head += 1
    tail = 0
    while tail < min(len(pieces), len(new_pieces)) - head and pieces[-1 - tail] == new_pieces[-1 - tail]:
        tail += 1
    # (two on each side: the bytes that differ may align with a neighbour's, "---\nid: mem-00" being common)
    around = set(ids_old[max(0, head - 2): len(ids_old) - tail + 2]) | set(ids_new[max(0, head - 2): len(ids_new) - tail + 2])
    assert touched <= around, (sorted(touched), sorted(around))


def test_touched_ids_of_a_one_entry_edit_in_a_big_file_is_that_entry_and_its_neighbours() -> None:
    entries = [E(i, f"body {i}") for i in range(1, 2001)]
    old = memfile(*entries).encode()
    entries[999] = entries[999].replace("body 1000", "body one thousand")
    touched = touched_ids(old, memfile(*entries).encode())
    assert touched is not None and "mem-1000" in touched and len(touched) <= 3


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_a_fence_opened_far_from_the_entries_it_swallows_is_caught(fence: str) -> None:
    """One fence line in mem-0002 pairs with a fence in mem-0005: everything between changes meaning."""
    fenced = f"{fence}\n---\nid: fake\n---\n{fence}"
    old = memfile(E(1, "a"), E(2, "b"), E(3, "c"), E(4, "d"), E(5, fenced), E(6, "f")).encode()
    at = old.index(b"b\n") + 2
    new = old[:at] + fence.encode() + b"\n" + old[at:]
    changed = _really_changed(old, new)
    assert {"mem-0003", "mem-0004", "fake"} <= changed
    # a byte-level answer cannot be trusted here (the pairing of fences decides what is an entry): it gives up,
    # and the index then reads the whole files (test_index_history_equals_reading_every_version)
    assert touched_ids(old, new) is None


def test_touched_ids_gives_up_on_fences_and_created_files() -> None:
    plain = memfile(E(1, "a"), E(2, "b")).encode()
    fenced = memfile(E(1, "a\n```\n---\nid: fake\n---\n```"), E(2, "b")).encode()
    assert touched_ids(plain, fenced) is None
    assert touched_ids(None, plain) is None and touched_ids(plain, None) is None
    assert touched_ids(plain, plain) == frozenset()


@given(st.binary(max_size=300), st.binary(max_size=300), st.binary(max_size=300))
def test_common_prefix_and_suffix_agree_with_a_plain_loop(head: bytes, a: bytes, b: bytes) -> None:
    x, y = head + a, head + b
    p = 0
    while p < min(len(x), len(y)) and x[p] == y[p]:
        p += 1
    assert common_prefix(x, y) == p
    limit = min(len(x), len(y)) - p
    s = 0
    while s < limit and x[-1 - s] == y[-1 - s]:
        s += 1
    assert common_suffix(bytearray(x), y, limit) == s


def test_common_prefix_over_many_chunks() -> None:
    big = bytes(range(256)) * 2000
    assert common_prefix(big, big[:300_000] + b"!" + big[300_001:]) == 300_000
    assert common_suffix(big, big[:100] + b"!" + big[101:], len(big)) == len(big) - 101


# --- the index in a real repository ------------------------------------------------------------------


def _history_repo(path: Path, commits: int = 90) -> Path:
    """A profile ``p`` whose commits edit, add, move to the archive and back, fence, duplicate and break
    entries; built with ``git fast-import`` (one commit per version)."""
    repo = make_repo(path)
    rng = random.Random(11)
    entries = {i: E(i, f"body {i}", importance="low") for i in range(1, 40)}
    archive: dict[int, str] = {}
    stream = []
    for c in range(commits):
        k = rng.randrange(1, 40)
        if c == 41:
            entries[200] = E(12, "a second definition of mem-0012")  # a duplicate id
        elif c == 46:
            entries[201] = "---\ntags: [broken\n---\nmalformed\n"
        elif c == 51:
            entries.pop(201)
        elif c == 61:
            entries[202] = E(202, "fenced\n```\n---\nid: mem-0009\n---\n```")
        elif c == 75:
            entries.pop(202)
        elif c % 13 == 3 and 7 in entries:
            archive[7] = entries.pop(7).replace("importance: low", "importance: low\nstatus: archived")
        elif c % 13 == 8 and 7 in archive:
            entries[7] = archive.pop(7).replace("\nstatus: archived", "")
        elif c % 5 == 0 and 7 in entries:
            entries[7] = entries[7].replace("body 7", f"body 7 v{c}")
        elif c % 7 == 0:
            entries[100 + c] = E(100 + c, f"new {c}")
        elif k in entries:
            entries[k] = entries[k] + "more\n" if c % 2 else entries[k].replace("low", "high")
        mem = memfile(*entries.values()).encode()
        arch = memfile(*archive.values(), preamble="").encode()
        stream.append(b"commit refs/heads/main\ncommitter T <t@x> %d +0000\ndata 3\nc%02d\n" % (1_700_000_000 + c, c))
        for name, data in (("p/memories.md", mem), ("p/contexts/archive/memories.md", arch)):
            stream.append(b"M 100644 inline %s\ndata %d\n%s\n" % (name.encode(), len(data), data))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    git(repo, "reset", "-q", "--hard", "main")
    return repo


def _plain(repo: Path, entry_id: str) -> list[tuple[str, str, str | None]]:
    return [(v.commit.sha, v.kind, v.raw) for v in eh.entry_history(repo, repo / "p", entry_id, use_index=False)]


IDS = ["mem-0007", "mem-0012", "mem-0009", "mem-0001", "mem-0020", "mem-0177", "mem-0202", "mem-9999"]


@pytest.fixture(scope="module")
def history_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _history_repo(tmp_path_factory.mktemp("index") / "r")


def test_indexed_history_equals_reading_every_version(history_repo: Path) -> None:
    repo = history_repo
    expected = {i: _plain(repo, i) for i in IDS}
    assert len(expected["mem-0007"]) > 10
    assert eh.index_entry_history(repo, repo / "p") > 80
    index_file = repo / ".git" / "openclaw-tui" / "entry-index.sqlite"
    rows = sqlite3.connect(index_file).execute("SELECT count(*), count(ids) FROM pairs").fetchone()
    assert rows[0] > 80 and 0 < rows[1] < rows[0]  # most pairs answered, the fenced ones left to a full read
    for i in IDS:
        assert expected[i] or i == "mem-9999"
        got = [(v.commit.sha, v.kind, v.raw) for v in eh.entry_history(repo, repo / "p", i)]
        assert got == expected[i], i
    assert eh.index_entry_history(repo, repo / "p") == 0  # nothing new: nothing read


def test_the_index_only_grows_with_new_commits(tmp_path: Path) -> None:
    repo = _history_repo(tmp_path / "r", commits=30)
    first = eh.index_entry_history(repo, repo / "p")
    mem = repo / "p" / "memories.md"
    mem.write_bytes(mem.read_bytes().replace(b"body 3", b"body three"))
    git(repo, "commit", "-qam", "edit mem-0003")
    assert eh.index_entry_history(repo, repo / "p") == 1
    assert first > 20
    history = eh.entry_history(repo, repo / "p", "mem-0003")
    assert history[0].raw is not None and "body three" in history[0].raw
    assert [(v.commit.sha, v.raw) for v in history] == [(s, r) for s, _k, r in _plain(repo, "mem-0003")]


def test_stopping_keeps_what_was_indexed(tmp_path: Path) -> None:
    repo = _history_repo(tmp_path / "r", commits=40)
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 15

    partial = eh.index_entry_history(repo, repo / "p", should_stop=stop, batch=5)
    assert 0 < partial < 40
    rest = eh.index_entry_history(repo, repo / "p")
    assert rest > 0 and len(EntryIndex.for_repo(repo)) == partial + rest


def test_without_a_writable_index_the_history_is_still_right(tmp_path: Path) -> None:
    repo = _history_repo(tmp_path / "r", commits=30)
    (repo / ".git" / "openclaw-tui").write_text("a file where the index folder would be\n")
    expected = _plain(repo, "mem-0007")
    assert eh.index_entry_history(repo, repo / "p") > 0  # indexed in memory, then forgotten
    assert [(v.commit.sha, v.kind, v.raw) for v in eh.entry_history(repo, repo / "p", "mem-0007")] == expected


def test_a_corrupt_index_file_is_replaced_by_an_index_in_memory(tmp_path: Path) -> None:
    repo = _history_repo(tmp_path / "r", commits=20)
    (repo / ".git" / "openclaw-tui").mkdir()
    (repo / ".git" / "openclaw-tui" / "entry-index.sqlite").write_bytes(b"not a database" * 100)
    expected = _plain(repo, "mem-0007")
    assert [(v.commit.sha, v.kind, v.raw) for v in eh.entry_history(repo, repo / "p", "mem-0007")] == expected


def test_indexed_history_through_branches_and_merges(tmp_path: Path) -> None:
    """Side-branch commits interleave with main's in the log: pairs that are not neighbours get read alone."""
    repo = make_repo(tmp_path / "r")
    mem = repo / "p" / "memories.md"
    mem.parent.mkdir(parents=True)
    mem.write_text(memfile(*(E(i, f"body {i}") for i in range(1, 12))), encoding="utf-8")
    day = 1

    def commit(message: str, old: str | None = None, new: str = "") -> None:
        nonlocal day
        if old is not None:
            text = mem.read_text(encoding="utf-8")
            assert old in text
            mem.write_text(text.replace(old, new, 1), encoding="utf-8")
        git(repo, "add", "-A")
        stamp = f"2025-02-{day:02d}T10:00:00+00:00"
        day += 1
        git(repo, "commit", "-q", "-m", message, env={"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp})

    commit("base")
    for r in range(3):
        git(repo, "checkout", "-q", "-b", f"side{r}")
        commit(f"side {r}: mem-0002", "body 2\n", f"body 2\nside {r}\n")
        commit(f"side {r}: mem-0005", "body 5\n", f"body 5\nside {r}\n")
        git(repo, "checkout", "-q", "main")
        commit(f"main {r}: mem-0008", "body 8\n", f"body 8\nmain {r}\n")  # dated between the side's two
        git(repo, "merge", "-q", "--no-edit", f"side{r}")
    assert len(git(repo, "log", "--merges", "--format=%H").split()) == 3
    ids = ["mem-0002", "mem-0005", "mem-0008", "mem-0001"]
    expected = {i: _plain(repo, i) for i in ids}
    assert len(expected["mem-0002"]) == 1 + 3 + 3  # created, each side edit, each merge bringing it to main
    assert eh.index_entry_history(repo, repo / "p") > 5
    for i in ids:
        assert [(v.commit.sha, v.kind, v.raw) for v in eh.entry_history(repo, repo / "p", i)] == expected[i], i
