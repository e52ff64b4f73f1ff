"""Running a coroutine on Twisted's asyncio reactor from a plain (synchronous) command.

The asyncio reactor must be installed before anything imports `twisted.internet.reactor`,
so commands call this first and import their Twisted-using modules inside `main`. Twisted
drives the loop (`reactor.run()`), which keeps its startup and shutdown triggers working;
prompt_toolkit's `run_async()` then runs as one more task on that same loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from leekha.server.reactor import install_asyncio_reactor as install_reactor


def run_on_reactor(main: Callable[[Any], Awaitable[int]]) -> int:
    """Run `main(reactor)` to completion on the asyncio reactor; return its exit code."""
    reactor = install_reactor()
    outcome: dict[str, Any] = {}

    def begin() -> None:
        task = asyncio.ensure_future(main(reactor))

        def done(fut: asyncio.Future[int]) -> None:
            try:
                outcome["rc"] = fut.result()
            except BaseException as exc:  # re-raised below, outside the loop
                outcome["exc"] = exc
            reactor.stop()

        task.add_done_callback(done)

    reactor.callWhenRunning(begin)
    reactor.run()
    if "exc" in outcome:
        raise outcome["exc"]
    return int(outcome.get("rc", 1))
