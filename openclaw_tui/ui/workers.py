"""Handing a thread worker's result back to the UI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.dom import DOMNode


def call_if_attached(node: DOMNode, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """From a worker thread: run ``callback(*args, **kwargs)`` on the UI thread unless ``node`` has been removed meanwhile
    (a search or a load can outlive the screen that started it: its widgets are gone by then)."""

    def deliver() -> None:
        if node.is_attached:
            callback(*args, **kwargs)

    node.app.call_from_thread(deliver)
