"""Profiles from the server's records: a person's rating, games, wins and latest games
after real games on the fake clock, equal to what the records hold; an unknown name has
none; and the client shows a profile from the lobby's statistics and at a table."""

from __future__ import annotations

from helpers import records as R
from helpers.server import FakeClient, Harness, created_table, play_until

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text
from leekha.protocol import catalogue as C
from leekha.protocol.views import RecentGame


def person(h: Harness, name: str) -> FakeClient:
    c = h.connect()
    reply = c.request(C.Hello(id=c.rid(), versions=[[1, 4]], name=name))
    assert isinstance(reply, C.Welcome), reply
    c.token = reply.token
    return c


def play_a_game(h: Harness, ann: FakeClient) -> None:
    tid = created_table(
        ann.request(C.CreateTable(id=ann.rid(), name="short", overrides={"target": 10}))
    )
    for seat in (1, 2, 3):
        ann.request(C.AddBot(id=ann.rid(), seat=seat, strategy="random"))
    ann.request(C.Start(id=ann.rid()))
    table = h.lobby.tables[tid]
    play_until(h, [ann], tid, lambda: table.status == "finished")
    ann.request(C.Leave(id=ann.rid()))


def test_a_profile_is_what_the_records_say() -> None:
    h = Harness()
    ann = person(h, "ann")
    for _ in range(2):
        play_a_game(h, ann)
    reply = ann.request(P.GetProfile(id=ann.rid(), name="ann"))
    assert isinstance(reply, P.Profile) and reply.name == "ann"
    rows = h.store.read(
        "SELECT game_id, seat, points, won FROM game_players WHERE name = 'ann' ORDER BY game_id"
    )
    assert reply.stats is not None
    assert reply.stats["games"] == len(rows) == 2
    assert reply.stats["wins"] == sum(r[3] for r in rows)
    assert [g["game_id"] for g in reply.recent] == [r[0] for r in reversed(rows)]
    assert [(g["seat"], g["points"], int(g["won"])) for g in reply.recent] == [
        (r[1], r[2], r[3]) for r in reversed(rows)
    ]
    for g in reply.recent:
        assert g["players"][g["seat"]] == "ann" and g["table"] == "short"
        assert len([n for n in g["players"] if "bot" in n]) == 3
    nobody = ann.request(P.GetProfile(id=ann.rid(), name="nobody"))
    assert isinstance(nobody, P.Profile) and nobody.stats is None and nobody.recent == []
    bot = ann.request(P.GetProfile(id=ann.rid(), name=reply.recent[0]["players"][1]))
    assert isinstance(bot, P.Profile) and bot.stats is None and bot.recent == []


STATS = R.stats_line("bob", 7, 3, 6.5, rating=25.0, rating_sigma=2.0, leekhas=4, moons=1)
GAME: RecentGame = {
    "game_id": 9,
    "table": "friday",
    "finished": 1764620400.0,
    "seat": 1,
    "points": 42,
    "won": True,
    "players": ["ann", "bob", "cy", "medium bot 3"],
}
PROFILE = P.Profile(re=0, name="bob", stats=STATS, recent=[GAME])


def test_the_client_shows_a_profile_from_the_statistics() -> None:
    m = M.ClientModel("ann")
    m.apply(C.Welcome(re=1, version=[1, 4], server="s", token="t" * 8, name="ann"))
    m.in_lobby.open_stats()
    (ask,) = [r for r in m.take_outbox() if isinstance(r, C.GetStats)]
    assert PROFILE.stats is not None
    row = PROFILE.stats.copy()
    m.apply(C.Stats(re=ask.id, players=[{**row, "name": "ann"}, row]))
    m.in_lobby.stats_move(1)
    m.in_lobby.stats_profile()
    assert m.overlay == M.PROFILE
    (asked,) = [r for r in m.take_outbox() if isinstance(r, P.GetProfile)]
    assert asked.name == "bob"
    m.apply(P.Profile(re=asked.id, name="bob", stats=PROFILE.stats, recent=PROFILE.recent))
    screen = render_text(m)
    assert "player: bob" in screen and "rating 25.0 ±6.0" in screen
    assert "7 games, 3 won" in screen and "friday" in screen and "42 pts" in screen
    assert "ann, cy, medium bot 3" in screen
    m.escape()
    assert m.overlay == M.STATS  # back to the list it came from
