"""Running the terminal app against a real loopback server on the asyncio reactor: keys in,
screens out, bounded waits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any, TypeVar

import pytest_twisted
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from twisted.internet.defer import Deferred

from leekha.client.tui import model as M
from leekha.client.tui import play
from leekha.client.tui.app import ClientApp
from leekha.server import local

T = TypeVar("T")


AsyncTest = Callable[..., Coroutine[Any, Any, None]]


reactor_test: Callable[[AsyncTest], AsyncTest] = pytest_twisted.ensureDeferred


WAIT = 10.0


def aio(coro: Coroutine[Any, Any, T]) -> Deferred[T]:
    return Deferred.fromFuture(asyncio.ensure_future(coro))


def get_reactor() -> Any:
    from twisted.internet import reactor

    return reactor


async def until(client: ClientApp, pred: Callable[[], bool], what: str) -> None:
    try:
        await asyncio.wait_for(client.when(pred), WAIT)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for: {what}") from None


def play_args(*extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    args = parser.parse_args(
        [
            "--name",
            "tester",
            "--strategy",
            "random",
            "--bot-delay",
            "0",
            "--trick-hold",
            "0",
            *([] if "--data" in extra else ["--no-save"]),
            *extra,
        ]
    )
    args.local = local  # as the command line hands it over
    return args


async def press(
    client: ClientApp, inp: PipeInput, keys: str, pred: Callable[[], bool], what: str
) -> None:
    inp.send_text(keys)
    await until(client, pred, what)


async def play_whole_game(client: ClientApp, inp: PipeInput) -> None:
    """Play by keys only: letters to choose, Enter twice to confirm, until game over."""
    m = client.model
    for _ in range(500):
        await until(
            client,
            lambda: (
                m.game.phase == "game_over"
                or m.boxes.summary is not None
                or m.choices.double_offer != []
                or (m.my_turn and (m.game.phase == "pass" or bool(m.choices.legal_plays())))
            ),
            "my move",
        )
        if m.boxes.summary is not None:
            # The round's last trick stays on screen before its summary (the timeline):
            # Enter closes the summary once it shows.
            await until(client, lambda: m.overlay == M.SUMMARY or m.boxes.summary is None,
                        "summary shown")  # fmt: skip
            if m.boxes.summary is not None:
                await press(client, inp, "\r", lambda: m.boxes.summary is None, "summary closed")
        elif m.game.phase == "game_over":
            return
        elif m.choices.double_offer:

            def declined(n: int = len(m.choices.double_offer)) -> bool:
                return len(m.choices.double_offer) < n

            await press(client, inp, "n", declined, "double declined")
        elif m.game.phase == "pass":
            ch = m.choices
            while len(ch.pass_sel) < 3:
                card = next(c for c in m.hand if c in ch.pass_choosable() and c not in ch.pass_sel)
                key = chr(ord("a") + m.hand.index(card))

                def chosen(c: int = card) -> bool:
                    return c in m.choices.pass_sel

                await press(client, inp, key, chosen, "card chosen")
            await press(client, inp, "\r", lambda: m.choices.pass_confirm, "pass staged")
            await press(client, inp, "\r", lambda: not m.my_turn, "pass sent")
        else:
            i, card = next((i, c) for i, c in enumerate(m.hand) if c in m.choices.legal_plays())
            key = chr(ord("a") + i)

            def lifted(c: int = card) -> bool:
                return m.choices.lifted == c

            def played(c: int = card) -> bool:
                return c not in m.hand

            await press(client, inp, key, lifted, "card lifted")
            await press(client, inp, "\r", played, "card played")
    raise AssertionError("the game did not end")


@contextlib.asynccontextmanager
async def started(
    entry: Callable[..., Coroutine[Any, Any, int]], *args: Any
) -> AsyncIterator[tuple[ClientApp, PipeInput, asyncio.Future[int]]]:
    """Run a client entry point (`play_main`, `join_main`) with keys from a pipe, until it
    hands over its app: the app, the pipe and the task that ends with its exit code."""
    holder: list[ClientApp] = []
    with create_pipe_input() as inp:
        task = asyncio.ensure_future(
            entry(get_reactor(), *args, ready=holder.append, input=inp, output=DummyOutput())
        )
        deadline = time.monotonic() + WAIT
        while not holder:
            if task.done():
                task.result()
                raise AssertionError("the client ended before connecting")
            if time.monotonic() > deadline:
                raise AssertionError("the client never connected")
            await asyncio.wait([task], timeout=0.01)
        yield holder[0], inp, task
