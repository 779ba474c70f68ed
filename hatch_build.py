"""Build hook: the wheel carries compiled translation catalogs (``.mo``), made from the ``.po`` files with Babel.

The repository keeps only the ``.po`` (text, reviewable); a wheel is built once and installed many times, so
the compile happens here, at build time, and an installed app needs no Babel.  A source checkout compiles
on first use instead (openclaw_tui/core/i18n.py).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogsBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        self._out = Path(tempfile.mkdtemp(prefix="openclaw-tui-catalogs-"))
        for po in sorted(Path(self.root, "openclaw_tui", "locale").glob("*/LC_MESSAGES/*.po")):
            rel = po.relative_to(self.root).with_suffix(".mo")
            mo = self._out / rel
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as f:
                catalog = read_po(f)
            with mo.open("wb") as f:
                write_mo(f, catalog)
            build_data["force_include"][str(mo)] = rel.as_posix()

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
