"""Train the network to imitate the search (the ExIt apprentice), on PyTorch's CPU build.

Run through `bench/distill.py train` and `bench/distill.py export` (its docstring has
the commands in order). Inference stays NumPy (`leekha.common.bots.net`): `export`
writes the same `net.npz` (layers, scale, version, digest) that it reads, whatever the
hidden widths (`--hidden 512,128` for a wider first layer).

The model is the same ReLU perceptron as `net.Network`, its output the expected points
of the candidate divided by `SCALE`. Minibatches are decisions (all their candidates):
- **values**: squared error of each candidate's points against minus the search's mean
  over its worlds, where those are round points (`near` is false; near the end of a
  game the search scores the game's utility, on another scale, and only the choice is
  learned there);
- **choice**: cross-entropy of a softmax over the decision's candidates, logits minus
  the points over `--temperature`, against the search's choice (ExIt's apprentice loss).
Loss = values + `--choice-weight` × choice.

Starts from `--init` (the shipped weights by default, when the widths match; `none`:
random). A checkpoint (`checkpoint.pt`: model, optimizer, step, the data cursor, the
random generators) is written every `--checkpoint-minutes` and at the end, with the
weights of that step (`net-stepN.npz`); `--resume` carries on from it. The decisions
are visited in a shuffled order per epoch, seeded by `--seed` and the epoch; if shards
were added since the checkpoint, the next epoch begins with them. The first shard is
held out (the validation loss and how often the apprentice picks the search's choice);
every `--eval-every` steps the network plays `--eval-deals` classic deals against three
heuristic seats (`bench/train.py`'s `evaluate`), and `curve.jsonl` gets a line that
`bench/train.py --plot` draws against the labelled games trained on.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from leekha.common.bots.features import WIDTH
from leekha.common.bots.labels import Arrays, inputs
from leekha.common.bots.net import Network, WeightsError, shipped

SCALE = 10.0  # the network's output is points / SCALE, as bench/train.py trains it


def build(hidden: tuple[int, ...]) -> nn.Sequential:
    mods: list[nn.Module] = []
    n_in = WIDTH
    for h in hidden:
        mods += [nn.Linear(n_in, h), nn.ReLU()]
        n_in = h
    mods.append(nn.Linear(n_in, 1))
    return nn.Sequential(*mods)


def default_hidden(args: Any) -> str:
    """The hidden widths of the weights a run starts from (`--init`), or 256,128 from none."""
    spec = getattr(args, "init", "none")
    if spec == "none":
        return "256,128"
    network = shipped() if spec == "shipped" else Network.from_bytes(Path(spec).read_bytes())
    return ",".join(str(a.shape[1]) for a in network.layers[0:-2:2])


def linears(model: nn.Sequential) -> list[nn.Linear]:
    return [m for m in model if isinstance(m, nn.Linear)]


def load_network(model: nn.Sequential, network: Network) -> None:
    """Copy `net.Network` layers (in × out matrices and biases) into the model."""
    with torch.no_grad():
        for lin, (w, b) in zip(linears(model), zip(network.layers[::2], network.layers[1::2])):
            if tuple(lin.weight.shape) != (w.shape[1], w.shape[0]):
                raise WeightsError(f"widths differ: {tuple(lin.weight.shape)} vs {w.shape}")
            lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(w.T)))
            lin.bias.copy_(torch.from_numpy(b))


def to_network(model: nn.Sequential, meta: dict[str, Any]) -> Network:
    layers = []
    for lin in linears(model):
        layers.append(lin.weight.detach().numpy().T.copy())
        layers.append(lin.bias.detach().numpy().copy())
    return Network(layers, dict(meta, scale=SCALE))


def losses(
    model: nn.Sequential, data: Arrays, idx: np.ndarray[Any, Any], temperature: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Values loss, choice loss, and the share of decisions whose best-scored candidate
    is the search's choice, on decisions `idx`."""
    x, owner, cand = inputs(data, idx)
    out = model(torch.from_numpy(x))[:, 0]
    target = torch.from_numpy(-data["values"][cand] / SCALE)
    points = torch.from_numpy(~data["near"][idx][owner])
    sq = (out - target) ** 2
    value_loss = (sq * points).sum() / points.sum().clamp(min=1)
    counts = data["start"][idx + 1] - data["start"][idx]
    width = int(counts.max())
    col = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    logits = torch.full((len(idx), width), -torch.inf)
    logits[torch.from_numpy(owner), torch.from_numpy(col)] = -out * (SCALE / temperature)
    choice = torch.from_numpy(data["choice"][idx].astype(np.int64))
    choice_loss = nn.functional.cross_entropy(logits, choice)
    agree = (logits.argmax(dim=1) == choice).float().mean()
    return value_loss, choice_loss, agree


class Run:
    """One training run's model, optimizer and cursor; saved and resumed as a whole."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.hidden = tuple(int(h) for h in (args.hidden or default_hidden(args)).split(","))
        torch.manual_seed(args.seed)
        self.model = build(self.hidden)
        # AdamW: with --weight-decay 0 it is Adam itself; the decay (decoupled from the
        # gradient) is what holds a network this wide back from learning the positions
        # by heart once the labelled decisions are fewer than its weights.
        self.opt = torch.optim.AdamW(
            self.model.parameters(), lr=args.lr, weight_decay=args.weight_decay
        )
        self.step = 0
        self.epoch = 0
        self.cursor = 0
        self.size = 0
        self.seen = 0  # decisions trained on, repeats counted
        self._order: tuple[int, int, np.ndarray[Any, Any]] | None = None

    def init_weights(self, spec: str) -> None:
        if spec == "none":
            return
        network = shipped() if spec == "shipped" else Network.from_bytes(Path(spec).read_bytes())
        load_network(self.model, network)

    def save(self, path: Path) -> None:
        state = {
            "model": self.model.state_dict(),
            "opt": self.opt.state_dict(),
            "hidden": self.hidden,
            "counters": [self.step, self.epoch, self.cursor, self.size, self.seen],
            "torch_rng": torch.get_rng_state(),
        }
        tmp = path.with_suffix(".tmp")
        torch.save(state, tmp)
        os.replace(tmp, path)

    def load(self, path: Path) -> None:
        state = torch.load(path, weights_only=False)
        if tuple(state["hidden"]) != self.hidden:
            sys.exit(f"the checkpoint has hidden widths {state['hidden']}: pass --hidden")
        self.model.load_state_dict(state["model"])
        self.opt.load_state_dict(state["opt"])
        self.step, self.epoch, self.cursor, self.size, self.seen = state["counters"]
        torch.set_rng_state(state["torch_rng"])

    def batches(self, count: int, batch: int) -> np.ndarray[Any, Any]:
        """The next minibatch of decision indices (of `count`, the held-out ones aside)."""
        if count != self.size or self.cursor + batch > count:
            if count != self.size:
                self.size = count
            elif self.cursor:
                self.epoch += 1
            self.cursor = 0
        if self._order is None or self._order[:2] != (self.epoch, count):
            rng = np.random.default_rng([self.args.seed, self.epoch])
            self._order = (self.epoch, count, rng.permutation(count))
        idx = self._order[2][self.cursor : self.cursor + batch]
        self.cursor += batch
        return idx

    def network(self, metas: list[dict[str, Any]]) -> Network:
        experts = sorted({f"{m['expert']} net={m['net']}" for m in metas})
        return to_network(
            self.model,
            {
                "version": f"distill-seed{self.args.seed}-step{self.step}",
                "steps": self.step,
                "decisions": self.seen,
                "experts": experts,
            },
        )


def train(args: argparse.Namespace) -> None:
    from distill import load_shards  # bench/distill.py owns the shard files
    from train import evaluate

    torch.set_num_threads(args.threads)
    args.run.mkdir(parents=True, exist_ok=True)
    data, metas = load_shards(*args.data, first=args.first_shards)
    if not metas:
        folders = ", ".join(str(f) for f in args.data)
        sys.exit(f"no shards in {folders}: label some first (bench/distill.py label)")
    total = len(data["choice"])
    games = sum(m["games"] for m in metas)
    # The first --val-shards shards are held out, unless there are no more than that (then
    # all are trained and validated on). One shard (~800 decisions) makes a noisy loss.
    kept = args.val_shards if len(metas) > args.val_shards else 0
    held = sum(m["decisions"] for m in metas[:kept])
    val_idx = np.arange(min(held or total, args.val_decisions))
    train_idx = np.arange(held, total)
    run = Run(args)
    checkpoint = args.run / "checkpoint.pt"
    if args.resume:
        if not checkpoint.exists():
            sys.exit(f"no checkpoint in {args.run}: start without --resume")
        run.load(checkpoint)
        print(f"resumed at step {run.step}", flush=True)
    else:
        try:
            run.init_weights(args.init)
        except (OSError, WeightsError) as exc:
            sys.exit(f"--init {args.init}: {exc}")
    print(f"{total} decisions from {games} games in {len(metas)} shards", flush=True)
    start = time.monotonic()
    last_save = start
    curve = open(args.run / "curve.jsonl", "a")  # noqa: SIM115
    window: list[float] = []
    while run.step < args.steps and time.monotonic() - start < args.minutes * 60:
        idx = train_idx[run.batches(len(train_idx), args.batch)]
        value_loss, choice_loss, _ = losses(run.model, data, idx, args.temperature)
        loss = value_loss + args.choice_weight * choice_loss
        run.opt.zero_grad()
        loss.backward()
        run.opt.step()
        run.step += 1
        run.seen += len(idx)
        window.append(float(loss.detach()))
        if run.step % args.eval_every == 0 or run.step == args.steps:
            with torch.no_grad():
                v, c, agree = losses(run.model, data, val_idx, args.temperature)
            line: dict[str, Any] = {
                "step": run.step,
                "decisions": run.seen,
                "games": round(run.seen * games / total, 1),
                "loss": round(statistics.fmean(window), 4),
                "val_value_loss": round(float(v), 4),
                "val_choice_loss": round(float(c), 4),
                "val_agree": round(float(agree), 4),
                "minutes": round((time.monotonic() - start) / 60, 2),
            }
            window.clear()
            if args.eval_deals:
                line["eval"] = evaluate(run.network(metas), args.eval_deals)
            curve.write(json.dumps(line) + "\n")
            curve.flush()
            print(json.dumps(line), flush=True)
            if args.weights_at_eval:
                # Each curve point's weights, for a whole-game evaluation of the point
                # where the held-out loss was lowest (`distill.py evaluate`).
                (args.run / f"net-step{run.step}.npz").write_bytes(run.network(metas).to_bytes())
        if time.monotonic() - last_save > args.checkpoint_minutes * 60:
            _save(run, args.run, metas)
            last_save = time.monotonic()
    _save(run, args.run, metas)
    print(f"checkpoint at step {run.step}", flush=True)


def _save(run: Run, folder: Path, metas: list[dict[str, Any]]) -> None:
    run.save(folder / "checkpoint.pt")
    (folder / f"net-step{run.step}.npz").write_bytes(run.network(metas).to_bytes())


def export(args: argparse.Namespace) -> None:
    checkpoint = args.run / "checkpoint.pt"
    if not checkpoint.exists():
        sys.exit(f"no checkpoint in {args.run}")
    state = torch.load(checkpoint, weights_only=False)
    args.hidden = ",".join(str(h) for h in state["hidden"])
    run = Run(args)
    run.load(checkpoint)
    from distill import load_shards

    metas = load_shards(*args.data)[1]
    network = run.network(metas)
    args.out.write_bytes(network.to_bytes())
    print(f"wrote {args.out}: {network.meta['version']}, digest {network.digest}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="distill.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("train")
    p.add_argument("--data", type=Path, nargs="+", required=True, help="folders of shards")
    p.add_argument("--run", type=Path, required=True, help="folder of the run")
    p.add_argument("--resume", action="store_true")
    p.add_argument("--seed", type=int, default=39)
    p.add_argument("--minutes", type=float, default=60.0)
    p.add_argument("--steps", type=int, default=10**9, help="the reproducible limit")
    p.add_argument("--batch", type=int, default=256, help="decisions a minibatch")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--weight-decay", type=float, default=0.0, help="AdamW's decoupled decay")
    p.add_argument("--val-shards", type=int, default=1, help="shards held out")
    p.add_argument(
        "--first-shards", type=int, default=None, help="train on a folder's first N shards only"
    )
    p.add_argument(
        "--hidden", default=None, help="hidden widths (default: those of --init, or 256,128)"
    )
    p.add_argument("--init", default="shipped", help="shipped, none, or a net.npz")
    p.add_argument("--choice-weight", type=float, default=1.0)
    p.add_argument("--temperature", type=float, default=1.0, help="points")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--checkpoint-minutes", type=float, default=5.0)
    p.add_argument(
        "--weights-at-eval", action="store_true", help="write net-stepN.npz at each curve point"
    )
    p.add_argument("--eval-every", type=int, default=2000)
    p.add_argument("--eval-deals", type=int, default=100, help="0: no strength point")
    p.add_argument("--val-decisions", type=int, default=20_000)
    p = sub.add_parser("export")
    p.add_argument("--run", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--data", type=Path, nargs="*", default=[], help="shards, for the meta")
    p.add_argument("--seed", type=int, default=39)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--weight-decay", type=float, default=0.0)
    args = parser.parse_args(argv)
    if args.command == "train":
        train(args)
    else:
        export(args)
