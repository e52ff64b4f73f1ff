"""Game records: the (rules, seed, actions) triple that replays a game exactly.

The same plain-dict format is stored by the server, exported by `leekha records export`
and read by `leekha replay`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from leekha.common import errors as E
from leekha.common.actions import ActionMap
from leekha.common.actions import from_dict as action_of
from leekha.common.config import Rules, RulesConfig
from leekha.common.errors import LeekhaError, RuleError
from leekha.common.game import Game, replay

RECORD_VERSION = 1


class RecordDict(TypedDict):
    """A record as JSON holds it: what replays the game, and what it came to."""

    version: int
    rules: Rules
    seed: int
    players: list[str]
    actions: list[ActionMap]
    history: list[list[int]]
    result: dict[str, list[int]] | None
    meta: dict[str, object]


@dataclass(frozen=True)
class GameRecord:
    rules: RulesConfig
    seed: int
    actions: list[ActionMap]
    players: list[str] = field(default_factory=lambda: ["", "", "", ""])
    meta: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game, players: list[str] | None = None, **meta: object) -> GameRecord:
        return cls(
            game.config, game.seed, [a.copy() for a in game.actions], players or [""] * 4, meta
        )

    def replay(self) -> Game:
        return replay(self.rules, self.seed, self.actions)

    def to_dict(self) -> RecordDict:
        game = self.replay()
        return {
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "players": list(self.players),
            "actions": [a.copy() for a in self.actions],
            "history": game.history,
            "result": game.outcome.to_dict() if game.outcome else None,
            "meta": dict(self.meta),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record (JSON's maps, unchecked) and check that it replays; raises
        LeekhaError(bad_record) if not. Its actions are kept as the engine writes them."""
        try:
            if data.get("version") != RECORD_VERSION:
                raise RuleError(E.BAD_RECORD, f"unsupported record version {data.get('version')!r}")
            seed = data["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise RuleError(E.BAD_RECORD, "record seed must be an integer")
            actions = data["actions"]
            if not isinstance(actions, list):
                raise RuleError(E.BAD_RECORD, "record actions must be a list")
            players = data.get("players") or [""] * 4
            record = cls(
                RulesConfig.from_dict(data["rules"]),
                seed,
                [action_of(a).to_dict() for a in actions],
                [str(p) for p in players],
                dict(data.get("meta") or {}),
            )
            record.replay()
        except LeekhaError as exc:
            if exc.code == E.BAD_RECORD:
                raise
            raise RuleError(E.BAD_RECORD, f"record does not replay: {exc.message}") from exc
        except KeyError as exc:  # a field it must have: named, never `KeyError('seed')`
            field = str(exc.args[0]) if exc.args else "?"
            raise RuleError(
                E.BAD_RECORD,
                f"the record has no {field!r} field",
                rule="record_field",
                args={"field": field},
            ) from exc
        except (TypeError, ValueError, AttributeError) as exc:
            raise RuleError(E.BAD_RECORD, f"malformed record: {exc}") from exc
        return record
