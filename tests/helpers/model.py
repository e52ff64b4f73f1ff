"""Client models in known states (welcomed, at a table, in the play phase) built from protocol
messages, shared by the client tests.
"""

from __future__ import annotations

from typing import Any

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.common import cards as C
from leekha.common.config import PRESETS
from leekha.protocol.views import PlayerInfo, TableStatus, TableSummary

from . import records as R


def seat_info(name: str | None, bot: bool = False, host: bool = False) -> PlayerInfo:
    return R.player(name, bot=bot, strategy="random" if bot else None, host=host)


def table(status: TableStatus = "waiting", preset: str = "classic", **rules: Any) -> TableSummary:
    return R.summary(
        id=7,
        name="Friday",
        host="ann",
        preset=preset,
        rules=PRESETS[preset].with_overrides(rules).to_dict(),
        seats=[R.seat(n, bot=n != "ann", connected=True) for n in ("ann", "b1", "b2", "b3")],
        status=status,
    )


PLAYERS = [seat_info("ann", host=True)] + [seat_info(f"b{i}", bot=True) for i in (1, 2, 3)]


HAND = C.parse_cards("2C 5C KC 3D 10D QD 2H 7H QH AH 4S QS AS")


def welcomed(name: str = "ann", version: tuple[int, int] = (1, 0), **kw: Any) -> M.ClientModel:
    m = M.ClientModel(name, clock=lambda: 100.0, **kw)
    m.apply(P.Welcome(re=1, version=list(version), server="srv", token="t" * 16, name=name))
    return m


def at_table(preset: str = "classic", **rules: Any) -> M.ClientModel:
    m = welcomed()
    m.apply(
        P.Snapshot(
            re=None,
            table=table("playing", preset, **rules),
            view=None,
            your_seat=0,
            players=PLAYERS,
        )
    )
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0))
    m.take_outbox()
    return m


def play_phase(**rules: Any) -> M.ClientModel:
    m = at_table(**rules)
    m.choices.pass_sel = set(C.parse_cards("AH QH 7H"))
    m.enter()
    m.enter()
    (req,) = m.take_outbox()
    assert isinstance(req, P.PassCards)
    m.apply(P.Ok(re=req.id))
    m.apply(P.PassDone(seat=0))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    return m
