"""The known entry fields and what values each may hold (spec: Fields)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from .entries import KNOWN_FIELDS

IMPORTANCE = ("high", "medium", "low")
STATUSES = ("active", "superseded", "cold", "archived")
REFERENCE_FIELDS = ("conflict", "superseded_by", "merged_from")

ID_RE = re.compile(r"(?<![A-Za-z0-9_-])mem-[0-9]+(?![A-Za-z0-9_-])")
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?")


def is_reference_field(name: str) -> bool:
    return name in REFERENCE_FIELDS or name.endswith(("_ref", "_refs"))


def parse_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if _DATE_RE.fullmatch(text):
            return dt.date.fromisoformat(text)
        if _DATETIME_RE.fullmatch(text):
            return parse_datetime(text).date()  # type: ignore[union-attr]
    except (ValueError, AttributeError):
        return None
    return None


def parse_datetime(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str) or not _DATETIME_RE.fullmatch(value.strip()):
        return None
    text = value.strip().replace(" ", "T", 1)
    if text[-1] in "Zz":
        text = text[:-1] + "+00:00"
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and not any(c.isspace() for c in value.strip())


def _id_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_id(v) for v in value)


def field_error(name: str, value: Any) -> str | None:
    """Why ``value`` is not valid for the known field ``name`` (None when valid or unknown)."""
    if name not in KNOWN_FIELDS:
        return None
    if value is None:
        return f"{name} is empty"
    if name == "id":
        return None if _is_id(value) else f"id {value!r} is not a single word"
    if name == "timestamp":
        parsed = parse_datetime(value)
        if parsed is None:
            return f"timestamp {value!r} is not an ISO 8601 date-time"
        if parsed.tzinfo is None:
            return f"timestamp {value!r} has no UTC offset"
        return None
    if name == "source":
        return None if isinstance(value, str) and value.strip() else f"source {value!r} is not a string"
    if name == "importance":
        return None if value in IMPORTANCE else f"importance {value!r} is not one of high, medium, low"
    if name == "status":
        return None if value in STATUSES else f"status {value!r} is not one of {', '.join(STATUSES)}"
    if name in ("ttl", "last_hit"):
        kind = "date" if name == "last_hit" else "date or date-time"
        return None if parse_date(value) is not None else f"{name} {value!r} is not a {kind}"
    if name == "archived_at":
        return None if parse_datetime(value) is not None else f"archived_at {value!r} is not a date-time"
    if name == "tags":
        if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
            return None
        return f"tags {value!r} is not a list of strings"
    if name == "conflict":
        return None if _is_id(value) or _id_list(value) else f"conflict {value!r} is not an id or a list of ids"
    if name == "superseded_by":
        return None if _is_id(value) else f"superseded_by {value!r} is not an id"
    if name == "merged_from":
        return None if _id_list(value) else f"merged_from {value!r} is not a list of ids"
    return None


def ids_in_value(value: Any) -> list[str]:
    """Ids named by a reference field's value (an id or a list of ids)."""
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, list):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return []


def id_number(entry_id: str) -> int | None:
    m = re.fullmatch(r"mem-([0-9]+)", entry_id)
    return int(m.group(1)) if m else None


def next_id(existing: Any) -> str:
    """Highest ``mem-N`` number + 1, zero-padded to 4 digits."""
    numbers = (id_number(ident) for ident in existing if isinstance(ident, str))
    return f"mem-{max((n for n in numbers if n is not None), default=0) + 1:04d}"
