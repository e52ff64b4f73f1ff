"""A finished game as a list of frames, one per action, rebuilt with the engine.

The record holds only (rules, seed, actions); replaying it through `Game` recovers every
hand, so the replay can show all four hands. Frames are computed once up front (a long game
is a few hundred actions) so stepping backwards is as cheap as stepping forwards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from leekha.client.i18n import _, ngettext
from leekha.common import cards as C
from leekha.common.actions import Action
from leekha.common.errors import LeekhaError
from leekha.common.events import Event, RoundScored, TrickTaken
from leekha.common.game import OVER, Game, replay
from leekha.common.record import GameRecord
from leekha.common.view import Result
from leekha.common.view import result as result_of


class ReplayError(Exception):
    """The file cannot be replayed; the message is for the player."""


@dataclass(frozen=True)
class Frame:
    step: int  # actions applied so far
    round: int
    dealer: int
    phase: str
    hands: list[list[int]]
    trick: list[tuple[int, int]]
    trick_winner: int | None  # set on the frame that completes a trick
    totals: list[int]
    round_points: list[int]
    taken: list[list[int]]  # penalty cards taken this round
    doubled: list[tuple[int, int]]  # (card, seat)
    action: str
    round_over: list[int] | None = None  # points of the round this action ended
    result: Result | None = None  # the engine's, as a finished table's view shows it
    passed: list[list[int] | None] = field(default_factory=list)


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """The record dicts in an export file: one record, or a list of them."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReplayError(_("no such file: {path}").format(path=path)) from None
    except OSError as exc:
        raise ReplayError(
            _("cannot read {path}: {problem}").format(path=path, problem=exc.strerror)
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReplayError(
            _("{path} is not a JSON game record ({problem})").format(path=path, problem=exc)
        ) from None
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        data = data["games"]
    records = data if isinstance(data, list) else [data]
    if not records or not all(isinstance(r, dict) for r in records):
        raise ReplayError(_("{path} holds no game records").format(path=path))
    return records


def pick_record(records: Sequence[dict[str, Any]], game: int) -> GameRecord:
    """Game number `game` (1-based) from the file, checked to replay."""
    if not 1 <= game <= (n := len(records)):
        raise ReplayError(
            ngettext(
                "--game {game}: the file has {n} game", "--game {game}: the file has {n} games", n
            ).format(game=game, n=n)
        )
    try:
        return GameRecord.from_dict(records[game - 1])
    except LeekhaError as exc:
        problem = exc.message
        if exc.rule == "record_field":
            problem = _("the record has no {field!r} field").format(field=exc.facts.get("field"))
        raise ReplayError(
            _("game {game} cannot be replayed: {problem}").format(game=game, problem=problem)
        ) from None


def _describe(action: dict[str, Any], names: Sequence[str], ascii: bool) -> str:
    who = names[action["seat"]]
    kind = action.get("kind")
    if kind == "play":
        return _("{name} plays {card}").format(
            name=who, card=C.format_card(action["card"], ascii=ascii)
        )
    if kind == "pass":
        cards = C.format_cards(C.display_order(action["cards"]), ascii=ascii)
        return _("{name} passes {cards}").format(name=who, cards=cards)
    if kind == "double":
        return _("{name} doubles {card}").format(
            name=who, card=C.format_card(action["card"], ascii=ascii)
        )
    return f"{who}: {kind}"


def _capture(game: Game, step: int, action: str, penalty: int) -> Frame:
    return Frame(
        step=step,
        round=game.round_no,
        dealer=game.dealer,
        phase=game.phase,
        hands=[C.cards_of(h) for h in game.hands],
        trick=list(game.trick),
        trick_winner=None,
        totals=list(game.totals),
        round_points=list(game.round_points),
        taken=[C.cards_of(t & penalty) for t in game.taken],
        doubled=sorted(game.doubled.items()),
        action=action,
        result=result_of(game),
        passed=[C.cards_of(p) if p is not None else None for p in game.passed],
    )


def build_frames(record: GameRecord, names: Sequence[str], ascii: bool = False) -> list[Frame]:
    penalty = record.rules.penalty_mask
    frames = [_capture(Game(record.rules, record.seed), 0, _("the deal"), penalty)]

    def step(game: Game, act: Action | Mapping[str, Any], events: list[Event]) -> None:
        i = len(game.actions)
        action = act if isinstance(act, Mapping) else act.to_dict()
        text = _describe(dict(action), names, ascii)
        taken = next((e for e in events if isinstance(e, TrickTaken)), None)
        scored = next((e for e in events if isinstance(e, RoundScored)), None)
        if taken is None:
            frames.append(_capture(game, i, text, penalty))
            return
        trick = list(taken.cards)
        if scored is None:
            frame = _capture(game, i, text, penalty)
            frames.append(replace(frame, trick=trick, trick_winner=taken.winner))
            return
        # The engine already moved on (or ended); show the round's last trick.
        prev = frames[-1]
        hands = [list(h) for h in prev.hands]
        hands[action["seat"]].remove(action["card"])
        frames.append(
            Frame(
                step=i,
                round=scored.round,
                dealer=prev.dealer,
                phase=game.phase if game.phase == OVER else prev.phase,
                hands=hands,
                trick=trick,
                trick_winner=taken.winner,
                totals=list(scored.totals),
                round_points=list(scored.points),
                taken=scored.taken_cards(),
                doubled=prev.doubled,
                action=text,
                round_over=list(scored.points),
                result=result_of(game),
            )
        )
        if game.phase != OVER:
            deal = _("round {n}: the deal").format(n=game.round_no + 1)
            frames.append(_capture(game, i, deal, penalty))

    replay(record.rules, record.seed, record.actions, watch=step)
    return frames


class ReplayModel:
    """Where the viewer is in the game, and the moves between frames."""

    def __init__(self, record: GameRecord, *, ascii: bool = False) -> None:
        self.record = record
        self.ascii = ascii
        players = list(record.players) + [""] * 4
        self.names = [p or _("seat {n}").format(n=i + 1) for i, p in enumerate(players[:4])]
        self.frames = build_frames(record, self.names, ascii)
        self.index = 0
        self.show_help = False

    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    @property
    def rounds(self) -> int:
        return self.frames[-1].round + 1

    def history(self) -> list[list[int]]:
        """Each finished round's points up to the frame shown (the score sheet)."""
        return [f.round_over for f in self.frames[: self.index + 1] if f.round_over is not None]

    def step(self, n: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + n))

    def home(self) -> None:
        self.index = 0

    def end(self) -> None:
        self.index = len(self.frames) - 1

    def next_trick(self, direction: int) -> None:
        """Jump to the next (or previous) completed trick or round boundary."""
        i = self.index + direction
        while 0 <= i < len(self.frames):
            f = self.frames[i]
            if f.trick_winner is not None or (direction < 0 and i == 0):
                self.index = i
                return
            i += direction
        self.index = 0 if direction < 0 else len(self.frames) - 1

    def jump_round(self, number: int) -> bool:
        """Go to the deal of round `number` (1-based); False if there is no such round."""
        for i, f in enumerate(self.frames):
            if f.round == number - 1:
                self.index = i
                return True
        return False

    def round_step(self, direction: int) -> None:
        target = self.frame.round + 1 + direction
        if not self.jump_round(target):
            if direction > 0:
                self.end()
            else:
                self.home()
