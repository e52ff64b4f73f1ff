"""Tournament planning, standings and export: the pure half of tournaments."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leekha.common.intervals import Z95, Interval
from leekha.common.seeds import derive_seed
from leekha.protocol.views import TournamentMeta
from leekha.server.domain.tournament import export, plan
from leekha.server.domain.tournament.plan import Entrant, PlanError, PlannedGame
from leekha.server.domain.tournament.standings import GameResult, standings


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 7), st.integers(1, 3), st.integers(0, 2**40))
def test_round_robin_every_entrant_every_seat_of_every_deal_alike(
    n: int, deals: int, seed: int
) -> None:
    games = plan.round_robin(n, deals, seed)
    assert [g.number for g in games] == list(range(math.comb(n, 4) * deals * 4))
    assert len(games) == plan.total_games("round_robin", n, deals, None)
    seats = Counter((e, g.deal, s) for g in games for s, e in enumerate(g.seats))
    # Each entrant is in comb(n-1, 3) foursomes, and holds each seat once per foursome.
    assert set(seats.values()) == {math.comb(n - 1, 3)}
    assert len(seats) == n * deals * 4
    foursomes = Counter(frozenset(g.seats) for g in games)
    assert len(foursomes) == math.comb(n, 4)
    assert set(foursomes.values()) == {deals * 4}
    by_deal = {g.deal: g.seed for g in games}
    assert by_deal == {d: derive_seed(seed, d) for d in range(deals)}


def test_round_robin_refused_past_the_cap_with_the_reason() -> None:
    with pytest.raises(PlanError, match=r"3960 games .*495 foursomes.* more than 2000"):
        plan.round_robin(12, 2, 1)
    for bad in [
        ("cup", 4, 1, None),
        ("round_robin", 3, 1, None),
        ("swiss", 8, 1, None),
        ("round_robin", 4, 0, None),
        ("round_robin", 4, 1, 2),
        ("swiss", 65, 1, 1),
    ]:
        with pytest.raises(PlanError):
            plan.check(*bad)
    plan.check("swiss", 5, 2, 3)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), st.integers(1, 3), st.integers(1, 4), st.randoms())
def test_swiss_seats_every_entrant_once_per_game_slot(
    tables: int, deals: int, stage: int, rng: random.Random
) -> None:
    n = tables * 4
    order = rng.sample(range(n), n)
    met: Counter[frozenset[int]] = Counter()
    for p in itertools.combinations(range(n), 2):
        met[frozenset(p)] = rng.randrange(3)
    games = plan.swiss_stage(order, stage, deals, 9, met)
    assert len(games) == plan.stage_games(n, deals)
    assert [g.number for g in games] == list(range(stage * len(games), (stage + 1) * len(games)))
    slots = Counter((g.deal, g.rotation) for g in games for _ in g.seats)
    assert set(slots.values()) == {n}
    for (deal, r), _ in slots.items():
        seated = [e for g in games if (g.deal, g.rotation) == (deal, r) for e in g.seats]
        assert sorted(seated) == list(range(n))
    # One table per entrant for the whole stage, and the best entrant heads the first.
    assert len({frozenset(g.seats) for g in games}) == tables
    assert games[0].seats[0] == order[0]
    assert {g.deal for g in games} == set(range(stage * deals, (stage + 1) * deals))


def test_swiss_avoids_repeats_where_the_field_allows() -> None:
    first = plan.swiss_stage(plan.first_order(16, 5), 0, 1, 5)
    met = plan.meetings(first)
    assert sum(met.values()) == 4 * 6
    again = plan.swiss_stage(random.Random(3).sample(range(16), 16), 1, 1, 5, met)
    assert not any(met[p] for p in plan.meetings(again))


def test_swiss_field_is_filled_with_house_bots() -> None:
    field = plan.with_house(
        plan.entrants_of([("ann", None), (None, "heuristic")] * 1 + [(None, "search")] * 3),
        "heuristic",
    )
    assert len(field) == 8
    assert [e.kind for e in field] == [
        "client",
        "server",
        "server",
        "server",
        "server",
        "house",
        "house",
        "house",
    ]
    assert field[5].label == "heuristic#6"  # the sixth entrant, counted from 1
    with pytest.raises(PlanError, match="twice"):
        plan.entrants_of([("ann", None), ("ann", None)])
    with pytest.raises(PlanError, match="not both"):
        plan.entrants_of([("ann", "random")])


def test_clustered_interval_by_hand() -> None:
    iv = Interval.clustered([(10.0, 5.0), (20.0, 5.0), (30.0, 10.0)])
    # mean 60/20 = 3; residuals -5, 5, 0; sqrt(50 * 3/2) * Z95 / 20
    assert iv.mean == 3 and iv.n == 3
    assert iv.half == pytest.approx(Z95 * math.sqrt(75) / 20)
    assert Interval.clustered([(4.0, 2.0)]).half == math.inf
    assert math.isnan(Interval.clustered([]).mean)


@given(st.lists(st.integers(0, 60), min_size=2, max_size=30), st.integers(1, 8))
def test_clustered_with_equal_rounds_is_the_interval_of_the_means(
    points: list[int], rounds: int
) -> None:
    iv = Interval.clustered([(float(p), float(rounds)) for p in points])
    plain = Interval.of([p / rounds for p in points])
    assert iv.mean == pytest.approx(plain.mean)
    assert iv.half == pytest.approx(plain.half, abs=1e-9)


def _results(games: list[PlannedGame], rng: random.Random) -> list[GameResult]:
    out = []
    for g in games:
        rounds = tuple(
            tuple(rng.randrange(0, 27) for _ in range(4)) for _ in range(rng.randrange(1, 6))
        )
        totals = [sum(r[s] for r in rounds) for s in range(4)]
        winners = tuple(s for s in range(4) if totals[s] == min(totals))
        fallback = tuple(rng.choice((0, 0, 0, 2)) for _ in range(4))
        out.append(GameResult(g, rounds, winners, fallback, record_id=1000 + g.number))
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 6), st.integers(1, 3), st.randoms())
def test_standings_add_up_to_the_games(n: int, deals: int, rng: random.Random) -> None:
    entrants = [Entrant(i, strategy="random") for i in range(n)]
    games = plan.round_robin(n, deals, 3)
    results = _results(rng.sample(games, rng.randrange(len(games) + 1)), rng)
    lines = standings(entrants, results)
    assert sorted(s.entrant for s in lines) == list(range(n))
    assert sum(s.games for s in lines) == 4 * len(results)
    assert sum(s.points for s in lines) == sum(sum(map(sum, r.rounds)) for r in results)
    assert sum(s.rounds for s in lines) == 4 * sum(len(r.rounds) for r in results)
    assert sum(s.wins for s in lines) == sum(len(r.winners) for r in results)
    assert sum(s.fallback_games for s in lines) == sum(
        m > 0 for r in results for m in r.fallback_moves
    )
    for s in lines:
        mine = [(r, r.game.seats.index(s.entrant)) for r in results if s.entrant in r.game.seats]
        assert s.points == sum(row[seat] for r, seat in mine for row in r.rounds)
        assert s.deals == len({r.game.deal for r, _ in mine})
        if s.rounds:
            assert s.mean == pytest.approx(s.points / s.rounds)
        if s.deals >= 2:
            assert s.low is not None and s.high is not None and s.mean is not None
            assert s.low <= s.mean <= s.high
    means = [s.mean for s in lines if s.mean is not None]
    assert means == sorted(means)
    assert [s.rank for s in lines][:1] in ([], [1])


def test_ranks_fewest_points_first_ties_share_and_house_unranked() -> None:
    entrants = [Entrant(0, "ann"), Entrant(1, "bob"), Entrant(2, strategy="random"),
                Entrant(3, strategy="random", house=True), Entrant(4, "dan")]  # fmt: skip
    g = PlannedGame(0, 0, 0, 0, (0, 1, 2, 3), 1)
    results = [GameResult(g, ((5, 1, 5, 0), (5, 1, 5, 0)), (1,), (0, 0, 3, 0), 7)]
    lines = standings(entrants, results)
    # dan has played no round yet: ranked last, with no mean.
    assert [(s.entrant, s.rank) for s in lines] == [(1, 1), (0, 2), (2, 2), (4, 4), (3, None)]
    assert lines[0].wins == 1 and lines[0].mean == 1.0 and lines[0].low is None
    assert lines[2].fallback_games == 1 and lines[2].fallback_moves == 3
    wire = lines[0].to_dict()
    assert all(type(wire[k]) is int for k in ("games", "wins", "fallback_games"))  # not bool
    assert lines[3].to_dict()["mean"] == 0.0 and lines[3].mean is None


def test_export_document_and_table() -> None:
    entrants = [Entrant(0, "ann"), *(Entrant(i, strategy="heuristic") for i in (1, 2, 3))]
    results = _results(plan.round_robin(4, 2, 8), random.Random(2))
    meta: TournamentMeta = {
        "id": 3, "name": "Friday", "format": "round_robin", "status": "finished",
        "preset": "classic", "deals": 2, "stages": None, "move_timer_s": None, "seed": 1,
        "starts_at": None, "rules": {}, "games_done": 8, "games_total": 8,
    }  # fmt: skip
    doc = export.document(meta, entrants, results)
    back = json.loads(json.dumps(doc))
    assert back == doc
    assert [g["record_id"] for g in doc["games"]] == [1000 + n for n in range(8)]
    assert [GameResult.from_dict(g) for g in doc["games"]] == results
    first = doc["games"][0]
    assert first["players"] == ["ann", "heuristic#2", "heuristic#3", "heuristic#4"]
    assert first["points"] == [sum(r[s] for r in results[0].rounds) for s in range(4)]
    by_label = {s["label"]: s["points"] for s in doc["standings"]}
    for s in range(4):
        label = entrants[s].label
        assert by_label[label] == sum(g["points"][g["seats"].index(s)] for g in doc["games"])
    text = export.table(doc)
    lines = text.splitlines()
    assert lines[0] == "Friday (round_robin, 2 deals)"
    assert lines[2].split() == [
        "entrant",
        "rank",
        "games",
        "won",
        "rounds",
        "points",
        "pts/round",
        "95%",
        "CI",
        "fallback",
    ]
    ann = next(line for line in lines if line.startswith("ann "))
    assert ann.split()[2] == "8"
    assert len([line for line in lines if line.split()[:1] == ["7"]]) == 1
