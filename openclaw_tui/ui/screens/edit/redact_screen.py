"""Redaction: replace the ticked secrets by ``{{secret:KIND-N}}`` placeholders, in one undoable write.

Secrets are only ever shown masked (``138****5678``), the preview diff included; ``secrets_refs.yaml``
records each one's placeholder, kind, entry and SHA-256, never the value.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from ....core.check.masking import mask_all, mask_secret
from ....core.check.redact import RedactError, Redaction, plan_redaction, redaction_plan
from ....core.check.secrets import KIND_LABEL
from ....core.files.profile import ARCHIVE_REL, Profile, load_profile
from ....core.i18n import _, ngettext
from ....core.lifecycle.plan import Plan, now_iso
from ...actions import bindings
from ...widgets.footer import KeysFooter
from ...widgets.safe_text import clean_line
from .edit_screen import TickScreen, WriteHost


def _texts(profile: Profile) -> dict[str, str]:
    out: dict[str, str] = {}
    if profile.memories is not None:
        out["memories.md"] = profile.memories.mf.text
    if profile.archive is not None:
        out[ARCHIVE_REL] = profile.archive.mf.text
    for f in profile.text_files():
        if f.error is None and f.rel not in out:
            out[f.rel] = f.text
    return out


def masked_line(text: str, red: Redaction, secrets: Sequence[tuple[str, str]]) -> str:
    """The line holding ``red`` with every secret in it masked."""
    start = text.rfind("\n", 0, red.start) + 1
    end = text.find("\n", red.end)
    line = text[start : end if end >= 0 else len(text)]
    return mask_all(line, secrets).strip()


def redaction_prompt(red: Redaction, line: str) -> Text:
    t = Text(no_wrap=True, overflow="ellipsis")
    where = f"{red.file}:{red.line}"
    t.append(f"{clean_line(where):<34}", style="underline")
    t.append(f"{clean_line(red.entry or '—'):<10}", style="bold")
    t.append(f"{KIND_LABEL.get(red.kind, red.kind):<20}", style="yellow")
    t.append(mask_secret(red.value, red.kind), style="bold red")
    t.append(" → ")
    t.append(red.placeholder, style="green")
    if line:
        t.append(f"   {clean_line(line)[:80]}", style="dim")
    return t


def _key(r: Redaction) -> tuple[str, str | None, str, str, int]:
    return (r.file, r.entry, r.kind, r.sha256, r.line)


def chosen_plan(profile: Profile, chosen: Sequence[Redaction], when: str | None = None) -> Plan:
    """The plan that redacts ``chosen``; rebuilt on the files as they are if they changed meanwhile."""
    keys = {_key(r) for r in chosen}
    when = when or now_iso()
    plan = redaction_plan(profile, chosen, when)

    def rebuild() -> Plan:
        fresh = load_profile(profile.path, profile.rel, profile.layout)
        again = [r for r in plan_redaction(fresh) if _key(r) in keys]
        if len(again) != len(chosen):
            raise RedactError(_("the secrets changed on disk since the preview"))
        return chosen_plan(fresh, again, when)

    plan.rebuild = rebuild
    return plan


class RedactScreen(TickScreen):
    """Tick the secrets to replace by placeholders."""

    BINDINGS = bindings("redact")
    LIST = "redact-list"

    def __init__(self, host: WriteHost, profile: Profile, redactions: Sequence[Redaction]) -> None:
        super().__init__()
        self.host = host
        self.profile = profile
        self.items = list(redactions)
        self.secrets = [(r.value, r.kind) for r in self.items]

    def compose(self) -> ComposeResult:
        texts = _texts(self.profile)
        with Vertical(id="redact-box", classes="dialog wide"):
            yield Static(Text(_("Redact secrets · %(profile)s") % {"profile": clean_line(self.profile.name)}, style="bold"),
                         classes="dialog-title")
            n = len(self.items)
            yield Static(Text(ngettext("%(n)s unredacted secret. Ticked ones become placeholders; secrets_refs.yaml "
                                       "records only a SHA-256 of each value.",
                                       "%(n)s unredacted secrets. Ticked ones become placeholders; secrets_refs.yaml "
                                       "records only a SHA-256 of each value.", n) % {"n": n}, style="dim"),
                         classes="dialog-message")
            yield SelectionList[int](
                *(Selection(redaction_prompt(r, masked_line(texts.get(r.file, ""), r, self.secrets)), i, True)
                  for i, r in enumerate(self.items)),
                id="redact-list",
            )
        yield KeysFooter()

    def action_apply(self) -> None:
        chosen = self.chosen
        if not chosen:
            self.notify(_("Nothing is ticked."), severity="warning")
            return
        try:
            plan = chosen_plan(self.profile, chosen, now_iso(self.host.edit_now()))
        except (RedactError, OSError) as exc:
            self.notify(_("Cannot redact: %(why)s") % {"why": exc}, severity="error", markup=False)
            return
        n = len(chosen)
        self.host.confirm_write(plan, done=ngettext("Redacted %(n)s secret; recorded in secrets_refs.yaml.",
                                                    "Redacted %(n)s secrets; recorded in secrets_refs.yaml.", n) % {"n": n},
                                secrets=self.secrets, on_written=lambda _p: self.dismiss(True))
