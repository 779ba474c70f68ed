"""The English phrases the core builds from values (also the JSON's ``why``/``reason``), shown in the
reader's language: each template is both the pattern that recognises a phrase and its msgid.  Parts
joined by "; " are translated one by one; a phrase no template matches is shown as it is.
"""

from __future__ import annotations

from .i18n import ERRORS, N_, _, catalog, recognise

TEMPLATES: tuple[str, ...] = (
    # an entry's change (core/lifecycle/plan.py: commit_lines, core/git/semantic_diff.py: describe)
    N_("superseded by %(id)s, changed (%(fields)s)"),
    N_("superseded by %(id)s, archived"),
    N_("superseded by %(id)s"),
    N_("changed (%(fields)s)"),
    N_("renamed from %(path)s"),
    # repair candidates (core/check/repair.py: Candidate.describe) and their whys (core/check/suggest.py)
    N_("rewrite to %(target)s: %(why)s"),
    N_("restore %(target)s from the archive: %(why)s"),
    N_("restore %(target)s from commit %(commit)s: %(why)s"),
    N_("make %(target)s active: %(why)s"),
    N_("remove the reference: %(why)s"),
    N_("%(id)s was superseded by %(target)s (then %(path)s)"),
    N_("%(id)s was superseded by %(target)s"),
    N_("%(id)s was compacted into %(target)s"),
    N_("%(id)s was removed in %(commit)s (%(date)s: %(subject)s)"),
    N_("%(id)s was deleted since the last commit"),
    N_("%(id)s is in the archive (%(state)s)"),
    N_("%(id)s is in commit %(commit)s"),
    N_("%(id)s is a malformed block (fix it first)"),
    N_("%(id)s is not defined"),
    N_("two slips (%(first)s, then %(second)s)"),
    N_("it is %(state)s"),
    N_("shares %(what)s"),
    N_("tag %(tag)s"),
    N_("one of %(count)s as near"),
    N_("closest existing file name (%(alike)s alike)"),
    N_("drop it from %(field)s"),
    N_("repair: %(count)s safe repair"),
    N_("repair: %(count)s safe repairs"),
    N_("repair: restore %(target)s from the archive"),
    # gc (core/lifecycle/lifecycle.py: GcAction)
    N_("%(id)s: archived (%(reason)s)"),
    N_("%(id)s: cold (%(reason)s)"),
    N_("%(id)s: would be archived (%(reason)s)"),
    N_("%(id)s: would become cold (%(reason)s)"),
    N_("ttl %(date)s has passed"),
    N_("not hit since %(date)s (%(field)s), %(days)s+ days"),
    N_("over capacity: %(count)s entries, cap %(cap)s"),
    # inbox (core/inbox/inbox.py: Change.detail, Change.who)
    N_("moved within %(where)s"),
    N_("moved from %(old)s to %(new)s"),
    N_("status %(old)s → %(new)s, %(kind)s"),
    N_("status %(old)s → %(new)s"),
    N_("%(count)s lines appended"),
    N_("not committed, written at %(date)s"),
    N_("dreaming %(date)s"),
    # context (core/search/context.py, context_openclaw.py, core/workspace/bootstrap.py, injection.py)
    N_("importance: high (always carried)"),
    N_("named by the query (%(what)s)"),
    N_("named by state.yaml's current task (%(what)s)"),
    N_("archived context file named by %(what)s"),
    N_("%(tags)s (low: loaded only on a tag match)"),
    N_("loaded in full (main session only)"),
    N_("truncated to %(limit)s characters (%(why)s)"),
    N_("%(count)s on disk"),
    N_("not injected by the current release (%(release)s)"),
    N_("`openclaw doctor` folds TOOLS.md into AGENTS.md"),
    N_("`openclaw doctor` leaves it: HEARTBEAT.md is a no-op"),
    N_("absent (the release loads %(name)s only when present, by exact name)"),
    N_("absent: a lowercase memory.md is never loaded by the current release"),
    N_("absent (setup is complete)"),
    N_("left out: the bootstrap total is used up"),
    N_("left out: fewer than %(count)s characters of the bootstrap total are left"),
    N_("left out: the block's maxTotalChars %(count)s is used up"),
    N_("skipped: %(size)s bytes, over maxFileBytes %(max)s"),
    N_("search score %(score)s (%(why)s)"),
    N_("text %(text)s (bm25 %(bm25)s)  vector %(vector)s  decay %(decay)s (from %(date)s)"),
    N_("text %(text)s (bm25 %(bm25)s)  vector %(vector)s  decay %(decay)s (undated)"),
    N_("%(file)s: none in this profile"),
    N_("the query's words are in its text, but no tag of %(tags)s is selected (importance %(level)s)"),
    N_("cold: not hit for a long time"), N_("set it active to load it"),
    N_("status %(state)s: only active entries are loaded"),
    N_("in the archive (tag %(tags)s)"), N_("restore it to load it"),
    N_("%(detail)s (status %(state)s)"),
    N_("no session-start block: %(why)s"),
    N_("search: %(note)s"),
    N_("OpenClaw %(release)s (current release)"),
    N_("today's log, loaded at session start"),
    N_("yesterday's log, loaded at session start"),
    N_("today's log, %(how)s (session start)"),
    N_("yesterday's log, %(how)s (session start)"),
    N_("%(date)s's log, %(how)s (session start)"),
    N_("%(file)s is loaded only in the main, private session"),
    N_("sub-agent sessions get AGENTS.md only"),
    N_("cron runs get AGENTS.md, SOUL.md, IDENTITY.md and USER.md"),
    N_("session-start block: %(chars)s chars in all (%(header)s of them the runtime's header and separators), "
       "within maxTotalChars %(max)s"),
    N_("full text only (%(why)s)"),
    # errors of the core that the command line prints (core/lifecycle, core/inbox, core/format/fields.py)
    N_("no entry with id %(id)s"),
    N_("no entry with id %(id)s in memories.md"),
    N_("%(id)s cannot supersede itself"),
    N_("%(id)s cannot conflict with itself"),
    N_("%(id)s is already in memories.md"),
    N_("%(id)s is already in the archive"),
    N_("--conflict %(id)s: no entry has that id"),
    N_("neither %(id)s nor %(target)s names the other in conflict:"),
    N_("no change %(id)s in the inbox (`inbox PATH` lists them)"),
    N_("%(id)s changed on disk since it was opened"),
    N_("%(id)s is no longer in %(file)s"),
    N_("reverting %(commit)s conflicts with later changes in %(files)s"),
    N_("no MEMORY.md item or USER.md directive matches %(query)s"),
    N_("%(file)s: no such daily log in the workspace"),
    N_("%(field)s %(value)s is not one of %(choices)s"),
    N_("%(field)s %(value)s is not an ISO 8601 date-time"),
    N_("%(field)s %(value)s has no UTC offset"),
    N_("%(field)s %(value)s is not a date or date-time"),
    N_("%(field)s %(value)s is not a date-time"),
    N_("%(field)s %(value)s is not a date"),
    N_("%(field)s %(value)s is not a list of strings"),
    N_("%(field)s %(value)s is not a list of ids"),
    N_("%(field)s %(value)s is not an id or a list of ids"),
    N_("%(field)s %(value)s is not an id"),
    N_("%(field)s %(value)s is not a single word"),
    N_("%(field)s %(value)s is not a string"),
    N_("%(field)s is empty"),
    # the check's oversized-bootstrap (core/check/check.py)
    N_("OpenClaw %(release)s"),
    N_("the agent receives a cut copy of %(size)s (%(kept)s)"),
    N_("kept %(parts)s of %(total)s"),
    N_("the agent receives none of it (the bootstrap total is used up)"),
    N_("%(file)s is cut to %(size)s (%(kept)s)"),
    N_("%(file)s is left out"),
    N_("%(first)s, then %(rest)s cut or left out"),
    N_("%(first)s, then %(rest)s left out"),
    # merge (core/merge/conflicts.py: description, merge_session.py: collision_notes)
    N_("%(id)s is in memories.md and in the archive (duplicate id)"), N_("fix that first"),
    N_("the profile has uncommitted changes (%(names)s)"), N_("commit or discard them first"),
    N_("%(file)s: %(id)s was added on both sides as two different entries: both kept, theirs is now %(new)s"),
    # review (core/workspace/dreaming.py: Promoted.why)
    N_("%(why)s (memory/.dreams/short-term-recall.json)"),
    N_("%(score)s (its [score=…] bracket)"),
    N_("recalled %(count)sx"),
    N_("avg score %(score)s"),
    N_("max %(score)s"),
    N_("%(count)s distinct queries"),
    N_("on %(count)s days"),
    N_("%(daily)s daily, %(grounded)s grounded signals"),
    N_("concepts %(tags)s"),
    # search (core/search/rank.py: Hit.readable)
    N_("%(score)s (×%(factor)s, %(age)s old)"),
    N_("%(count)s days"),
    N_("%(count)s months"),
    N_("%(count)s years"),
    # the most general last: the first template that matches is the one used
    N_("%(how)s from %(id)s"),
    N_("%(kind)s in %(where)s"),
    N_("%(id)s is %(state)s"),
    N_("%(id)s: %(change)s"),
)

# whole phrases with no value (a template above can hold one of them as its value)
WORDS: tuple[str, ...] = (
    N_("added"), N_("added to the archive"), N_("removed"), N_("changed"), N_("superseded"), N_("archived"),
    N_("restored"), N_("cold"), N_("created"), N_("deleted"), N_("renamed"), N_("compacted"), N_("active"),
    N_("body"), N_("formatting"), N_("unchanged"),
    N_("two characters swapped"), N_("one digit different"), N_("one character dropped"), N_("one digit added"),
    N_("drop this line of state.yaml"), N_("drop this path from state.yaml"), N_("unlink: keep the link's text"),
    N_("deleted since"), N_("new file"), N_("file removed"), N_("1 line appended"), N_("rewritten"), N_("moved"),
    N_("the top"), N_("not committed"),
    N_("always loaded"), N_("loaded in full"), N_("low without a match"), N_("no tag match"), N_("unreadable"),
    N_("blank: nothing to inject"), N_("blank"), N_("cut to fit the block"), N_("given whole"),
    N_("no daily log of the window has text"),
    N_("a later turn: the daily logs are given only at a session's first run (--session-start)"),
    N_("sub-agents get no session-start block of daily logs"),
    N_("no session-start block while BOOTSTRAP.md is pending"),
    N_("memory_search covers MEMORY.md, USER.md and memory/"),
    N_("full text only: no embedding provider configured"),
    N_("--tags: a workspace has no tags (only layout A selects entries by tag)"),
    N_("changed on both sides"), N_("deleted by ours, changed by theirs"), N_("deleted by theirs, changed by ours"),
    N_("two different entries added on both sides under this id: both kept, theirs under the next free id"),
    N_("only in ours"), N_("only in theirs"), N_("not memory"),
    N_("supersede by an active entry"), N_("nothing was written"), N_("nothing written"),
    N_("the new entry has no text"), N_("the text is empty"), N_("compaction needs two or more different ids"),
    N_("nothing to revert"), N_("nothing to repair"), N_("pick at least one line to distil"),
    N_("no entry to archive"),
    N_("same text"), N_("nearly the same text"), N_("same tags, similar text"),
    N_("1 day"), N_("defaults"), N_("session start"), N_("a later turn"),
    N_("an older OpenClaw release"), N_("main"), N_("shared"), N_("subagent"), N_("cron"),
    N_("an older OpenClaw release (TOOLS.md and HEARTBEAT.md injected, 70/20 cut), "
       "as the workspace's openclaw.json selects"),
    N_("memories.md: none in this profile"),
)


def localize(text: str) -> str:
    """``text``, a phrase the core built, in the language in use (English: unchanged)."""
    if catalog() is None or not text:
        return text
    return _phrase(text, 0)


def localize_error(text: str) -> str:
    """An error of the core (a line for stderr) in the language in use (English: as it is)."""
    if catalog() is None:
        return text
    return recognise(ERRORS, text) or localize(text)


def _phrase(text: str, depth: int) -> str:
    if text in WORDS:
        return _(text)
    if depth > 5:
        return text
    if "; " in text:  # parts first: a template's placeholder never spans two parts
        return _("; ").join(_phrase(part, depth + 1) for part in text.split("; "))
    found = recognise(TEMPLATES, text, lambda v: _phrase(v, depth + 1), _ONE_WORD)
    if found is not None:
        return found
    if ", " in text and depth:  # a list of words ("status, body"): each word
        parts = text.split(", ")
        if all(p in WORDS for p in parts):
            return _(", ").join(_(p) for p in parts)
    return text


# placeholders that hold one word (an id, a file, a number): a template reads no more into them
_ONE_WORD = frozenset({"id", "file", "target", "commit", "count", "score", "date", "kind", "state", "new", "sha",
                       "limit", "size", "max", "release", "alike", "factor", "days", "cap", "field"})


def change_kind(kind: str, what: str) -> str:
    """An inbox change's kind and what it is ("changed entry"), in the language in use."""
    if catalog() is None:
        return f"{kind} {what}"
    return _("%(kind)s %(what)s") % {"kind": _(kind), "what": _(what)}


# the inbox's items (core/inbox/inbox.py: Change.what; its kinds are marked where the inbox screen shows them)
INBOX_ITEMS = (N_("entry"), N_("item"), N_("section"), N_("text"), N_("directive"), N_("preamble"),
               N_("malformed"), N_("log"), N_("file"))
