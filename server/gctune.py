"""Garbage-collector settings for a long-running `leekha serve` process.

A server with thousands of tables holds ~300k long-lived objects (sessions, connections,
tables, engine games). CPython's full collections walk all of them and, measured with
bench/serverpatch.py `gclog` at 2,000 tables, paused every table for 210-290 ms while
freeing nothing. Freezing moves what is alive into the permanent generation, which no
collection walks; a higher gen-0 threshold makes the young collections rarer.

At 3,000 tables with a freeze every 10 s and a gen-0 threshold of 20,000, gclog still showed
gen-1 collections of ~180,000 objects taking 120-130 ms, and every collection found nothing
to free: this server makes almost no cyclic garbage. With collection disabled the same run
gives p99 11 ms instead of 60-70 ms (bench/serverpatch.py `nogc`). So everything alive is
frozen every second (gc.freeze() is O(1): it splices lists and resets the gen-0 count) and
the gen-0 threshold is high enough that a young collection runs only when a burst (a
restore, a wave of new tables) allocates GEN0_THRESHOLD net objects within one second.

Only `leekha serve` adds this service (tests and embedded servers keep the defaults).
Frozen objects are still freed by reference counting; only cycles among them wait for a
full collection of the frozen heap (`gc.unfreeze()` + `gc.collect()`). That pauses every
table for as long as it takes to walk the whole heap: ~340 ms of CPU at 2,000 tables
(bench/serverpatch.py `sweepsoon,lagprobe`), for ~40 objects freed per 10 s of play. It
used to run every hour whatever there was to free. Now it runs at most once an hour, and
only when the memory held per unit of load (allocated blocks, `sys.getallocatedblocks()`,
cheap, per open connection or table) has grown by SWEEP_GROWTH over its lowest since the
last one. Garbage that waits raises that figure; more tables or players do not (a server
that grows lowers it), so a steady server no longer stops every table once an hour to
free a few thousand objects, a ramp to thousands of tables makes no collection, and one
that empties out collects as it does, over a smaller heap. (Without the hour, connection
churn that leaves sessions behind, as under bench/fuzz.py, swept every few seconds.)
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

from twisted.application.internet import TimerService
from twisted.logger import Logger

from leekha.server.domain.clock import Clock

log = Logger()

#: Allocations (net of frees) between young collections; CPython's default is 700.
GEN0_THRESHOLD = 100_000
#: Seconds between freezes of everything alive (after restore and table bursts too).
FREEZE_EVERY_S = 1.0
#: A full collection of the frozen heap, for cycles that died frozen, once the memory
#: blocks per unit of load have grown by this share over their lowest since the last one.
SWEEP_GROWTH = 0.5
#: Seconds at least between two full collections (and from the start to the first).
SWEEP_EVERY_S = 3600.0


class GcTuning(TimerService):
    """A child service of the server: sets the threshold on start, then freezes every
    FREEZE_EVERY_S (the first freeze at once, after the restore)."""

    def __init__(
        self,
        clock: Clock,
        *,
        load: Callable[[], int] = lambda: 0,
        blocks: Callable[[], int] = sys.getallocatedblocks,
    ) -> None:
        super().__init__(FREEZE_EVERY_S, self.tick)  # type: ignore[no-untyped-call]
        self.clock = clock
        self._clock = clock
        self._load = load
        self._blocks = blocks
        #: The lowest memory blocks per unit of load since the last full collection.
        self.least = self._per_unit()
        self._last_sweep = clock.seconds()

    def _per_unit(self) -> float:
        return self._blocks() / (1 + self._load())

    def startService(self) -> None:
        _gen0, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
        super().startService()  # type: ignore[no-untyped-call]

    def tick(self) -> None:
        per_unit = self._per_unit()
        now = self._clock.seconds()
        if now - self._last_sweep >= SWEEP_EVERY_S and per_unit > self.least * (1 + SWEEP_GROWTH):
            self._last_sweep = now
            gc.unfreeze()
            freed = gc.collect()
            per_unit = self._per_unit()
            self.least = per_unit
            log.info("full collection of the frozen heap freed {n} objects", n=freed)
        self.least = min(self.least, per_unit)
        gc.freeze()
