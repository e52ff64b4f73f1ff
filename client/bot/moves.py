"""How a bot seat plays: every decision by its strategy, and never a stalled seat.

The game half of `client.bot.client.BotClient`: a prompt (or a snapshot with our move
pending) asks the strategy, from the tracked seat view alone, and sends its move; a move
the server refuses is replaced by a random one from the prompt's `legal` list, a move
refused for being too quick is sent again a little later, and one never answered is sent
again. At a game's end the bot votes for a rematch, leaves, or goes back to its tournament.
"""

from __future__ import annotations

from itertools import combinations
from typing import cast

from leekha import protocol as P
from leekha.client.bot.seat import RATE_RETRIES, UNANSWERED_S, BotSeat, Move, Note, log
from leekha.client.bot.view import PASS, PLAY, DecisionKey
from leekha.common import cards as C
from leekha.common.bots.base import decide
from leekha.common.legality import legal_passes


class MoveSteps(BotSeat):
    """The game steps of a bot seat."""

    def _on_your_turn(self, msg: P.YourTurn) -> None:
        self.tracker.apply(msg)
        self._think()

    def _on_dealt(self, msg: P.Dealt) -> None:
        self.status = "playing"
        self.tracker.apply(msg)

    def _on_game_over(self, msg: P.GameOver) -> None:
        self.tracker.apply(msg)
        self._game_over(msg.game_id)

    def _game_over(self, game_id: int | None = None) -> None:
        """`game_id`: the id the server stored the game under (1.4), named in the log so
        that `leekha records export --game ID` finds it."""
        stored = f", stored as game {game_id}" if game_id is not None else ""
        self.status = "finished"
        self.games_done += 1
        if self.options.tournament is not None:
            # The server takes us back to the lobby and seats us at our next game; asking
            # for the state again tells us when that was the last one.
            log.info(
                "{bot}: tournament game {n} over{stored}",
                bot=self.name,
                n=self.games_done,
                stored=stored,
            )
            self.table_id = None
            self._answered = None
            self._enter_lobby()
            return
        result = self.tracker.view.result
        log.info(
            "{bot}: game {n} over, totals {totals}, winners {winners}{stored}",
            bot=self.name,
            n=self.games_done,
            stored=stored,
            totals=result["totals"] if result else None,
            winners=[w + 1 for w in result["winners"]] if result else None,
        )
        if self.options.games and self.games_done >= self.options.games:
            self._send(P.Leave(id=self._new_id()), Note("leave"))
            self.stop()
            return
        self._vote_rematch()

    def _vote_rematch(self) -> None:
        if self.status == "finished":
            self._send(P.Rematch(id=self._new_id()), Note("rematch"))

    def _think(self) -> None:
        if not self.tracker.my_move():
            return
        key = self.tracker.decision_key()
        if key == self._answered:
            return
        if self.options.think_s > 0:
            self._later("think", self.options.think_s, lambda: self._act(key))
        else:
            self._act(key)

    def _act(self, key: DecisionKey) -> None:
        if key != self.tracker.decision_key() or not self.tracker.my_move():
            return
        self._answered = key
        view = self.tracker.seat_view()
        try:
            actions = decide(self.strategy, view)
        except Exception:
            log.failure("{bot}: strategy failed; moving at random", bot=self.name)
            actions = []
        legal = set(view.legal)
        for action in actions:
            if action["kind"] == "double" and action["card"] in view.can_double:
                card = action["card"]
                self._send(P.DeclareDouble(id=self._new_id(), card=card), Note("double"))
            elif action["kind"] == "pass":
                cards = sorted(cast(list[int], action["cards"]))
                if len(set(cards)) == 3 and set(cards) <= legal:
                    self._send_pass(key, cards)
                    return
            elif action["kind"] == "play" and action["card"] in legal:
                self._send_play(key, action["card"])
                return
        self._act_randomly(PASS if view.phase == PASS else PLAY, key)

    def _act_randomly(self, kind: str, key: DecisionKey, tries: int = 1) -> None:
        """The never-stall path: a random move the prompt's `legal` list allows."""
        legal = list(self.tracker.view.legal)
        if not legal:
            return
        if kind == PLAY:
            self._send_play(key, self.rng.choice(legal), tries)
            return
        options = self._pass_options(legal)
        if options:
            self._send_pass(key, self.rng.choice(options), tries)

    def _pass_options(self, legal: list[int]) -> list[list[int]]:
        """Legal passes by our tracked hand; any three passable cards if that is off."""
        hand = C.mask_of(self.tracker.view.hand)
        allowed = set(legal)
        combos = [list(c) for c in legal_passes(self.tracker.config, hand) if set(c) <= allowed]
        return combos or [list(c) for c in combinations(legal, 3)]

    def _resend(self, kind: str, key: DecisionKey, move: int | list[int], tries: int) -> None:
        if key != self.tracker.decision_key():
            return  # the decision was made for us meanwhile (timer, takeover)
        if isinstance(move, int):
            self._send_play(key, move, tries)
        else:
            self._send_pass(key, list(move), tries)

    def _send_pass(self, key: DecisionKey, cards: list[int], tries: int = 0) -> None:
        cards = sorted(cards)
        note = Note("pass", Move(key, cards, tries))
        self._send(P.PassCards(id=self._new_id(), cards=cards), note)
        self._unanswered(PASS, key, cards, tries)

    def _send_play(self, key: DecisionKey, card: int, tries: int = 0) -> None:
        self._send(P.PlayCard(id=self._new_id(), card=card), Note("play", Move(key, card, tries)))
        self._unanswered(PLAY, key, card, tries)

    def _unanswered(self, kind: str, key: DecisionKey, move: int | list[int], tries: int) -> None:
        """Send the move again if no answer comes (the server may drop it unanswered)."""
        if tries < RATE_RETRIES:
            again = tries + 1
            self._later("unanswered", UNANSWERED_S, lambda: self._resend(kind, key, move, again))
