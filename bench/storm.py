"""Disconnect storm: many games at once while 30% of the connections are cut at random
moments and come back with their session tokens.

Checks, against a real `leekha serve` on 127.0.0.1:
- every game finishes (game_over seen, a stored record that replays to game over);
- every round's invariants hold (round_scored: penalty cards conserved, points sum to 36);
- no seat is ever held by two connections: a resume from a second connection while the
  first is still open must close the first (`session_replaced`) and nothing more may reach
  it; when two connections resume the same token at once exactly one stays open.

    python bench/storm.py --games 500 --cut 0.3          # the long run
    python bench/storm.py --games 6 --json               # what CI runs
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

from loadclient import (
    OPEN_LIMITS,
    Conn,
    Player,
    Stats,
    connect,
    record_problems,
    summarize_latency,
)
from scenario import finished, game_parser, report, served, short_games

GAME_EVENTS = {"card_played", "trick_taken", "your_turn", "dealt", "round_scored", "pass_done"}


class Storm:
    def __init__(self, port: int, rng: random.Random, stats: Stats) -> None:
        self.port = port
        self.rng = rng
        self.stats = stats
        self.cuts = 0
        self.takeovers = 0
        self.double_resumes = 0
        self.double_holders: list[str] = []
        self.ghost_events = 0

    async def cut(self, p: Player) -> None:
        """Drop the connection without a goodbye, then resume after a short pause."""
        assert p.conn is not None
        p.conn.abort()
        self.cuts += 1
        await asyncio.sleep(self.rng.uniform(0.0, 0.5))
        welcome = await p.resume(self.port)
        if welcome.get("type") != "welcome" or not welcome.get("resumed"):
            self.stats.action_errors.append(f"{p.name}: resume refused {welcome}")

    async def takeover(self, p: Player) -> None:
        """Resume on a new connection while the old one is still open: the old one must be
        told `session_replaced`, closed, and receive nothing after that."""
        old = p.conn
        assert old is not None
        after_kick = {"n": 0, "kicked": False}
        original = old.on_message

        def watch_old(msg: dict[str, Any]) -> None:
            if msg.get("type") == "error" and msg.get("code") == "session_replaced":
                after_kick["kicked"] = True
            elif after_kick["kicked"] and msg.get("type") in GAME_EVENTS:
                after_kick["n"] += 1
            if not after_kick["kicked"]:
                original(msg)

        old.on_message = watch_old
        new = await connect(self.port, p.on_message)
        p.conn = new
        p.pending_actions.clear()
        p.turn_key = None
        welcome = await new.request(
            {"type": "resume", "versions": [[1, 0]], "token": p.token}, timeout=10
        )
        self.takeovers += 1
        if welcome.get("type") != "welcome":
            self.stats.action_errors.append(f"{p.name}: takeover refused {welcome}")
            return
        try:
            await asyncio.wait_for(asyncio.shield(old.closed), 5)
        except TimeoutError:
            self.double_holders.append(f"{p.name}: old connection still open 5 s after resume")
            old.abort()
        if not after_kick["kicked"]:
            self.double_holders.append(f"{p.name}: old connection closed without session_replaced")
        self.ghost_events += after_kick["n"]

    async def double_resume(self, p: Player) -> None:
        """Two fresh connections resume the same token at once: exactly one may stay."""
        assert p.conn is not None
        p.conn.abort()
        p.turn_key = None
        self.double_resumes += 1
        a = await connect(self.port, p.on_message)
        b = await connect(self.port, p.on_message)
        replies = await asyncio.gather(
            a.request({"type": "resume", "versions": [[1, 0]], "token": p.token}, timeout=10),
            b.request({"type": "resume", "versions": [[1, 0]], "token": p.token}, timeout=10),
            return_exceptions=True,
        )
        ra, rb = replies
        await asyncio.wait(
            [asyncio.ensure_future(asyncio.shield(c.closed)) for c in (a, b)],
            timeout=5,
            return_when=asyncio.FIRST_COMPLETED,
        )
        live: list[Conn] = [c for c in (a, b) if c.open]
        if len(live) != 1:
            self.double_holders.append(
                f"{p.name}: {len(live)} live connections after a double resume ({ra!r}, {rb!r})"
            )
        for c in live[1:]:
            c.abort()
        if live:
            p.conn = live[0]
            p.pending_actions.clear()
        else:
            await p.resume(self.port)

    async def disrupt(self, p: Player, at: float) -> None:
        await asyncio.sleep(at)
        if p.table.over.is_set():
            return
        kind = self.rng.random()
        try:
            if kind < 0.6:
                await self.cut(p)
            elif kind < 0.85:
                await self.takeover(p)
            else:
                await self.double_resume(p)
        except (TimeoutError, OSError, ConnectionError) as exc:
            self.stats.action_errors.append(f"{p.name}: disruption failed: {exc!r}")


async def _run(port: int, args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    runs = await short_games(port, args, stats, rng)
    setup_s = time.perf_counter() - t0
    storm = Storm(port, rng, stats)
    players = [p for r in runs for p in r.players]
    victims = rng.sample(players, round(args.cut * len(players)))
    # A game of `target` points at this pace lasts a few seconds per round: spread the cuts
    # over the first rounds so they land in passing, mid-trick and between rounds alike.
    horizon = max(1.0, 56 * args.think * 1.5)
    tasks = [asyncio.ensure_future(storm.disrupt(p, rng.uniform(0, horizon))) for p in victims]
    done = await finished(runs, args.timeout)
    await asyncio.gather(*tasks, return_exceptions=True)
    for r in runs:
        r.close()
    return {
        "games": args.games,
        "connections": 4 * args.games,
        "setup_s": round(setup_s, 2),
        "play_s": round(time.perf_counter() - t0 - setup_s, 2),
        "games_finished": done,
        "cut_players": len(victims),
        "cuts": storm.cuts,
        "takeovers": storm.takeovers,
        "double_resumes": storm.double_resumes,
        "double_holders": storm.double_holders[:20],
        "double_holder_count": len(storm.double_holders),
        "ghost_events": storm.ghost_events,
        "table_ids": {r.table_id: r.index for r in runs},
        **summarize_latency(stats.latencies),
        **{k: v for k, v in stats.to_dict().items() if k != "latencies"},
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    # Default rate limits; only the per-address cap is opened (all clients are local).
    with served("storm", OPEN_LIMITS, records=True) as s:
        result = asyncio.run(_run(s.port, args))
        result["server_alive"] = s.server.alive()
    records, result_problems = s.records, s.problems
    ids = set(result.pop("table_ids"))
    mine = [r for r in records if r.get("meta", {}).get("table_id") in ids]
    record_issues = [p for r in mine for p in record_problems(r)]
    # A prompt that reached a connection just before it was replaced can make the client act
    # twice; the server refuses the stale request (not_your_turn / wrong_phase, no effect).
    stale = ("not_your_turn", "wrong_phase")
    result.update(
        unexpected_action_errors=[
            e for e in result["action_errors"] if not any(code in e for code in stale)
        ],
        records=len(mine),
        record_problems=record_issues[:20],
        server_problems=result_problems[:20],
    )
    result["ok"] = (
        result["games_finished"] == args.games
        and len(mine) == args.games
        and not record_issues
        and not result["invariant_problems"]
        and result["double_holder_count"] == 0
        and result["ghost_events"] == 0
        and not result_problems
        and not result["unexpected_action_errors"]
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = game_parser(__doc__, games=500, timeout=600.0)
    parser.add_argument("--cut", type=float, default=0.3, help="share of connections cut")
    args = parser.parse_args(argv)
    return report(run(args), args.json)


if __name__ == "__main__":
    sys.exit(main())
