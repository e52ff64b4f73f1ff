"""`leekha match`: an in-process arena that pits strategies against each other.

Games are the unit of work: game g gets a seed derived from (--seed, g) alone, so its deals
and its bots' random choices do not depend on which process plays it or in what order;
results are consumed in game order, which makes the output the same for any --jobs.

The round budget is exact. Games are played whole, one after another, and their rounds
counted in order; the game in progress when the budget runs out is cut there: its rounds
up to the limit count for points, but it counts neither as finished nor as won.

With --duplicate every game is played four times with the strategies rotated one seat
further each time, so every strategy holds every hand of the same deal sequence and the
luck of the cards cancels; differences are then paired per deal (game, round).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from leekha.client.i18n import _
from leekha.client.options import add_rules_arguments, default_help, rules_from_args, strategy_help
from leekha.common.bots.base import Strategy, make_strategy, play_out
from leekha.common.bots.search import SearchStrategy
from leekha.common.config import RulesConfig
from leekha.common.game import Game

MAX_GAME_ROUNDS = 500
Z95 = 1.959963984540054


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strategies",
        default="heuristic,random,random,random",
        metavar="S1,S2,S3,S4",
        help=default_help(
            _("the strategy of each of the four seats, comma-separated: ")
            + strategy_help(_(", or module:Class (importable by every worker)"))
        ),
    )
    parser.add_argument(
        "--rounds", type=int, default=1000, metavar="N",
        help=default_help(_("rounds to play in total")),
    )  # fmt: skip
    add_rules_arguments(parser)
    parser.add_argument("--seed", type=int, default=1, help=default_help(_("match seed")))
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help=_("play every game in all four seat rotations (rounds count each rotation)"),
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N",
        help=default_help(_("worker processes on this machine")),
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help=_("machine-readable output"))
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        metavar="MS",
        help=_(
            "time budget per decision of `search` seats, in milliseconds; 0 = no clock, "
            "use --samples (default: the strategy's own)"
        ),
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "most deals sampled per decision of `search` seats; with --budget-ms 0 a fixed "
            "count (default: the strategy's own)"
        ),
    )


@dataclass(frozen=True)
class Task:
    rules: dict[str, Any]
    specs: tuple[str, ...]  # strategy spec per seat
    game_seed: int
    strategy_seed: int
    budget_ms: float | None
    samples: int | None


@dataclass(frozen=True)
class GameResult:
    rounds: list[list[int]]  # per-round points per seat
    winners: list[int] | None  # None when the game did not finish


def _build(spec: str, seed: int, budget_ms: float | None, samples: int | None) -> Strategy:
    if spec == "search" and (budget_ms is not None or samples is not None):
        kwargs: dict[str, Any] = {}
        if budget_ms is not None:
            kwargs["think_ms"] = budget_ms if budget_ms > 0 else None
        if samples is not None:
            kwargs["max_samples"] = samples
        return SearchStrategy(seed, **kwargs)
    return make_strategy(spec, seed)


def play_game(task: Task) -> GameResult:
    config = RulesConfig.from_dict(task.rules)
    rng = random.Random(task.strategy_seed)
    strategies = [
        _build(spec, rng.getrandbits(62), task.budget_ms, task.samples) for spec in task.specs
    ]
    game = Game(config, task.game_seed)
    play_out(game, strategies, rounds=MAX_GAME_ROUNDS)
    winners = list(game.outcome.winners) if game.outcome else None
    return GameResult(rounds=[list(h) for h in game.history], winners=winners)


def derive_seed(*parts: int) -> int:
    """A 62-bit seed from a tuple; string seeding hashes with SHA-512, stable everywhere."""
    return random.Random(":".join(map(str, parts))).getrandbits(62)


def tasks(specs: Sequence[str], args: argparse.Namespace) -> Iterator[tuple[int, int, Task]]:
    rules = args.config.to_dict()
    rotations = 4 if args.duplicate else 1
    g = 0
    while True:
        game_seed = derive_seed(args.seed, g)
        for r in range(rotations):
            seats = tuple(specs[(s + r) % 4] for s in range(4))
            yield g, r, Task(rules, seats, game_seed, derive_seed(args.seed, g, r),
                             args.budget_ms, args.samples)
        g += 1


def results(
    specs: Sequence[str], args: argparse.Namespace
) -> Iterator[tuple[int, int, GameResult]]:
    """Game results in game order, computed inline or over a process pool."""
    if args.jobs <= 1:
        for g, r, task in tasks(specs, args):
            yield g, r, play_game(task)
        return
    window = args.jobs * 2
    source = tasks(specs, args)
    with ProcessPoolExecutor(args.jobs) as pool:
        pending: list[tuple[int, int, Future[GameResult]]] = []
        try:
            while True:
                while len(pending) < window:
                    g, r, task = next(source)
                    pending.append((g, r, pool.submit(play_game, task)))
                g, r, fut = pending.pop(0)
                yield g, r, fut.result()
        finally:
            for _, _, fut in pending:
                fut.cancel()


@dataclass
class Interval:
    mean: float
    half: float  # half-width of the 95% confidence interval
    n: int

    @classmethod
    def of(cls, xs: Sequence[float]) -> Interval:
        n = len(xs)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = sum(xs) / n
        if n < 2:
            return cls(mean, math.inf, n)
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        return cls(mean, Z95 * math.sqrt(var / n), n)


def collect(specs: Sequence[str], args: argparse.Namespace, progress: bool) -> dict[str, Any]:
    names = list(dict.fromkeys(specs))
    # deal (game, round) -> rotation -> per-seat points, with the spec index per seat.
    deals: dict[tuple[int, int], list[tuple[list[int], tuple[str, ...]]]] = {}
    finished = 0
    won = dict.fromkeys(names, 0)
    counted = 0
    for g, r, res in results(specs, args):
        seats = tuple(specs[(s + r) % 4] for s in range(4))
        take = min(len(res.rounds), args.rounds - counted)
        for k in range(take):
            deals.setdefault((g, k), []).append((res.rounds[k], seats))
        counted += take
        if take == len(res.rounds) and res.winners is not None:
            finished += 1
            for name in {seats[w] for w in res.winners}:
                won[name] += 1
        if progress:
            sys.stderr.write(f"\r  {counted}/{args.rounds} rounds")
            sys.stderr.flush()
        if counted >= args.rounds:
            break
    if progress:
        sys.stderr.write("\n")
    out: dict[str, Any] = {
        "seats": list(specs),
        "rules": args.rules,
        "rule_overrides": args.overrides,
        "seed": args.seed,
        "duplicate": bool(args.duplicate),
        "rounds": counted,
        "deals": len(deals),
        "games_finished": finished,
        "strategies": {},
    }
    for name in names:
        own: list[float] = []
        diff: list[float] = []
        for plays in deals.values():
            mine: list[float] = []
            gaps: list[float] = []
            for points, seats in plays:
                a = [points[s] for s in range(4) if seats[s] == name]
                b = [points[s] for s in range(4) if seats[s] != name]
                mine.append(sum(a) / len(a))
                if b:
                    gaps.append(sum(a) / len(a) - sum(b) / len(b))
            own.append(sum(mine) / len(mine))
            if gaps:
                diff.append(sum(gaps) / len(gaps))
        pts = Interval.of(own)
        d = Interval.of(diff)
        others = pts.mean - d.mean if diff else math.nan
        out["strategies"][name] = {
            "seats": specs.count(name),
            "points_per_round": round(pts.mean, 4),
            "points_ci95": round(pts.half, 4),
            "games_won": won[name],
            "diff_vs_others": round(d.mean, 4) if diff else None,
            "diff_ci95": round(d.half, 4) if diff else None,
            "relative_to_others": round(pts.mean / others - 1, 4) if diff and others else None,
        }
    return out


def format_report(report: dict[str, Any]) -> str:
    mode = "duplicate, " if report["duplicate"] else ""
    width = max(16, *(len(name) + 2 for name in report["strategies"]))
    rules = " ".join(
        [report["rules"], *(f"{k}={json.dumps(v)}" for k, v in report["rule_overrides"].items())]
    )
    lines = [
        f"{report['rounds']} rounds ({mode}{report['deals']} deals), rules {rules}, "
        f"seed {report['seed']}; {report['games_finished']} games finished",
        f"{'strategy':<{width}}{'seats':>6}{'pts/round':>12}{'±95%':>8}{'games won':>11}"
        f"{'vs others':>11}{'±95%':>8}{'relative':>10}",
    ]
    for name, s in report["strategies"].items():
        if s["diff_vs_others"] is None:
            tail = f"{'-':>11}{'':>8}{'':>10}"
        else:
            tail = (f"{s['diff_vs_others']:>+11.3f}{s['diff_ci95']:>8.3f}"
                    f"{s['relative_to_others']:>+10.1%}")
        lines.append(
            f"{name:<{width}}{s['seats']:>6}{s['points_per_round']:>12.3f}{s['points_ci95']:>8.3f}"
            f"{s['games_won']:>11}{tail}"
        )
    return "\n".join(lines)


def _fail(problem: str) -> int:
    print(_("leekha match: {problem}").format(problem=problem), file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    specs = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if len(specs) != 4:
        return _fail(_("--strategies needs exactly four strategies"))
    if args.rounds < 1:
        return _fail(_("--rounds must be at least 1"))
    try:
        args.config, args.overrides = rules_from_args(args)
        for spec in dict.fromkeys(specs):
            make_strategy(spec, 0)
    except ValueError as exc:
        return _fail(str(exc))
    progress = sys.stdout.isatty() and not args.json
    report = collect(specs, args, progress)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        print(format_report(report))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="leekha match", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
