"""A tournament's start time as the player reads it: `--start` on the command line, the
local time and the countdown in the list and the view, counted on the client's own
clock from the server's `starts_in_s`."""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timedelta

import pytest
from helpers.tournament import state

from leekha import protocol as P
from leekha.client.tournament import command, text
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text
from leekha.protocol.views import Tournament, TournamentSummary


class Tick:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _lobby(clock: Tick) -> M.ClientModel:
    m = M.ClientModel("ann", clock=clock)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    m.take_outbox()
    return m


def test_start_option_forms() -> None:
    now = datetime(2026, 12, 1, 19, 0).astimezone()
    assert command.start_of("+10m", now) == {"starts_in_s": 600}
    assert command.start_of("+90s", now) == {"starts_in_s": 90}
    assert command.start_of("+2h", now) == {"starts_in_s": 7200}
    assert command.start_of("+5", now) == {"starts_in_s": 300}  # minutes
    later = command.start_of("20:30", now)["starts_at"]
    assert later == now.replace(hour=20, minute=30).timestamp()
    past = command.start_of("18:00", now)["starts_at"]  # passed today: tomorrow
    assert past == (now.replace(hour=18) + timedelta(days=1)).timestamp()
    iso = command.start_of("2026-12-24 18:00", now)["starts_at"]
    assert iso == datetime(2026, 12, 24, 18, 0).astimezone().timestamp()
    for bad in ("soon", "+", "25:00", "+10x", "2026-13-01 10:00"):
        with pytest.raises(argparse.ArgumentTypeError, match="is not a start time"):
            command.start_of(bad, now)


def test_the_create_request_carries_the_start() -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(
        ["create", "127.0.0.1", "--start", "+15m", *["--entrant", "server:random"] * 4]
    )
    assert command._create_request(args).starts_in_s == 900


def test_a_countdown_reads_as_minutes_or_hours() -> None:
    assert text.countdown(299) == "4:59"
    assert text.countdown(7 * 3600 + 5 * 60) == "7 h 05 min"
    assert text.countdown(-3) == "0:00"


def test_the_list_and_the_view_count_down_on_the_clients_clock() -> None:
    clock = Tick()
    m = _lobby(clock)
    m.in_lobby.open_tournaments()
    (ask,) = m.take_outbox()
    assert isinstance(ask, P.ListTournaments)
    at = time.time() + 300
    summary: TournamentSummary = {
        "id": 7, "name": "Friday", "format": "round_robin", "status": "waiting", "entrants": 4,
        "games_done": 0, "games_total": 8, "starts_at": at, "starts_in_s": 300,
    }  # fmt: skip
    m.apply(P.TournamentList(re=ask.id, tournaments=[summary]))
    when = text.local_time(at)
    assert f"starts at {when}, in 5:00" in render_text(m)
    clock.now += 61
    assert f"starts at {when}, in 3:59" in render_text(m)
    m.in_lobby.tournament_enter()
    (get,) = m.take_outbox()
    assert isinstance(get, P.GetTournament)
    waiting: Tournament = {**state(status="waiting", tables=0, done=0), "starts_at": at,
                           "starts_in_s": 30}  # fmt: skip
    m.apply(P.TournamentState(re=get.id, tournament=waiting))
    assert f"starts at {when}, in 0:30" in render_text(m)
    clock.now += 40
    assert f"starts at {when}, any moment now" in render_text(m)
    running: Tournament = {**state(), "starts_at": at, "starts_in_s": 0}
    m.apply(P.TournamentState(re=None, tournament=running))
    screen = render_text(m)
    assert f"started at {when}" in screen and "95% CI" in screen
    assert all(len(line) <= 80 for line in screen.splitlines())


def test_no_start_time_adds_no_line() -> None:
    t = state()
    assert text.start_text(t) is None
    summary: TournamentSummary = {
        "id": t["id"], "name": t["name"], "format": t["format"], "status": t["status"],
        "entrants": 4, "games_done": t["games_done"], "games_total": t["games_total"],
    }  # fmt: skip
    assert len(text.summary_lines(summary)) == 1
    lines = text.state_lines({**t, "starts_at": 0.0, "starts_in_s": 0})
    assert "started at" in lines[1]
