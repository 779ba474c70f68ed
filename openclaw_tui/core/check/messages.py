"""Finding messages and hints in the reader's language, for the text report only (JSON, SARIF
and the audit log stay English).  Each template is the English message with ``%(name)s`` where
the check puts a value: the pattern that recognises a message and the msgid of its translation."""

from __future__ import annotations

from ..i18n import N_, _, catalog, recognise

# code -> templates of its message, most specific first
TEMPLATES: dict[str, tuple[str, ...]] = {
    "unreadable-file": (N_("%(file)s is not valid UTF-8"), N_("%(file)s: not valid UTF-8")),
    "path-escape": (
        N_("%(file)s is a link that leaves the profile folder; it was not read"),
        N_("%(file)s references %(target)s, which resolves outside the profile folder"),
        N_("%(file)s references %(target)s, which resolves outside the workspace"),
    ),
    "dangling-file": (N_("%(file)s references %(target)s, which does not exist"),),
    "dangling-ref": (N_("%(file)s references %(target)s, which no entry defines"),),
    "inactive-ref": (N_("%(file)s references %(target)s, which is %(state)s"),),
    "duplicate-id": (N_("%(id)s is defined again here; the copy that counts is at %(where)s"),),
    "merge-conflict": (
        N_("unresolved git conflict markers in %(id)s in %(file)s"), N_("unresolved git conflict markers in %(file)s"),
    ),
    "malformed-entry": (N_("malformed entry %(id)s: %(error)s"), N_("malformed entry: %(error)s")),
    "invalid-field": (  # core/format/fields.py: field_error
        N_("%(id)s: %(field)s %(value)s is not one of %(choices)s"),
        N_("%(id)s: %(field)s %(value)s is not an ISO 8601 date-time"),
        N_("%(id)s: %(field)s %(value)s has no UTC offset"),
        N_("%(id)s: %(field)s %(value)s is not a date or date-time"),
        N_("%(id)s: %(field)s %(value)s is not a date-time"),
        N_("%(id)s: %(field)s %(value)s is not a date"),
        N_("%(id)s: %(field)s %(value)s is not a list of strings"),
        N_("%(id)s: %(field)s %(value)s is not a list of ids"),
        N_("%(id)s: %(field)s %(value)s is not an id or a list of ids"),
        N_("%(id)s: %(field)s %(value)s is not an id"),
        N_("%(id)s: %(field)s %(value)s is not a single word"),
        N_("%(id)s: %(field)s %(value)s is not a string"),
        N_("%(id)s: %(field)s is empty"),
        N_("%(id)s: %(error)s"),
    ),
    "expired-ttl": (N_("%(id)s is active past its ttl %(ttl)s and should move to the archive"),),
    "over-capacity": (N_("memories.md holds %(count)s entries, over the cap of %(cap)s"),),
    "unresolved-conflict": (
        N_("%(id)s conflicts with %(other)s and both are active: keep one, keep both, or supersede one"),
    ),
    "sensitive-data": (N_("%(where)s holds an unredacted %(label)s (%(kind)s); run `openclaw-tui redact`"),),
    "suspicious-instruction": (
        N_("%(where)s holds text that instructs the agent (%(kind)s: %(snippet)s) instead of recording a fact"),
    ),
    "compaction-candidate": (N_("tag %(tag)s is on %(count)s active entries: %(ids)s"),),
    "oversized-bootstrap": (
        N_("%(file)s has %(size)s characters as OpenClaw counts them (UTF-16 units), over its "
           "%(limit)s-character limit (%(rules)s); %(gets)s"),
        N_("the bootstrap files reach the total of %(total)s characters as OpenClaw counts them "
           "(UTF-16 units, %(rules)s): %(gets)s"),
    ),
    "stale-daily-log": (N_("%(file)s is %(age)s days old: distil it into MEMORY.md, then remove it"),),
    "daily-log-rewritten": (
        N_("commit %(commit)s changed or removed earlier lines of %(file)s, which is append-only"),
    ),
}

# the hints of repair suggestions (core/check/findings.py: Suggestion.hint)
HINTS: tuple[str, ...] = (
    N_("%(why)s: use %(target)s"),
    N_("did you mean %(target)s? (%(why)s)"),
    N_("restore %(target)s (%(why)s)"),
    N_("make %(target)s active again (%(why)s)"),
    N_("remove the reference (%(why)s)"),
)

# words that appear as values inside messages (an entry's state, a secret's kind, a hint's reason)
WORDS: tuple[str, ...] = (
    N_("superseded"), N_("archived"), N_("compacted"), N_("phone number"), N_("e-mail address"),
    N_("password"), N_("API key"), N_("ID number"), N_("card number"),
)
SEVERITY_WORDS = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}

def _word(value: str) -> str:
    """A value that is one of WORDS (or starts with one, "superseded (superseded by mem-0051)"), translated."""
    for word in WORDS:
        if value == word or value.startswith(word + " "):
            rest = value[len(word) + 1:]
            if rest.startswith("(") and rest.endswith(")"):  # "superseded (superseded by mem-0051)"
                from .. import phrases

                return _(word) + _(" (%(details)s)") % {"details": phrases.localize(rest[1:-1])}
            return _(word) + value[len(word):]
    return value


def localize(code: str, message: str) -> str:
    """``message`` of a finding of ``code`` in the language in use (English: unchanged)."""
    if catalog() is None:
        return message
    if code == "oversized-bootstrap":  # its values are phrases the check builds (no memory text)
        from .. import phrases

        return recognise(TEMPLATES[code], message, phrases.localize) or message
    return recognise(TEMPLATES.get(code, ()), message, _word) or message


def localize_hint(hint: str) -> str:
    """A repair suggestion's hint in the language in use."""
    if catalog() is None or not hint:
        return hint
    from .. import phrases

    return recognise(HINTS, hint, lambda value: _word(value) if value in WORDS else phrases.localize(value)) or hint
