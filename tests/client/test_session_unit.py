"""The client session on in-memory transports: Nagle off, handshake, hang-ups, retries.

MemoryReactorClock records each dial and owns the clock, so the back-off of Twisted's
ClientService is stepped explicitly; no sockets, no sleeps.
"""

from __future__ import annotations

from typing import Any, cast

from twisted.internet import error
from twisted.internet.interfaces import ITransport
from twisted.internet.testing import MemoryReactorClock, StringTransport
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.client import BotClient, BotOptions
from leekha.client.session import ClientSession, ConnectFailed, Target, plain_reason


class TcpTransport(StringTransport):
    """A StringTransport that, like a real TCP transport, has a Nagle switch."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.nodelay: bool | None = None

    def setTcpNoDelay(self, enabled: bool) -> None:
        self.nodelay = enabled


class Harness:
    def __init__(self, **kw: Any) -> None:
        self.reactor = MemoryReactorClock()
        self.messages: list[P.Message] = []
        self.lost: list[str] = []
        self.retries: list[tuple[int, float]] = []
        self.failed: list[str] = []
        self.session = ClientSession(
            self.reactor,
            Target("127.0.0.1", 7241),
            "ann",
            client="test",
            on_message=self.messages.append,
            on_lost=self.lost.append,
            on_retry=lambda n, d: self.retries.append((n, d)),
            on_failed=self.failed.append,
            **kw,
        )
        self.welcomed: list[Any] = []
        self.session.connect().addBoth(self.welcomed.append)
        self.proto: Any = None
        self.transport = TcpTransport()

    def accept(self) -> None:
        factory = self.reactor.tcpClients[-1][2]
        self.proto = factory.buildProtocol(None)
        self.transport = TcpTransport()
        self.proto.makeConnection(self.transport)

    def sent(self) -> list[P.Message]:
        transport: StringTransport = self.transport
        data = transport.value()
        transport.clear()
        return P.Decoder(peer="client").feed(data)

    def feed(self, *msgs: P.Message) -> None:
        self.proto.dataReceived(b"".join(P.encode(m) for m in msgs))

    def welcome(self, **kw: Any) -> P.Hello | P.Resume:
        (hs,) = self.sent()
        assert isinstance(hs, P.Hello | P.Resume)
        fields = {"version": [1, 2], "server": "s", "token": "tok", "name": "ann", **kw}
        self.feed(P.Welcome(re=hs.id, **fields))
        return hs


def test_connect_turns_nagle_off_and_says_hello() -> None:
    h = Harness()
    h.accept()
    assert h.transport.nodelay is True
    hello = h.welcome()
    assert isinstance(hello, P.Hello) and hello.name == "ann" and hello.versions == [[1, 4]]
    assert isinstance(h.welcomed[0], P.Welcome) and h.session.online
    assert h.messages == [h.welcomed[0]]  # the welcome is the first message passed on


def test_pings_are_answered_and_not_passed_on() -> None:
    h = Harness()
    h.accept()
    (hello,) = h.sent()
    h.feed(P.Ping(id=9))  # even before the welcome
    assert h.sent() == [P.Pong(re=9)]
    assert isinstance(hello, P.Hello)
    h.feed(P.Welcome(re=hello.id, version=[1, 2], server="s", token="t", name="ann"))
    h.feed(P.Ping(id=10))
    assert h.sent() == [P.Pong(re=10)]
    assert not any(isinstance(m, P.Ping) for m in h.messages)


def test_split_frames_are_reassembled_in_order() -> None:
    h = Harness()
    h.accept()
    h.welcome()
    data = P.encode(P.Ok(re=5)) + P.encode(P.ChatMessage(sender="b", text="hi", table_id=1))
    h.proto.dataReceived(data[:3])
    h.proto.dataReceived(data[3:])
    assert [m.TYPE for m in h.messages] == ["welcome", "ok", "chat_message"]


def test_bad_data_hangs_up_and_the_service_reconnects_and_resumes() -> None:
    h = Harness()
    h.accept()
    h.welcome()
    h.proto.dataReceived(b"\x00\x00\x00\x00" + P.encode(P.Ok(re=1)))  # zero length: bad_frame
    assert h.transport.disconnecting
    assert [m.TYPE for m in h.messages] == ["welcome"]
    h.proto.connectionLost(Failure(error.ConnectionLost()))
    assert h.lost and not h.session.online
    assert h.retries and h.retries[0][0] == 1
    h.reactor.advance(h.retries[0][1])
    assert len(h.reactor.tcpClients) == 2
    h.accept()
    resume = h.welcome(resumed=True)
    assert isinstance(resume, P.Resume) and resume.token == "tok"
    assert h.session.resumes == 1


def test_first_refused_dial_fails_fast_in_plain_words() -> None:
    h = Harness()
    factory = h.reactor.tcpClients[-1][2]
    factory.clientConnectionFailed(
        h.reactor.connectors[-1], Failure(error.ConnectionRefusedError())
    )
    h.reactor.advance(0.3)  # HostnameEndpoint reports after its attempt delay
    (failure,) = h.welcomed
    assert isinstance(failure.value, ConnectFailed)
    assert "127.0.0.1:7241" in str(failure.value) and "refused" in str(failure.value)
    h.reactor.advance(60)
    assert len(h.reactor.tcpClients) == 1  # not retried


def test_a_refused_hello_is_fatal_unless_a_new_name_is_offered() -> None:
    h = Harness(on_refused=lambda e: "ann-2" if e.code == "bad_name" else None)
    h.accept()
    hello = h.sent()[0]
    assert isinstance(hello, P.Hello)
    h.feed(P.Error(code="bad_name", message="taken", re=hello.id))
    (again,) = h.sent()
    assert isinstance(again, P.Hello) and again.name == "ann-2"
    h.feed(P.Error(code="server_full", message="full", re=None))
    h.reactor.advance(0)
    (failure,) = h.welcomed
    assert isinstance(failure.value, ConnectFailed) and "full" in str(failure.value)


def test_expired_token_says_hello_on_the_same_connection() -> None:
    h = Harness()
    h.session.token = "old"
    h.accept()
    (resume,) = h.sent()
    assert isinstance(resume, P.Resume)
    h.feed(P.Error(code="bad_token", message="gone", re=resume.id))
    (hello,) = h.sent()
    assert isinstance(hello, P.Hello)


def test_the_watchdog_drops_a_silent_server() -> None:
    h = Harness(dead_after=75.0)
    h.accept()
    h.welcome()
    h.reactor.advance(70)
    h.feed(P.Ping(id=1))  # any word from the server feeds it
    h.reactor.advance(70)
    assert not h.transport.disconnecting
    h.reactor.advance(10)
    assert h.transport.disconnecting


def test_close_hangs_up_and_never_reconnects() -> None:
    h = Harness()
    h.accept()
    h.welcome()
    done: list[object] = []
    h.session.close().addBoth(done.append)
    h.reactor.advance(0)
    assert h.transport.disconnecting
    h.proto.connectionLost(Failure(error.ConnectionDone()))
    assert done == [None] and h.lost == []
    h.reactor.advance(60)
    assert len(h.reactor.tcpClients) == 1


def test_plain_reasons() -> None:
    assert "refused" in plain_reason(Failure(error.ConnectionRefusedError()))
    assert "unknown host" in plain_reason(error.DNSLookupError())


def test_the_bot_client_uses_the_shared_session() -> None:
    reactor = MemoryReactorClock()
    bot = BotClient(reactor, BotOptions(host="127.0.0.1", port=1, table="t"))
    bot.start()
    proto = reactor.tcpClients[-1][2].buildProtocol(None)
    assert proto is not None
    transport = TcpTransport()
    proto.makeConnection(cast(ITransport, transport))  # zope: not seen by mypy
    assert transport.nodelay is True
    wire: StringTransport = transport
    (hello,) = P.Decoder(peer="client").feed(wire.value())
    assert isinstance(hello, P.Hello) and hello.client.startswith("leekha-bot")


def test_a_refused_hello_then_the_hang_up_ends_cleanly_without_a_redial() -> None:
    """The server refuses the name and closes: one sentence, no retry, and the service's
    state machine takes the lost connection (it raised NoTransition here before)."""
    h = Harness()
    h.accept()
    (hello,) = h.sent()
    assert isinstance(hello, P.Hello)
    h.feed(P.Error(code="name_taken", message="that name is someone else's", re=hello.id))
    assert h.transport.disconnecting  # we hang up at once
    h.proto.connectionLost(Failure(error.ConnectionDone()))
    h.reactor.advance(0)
    (failure,) = h.welcomed
    assert isinstance(failure.value, ConnectFailed)
    assert str(failure.value) == "the server refused ann: that name is someone else's"
    assert h.retries == []
    h.reactor.advance(60)
    assert len(h.reactor.tcpClients) == 1


def test_a_first_hang_up_before_any_answer_is_not_retried() -> None:
    h = Harness()
    h.accept()
    h.sent()
    h.proto.connectionLost(Failure(error.ConnectionDone()))
    h.reactor.advance(0)
    (failure,) = h.welcomed
    assert isinstance(failure.value, ConnectFailed) and "hung up" in str(failure.value)
    h.reactor.advance(60)
    assert len(h.reactor.tcpClients) == 1 and h.retries == []


def test_a_resume_the_server_hangs_up_on_is_retried_with_a_growing_delay() -> None:
    h = Harness()
    h.accept()
    h.welcome()
    for attempt in (1, 2, 3):
        h.proto.connectionLost(Failure(error.ConnectionLost()))
        assert h.retries[-1][0] == attempt  # the count restarts only at a welcome
        h.reactor.advance(h.retries[-1][1])
        h.accept()
        h.sent()
    assert h.retries[2][1] > h.retries[0][1]
    assert h.welcomed[0] is not None and h.failed == []
