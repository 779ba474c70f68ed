"""Reading conflict markers (made by real git) and resolving them entry by entry or region by region."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.core.format.entries import parse
from openclaw_tui.core.git.gitrepo import conclude_merge, status
from openclaw_tui.core.merge import conflicts as c
from tests.cli.test_git_helpers import commit_all, entry, git, git_rc, make_repo, memfile, write

BASE = memfile(
    entry("mem-0001", "Lives in Shanghai.", importance="high"),
    entry("mem-0002", "Drinks coffee every morning.", importance="medium", tags="[coffee]"),
    entry("mem-0003", "Has a cat called Tuanzi.", importance="low"),
)
OURS = BASE.replace("importance: medium", "importance: high").replace("every morning", "no more") + "\n" + entry(
    "mem-0004", "Ours new.")
THEIRS = BASE.replace("every morning", "twice a day").replace("Tuanzi.", "Tuanzi, three years old.") + "\n" + entry(
    "mem-0005", "Theirs new.")


def merge_file(tmp_path: Path, ours: str, base: str, theirs: str, *opts: str) -> str:
    """What ``git merge-file -p`` leaves: the real marker format, labels ours/base/theirs."""
    for name, text in (("o", ours), ("b", base), ("t", theirs)):
        write(tmp_path / name, text)
    return git(tmp_path, "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", *opts,
               str(tmp_path / "o"), str(tmp_path / "b"), str(tmp_path / "t"), check=False)


@pytest.mark.parametrize("opts, has_base, size", [
    ((), False, 7), (("--diff3",), True, 7), (("--zdiff3",), True, 7), (("--marker-size=10",), False, 10),
    (("--diff3", "--marker-size=10"), True, 10),
])
def test_regions_of_every_style_rebuild_both_sides(tmp_path: Path, opts: tuple[str, ...], has_base: bool,
                                                   size: int) -> None:
    text = merge_file(tmp_path, OURS, BASE, THEIRS, *opts)
    ct = c.parse_conflicts(text)
    assert ct.regions, text
    assert all(r.marker_size == size for r in ct.regions)
    assert all((r.base is not None) == has_base for r in ct.regions)
    # each side rebuilt = git's own merge with every conflict decided for that side
    assert ct.side("ours") == merge_file(tmp_path, OURS, BASE, THEIRS, "--ours")
    assert ct.side("theirs") == merge_file(tmp_path, OURS, BASE, THEIRS, "--theirs")
    assert (ct.side("base") is None) != has_base
    lines = text.splitlines()
    for r in ct.regions:
        assert lines[r.start_line - 1].startswith("<" * size + " ours")
        assert r.ours_label == "ours" and r.theirs_label == "theirs"
        assert r.base_label == ("base" if has_base else None)


def test_markers_of_another_size_inside_a_region_are_text() -> None:
    text = "a\n<<<<<<<<<< ours\nx\n<<<<<<< inner\ny\n==========\nz\n>>>>>>>>>> theirs\nb\n"
    ct = c.parse_conflicts(text)
    (r,) = ct.regions
    assert r.marker_size == 10 and r.ours == "x\n<<<<<<< inner\ny\n" and r.theirs == "z\n"


def test_unterminated_markers_stay_text() -> None:
    text = "a\n<<<<<<< ours\nb\n=======\nc\n"
    ct = c.parse_conflicts(text)
    assert ct.regions == () and ct.side("ours") == text
    assert not c.has_markers("<<<<<<<< not a marker because of eight\n=======\n>>>>>>>\n")


def test_memories_pair_versions_by_entry_id(tmp_path: Path) -> None:
    text = merge_file(tmp_path, OURS, BASE, THEIRS, "--diff3")
    conf = c.analyze(text, "memories.md")
    assert conf.mode == "entries"
    by = {it.key: it for it in conf.items}
    # mem-0002 changed on both sides; mem-0003 changed by theirs only but caught in the appends' region
    assert [it.key for it in conf.items] == ["mem-0002", "mem-0003", "mem-0004", "mem-0005"]
    it = by["mem-0002"]
    assert it.situation == "both-changed" and it.base_known
    assert "no more" in (it.ours or "") and "twice a day" in (it.theirs or "") and "every morning" in (it.base or "")
    assert it.ours.startswith("---\nid: mem-0002\n") and it.theirs.startswith("---\nid: mem-0002\n")  # type: ignore[union-attr]
    assert by["mem-0004"].situation == "added-by-ours" and by["mem-0005"].situation == "added-by-theirs"
    assert c.suggestion(by["mem-0004"]) == c.OURS and c.suggestion(by["mem-0005"]) == c.THEIRS
    assert c.suggestion(it) is None
    assert by["mem-0003"].situation == "both-changed" and c.suggestion(by["mem-0003"]) == c.THEIRS
    assert c.remaining(conf, {}) == 4 and c.remaining(conf, {"mem-0002": c.OURS}) == 3


def test_default_style_pairs_without_a_base(tmp_path: Path) -> None:
    conf = c.analyze(merge_file(tmp_path, OURS, BASE, THEIRS), "memories.md")
    it = conf.item("mem-0002")
    assert not it.base_known and it.base is None and c.suggestion(it) is None


@pytest.mark.parametrize("choice, expect_ids, text_in, text_out", [
    (c.OURS, ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005"], "no more", "twice a day"),
    (c.THEIRS, ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005"], "twice a day", "no more"),
    (c.BOTH, ["mem-0001", "mem-0002", "mem-0006", "mem-0003", "mem-0004", "mem-0005"], "twice a day", None),
])
def test_render_each_choice(tmp_path: Path, choice: str, expect_ids: list[str], text_in: str,
                            text_out: str | None) -> None:
    conf = c.analyze(merge_file(tmp_path, OURS, BASE, THEIRS, "--diff3"), "memories.md")
    out = c.render_resolution(conf, {"mem-0002": choice, "mem-0003": c.THEIRS, "mem-0004": c.BOTH,
                                     "mem-0005": c.BOTH})
    mf = parse(out)
    assert not list(mf.malformed()) and not c.has_markers(out)
    assert mf.ids() == expect_ids
    assert text_in in out and (text_out is None or text_out not in out)
    assert "three years old" in out
    if choice == c.BOTH:
        second = mf.get("mem-0006")
        assert second is not None and second.meta["conflict"] == "mem-0002"
        assert "no more" in mf.get("mem-0002").body  # type: ignore[union-attr]
        assert "twice a day" in second.body


def test_take_ours_everywhere_gives_ours_merged_with_theirs_one_sided_changes(tmp_path: Path) -> None:
    conf = c.analyze(merge_file(tmp_path, OURS, BASE, THEIRS, "--diff3"), "memories.md")
    out = c.render_resolution(conf, {it.key: c.OURS for it in conf.items})
    assert out == OURS  # mem-0005 is not in ours: taking ours drops it


def test_edited_resolution_and_its_validation(tmp_path: Path) -> None:
    conf = c.analyze(merge_file(tmp_path, OURS, BASE, THEIRS, "--diff3"), "memories.md")
    edited = entry("mem-0002", "Drinks decaf, once a day.", importance="high")
    rest = {"mem-0003": c.OURS, "mem-0004": c.OURS}
    out = c.render_resolution(conf, {"mem-0002": c.Edited(edited), "mem-0005": c.THEIRS, **rest})
    mf = parse(out)
    assert mf.get("mem-0002").body.startswith("Drinks decaf, once a day.")  # type: ignore[union-attr]
    assert mf.ids() == ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005"]
    bad = "---\nid: mem-0002\ntags: [never closed\n---\nbody\n"
    with pytest.raises(c.ResolutionError, match="malformed"):
        c.render_resolution(conf, {"mem-0002": c.Edited(bad), "mem-0005": c.OURS, **rest})
    with pytest.raises(c.ResolutionError, match="markers"):
        c.render_resolution(conf, {"mem-0002": c.Edited("<<<<<<< x\na\n=======\nb\n>>>>>>> y\n"),
                                   "mem-0005": c.OURS, **rest})
    with pytest.raises(c.ResolutionError, match="left"):
        c.render_resolution(conf, {"mem-0002": c.OURS})
    # deleting an entry by an empty edit
    out = c.render_resolution(conf, {"mem-0002": c.Edited(""), "mem-0005": c.OURS, **rest})
    assert parse(out).ids() == ["mem-0001", "mem-0003", "mem-0004"]


def test_both_picks_an_id_unused_in_the_archive_too(tmp_path: Path) -> None:
    conf = c.analyze(merge_file(tmp_path, OURS, BASE, THEIRS, "--diff3"), "memories.md")
    out = c.render_resolution(conf, {"mem-0002": c.BOTH, "mem-0003": c.OURS, "mem-0004": c.OURS,
                                     "mem-0005": c.OURS}, extra_ids=["mem-0040"])
    assert "id: mem-0041" in out


def test_other_files_resolve_region_by_region(tmp_path: Path) -> None:
    base = "".join(f"{k}: {i}\n" for i, k in enumerate("abcdefghij"))
    ours = base.replace("b: 1", "b: 10").replace("i: 8", "i: 80")
    theirs = base.replace("b: 1", "b: 11").replace("i: 8", "i: 81")
    text = merge_file(tmp_path, ours, base, theirs)
    conf = c.analyze(text, "state.yaml")
    assert conf.mode == "hunks" and [it.key for it in conf.items] == ["region-1", "region-2"]
    out = c.render_resolution(conf, {"region-1": c.OURS, "region-2": c.THEIRS})
    assert out == base.replace("b: 1", "b: 10").replace("i: 8", "i: 81")
    out = c.render_resolution(conf, {"region-1": c.BOTH, "region-2": c.Edited("i: 99")})
    assert out == base.replace("b: 1", "b: 10\nb: 11").replace("i: 8", "i: 99")
    assert c.remaining(conf, {"region-2": c.OURS}) == 1


def test_malformed_differences_fall_back_to_regions(tmp_path: Path) -> None:
    ours = BASE.replace("tags: [coffee]", "tags: [coffee")  # mem-0002 malformed in ours only
    theirs = BASE.replace("tags: [coffee]", "tags: [tea]")
    conf = c.analyze(merge_file(tmp_path, ours, BASE, theirs), "memories.md")
    assert conf.mode == "hunks" and conf.reason and "malformed" in conf.reason
    out = c.render_resolution(conf, {it.key: c.THEIRS for it in conf.items})
    assert out == theirs
    with pytest.raises(c.ResolutionError, match="malformed"):
        c.render_resolution(conf, {it.key: c.OURS for it in conf.items})


def test_resolving_a_real_merge_end_to_end(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    mem = repo / "p" / "memories.md"
    write(mem, BASE)
    commit_all(repo, "base")
    git(repo, "config", "merge.conflictStyle", "zdiff3")
    git(repo, "checkout", "-q", "-b", "other")
    write(mem, THEIRS)
    commit_all(repo, "theirs")
    git(repo, "checkout", "-q", "main")
    write(mem, OURS)
    commit_all(repo, "ours")
    assert git_rc(repo, "merge", "other") == 1
    st = status(repo)
    assert st is not None and st.operation == "merge" and st.conflicted == ("p/memories.md",)
    conf = c.load(mem)
    choices = {it.key: (c.suggestion(it) or c.THEIRS) for it in conf.items}
    out = c.render_resolution(conf, choices)
    mem.write_bytes(out.encode())
    git(repo, "add", "--", "p/memories.md")
    sha = conclude_merge(repo)
    st = status(repo)
    assert st is not None and st.operation is None and not st.files
    assert git(repo, "rev-list", "--parents", "-n", "1", sha).count(" ") == 2
    assert parse(mem.read_text()).ids() == ["mem-0001", "mem-0002", "mem-0003", "mem-0004", "mem-0005"]


def test_small_marker_sizes_come_from_the_attribute(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo / ".gitattributes", "*.yaml conflict-marker-size=3\n")
    state = repo / "state.yaml"
    write(state, "a: 1\nb: 2\n")
    commit_all(repo, "base")
    git(repo, "checkout", "-q", "-b", "other")
    write(state, "a: 1\nb: 3\n")
    commit_all(repo, "theirs")
    git(repo, "checkout", "-q", "main")
    write(state, "a: 1\nb: 4\n")
    commit_all(repo, "ours")
    assert git_rc(repo, "merge", "other") == 1
    assert "<<< HEAD\n" in state.read_text() and "<<<<<<<" not in state.read_text()
    assert c.analyze(state.read_text(), "state.yaml").items == ()  # size 3 is not looked for by default
    conf = c.load(state)
    assert [r.marker_size for r in conf.conflict.regions] == [3]
    assert c.render_resolution(conf, {"region-1": c.THEIRS}) == "a: 1\nb: 3\n"
