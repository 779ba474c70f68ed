"""Bootstrap files against their limits, as bars, and the injected copy with its cut marker."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from ...core.config import Limits
from ...core.i18n import N_, _, catalog, pgettext, recognise
from ...core.workspace.bootstrap import InjectedPart, own_limit
from ...core.workspace.injection import CURRENT_RELEASE
from .safe_text import clean, clean_line

BAR = 24

# why a bootstrap file or a daily log is injected as it is (core/workspace/bootstrap.py, injection.py: reason)
REASONS: tuple[str, ...] = (
    N_("absent (the release loads %(name)s only when present, by exact name)"),
    N_("absent: a lowercase memory.md is never loaded by the current release"),
    N_("MEMORY.md is loaded only in the main, private session"),
    N_("sub-agent sessions get AGENTS.md only"),
    N_("cron runs get AGENTS.md, SOUL.md, IDENTITY.md and USER.md"),
    N_("absent (setup is complete)"),
    N_("a leftover in a configured workspace: OpenClaw deletes it before the next reply and does not inject it"),
    N_("left out: the bootstrap total is used up"),
    N_("missing: injected as [MISSING] Expected at: PATH"),
    N_("left out: fewer than %(n)s characters of the bootstrap total are left"),
    N_("unreadable"), N_("blank: nothing to inject"), N_("blank"),
    N_("truncated to %(n)s characters (%(why)s)"),
    N_("loaded in full"), N_("loaded in full (main session only)"),
    N_("skipped: %(size)s bytes, over maxFileBytes %(max)s"),
    N_("left out: the block's maxTotalChars %(max)s is used up"),
    N_("cut to fit the block"), N_("given whole"),
    N_("today's log, %(how)s (session start)"), N_("yesterday's log, %(how)s (session start)"),
    N_("%(day)s's log, %(how)s (session start)"),
    N_("not injected by the current release (%(release)s); `openclaw doctor` folds TOOLS.md into AGENTS.md"),
    N_("not injected by the current release (%(release)s); `openclaw doctor` leaves it: HEARTBEAT.md is a no-op"),
)
REASON_WORDS = (N_("USER.md's cap"), N_("what the bootstrap total left"), N_("given whole"), N_("cut to fit the block"))


def session_word(session: str) -> str:
    """An OpenClaw session's name (main, shared, subagent, cron) in the language in use."""
    return {"main": pgettext("session", "main"), "shared": pgettext("session", "shared"),
            "subagent": pgettext("session", "subagent"), "cron": pgettext("session", "cron")}.get(session, session)


def reason_text(reason: str) -> str:
    """A part's ``reason`` in the language in use (English: as it is)."""
    if catalog() is None or not reason:
        return reason
    return recognise(REASONS, reason, lambda v: _(v) if v in REASON_WORDS else v) or reason


def bar(value: int, limit: int, width: int = BAR) -> Text:
    """``███████░░░`` filled to value/limit; the overflow past the limit in red."""
    out = Text()
    if limit <= 0:
        return out.append("░" * width, style="dim")
    filled = min(width, round(width * min(value, limit) / limit))
    style = "red" if value > limit else "yellow" if value > 0.8 * limit else "green"
    out.append("█" * filled, style=style)
    out.append("░" * (width - filled), style="dim")
    if value > limit:
        out.append(f" +{value - limit:,}", style="bold red")
    return out


def bars_text(parts: Sequence[InjectedPart], limits: Limits, source: str, session: str, width: int = 160,
              release: str = CURRENT_RELEASE) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    size = max(8, min(BAR, width // 5))
    namew = min(24, max([len(p.name) for p in parts] + [14]) + 1)
    t.append(_("Limits: "), style="bold")
    t.append(_("%(file)s per file, %(total)s total, USER.md %(user)s")  # the cap the release applies
             % {"file": f"{limits.bootstrap_max_chars:,}", "total": f"{limits.bootstrap_total_max_chars:,}",
                "user": f"{own_limit('USER.md', limits, release):,}"})
    where = _("from %(source)s") % {"source": clean_line(source)} if source != "defaults" else _("defaults")
    t.append(_(" (%(source)s)") % {"source": where}, style="dim")  # (no space before a full-width bracket)
    t.append(" · " + _("%(session)s session · sizes in UTF-16 units, as OpenClaw counts") % {"session": session_word(session)} + "\n",
             style="dim")
    for p in parts:
        name = f"{clean_line(p.name):<{namew}.{namew}}"
        t.append(name, style="bold" if p.loaded else "dim")
        if p.kind == "daily":
            t.append(f" {p.chars_injected:>7,}  " if p.loaded else f" {p.chars_raw:>7,} B", style="dim")
            t.append(clean_line(reason_text(p.reason)), style="cyan" if p.loaded else "dim italic")
        elif p.kind == "retired":  # TOOLS.md, HEARTBEAT.md, a lowercase memory.md
            t.append(f" {clean_line(reason_text(p.reason))}", style="dim italic")
        elif p.missing:
            t.append(" " + _("missing: injected as a %(n)s-character [MISSING] marker") % {"n": f"{p.chars_injected:,}"},
                     style="yellow")
        elif not p.loaded and not p.over_total:  # not for this session (shared: MEMORY.md), or blank
            t.append(f" {p.chars_raw:>7,}  " + _("not loaded: %(why)s") % {"why": clean_line(reason_text(p.reason))},
                     style="dim italic")
        else:
            own = p.limit
            t.append(" ")
            t.append_text(bar(p.chars_raw, own or 1, size))
            t.append(f" {p.chars_raw:>7,} / {own:,}" if own else f" {p.chars_raw:>7,}", style="dim")
            if p.truncated:
                t.append(" " + _("CUT to %(n)s") % {"n": f"{p.chars_injected:,}"}, style="bold red")
            elif not p.loaded:
                t.append(f"  {clean_line(reason_text(p.reason))}", style="dim italic")
        t.append("\n")
    total = sum(p.chars_injected for p in parts if p.kind == "bootstrap")
    label = _("total injected")
    t.append(label + " " * max(1, namew + 1 - cell_len(label)), style="bold")
    t.append_text(bar(total, limits.bootstrap_total_max_chars, size))
    t.append(f" {total:>7,} / {limits.bootstrap_total_max_chars:,}", style="dim")
    return t


def preview_text(part: InjectedPart, context_lines: int = 3) -> Text:
    """The injected copy around the cut (a few lines each side, marker in reverse), or its start."""
    t = Text()
    t.append(f"{clean_line(part.name)}: {clean_line(reason_text(part.reason))}", style="bold")
    t.append("  " + _("(n: next file)") + "\n", style="dim")
    if not part.loaded:
        return t
    if part.marker_at is None:
        lines = part.text.split("\n")
        t.append(clean("\n".join(lines[:40])))
        if len(lines) > 40:
            t.append("\n" + _("… %(n)s more lines") % {"n": len(lines) - 40}, style="dim")
        return t
    head = part.text[: part.marker_at]
    rest = part.text[part.marker_at:]
    end = rest.find("…(truncated")
    end = rest.find("\n", end) + 1 if end >= 0 else len(rest)
    marker, tail = rest[:end], rest[end:]
    # the kept head and tail as the marker line counts them (UTF-16 units of the file), else as drawn
    kept = part.kept[0][1] - part.kept[0][0] if part.kept else len(head)
    after = part.kept[-1][1] - part.kept[-1][0] if len(part.kept) > 1 else None
    t.append(_("… %(n)s characters kept before the cut, ending:") % {"n": f"{kept:,}"} + "\n", style="dim")
    t.append(clean("\n".join(head.split("\n")[-context_lines:])))
    t.append(clean(marker), style="reverse bold red")
    t.append(clean("\n".join(tail.split("\n")[: context_lines * 2])))
    if after is None:
        after = len(tail.encode("utf-16-le", "surrogatepass")) // 2
    t.append("\n" + _("… %(n)s characters kept after the cut") % {"n": f"{after:,}"}, style="dim")
    return t


class BootstrapBars(Static):
    """The size-vs-limit bars of the bootstrap files."""

    DEFAULT_CSS = "BootstrapBars { height: auto; padding: 0 1; }"

    def show(self, parts: Sequence[InjectedPart], limits: Limits, source: str, session: str,
             release: str = CURRENT_RELEASE) -> None:
        width = self.app.size.width if self.is_attached else 160
        self.update(bars_text(parts, limits, source, session, width, release))
