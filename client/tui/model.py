"""The client's state: a pure state machine fed server messages and player intents.

Nothing here knows about terminals or sockets. Server messages go in through `apply`, key
presses arrive as intent methods (`move`, `enter`, `toggle`, ...), and requests to send come
out of `outbox` (and through `on_send` when the app wires one). Keeping it pure lets every
screen and state be tested by feeding messages, without a terminal or a server.

The server is the authority: legality shown here (highlighting, the pass ban) is computed
with the engine from common/ only as a hint, and anything the server refuses is reported on
the status line and the local state is left as the server last described it.

Which overlay is on top is one derived value, `overlay`: the painter draws it, Esc closes
it, the keys and the hints follow it, so the four can never disagree.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, cast

from leekha import protocol as P
from leekha.client import systemlines
from leekha.client.core import link as L
from leekha.client.core.chat import Chats
from leekha.client.core.lobby import Lobby
from leekha.client.core.requests import RequestTracker
from leekha.client.core.table import SeatStats, TableState
from leekha.client.i18n import _
from leekha.client.refusals import explain
from leekha.client.tui.autosetup import AutoSetup
from leekha.client.tui.forms import TARGET_MAX, TARGET_MIN, CreateForm, PasswordPrompt
from leekha.client.tui.hold import Hold
from leekha.client.tui.overlays import (
    BOT_LEVEL,
    BOT_LEVELS,
    CONNECTING,
    DOUBLE,
    FORM,
    GAME_OVER,
    HELP,
    INVITE,
    LOBBY,
    PASSWORD,
    PHRASES,
    PROFILE,
    SCORES,
    STATS,
    SUMMARY,
    TABLE,
    TOURNAMENTS,
    Overlays,
    RoundSummary,
)
from leekha.client.tui.social import BUBBLE_S, InviteBox, ProfileBox, phrase_words
from leekha.client.tui.status import StatusLine
from leekha.client.tui.tournament import TournamentScreen
from leekha.client.tui.words import (
    NAME_MAX,
    bot_name,
    level_word,
    round_note,
    suit_word,
    table_name_for,
    what,
)
from leekha.common import cards as C
from leekha.common.legality import legal_passes, pass_error, passable_mask, play_refusal
from leekha.protocol import version as V
from leekha.protocol.invite import Invite
from leekha.protocol.message import to_dict
from leekha.protocol.seatview import doublable

#: What the screens and the tests read here, wherever it is defined.
__all__ = [
    "BOT_LEVEL",
    "BOT_LEVELS",
    "CLIENT_NAME",
    "CONNECTING",
    "DOUBLE",
    "FAILED",
    "FORM",
    "GAME_OVER",
    "HELP",
    "INVITE",
    "LOBBY",
    "NAME_MAX",
    "OFFLINE",
    "ONLINE",
    "PASSWORD",
    "PHRASES",
    "PROFILE",
    "RECONNECTING",
    "SCORES",
    "STATS",
    "SUMMARY",
    "SYSTEM_SENDER",
    "TABLE",
    "TARGET_MAX",
    "TARGET_MIN",
    "TOURNAMENTS",
    "AutoSetup",
    "ClientModel",
    "RoundSummary",
    "SeatStats",
    "level_word",
    "table_name_for",
]

CLIENT_NAME = "leekha-tui"

# Connection states (re-exported for the screens and the tests)
OFFLINE, ONLINE, RECONNECTING, FAILED = L.OFFLINE, L.ONLINE, L.RECONNECTING, L.FAILED

#: The `from` of the server's own lines in a table's chat (docs/protocol.md, chat_message).
SYSTEM_SENDER = "*"


#: Seconds before a timer runs out when the player is warned (status line, and the bell
#: when it is on).
WARN_S = 10


class ClientModel:
    """Everything the screens show, and every rule about what a key does."""

    def __init__(
        self,
        name: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        auto: AutoSetup | None = None,
        ascii: bool = False,
        trick_hold: float = 0.0,
        bell: bool = False,
    ) -> None:
        self.name = name
        self.ascii = ascii  # a display preference the screens read
        self.clock = clock
        self.auto = auto
        self.hold = Hold(clock, trick_hold)  # a finished trick held on screen
        self.bell = bell  # ring on your turn (the app rings and clears `ring`)
        self.ring = False
        self.outbox: list[P.Message] = []
        #: Hands a request to the session; False when it could not go (the link is down).
        self.on_send: Callable[[P.Message], bool] | None = None
        #: Request ids; the app hands in its session's, so ids never repeat across links.
        self.new_id: Callable[[], int] = itertools.count(1).__next__
        #: The requests in flight; the app gives it the session's `answered`.
        self.requests: RequestTracker[None] = RequestTracker(self.hand_off)
        # connection
        self.link = L.Link()
        self.boxes = Overlays()
        # lobby
        self.lobby = Lobby()
        #: An invitation's table, joined once welcomed: (table id, password or None).
        self.invited: tuple[int, str | None] | None = None
        #: The invitation to a table by its id (the app knows the address and TLS).
        self.invite_for: Callable[[int], Invite | None] = lambda _tid: None
        self.table_password: str | None = None  # what we sat down with, for the invitation
        #: Lines to print once the screen is gone (invitations shown), so they can be copied.
        self.keep: list[str] = []
        #: What quick play asks for (Q in the lobby; `leekha join --quick` at once).
        self.quick: dict[str, Any] = {"preset": "classic", "overrides": {}, "bot": "medium"}
        self.quick_now = False
        #: The tournament we entered: its games seat us unasked, with the bell and a notice.
        self.entered: int | None = None
        #: The last quick phrase of each seat and until when it shows beside the seat.
        self.said: dict[int, tuple[str, float]] = {}
        # table
        self.game = TableState(clock)
        self.cursor = 0
        self.lifted: int | None = None
        self.pass_sel: set[int] = set()
        self.pass_confirm = False
        self.pass_sent = False
        self.double_offer: list[int] = []
        self.double_declined: set[int] = set()
        self.trick_note = ""  # "b3 takes it (+13): Q♠" under a finished trick
        self.show_last = False
        self.counting = False  # the card-counting aid, when the table allows it
        self.rematch_voted = False
        self.quit_confirm = False
        #: L pressed once mid-game: leaving gives the seat to a bot for good, so it asks.
        self.leave_confirm = False
        self.deadline_at: float | None = None
        self._warned_at: float | None = None  # the deadline already warned about
        self.played_since_pass = False  # received cards stay marked until the first play
        self._passes: list[tuple[int, ...]] = []
        self._passes_hand = -1
        # common
        #: Chat lines by where they were said: a table's id, or None for the lobby.
        self.chats = Chats()
        self.chat_open = False
        self.line = StatusLine(self._scope)

    # ---- outgoing ----------------------------------------------------------------------
    def request(self, cls: type[P.Message], **fields: Any) -> P.Message:
        """Build a request with a fresh id, remember it and hand it to the sender."""
        msg: P.Message = cast(Any, cls)(id=self.new_id(), **fields)
        self.requests.send(msg, None)
        return msg

    def hand_off(self, msg: P.Message) -> bool:
        """The request goes out (to the outbox, and to the session when wired)."""
        self.outbox.append(msg)
        return self.on_send(msg) if self.on_send is not None else True

    def _answers(self, msg: P.Message) -> P.Message | None:
        """The request of ours `msg` answers (no longer in flight), or None."""
        answer = self.requests.reply(msg)
        return None if answer is None else answer.request

    def take_outbox(self) -> list[P.Message]:
        out, self.outbox = self.outbox, []
        return out

    def say(self, text: str, *, error: bool = False, transient: bool = False) -> None:
        """Put `text` on the status line (client/tui/status.py says when it goes)."""
        self.line.say(text, error=error, transient=transient)

    @property
    def status(self) -> str:
        return self.line.text

    @property
    def status_error(self) -> bool:
        return self.line.error

    def _scope(self) -> tuple[str, int | None, str]:
        return (self.screen, self.game.table_id, self.game.status_word)

    def _forget_stale_status(self) -> None:
        """The state a status line described has changed: the line goes with it."""
        self.line.forget_stale()
        if self.leave_confirm and self.screen != TABLE:
            self.leave_confirm = False

    @property
    def chat(self) -> deque[tuple[str, str]]:
        """The chat lines of where we are (this table, or the lobby)."""
        return self.chats.at(self.game.table["id"] if self.game.table is not None else None)

    def _position_moved(self) -> None:
        self.line.position_moved()

    # ---- derived state -----------------------------------------------------------------
    @property
    def screen(self) -> str:
        if self.game.table is not None:
            return TABLE
        if self.link.welcomed:
            return LOBBY
        return CONNECTING

    @property
    def overlay(self) -> str | None:
        """The overlay on top: painted last, closed by Esc, owner of the keys and hints."""
        return self.boxes.top(
            self.screen,
            waiting=self.game.status_word == "waiting",
            doubling=bool(self.double_offer),
            over=self.game.phase == "game_over",
        )

    @property
    def holding(self) -> bool:
        return self.hold.until is not None

    @property
    def hand(self) -> list[int]:
        """The own hand in display order (what the cursor indexes)."""
        if self.game.view is None:
            return []
        return C.display_order(self.game.view.hand)

    @property
    def received(self) -> set[int]:
        """Cards passed to us this round, marked until our first play."""
        if self.game.view is None or self.played_since_pass:
            return set()
        return set(self.game.view.received or [])

    @property
    def my_turn(self) -> bool:
        v = self.game.view
        if v is None or self.game.your_seat is None:
            return False
        if v.phase == "pass":
            return not v.passes_done[self.game.your_seat] and not self.pass_sent
        return v.phase == "play" and v.turn == self.game.your_seat

    def legal_plays(self) -> set[int]:
        if self.game.view is None or self.game.phase != "play" or not self.my_turn:
            return set()
        return set(self.game.view.legal)

    def _legal_passes(self) -> list[tuple[int, ...]]:
        hand = C.mask_of(self.game.view.hand) if self.game.view else 0
        if hand != self._passes_hand:
            self._passes = (
                list(legal_passes(self.game.rules, hand)) if hand.bit_count() >= 3 else []
            )
            self._passes_hand = hand
        return self._passes

    def pass_choosable(self) -> set[int]:
        """Cards that can still join the current selection in some legal pass.

        This is how the pass ban shows: a card that would empty a suit dims as soon as it
        can no longer be part of a legal pass with what is already chosen.
        """
        if self.game.view is None or self.game.phase != "pass" or not self.my_turn:
            return set()
        sel = self.pass_sel
        out: set[int] = set()
        for combo in self._legal_passes():
            if sel.issubset(combo):
                out.update(combo)
        return out

    def pass_problem(self) -> str | None:
        """Why the current selection is not a legal pass (None when it is)."""
        if len(self.pass_sel) != 3:
            return _("choose 3 cards to pass ({n} chosen)").format(n=len(self.pass_sel))
        hand = C.mask_of(self.game.view.hand) if self.game.view else 0
        err = pass_error(self.game.rules, hand, sorted(self.pass_sel))
        if err is None:
            return None
        return systemlines.rule(err.rule, err.facts, self.fmt) or explain(err.code, err.message)

    def choosable(self) -> set[int]:
        """The cards of the hand that can be chosen now (pass or play)."""
        return self.pass_choosable() if self.game.phase == "pass" else self.legal_plays()

    def can_double(self) -> list[int]:
        """Leekha cards this seat may still reveal: the server's list (1.1) or, from a
        1.0 server, the engine's rule applied to our view."""
        if self.pass_sent:
            return []
        lists = self.link.speaks(V.CAN_DOUBLE)
        return doublable(self.game.view, self.game.rules, self.game.your_seat, server_lists=lists)

    def seconds_left(self) -> int | None:
        if self.deadline_at is None:
            return None
        return max(0, int(self.deadline_at - self.clock() + 0.999))

    def display_trick(self) -> list[list[int]]:
        if self.game.view is None:
            return []
        if self.show_last and self.game.last_trick is not None:
            return list(self.game.last_trick["cards"])
        if self.game.view.trick:
            return list(self.game.view.trick)
        if self.game.trick_done and self.game.last_trick is not None:
            return list(self.game.last_trick["cards"])
        return []

    def player_name(self, seat: int) -> str:
        name = self.game.player_name(seat)
        if name is None:
            return _("seat {n}").format(n=seat + 1)
        players = self.game.players
        bot = 0 <= seat < len(players) and players[seat].get("is_bot")
        if bot and players[seat].get("name") == name:  # a bot the server named
            return bot_name(name, seat, players[seat].get("strategy"))
        return name

    def fmt(self, card: int) -> str:
        return C.format_card(card, ascii=self.ascii)

    def fmts(self, cards: Iterable[int]) -> str:
        return C.format_cards(C.display_order(cards), ascii=self.ascii)

    def play_refusal(self, card: int) -> str:
        """Why `card` may not be played now: the engine's reason (common/legality), in
        words by its rule code, as a server refusal would be worded."""
        name = self.fmt(card)
        v = self.game.view
        if v is None or not self.my_turn:
            return _("{card}: it is not your turn").format(card=name)
        trick = [(s, c) for s, c in v.trick]
        err = play_refusal(self.game.rules, C.mask_of(v.hand), trick, card)
        said = None if err is None else systemlines.rule(err.rule, err.facts, self.fmt)
        return said or _("{card} is not playable now").format(card=name)

    # ---- connection events (from client/session.py) ----------------------------------
    def connection_lost(self, detail: str = "") -> None:
        self.link.lost(detail)
        self.requests.lost()
        self.pass_sent = False

    def reconnect_scheduled(self, attempt: int, delay: float) -> None:
        self.link.lost(_("attempt {n}, next in {s:.0f}s").format(n=attempt, s=delay))

    def connection_failed(self, detail: str) -> None:
        self.link.failed(detail)
        self.say(detail, error=True)

    # ---- the held trick ----------------------------------------------------------------
    def release_hold(self) -> None:
        """Stop holding the finished trick; apply what arrived meanwhile (which may hold
        the next one)."""
        self.hold.release(self._apply)

    def key_release(self) -> None:
        """A key during a hold: it goes on at once, and closes a round summary on the way
        (the key is the player's "seen it")."""
        if self.overlay == SUMMARY:
            self.boxes.summary = None
        self.release_hold()

    def tick(self) -> bool:
        """Release a held trick whose time is up, and warn once when a timer of ours is
        about to run out; True when the screen changed."""
        changed = self._warn()
        if self.hold.due():
            self.release_hold()
            return True
        return changed

    def _warn(self) -> bool:
        left = self.seconds_left()
        if left is None or left > WARN_S or self._warned_at == self.deadline_at:
            return False
        if not self.my_turn:
            return False
        self._warned_at = self.deadline_at
        self.say(
            _("{n} seconds left: then the server plays for you").format(n=left),
            error=True,
            transient=True,
        )
        self.ring = self.bell
        return True

    # ---- server messages ---------------------------------------------------------------
    def apply(self, msg: P.Message) -> None:
        """Fold one server message into the state (game events wait behind a held trick)."""
        if self.hold.waits(msg):
            return
        self._apply(msg)
        self._forget_stale_status()

    def _apply(self, msg: P.Message) -> None:
        match msg:
            case P.Welcome():
                self._on_welcome(msg)
            case P.Error():
                self._on_error(msg)
            case P.Ok():
                self._on_ok(msg)
            case P.TableList():
                self._answers(msg)
                self.lobby.listed(msg)
            case P.TableUpdate():
                self._on_table_update(msg)
            case P.Snapshot():
                self._on_snapshot(msg)
            case P.Dealt():
                self._on_dealt(msg)
            case P.PassDone():
                self._on_pass_done(msg)
            case P.PassedReceived():
                self._on_passed_received(msg)
            case P.DoubleRevealed():
                self._on_double(msg)
            case P.CardPlayed():
                self._on_card_played(msg)
            case P.TrickTaken():
                self._on_trick_taken(msg)
            case P.RoundScored():
                self._on_round_scored(msg)
            case P.GameOver():
                self._on_game_over(msg)
            case P.SeatUpdate():
                self._on_seat_update(msg)
            case P.YourTurn():
                self._on_your_turn(msg)
            case P.Turn():
                self._on_turn(msg)
            case P.ChatMessage():
                lines = self.chats.at(msg.table_id)
                if msg.sender == SYSTEM_SENDER:  # the server's own line: drops, returns, timers
                    text = systemlines.chat_line(msg, self.fmt)
                    lines.append((msg.sender, text))
                    here = self.game.table["id"] if self.game.table is not None else None
                    if msg.table_id == here:
                        self.say(self._mine(msg) or text)
                else:
                    lines.append((msg.sender, msg.text))
            case P.Profile():
                box = self.boxes.profile_box
                if self._answers(msg) is not None and box and box.asked == msg.name:
                    box.profile = to_dict(msg)
            case P.PhraseSaid():
                self._on_phrase(msg)
            case P.Stats():
                self._on_stats(msg)
            case P.TournamentList() | P.TournamentState():
                req = self._answers(msg)
                if isinstance(req, P.EnterTournament) and isinstance(msg, P.TournamentState):
                    self.entered = req.tournament_id
                    self.say(_("you are in {name}: your games begin by themselves").format(
                        name=msg.tournament.get("name", "")))  # fmt: skip
                if self.boxes.tournaments is not None:
                    self.boxes.tournaments.apply(msg)
            case _:
                pass

    def _on_welcome(self, msg: P.Welcome) -> None:
        was = self.link.welcome(msg)
        self.name = msg.name
        self.chats.only_lobby()
        g = self.game
        watched = g.watching if g.table is not None and g.your_seat is None else None
        if watched is not None and msg.table_id is None:
            # A restarted server forgets who watched: watch the same table again.
            self._leave_table()
            self.request(P.Spectate, table_id=watched[0], password=watched[1])
            self.say(_("reconnected: watching the table again"))
            return
        if (
            msg.resumed
            and msg.table_id is None
            and self.game.table is not None
            and self.link.speaks(V.WELCOME_SAYS_SEAT)
        ):
            # The server says we are in the lobby: no snapshot will come to replace the
            # table on screen. (A 1.0 server does not say; the stale table stays.)
            self._leave_table()
            self.say(_("reconnected, but your seat was given up while you were away"), error=True)
        elif msg.resumed:
            self.say(_("reconnected"))
        elif was:
            # A fresh session after the old one expired: the seat is gone.
            self._leave_table()
            self.say(_("reconnected, but the old session had expired"), error=True)
        creating = self.auto is not None and not msg.resumed and self.auto.welcomed(self.request)
        if not creating and (not msg.resumed or self.game.table is None):
            self.request(P.ListTables)
        if self.quick_now and self.game.table is None:
            self.quick_now = False
            self.start_quick()
        if self.invited is not None and self.game.table is None:
            table_id, password = self.invited
            self.invited = None
            self._join(table_id, password, False)

    def _on_error(self, msg: P.Error) -> None:
        req = self._answers(msg)
        words = explain(msg.code, msg.message, msg.rule, msg.args, self.fmt)
        if req is None:
            self.say(_("Server: {words}").format(words=words), error=True)
            return
        if isinstance(req, P.PlayCard | P.PassCards) and msg.rule is not None:
            self.say(words, error=True, transient=True)  # the rule says it all
        else:
            doing = what(req.TYPE)
            self.say(_("{what} refused: {words}").format(what=doing, words=words), error=True)
        if isinstance(req, P.PassCards):
            self.pass_sent = False
            self.pass_confirm = False
        if isinstance(req, P.PlayCard):
            self.lifted = None
        if isinstance(req, P.GetStats):
            self.boxes.stats_open = False
        if isinstance(req, P.ListTournaments):
            self.boxes.tournaments = None
        elif isinstance(req, P.GetTournament) and self.boxes.tournaments is not None:
            self.boxes.tournaments.refused()
        if self.auto is not None:
            self.auto.refused()

    def _on_ok(self, msg: P.Ok) -> None:
        req = self._answers(msg)
        if req is None:
            return
        if isinstance(req, P.PassCards) and self.game.view is not None:
            self.game.own_pass(req.cards)
            self.pass_sel.clear()
            self.pass_confirm = False
            self.deadline_at = None
            self._clamp_cursor()
        elif isinstance(req, P.Leave):
            self._leave_table()
            self.request(P.ListTables)
        elif isinstance(req, P.AddBot | P.Start) and self.auto is not None:
            self.auto.answered(req, self.request)
        elif isinstance(req, P.Rematch):
            # Transient: the deal of the new game replaces it.
            self.say(_("rematch vote sent; waiting for the others"), transient=True)

    def _on_table_update(self, msg: P.TableUpdate) -> None:
        self.lobby.updated(msg)
        self.game.table_update(msg)
        if not self.game.counting_allowed:
            self.counting = False

    def _on_snapshot(self, msg: P.Snapshot) -> None:
        req = self._answers(msg)
        if isinstance(req, P.CreateTable | P.JoinSeat | P.Spectate):
            self.table_password = req.password
        # Unasked, from the lobby, having entered a tournament: its next game seats us.
        here = self.game.table is not None and not self.game.released
        ready = msg.re is None and not here and self.entered is not None
        watch = (req.table_id, req.password) if isinstance(req, P.Spectate) else None
        if self.game.snapshot(msg, watch):
            self.chats.forget(self.game.table_id)  # its own history follows from the server
        self.lifted = None
        self.pass_confirm = False
        self.pass_sent = False
        self.show_last = False
        if not self.game.counting_allowed:
            self.counting = False
        v = self.game.view
        if v is not None:
            self.pass_sel &= set(v.hand)
            if v.phase != "game_over":
                self.rematch_voted = False
            self.played_since_pass = v.phase != "play" or any(
                s == self.game.your_seat for t in v.tricks for s, _c in t["cards"]
            )
        else:
            self.pass_sel.clear()
        if not self.my_turn:
            self.deadline_at = None
        self._position_moved()
        self._offer_doubles()
        self._clamp_cursor()
        if isinstance(req, P.CreateTable) and self.auto is not None:
            players, me = self.game.players, self.game.your_seat
            empty = [s for s, p in enumerate(players) if not p.get("name") and s != me]
            self.auto.created(empty, self.request)
        if ready:
            self.boxes.tournaments = None
            self.ring = True
            self.say(_("your tournament game is ready: {table}").format(table=msg.table["name"]))

    def _on_dealt(self, msg: P.Dealt) -> None:
        if not self.game.dealt(msg):
            return
        self.boxes.summary = None  # the new round needs the player: the summary goes
        self.pass_sel.clear()
        self.pass_confirm = False
        self.pass_sent = False
        self.lifted = None
        self.show_last = False
        self.double_declined.clear()
        self.rematch_voted = False
        self.played_since_pass = False
        self.cursor = 0
        self._position_moved()
        self._offer_doubles()

    def _fold(self, msg: P.Message) -> bool:
        return self.game.fold(msg)

    def _on_pass_done(self, msg: P.PassDone) -> None:
        if not self._fold(msg):
            return
        if msg.seat == self.game.your_seat:
            self.double_offer = []

    def _on_passed_received(self, msg: P.PassedReceived) -> None:
        if not self._fold(msg):
            return
        self.double_offer = []
        self.pass_sel.clear()
        self._position_moved()
        self.say(
            _("received {cards} from {name} (marked + until you play)").format(
                cards=self.fmts(msg.cards), name=self.player_name(msg.from_seat)
            ),
            transient=True,
        )
        self._clamp_cursor()

    def _on_double(self, msg: P.DoubleRevealed) -> None:
        if not self._fold(msg):
            return
        if msg.seat == self.game.your_seat:
            text = _("You doubled {card}: it now scores double")
        else:
            text = _("{name} doubled {card}: it now scores double")
        card = self.fmt(msg.card)
        self.say(text.format(name=self.player_name(msg.seat), card=card), transient=True)
        self._offer_doubles()

    def _on_card_played(self, msg: P.CardPlayed) -> None:
        if not self._fold(msg):
            return
        if msg.seat == self.game.your_seat:
            self.lifted = None
            self.deadline_at = None
            self.played_since_pass = True
        self.show_last = False
        self._position_moved()
        self._clamp_cursor()

    def _on_trick_taken(self, msg: P.TrickTaken) -> None:
        if not self._fold(msg):
            return
        cards = [c for _s, c in msg.cards]
        leekhas = [c for c in cards if c in self.game.rules.leekha_cards]
        who = self.player_name(msg.winner)
        if leekhas:
            self.trick_note = _("{name} takes {cards}! (+{points})").format(
                name=who, cards=self.fmts(leekhas), points=msg.points
            )
            self.say(self.trick_note, transient=True)
        else:
            self.trick_note = _("{name} takes it (+{points})").format(name=who, points=msg.points)
        self.hold.trick()

    def _on_round_scored(self, msg: P.RoundScored) -> None:
        summary = RoundSummary(
            msg.round, msg.round_points, msg.totals, msg.taken, self.game.doubled_cards()
        )
        summary.note = round_note(msg, self.game.rules, self.player_name)
        summary.tie = msg.tie
        self.boxes.summary = summary
        self.hold.summary()
        self._fold(msg)
        self.deadline_at = None

    def _on_game_over(self, msg: P.GameOver) -> None:
        self.game.game_over(msg)
        self.double_offer = []  # a golden goal can end the game in a pass phase
        self.deadline_at = None
        self.rematch_voted = False

    def _on_seat_update(self, msg: P.SeatUpdate) -> None:
        seated = self.game.seated
        if not self.game.seat_update(msg):
            return
        if seated and self.game.released:
            self.say(_("the game is over and your seat is freed: L goes back to the lobby"))
        if self.auto is not None and msg.player.get("name"):
            self.auto.seat_taken(msg.seat)

    def _on_your_turn(self, msg: P.YourTurn) -> None:
        if not self.game.prompted(msg):
            return
        if msg.phase == "pass":
            self._offer_doubles()
        at = self.hold.arrived()
        self.deadline_at = at + msg.deadline if msg.deadline is not None else None
        self._position_moved()
        if msg.phase == "play" and self.lifted is not None:
            # A card lifted before the turn: say now whether it can go.
            if self.lifted in self.legal_plays():
                self.say(self._confirm_text(self.lifted), transient=True)
            else:
                self.say(self.play_refusal(self.lifted), error=True, transient=True)
                self.lifted = None
        self.ring = self.bell

    def _on_turn(self, msg: P.Turn) -> None:
        """(1.4) Whose decision the table waits for and the server's time left: the turn
        marker and countdown of every seat on every screen, spectators' too."""
        at = self.hold.arrived()
        mine = self.game.turn(msg, at)
        if mine is not None:
            self.deadline_at = mine  # a resumed client counts down from the server's figure

    def _mine(self, msg: P.ChatMessage) -> str | None:
        """A notice about our own seat, said to us (how to take the seat back)."""
        if self.game.your_seat is None or msg.args.get("seat") != self.game.your_seat:
            return None
        if msg.code == "timeouts_bot":
            return _(
                "a bot plays for you after {count} timeouts: press Enter or a card key to "
                "take your seat back"
            ).format(count=msg.args.get("count", ""))
        if msg.code == "took_back":
            return _("your seat is yours again")
        return None

    def take_back(self) -> None:
        """Enter or a card key while a bot plays our seat: we are back."""
        self.request(P.TakeBack)
        self.say(_("taking your seat back from the bot…"), transient=True)

    def _on_stats(self, msg: P.Stats) -> None:
        if self._answers(msg) is None:
            return  # not ours (or the overlay was closed and reopened since)
        self.boxes.stats = [dict(p) for p in msg.players]

    def _leave_table(self) -> None:
        if self.game.table is not None:
            self.chats.forget(self.game.table_id)
        self.game.left()
        self.boxes.left_table()
        self.lifted = None
        self.pass_sel.clear()
        self.deadline_at = None
        self.show_last = False
        self.hold.clear()
        self.table_password = None
        self.said.clear()

    def _offer_doubles(self) -> None:
        self.double_offer = [c for c in self.can_double() if c not in self.double_declined]

    def _clamp_cursor(self) -> None:
        n = len(self.game.view.hand) if self.game.view else 0
        self.cursor = max(0, min(self.cursor, n - 1))

    # ---- intents: lobby ----------------------------------------------------------------
    def lobby_enter(self) -> None:
        """Enter in the lobby: the profile of the name chosen under a table, else join."""
        name = self.lobby.chosen_person()
        if name is not None:
            self.open_profiles([name])
        else:
            self.lobby_join()

    def lobby_join(self, *, spectate: bool = False) -> None:
        table = self.lobby.selected()
        if table is None:
            self.say(_("no table to join: press n to create one"))
            return
        if table.get("has_password"):
            self.boxes.password_prompt = PasswordPrompt(int(table["id"]), spectate=spectate)
            return
        self._join(int(table["id"]), None, spectate)

    def _join(self, table_id: int, password: str | None, spectate: bool) -> None:
        if spectate:
            self.request(P.Spectate, table_id=table_id, password=password)
        else:
            self.request(P.JoinSeat, table_id=table_id, password=password)

    def password_type(self, text: str) -> None:
        if self.boxes.password_prompt is not None:
            self.boxes.password_prompt.type(text)

    def password_backspace(self) -> None:
        if self.boxes.password_prompt is not None:
            self.boxes.password_prompt.backspace()

    def password_submit(self) -> None:
        prompt, self.boxes.password_prompt = self.boxes.password_prompt, None
        if prompt is not None:
            self._join(prompt.table_id, prompt.typed or None, prompt.spectate)

    def refresh(self) -> None:
        self.request(P.ListTables)

    def open_stats(self) -> None:
        """Lobby: ask for everyone's statistics and show them as they arrive."""
        if not self.link.speaks(V.STATS):
            self.say(_("this server keeps no statistics (protocol 1.0)"), error=True)
            return
        self.boxes.stats_open = True
        self.boxes.stats = None
        self.boxes.stats_cursor = 0
        self.request(P.GetStats)

    def close_stats(self) -> None:
        self.boxes.stats_open = False
        self.boxes.stats = None
        # A late reply must not reopen or refill the overlay.
        self.requests.drop(lambda asked: isinstance(asked.request, P.GetStats))

    def open_tournaments(self) -> None:
        """Lobby: the server's tournaments; Enter follows one, Enter on a table watches."""
        if not self.link.speaks(V.TOURNAMENTS):
            self.say(_("this server does not run tournaments (protocol 1.3 needed)"), error=True)
            return
        self.boxes.tournaments = TournamentScreen(self.request, clock=self.clock)
        self.boxes.tournaments.open()

    def tournament_move(self, step: int) -> None:
        if self.boxes.tournaments is not None:
            self.boxes.tournaments.move(step)

    def tournament_refresh(self) -> None:
        if self.boxes.tournaments is not None:
            self.boxes.tournaments.refresh()

    def tournament_join(self) -> None:
        """e on a followed tournament: take part as the entrant of our name."""
        screen = self.boxes.tournaments
        if screen is not None and screen.following is not None:
            self.request(P.EnterTournament, tournament_id=screen.following)

    def tournament_enter(self) -> None:
        table_id = self.boxes.tournaments.enter() if self.boxes.tournaments is not None else None
        if table_id is not None:
            self.boxes.tournaments = None
            self._join(table_id, None, spectate=True)

    def open_form(self) -> None:
        self.boxes.form = CreateForm(name=table_name_for(self.name, _("{name}'s table")))

    def form_move(self, step: int) -> None:
        if self.boxes.form is not None:
            self.boxes.form.move(step)

    def form_change(self, step: int) -> None:
        if self.boxes.form is not None:
            self.boxes.form.change(step)

    def form_backspace(self) -> None:
        if self.boxes.form is not None:
            self.boxes.form.backspace()

    def form_type(self, text: str) -> None:
        problem = self.boxes.form.type(text) if self.boxes.form is not None else None
        if problem is not None:
            self.say(problem, error=True)

    def form_submit(self) -> None:
        f = self.boxes.form
        if f is None:
            return
        problem = f.problem()
        if problem is not None:
            self.say(problem, error=True)
            return
        self.boxes.form = None
        fields: dict[str, bool] = {}
        if not f.counting_aid and self.link.speaks(V.COUNTING_AID):
            fields["counting_aid"] = False
        self.request(
            P.CreateTable,
            name=f.name.strip(),
            preset=f.preset,
            overrides={} if f.target is None else {"target": f.target},
            password=f.password or None,
            pass_timer_s=f.pass_timer,
            turn_timer_s=f.turn_timer,
            **fields,
        )

    # ---- intents: table ----------------------------------------------------------------
    def move(self, step: int) -> None:
        n = len(self.hand)
        if n:
            self.cursor = (self.cursor + step) % n
        self.lifted = None
        self.pass_confirm = False

    def choose(self, index: int) -> None:
        """A letter key: jump to that card; in the play phase lift it (again: play it)."""
        hand = self.hand
        if not 0 <= index < len(hand):
            return
        if self.game.autopiloted:
            self.take_back()
            return
        self.cursor = index
        if self.game.phase == "pass":
            self.toggle()
        elif self.game.phase == "play":
            self.enter()

    def toggle(self) -> None:
        """Space in the pass phase: add or remove the card under the cursor."""
        hand = self.hand
        if self.game.phase != "pass" or not hand or not self.game.seated:
            return
        if not self.my_turn:
            self.say(_("your pass is already in"))
            return
        card = hand[self.cursor]
        self.pass_confirm = False
        if card in self.pass_sel:
            self.pass_sel.discard(card)
            self.say("")
        elif len(self.pass_sel) >= 3:
            self.say(_("three cards are chosen: space on one to put it back"), error=True)
        elif card not in self.pass_choosable():
            self.say(self._ban_reason(card), error=True, transient=True)
        else:
            self.pass_sel.add(card)
            self.say("")

    def _ban_reason(self, card: int) -> str:
        hand = C.mask_of(self.game.view.hand if self.game.view else [])
        suit = suit_word(C.suit_of(card))
        if not passable_mask(self.game.rules, hand) & C.BIT[card]:
            text = _("{card} cannot go: your last of {suit} (pass ban)")
        else:
            text = _("{card} cannot go: it would empty your {suit} (pass ban)")
        return text.format(card=self.fmt(card), suit=suit)

    def enter(self) -> None:
        """Enter: pick, then confirm. The first press lifts or stages, the second sends."""
        if self.overlay == SUMMARY:
            self.boxes.summary = None
            return
        if self.game.autopiloted:
            self.take_back()
            return
        v = self.game.view
        if v is None or not self.game.seated:
            return
        if v.phase == "pass":
            self._enter_pass()
        elif v.phase == "play":
            self._enter_play()
        elif v.phase == "game_over":
            self.rematch()

    def _enter_pass(self) -> None:
        if not self.my_turn:
            self.say(_("your pass is in; waiting for the others"))
            return
        problem = self.pass_problem()
        if problem is not None:
            self.say(problem, error=len(self.pass_sel) == 3, transient=True)
            return
        if not self.pass_confirm:
            self.pass_confirm = True
            to = self.game.view.pass_to if self.game.view else None
            dest = self.player_name(to) if to is not None else _("the next seat")
            self.say(
                _("pass {cards} to {name}? Enter to confirm, Esc to change").format(
                    cards=self.fmts(self.pass_sel), name=dest
                ),
                transient=True,
            )
            return
        self.pass_confirm = False
        self.pass_sent = True
        self.request(P.PassCards, cards=sorted(self.pass_sel))
        self.say(_("pass sent"), transient=True)

    def _confirm_text(self, card: int) -> str:
        return _("play {card}? Enter again to play, Esc to cancel").format(card=self.fmt(card))

    def _enter_play(self) -> None:
        hand = self.hand
        if not hand:
            return
        card = hand[self.cursor]
        now = bool(self.legal_plays())  # our turn, and the server has said what may go
        if now and card not in self.legal_plays():
            self.say(self.play_refusal(card), error=True, transient=True)
            self.lifted = None
            return
        if self.lifted != card:
            self.lifted = card
            if now:
                self.say(self._confirm_text(card), transient=True)
            else:
                self.say(
                    _("{card} ready: Enter on your turn to play it").format(card=self.fmt(card)),
                    transient=True,
                )
            return
        if not now:
            self.say(_("not your turn yet"), transient=True)
            return
        self.request(P.PlayCard, card=card)
        self.say("")

    def escape(self) -> None:
        """Esc closes the overlay on top; with none, it backs out of the current choice."""
        top = self.overlay
        if self.quit_confirm or self.leave_confirm:
            self.quit_confirm = self.leave_confirm = False
            self.say("")
        elif top == STATS:
            self.close_stats()
        elif self.boxes.close(top):
            pass
        elif self.show_last:
            self.show_last = False
        elif self.pass_confirm:
            self.pass_confirm = False
            self.say("")
        elif self.lifted is not None:
            self.lifted = None
            self.say("")
        elif self.pass_sel or self.line.transient:
            self.pass_sel.clear()
            self.say("")

    def answer_double(self, yes: bool) -> None:
        if not self.double_offer:
            return
        card = self.double_offer[0]
        if yes:
            self.request(P.DeclareDouble, card=card)
        self.double_declined.add(card)
        self.double_offer = self.double_offer[1:]

    def toggle_last_trick(self) -> None:
        if self.game.last_trick is None:
            self.say(_("no trick has been taken yet this round"))
            return
        self.show_last = not self.show_last

    def toggle_help(self) -> None:
        self.boxes.show_help = not self.boxes.show_help

    def toggle_scores(self) -> None:
        self.boxes.show_scores = not self.boxes.show_scores

    def toggle_counting(self) -> None:
        if not self.game.counting_allowed:
            self.counting = False
            self.say(_("the host has turned the counting aid off at this table"), error=True)
            return
        self.counting = not self.counting

    def rematch(self) -> None:
        if self.game.phase != "game_over" or self.rematch_voted or not self.game.seated:
            return
        self.rematch_voted = True
        self.request(P.Rematch)

    def add_bot(self, strategy: str) -> None:
        seat = self._bot_seat()
        if seat is not None:
            self.request(P.AddBot, seat=seat, strategy=strategy)

    def _bot_seat(self) -> int | None:
        """The seat a bot would take (the first empty one), or None, said why."""
        if not self.game.is_host:
            self.say(_("only the host can add bots"), error=True)
            return None
        empty = [s for s, p in enumerate(self.game.players) if not p.get("name")]
        if not empty:
            self.say(_("every seat is filled: press s to start"))
            return None
        return empty[0]

    def open_bot_level(self, strategy: str) -> None:
        """Host, waiting room: pick the level of the bot to add, starting at `strategy`'s
        (the tiers behind the levels count as them)."""
        if self._bot_seat() is None:
            return
        level = {"heuristic": "medium", "search": "hard"}.get(strategy, strategy)
        self.boxes.bot_level = BOT_LEVELS.index(level) if level in BOT_LEVELS else 1

    def bot_level_move(self, step: int) -> None:
        if self.boxes.bot_level is not None:
            self.boxes.bot_level = min(max(self.boxes.bot_level + step, 0), len(BOT_LEVELS) - 1)

    def bot_level_choose(self, level: str | None = None) -> None:
        """Add a bot of `level` (the one picked when None) and close the picker."""
        picked = self.boxes.bot_level
        self.boxes.bot_level = None
        if level is None and picked is not None:
            level = BOT_LEVELS[picked]
        if level is not None:
            self.add_bot(level)

    def remove_bot(self) -> None:
        """Host, waiting room: take back the bot added last (the highest bot seat)."""
        if not self.game.is_host:
            self.say(_("only the host can remove bots"), error=True)
            return
        if self.game.status_word != "waiting":
            self.say(_("bots can only be removed before the game starts"), error=True)
            return
        bots = [s for s, p in enumerate(self.game.players) if p.get("is_bot") and p.get("name")]
        if not bots:
            self.say(_("no bot to remove"))
            return
        seat = bots[-1]
        self.request(P.RemoveBot, seat=seat)
        self.say(_("removing {name}").format(name=self.player_name(seat)))

    def start(self) -> None:
        if not self.game.is_host:
            self.say(_("only the host can start"), error=True)
            return
        self.request(P.Start)

    def leave(self) -> None:
        """L gives the seat up; mid-game that is for good (a bot takes it), so it asks."""
        if self.game.table is None:
            return
        if self.game.released:  # the server has let us go already: nothing to ask
            self._leave_table()
            self.request(P.ListTables)
            return
        if self.game.seated and self.game.status_word == "playing" and not self.leave_confirm:
            self.leave_confirm = True
            self.say(_("press L again to leave: a bot takes your seat for good; Esc to stay"))
            return
        self.leave_confirm = False
        self.request(P.Leave)

    def open_profiles(self, names: list[str] | None = None) -> None:
        """Profiles of the people at this table (P), or of one name (Enter in statistics)."""
        if not self.link.speaks(V.PROFILES):
            self.say(_("this server keeps no profiles (protocol 1.4 needed)"), error=True)
            return
        if names is None:
            names = [str(p["name"]) for p in self.game.players if p["name"] and not p["is_bot"]]
        if not names:
            self.say(_("nobody here has a profile: bots have none"), error=True)
            return
        self.boxes.profile_box = ProfileBox(names)
        if len(names) == 1:
            self.profile_show()

    def profile_move(self, step: int) -> None:
        if self.boxes.profile_box is not None:
            self.boxes.profile_box.move(step)

    def profile_show(self) -> None:
        box = self.boxes.profile_box
        if box is not None and box.asked is None and box.chosen is not None:
            box.asked = box.chosen
            self.request(P.GetProfile, name=box.chosen)

    def stats_move(self, step: int) -> None:
        rows = self.boxes.stats or []
        self.boxes.stats_cursor = max(0, min(self.boxes.stats_cursor + step, len(rows) - 1))

    def stats_profile(self) -> None:
        """Enter on a name in the statistics: that player's profile."""
        rows = self.boxes.stats or []
        if 0 <= self.boxes.stats_cursor < len(rows):
            self.open_profiles([str(rows[self.boxes.stats_cursor]["name"])])

    def start_quick(self) -> None:
        """Lobby: one request, and the server seats us (or opens a table bots complete)."""
        if not self.link.speaks(V.QUICK_PLAY):
            self.say(_("this server has no quick play (protocol 1.4 needed)"), error=True)
            return
        self.request(P.QuickPlay, **self.quick)
        self.say(_("quick play: finding you a seat…"), transient=True)

    def open_phrases(self) -> None:
        if not self.link.speaks(V.QUICK_PHRASES):
            self.say(_("this server has no quick phrases (protocol 1.4 needed)"), error=True)
            return
        self.boxes.phrase_picker = True

    def say_phrase(self, index: int) -> None:
        """Picker: say the phrase at `index` (0-based) and close the picker."""
        if self.boxes.phrase_picker and 0 <= index < len(P.PHRASES):
            self.boxes.phrase_picker = False
            self.request(P.Phrase, code=P.PHRASES[index])

    def bubble(self, seat: int) -> str | None:
        """The quick phrase showing beside `seat` now, in the reader's language."""
        said = self.said.get(seat)
        if said is None or self.clock() >= said[1]:
            return None
        return phrase_words(said[0])

    def _on_phrase(self, msg: P.PhraseSaid) -> None:
        here = self.game.table["id"] if self.game.table is not None else None
        if msg.table_id != here:
            return
        self.chat.append((msg.sender, phrase_words(msg.code)))
        if msg.seat is not None:
            self.said[msg.seat] = (msg.code, self.clock() + BUBBLE_S)

    def open_invite(self) -> None:
        """The invitation line for this table, in a box; kept to print after quitting."""
        invite = (
            self.invite_for(int(self.game.table["id"])) if self.game.table is not None else None
        )
        if invite is None:
            self.say(_("no invitation: the address of this server is not known"), error=True)
            return
        self.boxes.invite_box = InviteBox(invite, self.table_password)
        self._keep_invite()

    def invite_toggle_password(self) -> None:
        if self.boxes.invite_box is not None:
            self.boxes.invite_box.toggle()
            self._keep_invite()

    def _keep_invite(self) -> None:
        assert self.boxes.invite_box is not None
        line = self.boxes.invite_box.shown.line()
        if line not in self.keep:
            self.keep.append(line)

    def ask_quit(self) -> bool:
        """q: first press asks, second press quits. Returns True when quitting."""
        if self.quit_confirm:
            self.quit_confirm = False
            return True
        self.quit_confirm = True
        if self.game.seated and self.game.status_word == "playing" and self.auto is not None:
            if self.auto.kept:
                self.say(_("press q again to quit; leekha play again resumes this game"))
            else:
                self.say(_("press q again to quit; this game is not kept (--no-save)"))
        elif self.game.seated and self.game.status_word == "playing":
            self.say(_("press q again to quit; your seat stays yours: join again to go on"))
        else:
            self.say(_("press q again to quit, Esc to stay"))
        return False

    def send_chat(self, text: str) -> None:
        text = text.strip()
        if text:
            self.request(P.Chat, text=text[:300])
        self.chat_open = False
