"""The boxes drawn over a screen (help, forms, prompts, the score sheet, statistics...),
one painter per overlay name of the model; `OVERLAYS` is the one table the frame reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.utils import get_cwidth

from leekha.client import rtl
from leekha.client.i18n import N_, _
from leekha.client.rulestext import preset_word, summary
from leekha.client.tui import model as M
from leekha.client.tui import social, tournament
from leekha.client.tui.canvas import Canvas, Frags, fit, frags_width
from leekha.client.tui.cardfrags import card_frag
from leekha.client.tui.keymap import help_rows
from leekha.client.tui.sheets import (
    paint_game_over,
    paint_round_summary,
    put_columns,
    put_sheet,
    score_sheet_rows,
    sheet_cell,
    sheet_width,
)
from leekha.client.tui.words import seconds
from leekha.common.config import PRESETS

#: Under the keys, at a table: what the marks on the cards and seats mean.
LEGEND = (
    N_("(D) dealer   +N points taken this round"),
    N_("x2 doubled card   + a card passed to you"),
    N_("! the cursor is on a card you may not play"),
)
HELP_KEY_WIDTH = 13  # the key column of a help row; the words start after it


def _paint_help(m: M.ClientModel, cv: Canvas) -> None:
    """The key table's rows for the screen under the box, then (at a table, if the window
    has room) the legend."""
    rows = help_rows(m)
    legend = [_(line) for line in LEGEND] if m.screen == M.TABLE else []
    # In a short window the box gives up what it can spare before the legend: the blank
    # line above it, the "Esc to close" line when a row already names Esc, then the
    # frame's margin (it may cover the header and the hints: it is the one thing shown).
    footer = [] if any(keys.split()[0] == "Esc" for keys, _w in rows if keys) else [""]
    blank = [""] if len(rows) + len(legend) + len(footer) + 1 + 2 <= cv.height - 2 else []
    extra = [*blank, *legend]
    if len(rows) + len(extra) + len(footer) + 2 > cv.height:
        extra = []  # no room even so: the keys come first
    height = len(rows) + len(extra) + len(footer) + 2
    x, y = cv.box(56, height, _("keys"))
    for i, (keys, words) in enumerate(rows):
        put_columns(cv, x, y + i, 52, [(0, keys), (HELP_KEY_WIDTH, words)], "class:box")
    for i, line in enumerate(extra):
        put_key_row(cv, x, y + len(rows) + i, 52, line, "class:box")
    if footer:
        cv.line(x, y + height - 3, 52, _("Esc to close"), "class:box class:muted")


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
    summary = m.timeline.summary
    assert summary is not None
    # Held before the next deal, any key goes on (the hint line says so too).
    go_on = _("any key to continue") if m.holding else _("Enter or Esc to continue")
    paint_round_summary(cv, summary, _names(m), m.ascii, go_on)


def _paint_scores(m: M.ClientModel, cv: Canvas) -> None:
    history = m.game.score_rows()
    v = m.game.view
    if v is not None and v.phase != "game_over" and any(v.round_points):
        history = [*history, list(v.round_points)]
    cell = sheet_cell(cv.width)
    sheet = score_sheet_rows(_names(m), history, max(1, cv.height - 9), cell)
    x, y = cv.box(sheet_width(cell), len(sheet) + 4, _("score sheet"))
    put_sheet(cv, x, y, sheet, "class:box", cell)
    cv.put(x, y + len(sheet) + 1, _("S or Esc to close"), "class:box class:muted")


def _paint_game_over(m: M.ClientModel, cv: Canvas) -> None:
    v = m.game.view
    assert v is not None and v.result is not None
    r = v.result
    mine = v.seat  # None when someone else played this seat to the end
    if mine is not None and mine in r["winners"]:
        head = _("You win!")
    elif mine is not None and mine in r["losers"]:
        head = _("You lose.")
    else:
        head = _("the final scores")  # the winner is the next line
    footer = ""
    if m.game.seated:
        what = _("rematch vote sent") if m.at_table.rematch_voted else _("r rematch")
        footer = _("{what}   L leave   q quit").format(what=what)
    paint_game_over(cv, _names(m), r, m.game.score_rows(), head, m.game.game_stats, footer)


def _paint_double(m: M.ClientModel, cv: Canvas) -> None:
    card = m.choices.double_offer[0]
    pts = m.game.rules.card_points()[card] * 2
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
        style = "class:box class:cursorrow" if i == m.boxes.bot_level else "class:box"
        choices += [(style, f" {M.level_word(level)} "), ("class:box", " ")]
    cv.frags(x + (40 - frags_width(choices) if rtl.mirrored() else 0), y, choices)
    cv.line(x, y + 1, 40, _("e easy  m medium  h hard"), "class:box class:muted")


def _paint_form(m: M.ClientModel, cv: Canvas) -> None:
    f = m.boxes.form
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
        "preset": f"‹ {preset_word(f.preset)} ›  {summary(PRESETS[f.preset])}",
        "target": target,
        "password": ("*" * len(f.password) or _("(none)")) + ("_" if f.field == "password" else ""),
        "pass_timer": f"‹ {seconds(f.pass_timer) if f.pass_timer else off} ›",
        "turn_timer": f"‹ {seconds(f.turn_timer) if f.turn_timer else off} ›",
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
    # Two columns, mirrored in a right-to-left layout: the labels against the edge.
    width = max(10, *(get_cwidth(t) for t in labels.values()))
    for i, row in enumerate(f.ROWS):
        style = "class:box class:cursorrow" if i == f.row else "class:box"
        label = " " * (width - get_cwidth(labels[row])) + labels[row]
        put_columns(cv, x, y + i, 52, [(0, label), (width + 2, values[row])], style)
    cv.line(x, y + 9, 52, _("↑↓ field  ←→ change  type text/digits"), "class:box class:muted")
    cv.line(x, y + 10, 52, _("Enter create  Esc cancel"), "class:box class:muted")


def _paint_stats(m: M.ClientModel, cv: Canvas) -> None:
    rows = m.boxes.stats
    shown = rows[: max(1, cv.height - 9)] if rows else []
    width = min(cv.width, 72)
    x, y = cv.box(width, len(shown) + 6, _("player statistics"))
    lines = _stats_lines(shown, width - 4)
    cv.put(x, y, lines[0], "class:box.title")
    if rows is None:
        cv.put(x, y + 1, _("asking the server…"), "class:box class:muted")
    elif not rows:
        cv.put(x, y + 1, _("no finished games yet"), "class:box class:muted")
    for i, line in enumerate(lines[1:]):
        style = "class:box class:cursorrow" if i == m.boxes.stats_cursor else "class:box"
        cv.put(x, y + 1 + i, line, style)
    more = ""
    if rows and len(rows) > len(shown):
        more = _("  (+{n} more)").format(n=len(rows) - len(shown))
    row = y + 1 + max(1, len(shown))
    cv.put(x, row, _("rating: skill ± 3× its uncertainty"), "class:box class:muted")
    cv.put(x, row + 1, _("Esc to close") + more, "class:box class:muted")


#: The statistics' name column; a longer name is shortened, with its ellipsis.
STATS_NAME = 18


def _stats_lines(rows: list[dict[str, Any]], width: int) -> list[str]:
    """The statistics as a heading and a line per player in `width` columns: the name,
    then as many whole columns as fit, in order of importance (never half a heading)."""
    ratings = []
    for p in rows:
        mu, sigma = p.get("rating"), p.get("rating_sigma")
        ratings.append(f"{mu:.1f} ±{3 * sigma:.1f}" if mu is not None and sigma else _("guest"))
    columns = [
        (_("rating"), ratings),
        (_("games"), [str(p.get("games", 0)) for p in rows]),
        (_("wins"), [str(p.get("wins", 0)) for p in rows]),
        (_("avg/round"), [f"{float(p.get('avg_points_per_round', 0.0)):.1f}" for p in rows]),
        (_("Leekhas"), [str(p.get("leekhas", 0)) for p in rows]),
        (_("moons"), [str(p.get("moons", 0)) for p in rows]),
    ]
    names = [fit(str(p.get("name", "")), STATS_NAME) for p in rows]
    lines = [_("player"), *names]
    lines = [line + " " * (STATS_NAME - get_cwidth(line)) for line in lines]
    used = STATS_NAME
    for head, cells in columns:
        w = max(get_cwidth(c) for c in [head, *cells])
        if used + 1 + w > width:
            break
        used += 1 + w
        lines = [line + " " + c.rjust(w) for line, c in zip(lines, [head, *cells])]
    return lines


def _paint_password(m: M.ClientModel, cv: Canvas) -> None:
    prompt = m.boxes.password_prompt
    assert prompt is not None
    x, y = cv.box(40, 5 if prompt.why else 4, _("password"))
    if prompt.why:
        cv.put(x, y, fit(prompt.why, 36), "class:box class:status.error")
        y += 1
    cv.put(x, y, "*" * len(prompt.typed) + "_", "class:box")
    if prompt.spectate:
        hint = _("Enter to watch, Esc to cancel")
    else:
        hint = _("Enter to join, Esc to cancel")
    cv.put(x, y + 1, hint, "class:box class:muted")


OVERLAYS: dict[str, Callable[[M.ClientModel, Canvas], None]] = {
    M.HELP: _paint_help,
    M.STATS: _paint_stats,
    M.TOURNAMENTS: lambda m, cv: (
        tournament.paint(m.boxes.tournaments, cv) if m.boxes.tournaments else None
    ),
    M.PASSWORD: _paint_password,
    M.FORM: _paint_form,
    M.SCORES: _paint_scores,
    M.SUMMARY: _paint_summary,
    M.DOUBLE: _paint_double,
    M.BOT_LEVEL: _paint_bot_level,
    M.GAME_OVER: _paint_game_over,
    M.PHRASES: lambda _m, cv: social.paint_phrases(cv),
    M.PROFILE: lambda m, cv: (
        social.paint_profile(m.boxes.profile_box, cv) if m.boxes.profile_box else None
    ),
    M.INVITE: lambda m, cv: (
        social.paint_invite(m.boxes.invite_box, cv) if m.boxes.invite_box else None
    ),
}
