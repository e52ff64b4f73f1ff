"""The bot client's message handling, driven byte-for-byte over an in-memory transport.

MemoryReactorClock records connection attempts and owns the clock, so reconnect backoff,
think time and the lobby's jitter are stepped explicitly: no sockets, no sleeps.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

import pytest
from helpers import records as R
from helpers.botclient import Broken, Harness, game_snapshot, only, players, summary
from twisted.internet import error
from twisted.logger import ILogObserver, formatEvent, globalLogPublisher
from twisted.python.failure import Failure
from zope.interface import provider

from leekha import protocol as P
from leekha.client.bot import command as bot_cli
from leekha.client.bot.client import ConnectFailed
from leekha.common.view import SeatView, seat_view


def build_parser_for_tests() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="leekha bot")
    bot_cli.add_arguments(parser)
    return parser


def playing(h: Harness) -> SeatView:
    """The bot's seat view, there to be moved on to a position by hand."""
    view = h.bot.core.table.view
    assert view is not None
    return view


def online(**over: Any) -> Harness:
    """A bot whose connection is up and welcomed (protocol 1.0)."""
    h = Harness(**over)
    h.accept()
    h.welcome()
    return h


# ---- lobby -----------------------------------------------------------------------------
def test_creates_the_table_when_absent_after_a_second_look() -> None:
    h = Harness(preset="levant", overrides={"target": 30})
    h.accept()
    lst = only(h.welcome(), P.ListTables)
    assert h.feed(P.TableList(re=lst.id, tables=[summary(3, "other")])) == []
    h.reactor.advance(1.0)  # the anti-race pause before creating
    again = only(h.sent(), P.ListTables)
    create = only(h.feed(P.TableList(re=again.id, tables=[])), P.CreateTable)
    assert (create.name, create.preset, create.overrides) == ("t", "levant", {"target": 30})
    h.feed(P.Snapshot(re=create.id, table=summary(4, "t"), view=None, your_seat=0,
                      players=players(1, host=0)))  # fmt: skip
    assert h.bot.seated.called and h.bot.core.table.is_host


def test_joins_the_lowest_open_table_of_that_name() -> None:
    h = Harness()
    h.accept()
    lst = only(h.welcome(), P.ListTables)
    tables = [summary(9, "t"), summary(5, "t", taken=4), summary(6, "t"), summary(2, "x")]
    join = only(h.feed(P.TableList(re=lst.id, tables=tables)), P.JoinSeat)
    assert join.table_id == 6 and join.seat is None


def test_host_starts_once_four_seats_are_full() -> None:
    h = Harness(create="t")
    h.accept()
    create = only(h.welcome(), P.CreateTable)
    h.feed(P.Snapshot(re=create.id, table=summary(1, "t"), view=None, your_seat=0,
                      players=players(1, host=0)))  # fmt: skip
    for seat in (1, 2):
        upd = P.SeatUpdate(table_id=1, seat=seat, player=R.player(f"p{seat}"))
        assert h.feed(upd) == []
    upd = P.SeatUpdate(table_id=1, seat=3, player=R.player("z", bot=True))
    only(h.feed(upd), P.Start)


def test_lonely_creator_leaves_and_looks_again() -> None:
    h = Harness(lonely_s=5.0)
    h.accept()
    lst = only(h.welcome(), P.ListTables)
    h.feed(P.TableList(re=lst.id, tables=[]))
    h.reactor.advance(1.0)
    create = only(h.feed(P.TableList(re=only(h.sent(), P.ListTables).id, tables=[])),
                  P.CreateTable)  # fmt: skip
    h.feed(P.Snapshot(re=create.id, table=summary(2, "t"), view=None, your_seat=0,
                      players=players(1, host=0)))  # fmt: skip
    h.reactor.advance(5.0)
    out = h.sent()
    assert [type(m) for m in out] == [P.Leave, P.ListTables]
    relist = out[1]
    assert isinstance(relist, P.ListTables)
    join = only(h.feed(P.TableList(re=relist.id, tables=[summary(1, "t", taken=2)])), P.JoinSeat)
    assert join.table_id == 1


def test_a_bot_told_to_create_its_table_hosts_it_and_waits_for_people() -> None:
    """`leekha bot --create NAME` (the command sets `table` to NAME too): alone at its
    table it stays, however long, so an invitation to that table stays good."""
    h = Harness(create="t", table="t", lonely_s=5.0)
    h.accept()
    create = only(h.welcome(), P.CreateTable)
    h.feed(P.Snapshot(re=create.id, table=summary(2, "t"), view=None, your_seat=0,
                      players=players(1, host=0)))  # fmt: skip
    for _ in range(10):
        h.reactor.advance(60.0)
    assert [m for m in h.sent() if isinstance(m, P.Leave | P.CreateTable | P.ListTables)] == []
    assert h.bot.policy.table_id == 2 and h.bot.core.table.is_host


def test_taken_name_is_retried_with_a_suffix() -> None:
    h = Harness()
    h.accept()
    hello = only(h.sent(), P.Hello)
    again = only(h.feed(P.Error(re=hello.id, code="bad_name", message="in use")), P.Hello)
    assert again.name.startswith("b-")


# ---- playing ---------------------------------------------------------------------------
def test_pass_prompt_is_answered_with_a_legal_pass_once() -> None:
    h = online(strategy="random")
    snap, game = game_snapshot()
    out = h.feed(snap)  # the view has our legal list: act at once
    pc = only(out, P.PassCards)
    assert set(pc.cards) <= set(seat_view(game, 0).legal)
    assert h.feed(P.YourTurn(phase="pass", legal=seat_view(game, 0).legal)) == []  # no repeat
    h.feed(P.Ok(re=pc.id))
    view = h.bot.core.table.view
    assert view is not None and view.passed == sorted(pc.cards)


def test_refused_move_falls_back_to_a_random_legal_move() -> None:
    h = online(strategy="random")
    snap, game = game_snapshot()
    pc = only(h.feed(snap), P.PassCards)
    retry = only(h.feed(P.Error(re=pc.id, code="pass_last_of_suit", message="no")), P.PassCards)
    assert set(retry.cards) <= set(seat_view(game, 0).legal)
    # play phase: a refused card is replaced by another card from the prompt's list
    h.bot.core.table.view = replace(
        playing(h), phase="play", turn=0, passes_done=[True] * 4, hand=[1, 2, 3, 40]
    )
    prompt = P.YourTurn(phase="play", legal=[1, 2, 3])
    play = only(h.feed(prompt), P.PlayCard)
    assert play.card in (1, 2, 3)
    again = only(h.feed(P.Error(re=play.id, code="must_follow_suit", message="no")), P.PlayCard)
    assert again.card in (1, 2, 3)
    # a stale-state refusal does not trigger a blind retry
    assert h.feed(P.Error(re=again.id, code="not_your_turn", message="no")) == []


def test_rate_limited_move_is_sent_again_after_a_pause() -> None:
    h = online(strategy="random")
    snap, _game = game_snapshot()
    pc = only(h.feed(snap), P.PassCards)
    # Too quick: the same pass goes out again once the bot has waited, not a random one.
    assert h.feed(P.Error(re=pc.id, code="rate_limited", message="slow down")) == []
    h.reactor.advance(0.1)
    assert h.sent() == []
    h.reactor.advance(0.5)
    again = only(h.sent(), P.PassCards)
    assert again.cards == pc.cards and again.id != pc.id


def test_a_failing_strategy_never_stalls_the_seat() -> None:
    h = Harness()
    h.bot.policy.moves.strategy = Broken()
    h.accept()
    h.welcome()
    snap, game = game_snapshot()
    pc = only(h.feed(snap), P.PassCards)
    assert set(pc.cards) <= set(seat_view(game, 0).legal)
    h.bot.core.table.view = replace(
        playing(h), phase="play", turn=0, passes_done=[True] * 4, hand=[5, 6]
    )
    assert only(h.feed(P.YourTurn(phase="play", legal=[5, 6])), P.PlayCard).card in (5, 6)


def test_think_time_delays_the_move() -> None:
    h = online(think_s=0.5)
    snap, _game = game_snapshot()
    assert h.feed(snap) == []
    h.reactor.advance(0.5)
    only(h.sent(), P.PassCards)


def test_ping_is_answered_even_during_the_handshake() -> None:
    h = Harness()
    h.accept()
    h.sent()
    assert only(h.feed(P.Ping(id=42)), P.Pong).re == 42


def test_game_over_leaves_and_finishes() -> None:
    h = online(games=1)
    snap, _game = game_snapshot()
    h.feed(snap)
    out = h.feed(P.GameOver(winners=[1], losers=[2], totals=[10, 5, 102, 40]))
    only(out, P.Leave)
    h.reactor.advance(0)  # the session stops on the next turn
    assert h.transport is not None and h.transport.disconnecting
    h.proto.connectionLost(Failure(error.ConnectionDone()))
    assert h.bot.done.called and h.bot.done.result == 0


def test_game_over_names_the_stored_game_in_the_log() -> None:
    said: list[str] = []

    @provider(ILogObserver)
    def observe(event: dict[str, Any]) -> None:
        said.append(formatEvent(event))

    globalLogPublisher.addObserver(observe)
    try:
        h = online(games=2)
        snap, _game = game_snapshot()
        h.feed(snap)
        h.feed(P.GameOver(winners=[1], losers=[2], totals=[10, 5, 102, 40], game_id=12))
    finally:
        globalLogPublisher.removeObserver(observe)
    line = "game 1 over, totals [10, 5, 102, 40], winners [2], stored as game 12"
    assert any(line in said_line for said_line in said), said


def test_more_games_vote_for_a_rematch() -> None:
    h = online(games=2)
    snap, _game = game_snapshot()
    h.feed(snap)
    only(h.feed(P.GameOver(winners=[1], losers=[2], totals=[10, 5, 102, 40])), P.Rematch)
    assert not h.bot.done.called


# ---- connections -----------------------------------------------------------------------
def test_first_connection_refused_is_a_clear_error() -> None:
    h = Harness(port=9)
    h.refuse()
    h.reactor.advance(0.3)  # HostnameEndpoint reports after its attempt delay
    failures: list[Failure] = []
    h.bot.done.addErrback(failures.append)
    assert isinstance(failures[0].value, ConnectFailed)
    assert "127.0.0.1:9" in str(failures[0].value) and "refused" in str(failures[0].value)


def test_drop_reconnects_with_backoff_and_resumes_the_seat() -> None:
    h = online(backoff_first=0.25)
    snap, game = game_snapshot()
    pc = only(h.feed(snap), P.PassCards)
    h.drop()
    assert len(h.reactor.tcpClients) == 1
    h.reactor.advance(0.4)  # first retry after ~0.25 s (±20 %)
    assert len(h.reactor.tcpClients) == 2
    h.refuse()  # the server is still down: the next pause doubles
    h.reactor.advance(0.3)  # HostnameEndpoint reports the refusal after its attempt delay
    h.reactor.advance(0.45)
    assert len(h.reactor.tcpClients) == 2
    h.reactor.advance(0.1)  # 0.5 s (+ up to a fifth of 0.25 s)
    assert len(h.reactor.tcpClients) == 3
    h.accept()
    resume = only(h.sent(), P.Resume)
    assert resume.token == "tok"
    h.proto.dataReceived(P.encode(P.Welcome(re=resume.id, version=[1, 0], server="s",
                                            token="tok", name="b", resumed=True)))  # fmt: skip
    probe = only(h.sent(), P.Ping)
    # The pass was lost with the link: the fresh snapshot still wants it, so it goes again.
    out = h.feed(P.Snapshot(re=None, table=snap.table, view=snap.view, your_seat=0,
                            players=snap.players))  # fmt: skip
    assert set(only(out, P.PassCards).cards) <= set(seat_view(game, 0).legal)
    assert h.feed(P.Pong(re=probe.id)) == []  # seated: the probe's answer changes nothing
    del pc


def reconnect(h: Harness) -> None:
    h.drop()
    h.reactor.advance(1.0)
    h.accept()


def test_resume_without_a_seat_goes_back_to_the_lobby() -> None:
    h = online()
    reconnect(h)
    resume = only(h.sent(), P.Resume)
    h.proto.dataReceived(P.encode(P.Welcome(re=resume.id, version=[1, 0], server="s",
                                            token="tok", name="b", resumed=True)))  # fmt: skip
    probe = only(h.sent(), P.Ping)
    only(h.feed(P.Pong(re=probe.id)), P.ListTables)


def test_resume_on_1_1_trusts_welcome_that_we_are_seated() -> None:
    h = Harness()
    h.accept()
    h.welcome(version=(1, 1))
    snap, game = game_snapshot()
    only(h.feed(snap), P.PassCards)
    reconnect(h)
    # No ping probe: the welcome says where we are; the snapshot then asks for the pass.
    assert h.welcome(resumed=True, version=(1, 1), table_id=1, seat=0) == []
    out = h.feed(P.Snapshot(re=None, table=snap.table, view=snap.view, your_seat=0,
                            players=snap.players))  # fmt: skip
    assert set(only(out, P.PassCards).cards) <= set(seat_view(game, 0).legal)


def test_resume_on_1_1_in_the_lobby_finds_the_table_at_once() -> None:
    h = Harness()
    h.accept()
    h.welcome(version=(1, 1))
    h.feed(game_snapshot()[0])
    reconnect(h)
    out = h.welcome(resumed=True, version=(1, 1), table_id=None, seat=None)
    only(out, P.ListTables)
    assert not any(isinstance(m, P.Ping) for m in out)
    assert h.bot.policy.table_id is None


def test_resume_on_1_1_as_a_spectator_leaves_and_finds_a_seat() -> None:
    h = Harness()
    h.accept()
    h.welcome(version=(1, 1))
    reconnect(h)
    out = h.welcome(resumed=True, version=(1, 1), table_id=4, seat=None)
    assert [type(m) for m in out] == [P.Leave, P.ListTables]
    snap, _game = game_snapshot()
    h.feed(P.Snapshot(re=None, table=snap.table, view=snap.view, your_seat=None,
                      players=snap.players))  # fmt: skip
    assert h.bot.policy.table_id is None  # the table_list reply is still acted on


def test_expired_token_starts_a_new_session() -> None:
    h = online()
    reconnect(h)
    resume = only(h.sent(), P.Resume)
    only(h.feed(P.Error(re=resume.id, code="bad_token", message="gone")), P.Hello)


def test_stop_hangs_up_and_finishes() -> None:
    h = online()
    d = h.bot.stop()
    h.reactor.advance(0)  # the session stops on the next turn
    assert h.transport is not None and h.transport.disconnecting
    h.proto.connectionLost(Failure(error.ConnectionDone()))
    assert d.called and d.result == 0
    assert len(h.reactor.tcpClients) == 1  # no reconnect after a deliberate stop


def test_garbage_from_the_server_closes_the_link_and_reconnects() -> None:
    h = online()
    h.proto.dataReceived(b"\x00\x00\x00\x00")
    assert h.transport is not None and h.transport.disconnecting
    h.drop()
    h.reactor.advance(1.0)
    assert len(h.reactor.tcpClients) == 2


# ---- command line ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["127.0.0.1:0", "--table", "t"], "bad port"),
        (["--table", "t", "--strategy", "nope"], "unknown strategy"),
        (["--table", "t", "--rule", "target=0"], "target"),
        (["--table", "t", "--rule", "talbees=maybe"], "talbees"),
        (["--table", "t", "--rule", "nope=1"], "nope"),
    ],
)
def test_bad_options_are_one_clear_line(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = build_parser_for_tests().parse_args(argv)
    assert bot_cli.run(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("leekha bot:") and problem in err and "\n" not in err


def test_count_bots_share_the_table_and_only_the_first_creates() -> None:
    args = build_parser_for_tests().parse_args(
        ["example.org", "--create", "t", "--count", "3", "--name", "x", "--rule", "target=20"]
    )
    opts, problem = bot_cli._options(args)
    assert problem is None
    assert [o.name for o in opts] == ["x-1", "x-2", "x-3"]
    assert [o.create for o in opts] == ["t", None, None]
    assert all(o.table == "t" and o.overrides == {"target": 20} for o in opts)
    assert {(o.host, o.port) for o in opts} == {("example.org", 7241)}
