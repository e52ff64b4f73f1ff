"""The outbox's flush: one connection whose write raises costs the others of that turn
nothing, and the turn's end it flushes at (server/domain/outbox.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from twisted.internet import task
from twisted.logger import LogLevel, capturedLogs

from leekha.server.domain.outbox import Outbox
from leekha.server.domain.persistence import Store
from leekha.server.reactor import turn_end


class DummyStore:
    """What the outbox asks of a store, recorded."""

    path = ":memory:"

    def __init__(self) -> None:
        self.commits = 0
        self.on_begin: Callable[[], None] | None = None
        self.on_failure: object = None

    def commit(self) -> None:
        self.commits += 1

    def rollback(self) -> None:
        raise AssertionError("nothing failed: no rollback")


class Recorder:
    """A connection that records its writes (or raises, like a transport closed under it)."""

    def __init__(self, name: str, log: list[str], raises: bool = False) -> None:
        self.name = name
        self.log = log
        self.raises = raises

    def write_out(self) -> None:
        self.log.append(self.name)
        if self.raises:
            raise RuntimeError(f"{self.name}'s transport is gone")

    def drop_out(self) -> None:
        self.log.append(f"dropped {self.name}")


def test_a_sender_that_raises_leaves_the_others_their_frames_and_is_logged() -> None:
    clock = task.Clock()
    store = DummyStore()
    outbox = Outbox(clock, cast(Store, store))
    wrote: list[str] = []
    for sender in (Recorder("a", wrote), Recorder("b", wrote, raises=True), Recorder("c", wrote)):
        outbox.add(sender)
    with capturedLogs() as events:
        clock.advance(0)
    assert wrote == ["a", "b", "c"]
    assert store.commits == 1
    failures = [e for e in events if e.get("log_failure") is not None]
    assert len(failures) == 1, events
    assert failures[0]["log_level"] == LogLevel.critical
    assert "b's transport is gone" in str(failures[0]["log_failure"].value)
    # The outbox goes on: the next turn writes as before.
    outbox.add(Recorder("d", wrote))
    clock.advance(0)
    assert wrote[-1] == "d" and store.commits == 2
    assert not outbox.stopped


def test_with_a_turn_end_the_outbox_flushes_once_a_turn_without_a_timer() -> None:
    """`soon` (the asyncio loop's `call_soon` on a server, leekha.server.reactor.turn_end)
    replaces the `callLater(0)`: one call a turn however many senders, none on the clock,
    and a flush before it comes makes it a no-op."""
    clock = task.Clock()
    store = DummyStore()
    outbox = Outbox(clock, cast(Store, store))
    due: list[Callable[[], None]] = []
    outbox.soon = due.append
    wrote: list[str] = []
    outbox.add(Recorder("a", wrote))
    outbox.add(Recorder("b", wrote))
    assert len(due) == 1 and not clock.getDelayedCalls()
    due.pop()()
    assert wrote == ["a", "b"] and store.commits == 1
    outbox.add(Recorder("c", wrote))
    outbox.flush()  # at shutdown, say: the turn end still to come finds nothing to do
    due.pop()()
    assert wrote == ["a", "b", "c"] and store.commits == 2


def test_turn_end_is_the_timer_off_the_asyncio_reactor() -> None:
    assert turn_end(task.Clock()) is None
