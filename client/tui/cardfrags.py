"""Cards as styled fragments: one look for a card wherever it is painted (the hand, the
trick, the boxes, the replay), its suit colour last so no other class overrides it."""

from __future__ import annotations

from collections.abc import Sequence

from leekha.client.tui.canvas import Frags
from leekha.common import cards as C


def card_text(card: int, ascii: bool) -> str:
    return C.format_card(card, ascii=ascii)


def card_frag(card: int, ascii: bool, extra: str = "", width: int = 3) -> tuple[str, str]:
    colour = "class:suit.red" if C.suit_of(card) in (C.HEARTS, C.DIAMONDS) else "class:suit.black"
    return (f"class:card {extra} {colour}".replace("  ", " "), card_text(card, ascii).ljust(width))


def cards_line(cards: Sequence[int], ascii: bool, marked: Sequence[int] = ()) -> Frags:
    """Cards side by side on the box background; `marked` ones get an x2 after them."""
    out: Frags = []
    for c in cards:
        out.append(card_frag(c, ascii, width=len(card_text(c, ascii))))
        if c in marked:
            out.append(("class:box class:timer", "x2"))
        out.append(("class:box", " "))
    return out
