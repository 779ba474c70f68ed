"""The profiles and their files: identity, memories, state, contexts by date, skills, archive."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ...core.files.profile import ARCHIVE_REL, Profile
from ...core.i18n import _
from ..actions import bindings
from .safe_text import clean_line


@dataclass(frozen=True)
class NodeInfo:
    profile: Path  # the profile folder
    kind: str  # "profile", "memories", "archive", "file", "folder"
    rel: str = ""  # file relative to the profile folder


class ProfileTree(Tree[NodeInfo]):
    """Selecting a memory file lists its entries; any other file opens in the file view."""

    BINDINGS = bindings("tree")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("profiles"), id=id)
        self.show_root = False
        self.guide_depth = 2
        self._labels: dict[tuple[Path, str, str], tuple[TreeNode[NodeInfo], Text]] = {}
        self._counts: dict[Path, dict[str, tuple[int, int]]] = {}  # the last (errors, warnings) per profile

    def action_collapse_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    def action_expand_node(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand:
            node.expand()

    def _leaf(self, parent: TreeNode[NodeInfo], label: str, info: NodeInfo, style: str = "") -> TreeNode[NodeInfo]:
        text = Text(clean_line(label), style=style)
        node = parent.add_leaf(text, data=info)
        self._labels[(info.profile, info.kind, info.rel)] = (node, text)
        return node

    def show_profiles(self, profiles: Sequence[Profile]) -> None:
        self.clear()
        self._labels.clear()
        for prof in profiles:
            pnode = self.root.add(
                Text(clean_line(prof.name), style="bold"), data=NodeInfo(prof.path, "profile"), expand=True
            )
            if prof.layout == "openclaw":
                self._workspace(pnode, prof)
            else:
                self._profile(pnode, prof)
        self.root.expand()
        for profile, counts in list(self._counts.items()):  # a rebuilt tree keeps every profile's counts
            self.set_problem_counts(profile, counts)

    def _profile(self, pnode: TreeNode[NodeInfo], prof: Profile) -> None:
        p = prof.path
        if prof.identity is not None:
            self._leaf(pnode, "identity.md", NodeInfo(p, "file", "identity.md"))
        n = prof.entry_count()
        label = f"memories.md ({n})" if prof.memories is not None else "memories.md " + _("(missing)")
        self._leaf(pnode, label, NodeInfo(p, "memories", "memories.md"), "bold" if prof.memories else "dim")
        if prof.state is not None:
            self._leaf(pnode, "state.yaml", NodeInfo(p, "file", "state.yaml"))
        live = [c for c in prof.contexts if not c.rel.startswith("contexts/archive/")]
        archived = [c for c in prof.contexts if c.rel.startswith("contexts/archive/")]
        if live:
            cnode = pnode.add(Text("contexts"), data=NodeInfo(p, "folder", "contexts"), expand=True)
            for c in sorted(live, key=lambda c: c.rel):
                self._leaf(cnode, c.rel.removeprefix("contexts/"), NodeInfo(p, "file", c.rel))
        if prof.skills:
            snode = pnode.add(Text("skills"), data=NodeInfo(p, "folder", "skills"), expand=True)
            for s in prof.skills:
                self._leaf(snode, s.rel.removeprefix("skills/"), NodeInfo(p, "file", s.rel))
        if prof.archive is not None or archived:
            anode = pnode.add(Text("archive"), data=NodeInfo(p, "folder", "contexts/archive"), expand=True)
            if prof.archive is not None:
                count = sum(1 for _ in prof.archive.mf.well_formed())
                self._leaf(anode, f"memories.md ({count})", NodeInfo(p, "archive", ARCHIVE_REL))
            for c in sorted(archived, key=lambda c: c.rel):
                self._leaf(anode, c.rel.removeprefix("contexts/archive/"), NodeInfo(p, "file", c.rel))
        if prof.secrets_refs is not None:
            self._leaf(pnode, "secrets_refs.yaml", NodeInfo(p, "file", "secrets_refs.yaml"), "dim")

    def _workspace(self, pnode: TreeNode[NodeInfo], prof: Profile) -> None:
        p = prof.path
        for f in prof.bootstrap + prof.other:
            self._leaf(pnode, f.rel, NodeInfo(p, "file", f.rel))
        if prof.daily_logs:
            dnode = pnode.add(Text("memory"), data=NodeInfo(p, "folder", "memory"), expand=True)
            for f in sorted(prof.daily_logs, key=lambda f: f.rel):
                self._leaf(dnode, f.rel.removeprefix("memory/"), NodeInfo(p, "file", f.rel))

    def set_problem_counts(self, profile: Path, counts: dict[str, tuple[int, int]]) -> None:
        """Show (errors, warnings) beside each file of ``profile`` that has findings (kept: a rebuilt
        tree shows them again until the profile's next check replaces them)."""
        self._counts[profile] = counts
        for (prof, _kind, rel), (node, base) in self._labels.items():
            if prof != profile:
                continue
            label = base.copy()
            errors, warnings = counts.get(rel, (0, 0))
            if errors:
                label.append(f" ✗{errors}", style="bold red")
            if warnings:
                label.append(f" !{warnings}", style="bold yellow")
            node.set_label(label)

    def find_node(self, profile: Path, rel: str) -> TreeNode[NodeInfo] | None:
        for (prof, _kind, r), (node, _label) in self._labels.items():
            if prof == profile and r == rel:
                return node
        return None

    def select_file(self, profile: Path, rel: str) -> None:
        """Move the cursor to a file's node without sending a selection."""
        node = self.find_node(profile, rel)
        if node is not None:
            self.move_cursor(node)
