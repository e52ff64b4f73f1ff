"""Shared pieces of the load and fault benchmarks (bench/load.py, fuzz.py, storm.py, crash.py,
flood.py).

- `ServerProcess`: a real `leekha serve` subprocess on 127.0.0.1 with its own data folder,
  config file and log, read back through /proc (CPU seconds, RSS) and its log (tracebacks).
- `Conn` / `Player` / `TableRun`: a lean asyncio client that speaks the wire protocol
  through `leekha.protocol.Connection` (the session rules every peer shares: hello first,
  request ids, pings) and plays legal random cards, immediately or after a human-like
  think time. Handlers see plain dicts (`wire_map`). The fuzz and flood benches write raw
  frames of their own on purpose: they test the server with what no client would send.
- Statistics helpers: percentiles, round invariants, record checks.

Everything talks to 127.0.0.1 only, and every wait has a timeout.

Why this is not `leekha.client.session` (the client every player runs): the benches open
up to 16,000 connections from one or two load processes, and what a load process costs
per connection and per message sets the ceiling of what they can measure.
- The load runs on plain asyncio, not on a second Twisted stack like the server's: one
  process holds thousands of bare `asyncio.Protocol`s, where a `ClientService` per
  connection brings a factory, a back-off policy, a token file and timers of its own.
- The session rules are still the protocol's own: `Conn` sends and receives through
  `leekha.protocol.Connection` (hello first, request ids, pings). Only the full-speed
  and attack loads pass `checked=False`, which unpacks frames to dicts without building
  and validating a message per frame: that cost a load process a third of its CPU, and
  at full speed the load process shares the two cores with the server it measures.
- `Player._reconnect` is not a second reconnect policy for players: the storm and crash
  benches decide when a seat drops and comes back (their disruption schedule), and count
  every resume; a back-off policy would blur exactly what they measure.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import resource
import select
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from leekha import protocol as P
from leekha.common import cards as C
from leekha.common.actions import PASS_COUNT
from leekha.common.config import RulesConfig, preset
from leekha.common.game import legal_passes, replay
from leekha.common.legality import pass_error
from leekha.protocol.message import wire_map

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent
VERSIONS = [[1, 0]]  # the oldest version: what the server must keep speaking
#: Settings that let thousands of loopback clients in: every client shares one address, so
#: a kicked fuzz connection must not shut the others out either (no kick penalty), and its
#: thousands of tables are not one address burying the lobby.
OPEN_LIMITS = (
    "--max-connections",
    "100000",
    "--max-connections-per-ip",
    "100000",
    "--new-connections-per-ip-per-s",
    "100000",
    "--kick-penalty-s",
    "0",
    "--max-tables-per-address",
    "1000000",
    "--max-deserted-tables",
    "1000000",
)
#: Settings that take the per-connection rate limit out of a throughput measurement.
NO_RATE_LIMIT = ("--rate-limit-msgs-per-s", "1000000", "--rate-burst", "1000000")
_CLK_TCK = os.sysconf("SC_CLK_TCK")
#: A latency over this (seconds) is also kept with its time of arrival (Stats.late).
LATE_S = 0.020


def raise_fd_limit() -> int:
    """Raise this process's open-file limit to its hard limit; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    mem = ""
    with contextlib.suppress(OSError), open("/proc/meminfo") as fh:
        mem = fh.readline().split(":", 1)[1].strip()
    return {"cores": os.cpu_count(), "mem_total": mem, "python": sys.version.split()[0]}


# ---- the server process -------------------------------------------------------------------
class ServerProcess:
    """`python -m leekha.client.cli serve` on 127.0.0.1 with an isolated data folder.

    Use as a context manager or call `stop()` in a finally block: the process is always
    killed, even when the benchmark fails.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        extra: Sequence[str] = (),
        log_level: str = "info",
        port: int = 0,
        patch: str | None = None,
        pythonpath: str | None = None,
    ) -> None:
        self.patch = patch
        #: Put ahead of this environment's packages in the server's PYTHONPATH: another
        #: checkout's `leekha` tree, for an A/B of two servers (`load.py human --against`).
        self.pythonpath = pythonpath
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.extra = list(extra)
        self.log_level = log_level
        self.port = port
        self.log_path = self.data_dir / "server.log"
        self.stderr_path = self.data_dir / "server.stderr"
        self.config_path = self.data_dir / "empty.toml"
        self.config_path.write_text("# isolated from the per-user config\n")
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        #: The port of every listener, in the order `leekha serve` printed them.
        self.ports: list[int] = []
        #: The table page's port (its WebSocket is /ws there), if it printed one.
        self.web_port: int | None = None

    def start(self, timeout: float = 30.0) -> int:
        """Start (or restart on the same data folder and port) and return the port."""
        raise_fd_limit()  # inherited by the child
        launcher = (
            ["-m", "leekha.client.cli"]
            if self.patch is None
            else [str(ROOT / "bench" / "serverpatch.py"), self.patch]
        )
        cmd = [
            sys.executable,
            *launcher,
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--data",
            str(self.data_dir),
            "--no-announce",
            "--config",
            str(self.config_path),
            "--log-file",
            str(self.log_path),
            "--log-level",
            self.log_level,
            *self.extra,
        ]
        err = self.stderr_path.open("ab")
        env = None
        if self.pythonpath is not None:
            env = dict(os.environ, PYTHONPATH=self.pythonpath)
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, cwd=ROOT, env=env
        )
        err.close()
        self.starts += 1
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        line = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
                if b"\n" in line:
                    break
            elif self.proc.poll() is not None:
                break
        # Further listeners print their line right after the first.
        while self.proc.poll() is None and select.select([self.proc.stdout], [], [], 0.3)[0]:
            chunk = os.read(self.proc.stdout.fileno(), 4096)
            if not chunk:
                break
            line += chunk
        lines = line.decode(errors="replace").splitlines()
        text = lines[0].strip() if lines else ""
        if not text.startswith("listening on "):
            self.kill()
            raise RuntimeError(
                f"server did not start: {text!r}; stderr: {self.stderr_path.read_text()[-2000:]}"
            )
        self.port = int(text.rsplit(":", 1)[1])
        self.ports = [self.port] + [
            int(ln.rsplit(" port ", 1)[1])
            for ln in lines[1:]
            if ln.startswith("listening on ") and " port " in ln
        ]
        page = [ln for ln in lines if ln.startswith("table page: ")]
        self.web_port = int(page[0].rstrip("/").rsplit(":", 1)[1]) if page else None
        return self.port

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far."""
        return sum(self.cpu_times())

    def cpu_times(self) -> tuple[float, float]:
        """User and system (kernel: the sockets, SQLite's file writes) CPU time of the
        server process so far."""
        with open(f"/proc/{self.pid}/stat") as fh:
            parts = fh.read().rsplit(")", 1)[1].split()
        return int(parts[11]) / _CLK_TCK, int(parts[12]) / _CLK_TCK

    def rss_bytes(self) -> int:
        with open(f"/proc/{self.pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def kill(self) -> None:
        """kill -9, as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM, then SIGKILL after `timeout` s. Returns the exit code (-9 if killed)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return self.proc.returncode

    def problems(self) -> list[str]:
        """Lines of the log and stderr that show an unhandled error."""
        out: list[str] = []
        for path in (self.log_path, self.stderr_path):
            if not path.exists():
                continue
            for line in path.read_text(errors="replace").splitlines():
                if "Traceback" in line or "Unhandled" in line:
                    out.append(f"{path.name}: {line.strip()}")
        return out

    def log_excerpt(self, needle: str, context: int = 30) -> str:
        """The log around the first line containing `needle` (to quote a bug in a report)."""
        lines = self.log_path.read_text(errors="replace").splitlines()
        for i, line in enumerate(lines):
            if needle in line:
                return "\n".join(lines[max(0, i - 2) : i + context])
        return ""

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def export_records(data_dir: Path) -> list[dict[str, Any]]:
    """`leekha records export --data DIR --format json`, parsed."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "leekha.client.cli",
            "records",
            "export",
            "--data",
            str(data_dir),
            "--format",
            "json",
        ],
        capture_output=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    return list(json.loads(out.stdout))


# ---- statistics ---------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def median(values: Sequence[float]) -> float:
    return percentile(values, 50)


def round_problems(config: RulesConfig, msg: dict[str, Any]) -> list[str]:
    """Invariants of one `round_scored` (no doubling, no moon penalty): the penalty cards are
    split among the seats without overlap, each seat's points are its cards' points, and the
    points sum to the round total (36 in classic)."""
    pts = config.card_points()
    penalty = {c for c in range(52) if pts[c]}
    taken = [list(t) for t in msg["taken"]]
    problems = []
    seen: list[int] = [c for t in taken for c in t]
    if len(seen) != len(set(seen)) or set(seen) != penalty:
        problems.append(f"round {msg['round']}: penalty cards not conserved: {taken}")
    for i, t in enumerate(taken):
        if sum(pts[c] for c in t) != msg["round_points"][i]:
            problems.append(f"round {msg['round']}: seat {i} points do not match its cards")
    if sum(msg["round_points"]) != config.round_total:
        problems.append(
            f"round {msg['round']}: points sum {sum(msg['round_points'])} != {config.round_total}"
        )
    return problems


def record_problems(record: dict[str, Any]) -> list[str]:
    """Replay a stored record with the engine: it must be legal, finished and sum right."""
    config = RulesConfig.from_dict(record["rules"])
    try:
        game = replay(config, record["seed"], record["actions"])
    except Exception as exc:
        return [f"record does not replay: {exc}"]
    problems = []
    if game.outcome is None:
        problems.append("record does not reach game over")
    if config.game_end == "round_end" and not config.doubling and not config.moon_penalty:
        for r, pts in enumerate(game.history):
            if sum(pts) != config.round_total:
                problems.append(f"round {r} sums to {sum(pts)}")
    return problems


# ---- the client ---------------------------------------------------------------------------
def raw_frame(obj: Any) -> bytes:
    """A length-prefixed msgpack frame of anything, well-formed message or not."""
    body: bytes = msgpack.packb(obj, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def split_frames(buf: bytearray) -> list[dict[str, Any]]:
    """Take every complete frame off the front of `buf`, unpacked (no checks)."""
    out = []
    at, end = 0, len(buf)
    while end - at >= 4:
        n = int.from_bytes(buf[at : at + 4], "big")
        if end - at - 4 < n:
            break
        out.append(msgpack.unpackb(buf[at + 4 : at + 4 + n], raw=False))
        at += 4 + n
    del buf[:at]
    return out


class Conn(asyncio.Protocol):
    """One connection: a protocol `Connection` over an asyncio transport; `request` waits
    for the reply its id gets.

    With `checked=False` it is a lean client for the load benches: it still says hello
    first, numbers its requests and answers pings, but packs and unpacks plain dicts
    without building (and validating) a message object for each frame, which cost a load
    process about a third of its CPU."""

    def __init__(
        self, on_message: Callable[[dict[str, Any]], None], *, checked: bool = True
    ) -> None:
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.conn = P.Connection("client") if checked else None
        self._buf = bytearray()
        self._ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sent = 0
        self.received = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self.conn is None:
            self._buf += data
            messages = split_frames(self._buf)
            self.received += len(messages)
            for msg in messages:
                if msg.get("type") == "ping":
                    self.write(raw_frame({"type": "pong", "re": msg.get("id")}))
                else:
                    self._deliver(msg)
            return
        try:
            checked = self.conn.receive_data(data)
        except P.ProtocolError as exc:
            print(f"bad data from the server: {exc}", file=sys.stderr)
            self.abort()
            return
        self.received += len(checked)
        pongs = self.conn.data_to_send()
        if pongs:
            self.write(pongs)
        for message in checked:
            if not isinstance(message, P.Ping):
                self._deliver(wire_map(message))

    def _deliver(self, msg: dict[str, Any]) -> None:
        try:
            self.on_message(msg)
        except Exception as exc:  # a client bug must not look like a server fault
            print(f"client error on {msg.get('type')}: {exc!r}", file=sys.stderr)
        re = msg.get("re")
        if re is not None and re in self.pending:
            fut = self.pending.pop(re)
            if not fut.done():
                fut.set_result(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.conn.connection_lost()
        if not self.closed.done():
            self.closed.set_result(None)
        for fut in self.pending.values():
            if not fut.done():
                fut.set_exception(ConnectionError("connection closed"))
        self.pending.clear()

    @property
    def open(self) -> bool:
        return self.transport is not None and not self.closed.done()

    def send(self, msg: dict[str, Any]) -> int:
        """Send one message; requests get the next id. Returns the id (or -1)."""
        rid = -1
        if "re" not in msg and "id" not in msg:
            rid = msg["id"] = next(self._ids) if self.conn is None else self.conn.new_id()
        if self.conn is None:
            self.write(raw_frame(msg))
            return rid
        try:
            data = self.conn.send(P.from_dict(msg))
        except (P.ProtocolError, P.LocalProtocolError) as exc:
            print(f"not sent: {exc}", file=sys.stderr)
            return rid
        self.write(data)
        return rid

    def write(self, data: bytes) -> None:
        if self.open:
            assert self.transport is not None
            self.transport.write(data)
            self.sent += 1

    async def request(self, msg: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        rid = self.send(msg)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = fut
        return await asyncio.wait_for(fut, timeout)

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


class WsConn(Conn):
    """The same client over the table page's WebSocket (`/ws`): an HTTP upgrade by
    wsproto, then one binary message per protocol message (docs/protocol.md,
    "WebSocket"). What arrives is re-framed for `Conn`; what `Conn` writes is split into
    one message per frame. `ready` fires once the server accepted the upgrade."""

    def __init__(
        self, on_message: Callable[[dict[str, Any]], None], *, checked: bool = True, port: int
    ) -> None:
        import wsproto

        super().__init__(on_message, checked=checked)
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._where = f"{HOST}:{port}"
        self._partial = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        from wsproto.events import Request

        super().connection_made(transport)
        assert self.transport is not None
        self.transport.write(self.ws.send(Request(host=self._where, target="/ws")))

    def data_received(self, data: bytes) -> None:
        from wsproto.events import (
            AcceptConnection,
            BytesMessage,
            CloseConnection,
            Ping,
            RejectConnection,
        )

        self.ws.receive_data(data)
        for event in self.ws.events():
            if isinstance(event, BytesMessage):
                self._partial += event.data
                if event.message_finished:
                    body = bytes(self._partial)
                    self._partial.clear()
                    super().data_received(len(body).to_bytes(4, "big") + body)
            elif isinstance(event, AcceptConnection) and not self.ready.done():
                self.ready.set_result(None)
            elif isinstance(event, Ping) and self.transport is not None:
                self.transport.write(self.ws.send(event.response()))
            elif isinstance(event, CloseConnection | RejectConnection):
                if not self.ready.done():
                    self.ready.set_exception(ConnectionError(f"WebSocket refused: {event}"))
                self.abort()

    def write(self, data: bytes) -> None:
        from wsproto.events import BytesMessage

        if not self.open:
            return
        assert self.transport is not None
        out = bytearray()
        at, end = 0, len(data)
        while at < end:
            n = int.from_bytes(data[at : at + 4], "big")
            out += self.ws.send(BytesMessage(data=data[at + 4 : at + 4 + n]))
            at += 4 + n
        self.transport.write(bytes(out))
        self.sent += 1


def _bench_tls() -> ssl.SSLContext:
    """TLS to our own server on loopback: encrypted like the real thing, not verified (the
    client's trust rules are not what a latency figure measures)."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


async def connect(
    port: int,
    on_message: Callable[[dict[str, Any]], None],
    *,
    tls: bool = False,
    source: str | None = None,
    checked: bool = True,
    ws: bool = False,
) -> Conn:
    """A client on `port`; with `ws` over the table page's WebSocket there."""
    loop = asyncio.get_running_loop()

    def made() -> Conn:
        if ws:
            return WsConn(on_message, checked=checked, port=port)
        return Conn(on_message, checked=checked)

    _, proto = await asyncio.wait_for(
        loop.create_connection(
            made,
            HOST,
            port,
            ssl=_bench_tls() if tls else None,
            local_addr=(source, 0) if source is not None else None,
        ),
        30,
    )
    if isinstance(proto, WsConn):
        await asyncio.wait_for(proto.ready, 30)
    return proto


@dataclass
class Stats:
    """What a load process measures; merged across processes by the benches."""

    latencies: list[float] = field(default_factory=list)  # seconds, action → other seat
    #: (wall-clock time of arrival, ms) of each latency over LATE_S, to line up with stalls.
    late: list[tuple[float, float]] = field(default_factory=list)
    action_errors: list[str] = field(default_factory=list)
    invariant_problems: list[str] = field(default_factory=list)
    rounds_checked: int = 0
    games_over: int = 0
    recording: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "latencies": self.latencies,
            "late": self.late[-2000:],
            "action_errors": self.action_errors[:50],
            "action_error_count": len(self.action_errors),
            "invariant_problems": self.invariant_problems[:50],
            "rounds_checked": self.rounds_checked,
            "games_over": self.games_over,
        }


class TableRun:
    """Four players at one table, and what they saw together."""

    def __init__(
        self,
        index: int,
        config: RulesConfig,
        stats: Stats,
        *,
        prefix: str = "p",
        think: Callable[[], float] = lambda: 0.0,
        rematch: bool = False,
        seed: int = 0,
        tls: bool = False,
        source: str | None = None,
        checked: bool = True,
        ws: bool = False,
    ) -> None:
        self.index = index
        #: The players connect over the table page's WebSocket (WsConn).
        self.ws = ws
        #: Whether the players check every frame through `leekha.protocol` (see Conn).
        self.checked = checked
        self.tls = tls
        #: The loopback address the table's players connect from (None: the default).
        self.source = source
        self.config = config
        self.stats = stats
        self.rematch = rematch
        self.rng = random.Random(seed * 7919 + index)
        self.table_id: int | None = None
        self.players = [
            Player(self, f"{prefix}{index}s{i}", think, random.Random(self.rng.random()))
            for i in range(4)
        ]
        self.sent_at: dict[tuple[int, int], float] = {}
        self.rounds: dict[tuple[int, int], dict[str, Any]] = {}  # (game, round) → round_scored
        self.game_no = 0
        self.over: asyncio.Event = asyncio.Event()
        self.games_done = 0
        #: Every action a client saw acknowledged (`ok`) or echoed, in order per game.
        self.acked: dict[int, list[dict[str, Any]]] = {}

    async def open(self, port: int, *, target: int | None = None, timers: int = 3600) -> None:
        for p in self.players:
            await p.connect(port)
            await p.hello()
        overrides = {"target": target} if target is not None else {}
        host = self.players[0].conn
        assert host is not None
        snap = await host.request(
            {
                "type": "create_table",
                "name": f"t{self.index}"[:24],
                "preset": "classic",
                "overrides": overrides,
                "password": None,
                "pass_timer_s": timers,
                "turn_timer_s": timers,
            }
        )
        if snap["type"] != "snapshot":
            raise RuntimeError(f"create_table failed: {snap}")
        self.table_id = snap["table"]["id"]
        for i, p in enumerate(self.players[1:], 1):
            assert p.conn is not None
            reply = await p.conn.request(
                {"type": "join_seat", "table_id": self.table_id, "seat": i, "password": None}
            )
            if reply["type"] != "snapshot":
                raise RuntimeError(f"join_seat failed: {reply}")

    async def start(self) -> None:
        host = self.players[0].conn
        assert host is not None
        reply = await host.request({"type": "start"})
        if reply["type"] != "ok":
            raise RuntimeError(f"start failed: {reply}")

    def close(self) -> None:
        for p in self.players:
            if p.conn is not None:
                p.conn.abort()

    # ---- shared observations ---------------------------------------------------------------
    def round_scored(self, msg: dict[str, Any]) -> None:
        key = (self.game_no, int(msg["round"]))
        if key in self.rounds:
            if self.rounds[key]["round_points"] != msg["round_points"]:
                self.stats.invariant_problems.append(f"table {self.index}: seats disagree")
            return
        self.rounds[key] = msg
        self.stats.rounds_checked += 1
        self.stats.invariant_problems.extend(
            f"table {self.index}: {p}" for p in round_problems(self.config, msg)
        )

    def game_over(self) -> None:
        if self.over.is_set():
            return
        self.over.set()
        self.games_done += 1
        self.stats.games_over += 1

    def new_game(self) -> None:
        if self.over.is_set():
            self.over.clear()
            self.game_no += 1


class Player:
    """One seat's client: keeps its hand and plays random legal moves when prompted."""

    def __init__(
        self, table: TableRun, name: str, think: Callable[[], float], rng: random.Random
    ) -> None:
        self.table = table
        self.name = name
        self.think = think
        self.rng = rng
        self.conn: Conn | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.hand = 0
        self.phase: str | None = None
        self.round = 0
        self.turn_key: tuple[Any, ...] | None = None
        self.port = 0
        self.pending_actions: dict[int, dict[str, Any]] = {}
        self.kicked: list[str] = []
        #: Reconnect with the token whenever the connection drops (crash recovery).
        self.auto_resume = False
        self.resumes = 0
        self._reconnecting: asyncio.Future[None] | None = None

    async def connect(self, port: int) -> None:
        self.port = port
        self.conn = await connect(
            port,
            self.on_message,
            tls=self.table.tls,
            source=self.table.source,
            checked=self.table.checked,
            ws=self.table.ws,
        )
        self._watch(self.conn)

    def _watch(self, conn: Conn) -> None:
        conn.closed.add_done_callback(lambda _f: self._lost(conn))

    def _lost(self, conn: Conn) -> None:
        if conn is self.conn and self.auto_resume and not self.table.over.is_set():
            self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self, patience: float = 60.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + patience
        while loop.time() < deadline and not self.table.over.is_set():
            try:
                welcome = await self.resume()
                if welcome.get("type") == "welcome":
                    self.resumes += 1
                    return
            except (TimeoutError, OSError, ConnectionError):
                pass
            await asyncio.sleep(0.1)
        if not self.table.over.is_set():
            self.table.stats.action_errors.append(f"{self.name}: could not resume")

    async def hello(self) -> None:
        assert self.conn is not None
        welcome = await self.conn.request(
            {"type": "hello", "versions": VERSIONS, "name": self.name, "client": "leekha-bench"}
        )
        if welcome["type"] != "welcome":
            raise RuntimeError(f"hello refused: {welcome}")
        self.token = welcome["token"]

    async def resume(self, port: int | None = None) -> dict[str, Any]:
        """Reconnect with the session token; returns the welcome (or error)."""
        if self.conn is not None:
            self.conn.abort()
        conn = await connect(
            port or self.port,
            self.on_message,
            tls=self.table.tls,
            source=self.table.source,
            checked=self.table.checked,
            ws=self.table.ws,
        )
        self.conn = conn
        self.pending_actions.clear()
        self.turn_key = None  # the server prompts again after a resume
        reply = await conn.request(
            {"type": "resume", "versions": VERSIONS, "token": self.token}, timeout=10
        )
        self._watch(conn)
        return reply

    # ---- events ----------------------------------------------------------------------------
    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        t = self.table
        if kind == "card_played":
            seat, card = int(msg["seat"]), int(msg["card"])
            if seat == self.seat:
                self.hand &= ~C.BIT[card]
            else:
                sent = t.sent_at.pop((seat, card), None)
                if sent is not None and t.stats.recording:
                    lat = time.perf_counter() - sent
                    t.stats.latencies.append(lat)
                    if lat > LATE_S:
                        t.stats.late.append((round(time.time(), 4), round(lat * 1000, 2)))
            self.ack(msg, {"kind": "play", "seat": seat, "card": card})
        elif kind == "pass_done":
            pass
        elif kind == "your_turn":
            self.prompted(msg["phase"], list(msg["legal"]))
        elif kind == "dealt":
            self.hand = C.mask_of(msg["hand"])
            self.round = int(msg["round"])
            self.phase = "pass"
        elif kind == "passed_received":
            self.hand |= C.mask_of(msg["cards"])
        elif kind == "snapshot":
            self.seat = msg.get("your_seat")
            view = msg.get("view")
            if view is not None:
                self.hand = C.mask_of(view["hand"])
                self.phase = view["phase"]
                self.round = int(view["round"])
                if view["phase"] != "game_over":
                    t.new_game()
        elif kind == "round_scored":
            t.round_scored(msg)
        elif kind == "game_over":
            t.game_over()
            if t.rematch and self.conn is not None:
                self.conn.send({"type": "rematch"})
        elif kind == "ok":
            action = self.pending_actions.pop(msg["re"], None)
            if action is not None:
                if action["kind"] == "pass":
                    self.hand &= ~C.mask_of(action["cards"])
                self.ack(msg, action)
        elif kind == "error":
            action = self.pending_actions.pop(msg.get("re") or -1, None)
            code = msg.get("code")
            if action is not None:
                t.stats.action_errors.append(f"{self.name}: {code} {msg.get('message')}")
            elif msg.get("re") is None:
                self.kicked.append(str(code))

    def ack(self, msg: dict[str, Any], action: dict[str, Any]) -> None:
        """Remember an action the server confirmed (its `ok`, or a card_played echo)."""
        acked = self.table.acked.setdefault(self.table.game_no, [])
        if action["kind"] == "play":
            entry = {"kind": "play", "seat": action["seat"], "card": action["card"]}
        else:
            entry = {"kind": "pass", "seat": action["seat"], "cards": sorted(action["cards"])}
        entry["round"] = action.get("round", self.round)
        if entry not in acked:
            acked.append(entry)

    def prompted(self, phase: str, legal: list[int]) -> None:
        key = (phase, self.hand, tuple(legal))
        self.turn_key = key
        delay = self.think()
        loop = asyncio.get_running_loop()
        if delay <= 0:
            loop.call_soon(self.act, key, phase, legal)
        else:
            loop.call_later(delay, self.act, key, phase, legal)

    def random_pass(self) -> Sequence[int] | None:
        """A legal pass drawn uniformly: random triples until one is legal (nearly always
        the first), instead of listing all 286 and checking each."""
        config, hand = self.table.config, self.hand
        held = C.cards_of(hand)
        if len(held) >= PASS_COUNT:
            for _ in range(50):
                triple = self.rng.sample(held, PASS_COUNT)
                if pass_error(config, hand, triple) is None:
                    return triple
        options = list(legal_passes(config, hand))
        return self.rng.choice(options) if options else None

    def act(self, key: tuple[Any, ...], phase: str, legal: list[int]) -> None:
        conn = self.conn
        if key != self.turn_key or self.seat is None:
            return
        if conn is None or not conn.open:
            # Between connections (a resume in flight): try again on the next connection.
            asyncio.get_running_loop().call_later(0.05, self.act, key, phase, legal)
            return
        self.turn_key = None
        if phase == "pass":
            chosen = self.random_pass()
            if chosen is None:
                self.table.stats.action_errors.append(f"{self.name}: no legal pass from my hand")
                return
            cards = sorted(chosen)
            action = {"kind": "pass", "seat": self.seat, "cards": cards, "round": self.round}
            rid = conn.send({"type": "pass_cards", "cards": cards})
        else:
            card = self.rng.choice(legal)
            action = {"kind": "play", "seat": self.seat, "card": card, "round": self.round}
            self.table.sent_at[(self.seat, card)] = time.perf_counter()
            rid = conn.send({"type": "play_card", "card": card})
        self.pending_actions[rid] = action


def spread_address(index: int) -> str:
    """A loopback source address of its own for table `index` (250 per /24; every
    127.x.y.z is this machine), so per-address limits at their defaults do not bind an
    honest load."""
    return f"127.{10 + index // 62500}.{index // 250 % 250}.{index % 250 + 1}"


def classic(target: int | None = None) -> RulesConfig:
    return preset("classic", {"target": target} if target is not None else {})


async def open_tables(
    port: int,
    count: int,
    stats: Stats,
    *,
    first_index: int = 0,
    prefix: str = "p",
    think: Callable[[], float] = lambda: 0.0,
    target: int | None = None,
    rematch: bool = False,
    concurrency: int = 25,
    seed: int = 0,
    timers: int = 3600,
    start: bool = True,
    tls: bool = False,
    spread: bool = False,
    checked: bool = True,
    ws: bool = False,
) -> list[TableRun]:
    """Open `count` tables of four client players, a few at a time (the server's hello
    timeout and accept backlog bound how fast a ramp may go), and start them. With
    `spread` each table connects from a loopback address of its own (spread_address);
    `checked=False` makes the players lean clients (Conn)."""
    config = classic(target)
    runs = [
        TableRun(
            first_index + i,
            config,
            stats,
            prefix=prefix,
            think=think,
            rematch=rematch,
            seed=seed,
            tls=tls,
            source=spread_address(first_index + i) if spread else None,
            checked=checked,
            ws=ws,
        )
        for i in range(count)
    ]
    gate = asyncio.Semaphore(concurrency)

    async def one(run: TableRun) -> None:
        async with gate:
            await run.open(port, target=target, timers=timers)
            if start:
                await run.start()

    await asyncio.gather(*(one(r) for r in runs))
    return runs


def quiet_gc() -> None:
    """Freeze what the set-up made and stop the cyclic collector for the measurement.

    A load process holding thousands of connections pauses for its own collections
    (bench/lagprobe.py in the load generators at 4,000 tables: young collections of
    15-40 ms, gen-1 of 35-190 ms, a full one of 765 ms), and every play in flight across
    such a pause is counted as server latency. A measurement window is seconds long: the
    few cycles it leaves behind wait for the process to exit."""
    gc.collect()
    gc.freeze()
    gc.disable()


def summarize_latency(latencies: Sequence[float]) -> dict[str, float]:
    ms = [x * 1000 for x in latencies]
    return {
        "samples": len(ms),
        "p50_ms": round(percentile(ms, 50), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "max_ms": round(max(ms), 3) if ms else float("nan"),
    }
