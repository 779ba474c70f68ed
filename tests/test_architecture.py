"""The split between the memory core and the UI is enforced, not hoped for."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parent.parent / "openclaw_tui" / "core"
FORBIDDEN = ("textual", "openclaw_tui.screens", "openclaw_tui.widgets", "openclaw_tui.app")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_core_modules_never_import_the_ui() -> None:
    offenders = [
        f"{p.relative_to(CORE)}: {name}"
        for p in sorted(CORE.rglob("*.py"))
        for name in _imports(p)
        if name.split(".")[0] == "textual" or name.startswith(FORBIDDEN[1:])
    ]
    assert offenders == []


def test_importing_the_whole_core_loads_no_textual() -> None:
    modules = sorted(
        ".".join(p.relative_to(CORE).with_suffix("").parts) for p in CORE.rglob("*.py") if p.stem != "__init__"
    )
    assert len(modules) > 40
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module('openclaw_tui.core.' + m)\n"
        "print(sorted(k for k in sys.modules if k == 'textual' or k.startswith('textual.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from textual.app import App\nimport os\n", encoding="utf-8")
    assert "textual.app" in _imports(bad)
