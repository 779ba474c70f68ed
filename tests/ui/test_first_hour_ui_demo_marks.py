"""Issue 24 point 10: the demo shows, from the start, every mark the help legend explains, an unresolved
⇄ pair outside the merge conflict included."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.core.git.demo import build_demo
from openclaw_tui.ui.app import OpenClawApp
from openclaw_tui.ui.rows import MARK_HELP, fill_all
from openclaw_tui.ui.widgets.entry_table import badge_text
from tests.ui_support import TODAY, settle


async def test_the_demo_shows_every_mark_of_the_legend(tmp_path: Path) -> None:
    root = build_demo(tmp_path / "demo")
    app = OpenClawApp(root, today=TODAY, watch=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot, 6)
        seen: dict[str, list[tuple[str, str | None, str]]] = {}
        for data in app.session.profiles():
            for rel, rows in data.files.items():
                fill_all(rows)
                for row in rows:
                    where = (f"{data.profile.name}/{rel}", row.id, "")
                    seen.setdefault(row.status, []).append(where)
                    if rel.startswith("contexts/archive/"):
                        seen.setdefault("archived", []).append(where)
                    for mark, detail in row.marks.items():
                        seen.setdefault(mark, []).append((where[0], row.id, badge_text(mark, detail)))
        missing = sorted(set(MARK_HELP) - set(seen))
        assert missing == [], missing
        # a ⇄ pair whose entries are not inside the git conflict (mem-0012's markers in xiaoyu)
        pairs = [(w, i, badge) for w, i, badge in seen["conflict"] if "merge-conflict" not in
                 next(r.marks for d in app.session.profiles() for rel, rows in d.files.items() for r in rows
                      if f"{d.profile.name}/{rel}" == w and r.id == i)]
        assert pairs and all(badge.startswith("⇄ ") for _w, _i, badge in pairs), seen["conflict"]
