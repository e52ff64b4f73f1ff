"""The TypedDicts of protocol/views.py name exactly the keys the wire records check."""

from __future__ import annotations

import dataclasses

import pytest

from leekha.common.view import SeatView as EngineSeatView
from leekha.common.view import SeatViewDict
from leekha.protocol import people, records, tournaments, views
from leekha.protocol.schema import RecordSpec

PAIRS = [
    (views.SeatInfo, records.SEAT_INFO),
    (views.Timers, records.TIMERS),
    (views.TableSummary, records.TABLE_SUMMARY),
    (views.PlayerInfo, records.PLAYER_INFO),
    (views.TrickRecord, records.TRICK_RECORD),
    (views.SeatStats, records.SEAT_STATS),
    (views.Result, records.RESULT),
    (views.PlayerStats, records.PLAYER_STATS),
    (views.RecentGame, people.RECENT_GAME),
    (views.EntrantRequest, tournaments.ENTRANT_REQUEST),
    (views.Entrant, tournaments.ENTRANT),
    (views.Standing, tournaments.STANDING),
    (views.TournamentTable, tournaments.TOURNAMENT_TABLE),
    (views.TournamentSummary, tournaments.TOURNAMENT_SUMMARY),
    (views.Tournament, tournaments.TOURNAMENT),
]


@pytest.mark.parametrize(("typed", "record"), PAIRS, ids=[r.name for _t, r in PAIRS])
def test_typed_dict_keys_are_the_record_keys(typed: type, record: RecordSpec) -> None:
    assert typed.__name__ == record.name
    assert list(typed.__annotations__) == [key for key, _spec, _default in record.fields]


def test_the_wire_seat_view_is_the_engines_seat_view() -> None:
    engine = [f.name for f in dataclasses.fields(EngineSeatView)]
    assert [key for key, _spec, _default in records.SEAT_VIEW.fields] == engine
    assert list(SeatViewDict.__annotations__) == engine
