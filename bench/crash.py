"""Crash recovery: kill -9 the server at random moments mid-game and restart it on the same
data folder and port. Every client reconnects with its session token.

Checks: every game resumes and finishes, and no acknowledged action is lost: every action
a client saw confirmed before a crash (an `ok` to its own pass or play, or a card_played
event) is in the game's final record (`leekha records export --data DIR --format json`),
in the same order, and the record replays to game over.

    python bench/crash.py --games 20 --kills 10       # the long run
    python bench/crash.py --games 2 --kills 1 --json  # what CI runs
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadclient import OPEN_LIMITS, ServerProcess, Stats, TableRun, record_problems
from scenario import finished, game_parser, report, served, short_games

from leekha.common.config import RulesConfig
from leekha.common.game import Game


def _key(action: dict[str, Any], round_no: int) -> tuple[Any, ...]:
    if action["kind"] == "pass":
        return (round_no, "pass", int(action["seat"]), tuple(sorted(action["cards"])))
    return (round_no, action["kind"], int(action["seat"]), int(action.get("card", -1)))


def lost_actions(run: TableRun, record: dict[str, Any]) -> list[str]:
    """Acknowledged actions missing from the record, or stored in another order."""
    game = Game(RulesConfig.from_dict(record["rules"]), record["seed"])
    position: dict[tuple[Any, ...], int] = {}
    for i, action in enumerate(record["actions"]):
        position[_key(action, game.round_no)] = i
        game.apply(action)
    problems = []
    last = -1
    for a in run.acked.get(0, []):
        k = _key(a, int(a["round"]))
        at = position.get(k)
        if at is None:
            problems.append(f"table {run.index}: acknowledged {k} is not in the record")
        elif a["kind"] == "play":
            if at < last:
                problems.append(f"table {run.index}: {k} stored out of order")
            last = at
    return problems


async def _run(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(args.seed)
    runs = await short_games(server.port, args, stats, rng)
    for r in runs:
        for p in r.players:
            p.auto_resume = True
    loop = asyncio.get_running_loop()
    start = loop.time()
    deadline = start + args.timeout
    # A round at this pace takes about 56 * think seconds; crash within the first round(s).
    horizon = max(0.5, 40 * args.think * max(1.0, args.kills / 3))
    moments = sorted(rng.uniform(0.1, horizon) for _ in range(args.kills))
    kill_log = []
    for at in moments:
        wait = start + at - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        if all(r.over.is_set() for r in runs):
            break
        acked_before = sum(len(r.acked.get(0, [])) for r in runs)
        server.kill()
        t_kill = loop.time()
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        await loop.run_in_executor(None, server.start)
        kill_log.append(
            {
                "at_s": round(t_kill - start, 2),
                "acked_before": acked_before,
                "restart_s": round(loop.time() - t_kill, 2),
            }
        )
    done = await finished(runs, max(1.0, deadline - loop.time()))
    resumes = sum(p.resumes for r in runs for p in r.players)
    for r in runs:
        for p in r.players:
            p.auto_resume = False
        r.close()
    return {
        "runs": runs,
        "games": args.games,
        "kills": len(kill_log),
        "kill_log": kill_log,
        "games_finished": done,
        "resumes": resumes,
        **{k: v for k, v in stats.to_dict().items() if k != "latencies"},
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.perf_counter()
    with served("crash", OPEN_LIMITS, records=True) as s:
        result = asyncio.run(_run(s.server, args))
        result["server_alive"] = s.server.alive()
    records, problems = s.records, s.problems
    runs: list[TableRun] = result.pop("runs")
    by_table = {r.get("meta", {}).get("table_id"): r for r in records}
    lost: list[str] = []
    record_issues: list[str] = []
    acked = 0
    for r in runs:
        rec = by_table.get(r.table_id)
        acked += len(r.acked.get(0, []))
        if rec is None:
            record_issues.append(f"table {r.index}: no stored record")
            continue
        record_issues.extend(record_problems(rec))
        lost.extend(lost_actions(r, rec))
    result.update(
        seconds=round(time.perf_counter() - t0, 2),
        acknowledged_actions=acked,
        lost_actions=lost[:20],
        lost_count=len(lost),
        records=len(by_table),
        record_problems=record_issues[:20],
        server_problems=problems[:20],
    )
    result["ok"] = (
        result["games_finished"] == args.games
        and not lost
        and not record_issues
        and not problems
        and not result["invariant_problems"]
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = game_parser(__doc__, games=20, timeout=300.0)
    parser.add_argument("--kills", type=int, default=10)
    args = parser.parse_args(argv)
    return report(run(args), args.json)


if __name__ == "__main__":
    sys.exit(main())
