"""The app's dialogs, once: confirm a write (its summary and diff), ask a question, type a name or an id."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static

from ...core.check.masking import mask_all
from ...core.i18n import _
from ...core.lifecycle.plan import Plan
from ...core.lifecycle.plan_summary import describe_plan
from ..actions import bindings
from .diff_view import DiffView
from .footer import KeysFooter
from .plan_text import plan_line, plan_title
from .safe_text import clean_line

MAX_SUMMARY = 10
DIALOG_CSS = str(Path(__file__).resolve().parent.parent / "screens" / "edit" / "edit_dialogs.tcss")  # for subclasses too


class ConfirmWrite(ModalScreen[bool]):
    """What a plan will write, then yes or no."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = bindings("confirm")

    def __init__(self, plan: Plan, root: Path | None = None, *, notes: Sequence[str] = (),
                 secrets: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__()
        self.plan = plan
        self.root = root
        self.notes = list(notes)
        self.secrets = list(secrets)  # (value, kind) masked wherever they appear in the diff

    @property
    def diff(self) -> str:
        text = self.plan.diff(self.root)
        return mask_all(text, self.secrets) if self.secrets else text

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-write", classes="dialog wide"):
            yield Static(Text(clean_line(plan_title(self.plan.title)), style="bold"), classes="dialog-title")
            lines = Text()
            items = [*self.notes, *(plan_line(line) for line in describe_plan(self.plan, self.root))]
            if len(items) > MAX_SUMMARY:
                items = [*items[: MAX_SUMMARY - 1], _("… and %(n)s more (see the diff)") % {"n": len(items) - MAX_SUMMARY + 1}]
            for line in items:
                lines.append("• ", style="dim")
                lines.append(clean_line(mask_all(line, self.secrets) if self.secrets else line))
                lines.append("\n")
            lines.rstrip()
            yield Static(lines, id="confirm-summary")
            yield DiffView(self.diff, id="confirm-diff")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("%(label)s (y)") % {"label": _("Write")}, variant="primary", id="confirm-yes",
                             action="screen.answer(True)")
                yield Button(_("Cancel (n)"), id="confirm-no", action="screen.answer(False)")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#confirm-diff", DiffView).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class Ask(ModalScreen[str | None]):
    """A question with a few answers, each on a key and a button; Escape answers None.

    ``answers``: ``(key, label, value)`` or ``(key, label, value, variant)``; the first
    "primary"/"success" answer has the focus (the first answer when none is marked).
    """

    CSS_PATH = DIALOG_CSS
    BINDINGS = bindings("ask")

    def __init__(self, title: str, message: str, answers: Sequence[tuple[str, ...]]) -> None:
        super().__init__()
        self.heading = title
        self.message = message
        marked = any(len(a) > 3 and a[3] in ("primary", "success") for a in answers)
        self.answers: list[tuple[str, str, str, str]] = [
            (a[0], a[1], a[2], a[3] if len(a) > 3 else ("primary" if i == 0 and not marked else "default"))
            for i, a in enumerate(answers)
        ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(clean_line(self.heading), style="bold"), classes="dialog-title")
            if self.message:
                yield Static(Text(self.message), classes="dialog-message")
            with Horizontal(classes="dialog-buttons"):
                for i, (key, label, value, variant) in enumerate(self.answers):
                    yield Button(Text(f"{label} ({key})"), id=f"ask-{i}", variant=variant,  # type: ignore[arg-type]
                                 name=value, action=f"screen.answer({value!r})")
        yield KeysFooter()

    def on_mount(self) -> None:
        first = next((i for i, a in enumerate(self.answers) if a[3] in ("primary", "success")), 0)
        self.query_one(f"#ask-{first}", Button).focus()

    def on_key(self, event: events.Key) -> None:
        for k, _label, value, _variant in self.answers:
            if event.key == k or event.character == k:
                event.stop()
                event.prevent_default()
                self.dismiss(value)
                return

    def action_answer(self, value: str | None) -> None:
        self.dismiss(value)


def close_or_ask(screen: Screen[Any], unsaved: bool, title: str, message: str, keep: str | None = None) -> None:
    """Close an editing screen (``dismiss(False)``), asking first whether to discard its unsaved text."""
    if not unsaved:
        screen.dismiss(False)
        return

    def answered(answer: str | None) -> None:
        if answer == "discard":
            screen.dismiss(False)

    screen.app.push_screen(Ask(title, message, [("k", keep or _("Keep editing"), "keep"), ("d", _("Discard"), "discard")]),
                           answered)


class AskText(ModalScreen[str | None]):
    """Read one line (Enter); ``check`` returns why a value is refused (None: accepted); Escape cancels."""

    CSS_PATH = DIALOG_CSS
    BINDINGS = bindings("ask-text")

    def __init__(self, title: str, message: str, *, placeholder: str = "",
                 check: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.heading = title
        self.message = message
        self.placeholder = placeholder
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(clean_line(self.heading), style="bold"), classes="dialog-title")
            if self.message:
                yield Static(Text(self.message), classes="dialog-message")
            yield Input(placeholder=self.placeholder, id="ask-text-input")
            yield Static("", id="ask-text-error", classes="field-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#ask-text-input", Input).focus()

    @on(Input.Submitted, "#ask-text-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        problem = self.check(value) if self.check is not None else (None if value else _("Type something first."))
        if problem:
            self.query_one("#ask-text-error", Static).update(Text(problem))
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AskId(AskText):
    """Read one entry id (one of ``known`` when given)."""

    def __init__(self, title: str, message: str, *, known: Sequence[str] = ()) -> None:
        self.known = list(known)
        super().__init__(title, message, placeholder="mem-0000", check=self._check_id)

    def _check_id(self, ident: str) -> str | None:
        if not ident or any(c.isspace() for c in ident):
            return _("Type one entry id, e.g. mem-0012.")
        if self.known and ident not in self.known:
            return _("%(id)s is not one of the ids here.") % {"id": clean_line(ident)}
        return None
