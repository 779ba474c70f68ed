"""``--today DATE``, read the same way by the commands that take it as a plain string."""

from __future__ import annotations

import datetime as dt


def today_option(value: str | None) -> dt.date | None:
    """The date of ``--today`` (None when not given); ValueError with the one-line message when it is no date."""
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"--today must be a date YYYY-MM-DD (got {value!r})") from None
