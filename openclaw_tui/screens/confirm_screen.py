"""Small dialogs of the editing screens: confirm a write (with its diff), ask, type an id.

``ConfirmWrite`` shows what a plan does in words (which entry moves where)
and the exact unified diff of the file bytes; ``y`` writes, ``n``/Escape
does not.  ``Ask`` offers a few answers on keys; ``AskId`` reads one entry id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Static

from ..core.check.masking import mask_all
from ..core.lifecycle.plan import Plan
from ..core.lifecycle.plan_summary import describe_plan, plan_diff
from ..widgets.diff_view import DiffView
from ..widgets.safe_text import clean_line

MAX_SUMMARY = 10


class ConfirmWrite(ModalScreen[bool]):
    """What a plan will write, then yes or no."""

    CSS_PATH = "edit_dialogs.tcss"

    BINDINGS = [
        Binding("y", "answer(True)", "Write", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "Cancel", id="confirm.no"),
    ]

    def __init__(
        self,
        plan: Plan,
        root: Path | None = None,
        *,
        title: str | None = None,
        notes: Sequence[str] = (),
        secrets: Iterable[tuple[str, str]] = (),
        yes: str = "Write",
    ) -> None:
        super().__init__()
        self.plan = plan
        self.root = root
        self.heading = title or plan.title
        self.notes = list(notes)
        self.secrets = list(secrets)  # (value, kind) masked wherever they appear in the diff
        self.yes = yes

    @property
    def diff(self) -> str:
        text = plan_diff(self.plan, self.root)
        return mask_all(text, self.secrets) if self.secrets else text

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-write", classes="dialog wide"):
            yield Static(Text(clean_line(self.heading), style="bold"), classes="dialog-title")
            lines = Text()
            items = [*self.notes, *describe_plan(self.plan, self.root)]
            if len(items) > MAX_SUMMARY:
                items = [*items[: MAX_SUMMARY - 1], f"… and {len(items) - MAX_SUMMARY + 1} more (see the diff)"]
            for line in items:
                lines.append("• ", style="dim")
                lines.append(clean_line(mask_all(line, self.secrets) if self.secrets else line))
                lines.append("\n")
            lines.rstrip()
            yield Static(lines, id="confirm-summary")
            yield DiffView(self.diff, id="confirm-diff")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="primary", id="confirm-yes")
                yield Button("Cancel (n)", id="confirm-no")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#confirm-diff", DiffView).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")


class Ask(ModalScreen[str | None]):
    """A question with a few answers, each on a key; Escape answers None."""

    CSS_PATH = "edit_dialogs.tcss"

    BINDINGS = [Binding("escape", "answer(None)", "Close", id="ask.close")]

    def __init__(self, title: str, message: str, answers: Sequence[tuple[str, str, str]]) -> None:
        """``answers``: (key, label, value); the first is focused."""
        super().__init__()
        self.heading = title
        self.message = message
        self.answers = list(answers)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(clean_line(self.heading), style="bold"), classes="dialog-title")
            yield Static(Text(self.message), classes="dialog-message")
            with Horizontal(classes="dialog-buttons"):
                for i, (key, label, value) in enumerate(self.answers):
                    yield Button(f"{label} ({key})", id=f"ask-{i}", variant="primary" if i == 0 else "default",
                                 name=value)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ask-0", Button).focus()

    def on_key(self, event: events.Key) -> None:
        for k, _label, value in self.answers:
            if event.key == k:
                event.stop()
                self.dismiss(value)
                return

    def action_answer(self, value: str | None) -> None:
        self.dismiss(value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.name)


class AskId(ModalScreen[str | None]):
    """Read one entry id (Enter), Escape cancels."""

    CSS_PATH = "edit_dialogs.tcss"

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="ask-id.cancel")]

    def __init__(self, title: str, message: str, *, value: str = "", placeholder: str = "mem-0000",
                 known: Sequence[str] = ()) -> None:
        super().__init__()
        self.heading = title
        self.message = message
        self.value = value
        self.placeholder = placeholder
        self.known = list(known)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(clean_line(self.heading), style="bold"), classes="dialog-title")
            yield Static(Text(self.message), classes="dialog-message")
            yield Input(self.value, placeholder=self.placeholder, id="ask-id-input")
            yield Static("", id="ask-id-error", classes="field-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#ask-id-input", Input).focus()

    @on(Input.Submitted, "#ask-id-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        ident = event.value.strip()
        if not ident or any(c.isspace() for c in ident):
            self.query_one("#ask-id-error", Static).update(Text("Type one entry id, e.g. mem-0012."))
            return
        if self.known and ident not in self.known:
            self.query_one("#ask-id-error", Static).update(Text(f"{clean_line(ident)} is not one of the ids here."))
            return
        self.dismiss(ident)

    def action_cancel(self) -> None:
        self.dismiss(None)
