"""Running a coroutine on Twisted's asyncio reactor from a plain (synchronous) command.

The asyncio reactor must be installed before anything imports `twisted.internet.reactor`,
so commands call this first and import their Twisted-using modules inside `main`.
Twisted's `task.react` runs the reactor until `main` is done; prompt_toolkit's
`run_async()` then runs as one more task on that same asyncio loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def install_reactor() -> Any:
    """Install (or reuse) Twisted's asyncio reactor on a fresh loop and return it: the one
    event loop every leekha command runs on, `leekha serve` included (server/reactor.py
    hands this out to the server's commands; the TUI and the bot client import nothing
    of the server). Never at import time, so tests and library users keep control of
    their own reactor."""
    import sys

    if "twisted.internet.reactor" not in sys.modules:
        from twisted.internet import asyncioreactor

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    from twisted.internet import reactor

    return reactor


def run_on_reactor(main: Callable[[Any], Awaitable[int]]) -> int:
    """Run `main(reactor)` to completion on the asyncio reactor; return its exit code."""
    install_reactor()
    from twisted.internet import defer, task

    async def react(reactor: Any) -> None:
        rc = await defer.Deferred.fromFuture(asyncio.ensure_future(main(reactor)))
        raise SystemExit(int(rc))

    try:
        task.react(lambda reactor: defer.ensureDeferred(react(reactor)))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


async def twisted_await(coro: Coroutine[Any, Any, T]) -> T:
    """Await a coroutine written for Twisted (it awaits Deferreds) from an asyncio task."""
    from twisted.internet.defer import Deferred

    return await Deferred.fromCoroutine(coro).asFuture(asyncio.get_running_loop())
