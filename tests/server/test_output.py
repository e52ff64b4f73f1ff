"""The output path: closing kicked connections, group commit, frames, connection limits."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.server import VERSIONS, FakeClient, Harness, created_table

from leekha.common.game import Game
from leekha.protocol import catalogue as M
from leekha.protocol import codec
from leekha.protocol.codec import encode
from leekha.protocol.message import Message
from leekha.server.connection import CLOSE_GRACE_S, MAX_STRIKES_FACTOR
from leekha.server.domain.persistence import Store


def test_a_kicked_connection_whose_writes_were_paused_is_closed() -> None:
    """Twisted keeps a transport with a registered producer open on loseConnection, so a
    kick must unregister the producer first."""
    h = Harness(rate_limit_msgs_per_s=1.0, rate_burst=2)
    c = h.player("flooder")
    assert c.transport.producer is c.proto
    c.proto.pauseProducing()  # as Twisted does when the write buffer passes its limit
    for _ in range(10):
        c.send(M.Ping(id=c.rid()))
    errors = c.of(M.Error)
    assert errors[-1].code == "rate_limited" and "closing" in errors[-1].message
    assert c.closed and c.transport.producer is None
    assert not c.transport.disconnected  # a graceful close first...
    h.clock.advance(CLOSE_GRACE_S)
    assert c.transport.disconnected  # ...then aborted when the peer does not take it


def test_a_closed_connection_is_not_aborted_later() -> None:
    h = Harness()
    c = h.connect()
    c.send(M.ListTables(id=1))  # not_hello_first: an error, then a graceful close
    assert c.closed and not c.transport.disconnected
    c.drop()
    h.clock.advance(CLOSE_GRACE_S * 2)
    assert not c.transport.disconnected


def started(tmp_path: Path) -> tuple[Harness, FakeClient, int, Game]:
    """alice and three slow bots at a started table, on a store in tmp_path."""
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10_000)
    alice = h.player("alice")
    tid = h.table_with_bots(alice)
    alice.request(M.Start(id=alice.rid()))
    alice.drain()
    game = h.lobby.tables[tid].game
    assert game is not None
    return h, alice, tid, game


def test_actions_are_committed_before_their_ack_or_broadcast(tmp_path: Path) -> None:
    h, alice, tid, game = started(tmp_path)
    cards = list(next(game.legal_passes(0)))
    alice.send(M.PassCards(id=alice.rid(), cards=cards))
    # Handled but not yet flushed: nothing on the wire, the action not yet committed.
    assert alice.transport.value() == b"" and h.store.pending
    reader = Store.in_dir(tmp_path)
    assert [r.actions for r in reader.load_tables() if r.id == tid] == [[]]
    h.clock.advance(0)  # the end of the reactor turn
    assert not h.store.pending
    assert [len(r.actions) for r in reader.load_tables() if r.id == tid] == [1]
    reader.close()
    got = alice.drain()
    assert isinstance(got[0], M.Ok) and any(isinstance(m, M.PassDone) for m in got)


def test_one_reactor_turn_of_actions_is_one_commit_and_one_write_per_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(store=Store.in_dir(tmp_path), bot_think_ms=10_000)
    players = [h.player(f"p{i}") for i in range(4)]
    snap = players[0].request(M.CreateTable(id=players[0].rid(), name="t", preset="classic"))
    tid = created_table(snap)
    for p in players[1:]:
        p.request(M.JoinSeat(id=p.rid(), table_id=tid))
    players[0].request(M.Start(id=players[0].rid()))
    for p in players:
        p.drain()
    game = h.lobby.tables[tid].game
    assert game is not None
    commits: list[None] = []
    original = h.store.commit

    def commit() -> None:
        if h.store.pending:
            commits.append(None)
        original()

    monkeypatch.setattr(h.store, "commit", commit)
    writes = {id(p.transport): 0 for p in players}
    for p in players:
        write = p.transport.write

        def counted(data: bytes, write: object = write, key: int = id(p.transport)) -> None:
            writes[key] += 1
            write(data)  # type: ignore[operator]

        monkeypatch.setattr(p.transport, "write", counted)
    for i, p in enumerate(players):  # four passes in one turn
        p.send(M.PassCards(id=p.rid(), cards=list(next(game.legal_passes(i)))))
    h.clock.advance(0)
    assert len(commits) == 1
    assert list(writes.values()) == [1, 1, 1, 1]
    for p in players:
        got = p.drain()
        assert sum(isinstance(m, M.PassDone) for m in got) == 4
        assert any(isinstance(m, M.PassedReceived) for m in got)


def test_a_failed_commit_sends_nothing_and_stops(tmp_path: Path) -> None:
    h, alice, tid, game = started(tmp_path)
    fatal: list[None] = []
    h.lobby.outbox.on_fatal = lambda: fatal.append(None)

    def broken() -> None:
        raise OSError("disk I/O error")

    h.store.commit = broken  # type: ignore[method-assign]
    alice.send(M.PassCards(id=alice.rid(), cards=list(next(game.legal_passes(0)))))
    h.clock.advance(0)
    assert fatal and alice.transport.value() == b"" and alice.transport.disconnected
    assert [r.actions for r in Store.in_dir(tmp_path).load_tables() if r.id == tid] == [[]]


def test_a_message_to_many_connections_is_encoded_once_into_the_codecs_bytes() -> None:
    """Every frame leaves through the session's Connection.send; a broadcast shares the
    turn's encoding (leekha.protocol.codec.Frames) instead of a copy of the codec."""
    h = Harness()
    a, b = h.player("ann"), h.player("bo")
    for c in (a, b):
        c.drain()
    event = M.CardPlayed(seat=2, card=49)
    calls: list[Message] = []
    real = codec.encode

    def counting(msg: Message, max_frame: int = codec.DEFAULT_MAX_FRAME) -> bytes:
        calls.append(msg)
        return real(msg, max_frame)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codec, "encode", counting)
        for c in (a, b):
            c.proto.send(event)
        h.clock.advance(0)
    assert calls == [event]
    assert a.transport.value() == b.transport.value() == encode(event)


def test_new_connections_per_address_are_rate_limited() -> None:
    h = Harness(new_connections_per_ip_per_s=2.0)  # bursts of 10
    admitted = [h.connect("10.0.0.9") for _ in range(10)]
    assert h.try_connect("10.0.0.9") is None  # refused before any connection object
    assert h.factory.stats.refused == 1 and len(h.factory.connections) == 10
    assert not any(c.closed for c in admitted)
    other = h.connect("10.0.0.10")  # another address has its own budget
    assert not other.closed
    h.clock.advance(0.5)  # one more token
    assert not h.connect("10.0.0.9").closed


def test_a_flood_kick_shuts_the_address_out_for_the_penalty_only() -> None:
    h = Harness(
        rate_limit_msgs_per_s=1.0,
        rate_burst=2,
        kick_penalty_s=5.0,
        new_connections_per_ip_per_s=2.0,
    )
    player = h.player("Rana", ip="10.0.0.9")  # already playing from the flooder's address
    flooder = h.connect("10.0.0.9")
    for i in range(2 + 2 * MAX_STRIKES_FACTOR + 1):
        flooder.send(M.Ping(id=i))
    assert flooder.closed and "rate_limited" in [m.code for m in flooder.of(M.Error)]
    assert not player.closed  # open connections from the address are not cut
    h.advance(4.9)
    assert h.try_connect("10.0.0.9") is None  # in the penalty box
    assert h.connect("10.0.0.10") is not None  # other addresses are not
    h.advance(0.2)
    # Out of the box, but the kick emptied the burst: one connection per refill, not ten.
    assert h.try_connect("10.0.0.9") is not None
    assert h.try_connect("10.0.0.9") is None
    assert player.request(M.Ping(id=99)) == M.Pong(re=99)


@pytest.mark.parametrize("penalty, refused", [(5.0, True), (0.0, False)])
def test_a_protocol_violation_costs_the_penalty_unless_it_is_off(
    penalty: float, refused: bool
) -> None:
    h = Harness(kick_penalty_s=penalty)
    bad = h.connect("10.0.0.7")
    bad.raw(b"\x00\x00\x00\x02\xc1\xc1")  # 0xc1: never valid msgpack
    assert bad.closed
    assert (h.try_connect("10.0.0.7") is None) is refused


def test_a_name_is_free_again_once_its_connection_is_gone() -> None:
    h = Harness()
    first = h.player("Rami")
    taken = h.connect()
    reply = taken.request(M.Hello(id=1, versions=VERSIONS, name="rami"))
    assert isinstance(reply, M.Error) and reply.code == "bad_name"
    first.drop()
    h.player("RAMI")


def test_a_peer_that_does_not_read_is_dropped_past_the_output_cap() -> None:
    """Replies wait in the connection while Twisted holds unsent bytes; past max_output_kib
    the peer is dropped and that is logged, whatever the rate limit allowed."""
    from twisted.logger import capturedLogs

    h = Harness(max_output_kib=64)
    for i in range(30):  # a lobby worth listing
        host = h.player(f"host{i}", ip=f"10.0.1.{i}")
        host.request(M.CreateTable(id=host.rid(), name=f"table {i}", preset="classic"))
    reader = h.player("reader", ip="10.0.0.2")
    hog = h.player("hog", ip="10.0.0.3")
    hog.proto.pauseProducing()  # Twisted's buffer is full: the peer is not reading
    one = len(encode(reader.request(M.ListTables(id=reader.rid()))))
    with capturedLogs() as events:
        sent = 0
        while not hog.transport.disconnecting:
            hog.send(M.ListTables(id=hog.rid()))
            h.clock.advance(0)  # the outbox's flush at the end of the reactor turn
            sent += 1
            assert sent * one <= 64 * 1024 + one
    assert sent * one > 64 * 1024  # nothing was dropped before the cap
    assert any("not reading" in str(e.get("why", "")) for e in events)
    assert hog.proto not in h.factory.connections or hog.transport.disconnecting
    assert not reader.closed


def test_a_frame_must_complete_within_the_frame_timeout() -> None:
    """Slowloris: a frame sent a byte at a time is dropped frame_timeout_s after its first
    byte, though the peer never stopped sending; whole frames restart the deadline."""
    h = Harness(frame_timeout_s=5.0, ping_interval_s=1000.0)
    steady = h.player("steady")
    slow = h.player("slow", ip="10.0.0.7")
    for _ in range(10):  # whole frames, 1 s apart: never late
        steady.send(M.Ping(id=steady.rid()))
        h.clock.advance(1.0)
    data = encode(M.ListTables(id=99))
    for i, byte in enumerate(data[:-1]):
        slow.raw(bytes([byte]))
        h.clock.advance(0.5)
        if (i + 1) * 0.5 > 5.0:
            break
    assert slow.transport.disconnecting and not steady.closed
    assert slow.drain() == []  # dropped without a word: it never finished a message


def test_bytes_without_messages_do_not_count_as_an_answer() -> None:
    """The keepalive judges a peer by its messages: bytes that never make one get it
    pinged and then dropped as silent."""
    h = Harness(ping_interval_s=10.0, dead_peer_timeout_s=25.0, frame_timeout_s=3600.0)
    c = h.player("dribbler")
    data = encode(M.ListTables(id=5))
    for i in range(11):  # a byte every 2 s for 22 s: it is still pinged
        c.raw(data[i : i + 1])
        h.advance(2.0, step=0.5)
    assert c.of(M.Ping)
    h.advance(14.0, step=0.5)
    assert c.transport.disconnecting
