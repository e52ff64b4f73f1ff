"""Running a coroutine on Twisted's asyncio reactor from a plain (synchronous) command.

The asyncio reactor must be installed before anything imports `twisted.internet.reactor`,
so commands call this first and import their Twisted-using modules inside `main`.
Twisted's `task.react` runs the reactor until `main` is done; prompt_toolkit's
`run_async()` then runs as one more task on that same asyncio loop.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar, cast

from leekha.client.exitcodes import INTERRUPTED

if TYPE_CHECKING:
    from leekha.protocol.reactor import Reactor

T = TypeVar("T")


def install_reactor(*, tls: bool = True) -> Reactor:
    """Install (or reuse) Twisted's asyncio reactor on a fresh loop and return it: the one
    event loop every client command runs on (the server's commands install it with
    server/reactor.py's, as the client imports nothing of the server). Never at import
    time, so tests and library users keep control of their own reactor.

    `tls=False` is for a process that will never make a TLS connection (`leekha play`,
    whose server is its own, on 127.0.0.1). Twisted's reactor imports pyOpenSSL and
    cryptography's X.509 as it loads, to offer TLS on every TCP connection: a third of
    the interpreter's own start-up time again, and more than any other part of
    `leekha play`'s start. With pyOpenSSL marked absent, Twisted runs as it does where
    pyOpenSSL is not installed: plain TCP only, in this process."""
    if "twisted.internet.reactor" not in sys.modules:
        if not tls and "OpenSSL" not in sys.modules:
            sys.modules["OpenSSL"] = None  # type: ignore[assignment]
        from twisted.internet import asyncioreactor

        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        asyncioreactor.install(loop)  # type: ignore[no-untyped-call]
    from twisted.internet import reactor

    # The module swaps itself for the installed reactor object, which mypy cannot see.
    return cast("Reactor", reactor)


def run_on_reactor(main: Callable[[Reactor], Awaitable[int]], *, tls: bool = True) -> int:
    """Run `main(reactor)` to completion on the asyncio reactor; return its exit code.
    `tls=False`: the process makes no TLS connection (see `install_reactor`)."""
    install_reactor(tls=tls)
    from twisted.internet import defer, task

    running: list[asyncio.Future[int]] = []
    interrupted: list[int] = []
    broken: list[BrokenPipeError] = []

    async def noting(reactor: Reactor) -> int:
        _note_interrupt(interrupted)  # once running: Twisted's handler is in place by then
        return await main(reactor)

    async def react(reactor: Reactor) -> None:
        running.append(asyncio.ensure_future(noting(reactor)))
        try:
            rc = await defer.Deferred.fromFuture(running[0])
        except asyncio.CancelledError:
            return  # stopped by a signal, the reactor gone: nothing left to say
        except BrokenPipeError as exc:  # stdout's reader went: the entry point's to end
            broken.append(exc)
            return
        raise SystemExit(int(rc))

    code = 0
    try:
        task.react(lambda reactor: defer.ensureDeferred(react(reactor)))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    cut_short = bool(running) and not running[0].done()
    _settle(running)
    if broken:
        raise broken[0]  # past `task.react`, which would print its traceback
    return INTERRUPTED if cut_short and interrupted else code


def _note_interrupt(interrupted: list[int]) -> None:
    """Ctrl-C stops the reactor (Twisted's own SIGINT handler, no KeyboardInterrupt):
    note it too, so the command ends with 130 as every command does when interrupted.

    Only the first SIGINT or SIGTERM reaches Twisted's handler. Each one queues a
    `reactor.stop()`, and the second, run once the first has stopped the reactor, raised
    ReactorNotRunning and printed its traceback: Ctrl-C pressed twice, `kill` twice, or
    GNU `timeout`, which signals the command and then its whole process group. The
    shutdown the first one starts is bounded (a bot's hang-up waits two seconds)."""
    import signal
    from types import FrameType

    stopping: list[int] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        twisted_handler = signal.getsignal(signum)
        if not callable(twisted_handler):
            continue

        def once(
            signum: int, frame: FrameType | None, handler: Callable[..., object] = twisted_handler
        ) -> None:
            if signum == signal.SIGINT:
                interrupted.append(signum)
            if not stopping:
                stopping.append(signum)
                handler(signum, frame)

        signal.signal(signum, once)


def _settle(running: list[asyncio.Future[int]]) -> None:
    """A command stopped by a signal (Ctrl-C, SIGTERM) before its coroutine ended: the
    reactor stopped under it. Cancel the coroutine and let the loop deliver that, as
    `asyncio.run` does, so that asyncio does not print "Task was destroyed but it is
    pending!" and the task's innards at exit."""
    if not running or running[0].done():
        return
    main = running[0]
    main.cancel()
    loop = main.get_loop()
    if not loop.is_closed():
        loop.run_until_complete(asyncio.gather(main, return_exceptions=True))


async def twisted_await(coro: Coroutine[Any, Any, T]) -> T:
    """Await a coroutine written for Twisted (it awaits Deferreds) from an asyncio task."""
    from twisted.internet.defer import Deferred

    return await Deferred.fromCoroutine(coro).asFuture(asyncio.get_running_loop())
