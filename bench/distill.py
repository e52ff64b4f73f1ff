"""Distillation (issue 39): label decisions with the search, train the network on them.

    python bench/distill.py label --out runs/d1/data --shards 400 --workers 2
    python bench/distill.py train --data runs/d1/data --run runs/d1 --minutes 120
    python bench/distill.py train --data runs/d1/data --run runs/d1 --resume --minutes 60
    python bench/distill.py export --run runs/d1 --out runs/d1/net.npz
    python bench/distill.py evaluate --weights runs/d1/net.npz --games 100 --seed 39001
    python bench/distill.py label --out runs/d2/data --expert search-net \\
        --net runs/d1/net.npz --shards 400 --workers 2        # generation 2's expert
    python bench/train.py --run runs/d1 --plot runs/d1/curve.png   # the learning curve
    python bench/distill.py ensemble --out runs/d1/net.npz --version V a.npz b.npz

`label` plays games in which the expert decides at most seats (the heuristic at the
others, `--heuristic-share`), the presets drawn as `bench/train.py`'s `PRESET_WEIGHTS`,
and writes every searched decision (`leekha.common.bots.labels`) to a shard,
`shard-NNNNN.npz`, of `--games` games each, seeded by the shard's number: a rerun
skips the shards already written, so it resumes where it stopped, and more shards are
more data of the same kind. `--workers` processes, one a core. `--samples` gives the
search a fixed number of worlds a decision (no clock: reproducible); without it the
expert keeps its budget. `--net` names the weights every tier that uses the network
plays (`LEEKHA_NET_WEIGHTS`), so generation N+1 is labelled by generation N's network.

`train` and `export` need PyTorch (`pip install -e '.[train]'`, the CPU build);
`bench/apprentice.py` says what they do. `evaluate` is `bench/bots.py --duel
net,heuristic` (duplicate deals, all seat rotations, 95% intervals) on the given weights,
with the network's decision times. `ensemble` writes one weights file whose output is the
mean of several trained networks' (`Network.mean`): independently trained members err
differently, and their mean is the cheapest gain left once the data is over-fitted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from leekha.common.bots.base import StrategyError, make_strategy
from leekha.common.bots.labels import Arrays, Expert, concat, label_games
from leekha.common.bots.net import WEIGHTS_ENV, NetStrategy, Network, WeightsError, shipped
from leekha.common.config import PRESETS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import PRESET_WEIGHTS


def shard_path(folder: Path, index: int) -> Path:
    return folder / f"shard-{index:05d}.npz"


def build_expert(spec: str, samples: int | None, seed: int) -> Expert:
    """The expert of `spec`, with `samples` worlds a decision and no clock if given."""
    strategy: Any = make_strategy(spec, seed)
    if samples:
        strategy = type(strategy)(seed, think_ms=None, max_samples=samples)
    if not hasattr(strategy, "last_means"):
        raise StrategyError("{spec!r} is not a search: it reports no values", spec=spec)
    return strategy  # type: ignore[no-any-return]


def label_shard(task: tuple[dict[str, Any], int]) -> dict[str, Any]:
    """Play and label one shard's games and write the shard; its counts."""
    opts, index = task
    seed = opts["seed"] * 1_000_003 + index
    rng = random.Random(seed)
    names = list(PRESET_WEIGHTS)
    deals = [
        (PRESETS[rng.choices(names, list(PRESET_WEIGHTS.values()))[0]], rng.randrange(1 << 30))
        for _ in range(opts["games"])
    ]
    start = time.process_time()
    out = label_games(
        lambda s: build_expert(opts["expert"], opts["samples"], s),
        deals,
        seed,
        explore=opts["explore"],
        heuristic_share=opts["heuristic_share"],
        max_rounds=opts["max_rounds"],
    )
    cpu = time.process_time() - start
    arrays: dict[str, Any] = out.arrays()
    meta = dict(opts, shard=index, shard_seed=seed, games=out.games, rounds=out.rounds, cpu_s=cpu)
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    path = shard_path(Path(opts["out"]), index)
    tmp = path.with_suffix(".tmp.npz")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, **arrays)
    os.replace(tmp, path)
    return {"shard": index, "decisions": len(out), "games": out.games, "cpu_s": round(cpu, 2)}


def load_shards(*folders: Path, first: int | None = None) -> tuple[Arrays, list[dict[str, Any]]]:
    """Every shard in `folders` (the first `first` of each, if given), as one set of
    arrays, and each shard's meta."""
    parts: list[Arrays] = []
    metas: list[dict[str, Any]] = []
    for folder in folders:
        paths = [p for p in sorted(folder.glob("shard-*.npz")) if not p.name.endswith(".tmp.npz")]
        for path in paths[:first]:
            _load_shard(path, parts, metas)
    return concat(parts), metas


def _load_shard(path: Path, parts: list[Arrays], metas: list[dict[str, Any]]) -> None:
    with np.load(path, allow_pickle=False) as npz:
        parts.append({k: npz[k] for k in npz.files if k != "meta"})
        meta = json.loads(bytes(npz["meta"]).decode())
        metas.append(dict(meta, decisions=len(parts[-1]["choice"])))


def label(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    if args.net:
        os.environ[WEIGHTS_ENV] = str(args.net.resolve())
    try:
        shipped.cache_clear()
        shipped()
        build_expert(args.expert, args.samples, 0)
    except (StrategyError, WeightsError) as exc:
        sys.exit(str(exc))
    opts = {
        "out": str(args.out),
        "seed": args.seed,
        "games": args.games,
        "expert": args.expert,
        "samples": args.samples,
        "net": str(args.net) if args.net else None,
        "explore": args.explore,
        "heuristic_share": args.heuristic_share,
        "max_rounds": args.max_rounds,
    }
    todo = [i for i in range(args.shards) if not shard_path(args.out, i).exists()]
    print(f"{args.shards - len(todo)} shards already there, {len(todo)} to label", flush=True)
    start = time.monotonic()
    decisions = cpu = 0.0
    with Pool(args.workers) as pool:
        for done in pool.imap_unordered(label_shard, [(opts, i) for i in todo]):
            decisions += done["decisions"]
            cpu += done["cpu_s"]
            done["decisions_per_cpu_s"] = round(decisions / max(cpu, 1e-9), 2)
            done["minutes"] = round((time.monotonic() - start) / 60, 2)
            print(json.dumps(done), flush=True)


def evaluate(args: argparse.Namespace) -> None:
    """`bench/bots.py`'s duel and decision timing, on `--weights`."""
    from bots import collect_views, duel, pct, timed

    os.environ[WEIGHTS_ENV] = str(args.weights.resolve())
    shipped.cache_clear()
    try:
        network = shipped()
    except WeightsError as exc:
        sys.exit(str(exc))
    plays, passes = collect_views(args.rules, args.timing_deals)
    net = NetStrategy(1, network)
    clock = time.process_time
    ms = timed(net.choose_play, plays, clock) + timed(net.choose_pass, passes, clock)
    duel_args = argparse.Namespace(
        duel="net,heuristic",
        rules=args.rules,
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        replay=None,
        log=args.log,
    )
    result = {
        "weights": str(args.weights),
        "version": network.meta.get("version"),
        "digest": network.digest,
        "net_decisions_timed": len(ms),
        "net_p50_cpu_ms": round(pct(ms, 0.5), 3),
        "net_p95_cpu_ms": round(pct(ms, 0.95), 3),
        "net_max_cpu_ms": round(max(ms), 3),
        **duel(duel_args),
    }
    print(json.dumps(result, indent=1))


def ensemble(args: argparse.Namespace) -> None:
    """`Network.mean` of the members, written as one weights file."""
    try:
        members = [Network.from_bytes(path.read_bytes()) for path in args.members]
        meta = {
            "version": args.version,
            "members": [m.meta.get("version") for m in members],
            "experts": members[0].meta.get("experts", []),
        }
        network = Network.mean(members, meta)
    except (OSError, ValueError) as exc:
        sys.exit(f"cannot build the ensemble: {exc}")
    args.out.write_bytes(network.to_bytes())
    widths = [a.shape[1] for a in network.layers[::2]]
    print(json.dumps({"out": str(args.out), "version": args.version, "widths": widths}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("label", help="label decisions with the search")
    p.add_argument("--out", type=Path, required=True, help="folder of the shards")
    p.add_argument("--shards", type=int, default=10)
    p.add_argument("--games", type=int, default=4, help="games a shard")
    p.add_argument("--workers", type=int, default=1, help="processes, one a core")
    p.add_argument("--seed", type=int, default=39)
    p.add_argument("--expert", default="search", help="a search tier's spec")
    p.add_argument("--samples", type=int, default=None, help="worlds a decision, no clock")
    p.add_argument("--net", type=Path, default=None, help="weights for the expert's network")
    p.add_argument("--explore", type=float, default=0.05)
    p.add_argument("--heuristic-share", type=float, default=0.25)
    p.add_argument("--max-rounds", type=int, default=60, help="rounds a game at most")
    p = sub.add_parser("train", help="train the network on labelled decisions (torch)")
    p = sub.add_parser("export", help="write a run's weights as net.npz (torch)")
    p = sub.add_parser("evaluate", help="net with these weights vs 3 heuristic")
    p.add_argument("--weights", type=Path, required=True)
    p.add_argument("--games", type=int, default=100, help="deal sets (x4 rotations)")
    p.add_argument("--seed", type=int, default=39_001, help="fresh for each measurement")
    p.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--timing-deals", type=int, default=5, help="deals of decisions timed")
    p.add_argument("--log", default=None, help="append each game's result (JSON lines)")
    p = sub.add_parser("ensemble", help="one net.npz whose output is the members' mean")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--version", required=True, help="the version the weights file records")
    p.add_argument("members", type=Path, nargs="+", help="weights files of the same depth")
    if len(sys.argv) > 1 and sys.argv[1] in ("train", "export"):
        try:
            import apprentice
        except ImportError as exc:
            sys.exit(f"{sys.argv[1]} needs PyTorch: pip install -e '.[train]' ({exc})")
        apprentice.main(sys.argv[1:])
        return
    args = parser.parse_args()
    if args.command == "label":
        label(args)
    elif args.command == "ensemble":
        ensemble(args)
    else:
        evaluate(args)


if __name__ == "__main__":
    main()
