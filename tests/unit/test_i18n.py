"""The catalogs: every string the code marks is translated, with the same placeholders; the language choice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from openclaw_tui.core import i18n
from openclaw_tui.core.check import messages

PACKAGE = Path(i18n.__file__).parent.parent  # openclaw_tui/
PO = PACKAGE / "locale" / "zh_CN" / "LC_MESSAGES" / "openclaw_tui.po"
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdirf]")


def marked() -> set[str]:
    """The msgids the code marks, extracted with Babel as tools/i18n.sh does."""
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(PACKAGE), [("**.py", "python")]):
        for text in message if isinstance(message, tuple) else (message,):
            if text:
                found.add(text)
    return found


def catalog() -> dict[str, str]:
    """msgid -> its translation (each form of a plural message -> its one Chinese form)."""
    out: dict[str, str] = {}
    with PO.open("rb") as f:
        for m in read_po(f):
            if isinstance(m.id, tuple):
                for form in m.id:
                    out[form] = m.string[0] if isinstance(m.string, tuple) else m.string
            elif m.id:
                out[m.id] = m.string
    return out


def placeholders(text: str) -> list[str]:
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text.replace("%%", "")))


def test_every_marked_string_is_translated() -> None:
    po = catalog()
    missing = sorted(marked() - set(po))
    assert missing == [], "run tools/i18n.sh update and translate: " + "; ".join(missing[:10])
    untranslated = sorted(k for k, v in po.items() if not v)
    assert untranslated == []


def test_the_catalog_has_no_string_the_code_dropped() -> None:
    assert sorted(set(catalog()) - marked()) == []


def test_placeholders_are_the_same_in_both_languages() -> None:
    wrong = [(k, v) for k, v in catalog().items() if placeholders(k) != placeholders(v)]
    assert wrong == []


def test_a_placeholder_check_that_fails_when_one_differs() -> None:
    assert placeholders("%(file)s references %(target)s") != placeholders("%(file)s 引用了 %(id)s")


@pytest.mark.parametrize(("name", "lang"), [
    ("zh_CN.UTF-8", "zh_CN"), ("zh-CN", "zh_CN"), ("zh", "zh_CN"), ("zh_TW", "zh_CN"),
    ("en_US.UTF-8", "en"), ("C", "en"), ("POSIX", "en"),
])
def test_names_of_languages(name: str, lang: str) -> None:
    assert i18n.normalize(name) == lang


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="fr"):
        i18n.normalize("fr_FR")


def _choose(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, config: str | None, **env: str) -> tuple[str, str]:
    path = tmp_path / "config.toml"
    if config is not None:
        path.write_text(config, encoding="utf-8")
    monkeypatch.setenv("OPENCLAW_TUI_CONFIG", str(path))
    for name in i18n.ENV_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return i18n.choose()


def test_the_config_file_wins_over_the_locale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lang, why = _choose(monkeypatch, tmp_path, '[ui]\nlanguage = "zh_CN"\n', LANG="en_US.UTF-8")
    assert lang == "zh_CN" and "[ui] language" in why
    lang, why = _choose(monkeypatch, tmp_path, '[ui]\nlanguage = "en"\n', LANG="zh_CN.UTF-8")
    assert lang == "en" and "[ui] language" in why


def test_lc_all_then_lc_messages_then_lang(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert _choose(monkeypatch, tmp_path, None, LANG="zh_CN.UTF-8") == ("zh_CN", "$LANG=zh_CN.UTF-8")
    assert _choose(monkeypatch, tmp_path, None, LANG="zh_CN.UTF-8", LC_MESSAGES="en_GB")[0] == "en"
    assert _choose(monkeypatch, tmp_path, None, LC_MESSAGES="en_GB", LC_ALL="zh_SG.UTF-8")[0] == "zh_CN"
    assert _choose(monkeypatch, tmp_path, "[limits]\ncap = 5\n")[0] == "en"  # no [ui]: the default


def test_a_bad_language_in_the_config_file_is_a_config_error(tmp_path: Path) -> None:
    from openclaw_tui.core.config import ConfigError, parse_config

    with pytest.raises(ConfigError, match=r"\[ui\] language"):
        parse_config('[ui]\nlanguage = "klingon"\n', tmp_path / "c.toml")


def test_every_finding_template_reads_back_its_own_english() -> None:
    """A message made from a template is recognised by that template, values and all."""
    for code, templates in messages.TEMPLATES.items():
        for template in templates:
            values = {name: f"<{name}-value>" for name in re.findall(r"%\((\w+)\)s", template)}
            english = template % values
            assert i18n.recognise((template,), english, messages._word) is not None, (code, template)


def test_the_compiled_catalog_of_a_checkout_is_made_once_into_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(i18n, "LOCALE_DIR", str(PACKAGE / "locale"))
    path = i18n._compiled("zh_CN")
    assert path is not None and Path(path).is_file()
    if not path.startswith(str(tmp_path)):
        pytest.skip("an installed .mo newer than the .po is used as it is")
    assert i18n._compiled("zh_CN") == path


def test_the_wheel_carries_the_compiled_catalog(tmp_path: Path) -> None:
    """hatch_build.py compiles every .po into the wheel; the wheel has no .po (so its .mo is the one used)."""
    pytest.importorskip("hatchling")
    import subprocess
    import sys
    import zipfile
    from gettext import GNUTranslations
    from io import BytesIO

    root = PACKAGE.parent
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)], cwd=root,
                   check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        mo = z.read("openclaw_tui/locale/zh_CN/LC_MESSAGES/openclaw_tui.mo")
    assert not [n for n in names if n.endswith((".po", ".pot"))]
    assert GNUTranslations(BytesIO(mo)).gettext("Quit") == "退出"
