"""What TLS costs a table at human pace: TLS tables against TCP tables, in one run.

One `leekha serve` listens twice, on plain TCP and on TLS (its self-signed certificate);
half the tables connect through each, at the same time, so both halves see the same
server load. The figure is the latency from a card sent to the server's `card_played`
for it, as bench/load.py measures it: medians and p99 per half, and TLS / TCP ratios.

    python bench/tls_latency.py --tables 200 --seconds 30 --think 2
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from typing import Any

from loadclient import HOST, OPEN_LIMITS, Stats, open_tables, summarize_latency
from scenario import bench_parser, served


async def _measure(
    tcp_port: int, tls_port: int, tables: int, seconds: float, think: float
) -> dict[str, Any]:
    rng = random.Random(1)

    def pause() -> float:
        return rng.uniform(think * 0.5, think * 1.5) if think > 0 else 0.0

    half = max(1, tables // 2)
    stats = {"tcp": Stats(recording=False), "tls": Stats(recording=False)}
    t0 = time.perf_counter()
    runs = await asyncio.gather(
        open_tables(tcp_port, half, stats["tcp"], prefix="c", think=pause, rematch=True),
        open_tables(
            tls_port, half, stats["tls"], first_index=half, prefix="s", think=pause,
            rematch=True, tls=True,
        ),
    )  # fmt: skip
    setup_s = time.perf_counter() - t0
    for s in stats.values():
        s.recording = True
    await asyncio.sleep(seconds)
    for s in stats.values():
        s.recording = False
    for group in runs:
        for r in group:
            r.close()
    out: dict[str, Any] = {"tables_each": half, "seconds": seconds, "think_s": think}
    out["setup_s"] = round(setup_s, 2)
    for kind, s in stats.items():
        out[kind] = {**summarize_latency(s.latencies), "action_errors": len(s.action_errors)}
    out["tls_over_tcp_p50"] = round(out["tls"]["p50_ms"] / out["tcp"]["p50_ms"], 3)
    out["tls_over_tcp_p99"] = round(out["tls"]["p99_ms"] / out["tcp"]["p99_ms"], 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = bench_parser(__doc__)
    parser.add_argument("--tables", type=int, default=200, help="both halves together")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds per decision")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    listen = ("--listen", f"tcp:0:interface={HOST}", "--listen", f"ssl:0:interface={HOST}")
    with served("tls-bench", (*OPEN_LIMITS, *listen, "--tls")) as s:
        tcp_port, tls_port = s.server.ports[:2]
        result = asyncio.run(_measure(tcp_port, tls_port, args.tables, args.seconds, args.think))
        result["server_problems"] = s.server.problems()
    if args.json:
        print(json.dumps(result))
    else:
        for kind in ("tcp", "tls"):
            r = result[kind]
            print(f"{kind}: p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  n={r['samples']}")
        print(
            f"TLS / TCP: p50 x{result['tls_over_tcp_p50']}  p99 x{result['tls_over_tcp_p99']}"
            f"  ({result['tables_each']} tables each, think {args.think:g} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
