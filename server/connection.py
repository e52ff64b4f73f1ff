"""The server factory: one connection per accepted socket, the per-address limits checked
before one is built, and the timers every connection shares.

A connection is two objects, one holding the other: the `FramedConnection` of
`leekha.server.transport` (bytes, framing, backpressure, deadlines, keepalive), which holds
its `Requests` of `leekha.server.handlers` (what the messages mean); the counts
behind the once-a-minute log line are `leekha.server.stats`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twisted.internet.interfaces import IAddress
from twisted.internet.protocol import Factory, Protocol

from leekha.protocol import catalogue as M
from leekha.protocol.connection import Connection
from leekha.server.domain.clock import Clock
from leekha.server.domain.limits import AddressCounter
from leekha.server.domain.lobby import Lobby
from leekha.server.domain.timers import FixedDelay, Watch
from leekha.server.handlers import MAX_STRIKES_FACTOR, SERVER_NAME, Requests
from leekha.server.settings import ServerSettings
from leekha.server.socketsend import wire
from leekha.server.stats import ConnectionStats
from leekha.server.transport import CLOSE_GRACE_S, FramedConnection

if TYPE_CHECKING:
    from leekha.server.webvalues import PageAddress

__all__ = [
    "CLOSE_GRACE_S",
    "MAX_STRIKES_FACTOR",
    "SERVER_NAME",
    "FramedConnection",
    "Refusal",
    "Requests",
    "ServerFactory",
]

#: The words of a new connection refused for its address's rate (here and on the table
#: page's listener, leekha.server.websocket).
RATE_WORDS = "too many new connections from your address; wait a few seconds"
#: The one frame a refused new connection gets before the server closes it (an error
#: before any hello, as a session would send it).
REFUSED_FRAME = Connection("server").send(
    M.Error(
        code="rate_limited",
        message=RATE_WORDS,
        re=None,
    )
)


class Refusal(Protocol):
    """A new connection over its address's rate or in the penalty box: it gets one
    `rate_limited` frame (so a client can tell "slow down" from "server gone") and is
    closed; what it sends is ignored. No timers, no session, no decoder."""

    def connectionMade(self) -> None:
        transport = wire(self.transport)
        transport.write(REFUSED_FRAME)
        transport.loseConnection()


class ServerFactory(Factory):
    """Builds one connection (a FramedConnection holding its Requests) per accepted
    socket and counts them."""

    noisy = False

    def __init__(self, lobby: Lobby, settings: ServerSettings, clock: Clock) -> None:
        self.lobby = lobby
        #: Where every connection's frames wait for the turn's commit (the lobby's).
        self.outbox = lobby.outbox
        self.settings = settings
        self.clock = clock
        self.counter = AddressCounter(
            settings.max_connections,
            settings.max_connections_per_ip,
            clock=clock,
            new_per_s=settings.new_connections_per_ip_per_s,
        )
        self.connections: set[FramedConnection] = set()
        # Timers shared by every connection (leekha.server.domain.timers): a connection costs no
        # clock timer of its own.
        self.hello_deadlines = FixedDelay(clock, settings.hello_timeout_s)
        self.close_deadlines = FixedDelay(clock, CLOSE_GRACE_S)
        self.frame_deadlines = FixedDelay(clock, settings.frame_timeout_s)
        self.keepalive: Watch[FramedConnection] = Watch(clock, FramedConnection.keepalive)
        self.stats = ConnectionStats(clock, debug=settings.log_level == "debug")
        #: Where the table page is (leekha.server.web), once it listens; None: no page.
        self.page: PageAddress | None = None

    def summary(self) -> None:
        """The once-a-minute log line (called by the server's TimerService)."""
        self.stats.summary(len(self.connections))

    def penalize(self, ip: str) -> None:
        """`ip` was kicked for flooding or a protocol violation: no new connections from it
        for kick_penalty_s (its open connections stay)."""
        self.counter.penalize(ip, self.settings.kick_penalty_s)

    def admit(self, ip: str) -> bool:
        """Whether a new connection from `ip` may begin (its new-connection rate, the
        penalty box); a refusal is counted, not logged one by one. The game port's and the
        table page's listeners ask the same (leekha.server.webmeter)."""
        if self.counter.admit(ip):
            return True
        self.stats.refused += 1
        self.stats.note(ip, "rate_limited")
        return False

    def open_slot(self, ip: str) -> str | None:
        """Count a connection from `ip` as open; None, or (over a cap, not counted) the
        refusal's words, noted as a violation."""
        refusal = self.counter.acquire(ip)
        if refusal is not None:
            self.stats.violation(ip, "refused", refusal)
        return refusal

    def buildProtocol(self, addr: IAddress | None, *, direct: bool = True) -> Protocol:
        """A connection, or a `Refusal` for an address over its new-connection rate or in
        the penalty box; those are counted, not logged one by one. `direct` is False for
        a peer that came through the table page's WebSocket (leekha.server.web): its
        address may be a reverse proxy's on this machine, so it is never the operator."""
        ip = str(getattr(addr, "host", "?"))
        if not self.admit(ip):
            return Refusal()
        return FramedConnection(self, ip, lambda conn: Requests(self, conn, direct=direct))
