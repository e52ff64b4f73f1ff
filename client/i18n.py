"""The one door every user-facing string of the client goes through.

Strings are marked with `_()` (and `ngettext()` for plurals) at the place they are shown, so
that Babel can extract them into the catalogues under `client/locale/`. The language is chosen
once at start-up with `set_language`; until then, and for any language without a catalogue,
the English source text is shown.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "leekha"
LOCALE_DIR = Path(__file__).parent / "locale"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def set_language(lang: str | None) -> None:
    """Use the catalogue of `lang` (for example "ar", "it"); None or "en" means English."""
    global _translation
    if not lang or lang == "en":
        _translation = gettext.NullTranslations()
        return
    _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)
