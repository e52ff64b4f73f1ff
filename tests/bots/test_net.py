"""The value network: shipped weights, view-only features, inference and the `net` tier."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import itertools
import json
from typing import Any

import numpy as np
import pytest
from helpers.bots import choice_views
from helpers.views import reachable

from leekha.common import cards as C
from leekha.common.bots.base import make_strategy
from leekha.common.bots.features import WIDTH, encode, position
from leekha.common.bots.net import NetStrategy, Network, WeightsError, scores, shipped
from leekha.common.config import CLASSIC, PRESETS
from leekha.common.game import PASS, Game
from leekha.common.view import SeatView, seat_view

# The shipped weights, and the digest of the `net` tier's decisions on `fixed_views()`:
# new weights change both, and must be recorded here on purpose.
WEIGHTS = "5b0c49df2340cb09"
DECISIONS = "7dbcaac6668ccd32"


def fixed_views() -> list[SeatView]:
    """Pass views and play views with a choice, from heuristic games of every preset."""
    return [v for i, preset in enumerate(sorted(PRESETS)) for v in choice_views(preset, 100 + i)]


def decisions_digest(views: list[SeatView]) -> str:
    chosen = []
    for view in views:
        bot = NetStrategy(0)
        chosen.append(bot.choose_pass(view) if view.phase == PASS else bot.choose_play(view))
    return hashlib.sha256(json.dumps(chosen).encode()).hexdigest()[:16]


def test_shipped_weights_and_their_decisions_are_the_recorded_ones() -> None:
    network = shipped()
    assert network.digest == network.meta["digest"]
    assert network.digest[:16] == WEIGHTS
    assert decisions_digest(fixed_views()) == DECISIONS


def test_a_damaged_or_foreign_weights_file_is_refused() -> None:
    data = shipped().to_bytes()
    assert Network.from_bytes(data).digest == shipped().digest
    with pytest.raises(WeightsError, match="not a weights file"):
        Network.from_bytes(data[: len(data) // 2])
    # A changed weight under the old digest.
    arrays: dict[str, Any] = {f"layer{i}": a.copy() for i, a in enumerate(shipped().layers)}
    arrays["layer0"][0, 0] += 1.0
    arrays["meta"] = np.frombuffer(json.dumps(shipped().meta).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    with pytest.raises(WeightsError, match="digest"):
        Network.from_bytes(buffer.getvalue())
    foreign = Network([np.zeros((WIDTH + 1, 1), np.float32), np.zeros(1, np.float32)], {})
    with pytest.raises(WeightsError, match="layout"):
        Network.from_bytes(foreign.to_bytes())


def test_scoring_candidates_equals_scoring_full_rows() -> None:
    network = shipped()
    for view in fixed_views()[::7]:
        where = position(view)
        cands = [C.BIT[c] for c in view.legal] if view.phase != PASS else [7, 7 << 3, 7 << 20]
        full = network(encode(where, cands))
        assert np.allclose(scores(network, where, cands), full, atol=1e-4)


def _two_views() -> tuple[SeatView, SeatView, Game, Game]:
    """Seat 0's view of two deals that differ only in the other seats' hands."""
    mine = C.mask_of(C.parse_cards("2C 5C 9C KC 3D 7D 10D 4H 8H QH 2S 6S JS"))
    rest = [c for c in range(52) if not mine >> c & 1]
    lead = C.parse_card("3S")
    rest.remove(lead)
    a = [mine, C.mask_of(rest[0:13]), C.mask_of(rest[13:26]), C.mask_of(rest[26:]) | 1 << lead]
    b = [mine, C.mask_of(rest[26:]), C.mask_of(rest[0:13]), C.mask_of(rest[13:26]) | 1 << lead]
    ga = Game.position(CLASSIC, a, dealer=2, leader=3, trick=[(3, lead)])
    gb = Game.position(CLASSIC, b, dealer=2, leader=3, trick=[(3, lead)])
    return seat_view(ga, 0), seat_view(gb, 0), ga, gb


def test_views_that_differ_only_in_hidden_cards_encode_the_same() -> None:
    va, vb, ga, gb = _two_views()
    assert ga.hands[1:] != gb.hands[1:]
    assert va == vb
    pa, pb = position(va), position(vb)
    assert pa == pb
    cands = [C.BIT[c] for c in va.legal]
    assert np.array_equal(encode(pa, cands), encode(pb, cands))
    assert NetStrategy(5).choose_play(va) == NetStrategy(5).choose_play(vb)


def test_the_encoding_changes_with_what_the_seat_sees() -> None:
    va, *_ = _two_views()
    other = dataclasses.replace(va, round_points=[0, 0, 0, 13])
    assert position(other) != position(va)


def test_no_game_is_reachable_from_the_networks_input() -> None:
    va, _, ga, _ = _two_views()
    where = position(va)
    objs = reachable([where, NetStrategy(1)])
    assert not any(isinstance(o, Game) for o in objs)
    hidden = [ga.hands[s] for s in (1, 2, 3)]
    assert not any(m in hidden for m in where.masks)


def test_same_view_and_seed_same_decision() -> None:
    for view in fixed_views()[::5]:
        a, b = make_strategy("net", 9), make_strategy("net", 9)
        if view.phase == PASS:
            assert a.choose_pass(view) == b.choose_pass(view)
        else:
            assert a.choose_play(view) == b.choose_play(view)


def random_network(rng: np.random.Generator, hidden: tuple[int, ...], scale: float) -> Network:
    widths = (WIDTH, *hidden, 1)
    layers: list[Any] = []
    for a, b in itertools.pairwise(widths):
        layers += [
            rng.normal(0, 0.1, (a, b)).astype(np.float32),
            rng.normal(0, 0.1, b).astype(np.float32),
        ]
    return Network(layers, {"scale": scale})


def test_an_ensemble_is_one_network_scoring_the_members_mean() -> None:
    rng = np.random.default_rng(7)
    members = [
        random_network(rng, (16, 8), 10.0),
        random_network(rng, (24, 4), 3.0),
        random_network(rng, (8, 8), 1.0),
    ]
    x = (rng.random((40, WIDTH)) < 0.1).astype(np.float32)
    mean = Network.mean(members, {"version": "test"})
    expected = sum(m(x) for m in members) / 3
    assert np.allclose(mean(x), expected, atol=1e-5)
    # It is an ordinary weights file: saved, digested and loaded like any other.
    loaded = Network.from_bytes(mean.to_bytes())
    assert np.allclose(loaded(x), expected, atol=1e-5)
    assert [a.shape[1] for a in loaded.layers[::2]] == [48, 20, 1]
    with pytest.raises(ValueError, match="depth"):
        Network.mean([members[0], random_network(rng, (8,), 1.0)], {})
