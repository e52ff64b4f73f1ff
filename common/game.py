"""The authoritative game state machine.

A game is fully determined by (rules config, seed, action log): each round's deal comes from
an RNG seeded by (seed, round number) alone, so replaying the log rebuilds every state.
Hot paths (legal-move masks, playing a card) work on int bitmasks with precomputed tables
and allocate nothing per move beyond the trick record.

Why one module of ~500 lines: it is one class, `Game`, whose methods share one mutable state
(hands, trick, scores, phase) and its invariants; the rules it applies already live apart
(`legality`, `scoring`, `outcome`, `tally`), and what is left is the order of one round's
steps. Spread over files, those steps would each need the whole state passed around.
"""

from __future__ import annotations

from _random import Random as _MersenneTwister
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Final, TypedDict

from leekha.common import cards as C
from leekha.common import errors as E
from leekha.common.actions import (
    PASS_COUNT,
    Action,
    ActionMap,
    Double,
    Pass,
    Play,
    check_seat,
    from_dict,
)
from leekha.common.config import RulesConfig
from leekha.common.errors import RuleError
from leekha.common.events import (
    CardPlayed,
    Dealt,
    Doubled,
    Event,
    GameOver,
    Passed,
    PassesExchanged,
    RoundScored,
    TrickTaken,
)
from leekha.common.legality import (
    exempt_mask,
    legal_passes,
    pass_error,
    passable_mask,
    play_rules,
)
from leekha.common.outcome import GOLDEN_GOAL, TARGET, Outcome, Reason, decide
from leekha.common.scoring import moon_seat, points_table, round_scores, take_trick
from leekha.common.tally import Tally

# The pass rules live in leekha.common.legality; re-exported for callers holding a Game.
__all__ = [
    "OVER",
    "PASS",
    "PASS_COUNT",
    "PLAY",
    "SEATS",
    "Game",
    "PlayedTrick",
    "deal",
    "exempt_mask",
    "legal_passes",
    "pass_error",
    "passable_mask",
    "replay",
    "team_of",
]

PASS: Final = "pass"
PLAY: Final = "play"
OVER: Final = "game_over"

SEATS: Final = 4


class PlayedTrick(TypedDict):
    """A finished trick of the round as the game keeps it (a view shows it as a
    `view.TrickRecord`): the leader, the (seat, card) plays in order, who took it."""

    leader: int
    cards: list[tuple[int, int]]
    winner: int
    points: int


_BIT = C.BIT
_SUIT_OF = C.SUIT_OF
_SUIT_MASK = C.SUIT_MASK
_BELOW = C.BELOW


def team_of(seat: int) -> int:
    return seat & 1


# The steps of `random.Random.shuffle` on 52 cards: position i swaps with a draw below
# i + 1, which takes (i + 1).bit_length() random bits, drawn again while too large.
_SHUFFLE_STEPS: Final = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))


def deal(seed: int, round_no: int) -> list[int]:
    """Four 13-card hands for one round; depends on nothing but (seed, round).

    The deck is `random.Random(seed * 1_000_003 + round_no).shuffle`d, with the shuffle
    written out here (the same Fisher–Yates steps drawing the same bits, which
    tests/engine/test_deal.py checks against the standard library's): every `Game`
    deals once a round, and the library's two method calls per card were a fifth of a
    random round's cost in `bench/engine.py`. Records replay only if every deal stays
    the same, so this must never draw differently.
    """
    deck = list(range(52))
    # `_random.Random` is the generator `random.Random` subclasses: seeded with an int it
    # draws the same bits, without the Python-level `seed` wrapper (a third of a deal).
    bits = _MersenneTwister(seed * 1_000_003 + round_no).getrandbits
    for i, k in _SHUFFLE_STEPS:
        j = bits(k)
        while j > i:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return [C.mask_of(deck[i * 13 : (i + 1) * 13]) for i in range(SEATS)]


class Game:
    """One game of Leekha from the first deal to game over."""

    __slots__ = (
        "_leekha_mask",
        "_rules",
        "_sink",
        "_table",
        "_tied",
        "actions",
        "config",
        "dealer",
        "dealt",
        "doubled",
        "doubled_mask",
        "hands",
        "history",
        "leader",
        "outcome",
        "passed",
        "phase",
        "received",
        "round_no",
        "round_points",
        "seed",
        "taken",
        "tally",
        "totals",
        "trick",
        "trick_has_leekha",
        "trick_high",
        "tricks",
        "turn",
    )

    def __init__(self, config: RulesConfig, seed: int, *, first_dealer: int = 0) -> None:
        self.config = config
        self.seed = seed
        self._sink: list[Event] | None = None
        self._tied = False
        self._rules = play_rules(config)
        self._leekha_mask = self._rules.leekha_mask
        self.actions: list[ActionMap] = []
        self.totals = [0] * SEATS
        self.history: list[list[int]] = []
        self.outcome: Outcome | None = None
        #: Every seat's statistics, folded from the events `apply` returns.
        self.tally = Tally()
        self.round_no = 0
        self.dealer = first_dealer % SEATS
        self._start_round()

    # ---- round setup ---------------------------------------------------------------
    @classmethod
    def position(
        cls,
        config: RulesConfig,
        hands: Sequence[int],
        *,
        dealer: int,
        leader: int,
        trick: Sequence[tuple[int, int]] = (),
        tricks_done: int = 0,
        doubled: Mapping[int, int] | None = None,
        totals: Sequence[int] = (0, 0, 0, 0),
        round_points: Sequence[int] = (0, 0, 0, 0),
        round_no: int = 0,
        seed: int = 0,
    ) -> Game:
        """A play-phase position built from explicit hands, for search bots and tests.

        Earlier tricks of the round are represented only by their count (`tricks_done`),
        so the round still ends after the 13th trick.
        """
        game = cls(config, seed, first_dealer=dealer)
        game.round_no = round_no
        game.hands = list(hands)
        game.totals = list(totals)
        game.round_points = list(round_points)
        game.doubled = dict(doubled or {})
        game.doubled_mask = C.mask_of(game.doubled)
        game._table = points_table(config, game.doubled_mask)
        game.dealt = game._dealt()
        game.passed = [0] * SEATS
        game.phase = PLAY
        game.tricks = [{"leader": -1, "cards": [], "winner": -1, "points": 0}] * tricks_done
        game.leader = leader
        game.trick = []
        game.turn = leader
        for seat, c in trick:
            game.hands[seat] |= _BIT[c]
            game.play(seat, c)
        game.actions = []
        return game

    def _start_round(self) -> None:
        self.hands = deal(self.seed, self.round_no)
        self.passed: list[int | None] = [None] * SEATS
        self.received: list[int | None] = [None] * SEATS
        self.doubled: dict[int, int] = {}
        self.doubled_mask = 0
        self._table = self.config.card_points()
        self.taken = [0] * SEATS
        self.round_points = [0] * SEATS
        self.tricks: list[PlayedTrick] = []
        self.trick: list[tuple[int, int]] = []
        self.trick_high = -1
        self.trick_has_leekha = False
        self.leader: int | None = None
        self.turn: int | None = None
        self.phase = PASS
        self.dealt = self._dealt()
        if self._sink is not None:
            self._sink.append(self.dealt)

    def _dealt(self) -> Dealt:
        target = self.pass_target
        return Dealt(
            self.round_no,
            self.dealer,
            tuple(self.hands),
            (target(0), target(1), target(2), target(3)),
        )

    def pass_target(self, seat: int) -> int:
        """Who receives `seat`'s pass this round: right is the next seat to play."""
        if self.config.pass_direction == "alternate" and self.round_no % 2 == 1:
            return (seat + 3) % SEATS
        return (seat + 1) % SEATS

    # ---- queries -------------------------------------------------------------------
    def legal_mask(self, seat: int) -> int:
        """Mask of the cards `seat` may play now (0 when it is not their turn)."""
        if self.phase != PLAY or seat != self.turn:
            return 0
        return self._rules.legal(
            self.hands[seat], self.trick, self.trick_high, self.trick_has_leekha
        )

    def choosable(self, seat: int) -> list[int]:
        """What `seat` may pick from now: passable cards in the pass phase (until it has
        passed), its legal plays on its turn, otherwise nothing. The `legal` of views and
        turn prompts."""
        mask = self.passable_mask(seat) if self.phase == PASS else self.legal_mask(seat)
        return C.cards_of(mask)

    def legal_moves(self, seat: int) -> list[int]:
        return C.cards_of(self.legal_mask(seat))

    def passable_mask(self, seat: int) -> int:
        """Cards that can be part of some legal pass for `seat` (for hints and prompts)."""
        if self.phase != PASS or self.passed[seat] is not None:
            return 0
        return passable_mask(self.config, self.hands[seat])

    def check_pass(self, seat: int, cards: Sequence[int]) -> int:
        """Validate a pass for `seat` and return its mask; raises RuleError if illegal."""
        check_seat(seat)
        if self.phase != PASS:
            raise self._phase_error("pass cards")
        if self.passed[seat] is not None:
            raise RuleError(E.ALREADY_PASSED, f"seat {seat} has already passed this round")
        err = pass_error(self.config, self.hands[seat], cards)
        if err is not None:
            raise err
        return C.mask_of(cards)

    def legal_passes(self, seat: int) -> Iterator[tuple[int, int, int]]:
        """Every legal pass, in card order; for tests and exhaustive search."""
        return legal_passes(self.config, self.hands[seat])

    def can_double(self, seat: int) -> list[int]:
        """The cards `seat` may still reveal to double them."""
        if self.phase != PASS or not self.config.doubling or self.passed[seat] is not None:
            return []
        return [
            c
            for c in self.config.leekha_cards
            if self.hands[seat] & _BIT[c] and c not in self.doubled
        ]

    # ---- actions -------------------------------------------------------------------
    def apply(self, action: Action | Mapping[str, object]) -> list[Event]:
        """Apply one action and say what happened; the entry point of servers and replay.

        A wire or record map is read through `actions.from_dict`, so both shapes take the
        same checks. `pass_cards`, `double` and `play` do the same work without building
        events, for rollouts and benchmarks that only need the state.
        """
        if not isinstance(action, (Play, Pass, Double)):
            action = from_dict(action)
        events: list[Event] = []
        self._sink = events
        try:
            if isinstance(action, Play):
                self.play(action.seat, action.card)
            elif isinstance(action, Pass):
                self.pass_cards(action.seat, action.cards)
            else:
                self.double(action.seat, action.card)
        finally:
            self._sink = None
        self.tally.fold(events)
        if events and isinstance(events[-1], GameOver):
            events[-1] = GameOver(events[-1].outcome, tuple(self.tally.to_list()))
        return events

    def double(self, seat: int, card: int) -> None:
        check_seat(seat)
        C.check_card(card)
        if self.phase != PASS:
            raise self._phase_error("double")
        if not self.config.doubling:
            raise RuleError(E.CANNOT_DOUBLE, "doubling is not played at this table")
        if card not in self.config.leekha_cards:
            raise RuleError(E.CANNOT_DOUBLE, f"{C.format_card(card)} is not a Leekha card")
        if not self.hands[seat] & _BIT[card]:
            raise RuleError(E.NOT_IN_HAND, f"{C.format_card(card)} is not in your hand")
        if self.passed[seat] is not None:
            raise RuleError(E.CANNOT_DOUBLE, "a double must be revealed before you pass")
        if card in self.doubled:
            raise RuleError(E.CANNOT_DOUBLE, f"{C.format_card(card)} is already doubled")
        self.doubled[card] = seat
        self.doubled_mask |= _BIT[card]
        self._table = points_table(self.config, self.doubled_mask)
        self.actions.append({"kind": "double", "seat": seat, "card": card})
        if self._sink is not None:
            self._sink.append(Doubled(seat, card))

    def pass_cards(self, seat: int, cards: Sequence[int]) -> None:
        mask = self.check_pass(seat, cards)
        self.passed[seat] = mask
        self.actions.append({"kind": "pass", "seat": seat, "cards": sorted(cards)})
        if self._sink is not None:
            self._sink.append(Passed(seat))
        if all(p is not None for p in self.passed):
            self._exchange()

    def _exchange(self) -> None:
        hands = self.hands
        senders = [0] * SEATS
        for seat in range(SEATS):
            hands[seat] &= ~self.passed[seat]  # type: ignore[operator]
        for seat in range(SEATS):
            to = self.pass_target(seat)
            got = self.passed[seat]
            assert got is not None
            hands[to] |= got
            self.received[to] = got
            senders[to] = seat
        self.phase = PLAY
        self.leader = (self.dealer + 1) % SEATS
        self.turn = self.leader
        if self._sink is not None:
            received = tuple(r or 0 for r in self.received)
            self._sink.append(PassesExchanged(received, tuple(senders), self.leader))

    def play(self, seat: int, card: int) -> None:
        """Play one card, validated against `legal_mask`."""
        bit = _BIT[card] if type(card) is int and 0 <= card < 52 else self._bad_card(card)
        if self.phase != PLAY or seat != self.turn:
            raise self._turn_error(seat)
        # `legal_mask` without its phase and turn checks, just made.
        trick = self.trick
        legal = self._rules.legal(self.hands[seat], trick, self.trick_high, self.trick_has_leekha)
        if not legal & bit:
            raise self._illegal_play(seat, card)
        self.hands[seat] ^= bit
        self.actions.append({"kind": "play", "seat": seat, "card": card})
        if self._sink is not None:
            self._sink.append(CardPlayed(seat, card))
        # The running high card of the led suit (scoring.led_high, kept as we go because
        # talbees and undercut read it on every play).
        if not trick or (_SUIT_OF[card] == _SUIT_OF[trick[0][1]] and card > self.trick_high):
            self.trick_high = card
        if self._leekha_mask & bit:
            self.trick_has_leekha = True
        trick.append((seat, card))
        if len(trick) < SEATS:
            self.turn = (seat + 1) % SEATS
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self.trick
        winner, won, pts = take_trick(trick, self.trick_high, self._table)
        self.taken[winner] |= won
        self.round_points[winner] += pts
        if self._sink is not None:
            self._sink.append(
                TrickTaken(
                    len(self.tricks),
                    trick[0][0],
                    winner,
                    tuple(trick),
                    pts,
                    tuple(C.cards_of(won & self._leekha_mask)),
                    tuple(C.cards_of(won & self.doubled_mask)),
                )
            )
        self.tricks.append({"leader": trick[0][0], "cards": trick, "winner": winner, "points": pts})
        self.trick = []
        self.trick_high = -1
        self.trick_has_leekha = False
        self.leader = winner
        self.turn = winner
        if len(self.tricks) == 13:
            scored = round_scores(
                self.round_points,
                self.taken,
                moon=self.config.moon_penalty,
                penalty_mask=self.config.penalty_mask,
            )
            self.round_points = scored
            self._close_round(scored, stopped=False)
        elif self.config.game_end == "golden_goal" and pts:
            live = [self.totals[s] + self.round_points[s] for s in range(SEATS)]
            if self._decide(live, GOLDEN_GOAL)[0] is not None:
                self._close_round(self.round_points, stopped=True)

    def _close_round(self, scored: list[int], *, stopped: bool) -> None:
        for seat in range(SEATS):
            self.totals[seat] += scored[seat]
        self.history.append(list(scored))
        outcome, tie = self._decide(self.totals, GOLDEN_GOAL if stopped else TARGET)
        if self._sink is not None:
            self._sink.append(self._round_scored(scored, stopped=stopped, tie=tie))
            if outcome is not None:
                self._sink.append(GameOver(outcome))
        if outcome is not None:
            self.outcome = outcome
            self.phase = OVER
            self.turn = None
            return
        self.dealer = self._next_dealer(scored)
        self.round_no += 1
        self._start_round()

    def _round_scored(self, scored: list[int], *, stopped: bool, tie: bool) -> RoundScored:
        penalty = self.config.penalty_mask
        moon = None
        if self.config.moon_penalty and not stopped:
            moon = moon_seat(self.taken, penalty)
        return RoundScored(
            round=self.round_no,
            points=tuple(scored),
            totals=tuple(self.totals),
            taken=tuple(t & penalty for t in self.taken),
            doubled=tuple(sorted(self.doubled.items())),
            moon=moon,
            stopped=stopped,
            tie=tie,
        )

    def _next_dealer(self, scored: list[int]) -> int:
        if self.config.dealer_rule == "biggest_eater":
            best = max(scored)
            for i in range(1, SEATS + 1):
                seat = (self.dealer + i) % SEATS
                if scored[seat] == best:
                    return seat
        return (self.dealer + 1) % SEATS

    def _decide(self, totals: list[int], reason: Reason) -> tuple[Outcome | None, bool]:
        """(the outcome if `totals` end the game, whether a tie is all that prevents it),
        by `outcome.decide`; the game remembers a tie so the outcome can say that play
        went past the target."""
        ending = decide(self.config, totals)
        if ending is None:
            return None, False
        if ending.tie:
            self._tied = True
            return None, True
        return Outcome(ending.winners, ending.losers, tuple(totals), reason, self._tied), False

    # ---- errors --------------------------------------------------------------------
    def _bad_card(self, card: object) -> int:
        C.check_card(card)
        raise AssertionError("unreachable")  # pragma: no cover

    def _phase_error(self, what: str) -> RuleError:
        if self.phase == OVER:
            return RuleError(E.GAME_OVER, "the game is over")
        return RuleError(E.WRONG_PHASE, f"cannot {what} during the {self.phase} phase")

    def _turn_error(self, seat: int) -> RuleError:
        check_seat(seat)
        if self.phase != PLAY:
            return self._phase_error("play a card")
        return RuleError(E.NOT_YOUR_TURN, f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def _illegal_play(self, seat: int, card: int) -> RuleError:
        """Why `card` may not go (legality.PlayRules.refusal), naming the rule."""
        err = self._rules.refusal(
            self.hands[seat], self.trick, self.trick_high, self.trick_has_leekha, card
        )
        assert err is not None, "a legal card was refused"
        return err


def replay(
    config: RulesConfig,
    seed: int,
    actions: Sequence[Action | Mapping[str, object]],
    *,
    watch: Callable[[Game, Action | Mapping[str, object], list[Event]], None] | None = None,
) -> Game:
    """Rebuild a game from its record; raises RuleError if any action is illegal.

    The one replay: records, the server's restore and rollback and the replay viewer all
    call it. `watch` sees the game after each action with the events that action caused,
    for callers that keep something per step.
    """
    game = Game(config, seed)
    for action in actions:
        events = game.apply(action)
        if watch is not None:
            watch(game, action, events)
    return game
