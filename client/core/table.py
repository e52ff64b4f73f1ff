"""One table as a client knows it: the server's summary, the seats, the seat view folded
from the game events, and whose decision the table waits for.

Every fact here is the server's or the engine's: the view is folded with
protocol/seatview.py, statistics and notes come on the wire (1.4), and a seat's clock is
the server's time left counted on ours. No words, no keys, no requests: the terminal
client (client/tui/model.py) shows this state and adds the player's choices around it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from leekha import protocol as P
from leekha.common import cards as C
from leekha.common.config import PRESETS, RulesConfig
from leekha.common.errors import ConfigError
from leekha.protocol import seatview
from leekha.protocol.seatview import SeatView
from leekha.protocol.views import PlayerInfo, TableSummary, TrickRecord, empty_seat
from leekha.protocol.views import SeatStats as WireSeatStats


@dataclass
class SeatStats:
    """What one seat did in the game, as the server counted it (protocol 1.4 `stats`)."""

    tricks: int = 0
    leekhas: int = 0
    moons: int = 0

    @classmethod
    def of(cls, stats: Sequence[WireSeatStats] | None) -> list[SeatStats] | None:
        if not stats:
            return None
        return [cls(s["tricks"], s["leekhas"], s["moons"]) for s in stats]


class TableState:
    """The table we sit at or watch; `table is None` in the lobby."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.table: TableSummary | None = None
        self.players: list[PlayerInfo] = []
        #: The last name seen in each seat of this table: a game's result names a player
        #: who left before its end (their seat is empty now).
        self.seat_names: dict[int, str] = {}
        self.view: SeatView | None = None
        self.your_seat: int | None = None
        self.last_trick: TrickRecord | None = None
        self.trick_done = False  # the last card completed a trick, still on the table
        #: The finished game's statistics from the server; None until it sends them.
        self.game_stats: list[SeatStats] | None = None
        #: The suits each seat has shown it has none of this round (it did not follow).
        self.shown_void: list[set[int]] = [set() for _seat in range(4)]
        #: (1.4 `turn`) Each seat the table waits for, with when its clock runs out on our
        #: clock (None: untimed); what every screen's turn marker and countdown show.
        self.clock_at: dict[int, float | None] = {}
        #: The table we watch (and its password), to watch again after a server restart.
        self.watching: tuple[int, str | None] | None = None
        #: The server gave our seat up for us (a tournament game ended: it takes its
        #: players back to the lobby): the finished table stays on screen to be read, and
        #: we are no longer one of its members.
        self.released = False
        self._freed_seat: int | None = None  # the seat that was ours, once `released`

    # ---- what it is --------------------------------------------------------------------
    @property
    def viewpoint(self) -> int:
        """The seat drawn at the bottom of the table: ours; the one the server freed for
        us, so that the finished table does not turn round under the player; else 0."""
        if self.your_seat is not None:
            return self.your_seat
        return self._freed_seat if self.released and self._freed_seat is not None else 0

    @property
    def table_id(self) -> int | None:
        return None if self.table is None else int(self.table["id"])

    @property
    def rules(self) -> RulesConfig:
        table = self.table
        try:
            return RulesConfig.from_dict((table and table.get("rules")) or {})
        except ConfigError:
            return PRESETS.get(str(table and table.get("preset")), PRESETS["classic"])

    @property
    def counting_allowed(self) -> bool:
        """The table's host may forbid the card-counting aid (protocol 1.2 `counting_aid`)."""
        return self.table is None or bool(self.table.get("counting_aid", True))

    @property
    def status_word(self) -> str:
        return "" if self.table is None else str(self.table.get("status", ""))

    @property
    def phase(self) -> str:
        return self.view.phase if self.view else ""

    @property
    def seated(self) -> bool:
        return self.your_seat is not None

    @property
    def is_host(self) -> bool:
        if self.your_seat is None or not self.players:
            return False
        return bool(self.players[self.your_seat].get("is_host"))

    def player_name(self, seat: int) -> str | None:
        """The name in `seat`, or the last one seen there; None when it never had one."""
        if 0 <= seat < len(self.players):
            name = self.players[seat].get("name")
            if name:
                return str(name)
        return self.seat_names.get(seat)

    def control(self, seat: int) -> str | None:
        """Who plays `seat` now (1.4 `control`): human, away, bot or autopilot."""
        if not 0 <= seat < len(self.players):
            return None
        value = self.players[seat].get("control")
        return str(value) if value else None

    @property
    def autopiloted(self) -> bool:
        """A bot plays our seat after our timeouts until we act."""
        return self.your_seat is not None and self.control(self.your_seat) == "autopilot"

    def waiting_for(self, seat: int) -> bool:
        """The table waits for `seat` now (the server's `turn`)."""
        return seat in self.clock_at

    def seat_seconds_left(self, seat: int) -> int | None:
        """Seconds left on the server's clock for `seat`'s pending decision (None: not
        pending, or untimed)."""
        at = self.clock_at.get(seat)
        return None if at is None else max(0, int(at - self.clock() + 0.999))

    def doubled_cards(self) -> list[int]:
        return [int(c) for c, _seat in self.view.doubled] if self.view else []

    def unplayed_doubles(self) -> list[int]:
        """Doubled cards not yet on a trick: after the pass, whoever holds them is hidden."""
        v = self.view
        if v is None:
            return []
        played = {c for t in v.tricks for _s, c in t["cards"]} | {c for _s, c in v.trick}
        return [c for c in self.doubled_cards() if c not in played]

    def score_rows(self) -> list[list[int]]:
        """Every finished round's points per seat (the score sheet)."""
        return [list(r) for r in self.view.history] if self.view else []

    def cards_out(self) -> list[list[int]]:
        """Per suit, the cards neither in our hand nor played yet this round (counting aid)."""
        v = self.view
        if v is None:
            return [[] for _suit in range(4)]
        seen = set(v.hand) | {c for t in v.tricks for _s, c in t["cards"]}
        seen |= {c for _s, c in v.trick}
        out: list[list[int]] = [[] for _suit in range(4)]
        for c in range(51, -1, -1):
            if c not in seen:
                out[C.suit_of(c)].append(c)
        return out

    # ---- folding the server's messages -------------------------------------------------
    def snapshot(self, msg: P.Snapshot, spectating: tuple[int, str | None] | None) -> bool:
        """The whole table again; True when it is another table than the one we were at.
        `spectating` is the table (and password) this snapshot answers a `spectate` for."""
        other = self.table_id != int(msg.table["id"])
        if other:
            self.clock_at = {}
            self.seat_names = {}
        if spectating is not None:
            self.watching = spectating
        elif msg.your_seat is not None:
            self.watching = None
        self.released = False
        self.table = msg.table
        self.view = seatview.of_snapshot(msg)
        self.players = [p.copy() for p in msg.players]
        self._remember_names()
        self.your_seat = msg.your_seat
        self.trick_done = False
        if self.view is not None:
            result = self.view.result
            self.game_stats = SeatStats.of(result["stats"] if result else None)
            self.last_trick = self.view.tricks[-1] if self.view.tricks else None
            self._recount_voids()
        return other

    def table_update(self, msg: P.TableUpdate) -> None:
        if self.table is not None and msg.table is not None and self.table_id == msg.table_id:
            self.table = msg.table

    def seat_update(self, msg: P.SeatUpdate) -> bool:
        """Who is in a seat now; False when it is about another table. Our own seat
        emptied is the server letting us go (`released`)."""
        if self.table is None or msg.table_id != self.table_id:
            return False
        while len(self.players) < 4:
            self.players.append(empty_seat())
        self.players[msg.seat] = msg.player.copy()
        self._remember_names()
        if msg.seat == self.your_seat and not msg.player.get("name"):
            self._freed_seat, self.your_seat = self.your_seat, None
            self.released = True
        return True

    def dealt(self, msg: P.Dealt) -> bool:
        """A new round (round 0: a new game); False when we are at no table."""
        if self.table is None:
            return False
        self.view = seatview.new_round(self.view, self.your_seat, msg)
        if msg.round == 0:
            self.game_stats = None
        self.table = self.table | {"status": "playing"}
        self.trick_done = False
        self.last_trick = None  # the last game's or round's trick is not this round's
        self.shown_void = [set() for _seat in range(4)]
        return True

    def fold(self, msg: P.Message) -> bool:
        """Fold a game event into the view (seatview.fold_event); False with no view yet."""
        v = self.view
        if v is None:
            return False
        if isinstance(msg, P.CardPlayed) and v.trick:
            led = C.suit_of(v.trick[0][1])
            if C.suit_of(msg.card) != led:
                self.shown_void[msg.seat].add(led)
        v = seatview.fold_event(v, msg, self.your_seat, self.rules.card_points())
        if isinstance(msg, P.CardPlayed):
            self.trick_done = False
        elif isinstance(msg, P.TrickTaken):
            self.last_trick = v.tricks[-1]
            self.trick_done = True
        elif isinstance(msg, P.RoundScored):
            # The summary shows this round's points; the seats start the next at 0. The
            # round's voids end with it: the counting aid's void line goes too.
            v = replace(v, round_points=[0] * 4)
            self.shown_void = [set() for _seat in range(4)]
        self.view = v
        return True

    def game_over(self, msg: P.GameOver) -> None:
        self.fold(msg)
        self.game_stats = SeatStats.of(msg.stats)
        if self.table is not None:
            self.table = self.table | {"status": "finished"}

    def prompted(self, msg: P.YourTurn) -> bool:
        """Our turn, with the server's list of choices; False with no view yet."""
        if self.view is None:
            return False
        self.view = seatview.prompted(self.view, msg, self.your_seat)
        return True

    def own_pass(self, cards: Sequence[int]) -> None:
        """The server took our pass: on screen the cards leave the hand at once (the engine
        keeps them until the exchange)."""
        if self.view is not None:
            hand = [c for c in self.view.hand if c not in cards]
            self.view = replace(seatview.own_pass(self.view, cards, self.your_seat), hand=hand)

    def turn(self, msg: P.Turn, at: float) -> float | None:
        """(1.4) Whose decision the table waits for, with the server's time left counted
        from `at` on our clock: the turn marker and countdown of every seat, spectators'
        too. Returns when our own clock runs out (None: not ours, or untimed)."""
        self.clock_at = {int(s): None if left is None else at + left for s, left in msg.seats}
        mine = self.clock_at.get(self.your_seat) if self.your_seat is not None else None
        v = self.view
        if v is not None and msg.phase == "play" and msg.seats:
            seat = int(msg.seats[0][0])
            if v.phase == "pass":
                # A spectator hears no `passed_received`: here its view starts play.
                v = replace(v, phase="play", passes_done=[True] * 4, leader=seat)
            self.view = replace(v, turn=seat)
        return mine

    def left(self) -> None:
        """Back in the lobby: nothing of the table stays."""
        self.watching = None
        self.clock_at = {}
        self.table = None
        self.view = None
        self.players = []
        self.seat_names = {}
        self.your_seat = None
        self.released = False

    def _remember_names(self) -> None:
        for seat, p in enumerate(self.players):
            if p.get("name"):
                self.seat_names[seat] = str(p["name"])

    def _recount_voids(self) -> None:
        v = self.view
        assert v is not None
        self.shown_void = [set() for _seat in range(4)]
        for trick in [*(t["cards"] for t in v.tricks), v.trick]:
            if trick:
                led = C.suit_of(trick[0][1])
                for seat, card in trick[1:]:
                    if C.suit_of(card) != led:
                        self.shown_void[seat].add(led)
