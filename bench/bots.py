"""Decision-time benchmark for the bot tiers: p50/p95 per decision, and ratios.

Machines are noisy, so besides milliseconds it prints the search time as a ratio to
references measured in the same run: the heuristic's decision time on the same views and
a fixed pure-Python loop. Run on one core (e.g. `taskset -c 0`) for the p95 budget.

    .venv/bin/python bench/bots.py --deals 20 --think-ms 50
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from leekha.common.bots.base import decide
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.search import SearchStrategy
from leekha.common.config import PRESETS
from leekha.common.game import OVER, PASS, Game
from leekha.common.view import SeatView, seat_view


def collect_views(rules: str, deals: int) -> list[SeatView]:
    """Play-phase views with a real choice, from heuristic-vs-heuristic rounds."""
    views: list[SeatView] = []
    for seed in range(deals):
        game = Game(PRESETS[rules], seed)
        bots = [HeuristicStrategy(seed * 4 + s) for s in range(4)]
        while game.phase != OVER and game.round_no < 1:
            seats = [s for s in range(4) if game.passed[s] is None] if game.phase == PASS else [
                game.turn]
            for seat in seats:
                assert seat is not None
                view = seat_view(game, seat)
                if game.phase != PASS and len(view.legal) > 1:
                    views.append(view)
                for action in decide(bots[seat], view):
                    game.apply(action)
    return views


def timed(fn: Callable[[SeatView], int], views: list[SeatView]) -> list[float]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--think-ms", type=float, default=50.0, help="0: no clock")
    parser.add_argument("--samples", type=int, default=None, help="max deals per decision")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    views = collect_views(args.rules, args.deals)
    think_ms: float | None = args.think_ms or None
    if args.samples:
        search = SearchStrategy(1, think_ms=think_ms, max_samples=args.samples)
    else:
        search = SearchStrategy(1, think_ms=think_ms)
    heuristic = HeuristicStrategy(1)
    reference = loop_ms()
    h_ms = timed(heuristic.choose_play, views)
    s_ms = timed(search.choose_play, views)
    result = {
        "decisions": len(views),
        "think_ms": args.think_ms,
        "samples": args.samples,
        "search_p50_ms": round(pct(s_ms, 0.5), 2),
        "search_p95_ms": round(pct(s_ms, 0.95), 2),
        "search_max_ms": round(max(s_ms), 2),
        "heuristic_p50_ms": round(pct(h_ms, 0.5), 3),
        "heuristic_p95_ms": round(pct(h_ms, 0.95), 3),
        "loop_ref_ms": round(reference, 2),
        "search_p95_over_loop": round(pct(s_ms, 0.95) / reference, 2),
        "search_p50_over_heuristic_p50": round(pct(s_ms, 0.5) / pct(h_ms, 0.5), 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>32}: {value}")


if __name__ == "__main__":
    main()
