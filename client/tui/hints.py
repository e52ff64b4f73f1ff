"""The key hints on the bottom line: what the keys do on the screen that is showing, fitted
to the width without cutting a hint in two."""

from __future__ import annotations

from leekha.client import i18n, rtl
from leekha.client.tui import keytable
from leekha.client.tui import model as M
from leekha.client.tui.keyfilters import Where, layer
from leekha.client.tui.keymap import CLIENT_KEYS


def hint_items(m: M.ClientModel) -> list[tuple[str, str]]:
    """The key hints for what is on screen, most important first ("? help" last): the
    live entries of the key table, so a hint never names a key that does nothing here."""
    return keytable.hints(CLIENT_KEYS, Where(m, layer(m)))


def fit_hints(items: list[tuple[str, str]], width: int) -> str:
    """The hints as one line no wider than `width`: tighter spacing first, then dropping
    hints from the end (the last, "? help", stays); never a hint cut in the middle."""
    parts = [f"{k} {v}" for k, v in items]
    for sep in ("  ", " "):
        if len(sep.join(parts)) <= width:
            return _joined(parts, sep)
    keep = parts[-1:]
    for part in parts[:-1]:
        if len(" ".join([*keep[:-1], part, keep[-1]])) > width:
            break
        keep.insert(len(keep) - 1, part)
    return _joined(keep, " ") if len(" ".join(keep)) <= width else ""


def _joined(parts: list[str], sep: str) -> str:
    """The hints in one line; with bidi display on, each a unit in the paragraph's
    direction, so that a Latin word in a hint ("الجولة N") stays with its hint instead of
    joining the next hint's key ("g/G") in one left-to-right run."""
    if rtl.enabled():
        parts = [rtl.isolate(part, i18n.is_rtl()) for part in parts]
    return sep.join(parts)
