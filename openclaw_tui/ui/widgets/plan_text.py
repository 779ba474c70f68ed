"""A write's title and summary lines (English in the core) in the reader's language.

Each template is the core's English with ``%(name)s`` for its values: it recognises a title and is
the msgid of its translation; a title no template matches is shown as it is.
"""

from __future__ import annotations

from ...core.i18n import N_, _, catalog, recognise

# core/lifecycle, core/check/repair.py, core/workspace, core/inbox: the titles of the writes, most specific first
TITLES: tuple[str, ...] = (
    N_("add (same as %(id)s)"), N_("add a USER.md directive"), N_("add %(n)s item(s)"), N_("add %(id)s"),
    N_("edit %(n)s entries"), N_("edit %(id)s"),
    N_("archive %(n)s entries"), N_("archive %(id)s"), N_("restore %(id)s"),
    N_("supersede a USER.md directive"), N_("supersede %(old)s by %(new)s"),
    N_("compact %(ids)s into %(new)s"), N_("compact %(ids)s"),
    N_("resolve conflict %(a)s / %(b)s: %(choice)s"),
    N_("distil %(n)s line(s) of %(file)s"),
    N_("gc: %(n)s entry"), N_("gc: %(n)s entries"),
    N_("redact %(n)s secret"), N_("redact %(n)s secrets"),
    N_("repair: every safe repair"), N_("repair: %(n)s safe repair"), N_("repair: %(n)s safe repairs"),
    N_("repair: restore %(id)s from the archive"), N_("repair: restore %(id)s from commit %(commit)s"),
    N_("repair: make %(id)s active"), N_("repair: remove references to %(id)s"), N_("repair: %(old)s → %(new)s"),
    N_("accept, %(title)s"), N_("accept %(item)s"), N_("record reviewed"),
    N_("strip metadata of %(item)s"), N_("move %(item)s"), N_("remove %(item)s"), N_("mark %(file)s"),
    N_("append to memory/%(file)s"), N_("revert %(changes)s"),
)

# core/lifecycle/plan_summary.py: describe_plan's lines
LINES: tuple[str, ...] = (
    N_("%(id)s: new entry in %(file)s"),
    N_("%(id)s: superseded by %(new)s, moves %(source)s → %(dest)s"),
    N_("%(id)s: superseded by %(new)s"),
    N_("%(id)s: moves %(source)s → %(dest)s (status archived)"),
    N_("%(id)s: moves %(source)s → %(dest)s (status active)"),
    N_("%(id)s: status cold (stays in %(file)s)"),
    N_("%(file)s: new file"),
    N_("%(file)s: +%(added)s −%(removed)s lines"),
    N_("%(id)s: changed"),
    N_("%(id)s: %(what)s"),  # the fields that changed (names kept), "body"
)
LINE_WORDS = {"body": N_("body"), "changed": N_("changed")}


def plan_title(title: str) -> str:
    """A write's title in the language in use (English: as it is)."""
    if catalog() is None or not title:
        return title
    if title.startswith("accept, "):  # dreaming's accept with an edit: the inner title too
        return _("accept, %(title)s") % {"title": plan_title(title[len("accept, "):])}
    found = recognise(TITLES, title)
    return found if found is not None else title


def plan_line(line: str) -> str:
    """One line of a write's summary in the language in use (English: as it is)."""
    if catalog() is None or not line:
        return line
    found = recognise(LINES, line, lambda v: ", ".join(_(LINE_WORDS[w]) if w in LINE_WORDS else w for w in v.split(", ")))
    return found if found is not None else line
