"""The lobby's `list_tables` at thousands of tables: server CPU a request, at several counts.

A server without sockets (the tests' `Harness`: the lobby, the factory and a fake clock,
the connections on in-memory transports), so only the server's own work is timed: the
request decoded, the page built and checked, its frame written. Each table is created by
its own player, who stays seated, so every table is listed. The goal (docs/performance.md)
is about a millisecond a request at 4,000 tables, and no growth with the count: a request
answers one page (25 tables) from a cursor, never the whole lobby.

    python bench/list_tables.py [--counts 100,1000,4000] [--requests 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.server import Harness, created_table  # the tests' in-memory server

from leekha.protocol import catalogue as M
from leekha.protocol.codec import encode


def measure(count: int, requests: int, repeats: int) -> dict[str, float]:
    """CPU microseconds per `list_tables` (first page, and a page from the middle) with
    `count` tables open: the median of `repeats` batches of `requests`."""
    h = Harness(
        max_tables_per_address=count + 1,
        max_connections=count + 10,
        max_connections_per_ip=count + 10,
        new_connections_per_ip_per_s=1e9,
        rate_limit_msgs_per_s=1e9,  # the fake clock never advances: no bucket would refill
        rate_burst=10**9,
    )
    for i in range(count):
        host = h.player(f"p{i}", ip=f"10.{i // 250 % 250}.{i % 250}.1")
        created_table(host.request(M.CreateTable(id=host.rid(), name=f"t{i}")))
    reader = h.player("reader", ip="10.255.255.1")
    middle = reader.request(M.ListTables(id=reader.rid()))
    assert isinstance(middle, M.TableList) and len(middle.tables) > 0, middle
    # A page from the middle: after the first page's middle table (the next page where
    # the lobby holds more than a page).
    cursor = middle.tables[len(middle.tables) // 2]["id"]
    out: dict[str, float] = {"tables": count, "page": len(middle.tables)}
    pages: dict[str, int | None] = {"first_page_us": None, "middle_page_us": cursor}
    for label, at in pages.items():

        def make(rid: int, at: int | None = at) -> M.ListTables:
            return M.ListTables(id=rid, cursor=at)

        # The requests are encoded before the clock starts, and the replies are taken off
        # the transport unread: only the server's side is timed.
        frames = [encode(make(reader.rid())) for _ in range(requests)]
        per: list[float] = []
        for frame in frames[:100]:  # warm: the first requests fill the lobby's caches
            reader.proto.dataReceived(frame)
            reader.proto.outbox.flush()
            reader.transport.clear()
        for _ in range(repeats):
            start = time.process_time()
            for frame in frames:
                reader.proto.dataReceived(frame)
                reader.proto.outbox.flush()
                reader.transport.clear()
            per.append((time.process_time() - start) / requests * 1e6)
        out[label] = round(statistics.median(per), 1)
        reply = reader.request(make(reader.rid()))  # and the reply is a page, as asked
        assert isinstance(reply, M.TableList) and 0 < len(reply.tables) <= out["page"], reply
    h.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="100,1000,4000")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(int(c), args.requests, args.repeats) for c in args.counts.split(",")]
    if args.json:
        print(json.dumps({"rows": rows}))
    for row in rows:
        print(
            f"{int(row['tables']):>6} tables: list_tables {row['first_page_us']} us a request "
            f"(first page), {row['middle_page_us']} us (from a cursor), {int(row['page'])} "
            "tables a page"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
