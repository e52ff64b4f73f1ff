"""The 1.3 tournament messages: wire checks, the session rules, and the frame budget."""

from __future__ import annotations

from typing import Any

import pytest

from leekha import protocol as P
from leekha.protocol import tournaments as T
from leekha.protocol.codec import DEFAULT_MAX_FRAME, encode
from leekha.protocol.version import TOURNAMENTS, speaks
from leekha.protocol.views import Tournament

N = 2**31 - 1
WIDE = "\U0001f0a1" * 64  # 64 four-byte characters: the longest name the wire allows


def _session() -> P.Connection:
    conn = P.Connection("server")
    conn.receive_data(encode(P.Hello(id=1, versions=[[1, 3]], name="ann")))
    conn.send(P.Welcome(re=1, version=[1, 3], server="s", token="t", name="ann"))
    return conn


def test_tournament_requests_are_ordinary_traffic_once_welcomed() -> None:
    conn = _session()
    msgs = conn.receive_data(
        encode(P.ListTournaments(id=2)) + encode(P.EnterTournament(id=3, tournament_id=9))
    )
    assert [m.TYPE for m in msgs] == ["list_tournaments", "enter_tournament"]
    state = P.TournamentState(re=3, tournament=_state(entrants=4, tables=1, notes=0))
    assert conn.send(state)
    assert conn.state is P.State.READY


def test_a_tournament_request_before_hello_is_a_violation() -> None:
    conn = P.Connection("server")
    with pytest.raises(P.ProtocolError) as info:
        conn.receive_data(encode(P.GetTournament(id=4, tournament_id=1)))
    assert info.value.code == "not_hello_first" and info.value.re == 4


def test_a_server_may_not_send_a_request_nor_a_client_a_state() -> None:
    with pytest.raises(P.LocalProtocolError):
        _session().send(P.ListTournaments(id=5))
    with pytest.raises(P.ProtocolError) as info:
        _session().receive_data(encode(P.TournamentState(tournament=_state(4, 0, 0))))
    assert info.value.code == "unknown_type"


def test_only_1_3_speaks_tournaments() -> None:
    assert speaks([1, 3], TOURNAMENTS) and not speaks([1, 2], TOURNAMENTS)


def test_counts_are_wide_on_the_wire_so_the_server_can_refuse_them_in_words() -> None:
    """An absurd deal count or an unknown format decodes: the server answers
    bad_tournament and keeps the connection, instead of a bad_field that closes it."""
    msg = P.from_dict(
        {
            "type": "create_tournament",
            "id": 1,
            "name": "t",
            "format": "knockout",
            "entrants": [{"strategy": "random"}, {"name": "x", "strategy": "random"}, {}],
            "deals": -(2**63),
            "stages": 2**64 - 1,
        },
        "client",
    )
    assert isinstance(msg, P.CreateTournament)
    assert msg.entrants[2] == {"name": None, "strategy": None}
    assert (msg.deals, msg.stages, msg.format) == (-(2**63), 2**64 - 1, "knockout")
    assert msg.preset == "classic" and msg.overrides == {} and msg.move_timer_s is None


@pytest.mark.parametrize(
    ("key", "value"),
    [("deals", 1.5), ("deals", True), ("entrants", [{"name": ""}]), ("move_timer_s", 3601)],
)
def test_malformed_fields_are_bad_field(key: str, value: Any) -> None:
    data = {"type": "create_tournament", "id": 1, "name": "t", "entrants": [], "deals": 1}
    with pytest.raises(P.ProtocolError) as info:
        P.from_dict({**data, key: value}, "client")
    assert info.value.code == "bad_field" and key in info.value.message


def _state(entrants: int, tables: int, notes: int) -> Tournament:
    return {
        "id": 2**31 - 1,
        "name": WIDE,
        "format": "swiss",
        "status": "running",
        "preset": "classic",
        "rules": {f"k{i}": WIDE[:16] for i in range(32)},
        "deals": 500,
        "stages": 50,
        "move_timer_s": 3600,
        "entrants": [
            {"index": i, "name": WIDE, "strategy": "s" * 32, "kind": "client", "present": True}
            for i in range(entrants)
        ],
        "standings": [
            {
                "entrant": i,
                "rank": i + 1,
                "games": 2**31 - 1,
                "wins": 2**31 - 1,
                "rounds": 2**31 - 1,
                "points": -(2**31),
                "mean": -1234.5678,
                "low": -2345.678,
                "high": 1234.5678,
                "fallback_games": 2**31 - 1,
                "fallback_moves": 2**31 - 1,
            }
            for i in range(entrants)
        ],
        "tables": [
            {"table_id": N, "game": N, "deal": N, "rotation": 3, "seats": [N] * 4}
            for _ in range(tables)
        ],
        "games_done": 2**31 - 1,
        "games_total": 2**31 - 1,
        "notes": [WIDE[:50] * 4 for _ in range(notes)],
    }


def test_the_largest_state_a_server_sends_fits_one_frame() -> None:
    """64 entrants and 3 house bots with the longest names, every table and note full."""
    msg = P.TournamentState(re=1, tournament=_state(67, T.WIRE_TABLES, T.WIRE_NOTES))
    assert len(encode(msg)) - 4 <= DEFAULT_MAX_FRAME
