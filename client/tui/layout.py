"""What the player sees: the lobby, the table and their overlays, painted from the model.

Each frame is painted afresh onto a Canvas sized to the window (so 80x24 and any resize work
the same way) by pure functions of the model; `render_text` gives tests the same frame as
plain text. The only live prompt_toolkit widgets are the chat input line and the root
container; everything else is one UIControl that asks these functions for its lines.
"""

from __future__ import annotations

from collections.abc import Callable
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

from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, Frags, frags_width, wrap
from leekha.common import cards as C
from leekha.common.config import PRESETS

STYLE = Style.from_dict(
    {
        "header": "reverse",
        "header.alert": "reverse fg:ansiyellow",
        "card": "bg:#f4f4f4 fg:#000000",
        "card.red": "fg:#c00000",
        "card.black": "fg:#000000",
        "card.dim": "bg:#6c6c6c fg:#2a2a2a",
        "card.legal": "bold",
        "card.cursor": "underline bold bg:#ffffaf",
        "card.selected": "bg:#87d7ff",
        "card.lifted": "bg:#ffd787",
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
CHAT_WIDTH = 24


@dataclass
class Options:
    ascii: bool = False
    title: str = "Leekha"


# ---- cards -----------------------------------------------------------------------------


def card_text(card: int, ascii: bool) -> str:
    return C.format_card(card, ascii=ascii)


def card_frag(card: int, ascii: bool, extra: str = "", width: int = 3) -> tuple[str, str]:
    colour = "class:card.red" if C.suit_of(card) in (C.HEARTS, C.DIAMONDS) else "class:card.black"
    return (f"class:card {colour} {extra}".strip(), card_text(card, ascii).ljust(width))


def cards_frags(cards: list[int], ascii: bool) -> Frags:
    out: Frags = []
    for c in cards:
        out.append(card_frag(c, ascii))
        out.append(("", " "))
    return out


# ---- seats -----------------------------------------------------------------------------


def _seat_lines(m: M.ClientModel, seat: int) -> tuple[Frags, Frags]:
    """Two lines about a seat: who (and state), and its scores."""
    p = m.players[seat] if seat < len(m.players) else {}
    name = m.player_name(seat) if p.get("name") else "(empty)"
    you = " (you)" if seat == m.your_seat else ""
    first: Frags = [("class:seat.name", name + you)]
    if p.get("is_bot"):
        first.append(("class:seat.bot", " [bot]"))
    elif p.get("name") and not p.get("connected", True):
        first.append(("class:seat.away", " [away]"))
    v = m.view
    if v is None:
        host = [("class:muted", "host")] if p.get("is_host") else []
        return first, host
    if seat == v["dealer"]:
        first.append(("class:seat.dealer", " (D)"))
    partners = m.rules.partnership != "off"
    if partners and m.your_seat is not None and seat == (m.your_seat + 2) % 4:
        first.append(("class:seat.partner", " (partner)"))
    if m.rules.partnership == "combined":
        # Partners' points are added: the team figure is the one that decides the game.
        team = v["totals"][seat] + v["totals"][(seat + 2) % 4]
        first.append(("class:seat.partner", f" · team {team}"))
    second: Frags = [("", f"{v['totals'][seat]} pts  +{v['round_points'][seat]}")]
    if v["phase"] == "play" and v["turn"] == seat:
        second.append(("class:seat.turn", "  ◀ turn" if not m.ascii else "  < turn"))
    elif v["phase"] == "pass":
        done = v["passes_done"][seat]
        second.append(("class:muted", "  passed" if done else "  passing…"))
    doubled = [c for c, s in v["doubled"] if s == seat]
    if doubled:
        second.append(("class:timer", "  x2 " + " ".join(card_text(c, m.ascii) for c in doubled)))
    return first, second


def _seat_pos(m: M.ClientModel, seat: int) -> str:
    """Where a seat sits on screen: the viewer is south and play runs counter-clockwise."""
    me = m.your_seat if m.your_seat is not None else 0
    return ("S", "E", "N", "W")[(seat - me) % 4]


# ---- the table -------------------------------------------------------------------------


def _paint_table(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    v = m.view
    ascii = m.ascii
    by_pos = {_seat_pos(m, s): s for s in range(4)}
    cx = x0 + w // 2
    # north
    f1, f2 = _seat_lines(m, by_pos["N"])
    cv.frags(cx - frags_width(f1) // 2, y0, f1)
    cv.frags(cx - frags_width(f2) // 2, y0 + 1, f2)
    # hand block at the bottom: info, lift row, cards, labels
    hand_y = y0 + h - 3
    mid_top, mid_bot = y0 + 2, hand_y - 2
    cy = (mid_top + mid_bot) // 2
    # west and east
    f1, f2 = _seat_lines(m, by_pos["W"])
    cv.frags(x0, cy - 1, f1)
    cv.frags(x0, cy, f2)
    f1, f2 = _seat_lines(m, by_pos["E"])
    cv.frags(x0 + w - frags_width(f1), cy - 1, f1)
    cv.frags(x0 + w - frags_width(f2), cy, f2)
    if v is None:
        filled = sum(1 for p in m.players if p.get("name"))
        note = f"waiting for players ({filled}/4)"
        cv.put(cx - len(note) // 2, cy, note, "class:muted")
        if m.is_host:
            note = "b: add a bot   x: remove a bot   s: start"
            cv.put(cx - len(note) // 2, cy + 1, note, "class:hint")
        f1, f2 = _seat_lines(m, by_pos["S"])
        cv.frags(cx - frags_width(f1) // 2, hand_y, f1)
        return
    # the trick
    spots = {"N": (cx - 1, cy - 2), "S": (cx - 1, cy + 2), "W": (cx - 7, cy), "E": (cx + 5, cy)}
    trick = m.display_trick()
    if m.show_last and m.last_trick is not None:
        trick = list(m.last_trick["cards"])
    lead = trick[0][0] if trick else None
    for seat, card in trick:
        x, y = spots[_seat_pos(m, seat)]
        cv.frags(x, y, [card_frag(card, ascii, "class:card.legal" if seat == lead else "")])
    if m.show_last and m.last_trick is not None:
        t = m.last_trick
        note = f"last trick: {m.player_name(t['winner'])} took it (+{t['points']})"
        cv.put(cx - len(note) // 2, cy + 3, note, "class:timer")
    elif m.trick_done and m.last_trick is not None and not v["trick"]:
        t = m.last_trick
        note = f"{m.player_name(t['winner'])} takes it (+{t['points']})"
        cv.put(cx - len(note) // 2, cy + 3, note, "class:muted")
    elif v["phase"] == "pass":
        dest = v.get("pass_to")
        if m.seated and dest is not None:
            note = f"passing to {m.player_name(dest)}"
            cv.put(cx - len(note) // 2, cy + 2, note, "class:muted")
    # south: own line
    me = by_pos["S"]
    f1, f2 = _seat_lines(m, me)
    line = [*f1, ("", "   "), *f2]
    left = m.seconds_left()
    if left is not None and m.my_turn:
        line.append(("class:timer", f"   ⏱ {left}s" if not ascii else f"   time {left}s"))
    cv.frags(cx - frags_width(line) // 2, hand_y - 1, line)
    _paint_hand(m, cv, cx, hand_y)


def _paint_hand(m: M.ClientModel, cv: Canvas, cx: int, y: int) -> None:
    hand = m.hand
    if not hand:
        if m.your_seat is None:
            note = "spectating"
            cv.put(cx - len(note) // 2, y + 1, note, "class:muted")
        return
    pass_phase = m.phase == "pass"
    ok = m.pass_choosable() if pass_phase else m.legal_plays()
    active = m.my_turn
    step = 4
    x = cx - (len(hand) * step) // 2
    for i, card in enumerate(hand):
        extra = []
        if active and card not in ok and card not in m.pass_sel:
            extra.append("class:card.dim")
        elif active:
            extra.append("class:card.legal")
        if card in m.pass_sel:
            extra.append("class:card.selected")
        if card == m.lifted:
            extra.append("class:card.lifted")
        if i == m.cursor:
            extra.append("class:card.cursor")
        raised = card == m.lifted or card in m.pass_sel
        cv.frags(x, y if raised else y + 1, [card_frag(card, m.ascii, " ".join(extra))])
        label = chr(ord("a") + i)
        cv.put(x + 1, y + 2, label, "class:hint" if i != m.cursor else "class:card.cursor")
        x += step


# ---- overlays --------------------------------------------------------------------------


def _paint_help(cv: Canvas) -> None:
    rows = [
        "←/→          move along your hand",
        "a … m        jump to a card (pass: toggle it)",
        "Enter        lift a card; Enter again plays it",
        "space        pass phase: choose/unchoose a card",
        "Enter        with 3 chosen: confirm the pass",
        "Esc          cancel / close",
        "y / n        answer the doubling prompt",
        "v            show the last trick",
        "t            chat;  Enter sends, Esc closes",
        "r            rematch (after game over)",
        "b / x / s    host, waiting room: add a bot / remove",
        "             the last bot / start",
        "S            lobby: player statistics",
        "L            leave the table",
        "q            quit (asks first)",
        "?            this help",
    ]
    x, y = cv.box(56, len(rows) + 3, "keys")
    for i, row in enumerate(rows):
        cv.put(x, y + i, row, "class:box")


def _paint_summary(m: M.ClientModel, cv: Canvas) -> None:
    s = m.summary
    assert s is not None
    x, y = cv.box(min(cv.width, 70), 9, f"round {s.round + 1} over")
    cv.put(x, y, "player          taken                                 pts  total", "class:box")
    for seat in range(4):
        name = m.player_name(seat)[:14].ljust(14)
        taken = s.taken[seat]
        cv.put(x, y + 1 + seat, name + "  ", "class:box")
        xx = x + 16
        for c in C.display_order(taken)[:12]:
            xx = cv.frags(
                xx, y + 1 + seat, [card_frag(c, m.ascii, width=len(card_text(c, m.ascii)))]
            )
            xx = cv.put(xx, y + 1 + seat, " ", "class:box")
        if len(taken) > 12:
            cv.put(xx, y + 1 + seat, f"+{len(taken) - 12}", "class:box")
        cv.put(x + 54, y + 1 + seat, f"{s.round_points[seat]:>3}  {s.totals[seat]:>5}", "class:box")
    cv.put(x, y + 6, "Enter or Esc to continue", "class:box class:muted")


def _paint_game_over(m: M.ClientModel, cv: Canvas) -> None:
    v = m.view
    assert v is not None and v["result"] is not None
    r = v["result"]
    x, y = cv.box(min(cv.width, 52), 11, "game over")
    winners = ", ".join(m.player_name(s) for s in r["winners"])
    losers = ", ".join(m.player_name(s) for s in r["losers"]) or "-"
    mine = v.get("seat")  # None when someone else played this seat to the end
    if mine is not None and mine in r["winners"]:
        head = "You win!"
    elif mine is not None and mine in r["losers"]:
        head = "You lose."
    else:
        head = f"{winners} wins"
    cv.put(x, y, head, "class:box class:box.title")
    cv.put(x, y + 1, f"winner: {winners}", "class:box")
    cv.put(x, y + 2, f"loser:  {losers}", "class:box")
    for seat in range(4):
        cv.put(
            x, y + 3 + seat, f"  {m.player_name(seat)[:20]:<20} {r['totals'][seat]:>5}", "class:box"
        )
    if m.seated:
        what = "rematch vote sent" if m.rematch_voted else "r = rematch"
        cv.put(x, y + 8, f"{what}   L = leave   q = quit", "class:box class:muted")


def _paint_double(m: M.ClientModel, cv: Canvas) -> None:
    card = m.double_offer[0]
    pts = m.rules.card_points()[card] * 2
    x, y = cv.box(50, 5, "doubling")
    cv.frags(
        x, y, [("class:box", "Reveal "), card_frag(card, m.ascii), ("class:box", " to double it?")]
    )
    cv.put(x, y + 1, f"Whoever takes it scores {pts}.", "class:box")
    cv.put(x, y + 2, "y = double it   n = keep it hidden", "class:box class:muted")


def _paint_form(m: M.ClientModel, cv: Canvas) -> None:
    f = m.form
    assert f is not None
    x, y = cv.box(56, 12, "new table")
    preset_target = PRESETS[f.preset].target
    if f.field == "target":
        typed = f.target_text or ""
        target = f"{typed}_  ({'preset ' + str(preset_target) if not typed else 'typed'})"
        if f.target_problem() is not None:
            target = f"{typed}_  ({M.TARGET_MIN}..{M.TARGET_MAX}!)"
    else:
        shown = f.target_text or str(preset_target)
        target = f"‹ {shown} ›" + ("" if f.target_text else " (preset)")
    values = {
        "name": f.name + ("_" if f.field == "name" else ""),
        "preset": f"‹ {f.preset} ›  {PRESETS[f.preset].summary()}",
        "target": target,
        "password": ("*" * len(f.password) or "(none)") + ("_" if f.field == "password" else ""),
        "pass_timer": f"‹ {f.pass_timer or 'off'} ›" + (" s" if f.pass_timer else ""),
        "turn_timer": f"‹ {f.turn_timer or 'off'} ›" + (" s" if f.turn_timer else ""),
        "create": "[ create ]",
    }
    labels = {
        "name": "name",
        "preset": "rules",
        "target": "target",
        "password": "password",
        "pass_timer": "pass timer",
        "turn_timer": "turn timer",
        "create": "",
    }
    for i, row in enumerate(f.ROWS):
        style = "class:box class:cursorrow" if i == f.row else "class:box"
        cv.put(x, y + i, f"{labels[row]:>10}  {values[row]}"[:52], style)
    cv.put(x, y + 8, "↑↓ field  ←→ change  type text/digits  Enter create", "class:box class:muted")
    cv.put(x, y + 9, "Esc cancel", "class:box class:muted")


def _paint_stats(m: M.ClientModel, cv: Canvas) -> None:
    rows = m.stats
    shown = rows[: max(1, cv.height - 8)] if rows else []
    width = min(cv.width, 60)
    x, y = cv.box(width, len(shown) + 5, "player statistics")
    cv.put(x, y, f"{'player':<24} {'games':>6} {'wins':>6} {'avg/round':>10}", "class:box.title")
    if rows is None:
        cv.put(x, y + 1, "asking the server…", "class:box class:muted")
    elif not rows:
        cv.put(x, y + 1, "no finished games yet", "class:box class:muted")
    for i, p in enumerate(shown):
        avg = float(p.get("avg_points_per_round", 0.0))
        line = f"{str(p.get('name', ''))[:24]:<24} {p.get('games', 0):>6} {p.get('wins', 0):>6} "
        cv.put(x, y + 1 + i, (line + f"{avg:>10.1f}")[: width - 4], "class:box")
    more = f"  (+{len(rows) - len(shown)} more)" if rows and len(rows) > len(shown) else ""
    cv.put(x, y + 1 + max(1, len(shown)), "Esc to close" + more, "class:box class:muted")


def _paint_password(m: M.ClientModel, cv: Canvas) -> None:
    assert m.password_prompt is not None
    x, y = cv.box(40, 4, "password")
    cv.put(x, y, "*" * len(m.password_prompt[1]) + "_", "class:box")
    cv.put(x, y + 1, "Enter to join, Esc to cancel", "class:box class:muted")


# ---- lobby -----------------------------------------------------------------------------


def _seat_summary(t: dict[str, object]) -> str:
    seats = t.get("seats")
    names = []
    for s in seats if isinstance(seats, list) else []:
        if not s.get("name"):
            names.append("—")
        elif s.get("is_bot"):
            names.append(f"{s['name']}[bot]")
        else:
            names.append(str(s["name"]))
    return ", ".join(names)


def _paint_lobby(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    tables = m.lobby_tables()
    cv.put(x0, y0, "Tables", "class:lobby.head")
    if not tables:
        cv.put(x0, y0 + 2, "No tables yet. Press n to create one.", "class:muted")
        return
    row = y0 + 1
    for i, t in enumerate(tables):
        if row >= y0 + h - 1:
            break
        seats = t.get("seats") or []
        filled = sum(1 for s in seats if s.get("name"))
        lock = " [pw]" if t.get("has_password") else ""
        rules = t.get("rules") or {}
        target = rules.get("target", "?") if isinstance(rules, dict) else "?"
        head = (
            f"{t['name'][:18]:<18} {t['preset']:<11} to {target:<4} {filled}/4  {t['status']}{lock}"
        )
        style = "class:cursorrow" if i == m.lobby_cursor else ""
        cv.put(x0, row, head[:w].ljust(min(w, 60)), style)
        cv.put(x0 + 2, row + 1, _seat_summary(t)[: w - 2], "class:muted")
        row += 2


# ---- frame -----------------------------------------------------------------------------


def _hints(m: M.ClientModel) -> str:
    if m.screen == M.CONNECTING:
        return "q quit"
    if m.screen == M.LOBBY:
        if m.form is not None:
            return "↑↓ field  ←→ change  Enter create  Esc cancel"
        if m.stats_open:
            return "Esc close"
        return "↑↓ choose  Enter join  w watch  n new  g refresh  S stats  t chat  ? help  q quit"
    if m.summary is not None:
        return "Enter continue"
    phase = m.phase
    if m.status_word == "waiting":
        return (
            "b add bot  x remove bot  s start  " if m.is_host else "waiting for the host  "
        ) + "L leave  ? help"
    if phase == "pass" and m.my_turn:
        return "←→ move  space choose  Enter pass  Esc clear  ? help"
    if phase == "play" and m.my_turn:
        return "←→/a-m pick  Enter lift, Enter play  Esc cancel  v last trick  ? help"
    if phase == "game_over":
        return "r rematch  L leave  q quit"
    return "v last trick  t chat  ? help  q quit"


def _header(m: M.ClientModel, opts: Options, width: int) -> Frags:
    left = f" {opts.title}"
    if m.table is not None:
        left += f" · {m.table.get('name', '')} · {m.rules.summary()}"
        if m.view is not None:
            left += f" · round {m.view['round'] + 1}"
    elif m.server:
        left += f" · {m.server}"
    right = f"{m.name} "
    style = "class:header"
    if m.conn == M.RECONNECTING:
        right = f"reconnecting… {m.conn_detail} "
        style = "class:header.alert"
    elif m.conn == M.FAILED:
        right = "offline "
        style = "class:header.alert"
    pad = max(1, width - len(left) - len(right))
    return [(style, (left + " " * pad + right)[:width].ljust(width))]


def paint(m: M.ClientModel, opts: Options, width: int, height: int) -> Canvas:
    """The whole frame for a window of width x height."""
    cv = Canvas(width, height)
    cv.frags(0, 0, _header(m, opts, width))
    chat_w = CHAT_WIDTH if width >= CHAT_MIN_WIDTH and m.screen != M.CONNECTING else 0
    main_w = width - chat_w - (1 if chat_w else 0)
    body_h = height - 3
    if m.screen == M.CONNECTING:
        text = "Connecting…" if m.conn != M.FAILED else m.conn_detail
        for i, line in enumerate(wrap(text, width - 4)):
            cv.put(2, height // 2 + i, line, "class:status.error" if m.conn == M.FAILED else "")
    elif m.screen == M.LOBBY:
        _paint_lobby(m, cv, 1, 1, main_w - 1, body_h)
    else:
        _paint_table(m, cv, 1, 1, main_w - 2, body_h)
    if chat_w:
        _paint_chat(m, cv, main_w + 1, 1, chat_w, body_h)
    cv.put(0, height - 2, _hints(m)[:width], "class:hint")
    status_style = "class:status.error" if m.status_error else "class:status"
    cv.put(0, height - 1, m.status[:width], status_style)
    # overlays, innermost last
    if m.screen == M.TABLE and m.phase == "game_over" and m.summary is None:
        _paint_game_over(m, cv)
    if m.summary is not None and m.screen == M.TABLE:
        _paint_summary(m, cv)
    if m.double_offer and m.screen == M.TABLE and m.summary is None:
        _paint_double(m, cv)
    if m.form is not None:
        _paint_form(m, cv)
    if m.password_prompt is not None:
        _paint_password(m, cv)
    if m.stats_open and m.screen == M.LOBBY:
        _paint_stats(m, cv)
    if m.show_help:
        _paint_help(cv)
    return cv


def _paint_chat(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
    for yy in range(y0, y0 + h):
        cv.put(x0 - 1, yy, "│", "class:muted")
    cv.put(x0, y0, "chat (t to talk)"[:w], "class:muted")
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
    """The frame as plain text (for tests and the replay's print mode)."""
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
    chat_prompt: StyleAndTextTuples = [("class:chat.from", " say: ")]
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
