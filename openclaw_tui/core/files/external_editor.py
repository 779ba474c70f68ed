"""Editing text in the user's own editor (``$VISUAL``, else ``$EDITOR``) through a private temporary
file; the caller validates the result and writes it through the safe path."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

PLUS_LINE = frozenset({"vi", "vim", "nvim", "gvim", "view", "nano", "pico", "emacs", "emacsclient", "micro",
                       "kak", "joe", "jed", "mg", "ne", "ed", "ex", "elvis", "nvi", "vis"})
GOTO_LINE = frozenset({"code", "code-insiders", "codium", "cursor"})  # -g file:line
COLON_LINE = frozenset({"subl", "hx", "helix", "zed"})  # file:line


class NoEditor(RuntimeError):
    """Neither VISUAL nor EDITOR names an editor."""


def editor_from(env: Mapping[str, str] | None = None) -> str | None:
    env = os.environ if env is None else env
    return next((value for name in ("VISUAL", "EDITOR") if (value := env.get(name, "").strip())), None)


def editor_command(editor: str, path: Path, line: int | None = None) -> list[str]:
    """The argv that opens ``path`` in ``editor`` (a command line, maybe with options), at ``line``."""
    argv = shlex.split(editor)
    if not argv:
        raise NoEditor("the editor command is empty")
    name = Path(argv[0]).name.lower().removesuffix(".exe")
    if line and line > 0:
        if name in PLUS_LINE:
            return [*argv, f"+{line}", str(path)]
        if name in GOTO_LINE:
            return [*argv, "-g", f"{path}:{line}"]
        if name in COLON_LINE:
            return [*argv, f"{path}:{line}"]
    return [*argv, str(path)]


@dataclass
class EditorSession:
    """One round of editing ``text`` in the external editor."""

    text: str
    line: int | None = None
    suffix: str = ".md"
    env: Mapping[str, str] | None = None
    path: Path | None = field(default=None, init=False)

    def prepare(self) -> list[str]:
        """Write the temporary file; returns the command to run. Raises NoEditor."""
        editor = editor_from(self.env)
        if editor is None:
            raise NoEditor("set $VISUAL or $EDITOR to edit in your own editor")
        fd, name = tempfile.mkstemp(prefix="openclaw-entry-", suffix=self.suffix)
        with os.fdopen(fd, "wb") as fh:
            fh.write(self.text.encode("utf-8", "surrogateescape"))
        self.path = Path(name)
        return editor_command(editor, self.path, self.line)

    def run(self, argv: list[str]) -> int:
        """Run the editor in the foreground; returns its exit status."""
        env = dict(os.environ if self.env is None else self.env)
        try:
            return subprocess.run(argv, env=env, check=False).returncode
        except OSError as exc:
            raise NoEditor(f"cannot run {argv[0]}: {exc.strerror or exc}") from None

    def result(self) -> str:
        """The edited text (call after ``run``); the temporary file is removed."""
        assert self.path is not None
        try:
            return self.path.read_bytes().decode("utf-8", "surrogateescape")
        finally:
            self.cleanup()

    def cleanup(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)
            self.path = None
