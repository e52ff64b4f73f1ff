"""Bot benchmarks: decision times of the tiers, rollout throughput, and match speed.

Machines are noisy, so besides milliseconds it prints ratios to references measured in
the same run: a fixed pure-Python loop, and `search1` (today's baseline) on the same
views. Run on one core (e.g. `taskset -c 0`) for the p95 budget.

    .venv/bin/python bench/bots.py --deals 20 --think-ms 50      # decisions, pass included
    .venv/bin/python bench/bots.py --match-rate --seconds 10     # four heuristic seats

Strength is measured with `leekha match --duplicate` (docs/bots.md gives the commands).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from leekha.common.bots.base import decide, play_out
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Search1Strategy
from leekha.common.config import PRESETS, RulesConfig
from leekha.common.game import OVER, PASS, Game
from leekha.common.view import SeatView, seat_view


def collect_views(rules: str, deals: int) -> tuple[list[SeatView], list[SeatView]]:
    """Play-phase views with a real choice, and pass-phase views, from heuristic rounds."""
    plays: list[SeatView] = []
    passes: list[SeatView] = []
    for seed in range(deals):
        game = Game(PRESETS[rules], seed)
        bots = [HeuristicStrategy(seed * 4 + s) for s in range(4)]
        while game.phase != OVER and game.round_no < 1:
            if game.phase == PASS:
                seats = [s for s in range(4) if game.passed[s] is None]
            else:
                seats = [game.turn] if game.turn is not None else []
            for seat in seats:
                view = seat_view(game, seat)
                if game.phase == PASS:
                    passes.append(view)
                elif len(view.legal) > 1:
                    plays.append(view)
                for action in decide(bots[seat], view):
                    game.apply(action)
    return plays, passes


def timed(fn: Callable[[SeatView], object], views: list[SeatView]) -> list[float]:
    out = []
    for view in views:
        t = time.perf_counter()
        fn(view)
        out.append((time.perf_counter() - t) * 1000)
    return out


def loop_ms() -> float:
    """A fixed reference workload: the median of a few runs of a plain Python loop."""
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        acc = 0
        for i in range(200_000):
            acc += i & 7
        runs.append((time.perf_counter() - t) * 1000)
    return statistics.median(runs)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def rollouts_per_ms(bot: Any, views: list[SeatView]) -> tuple[float, float]:
    """Rollouts and worlds per millisecond of decision time on `views`."""
    rollouts = worlds = 0
    spent = 0.0
    for view in views:
        t = time.perf_counter()
        bot.choose_play(view)
        spent += (time.perf_counter() - t) * 1000
        rollouts += bot.last_rollouts
        worlds += bot.last_samples
    return rollouts / spent, worlds / spent


def decisions(args: argparse.Namespace) -> dict[str, Any]:
    plays, passes = collect_views(args.rules, args.deals)
    think = args.think_ms or None
    reference = loop_ms()
    h_ms = timed(HeuristicStrategy(1).choose_play, plays)
    s1_ms = timed(Search1Strategy(1, think_ms=think).choose_play, plays)
    s_ms = timed(SearchStrategy(1, think_ms=think).choose_play, plays)

    def pass_decision(view: SeatView) -> object:
        return decide(SearchStrategy(1, think_ms=think), view)

    p_ms = timed(pass_decision, passes)
    every = s_ms + p_ms
    fixed = [v for v in plays[:: max(1, len(plays) // 60)]]
    r1, w1 = rollouts_per_ms(Search1Strategy(1, think_ms=None, max_samples=30), fixed)
    r2, w2 = rollouts_per_ms(SearchStrategy(1, think_ms=None, max_samples=30), fixed)
    return {
        "rules": args.rules,
        "think_ms": args.think_ms,
        "play_decisions": len(plays),
        "pass_decisions": len(passes),
        "search_p50_ms": round(pct(s_ms, 0.5), 2),
        "search_p95_ms": round(pct(s_ms, 0.95), 2),
        "search_pass_p50_ms": round(pct(p_ms, 0.5), 2),
        "search_pass_p95_ms": round(pct(p_ms, 0.95), 2),
        "search_all_p95_ms": round(pct(every, 0.95), 2),
        "search_all_max_ms": round(max(every), 2),
        "search1_p50_ms": round(pct(s1_ms, 0.5), 2),
        "search1_p95_ms": round(pct(s1_ms, 0.95), 2),
        "heuristic_p50_ms": round(pct(h_ms, 0.5), 3),
        "loop_ref_ms": round(reference, 2),
        "search_all_p95_over_loop": round(pct(every, 0.95) / reference, 2),
        "rollouts_per_ms": {"search": round(r2, 2), "search1": round(r1, 2)},
        "worlds_per_ms": {"search": round(w2, 3), "search1": round(w1, 3)},
        "worlds_per_ms_ratio": round(w2 / w1, 2),
    }


def match_rate(args: argparse.Namespace) -> dict[str, Any]:
    """Rounds a second of whole games between four heuristic seats (what `leekha match`
    plays per task), and the same against the loop reference."""
    config: RulesConfig = PRESETS[args.rules]
    reference = loop_ms()
    rounds = 0
    g = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        game = Game(config, g)
        play_out(game, [HeuristicStrategy(g * 4 + s) for s in range(4)])
        rounds += len(game.history)
        g += 1
    rate = rounds / (time.perf_counter() - start)
    return {
        "rules": args.rules,
        "games": g,
        "rounds": rounds,
        "rounds_per_s": round(rate, 1),
        "loop_ref_ms": round(reference, 2),
        "rounds_per_loop_ref": round(rate * reference / 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--think-ms", type=float, default=50.0, help="0: no clock")
    parser.add_argument("--match-rate", action="store_true", help="four heuristic seats")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = match_rate(args) if args.match_rate else decisions(args)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
