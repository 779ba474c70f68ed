"""Messages widgets send to the screen that hosts them."""

from __future__ import annotations

from textual.message import Message

from ..core.format.rows import Location


class Jump(Message):
    """The reviewer asked to go to ``location`` (an entry, or a file line)."""

    def __init__(self, location: Location) -> None:
        super().__init__()
        self.location = location
