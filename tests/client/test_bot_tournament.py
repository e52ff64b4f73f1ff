"""`leekha bot --tournament`: enter, play where seated, never vote, stop at the end."""

from __future__ import annotations

from typing import Any

from helpers.botclient import Harness, game_snapshot, only
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.client import EntryRefused
from leekha.common.view import Rules

RULES: Rules = {"target": 101}


def state(status: str = "running", re: int | None = None) -> P.TournamentState:
    return P.TournamentState(
        re=re,
        tournament={
            "id": 5, "name": "cup", "format": "round_robin", "status": status,
            "preset": "classic", "rules": RULES, "deals": 1, "stages": None,
            "move_timer_s": 10, "entrants": [], "standings": [], "tables": [],
            "games_done": 0, "games_total": 4, "notes": [],
        },
    )  # fmt: skip


def entered(**over: Any) -> tuple[Harness, P.EnterTournament]:
    h = Harness(table=None, tournament=5, **over)
    h.accept()
    enter = only(h.welcome(version=(1, 3)), P.EnterTournament)
    assert enter.tournament_id == 5
    return h, enter


def test_the_bot_enters_plays_where_seated_and_stops_when_the_tournament_ends() -> None:
    h, enter = entered(strategy="random")
    assert h.feed(state(re=enter.id)) == []
    assert h.bot.seated.called  # entered: a fleet may start its next bot
    for _game in range(2):
        snap, _ = game_snapshot()
        only(h.feed(snap), P.PassCards)  # seated by the server: it plays
        out = h.feed(P.GameOver(winners=[1], losers=[2], totals=[10, 5, 102, 40]))
        again = only(out, P.EnterTournament)  # no leave, no rematch: it asks for the state
        assert not any(isinstance(m, P.Leave | P.Rematch) for m in out)
        h.feed(state(re=again.id))
        assert not h.bot.done.called
    h.feed(state("finished"))  # pushed after the last game
    h.reactor.advance(0)
    h.proto.connectionLost(Failure(ConnectionError()))
    assert h.bot.done.called and h.bot.done.result == 0


def test_a_refused_entry_ends_the_bot_with_the_reason() -> None:
    h, enter = entered()
    h.feed(P.Error(re=enter.id, code="not_an_entrant", message="'b' is not an entrant"))
    failures: list[Failure] = []
    h.bot.done.addErrback(failures.append)
    assert isinstance(failures[0].value, EntryRefused)
    assert str(failures[0].value) == "'b' is not an entrant"  # the server's words, no code


def test_entering_a_finished_tournament_is_refused() -> None:
    """Nothing to play: the bot ends with the reason (exit 1), as for any refused entry."""
    h, enter = entered()
    h.feed(P.Error(re=enter.id, code="tournament_over", message="tournament 1 has finished"))
    failures: list[Failure] = []
    h.bot.done.addErrback(failures.append)
    h.reactor.advance(0)
    assert h.transport is not None and h.transport.disconnecting
    assert isinstance(failures[0].value, EntryRefused)
    assert str(failures[0].value) == "tournament 1 has finished"


def test_a_tournament_that_finished_while_the_bot_was_away_is_done() -> None:
    h, enter = entered()
    h.feed(state(re=enter.id))  # entered: seated callback fired
    h.bot.perform(h.bot.policy.enter_lobby())  # as after a reconnect
    again = only(h.sent(), P.EnterTournament)
    h.feed(P.Error(re=again.id, code="tournament_over", message="over"))
    h.reactor.advance(0)
    assert h.transport is not None and h.transport.disconnecting
    assert not h.bot.done.called or h.bot.done.result == 0


def test_a_move_the_server_dropped_unanswered_is_sent_again() -> None:
    h, enter = entered(strategy="random")
    h.feed(state(re=enter.id))
    snap, _ = game_snapshot()
    first = only(h.feed(snap), P.PassCards)
    h.reactor.advance(1.9)
    assert h.sent() == []
    h.reactor.advance(0.2)
    again = only(h.sent(), P.PassCards)
    assert again.cards == first.cards and again.id != first.id
    h.feed(P.Ok(re=again.id))
    h.reactor.advance(5)
    assert h.sent() == []  # answered: nothing more


def test_a_taken_name_is_not_changed_in_a_tournament() -> None:
    """Another name would not be the entrant: the bot says why it cannot play instead."""
    h = Harness(table=None, tournament=5)
    h.accept()
    hello = only(h.sent(), P.Hello)
    h.feed(P.Error(re=hello.id, code="bad_name", message="'b' holds a seat here"))
    assert h.sent() == []  # no second hello under another name
    h.reactor.advance(1)
    failures: list[Failure] = []
    h.bot.done.addErrback(failures.append)
    assert failures and "holds a seat" in str(failures[0].value)
