"""Many independent Leekha rounds advanced in lock-step with NumPy, for engine benchmarks.

`bench/engine.py` measures random-playout throughput against OpenSpiel, which a Python
loop per move caps at a few thousand rounds a second. Every round has exactly one 3-card
pass and 52 plays, so N rounds can move together: step k is play k of every round, the
position within the trick (k % 4) is the same for all of them, and legality reduces to bit
operations on uint64 hand masks, one NumPy call per rule over the whole batch. It lives in
bench/, not in the package: the search bot's rollouts need the heuristic policy, which
branches per world and card, and play faster on the flat scalar loop
(`leekha.common.bots.rollout`), so no product path uses it and NumPy is not a runtime
dependency.

Scope is one round, deliberately: no totals, target, golden goal, partnership or dealer
rotation. A batch reports `round_points` (moon penalty applied) and `taken`; whatever sits
above a round stays in `Game`. The rules inside a round follow `Game.legal_mask`,
`pass_error` and `Game._finish_trick` exactly (tests/engine/test_batch.py checks it step by
step against the scalar engine). Deals come from NumPy's Generator, so they do not match
the scalar `deal()`; to reproduce a scalar deal, build the batch from its hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from leekha.common import cards as C
from leekha.common.config import RulesConfig

SEATS: Final = 4
PASS_COUNT: Final = 3
PLAYS: Final = 52

PASS: Final = "pass"
PLAY: Final = "play"
DONE: Final = "done"

U64 = NDArray[np.uint64]
I64 = NDArray[np.int64]
Bools = NDArray[np.bool_]

_BIT: Final[U64] = np.array(C.BIT, dtype=np.uint64)
_SUIT_MASK: Final[U64] = np.array(C.SUIT_MASK, dtype=np.uint64)
_BELOW: Final[U64] = np.array(C.BELOW, dtype=np.uint64)
_SUIT_OF: Final[I64] = np.array(C.SUIT_OF, dtype=np.int64)
_FULL_DECK: Final = np.uint64(C.FULL_DECK)
_CHUNK: Final = np.uint64(0x1FFF)

_CHUNK_BITS: Final = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1
# _SELECT13_FLAT[chunk * 13 + k] is the rank of the k-th set bit of a 13-bit chunk.
_SELECT13_FLAT: Final[I64] = (
    np.argsort(1 - _CHUNK_BITS, axis=1, kind="stable").astype(np.int64).reshape(-1)
)
_LOW: Final[U64] = np.array([(1 << (13 * s)) - 1 for s in (1, 2, 3)], dtype=np.uint64)


def _as_games(value: ArrayLike, n: int, dtype: type[np.generic], what: str) -> NDArray[np.generic]:
    """Broadcast a per-game (or shared) parameter to shape (n,)."""
    arr = np.asarray(value)
    if arr.ndim == 0:
        arr = np.full(n, arr)
    if arr.shape != (n,):
        raise ValueError(f"{what}: expected one value or {n}, got shape {arr.shape}")
    return arr.astype(dtype)


def random_cards(masks: U64, u: NDArray[np.float64]) -> I64:
    """One card per mask, uniform among its set bits, driven by uniforms u in [0, 1).

    The k-th set bit is found in two table steps: which 13-bit suit chunk holds it (from
    popcounts of the low 1, 2, 3 chunks), then its rank inside that chunk. -1 for an empty
    mask.
    """
    count = np.bitwise_count(masks)
    k = (u * count).astype(np.uint8)
    p1 = np.bitwise_count(masks & _LOW[0])
    p2 = np.bitwise_count(masks & _LOW[1])
    p3 = np.bitwise_count(masks & _LOW[2])
    g1 = k >= p1
    g2 = k >= p2
    g3 = k >= p3
    below = np.where(g3, p3, np.where(g2, p2, np.where(g1, p1, np.uint8(0))))
    shift = (g1.astype(np.uint8) + g2 + g3) * np.uint8(13)
    chunk = (masks >> shift.astype(np.uint64)) & _CHUNK
    rank = _SELECT13_FLAT[chunk.astype(np.intp) * 13 + (k - below)]
    out: I64 = np.where(count > 0, shift + rank, -1)
    return out


class BatchRounds:
    """N independent rounds of one rules config, from the pass to the 13th trick.

    Built from explicit start-of-round hands (shape (N, 4), 13 cards each, a full deck per
    game) or dealt by `deal` / `from_seeds`. Per-game state is public and read-only by
    convention: `hands`, `turn`, `leader`, `round_points`, `taken`, `doubled`, `dealer`.
    """

    def __init__(
        self,
        config: RulesConfig,
        hands: ArrayLike,
        *,
        dealer: ArrayLike = 0,
        doubled: ArrayLike = 0,
        round_no: int = 0,
    ) -> None:
        if config.undercut and config.undercut_ceiling != "led_high":
            # Not restated in NumPy (only the benchmarks use this engine): refuse rather
            # than play a different game.
            raise ValueError("the batch engine plays undercut_ceiling 'led_high' only")
        h = np.array(hands, dtype=np.uint64)
        if h.ndim != 2 or h.shape[1] != SEATS:
            raise ValueError(f"hands must have shape (N, 4), got {h.shape}")
        n = h.shape[0]
        union = np.bitwise_or.reduce(h, axis=1)
        if n and (
            not bool((union == _FULL_DECK).all()) or not bool((np.bitwise_count(h) == 13).all())
        ):
            raise ValueError("each game's four hands must be 13 cards each, the whole deck")
        self.config = config
        self.n: int = n
        self.round_no = round_no
        self.hands: U64 = h
        self.dealer: I64 = _as_games(dealer, n, np.int64, "dealer") % SEATS  # type: ignore[assignment]
        self.doubled: U64 = _as_games(doubled, n, np.uint64, "doubled")  # type: ignore[assignment]
        self.phase = PASS
        self.plays = 0
        self.passed: U64 = np.zeros((n, SEATS), dtype=np.uint64)
        self.received: U64 = np.zeros((n, SEATS), dtype=np.uint64)
        self.round_points: I64 = np.zeros((n, SEATS), dtype=np.int64)
        self.taken: U64 = np.zeros((n, SEATS), dtype=np.uint64)
        self.leader: I64 = (self.dealer + 1) % SEATS
        self.turn: I64 = self.leader.copy()
        self._rows: I64 = np.arange(n, dtype=np.int64)
        # Current trick: led suit's end (first card above it), highest led card, its player.
        self._led_end: I64 = np.zeros(n, dtype=np.int64)
        self._led_mask: U64 = np.zeros(n, dtype=np.uint64)
        self._high: I64 = np.zeros(n, dtype=np.int64)
        self._winner: I64 = np.zeros(n, dtype=np.int64)
        self._trick_points: I64 = np.zeros(n, dtype=np.int64)
        self._trick_cards: U64 = np.zeros(n, dtype=np.uint64)
        self._trick_leekha: Bools = np.zeros(n, dtype=np.bool_)

        self._points: I64 = np.array(config.card_points(), dtype=np.int64)
        self._penalty = np.uint64(config.penalty_mask)
        self._leekha_mask = np.uint64(config.leekha_mask)
        exempt = 0
        for c in config.leekha_cards:
            exempt |= C.BIT[c] | C.ABOVE[c]
        self._exempt = np.uint64(exempt)
        # Talbees: the Leekha of each suit (bit 0 / card 64 where a suit has none, so the
        # "trick high above it" test never fires).
        lk = [-1, C.TEN_DIAMONDS, -1, C.QUEEN_SPADES]
        if config.club_leekha:
            lk[C.CLUBS] = C.KING_CLUBS
        self._lk_bit: U64 = np.array([C.BIT[c] if c >= 0 else 0 for c in lk], dtype=np.uint64)
        self._lk_card: I64 = np.array([c if c >= 0 else 64 for c in lk], dtype=np.int64)

    # ---- construction ------------------------------------------------------------------
    @classmethod
    def deal(
        cls,
        config: RulesConfig,
        n: int,
        rng: np.random.Generator,
        *,
        dealer: ArrayLike = 0,
        doubled: ArrayLike = 0,
        round_no: int = 0,
    ) -> BatchRounds:
        """N uniformly random deals from one Generator (the fast path for playouts)."""
        decks = np.argsort(rng.random((n, 52)), axis=1)
        hands = np.bitwise_or.reduce(_BIT[decks.reshape(n, SEATS, 13)], axis=2)
        return cls(config, hands, dealer=dealer, doubled=doubled, round_no=round_no)

    @classmethod
    def from_seeds(
        cls,
        config: RulesConfig,
        seeds: Sequence[int] | NDArray[np.integer],
        *,
        dealer: ArrayLike = 0,
        doubled: ArrayLike = 0,
        round_no: int = 0,
    ) -> BatchRounds:
        """One deal per seed, each reproducible on its own whatever batch it sits in."""
        decks = np.array(
            [np.random.default_rng(int(s)).permutation(52) for s in seeds], dtype=np.int64
        ).reshape(-1, 52)
        hands = np.bitwise_or.reduce(_BIT[decks.reshape(-1, SEATS, 13)], axis=2)
        return cls(config, hands, dealer=dealer, doubled=doubled, round_no=round_no)

    # ---- pass phase --------------------------------------------------------------------
    def pass_target(self, seat: int) -> int:
        """Who receives `seat`'s pass: as `Game.pass_target` for this batch's round_no."""
        if self.config.pass_direction == "alternate" and self.round_no % 2 == 1:
            return (seat + 3) % SEATS
        return (seat + 1) % SEATS

    def passable(self, seat: int) -> U64:
        """Per game, the cards of `seat` that can be part of some legal pass."""
        self._need(PASS)
        hand = self.hands[:, seat]
        if not self.config.pass_ban:
            return hand.copy()
        suits = hand[:, None] & _SUIT_MASK
        wide = np.where(np.bitwise_count(suits) >= 2, suits, np.uint64(0))
        out: U64 = (hand & self._exempt) | np.bitwise_or.reduce(wide, axis=1)
        return out

    def _pass_ok(self, hand: U64, mask: U64) -> Bools:
        """Which passes honour the pass ban (hand and mask of any equal shape)."""
        if not self.config.pass_ban:
            return np.ones(hand.shape, dtype=np.bool_)
        banned = (mask & ~self._exempt)[..., None] & _SUIT_MASK
        rest = (hand & ~mask)[..., None] & _SUIT_MASK
        ok: Bools = ~((banned != 0) & (rest == 0)).any(axis=-1)
        return ok

    def pass_cards(self, masks: ArrayLike) -> None:
        """Every seat of every game passes the 3 cards of masks[g, seat], then exchange."""
        self._need(PASS)
        m = np.asarray(masks, dtype=np.uint64)
        if m.shape != (self.n, SEATS):
            raise ValueError(f"pass masks must have shape ({self.n}, 4), got {m.shape}")
        bad = (np.bitwise_count(m) != PASS_COUNT) | ((m & ~self.hands) != 0)
        bad |= ~self._pass_ok(self.hands, m)
        if bool(bad.any()):
            games = np.nonzero(bad.any(axis=1))[0]
            raise ValueError(f"illegal pass in games {games[:10].tolist()}")
        self._exchange(m)

    def random_pass(self, rng: np.random.Generator) -> U64:
        """A uniformly random legal pass for every seat (rejection sampling), then exchange.

        Three draws without replacement give a uniform 3-subset; conditioned on legality
        that is a uniform legal pass. A 13-card hand always has a suit of 4+ cards, so a
        legal pass exists and the loop ends. Returns the passed masks, shape (N, 4).
        """
        self._need(PASS)
        flat = self.hands.reshape(-1)
        out = np.zeros(flat.shape, dtype=np.uint64)
        todo = np.arange(flat.shape[0])
        while todo.size:
            hand = flat[todo]
            rest = hand
            for _ in range(PASS_COUNT):
                rest = rest ^ _BIT[random_cards(rest, rng.random(todo.size))]
            mask = hand ^ rest
            ok = self._pass_ok(hand, mask)
            out[todo[ok]] = mask[ok]
            todo = todo[~ok]
        passed = out.reshape(self.n, SEATS)
        self._exchange(passed)
        return passed

    def _exchange(self, passed: U64) -> None:
        left = self.pass_target(0) == 3
        received = np.roll(passed, -1 if left else 1, axis=1)
        self.hands = (self.hands & ~passed) | received
        self.passed = passed.copy()
        self.received = received
        self.phase = PLAY

    # ---- play phase --------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.phase == DONE

    def legal_masks(self) -> U64:
        """Per game, the cards the player to move may play (as `Game.legal_mask`)."""
        self._need(PLAY)
        hand = self.hands[self._rows, self.turn]
        if self.plays % SEATS == 0:
            return hand
        cfg = self.config
        follow = hand & self._led_mask
        legal = follow
        if cfg.talbees or cfg.undercut:
            led = (self._led_end // 13) - 1
            forced: Bools | None = None
            if cfg.talbees:
                lk_bit = self._lk_bit[led]
                forced = ((hand & lk_bit) != 0) & (self._high > self._lk_card[led])
                legal = np.where(forced, lk_bit, legal)
            if cfg.undercut:
                lower = follow & _BELOW[self._high]
                use = self._trick_leekha & (lower != 0)
                if forced is not None:
                    use &= ~forced
                legal = np.where(use, lower, legal)
        if cfg.void_rule == "queen_only":
            q = hand & _BIT[C.QUEEN_SPADES]
            void = np.where(q != 0, q, hand)
        elif cfg.void_rule == "any_leekha":
            lk = hand & self._leekha_mask
            void = np.where(lk != 0, lk, hand)
        else:
            void = hand
        out: U64 = np.where(follow != 0, legal, void)
        return out

    def play(self, cards: ArrayLike) -> None:
        """Play cards[g] for the player to move in every game; ValueError if any is illegal."""
        c = np.asarray(cards)
        if c.shape != (self.n,) or not np.issubdtype(c.dtype, np.integer):
            raise ValueError(f"cards must be {self.n} ints, got {c.dtype} {c.shape}")
        c = c.astype(np.int64)
        if bool(((c < 0) | (c >= 52)).any()):
            raise ValueError("cards must be 0..51")
        self._apply(c, self.legal_masks())

    def random_play(self, rng: np.random.Generator) -> I64:
        """Play a uniformly random legal card in every game; returns the cards."""
        legal = self.legal_masks()
        cards = random_cards(legal, rng.random((self.n,)))
        self._apply(cards, legal)
        return cards

    def _apply(self, cards: I64, legal: U64) -> None:
        bit = _BIT[cards]
        if bool(((legal & bit) == 0).any()):
            games = np.nonzero((legal & bit) == 0)[0]
            raise ValueError(f"illegal play in games {games[:10].tolist()}")
        rows, turn = self._rows, self.turn
        self.hands[rows, turn] ^= bit
        pts = self._points[cards]
        if self.config.doubling:
            pts = pts << ((self.doubled & bit) != 0).astype(np.int64)
        pos = self.plays % SEATS
        self.plays += 1
        if pos == 0:
            self._led_end = (_SUIT_OF[cards] + 1) * 13
            self._led_mask = _SUIT_MASK[_SUIT_OF[cards]]
            self._high = cards
            self._winner = turn
            self._trick_points = pts
            self._trick_cards = bit
            self._trick_leekha = (bit & self._leekha_mask) != 0
            self.turn = (turn + 1) & 3
            return
        beat = (cards > self._high) & (cards < self._led_end)
        self._high = np.where(beat, cards, self._high)
        self._winner = np.where(beat, turn, self._winner)
        self._trick_points = self._trick_points + pts
        self._trick_cards = self._trick_cards | bit
        self._trick_leekha = self._trick_leekha | ((bit & self._leekha_mask) != 0)
        if pos < SEATS - 1:
            self.turn = (turn + 1) & 3
            return
        winner = self._winner
        self.round_points[rows, winner] += self._trick_points
        self.taken[rows, winner] |= self._trick_cards
        self.leader = winner
        self.turn = winner
        if self.plays == PLAYS:
            self._finish_round()

    def _finish_round(self) -> None:
        moon = self.config.moon_penalty
        if moon:
            full = (self.taken & self._penalty) == self._penalty
            self.round_points = np.where(
                full, np.maximum(self.round_points, moon), self.round_points
            )
        self.phase = DONE

    def _need(self, phase: str) -> None:
        if self.phase != phase:
            raise ValueError(f"not in the {phase} phase (phase is {self.phase})")


def random_rounds(
    config: RulesConfig,
    n: int,
    rng: np.random.Generator,
    *,
    dealer: ArrayLike = 0,
    round_no: int = 0,
) -> I64:
    """Deal, pass and play n whole random rounds; their round points, shape (n, 4).

    No Leekha is doubled: a random doubling policy is a modelling choice left to callers,
    who can build a `BatchRounds` with their own `doubled` masks.
    """
    batch = BatchRounds.deal(config, n, rng, dealer=dealer, round_no=round_no)
    batch.random_pass(rng)
    for _ in range(PLAYS):
        batch.random_play(rng)
    return batch.round_points
