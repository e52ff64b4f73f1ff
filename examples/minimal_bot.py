#!/usr/bin/env python3
"""A complete Leekha bot in one file: the standard library's socket plus msgpack.

It imports nothing from leekha on purpose. It was written from docs/protocol.md alone, as
proof that the page is enough to build a client in any language:

    python examples/minimal_bot.py 127.0.0.1 7241 --table "Friday night"

It joins the named table (or creates it when there is no such table open, becoming the
host: it starts the game once four seats are filled, or at once with --fill STRATEGY,
which seats server bots in the empty seats). It plays random legal cards from each
`your_turn` prompt until `game_over`, then leaves. Exit code 0 after a finished game,
1 on a refusal or a dropped connection, 2 when the server cannot be reached.
"""

from __future__ import annotations

import argparse
import random
import socket
import struct
import sys
import time
from itertools import combinations
from typing import Any

import msgpack

VERSIONS = [[1, 0]]
HEADER = struct.Struct(">I")  # §1: 4-byte big-endian length, then one msgpack map
MAX_FRAME = 65536


class Refused(Exception):
    """The server said no (or hung up); the text is for the person running the bot."""


class Connection:
    """Framing (§1) and request ids (§2) over a blocking socket."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        # §9: small prompt-driven frames; Nagle plus delayed ACKs would add ~40 ms a move.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.next_id = 0

    def send(self, msg: dict[str, Any]) -> int:
        """Send a request with a fresh id; return the id."""
        self.next_id += 1
        msg = {"type": msg.pop("type"), "id": self.next_id, **msg}
        self.send_raw(msg)
        return self.next_id

    def send_raw(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg, use_bin_type=True)
        self.sock.sendall(HEADER.pack(len(body)) + body)

    def recv(self) -> dict[str, Any]:
        (size,) = HEADER.unpack(self._read(HEADER.size))
        if not 0 < size <= MAX_FRAME:
            raise Refused(f"bad frame length {size}")
        msg = msgpack.unpackb(self._read(size), raw=False)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise Refused("the server sent something that is not a message")
        if msg["type"] == "ping":  # §2: answer keepalives, whatever else is going on
            self.send_raw({"type": "pong", "re": msg["id"]})
            return self.recv()
        return msg

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Refused("the server closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def close(self) -> None:
        self.sock.close()


def suit(card: int) -> int:
    return card // 13


def pass_choices(hand: list[int], legal: list[int], rng: random.Random) -> list[list[int]]:
    """Every 3-card pass from the passable cards, safest first.

    Under the pass ban a pass may not empty a suit (the Leekha cards and those above them
    are exempt, but the doc does not spell the exemption out), so passes that leave at
    least one card of every suit we hold come first: those are always allowed. The rest
    follow in case the server accepts them; a refused pass is retried with the next one.
    """
    options = [list(c) for c in combinations(sorted(legal), 3)]
    rng.shuffle(options)

    def empties_a_suit(cards: list[int]) -> bool:
        rest = [c for c in hand if c not in cards]
        return any(not any(suit(r) == suit(c) for r in rest) for c in cards)

    return sorted(options, key=empties_a_suit)


class Bot:
    def __init__(self, conn: Connection, args: argparse.Namespace) -> None:
        self.conn = conn
        self.args = args
        self.rng = random.Random(args.seed)
        self.seat: int | None = None
        self.host = False
        self.occupied = [False] * 4
        self.started = False
        self.hand: list[int] = []
        self.passes: list[list[int]] = []  # untried passes for the current prompt
        self.last_pass: list[int] = []
        self.last_play = -1
        self.pending: dict[int, str] = {}  # request id -> what it was

    # ---- requests ----------------------------------------------------------------------
    def request(self, kind: str, **fields: Any) -> None:
        self.pending[self.conn.send({"type": kind, **fields})] = kind

    def wait_for(self, kind: str, rid: int) -> dict[str, Any]:
        """Read until the reply to request `rid`, handling events on the way."""
        while True:
            msg = self.conn.recv()
            if msg.get("re") == rid and msg["type"] == "error":
                raise Refused(f"{kind} refused: {msg['code']}: {msg['message']}")
            if msg.get("re") == rid:
                return msg
            self.handle(msg)

    # ---- lobby -------------------------------------------------------------------------
    def hello(self) -> None:
        rid = self.conn.send(
            {
                "type": "hello",
                "versions": VERSIONS,
                "name": self.args.name,
                "client": "minimal_bot.py",
            }
        )
        welcome = self.wait_for("hello", rid)
        print(f"connected as {welcome['name']} to {welcome['server']}", file=sys.stderr)

    def sit(self) -> None:
        rid = self.conn.send({"type": "list_tables"})
        tables = self.wait_for("list_tables", rid)["tables"]
        mine = [
            t
            for t in tables
            if t["name"] == self.args.table
            and t["status"] == "waiting"
            and any(s["name"] is None for s in t["seats"])
            and not t["has_password"]
        ]
        if mine:
            rid = self.conn.send({"type": "join_seat", "table_id": mine[0]["id"], "seat": None})
        else:
            overrides = {"target": self.args.target} if self.args.target else {}
            rid = self.conn.send(
                {
                    "type": "create_table",
                    "name": self.args.table,
                    "preset": self.args.preset,
                    "overrides": overrides,
                }
            )
        self.on_snapshot(self.wait_for("sit", rid))
        print(f"seat {self.seat + 1} at table {self.args.table!r}", file=sys.stderr)
        if self.host and self.args.fill:
            for seat in range(4):
                if not self.occupied[seat]:
                    rid = self.conn.send(
                        {"type": "add_bot", "seat": seat, "strategy": self.args.fill}
                    )
                    self.wait_for("add_bot", rid)
                    self.occupied[seat] = True
        self.maybe_start()

    def maybe_start(self) -> None:
        if self.host and not self.started and all(self.occupied):
            self.started = True
            self.request("start")

    # ---- the game ----------------------------------------------------------------------
    def play(self) -> int:
        while True:
            msg = self.conn.recv()
            if msg["type"] == "game_over":
                print(
                    f"game over: totals {msg['totals']}, winners {msg['winners']}", file=sys.stderr
                )
                self.conn.send({"type": "leave"})
                return 0
            self.handle(msg)

    def handle(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "snapshot":
            self.on_snapshot(msg)
        elif kind == "seat_update":
            self.occupied[msg["seat"]] = msg["player"]["name"] is not None
            self.maybe_start()
        elif kind == "dealt":
            self.hand = list(msg["hand"])
        elif kind == "passed_received":
            self.hand = sorted(self.hand + list(msg["cards"]))
        elif kind == "card_played" and msg["seat"] == self.seat:
            self.hand = [c for c in self.hand if c != msg["card"]]
        elif kind == "your_turn":
            self.on_turn(msg)
        elif kind == "error":
            self.on_error(msg)
        elif kind == "ok":
            self.pending.pop(msg["re"], None)

    def on_snapshot(self, msg: dict[str, Any]) -> None:
        self.seat = msg["your_seat"]
        players = msg["players"]
        self.occupied = [p["name"] is not None for p in players]
        self.host = self.seat is not None and bool(players[self.seat].get("is_host"))
        if msg["table"]["status"] != "waiting":
            self.started = True
        view = msg.get("view")
        if view is not None:
            self.hand = list(view["hand"])

    def on_turn(self, msg: dict[str, Any]) -> None:
        legal = list(msg["legal"])
        if msg["phase"] == "pass":
            self.passes = pass_choices(self.hand, legal, self.rng)
            self.send_pass()
        else:
            self.last_play = self.rng.choice(legal)
            self.request("play_card", card=self.last_play)

    def send_pass(self) -> None:
        if self.passes:
            cards = self.passes.pop(0)
            self.hand = [c for c in self.hand if c not in cards]
            self.last_pass = cards
            self.request("pass_cards", cards=cards)

    def on_error(self, msg: dict[str, Any]) -> None:
        what = self.pending.pop(msg["re"], None) if msg.get("re") is not None else None
        print(f"refused {what}: {msg['code']}: {msg['message']}", file=sys.stderr)
        if msg["code"] == "rate_limited" and what in ("pass_cards", "play_card"):
            time.sleep(0.25)  # too quick, not wrong: send the same move again (§ error codes)
            if what == "play_card":
                self.request("play_card", card=self.last_play)
            else:
                self.request("pass_cards", cards=self.last_pass)
        elif what == "pass_cards":
            self.hand = sorted(self.hand + self.last_pass)  # a refusal has no effect (§2)
            self.send_pass()
        elif what == "start":
            self.started = False  # not_ready: wait for the next seat_update


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A minimal Leekha bot (socket + msgpack).")
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--table", default="minimal", help="table name to join or create")
    parser.add_argument("--name", default=f"minimal-{random.randrange(10_000)}")
    parser.add_argument("--preset", default="classic", help="rules preset when creating")
    parser.add_argument("--target", type=int, help="target score when creating (short games)")
    parser.add_argument(
        "--fill",
        metavar="STRATEGY",
        help="as host, fill empty seats with server bots (e.g. random)",
    )
    parser.add_argument("--seed", type=int)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait per read")
    args = parser.parse_args(argv)
    try:
        conn = Connection(args.host, args.port, args.timeout)
    except OSError as exc:
        print(f"cannot connect to {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    bot = Bot(conn, args)
    try:
        bot.hello()
        bot.sit()
        return bot.play()
    except (Refused, OSError, ValueError) as exc:
        print(f"stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
