"""A finished game's standing: facts from the engine's events, ratings for claimed names."""

from __future__ import annotations

import base64
import random
from pathlib import Path

import pytest
from helpers.server import FakeClient, Harness, answer_prompts

from leekha import protocol as P
from leekha.client.identity import Identity
from leekha.common.config import preset
from leekha.common.game import Game
from leekha.server.domain.standing import game_facts


def _play_out(config_name: str, seed: int) -> Game:
    game = Game(preset(config_name), seed)
    rng = random.Random(seed)
    while game.outcome is None:
        if game.phase == "pass":
            seat = next(s for s in range(4) if game.passed[s] is None)
            game.apply({"kind": "pass", "seat": seat, "cards": list(next(game.legal_passes(seat)))})
        else:
            turn = game.turn
            assert turn is not None
            game.apply({"kind": "play", "seat": turn, "card": rng.choice(game.legal_moves(turn))})
    return game


def test_facts_count_every_trick_and_every_leekha_of_every_round() -> None:
    for name, leekhas_per_round in (("classic", 2), ("idlib", 3)):
        game = _play_out(name, 7)
        facts = game_facts(game.config, game.seed, game.actions)
        rounds = len(game.history)
        assert sum(f.tricks for f in facts) == 13 * rounds
        assert sum(f.leekhas for f in facts) == leekhas_per_round * rounds


def _verified(h: Harness, name: str, ident: Identity) -> FakeClient:
    c = h.connect()
    challenge = c.request(P.Hello(id=c.rid(), versions=[[1, 2]], name=name, key=ident.public_key))
    assert isinstance(challenge, P.Challenge)
    payload = P.challenge_payload(
        challenge.server, name, ident.public_key, base64.b64decode(challenge.nonce)
    )
    sig = base64.b64encode(ident.sign(payload)).decode()
    c.send(P.Prove(re=challenge.re, signature=sig))
    (welcome,) = c.read()
    assert isinstance(welcome, P.Welcome) and welcome.verified
    c.token = welcome.token
    return c


def test_a_claimed_player_is_rated_after_a_game_and_bots_are_not() -> None:
    h = Harness()
    rana = _verified(h, "Rana", Identity.generate())
    table_id = h.table_with_bots(rana, preset="classic", overrides={"target": 30})
    rana.request(P.Start(id=rana.rid()))
    rng = random.Random(3)
    for _ in range(4000):
        answer_prompts(h, rana, table_id, rng)
        h.advance(0.2, step=0.05)
        if any(isinstance(m, P.GameOver) for m in rana.inbox):
            break
    assert any(isinstance(m, P.GameOver) for m in rana.inbox)
    ratings = h.store.ratings(["Rana", "random", "Bot"])
    assert set(ratings) == {"Rana"} and ratings["Rana"][2] == 1
    assert [r[0] for r in h.store.leaderboard()] == ["Rana"]
    (tricks, leekhas, moons) = h.store.facts_by_name()["Rana"]
    assert 0 <= tricks <= 13 * 20 and leekhas >= 0 and moons >= 0


def test_records_stats_shows_the_leaderboard_and_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from leekha.client import cli
    from leekha.server.domain.persistence import Store

    store = Store.in_dir(tmp_path)
    players = [("Rana", False, True, 20, 5), ("Omar", False, False, 60, 5)]
    players += [("bot1", True, False, 50, 5), ("bot2", True, False, 40, 5)]
    gid = store.finish_game(1, "t", {"version": 1}, players)
    store.save_game_facts(gid, [(5, 0, 0), (3, 2, 1), (3, 1, 0), (2, 0, 0)])
    store.save_ratings(gid, {"Rana": (27.5, 8.0)})
    store.close()
    assert cli.main(["records", "stats", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:3] == ["Rana", "27.50", "±24.00"]
    assert out[2].split()[:2] == ["Omar", "guest"]
    assert out[2].split()[-2:] == ["2", "1"]  # Leekhas eaten, moons
    assert all("bot" not in line for line in out)
    assert cli.main(["records", "stats", "--data", str(tmp_path), "--history", "Rana"]) == 0
    assert "27.50 ±24.00" in capsys.readouterr().out
