"""History by entry: log pages, semantic diffs of known commits, one entry's history, rollback, revert."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openclaw_tui.core.format.entries import parse, split_trailing
from openclaw_tui.core.git import entry_history as eh
from openclaw_tui.core.git import history as h
from openclaw_tui.core.git import semantic_diff as sd
from tests.cli.test_git_helpers import commit_all, entry, git, make_repo, memfile, write

P = "profiles/xiaoyu"


def E(i: int, body: str, **fields: str) -> str:
    return entry(f"mem-{i:04d}", body, **fields)


@pytest.fixture
def story(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository whose commits each do one known thing to the profile."""
    repo = make_repo(tmp_path / "repo")
    prof = repo / P
    shas: dict[str, str] = {}
    write(prof / "memories.md", memfile(E(1, "Lives in Shanghai.", importance="high"),
                                        E(7, "Coffee every morning.", importance="medium", status="active")))
    write(prof / "state.yaml", "focus: mem-0001\n")
    write(repo / "README.md", "not the profile\n")
    shas["create"] = commit_all(repo, "create", "2025-01-01T10:00:00+00:00")
    write(prof / "memories.md", memfile(
        E(1, "Lives in Shanghai.", importance="high"),
        E(7, "Coffee every morning.", importance="medium", status="superseded", superseded_by="mem-0012"),
        E(12, "No caffeine: palpitations.", importance="high", conflict="mem-0007")))
    write(prof / "contexts/2025-06-03_planning.md", "# plan\n")
    shas["supersede"] = commit_all(repo, "supersede", "2025-01-02T10:00:00+00:00")
    write(repo / "README.md", "still not the profile\n")
    shas["other"] = commit_all(repo, "outside", "2025-01-03T10:00:00+00:00")
    write(prof / "memories.md", memfile(
        E(1, "Lives in Hangzhou now.", importance="high", tags="[home]"),
        E(12, "No caffeine: palpitations.", importance="high", conflict="mem-0007")))
    write(prof / "contexts/archive/memories.md", memfile(
        E(7, "Coffee every morning.", importance="medium", status="archived", superseded_by="mem-0012",
          archived_at="2025-01-04T10:00:00+00:00"), preamble=""))
    write(prof / "state.yaml", "focus: mem-0012\n")
    shas["archive"] = commit_all(repo, "archive", "2025-01-04T10:00:00+00:00")
    write(prof / "memories.md", memfile(
        E(1, "Lives in Hangzhou now.", importance="high", tags="[home]"),
        E(7, "Coffee every morning.", importance="medium", status="active"),
        E(12, "No caffeine: palpitations.", importance="high", conflict="mem-0007")))
    write(prof / "contexts/archive/memories.md", "")
    shas["restore"] = commit_all(repo, "restore", "2025-01-05T10:00:00+00:00")
    write(prof / "memories.md", memfile(
        E(7, "Coffee every morning.", importance="medium", status="active"),
        E(12, "No caffeine: palpitations.", importance="high", conflict="mem-0007"),
        E(1, "Lives in Hangzhou now.", importance="high", tags="[home]")))
    shas["move"] = commit_all(repo, "move within file", "2025-01-06T10:00:00+00:00")
    write(prof / "memories.md", memfile(
        E(7, "Coffee every morning.", importance="medium", status="active"),
        E(12, "No caffeine: palpitations.", importance="high", conflict="mem-0007")))
    git(repo, "rm", "-q", f"{P}/contexts/2025-06-03_planning.md")
    shas["remove"] = commit_all(repo, "remove", "2025-01-07T10:00:00+00:00")
    return repo, shas


def test_log_page_lists_profile_commits_newest_first(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    page = h.log_page(repo, repo / P, 0, 50)
    assert [c.subject for c in page] == ["remove", "move within file", "restore", "archive", "supersede", "create"]
    assert page[0].sha == shas["remove"] and page[-1].parents == ()
    assert page[0].date.startswith("2025-01-07T10:00:00") and page[0].author == "Test Person"
    assert [c.subject for c in h.log_page(repo, repo / P, 2, 2)] == ["restore", "archive"]
    assert [c.subject for c in h.log_page(repo, "", 0, 3)] == ["remove", "move within file", "restore"]
    assert h.log_page(repo, repo / P, 10, 5) == []


def test_log_page_of_an_empty_repository_is_empty(tmp_path: Path) -> None:
    assert h.log_page(make_repo(tmp_path / "empty")) == []


def test_semantic_diff_of_known_commits(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    d = h.commit_semantic_diff(repo, shas["create"], repo / P).diff
    assert d.lines() == ["mem-0001: added", "mem-0007: added", "memories.md: added", "state.yaml: added"]

    d = h.commit_semantic_diff(repo, shas["supersede"], repo / P).diff
    assert d.lines() == ["mem-0012: added", "mem-0007: superseded by mem-0012", "contexts/2025-06-03_planning.md: added"]
    ch = d.memories.get("mem-0007")
    assert ch is not None and ch.status_change == ("active", "superseded") and not ch.body_changed
    assert [f.name for f in ch.fields] == ["status", "superseded_by"]
    assert ch.fields[1].kind == "added" and ch.fields[1].new == "mem-0012"

    d = h.commit_semantic_diff(repo, shas["archive"], repo / P).diff
    assert d.lines() == ["mem-0001: changed (tags, body)", "mem-0007: archived",
                         "contexts/archive/memories.md: added", "state.yaml: changed"]
    ev = next(e for e in d.events if e.id == "mem-0007")
    assert ev.kind == "archived" and ev.file == h.ARCHIVE and ev.change is not None
    assert set(ev.change.field_names) == {"status", "archived_at"}

    d = h.commit_semantic_diff(repo, shas["restore"], repo / P).diff
    assert [e.describe() for e in d.events] == ["restored"] and d.events[0].file == h.MEMORIES

    d = h.commit_semantic_diff(repo, shas["move"], repo / P).diff
    m = d.memories
    assert d.events == () and not (m.all() or m.preamble_changed or m.malformed_changed)  # moving an entry inside the file changes no entry

    d = h.commit_semantic_diff(repo, shas["remove"], repo / P).diff
    assert d.lines() == ["mem-0001: removed", "contexts/2025-06-03_planning.md: deleted"]


def test_entry_history_follows_the_entry_into_the_archive_and_back(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    versions = eh.entry_history(repo, repo / P, "mem-0007")
    assert [(v.commit.subject, v.kind, v.file) for v in versions] == [
        ("restore", "restored", h.MEMORIES),
        ("archive", "archived", h.ARCHIVE),
        ("supersede", "changed", h.MEMORIES),
        ("create", "created", h.MEMORIES),
    ]
    assert versions[-1].previous is None and "status: active" in (versions[-1].raw or "")
    assert versions[1].change is not None and "archived_at" in versions[1].change.field_names
    assert versions[0].raw == split_trailing(E(7, "Coffee every morning.", importance="medium", status="active"))[0]


def test_entry_history_of_an_entry_moved_then_removed(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    versions = eh.entry_history(repo, repo / P, "mem-0001")
    assert [(v.commit.subject, v.kind) for v in versions] == [
        ("remove", "removed"), ("archive", "changed"), ("create", "created")]
    assert versions[0].raw is None and versions[0].file is None
    assert versions[1].change is not None and versions[1].change.body_changed
    assert eh.entry_history(repo, repo / P, "mem-0001", max_commits=2)[0].kind == "removed"
    assert eh.entry_history(repo, repo / P, "mem-9999") == []


def test_entry_history_ignores_mere_mentions_of_the_id(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    mem = repo / "memories.md"
    write(mem, memfile(E(1, "one"), E(2, "see mem-0001")))
    commit_all(repo, "a")
    write(mem, memfile(E(1, "one"), E(2, "see mem-0001 again"), E(3, "x", conflict="mem-0001")))
    commit_all(repo, "b")
    versions = eh.entry_history(repo, repo, "mem-0001")
    assert [v.commit.subject for v in versions] == ["a"]


def test_entry_history_through_a_merge(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    mem = repo / "memories.md"
    base = memfile(E(1, "one"), E(2, "two"))
    write(mem, base)
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "side")
    write(mem, base.replace("two", "two on the side"))
    commit_all(repo, "side edit")
    git(repo, "checkout", "-q", "main")
    write(mem, base.replace("one", "one on main"))
    commit_all(repo, "main edit")
    git(repo, "merge", "-q", "--no-edit", "side")
    versions = eh.entry_history(repo, repo, "mem-0002")
    kinds = [(v.commit.subject, v.kind) for v in versions]
    assert ("side edit", "changed") in kinds and kinds[-1] == ("base", "created")
    merge = [v for v in versions if v.commit.is_merge]
    assert merge and "two on the side" in (merge[0].raw or "")


# --- find_entry_raw must agree with the full parser ------------------------------------------------------

TRICKY = [
    memfile(E(1, "a\n\n---\n\nrule above"), E(2, "b")),
    memfile(E(1, "```\n---\nid: mem-0002\n---\nfenced\n```\n"), E(3, "c")),
    memfile(entry("mem-0002", "quoted").replace("id: mem-0002", "id: 'mem-0002'"), E(3, "x")),
    memfile(E(1, "body mentions\nid: mem-0002\nin text"), E(3, "y")),
    "---\nid: mem-0002\n---\nfirst thing in the file\n",
    memfile(E(2, "dup one"), E(2, "dup two")),
    memfile(E(1, "x"), "---\ntags: [a\n---\nmalformed\n", E(2, "after malformed")),
    memfile(E(2, "no newline at the end")).rstrip("\n"),
    memfile(E(1, "x"), "---\nid: mem-0002\nnote: |\n  block\n  scalar\n---\nbody\n"),
]


@pytest.mark.parametrize("text", TRICKY)
def test_find_entry_raw_agrees_with_the_parser(text: str) -> None:
    e = parse(text).get("mem-0002")
    expected = split_trailing(e.raw)[0] if e is not None else None
    assert eh.find_entry_raw(text.encode(), "mem-0002") == expected


# --- the windowed semantic diff equals a full comparison --------------------------------------------------


def _reference(old: str, new: str) -> tuple[set[str], set[str], set[str]]:
    o, n = parse(old).by_id(), parse(new).by_id()
    added = set(n) - set(o)
    removed = set(o) - set(n)
    changed = {i for i in set(o) & set(n) if split_trailing(o[i].raw)[0] != split_trailing(n[i].raw)[0]}
    return added, removed, changed


PIECES = [E(i, f"body {i}", importance="low") for i in range(1, 25)] + [
    "---\ntags: [broken\n---\nmalformed body\n",
    "Some text\n\n---\n\nafter a rule\n",
    E(20, "has a fence\n```\n---\nid: mem-0099\n---\n```"),
    "---\ntimestamp: 2025-01-01T00:00:00+00:00\nid: mem-0041\n---\nfield before the id\n",
    "---\nimportance: low\nid: mem-0042\n---\nanother\n",
]


@given(
    st.one_of(st.lists(st.sampled_from(PIECES), unique=True, max_size=30), st.lists(st.sampled_from(PIECES), max_size=12)),
    st.lists(st.tuples(st.sampled_from(["drop", "edit", "insert", "swap", "pre"]), st.integers(0, 40)), max_size=6),
)
def test_windowed_semantic_diff_matches_a_full_comparison(pieces: list[str], ops: list[tuple[str, int]]) -> None:
    old_pieces = list(pieces)
    new_pieces = list(pieces)
    for op, k in ops:
        if not new_pieces and op != "insert":
            continue
        i = k % max(1, len(new_pieces))
        if op == "drop":
            del new_pieces[i]
        elif op == "edit":
            new_pieces[i] = new_pieces[i].replace("body", "BODY").replace("importance: low", "importance: high")
        elif op == "pre":
            new_pieces[i] = new_pieces[i].replace("2025-01-01", "2026-02-02").replace(
                "importance: low\nid:", "importance: high\nid:")
        elif op == "insert":
            new_pieces.insert(i, E(30 + k, f"new {k}"))
        else:
            j = (i + 1) % len(new_pieces)
            new_pieces[i], new_pieces[j] = new_pieces[j], new_pieces[i]
    old, new = "# pre\n\n" + "\n".join(old_pieces), "# pre\n\n" + "\n".join(new_pieces)
    d = sd.semantic_diff(old.encode(), new.encode())
    assert ({c.id for c in d.added}, {c.id for c in d.removed}, {c.id for c in d.changed}) == _reference(old, new)


def test_semantic_diff_reports_fields_body_and_lines() -> None:
    old = memfile(*(E(i, f"body {i}", importance="low") for i in range(1, 200)))
    new = old.replace("id: mem-0150\nimportance: low\n---\nbody 150", "id: mem-0150\nimportance: high\n---\nchanged")
    d = sd.semantic_diff(old.encode(), new.encode())
    (c,) = d.changed
    assert c.id == "mem-0150" and c.field_names == ("importance",) and c.body_changed
    assert c.fields[0].old == "low" and c.fields[0].new == "high"
    assert c.old_line == parse(old).get("mem-0150").line  # type: ignore[union-attr]
    assert sd.semantic_diff(old.encode(), old.encode()) == sd.SemanticDiff()
    assert sd.semantic_diff(None, old.encode()).added[0].id == "mem-0001"


def test_semantic_diff_of_a_comment_only_change_is_formatting() -> None:
    old = memfile(E(1, "x", importance="low"))
    new = old.replace("importance: low", "importance: low  # rarely used")
    (c,) = sd.semantic_diff(old.encode(), new.encode()).changed
    assert c.fields == () and c.format_changed and c.describe() == "formatting"


# --- rollback and revert -------------------------------------------------------------------------------------


def test_plan_and_apply_a_rollback(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    prof = repo / P
    plan = h.plan_rollback(repo, prof, shas["supersede"])
    assert plan.blocked is None
    actions = {f.path: f.action for f in plan.files}
    assert actions == {"memories.md": "restore", "state.yaml": "restore",
                       "contexts/2025-06-03_planning.md": "create", "contexts/archive/memories.md": "delete"}
    # HEAD removed mem-0001 and restored mem-0007: going back re-adds one and supersedes the other
    assert [e.describe() for e in plan.diff.events] == ["added", "superseded by mem-0012"]
    assert [e.id for e in plan.diff.events] == ["mem-0001", "mem-0007"]
    readme = (repo / "README.md").read_bytes()
    written = h.apply_rollback(plan)
    assert sorted(written) == sorted(actions)
    for path in actions:
        assert (prof / path).exists() == (path != "contexts/archive/memories.md")
        if (prof / path).exists():
            assert (prof / path).read_bytes() == git(repo, "show", f"{shas['supersede']}:{P}/{path}").encode()
    assert (repo / "README.md").read_bytes() == readme  # outside the profile: untouched
    assert "README" not in git(repo, "status", "--porcelain")


def test_rollback_refuses_with_uncommitted_changes(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    write(repo / P / "state.yaml", "focus: mem-0007\n")
    plan = h.plan_rollback(repo, repo / P, shas["create"])
    assert plan.blocked is not None and "state.yaml" in plan.blocked and "uncommitted" in plan.blocked
    with pytest.raises(h.Refused):
        h.apply_rollback(plan)
    assert (repo / P / "state.yaml").read_text() == "focus: mem-0007\n"


def test_revert_undoes_one_commit_and_keeps_later_changes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    mem = repo / P / "memories.md"
    write(mem, memfile(E(1, "one"), E(2, "two"), E(3, "three")))
    commit_all(repo, "base")
    write(mem, memfile(E(1, "one"), E(2, "two changed"), E(3, "three")))
    bad = commit_all(repo, "bad edit")
    write(mem, memfile(E(1, "one later"), E(2, "two changed"), E(3, "three"), E(4, "four")))
    commit_all(repo, "later")
    result = h.revert_commit(repo, repo / P, bad)
    assert result.files == ("memories.md",)
    assert [e.describe() for e in result.diff.events] == ["changed (body)"]
    assert mem.read_text() == memfile(E(1, "one later"), E(2, "two"), E(3, "three"), E(4, "four"))


def test_revert_refuses_when_later_commits_changed_the_same_entry(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    mem = repo / P / "memories.md"
    write(mem, memfile(E(1, "one"), E(2, "two")))
    commit_all(repo, "base")
    write(mem, memfile(E(1, "one"), E(2, "two changed")))
    bad = commit_all(repo, "bad edit")
    write(mem, memfile(E(1, "one"), E(2, "two changed again")))
    commit_all(repo, "later")
    before = mem.read_bytes()
    with pytest.raises(h.Refused, match="mem-0002"):
        h.revert_commit(repo, repo / P, bad)
    assert mem.read_bytes() == before


# --- branches -----------------------------------------------------------------------------------------------


def test_compare_branches_semantically(story: tuple[Path, dict[str, str]]) -> None:
    repo, shas = story
    git(repo, "branch", "old", shas["supersede"])
    cmp = h.compare_branches(repo, repo / P, "old", "main")
    assert cmp.only_base == () and [c.subject for c in cmp.only_other][-1] == "archive"
    assert {e.id: e.kind for e in cmp.diff.events} == {"mem-0001": "removed", "mem-0007": "changed"}


def test_entry_history_over_many_commits_matches_a_full_parse_of_each_version(tmp_path: Path) -> None:
    """Enough commits for the two parallel blob streams and the look-near-last-place shortcut."""
    import random
    import subprocess

    repo = make_repo(tmp_path / "r")
    rng = random.Random(5)
    entries = {i: E(i, f"body {i}", importance="low") for i in range(1, 60)}
    archive: dict[int, str] = {}
    stream = []
    for c in range(120):
        k = rng.randrange(1, 60)
        if c % 17 == 3 and 7 in entries:
            archive[7] = entries.pop(7).replace("importance: low", "importance: low\nstatus: archived")
        elif c % 17 == 9 and 7 in archive:
            entries[7] = archive.pop(7).replace("\nstatus: archived", "")
        elif c % 5 == 0 and 7 in entries:
            entries[7] = entries[7].replace("body 7", f"body 7 v{c}")
        elif c % 11 == 0:
            entries[100 + c] = E(100 + c, f"new {c}" + ("\n```\nfenced\n```" if c == 110 else ""))
        elif k in entries:
            entries[k] = entries[k] + "more\n" if c % 2 else entries[k].replace("low", "high")
        mem = memfile(*entries.values()).encode()
        arch = memfile(*archive.values(), preamble="").encode()
        stream.append(b"commit refs/heads/main\ncommitter T <t@x> %d +0000\ndata 3\nc%02d\n" % (1_700_000_000 + c, c % 100))
        for path, data in (("p/memories.md", mem), ("p/contexts/archive/memories.md", arch)):
            stream.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(data), data))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    git(repo, "reset", "-q", "--hard", "main")

    def content(rev: str, path: str) -> str | None:
        data = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=repo, capture_output=True).stdout
        e = parse(data.decode()).get("mem-0007")
        return split_trailing(e.raw)[0] if e is not None else None

    expected = []
    for sha in git(repo, "log", "--format=%H", "--", "p/memories.md", "p/contexts/archive/memories.md").split():
        now = content(sha, "p/memories.md") or content(sha, "p/contexts/archive/memories.md")
        before = content(sha + "^", "p/memories.md") or content(sha + "^", "p/contexts/archive/memories.md") \
            if git(repo, "rev-list", "--parents", "-n1", sha).count(" ") else None
        where_now = "m" if content(sha, "p/memories.md") else "a" if now else None
        where_before = None if before is None else ("m" if content(sha + "^", "p/memories.md") else "a")
        if now != before or where_now != where_before:
            expected.append((sha, now))
    got = [(v.commit.sha, v.raw) for v in eh.entry_history(repo, repo / "p", "mem-0007")]
    assert got == expected and len(got) > 10
