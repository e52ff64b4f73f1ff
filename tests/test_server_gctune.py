"""leekha.server.gctune: what `leekha serve` does to the garbage collector."""

from __future__ import annotations

import gc

from twisted.internet.task import Clock

from leekha.server.gctune import FREEZE_EVERY_S, GEN0_THRESHOLD, GcTuning


def test_everything_alive_is_frozen_every_tick() -> None:
    clock = Clock()
    before = gc.get_threshold()
    tuning = GcTuning(clock)
    try:
        tuning.startService()
        assert gc.get_threshold()[0] == GEN0_THRESHOLD
        frozen = gc.get_freeze_count()
        young = [[i] for i in range(1000)]  # tracked containers born after the start
        clock.advance(FREEZE_EVERY_S)
        assert gc.get_freeze_count() >= frozen + len(young)
    finally:
        tuning.stopService()  # type: ignore[no-untyped-call]
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_frozen_heap_is_swept_when_memory_grew_by_half_not_by_the_hour() -> None:
    clock = Clock()
    before = gc.get_threshold()
    blocks = [10_000]
    tuning = GcTuning(clock, blocks=lambda: blocks[0])
    try:
        tuning.startService()
        blocks[0] = 14_000  # +40%: a day of ticks, and no full collection
        clock.pump([FREEZE_EVERY_S] * 24 * 3600)
        assert tuning.swept_at == 10_000
        blocks[0] = 15_001  # past +50%: swept at the next tick, and counted from there
        clock.advance(FREEZE_EVERY_S)
        assert tuning.swept_at == 15_001
        assert gc.get_freeze_count() > 0  # frozen again after the sweep
    finally:
        tuning.stopService()  # type: ignore[no-untyped-call]
        gc.unfreeze()
        gc.set_threshold(*before)
