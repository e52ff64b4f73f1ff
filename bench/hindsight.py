"""Decision quality on the true deal: a fast, paired proxy for bot strength.

A duplicate match needs thousands of rounds to settle a few percent (one round's points
spread with a standard deviation of about 6.5), far too slow to tune a search with. Here
each decision is scored instead by playing the round on to its end from the choice made,
on the deal as it really is, with the heuristic at all four seats: the seat's round
points (its team's with partners). Every strategy meets the same decisions, so the
differences are paired and most of the deal's luck cancels.

- `passes`: round 0 of each deal seed; the seat under test passes (and doubles), the others
  pass the heuristic's way, and the round is played out. The reference is the
  heuristic's own pass, measured in the same run.
- `plays`: card-play positions taken from games of four quick `search1` seats (rounds
  `--skip` on); each strategy's card is scored and compared with the first strategy's.

The heuristic continuation is a model, not the truth: it rewards world sampling and pass
choice fairly, but it cannot show a better rollout policy (that needs a match).

    .venv/bin/python bench/hindsight.py passes --deals 2000 --specs heuristic,search@50cpu
    .venv/bin/python bench/hindsight.py plays --games 60 --specs search1@20cpu,search@20cpu
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from leekha.common import cards as C
from leekha.common.bots.base import decide, make_strategy, play_out, view_config
from leekha.common.bots.heuristic import HeuristicStrategy, cached_rules
from leekha.common.bots.policy import PlayPolicy
from leekha.common.bots.rollout import play_round
from leekha.common.bots.search1 import Search1Strategy
from leekha.common.bots.tracker import Tracker
from leekha.common.config import PRESETS
from leekha.common.game import OVER, PASS, Game
from leekha.common.intervals import Interval
from leekha.common.view import SeatView, seat_view

CHUNKS = 8
# The position games' seats: search1 with a small fixed sample (deterministic and quick).
POSITION_SAMPLES = 24


def _own(config_partnership: str, scores: list[int], seat: int) -> int:
    return scores[seat] + (scores[seat ^ 2] if config_partnership != "off" else 0)


def pass_points(task: tuple[str, str, list[int]]) -> list[int]:
    """Round-0 points of the tested seat (`seed % 4`) for each deal seed."""
    spec, rules, seeds = task
    config = PRESETS[rules]
    out = []
    for seed in seeds:
        game = Game(config, seed)
        seat = seed % 4
        bots = [HeuristicStrategy(seed * 4 + s) for s in range(4)]
        tested = make_strategy(spec, seed)
        for s in range(4):
            for action in decide(tested if s == seat else bots[s], seat_view(game, s)):
                game.apply(action)
        game = play_out(game, list(bots), rounds=1)
        out.append(_own(config.partnership, list(game.history[0]), seat))
    return out


Position = tuple[SeatView, list[int]]


def positions(task: tuple[str, int, int, int]) -> list[Position]:
    """Play-phase views with a choice, with the true hands, from one quick search1 game."""
    rules, seed, skip, rounds = task
    game = Game(PRESETS[rules], seed)
    bots = [
        Search1Strategy(seed * 4 + s, think_ms=None, max_samples=POSITION_SAMPLES) for s in range(4)
    ]
    found: list[Position] = []
    while game.phase != OVER and game.round_no < skip + rounds:
        if game.phase == PASS:
            for s in [s for s in range(4) if game.passed[s] is None]:
                for action in decide(bots[s], seat_view(game, s)):
                    game.apply(action)
            continue
        seat = game.turn
        assert seat is not None
        legal = game.legal_mask(seat)
        if not legal & (legal - 1):
            game.play(seat, legal.bit_length() - 1)
            continue
        view = seat_view(game, seat)
        if game.round_no >= skip:
            found.append((view, list(game.hands)))
        game.play(seat, bots[seat].choose_play(view))
    return found


def card_points(view: SeatView, hands: list[int], card: int) -> int:
    """The seat's round points when it plays `card` and everyone goes on the heuristic way."""
    config = view_config(view)
    assert view.seat is not None
    rules = cached_rules(config, C.mask_of(c for c, _ in view.doubled))
    policy = PlayPolicy(rules, partners=config.partnership != "off")
    scores = play_round(
        rules,
        policy,
        list(hands),
        view.seat,
        [(s, c) for s, c in view.trick],
        Tracker(view).played,
        list(view.round_points),
        [C.mask_of(t) for t in view.taken],
        None,
        card,
    )
    return _own(config.partnership, scores, view.seat)


def play_points(task: tuple[str, int, list[Position]]) -> list[int]:
    spec, k, chunk = task
    bot = make_strategy(spec, 7919 * k + 1)
    return [card_points(view, hands, bot.choose_play(view)) for view, hands in chunk]


def compare(specs: list[str], run: Callable[[str], list[int]]) -> dict[str, Any]:
    """Mean points per strategy, and each one's paired difference to the first."""
    results = {spec: run(spec) for spec in specs}
    ref = results[specs[0]]
    ref_mean = statistics.fmean(ref)
    report: dict[str, Any] = {"n": len(ref), "reference": specs[0], "strategies": {}}
    for spec, points in results.items():
        diff = Interval.of([a - b for a, b in zip(points, ref, strict=True)])
        report["strategies"][spec] = {
            "points": round(statistics.fmean(points), 4),
            "diff": round(diff.mean, 4),
            "diff_ci95": round(diff.half, 4),
            "relative": round(diff.mean / ref_mean, 4) if ref_mean else None,
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("passes", "plays"))
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--specs", default="heuristic,search@50cpu", help="first: the reference")
    parser.add_argument("--deals", type=int, default=1000, help="passes: deal seeds")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--games", type=int, default=40, help="plays: position games")
    parser.add_argument("--skip", type=int, default=0, help="plays: rounds before positions")
    parser.add_argument("--rounds", type=int, default=3, help="plays: rounds of positions")
    parser.add_argument("--limit", type=int, default=3000, help="plays: most positions")
    parser.add_argument(
        "--cards", type=int, default=13, help="plays: only positions with at most this many cards"
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    specs = args.specs.split(",")
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.what == "passes":
            seeds = list(range(args.seed, args.seed + args.deals))
            chunks = [seeds[i::CHUNKS] for i in range(CHUNKS)]

            def run(spec: str) -> list[int]:
                tasks = [(spec, args.rules, chunk) for chunk in chunks]
                return [x for part in pool.map(pass_points, tasks) for x in part]

        else:
            tasks = [(args.rules, args.seed + g, args.skip, args.rounds) for g in range(args.games)]
            found = [
                p
                for part in pool.map(positions, tasks)
                for p in part
                if len(p[0].hand) <= args.cards
            ][: args.limit]
            split = [found[i::CHUNKS] for i in range(CHUNKS)]

            def run(spec: str) -> list[int]:
                parts = pool.map(play_points, [(spec, k, chunk) for k, chunk in enumerate(split)])
                return [x for part in parts for x in part]

        report = compare(specs, run)
    report.update(what=args.what, rules=args.rules)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
