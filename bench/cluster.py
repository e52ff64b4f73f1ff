"""Rounds per second of `leekha match` on its three runners, in one run: inline (`--jobs 1`),
a process pool (`--jobs N`) and a Dask LocalCluster (`--cluster local:N`).

The goal (issue 17): the local cluster reaches >= 0.85x the rounds per second of `--jobs`
at the same worker count. Every runner plays the same deal tasks (games in all four
rotations) through the same ordered stream the match reads; a cluster is started before its
clock starts, since its start-up is paid once per evaluation (printed apart). It also times
the scheduler's overhead per task with trivial tasks, and from that and the cost of one deal
task estimates, on paper, how far adding workers keeps paying.

    .venv/bin/python bench/cluster.py --games 16 --repeat 3
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from leekha.client.arena import runners
from leekha.client.arena.deal import DealTask, deal_task
from leekha.common.config import PRESETS

Runner = Callable[[Iterator[DealTask]], runners.Results]


def tasks(args: argparse.Namespace) -> Iterator[DealTask]:
    specs = tuple(args.strategies.split(","))
    rules = PRESETS[args.rules].to_dict()
    for g in itertools.count():
        yield deal_task(args.seed, g, specs, True, rules)


def measure(runner: Runner, args: argparse.Namespace) -> tuple[int, float]:
    """Rounds played in `args.games` deal tasks, and the seconds they took."""
    start = time.perf_counter()
    stream = runner(tasks(args))
    rounds = sum(sum(len(r.rounds) for r in game) for game in itertools.islice(stream, args.games))
    stream.close()
    return rounds, time.perf_counter() - start


def scheduler_overhead_s(client: Any, n: int = 400) -> float:
    """Seconds per trivial task, submitted and gathered one window at a time as the match
    does (the scheduler's and the round trip's share of every deal task)."""
    start = time.perf_counter()
    for chunk in range(0, n, 8):
        client.gather(client.map(abs, range(-chunk - 8, -chunk), pure=False))
    return (time.perf_counter() - start) / n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16, help="deal tasks per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements per runner")
    parser.add_argument("--workers", type=int, default=2, help="largest worker count")
    parser.add_argument("--strategies", default="heuristic,random,random,random")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    distributed = runners.dask_module()
    counts = list(range(1, args.workers + 1))
    started, clusters, clients = {}, {}, {}
    for n in counts:
        t0 = time.perf_counter()
        clusters[n] = runners.local_cluster(n)
        clients[n] = distributed.Client(clusters[n].scheduler_address, set_as_default=False)
        started[n] = time.perf_counter() - t0

    def on_cluster(n: int) -> Runner:
        return lambda source: runners.on_client(clients[n], source, distributed.KilledWorker)

    def _pool(n: int) -> Runner:
        return lambda source: runners.process_pool(source, n)

    measures: dict[str, Runner] = {"jobs 1": runners.inline}
    for n in counts[1:]:
        measures[f"jobs {n}"] = _pool(n)
    for n in counts:
        measures[f"local:{n}"] = on_cluster(n)
    samples: dict[str, list[float]] = {name: [] for name in measures}
    rounds = 0
    try:
        for _ in range(args.repeat):
            for name, runner in measures.items():
                rounds, seconds = measure(runner, args)
                samples[name].append(rounds / seconds)
        overhead = scheduler_overhead_s(clients[counts[-1]])
    finally:
        for name in list(logging.root.manager.loggerDict):
            if name.startswith("distributed"):  # each close restores its INFO lines
                logging.getLogger(name).setLevel(logging.ERROR)
        for n in counts:
            clients[n].close()
            clusters[n].close()

    rate = {name: statistics.median(xs) for name, xs in samples.items()}
    top = counts[-1]
    deal_s = rounds / args.games / rate["jobs 1"]  # the same tasks every time
    versus = rate[f"local:{top}"] / rate[f"jobs {top}"] if top > 1 else None
    result: dict[str, Any] = {
        "rounds_per_s": {k: round(v, 1) for k, v in rate.items()},
        "cluster_vs_jobs": round(versus, 3) if versus is not None else None,
        "scaling_local": {n: round(rate[f"local:{n}"] / rate["local:1"], 3) for n in counts},
        "cluster_start_s": {n: round(s, 2) for n, s in started.items()},
        "deal_task_s": round(deal_s, 4),
        "scheduler_overhead_ms_per_task": round(overhead * 1000, 3),
        "workers_before_scheduler_bound": int(deal_s / overhead) if overhead else None,
        "games": args.games,
        "repeat": args.repeat,
        "strategies": args.strategies,
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    for name, r in rate.items():
        print(f"{name:>9}: {r:8.1f} rounds/s  ({r / rate['jobs 1']:.2f}x jobs 1)")
    if top > 1:
        print(f"local:{top} / jobs {top}: {result['cluster_vs_jobs']:.3f} (goal >= 0.85)")
    print(f"cluster start-up: {result['cluster_start_s']} s")
    print(
        f"one deal task: {deal_s * 1000:.1f} ms; scheduler overhead: {overhead * 1000:.2f} ms "
        f"a task; the scheduler bounds throughput past ~{result['workers_before_scheduler_bound']}"
        " single-threaded workers"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
