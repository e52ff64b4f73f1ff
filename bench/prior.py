"""The regret study behind `search-prior`'s constants: how good is a card decision for the
worlds it costs?

    python bench/prior.py --positions 400 --ref 1000 --jobs 2
    python bench/prior.py --positions 400 --ref 1000 --variants search:32,search-prior:32:8:4

A duel against other bots measures strength, but it needs thousands of rounds to tell two
variants of one search apart, and on a shared machine a clock budget measures the load.
This study is load-independent and a hundred times cheaper: it collects card decisions
from games of four heuristic seats (the presets in `bench/train.py`'s proportions; only
decisions with two or more distinct moves, and not near the end of a game, where the
search scores the chance to win instead of points), values every distinct move once with
a long search (`--ref` worlds, no clock), and then lets each variant decide at a fixed
number of worlds, `--repeats` times with other seeds. A variant's regret on a decision
is the reference value of the reference's best move minus that of the move it chose, in
points; the table gives its mean with a 95% interval (over decisions), how often it chose
the reference's best, and the rollouts and CPU time a decision cost.

A variant is `tier:worlds`, `search:worlds:settle` (stop early once the moves left are
within `settle` points of the leader, `Candidates.settle`), or
`search-prior:worlds:prior_worlds:keep` (the network's weight in worlds, and how many
points worse than its best the network may score a move that is still searched); `net`
is the network alone.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from leekha.common import cards as C
from leekha.common.bots.base import make_strategy, play_out, view_config
from leekha.common.bots.heuristic import HeuristicStrategy, cached_rules
from leekha.common.bots.learned import PriorSearch
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import distinct_moves
from leekha.common.bots.tracker import Tracker
from leekha.common.bots.values import in_reach
from leekha.common.config import PRESETS
from leekha.common.game import Game
from leekha.common.intervals import Interval
from leekha.common.view import SeatView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import PRESET_WEIGHTS

DEFAULT_VARIANTS = (
    "net",
    "search:16",
    "search:32",
    "search:64",
    "search:128",
    "search-prior:16:8:4",
    "search-prior:32:8:4",
    "search-prior:64:8:4",
)


class Recorder(HeuristicStrategy):
    """The heuristic, keeping every card decision worth a search."""

    def __init__(self, seed: int, out: list[SeatView]) -> None:
        super().__init__(seed)
        self.out = out

    def choose_play(self, view: SeatView) -> int:
        config = view_config(view)
        doubled = C.mask_of(c for c, _ in view.doubled)
        rules = cached_rules(config, doubled)
        if not in_reach(config, view.totals, rules.most):
            moves = distinct_moves(view.legal_mask, Tracker(view).unseen, rules.points)
            if len(moves) > 1:
                self.out.append(view)
        return super().choose_play(view)


def collect(count: int, seed: int) -> list[SeatView]:
    """`count` decisions, drawn evenly from games of four heuristic seats."""
    rng = random.Random(seed)
    names = list(PRESET_WEIGHTS)
    weights = list(PRESET_WEIGHTS.values())
    views: list[SeatView] = []
    game_no = 0
    while len(views) < 4 * count:
        found: list[SeatView] = []
        preset = rng.choices(names, weights)[0]
        bots: list[Any] = [Recorder(seed * 100 + game_no * 4 + s, found) for s in range(4)]
        play_out(Game(PRESETS[preset], seed * 7919 + game_no), bots, rounds=3)
        views += found
        game_no += 1
    return rng.sample(views, count)


FORMS = "net, tier:worlds, tier:worlds:settle or search-prior:worlds:prior_worlds:keep"


def build(variant: str, seed: int) -> Any:
    """The bot a variant names (ValueError, in words, for one that names none)."""
    parts = variant.split(":")
    if parts[0] == "net":
        return make_strategy("net", seed)
    allowed = (2, 4) if parts[0] == "search-prior" else (2, 3)
    if len(parts) not in allowed or not all(_number(p) for p in parts[1:]):
        raise ValueError(f"say {FORMS}")
    worlds = int(parts[1])
    if parts[0] == "search-prior":
        prior = PriorSearch(seed, think_ms=None, max_samples=worlds)
        if len(parts) > 2:
            prior.prior_worlds = float(parts[2])
            prior.prior_keep = float(parts[3])
        return prior
    factory: Any = type(make_strategy(parts[0], seed))
    try:
        search: SearchStrategy = factory(seed, think_ms=None, max_samples=worlds)
    except TypeError:
        raise ValueError(f"{parts[0]} takes no worlds: not a search tier") from None
    if len(parts) > 2:
        search.settle_points = float(parts[2])
    return search


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def study(task: tuple[SeatView, list[str], int, int, int]) -> dict[str, Any]:
    """One decision: the reference values and each variant's regrets."""
    view, variants, ref_worlds, repeats, seed = task
    ref = SearchStrategy(seed, think_ms=None, max_samples=ref_worlds)
    ref.choose_play(view)
    value = dict(zip(ref.last_moves, ref.last_means, strict=True))
    top = max(value.values())
    out: dict[str, Any] = {"moves": len(value)}
    for variant in variants:
        regrets, rollouts, cpu = [], [], []
        for r in range(repeats):
            bot = build(variant, seed * 31 + r + 1)
            start = time.process_time()
            card = bot.choose_play(view)
            cpu.append(time.process_time() - start)
            rollouts.append(getattr(bot, "last_rollouts", 0))
            chosen = _representative(card, value)
            regrets.append(top - value[chosen])
        out[variant] = (regrets, rollouts, cpu)
    return out


def _representative(card: int, value: dict[int, float]) -> int:
    """The searched move equivalent to `card` (a run of equivalent cards is searched once,
    by its lowest card: `distinct_moves`)."""
    if card in value:
        return card
    suit = C.SUIT_OF[card]
    return max(m for m in value if C.SUIT_OF[m] == suit and m < card)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--ref", type=int, default=1000, help="reference worlds a decision")
    parser.add_argument("--repeats", type=int, default=2, help="decisions per variant and position")
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variants = args.variants.split(",")
    for variant in variants:  # refuse a bad variant in words, before any work
        try:
            build(variant, 0)
        except ValueError as exc:
            sys.exit(f"bad variant {variant!r}: {exc}")
    views = collect(args.positions, args.seed)
    tasks = [
        (v, variants, args.ref, args.repeats, args.seed * 1000 + i) for i, v in enumerate(views)
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(study, tasks, chunksize=4))
    report = []
    for variant in variants:
        per = [statistics.fmean(r[variant][0]) for r in results]
        best = [statistics.fmean(x == 0 for x in r[variant][0]) for r in results]
        rollouts = statistics.fmean(x for r in results for x in r[variant][1])
        cpu = statistics.fmean(x for r in results for x in r[variant][2])
        interval = Interval.of(per)
        report.append(
            {
                "variant": variant,
                "regret": round(interval.mean, 4),
                "regret_ci95": round(interval.half, 4),
                "best_share": round(statistics.fmean(best), 3),
                "rollouts": round(rollouts, 1),
                "cpu_ms": round(cpu * 1000, 2),
            }
        )
    if args.json:
        print(json.dumps({"positions": len(results), "ref": args.ref, "variants": report}))
        return
    print(f"{len(results)} decisions, reference {args.ref} worlds, {args.repeats} repeats")
    print(f"{'variant':<24} {'regret':>8} {'±95%':>7} {'best':>6} {'rollouts':>9} {'cpu ms':>7}")
    for row in report:
        print(
            f"{row['variant']:<24} {row['regret']:>8.3f} {row['regret_ci95']:>7.3f}"
            f" {row['best_share']:>6.1%} {row['rollouts']:>9.1f} {row['cpu_ms']:>7.2f}"
        )


if __name__ == "__main__":
    main()
