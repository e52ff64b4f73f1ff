"""A seat belongs to its person until they give it up, and everyone hears what happened:
name reservation, system lines in the table chat, the timeout line, the chat replay."""

from __future__ import annotations

from pathlib import Path

from helpers.server import VERSIONS, FakeClient, Harness, created_table

from leekha.common import cards as C
from leekha.protocol import catalogue as M


def lines(client: FakeClient) -> list[str]:
    return [m.text for m in client.of(M.ChatMessage) if m.sender == "*"]


def two_at_a_table(h: Harness) -> tuple[FakeClient, FakeClient, int]:
    return h.host_and_guest(seat=1, bots=True)


def test_a_held_seat_reserves_its_name_until_it_is_given_up() -> None:
    h = Harness(seat_grace_s=5.0)
    alice, bob, _ = two_at_a_table(h)
    alice.request(M.Start(id=alice.rid()))
    bob.drop()
    h.advance(10)  # past the grace: a bot plays, the seat is still bob's
    impostor = h.connect()
    reply = impostor.request(M.Hello(id=1, versions=VERSIONS, name="BOB"))
    assert isinstance(reply, M.Error) and reply.code == "bad_name"
    assert "holds a seat" in reply.message
    back = h.connect()
    welcome = back.request(M.Resume(id=1, versions=VERSIONS, token=bob.token or ""))
    assert isinstance(welcome, M.Welcome) and welcome.seat == 1
    assert isinstance(back.request(M.Leave(id=back.rid())), M.Ok)  # gives the seat up
    back.drop()
    assert isinstance(h.connect().request(M.Hello(id=1, versions=VERSIONS, name="bob")), M.Welcome)


def test_everyone_hears_the_drop_the_bot_and_the_return() -> None:
    h = Harness(seat_grace_s=5.0)
    alice, bob, tid = two_at_a_table(h)
    alice.request(M.Start(id=alice.rid()))
    alice.drain()
    bob.drop()
    assert lines(alice) == ["bob dropped; the seat waits 5 s for them to come back"]
    alice.drain()
    h.advance(6)
    assert "bob is still away: a bot plays the seat until they come back" in lines(alice)
    alice.drain()
    back = h.connect()
    back.request(M.Resume(id=1, versions=VERSIONS, token=bob.token or ""))
    assert lines(alice) == ["bob is back and takes the seat back from the bot"]
    table = h.lobby.tables[tid]
    seat = table.seats[1]
    assert seat is not None and seat.token == bob.sid and not seat.autopilot
    # The one who came back got the table's chat so far, then the same line.
    assert lines(back) == [
        "bob dropped; the seat waits 5 s for them to come back",
        "bob is still away: a bot plays the seat until they come back",
        "bob is back and takes the seat back from the bot",
    ]


def test_a_timeout_tells_the_player_what_was_played_for_them() -> None:
    h = Harness(default_pass_timer_s=10.0)
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    alice.request(M.Start(id=alice.rid()))
    game = h.lobby.tables[tid].game
    assert game is not None
    hand = game.hands[0]
    h.advance(11)
    passed = game.passed[0]
    assert passed is not None
    expected = "Time ran out: the server passed " + C.format_cards(C.cards_of(passed)) + " for you"
    assert passed & hand == passed
    assert expected in lines(alice)


def test_chat_is_replayed_to_a_newcomer_up_to_fifty_lines() -> None:
    h = Harness(chat_rate_per_min=1000)
    alice = h.player("alice")
    tid = created_table(alice.request(M.CreateTable(id=1, name="x")))
    for n in range(55):
        assert isinstance(alice.request(M.Chat(id=alice.rid(), text=f"line {n}")), M.Ok)
    carol = h.player("carol")
    assert isinstance(carol.request(M.Spectate(id=2, table_id=tid)), M.Snapshot)
    h.advance(0.01)
    got = [m.text for m in carol.of(M.ChatMessage)]
    assert got == [f"line {n}" for n in range(5, 55)]


def test_the_system_name_cannot_be_taken() -> None:
    h = Harness()
    reply = h.connect().request(M.Hello(id=1, versions=VERSIONS, name="*"))
    assert isinstance(reply, M.Error) and reply.code == "bad_name"


def test_the_chat_replay_survives_a_server_restart(tmp_path: Path) -> None:
    from leekha.server.domain.persistence import Store

    h = Harness(store=Store.in_dir(tmp_path), chat_rate_per_min=1000)
    alice = h.player("alice")
    tid = created_table(alice.request(M.CreateTable(id=1, name="x")))
    for n in range(52):
        alice.request(M.Chat(id=alice.rid(), text=f"line {n}"))
    h.lobby.outbox.flush()
    for table in h.lobby.tables.values():
        table.shutdown()  # a crash: nothing more is written
    h2 = Harness(store=Store.in_dir(tmp_path))
    back = h2.connect()
    back.request(M.Resume(id=1, versions=VERSIONS, token=alice.token or ""))
    got = [m.text for m in back.of(M.ChatMessage) if m.sender == "alice"]
    assert got == [f"line {n}" for n in range(2, 52)]
    assert tid in h2.lobby.tables
