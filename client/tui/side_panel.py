"""The right-hand column of a wide window: the card-counting aid, then the chat. In a
narrow window the counting aid is painted on its own over the table's top-left."""

from __future__ import annotations

from leekha.client.i18n import _
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, Frags, fit, wrap
from leekha.client.tui.sheets import column_names
from leekha.common import cards as C

#: How wide a seat's name is in the counting aid's "void:" line.
VOID_NAME = 8


def paint_counting(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int) -> int:
    """The card-counting aid: cards still out per suit, and voids shown; returns rows used."""
    out = m.game.cards_out()
    cv.put(x0, y0, _("still out")[:w], "class:muted")
    row = y0 + 1
    for suit in (C.SPADES, C.HEARTS, C.CLUBS, C.DIAMONDS):
        symbol = (C.SUIT_LETTERS if m.ascii else C.SUIT_SYMBOLS)[suit]
        ranks = "".join(C.RANK_TEXT[c % 13] for c in out[suit]) or "-"
        colour = "class:suit.red" if suit in (C.HEARTS, C.DIAMONDS) else ""
        cv.frags(x0, row, [(colour, symbol + " "), ("", ranks[: w - 2])])
        row += 1
    voids = []
    symbols = C.SUIT_LETTERS if m.ascii else C.SUIT_SYMBOLS
    # The score sheet's short names: distinct ("hard 1", "hard 2"), shortened with "…".
    short = column_names([m.player_name(seat) for seat in range(4)], VOID_NAME)
    for seat in range(4):
        if seat != m.game.your_seat and m.game.shown_void[seat]:
            suits = "".join(symbols[s] for s in sorted(m.game.shown_void[seat]))
            voids.append(f"{short[seat]}:{suits}".replace(" ", "\u00a0"))
    if voids:
        for line in wrap(_("void: {seats}").format(seats=" ".join(voids)), w)[:2]:
            cv.put(x0, row, line.replace("\u00a0", " "), "class:muted")
            row += 1
    return row - y0 + 1


def paint_side(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    """The right-hand column: the counting aid when on, then the chat."""
    for yy in range(y0, y0 + h):
        cv.put(x0 - 1, yy, "│", "class:muted")
    if m.at_table.counting and m.screen == M.TABLE:
        used = paint_counting(m, cv, x0, y0, w)
        y0 += used
        h -= used
    cv.put(x0, y0, _("chat (t to talk)")[:w], "class:muted")
    lines: list[Frags] = []
    for sender, text in m.chat:
        # The sender's name stays on one row, shortened to the column if need be.
        name = fit(sender, max(1, w - 1)) + ":"
        token = name.replace(" ", "\u00a0")
        wrapped = wrap(f"{token} {text}", w)
        first = wrapped[0]
        lines.append([("class:chat.from", name), ("", first[len(token) :])])
        lines.extend([[("", rest)] for rest in wrapped[1:]])
    room = h - 1
    for i, frags in enumerate(lines[-room:] if room > 0 else []):
        cv.frags(x0, y0 + 1 + i, frags, whole=True)
