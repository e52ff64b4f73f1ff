"""leekha.server.gctune: what `leekha serve` does to the garbage collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from twisted.internet.task import Clock

from leekha.server.gctune import FREEZE_EVERY_S, GEN0_THRESHOLD, SWEEP_EVERY_S, GcTuning


@contextmanager
def running(tuning: GcTuning) -> Iterator[GcTuning]:
    """The service started, and the interpreter's collector as it was once the test ends."""
    before = gc.get_threshold()
    try:
        tuning.startService()
        yield tuning
    finally:
        tuning.stopService()  # type: ignore[no-untyped-call]
        gc.unfreeze()
        gc.set_threshold(*before)


def test_everything_alive_is_frozen_every_tick() -> None:
    clock = Clock()
    with running(GcTuning(clock)):
        assert gc.get_threshold()[0] == GEN0_THRESHOLD
        frozen = gc.get_freeze_count()
        young = [[i] for i in range(1000)]  # tracked containers born after the start
        clock.advance(FREEZE_EVERY_S)
        assert gc.get_freeze_count() >= frozen + len(young)


def test_the_frozen_heap_is_swept_when_memory_per_unit_of_load_grew_by_half() -> None:
    clock = Clock()
    blocks, load = [10_000], [9]  # 1,000 blocks per unit (load + 1)
    with running(GcTuning(clock, load=lambda: load[0], blocks=lambda: blocks[0])) as tuning:
        blocks[0], load[0] = 100_000, 199  # ten times the tables: 500 per unit, no sweep
        clock.advance(FREEZE_EVERY_S)
        assert tuning.least == 500
        blocks[0] = 140_000  # +40% per unit: a day of ticks, and no full collection
        clock.pump([FREEZE_EVERY_S] * 24 * 3600)
        assert tuning.least == 500
        blocks[0] = 150_200  # past +50% per unit: swept at the next tick, counted from there
        clock.advance(FREEZE_EVERY_S)
        assert tuning.least == 751
        assert gc.get_freeze_count() > 0  # frozen again after the sweep
        blocks[0] = 300_000  # twice as much again, but the last sweep was just now
        clock.pump([FREEZE_EVERY_S] * int(SWEEP_EVERY_S - 2))
        assert tuning.least == 751
        clock.pump([FREEZE_EVERY_S] * 2)  # an hour on: swept
        assert tuning.least == 1500


def test_the_tables_emptying_out_is_a_sweep_over_a_smaller_heap() -> None:
    clock = Clock()
    blocks, load = [900_000], [15_999]  # a full server: 56.25 blocks per unit
    with running(GcTuning(clock, load=lambda: load[0], blocks=lambda: blocks[0])) as tuning:
        clock.pump([FREEZE_EVERY_S] * int(SWEEP_EVERY_S))  # never a sweep in the first hour
        blocks[0], load[0] = 600_000, 6_999  # most players gone: 85.7 per unit, +52%
        clock.advance(FREEZE_EVERY_S)
        assert tuning.least == 600_000 / 7_000
