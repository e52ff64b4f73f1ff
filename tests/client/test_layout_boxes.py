"""Nothing cut, nothing painted over in the boxes around a game: the tournament screens
(the list, a running one's standings, a waiting one, the entrant seated at its game), the
profiles, the invitation, the statistics, the password prompts, a first TLS contact at
the table, and the replay viewer, in every language, at 80x24 and at the smallest size,
with long names. The checks are helpers.layout's, as for the table and the lobby
(test_layout_fits.py).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import records as R
from helpers.layout import (
    ARABIC,
    CASTS,
    LATIN,
    LONG_TABLE,
    OTHER,
    language,
    players,
    problems,
)
from helpers.model import HAND, table
from helpers.tournament import state

from leekha import protocol as P
from leekha.client.i18n import _
from leekha.client.trust import first_contact_notice
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas
from leekha.client.tui.hints import hint_items
from leekha.client.tui.layout import MIN_HEIGHT, MIN_WIDTH, Options, paint
from leekha.client.tui.replay import paint_replay
from leekha.client.tui.replay_model import ReplayModel
from leekha.common.bots.base import make_strategy, play_out
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.record import GameRecord
from leekha.protocol.invite import Invite
from leekha.protocol.views import PlayerStats, RecentGame, Tournament, TournamentSummary

__all__ = ["language"]  # the fixture, parametrized by language

SIZES = [(80, 24), (MIN_WIDTH, MIN_HEIGHT)]
FINGERPRINT = ":".join(f"{b:02X}" for b in range(0xA0, 0xC0))  # 32 bytes, as trust.py shows it
#: The tournament's entrants in each cast: people by name, server bots by level.
ENTRANTS = {
    "long names": [(LATIN, "client"), (ARABIC, "client"), (OTHER, "client"), ("medium", "server")],
    "bots": [("ann", "client"), ("hard", "server"), ("hard", "server"), ("hard", "server")],
}


def current(cast: str) -> M.ClientModel:
    """Welcomed by a server of today's protocol (tournaments, profiles, phrases)."""
    m = M.ClientModel(CASTS[cast][0][0], clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name=m.name))
    m.take_outbox()
    return m


def seated(cast: str, name: str = "Friday") -> M.ClientModel:
    m = current(cast)
    t = table("playing")
    t["name"] = name
    m.apply(P.Snapshot(re=None, table=t, view=None, your_seat=0, players=players(cast)))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0))
    m.take_outbox()
    return m


def tournament(cast: str, status: str = "running", tables: int = 2) -> Tournament:
    """A tournament of the cast's entrants; a waiting one waits for its second person."""
    t = state(status=status, tables=tables, done=3 if status == "running" else 0)
    t["name"] = LONG_TABLE
    for (name, kind), e in zip(ENTRANTS[cast], t["entrants"], strict=True):
        server = kind == "server"
        shown = f"{name}#{e['index'] + 1}" if server else name
        present = status != "waiting" or server
        e["name"], e["kind"], e["present"] = shown, kind, present
        e["strategy"] = name if server else None
    t["entrants"][0]["present"] = True
    t["notes"] = [f"{LATIN} left game 2; a bot played on", "game 3 began"]
    if status == "waiting":
        t["starts_at"], t["starts_in_s"] = 4102444800.0, 5400
    return t


def listing(cast: str) -> M.ClientModel:
    m = current(cast)
    m.in_lobby.open_tournaments()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.ListTournaments)
    first: TournamentSummary = {
        "id": 7, "name": LONG_TABLE, "format": "round_robin", "status": "waiting",
        "entrants": 4, "games_done": 0, "games_total": 48, "starts_at": 4102444800.0,
        "starts_in_s": 5400,
    }  # fmt: skip
    second: TournamentSummary = {
        "id": 12, "name": ARABIC, "format": "swiss", "status": "running", "entrants": 16,
        "games_done": 31, "games_total": 128,
    }  # fmt: skip
    m.apply(P.TournamentList(re=ask.id, tournaments=[first, second]))
    return m


def following(status: str, tables: int = 2) -> Callable[[str], M.ClientModel]:
    def build(cast: str) -> M.ClientModel:
        m = listing(cast)
        m.in_lobby.tournament_enter()
        (get,) = m.take_outbox()
        assert isinstance(get, P.GetTournament)
        m.apply(P.TournamentState(re=get.id, tournament=tournament(cast, status, tables)))
        return m

    return build


def entered(cast: str) -> M.ClientModel:
    """e on a waiting tournament: the server's yes, and the status line saying so."""
    m = following("waiting", 0)(cast)
    m.in_lobby.tournament_join()
    (enter,) = m.take_outbox()
    assert isinstance(enter, P.EnterTournament)
    m.apply(P.TournamentState(re=enter.id, tournament=tournament(cast, "waiting", 0)))
    assert m.in_lobby.entered is not None
    return m


def tournament_game(cast: str) -> M.ClientModel:
    """The entrant's game seats them unasked: the table, and the status line saying so."""
    m = entered(cast)
    t = table("playing")
    t["name"] = f"{LONG_TABLE} #3"
    m.apply(P.Snapshot(re=None, table=t, view=None, your_seat=0, players=players(cast)))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    return m


def profiles(cast: str) -> M.ClientModel:
    m = seated(cast)
    m.social.open_profiles([n for n, _level in CASTS[cast]])
    return m


def profile(cast: str) -> M.ClientModel:
    m = profiles(cast)
    m.social.profile_show()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.GetProfile)
    names = [n for n, _level in CASTS[cast]]
    stats = R.stats_line(names[0], 1234, 321, -12.5, rating=31.4159, rating_sigma=2.5,
                         leekhas=17, moons=3)  # fmt: skip
    recent: list[RecentGame] = [
        {"game_id": 9000 + i, "table": (LONG_TABLE, ARABIC, "Friday")[i % 3],
         "finished": 1.7e9 + i * 3600, "seat": i % 4, "points": 101 - 40 * i, "won": i == 1,
         "players": names}
        for i in range(5)
    ]  # fmt: skip
    m.apply(P.Profile(re=ask.id, name=names[0], stats=stats, recent=recent))
    return m


def invite(cast: str) -> M.ClientModel:
    m = seated(cast, LONG_TABLE)
    m.social.table_password = "correct horse battery"
    host = "leekha-games.example.org"
    m.social.invite_for = lambda tid: Invite(host, 7241, tid, None, True, FINGERPRINT)
    m.social.open_invite()
    m.social.invite_toggle_password()  # the password in the line: the longest line there is
    return m


def statistics(cast: str) -> M.ClientModel:
    m = current(cast)
    m.in_lobby.open_stats()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.GetStats)
    rows: list[PlayerStats] = [
        {"name": n, "games": 10**i, "wins": 3 * i, "avg_points_per_round": 7.25 * i - 9,
         "rating": 25.0 + i, "rating_sigma": 1.5, "leekhas": i, "moons": i // 2}
        for i, (n, _level) in enumerate(CASTS[cast])
    ]  # fmt: skip
    m.apply(P.Stats(re=ask.id, players=rows))
    return m


def watch_password(cast: str) -> M.ClientModel:
    m = current(cast)
    locked = table("playing")
    locked.update({"id": 8, "name": LONG_TABLE, "has_password": True})
    m.apply(P.TableList(re=None, tables=[locked]))
    m.in_lobby.join_selected(spectate=True)
    m.in_lobby.password_type("x")
    return m


def fingerprint(cast: str) -> M.ClientModel:
    """A first TLS contact's notice under the table: the fingerprint takes rows of its own."""
    m = seated(cast)
    m.say(first_contact_notice("leekha-games.example.org:7241", FINGERPRINT))
    return m


SCREENS: dict[str, tuple[Callable[[str], M.ClientModel], str | None]] = {
    "tournament list": (listing, M.TOURNAMENTS),
    "tournament standings": (following("running"), M.TOURNAMENTS),
    "tournament waiting": (following("waiting", 0), M.TOURNAMENTS),
    "tournament entered": (entered, M.TOURNAMENTS),
    "tournament game": (tournament_game, None),
    "profiles": (profiles, M.PROFILE),
    "profile": (profile, M.PROFILE),
    "invite": (invite, M.INVITE),
    "statistics rows": (statistics, M.STATS),
    "watch password": (watch_password, M.PASSWORD),
    "fingerprint": (fingerprint, None),
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("cast", list(CASTS))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_box_is_cut_or_painted_over(
    language: tuple[str, bool], screen: str, cast: str, size: tuple[int, int]
) -> None:
    lang, bidi = language
    build, overlay = SCREENS[screen]
    m = build(cast)
    assert m.overlay == overlay
    cv = paint(m, Options(), *size)
    found = problems(cv, lang, logical=not bidi)
    if ("q", _("quit")) in hint_items(m) and not bidi:
        assert f"q {_('quit')}" in cv.text(), "the quit key is not on the hint line"
    assert found == [], "\n".join([*found, cv.text()])


# ---- the replay viewer -------------------------------------------------------------------


def _record(cast: str) -> GameRecord:
    game = Game(preset("levant", {"target": 30}), 3)
    play_out(game, [make_strategy("random", 3 + i) for i in range(4)])
    return GameRecord.of(game, [n for n, _level in CASTS[cast]])


def _at(condition: Callable[[ReplayModel], bool]) -> Callable[[str], ReplayModel]:
    def build(cast: str) -> ReplayModel:
        r = ReplayModel(_record(cast))
        while not condition(r) and r.index < len(r.frames) - 1:
            r.step(1)
        assert condition(r)
        return r

    return build


def _with_help(cast: str) -> ReplayModel:
    r = _at(lambda r: len(r.frame.trick) == 2)(cast)
    r.show_help = True
    return r


REPLAYS: dict[str, Callable[[str], ReplayModel]] = {
    "deal": _at(lambda r: True),
    "trick": _at(lambda r: len(r.frame.trick) == 3),
    "trick taken": _at(lambda r: r.frame.trick_winner is not None),
    "round over": _at(lambda r: r.frame.round_over is not None),
    "game over": _at(lambda r: r.frame.result is not None),
    "help": _with_help,
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("cast", list(CASTS))
@pytest.mark.parametrize("frame", list(REPLAYS))
def test_no_replay_frame_is_cut_or_painted_over(
    language: tuple[str, bool], frame: str, cast: str, size: tuple[int, int]
) -> None:
    lang, bidi = language
    cv: Canvas = paint_replay(REPLAYS[frame](cast), *size)
    found = problems(cv, lang, logical=not bidi)
    if not bidi:
        assert f"q {_('quit')}" in cv.text(), "the quit key is not on the hint line"
    assert found == [], "\n".join([*found, cv.text()])


def test_the_replay_says_the_winner_once() -> None:
    """The game-over box names the winner on its own line: the head does not repeat it."""
    r = REPLAYS["game over"]("bots")
    text = paint_replay(r, 80, 24).text()
    assert r.frame.result is not None
    winner = r.names[r.frame.result["winners"][0]]
    assert text.count(winner + " wins") == 0 and f"winner: {winner}" in text, text


def test_the_password_box_for_watching_says_watch() -> None:
    """Its words and its hint line say what Enter does: watch, not join."""
    text = paint(watch_password("bots"), Options(), 80, 24).text()
    hints = text.split("\n")[-2]
    assert "Enter to watch" in text and "Enter watch" in hints and "join" not in text, text


def test_take_part_is_offered_until_entered() -> None:
    """`e take part` on a followed tournament, gone from the hints once entered."""
    from leekha.client.tui.hints import hint_items

    before = following("waiting", 0)("bots")
    assert ("e", "take part") in hint_items(before)
    assert ("e", "take part") not in hint_items(entered("bots"))
