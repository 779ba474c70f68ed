"""Issue 24 point 2: the tree's finding counts survive any write and its undo, for every profile."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.ui.app import OpenClawApp
from tests.ui_support import TODAY, copy_samples, settle


def memory_labels(app: OpenClawApp) -> dict[str, str]:
    tree = app.main_screen.files_tree
    return {prof.name: str(node.label) for (prof, kind, _rel), (node, _base) in tree._labels.items()  # noqa: SLF001
            if kind == "memories"}


async def test_finding_counts_stay_after_a_write_and_its_undo(tmp_path: Path) -> None:
    root = copy_samples(tmp_path)
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        before = memory_labels(app)
        assert "✗" in before["xiaoyu"] or "!" in before["xiaoyu"], before
        main = app.main_screen
        tree = main.files_tree
        tree.focus()
        tree.select_file(root / "atlas", "memories.md")  # write to the profile without findings
        await pilot.press("enter")
        await settle(pilot)
        assert main.session.current.path.name == "atlas"
        written = main.session.current.path.name
        data = (main.session.current.path / "memories.md").read_bytes()
        main.table.focus()
        await pilot.press("c", "y")  # cold/active, confirmed: a write of the current profile
        await settle(pilot, 6)
        assert (main.session.current.path / "memories.md").read_bytes() != data
        after = memory_labels(app)
        other = next(name for name in before if name != written)
        assert after[other] == before[other], (before, after)
        await pilot.press("u")
        await settle(pilot, 6)
        assert (main.session.current.path / "memories.md").read_bytes() == data
        assert memory_labels(app) == before
