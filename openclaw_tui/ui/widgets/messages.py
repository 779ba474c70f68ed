"""Every message of the UI: widgets to their screen, workers and the watcher to the review screen."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from ..rows import Location


class Jump(Message):
    """The reviewer asked to go to ``location`` (an entry, or a file line)."""

    def __init__(self, location: Location) -> None:
        super().__init__()
        self.location = location


# --- what the review screen's workers report (one handler each, on the main screen) ---------------


class Previewed(Message):
    """The first rows of the first profile's memories.md, read before the whole file is parsed."""

    def __init__(self, profile: Any, rows: list[Any]) -> None:
        super().__init__()
        self.profile, self.rows = profile, rows


class Loaded(Message):
    """The opened path was read: its profiles (``error``: why it is not memory)."""

    def __init__(self, discovery: Any, data: list[Any], error: str | None = None) -> None:
        super().__init__()
        self.discovery, self.data, self.error = discovery, data, error


class ProfileReloaded(Message):
    """A profile was re-read (``gen``: the reload it answers; older ones are dropped)."""

    def __init__(self, data: Any, keep_file: str | None, gen: int = 0) -> None:
        super().__init__()
        self.data, self.keep_file, self.gen = data, keep_file, gen


class Indexed(Message):
    def __init__(self, data: Any) -> None:
        super().__init__()
        self.data = data


class Checked(Message):
    def __init__(self, data: Any) -> None:
        super().__init__()
        self.data = data


class RefsReady(Message):
    def __init__(self, data: Any) -> None:
        super().__init__()
        self.data = data


class FilesChanged(Message):
    """Files under the opened folder changed on disk (posted from the watcher's thread)."""

    def __init__(self, batch: Any) -> None:
        super().__init__()
        self.batch = batch


class GitStateRead(Message):
    """The repository state, read in a worker (``state`` None: no git or no repository)."""

    def __init__(self, state: Any, conflicted: tuple[str, ...]) -> None:
        super().__init__()
        self.state, self.conflicted = state, conflicted


class GitSynced(Message):
    def __init__(self, what: str, result: Any) -> None:
        super().__init__()
        self.what, self.result = what, result
