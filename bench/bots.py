"""Bot benchmarks: decision times of the tiers, rollout throughput, and match speed.

Machines are noisy, so besides milliseconds it prints ratios to references measured in
the same run: a fixed pure-Python loop, `search1` (today's baseline) on the same views,
and for the match rate the same games played the slow way (views and tracker rebuilt
from scratch at every decision). Run on one core (e.g. `taskset -c 0`) for the p95 budget.

    .venv/bin/python bench/bots.py --deals 20 --think-ms 50      # decisions, pass included
    .venv/bin/python bench/bots.py --deals 20 --think-ms 50 --cpu  # the same in CPU time
    .venv/bin/python bench/bots.py --match-rate --seconds 10     # four heuristic seats
    .venv/bin/python bench/bots.py --duel search@10cpu,search1@10cpu --games 60
    .venv/bin/python bench/bots.py --endgame --deals 40           # solve vs roll out a world

`--duel A,B` plays duplicate games, each deal in all four seat rotations: A in one seat
against three B (A, B, A, B with partners), and reports points a round and games won,
each as a paired difference per deal with its 95% interval.

Strength is measured with `leekha match --duplicate` (docs/bots.md gives the commands).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from leekha.common import cards as C
from leekha.common.bots.base import decide, make_strategy, play_out, view_config
from leekha.common.bots.endgame import Solver
from leekha.common.bots.heuristic import HeuristicStrategy, cached_rules
from leekha.common.bots.net import NetStrategy
from leekha.common.bots.policy import PlayPolicy
from leekha.common.bots.rollout import play_round
from leekha.common.bots.search import SearchStrategy
from leekha.common.bots.search1 import Search1Strategy, distinct_moves
from leekha.common.bots.tracker import Tracker
from leekha.common.config import PRESETS, RulesConfig
from leekha.common.game import OVER, PASS, Game
from leekha.common.intervals import Interval
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


def timed(
    fn: Callable[[SeatView], object],
    views: list[SeatView],
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    out = []
    for view in views:
        t = clock()
        fn(view)
        out.append((clock() - t) * 1000)
    return out


def loop_ms(clock: Callable[[], float] = time.perf_counter) -> float:
    """A fixed reference workload: the median of a few runs of a plain Python loop.

    Timed on the clock the figure it divides is timed on: a CPU-time rate over a
    wall-clock loop grew with the machine's load (the loop waits for the core, the CPU
    time does not), which made `--cpu` figures on a busy machine look better than quiet ones.
    """
    runs = []
    for _ in range(5):
        t = clock()
        acc = 0
        for i in range(200_000):
            acc += i & 7
        runs.append((clock() - t) * 1000)
    return statistics.median(runs)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def rollouts_per_ms(
    bot: Any, views: list[SeatView], clock: Callable[[], float] = time.perf_counter
) -> tuple[float, float]:
    """Rollouts and worlds per millisecond of decision time on `views`."""
    rollouts = worlds = 0
    spent = 0.0
    for view in views:
        t = clock()
        bot.choose_play(view)
        spent += (clock() - t) * 1000
        rollouts += bot.last_rollouts
        worlds += bot.last_samples
    return rollouts / spent, worlds / spent


def decisions(args: argparse.Namespace) -> dict[str, Any]:
    plays, passes = collect_views(args.rules, args.deals)
    think = args.think_ms or None
    clock = time.process_time if args.cpu else time.perf_counter
    cap: dict[str, Any] = {"max_samples": args.samples} if args.samples else {}
    cap["clock"] = clock
    reference = loop_ms(clock)
    h_ms = timed(HeuristicStrategy(1).choose_play, plays, clock)
    s1_ms = timed(Search1Strategy(1, think_ms=think, **cap).choose_play, plays, clock)
    tier: Any = type(make_strategy(args.tier))
    s_ms = timed(tier(1, think_ms=think, **cap).choose_play, plays, clock)

    def pass_decision(view: SeatView) -> object:
        return decide(tier(1, think_ms=think, **cap), view)

    p_ms = timed(pass_decision, passes, clock)
    every = s_ms + p_ms
    net = NetStrategy(1)
    net_ms = timed(net.choose_play, plays, clock) + timed(net.choose_pass, passes, clock)
    fixed = [v for v in plays[:: max(1, len(plays) // 60)]]
    r1, w1 = rollouts_per_ms(Search1Strategy(1, think_ms=None, max_samples=30), fixed, clock)
    r2, w2 = rollouts_per_ms(SearchStrategy(1, think_ms=None, max_samples=30), fixed, clock)
    return {
        "rules": args.rules,
        "tier": args.tier,
        "think_ms": args.think_ms,
        "clock": "cpu" if args.cpu else "wall",
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
        "net_p50_ms": round(pct(net_ms, 0.5), 3),
        "net_p95_ms": round(pct(net_ms, 0.95), 3),
        "net_max_ms": round(max(net_ms), 3),
        "loop_ref_ms": round(reference, 2),
        "search_all_p95_over_loop": round(pct(every, 0.95) / reference, 2),
        "rollouts_per_ms": {"search": round(r2, 2), "search1": round(r1, 2)},
        "worlds_per_ms": {"search": round(w2, 3), "search1": round(w1, 3)},
        "worlds_per_ms_ratio": round(w2 / w1, 2),
    }


def endgame_cost(args: argparse.Namespace) -> dict[str, Any]:
    """CPU time a world costs solved exactly (`endgame.Solver`) and rolled out with the
    heuristic (every distinct move, as `search` does), by cards left in the seat's hand:
    where solving inside the search's budget pays."""
    config = PRESETS[args.rules]
    by_cards: dict[int, list[SeatView]] = defaultdict(list)
    for seed in range(args.deals):
        game = Game(config, seed)
        bots = [HeuristicStrategy(seed * 4 + s) for s in range(4)]
        while game.phase != OVER and game.round_no < 1:
            seat = game.turn if game.phase != PASS else game.passed.index(None)
            assert seat is not None
            view = seat_view(game, seat)
            if game.phase != PASS and len(view.legal) > 1 and len(view.hand) <= 6:
                by_cards[len(view.hand)].append(view)
            for action in decide(bots[seat], view):
                game.apply(action)
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"rules": args.rules, "deals": args.deals, "cards": {}}
    clock = time.process_time
    for cards in sorted(by_cards):
        solve = roll = 0.0
        nodes = worlds = 0
        for view in by_cards[cards][:30]:
            tracker = Tracker(view)
            rules = cached_rules(view_config(view), C.mask_of(c for c, _ in view.doubled))
            moves = distinct_moves(view.legal_mask, tracker.unseen, rules.points)
            trick = [(s, c) for s, c in view.trick]
            taken = [C.mask_of(t) for t in view.taken]
            policy = PlayPolicy(rules, partners=config.partnership != "off")
            assert view.seat is not None
            for _ in range(5):
                world = tracker.deal(rng)
                t = clock()
                solver = Solver(rules, view.seat, partners=config.partnership != "off")
                solver.values(world, view.seat, trick, view.round_points, taken, moves)
                solve += clock() - t
                t = clock()
                for move in moves:
                    play_round(
                        rules,
                        policy,
                        list(world),
                        view.seat,
                        list(trick),
                        tracker.played,
                        list(view.round_points),
                        list(taken),
                        None,
                        move,
                    )
                roll += clock() - t
                nodes += solver.nodes
                worlds += 1
        out["cards"][cards] = {
            "positions": min(30, len(by_cards[cards])),
            "solve_ms_per_world": round(solve / worlds * 1000, 3),
            "rollouts_ms_per_world": round(roll / worlds * 1000, 3),
            "nodes_per_world": round(nodes / worlds),
        }
    return out


def match_rate(args: argparse.Namespace) -> dict[str, Any]:
    """Rounds a second of whole games between four heuristic seats (what `leekha match`
    plays per task), against two references measured in the same run: the same games
    played the slow way (every view built from scratch, the tracker rebuilt from the whole
    round at each decision; same decisions) and the plain loop. Runs alternate in slices
    of about a second; medians."""
    config: RulesConfig = PRESETS[args.rules]
    clock = time.process_time if args.cpu else time.perf_counter
    fast: list[float] = []
    slow: list[float] = []
    loops: list[float] = []
    games = 0
    spent = 0.0
    while spent < args.seconds:
        for rates, reference in ((fast, False), (slow, True)):
            rounds, g, start = 0, games, clock()
            while clock() - start < 0.5 or g == games:
                bots = [HeuristicStrategy(g * 4 + s, carry_on=not reference) for s in range(4)]
                game = play_out(Game(config, g), list(bots), fresh_views=reference)
                rounds += len(game.history)
                g += 1
            took = clock() - start
            spent += took
            rates.append(rounds / took)
        games = g
        loops.append(loop_ms(clock))
    rate, reference_rate, loop = (statistics.median(x) for x in (fast, slow, loops))
    return {
        "rules": args.rules,
        "clock": "cpu" if args.cpu else "wall",
        "slices": len(fast),
        "rounds_per_s": round(rate, 1),
        "slow_path_rounds_per_s": round(reference_rate, 1),
        "ratio_to_slow_path": round(rate / reference_rate, 2),
        "loop_ref_ms": round(loop, 2),
        "rounds_per_loop_ref": round(rate * loop / 1000, 2),
    }


def duel_game(task: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One game of deal set `g` in rotation `r`: per-round points of A and B seats, and
    whether A (or A's team) won."""
    a, b, rules, g, r = task
    config = PRESETS[rules]
    layout = [a, b, a, b] if config.partnership != "off" else [a, b, b, b]
    specs = [layout[(s - r) % 4] for s in range(4)]
    bots = [make_strategy(spec, g * 16 + r * 4 + s) for s, spec in enumerate(specs)]
    game = play_out(Game(config, 1_000_003 * g + 17), bots, rounds=500)
    is_a = [spec == a for spec in specs]
    rounds = []
    for scored in game.history:
        pa = [scored[s] for s in range(4) if is_a[s]]
        pb = [scored[s] for s in range(4) if not is_a[s]]
        rounds.append((sum(pa) / len(pa), sum(pb) / len(pb)))
    won: float | None = None
    if game.phase == OVER and game.outcome is not None:
        winners = game.outcome.winners
        wa = sum(1 for s in winners if is_a[s]) / is_a.count(True)
        wb = sum(1 for s in winners if not is_a[s]) / is_a.count(False)
        won = wa - wb
    return {"g": g, "rounds": rounds, "won": won}


def mean_ci(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, math.inf
    interval = Interval.of(xs)
    return interval.mean, interval.half


def duel(args: argparse.Namespace) -> dict[str, Any]:
    a, b = args.duel.split(",")
    tasks = [
        (a, b, args.rules, g, r) for g in range(args.seed, args.seed + args.games) for r in range(4)
    ]
    if args.replay:
        with open(args.replay) as f:
            results = [json.loads(line) for line in f if line.strip()]
    else:
        results = []
        log = open(args.log, "a") if args.log else None  # noqa: SIM115
        with ProcessPoolExecutor(args.jobs) as pool:
            for res in pool.map(duel_game, tasks):
                results.append(res)
                if log:
                    log.write(json.dumps(res) + "\n")
                    log.flush()
        if log:
            log.close()
    return duel_report(a, b, args.rules, results)


def duel_report(a: str, b: str, rules: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    per_deal: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)
    per_set: dict[int, list[float]] = defaultdict(list)
    for res in results:
        for k, (pa, pb) in enumerate(res["rounds"]):
            per_deal[res["g"], k].append((pa, pb))
        if res["won"] is not None:
            per_set[res["g"]].append(res["won"])
    diffs = [statistics.fmean(x - y for x, y in v) for v in per_deal.values()]
    pts_a = statistics.fmean(x for v in per_deal.values() for x, _ in v)
    pts_b = statistics.fmean(y for v in per_deal.values() for _, y in v)
    diff, ci = mean_ci(diffs)
    wins = [statistics.fmean(v) for v in per_set.values()]
    wdiff, wci = mean_ci(wins)
    finished = sum(len(v) for v in per_set.values())
    won_a = sum(1 for res in results if res["won"] is not None and res["won"] > 0)
    return {
        "a": a,
        "b": b,
        "rules": rules,
        "games": len(results),
        "games_finished": finished,
        "rounds": sum(len(res["rounds"]) for res in results),
        "deals": len(per_deal),
        "a_pts_per_round": round(pts_a, 3),
        "b_pts_per_round": round(pts_b, 3),
        "diff_pts": round(diff, 3),
        "diff_pts_ci95": round(ci, 3),
        "relative": round(diff / pts_b, 4) if pts_b else None,
        "relative_ci95": round(ci / pts_b, 4) if pts_b else None,
        "games_a_won": won_a,
        "win_rate_diff": round(wdiff, 4),
        "win_rate_diff_ci95": round(wci, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--think-ms", type=float, default=50.0, help="0: no clock")
    parser.add_argument("--samples", type=int, default=None, help="max worlds a decision")
    parser.add_argument("--tier", default="search", help="the search tier to time")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="budgets and timings in CPU time",
    )
    parser.add_argument("--match-rate", action="store_true", help="four heuristic seats")
    parser.add_argument("--endgame", action="store_true", help="solving vs rolling out a world")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--duel", default=None, metavar="A,B", help="A in one seat vs 3 B")
    parser.add_argument("--games", type=int, default=20, help="deal sets (x4 rotations)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", default=None, help="append each game's result (JSON lines)")
    parser.add_argument("--replay", default=None, help="report on a --log file so far")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    run = (
        duel
        if args.duel
        else match_rate
        if args.match_rate
        else endgame_cost
        if args.endgame
        else decisions
    )
    result = run(args)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
