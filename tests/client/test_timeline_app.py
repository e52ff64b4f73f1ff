"""The presentation timeline in the running app: its timer, and keys through the bindings.

A key that ends an item early does not make the next item wait for the old timer. Found end
to end (tests/client/test_facts_e2e.py): Esc on a round's summary (held 4 s) went on at
once, but the next trick, held for 10 ms, stayed on screen until the summary's 4 s were up,
because the app only set a timer when none was pending.

A key pressed while a finished trick is on screen is not lost: it ends the trick and then
acts on the true state, where our turn may already be.
"""

from __future__ import annotations

import asyncio

from helpers.model import HAND, PLAYERS, table
from helpers.tui import aio, get_reactor, reactor_test
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from leekha import protocol as P
from leekha.client.tui import model as M
from leekha.client.tui.app import ClientApp
from leekha.common import cards as C


@reactor_test
async def test_after_esc_on_the_summary_the_next_trick_goes_at_its_own_time() -> None:
    async def main() -> None:
        m = M.ClientModel("ann", trick_hold=0.05)
        with create_pipe_input() as inp:
            client = ClientApp(m, get_reactor(), "127.0.0.1", 1, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(client.run())
            try:
                say = client._message  # what the session calls with each server message
                say(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
                say(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0,
                               players=PLAYERS))  # fmt: skip
                say(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
                taken = [[], [C.QUEEN_SPADES], [], []]
                say(P.RoundScored(round=0, round_points=[0, 13, 0, 0], totals=[0, 13, 0, 0],
                                  taken=taken))  # fmt: skip
                assert m.overlay == M.SUMMARY and m.holding  # 4 s, or until a key
                say(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=None))
                plays = [[1, C.parse_card("9C")], [2, C.parse_card("KC")],
                         [3, C.parse_card("3C")], [0, C.parse_card("2C")]]  # fmt: skip
                for seat, card in plays:
                    say(P.CardPlayed(seat=seat, card=card))
                say(P.TrickTaken(winner=2, cards=plays, points=0))
                say(P.CardPlayed(seat=2, card=C.parse_card("4S")))
                inp.send_text("\x1b")  # Esc: the summary goes, the trick is held 50 ms
                await asyncio.wait_for(client.when(lambda: m.overlay != M.SUMMARY), 2.0)
                # then the card after it: well before the summary's 4 s would have ended
                await asyncio.wait_for(
                    client.when(lambda: m.at_table.display_trick() == [[2, C.parse_card("4S")]]),
                    2.0,
                )
            finally:
                client.quit()
                await asyncio.wait_for(task, 5.0)

    await aio(main())


@reactor_test
async def test_a_card_key_over_a_held_trick_lifts_the_card_of_the_turn_already_there() -> None:
    async def main() -> None:
        m = M.ClientModel("ann", trick_hold=30.0)  # the trick would stay 30 s
        with create_pipe_input() as inp:
            client = ClientApp(m, get_reactor(), "127.0.0.1", 1, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(client.run())
            try:
                say = client._message
                say(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
                say(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0,
                               players=PLAYERS))  # fmt: skip
                say(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
                say(P.PassDone(seat=0))
                say(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
                plays = [[3, C.parse_card("9C")], [0, C.parse_card("2C")],
                         [1, C.parse_card("KC")], [2, C.QUEEN_SPADES]]  # fmt: skip
                for seat, card in plays:
                    say(P.CardPlayed(seat=seat, card=card))
                say(P.TrickTaken(winner=1, cards=plays, points=13))
                say(P.CardPlayed(seat=1, card=C.parse_card("AD")))
                ace = C.parse_card("AS")  # the first card from the left: key a
                say(P.YourTurn(phase="play", legal=[ace], deadline=30.0))
                assert m.hand.index(ace) == 0
                assert m.holding and m.my_turn
                inp.send_text("a")
                await asyncio.wait_for(client.when(lambda: m.choices.lifted == ace), 2.0)
                assert not m.holding  # the trick went with the same key
            finally:
                client.quit()
                await asyncio.wait_for(task, 5.0)

    await aio(main())
