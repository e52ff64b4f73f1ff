"""One strength ladder for every tier: duplicate rounds rated with openskill.

    python bench/ladder.py --deals 300 --seed 1 --jobs 2 --plot docs/ladder.png \\
        random easy medium heuristic search1@5cpu search@5cpu search-eg@5cpu net hard@5cpu

Each deal seats four different tiers drawn from the list (seeded, so every pair meets
about as often) and is played in all four seat rotations, the first round of a classic
game each time, so every tier holds every hand of the deal. Every rotation is a
four-player match for openskill's Plackett-Luce model, ranked by the round's points
(fewer is better, equal points tie). Alongside the rating, each tier's points a round
against the mean of the other three seats on the same deal, paired, with its 95%
interval: the same scale as `leekha match --duplicate`'s "vs others".

Ratings update in deal order, so the result depends on the seed alone, not on `--jobs`.
The search tiers take a budget in CPU time (`@5cpu`: 5 ms of CPU a decision), so that
the other work on the machine takes nothing from them. `--plot` needs matplotlib
(`pip install 'leekha[plot]'`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from leekha.common.bots.base import make_strategy, play_out
from leekha.common.config import PRESETS
from leekha.common.game import Game
from leekha.common.intervals import Interval

Z95 = 1.96


def play_deal(task: tuple[list[str], str, int]) -> list[list[int]]:
    """The first round of deal `seed` with `tiers` rotated through the seats: the round
    points of each tier (in `tiers` order) in each rotation."""
    tiers, rules, seed = task
    out = []
    for r in range(4):
        seats = [tiers[(s - r) % 4] for s in range(4)]
        bots = [make_strategy(spec, seed * 16 + r * 4 + s) for s, spec in enumerate(seats)]
        game = play_out(Game(PRESETS[rules], seed), bots, rounds=1)
        scores = game.history[0]
        out.append([scores[(k + r) % 4] for k in range(4)])
    return out


def tables(tiers: list[str], deals: int, seed: int) -> list[list[str]]:
    """Four different tiers a deal, the pair counts kept even: each deal takes the tiers
    that have played least so far, ties broken at random."""
    rng = random.Random(seed)
    played = dict.fromkeys(tiers, 0)
    out = []
    for _ in range(deals):
        order = sorted(tiers, key=lambda t: (played[t], rng.random()))
        table = order[:4]
        rng.shuffle(table)
        for t in table:
            played[t] += 1
        out.append(table)
    return out


def ladder(args: argparse.Namespace) -> dict[str, Any]:
    if len(args.tiers) < 4:
        sys.exit("the ladder needs at least four tiers")
    for spec in args.tiers:
        try:
            make_strategy(spec)
        except ValueError as exc:
            sys.exit(str(exc))
    seats = tables(args.tiers, args.deals, args.seed)
    tasks = [(table, args.rules, args.seed * 100_000 + d) for d, table in enumerate(seats)]
    model = PlackettLuce()
    ratings = {t: model.rating(name=t) for t in args.tiers}
    diffs: dict[str, list[float]] = defaultdict(list)
    points: dict[str, list[float]] = defaultdict(list)
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, (table, result) in enumerate(zip(seats, pool.map(play_deal, tasks)), 1):
            for scores in result:
                teams = [[ratings[t]] for t in table]
                rated = model.rate(teams, ranks=[float(s) for s in scores])
                for t, team in zip(table, rated):
                    ratings[t] = team[0]
            for k, t in enumerate(table):
                mine = statistics.fmean(r[k] for r in result)
                others = statistics.fmean(r[j] for r in result for j in range(4) if j != k)
                points[t].append(mine)
                diffs[t].append(mine - others)
            if sys.stderr.isatty():
                print(f"\r{done}/{len(tasks)} deals", end="", file=sys.stderr, flush=True)
    rows = []
    for t in args.tiers:
        rating = ratings[t]
        interval = Interval.of(diffs[t])
        rows.append(
            {
                "tier": t,
                "mu": round(rating.mu, 2),
                "sigma": round(rating.sigma, 2),
                "ci95": round(Z95 * rating.sigma, 2),
                "ordinal": round(rating.ordinal(), 2),
                "deals": len(diffs[t]),
                "pts_per_round": round(statistics.fmean(points[t]), 3),
                "vs_others": round(interval.mean, 3),
                "vs_others_ci95": round(interval.half, 3),
            }
        )
    rows.sort(key=lambda row: -row["mu"])
    return {"rules": args.rules, "deals": args.deals, "seed": args.seed, "tiers": rows}


def table_text(result: dict[str, Any]) -> str:
    lines = [
        "| tier | rating (mu ± 95%) | deals | points a round | vs the other seats (±95%) |",
        "|---|---|---|---|---|",
    ]
    for row in result["tiers"]:
        lines.append(
            f"| `{row['tier']}` | {row['mu']:.1f} ± {row['ci95']:.1f} | {row['deals']} "
            f"| {row['pts_per_round']:.2f} "
            f"| {row['vs_others']:+.2f} ± {row['vs_others_ci95']:.2f} |"
        )
    return "\n".join(lines)


def plot(result: dict[str, Any], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib: pip install 'leekha[plot]'")
    rows = list(reversed(result["tiers"]))
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    ys = range(len(rows))
    ax.errorbar(
        [r["mu"] for r in rows], list(ys), xerr=[r["ci95"] for r in rows], fmt="o", capsize=4
    )
    ax.set_yticks(list(ys), [r["tier"] for r in rows])
    ax.set_xlabel("openskill rating (Plackett-Luce mu, 95% interval)")
    ax.set_title(f"Leekha tiers, {result['deals']} duplicate deals, {result['rules']} rules")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tiers", nargs="+", help="strategy specs, at least four")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--plot", type=Path, default=None, help="write the ladder as a PNG")
    args = parser.parse_args()
    result = ladder(args)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(json.dumps(result) if args.json else table_text(result))
    if args.plot:
        plot(result, args.plot)


if __name__ == "__main__":
    main()
