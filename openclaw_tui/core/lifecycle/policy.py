"""The lifecycle rules, once: TTL, cold and cap (spec: Lifecycle).

Both the check (``expired-ttl``, ``over-capacity``) and gc ask these functions, so the two never
disagree on an entry.  Defaults are ``core.config.Limits``'.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..config import Limits
from ..format.entries import Entry
from ..format.fields import parse_date

DEFAULTS = Limits()


@dataclass(frozen=True)
class ColdSince:
    """Why an entry turns cold: the day it was last hit, and the field that says so."""

    day: dt.date
    field: str  # "last_hit" or "timestamp"


def ttl_passed(entry: Entry, today: dt.date) -> dt.date | None:
    """The entry's ttl when it is active and its ttl (a date-time read as its date) is before ``today``."""
    if entry.status != "active":
        return None
    expires = parse_date(entry.meta.get("ttl"))
    return expires if expires is not None and expires < today else None


def cold_since(entry: Entry, today: dt.date, cold_days: int = DEFAULTS.cold_days) -> ColdSince | None:
    """When an active ``low`` entry was last hit, if that is ``cold_days`` or more before ``today``."""
    if entry.status != "active" or entry.meta.get("importance") != "low":
        return None
    hit, field = parse_date(entry.meta.get("last_hit")), "last_hit"
    if hit is None:
        hit, field = parse_date(entry.meta.get("timestamp")), "timestamp"
    if hit is None or (today - hit).days < cold_days:
        return None
    return ColdSince(hit, field)


def over_cap(count: int, cap: int = DEFAULTS.cap) -> int:
    """How many entries ``count`` is over ``cap`` (0 when within it)."""
    return max(0, count - cap)
