"""Importing the whole core never loads Textual (the import rules themselves are import-linter's contract
in pyproject.toml, run by .ci/run as ``lint-imports``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "openclaw_tui" / "core"


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
