"""What the player sees: the lobby, the table and their overlays, painted from the model.

Each frame is painted afresh onto a Canvas sized to the window (so 80x24 and any resize work
the same way) by pure functions of the model; `render_text` gives tests the same frame as
plain text. The only live prompt_toolkit widgets are the chat input line and the root
container; everything else is one UIControl that asks these functions for its lines.

The round summary, the game-over box and the trick geometry take plain data, not the model,
so that the replay viewer paints its frames with the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    HSplit,
    Layout,
    UIContent,
    UIControl,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style

from leekha.client import rtl
from leekha.client.i18n import _
from leekha.client.rulestext import summary
from leekha.client.tui import model as M
from leekha.client.tui import social, tournament
from leekha.client.tui.canvas import Canvas, Frags, clip, fit, frags_width, wrap
from leekha.common import cards as C
from leekha.common.config import PRESETS

# The suit colour classes are not children of `card`: prompt_toolkit expands a dotted
# class to its parents too, so a `card.…` class placed after the colour would set the
# card's black foreground again (red suits turned black exactly when legal or under the
# cursor). The colour class always comes last.
STYLE = Style.from_dict(
    {
        "header": "reverse",
        "header.alert": "reverse fg:ansiyellow",
        "card": "bg:#f4f4f4 fg:#000000",
        "card.dim": "bg:#9e9e9e",
        "card.legal": "bold",
        "card.cursor": "underline bold bg:#ffffaf",
        "card.badcursor": "underline bold bg:#ff8787",
        "card.selected": "bg:#87d7ff",
        "card.lifted": "bg:#ffd787",
        "suit.red": "fg:#c00000",
        "suit.black": "fg:#000000",
        "mark": "bold fg:ansigreen",
        "seat.turn": "bold fg:ansigreen",
        "seat.name": "bold",
        "seat.away": "fg:ansiyellow",
        "seat.bot": "fg:ansicyan",
        "seat.dealer": "fg:ansimagenta",
        "seat.partner": "fg:ansicyan",
        "muted": "fg:ansibrightblack",
        "hint": "fg:ansibrightblack",
        "status": "",
        "status.error": "fg:ansired bold",
        "box": "bg:#1c1c1c fg:#e4e4e4",
        "box.border": "fg:#8a8a8a",
        "box.title": "bold",
        "cursorrow": "reverse",
        "timer": "bold fg:ansiyellow",
        "chat.from": "bold fg:ansicyan",
        "lobby.head": "bold underline",
    }
)

CHAT_MIN_WIDTH = 80  # below this the chat pane folds away (t still opens the input line)
CHAT_WIDTH = 24  # at 80 columns; wider windows give the chat a fifth of the width
CHAT_MAX_WIDTH = 40
#: The smallest window the table can be drawn in; below it a "too small" note.
MIN_WIDTH, MIN_HEIGHT = 40, 16
TABLE_MAX_WIDTH, TABLE_MAX_HEIGHT = 100, 34


@dataclass
class Options:
    ascii: bool = False
    title: str = "Leekha"


# ---- cards -----------------------------------------------------------------------------


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


# ---- seats -----------------------------------------------------------------------------


def _seat_lines(m: M.ClientModel, seat: int) -> tuple[Frags, Frags]:
    """Two lines about a seat: who (and state), and its scores."""
    p = m.players[seat] if seat < len(m.players) else {}
    name = m.player_name(seat) if p.get("name") else _("(empty)")
    you = _(" (you)") if seat == m.your_seat else ""
    first: Frags = [("class:seat.name", name + you)]
    if p.get("is_bot") and p.get("strategy") in M.BOT_LEVELS:
        level = M.level_word(str(p["strategy"]))
        first.append(("class:seat.bot", _(" [bot: {level}]").format(level=level)))
    elif p.get("is_bot"):
        first.append(("class:seat.bot", _(" [bot]")))
    elif m.control(seat) == "autopilot":
        first.append(("class:seat.away", _(" [a bot plays]")))
    elif p.get("name") and not p.get("connected", True):
        first.append(("class:seat.away", _(" [away]")))
    said = m.bubble(seat)  # a quick phrase, for a few seconds
    if said is not None:
        first.append(("class:chat.from", f" «{said}»"))
    v = m.view
    if v is None:
        host = [("class:muted", _("host"))] if p.get("is_host") else []
        return first, host
    if seat == v["dealer"]:
        first.append(("class:seat.dealer", _(" (D)")))
    partners = m.rules.partnership != "off"
    if partners and m.your_seat is not None and seat == (m.your_seat + 2) % 4:
        first.append(("class:seat.partner", _(" (partner)")))
    if m.rules.partnership == "combined":
        # Partners' points are added: the team figure is the one that decides the game.
        team = v["totals"][seat] + v["totals"][(seat + 2) % 4]
        first.append(("class:seat.partner", _(" · team {n}").format(n=team)))
    second: Frags = [
        ("", _("{total} pts  +{now}").format(total=v["totals"][seat], now=v["round_points"][seat]))
    ]
    left = m.seat_seconds_left(seat) if seat != m.your_seat else None
    clock = [("class:timer", _(" ⏱ {n}s").format(n=left))] if left is not None else []
    if v["phase"] == "play" and v["turn"] == seat:
        second.append(("class:seat.turn", _("  ◀ turn")))
        second.extend(clock)
    elif v["phase"] == "pass":
        done = v["passes_done"][seat] and not m.waiting_for(seat)
        second.append(("class:muted", _("  passed") if done else _("  passing…")))
        second.extend(clock)
        # Only during the pass is a doubled card known to be in the doubler's hand.
        doubled = [c for c, s in v["doubled"] if s == seat]
        if doubled:
            second.append(("class:timer", "  x2 " + " ".join(m.fmt(c) for c in doubled)))
    return first, second


def _seat_pos(m: M.ClientModel, seat: int) -> str:
    """Where a seat sits on screen: the viewer is south and play runs counter-clockwise."""
    me = m.your_seat if m.your_seat is not None else 0
    return ("S", "E", "N", "W")[(seat - me) % 4]


def trick_spots(cx: int, cy: int, w: int, h: int) -> dict[str, tuple[int, int]]:
    """Where each position's card lies in the middle; wider windows spread them out."""
    dx = max(6, min(14, w // 8))
    dy = 2 if h < 30 else 4
    return {
        "N": (cx - 1, cy - dy),
        "S": (cx - 1, cy + dy),
        "W": (cx - 1 - dx, cy),
        "E": (cx - 1 + dx, cy),
    }


# ---- the table -------------------------------------------------------------------------


def _paint_table(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    v = m.view
    by_pos = {_seat_pos(m, s): s for s in range(4)}
    cx = x0 + w // 2
    side = max(1, (w - 1) // 2)  # room for a west or east line: they never meet
    # north
    f1, f2 = (clip(f, w) for f in _seat_lines(m, by_pos["N"]))
    cv.frags(cx - frags_width(f1) // 2, y0, f1)
    cv.frags(cx - frags_width(f2) // 2, y0 + 1, f2)
    # hand block at the bottom: own line, lift row, cards, labels
    hand_y = y0 + h - 3
    mid_top, mid_bot = y0 + 2, hand_y - 2
    cy = (mid_top + mid_bot) // 2
    # west and east, a line above their cards so a long line never runs into them
    f1, f2 = (clip(f, side) for f in _seat_lines(m, by_pos["W"]))
    cv.frags(x0, cy - 2, f1)
    cv.frags(x0, cy - 1, f2)
    f1, f2 = (clip(f, side) for f in _seat_lines(m, by_pos["E"]))
    cv.frags(x0 + w - frags_width(f1), cy - 2, f1)
    cv.frags(x0 + w - frags_width(f2), cy - 1, f2)
    if v is None:
        filled = sum(1 for p in m.players if p.get("name"))
        cv.center(cx, cy, _("waiting for players ({n}/4)").format(n=filled), "class:muted")
        if m.is_host:
            note = _("b: add a bot   x: remove a bot   s: start")
            cv.center(cx, cy + 1, note, "class:hint")
        f1 = clip(_seat_lines(m, by_pos["S"])[0], w)
        cv.frags(cx - frags_width(f1) // 2, hand_y, f1)
        return
    spots = trick_spots(cx, cy, w, h)
    trick = m.display_trick()
    lead = trick[0][0] if trick else None
    for seat, card in trick:
        x, y = spots[_seat_pos(m, seat)]
        cv.frags(x, y, [card_frag(card, m.ascii, "class:card.legal" if seat == lead else "")])
    note_y = spots["S"][1] + 1
    if m.show_last and m.last_trick is not None:
        t = m.last_trick
        note = _("last trick: {name} took it (+{points})").format(
            name=m.player_name(t["winner"]), points=t["points"]
        )
        cv.center(cx, note_y, note, "class:timer")
    elif m.trick_done and m.last_trick is not None and not v["trick"]:
        cv.center(cx, note_y, m.trick_note, "class:timer" if "!" in m.trick_note else "class:muted")
    elif v["phase"] == "pass":
        dest = v.get("pass_to")
        if m.seated and dest is not None:
            note = _("passing to {name}").format(name=m.player_name(dest))
            cv.center(cx, spots["S"][1], note, "class:muted")
    doubles = m.unplayed_doubles() if v["phase"] == "play" else []
    if doubles:
        cv.put(x0, y0 + 2, "x2 " + " ".join(m.fmt(c) for c in doubles), "class:timer")
    # south: own line
    me = by_pos["S"]
    f1, f2 = _seat_lines(m, me)
    line = [*f1, ("", "   "), *f2]
    left = m.seconds_left()
    if left is not None and m.my_turn:
        line.append(("class:timer", _("   ⏱ {n}s").format(n=left)))
    if frags_width(line) > w:  # a long name: the timer and the scores matter more
        line = [*clip(f1, max(1, w - frags_width(f2) - 1 - (8 if left else 0))), ("", " "), *f2]
        if left is not None and m.my_turn:
            line.append(("class:timer", _("   ⏱ {n}s").format(n=left)))
        line = clip(line, w)
    cv.frags(max(x0, cx - frags_width(line) // 2), hand_y - 1, line)
    _paint_hand(m, cv, x0, w, hand_y)


def _paint_hand(m: M.ClientModel, cv: Canvas, x0: int, w: int, y: int) -> None:
    hand = m.hand
    cx = x0 + w // 2
    if not hand:
        if m.your_seat is None:
            cv.center(cx, y + 1, _("spectating"), "class:muted")
        return
    ok = m.choosable()
    active = bool(ok) or (m.my_turn and m.phase == "pass")
    received = m.received
    step = 4 if len(hand) * 4 <= w else 3
    shown = max(1, (w - 2) // step) if len(hand) * step > w else len(hand)
    first = max(0, min(m.cursor - shown // 2, len(hand) - shown))
    x = cx - (shown * step) // 2
    if first > 0:
        cv.put(x - 1, y + 1, "‹", "class:mark")
    if first + shown < len(hand):
        cv.put(x + shown * step, y + 1, "›", "class:mark")
    for i in range(first, first + shown):
        card = hand[i]
        extra = []
        illegal = active and card not in ok and card not in m.pass_sel
        if illegal:
            extra.append("class:card.dim")
        elif active:
            extra.append("class:card.legal")
        if card in m.pass_sel:
            extra.append("class:card.selected")
        if card == m.lifted:
            extra.append("class:card.lifted")
        if i == m.cursor:
            extra.append("class:card.badcursor" if illegal else "class:card.cursor")
        raised = card == m.lifted or card in m.pass_sel
        cv.frags(x, y if raised else y + 1, [card_frag(card, m.ascii, " ".join(extra))])
        label = chr(ord("a") + i)
        cv.put(x + 1, y + 2, label, "class:hint" if i != m.cursor else "class:card.cursor")
        if i == m.cursor and illegal:
            cv.put(x + 2, y + 2, "!", "class:status.error")
        elif card in received:
            cv.put(x + 2, y + 2, "+", "class:mark")
        x += step


# ---- boxes shared with the replay ------------------------------------------------------


def paint_round_summary(
    cv: Canvas,
    s: M.RoundSummary,
    names: Sequence[str],
    ascii: bool,
    footer: str,
    title: str | None = None,
) -> None:
    """The round's taken cards and points; doubled cards marked x2, and why if it ended early."""
    width = min(cv.width, 72)
    x, y = cv.box(width, 10, title or _("round {n} over").format(n=s.round + 1))
    pts_x = x + width - 16
    cv.put(x, y, _("player"), "class:box class:box.title")
    cv.put(x + 16, y, _("taken"), "class:box class:box.title")
    # Each column head on its own: one string would be reordered as a sentence in Arabic.
    for end, head in ((pts_x + 5, _("pts")), (pts_x + 12, _("total"))):
        cv.put(end - frags_width([("", head)]), y, head, "class:box class:box.title")
    for seat in range(4):
        row = y + 1 + seat
        cv.put(x, row, names[seat][:14], "class:box")
        taken = C.display_order(s.taken[seat])
        room = pts_x - (x + 16) - 1
        line = cards_line(taken, ascii, s.doubled)
        if frags_width(line) > room:
            line = cards_line(taken[: max(0, room // 4 - 1)], ascii, s.doubled)
            line.append(("class:box", f"+{len(taken) - max(0, room // 4 - 1)}"))
        cv.frags(x + 16, row, line)
        cv.put(pts_x, row, f"{s.round_points[seat]:>5}  {s.totals[seat]:>5}", "class:box")
    if s.doubled:
        marks = _("x2: {cards} scored double").format(
            cards=" ".join(C.format_card(c, ascii=ascii) for c in C.display_order(s.doubled))
        )
        cv.put(x, y + 5, marks, "class:box class:timer")
    if s.note:
        cv.put(x, y + 6, s.note[: width - 4], "class:box class:timer")
    cv.put(x, y + 7, footer, "class:box class:muted")


def put_columns(
    cv: Canvas, x: int, y: int, width: int, cells: Sequence[tuple[int, str]], style: str
) -> None:
    """A table row `width` wide with each cell at its offset, laid out on its own (a row is
    not one sentence, so its cells never trade places); from the right edge in a
    right-to-left layout. Cells are cut at the next cell's offset and at `width`."""
    cv.put(x, y, " " * width, style)
    ends = [off for off, _t in cells[1:]] + [width]
    for (off, text), end in zip(cells, ends):
        text = fit(text, max(0, min(end, width) - off - (1 if end < width else 0)))
        if rtl.mirrored():
            cv.put(x + width - off - frags_width([(style, text)]), y, text, style)
        else:
            cv.put(x + off, y, text, style)


#: A row of the score sheet: its label and one cell per seat; a plain string is a note.
SheetRow = tuple[str, list[str]]


def score_sheet_rows(
    names: Sequence[str], history: Sequence[Sequence[int]], room: int
) -> list[SheetRow | str]:
    """The score sheet: a row per round (the last `room`), then the totals."""
    rows: list[SheetRow | str] = [("", [n[:7] for n in names])]
    skipped = max(0, len(history) - room)
    if skipped:
        rows.append(_("({n} earlier rounds)").format(n=skipped))
    for i, points in enumerate(history[skipped:], skipped + 1):
        rows.append((_("round {n}").format(n=i), [str(p) for p in points]))
    totals = [sum(r[s] for r in history) for s in range(4)]
    rows.append((_("total"), [str(t) for t in totals]))
    return rows


def put_sheet(cv: Canvas, x: int, y: int, rows: Sequence[SheetRow | str], style: str) -> None:
    """Paint score-sheet rows from (x, y): a 9-cell label, then 8-cell columns. In a
    right-to-left layout the label is at the right and the seats run leftwards from it;
    each cell is laid out on its own, so a row's cells never trade places."""
    mirrored = rtl.mirrored()
    for i, row in enumerate(rows):
        if isinstance(row, str):
            cv.put(x, y + i, row, style)
            continue
        label, cells = row
        if not mirrored:
            cv.put(x, y + i, f"{label[:9]:<9}" + "".join(f"{c:>8}" for c in cells), style)
            continue
        xx = x
        for cell in reversed(cells):
            xx = cv.put(xx, y + i, f"{cell:<8}", style)
        cv.put(xx, y + i, f"{label[:9]:>9}", style)


def paint_game_over(
    cv: Canvas,
    names: Sequence[str],
    result: dict[str, list[int]],
    history: Sequence[Sequence[int]],
    head: str,
    stats: Sequence[M.SeatStats] | None,
    footer: str,
) -> None:
    """Who won, the score sheet, and (live games) what each seat did."""
    stat_rows: list[SheetRow | str] = []
    if stats is not None:
        for label, values in (
            (_("tricks"), [s.tricks for s in stats]),
            (_("Leekhas"), [s.leekhas for s in stats]),
            (_("moons"), [s.moons for s in stats]),
        ):
            stat_rows.append((label, [str(n) for n in values]))
    fixed = 3 + len(stat_rows) + (2 if footer else 0) + 2  # head, winner, loser; stats;
    # footer; borders
    room = max(1, cv.height - 2 - fixed - 2)
    sheet = score_sheet_rows(names, history or [result["totals"]], room)
    rows = len(sheet) + fixed
    x, y = cv.box(min(cv.width, 46), rows, _("game over"))
    inner = min(cv.width, 46) - 4
    winners = ", ".join(names[s] for s in result["winners"])
    losers = ", ".join(names[s] for s in result["losers"]) or "-"
    cv.line(x, y, inner, head, "class:box class:box.title")
    cv.line(x, y + 1, inner, _("winner: {names}").format(names=winners), "class:box")
    cv.line(x, y + 2, inner, _("loser:  {names}").format(names=losers), "class:box")
    put_sheet(cv, x, y + 3, [*sheet, *stat_rows], "class:box")
    if footer:
        cv.line(x, y + rows - 3, inner, footer, "class:box class:muted")


# ---- overlays --------------------------------------------------------------------------


def _help_rows(m: M.ClientModel) -> list[str]:
    if m.screen == M.LOBBY:
        return [
            _("↑/↓ j/k      choose a table"),
            _("Enter        sit at the table"),
            _("w            watch the table"),
            _("Q            quick play: seat me now (bots fill in)"),
            _("n            new table"),
            _("g            refresh the list"),
            _("S            player statistics"),
            _("T            tournaments: standings, Enter watches"),
            _("t            chat;  Enter sends, Esc closes"),
            _("p            quick phrases"),
            _("q            quit (asks first)"),
            _("?            this help"),
        ]
    return [
        _("←/→          move along your hand"),
        _("a … m        jump to a card (pass: choose it)"),
        _("Enter        lift a card; Enter again plays it"),
        _("space        pass phase: choose/unchoose a card"),
        _("Esc          cancel / close"),
        _("y / n        answer the doubling prompt"),
        _("v            show the last trick"),
        _("S            score sheet"),
        _("C            card-counting aid (if the table allows)"),
        _("t            chat;  p quick phrases;  r rematch"),
        _("b x s        host, waiting: add / remove a bot, start"),
        _("L            leave the table;  q quit"),
        _("I            invite a friend: a line to paste"),
        _("P            the players' profiles"),
        "",
        _("(D) dealer   +N points taken this round"),
        _("x2 doubled card   + a card passed to you"),
        _("! the cursor is on a card you may not play"),
    ]


def _paint_help(m: M.ClientModel, cv: Canvas) -> None:
    rows = _help_rows(m)
    x, y = cv.box(56, len(rows) + 3, _("keys"))
    for i, row in enumerate(rows):
        put_key_row(cv, x, y + i, 52, row, "class:box")
    cv.line(x, y + len(rows), 52, _("Esc to close"), "class:box class:muted")


def put_key_row(cv: Canvas, x: int, y: int, width: int, row: str, style: str) -> None:
    """A row of a keys table ("Enter        lift a card"): the key and what it does are
    two cells (mirrored in a right-to-left layout); any other row is a line of text."""
    key, _sp, what = row.partition("   ")
    if key and what.strip() and len(key) < 12:
        start = len(row) - len(row[len(key) :].lstrip())
        put_columns(cv, x, y, width, [(0, key), (start, what.strip())], style)
    else:
        cv.line(x, y, width, row, style)


def _names(m: M.ClientModel) -> list[str]:
    return [m.player_name(s) for s in range(4)]


def _paint_summary(m: M.ClientModel, cv: Canvas) -> None:
    assert m.summary is not None
    paint_round_summary(cv, m.summary, _names(m), m.ascii, _("Enter or Esc to continue"))


def _paint_scores(m: M.ClientModel, cv: Canvas) -> None:
    history = m.score_rows()
    v = m.view
    if v is not None and v["phase"] != "game_over" and any(v["round_points"]):
        history = [*history, list(v["round_points"])]
    sheet = score_sheet_rows(_names(m), history, max(1, cv.height - 9))
    x, y = cv.box(min(cv.width, 46), len(sheet) + 4, _("score sheet"))
    put_sheet(cv, x, y, sheet, "class:box")
    cv.put(x, y + len(sheet) + 1, _("S or Esc to close"), "class:box class:muted")


def _paint_game_over(m: M.ClientModel, cv: Canvas) -> None:
    v = m.view
    assert v is not None and v["result"] is not None
    r = v["result"]
    mine = v.get("seat")  # None when someone else played this seat to the end
    if mine is not None and mine in r["winners"]:
        head = _("You win!")
    elif mine is not None and mine in r["losers"]:
        head = _("You lose.")
    else:
        head = _("the final scores")  # the winner is the next line
    footer = ""
    if m.seated:
        what = _("rematch vote sent") if m.rematch_voted else _("r rematch")
        footer = _("{what}   L leave   q quit").format(what=what)
    paint_game_over(cv, _names(m), r, m.score_rows(), head, m.game_stats, footer)


def _paint_double(m: M.ClientModel, cv: Canvas) -> None:
    card = m.double_offer[0]
    pts = m.rules.card_points()[card] * 2
    x, y = cv.box(50, 5, _("doubling"))
    inner = min(cv.width, 50) - 4
    ask = [("class:box", _("Reveal ")), card_frag(card, m.ascii)]
    ask.append(("class:box", _(" to double it?")))
    cv.frags(x + (inner - frags_width(ask) if rtl.mirrored() else 0), y, ask)
    cv.line(x, y + 1, inner, _("Whoever takes it scores {n}.").format(n=pts), "class:box")
    cv.line(x, y + 2, inner, _("y = double it   n = keep it hidden"), "class:box class:muted")


def _paint_bot_level(m: M.ClientModel, cv: Canvas) -> None:
    x, y = cv.box(44, 4, _("bot level"))
    choices: Frags = [("class:box", _("level:") + " ")]
    for i, level in enumerate(M.BOT_LEVELS):
        style = "class:box class:cursorrow" if i == m.bot_level else "class:box"
        choices += [(style, f" {M.level_word(level)} "), ("class:box", " ")]
    cv.frags(x + (40 - frags_width(choices) if rtl.mirrored() else 0), y, choices)
    cv.line(x, y + 1, 40, _("e easy  m medium  h hard"), "class:box class:muted")


def _paint_form(m: M.ClientModel, cv: Canvas) -> None:
    f = m.form
    assert f is not None
    x, y = cv.box(56, 13, _("new table"))
    preset_target = PRESETS[f.preset].target
    if f.field == "target":
        typed = f.target_text or ""
        how = _("preset {n}").format(n=preset_target) if not typed else _("typed")
        target = f"{typed}_  ({how})"
        if f.target_problem() is not None:
            target = f"{typed}_  ({M.TARGET_MIN}..{M.TARGET_MAX}!)"
    else:
        shown = f.target_text or str(preset_target)
        target = f"‹ {shown} ›" + ("" if f.target_text else _(" (preset)"))
    off = _("off")
    values = {
        "name": f.name + ("_" if f.field == "name" else ""),
        "preset": f"‹ {f.preset} ›  {summary(PRESETS[f.preset])}",
        "target": target,
        "password": ("*" * len(f.password) or _("(none)")) + ("_" if f.field == "password" else ""),
        "pass_timer": f"‹ {f.pass_timer or off} ›" + (" s" if f.pass_timer else ""),
        "turn_timer": f"‹ {f.turn_timer or off} ›" + (" s" if f.turn_timer else ""),
        "counting_aid": "‹ {v} ›".format(v=_("allowed") if f.counting_aid else _("forbidden")),
        "create": _("[ create ]"),
    }
    labels = {
        "name": _("name"),
        "preset": _("rules"),
        "target": _("target"),
        "password": _("password"),
        "pass_timer": _("pass timer"),
        "turn_timer": _("turn timer"),
        "counting_aid": _("count aid"),
        "create": "",
    }
    for i, row in enumerate(f.ROWS):
        style = "class:box class:cursorrow" if i == f.row else "class:box"
        cv.put(x, y + i, f"{labels[row]:>10}  {values[row]}"[:52], style)
    cv.put(x, y + 9, _("↑↓ field  ←→ change  type text/digits"), "class:box class:muted")
    cv.put(x, y + 10, _("Enter create  Esc cancel"), "class:box class:muted")


def _paint_stats(m: M.ClientModel, cv: Canvas) -> None:
    rows = m.stats
    shown = rows[: max(1, cv.height - 9)] if rows else []
    width = min(cv.width, 72)
    x, y = cv.box(width, len(shown) + 6, _("player statistics"))
    heads = [_("player"), _("rating"), _("games"), _("wins")]
    heads += [_("avg/round"), _("Leekhas"), _("moons")]
    widths = (-18, 13, 5, 5, 9, 7, 5)
    head = " ".join(h.ljust(-w) if w < 0 else h.rjust(w) for h, w in zip(heads, widths))
    cv.put(x, y, head[: width - 4], "class:box.title")
    if rows is None:
        cv.put(x, y + 1, _("asking the server…"), "class:box class:muted")
    elif not rows:
        cv.put(x, y + 1, _("no finished games yet"), "class:box class:muted")
    for i, p in enumerate(shown):
        avg = float(p.get("avg_points_per_round", 0.0))
        mu, sigma = p.get("rating"), p.get("rating_sigma")
        rating = f"{mu:.1f} ±{3 * sigma:.1f}" if mu is not None and sigma else _("guest")
        line = (
            f"{str(p.get('name', ''))[:18]:<18} {rating:>13} {p.get('games', 0):>5}"
            f" {p.get('wins', 0):>5} {avg:>9.1f} {p.get('leekhas', 0):>7} {p.get('moons', 0):>5}"
        )
        style = "class:box class:cursorrow" if i == m.stats_cursor else "class:box"
        cv.put(x, y + 1 + i, line[: width - 4], style)
    more = ""
    if rows and len(rows) > len(shown):
        more = _("  (+{n} more)").format(n=len(rows) - len(shown))
    row = y + 1 + max(1, len(shown))
    cv.put(x, row, _("rating: skill ± 3× its uncertainty"), "class:box class:muted")
    cv.put(x, row + 1, _("Esc to close") + more, "class:box class:muted")


def _paint_password(m: M.ClientModel, cv: Canvas) -> None:
    assert m.password_prompt is not None
    x, y = cv.box(40, 4, _("password"))
    cv.put(x, y, "*" * len(m.password_prompt[1]) + "_", "class:box")
    if m.prompt_spectate:
        hint = _("Enter to watch, Esc to cancel")
    else:
        hint = _("Enter to join, Esc to cancel")
    cv.put(x, y + 1, hint, "class:box class:muted")


OVERLAYS: dict[str, Callable[[M.ClientModel, Canvas], None]] = {
    M.HELP: _paint_help,
    M.STATS: _paint_stats,
    M.TOURNAMENTS: lambda m, cv: tournament.paint(m.tournaments, cv) if m.tournaments else None,
    M.PASSWORD: _paint_password,
    M.FORM: _paint_form,
    M.SCORES: _paint_scores,
    M.SUMMARY: _paint_summary,
    M.DOUBLE: _paint_double,
    M.BOT_LEVEL: _paint_bot_level,
    M.GAME_OVER: _paint_game_over,
    M.PHRASES: lambda _m, cv: social.paint_phrases(cv),
    M.PROFILE: lambda m, cv: social.paint_profile(m.profile_box, cv) if m.profile_box else None,
    M.INVITE: lambda m, cv: social.paint_invite(m.invite_box, cv) if m.invite_box else None,
}


# ---- lobby -----------------------------------------------------------------------------


def _seat_summary(t: dict[str, object]) -> str:
    seats = t.get("seats")
    names = []
    for s in seats if isinstance(seats, list) else []:
        if not s.get("name"):
            names.append("—")
        elif s.get("is_bot"):
            names.append(_("{name}[bot]").format(name=s["name"]))
        else:
            names.append(str(s["name"]))
    return ", ".join(names)


def _paint_lobby(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    tables = m.lobby_tables()
    cv.put(x0, y0, _("Tables"), "class:lobby.head")
    if not tables:
        cv.put(x0, y0 + 2, _("No tables yet. Press n to create one."), "class:muted")
        return
    row = y0 + 1
    for i, t in enumerate(tables):
        if row >= y0 + h - 1:
            break
        seats = t.get("seats") or []
        filled = sum(1 for s in seats if s.get("name"))
        lock = _(" [pw]") if t.get("has_password") else ""
        rules = t.get("rules") or {}
        target = rules.get("target", "?") if isinstance(rules, dict) else "?"
        status = {"waiting": _("waiting"), "playing": _("playing"), "finished": _("finished")}
        cells = [
            (0, t["name"][:18]),
            (19, t["preset"]),
            (31, _("to {n}").format(n=target)),
            (39, f"{filled}/4"),
            (45, status.get(t["status"], t["status"]) + lock),
        ]
        style = "class:cursorrow" if i == m.lobby_cursor else ""
        put_columns(cv, x0, row, min(w, 60), cells, style)
        cv.put(x0 + 2, row + 1, _seat_summary(t)[: w - 2], "class:muted")
        row += 2


# ---- frame -----------------------------------------------------------------------------


def hint_items(m: M.ClientModel) -> list[tuple[str, str]]:
    """The key hints for what is on screen, most important first ("? help" last)."""
    top = m.overlay
    if m.holding:
        return [(_("any key"), _("next trick"))]
    if m.screen == M.CONNECTING:
        return [("q", _("quit"))]
    if top == M.HELP:
        return [("Esc", _("close"))]
    if top == M.FORM:
        return [
            ("↑↓", _("field")),
            ("←→", _("change")),
            ("Enter", _("create")),
            ("Esc", _("cancel")),
        ]
    if top == M.STATS:
        return [("↑↓", _("choose")), ("Enter", _("profile")), ("Esc", _("close"))]
    if top == M.SCORES:
        return [("Esc", _("close"))]
    if top == M.TOURNAMENTS and m.tournaments is not None:
        enter = _("watch") if m.tournaments.following_one else _("open")
        esc = _("back") if m.tournaments.following_one else _("close")
        join = [("e", _("take part"))] if m.tournaments.following_one else []
        return [("↑↓", _("choose")), ("Enter", enter), *join, ("g", _("refresh")), ("Esc", esc)]
    if top == M.PASSWORD:
        return [("Enter", _("join")), ("Esc", _("cancel"))]
    if top == M.SUMMARY:
        return [("Enter", _("continue")), ("S", _("score sheet"))]
    if top == M.DOUBLE:
        return [("y", _("double it")), ("n", _("keep it hidden"))]
    if top == M.PROFILE:
        return [("↑↓", _("choose")), ("Enter", _("show")), ("Esc", _("back"))]
    if top == M.PHRASES:
        return [("1-8", _("say it")), ("Esc", _("close"))]
    if top == M.INVITE:
        pw = m.invite_box is not None and m.invite_box.password is not None
        return [("p", _("password in or out"))] * pw + [("Esc", _("close"))]
    if top == M.BOT_LEVEL:
        return [("←→", _("level")), ("Enter", _("add the bot")), ("Esc", _("cancel"))]
    if top == M.GAME_OVER:
        return [("r", _("rematch")), ("L", _("leave")), ("q", _("quit"))]
    if m.screen == M.LOBBY:
        return [
            ("↑↓", _("choose")),
            ("Enter", _("join")),
            ("Q", _("quick play")),
            ("n", _("new")),
            ("T", _("tournaments")),
            ("S", _("stats")),
            ("w", _("watch")),
            ("t", _("chat")),
            ("p", _("phrases")),
            ("g", _("refresh")),
            ("q", _("quit")),
            ("?", _("help")),
        ]
    if m.status_word == "waiting":
        host = [("b", _("add bot")), ("x", _("remove bot")), ("s", _("start"))]
        return [
            *(host if m.is_host else []),
            ("I", _("invite")),
            ("L", _("leave")),
            ("?", _("help")),
        ]
    if m.autopiloted:
        return [("Enter", _("take your seat back")), ("S", _("scores")), ("?", _("help"))]
    if m.phase == "pass" and m.my_turn:
        return [
            ("←→", _("move")),
            ("space", _("choose")),
            ("Enter", _("pass")),
            ("Esc", _("clear")),
            ("S", _("scores")),
            ("?", _("help")),
        ]
    if m.phase == "play" and m.my_turn:
        return [
            ("←→/a-m", _("pick")),
            ("Enter", _("lift, again to play")),
            ("Esc", _("cancel")),
            ("v", _("last trick")),
            ("?", _("help")),
        ]
    return [
        ("v", _("last trick")),
        ("S", _("scores")),
        ("t", _("chat")),
        ("p", _("phrases")),
        ("?", _("help")),
    ]


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


def _header(m: M.ClientModel, opts: Options, width: int) -> Frags:
    parts = [opts.title]
    if m.table is not None:
        parts += [str(m.table.get("name", "")), summary(m.rules)]
        if m.view is not None:
            parts.append(_("round {n}").format(n=m.view["round"] + 1))
    elif m.server_label or m.server:
        parts.append(m.server_label or m.server)
    right = f"{m.name} "
    style = "class:header"
    if m.conn == M.RECONNECTING:
        right = _("reconnecting… {detail}").format(detail=m.conn_detail) + " "
        style = "class:header.alert"
    elif m.conn == M.FAILED:
        right = _("offline") + " "
        style = "class:header.alert"
    right = fit(right, width)
    # The right part (who you are, or the connection) wins; the left is shortened.
    left = fit(" " + " · ".join(parts), max(0, width - len(right) - 1))
    pad = max(0, width - len(left) - len(right))
    return [(style, left + " " * pad + right)]


def _paint_too_small(cv: Canvas) -> None:
    text = _("window too small: need {w}×{h}").format(w=MIN_WIDTH, h=MIN_HEIGHT)
    for i, line in enumerate(wrap(text, cv.width)):
        cv.put(0, i, line, "class:status.error")


def chat_width(width: int) -> int:
    if width < CHAT_MIN_WIDTH:
        return 0
    return max(CHAT_WIDTH, min(CHAT_MAX_WIDTH, width // 5))


def paint(m: M.ClientModel, opts: Options, width: int, height: int) -> Canvas:
    """The whole frame for a window of width x height."""
    cv = Canvas(width, height)
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        _paint_too_small(cv)
        return cv.asciified() if m.ascii or opts.ascii else cv
    cv.frags(0, 0, _header(m, opts, width))
    chat_w = chat_width(width) if m.screen != M.CONNECTING else 0
    main_w = width - chat_w - (1 if chat_w else 0)
    status = wrap(m.status, width)[:2] if m.status else []
    body_h = height - 2 - max(1, len(status))
    if m.screen == M.CONNECTING:
        text = _("Connecting…") if m.conn != M.FAILED else m.conn_detail
        for i, line in enumerate(wrap(text, width - 4)):
            cv.put(2, height // 2 + i, line, "class:status.error" if m.conn == M.FAILED else "")
    elif m.screen == M.LOBBY:
        _paint_lobby(m, cv, 1, 1, main_w - 1, body_h)
    else:
        # A big window gets a bigger table, not four seats lost in the corners.
        tw, th = min(main_w - 2, TABLE_MAX_WIDTH), min(body_h, TABLE_MAX_HEIGHT)
        _paint_table(m, cv, 1 + (main_w - 2 - tw) // 2, 1 + (body_h - th) // 2, tw, th)
    if chat_w:
        _paint_side(m, cv, main_w + 1, 1, chat_w, body_h)
    elif m.counting and m.screen == M.TABLE:
        _paint_counting(m, cv, 1, 3, main_w - 2)
    hints = fit_hints(hint_items(m), width)
    cv.line(0, height - 1 - max(1, len(status)), width, hints, "class:hint")
    status_style = "class:status.error" if m.status_error else "class:status"
    for i, line in enumerate(status):
        cv.line(0, height - len(status) + i, width, line, status_style)
    top = m.overlay
    if top is not None:
        OVERLAYS[top](m, cv)
    return cv.asciified() if m.ascii or opts.ascii else cv


def _paint_counting(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int) -> int:
    """The card-counting aid: cards still out per suit, and voids shown; returns rows used."""
    out = m.cards_out()
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
    for seat in range(4):
        if seat != m.your_seat and m.shown_void[seat]:
            suits = "".join(symbols[s] for s in sorted(m.shown_void[seat]))
            voids.append(f"{m.player_name(seat)[:8]}:{suits}")
    if voids:
        for line in wrap(_("void: {seats}").format(seats=" ".join(voids)), w)[:2]:
            cv.put(x0, row, line, "class:muted")
            row += 1
    return row - y0 + 1


def _paint_side(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    """The right-hand column: the counting aid when on, then the chat."""
    for yy in range(y0, y0 + h):
        cv.put(x0 - 1, yy, "│", "class:muted")
    if m.counting and m.screen == M.TABLE:
        used = _paint_counting(m, cv, x0, y0, w)
        y0 += used
        h -= used
    cv.put(x0, y0, _("chat (t to talk)")[:w], "class:muted")
    lines: list[Frags] = []
    for sender, text in m.chat:
        wrapped = wrap(f"{sender}: {text}", w)
        first = wrapped[0]
        name = f"{sender}:"
        lines.append([("class:chat.from", name), ("", first[len(name) :])])
        lines.extend([[("", rest)] for rest in wrapped[1:]])
    room = h - 1
    for i, frags in enumerate(lines[-room:] if room > 0 else []):
        cv.frags(x0, y0 + 1 + i, frags)


def render_text(m: M.ClientModel, width: int = 80, height: int = 24, ascii: bool = False) -> str:
    """The frame as plain text (for tests and the notes' captures)."""
    return paint(m, Options(ascii=ascii), width, height).text()


# ---- prompt_toolkit glue ---------------------------------------------------------------


class FrameControl(UIControl):
    """One control that paints the whole frame at the size it is given."""

    def __init__(self, painter: Callable[[int, int], Canvas]) -> None:
        self.painter = painter
        self.frames = 0
        self.on_frame: Callable[[int], None] | None = None

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.painter(width, height).lines()
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(self.frames)
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines))

    def is_focusable(self) -> bool:
        return True


def build_layout(
    m: M.ClientModel, opts: Options, chat_buffer: Buffer
) -> tuple[Layout, FrameControl]:
    control = FrameControl(lambda w, h: paint(m, opts, w, h))
    body = Window(control, always_hide_cursor=True)
    chat_prompt: StyleAndTextTuples = [("class:chat.from", _(" say: "))]
    chat_line = ConditionalContainer(
        VSplit(
            [
                Window(FormattedTextControl(chat_prompt), width=6, height=1),
                Window(BufferControl(chat_buffer), height=1),
            ]
        ),
        filter=Condition(lambda: m.chat_open),
    )
    root = HSplit([body, chat_line])
    return Layout(root, focused_element=body), control
