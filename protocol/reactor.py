"""The event loop both peers run on, as structural types, and the one test of a TLS failure.

The server and the clients own the I/O (Twisted's reactor) and this package owns none, but
both sides type the reactor they are handed and both tell a TLS failure from any other:
they share these from here, the one package both may import, which imports no Twisted,
not even for typing (an import-linter contract, `protocol-on-common`). Twisted's
`IReactorTime` and `IDelayedCall` cannot be annotations anyway (zope interfaces, no mypy
plugin); these match their methods, so the running reactor, `task.Clock` and
`MemoryReactorClock` all fit. What only the server asks of a reactor (its thread pool) is
the server's own type, `leekha.server.reactor.ServerReactor`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol

__all__ = ["DelayedCall", "Reactor", "ReactorTime", "is_tls_error"]


class DelayedCall(Protocol):
    """A call `callLater` scheduled: still to come, called off, or put back."""

    def active(self) -> bool: ...

    def cancel(self) -> None: ...

    def reset(self, secondsFromNow: float) -> None: ...


class ReactorTime(Protocol):
    """The reactor as a source of time: all a client session, a bot and a tournament link
    call on it themselves (endpoints take the reactor untyped)."""

    def seconds(self) -> float: ...

    def callLater(
        self, delay: float, callable: Callable[..., object], *args: object, **kw: object
    ) -> DelayedCall: ...


class Reactor(ReactorTime, Protocol):
    """The running reactor as a command holds it: time, and a trigger before shutdown."""

    def addSystemEventTrigger(
        self,
        phase: str,
        eventType: str,
        callable: Callable[..., object],
        *args: object,
        **kw: object,
    ) -> object: ...


def is_tls_error(exc: object) -> bool:
    """A failure of pyOpenSSL's, without importing it: only TLS loads it (and a process
    whose reactor was installed without TLS never does), so when it is not loaded nothing
    can have failed in it."""
    ssl = sys.modules.get("OpenSSL.SSL")
    return ssl is not None and isinstance(exc, ssl.Error)
