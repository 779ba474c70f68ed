"""Subscribers told of every write ``safe_write.replace_all`` made (the search indexes keep up through
one); a subscriber that fails never fails the write."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

Change = tuple[Path, bytes | None, bytes | None]  # (file, bytes before, bytes after; None: no such file)
Hook = Callable[[Sequence[Change]], None]

_hooks: list[Hook] = []


def subscribe(hook: Hook) -> None:
    """Call ``hook`` after every successful write from now on (once, however often it subscribes)."""
    if hook not in _hooks:
        _hooks.append(hook)


def notify(changes: Sequence[Change]) -> None:
    """Tell every subscriber what was just written."""
    for hook in list(_hooks):
        try:
            hook(changes)
        except Exception:  # noqa: BLE001 - a subscriber keeps a cache; the write itself is done
            pass
