"""leekha.server.gctune: what `leekha serve` does to the garbage collector."""

from __future__ import annotations

import gc

from twisted.internet.task import Clock

from leekha.server.gctune import FREEZE_EVERY_S, GEN0_THRESHOLD, SWEEP_EVERY_S, GcTuning


def test_everything_alive_is_frozen_every_tick_and_unfrozen_by_the_hourly_sweep() -> None:
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
        gc.unfreeze()
        gc.freeze()
        clock.advance(SWEEP_EVERY_S)  # the sweep unfreezes, collects, then freezes again
        assert gc.get_freeze_count() > 0
        assert tuning._last_sweep == clock.seconds()
    finally:
        tuning.stopService()  # type: ignore[no-untyped-call]
        gc.unfreeze()
        gc.set_threshold(*before)
