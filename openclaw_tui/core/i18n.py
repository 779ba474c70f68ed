"""The language of the app and the command line: English, or Simplified Chinese through gettext.

Strings are marked ``_()`` where shown and ``N_()`` where defined at import time; catalogs are in
``openclaw_tui/locale`` (docs/i18n.md).  The language: ``--lang``, else the config's ``[ui] language``,
else ``LC_ALL``/``LC_MESSAGES``/``LANG``, else English.  A source checkout compiles the ``.po`` once
into the cache folder.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from gettext import GNUTranslations, NullTranslations

DOMAIN = "openclaw_tui"
LANGUAGES = ("en", "zh_CN")
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")
ENV_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_chosen: tuple[str, str] | None = None  # (language, why)
_catalog: NullTranslations | None = None
_argparse_own: tuple[object, object] | None = None  # argparse's gettext and ngettext, while ours stand in


def normalize(name: str) -> str:
    """``"zh"``, ``"zh-CN"``, ``"zh_CN.UTF-8"``, ``"zh_Hans"`` -> ``"zh_CN"``; ``"en_US"``, ``"C"`` -> ``"en"``.

    Raises ValueError for a language there is no catalog for (what ``--lang`` and the config accept)."""
    base = name.strip().replace("-", "_").split(".")[0].split("@")[0]
    head = base.split("_")[0].lower()
    if head == "zh":
        return "zh_CN"
    if head in ("en", "c", "posix"):
        return "en"
    raise ValueError(f"no translation for {name!r} (known: {', '.join(LANGUAGES)})")


def _from_environment() -> tuple[str, str]:
    for variable in ENV_VARIABLES:
        value = os.environ.get(variable, "")
        if value:  # the first set variable decides, as POSIX says (LC_ALL over LC_MESSAGES over LANG)
            head = value.replace("-", "_").split("_")[0].split(".")[0].lower()
            return ("zh_CN" if head == "zh" else "en"), f"${variable}={value}"
    return "en", "the default (no --lang, no [ui] language, no LC_ALL/LC_MESSAGES/LANG)"


def _from_config() -> tuple[str, str] | None:
    from .config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError:
        return None  # the command that reads the config says what is wrong with it
    if not config.ui.language:
        return None
    return normalize(config.ui.language), f"[ui] language = {config.ui.language!r} in {config.path}"


def choose() -> tuple[str, str]:
    """(language, why) from the config file and the environment (``--lang`` is ``set_language``)."""
    return _from_config() or _from_environment()


def set_language(name: str | None, why: str = "--lang") -> None:
    """Use ``name`` from now on (None: choose again from the config and the environment)."""
    global _chosen, _catalog
    _chosen = (normalize(name), f"{why} {name}") if name else None
    _catalog = None


def language() -> tuple[str, str]:
    """The language in use and why (``openclaw-tui config`` prints both)."""
    global _chosen
    if _chosen is None:
        _chosen = choose()
    return _chosen


def _compiled(lang: str) -> str | None:
    """The path of the compiled catalog of ``lang``: the wheel's, else one compiled from the ``.po``."""
    folder = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES")
    mo, po = os.path.join(folder, DOMAIN + ".mo"), os.path.join(folder, DOMAIN + ".po")
    try:
        po_stat = os.stat(po)
    except OSError:
        return mo if os.path.exists(mo) else None
    if os.path.exists(mo) and os.stat(mo).st_mtime >= po_stat.st_mtime:
        return mo
    from .userdirs import cache_folder

    cached = os.path.join(cache_folder(), "locale", f"{lang}-{po_stat.st_size}-{po_stat.st_mtime_ns}.mo")
    if not os.path.exists(cached):
        try:
            compile_catalog(po, cached)
        except ImportError:  # no Babel (an install without the dev extra and without a wheel): English
            return None
    return cached


def compile_catalog(po: str, mo: str) -> None:
    """Compile a ``.po`` into a ``.mo`` with Babel (written to a temporary name, then moved in place)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po, "rb") as f:
        catalog = read_po(f)
    os.makedirs(os.path.dirname(mo), exist_ok=True)
    tmp = f"{mo}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        write_mo(f, catalog)
    os.replace(tmp, mo)


def catalog() -> NullTranslations | None:
    """The translations in use, or None for English."""
    global _catalog
    lang = language()[0]
    if lang == "en":
        _restore_argparse()
        return None
    if _catalog is None:
        path = _compiled(lang)
        if path is None:
            _catalog = NullTranslations()
        else:
            with open(path, "rb") as f:
                _catalog = GNUTranslations(f)
        _translate_argparse(_catalog)
    return _catalog


def _translate_argparse(translations: NullTranslations) -> None:
    """argparse's own words ("usage:", its errors) from our catalog: argparse's module-level ``gettext``
    would follow the environment's language, not ``--lang`` or the config file."""
    global _argparse_own
    import argparse

    if _argparse_own is None:
        _argparse_own = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]
    argparse._ = translations.gettext  # type: ignore[attr-defined]
    argparse.ngettext = translations.ngettext  # type: ignore[attr-defined]


def _restore_argparse() -> None:
    global _argparse_own
    import argparse

    if _argparse_own is not None:
        argparse._, argparse.ngettext = _argparse_own  # type: ignore[attr-defined]
        _argparse_own = None


def _(message: str) -> str:
    """``message`` in the language in use."""
    translations = catalog()
    return message if translations is None else translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in use."""
    translations = catalog()
    if translations is None:
        return singular if n == 1 else plural
    return translations.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a string for the catalog where it is defined; ``_()`` translates it where it is shown."""
    return message


def recognise(templates: tuple[str, ...], text: str, value: Callable[[str], str] | None = None,
              one_word: frozenset[str] = frozenset()) -> str | None:
    """``text`` translated when one of ``templates`` (an English msgid with ``%(name)s`` placeholders) is
    what made it, its values kept (or passed through ``value``); None when none made it.  A placeholder
    named in ``one_word`` matches no whitespace."""
    for template in templates:
        m = _pattern(template, one_word).fullmatch(text)
        if m is not None:
            values = {k: value(v) if value else v for k, v in m.groupdict().items()}
            return _(template) % values
    return None


@functools.cache
def _pattern(template: str, one_word: frozenset[str]) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", template)  # text, name, text, name, ..., text
    return re.compile("".join(re.escape(p) if i % 2 == 0 else (rf"(?P<{p}>\S+?)" if p in one_word else rf"(?P<{p}>.+?)")
                              for i, p in enumerate(parts)), re.DOTALL)


# errors of the core that the command line prints (core/format/places.py and profile.py: NotMemory)
ERRORS: tuple[str, ...] = (
    N_("%(path)s: not a profile, a profiles root or an OpenClaw workspace"),
    N_("%(path)s: no such file or folder"),
    N_("%(path)s: not a folder"),
    N_("%(path)s: cannot be read (%(reason)s)"),
    N_("%(path)s: cannot be listed (%(reason)s)"),
    N_("%(path)s: no profile named %(name)s"),
    N_("%(path)s: holds several profiles (%(names)s); choose one with --profile NAME"),
    # core/files/lines.py: Refused (get's file rules)
    N_("no profile named %(name)s"),
    N_("the path holds several profiles (%(names)s); choose one with --profile NAME"),
    N_("%(file)s: FILE must be relative to the profile folder"),
    N_("%(file)s: leaves the profile folder (through a link)"),
    N_("%(file)s: leaves the profile folder"),
    N_("%(file)s: no such file in profile %(name)s"),
    N_("%(file)s: not a regular file"),
)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, told apart from the same English word by ``context``."""
    translations = catalog()
    return message if translations is None else translations.pgettext(context, message)


# argparse's own words that our pages show (Python 3.11's msgids), so that the catalog has them
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
)
