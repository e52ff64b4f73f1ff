"""Ratings: the library's documented example, and how a Leekha game becomes a ranking."""

from __future__ import annotations

import pytest

from leekha.server.domain.persistence import Store
from leekha.server.domain.ratings import Entrant, Rating, rate_game


def test_library_documented_two_team_example() -> None:
    # openskill's README: a1 (25, 8.333) + a2 (32.444, 5.123) beat b1 (43.381, 2.421) +
    # b2 (25.188, 6.211); documented results 28.6696 / 33.8309 / 43.0713 / 23.1495.
    current = {
        "a2": Rating(32.444, 5.123),
        "b1": Rating(43.381, 2.421),
        "b2": Rating(25.188, 6.211),
    }
    seats = [Entrant("a1", 0), Entrant("b1", 0), Entrant("a2", 0), Entrant("b2", 0)]
    new = rate_game(seats, current, teams=True, winners=[0, 2])
    assert new["a1"].mu == pytest.approx(28.6696, abs=1e-3)
    assert new["a2"].mu == pytest.approx(33.8309, abs=1e-3)
    assert new["b1"].mu == pytest.approx(43.0713, abs=1e-3)
    assert new["b2"].mu == pytest.approx(23.1495, abs=1e-3)


def test_solo_lowest_total_ranks_first_and_ties_share() -> None:
    seats = [Entrant("w", 20), Entrant("x", 105), Entrant("y", 60), Entrant("z", 60)]
    new = rate_game(seats, {}, teams=False)
    assert new["y"].mu == pytest.approx(new["z"].mu)
    assert new["w"].mu > new["y"].mu > new["x"].mu
    assert all(r.sigma < Rating.fresh().sigma for r in new.values())


def test_guests_play_but_are_not_rated() -> None:
    seats = [Entrant("w", 20), Entrant(None, 105), Entrant(None, 60), Entrant("z", 61)]
    new = rate_game(seats, {}, teams=False)
    assert set(new) == {"w", "z"}


def test_store_keeps_ratings_history_and_leaderboard() -> None:
    store = Store(":memory:")
    store.save_ratings(1, {"a": (27.0, 8.0), "b": (23.0, 8.0)})
    store.save_ratings(2, {"a": (28.0, 7.5)})
    assert store.ratings(["a", "b", "c"]) == {"a": (28.0, 7.5, 2), "b": (23.0, 8.0, 1)}
    assert [r[0] for r in store.leaderboard()] == ["a", "b"]
    assert store.rating_history("a") == [(1, 27.0, 8.0), (2, 28.0, 7.5)]


def test_a_name_is_claimed_once() -> None:
    store = Store(":memory:")
    store.claim_name("rana", "Rana", "ed25519:AAA")
    store.claim_name("rana", "RANA", "ed25519:BBB")
    assert store.claimed_key("rana") == "ed25519:AAA"
    assert store.claimed_key("other") is None
