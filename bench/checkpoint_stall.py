"""What a WAL checkpoint costs the thread that runs it: the periodic stall at human pace.

SQLite checkpoints a WAL database inside the COMMIT that takes the log past 1000 pages;
the server commits on the reactor thread (leekha.server.domain.outbox), so every table waits for
it. This writes the server's rows (four `append_action`s per commit, as a busy reactor
turn does) through `Store` with automatic checkpoints off, and after every `--commits`
commits (about 1000 pages) times a PASSIVE checkpoint on the writing thread: what each
inline checkpoint cost the reactor. leekha.server.checkpoint now runs it from the thread
pool instead.

    python bench/checkpoint_stall.py --rounds 30
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadclient import machine, percentile

from leekha.server.domain.persistence import Store, TableRow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--commits", type=int, default=200, help="commits per checkpoint")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    times: list[float] = []
    pages: list[int] = []
    with tempfile.TemporaryDirectory(prefix="leekha-ckpt-") as tmp:
        store = Store.in_dir(Path(tmp))
        store.on_begin = lambda: None  # group writes until commit(), as the outbox does
        store.checkpoint_elsewhere()
        for t in range(64):
            row = TableRow(
                id=t,
                name=f"t{t}",
                host_token="h",
                host_name="h",
                preset="classic",
                rules={},
                password=None,
                pass_s=None,
                turn_s=None,
                status="playing",
            )
            store.save_table(row)
        store.commit()
        idx = [0] * 64
        n = 0
        action = {"kind": "play", "seat": 1, "card": 17}
        for _ in range(args.rounds):
            for _c in range(args.commits):
                for _k in range(4):
                    t = n % 64
                    store.append_action(t, 0, idx[t], action)
                    idx[t] += 1
                    n += 1
                store.commit()
            db = sqlite3.connect(store.path, isolation_level=None)
            t0 = time.perf_counter()
            row = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            times.append((time.perf_counter() - t0) * 1000)
            db.close()
            pages.append(int(row[1]))
        store.close()
    result = {
        "rounds": args.rounds,
        "pages_per_checkpoint": statistics.median(pages),
        "checkpoint_p50_ms": round(percentile(times, 50), 1),
        "checkpoint_p90_ms": round(percentile(times, 90), 1),
        "checkpoint_max_ms": round(max(times), 1),
        "machine": machine(),
    }
    print(json.dumps(result, indent=None if args.json else 1), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
