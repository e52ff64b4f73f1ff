"""How a bot seat moves, and never stalls: the one place of its retry policy.

`Moves` is the game half of the bot's policy (client/bot/policy.py), sans-IO: a decision
said due by the core asks the strategy, from the core's seat view alone, and returns the
move as an intent; a move the strategy gets wrong (or a strategy that fails) becomes a
random one from the prompt's `legal` list; a move refused as too quick is sent again after
a pause; one never answered (a server past its rate limit drops some without a word) is
sent again; a refusal that says our picture was stale waits for the server's next prompt.
Each decision is answered once: a second prompt for it goes through only after a refusal
or a lost link.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import cast

from twisted.logger import Logger

from leekha.client.bot.options import Cancel, Effect, Later
from leekha.client.core import intents as I
from leekha.client.core.core import ClientCore
from leekha.common import cards as C
from leekha.common.bots.base import Strategy, decide
from leekha.common.legality import legal_passes

log = Logger()

#: Refusals that mean our move itself was wrong (a random legal move may fix it); any other
#: refusal means our picture is stale and the server's next prompt will set it right.
MOVE_ERRORS = frozenset(
    {
        "not_in_hand",
        "must_follow_suit",
        "must_play_leekha",
        "must_play_forced",
        "bad_pass",
        "pass_last_of_suit",
        "bad_card",
        "internal",
    }
)
#: How often a move refused as too quick, or not answered, is sent again.
RATE_RETRIES = 5
RATE_BACKOFF_S = 0.25
#: A move with no answer after this long was dropped: it is sent again.
UNANSWERED_S = 2.0
#: How often a refused move is replaced by a random legal one.
MOVE_RETRIES = 3

Move = I.Pass | I.Play


class Moves:
    """One seat's moves over `core`. Its timers are "think" (a decision after the think
    time) and "move" (a move sent again)."""

    def __init__(
        self,
        core: ClientCore,
        strategy: Strategy,
        rng: random.Random,
        think_s: float,
        who: Callable[[], str],
    ) -> None:
        self.core = core
        self.strategy = strategy
        self.rng = rng
        self.think_s = think_s
        self.who = who  # the bot's name now, for the log
        self._answered: I.DecisionKey | None = None  # the decision a move was sent for
        self._thinking: I.DecisionKey | None = None
        self._again: Move | None = None  # the move the "move" timer sends again

    def forget(self) -> None:
        """The link dropped, or the game is left: a move in flight may never have arrived,
        and the next prompt for its decision goes through."""
        self._answered = None
        self._thinking = None

    def due(self, key: I.DecisionKey) -> list[Effect]:
        """The core says our seat must decide `key`."""
        if key == self._answered:
            return []
        if self.think_s > 0:
            self._thinking = key
            return [Later("think", self.think_s)]
        return self._act(key)

    def fired(self, timer: str) -> list[Effect]:
        if timer == "think" and self._thinking is not None:
            key, self._thinking = self._thinking, None
            return self._act(key)
        if timer == "move" and self._again is not None:
            move, self._again = self._again, None
            if move.decision != self.core.decision():
                return []  # the decision was made for us meanwhile (timer, takeover)
            return self._send(move)
        return []

    def answered(self, move: Move, refusal: str | None) -> list[Effect]:
        """The server's answer to `move`: taken (`refusal` None), or refused with a code."""
        out: list[Effect] = []
        if self._again is not None and self._again.decision == move.decision:
            self._again = None
            out.append(Cancel("move"))
        if refusal is None:
            return out
        log.warn("{bot}: server refused {kind}: {code}", bot=self.who(),
                 kind=type(move).__name__.lower(), code=refusal)  # fmt: skip
        key = move.decision
        self._answered = None  # let the next prompt for this decision through
        if key != self.core.decision():
            return out
        if refusal == "rate_limited" and move.tries < RATE_RETRIES:
            # The move was fine, we were just too quick: send it again a little later
            # rather than leave the seat to the turn timer.
            self._answered = key
            self._again = _again(move)
            return [*out, Later("move", RATE_BACKOFF_S * (move.tries + 1))]
        if refusal in MOVE_ERRORS and move.tries < MOVE_RETRIES:
            self._answered = key
            return out + self._at_random(key, move.tries + 1)
        return out

    def _act(self, key: I.DecisionKey) -> list[Effect]:
        view = self.core.seat_view()
        if key != self.core.decision() or view is None:
            return []
        self._answered = key
        try:
            actions = decide(self.strategy, view)
        except Exception:
            log.failure("{bot}: strategy failed; moving at random", bot=self.who())
            actions = []
        legal = set(view.legal)
        out: list[Effect] = []
        for action in actions:
            if action["kind"] == "double" and action["card"] in view.can_double:
                out.append(I.Double(action["card"]))
            elif action["kind"] == "pass":
                cards = tuple(sorted(cast(list[int], action["cards"])))
                if len(set(cards)) == 3 and set(cards) <= legal:
                    return out + self._send(I.Pass(cards, key))
            elif action["kind"] == "play" and action["card"] in legal:
                return out + self._send(I.Play(action["card"], key))
        return out + self._at_random(key, 0)

    def _at_random(self, key: I.DecisionKey, tries: int) -> list[Effect]:
        """The never-stall move: a random one the prompt's `legal` list allows."""
        v = self.core.table.view
        if v is None or not v.legal:
            return []
        legal = list(v.legal)
        if key[1] == "play":
            return self._send(I.Play(self.rng.choice(legal), key, tries))
        # Legal passes by our hand; any three passable cards if that is off.
        allowed = set(legal)
        hand = C.mask_of(v.hand)
        options = [c for c in legal_passes(self.core.rules, hand) if set(c) <= allowed]
        options = options or list(combinations(legal, 3))
        if not options:
            return []
        return self._send(I.Pass(tuple(sorted(self.rng.choice(options))), key, tries))

    def _send(self, move: Move) -> list[Effect]:
        """Send `move`, and send it again if no answer comes (the server may drop it)."""
        if move.tries >= RATE_RETRIES:
            self._again = None
            return [move, Cancel("move")]
        self._again = _again(move)
        return [move, Later("move", UNANSWERED_S)]


def _again(move: Move) -> Move:
    """`move` as it is sent the next time."""
    if isinstance(move, I.Pass):
        return I.Pass(move.cards, move.decision, move.tries + 1)
    return I.Play(move.card, move.decision, move.tries + 1)
