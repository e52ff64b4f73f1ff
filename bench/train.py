"""Train the value network by self-play (Deep Monte-Carlo), as `net` ships it.

One command, reproducible from its seed, resumable, and it prints its progress:

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice -n 10 \\
        python bench/train.py --run runs/net --seed 1 --minutes 80
    python bench/train.py --run runs/net --resume --minutes 30   # carries on
    python bench/train.py --run runs/net --export common/bots/net.npz  # ship a checkpoint

Each generation plays `--games` self-play games in lock-step
(`leekha.common.bots.selfplay`, presets drawn per game, the classic rules most often),
adds every decision to a replay buffer and takes minibatch Adam steps on it, regressing
the round's points (the seat's, or its team's) on the information state and the chosen
move. Pure NumPy on one core: the network is small (a 917-256-128-1 perceptron) and
self-play, not the gradient, is most of the cost; a heavier library would buy little.

A checkpoint (weights, Adam moments, counters, the random generators' states, the
buffer) is written every `--checkpoint-minutes` and at the end; `--resume` carries on from
it exactly as if the run had not stopped, the clock aside (`--generations` is the
reproducible limit, `--minutes` a convenience). Every `--eval-every` generations the
network plays `--eval-deals` classic rounds against three heuristic seats, each deal in
all four seat rotations, and the learning curve (`curve.jsonl`) gets a line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from leekha.common.bots.base import Strategy, play_out
from leekha.common.bots.features import PLANES, SCALARS, WIDTH, expand
from leekha.common.bots.heuristic import HeuristicStrategy
from leekha.common.bots.net import NetStrategy, Network
from leekha.common.bots.selfplay import self_play
from leekha.common.config import PRESETS
from leekha.common.game import Game
from leekha.common.intervals import Interval

HIDDEN = (256, 128)
SCALE = 10.0  # targets are points / SCALE
# How often each preset is drawn for a self-play game.
PRESET_WEIGHTS = {
    "classic": 4,
    "levant": 1,
    "golden": 2,
    "partnership": 2,
    "idlib": 1,
    "idlib_talyeekh": 1,
}


class Trainer:
    """Weights, Adam state and replay buffer of one run."""

    def __init__(self, seed: int, capacity: int) -> None:
        rng = np.random.default_rng(seed)
        sizes = (WIDTH, *HIDDEN, 1)
        self.layers: list[np.ndarray[Any, Any]] = []
        for n_in, n_out in itertools.pairwise(sizes):
            self.layers.append(rng.normal(0, np.sqrt(2.0 / n_in), (n_in, n_out)).astype("f4"))
            self.layers.append(np.zeros(n_out, dtype="f4"))
        self.m = [np.zeros_like(a) for a in self.layers]
        self.v = [np.zeros_like(a) for a in self.layers]
        self.steps = 0
        self.generation = 0
        self.games = 0
        self.samples = 0
        self.seed = seed
        self.rng = rng
        self.py_rng = random.Random(seed)
        self.masks = np.zeros((capacity, PLANES), dtype=np.uint64)
        self.scalars = np.zeros((capacity, SCALARS), dtype=np.float32)
        self.targets = np.zeros(capacity, dtype=np.float32)
        self.filled = 0
        self.cursor = 0

    def network(self) -> Network:
        return Network([a.copy() for a in self.layers], {"scale": SCALE})

    def add(self, masks: np.ndarray[Any, Any], scalars: np.ndarray[Any, Any], y: Any) -> None:
        cap = self.masks.shape[0]
        for i in range(0, len(y), cap):
            m, s, t = masks[i : i + cap], scalars[i : i + cap], y[i : i + cap]
            idx = (self.cursor + np.arange(len(t))) % cap
            self.masks[idx], self.scalars[idx], self.targets[idx] = m, s, t
            self.cursor = int((self.cursor + len(t)) % cap)
            self.filled = min(cap, self.filled + len(t))

    def step(self, batch: int, lr: float) -> float:
        """One Adam step on a minibatch from the buffer; its mean squared error."""
        idx = self.rng.integers(0, self.filled, batch)
        x = expand(self.masks[idx], self.scalars[idx])
        y = self.targets[idx] / SCALE
        acts = [x]
        h = x
        n_layers = len(self.layers) // 2
        for k in range(n_layers):
            h = h @ self.layers[2 * k] + self.layers[2 * k + 1]
            if k < n_layers - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        err = acts[-1][:, 0] - y
        grad = (2.0 / batch) * err[:, None].astype("f4")
        grads: list[np.ndarray[Any, Any]] = [np.empty(0)] * len(self.layers)
        for k in reversed(range(n_layers)):
            grads[2 * k] = acts[k].T @ grad
            grads[2 * k + 1] = grad.sum(axis=0)
            if k:
                grad = (grad @ self.layers[2 * k].T) * (acts[k] > 0)
        self.steps += 1
        b1, b2 = 0.9, 0.999
        c1 = 1 - b1**self.steps
        c2 = 1 - b2**self.steps
        for i, g in enumerate(grads):
            self.m[i] = b1 * self.m[i] + (1 - b1) * g
            self.v[i] = b2 * self.v[i] + (1 - b2) * g * g
            self.layers[i] -= (lr * (self.m[i] / c1) / (np.sqrt(self.v[i] / c2) + 1e-8)).astype(
                "f4"
            )
        return float(np.mean(err * err))

    # ---- checkpoints -----------------------------------------------------------------
    def save(self, path: Path) -> None:
        tmp = path.with_suffix(".tmp.npz")
        arrays: dict[str, Any] = {f"layer{i}": a for i, a in enumerate(self.layers)}
        arrays |= {f"m{i}": a for i, a in enumerate(self.m)}
        arrays |= {f"v{i}": a for i, a in enumerate(self.v)}
        state = {
            "seed": self.seed,
            "steps": self.steps,
            "generation": self.generation,
            "games": self.games,
            "samples": self.samples,
            "filled": self.filled,
            "cursor": self.cursor,
            "rng": self.rng.bit_generator.state,
            "py_rng": repr(self.py_rng.getstate()),
        }
        arrays["state"] = np.frombuffer(json.dumps(state).encode(), dtype=np.uint8)
        arrays["masks"] = self.masks[: self.filled]
        arrays["scalars"] = self.scalars[: self.filled]
        arrays["targets"] = self.targets[: self.filled]
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)

    def load(self, path: Path) -> None:
        with np.load(path, allow_pickle=False) as npz:
            state = json.loads(bytes(npz["state"]).decode())
            count = len(self.layers)
            self.layers = [npz[f"layer{i}"] for i in range(count)]
            self.m = [npz[f"m{i}"] for i in range(count)]
            self.v = [npz[f"v{i}"] for i in range(count)]
            filled = state["filled"]
            self.masks[:filled] = npz["masks"]
            self.scalars[:filled] = npz["scalars"]
            self.targets[:filled] = npz["targets"]
        for key in ("seed", "steps", "generation", "games", "samples", "filled", "cursor"):
            setattr(self, key, state[key])
        self.rng.bit_generator.state = state["rng"]
        self.py_rng.setstate(_tuple_state(state["py_rng"]))


def _tuple_state(text: str) -> Any:
    import ast

    return ast.literal_eval(text)


def evaluate(network: Network, deals: int, seed: int = 900_000) -> dict[str, float]:
    """The network in one seat against three heuristic seats, classic, one round a deal in
    each of the four rotations: points a round and the paired difference per deal."""
    diffs: list[float] = []
    mine: list[float] = []
    for d in range(deals):
        per_rotation = []
        for r in range(4):
            bots: list[Strategy] = [HeuristicStrategy(d * 4 + s) for s in range(4)]
            bots[r] = NetStrategy(d, network)
            game = play_out(Game(PRESETS["classic"], seed + d), bots, rounds=1)
            scores = game.history[0]
            others = [scores[s] for s in range(4) if s != r]
            per_rotation.append((scores[r], statistics.fmean(others)))
        mine.append(statistics.fmean(a for a, _ in per_rotation))
        diffs.append(statistics.fmean(a - b for a, b in per_rotation))
    interval = Interval.of(diffs)
    others_mean = statistics.fmean(mine) - interval.mean
    return {
        "net_pts": round(statistics.fmean(mine), 3),
        "heuristic_pts": round(others_mean, 3),
        "diff": round(interval.mean, 3),
        "diff_ci95": round(interval.half, 3),
        "relative": round(interval.mean / others_mean, 4),
    }


def plot_curve(curve: Path, out: Path) -> None:
    """The learning curve: the network's points against three heuristic seats, relative
    to theirs, by games of self-play (needs matplotlib: `pip install 'leekha[plot]'`)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib: pip install 'leekha[plot]'")
    lines = [json.loads(line) for line in curve.read_text().splitlines() if line.strip()]
    lines = [line for line in lines if "eval" in line]  # distill runs may skip some points
    games = [line["games"] for line in lines]
    base = [line["eval"]["heuristic_pts"] for line in lines]
    rel = [100 * line["eval"]["relative"] for line in lines]
    half = [100 * line["eval"]["diff_ci95"] / b for line, b in zip(lines, base)]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.errorbar(games, rel, yerr=half, fmt="o-", capsize=3)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("games of training (self-play, or labelled by the search)")
    ax.set_ylabel("net vs 3 heuristic: points, %")
    ax.set_title("Learning curve (classic, duplicate rounds, 95% intervals)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110, metadata={"Software": None})
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, required=True, help="folder of the run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--generations", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=48, help="self-play games a generation")
    parser.add_argument("--reuse", type=float, default=3.0, help="times each sample is drawn")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--explore", type=float, default=0.08)
    parser.add_argument("--heuristic-share", type=float, default=0.25)
    parser.add_argument("--capacity", type=int, default=1_500_000)
    parser.add_argument("--checkpoint-minutes", type=float, default=10.0)
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--eval-deals", type=int, default=100)
    parser.add_argument("--export", type=Path, default=None, help="write the weights, stop")
    parser.add_argument("--plot", type=Path, default=None, help="plot curve.jsonl as PNG, stop")
    args = parser.parse_args()
    if args.plot:
        plot_curve(args.run / "curve.jsonl", args.plot)
        return
    args.run.mkdir(parents=True, exist_ok=True)
    checkpoint = args.run / "checkpoint.npz"
    trainer = Trainer(args.seed, args.capacity)
    if args.resume or args.export:
        if not checkpoint.exists():
            sys.exit(f"no checkpoint in {args.run}: start without --resume")
        trainer.load(checkpoint)
        print(f"resumed at generation {trainer.generation}, {trainer.games} games", flush=True)
    if args.export:
        network = trainer.network()
        network.meta |= {
            "version": f"seed{trainer.seed}-gen{trainer.generation}",
            "games": trainer.games,
            "samples": trainer.samples,
            "steps": trainer.steps,
        }
        args.export.write_bytes(network.to_bytes())
        print(f"wrote {args.export}: {network.meta['version']}, digest {network.digest}")
        return
    names = list(PRESET_WEIGHTS)
    weights = list(PRESET_WEIGHTS.values())
    start = time.monotonic()
    last_save = start
    curve = open(args.run / "curve.jsonl", "a")  # noqa: SIM115
    while trainer.generation < args.generations:
        if time.monotonic() - start > args.minutes * 60:
            break
        gen = trainer.generation
        player = trainer.network() if trainer.steps else None
        deals = [
            (PRESETS[trainer.py_rng.choices(names, weights)[0]], trainer.py_rng.randrange(1 << 30))
            for _ in range(args.games)
        ]
        t0 = time.process_time()
        batch = self_play(
            player,
            deals,
            trainer.py_rng.randrange(1 << 30),
            explore=args.explore,
            heuristic_share=args.heuristic_share,
        )
        masks, scalars, y = batch.arrays()
        trainer.add(masks, scalars, y)
        trainer.games += args.games
        trainer.samples += len(y)
        t1 = time.process_time()
        steps = max(1, int(len(y) * args.reuse / args.batch))
        lr = args.lr if trainer.samples < 5_000_000 else args.lr / 3
        losses = [trainer.step(args.batch, lr) for _ in range(steps)]
        t2 = time.process_time()
        trainer.generation += 1
        line: dict[str, Any] = {
            "generation": trainer.generation,
            "games": trainer.games,
            "samples": trainer.samples,
            "steps": trainer.steps,
            "loss": round(statistics.fmean(losses) * SCALE * SCALE, 3),
            "selfplay_s": round(t1 - t0, 2),
            "train_s": round(t2 - t1, 2),
            "minutes": round((time.monotonic() - start) / 60, 2),
        }
        if trainer.generation % args.eval_every == 0 or gen == 0:
            line["eval"] = evaluate(trainer.network(), args.eval_deals)
            curve.write(json.dumps(line) + "\n")
            curve.flush()
        print(json.dumps(line), flush=True)
        if time.monotonic() - last_save > args.checkpoint_minutes * 60:
            trainer.save(checkpoint)
            last_save = time.monotonic()
            snapshot = args.run / f"net-gen{trainer.generation}.npz"
            snapshot.write_bytes(trainer.network().to_bytes())
    trainer.save(checkpoint)
    (args.run / f"net-gen{trainer.generation}.npz").write_bytes(trainer.network().to_bytes())
    print(f"checkpoint at generation {trainer.generation}", flush=True)


if __name__ == "__main__":
    main()
