"""The message catalogues: complete, consistent with the source, compiled, shipped.

The message ids are extracted from the client's source right here (as `pybabel extract`
does), so a string wrapped in `_()` without a translation fails the test by name.
"""

from __future__ import annotations

import fnmatch
import gettext
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from leekha.client import i18n

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client"
LOCALES = ("ar", "it")


def source_ids() -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(CLIENT), method_map=[("**.py", "python")]
    ):
        if isinstance(message, tuple):
            found.add((message[0], message[1]))
        else:
            found.add(message)
    return found


def catalogue(lang: str) -> Catalog:
    with (CLIENT / "locale" / lang / "LC_MESSAGES" / "leekha.po").open("rb") as f:
        return read_po(f, locale=lang)


def translations(message: Message) -> list[str]:
    """A message's msgstr: one string for a plain id, one per form for a plural."""
    assert message.string is not None, message.id
    return [message.string] if isinstance(message.string, str) else list(message.string)


def translated(message: Message) -> bool:
    s = message.string
    if isinstance(s, str):
        return bool(s)
    return s is not None and bool(s) and all(s)


@pytest.mark.parametrize("lang", LOCALES)
def test_every_source_message_is_translated(lang: str) -> None:
    cat = catalogue(lang)
    missing = []
    for mid in sorted(source_ids(), key=str):
        key = mid if isinstance(mid, str) else mid[0]
        m = cat.get(key)
        if m is None or not translated(m) or m.fuzzy:
            missing.append(mid)
    assert not missing, (
        f"{len(missing)} messages without a {lang} translation (README.md, 'Translating': "
        "pybabel extract, pybabel update, translate, pybabel compile):\n"
        + "\n".join(repr(m) for m in missing)
    )


_BRACE = re.compile(r"\{(\w*)[^{}]*\}")
_PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([sdrif%])")


def placeholders(text: str) -> list[str]:
    names = [f"{{{n}}}" for n in _BRACE.findall(text.replace("{{", "").replace("}}", ""))]
    names += [f"%({n}){t}" if n else f"%{t}" for n, t in _PERCENT.findall(text) if t != "%"]
    return sorted(names)


@pytest.mark.parametrize("lang", LOCALES)
def test_placeholders_match(lang: str) -> None:
    wrong = []
    for m in catalogue(lang):
        if not m.id or not translated(m):
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = translations(m)
        want = placeholders(ids[-1])
        for s in strings:
            if placeholders(s) != want:
                wrong.append(f"{ids[0]!r} -> {s!r}: {placeholders(s)} != {want}")
    assert not wrong, "\n".join(wrong)


def test_placeholder_reader() -> None:
    assert placeholders("{name} takes {n:>3}") == ["{name}", "{n}"]
    assert placeholders("%(prog)s: %s 100%%") == ["%(prog)s", "%s"]


@pytest.mark.parametrize("lang", LOCALES)
def test_compiled_catalogue_matches_its_po(lang: str) -> None:
    """Whoever edits a .po must run `pybabel compile`: the shipped .mo says the same."""
    mo = CLIENT / "locale" / lang / "LC_MESSAGES" / "leekha.mo"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    expected: dict[object, str] = {}
    for m in catalogue(lang):
        if not m.id or not translated(m) or m.fuzzy:
            continue
        if isinstance(m.id, str):
            (expected[m.id],) = translations(m)
        else:
            for i, s in enumerate(translations(m)):
                expected[(m.id[0], i)] = s
    got = {k: v for k, v in compiled._catalog.items() if k != ""}  # type: ignore[attr-defined]
    assert got == expected


def test_package_data_ships_every_compiled_catalogue() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["leekha.client"]
    for lang in LOCALES:
        rel = f"locale/{lang}/LC_MESSAGES/leekha.mo"
        assert (CLIENT / rel).is_file()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), rel


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ar_LB.UTF-8"}, "ar"),
        ({"LANG": "it_IT.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LC_MESSAGES": "it_CH", "LANG": "ar_SY"}, "it"),
        ({"LANGUAGE": "fr:it", "LANG": "fr_FR.UTF-8"}, "it"),
        ({"LANGUAGE": "", "LANG": "de_DE"}, "en"),
        ({"LC_ALL": "ar_JO@latin"}, "ar"),
    ],
)
def test_language_from_environment(env: dict[str, str], lang: str) -> None:
    assert i18n.language_from_environment(env) == lang


@pytest.mark.parametrize("lang", LOCALES)
def test_set_language_switches_catalogue(lang: str) -> None:
    try:
        i18n.set_language(lang)
        assert i18n.language() == lang
        assert i18n._("options") == {"ar": "الخيارات", "it": "opzioni"}[lang]
        assert i18n.is_rtl() == (lang == "ar")
    finally:
        i18n.set_language("en")
    assert i18n._("options") == "options"


@pytest.mark.parametrize("page", ["rules.ar.md", "rules.it.md"])
def test_translated_rules_name_every_option_and_preset(page: str) -> None:
    """The translated rule pages use the English page's names for every option and preset."""
    from dataclasses import fields

    from leekha.common.config import PRESETS, RulesConfig

    text = (ROOT / "docs" / page).read_text()
    names = [f.name for f in fields(RulesConfig)] + list(PRESETS)
    assert [n for n in names if f"`{n}`" not in text] == []


def test_arabic_has_no_vowel_marks() -> None:
    """A mark combines with the letter before it in a terminal cell; the screens count one
    cell per character, so the catalogue writes Arabic unvocalised, as signs and screens do."""
    marked = [
        m.id
        for m in catalogue("ar")
        if m.id and any("\u064b" <= ch <= "\u0652" for s in translations(m) for ch in s)
    ]
    assert marked == []


@pytest.mark.parametrize("lang", LOCALES)
def test_key_words_fit_the_help_box_column(lang: str) -> None:
    """The keys overlay is a two-column table in a box 56 wide: the key table's words (a
    help row's text, or a hint's) are the second column, 39 cells from column 13 on."""
    from prompt_toolkit.utils import get_cwidth

    from leekha.client.tui.overlay_boxes import HELP_KEY_WIDTH

    room = 52 - HELP_KEY_WIDTH
    wrong = []
    for m in catalogue(lang):
        where = [f for f, _n in m.locations]
        if not isinstance(m.id, str) or not any("tui/key" in f for f in where):
            continue
        for s in [m.id, *translations(m)]:
            if get_cwidth(s) > room:
                wrong.append(f"{m.id!r} -> {s!r}")
    assert wrong == []


def test_no_translation_call_inside_an_f_string() -> None:
    """Babel cannot see `_()` inside an f-string: such a message never reaches the
    catalogue and stays English."""
    import ast

    hidden = []
    for path in sorted(CLIENT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.JoinedStr):
                for call in ast.walk(node):
                    if isinstance(call, ast.Call) and getattr(call.func, "id", "") in (
                        "_",
                        "ngettext",
                    ):
                        hidden.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    assert hidden == []


#: A count put before a plural noun ("{n} games"): the message says "1 games" for one.
_COUNTED_NOUN = re.compile(
    r"\{\w+\}(/\{\w+\})? (games|rounds|deals|tables|timeouts|times|seconds|minutes|hours|"
    r"days|moves|problems|entrants|stages|players|people|points|cards|tricks|wins|bots|"
    r"messages|seats|spectators|errors|records|notices)\b"
)


def test_a_count_before_a_noun_takes_the_plural_forms() -> None:
    """Every message that counts something is an ngettext pair, so each language says one
    and many in its own forms (Arabic has six): no "1 games", "1 moves", "1 problems"."""
    from leekha.client.systemlines import COUNTED, NOTICES

    kept = {NOTICES[code] for code in COUNTED}  # the key test's English; shown via ngettext
    singular_only = [m for m in source_ids() if isinstance(m, str) and m not in kept]
    assert sorted(m for m in singular_only if _COUNTED_NOUN.search(m)) == []
