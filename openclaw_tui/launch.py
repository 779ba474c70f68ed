"""Starting the terminal UI: ``openclaw-tui [PATH]`` and ``openclaw-tui --demo``."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def launch_ui(argv: Sequence[str]) -> int:
    print("openclaw-tui: the terminal UI is not built yet; try `openclaw-tui check PATH`", file=sys.stderr)
    return 2
