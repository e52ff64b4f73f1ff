"""Does writing every action to SQLite slow the server down? Action→reply latency, measured.

Four scripted players sit at one table of a real server over loopback (no server bots, so
every move is a network round trip). For each pass_cards/play_card we time the request
until its `ok` arrives; the server sends `ok` only after the action is applied, committed
to the database and broadcast. The same games run with the database in a file (WAL,
synchronous=NORMAL, one transaction per action: the server's default) and in memory,
interleaved, and we report medians, p99s and the ratio of medians.

Run: python bench/db_latency.py [--games 6] [--repeats 3] [--json]

Finding that shaped the server: per-action commits cost nothing visible here (ratio ≈ 1.0,
a commit is ~20-50 µs against a ~400 µs request round trip), so there is no batching or
writer thread. What did hurt was Nagle's algorithm: without TCP_NODELAY a prompt written
right after another small frame waited for a delayed ACK and whole games ran ~10x slower.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from leekha.server.reactor import install_asyncio_reactor

reactor: Any = install_asyncio_reactor()

from twisted.internet.defer import Deferred, ensureDeferred  # noqa: E402
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol  # noqa: E402
from twisted.internet.protocol import Protocol  # noqa: E402

from leekha.common import cards as C  # noqa: E402
from leekha.common.config import RulesConfig  # noqa: E402
from leekha.common.game import legal_passes  # noqa: E402
from leekha.protocol import catalogue as M  # noqa: E402
from leekha.protocol.connection import Connection  # noqa: E402
from leekha.protocol.message import Message  # noqa: E402
from leekha.server.app import start_server  # noqa: E402
from leekha.server.domain.persistence import Store  # noqa: E402
from leekha.server.settings import ServerSettings  # noqa: E402


class Bench(Protocol):
    def __init__(self, samples: list[float]) -> None:
        self.conn = Connection("client")  # hello first, request ids, pings
        self.samples = samples
        self.sent: dict[int, float] = {}
        self.rules = RulesConfig()
        self.hand: list[int] = []
        self.waiters: list[tuple[Any, Deferred[Message]]] = []

    @property
    def wire(self) -> Any:
        """The connected transport (ITransport's zope methods have no `self` for mypy)."""
        assert self.transport is not None
        return self.transport

    def rid(self) -> int:
        return self.conn.new_id()

    def send(self, msg: Message, timed: bool = False) -> None:
        if timed:
            assert isinstance(msg, M.PassCards | M.PlayCard), msg
            self.sent[msg.id] = time.perf_counter()
        self.wire.write(self.conn.send(msg))

    def wait_for(self, pred: Any) -> Deferred[Message]:
        d: Deferred[Message] = Deferred()
        self.waiters.append((pred, d))
        return d

    def dataReceived(self, data: bytes) -> None:
        messages = self.conn.receive_data(data)
        self.wire.write(self.conn.data_to_send())  # pongs
        for msg in messages:
            re = getattr(msg, "re", None)
            if isinstance(msg, M.Ok) and re in self.sent:
                self.samples.append(time.perf_counter() - self.sent.pop(re))
            for pair in list(self.waiters):
                if pair[0](msg):
                    self.waiters.remove(pair)
                    pair[1].callback(msg)
            if isinstance(msg, M.Snapshot):
                self.rules = RulesConfig.from_dict(msg.table["rules"])
                if msg.view is not None:
                    self.hand = list(msg.view["hand"])
            elif isinstance(msg, M.Dealt):
                self.hand = list(msg.hand)
            elif isinstance(msg, M.YourTurn):
                if msg.phase == "pass":
                    cards = list(next(legal_passes(self.rules, C.mask_of(self.hand))))
                    self.send(M.PassCards(id=self.rid(), cards=cards), timed=True)
                else:
                    self.send(M.PlayCard(id=self.rid(), card=msg.legal[0]), timed=True)


async def one_run(store: Store, games: int) -> list[float]:
    settings = ServerSettings(
        host="127.0.0.1",
        port=0,
        data_dir=Path(tempfile.gettempdir()),
        announce=False,
        rate_limit_msgs_per_s=1e5,
        rate_burst=100_000,
        default_pass_timer_s=0,
        default_turn_timer_s=0,
    )
    server = await start_server(reactor, settings, store=store)
    samples: list[float] = []
    try:
        players = []
        for i in range(4):
            p = Bench(samples)
            await connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", server.port), p)
            d = p.wait_for(lambda m: isinstance(m, M.Welcome))
            p.send(M.Hello(id=p.rid(), versions=[[1, 0]], name=f"p{i}"))
            await d
            players.append(p)
        d = players[0].wait_for(lambda m: isinstance(m, M.Snapshot))
        players[0].send(M.CreateTable(id=players[0].rid(), name="bench", overrides={"target": 60}))
        snap = await d
        assert isinstance(snap, M.Snapshot), snap
        table_id = int(snap.table["id"])
        for p in players[1:]:
            d = p.wait_for(lambda m: isinstance(m, M.Snapshot))
            p.send(M.JoinSeat(id=p.rid(), table_id=table_id))
            await d
        for _ in range(games):
            over = players[0].wait_for(lambda m: isinstance(m, M.GameOver))
            host = players[0]
            host.send(M.Start(id=host.rid()) if _ == 0 else M.Rematch(id=host.rid()))
            if _ > 0:
                for p in players[1:]:
                    p.send(M.Rematch(id=p.rid()))
            await over
    finally:
        await server.stop()
    return samples


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "median_us": statistics.median(ordered) * 1e6,
        "p99_us": ordered[int(len(ordered) * 0.99) - 1] * 1e6,
    }


def commit_cost(store: Store, n: int = 3000) -> dict[str, float]:
    """Microseconds per `append_action` (one transaction each), median and p99."""
    times = []
    action = {"kind": "play", "seat": 0, "card": 12}
    for i in range(n):
        t = time.perf_counter()
        store.append_action(1, 1, i, action)
        times.append(time.perf_counter() - t)
    store.close()
    return summary(times)


async def main(games: int, repeats: int) -> dict[str, Any]:
    disk: list[float] = []
    memory: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeats):
            memory += await one_run(Store(":memory:"), games)
            disk += await one_run(Store(Path(tmp) / f"run{r}.sqlite3"), games)
        commit_file = commit_cost(Store(Path(tmp) / "commit.sqlite3"))
    commit_memory = commit_cost(Store(":memory:"))
    d, m = summary(disk), summary(memory)
    return {
        "file_wal": d,
        "in_memory": m,
        "ratio_of_medians": d["median_us"] / m["median_us"],
        "append_action_file": commit_file,
        "append_action_memory": commit_memory,
    }


def cli() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {}

    def go() -> None:
        d = ensureDeferred(main(args.games, args.repeats))
        d.addCallback(out.update)
        d.addErrback(lambda f: (f.printTraceback(), out.update(error=str(f.value))))
        d.addBoth(lambda _: reactor.stop())

    reactor.callWhenRunning(go)
    reactor.run()
    if "error" in out:
        return 1
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for name in ("file_wal", "in_memory"):
            s = out[name]
            print(
                f"{name:>10}: n={s['n']:>6}  median {s['median_us']:8.1f} µs"
                f"  p99 {s['p99_us']:8.1f} µs"
            )
        print(f"ratio of medians (file / memory): {out['ratio_of_medians']:.3f}")
        for name in ("append_action_file", "append_action_memory"):
            s = out[name]
            print(f"{name}: median {s['median_us']:.1f} µs  p99 {s['p99_us']:.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(cli())
