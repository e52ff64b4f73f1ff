"""What a finished game adds to the standing of its players: facts and ratings.

Run once when a game ends (`store_finished`, from the table). The facts (tricks, Leekha
cards eaten, moons) come from the engine's own events, replayed from the record the
server just stored, so nothing here re-decides a trick or a score. Ratings are
`leekha.server.domain.ratings`'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from twisted.logger import Logger

from leekha.common.actions import Action
from leekha.common.config import RulesConfig
from leekha.common.events import Event, RoundScored, TrickTaken
from leekha.common.game import Game, replay
from leekha.common.record import GameRecord
from leekha.protocol.views import PlayerStats
from leekha.server.domain.identities import name_key
from leekha.server.domain.persistence import Store
from leekha.server.domain.ratings import Entrant, Rating, rate_game
from leekha.server.domain.seats import Seat

log = Logger()


@dataclass
class SeatFacts:
    tricks: int = 0
    leekhas: int = 0
    moons: int = 0


def game_facts(
    config: RulesConfig, seed: int, actions: Sequence[Action | Mapping[str, object]]
) -> list[SeatFacts]:
    """Tricks taken, Leekha cards eaten and moons shot by each seat over a whole game."""
    facts = [SeatFacts() for _ in range(4)]
    leekhas = config.leekha_mask

    def watch(_game: Game, _action: object, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, TrickTaken):
                facts[event.winner].tricks += 1
            elif isinstance(event, RoundScored):
                for seat, taken in enumerate(event.taken):
                    facts[seat].leekhas += (taken & leekhas).bit_count()
                if event.moon is not None:
                    facts[event.moon].moons += 1

    replay(config, seed, actions, watch=watch)
    return facts


def store_finished(
    store: Store,
    game: Game,
    seats: Sequence[Seat | None],
    *,
    table: str,
    table_id: int,
    game_no: int,
) -> int:
    """Store a game that just ended: its record, each seat's result, then its facts and
    ratings (those only logged if they fail: the game itself is stored). Returns its id."""
    outcome = game.outcome
    assert outcome is not None
    names = [s.name if s is not None else "" for s in seats]
    record = GameRecord.of(game, names, table=table, table_id=table_id, game_no=game_no)
    winners = set(outcome.winners)
    players = [
        (
            names[i],
            s is None or s.is_bot,
            i in winners,
            sum(h[i] for h in game.history),
            len(game.history),
        )
        for i, s in enumerate(seats)
    ]
    game_id = store.finish_game(table_id, table, record.to_dict(), players)
    try:
        humans = [s is not None and not s.is_bot for s in seats]
        record_finished(store, game_id, game, names, humans)
    except Exception:
        log.failure("table {table}: rating game {id} failed", table=table_id, id=game_id)
    return game_id


def record_finished(
    store: Store,
    game_id: int,
    game: Game,
    names: Sequence[str],
    humans: Sequence[bool],
) -> dict[str, Rating]:
    """Store the game's facts and rate every human whose name is claimed by a key.

    Guests and bots play unrated (a guest's name may belong to anyone next time; a bot is
    never a person). Returns the new ratings.
    """
    facts = game_facts(game.config, game.seed, game.actions)
    store.save_game_facts(game_id, [(f.tricks, f.leekhas, f.moons) for f in facts])
    outcome = game.outcome
    assert outcome is not None
    keys = [
        name if human and store.claimed_key(name_key(name)) is not None else None
        for name, human in zip(names, humans, strict=True)
    ]
    if not any(keys):
        return {}
    rated = [k for k in keys if k]
    current = {n: Rating(mu, sigma) for n, (mu, sigma, _g) in store.ratings(rated).items()}
    entrants = [Entrant(k, t) for k, t in zip(keys, outcome.totals, strict=True)]
    new = rate_game(
        entrants,
        current,
        teams=game.config.partnership != "off",
        winners=outcome.winners,
    )
    store.save_ratings(game_id, {n: (r.mu, r.sigma) for n, r in new.items()})
    return new


class Rated(TypedDict):
    mu: float
    sigma: float


class Standing(TypedDict):
    """One player's line of the leaderboard (`leekha records stats`, `get_stats`)."""

    name: str
    games: int
    wins: int
    rounds: int
    avg_points_per_round: float
    rating: Rated | None
    tricks: int
    leekhas: int
    moons: int


def standings(
    store: Store, name: str | None = None, *, include_bots: bool = False
) -> list[Standing]:
    """Every player's line of the leaderboard: rated names first, best conservative rating
    (mu - 3 sigma) first, then the unrated by games played. `leekha records stats` prints
    these lines and `get_stats` sends them."""
    rows = store.stats(name, include_bots=include_bots)
    ratings = store.ratings([r.name for r in rows])
    facts = store.facts_by_name()
    out: list[Standing] = []
    for r in rows:
        rated = ratings.get(r.name)
        tricks, leekhas, moons = facts.get(r.name, (0, 0, 0))
        out.append(
            Standing(
                name=r.name,
                games=r.games,
                wins=r.wins,
                rounds=r.rounds,
                avg_points_per_round=round(r.avg_points_per_round, 3),
                rating=Rated(mu=rated[0], sigma=rated[1]) if rated else None,
                tricks=tricks,
                leekhas=leekhas,
                moons=moons,
            )
        )

    def order(line: Standing) -> tuple[int, float]:
        rating = line["rating"]
        if rating is not None:
            return (0, -(rating["mu"] - 3 * rating["sigma"]))
        return (1, 0.0)

    return sorted(out, key=order)


def wire_standings(store: Store, name: str | None, most: int, name_max: int) -> list[PlayerStats]:
    """The `stats` lines of the wire: `standings` of humans, at most `most` of them, the
    rating as mu and sigma (protocol 1.2)."""
    out: list[PlayerStats] = []
    for line in standings(store, name)[:most]:
        if not line["name"]:
            continue
        rating = line["rating"]
        out.append(
            {
                "name": line["name"][:name_max],
                "games": line["games"],
                "wins": line["wins"],
                "avg_points_per_round": line["avg_points_per_round"],
                "rating": None if rating is None else round(rating["mu"], 3),
                "rating_sigma": None if rating is None else round(rating["sigma"], 3),
                "leekhas": line["leekhas"],
                "moons": line["moons"],
            }
        )
    return out
