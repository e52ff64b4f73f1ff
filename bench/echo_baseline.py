"""Ceiling for any Leekha server benchmark: a bare Twisted msgpack echo over loopback.

The real server adds rules, lobby and persistence on top of exactly this transport
(4-byte big-endian length-prefixed msgpack maps on Twisted's asyncio reactor), so the rate
measured here is the best any server-side optimisation could reach on this machine. Server
and load generator run in separate processes, as real clients would, so neither steals the
other's CPU inside one event loop.

Rate = completed request→response pairs per second, summed over connections.

    python bench/echo_baseline.py --connections 50 --seconds 5

Reuse from another benchmark (blocks for about `seconds`; call it outside a running reactor):

    from echo_baseline import run_echo_baseline
    ceiling = run_echo_baseline(connections=50, seconds=5.0)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

HOST = "127.0.0.1"
SCRIPT = str(Path(__file__).resolve())
REACTORS = ("asyncio", "default")
# A server process exits on its own after this long even if its parent vanished.
SERVER_MAX_LIFETIME_S = 600.0


def _install_reactor(name: str) -> Any:
    if name == "asyncio":
        from twisted.internet import asyncioreactor

        asyncioreactor.install()  # type: ignore[no-untyped-call]
    from twisted.internet import reactor

    return reactor


def serve(reactor_name: str, max_lifetime_s: float) -> int:
    """Echo server: print "PORT n", answer every ping with a pong until stdin closes."""
    reactor = _install_reactor(reactor_name)
    import msgpack
    from twisted.internet import stdio
    from twisted.internet.protocol import Factory, Protocol
    from twisted.protocols.basic import Int32StringReceiver
    from twisted.python.failure import Failure

    class Echo(Int32StringReceiver):
        MAX_LENGTH = 65536

        def stringReceived(self, data: bytes) -> None:
            try:
                msg = msgpack.unpackb(data)
                reply = {"type": "pong", "id": msg["id"]}
            except (ValueError, TypeError, KeyError, msgpack.UnpackException):
                cast(Any, self.transport).loseConnection()
                return
            self.sendString(msgpack.packb(reply))  # type: ignore[no-untyped-call]

    class StopOnEOF(Protocol):
        def connectionLost(self, reason: Failure | None = None) -> None:
            if reactor.running:
                reactor.stop()

    port = reactor.listenTCP(0, Factory.forProtocol(Echo), interface=HOST, backlog=1024)
    stdio.StandardIO(StopOnEOF())  # type: ignore[no-untyped-call]
    reactor.callLater(max_lifetime_s, reactor.stop)
    sys.stdout.write(f"PORT {port.getHost().port}\n")
    sys.stdout.flush()
    reactor.run()
    return 0


def load(port: int, connections: int, seconds: float, reactor_name: str) -> int:
    """Load generator: print one JSON line {"round_trips", "seconds", "connections"}."""
    reactor = _install_reactor(reactor_name)
    import msgpack
    from twisted.internet.defer import DeferredList, ensureDeferred
    from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
    from twisted.internet.task import deferLater
    from twisted.protocols.basic import Int32StringReceiver

    state = {"count": 0, "deadline": float("inf")}
    result: dict[str, Any] = {}

    class Pinger(Int32StringReceiver):
        MAX_LENGTH = 65536
        next_id = 0

        def ping(self) -> None:
            self.next_id += 1
            frame = msgpack.packb({"type": "ping", "id": self.next_id})
            self.sendString(frame)  # type: ignore[no-untyped-call]

        def stringReceived(self, data: bytes) -> None:
            if time.perf_counter() >= state["deadline"]:
                cast(Any, self.transport).loseConnection()
                return
            msg = msgpack.unpackb(data)
            if msg.get("id") == self.next_id:
                state["count"] += 1
            self.ping()

    async def main() -> None:
        endpoint = TCP4ClientEndpoint(reactor, HOST, port, timeout=10)
        attempts = [
            connectProtocol(endpoint, Pinger())  # type: ignore[no-untyped-call]
            for _ in range(connections)
        ]
        results = await DeferredList(attempts, consumeErrors=True)
        pingers = [p for ok, p in results if ok]
        if len(pingers) < connections:
            result["error"] = f"only {len(pingers)} of {connections} connections opened"
        start = time.perf_counter()
        state["deadline"] = start + seconds
        for p in pingers:
            p.ping()
        await deferLater(reactor, seconds)
        result.update(
            round_trips=state["count"],
            seconds=time.perf_counter() - start,
            connections=len(pingers),
        )
        for p in pingers:
            cast(Any, p.transport).loseConnection()

    def finish(_: object) -> None:
        reactor.stop()

    d = ensureDeferred(main())
    d.addErrback(lambda f: result.setdefault("error", f.getErrorMessage()))
    d.addBoth(finish)
    reactor.callLater(seconds + 30, reactor.stop)  # hard bound whatever happens
    reactor.run()
    print(json.dumps(result))
    return 1 if "error" in result else 0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as fh:
        parts = fh.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def run_echo_baseline(
    connections: int,
    seconds: float,
    *,
    reactor: str = "asyncio",
    load_processes: int = 1,
    report: dict[str, float] | None = None,
) -> float:
    """Round trips per second a bare echo server sustains for `connections` busy clients.

    Spawns one server process and `load_processes` load processes (connections split among
    them), all on 127.0.0.1, and returns when they are done (about `seconds` plus startup).
    With `report`, also the echo server's CPU per message there (`cpu_us_per_msg`, over
    the load's whole run): on a machine shared with other work the rate measures the
    server's share of a core as much as its speed, and its CPU per message does not.
    """
    if connections < 1 or not 0 < seconds <= 3600 or load_processes < 1:
        raise ValueError("need connections ≥ 1, 0 < seconds ≤ 3600 and load_processes ≥ 1")
    if reactor not in REACTORS:
        raise ValueError(f"reactor must be one of {', '.join(REACTORS)}")
    load_processes = min(load_processes, connections)
    server = subprocess.Popen(
        [sys.executable, SCRIPT, "serve", "--reactor", reactor],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"echo server did not start (said {line!r})")
        port = int(line.split()[1])
        cpu0 = _cpu_seconds(server.pid)
        shares = [
            connections // load_processes + (i < connections % load_processes)
            for i in range(load_processes)
        ]
        loaders = [
            subprocess.Popen(
                [
                    sys.executable,
                    SCRIPT,
                    "load",
                    "--port",
                    str(port),
                    "--connections",
                    str(n),
                    "--seconds",
                    str(seconds),
                    "--reactor",
                    reactor,
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for n in shares
        ]
        rate = 0.0
        trips = 0
        for proc in loaders:
            out, _ = proc.communicate(timeout=seconds + 60)
            said = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
            if "error" in said or "round_trips" not in said:
                raise RuntimeError(f"load generator failed: {said.get('error', out)!r}")
            rate += said["round_trips"] / said["seconds"]
            trips += said["round_trips"]
        if report is not None and trips:
            report["cpu_us_per_msg"] = 1e6 * (_cpu_seconds(server.pid) - cpu0) / (2 * trips)
        return rate
    finally:
        if server.stdin is not None:
            server.stdin.close()  # the server stops on EOF
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reactor", choices=REACTORS, default="asyncio")
    sub = parser.add_subparsers(dest="role")
    p_serve = sub.add_parser("serve", help="(internal) run the echo server")
    p_serve.add_argument("--max-lifetime", type=float, default=SERVER_MAX_LIFETIME_S)
    p_serve.add_argument("--reactor", choices=REACTORS, default="asyncio")
    p_load = sub.add_parser("load", help="(internal) run one load generator")
    p_load.add_argument("--port", type=int, required=True)
    p_load.add_argument("--connections", type=int, required=True)
    p_load.add_argument("--seconds", type=float, required=True)
    p_load.add_argument("--reactor", choices=REACTORS, default="asyncio")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--load-processes", type=int, default=1)
    args = parser.parse_args(argv)
    if args.role == "serve":
        return serve(args.reactor, args.max_lifetime)
    if args.role == "load":
        return load(args.port, args.connections, args.seconds, args.reactor)
    try:
        rate = run_echo_baseline(
            args.connections,
            args.seconds,
            reactor=args.reactor,
            load_processes=args.load_processes,
        )
    except (ValueError, RuntimeError) as exc:
        print(f"echo_baseline: {exc}", file=sys.stderr)
        return 2
    print(
        f"echo baseline ({args.reactor} reactor, {args.connections} connections, "
        f"{args.load_processes} load process(es), {args.seconds:g} s): "
        f"{rate:,.0f} round trips/s ({2 * rate:,.0f} messages/s both ways)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
