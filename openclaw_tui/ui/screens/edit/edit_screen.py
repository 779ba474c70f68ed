"""Edit one entry: its fields in a form (or as raw YAML) and its body, or in ``$EDITOR``.

Values are checked as typed; an invalid one blocks the save unless it was already so and is left
untouched.  ``ctrl+s`` previews the diff and writes only this entry's lines.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult, SuspendNotSupported
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import ContentSwitcher, Input, Label, Select, SelectionList, Static, TextArea

from ....core.files.external_editor import EditorSession, NoEditor, editor_command, editor_from
from ....core.format.blocks import edit_raw
from ....core.format.edit import DELETE, EditError, normalise_newlines
from ....core.format.entries import Entry, parse
from ....core.format.fields import IMPORTANCE, STATUSES, field_error
from ....core.format.yamlio import render_scalar
from ....core.i18n import N_, _
from ....core.lifecycle.operations import plan_set
from ....core.lifecycle.plan import Files, Plan
from ....core.lifecycle.rawedit import (
    EntryParts,
    form_changes,
    format_list,
    id_value,
    normalize_raw,
    parse_list,
    plan_replace,
    raw_problems,
)
from ...actions import bindings
from ...session import EntryTarget
from ...widgets.dialogs import Ask, close_or_ask
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line

TEXT_FIELDS: dict[str, str] = {
    "timestamp": N_("date-time with offset, e.g. 2025-06-01T14:32:00+08:00"),
    "source": N_("where it came from, e.g. chat#3412"),
    "ttl": N_("none · date, e.g. 2026-12-31"),
    "last_hit": N_("none · date, e.g. 2026-11-28"),
    "archived_at": N_("none · date-time, e.g. 2026-11-30T10:00:00+08:00"),
}
SELECT_FIELDS: dict[str, tuple[str, ...]] = {"importance": IMPORTANCE, "status": STATUSES}
ID_FIELDS: dict[str, str] = {
    "conflict": N_("none · id(s), e.g. mem-0007"),
    "superseded_by": N_("none · id, e.g. mem-0013"),
    "merged_from": N_("none · ids, e.g. mem-0002, mem-0006"),
}
FORM_ORDER = ("timestamp", "source", "importance", "status", "tags", "ttl", "last_hit", "conflict",
              "superseded_by", "merged_from", "archived_at")


def syntax(language: str) -> str | None:
    """``language`` when tree-sitter can highlight it, else None (plain text)."""
    try:
        ok = importlib.util.find_spec("tree_sitter") is not None and (
            importlib.util.find_spec(f"tree_sitter_{language}") is not None
        )
    except (ImportError, ValueError):
        ok = False
    return language if ok else None


class WriteHost(Protocol):
    """What an editing screen needs from the screen that opened it (``EntryOperations``)."""

    def load_files(self) -> Files: ...

    def edit_now(self) -> Any: ...

    def confirm_write(self, plan: Plan, *, done: str, notes: Sequence[str] = (),
                      on_written: Callable[[Plan], object] | None = None,
                      secrets: Sequence[tuple[str, str]] = ()) -> None: ...


class TickScreen(ModalScreen[bool]):
    """A dialog of ``items`` to tick in the ``SelectionList`` ``#{LIST}``; dismissed with True once written."""

    CSS_PATH = "edit_dialogs.tcss"
    LIST = ""
    items: list[Any]

    def on_mount(self) -> None:
        self.query_one(f"#{self.LIST}", SelectionList).focus()

    @property
    def chosen(self) -> list[Any]:
        picked = set(self.query_one(f"#{self.LIST}", SelectionList).selected)
        return [item for i, item in enumerate(self.items) if i in picked]

    def action_all(self) -> None:
        self.query_one(f"#{self.LIST}", SelectionList).select_all()

    def action_none(self) -> None:
        self.query_one(f"#{self.LIST}", SelectionList).deselect_all()

    def action_close(self) -> None:
        self.dismiss(False)


# --- the external editor ------------------------------------------------------------------


def run_editor(app: App[Any], text: str, line: int | None = None) -> tuple[int, str]:
    """Edit ``text`` in $VISUAL/$EDITOR (the app suspended where it can be); returns (exit status,
    edited text). Raises NoEditor."""
    session = EditorSession(text, line)
    argv = session.prepare()
    try:
        return _suspended(app, session, argv), session.result()
    finally:
        session.cleanup()


def _suspended(app: App[Any], session: EditorSession, argv: list[str]) -> int:
    """Run the editor with the app suspended, or as it is where it cannot be (headless, Textual web)."""
    try:
        with app.suspend():
            return session.run(argv)
    except SuspendNotSupported:
        return session.run(argv)


def run_file_editor(app: App[Any], path: Path, line: int | None = None) -> int:
    """Edit the file ``path`` itself in $VISUAL/$EDITOR (the merge screen's conflicted files); returns the
    editor's exit status. Raises NoEditor when neither is set: there is no silent fallback."""
    editor = editor_from()
    if editor is None:
        raise NoEditor(_("set $VISUAL or $EDITOR to edit in your own editor"))
    return _suspended(app, EditorSession(""), editor_command(editor, path, line))


def edit_loop(
    screen: Any,  # a Screen, or a piece of one that notifies and reaches the app (EntryOperations' host)
    text: str,
    line: int | None,
    problems: Callable[[str], list[str]],
    on_valid: Callable[[str], None],
) -> None:
    """Run the editor on ``text``; a valid result goes to ``on_valid``, an invalid one offers re-edit or discard."""
    try:
        code, edited = run_editor(screen.app, text, line)
    except NoEditor as exc:
        screen.notify(_(str(exc)), title=_("No editor"), severity="warning", markup=False)
        return
    if code != 0:
        screen.notify(_("The editor exited with status %(code)s; nothing was changed.") % {"code": code}, severity="warning")
        return
    if edited == text:
        screen.notify(_("The editor made no change."))
        return
    found = problems(edited)
    if not found:
        on_valid(edited)
        return

    def answered(answer: str | None) -> None:
        if answer == "reedit":
            edit_loop(screen, edited, line, problems, on_valid)
        else:
            screen.notify(_("The edit from the editor was discarded."))

    message = "\n".join(f"• {clean_line(p)}" for p in found)
    screen.app.push_screen(
        Ask(_("The edited entry cannot be saved"), message + "\n\n" + _("Re-edit it, or discard the edit?"),
            [("r", _("Re-edit"), "reedit"), ("d", _("Discard"), "discard")]),
        answered,
    )


# --- the screen -----------------------------------------------------------------------------


def tag_chips(tags: Sequence[str]) -> Text:
    text = Text()
    for tag in tags:
        text.append(f" {clean_line(tag)} ", style="reverse")
        text.append(" ")
    return text


def _select_options(name: str, value: Any) -> list[tuple[str, Any]]:
    """A select field's choices, and ``value`` marked invalid when it is set and not one of them."""
    options = [(v, v) for v in SELECT_FIELDS[name]]
    if value is not Select.NULL and value not in SELECT_FIELDS[name]:
        options.append((_("%(value)s (invalid)") % {"value": value}, value))
    return options


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return format_list(value)
    if isinstance(value, str):
        return value
    return "" if value is None else render_scalar(value)


class EditScreen(Screen[bool]):
    """Edit one entry's fields and body; dismissed with True once written."""

    CSS_PATH = ["edit_dialogs.tcss", "edit_screen.tcss"]

    BINDINGS = bindings("edit")

    def __init__(self, host: WriteHost, target: EntryTarget, *, taken_ids: set[str] | None = None,
                 body: str | None = None) -> None:
        super().__init__()
        self.host = host
        self.target = target
        self.original = target.entry
        self.parts = EntryParts.of(target.entry)
        self.base = self.parts  # the raw the form edits (YAML mode can replace it)
        self.taken_ids = taken_ids or set()
        self.initial_body = body  # a body to start from (for "update the existing entry instead")
        self.malformed = target.entry.error is not None
        self.mode = "yaml" if self.malformed else "form"

    # --- layout -------------------------------------------------------------------------

    @property
    def entry_label(self) -> str:
        e = self.original
        return _("%(id)s · %(file)s line %(line)s") % {"id": e.id or _("malformed block"), "file": self.target.rel,
                                                      "line": e.line}

    def compose(self) -> ComposeResult:
        e = self.original
        with Vertical(id="edit-screen"):
            yield Static(Text(_("Edit %(entry)s") % {"entry": clean_line(self.entry_label)}, style="bold"),
                         classes="screen-title")
            if self.malformed:
                yield Static(Text(_("This block is broken: %(why)s. Fix its YAML below.") % {"why": clean_line(e.error or "")},
                                  style="bold red"), classes="screen-note")
            with Horizontal(id="edit-columns"):
                with Vertical(id="edit-meta"):
                    with ContentSwitcher(initial="edit-form" if self.mode == "form" else "edit-yaml",
                                         id="edit-meta-switch"):
                        with VerticalScroll(id="edit-form"):
                            yield from self._form_rows(e.meta if not self.malformed else {})
                        with Vertical(id="edit-yaml"):
                            yield Label(_("Frontmatter (YAML)"), classes="field-label")
                            yield TextArea(self.parts.frontmatter, language=syntax("yaml"), id="edit-yaml-text",
                                           show_line_numbers=True, soft_wrap=False)
                            yield Static("", id="edit-yaml-error", classes="field-error")
                with Vertical(id="edit-body-pane"):
                    yield Label(_("Body (Markdown)"), classes="field-label")
                    yield TextArea(self.parts.body if self.initial_body is None else self.initial_body,
                                   language=syntax("markdown"), id="edit-body", soft_wrap=True)
            yield Static("", id="edit-problems", classes="field-error")
        yield KeysFooter()

    def _form_rows(self, meta: dict[str, Any]) -> ComposeResult:
        e = self.original
        yield Static(Text.assemble(("id  ", "bold"), (clean_line(e.id or ""), "bold")), id="edit-id")
        for name in FORM_ORDER:
            if name == "archived_at" and name not in meta and self.target.file != "archive":
                continue
            yield Label(name, classes="field-label")
            value = meta.get(name)
            if name in SELECT_FIELDS:
                initial: Any = _shown(value) if name in meta else Select.NULL
                yield Select(_select_options(name, initial), value=initial, allow_blank=True, prompt=_("(not set)"),
                             id=f"f-{name}", compact=True)
            else:
                placeholder = _(TEXT_FIELDS.get(name) or ID_FIELDS.get(name) or N_("none · comma-separated, e.g. 咖啡, health"))
                yield Input(_shown(value) if name in meta else "", placeholder=placeholder, id=f"f-{name}",
                            compact=True)
                if name == "tags":
                    yield Static("", id="tag-chips")
            yield Static("", id=f"err-{name}", classes="field-error")
        yield Static(self._others(meta), id="edit-others")

    @staticmethod
    def _others(meta: dict[str, Any]) -> Text:
        others = [k for k in meta if k not in FORM_ORDER and k != "id"]
        if not others:
            return Text(_("Other fields: none (ctrl+t edits the YAML)"), style="dim italic")
        return Text(_("Also kept as they are: %(fields)s (ctrl+t edits them as YAML)")
                    % {"fields": ", ".join(clean_line(k) for k in others)}, style="dim italic")

    def on_mount(self) -> None:
        first = "#edit-yaml-text" if self.malformed else "#edit-body"
        self.query_one(first, TextArea).focus()
        self._refresh_form_errors()
        self._update_chips()

    # --- reading the form -----------------------------------------------------------------

    def _widget_value(self, name: str) -> tuple[bool, Any]:
        """(present in the form, value or DELETE) of one form field."""
        widgets = self.query(f"#f-{name}")
        if not widgets:
            return False, None
        w = widgets.first()
        old = self.base_meta.get(name)
        if isinstance(w, Select):
            v = w.value
            return True, DELETE if v == Select.NULL else v
        assert isinstance(w, Input)
        text = w.value.strip()
        if name in self.base_meta and _shown(old) == w.value:
            return True, old  # untouched: keep the value and its type
        if not text:
            return True, DELETE
        if name == "tags":
            tags = parse_list(text)
            return True, tags if tags else DELETE
        if name in ID_FIELDS:
            if name == "merged_from":
                ids = parse_list(text)
                return True, ids if ids else DELETE
            return True, id_value(text, isinstance(old, list))
        return True, text

    @property
    def base_id(self) -> str:
        mf = parse(self.base.raw)
        return (mf.entries[0].id if mf.entries else None) or self.original.id or ""

    @property
    def base_meta(self) -> dict[str, Any]:
        mf = parse(self.base.raw)
        return mf.entries[0].meta if mf.entries and mf.entries[0].error is None else {}

    def form_values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in FORM_ORDER:
            present, value = self._widget_value(name)
            if present:
                out[name] = value
        return out

    def field_message(self, name: str, value: Any) -> tuple[str, str] | None:
        """(severity, message) for a form value: "error" blocks the save, "warning" does not."""
        if value is DELETE:
            return None
        error = field_error(name, value)
        if error is None:
            return None
        old = self.original.meta if not self.malformed else {}
        if name in old and old[name] == value:
            return "warning", _("%(error)s (already so; kept unless you change it)") % {"error": error}
        return "error", error

    def _refresh_form_errors(self) -> None:
        if self.malformed:
            return
        for name, value in self.form_values().items():
            found = self.field_message(name, value)
            err = self.query_one(f"#err-{name}", Static)
            if found is None:
                err.update("")
                err.display = False
            else:
                severity, message = found
                err.update(Text(clean_line(message), style="bold red" if severity == "error" else "yellow"))
                err.display = True

    def _update_chips(self) -> None:
        chips = self.query("#tag-chips")
        if chips:
            chips.first(Static).update(tag_chips(parse_list(self.query_one("#f-tags", Input).value)))

    # --- composing the new raw text ---------------------------------------------------------

    def body_text(self) -> str:
        return self.query_one("#edit-body", TextArea).text

    def yaml_text(self) -> str:
        return self.query_one("#edit-yaml-text", TextArea).text

    def form_edit(self) -> tuple[dict[str, Any], str | None, list[str]]:
        """What the form asks of ``set``: (the fields that change, the new body or None, what blocks it)."""
        values = self.form_values()
        found = [self.field_message(n, v) for n, v in values.items()]
        errors = [message for severity, message in filter(None, found) if severity == "error"]
        body = normalise_newlines(self.body_text(), self.parts.newline).rstrip("\r\n")
        return form_changes(self.base_meta, values), None if body == self.base.body else body, errors

    def compose_raw(self) -> tuple[str | None, list[str]]:
        """(the entry's new raw text, or None; what is wrong with it)."""
        if self.mode == "yaml":
            raw = self.base.compose(frontmatter=self.yaml_text(), body=self.body_text())
        else:
            changes, body, errors = self.form_edit()
            if errors:
                return None, errors
            try:  # the text ``set`` writes for the same change
                raw = edit_raw(self.base.raw, self.base_id, changes, body)
            except EditError as exc:
                return None, [str(exc)]
        raw = normalize_raw(raw, self.parts.raw)
        return raw, raw_problems(raw, self.original, self.taken_ids)

    def has_unsaved_changes(self) -> bool:
        try:
            raw, _problems = self.compose_raw()
        except Exception:  # noqa: BLE001 - anything unreadable counts as a change
            return True
        return raw != self.parts.raw

    # --- events ---------------------------------------------------------------------------

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "f-tags":
            self._update_chips()
        self._refresh_form_errors()
        self._clear_problems()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        self._refresh_form_errors()
        self._clear_problems()

    @on(TextArea.Changed, "#edit-yaml-text")
    def _yaml_changed(self, event: TextArea.Changed) -> None:
        raw = self.base.compose(frontmatter=self.yaml_text())
        problems = raw_problems(normalize_raw(raw, self.parts.raw), self.original, self.taken_ids)
        err = self.query_one("#edit-yaml-error", Static)
        err.update(Text("\n".join(clean_line(p) for p in problems), style="bold red") if problems else "")

    def _clear_problems(self) -> None:
        self.query_one("#edit-problems", Static).update("")

    def _show_problems(self, problems: Sequence[str]) -> None:
        self.query_one("#edit-problems", Static).update(
            Text(_("Cannot save: ") + "; ".join(clean_line(p) for p in problems), style="bold red"))

    # --- actions --------------------------------------------------------------------------

    def action_toggle_mode(self) -> None:
        if self.malformed:
            self.notify(_("A broken block can only be edited as YAML until it reads as an entry."))
            return
        switch = self.query_one("#edit-meta-switch", ContentSwitcher)
        if self.mode == "form":
            raw, problems = self.compose_raw()
            if raw is None:
                self._show_problems(problems)
                self.notify(_("Fix the fields first."), severity="warning")
                return
            parts = self.base.with_raw(raw)
            self.query_one("#edit-yaml-text", TextArea).text = parts.frontmatter
            self.mode = "yaml"
            switch.current = "edit-yaml"
            self.query_one("#edit-yaml-text", TextArea).focus()
        else:
            raw = normalize_raw(self.base.compose(frontmatter=self.yaml_text()), self.parts.raw)
            mf = parse(raw)
            if len(mf.entries) != 1 or mf.entries[0].error is not None:
                self._show_problems(raw_problems(raw, self.original, self.taken_ids))
                self.notify(_("The YAML does not read as an entry yet."), severity="warning")
                return
            self.base = self.base.with_raw(raw)
            self._fill_form(mf.entries[0].meta)
            self.mode = "form"
            switch.current = "edit-form"
            self.query_one("#f-timestamp", Input).focus()
        self._clear_problems()

    def _fill_form(self, meta: dict[str, Any]) -> None:
        for name in FORM_ORDER:
            widgets = self.query(f"#f-{name}")
            if not widgets:
                continue
            w = widgets.first()
            if isinstance(w, Select):
                value = _shown(meta[name]) if name in meta else Select.NULL
                if value is not Select.NULL and value not in SELECT_FIELDS[name]:
                    w.set_options(_select_options(name, value))
                w.value = value
            elif isinstance(w, Input):
                w.value = _shown(meta[name]) if name in meta else ""
        self.query_one("#edit-others", Static).update(self._others(meta))
        self._refresh_form_errors()
        self._update_chips()

    def action_save(self) -> None:
        raw, problems = self.compose_raw()
        if raw is None or problems:
            self._show_problems(problems)
            self.notify(_("Not saved: ") + "; ".join(problems), severity="error", markup=False)
            return
        if raw == self.parts.raw:
            self.notify(_("Nothing to save: the entry is unchanged."))
            return
        try:
            files = self.host.load_files()
            ident = self.original.id
            found = files.find(ident) if ident and self.mode == "form" and self.base.raw == self.parts.raw else None
            if ident and found is not None and found[0].mf.entries[found[1]].raw == self.parts.raw:
                changes, body, _errors = self.form_edit()  # the form alone: the very edit of ``set``
                plan = plan_set(files, ident, changes, body, expect=self.parts.raw)
            else:  # edited as YAML, or a duplicate id ``set`` would not find: replace the block as written
                plan = plan_replace(files, self.target.file, self.parts.raw, raw,
                                    entry_id=self.original.id if not self.malformed else None, line=self.original.line)
        except (EditError, OSError) as exc:
            hint = ""
            if isinstance(exc, EditError) and self._changed_on_disk(raw):
                hint = " " + _("(ctrl+o: compare yours with the version on disk)")
            self._show_problems([f"{exc}{hint}"])
            self.notify(_("Not saved: %(why)s") % {"why": f"{exc}{hint}"}, severity="error", markup=False)
            return
        new_id = parse(raw).entries[0].id or ""
        notes = []
        if self.original.id and new_id != self.original.id:
            notes.append(_("the id changes from %(old)s to %(new)s: references to %(old)s elsewhere are not renamed")
                         % {"old": self.original.id, "new": new_id})
        self.host.confirm_write(plan, done=_("Saved %(id)s (%(file)s).") % {"id": new_id, "file": self.target.rel}, notes=notes,
                                on_written=lambda _plan: self.dismiss(True))

    def _changed_on_disk(self, mine: str) -> bool:
        """Whether the entry changed on disk since it was opened (then ctrl+o compares the two)."""
        self._disk_conflict: tuple[str, Entry] | None = None
        ident = self.original.id
        if ident is None or self.malformed:
            return False
        try:
            files = self.host.load_files()
        except OSError:
            return False
        doc = files.archive if self.target.file == "archive" else files.memories
        disk = doc.mf.get(ident) if doc is not None else None
        if disk is None or disk.error is not None or disk.raw == self.original.raw:
            return False
        self._disk_conflict = (mine, disk)
        return True

    def action_compare_disk(self) -> None:
        """Yours / on disk side by side: keep mine, take disk or edit merged."""
        found = getattr(self, "_disk_conflict", None)
        if found is None:
            self.notify(_("Nothing to compare: save first (ctrl+s)."))
            return
        mine, disk = found
        ident = disk.id
        from .save_conflict_screen import SaveConflictScreen

        def answered(choice: str | None) -> None:
            if choice == "mine":  # yours replaces the disk's version of this entry only
                try:
                    plan = plan_replace(self.host.load_files(), self.target.file, disk.raw, mine,
                                        entry_id=ident, line=disk.line)
                except (EditError, OSError) as exc:
                    self.notify(_("Not saved: %(why)s") % {"why": exc}, severity="error", markup=False)
                    return
                self.host.confirm_write(plan, done=_("Saved %(id)s over the version on disk (%(file)s).")
                                        % {"id": ident, "file": self.target.rel},
                                        on_written=lambda _plan: self.dismiss(True))
            elif choice == "disk":
                self.app.copy_to_clipboard(mine)
                self.notify(_("Kept %(id)s as it is on disk; your version is in the clipboard.") % {"id": ident}, markup=False)
                self.dismiss(False)
            elif choice == "merge":  # keep your values, now saved against the disk's version
                self.original = disk
                self.parts = self.base = EntryParts.of(disk)
                self._disk_conflict = None
                self._clear_problems()
                self.notify(_("Editing %(id)s against its version on disk: merge, then save.") % {"id": ident}, markup=False)

        self.app.push_screen(SaveConflictScreen(self.entry_label, mine, disk.raw), answered)

    def _editor_line(self) -> int:
        """Line of the temporary file to open the editor at: the focused field's, or the body's."""
        head = self.parts.opening + self.base.frontmatter + self.parts.closing
        if self.focused is self.query_one("#edit-body", TextArea):
            row = self.query_one("#edit-body", TextArea).cursor_location[0]
            return head.count("\n") + 1 + row
        focused = self.focused
        if focused is not None and focused.id and focused.id.startswith("f-"):
            name = focused.id[2:]
            for i, line in enumerate(head.split("\n")):
                if line.startswith(f"{name}:"):
                    return i + 1
        return 2

    def action_external(self) -> None:
        raw, _problems = self.compose_raw()
        if raw is None:
            raw = self.base.compose(frontmatter=self.yaml_text() if self.mode == "yaml" else None,
                                    body=self.body_text())
        text = raw[: len(raw.rstrip("\r\n"))] + self.parts.newline

        def problems(edited: str) -> list[str]:
            return raw_problems(normalize_raw(edited, self.parts.raw), self.original, self.taken_ids)

        edit_loop(self, text, self._editor_line(), problems, self._load_edited)

    def _load_edited(self, edited: str) -> None:
        """Show a valid text from the editor in the YAML view, ready to save."""
        parts = self.parts.with_raw(normalize_raw(edited, self.parts.raw))
        self.base = self.parts
        self.query_one("#edit-yaml-text", TextArea).text = parts.frontmatter
        self.query_one("#edit-body", TextArea).text = parts.body
        if self.mode != "yaml":
            self.mode = "yaml"
            self.query_one("#edit-meta-switch", ContentSwitcher).current = "edit-yaml"
        self.notify(_("Loaded the entry from your editor: check it, then ctrl+s to save."))

    def action_close(self) -> None:
        close_or_ask(self, self.has_unsaved_changes(), _("Discard the changes?"),
                     _("The edit of %(id)s is not saved.") % {"id": self.original.id or _("this block")})
