"""Nothing cut, nothing painted over: the table and lobby screens and their overlays, in
every language, at 80x24 and at the smallest supported size, with long names (24
characters, Latin and Arabic). The other boxes (tournaments, profiles, the invitation, the
replay viewer) are test_layout_boxes.py's; what a frame is checked for is helpers.layout's.

The frames are painted through the model and the layout, without a terminal, so the whole
sweep takes seconds. The Arabic frames are checked twice: in logical order (the words as
the catalogue has them) and as a left-to-right terminal gets them (bidi on, mirrored
layout).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from helpers import records as R
from helpers.layout import (
    ARABIC,
    CASTS,
    LATIN,
    LONG_TABLE,
    cut_labels,
    language,
    players,
    problems,
)
from helpers.model import HAND, table, welcomed

from leekha import protocol as P
from leekha.client import i18n, rtl
from leekha.client.i18n import _
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas
from leekha.client.tui.hints import hint_items
from leekha.client.tui.layout import MIN_HEIGHT, MIN_WIDTH, Options, paint
from leekha.client.tui.words import bot_name
from leekha.common import cards as C
from leekha.protocol.views import TableStatus, empty_seat

__all__ = ["language"]  # the fixture, parametrized by language

SIZES = [(80, 24), (MIN_WIDTH, MIN_HEIGHT)]
assert (MIN_WIDTH, MIN_HEIGHT) == (60, 20)


def seated(cast: str, status: TableStatus = "playing", **rules: Any) -> M.ClientModel:
    m = welcomed(CASTS[cast][0][0])
    t = table(status, **rules)
    t["seats"] = [R.seat(p["name"], bot=p["is_bot"], connected=True) for p in players(cast)]
    m.apply(P.Snapshot(re=None, table=t, view=None, your_seat=0, players=players(cast)))
    return m


def passing(cast: str, **rules: Any) -> M.ClientModel:
    m = seated(cast, **rules)
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0))
    m.take_outbox()
    return m


def playing(cast: str, trick: str = "10S 8S 9S", **rules: Any) -> M.ClientModel:
    """The play phase, a trick half played (cards at north and east), our turn."""
    m = passing(cast, **rules)
    m.choices.pass_sel = set(C.parse_cards("AH QH 7H"))
    m.enter()
    m.enter()
    for req in m.take_outbox():
        if isinstance(req, P.PassCards):
            m.apply(P.Ok(re=req.id))
    for seat in range(4):
        m.apply(P.PassDone(seat=seat))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    for seat, card in enumerate(C.parse_cards(trick), start=1):
        m.apply(P.CardPlayed(seat=seat, card=card))
    m.apply(P.YourTurn(phase="play", legal=C.parse_cards("4S QS AS"), deadline=30.0))
    return m


TAKEN = [[], [C.QUEEN_SPADES], [C.TEN_DIAMONDS], C.parse_cards("2H 3H")]


def summary(cast: str) -> M.ClientModel:
    m = playing(cast)
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 10, 2], totals=[0, 13, 10, 2], taken=TAKEN))
    return m


def summary_note(cast: str) -> M.ClientModel:
    """A round summary with a note: the target reached, but a tie plays on."""
    m = playing(cast, preset="levant")
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 10, 2], totals=[0, 13, 10, 2],
                          taken=TAKEN, tie=True))  # fmt: skip
    assert m.boxes.summary is not None and m.boxes.summary.note, "no note to show"
    return m


def scores(cast: str) -> M.ClientModel:
    m = summary(cast)
    m.enter()
    m.toggle_scores()
    assert m.overlay == M.SCORES
    return m


def game_over(cast: str) -> M.ClientModel:
    m = summary(cast)
    m.enter()
    m.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 113, 10, 2]))
    return m


def counting(cast: str) -> M.ClientModel:
    m = playing(cast)
    m.at_table.toggle_counting()
    assert m.at_table.counting
    return m


def lobby(cast: str) -> M.ClientModel:
    m = welcomed(CASTS[cast][0][0])
    locked = table("waiting")
    locked.update({"id": 8, "name": LONG_TABLE, "has_password": True})
    locked["seats"] = [R.seat(p["name"], bot=p["is_bot"], connected=True) for p in players(cast)]
    locked["seats"][3] = R.seat()
    locked["timers"] = {"pass_s": 600, "turn_s": 3600}  # the widest clocks a table has
    m.apply(P.TableList(re=None, tables=[table("playing"), locked]))
    return m


def with_help(build: Callable[[str], M.ClientModel]) -> Callable[[str], M.ClientModel]:
    def open_help(cast: str) -> M.ClientModel:
        m = build(cast)
        m.toggle_help()
        assert m.overlay == M.HELP
        return m

    return open_help


def waiting(cast: str) -> M.ClientModel:
    m = seated(cast, "waiting")
    m.game.players[3] = empty_seat()
    return m


def form(cast: str) -> M.ClientModel:
    m = lobby(cast)
    m.in_lobby.open_form()
    return m


def bot_level(cast: str) -> M.ClientModel:
    m = waiting(cast)
    m.at_table.open_bot_level("medium")
    return m


def doubling(cast: str) -> M.ClientModel:
    m = seated(cast, preset="levant")
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0, can_double=[C.QUEEN_SPADES]))
    return m


def password(cast: str) -> M.ClientModel:
    m = lobby(cast)
    m.lobby.move(1)
    m.in_lobby.join_selected()
    assert m.overlay == M.PASSWORD
    return m


def connecting(cast: str) -> M.ClientModel:
    return M.ClientModel(CASTS[cast][0][0], clock=lambda: 100.0)


def current(cast: str) -> M.ClientModel:
    """Welcomed by a server of today's protocol: statistics, phrases and profiles spoken."""
    return welcomed(CASTS[cast][0][0], version=(1, 4))


def stats(cast: str) -> M.ClientModel:
    m = current(cast)
    m.in_lobby.open_stats()
    return m


def phrases(cast: str) -> M.ClientModel:
    m = current(cast)
    t = table("playing")
    m.apply(P.Snapshot(re=None, table=t, view=None, your_seat=0, players=players(cast)))
    m.social.open_phrases()
    return m


def spectating(cast: str) -> M.ClientModel:
    m = welcomed(CASTS[cast][0][0])
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=None,
                       players=players(cast)))  # fmt: skip
    m.apply(P.Dealt(round=0, dealer=3, hand=[], pass_to=None))
    return m


def voids(cast: str) -> M.ClientModel:
    """The counting aid once two seats showed a void (they did not follow spades)."""
    m = playing(cast, "10S 9H 9D")
    m.at_table.toggle_counting()
    assert any(m.game.shown_void)
    return m


def partners(cast: str) -> M.ClientModel:
    """Partnership rules: the partner's and the team's tags on the seats."""
    return playing(cast, preset="partnership")


def chatting(cast: str) -> M.ClientModel:
    """Long names saying long things in the chat column."""
    m = playing(cast)
    for sender in (LATIN, ARABIC):
        m.apply(P.ChatMessage(sender=sender, text="well played, that queen was a gift",
                              table_id=7))  # fmt: skip
    return m


def last_trick(cast: str) -> M.ClientModel:
    """v after a trick: who took it, over the middle."""
    m = playing(cast)
    m.apply(P.CardPlayed(seat=0, card=C.parse_card("AS")))
    played = [[seat, card] for seat, card in zip((1, 2, 3, 0), C.parse_cards("10S 8S 9S AS"))]
    m.apply(P.TrickTaken(winner=0, cards=played, points=0))
    m.at_table.toggle_last_trick()
    return m


def reconnecting(cast: str) -> M.ClientModel:
    m = playing(cast)
    m.link.lost(_("attempt {n}, next in {s:.0f}s").format(n=3, s=4.0))
    return m


def failed(cast: str) -> M.ClientModel:
    m = connecting(cast)
    m.link.failed(_("cannot connect to {where}: {why}").format(
        where="leekha-games.example.org:7241", why="connection refused"))  # fmt: skip
    return m


SCREENS: dict[str, Callable[[str], M.ClientModel]] = {
    "connecting": connecting,
    "statistics": stats,
    "phrases": phrases,
    "spectating": spectating,
    "lobby": lobby,
    "lobby help": with_help(lobby),
    "new table": form,
    "password": password,
    "waiting": waiting,
    "bot level": bot_level,
    "pass": passing,
    "doubling": doubling,
    "play": playing,
    "table help": with_help(playing),
    "count aid": counting,
    "round summary": summary,
    "score sheet": scores,
    "game over": game_over,
    "round summary note": summary_note,
    "count aid voids": voids,
    "partnership": partners,
    "chat": chatting,
    "last trick": last_trick,
    "reconnecting": reconnecting,
    "cannot connect": failed,
}


#: The overlay each screen shows, so that a builder that stops opening it fails here.
OVERLAY = {
    "statistics": M.STATS,
    "phrases": M.PHRASES,
    "lobby help": M.HELP,
    "new table": M.FORM,
    "password": M.PASSWORD,
    "bot level": M.BOT_LEVEL,
    "doubling": M.DOUBLE,
    "table help": M.HELP,
    "round summary": M.SUMMARY,
    "round summary note": M.SUMMARY,
    "score sheet": M.SCORES,
    "game over": M.GAME_OVER,
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("cast", list(CASTS))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_nothing_is_cut_or_painted_over(
    language: tuple[str, bool], screen: str, cast: str, size: tuple[int, int]
) -> None:
    lang, bidi = language
    m = SCREENS[screen](cast)
    assert m.overlay == OVERLAY.get(screen)
    width, height = size
    cv = paint(m, Options(), width, height)
    found = problems(cv, lang, logical=not bidi)
    if ("q", _("quit")) in hint_items(m) and not bidi:
        assert f"q {_('quit')}" in cv.text(), "the quit key is not on the hint line"
    note = m.boxes.summary.note if m.overlay == M.SUMMARY and m.boxes.summary else ""
    words = set(re.findall(r"\S+", cv.text()))
    if not bidi:  # the round's note is a sentence: every word of it whole
        found += [f"the note lost {w!r}" for w in note.split() if w not in words]
    assert found == [], "\n".join([*found, cv.text()])


def _occupied(cv: Canvas) -> list[tuple[int, int, int]]:
    """Each row's first and last painted column: where the texts lie, whatever order
    their letters are in."""
    out = []
    for y, row in enumerate(cv.cells):
        used = [x for x, (_s, ch) in enumerate(row) if ch.strip()]
        if used:
            out.append((y, used[0], used[-1]))
    return out


@pytest.mark.parametrize("lang", ["en", "it", "ar"])
def test_the_seats_sit_where_the_players_do_in_every_language(lang: str) -> None:
    """The table is a picture of four people at a table, not a line of text, so a
    right-to-left language does not mirror it. Play goes counter-clockwise: the player on
    your right plays after you and gets your three passed cards (the rules, README of the
    seeds), so that seat is drawn at the right for an Arabic reader too; mirroring east and
    west would put the one you pass to on your left. What does change in Arabic is each
    text inside its place (the letters right to left, a line of running text against the
    right edge): with bidi on, every text covers the same cells as without it."""
    i18n.set_language(lang)
    try:
        m = passing("bots")
        assert m.game.view is not None and m.game.view.pass_to == 1
        plain = paint(m, Options(), 80, 24)
        east = bot_name("hard bot 1", 1, "hard")
        note = _("passing to {name}").format(name=east)
        rows = plain.text().split("\n")
        west = bot_name("hard bot 3", 3, "hard")
        row = next(row for row in rows if east in row and note not in row)
        assert -1 < row.find(west) < row.find(east), plain.text()  # west, then east at the right
        rtl.set_enabled(True)
        table_rows = slice(1, -2)  # the hints and the status line are running text
        seen = _occupied(paint(m, Options(), 80, 24))[table_rows]
        assert seen == _occupied(plain)[table_rows]
    finally:
        rtl.set_enabled(False)
        i18n.set_language("en")


FINGERPRINT = ":".join(f"{b:02X}" for b in range(0xA0, 0xC0))  # 32 bytes, as trust.py shows it


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_first_tls_contact_shows_the_whole_fingerprint(
    language: tuple[str, bool], size: tuple[int, int]
) -> None:
    """The fingerprint is the point of trust on first use: all 32 bytes on screen, each
    byte whole (a line breaks after a colon)."""
    from leekha.client.trust import first_contact_notice

    lang, bidi = language
    m = lobby("bots")
    m.say(first_contact_notice("leekha.example:7777", FINGERPRINT))
    cv = paint(m, Options(), *size)
    rows = [r.strip() for r in cv.text().split("\n")]
    bytes_shown = [b for r in rows for b in re.findall(r"\b[0-9A-F]{2}\b", r)]
    assert ":".join(bytes_shown[-32:]) == FINGERPRINT, cv.text()
    assert problems(cv, lang, logical=not bidi) == []


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_real_app_at_80x24_has_nothing_cut(lang: str) -> None:
    """The program itself on a pty, read through pyte: the table and its help, with a
    24-character name, pass the same checks as the painted frames (logical order: the
    pty gets the text unreordered with --bidi off)."""
    from helpers.pty import LEEKHA, Terminal

    argv = [LEEKHA, "--lang", lang, "--bidi", "off", "play", "--name", LATIN]
    t = Terminal([*argv, "--strategy", "random", "--bot-delay", "0", "--no-save"], 80, 24)
    i18n.set_language(lang)
    try:
        you = _(" (you)")
        longest = _("card-counting aid (if the table allows)")
        t.until(lambda: f"{you}" in t.text() and _("  passing…") in t.text(), "the pass phase")
        table = t.text()
        t.send("?")
        t.until(lambda: _("keys") in t.text(), "the help")
        shown = t.text()
        t.send("\x1b")
        t.until(lambda: _("keys") not in t.text(), "the help closed")
    finally:
        i18n.set_language("en")
        assert t.close() == 0, t.text()
    for screen in (table, shown):
        assert cut_labels(screen, lang) == [], screen
    assert longest in shown  # the longest help row, whole


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_shortened_seat_names_still_tell_the_seats_apart(lang: str) -> None:
    """Three `search bot N` opponents in a partnership game, their lines too narrow for
    the whole name and its tags: each keeps its number ("search 2"), never three
    "search bot…" (nor "…search روبوت" in Arabic) that cannot be told apart."""
    from leekha.client.tui.table_screen import _seat_lines, fit_line

    i18n.set_language(lang)
    try:
        m = welcomed("ann")
        cast = [R.player("ann"), *(R.player(f"search bot {s}", bot=True, strategy="search")
                                   for s in (1, 2, 3))]  # fmt: skip
        t = table("playing", preset="partnership")
        m.apply(P.Snapshot(re=None, table=t, view=None, your_seat=0, players=cast))
        m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
        for width in range(9, 30):
            shown = ["".join(t for _s, t in fit_line(_seat_lines(m, s)[0], width))
                     for s in (1, 2, 3)]  # fmt: skip
            for seat, text in zip((1, 2, 3), shown):
                assert str(seat) in text, (width, shown)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_long_player_name_leaves_the_target_and_rules_in_the_header(
    size: tuple[int, int],
) -> None:
    """A 24-character name on the header's right pushed the rules and the target out of
    it; the name gives way (it is on your seat too), the rules stay."""
    m = playing("long names")
    assert m.name == LATIN and len(LATIN) == 24
    header = paint(m, Options(), *size).text().splitlines()[0]
    assert _("to {n}").format(n=m.game.rules.target) in header, header


@pytest.mark.parametrize("screen", ["pass", "play"])
def test_at_60x20_the_help_keeps_its_legend_and_your_chat_line_shows(screen: str) -> None:
    """At the smallest size the chat column folds away: the latest line, your own too,
    shows on the status row; and the help box still has its legend of the table's marks."""
    m = SCREENS[screen]("bots")
    m.apply(P.ChatMessage(sender="ann", text="good luck all", table_id=7))
    text = paint(m, Options(), MIN_WIDTH, MIN_HEIGHT).text()
    assert text.splitlines()[-1].startswith("ann: good luck all"), text
    m.toggle_help()
    text = paint(m, Options(), MIN_WIDTH, MIN_HEIGHT).text()
    for line in ("(D) dealer", "x2 doubled card", "! the cursor is on a card"):
        assert line in text, text


def test_the_lobby_line_shows_a_tables_timers() -> None:
    """How fast a table plays, before sitting: its pass and turn clocks on its line (the
    first thing a line too short for them and a readable name leaves out)."""
    m = welcomed("ann")
    timed = table("waiting") | {"timers": {"pass_s": 30, "turn_s": 60}}
    m.apply(P.TableList(re=None, tables=[timed, table("playing") | {"id": 9}]))
    for width, height in SIZES:
        lines = paint(m, Options(), width, height).text().splitlines()
        assert "⏱ 30/60 s" in lines[2] and "⏱" not in lines[4], (width, lines)
