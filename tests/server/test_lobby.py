"""Lobby, handshake and hostile-input behaviour on a fake clock and StringTransports."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.server import VERSIONS, FakeClient, Harness, created_table

from leekha.protocol import catalogue as M
from leekha.protocol.codec import encode
from leekha.server.domain.timers import SLOT_S


def test_hello_gets_a_welcome_with_a_token_and_the_cleaned_name() -> None:
    h = Harness()
    c = h.connect()
    reply = c.request(M.Hello(id=1, versions=VERSIONS, name="  Rami   K  "))
    assert isinstance(reply, M.Welcome)
    assert reply.name == "Rami K"
    assert len(reply.token) >= 20 and reply.resumed is False


@pytest.mark.parametrize(
    ("name", "code"),
    [("x" * 25, "name_too_long"), ("   ", "bad_name"), ("a\x00b", "bad_name")],
)
def test_bad_names_are_refused_and_the_connection_stays(name: str, code: str) -> None:
    h = Harness()
    c = h.connect()
    reply = c.request(M.Hello(id=1, versions=VERSIONS, name=name))
    assert isinstance(reply, M.Error) and reply.code == code and reply.re == 1
    assert not c.closed
    assert isinstance(c.request(M.Hello(id=2, versions=VERSIONS, name="ok")), M.Welcome)


def test_a_name_in_use_is_refused() -> None:
    h = Harness()
    h.player("Nour")
    c = h.connect()
    reply = c.request(M.Hello(id=1, versions=VERSIONS, name="nour"))
    assert isinstance(reply, M.Error) and reply.code == "bad_name"


def test_first_message_must_be_hello_then_close() -> None:
    h = Harness()
    c = h.connect()
    c.send(M.ListTables(id=7))
    (err,) = c.drain()
    assert isinstance(err, M.Error) and err.code == "not_hello_first"
    assert c.closed


def test_version_mismatch_is_an_error_then_close() -> None:
    h = Harness()
    c = h.connect()
    c.send(M.Hello(id=3, versions=[[9, 0]], name="future"))
    (err,) = c.drain()
    assert isinstance(err, M.Error) and err.code == "version_mismatch" and err.re == 3
    assert c.closed


def test_garbage_closes_only_that_connection() -> None:
    h = Harness()
    good = h.player("good")
    bad = h.player("bad")
    bad.raw(b"\x00\x00\x00\x03\xc1\xc1\xc1")
    (err,) = bad.drain()
    assert isinstance(err, M.Error) and err.code in ("bad_msgpack", "bad_frame")
    assert bad.closed
    assert not good.closed
    assert isinstance(good.request(M.ListTables(id=50)), M.TableList)


def test_oversized_frame_header_is_refused_before_buffering() -> None:
    h = Harness()
    c = h.player("big")
    c.raw((10_000_000).to_bytes(4, "big") + b"x" * 10)
    (err,) = c.drain()
    assert isinstance(err, M.Error) and err.code == "frame_too_large"
    assert c.closed


def test_hello_timeout_closes_a_silent_connection() -> None:
    h = Harness(hello_timeout_s=5.0)
    c = h.connect()
    h.clock.advance(4.9)
    assert not c.closed
    h.clock.advance(0.2)
    (err,) = c.drain()
    assert isinstance(err, M.Error) and err.code == "hello_timeout"
    assert c.closed


def test_hello_in_time_cancels_the_timeout() -> None:
    h = Harness(hello_timeout_s=5.0)
    c = h.player("quick")
    h.clock.advance(6)
    assert not c.closed


def _heard(h: Harness, c: FakeClient, seconds: float, step: float = 0.05) -> list[float]:
    """Advance `seconds`, noting the clock time of each ping `c` gets."""
    at: list[float] = []
    for _ in range(round(seconds / step)):
        h.clock.advance(step)
        at += [h.clock.seconds()] * len(c.of(M.Ping))
        c.inbox = [m for m in c.inbox if not isinstance(m, M.Ping)]
    return at


@pytest.mark.parametrize("over", [{}, {"ping_interval_s": 10.0, "dead_peer_timeout_s": 25.0}])
def test_keepalive_pings_at_the_documented_times_and_drops_at_the_timeout(
    over: dict[str, Any],
) -> None:
    """docs/protocol.md: a peer silent for ping_interval_s (20 s) is pinged, one silent
    for dead_peer_timeout_s (60 s) dropped; both within a quarter second (a Watch slot)."""
    h = Harness(**over)
    interval, limit = h.settings.ping_interval_s, h.settings.dead_peer_timeout_s
    c = h.player("p")
    start = h.clock.seconds()
    pings = _heard(h, c, interval - 0.1)
    assert pings == []  # not silent for a whole interval yet
    pings = _heard(h, c, 0.1 + SLOT_S)
    assert len(pings) == 1 and interval <= pings[0] - start <= interval + SLOT_S
    c.send(M.Pong(re=1))  # an answer counts as life (the first ping's id is 1)
    answered = h.clock.seconds()
    pings = _heard(h, c, limit - 0.2)
    assert not c.transport.disconnecting  # just short of the timeout since the answer
    expected = [answered + k * interval for k in range(1, int((limit - 0.2) // interval) + 1)]
    assert len(pings) == len(expected)
    for got, want in zip(pings, expected, strict=True):
        assert want <= got <= want + SLOT_S  # one ping per interval of silence
    _heard(h, c, 0.2 + SLOT_S)
    assert c.transport.disconnecting  # dropped at the timeout


def test_a_peer_that_talks_gets_no_pings() -> None:
    h = Harness(ping_interval_s=10.0, dead_peer_timeout_s=25.0)
    c = h.player("p")
    for _ in range(12):
        h.advance(5.0, step=0.1)
        assert isinstance(c.request(M.ListTables(id=c.rid())), M.TableList)
    assert c.of(M.Ping) == []
    assert not c.closed


def test_connections_share_their_timers() -> None:
    """Hello deadlines and keepalives of many connections cost a few clock timers, not one
    each; every connection is still timed out on its own schedule."""
    h = Harness(hello_timeout_s=5.0, ping_interval_s=10.0, max_connections_per_ip=1000)
    silent = []
    for _ in range(50):
        silent.append(h.connect())
        h.clock.advance(0.05)
    talkers = [h.player(f"p{i}") for i in range(50)]
    assert len(h.clock.getDelayedCalls()) <= 3
    h.clock.advance(5.0 + 24 * 0.05 + 0.01 - 50 * 0.05)  # the first 25 silent ones are due
    assert [c.closed for c in silent] == [True] * 25 + [False] * 25
    h.advance(2.5, step=0.05)
    assert all(c.closed for c in silent)
    assert not any(c.closed for c in talkers)
    assert all(isinstance(c.of(M.Error)[0], M.Error) for c in silent)


def test_ping_from_client_gets_pong() -> None:
    h = Harness()
    c = h.player("p")
    reply = c.request(M.Ping(id=77))
    assert isinstance(reply, M.Pong) and reply.re == 77


def test_message_rate_limit_refuses_then_closes() -> None:
    h = Harness(rate_limit_msgs_per_s=1.0, rate_burst=5)
    c = h.player("spammer")  # hello took one token
    for i in range(4):
        assert isinstance(c.request(M.Ping(id=100 + i)), M.Pong)
    c.send(M.ListTables(id=200))
    errs = [m for m in c.drain() if isinstance(m, M.Error)]
    assert errs and errs[0].code == "rate_limited"
    assert not c.closed
    h.clock.advance(2.0)  # the bucket refills
    assert isinstance(c.request(M.ListTables(id=201)), M.TableList)
    for i in range(30):
        c.send(M.ListTables(id=300 + i))
    assert c.closed


def test_connection_limits_total_and_per_ip() -> None:
    h = Harness(max_connections=3, max_connections_per_ip=2)
    a1 = h.connect("10.0.0.1")
    a2 = h.connect("10.0.0.1")
    a3 = h.connect("10.0.0.1")
    (err,) = a3.drain()
    assert isinstance(err, M.Error) and err.code == "server_full" and a3.closed
    b1 = h.connect("10.0.0.2")
    c1 = h.connect("10.0.0.3")
    assert c1.closed and not b1.closed and not a1.closed and not a2.closed
    a1.drop()
    c2 = h.connect("10.0.0.3")
    assert not c2.closed


def test_table_list_and_live_updates_reach_lobby_watchers() -> None:
    h = Harness()
    watcher = h.player("watcher")
    listing = watcher.request(M.ListTables(id=9))
    assert isinstance(listing, M.TableList) and listing.tables == []
    host = h.player("host")
    snap = host.request(M.CreateTable(id=host.rid(), name="Friday", preset="levant", password="pw"))
    assert isinstance(snap, M.Snapshot) and snap.view is None and snap.your_seat == 0
    updates = watcher.of(M.TableUpdate)
    assert updates, "the watcher hears about the new table"
    summary = updates[-1].table
    assert summary["name"] == "Friday" and summary["has_password"] is True
    assert summary["status"] == "waiting" and summary["seats"][0]["name"] == "host"
    assert summary["rules"]["talbees"] is True and summary["preset"] == "levant"
    host.request(M.AddBot(id=host.rid(), seat=2, strategy="random"))
    last = watcher.of(M.TableUpdate)[-1].table
    assert last["seats"][2]["is_bot"] is True


def test_bad_rules_name_the_option() -> None:
    h = Harness()
    c = h.player("host")
    reply = c.request(M.CreateTable(id=1, name="x", overrides={"target": -5}))
    assert isinstance(reply, M.Error) and reply.code == "bad_rules" and "target" in reply.message
    reply = c.request(M.CreateTable(id=2, name="x", overrides={"void_rul": "free"}))
    assert isinstance(reply, M.Error) and reply.code == "bad_rules" and "void_rul" in reply.message
    reply = c.request(M.CreateTable(id=3, name="x", preset="nope"))
    assert isinstance(reply, M.Error) and reply.code == "bad_rules" and "preset" in reply.message
    assert h.lobby.tables == {}


def test_password_protects_seats_and_spectating() -> None:
    h = Harness()
    host = h.player("host")
    tid = created_table(host.request(M.CreateTable(id=1, name="x", password="sesame")))
    guest = h.player("guest")
    for msg in (M.JoinSeat(id=2, table_id=tid), M.Spectate(id=3, table_id=tid, password="no")):
        reply = guest.request(msg)
        assert isinstance(reply, M.Error) and reply.code == "bad_password"
    ok = guest.request(M.JoinSeat(id=4, table_id=tid, password="sesame"))
    assert isinstance(ok, M.Snapshot) and ok.your_seat == 1


def test_host_controls_are_host_only_and_start_needs_four() -> None:
    h = Harness()
    host, guest, _ = h.host_and_guest("host", "guest")
    for msg in (M.AddBot(id=3, seat=2), M.Start(id=4), M.RemoveBot(id=5, seat=2)):
        reply = guest.request(msg)
        assert isinstance(reply, M.Error) and reply.code == "not_host"
    reply = host.request(M.Start(id=6))
    assert isinstance(reply, M.Error) and reply.code == "not_ready"
    reply = host.request(M.AddBot(id=7, seat=1))
    assert isinstance(reply, M.Error) and reply.code == "seat_taken"
    for spec in ("os:system", "nonsense"):
        reply = host.request(M.AddBot(id=host.rid(), seat=2, strategy=spec))
        assert isinstance(reply, M.Error) and reply.code == "no_such_bot"
    assert isinstance(host.request(M.AddBot(id=8, seat=2)), M.Ok)  # default "basic"
    assert isinstance(host.request(M.RemoveBot(id=9, seat=2)), M.Ok)
    reply = host.request(M.RemoveBot(id=10, seat=2))
    assert isinstance(reply, M.Error) and reply.code == "no_such_bot"


def test_join_refusals() -> None:
    h = Harness()
    host = h.player("host")
    tid = h.table_with_bots(host)
    other = h.player("other")
    for msg, code in (
        (M.JoinSeat(id=1, table_id=999), "no_such_table"),
        (M.JoinSeat(id=2, table_id=tid, seat=0), "seat_taken"),
        (M.JoinSeat(id=3, table_id=tid), "table_full"),
    ):
        reply = other.request(msg)
        assert isinstance(reply, M.Error) and reply.code == code, reply
    reply = host.request(M.CreateTable(id=host.rid(), name="second"))
    assert isinstance(reply, M.Error) and reply.code == "already_seated"


def test_tables_per_connection_limit() -> None:
    h = Harness(max_tables_per_connection=2)
    c = h.player("host")
    for i in range(2):
        assert isinstance(c.request(M.CreateTable(id=c.rid(), name=f"t{i}")), M.Snapshot)
        h.lobby.tables[max(h.lobby.tables)].spectators.add("keep-open")
        assert isinstance(c.request(M.Leave(id=c.rid())), M.Ok)
    reply = c.request(M.CreateTable(id=c.rid(), name="t3"))
    assert isinstance(reply, M.Error) and reply.code == "too_many_tables"


def test_leaving_the_last_seat_closes_a_waiting_table() -> None:
    h = Harness()
    watcher = h.player("w")
    watcher.request(M.ListTables(id=1))
    host = h.player("host")
    tid = created_table(host.request(M.CreateTable(id=1, name="x")))
    assert isinstance(host.request(M.Leave(id=2)), M.Ok)
    assert tid not in h.lobby.tables
    assert any(u.table_id == tid and u.table is None for u in watcher.of(M.TableUpdate))


def test_chat_in_lobby_and_at_tables_with_length_and_rate_limits() -> None:
    h = Harness(max_chat_len=10, chat_rate_per_min=3)
    a = h.player("a")
    b = h.player("b")
    seated = h.player("seated")
    seated.request(M.CreateTable(id=1, name="x"))
    seated.drain()
    assert isinstance(a.request(M.Chat(id=2, text="hello all")), M.Ok)
    (heard,) = b.of(M.ChatMessage)
    assert heard.sender == "a" and heard.text == "hello all" and heard.table_id is None
    assert seated.of(M.ChatMessage) == []
    reply = a.request(M.Chat(id=3, text="x" * 11))
    assert isinstance(reply, M.Error) and reply.code == "chat_too_long"
    a.request(M.Chat(id=4, text="two"))
    a.request(M.Chat(id=5, text="three"))
    reply = a.request(M.Chat(id=6, text="four"))
    assert isinstance(reply, M.Error) and reply.code == "rate_limited"
    h.clock.advance(21)
    assert isinstance(a.request(M.Chat(id=7, text="later")), M.Ok)
    assert isinstance(seated.request(M.Chat(id=8, text="table")), M.Ok)
    (table_chat,) = seated.of(M.ChatMessage)
    assert table_chat.table_id is not None
    assert all(m.text != "table" for m in b.of(M.ChatMessage))


def test_an_exception_in_one_handler_is_contained(monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness()
    victim = h.player("victim")
    bystander = h.player("bystander")

    def boom(*args: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(h.lobby, "chat", boom)
    reply = victim.request(M.Chat(id=1, text="hi"))
    assert isinstance(reply, M.Error) and reply.code == "internal" and reply.re == 1
    assert not victim.closed
    assert isinstance(victim.request(M.ListTables(id=2)), M.TableList)
    assert isinstance(bystander.request(M.ListTables(id=3)), M.TableList)


def test_requests_after_welcome_need_no_second_hello() -> None:
    h = Harness()
    c = h.player("p")
    reply = c.request(M.Hello(id=5, versions=VERSIONS, name="p2"))
    assert isinstance(reply, M.Error) and reply.code == "already_welcomed"


def test_server_only_messages_from_a_client_are_a_violation() -> None:
    h = Harness()
    c = h.player("p")
    body = encode(M.Ok(re=1))
    c.raw(body)
    (err,) = c.drain()
    assert isinstance(err, M.Error) and err.code == "unknown_type" and c.closed


def test_a_peer_that_stops_reading_is_dropped() -> None:
    h = Harness(dead_peer_timeout_s=30.0, ping_interval_s=10.0)
    slow = h.player("slow")

    def talk(seconds: float) -> None:  # it keeps sending requests all along
        for _ in range(int(seconds / 5)):
            h.advance(5, step=0.5)
            slow.send(M.Ping(id=slow.rid()))

    slow.proto.pauseProducing()  # what Twisted does when it holds bytes the peer did not take
    talk(20)
    slow.proto.resumeProducing()  # it caught up in time
    talk(20)
    assert not slow.closed
    slow.proto.pauseProducing()
    talk(25)
    h.advance(4.9, step=0.1)
    assert not slow.transport.disconnecting  # 29.9 s without reading
    h.advance(0.1 + SLOT_S, step=0.05)  # dropped at 30 s, talking or not
    assert slow.transport.disconnecting


def test_a_lobby_session_expires_after_its_connection_is_gone() -> None:
    h = Harness(seat_grace_s=5.0)
    c = h.player("drifter")
    c.drop()
    h.clock.advance(4)
    again = h.connect()
    reply = again.request(M.Resume(id=1, versions=VERSIONS, token=c.token or ""))
    assert isinstance(reply, M.Welcome) and reply.resumed
    again.drop()
    h.clock.advance(6)
    late = h.connect()
    reply = late.request(M.Resume(id=2, versions=VERSIONS, token=c.token or ""))
    assert isinstance(reply, M.Error) and reply.code == "bad_token"
    assert c.sid not in h.lobby.sessions


def test_a_table_left_with_only_bots_and_no_watchers_closes() -> None:
    h = Harness()
    host = h.player("host")
    tid = h.table_with_bots(host)
    host.request(M.Start(id=host.rid()))
    watcher = h.player("watcher")
    watcher.request(M.Spectate(id=1, table_id=tid))
    host.request(M.Leave(id=host.rid()))
    assert tid in h.lobby.tables, "still watched"
    watcher.drop()
    assert tid not in h.lobby.tables
    assert h.store.load_tables() == []


def test_a_host_away_from_its_table_keeps_its_session_and_a_former_host_does_not() -> None:
    h = Harness(seat_grace_s=5.0)
    host = h.player("host")
    tid = created_table(host.request(M.CreateTable(id=1, name="x")))
    watcher = h.player("watcher")
    assert isinstance(watcher.request(M.Spectate(id=2, table_id=tid)), M.Snapshot)
    assert isinstance(host.request(M.Leave(id=3)), M.Ok)  # no human to take over: still host
    host.drop()
    h.clock.advance(60)
    back = h.connect()
    reply = back.request(M.Resume(id=4, versions=VERSIONS, token=host.token or ""))
    assert isinstance(reply, M.Welcome) and reply.resumed
    # Now a human sits down while the host is not at the table: the controls pass to the
    # person seated (nobody could start the table otherwise), and the old host's session is
    # an ordinary lobby session again and expires.
    guest = h.player("guest")
    assert isinstance(guest.request(M.JoinSeat(id=5, table_id=tid)), M.Snapshot)
    assert h.lobby.tables[tid].host_token == guest.sid
    assert isinstance(guest.request(M.AddBot(id=6, seat=1, strategy="random")), M.Ok)
    back.drop()
    h.clock.advance(6)
    gone = h.connect()
    reply = gone.request(M.Resume(id=9, versions=VERSIONS, token=back.token or ""))
    assert isinstance(reply, M.Error) and reply.code == "bad_token"


@pytest.mark.parametrize(
    "garbage",
    [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",  # another protocol: a lying length header
        b"\x00\x00\x00\x00",  # zero-length frame
        b"\x00\x00\x00\x03\xc1\xc1\xc1",  # not msgpack
        b"\x00\x00\x00\x02\x01\x00",  # not a map, bytes left over
    ],
)
def test_garbage_before_any_message_is_aborted_unanswered(garbage: bytes) -> None:
    h = Harness(kick_penalty_s=10.0)
    good = h.player("good", ip="10.0.0.9")
    c = h.connect(ip="10.0.0.2")
    c.raw(garbage)
    assert c.drain() == []  # no error frame is built or written
    assert c.transport.disconnected  # aborted, not a graceful close
    assert h.factory.stats.violations == 1  # still counted in the once-a-minute summary
    assert h.try_connect(ip="10.0.0.2") is None  # and penalized like any violation
    c.drop()
    assert c.proto not in h.factory.connections
    h.advance(h.settings.hello_timeout_s + 1, step=1.0)  # no hello timer left to fire
    assert c.transport.value() == b""
    assert not good.closed
    assert isinstance(good.request(M.ListTables(id=5)), M.TableList)


def test_a_bad_hello_field_before_the_handshake_still_gets_an_error() -> None:
    h = Harness()
    c = h.connect()
    c.raw(encode(M.Hello(id=4, versions=VERSIONS, name="x"))[:-1] + b"\xc1")  # bad body
    assert c.drain() == [] and c.transport.disconnected  # not a message: aborted
    c = h.connect(ip="10.0.0.3")  # (the first address is in the penalty box)
    body = b"\x82\xa4type\xa5hello\xa2id\x04"  # a map with `type` hello but no `versions`
    c.raw(len(body).to_bytes(4, "big") + body)
    (err,) = c.drain()
    assert isinstance(err, M.Error) and err.code == "missing_field" and err.re == 4
    assert c.closed and not c.transport.disconnected


def test_garbage_after_a_first_message_still_gets_an_error() -> None:
    h = Harness()
    c = h.connect()
    c.send(M.Ping(id=1))
    c.raw(b"\x00\x00\x00\x03\xc1\xc1\xc1")
    msgs = c.drain()
    assert isinstance(msgs[-1], M.Error) and msgs[-1].code == "bad_msgpack"
    assert c.closed and not c.transport.disconnected


@pytest.mark.parametrize("level", ["debug", "info"])
def test_violations_are_logged_one_by_one_only_at_debug(level: str) -> None:
    from twisted.logger import capturedLogs

    h = Harness(log_level=level)
    c = h.player("p")
    with capturedLogs() as events:
        c.raw(b"\x00\x00\x00\x03\xc1\xc1\xc1")
    lines = [e for e in events if "refused" in e.get("log_format", "")]
    assert len(lines) == (1 if level == "debug" else 0)
    assert h.factory.stats.violations == 1


def test_a_host_may_forbid_the_counting_aid_and_the_summary_says_so() -> None:
    h = Harness()
    watcher = h.player("watcher")
    watcher.request(M.ListTables(id=9))
    host = h.player("host")
    snap = host.request(M.CreateTable(id=host.rid(), name="Strict", counting_aid=False))
    assert isinstance(snap, M.Snapshot) and snap.table["counting_aid"] is False
    assert watcher.of(M.TableUpdate)[-1].table["counting_aid"] is False
    other = h.player("other")
    snap = other.request(M.CreateTable(id=other.rid(), name="Open"))
    assert isinstance(snap, M.Snapshot) and snap.table["counting_aid"] is True
