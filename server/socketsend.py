"""The one place the server writes to a socket itself, and why.

Twisted's TCP transport buffers every `write`, asks the reactor to watch the socket for
writability, sends on the next loop turn and stops watching again: two `epoll_ctl` calls
and a loop turn for every write. At full speed that was about a fifth of the server's
time (bench/load.py full, profiled). While Twisted holds no bytes for the connection, a
`send()` now puts the same bytes on the wire in the same order, a loop turn sooner.

Only public interfaces: `ISystemHandle.getHandle()` is the socket of a TCP transport (a
TLS transport's handle is its OpenSSL connection, so TLS never takes this path), and the
caller knows Twisted's buffer is empty because it registered as a *pull* producer
(`IConsumer.registerProducer(p, streaming=False)`): Twisted calls `resumeProducing` when
it has sent everything it held. What the socket does not take, or an error, goes to
`transport.write` after all, where Twisted sends it later or reports the loss as usual.
"""

from __future__ import annotations

import socket
from typing import Any, Protocol, cast

from twisted.internet.interfaces import ISystemHandle, ITransport


class Wire(Protocol):
    """The transport methods the server calls (ITransport, IConsumer), typed here once:
    mypy reads zope's interface methods, declared without `self`, as uncallable."""

    def write(self, data: bytes) -> None: ...

    def loseConnection(self) -> None: ...

    def registerProducer(self, producer: object, streaming: bool) -> None: ...

    def unregisterProducer(self) -> None: ...


def wire(transport: object) -> Wire:
    """`transport` as the server calls it (a Twisted transport is all of `Wire`)."""
    return cast(Wire, transport)


def socket_of(transport: ITransport | None) -> socket.socket | None:
    """The transport's own TCP socket, or None (TLS, a test's in-memory transport)."""
    handle: Any = ISystemHandle(transport, None)  # zope adaptation: untyped
    sock = handle.getHandle() if handle is not None else None
    return sock if isinstance(sock, socket.socket) else None


def send_now(sock: socket.socket, data: bytes) -> bytes:
    """Send what the socket takes now; return the rest (all of it on any error, which
    Twisted then meets and reports on its own write)."""
    try:
        sent = sock.send(data)
    except OSError:  # BlockingIOError: full; anything else: Twisted will see it too
        return data
    return data[sent:]
