"""Showing a secret without showing it (``13812345678`` -> ``138****5678``): enough to recognise it,
never to read it."""

from __future__ import annotations

from collections.abc import Iterable

STARS = "****"


def mask_secret(value: str, kind: str = "") -> str:
    """A masked form of ``value`` for display (never the whole value)."""
    n = len(value)
    if kind == "password" or n <= 4:
        return STARS
    if kind == "email" and "@" in value:
        local, _, domain = value.rpartition("@")
        return f"{local[:1]}{STARS}@{domain}"
    if kind in ("phone", "national-id", "card") or sum(c.isdigit() for c in value) * 2 > n:
        head, tail = (3, 4) if n >= 10 else (1, 2)
        return value[:head] + STARS + value[-tail:]
    head = min(4, n // 4)
    return value[:head] + STARS


def mask_all(text: str, secrets: Iterable[tuple[str, str]]) -> str:
    """``text`` with every ``(value, kind)`` replaced by its mask (longest values first)."""
    for value, kind in sorted(set(secrets), key=lambda s: -len(s[0])):
        if value:
            text = text.replace(value, mask_secret(value, kind))
    return text
