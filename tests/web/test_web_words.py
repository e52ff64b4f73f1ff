"""The browser page's files: its words come from the terminal client's catalogues and stay
equal to them, every word it shows is listed for the catalogues, it fits the page budget,
and nothing in it needs an inline script or style (the server's CSP forbids them)."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

from leekha.client import webwords

WEB = Path(webwords.__file__).parent / "web"
BUDGET = 150 * 1024  # the whole page: HTML, scripts, styles, catalogues, vendored codec

_CALL = re.compile(r'\b(n?t)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?')
_DATA_T = re.compile(r'data-t="([^"]*)"')


def page_words() -> set[str | tuple[str, str]]:
    found: set[str | tuple[str, str]] = set()
    for path in [*WEB.glob("*.js"), WEB / "index.html"]:
        text = path.read_text(encoding="utf-8")
        for kind, one, many in _CALL.findall(text):
            found.add((one, many) if kind == "nt" else one)
        found.update(_DATA_T.findall(text))
    return found


def test_the_exported_words_equal_the_catalogues() -> None:
    # Fails after a .po edit without `python -m leekha.client.webwords export`.
    assert webwords.stale() == []


def test_the_counted_notices_are_the_terminal_clients_plural_msgids() -> None:
    # The page words a counted notice from webwords.COUNTED_WORDS; the terminal client from
    # systemlines.COUNTED's ngettext: the catalogue must hold that very (singular, plural).
    from babel.messages.pofile import read_po

    from leekha.client import systemlines
    from leekha.client.i18n import LOCALE_DIR

    assert webwords.COUNTED_WORDS.keys() == systemlines.COUNTED.keys()
    with (LOCALE_DIR / "it" / "LC_MESSAGES" / "leekha.po").open("rb") as f:
        po = read_po(f, locale="it")
    for code, (arg, one, many) in webwords.COUNTED_WORDS.items():
        assert systemlines.COUNTED[code][0] == arg
        entry = po.get(one)
        assert entry is not None and entry.id == (one, many), code


def test_every_word_the_page_shows_is_listed_for_the_catalogues() -> None:
    listed: set[str | tuple[str, str]] = {*webwords.msgids(), *webwords.PLURALS}
    missing = sorted(map(str, page_words() - listed))
    assert missing == [], "add these to client/webwords.py PAGE (and translate them)"


def test_the_arabic_catalogue_translates_the_page() -> None:
    ar = webwords.catalogue("ar")
    messages = ar["messages"]
    assert isinstance(messages, dict)
    assert ar["dir"] == "rtl"
    assert messages["your turn"] != "your turn"
    follow = "you must follow the suit that was led"
    assert messages[follow] != follow
    forms = messages["{n} point"]
    assert isinstance(forms, list) and len(forms) == 6 and all("{n}" in f for f in forms)


def test_the_whole_page_fits_its_budget() -> None:
    files = [p for p in WEB.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    assert total < BUDGET, f"{total} bytes in {len(files)} files"
    assert (WEB / "vendor" / "msgpack.LICENSE").exists()


def test_no_inline_script_or_style() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
    assert " style=" not in html and "<style" not in html
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
    for path in WEB.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "eval(" not in text and "new Function" not in text, path.name
        assert "innerHTML" not in text, path.name


def test_package_data_ships_every_file_of_the_page() -> None:
    config = tomllib.loads((WEB.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["leekha.client"]
    for path in WEB.rglob("*"):
        if path.is_file():
            rel = path.relative_to(WEB.parent).as_posix()
            # fnmatch's * crosses "/": count the folders as setuptools does.
            assert any(
                fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns
            ), rel
