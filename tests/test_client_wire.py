"""The shared frame link: TCP_NODELAY, decoding to callbacks, hanging up on bad data."""

from __future__ import annotations

from typing import Any

from twisted.internet import error
from twisted.internet.testing import MemoryReactorClock, StringTransport
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.client import BotClient, BotOptions
from leekha.client.net import Session
from leekha.client.wire import FrameWire, WireFactory, plain_reason


class TcpTransport(StringTransport):
    """A StringTransport that, like a real TCP transport, has a Nagle switch."""

    def __init__(self) -> None:
        super().__init__()
        self.nodelay: bool | None = None

    def setTcpNoDelay(self, enabled: bool) -> None:
        self.nodelay = enabled


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def wire(self) -> FrameWire:
        return FrameWire(
            lambda w: self.events.append(("made", w)),
            lambda w, m: self.events.append(("msg", m)),
            lambda w, r: self.events.append(("lost", r.type)),
            label="tester",
        )


def test_connect_turns_nagle_off_and_reports_made() -> None:
    rec = Recorder()
    wire = rec.wire()
    transport = TcpTransport()
    wire.makeConnection(transport)
    assert transport.nodelay is True
    assert rec.events == [("made", wire)]


def test_a_transport_without_the_switch_still_connects() -> None:
    rec = Recorder()
    wire = rec.wire()
    wire.makeConnection(StringTransport())  # no setTcpNoDelay (e.g. a UNIX or test transport)
    assert [e for e, _ in rec.events] == ["made"]


def test_split_frames_are_reassembled_into_messages_in_order() -> None:
    rec = Recorder()
    wire = rec.wire()
    wire.makeConnection(TcpTransport())
    data = P.encode(P.Ping(id=1)) + P.encode(P.Pong(re=2))
    wire.dataReceived(data[:3])
    assert [e for e, _ in rec.events] == ["made"]
    wire.dataReceived(data[3:])
    assert [m for e, m in rec.events if e == "msg"] == [P.Ping(id=1), P.Pong(re=2)]


def test_bad_data_hangs_up_without_delivering_anything() -> None:
    rec = Recorder()
    wire = rec.wire()
    transport = TcpTransport()
    wire.makeConnection(transport)
    wire.dataReceived(b"\x00\x00\x00\x00" + P.encode(P.Ping(id=1)))  # zero length: bad_frame
    assert transport.disconnecting
    assert [e for e, _ in rec.events] == ["made"]
    wire.connectionLost(Failure(error.ConnectionDone()))
    assert rec.events[-1] == ("lost", error.ConnectionDone)


def test_send_encodes_and_abort_cuts() -> None:
    rec = Recorder()
    wire = rec.wire()
    transport = TcpTransport()
    wire.makeConnection(transport)
    wire.send(P.Ping(id=5))
    assert P.Decoder(peer="client").feed(transport.value()) == [P.Ping(id=5)]
    wire.abort()
    assert transport.disconnecting


def test_factory_builds_wires_and_reports_failed_dials() -> None:
    failures: list[Failure] = []
    rec = Recorder()
    factory = WireFactory(rec.wire, failures.append)
    assert isinstance(factory.buildProtocol(None), FrameWire)
    reason = Failure(error.ConnectionRefusedError())
    factory.clientConnectionFailed(None, reason)  # type: ignore[arg-type]
    assert failures == [reason]
    assert "refused" in plain_reason(reason)


def test_both_clients_use_the_shared_wire_with_nagle_off() -> None:
    reactor = MemoryReactorClock()
    bot = BotClient(reactor, BotOptions(host="127.0.0.1", port=1, table="t"))
    bot.start()
    factory = reactor.tcpClients[-1][2]
    proto = factory.buildProtocol(None)
    transport = TcpTransport()
    proto.makeConnection(transport)
    assert isinstance(proto, FrameWire) and transport.nodelay is True
    assert bot.wire is proto

    session = Session(reactor, "127.0.0.1", 1, "ann", on_message=lambda _m: None)
    session.connect()
    # HostnameEndpoint dials through the same reactor; its factory wraps ours.
    endpoint_factory = reactor.tcpClients[-1][2]
    proto = endpoint_factory.buildProtocol(None)
    transport = TcpTransport()
    proto.makeConnection(transport)
    assert transport.nodelay is True
    assert isinstance(session.wire, FrameWire)
    (hello,) = P.Decoder(peer="client").feed(transport.value())
    assert isinstance(hello, P.Hello) and hello.name == "ann"
