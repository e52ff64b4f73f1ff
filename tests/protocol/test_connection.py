"""The session state machine (protocol/connection.py) on its own, without sockets.

The expectations come from outside the module: the whole-game transcript of
docs/protocol.md section 8 (every message a real session sends, reconnect included) must
pass both ends unchanged however TCP cuts the bytes, and the rules of sections 2 and 3
(hello first, directions, `re` echoes `id`, pings answered) are checked one by one.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leekha import protocol as P
from leekha.protocol._examples import EXAMPLES, TRANSCRIPT
from leekha.protocol.connection import TRANSITIONS, Connection, Event, LocalProtocolError, State
from leekha.protocol.version import CAN_DOUBLE, STATS, Feature, speaks

HELLO = P.Hello(id=1, versions=[[1, 2]], name="alice")
WELCOME = P.Welcome(re=1, version=[1, 1], server="s", token="tok", name="alice")


def sessions() -> list[list[tuple[str, P.Message]]]:
    """The transcript as one list of (arrow, message) per TCP connection."""
    out: list[list[tuple[str, P.Message]]] = [[]]
    dropped = False
    for arrow, msg, note in TRANSCRIPT:
        if msg is None:
            if note.startswith("The connection drops"):
                dropped = True
            elif note.startswith("New TCP connection"):
                dropped = False
                out.append([])
            continue
        if not dropped:
            out[-1].append((arrow, msg))
    return out


def pair() -> tuple[Connection, Connection]:
    return Connection("client"), Connection("server")


def test_the_transcript_passes_both_ends_message_by_message() -> None:
    for steps in sessions():
        client, server = pair()
        for arrow, msg in steps:
            sender, receiver = (client, server) if arrow == "C→S" else (server, client)
            assert receiver.receive_data(sender.send(msg)) == [msg]
        assert client.state is server.state is State.READY
        assert client.version == server.version == (1, 4)
        assert client.pending == 0  # every request of the transcript was answered


def _stream(steps: list[tuple[str, P.Message]], arrow: str) -> tuple[bytes, list[P.Message]]:
    """Run the session whole on both ends; return the bytes and messages one way."""
    client, server = pair()
    data = bytearray()
    sent: list[P.Message] = []
    for a, msg in steps:
        sender, receiver = (client, server) if a == "C→S" else (server, client)
        out = sender.send(msg)
        receiver.receive_data(out)
        if a == arrow:
            data += out
            sent.append(msg)
    return bytes(data), sent


def _feed(receiver: Connection, data: bytes, cuts: list[int]) -> list[P.Message]:
    got: list[P.Message] = []
    start = 0
    for cut in [*sorted(set(cuts)), len(data)]:
        got += receiver.receive_data(data[start:cut])
        start = cut
    return got


def test_every_two_way_split_of_the_server_stream_gives_the_same_messages() -> None:
    steps = sessions()[1]  # the resumed connection: welcome, snapshot, error, chat, …
    data, sent = _stream(steps, "S→C")
    for cut in range(len(data) + 1):
        client = Connection("client")
        client.send(steps[0][1])  # the resume
        assert _feed(client, data, [cut]) == sent, cut
        assert client.state is State.READY


@given(st.data())
def test_any_split_of_either_stream_gives_the_same_messages(data: st.DataObject) -> None:
    steps = data.draw(st.sampled_from(sessions()))
    arrow = data.draw(st.sampled_from(["C→S", "S→C"]))
    stream, sent = _stream(steps, arrow)
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=40))
    receiver = Connection("server" if arrow == "C→S" else "client")
    if arrow == "S→C":
        receiver.send(steps[0][1])  # the client's hello/resume, so the welcome is expected
    assert _feed(receiver, stream, cuts) == sent


# ---- hello first, and who may send what ------------------------------------------------
NOT_HANDSHAKE = sorted(
    t
    for t, m in EXAMPLES.items()
    if type(m).SENDER == "client" and t not in ("hello", "resume", "prove")
)


@pytest.mark.parametrize("tag", NOT_HANDSHAKE)
def test_a_server_refuses_any_first_request_but_hello_or_resume(tag: str) -> None:
    server = Connection("server")
    with pytest.raises(P.ProtocolError) as info:
        server.receive_data(P.encode(EXAMPLES[tag]))
    assert info.value.code == "not_hello_first"
    assert info.value.re == EXAMPLES[tag].id  # type: ignore[attr-defined]
    assert server.state is State.CLOSED
    assert server.receive_data(P.encode(HELLO)) == []  # closed stays closed


@pytest.mark.parametrize("tag", NOT_HANDSHAKE)
def test_a_client_may_not_send_a_request_before_its_hello(tag: str) -> None:
    """Before the hello nothing but a handshake may go; behind it a request is pipelined,
    on both ends alike (the table knows no roles), and the welcome then leaves both ends
    ready."""
    client, server = pair()
    with pytest.raises(LocalProtocolError):
        client.send(EXAMPLES[tag])
    assert client.state is State.AWAITING_HELLO  # a refused send changes nothing
    server.receive_data(client.send(HELLO))
    assert server.receive_data(client.send(EXAMPLES[tag])) == [EXAMPLES[tag]]
    assert client.state is server.state is State.HANDSHAKING
    client.receive_data(server.send(WELCOME))
    assert client.state is server.state is State.READY
    assert client.send(EXAMPLES[tag]) == P.encode(EXAMPLES[tag])


def test_the_key_check_lives_inside_the_handshake_only() -> None:
    """challenge/prove are steps of the handshake: never before hello, never after welcome."""
    server = Connection("server")
    with pytest.raises(P.ProtocolError) as info:
        server.receive_data(P.encode(EXAMPLES["prove"]))
    assert info.value.code == "not_hello_first"
    client, server = Connection("client"), Connection("server")
    with pytest.raises(LocalProtocolError):
        client.send(EXAMPLES["prove"])
    server.receive_data(client.send(HELLO))
    client.receive_data(server.send(EXAMPLES["challenge"]))
    server.receive_data(client.send(EXAMPLES["prove"]))
    assert client.state is server.state is State.HANDSHAKING
    client.receive_data(server.send(WELCOME))
    assert (client.state, server.state) == (State.READY, State.READY)
    with pytest.raises(LocalProtocolError):
        client.send(EXAMPLES["prove"])
    with pytest.raises(P.ProtocolError):
        client.receive_data(P.encode(EXAMPLES["challenge"]))
    # The server says what was wrong in the words of the state the prove came in.
    with pytest.raises(P.ProtocolError) as late:
        server.receive_data(P.encode(EXAMPLES["prove"]))
    assert late.value.code == "unknown_type" and "already welcomed" in late.value.message


def test_a_client_refuses_game_traffic_before_the_welcome() -> None:
    client = Connection("client")
    client.send(HELLO)
    with pytest.raises(P.ProtocolError):
        client.receive_data(P.encode(EXAMPLES["snapshot"]))
    assert client.state is State.CLOSED


@pytest.mark.parametrize("tag", sorted(EXAMPLES))
def test_each_side_sends_only_its_own_messages(tag: str) -> None:
    msg = EXAMPLES[tag]
    for role in ("client", "server"):
        conn = Connection(role)  # type: ignore[arg-type]
        if type(msg).SENDER not in (role, "both"):
            with pytest.raises(LocalProtocolError, match="may not send"):
                conn.send(msg)


def test_a_server_answers_a_second_hello_itself_and_stays_open() -> None:
    client, server = pair()
    server.receive_data(client.send(HELLO))
    client.receive_data(server.send(WELCOME))
    again = P.Hello(id=7, versions=[[1, 1]], name="bob")
    assert server.receive_data(P.encode(again)) == []
    assert P.Decoder(peer="server").feed(server.data_to_send()) == [
        P.Error(code="already_welcomed", message="this connection already has a session", re=7)
    ]
    assert server.state is State.READY


def test_a_server_that_answers_hellos_itself_gets_the_second_hello() -> None:
    """The reference server queues replies in request order, so it answers a second hello
    itself: the message is handed over and the session stays ready."""
    server = Connection("server", answer_hellos=False)
    server.receive_data(P.encode(HELLO))
    server.send(WELCOME)
    again = P.Hello(id=7, versions=[[1, 1]], name="bob")
    data = P.encode(P.ListTables(id=6)) + P.encode(again)
    assert server.receive_data(data) == [P.ListTables(id=6), again]
    assert server.data_to_send() == b"" and server.state is State.READY


def test_a_request_pipelined_behind_the_hello_reaches_the_server() -> None:
    server = Connection("server")
    data = P.encode(HELLO) + P.encode(P.ListTables(id=2))
    assert [m.TYPE for m in server.receive_data(data)] == ["hello", "list_tables"]
    server.send(WELCOME)
    assert server.send(P.TableList(re=2, tables=[])) != b""


# ---- handshake outcomes ---------------------------------------------------------------
def test_welcome_sets_version_token_name_and_features() -> None:
    client = Connection("client")
    assert not speaks(client, CAN_DOUBLE)
    client.send(HELLO)
    client.receive_data(P.encode(WELCOME))
    assert (client.version, client.token, client.name) == ((1, 1), "tok", "alice")
    assert speaks(client, CAN_DOUBLE) and speaks(client, STATS)
    assert not speaks(client, Feature("x", (1, 2)))


def test_a_refused_resume_lets_the_client_say_hello_on_the_same_connection() -> None:
    client, server = pair()
    server.receive_data(client.send(P.Resume(id=1, versions=[[1, 2]], token="old")))
    refusal = server.send(P.Error(code="bad_token", message="unknown token", re=1))
    assert server.state is State.AWAITING_HELLO
    assert [m.TYPE for m in client.receive_data(refusal)] == ["error"]
    assert client.state is State.AWAITING_HELLO
    server.receive_data(client.send(P.Hello(id=2, versions=[[1, 2]], name="a")))
    welcome = P.Welcome(re=2, version=[1, 2], server="s", token="t2", name="a")
    client.receive_data(server.send(welcome))
    assert (client.state, server.state) == (State.READY, State.READY)


def test_version_mismatch_closes_both_ends() -> None:
    client, server = pair()
    server.receive_data(client.send(HELLO))
    data = server.send(P.Error(code="version_mismatch", message="no common version", re=1))
    assert server.state is State.CLOSED
    client.receive_data(data)
    assert client.state is State.CLOSED
    assert client.send(P.Hello(id=2, versions=[[1, 2]], name="a")) == b""


def test_an_error_that_answers_nothing_does_not_end_the_handshake() -> None:
    client = Connection("client")
    client.send(HELLO)
    client.receive_data(P.encode(P.Error(code="rate_limited", message="slow", re=None)))
    assert client.state is State.HANDSHAKING


# ---- request ids, replies, pings ------------------------------------------------------
def test_request_ids_count_from_one_and_replies_find_their_request() -> None:
    client = Connection("client")
    client.send(P.Hello(id=client.new_id(), versions=[[1, 2]], name="a"))
    client.receive_data(P.encode(WELCOME))
    ids = [client.new_id() for _ in range(3)]
    assert ids == [2, 3, 4]
    joins = [P.JoinSeat(id=i, table_id=7) for i in ids]
    for join, note in zip(joins, "abc", strict=True):
        client.send(join, note=note)
    assert client.pending == 3
    replies = [P.Ok(re=4), P.Error(code="table_full", message="full", re=2), P.Ok(re=99)]
    got = client.receive_data(b"".join(P.encode(r) for r in replies))
    found = [client.answered(r) for r in got]
    assert [(p.request, p.note) if p else None for p in found] == [
        (joins[2], "c"),
        (joins[0], "a"),
        None,
    ]
    assert client.pending == 1  # id 3 still open


def test_a_received_ping_is_answered_in_any_live_state() -> None:
    for welcomed in (False, True):
        client = Connection("client")
        client.send(HELLO)
        if welcomed:
            client.receive_data(P.encode(WELCOME))
        assert client.receive_data(P.encode(P.Ping(id=33))) == [P.Ping(id=33)]
        assert client.data_to_send() == P.encode(P.Pong(re=33))
        assert client.data_to_send() == b""  # drained


def test_a_server_can_leave_pings_to_its_rate_limit() -> None:
    server = Connection("server", answer_pings=False)
    server.receive_data(P.encode(P.Ping(id=1)))
    assert server.data_to_send() == b""


def test_our_ping_is_matched_by_its_pong() -> None:
    server = Connection("server")
    server.receive_data(P.encode(HELLO))
    server.send(WELCOME)
    ping = P.Decoder(peer="server").feed(server.ping())[0]
    assert isinstance(ping, P.Ping)
    (pong,) = server.receive_data(P.encode(P.Pong(re=ping.id)))
    found = server.answered(pong)
    assert found is not None and found.request == ping


def test_bad_bytes_close_the_connection() -> None:
    server = Connection("server")
    with pytest.raises(P.ProtocolError) as info:
        server.receive_data(b"\x00\x00\x00\x00")
    assert info.value.code == "bad_frame"
    assert server.state is State.CLOSED


def test_the_transport_going_closes_from_any_state() -> None:
    assert {(s, Event.LOST) for s in State} <= set(TRANSITIONS)
    client = Connection("client")
    client.send(HELLO)
    client.connection_lost()
    assert client.state is State.CLOSED and client.send(HELLO) == b""
