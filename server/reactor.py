"""Installing Twisted's asyncio reactor for the server's own commands, and the reactor as
the server uses it.

It must happen before anything imports `twisted.internet.reactor`, so `leekha serve`,
`leekha records` and the benches call this first and import their Twisted-using modules
afterwards. The client's commands install the same reactor with their own
(`leekha.client.eventloop.install_reactor`, which can leave TLS out); an embedded server
(`leekha play`) runs on whichever was installed, since a process has one reactor.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

from leekha.protocol.reactor import Reactor

if TYPE_CHECKING:
    from twisted.python.threadpool import ThreadPool

__all__ = ["ServerReactor", "install_asyncio_reactor", "turn_end"]


class ServerReactor(Reactor, Protocol):
    """The running reactor as the server uses it: the shared `Reactor`, a call once it
    runs, and the thread pool that the database's slow work and the bots' thinking go to."""

    def callWhenRunning(
        self, callable: Callable[..., object], *args: object, **kw: object
    ) -> object: ...

    def getThreadPool(self) -> ThreadPool: ...


def install_asyncio_reactor() -> ServerReactor:
    """Install (or reuse) Twisted's asyncio reactor on a fresh loop and return it. Never at
    import time, so tests and library users keep control of their own reactor."""
    if "twisted.internet.reactor" not in sys.modules:
        from twisted.internet import asyncioreactor

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    from twisted.internet import reactor

    # The module swaps itself for the installed reactor object, which mypy cannot see.
    return cast(ServerReactor, reactor)


def turn_end(reactor: object) -> Callable[[Callable[[], None]], None] | None:
    """How to run a call once the reactor's current turn is done, for the outbox's group
    commit (leekha.server.domain.outbox), or None where `callLater(0)` must do. On
    Twisted's asyncio reactor that is the loop's `call_soon`: the same next turn as
    `callLater(0)`, without a timer made, sorted, and the loop's timer handle cancelled
    and remade around it (about a tenth of a human-pace action's Python calls). The loop
    is the running one, asked at each call: the reactor runs on it, and before it runs
    (a restore at start-up) the timer does the job."""
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    if not isinstance(reactor, AsyncioSelectorReactor):
        return None
    later = cast(Reactor, reactor).callLater

    def soon(call: Callable[[], None]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the reactor is not running yet (or any more)
            later(0, call)
            return
        loop.call_soon(call)

    return soon
