"""`leekha match`: an arena that pits strategies against each other, on the cores of this
machine (--jobs) or on a Dask cluster (--cluster).

Game g (the unit of work, see deal.py) gets its seeds from (--seed, g) alone and results
are consumed in game order, so the output is byte-identical for any --jobs, any cluster and
any number of workers, and re-running a task after a worker died changes nothing.

The round budget is exact. Games are played whole, one after another, and their rounds
counted in order; the game in progress when the budget runs out is cut there: its rounds
up to the limit count for points, but it counts neither as finished nor as won. With
--precision the match also stops after the first whole game at which the running 95%
interval is narrower than asked; that point too depends on the seed alone.

With --duplicate every game is played four times with the strategies rotated one seat
further each time, so every strategy holds every hand of the same deal sequence and the
luck of the cards cancels; differences are then paired per deal (game, round).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypedDict

from leekha.client.arena import runners
from leekha.client.arena.deal import DealTask, deal_task, rotation
from leekha.client.i18n import _, ngettext
from leekha.client.options import (
    SEED_MAX,
    add_number,
    add_rules_arguments,
    check_strategy,
    default_help,
    in_range,
    rules_from_args,
    strategy_help,
)
from leekha.common.intervals import Interval, Running

#: Deals needed before --precision may stop a match (an interval from a handful of deals
#: can be narrow by luck).
MIN_DEALS_FOR_PRECISION = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strategies",
        default="heuristic,random,random,random",
        metavar="S1,S2,S3,S4",
        help=default_help(
            _("four strategies, one per seat, comma-separated; each is ")
            + strategy_help(_(", or module:Class (importable by every worker)"))
        ),
    )
    add_number(parser, "--rounds", 1000, "N", _("rounds to play in total"), 1, 10**9)
    add_rules_arguments(parser)
    parser.add_argument(
        "--seed", type=in_range(0, SEED_MAX), default=1, help=default_help(_("match seed"))
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help=_("play every game in all four seat rotations (rounds count each rotation)"),
    )
    add_number(parser, "--jobs", 1, "N", _("worker processes on this machine"), 1, 1024)
    parser.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help=_(
            "play on a Dask cluster instead: a scheduler address (tcp://HOST:8786) or "
            "local[:N] for a cluster of N worker processes on this machine (default N: the "
            "number of cores); needs {install}. Workers must have leekha installed, and a "
            "module:Class strategy must be importable on every worker: install it there or "
            "ship it with --upload (Client.upload_file)"
        ).format(install=runners.INSTALL_DASK),
    )
    parser.add_argument(
        "--upload",
        action="append",
        default=[],
        metavar="FILE",
        help=_(
            "with --cluster: send a .py, .zip or .egg file to every worker, present and "
            "future, with Dask's Client.upload_file; repeatable"
        ),
    )
    parser.add_argument(
        "--precision",
        type=in_range(0.001, 1000, whole=False),
        default=None,
        metavar="POINTS",
        help=_(
            "stop early once the 95%% interval of the first strategy (its difference to the "
            "others; its points per round when all seats are alike) is narrower than "
            "±POINTS; --rounds stays the limit (default: play all --rounds)"
        ),
    )
    parser.add_argument("--json", action="store_true", help=_("machine-readable output"))
    parser.add_argument(
        "--budget-ms",
        type=in_range(0, 60_000, whole=False),
        default=None,
        metavar="MS",
        help=_(
            "time budget per decision of `search` seats, in milliseconds; 0 = no clock, "
            "use --samples (default: the strategy's own)"
        ),
    )
    parser.add_argument(
        "--samples",
        type=in_range(1, 10**6),
        default=None,
        metavar="N",
        help=_(
            "most deals sampled per decision of `search` seats; with --budget-ms 0 a fixed "
            "count (default: the strategy's own)"
        ),
    )


def deal_tasks(specs: Sequence[str], args: argparse.Namespace) -> Iterator[DealTask]:
    rules = args.config.to_dict()
    for g in itertools.count():
        yield deal_task(
            args.seed, g, tuple(specs), args.duplicate, rules, args.budget_ms, args.samples
        )


def results(specs: Sequence[str], args: argparse.Namespace) -> runners.Results:
    """Each game's results (one per rotation), in game order, from the chosen runner."""
    source = deal_tasks(specs, args)
    if args.cluster is not None:
        return runners.dask_cluster(source, args.cluster, args.upload)
    if args.jobs > 1:
        return runners.process_pool(source, args.jobs)
    return runners.inline(source)


# One rotation's points on a deal, with the strategy in each seat.
Play = tuple[list[int], tuple[str, ...]]


def deal_values(plays: Sequence[Play], name: str) -> tuple[float, float | None]:
    """`name`'s mean points on one deal, and its mean gap to the other seats on it (None
    when it holds every seat)."""
    mine: list[float] = []
    gaps: list[float] = []
    for points, seats in plays:
        a = [points[s] for s in range(4) if seats[s] == name]
        b = [points[s] for s in range(4) if seats[s] != name]
        mine.append(sum(a) / len(a))
        if b:
            gaps.append(sum(a) / len(a) - sum(b) / len(b))
    return sum(mine) / len(mine), (sum(gaps) / len(gaps) if gaps else None)


def _progress(deals: int, counted: int, args: argparse.Namespace, rate: float,
              name: str, running: Interval) -> None:  # fmt: skip
    dealt = ngettext("{n} deal", "{n} deals", deals).format(n=deals)
    rounds = ngettext("{rounds}/{total} round", "{rounds}/{total} rounds", args.rounds).format(
        rounds=counted, total=args.rounds
    )
    line = _("{deals}, {rounds}, {rate:.0f} rounds/s").format(deals=dealt, rounds=rounds, rate=rate)
    if running.n >= 2:
        line += _("; {name} {mean:+.3f} ±{half:.3f}").format(
            name=name, mean=running.mean, half=running.half
        )
        if args.precision is not None:
            line += _(" (goal ±{goal})").format(goal=args.precision)
    sys.stderr.write(f"\r  {line}\x1b[K")
    sys.stderr.flush()


class StrategyFigures(TypedDict):
    """One strategy's line of the report (`leekha match --json`)."""

    seats: int
    points_per_round: float
    points_ci95: float
    games_won: int
    diff_vs_others: float | None
    diff_ci95: float | None
    relative_to_others: float | None


class Report(TypedDict):
    """A match's report (`leekha match --json`), by strategy."""

    seats: list[str]
    rules: str
    rule_overrides: dict[str, object]
    seed: int
    duplicate: bool
    rounds: int
    deals: int
    games_finished: int
    precision: float | None
    stopped_early: bool
    strategies: dict[str, StrategyFigures]


def collect(specs: Sequence[str], args: argparse.Namespace, progress: bool) -> Report:
    names = list(dict.fromkeys(specs))
    first, paired = specs[0], len(names) > 1
    deals: dict[tuple[int, int], list[Play]] = {}
    finished = 0
    won = dict.fromkeys(names, 0)
    counted = 0
    running = Running()
    stopped_early = False
    started = time.monotonic()
    with contextlib.closing(results(specs, args)) as stream:
        for g, game in enumerate(stream):
            for r, res in enumerate(game):
                seats = rotation(tuple(specs), r)
                take = min(len(res.rounds), args.rounds - counted)
                for k in range(take):
                    deals.setdefault((g, k), []).append((res.rounds[k], seats))
                counted += take
                if take == len(res.rounds) and res.winners is not None:
                    finished += 1
                    for name in {seats[w] for w in res.winners}:
                        won[name] += 1
                if counted >= args.rounds:
                    break
            for k in range(max(len(res.rounds) for res in game)):
                if (g, k) in deals:
                    own, gap = deal_values(deals[g, k], first)
                    running.add(gap if paired and gap is not None else own)
            now = running.interval()
            if progress:
                rate = counted / max(1e-9, time.monotonic() - started)
                _progress(len(deals), counted, args, rate, first, now)
            if counted >= args.rounds:
                break
            enough = args.precision is not None and now.n >= MIN_DEALS_FOR_PRECISION
            if enough and now.half < args.precision:
                stopped_early = True
                break
    if progress:
        sys.stderr.write("\n")
    out: Report = {
        "seats": list(specs),
        "rules": args.rules,
        "rule_overrides": args.overrides,
        "seed": args.seed,
        "duplicate": bool(args.duplicate),
        "rounds": counted,
        "deals": len(deals),
        "games_finished": finished,
        "precision": args.precision,
        "stopped_early": stopped_early,
        "strategies": {},
    }
    for name in names:
        own_points: list[float] = []
        diff: list[float] = []
        for plays in deals.values():
            own, gap = deal_values(plays, name)
            own_points.append(own)
            if gap is not None:
                diff.append(gap)
        pts = Interval.of(own_points)
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


def format_report(report: Report) -> str:
    mode = "duplicate, " if report["duplicate"] else ""
    width = max(16, *(len(name) + 2 for name in report["strategies"]))
    rules = " ".join(
        [report["rules"], *(f"{k}={json.dumps(v)}" for k, v in report["rule_overrides"].items())]
    )
    lines = [
        f"{report['rounds']} rounds ({mode}{report['deals']} deals), rules {rules}, "
        f"seed {report['seed']}; {report['games_finished']} games finished"
        + (f"; stopped at ±{report['precision']}" if report["stopped_early"] else ""),
        f"{'strategy':<{width}}{'seats':>6}{'pts/round':>12}{'±95%':>8}{'games won':>11}"
        f"{'vs others':>11}{'±95%':>8}{'relative':>10}",
    ]
    for name, s in report["strategies"].items():
        if s["diff_vs_others"] is None:
            tail = f"{'-':>11}{'':>8}{'':>10}"
        else:
            tail = (
                f"{s['diff_vs_others']:>+11.3f}{s['diff_ci95']:>8.3f}"
                f"{s['relative_to_others']:>+10.1%}"
            )
        lines.append(
            f"{name:<{width}}{s['seats']:>6}{s['points_per_round']:>12.3f}{s['points_ci95']:>8.3f}"
            f"{s['games_won']:>11}{tail}"
        )
    return "\n".join(lines)


def _importable_here(uploads: Sequence[str]) -> None:
    """Make the modules shipped with --upload importable in this process too, where the
    strategies are checked before any work is sent."""
    for name in uploads:
        path = Path(name).expanduser().resolve()
        if not path.is_file() or path.suffix not in (".py", ".zip", ".egg"):
            raise ValueError(_("--upload {path}: not a .py, .zip or .egg file").format(path=name))
        entry = str(path.parent if path.suffix == ".py" else path)
        if entry not in sys.path:
            sys.path.insert(0, entry)


def _fail(problem: str) -> int:
    print(_("leekha match: {problem}").format(problem=problem), file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    specs = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if len(specs) != 4:
        return _fail(_("--strategies needs exactly four strategies"))
    if args.upload and args.cluster is None:
        return _fail(_("--upload needs --cluster"))
    if args.cluster is not None and args.jobs != 1:
        return _fail(_("--jobs and --cluster: give one of them"))
    try:
        if args.cluster is not None:
            args.cluster = runners.parse_cluster(args.cluster)
        _importable_here(args.upload)
        args.config, args.overrides = rules_from_args(args)
        for spec in dict.fromkeys(specs):
            check_strategy(spec, 0)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        report = collect(specs, args, progress=sys.stderr.isatty() and not args.json)
    except runners.RunnerError as exc:
        print(_("leekha match: {problem}").format(problem=exc), file=sys.stderr)
        return 1
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
