"""The one door every user-facing string of the client goes through.

Strings are marked with `_()` (and `ngettext()` for plurals) at the place they are shown, so
that Babel can extract them into the catalogues under `client/locale/`. The language is chosen
once at start-up with `set_language` (from `--lang`, else the locale environment); until then,
and for any language without a catalogue, the English source text is shown. Strings that must
exist before the language is known (tables built at import time) are marked with `N_()` and
passed through `_()` where they are shown.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "leekha"
LOCALE_DIR = Path(__file__).parent / "locale"

#: The languages this client ships catalogues for (English is the source text).
LANGUAGES = ("en", "ar", "it")
#: Languages written right to left.
RTL_LANGUAGES = frozenset({"ar"})
#: The environment variables gettext consults, in its order of precedence.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The first supported language the locale variables name, as gettext would pick it.

    `LANGUAGE` may list several (`it:fr`); `C` and `POSIX` mean English, and so does a
    language this client has no catalogue for.
    """
    env = os.environ if environ is None else environ
    for var in LOCALE_VARIABLES:
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":
            # The first set LC_* / LANG decides, as in gettext; LANGUAGE only adds choices.
            return "en"
    return "en"


def set_language(lang: str | None) -> None:
    """Use the catalogue of `lang` (for example "ar", "it"); None or "en" means English."""
    global _translation, _language
    if not lang or lang == "en":
        _translation = gettext.NullTranslations()
        _language = "en"
        return
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    _language = lang if isinstance(_translation, gettext.GNUTranslations) else "en"


def language() -> str:
    """The language in use ("en" until `set_language` picks another)."""
    return _language


def is_rtl() -> bool:
    """Whether the language in use is written right to left (paragraphs start on the right)."""
    return _language in RTL_LANGUAGES


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for extraction without translating it yet (see the module docstring)."""
    return message


def translate_argparse() -> None:
    """Let argparse's own words ("usage:", "options", its error texts) follow the language.

    Python 3.11's argparse looks them up through the `gettext`/`ngettext` functions it
    imported into its module namespace, which read the process-wide default domain and the
    environment rather than `--lang`. Pointing those two names at our catalogue (which holds
    argparse's msgids, see `argparse_words.py`) is the one hook argparse offers.
    """
    import argparse

    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
