"""Each part of the terminal client's state works on its own, given only what the parts share
(client/tui/shared.py): no ClientModel, no terminal, no socket. Events in, state and
requests out."""

from __future__ import annotations

from helpers.model import HAND, PLAYERS, table

from leekha import protocol as P
from leekha.client.core.core import ClientCore
from leekha.client.core.lobby import Lobby
from leekha.client.tui.choices import Choices
from leekha.client.tui.lobby_intents import LobbyActions
from leekha.client.tui.lobby_pick import LobbyPick
from leekha.client.tui.overlays import Overlays
from leekha.client.tui.shared import Names, Sender, Shared
from leekha.client.tui.status import StatusLine
from leekha.common import cards as C


def shared(version: list[int]) -> Shared:
    sender = Sender()
    core = ClientCore(sender.hand_off, sender.new_id, clock=lambda: 100.0)
    core.receive(P.Welcome(re=1, version=version, server="srv", token="t" * 16, name="ann"))
    line = StatusLine(lambda: None)
    names = Names(core.table, False)
    return Shared("ann", lambda: 100.0, core, Overlays(), line, sender, names)


def test_the_hand_alone_dims_the_pass_ban_and_sends_only_a_legal_pass() -> None:
    s = shared([1, 4])
    s.game.snapshot(
        P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS),
        None,
    )
    s.game.dealt(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    hand = Choices(s)
    clubs = C.parse_cards("2C 5C KC")  # all three clubs: passing them would empty the suit
    hand.pass_sel = set(clubs[:2])
    assert clubs[2] not in hand.pass_choosable() and C.parse_card("AS") in hand.pass_choosable()
    hand.cursor = hand.hand.index(clubs[2])
    hand.toggle()
    assert hand.pass_sel == set(clubs[:2]) and "pass ban" in s.line.text and s.line.error
    hand.cursor = hand.hand.index(C.parse_card("AS"))
    hand.toggle()
    hand.enter_pass()
    assert s.sender.take() == []  # the first Enter only asks to confirm
    hand.enter_pass()
    (sent,) = s.sender.take()
    assert sent == P.PassCards(id=1, cards=sorted([*clubs[:2], C.parse_card("AS")]))
    assert not hand.my_turn
    hand.refused(sent)  # the server said no: the choice is open again
    assert hand.my_turn and hand.pass_sel


def test_the_lobby_alone_says_what_an_old_server_lacks_and_asks_quick_play_with_its_own_id() -> (
    None
):
    old = shared([1, 0])
    lobby = LobbyActions(old, LobbyPick(Lobby()), lambda _names: None)
    lobby.start_quick()
    lobby.open_tournaments()
    assert old.sender.take() == [] and old.boxes.tournaments is None
    assert "protocol 1.3 needed" in old.line.text
    new = shared([1, 4])
    lobby = LobbyActions(new, LobbyPick(Lobby()), lambda _names: None)
    lobby.quick = P.QuickPlay(id=0, preset="levant", bot="hard", wait_s=5)
    lobby.start_quick()
    lobby.start_quick()
    assert new.sender.take() == [
        P.QuickPlay(id=1, preset="levant", bot="hard", wait_s=5),
        P.QuickPlay(id=2, preset="levant", bot="hard", wait_s=5),
    ]
