"""Helpers for the UI tests of the git screens (no tests here): real repositories with real merges.

``atlas_repo`` makes a repository of a copy of the sample profiles (atlas is
the clean English one); ``diverge_and_merge`` edits the same entry and the
same ``state.yaml`` lines differently on two branches and merges them with
plain git, leaving a pending merge with conflict markers.
"""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.format.edit import set_body, set_fields
from openclaw_tui.core.format.entries import parse
from openclaw_tui.ui.app import OpenClawApp
from tests.cli.test_git_helpers import commit_all, git, make_repo
from tests.ui_support import copy_samples

ATLAS = "profiles/atlas"
MAIN_LINE = "MAIN: the 1.30 upgrade is done in eu-west-1."
THEIRS_LINE = "THREAD: the upgrade waits for the CNI fix."
STATE_MAIN = "  checklist: approved by Marcus"
STATE_THEIRS = "  checklist: rejected, needs rollback plan"


def screen_text(app: OpenClawApp) -> str:
    """Everything on the screen as plain text (from the compositor)."""
    strips = app.screen._compositor.render_strips()  # noqa: SLF001 - the test reads what is painted
    return "\n".join("".join(seg.text for seg in s).rstrip() for s in strips)


def atlas_repo(tmp_path: Path, style: str | None = None, marker_size: int | None = None) -> Path:
    """A repository holding a copy of the samples (``profiles/atlas``, ``profiles/xiaoyu``); returns its root."""
    profiles = copy_samples(tmp_path)
    root = profiles.parent
    make_repo(root)
    if style:
        git(root, "config", "merge.conflictStyle", style)
    if marker_size:
        (root / ".gitattributes").write_text(
            f"*.md conflict-marker-size={marker_size}\n*.yaml conflict-marker-size={marker_size}\n", encoding="utf-8")
    commit_all(root, "import the samples", "2026-11-01T10:00:00+00:00")
    return root


def edit_entry(path: Path, ident: str, fields: dict[str, object], add_line: str | None = None) -> None:
    text = path.read_text(encoding="utf-8")
    mf = parse(text)
    text = set_fields(mf, ident, fields) if fields else text
    if add_line:
        mf = parse(text)
        e = mf.get(ident)
        assert e is not None
        body = e.body.rstrip("\n") + "\n" + add_line + "\n"
        trailing = e.body[len(e.body.rstrip("\n")) + 1:] if e.body.endswith("\n\n") else ""
        text = set_body(mf, ident, body + trailing)
    path.write_text(text, encoding="utf-8")


def replace_line(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def diverge_and_merge(root: Path, *, state_regions: int = 1) -> dict[str, str]:
    """Change mem-0005 and state.yaml on ``thread`` and on ``main`` differently; ``git merge thread``.

    Returns the file texts of each side (``ours:memories`` etc.) for later checks.
    """
    mem = root / ATLAS / "memories.md"
    state = root / ATLAS / "state.yaml"
    git(root, "checkout", "-q", "-b", "thread")
    edit_entry(mem, "mem-0005", {"source": "chat#999"}, THEIRS_LINE)
    replace_line(state, "  checklist: drafted, waiting for review", STATE_THEIRS)
    if state_regions > 1:
        replace_line(state, "current_task: Draft the EKS upgrade checklist", "current_task: Wait for the CNI fix")
    commit_all(root, "thread: mem-0005 postponed", "2026-11-02T10:00:00+00:00")
    theirs = {"memories": mem.read_text(encoding="utf-8"), "state": state.read_text(encoding="utf-8")}
    git(root, "checkout", "-q", "main")
    edit_entry(mem, "mem-0005", {"importance": "high"}, MAIN_LINE)
    replace_line(state, "  checklist: drafted, waiting for review", STATE_MAIN)
    if state_regions > 1:
        replace_line(state, "current_task: Draft the EKS upgrade checklist", "current_task: Roll out 1.30")
    commit_all(root, "review: mem-0005 upgraded", "2026-11-03T10:00:00+00:00")
    ours = {"memories": mem.read_text(encoding="utf-8"), "state": state.read_text(encoding="utf-8")}
    git(root, "merge", "--no-edit", "thread", check=False)
    assert (root / ".git" / "MERGE_HEAD").exists()
    assert "<<<<<<<" in mem.read_text(encoding="utf-8")
    return {"ours:memories": ours["memories"], "ours:state": ours["state"],
            "theirs:memories": theirs["memories"], "theirs:state": theirs["state"]}


def unmerged(root: Path) -> list[str]:
    return git(root, "diff", "--name-only", "--diff-filter=U").split()


def parents(root: Path) -> list[str]:
    return git(root, "log", "-1", "--format=%P").split()
