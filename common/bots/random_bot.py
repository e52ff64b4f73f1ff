"""The `random` tier: uniform over legal moves. The baseline every other tier must beat."""

from __future__ import annotations

from leekha.common.bots.base import NeverDoubles, random_pass, register
from leekha.common.view import SeatView


class RandomStrategy(NeverDoubles):
    name = "random"

    def choose_pass(self, view: SeatView) -> list[int]:
        return random_pass(view, self.rng)

    def choose_play(self, view: SeatView) -> int:
        return self.rng.choice(view.legal)


register("random")(RandomStrategy)
