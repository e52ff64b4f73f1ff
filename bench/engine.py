"""Random full rounds per second through the engine's public API, against OpenSpiel Hearts.

Both engines play the same kind of round: a 3-card pass, then 13 tricks, with every move
drawn uniformly from the legal moves the engine generates. OpenSpiel is timed twice, driven
from a Python loop and in its all-C++ `evaluate_bots` loop, in the same run as ours, and
the figures are reported as ratios of medians (the machines are shared and noisy).

Run: python bench/engine.py [--seconds 2] [--repeats 5]   (needs `pip install -e '.[bench]'`)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from leekha.common.config import PRESETS, RulesConfig
from leekha.common.game import PASS, Game, pass_error


def leekha_rounds(config: RulesConfig, seconds: float) -> float:
    """Scalar API: one Game per round; legality from legal_mask / pass_error."""
    rng = random.Random(1)
    rand = rng.random
    n = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            seed += 1
            game = Game(config, seed)
            while game.phase == PASS:
                for seat in range(4):
                    hand = game.hands[seat]
                    cards = [c for c in range(52) if hand >> c & 1]
                    while True:
                        pick = rng.sample(cards, 3)
                        if pass_error(config, hand, pick) is None:
                            break
                    game.pass_cards(seat, pick)
            for _ in range(52):
                turn = game.turn
                assert turn is not None
                mask = game.legal_mask(turn)
                k = int(rand() * mask.bit_count())
                while k:
                    mask &= mask - 1
                    k -= 1
                game.play(turn, (mask & -mask).bit_length() - 1)
            n += 1
    return n / (time.perf_counter() - start)


def leekha_batch_rounds(config: RulesConfig, seconds: float, batch: int = 4096) -> float:
    """NumPy batch engine: `batch` rounds in lock-step; legality from legal_masks/pass ban.

    Every play still goes through the legality check (`random_play` validates the drawn
    cards against the legal masks), so this is the same workload as the scalar runner.
    """
    import numpy as np
    from batch import random_rounds  # bench/batch.py, next to this script

    rng = np.random.default_rng(1)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        random_rounds(config, batch, rng)
        n += batch
    return n / (time.perf_counter() - start)


def openspiel_python(seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    return n / (time.perf_counter() - start)


def openspiel_cpp(seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(i, 1000 + i) for i in range(4)]
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rules", default="levant", choices=sorted(PRESETS))
    parser.add_argument("--batch", type=int, default=4096, help="leekha_batch batch size")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = PRESETS[args.rules]
    runs: dict[str, Callable[[], float]] = {
        "leekha": lambda: leekha_rounds(config, args.seconds),
        "leekha_batch": lambda: leekha_batch_rounds(config, args.seconds, args.batch),
        "openspiel_python": lambda: openspiel_python(args.seconds),
        "openspiel_cpp": lambda: openspiel_cpp(args.seconds),
    }
    samples: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(args.repeats):  # interleave so machine noise hits every engine alike
        for name, fn in runs.items():
            samples[name].append(fn())
    med = {k: statistics.median(v) for k, v in samples.items()}
    ours = ("leekha", "leekha_batch")
    report = {
        "rounds_per_s_median": med,
        "ratio_vs_openspiel_python": {k: med[k] / med["openspiel_python"] for k in ours},
        "ratio_vs_openspiel_cpp": {k: med[k] / med["openspiel_cpp"] for k in ours},
        "repeats": args.repeats,
        "rules": args.rules,
        "batch": args.batch,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name, value in med.items():
        print(f"{name:>18}: {value:10.0f} rounds/s (median of {args.repeats})")
    for k in ours:
        py = med[k] / med["openspiel_python"]
        cpp = med[k] / med["openspiel_cpp"]
        print(f"{k:>18}: {py:6.2f}x OpenSpiel from Python, {cpp:6.2f}x OpenSpiel all-C++ loop")


if __name__ == "__main__":
    main()
