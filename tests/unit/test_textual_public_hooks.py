"""The UI extends Textual through its public API only: no widget, screen or app of ours redefines a method
Textual keeps private (``_on_click``, ``_watch_value``...), which a Textual release may rename or drop
(what lets ``pyproject.toml`` ask for ``textual>=8`` without an upper bound)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import openclaw_tui.ui.screens
import openclaw_tui.ui.widgets


def ui_modules() -> list[str]:
    names = ["openclaw_tui.ui.app", "openclaw_tui.ui.palette"]
    for package in (openclaw_tui.ui.screens, openclaw_tui.ui.widgets):
        names += [info.name for info in pkgutil.iter_modules(package.__path__, package.__name__ + ".")]
    return names


def private_overrides(cls: type) -> list[str]:
    """Methods ``cls`` defines under a name a Textual base class defines privately."""
    found = []
    for name, value in vars(cls).items():
        if not name.startswith("_") or name.startswith("__") or not inspect.isfunction(value):
            continue
        base = next((b for b in cls.__mro__[1:] if b.__module__.startswith("textual.") and name in vars(b)), None)
        if base is not None:
            found.append(f"{cls.__module__}.{cls.__qualname__}.{name} (Textual's {base.__name__}.{name})")
    return found


def test_no_class_of_the_ui_overrides_a_private_textual_method() -> None:
    found = []
    for name in ui_modules():
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == name:
                found += private_overrides(cls)
    assert found == []


def test_the_check_finds_a_private_override() -> None:
    from textual import events
    from textual.widget import Widget

    class Clicky(Widget):
        def _on_click(self, event: events.Click) -> None: ...

        def on_focus(self, event: events.Focus) -> None: ...

    assert [f.rsplit(" (", 1)[0].rsplit(".", 1)[1] for f in private_overrides(Clicky)] == ["_on_click"]
