"""The table screen: four seats around the trick, your hand at the bottom.

The viewer sits south and play runs counter-clockwise; each seat gets two lines (who, and
the scores) and the trick's cards lie between them. The trick's geometry is shared with
the replay viewer.
"""

from __future__ import annotations

from collections.abc import Mapping

from leekha.client.i18n import _, ngettext
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, Frags, clip, fit_name, frags_width
from leekha.client.tui.cardfrags import card_frag
from leekha.client.tui.words import server_bot_name

#: What one line about a seat holds: the name (which may be shortened) and its parts,
#: most important first; a part is shown whole or left out, never cut.
SeatLine = tuple[Frags, list[Frags]]


def _seat_lines(m: M.ClientModel, seat: int) -> tuple[SeatLine, SeatLine]:
    """Two lines about a seat: who (and state), and its scores."""
    p: Mapping[str, object] = m.game.players[seat] if seat < len(m.game.players) else {}
    name = m.player_name(seat) if p.get("name") else _("(empty)")
    head: Frags = [("class:seat.name", name)]
    tags: list[Frags] = []
    if seat == m.game.your_seat:
        tags.append([("class:seat.name", _(" (you)"))])
    level_named = p.get("name") == server_bot_name(str(p.get("strategy")), seat)
    if p.get("is_bot") and level_named:
        head = [("class:seat.bot", name)]  # "hard bot 2" says it already
    elif p.get("is_bot") and p.get("strategy") in M.BOT_LEVELS:
        level = M.level_word(str(p["strategy"]))
        tags.append([("class:seat.bot", _(" [bot: {level}]").format(level=level))])
    elif p.get("is_bot"):
        tags.append([("class:seat.bot", _(" [bot]"))])
    elif m.game.control(seat) == "autopilot":
        tags.append([("class:seat.away", _(" [a bot plays]"))])
    elif p.get("name") and not p.get("connected", True):
        tags.append([("class:seat.away", _(" [away]"))])
    said = m.social.bubble(seat)  # a quick phrase, for a few seconds
    if said is not None:
        tags.append([("class:chat.from", f" «{said}»")])
    v = m.game.view
    if v is None:
        host = [[("class:muted", _("host"))]] if p.get("is_host") else []
        return (head, tags), ([], host)
    if seat == v.dealer:
        tags.append([("class:seat.dealer", _(" (D)"))])
    partners = m.game.rules.partnership != "off"
    if partners and m.game.your_seat is not None and seat == (m.game.your_seat + 2) % 4:
        tags.append([("class:seat.partner", _(" (partner)"))])
    if m.game.rules.partnership == "combined":
        # Partners' points are added: the team figure is the one that decides the game.
        team = v.totals[seat] + v.totals[(seat + 2) % 4]
        tags.append([("class:seat.partner", _(" · team {n}").format(n=team))])
    score = _("{total} pts  +{now}").format(total=v.totals[seat], now=v.round_points[seat])
    second: list[Frags] = [[("", score)]]
    live = m.link.state == M.ONLINE  # a clock seen while reconnecting would stand still
    left = m.game.seat_seconds_left(seat) if seat != m.game.your_seat and live else None
    clock = [("class:timer", _(" ⏱ {n}s").format(n=left))] if left is not None else []
    if v.phase == "play" and v.turn == seat:
        mark = _("  ◀ your turn") if seat == m.game.your_seat else _("  ◀ turn")
        second.append([("class:seat.turn", mark)])
        second.append(clock)
    elif v.phase == "pass":
        # Only during the pass is a doubled card known to be in the doubler's hand: that
        # comes before the pass's progress, which a narrow line leaves out first. The
        # clock comes before the word: a seat on a side has room for one of them only,
        # and the clock says that the seat is passing as well.
        doubled = [c for c, s in v.doubled if s == seat]
        if doubled:
            second.append([("class:timer", "  x2 " + " ".join(m.fmt(c) for c in doubled))])
        done = v.passes_done[seat] and not m.game.waiting_for(seat)
        second.append(clock)
        second.append([("class:muted", _("  passed") if done else _("  passing…"))])
    return (head, tags), ([], second)


def fit_line(line: SeatLine, width: int, keep_name: int = 10) -> Frags:
    """A seat's line in `width` columns: its parts whole, the least important left out
    first, so that the name keeps `keep_name` columns; then the name shortened."""
    head, parts = line
    parts = [p for p in parts if p]
    need = min(frags_width(head), keep_name)
    while parts and need + sum(frags_width(p) for p in parts) > width:
        parts.pop()
    room = width - sum(frags_width(p) for p in parts)
    if len(head) == 1 and room > 0:  # the name: shortened so that seats stay apart
        head = [(head[0][0], fit_name(head[0][1], room))]
    out = clip(head, room) if room > 0 else []
    for part in parts:
        out.extend(part)
    return out if frags_width(out) <= width else clip(out, width)


def _seat_pos(m: M.ClientModel, seat: int) -> str:
    """Where a seat sits on screen: the viewer is south and play runs counter-clockwise."""
    return ("S", "E", "N", "W")[(seat - m.game.viewpoint) % 4]


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
    v = m.game.view
    by_pos = {_seat_pos(m, s): s for s in range(4)}
    cx = x0 + w // 2
    # west and east, a line above their cards; the north card lies on their first line,
    # so they stop a column short of it (cx-1..cx+1).
    side = max(1, min((w - 1) // 2, cx - 2 - x0))
    # north
    for dy, part in enumerate(_seat_lines(m, by_pos["N"])):
        f = fit_line(part, w)
        cv.frags(cx - frags_width(f) // 2, y0 + dy, f)
    # hand block at the bottom: own line, lift row, cards, labels
    hand_y = y0 + h - 3
    mid_top, mid_bot = y0 + 2, hand_y - 2
    cy = (mid_top + mid_bot) // 2
    for dy, part in enumerate(_seat_lines(m, by_pos["W"])):
        cv.frags(x0, cy - 2 + dy, fit_line(part, side))
    for dy, part in enumerate(_seat_lines(m, by_pos["E"])):
        f = fit_line(part, side)
        cv.frags(x0 + w - frags_width(f), cy - 2 + dy, f)
    if v is None:
        filled = sum(1 for p in m.game.players if p.get("name"))
        cv.center(cx, cy, _("waiting for players ({n}/4)").format(n=filled), "class:muted")
        if m.game.is_host:
            note = _("b: add a bot   x: remove a bot   s: start")
            cv.center(cx, cy + 1, note, "class:hint")
        left = m.quick_seconds_left()
        if left is not None:
            note = ngettext(
                "quick play: bots take the empty seats in {n} second",
                "quick play: bots take the empty seats in {n} seconds",
                left,
            ).format(n=left)
            cv.center(cx, cy + 2, note, "class:timer")
        f1 = fit_line(_seat_lines(m, by_pos["S"])[0], w)
        cv.frags(cx - frags_width(f1) // 2, hand_y, f1)
        return
    spots = trick_spots(cx, cy, w, h)
    trick = m.at_table.display_trick()
    lead = trick[0][0] if trick else None
    for seat, card in trick:
        x, y = spots[_seat_pos(m, seat)]
        cv.frags(x, y, [card_frag(card, m.ascii, "class:card.legal" if seat == lead else "")])
    note_y = spots["S"][1] + 1
    held = m.timeline.trick  # a finished trick still on screen, drawn over the true state
    if held is not None:
        cv.center(cx, note_y, held.note, "class:timer" if "!" in held.note else "class:muted")
    elif m.at_table.show_last and m.game.last_trick is not None:
        t = m.game.last_trick
        note = _("last trick: {name} took it (+{points})").format(
            name=m.player_name(t["winner"]), points=t["points"]
        )
        cv.center(cx, note_y, note, "class:timer")
    elif m.game.trick_done and m.game.last_trick is not None and not v.trick:
        note = m.at_table.trick_note
        cv.center(cx, note_y, note, "class:timer" if "!" in note else "class:muted")
    elif v.phase == "pass":
        dest = v.pass_to
        if m.game.seated and dest is not None:
            note = _("passing to {name}").format(name=m.player_name(dest))
            cv.center(cx, spots["S"][1], note, "class:muted")
    doubles = m.game.unplayed_doubles() if v.phase == "play" else []
    if doubles:
        cv.put(x0, y0 + 2, "x2 " + " ".join(m.fmt(c) for c in doubles), "class:timer")
    # south: one line, the scores, the turn and the timer first, then who
    (head, tags), (_none, second) = _seat_lines(m, by_pos["S"])
    left = m.alarm.seconds_left()
    if left is not None and m.my_turn and m.link.state == M.ONLINE:
        second.append([("class:timer", _("   ⏱ {n}s").format(n=left))])
    after = [("", "   ")] + [f for part in second for f in part]
    line = fit_line((head, tags), max(1, w - frags_width(after))) + after
    line = line if frags_width(line) <= w else clip(line, w)
    cv.frags(max(x0, cx - frags_width(line) // 2), hand_y - 1, line)
    _paint_hand(m, cv, x0, w, hand_y)


def _paint_hand(m: M.ClientModel, cv: Canvas, x0: int, w: int, y: int) -> None:
    hand = m.hand
    cx = x0 + w // 2
    if not hand:
        if m.game.your_seat is None:
            cv.center(cx, y + 1, _("spectating"), "class:muted")
        return
    ok = m.choices.choosable()
    active = bool(ok) or (m.my_turn and m.game.phase == "pass")
    received = m.choices.received
    step = 4 if len(hand) * 4 <= w else 3
    shown = max(1, (w - 2) // step) if len(hand) * step > w else len(hand)
    first = max(0, min(m.choices.cursor - shown // 2, len(hand) - shown))
    x = cx - (shown * step) // 2
    if first > 0:
        cv.put(x - 1, y + 1, "‹", "class:mark")
    if first + shown < len(hand):
        cv.put(x + shown * step, y + 1, "›", "class:mark")
    for i in range(first, first + shown):
        card = hand[i]
        extra = []
        illegal = active and card not in ok and card not in m.choices.pass_sel
        if illegal:
            extra.append("class:card.dim")
        elif active:
            extra.append("class:card.legal")
        if card in m.choices.pass_sel:
            extra.append("class:card.selected")
        if card == m.choices.lifted:
            extra.append("class:card.lifted")
        if i == m.choices.cursor:
            extra.append("class:card.badcursor" if illegal else "class:card.cursor")
        raised = card == m.choices.lifted or card in m.choices.pass_sel
        cv.frags(x, y if raised else y + 1, [card_frag(card, m.ascii, " ".join(extra))])
        label = chr(ord("a") + i)
        cv.put(x + 1, y + 2, label, "class:hint" if i != m.choices.cursor else "class:card.cursor")
        if i == m.choices.cursor and illegal:
            cv.put(x + 2, y + 2, "!", "class:status.error")
        elif card in received:
            cv.put(x + 2, y + 2, "+", "class:mark")
        x += step
