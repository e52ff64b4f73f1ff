"""The `random` tier: uniform over legal moves. The baseline every other tier must beat."""

from __future__ import annotations

import random

from leekha.common.bots.base import random_pass, register
from leekha.common.view import SeatView


class RandomStrategy:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose_doubles(self, view: SeatView) -> list[int]:
        return []

    def choose_pass(self, view: SeatView) -> list[int]:
        return random_pass(view, self.rng)

    def choose_play(self, view: SeatView) -> int:
        return self.rng.choice(view.legal)


register("random")(RandomStrategy)
