"""Shared helpers for the server tests: an in-memory server on a fake clock, and clients.

Unit tests drive `Harness` (MemoryReactorClock + StringTransport, so every timer is under
the test's control); end-to-end tests use `LoopbackClient` over real TCP on 127.0.0.1.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, cast

from twisted.internet.address import IPv4Address
from twisted.internet.defer import Deferred
from twisted.internet.error import ConnectionDone
from twisted.internet.interfaces import IAddress
from twisted.internet.protocol import Protocol
from twisted.internet.testing import MemoryReactorClock, StringTransport
from twisted.python.failure import Failure

from leekha.protocol import catalogue as M
from leekha.protocol.codec import Decoder, encode
from leekha.protocol.message import Message
from leekha.server.connection import FramedConnection, Requests, ServerFactory
from leekha.server.domain.lobby import Lobby
from leekha.server.domain.persistence import Store
from leekha.server.domain.session import token_id
from leekha.server.domain.table import Table
from leekha.server.settings import ServerSettings

VERSIONS = [[1, 0]]


def settings(tmp: Path | None = None, **over: Any) -> ServerSettings:
    base: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "data_dir": tmp or Path("/nonexistent-leekha-test"),
        "name": "test",
        "announce": False,
        "bot_think_ms": 10,
        "default_pass_timer_s": 0.0,
        "default_turn_timer_s": 0.0,
        # Scripted players answer far faster than people; the limit tests set their own.
        "rate_limit_msgs_per_s": 10_000.0,
        "rate_burst": 10_000,
    }
    base.update(over)
    return ServerSettings(**base)


def status(table: Table) -> str:
    """The table's state now. A call, so mypy does not carry over a state it narrowed
    `table.status` to before the requests that changed it."""
    return table.status


def created_table(reply: Message) -> int:
    """The id of the table a `create_table` made: its reply is the table's snapshot."""
    assert isinstance(reply, M.Snapshot), reply
    return int(reply.table["id"])


def requests_of(conn: FramedConnection) -> Requests:
    """The request layer a connection holds (its session, whether it is the operator)."""
    requests = conn.requests
    assert isinstance(requests, Requests), requests
    return requests


class FakeClient:
    """One client on a StringTransport: send messages, read what the server wrote."""

    def __init__(self, proto: FramedConnection, transport: StringTransport) -> None:
        self.proto = proto
        self.transport = transport
        self.decoder = Decoder(peer="server")
        self.inbox: list[Message] = []
        self.next_id = 1
        self.token: str | None = None

    @property
    def requests(self) -> Requests:
        """What the server's side of this connection made of its messages."""
        return requests_of(self.proto)

    def send(self, msg: Message) -> None:
        if isinstance(msg, M.Resume):
            self.token = msg.token
        self.proto.dataReceived(encode(msg))

    @property
    def sid(self) -> str:
        """The id the server knows this client's session by: its token's digest."""
        return token_id(self.token or "")

    def raw(self, data: bytes) -> None:
        self.proto.dataReceived(data)

    def rid(self) -> int:
        self.next_id += 1
        return self.next_id

    def read(self) -> list[Message]:
        # The reactor turn ends before the client can read: commit and write the outbox.
        self.proto.outbox.flush()
        data = self.transport.value()
        self.transport.clear()
        got = self.decoder.feed(data) if data else []
        self.inbox.extend(got)
        return got

    def drain(self) -> list[Message]:
        self.read()
        out, self.inbox = self.inbox, []
        return out

    def request(self, msg: Message) -> Message:
        """Send a request and return the reply (`re` == its id); other messages stay queued."""
        self.send(msg)
        self.read()
        rid = getattr(msg, "id", None)
        for i, m in enumerate(self.inbox):
            if getattr(m, "re", None) == rid:
                return self.inbox.pop(i)
        raise AssertionError(f"no reply to {msg}: {self.inbox}")

    def of(self, cls: type[Message]) -> list[Any]:
        self.read()
        return [m for m in self.inbox if isinstance(m, cls)]

    @property
    def closed(self) -> bool:
        self.proto.outbox.flush()
        return bool(self.transport.disconnecting)

    def drop(self) -> None:
        self.proto.connectionLost(Failure(ConnectionDone()))

    def hello(self, name: str) -> M.Welcome:
        reply = self.request(M.Hello(id=self.rid(), versions=VERSIONS, name=name))
        assert isinstance(reply, M.Welcome), reply
        self.token = reply.token
        return reply


class Harness:
    """A server without sockets: the lobby, the factory and a fake clock."""

    def __init__(self, store: Store | None = None, **over: Any) -> None:
        self.clock = MemoryReactorClock()
        self.store = store if store is not None else Store(":memory:")
        self.settings = settings(**over)
        self.lobby = Lobby(self.clock, self.settings, self.store)
        self.lobby.new_seed = itertools.count(1000).__next__  # reproducible games
        self.lobby.restore()
        self.factory = ServerFactory(self.lobby, self.settings, self.clock)
        self._port = 40000

    def stop(self) -> None:
        """Stop as a server does: goodbyes, the last commit, the database closed."""
        self.lobby.shutdown()
        self.lobby.outbox.flush()
        self.store.close()

    def try_connect(self, ip: str = "10.0.0.1") -> FakeClient | None:
        """A connected client, or None when the factory refuses the connection (it then
        gets one `rate_limited` frame and is closed)."""
        self._port += 1
        addr = IPv4Address("TCP", ip, self._port)
        proto = self.factory.buildProtocol(cast(IAddress, addr))  # zope: not seen by mypy
        transport = StringTransport(peerAddress=addr)
        proto.makeConnection(transport)
        if not isinstance(proto, FramedConnection):  # refused: one rate_limited frame
            (refusal,) = Decoder(peer="server").feed(transport.value())
            assert isinstance(refusal, M.Error) and refusal.code == "rate_limited", refusal
            assert transport.disconnecting
            return None
        return FakeClient(proto, transport)

    def connect(self, ip: str = "10.0.0.1") -> FakeClient:
        client = self.try_connect(ip)
        assert client is not None, f"connection from {ip} refused"
        return client

    def player(self, name: str, ip: str = "10.0.0.1") -> FakeClient:
        client = self.connect(ip)
        client.hello(name)
        return client

    def advance(self, seconds: float, step: float = 0.01) -> None:
        """Move the fake clock forward in small steps so chained timers all run."""
        remaining = seconds
        while remaining > 1e-9:
            dt = min(step, remaining)
            self.clock.advance(dt)
            remaining -= dt

    def host_and_guest(
        self,
        host: str = "alice",
        guest: str = "bob",
        *,
        seat: int | None = None,
        bots: bool = False,
        **create: Any,
    ) -> tuple[FakeClient, FakeClient, int]:
        """`host` creates table "x" (`create`: more of its fields) and `guest` sits at `seat`
        (None: the first free one); with `bots`, random bots take seats 2 and 3."""
        first = self.player(host)
        tid = created_table(first.request(M.CreateTable(id=1, name="x", **create)))
        second = self.player(guest)
        second.request(M.JoinSeat(id=2, table_id=tid, seat=seat))
        for bot_seat in (2, 3) if bots else ():
            first.request(M.AddBot(id=first.rid(), seat=bot_seat, strategy="random"))
        return first, second, tid

    def table_with_bots(
        self, host: FakeClient, *, strategy: str = "random", preset: str = "classic", **kw: Any
    ) -> int:
        table_id = created_table(
            host.request(M.CreateTable(id=host.rid(), name="t", preset=preset, **kw))
        )
        for seat in (1, 2, 3):
            reply = host.request(M.AddBot(id=host.rid(), seat=seat, strategy=strategy))
            assert isinstance(reply, M.Ok), reply
        return table_id


class LoopbackClient(Protocol):
    """A real TCP client speaking the protocol; `wait_for` resolves on a matching message."""

    def __init__(self) -> None:
        self.decoder = Decoder(peer="server")
        self.inbox: list[Message] = []
        self.waiters: list[tuple[Any, Deferred[Message]]] = []
        self.lost: Deferred[None] = Deferred()
        self.next_id = 0

    def dataReceived(self, data: bytes) -> None:
        for msg in self.decoder.feed(data):
            self.inbox.append(msg)
            for pair in list(self.waiters):
                pred, d = pair
                if pred(msg):
                    self.waiters.remove(pair)
                    self.inbox.remove(msg)
                    d.callback(msg)
                    break
            self.on_message(msg)

    def on_message(self, msg: Message) -> None:
        """Hook for scripted players."""

    def connectionLost(self, reason: Failure = Failure(ConnectionDone())) -> None:  # noqa: B008
        if not self.lost.called:
            self.lost.callback(None)

    def rid(self) -> int:
        self.next_id += 1
        return self.next_id

    def send(self, msg: Message) -> None:
        assert self.transport is not None
        transport: Any = self.transport  # ITransport's zope methods have no `self` for mypy
        transport.write(encode(msg))

    def wait_for(self, pred: Any) -> Deferred[Message]:
        for msg in self.inbox:
            if pred(msg):
                self.inbox.remove(msg)
                d: Deferred[Message] = Deferred()
                d.callback(msg)
                return d
        d = Deferred()
        self.waiters.append((pred, d))
        return d

    def request(self, msg: Message) -> Deferred[Message]:
        rid = msg.id  # type: ignore[attr-defined]
        d = self.wait_for(lambda m: getattr(m, "re", None) == rid)
        self.send(msg)
        return d


def answer_prompts(h: Harness, client: FakeClient, table_id: int, rng: Any = None) -> int:
    """Answer every pending `your_turn` of a scripted human with some legal move.

    The choice is made with the engine's help (a test shortcut); what is under test is the
    server's handling of the request. Returns how many moves were made.
    """
    moves = 0
    client.read()
    prompts = [m for m in client.inbox if isinstance(m, M.YourTurn)]
    client.inbox = [m for m in client.inbox if not isinstance(m, M.YourTurn)]
    for prompt in prompts:
        table = h.lobby.tables.get(table_id)
        if table is None or table.game is None:
            continue
        seat = table.seat_of(client.sid)
        if seat is None:
            continue
        game = table.game
        if prompt.phase == "pass" and game.phase == "pass" and game.passed[seat] is None:
            options = list(game.legal_passes(seat))
            choice = rng.choice(options) if rng is not None else options[0]
            reply = client.request(M.PassCards(id=client.rid(), cards=list(choice)))
        elif prompt.phase == "play" and game.phase == "play" and game.turn == seat:
            legal = game.legal_moves(seat)
            card = rng.choice(legal) if rng is not None else legal[0]
            reply = client.request(M.PlayCard(id=client.rid(), card=card))
        else:
            continue
        assert isinstance(reply, M.Ok), reply
        moves += 1
    return moves


def play_until(
    h: Harness,
    clients: list[FakeClient],
    tid: int,
    done: Any,
    limit: float = 600,
    step: float = 0.05,
) -> None:
    """Scripted humans answer their prompts while the clock moves on, until `done()`;
    `limit` seconds of game time at most."""
    t = 0.0
    while t < limit:
        for c in clients:
            answer_prompts(h, c, tid)
        if done():
            return
        h.advance(step, step=step)
        t += step
    raise AssertionError("did not finish in time")
