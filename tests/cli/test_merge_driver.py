"""The id-aware merge driver, driven by real ``git merge`` after ``openclaw-tui git-setup``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.merge.conflicts import analyze
from tests.cli.test_git_helpers import cli, commit_all, entry, git, git_rc, make_repo, markers, memfile, write

MEM = "profiles/assistant/memories.md"
BASE = memfile(
    entry("mem-0001", "The user lives in Shanghai.", importance="high"),
    entry("mem-0002", "The user drinks coffee every morning.", importance="medium"),
    entry("mem-0003", "The user has a cat called Tuanzi.", importance="low"),
)


def _repo(tmp_path: Path, driver: bool = True, base: str = BASE) -> Path:
    repo = make_repo(tmp_path / "repo")
    write(repo / MEM, base)
    write(repo / "profiles/assistant/state.yaml", "focus: mem-0001\n")
    commit_all(repo, "base")
    if driver:
        res = cli("git-setup", str(repo / "profiles/assistant"))
        assert res.returncode == 0, res.stderr
    return repo


def _branches(repo: Path, ours: str, theirs: str) -> None:
    """Commit ``theirs`` on branch ``other`` and ``ours`` on main."""
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / MEM, theirs)
    commit_all(repo, "theirs", paths=(MEM,))
    git(repo, "checkout", "-q", "main")
    write(repo / MEM, ours)
    commit_all(repo, "ours", paths=(MEM,))


def _merge(repo: Path) -> int:
    return git_rc(repo, "merge", "--no-edit", "other")


def _append(text: str, *more: str) -> str:
    return text + "\n" + "\n".join(more)


def test_appends_on_both_sides_merge_cleanly_where_plain_git_conflicts(tmp_path: Path) -> None:
    ours = _append(BASE, entry("mem-0004", "Ours: the user started swimming."))
    theirs = _append(BASE, entry("mem-0005", "Theirs: the user reads before bed."), entry("mem-0006", "Theirs 2."))

    plain = _repo(tmp_path / "plain", driver=False)
    _branches(plain, ours, theirs)
    assert _merge(plain) == 1
    assert markers((plain / MEM).read_text())

    repo = _repo(tmp_path / "driver")
    _branches(repo, ours, theirs)
    assert _merge(repo) == 0
    merged = (repo / MEM).read_text()
    assert markers(merged) == []
    mf = parse(merged)
    assert mf.ids() == ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005", "mem-0006"]
    assert not list(mf.malformed())
    assert merged == _append(BASE, entry("mem-0004", "Ours: the user started swimming."),
                             entry("mem-0005", "Theirs: the user reads before bed."), entry("mem-0006", "Theirs 2."))
    assert git(repo, "status", "--porcelain", "--untracked-files=no") == ""


def test_one_sided_edit_is_taken_with_the_other_sides_append(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ours = BASE.replace("every morning", "no more: caffeine gives palpitations")
    theirs = _append(BASE, entry("mem-0004", "Theirs appended."))
    _branches(repo, ours, theirs)
    assert _merge(repo) == 0
    merged = (repo / MEM).read_text()
    assert "no more: caffeine gives palpitations" in merged and "every morning" not in merged
    assert parse(merged).ids() == ["mem-0001", "mem-0002", "mem-0003", "mem-0004"]


def test_edits_of_two_different_entries_merge(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ours = BASE.replace("id: mem-0002\nimportance: medium", "id: mem-0002\nimportance: high")
    theirs = BASE.replace("id: mem-0003\nimportance: low", "id: mem-0003\nimportance: high")
    _branches(repo, ours, theirs)
    assert _merge(repo) == 0
    mf = parse((repo / MEM).read_text())
    assert [mf.by_id()[i].meta["importance"] for i in ("mem-0001", "mem-0002", "mem-0003")] == ["high"] * 3


def test_identical_edits_are_taken_once(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    edited = BASE.replace("Shanghai", "Hangzhou")
    ours = _append(edited, entry("mem-0004", "ours"))
    theirs = _append(edited, entry("mem-0005", "theirs"))
    _branches(repo, ours, theirs)
    assert _merge(repo) == 0
    merged = (repo / MEM).read_text()
    assert merged.count("Hangzhou") == 1 and "Shanghai" not in merged
    assert parse(merged).ids() == ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005"]


def test_conflicting_edits_wrap_that_entry_alone(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ours = _append(BASE.replace("every morning", "only decaf now"), entry("mem-0004", "ours add"))
    theirs = _append(BASE.replace("every morning", "twice a day"), entry("mem-0005", "theirs add"))
    _branches(repo, ours, theirs)
    assert _merge(repo) == 1
    text = (repo / MEM).read_text()
    assert [m[:7] for m in markers(text)] == ["<<<<<<<", "=======", ">>>>>>>"]
    assert "\n<<<<<<< HEAD\n" in text and "\n>>>>>>> other\n" in text  # labelled like git's own conflicts
    start, end = text.index("<<<<<<<"), text.index(">>>>>>>")
    region = text[start:end]
    assert "only decaf now" in region and "twice a day" in region
    assert region.count("id: mem-0002") == 2 and "mem-0001" not in region and "mem-0003" not in region
    # everything else merged: both appended entries are outside the region
    assert text.index("id: mem-0004") > end and text.index("id: mem-0005") > end
    assert "UU" in git(repo, "status", "--porcelain")
    c = analyze(text, "memories.md")
    assert c.mode == "entries" and [it.key for it in c.items] == ["mem-0002"]


def test_delete_on_one_side_and_edit_on_the_other_conflicts(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ours = BASE.replace(entry("mem-0003", "The user has a cat called Tuanzi.", importance="low"), "")
    theirs = BASE.replace("called Tuanzi", "called Tuanzi, three years old")
    _branches(repo, ours, theirs)
    assert _merge(repo) == 1
    text = (repo / MEM).read_text()
    start, mid, end = text.index("<<<<<<<"), text.index("======="), text.index(">>>>>>>")
    assert "id: mem-0003" not in text[start:mid]  # ours deleted it
    assert "three years old" in text[mid:end]
    assert text.count("<<<<<<<") == 1


def test_deleted_on_one_side_unchanged_on_the_other_is_deleted(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ours = BASE.replace(entry("mem-0003", "The user has a cat called Tuanzi.", importance="low"), "")
    theirs = _append(BASE, entry("mem-0009", "theirs"))
    _branches(repo, ours, theirs)
    assert _merge(repo) == 0
    assert parse((repo / MEM).read_text()).ids() == ["mem-0001", "mem-0002", "mem-0009"]


def _merge_out(repo: Path, branch: str = "other") -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "merge", "--no-edit", branch], cwd=repo, capture_output=True, text=True)


@pytest.mark.parametrize("direction", ["other-into-main", "main-into-other"])
def test_same_new_id_added_on_both_sides_keeps_both_and_renumbers_theirs(tmp_path: Path, direction: str) -> None:
    """Two agents each took mem-0004 for a new memory: two memories, not one changed two ways."""
    repo = _repo(tmp_path)
    main_text = _append(BASE, entry("mem-0004", "main idea: the user likes tea"))
    other_text = _append(
        BASE,
        entry("mem-0004", "other idea: the user bought a bike"),
        entry("mem-0005", "The bike (mem-0004) is red.", conflict="mem-0004"),
    )
    _branches(repo, main_text, other_text)
    if direction == "main-into-other":
        git(repo, "checkout", "-q", "other")
        res = _merge_out(repo, "main")
    else:
        res = _merge_out(repo)
    assert res.returncode == 0, res.stdout + res.stderr
    text = (repo / MEM).read_text()
    assert "<<<<<<<" not in text
    mf = parse(text)
    assert not [e for e in mf.entries if e.error]
    ids = mf.ids()
    assert len(ids) == len(set(ids)) == 6
    by_body = {e.body.strip(): e for e in mf.entries}
    for body in ("main idea: the user likes tea", "other idea: the user bought a bike"):
        assert "conflict" not in by_body[body].meta  # not marked as contradicting each other
    if direction == "other-into-main":  # ours (main) keeps mem-0004; theirs' two additions follow
        assert by_body["main idea: the user likes tea"].id == "mem-0004"
        bike = by_body["other idea: the user bought a bike"]
        assert bike.id == "mem-0006"
        red = next(e for e in mf.entries if "is red" in e.body)
        assert red.id == "mem-0005" and red.meta["conflict"] == "mem-0006" and "(mem-0006)" in red.body
        assert "mem-0004 was added on both sides" in res.stdout + res.stderr and "mem-0006" in res.stdout + res.stderr
    else:  # ours (other) keeps its mem-0004 and mem-0005; main's addition is renumbered
        assert by_body["other idea: the user bought a bike"].id == "mem-0004"
        assert by_body["main idea: the user likes tea"].id == "mem-0006"
        red = next(e for e in mf.entries if "is red" in e.body)
        assert red.meta["conflict"] == "mem-0004"  # ours' own reference is untouched
    res = cli("check", str(repo / "profiles/assistant"), "--format", "json")
    assert '"duplicate-id"' not in res.stdout and '"dangling-ref"' not in res.stdout


def test_same_new_id_renumbering_skips_ids_of_the_archive(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo / "profiles/assistant/contexts/archive/memories.md", entry("mem-0005", "archived long ago", status="archived"))
    commit_all(repo, "archive")
    _branches(repo, _append(BASE, entry("mem-0004", "ours idea")), _append(BASE, entry("mem-0004", "theirs idea")))
    assert _merge(repo) == 0
    mf = parse((repo / MEM).read_text())
    assert {e.body.strip(): e.id for e in mf.entries}["theirs idea"] == "mem-0006"


def test_same_new_id_with_the_same_text_is_kept_once(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    both = _append(BASE, entry("mem-0004", "same idea"))
    _branches(repo, both, both + "")
    assert _merge(repo) == 0
    assert parse((repo / MEM).read_text()).ids().count("mem-0004") == 1


def test_a_base_entry_changed_two_ways_still_conflicts(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _branches(repo, BASE.replace("every morning", "never"), BASE.replace("every morning", "at noon"))
    assert _merge(repo) == 1
    assert (repo / MEM).read_text().count("<<<<<<<") == 1


@pytest.mark.parametrize("style", ["diff3", "zdiff3"])
def test_diff3_style_shows_the_base_section(tmp_path: Path, style: str) -> None:
    repo = _repo(tmp_path)
    git(repo, "config", "merge.conflictStyle", style)
    _branches(repo, BASE.replace("every morning", "never"), BASE.replace("every morning", "at noon"))
    assert _merge(repo) == 1
    text = (repo / MEM).read_text()
    kinds = [m[:7] for m in markers(text)]
    assert kinds == ["<<<<<<<", "|||||||", "=======", ">>>>>>>"]
    base_section = text[text.index("|||||||") : text.index("=======")]
    assert "every morning" in base_section


def test_default_style_has_no_base_section(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _branches(repo, BASE.replace("every morning", "never"), BASE.replace("every morning", "at noon"))
    assert _merge(repo) == 1
    assert "|||||||" not in (repo / MEM).read_text()


def test_marker_size_comes_from_the_conflict_marker_size_attribute(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    attrs = repo / ".gitattributes"
    attrs.write_text(attrs.read_text() + "memories.md conflict-marker-size=10\n")
    _branches(repo, BASE.replace("every morning", "never"), BASE.replace("every morning", "at noon"))
    assert _merge(repo) == 1
    text = (repo / MEM).read_text()
    lines = text.splitlines()
    assert any(ln.startswith("<" * 10 + " ") for ln in lines)
    assert "=" * 10 in lines and any(ln.startswith(">" * 10) for ln in lines)
    assert not any(ln.startswith("<" * 7 + " ") for ln in lines)
    c = analyze(text, "memories.md")
    assert c.conflict.regions[0].marker_size == 10 and [it.key for it in c.items] == ["mem-0002"]


def test_preamble_merges_as_text(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ours = BASE.replace("# memory\n", "# memory of the assistant\n") + "\n" + entry("mem-0004", "o")
    theirs = BASE + "\n" + entry("mem-0005", "t")
    _branches(repo, ours, theirs)
    assert _merge(repo) == 0
    text = (repo / MEM).read_text()
    assert text.startswith("# memory of the assistant\n") and parse(text).ids()[-2:] == ["mem-0004", "mem-0005"]


def test_malformed_input_merges_as_plain_text_like_git_merge_file(tmp_path: Path) -> None:
    broken = BASE.replace("importance: low", "importance: [low")  # mem-0003 becomes malformed
    repo = _repo(tmp_path, base=broken)
    ours = _append(broken, entry("mem-0004", "ours"))
    theirs = _append(broken, entry("mem-0005", "theirs"))
    _branches(repo, ours, theirs)
    assert _merge(repo) == 1  # plain text: both appended at the same place
    got = (repo / MEM).read_text()
    for name, text in (("b", broken), ("o", ours), ("t", theirs)):
        write(tmp_path / name, text)
    expected = git(tmp_path, "merge-file", "-p", "-L", "HEAD", "-L", "base", "-L", "other",
                   str(tmp_path / "o"), str(tmp_path / "b"), str(tmp_path / "t"), check=False)
    assert got == expected


def test_crlf_files_keep_their_line_endings(tmp_path: Path) -> None:
    base = BASE.replace("\n", "\r\n")
    repo = _repo(tmp_path, base=base)
    _branches(repo, base + "\r\n" + entry("mem-0004", "o").replace("\n", "\r\n"),
              base + "\r\n" + entry("mem-0005", "t").replace("\n", "\r\n"))
    assert _merge(repo) == 0
    data = (repo / MEM).read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n")
    assert parse(data.decode()).ids()[-2:] == ["mem-0004", "mem-0005"]


def test_git_setup_driver_command_survives_a_path_with_spaces(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "my repo")
    mem = "my profile/memories.md"
    write(repo / mem, BASE)
    commit_all(repo, "base")
    assert cli("git-setup", str(repo)).returncode == 0
    git(repo, "checkout", "-q", "-b", "other")
    write(repo / mem, _append(BASE, entry("mem-0005", "t")))
    commit_all(repo, "t", paths=(mem,))
    git(repo, "checkout", "-q", "main")
    write(repo / mem, _append(BASE, entry("mem-0004", "o")))
    commit_all(repo, "o", paths=(mem,))
    assert _merge(repo) == 0
    assert parse((repo / mem).read_text()).ids()[-2:] == ["mem-0004", "mem-0005"]


# --- the command itself, called directly --------------------------------------------------------------


def _files(tmp_path: Path, base: bytes, ours: bytes, theirs: bytes) -> tuple[Path, Path, Path]:
    paths = (tmp_path / "O", tmp_path / "A", tmp_path / "B")
    for p, data in zip(paths, (base, ours, theirs), strict=True):
        p.write_bytes(data)
    return paths


def test_driver_writes_the_result_into_ours_with_labels(tmp_path: Path) -> None:
    o, a, b = _files(tmp_path, BASE.encode(), BASE.replace("Shanghai", "Beijing").encode(),
                     BASE.replace("Shanghai", "Paris").encode())
    res = cli("merge-driver", "--marker-size", "9", "-S", "merged common ancestors", "-X", "HEAD", "-Y", "feature",
              str(o), str(a), str(b), "profiles/x/memories.md", cwd=tmp_path)
    assert res.returncode == 1
    text = a.read_text()
    assert "<" * 9 + " HEAD\n" in text and ">" * 9 + " feature\n" in text
    write_back = BASE.replace("Shanghai", "Beijing").encode()
    a.write_bytes(write_back)
    res = cli("merge-driver", "--base-label", "base commit", "--ours-label", "mine", "--theirs-label", "yours",
              str(o), str(a), str(b), cwd=tmp_path)
    text = a.read_text()
    assert res.returncode == 1 and "<<<<<<< mine\n" in text and ">>>>>>> yours\n" in text
    assert "Beijing" in text and "Paris" in text
    assert b.read_bytes() == BASE.replace("Shanghai", "Paris").encode()  # only OURS is written


def test_driver_ignores_placeholders_an_old_git_leaves_unexpanded(tmp_path: Path) -> None:
    o, a, b = _files(tmp_path, BASE.encode(), BASE.replace("Shanghai", "X").encode(), BASE.replace("Shanghai", "Y").encode())
    res = cli("merge-driver", "--marker-size", "%L", "-S", "%S", "-X", "%X", "-Y", "%Y", str(o), str(a), str(b), "%P",
              cwd=tmp_path)
    assert res.returncode == 1
    text = a.read_text()
    assert "<<<<<<< ours\n" in text and ">>>>>>> theirs\n" in text


@pytest.mark.parametrize(
    "base, ours, theirs",
    [
        (b"\xff\xfe garbage \x00\x01", b"\xff\xfe other \x00", b"\x80\x81\x82"),
        (b"", b"\x00\x00\x00", b"text\n"),
        (BASE.encode(), b"\xe4\xb8" + BASE.encode(), BASE.encode() + b"\xff"),
        (b"---\nid: [\n---\n", b"---\nid: x\n---\n<<<<<<< nested\n", b"=======\n>>>>>>>\n"),
    ],
)
def test_driver_never_crashes_on_garbage(tmp_path: Path, base: bytes, ours: bytes, theirs: bytes) -> None:
    o, a, b = _files(tmp_path, base, ours, theirs)
    res = cli("merge-driver", str(o), str(a), str(b), cwd=tmp_path)
    assert res.returncode in (0, 1)
    assert a.exists()
    if res.returncode == 1:
        assert b"<<<<<<<" in a.read_bytes() or a.read_bytes() == ours


def test_driver_with_missing_files_exits_1_at_most(tmp_path: Path) -> None:
    res = cli("merge-driver", str(tmp_path / "nope1"), str(tmp_path / "ours"), str(tmp_path / "nope3"), cwd=tmp_path)
    assert res.returncode in (0, 1)
    res = cli("merge-driver", str(tmp_path / "nope1"), str(tmp_path / "no-dir" / "ours"), str(tmp_path / "x"),
              cwd=tmp_path)
    assert 0 <= res.returncode <= 1


def test_the_module_git_setup_installs_runs_alone_and_stays_below_129(tmp_path: Path) -> None:
    import subprocess
    import sys

    o, a, b = _files(tmp_path, BASE.encode(), _append(BASE, entry("mem-0004", "o")).encode(),
                     _append(BASE, entry("mem-0005", "t")).encode())
    run = [sys.executable, "-m", "openclaw_tui.cli.commands.merge_driver"]
    res = subprocess.run([*run, "--marker-size", "7", str(o), str(a), str(b), "'x/memories.md'"], cwd=tmp_path,
                         capture_output=True)
    assert res.returncode == 0 and parse(a.read_text()).ids()[-2:] == ["mem-0004", "mem-0005"]
    assert subprocess.run([*run, "--bogus"], cwd=tmp_path, capture_output=True).returncode == 2
    assert subprocess.run(run, cwd=tmp_path, capture_output=True).returncode == 2
