"""One unit of a match's work: a game's deal sequence, played in every seat rotation.

Everything random in a unit comes from seeds derived from (--seed, game number) alone, so a
unit gives the same result in any process, on any machine, run once or re-run after its
worker died. A game, not a single deal, is the smallest unit because a game's later deals
depend on its earlier ones (the scores decide the dealer and the end); with --duplicate its
rotations travel together so that a deal's paired comparison is one task's result.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from leekha.common.bots.base import Strategy, make_strategy, play_out
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Budget
from leekha.common.config import RulesConfig
from leekha.common.game import Game
from leekha.common.seeds import derive_seed
from leekha.common.view import Rules

MAX_GAME_ROUNDS = 500


@dataclass(frozen=True)
class DealTask:
    """Game `number` of a match, to be played once per entry of `rotations`."""

    number: int
    rules: Rules
    rotations: tuple[tuple[str, ...], ...]  # the strategy spec per seat, per rotation
    game_seed: int
    strategy_seeds: tuple[int, ...]  # per rotation
    budget_ms: float | None
    samples: int | None


@dataclass(frozen=True)
class GameResult:
    rounds: list[list[int]]  # per-round points per seat
    winners: list[int] | None  # None when the game did not finish


def rotation(specs: tuple[str, ...], r: int) -> tuple[str, ...]:
    """The seats of rotation r: every strategy moved r seats on."""
    return tuple(specs[(s + r) % 4] for s in range(4))


def deal_task(
    seed: int,
    number: int,
    specs: tuple[str, ...],
    duplicate: bool,
    rules: Rules,
    budget_ms: float | None = None,
    samples: int | None = None,
) -> DealTask:
    """Game `number` of the match with seed `seed`; rotation r moves every strategy r seats."""
    count = 4 if duplicate else 1
    return DealTask(
        number=number,
        rules=rules,
        rotations=tuple(rotation(specs, r) for r in range(count)),
        game_seed=derive_seed(seed, number),
        strategy_seeds=tuple(derive_seed(seed, number, r) for r in range(count)),
        budget_ms=budget_ms,
        samples=samples,
    )


def build_strategy(
    spec: str, seed: int, budget_ms: float | None = None, samples: int | None = None
) -> Strategy:
    """A strategy by spec; `search` takes the match's budget (0 ms = no clock)."""
    if spec == "search" and (budget_ms is not None or samples is not None):
        kwargs: Budget = {}
        if budget_ms is not None:
            kwargs["think_ms"] = budget_ms if budget_ms > 0 else None
        if samples is not None:
            kwargs["max_samples"] = samples
        return SearchStrategy(seed, **kwargs)
    return make_strategy(spec, seed)


def play_deal(task: DealTask) -> list[GameResult]:
    """The game in every rotation of the task, in rotation order."""
    config = RulesConfig.from_dict(task.rules)
    out = []
    for specs, strategy_seed in zip(task.rotations, task.strategy_seeds, strict=True):
        rng = random.Random(strategy_seed)
        strategies = [
            build_strategy(spec, rng.getrandbits(62), task.budget_ms, task.samples)
            for spec in specs
        ]
        game = Game(config, task.game_seed)
        play_out(game, strategies, rounds=MAX_GAME_ROUNDS)
        winners = list(game.outcome.winners) if game.outcome else None
        out.append(GameResult(rounds=[list(h) for h in game.history], winners=winners))
    return out
