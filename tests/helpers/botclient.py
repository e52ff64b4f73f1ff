"""A bot client wired to an in-memory server harness, with snapshots of games in known states."""

from __future__ import annotations

from typing import Any

from twisted.internet import error
from twisted.internet.testing import MemoryReactorClock, StringTransport
from twisted.python.failure import Failure

from leekha import protocol as P
from leekha.client.bot.client import BotClient, BotOptions
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.common.view import seat_view
from leekha.protocol.views import PlayerInfo, TableStatus, TableSummary

from . import records as R

RULES = preset("classic").to_dict()


def summary(tid: int, name: str, status: TableStatus = "waiting", taken: int = 1) -> TableSummary:
    seats = [R.seat(f"p{i}") for i in range(taken)] + [R.seat() for _ in range(4 - taken)]
    return R.summary(id=tid, name=name, host="p0", rules=RULES, seats=seats, status=status)


def players(taken: int, host: int | None = None) -> list[PlayerInfo]:
    return [R.player(f"p{i}", host=i == host) if i < taken else R.player() for i in range(4)]


class Harness:
    """One bot, its fake reactor, and the fake server end of its current connection."""

    def __init__(self, **over: Any) -> None:
        self.reactor = MemoryReactorClock()
        opts = {"host": "127.0.0.1", "port": 7241, "name": "b", "table": "t", **over}
        self.bot = BotClient(self.reactor, BotOptions(**opts))
        self.bot.start()
        self.transport: StringTransport | None = None
        self.proto: Any = None
        self.decoder = P.Decoder(peer="client")

    def accept(self) -> None:
        """Complete the latest dial with a fresh transport."""
        _host, _port, factory, _timeout, _bind = self.reactor.tcpClients[-1]
        self.proto = factory.buildProtocol(None)
        self.transport = StringTransport()
        self.decoder = P.Decoder(peer="client")
        self.proto.makeConnection(self.transport)

    def refuse(self) -> None:
        _host, _port, factory, _timeout, _bind = self.reactor.tcpClients[-1]
        connector = self.reactor.connectors[-1]
        factory.clientConnectionFailed(connector, Failure(error.ConnectionRefusedError()))

    def sent(self) -> list[P.Message]:
        assert self.transport is not None
        data = self.transport.value()
        self.transport.clear()
        return self.decoder.feed(data)

    def feed(self, *msgs: P.Message) -> list[P.Message]:
        for msg in msgs:
            self.proto.dataReceived(P.encode(msg))
        return self.sent()

    def drop(self) -> None:
        self.proto.connectionLost(Failure(error.ConnectionLost()))

    def welcome(
        self, resumed: bool = False, version: tuple[int, int] = (1, 0), **where: Any
    ) -> list[P.Message]:
        hs = self.sent()[-1]
        assert isinstance(hs, (P.Hello, P.Resume))
        return self.feed(
            P.Welcome(re=hs.id, version=list(version), server="s", token="tok", name="b",
                      resumed=resumed, **where)
        )  # fmt: skip


def game_snapshot(seat: int = 0, seed: int = 7, **over: Any) -> tuple[P.Snapshot, Game]:
    game = Game(preset("classic"), seed)
    view = seat_view(game, seat).to_dict()
    msg = P.Snapshot(
        table=summary(1, "t", status="playing", taken=4), view=view, your_seat=seat,
        players=players(4, host=0), **over,
    )  # fmt: skip
    return msg, game


def only(msgs: list[P.Message], cls: type[P.Message]) -> Any:
    found = [m for m in msgs if isinstance(m, cls)]
    assert len(found) == 1, msgs
    return found[0]


class Broken:
    """A strategy that fails every way a strategy can: no doubles, a pass that raises,
    a card that is no card; the bot must still never stall."""

    name = "broken"

    def choose_doubles(self, view: Any) -> list[int]:
        return []

    def choose_pass(self, view: Any) -> list[int]:
        raise RuntimeError("boom")

    def choose_play(self, view: Any) -> int:
        return 99
