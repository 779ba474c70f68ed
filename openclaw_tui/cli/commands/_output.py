"""What every command prints: UTF-8 on stdout whatever the locale, a failure as one line on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any

from ...core.phrases import localize_error


def out(text: str, errors: str = "surrogateescape") -> None:
    """Write UTF-8 to stdout whatever the locale (memory text is often not ASCII)."""
    sys.stdout.buffer.write(text.encode("utf-8", errors))
    sys.stdout.buffer.flush()


def print_json(doc: Any) -> None:
    out(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")


def fail(reason: str) -> int:
    """One line on stderr, exit status 2 (nothing was written)."""
    print(f"openclaw-tui: {' '.join(localize_error(str(reason)).split())}", file=sys.stderr)
    return 2
