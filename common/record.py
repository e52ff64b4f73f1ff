"""Game records: the (rules, seed, actions) triple that replays a game exactly.

The same plain-dict format is stored by the server, exported by `leekha records export`
and read by `leekha replay`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from leekha.common import errors as E
from leekha.common.config import RulesConfig
from leekha.common.errors import LeekhaError, RuleError
from leekha.common.game import Game, replay

RECORD_VERSION = 1


@dataclass(frozen=True)
class GameRecord:
    rules: RulesConfig
    seed: int
    actions: list[dict[str, Any]]
    players: list[str] = field(default_factory=lambda: ["", "", "", ""])
    meta: dict[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game, players: list[str] | None = None, **meta: object) -> GameRecord:
        return cls(
            game.config, game.seed, [dict(a) for a in game.actions], players or [""] * 4, meta
        )

    def replay(self) -> Game:
        return replay(self.rules, self.seed, self.actions)

    def to_dict(self) -> dict[str, Any]:
        game = self.replay()
        return {
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "players": list(self.players),
            "actions": [dict(a) for a in self.actions],
            "history": game.history,
            "result": game.outcome.to_dict() if game.outcome else None,
            "meta": dict(self.meta),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record and check that it replays; raises LeekhaError(bad_record) if not."""
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
                [dict(a) for a in actions],
                [str(p) for p in players],
                dict(data.get("meta") or {}),
            )
            record.replay()
        except LeekhaError as exc:
            if exc.code == E.BAD_RECORD:
                raise
            raise RuleError(E.BAD_RECORD, f"record does not replay: {exc.message}") from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RuleError(E.BAD_RECORD, f"malformed record: {exc!r}") from exc
        return record
