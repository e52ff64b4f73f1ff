"""The table screen: four seats around the trick, your hand at the bottom.

The viewer sits south and play runs counter-clockwise; each seat gets two lines (who, and
the scores) and the trick's cards lie between them. The trick's geometry is shared with
the replay viewer.
"""

from __future__ import annotations

from leekha.client.i18n import _
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, Frags, clip, frags_width
from leekha.client.tui.cardfrags import card_frag


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
    if seat == v.dealer:
        first.append(("class:seat.dealer", _(" (D)")))
    partners = m.rules.partnership != "off"
    if partners and m.your_seat is not None and seat == (m.your_seat + 2) % 4:
        first.append(("class:seat.partner", _(" (partner)")))
    if m.rules.partnership == "combined":
        # Partners' points are added: the team figure is the one that decides the game.
        team = v.totals[seat] + v.totals[(seat + 2) % 4]
        first.append(("class:seat.partner", _(" · team {n}").format(n=team)))
    second: Frags = [
        ("", _("{total} pts  +{now}").format(total=v.totals[seat], now=v.round_points[seat]))
    ]
    left = m.seat_seconds_left(seat) if seat != m.your_seat else None
    clock = [("class:timer", _(" ⏱ {n}s").format(n=left))] if left is not None else []
    if v.phase == "play" and v.turn == seat:
        second.append(("class:seat.turn", _("  ◀ turn")))
        second.extend(clock)
    elif v.phase == "pass":
        done = v.passes_done[seat] and not m.waiting_for(seat)
        second.append(("class:muted", _("  passed") if done else _("  passing…")))
        second.extend(clock)
        # Only during the pass is a doubled card known to be in the doubler's hand.
        doubled = [c for c, s in v.doubled if s == seat]
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


def paint_table(m: M.ClientModel, cv: Canvas, x0: int, y0: int, w: int, h: int) -> None:
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
    elif m.trick_done and m.last_trick is not None and not v.trick:
        cv.center(cx, note_y, m.trick_note, "class:timer" if "!" in m.trick_note else "class:muted")
    elif v.phase == "pass":
        dest = v.pass_to
        if m.seated and dest is not None:
            note = _("passing to {name}").format(name=m.player_name(dest))
            cv.center(cx, spots["S"][1], note, "class:muted")
    doubles = m.unplayed_doubles() if v.phase == "play" else []
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
