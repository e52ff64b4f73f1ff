"""The key hints on the bottom line: what the keys do on the screen that is showing, fitted
to the width without cutting a hint in two."""

from __future__ import annotations

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
        line = sep.join(parts)
        if len(line) <= width:
            return line
    keep = parts[-1:]
    for part in parts[:-1]:
        if len(" ".join([*keep[:-1], part, keep[-1]])) > width:
            break
        keep.insert(len(keep) - 1, part)
    line = " ".join(keep)
    return line if len(line) <= width else ""
