"""The presentation timeline: what the table screen still shows of the moments just past.

Every server message is folded into the model the moment it arrives, so the model is the
server's latest position and a key always acts on it. Only the picture lags, and only on
purpose: a finished trick stays on the table a moment (`--trick-hold`) and a round's
summary a little longer, so that the player sees what happened before the game goes on.
The timeline is the list of those items still to show, each for its own time, one after
the other; the table painter draws the current one (the finished trick's four cards and
who took it) where the true state would be, and the round's summary box waits behind the
tricks before it. Nothing waits in front of the fold.

A key ends the current item early. A snapshot drops the finished tricks still to show: it
states a position past them, and a player who is behind (the server seated them, or passed
for them) must not watch stale tricks while the seat is theirs to play. A round's summary
stays: its facts (the moon, the golden-goal stop, the tie) are in no snapshot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from leekha.client.tui.overlays import Overlays, RoundSummary

#: Seconds a round's summary stays on screen at least (any key goes on sooner); the next
#: round's deal closes it when that time is up, since that round needs the player.
SUMMARY_HOLD_S = 4.0


@dataclass(frozen=True)
class HeldTrick:
    """A finished trick as it lay on the table, and the words under it."""

    cards: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int
    note: str  # "b3 takes it (+0)", or "b3 takes Q♠! (+13)"
    seconds: float


@dataclass
class HeldSummary:
    """A round's summary box, kept on screen for its time even once the next round is
    dealt (`dealt`: it then closes when its time is up, or at a key)."""

    summary: RoundSummary
    seconds: float
    dealt: bool = False


Item = HeldTrick | HeldSummary


class Timeline:
    """The items still to show; the first is on screen until `until` (our clock). It
    closes the round's summary box (`boxes.summary`) when the summary's item ends: only
    the UI state changes the UI's boxes."""

    def __init__(
        self, clock: Callable[[], float], seconds: float, boxes: Overlays | None = None
    ) -> None:
        self.clock = clock
        self.seconds = max(0.0, seconds)  # 0: nothing is held, the screen is the state
        self.boxes = boxes if boxes is not None else Overlays()
        self._items: deque[Item] = deque()
        self.until: float | None = None  # when the current item ends

    @property
    def current(self) -> Item | None:
        """The item on screen now, or None: the screen draws the true state."""
        return self._items[0] if self._items else None

    @property
    def trick(self) -> HeldTrick | None:
        """The finished trick on screen now, if that is the current item."""
        item = self.current
        return item if isinstance(item, HeldTrick) else None

    @property
    def summary(self) -> RoundSummary | None:
        """The round's summary the box shows: the timeline's while one is on screen (the
        client may be rounds behind the server, whose latest is in `boxes.summary`)."""
        item = self.current
        return item.summary if isinstance(item, HeldSummary) else self.boxes.summary

    def taken(self, cards: Iterable[Sequence[int]], winner: int, note: str) -> None:
        """A trick was taken: show it for `--trick-hold` seconds (none when that is 0)."""
        if self.seconds > 0:
            plays = tuple((seat, card) for seat, card in cards)
            self._push(HeldTrick(plays, winner, note, self.seconds))

    def scored(self, summary: RoundSummary) -> None:
        """A round ended: its summary stays at least `SUMMARY_HOLD_S` (when holds are on)."""
        if self.seconds > 0:
            self._push(HeldSummary(summary, max(SUMMARY_HOLD_S, self.seconds)))

    def dealt(self) -> None:
        """A new round was dealt: it needs the player, so the summary box goes, now when no
        round's summary is still to show, else when that one's time is up (or a key)."""
        waiting = [item for item in self._items if isinstance(item, HeldSummary)]
        for item in waiting:
            item.dealt = True
        if not waiting:
            self.boxes.shut(RoundSummary)

    def snapshot(self) -> None:
        """The position was stated whole: the finished tricks still to show are stale."""
        head = self.current
        self._items = deque(item for item in self._items if not isinstance(item, HeldTrick))
        if self.current is not head:
            self._start(self.clock())

    def skip(self) -> Item | None:
        """A key: the current item ends now and the next one starts; the item that ended.
        A round's summary closes on the way (the key is the player's "seen it")."""
        if not self._items:
            return None
        item = self._items.popleft()
        self._start(self.clock())
        if isinstance(item, HeldSummary):
            self.boxes.shut_box(item.summary)
        return item

    def key(self) -> bool:
        """A key while an item is on screen ends it (`skip`). True when the key should then
        act on the true state: it ended a finished trick and no round's summary is next
        (that needs its own key)."""
        item = self.skip()
        return isinstance(item, HeldTrick) and not isinstance(self.current, HeldSummary)

    def due(self) -> list[Item]:
        """End the items whose time is up, in order, and return them. Each next item
        starts when the one before it ended, so a late timer does not stretch the show. A
        round's summary whose next round was dealt meanwhile closes with its item; one at
        the game's end stays until Enter or Esc."""
        ended: list[Item] = []
        now = self.clock()
        while self.until is not None and now >= self.until:
            item = self._items.popleft()
            ended.append(item)
            self._start(self.until)
            if isinstance(item, HeldSummary) and item.dealt:
                self.boxes.shut_box(item.summary)
        return ended

    def clear(self) -> None:
        """Away from the table: nothing of it is left to show."""
        self._items.clear()
        self.until = None

    def _push(self, item: Item) -> None:
        self._items.append(item)
        if len(self._items) == 1:
            self._start(self.clock())

    def _start(self, at: float) -> None:
        self.until = at + self._items[0].seconds if self._items else None
