"""The presentation timeline (client/tui/timeline.py): every message is folded at once, and
the screen shows the moments just past (a finished trick, a round's summary) for their time.

Each test states what the screen should show and what the state should be with a fake clock,
worked out from the rules of the timeline (a trick `--trick-hold` seconds, a summary at
least `SUMMARY_HOLD_S`, one after the other, a key ends one, a snapshot drops the tricks),
never read back from the code under test.
"""

from __future__ import annotations

from helpers.model import HAND, PLAYERS, table

from leekha import protocol as P
from leekha.client.core import intents as I
from leekha.client.tui import model as M
from leekha.client.tui.layout import render_text
from leekha.client.tui.overlays import Overlays, RoundSummary
from leekha.client.tui.timeline import SUMMARY_HOLD_S, HeldSummary, HeldTrick, Timeline
from leekha.common import cards as C

TRICK = [[0, C.parse_card("2C")], [1, C.parse_card("9C")], [2, C.parse_card("KC")],
         [3, C.parse_card("3C")]]  # fmt: skip
SECOND = [[seat, C.parse_card(name)] for seat, name in enumerate(["4C", "5C", "6C", "7C"])]


def _summary(round: int = 0) -> RoundSummary:
    return RoundSummary(round, [0, 13, 0, 0], [0, 13, 0, 0], [[], [C.QUEEN_SPADES], [], []])


# ---- the timeline alone ------------------------------------------------------------------


def test_a_trick_shows_for_its_seconds_then_the_next_item_for_its_own() -> None:
    now = [100.0]
    t = Timeline(lambda: now[0], 1.5)
    t.taken(TRICK, 2, "b2 takes it (+0)")
    t.taken(SECOND, 3, "b3 takes it (+0)")
    first = t.trick
    assert first is not None and first.winner == 2 and t.until == 101.5
    assert first.cards == tuple((seat, card) for seat, card in TRICK)
    now[0] = 101.4
    assert t.due() == [] and t.trick is first
    now[0] = 101.6
    assert t.due() == [first]
    second = t.trick
    assert second is not None and second.winner == 3
    assert t.until == 103.0  # it started when the first ended (101.5), not at the tick
    now[0] = 110.0
    assert t.due() == [second] and t.current is None and t.until is None


def test_a_late_tick_ends_every_item_that_was_due_in_order() -> None:
    now = [0.0]
    t = Timeline(lambda: now[0], 1.0)
    t.taken(TRICK, 2, "")
    t.taken(SECOND, 3, "")
    summary = _summary()
    t.scored(summary)  # shown 4 s after the second trick: until 1 + 1 + 4 = 6
    now[0] = 5.9
    ended = t.due()
    assert [type(item) for item in ended] == [HeldTrick, HeldTrick]
    current = t.current
    assert isinstance(current, HeldSummary) and current.summary is summary and t.until == 6.0


def test_no_holds_at_zero_seconds() -> None:
    t = Timeline(lambda: 0.0, 0.0)
    t.taken(TRICK, 2, "")
    t.scored(_summary())
    assert t.current is None and t.until is None
    assert Timeline(lambda: 0.0, -2.0).seconds == 0.0  # a negative hold is none


def test_a_key_ends_the_current_item_and_the_next_starts_then() -> None:
    now = [50.0]
    t = Timeline(lambda: now[0], 2.0)
    t.taken(TRICK, 2, "")
    t.taken(SECOND, 3, "")
    now[0] = 50.5
    ended = t.skip()
    assert isinstance(ended, HeldTrick) and ended.winner == 2
    assert t.trick is not None and t.trick.winner == 3 and t.until == 52.5
    t.skip()
    assert t.skip() is None and t.current is None


def test_a_snapshot_drops_the_tricks_and_keeps_the_summary_from_then() -> None:
    now = [10.0]
    t = Timeline(lambda: now[0], 1.0)
    t.taken(TRICK, 2, "")
    summary = _summary()
    t.scored(summary)
    t.taken(SECOND, 3, "")  # the next round's first trick
    now[0] = 10.5
    t.snapshot()
    current = t.current
    assert isinstance(current, HeldSummary) and current.summary is summary
    assert t.until == 10.5 + SUMMARY_HOLD_S
    now[0] = 20.0
    assert t.due() == [current] and t.current is None  # the trick after it went too


def test_a_deal_closes_the_summary_box_now_or_when_its_item_ends() -> None:
    now = [0.0]
    boxes = Overlays()
    t = Timeline(lambda: now[0], 1.0, boxes)
    boxes.open(_summary())  # shown with no item (the game's end, its time over)
    t.dealt()
    assert boxes.summary is None  # nothing to show: the box goes now
    t.taken(TRICK, 2, "")
    summary = _summary()
    boxes.open(summary)
    t.scored(summary)
    t.dealt()
    assert boxes.summary is summary and t.summary is summary  # behind the trick, still
    now[0] = 1.0 + SUMMARY_HOLD_S - 0.1
    t.due()
    assert boxes.summary is summary
    now[0] = 1.0 + SUMMARY_HOLD_S
    t.due()
    assert boxes.summary is None and t.summary is None


def test_a_summary_with_no_deal_after_it_stays_past_its_time_and_a_key_closes_it() -> None:
    now = [0.0]
    boxes = Overlays()
    t = Timeline(lambda: now[0], 1.0, boxes)
    summary = _summary()
    boxes.open(summary)
    t.scored(summary)
    now[0] = 10.0
    t.due()
    assert t.current is None and boxes.summary is summary  # the game's end: Enter or Esc
    t.scored(summary)
    assert not t.key() and boxes.summary is None  # a key on a summary: it closes


def test_a_key_over_a_trick_goes_on_to_the_state_unless_a_summary_is_next() -> None:
    t = Timeline(lambda: 0.0, 1.0)
    t.taken(TRICK, 2, "")
    t.taken(SECOND, 3, "")
    assert t.key()  # the next trick shows; the key goes on too (and would end it)
    t.scored(_summary())
    assert not t.key()  # the summary is next: it takes a key of its own
    assert not t.key() and t.current is None and not t.key()


# ---- the client: the state goes on, the screen shows the past --------------------------


def _playing(m: M.ClientModel, tricks: list[list[list[int]]], moon_penalty: int = 0) -> None:
    """Welcome, seat 0 at a playing table, the deal, then `tricks` played and taken by 2."""
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    info = table("playing", moon_penalty=moon_penalty)
    m.apply(P.Snapshot(re=None, table=info, view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    for plays in tricks:
        for seat, card in plays:
            m.apply(P.CardPlayed(seat=seat, card=card))
        m.apply(P.TrickTaken(winner=2, cards=plays, points=0))


def _play_phase(now: list[float], hold: float) -> M.ClientModel:
    """ann in the play phase of round 0 (seat 3 leads), on a clock the test moves."""
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=hold)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.PassDone(seat=0))
    m.apply(P.PassedReceived(cards=C.parse_cards("3C 4C 6C"), from_seat=3))
    return m


def _take(m: M.ClientModel, winner: int = 1) -> list[list[int]]:
    """The trick of tests/client/test_model.py: 9♣ led by seat 3, Q♠ on it, to `winner`."""
    plays = [[3, C.parse_card("9C")], [0, C.parse_card("2C")], [1, C.parse_card("KC")],
             [2, C.QUEEN_SPADES]]  # fmt: skip
    for seat, card in plays:
        m.apply(P.CardPlayed(seat=seat, card=card))
    m.apply(P.TrickTaken(winner=winner, cards=plays, points=13))
    return plays


def test_the_finished_trick_shows_while_the_state_is_already_at_our_turn() -> None:
    now = [100.0]
    m = _play_phase(now, 1.5)
    plays = _take(m)
    ace = C.parse_card("AD")
    m.apply(P.CardPlayed(seat=1, card=ace))  # b1 leads the next trick at once
    m.apply(P.YourTurn(phase="play", legal=[C.parse_card("3D")], deadline=30.0))
    # the state is the server's: the new trick, our turn, our clock from now
    assert m.game.view is not None and [list(p) for p in m.game.view.trick] == [[1, ace]]
    assert m.my_turn and m.alarm.seconds_left() == 30
    # the screen: the finished trick and who took it, any key goes on
    assert m.holding and m.at_table.display_trick() == plays
    screen = render_text(m)
    assert "b1 takes Q♠! (+13)" in screen and "any key next trick" in screen
    now[0] = 101.4
    assert not m.tick() and m.at_table.display_trick() == plays
    now[0] = 101.5
    assert m.tick() and not m.holding
    assert m.at_table.display_trick() == [[1, ace]]
    assert "b1 takes Q♠!" not in render_text(m)
    assert m.alarm.seconds_left() == 29  # the turn's clock ran from when it arrived


def test_a_key_ends_the_held_trick_and_the_next_key_acts_on_the_turn_already_there() -> None:
    m = _play_phase([100.0], 5.0)
    _take(m)
    ace = C.parse_card("AD")
    m.apply(P.CardPlayed(seat=1, card=ace))
    three = C.parse_card("3D")
    m.apply(P.YourTurn(phase="play", legal=[three], deadline=30.0))
    assert m.holding
    m.key_release()
    assert not m.holding and m.at_table.display_trick() == [[1, ace]]
    m.take_outbox()
    m.choose(m.hand.index(three))  # lifted: our turn came while the trick was shown
    m.choose(m.hand.index(three))  # and played
    assert m.take_outbox() == [P.PlayCard(id=m.sender.new_id() - 1, card=three)]


def test_no_trick_is_held_at_zero_seconds() -> None:
    m = _play_phase([100.0], 0.0)  # --trick-hold 0
    plays = _take(m)
    assert not m.holding
    assert m.at_table.display_trick() == plays  # the true state: the trick lies there
    m.apply(P.CardPlayed(seat=1, card=C.parse_card("AD")))
    assert m.at_table.display_trick() == [[1, C.parse_card("AD")]]


def test_a_pushed_snapshot_drops_the_tricks_but_the_round_summary_and_its_note_show() -> None:
    """The server passed for a bot-played seat and pushes the next round's snapshot while a
    trick of this round is still on screen: the stale trick goes, the round's summary and
    its moon note (in no snapshot) still show, for their own time."""
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=1.0)
    _playing(m, [TRICK], moon_penalty=50)
    moon_table = table("playing", moon_penalty=50)
    assert m.holding and m.at_table.display_trick() == TRICK
    taken = [[], C.cards_of(C.mask_of(range(52)) & m.game.rules.penalty_mask), [], []]
    m.apply(P.RoundScored(round=0, round_points=[0, 50, 0, 0], totals=[0, 50, 0, 0],
                          taken=taken, moon=1))  # fmt: skip
    assert m.overlay is None  # the summary waits behind the trick still on screen
    m.apply(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=1))
    assert m.game.view is not None and m.game.view.round == 1  # the state went on
    now[0] = 100.5
    m.apply(P.Snapshot(re=None, table=moon_table, view=None, your_seat=0, players=PLAYERS))
    assert m.overlay == M.SUMMARY and "b1 shot the moon!" in render_text(m)
    now[0] = 100.5 + SUMMARY_HOLD_S - 0.1
    assert not m.tick() and m.overlay == M.SUMMARY
    now[0] = 100.5 + SUMMARY_HOLD_S
    assert m.tick() and m.boxes.summary is None and not m.holding


def test_a_snapshot_that_answers_a_request_drops_the_held_trick() -> None:
    m = M.ClientModel("ann", clock=lambda: 100.0, trick_hold=5.0)
    _playing(m, [TRICK])
    assert m.holding
    req = m.shared.request(I.JoinTable(7))
    assert isinstance(req, P.JoinSeat)
    m.apply(P.Snapshot(re=req.id, table=table("playing"), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    assert not m.holding


def test_tricks_before_a_pushed_snapshot_are_not_shown_one_by_one() -> None:
    """The server seated us (a bot's seat) while two tricks were still to show: the seat
    is ours to play now, so neither trick makes us wait."""
    m = M.ClientModel("ann", clock=lambda: 100.0, trick_hold=1.0)
    _playing(m, [TRICK, SECOND])
    assert m.holding and m.at_table.display_trick() == TRICK
    m.apply(P.Snapshot(re=None, table=table("playing"), view=None, your_seat=0, players=PLAYERS))
    assert not m.holding


def test_the_servers_notice_shows_at_once_with_the_card_it_tells_of() -> None:
    """A timed-out player's pane: the server played for them and says so. Both are folded
    at once (the card is in the state, the line in the chat and on the status line) while
    the trick before is still on screen."""
    m = M.ClientModel("ann", clock=lambda: 100.0, trick_hold=1.0)
    _playing(m, [TRICK])
    played = C.parse_card("5C")
    m.apply(P.CardPlayed(seat=0, card=played))  # the server played for ann
    m.apply(P.ChatMessage(sender="*", text="Time ran out", table_id=7, code="timeout_passed",
                          args={"seat": 0, "cards": [played]}))  # fmt: skip
    line = "Time ran out: the server passed 5♣ for you"
    assert [text for sender, text in m.chat if sender == "*"] == [line]
    assert m.game.view is not None and [list(p) for p in m.game.view.trick] == [[0, played]]
    assert m.holding and m.at_table.display_trick() == TRICK


def test_the_last_trick_shows_before_the_summary_and_the_game_over_box() -> None:
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=1.0)
    _playing(m, [TRICK])
    m.apply(P.RoundScored(round=0, round_points=[0, 0, 26, 0], totals=[0, 0, 126, 0],
                          taken=[[], [], [C.QUEEN_SPADES], []]))  # fmt: skip
    m.apply(P.GameOver(winners=[0], losers=[2], totals=[0, 0, 126, 0]))
    assert m.game.phase == "game_over" and m.overlay is None  # the trick first
    assert m.at_table.display_trick() == TRICK
    now[0] = 101.0
    assert m.tick() and m.overlay == M.SUMMARY and m.holding
    now[0] = 101.0 + SUMMARY_HOLD_S
    # no next round: the summary stays until Enter or Esc, over the game's end
    assert m.tick() and not m.holding and m.overlay == M.SUMMARY
    m.escape()
    assert m.overlay == M.GAME_OVER


def test_a_client_rounds_behind_shows_each_rounds_summary_in_turn() -> None:
    """The server plays on while a summary shows (a bot plays our seat): the box shows the
    summary the timeline is at, not the latest round's, and a key on it goes to the next."""
    now = [100.0]
    m = M.ClientModel("ann", clock=lambda: now[0], trick_hold=0.5)
    _playing(m, [])
    first, second = (
        P.RoundScored(
            round=r,
            round_points=[0, 13, 0, 0],
            totals=[0, 13 * (r + 1), 0, 0],
            taken=[[], [C.QUEEN_SPADES], [], []],
        )
        for r in (0, 1)
    )
    m.apply(first)
    m.apply(P.Dealt(round=1, dealer=0, hand=HAND, pass_to=1))
    for seat, card in TRICK:
        m.apply(P.CardPlayed(seat=seat, card=card))
    m.apply(P.TrickTaken(winner=2, cards=TRICK, points=0))
    m.apply(second)
    m.apply(P.Dealt(round=2, dealer=1, hand=HAND, pass_to=2))
    assert m.overlay == M.SUMMARY and "round 1 over" in render_text(m)
    m.key_release()  # round 1's summary goes; round 2's first trick shows, then its summary
    assert m.overlay is None and m.at_table.display_trick() == TRICK
    now[0] += 0.5
    assert m.tick() and m.overlay == M.SUMMARY and "round 2 over" in render_text(m)
    now[0] += SUMMARY_HOLD_S
    assert m.tick() and m.overlay is None and m.boxes.summary is None
