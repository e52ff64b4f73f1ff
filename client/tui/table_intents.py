"""What the player does at a table beyond choosing cards: the host's bots and start, the
last trick and the counting aid, the rematch vote, leaving, and taking the seat back from
the bot that plays it.

Each intent asks the server; what it refuses comes back on the status line (the replies),
and the local state follows the server's messages, not the key.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha.client.core import intents as I
from leekha.client.i18n import _
from leekha.client.prefs import Prefs
from leekha.client.tui.overlays import BOT_LEVELS, BotLevelBox
from leekha.client.tui.shared import Shared
from leekha.client.tui.timeline import Timeline


class TableActions:
    def __init__(
        self,
        shared: Shared,
        leave_table: Callable[[], None],
        prefs: Prefs,
        timeline: Timeline,
    ) -> None:
        self.s = shared
        self._timeline = timeline  # a finished trick still on screen is drawn from it
        self._leave_table = leave_table  # back in the lobby, nothing of the table kept
        self.show_last = False
        self._prefs = prefs  # the aid as the player last left it, in this run or before
        self.counting = prefs.counting  # the card-counting aid, when the table allows it
        self.rematch_voted = False
        #: L pressed once mid-game: leaving gives the seat to a bot for good, so it asks.
        self.leave_confirm = False
        self.trick_note = ""  # "b3 takes it (+13): Q♠" under a finished trick

    def display_trick(self) -> list[list[int]]:
        """The trick on the table: a finished one the timeline still shows, the one being
        played, or the last one taken while it is still shown (or asked for)."""
        g = self.s.game
        if g.view is None:
            return []
        held = self._timeline.trick
        if held is not None:
            return [[seat, card] for seat, card in held.cards]
        if self.show_last and g.last_trick is not None:
            return list(g.last_trick["cards"])
        if g.view.trick:
            return list(g.view.trick)
        if g.trick_done and g.last_trick is not None:
            return list(g.last_trick["cards"])
        return []

    def toggle_last_trick(self) -> None:
        if self.s.game.last_trick is None:
            self.s.say(_("no trick has been taken yet this round"))
            return
        self.show_last = not self.show_last

    def toggle_counting(self) -> None:
        if not self.s.game.counting_allowed:
            self.counting = False
            self.s.say(_("the host has turned the counting aid off at this table"), error=True)
            return
        self.counting = not self.counting
        self._prefs.counting = self.counting

    def rematch(self) -> None:
        g = self.s.game
        if g.phase != "game_over" or self.rematch_voted or not g.seated:
            return
        self.rematch_voted = True
        self.s.request(I.Rematch())

    def take_back(self) -> None:
        """Enter or a card key while a bot plays our seat: we are back."""
        self.s.request(I.TakeBack())
        self.s.say(_("taking your seat back from the bot…"), transient=True)

    # ---- the host, in the waiting room -----------------------------------------------------
    def add_bot(self, strategy: str) -> None:
        seat = self._bot_seat()
        if seat is not None:
            self.s.request(I.AddBot(seat, strategy))

    def _bot_seat(self) -> int | None:
        """The seat a bot would take (the first empty one), or None, said why."""
        if not self.s.game.is_host:
            self.s.say(_("only the host can add bots"), error=True)
            return None
        empty = [s for s, p in enumerate(self.s.game.players) if not p.get("name")]
        if not empty:
            self.s.say(_("every seat is filled: press s to start"))
            return None
        return empty[0]

    def open_bot_level(self, strategy: str) -> None:
        """Host, waiting room: pick the level of the bot to add, starting at `strategy`'s
        (the tiers behind the levels count as them)."""
        if self._bot_seat() is None:
            return
        level = {"heuristic": "medium", "search": "hard"}.get(strategy, strategy)
        self.s.boxes.open(BotLevelBox(BOT_LEVELS.index(level) if level in BOT_LEVELS else 1))

    def bot_level_move(self, step: int) -> None:
        box = self.s.boxes.get(BotLevelBox)
        if box is not None:
            box.move(step)

    def bot_level_choose(self, level: str | None = None) -> None:
        """Add a bot of `level` (the one picked when None) and close the picker."""
        picked = self.s.boxes.bot_level
        self.s.boxes.shut(BotLevelBox)
        if level is None and picked is not None:
            level = BOT_LEVELS[picked]
        if level is not None:
            self.add_bot(level)

    def remove_bot(self) -> None:
        """Host, waiting room: take back the bot added last (the highest bot seat)."""
        g = self.s.game
        if not g.is_host:
            self.s.say(_("only the host can remove bots"), error=True)
            return
        if g.status_word != "waiting":
            self.s.say(_("bots can only be removed before the game starts"), error=True)
            return
        bots = [s for s, p in enumerate(g.players) if p.get("is_bot") and p.get("name")]
        if not bots:
            self.s.say(_("no bot to remove"))
            return
        seat = bots[-1]
        self.s.request(I.RemoveBot(seat))
        self.s.say(_("removing {name}").format(name=self.s.names.player(seat)))

    def start(self) -> None:
        if not self.s.game.is_host:
            self.s.say(_("only the host can start"), error=True)
            return
        self.s.request(I.Start())

    def leave(self) -> None:
        """L gives the seat up; mid-game that is for good (a bot takes it), so it asks."""
        g = self.s.game
        if g.table is None:
            return
        if g.released:  # the server has let us go already: nothing to ask
            self._leave_table()
            self.s.request(I.ListTables())
            return
        if g.seated and g.status_word == "playing" and not self.leave_confirm:
            self.leave_confirm = True
            self.s.say(_("press L again to leave: a bot takes your seat for good; Esc to stay"))
            return
        self.leave_confirm = False
        self.s.request(I.Leave())

    # ---- what the server's messages do here -------------------------------------------------
    def rules_changed(self) -> None:
        """The table's host may turn the counting aid off (protocol 1.2)."""
        if not self.s.game.counting_allowed:
            self.counting = False

    def snapshot(self) -> None:
        self.show_last = False
        self.rules_changed()
        v = self.s.game.view
        if v is not None and v.phase != "game_over":
            self.rematch_voted = False

    def dealt(self) -> None:
        self.show_last = False
        self.rematch_voted = False

    def left(self) -> None:
        self.show_last = False
