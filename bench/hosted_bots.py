"""Hosted bot tables a core sustains: the CPU a level's decisions cost a server.

    python bench/hosted_bots.py --level hard --seconds 120 --move-s 1,2,5

A server hosting a bot-only table pays for every decision its bots make, as the server's
autopilot makes them (`server/domain/autopilot.py`: a fresh `seat_view` and `decide` for the
seat to move, the pass included). This plays whole games of four `--level` seats that
way for `--seconds` of CPU time and reports the CPU a move costs (mean, p95) and the
tables one core sustains when each table makes one move every `move_s` seconds, the pace
a person would follow (a table makes one move at a time): `move_s / mean CPU a move`,
at a full core, before headroom. The level keeps its default budget (`hard`: 50 ms of
wall time a decision, which is about 50 ms of CPU on an idle core); run it alone on the
machine (`taskset -c 0`), or the figure is the share of the core it got.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from leekha.common.bots.base import decide, make_strategy
from leekha.common.config import PRESETS
from leekha.common.game import OVER, PASS, Game
from leekha.common.view import seat_view


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(level: str, rules: str, seconds: float, seed: int) -> dict[str, Any]:
    clock = time.process_time
    cpu_ms: list[float] = []
    games = rounds = 0
    spent = 0.0
    while spent < seconds:
        game = Game(PRESETS[rules], seed + games)
        bots = [make_strategy(level, (seed + games) * 4 + s) for s in range(4)]
        while game.phase != OVER and spent < seconds:
            if game.phase == PASS:
                seat = game.passed.index(None)
            else:
                assert game.turn is not None
                seat = game.turn
            t = clock()
            actions = decide(bots[seat], seat_view(game, seat))
            took = clock() - t
            spent += took
            cpu_ms.append(took * 1000)
            for action in actions:
                game.apply(action)
        games += 1
        rounds += len(game.history)
    mean = statistics.fmean(cpu_ms)
    return {
        "level": level,
        "rules": rules,
        "cpu_s": round(spent, 2),
        "games": games,
        "rounds": rounds,
        "moves": len(cpu_ms),
        "cpu_ms_per_move": round(mean, 3),
        "cpu_ms_p95": round(pct(cpu_ms, 0.95), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", help="a level or tier spec")
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--move-s", default="1,2,5", help="seconds between a table's moves")
    args = parser.parse_args()
    result = measure(args.level, args.rules, args.seconds, args.seed)
    per_move_s = result["cpu_ms_per_move"] / 1000
    result["tables_per_core"] = {
        pace: round(float(pace) / per_move_s, 1) for pace in args.move_s.split(",")
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
