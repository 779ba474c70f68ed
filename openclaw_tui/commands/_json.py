"""``json.dumps(value, ensure_ascii=False, indent=2)``, the same characters, faster and without importing json.

With ``indent`` the standard library encodes in Python, one generator step per value: 50 ms for
the 2,000 findings of a 100k-entry profile.  This walks the plain values the command line prints
(dicts with str keys, lists, tuples, str, int, float, bool, None) itself, escaping strings with one
``str.translate``; a fresh ``search --json`` process so never imports json (nor the ``re``, decoder
and scanner it brings).  Any other value (another type, a subclass, a key that is no str) hands the
whole document to ``json.dumps``, so the text is always the library's.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (not typing's: a fresh ``search`` process imports neither it nor dataclasses)
if TYPE_CHECKING:
    from typing import Any


# json's escapes with ensure_ascii=False: '"', '\\' and the C0 controls (b, f, n, r, t by name, others \\u00xx)
_ESCAPES = {c: f"\\u{c:04x}" for c in range(0x20)} | {0x22: '\\"', 0x5C: "\\\\", 0x08: "\\b", 0x0C: "\\f",
                                                    0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}
_FLOATS = {float("inf"): "Infinity", float("-inf"): "-Infinity"}


def _escaped(s: str) -> str:
    """``s`` with json's escapes: most strings have none to make (printable, no quote, no backslash)."""
    if s.isprintable() and '"' not in s and "\\" not in s:  # (every C0 control is unprintable)
        return s
    return s.translate(_ESCAPES)


class _NotPlain(Exception):
    """A value ``dumps`` leaves to ``json.dumps`` (another type, a subclass, a key that is no str)."""


def _json_lines(obj: Any, indent: str, out: list[str]) -> None:
    kind = obj.__class__
    if kind is str:
        out.append(f'"{_escaped(obj)}"')
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(obj))
    elif kind is float:
        out.append(_FLOATS.get(obj) or ("NaN" if obj != obj else float.__repr__(obj)))
    elif kind is dict:
        if not obj:
            out.append("{}")
            return
        inner = indent + "  "
        sep = "{\n" + inner
        for key, value in obj.items():
            if key.__class__ is not str:
                raise _NotPlain
            out.append(f'{sep}"{_escaped(key)}": ')
            _json_lines(value, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "}")
    elif kind is list or kind is tuple:
        if not obj:
            out.append("[]")
            return
        inner = indent + "  "
        sep = "[\n" + inner
        for value in obj:
            out.append(sep)
            _json_lines(value, inner, out)
            sep = ",\n" + inner
        out.append("\n" + indent + "]")
    else:
        raise _NotPlain


def dumps(doc: object) -> str:
    """``json.dumps(doc, ensure_ascii=False, indent=2)``, byte for byte."""
    out: list[str] = []
    try:
        _json_lines(doc, "", out)
    except _NotPlain:
        import json

        return json.dumps(doc, ensure_ascii=False, indent=2)
    return "".join(out)
