"""The key table keeps the keys, the hint line and the help box in step, on every screen:
a live key is named on the hint line or in the help box (or says why it needs no word),
a hint names only keys that are live there, and no key is live twice.

The check reads the bindings prompt_toolkit gets (their filters asked as at a key press)
and the words on the painted 80x24 frame; the hint's key names are parsed back to key
names here, independently of the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest
from helpers.model import HAND, PLAYERS, at_table, play_phase, seat_info, table, welcomed
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys

from leekha import protocol as P
from leekha.client.i18n import _
from leekha.client.tui import keytable
from leekha.client.tui import model as M
from leekha.client.tui.hints import fit_hints, hint_items
from leekha.client.tui.keyfilters import Actions, Press, Where, layer, lobby, on
from leekha.client.tui.keymap import CLIENT_KEYS, Entry, help_rows
from leekha.client.tui.keys import build_keys
from leekha.client.tui.layout import render_text
from leekha.client.tui.replay_model import ReplayModel
from leekha.common import cards as C
from leekha.protocol.invite import Invite
from leekha.protocol.views import PlayerInfo, TableSummary, TournamentSummary

W = TypeVar("W")
P_ = TypeVar("P_")


def noop() -> None:
    pass


ACTIONS = Actions(quit=noop, open_chat=noop, close_chat=noop, send_chat=noop)


def current() -> M.ClientModel:
    m = M.ClientModel("ann", clock=lambda: 100.0)
    m.apply(P.Welcome(re=1, version=[1, 4], server="srv", token="t" * 16, name="ann"))
    return m


def in_lobby(person: bool = False) -> M.ClientModel:
    m = current()
    first = table()
    first["seats"][2] = {"name": "carla", "is_bot": False, "connected": True}
    locked: TableSummary = {**table(), "id": 8, "name": "Saturday", "has_password": True}
    m.apply(P.TableList(re=None, tables=[first, locked], total=2, next=None))
    if person:
        m.lobby.move_person(1)
        assert m.lobby.chosen_person() is not None
    return m


def waiting_room(host: bool = True) -> M.ClientModel:
    m = current()
    players = [seat_info("ann", host=host), seat_info("rb1", bot=True), seat_info("cy"),
               seat_info(None)]  # fmt: skip
    m.apply(P.Snapshot(re=None, table=table(), view=None, your_seat=0, players=players))
    m.social.invite_for = lambda table_id: Invite("127.0.0.1", 7777, table_id)
    m.take_outbox()
    return m


def my_play() -> M.ClientModel:
    m = play_phase()
    m.apply(P.YourTurn(phase="play", legal=C.parse_cards("2C 5C"), deadline=30.0))
    return m


def passed() -> M.ClientModel:
    m = at_table()
    m.choices.pass_sel = set(HAND[:3])
    m.enter()
    m.enter()
    return m


def summary() -> M.ClientModel:
    m = my_play()
    taken: list[list[int]] = [[], [C.QUEEN_SPADES], [], []]
    m.apply(P.RoundScored(round=0, round_points=[0, 13, 0, 0], totals=[0, 13, 0, 0], taken=taken))
    assert m.overlay == M.SUMMARY
    return m


def game_over() -> M.ClientModel:
    m = summary()
    m.enter()
    m.apply(P.GameOver(winners=[0], losers=[1], totals=[0, 113, 10, 2]))
    return m


def doubling() -> M.ClientModel:
    m = welcomed()
    m.apply(P.Snapshot(re=None, table=table("playing", "levant"), view=None, your_seat=0,
                       players=PLAYERS))  # fmt: skip
    m.apply(P.Dealt(round=0, dealer=3, hand=HAND, pass_to=1))
    m.apply(P.YourTurn(phase="pass", legal=HAND, deadline=60.0, can_double=[C.QUEEN_SPADES]))
    return m


def autopiloted() -> M.ClientModel:
    m = my_play()
    me: PlayerInfo = {**PLAYERS[0], "control": "autopilot", "control_reason": "timeouts"}
    m.apply(P.SeatUpdate(table_id=7, seat=0, player=me))
    assert m.game.autopiloted
    return m


def held() -> M.ClientModel:
    m = play_phase()
    m.timeline.seconds = 5.0
    plays = [[3, C.parse_card("9C")], [0, C.parse_card("2C")], [1, C.parse_card("KC")],
             [2, C.QUEEN_SPADES]]  # fmt: skip
    for seat, card in plays:
        m.apply(P.CardPlayed(seat=seat, card=card))
    m.apply(P.TrickTaken(winner=1, cards=plays, points=13))
    assert m.holding
    return m


def following() -> M.ClientModel:
    m = in_lobby()
    m.take_outbox()
    m.in_lobby.open_tournaments()
    (ask,) = m.take_outbox()
    summary: TournamentSummary = {"id": 7, "name": "Friday", "format": "round_robin",
                                  "status": "running", "entrants": 4, "games_done": 3,
                                  "games_total": 8}  # fmt: skip
    m.apply(P.TournamentList(re=ask.id, tournaments=[summary]))  # type: ignore[attr-defined]
    m.in_lobby.tournament_enter()
    assert m.boxes.tournaments is not None and m.boxes.tournaments.following_one
    return m


def then(build: Callable[[], M.ClientModel], *steps: Callable[[M.ClientModel], Any]) -> Any:
    def built() -> M.ClientModel:
        m = build()
        for step in steps:
            step(m)
        return m

    return built


STATES: dict[str, Callable[[], M.ClientModel]] = {
    "connecting": lambda: M.ClientModel("ann", clock=lambda: 100.0),
    "lobby": in_lobby,
    "lobby, a name chosen": lambda: in_lobby(person=True),
    "lobby help": then(in_lobby, M.ClientModel.toggle_help),
    "lobby chat": then(in_lobby, lambda m: setattr(m, "chat_open", True)),
    "new-table form": then(in_lobby, lambda m: m.in_lobby.open_form()),
    "password": then(in_lobby, lambda m: m.lobby.move(1), lambda m: m.in_lobby.join_selected()),
    "statistics": then(in_lobby, lambda m: m.in_lobby.open_stats()),
    "tournaments": then(in_lobby, lambda m: m.in_lobby.open_tournaments()),
    "a tournament": following,
    "profiles": then(waiting_room, lambda m: m.social.open_profiles(["ann", "cy"])),
    "phrases": then(in_lobby, lambda m: m.social.open_phrases()),
    "waiting room, host": waiting_room,
    "waiting room, guest": lambda: waiting_room(host=False),
    "bot level": then(waiting_room, lambda m: m.at_table.open_bot_level("random")),
    "invitation": then(waiting_room, lambda m: m.social.open_invite()),
    "invitation with a password": then(
        waiting_room,
        lambda m: setattr(m.social, "table_password", "pw"),
        lambda m: m.social.open_invite(),
    ),
    "pass phase": at_table,
    "pass phase help": then(at_table, M.ClientModel.toggle_help),
    "pass sent": passed,
    "play, my turn": my_play,
    "play, my turn, help": then(my_play, M.ClientModel.toggle_help),
    "play, another's turn": play_phase,
    "a bot plays my seat": autopiloted,
    "a trick held": held,
    "round summary": summary,
    "summary help": then(summary, M.ClientModel.toggle_help),
    "score sheet": then(my_play, M.ClientModel.toggle_scores),
    "doubling": doubling,
    "doubling help": then(doubling, M.ClientModel.toggle_help),
    "game over": game_over,
    "game over help": then(game_over, M.ClientModel.toggle_help),
}

ARROWS = {"↑": "up", "↓": "down", "←": "left", "→": "right"}
NAMES = {"Enter": ["enter"], "Esc": ["escape"], "space": ["space"], _("any key"): ["<any>"]}


def named_keys(shown: str) -> list[tuple[str | Keys, ...]]:
    """The keys a hint's key text names ("↑↓", "←→/a-m", "Enter"), as prompt_toolkit
    key tuples."""
    names: list[str] = []
    for part in shown.split("/"):
        if part in NAMES:
            names += NAMES[part]
        elif len(part) == 3 and part[1] == "-":
            names += [chr(c) for c in range(ord(part[0]), ord(part[2]) + 1)]
        elif all(ch in ARROWS for ch in part):
            names += [ARROWS[ch] for ch in part]
        else:
            assert len(part) == 1, f"a key text the test cannot read: {shown!r}"
            names.append(part)
    kb = KeyBindings()
    for name in names:
        kb.add(name)(lambda event: None)
    return [b.keys for b in kb.bindings]


def problems(
    table: Sequence[keytable.Key[W, P_]], where: W, press: P_, help_at: W | None
) -> list[str]:
    """What is wrong with `table`'s keys at `where`; `help_at` is what the help box there
    describes (None: no help box can open here)."""
    kb = keytable.register(KeyBindings(), table, lambda: where, lambda e: press)
    live = [b for b in kb.bindings if b.filter()]
    found = []
    twice = Counter(b.keys for b in live if b.keys != (Keys.Any,))
    found += [f"{keys} live twice" for keys, n in twice.items() if n > 1]
    hints = keytable.hints(table, where)
    line = fit_hints(hints, 80)
    on_line = {(k, v) for k, v in hints if f"{k} {v}" in line}
    helped = set(keytable.help_rows(table, help_at)) if help_at is not None else set()
    for b in live:
        e = b.handler.entry  # type: ignore[attr-defined]
        hint = e.words(e.hint, where)
        help = e.words(e.help, help_at) if help_at is not None else None
        column = _(e.help_keys or e.shown)
        if not (e.silent or (_(e.shown), hint) in on_line or (column, help) in helped):
            found.append(f"{b.keys} is live, but neither hinted nor in the help")
    bound = {b.keys for b in live}
    for shown, label in on_line:
        named = named_keys(shown)
        if not ((Keys.Any,) in bound or all(k in bound for k in named)):
            found.append(f"the hint {shown} {label!r} names a key that is not live")
    return found


def client_problems(m: M.ClientModel, table: Sequence[Entry]) -> list[str]:
    """The game screen's: the help box opens with ?, where ? is live, and describes the
    layer it opened over (the one on top now)."""
    where = Where(m, layer(m))
    kb = keytable.register(KeyBindings(), table, lambda: where, lambda e: Press(m, ACTIONS))
    help_opens = any(b.keys == ("?",) and b.filter() for b in kb.bindings)
    return problems(table, where, Press(m, ACTIONS), where if help_opens else None)


@pytest.mark.parametrize("state", list(STATES))
def test_every_live_key_is_named_and_every_named_key_is_live(state: str) -> None:
    m = STATES[state]()
    assert client_problems(m, CLIENT_KEYS) == []


@pytest.mark.parametrize("state", list(STATES))
def test_the_frame_shows_the_tables_hints_and_help(state: str) -> None:
    """What is painted is what the table says: the hint line, and the help box's rows."""
    m = STATES[state]()
    line = fit_hints(hint_items(m), 80).strip()
    rows = [row.strip() for row in render_text(m).split("\n")]
    assert any(row.startswith(line) for row in rows), "\n".join(rows)
    if m.overlay == M.HELP:
        shown = render_text(m)
        listed = help_rows(m)
        assert listed, "the help box lists no key"
        for keys, words in listed:
            assert keys in shown and words in shown, shown


def test_every_entry_is_live_somewhere_and_each_key_works() -> None:
    """The states above reach every entry (an entry live nowhere is dead, or a screen is
    missing from this test), and pressing a live key runs without error."""
    reached: set[int] = set()
    for build in STATES.values():
        m = build()
        kb = build_keys(m, ACTIONS)
        for b in kb.bindings:
            if b.filter():
                reached.add(id(b.handler.entry))  # type: ignore[attr-defined]
    missing = [f"{e.shown} {e.hint or e.help or e.silent}" for e in CLIENT_KEYS
               if id(e) not in reached]  # fmt: skip
    assert missing == []


def test_the_check_fails_on_an_unnamed_key_and_on_a_hint_for_an_unbound_key() -> None:
    m = in_lobby()
    unnamed = Entry("z", on("z", lambda p: None), lobby)
    assert client_problems(m, [*CLIENT_KEYS, unnamed]) == [
        "('z',) is live, but neither hinted nor in the help"
    ]
    dead = Entry("Z", (), lobby, hint="zap", rank=0)
    assert client_problems(m, [*CLIENT_KEYS, dead]) == [
        "the hint Z 'zap' names a key that is not live"
    ]
    clash = Entry("w", on("w", lambda p: None), lobby, hint="watch it", rank=0)
    assert client_problems(m, [*CLIENT_KEYS, clash]) == ["('w',) live twice"]


@pytest.mark.parametrize("help_open", [False, True])
def test_the_replay_viewers_keys_are_named_and_live(help_open: bool) -> None:
    from leekha.client.tui.replay import render_replay_text
    from leekha.client.tui.replay_keys import REPLAY_KEYS, Pressed, Seen
    from leekha.common.bots.base import make_strategy, play_out
    from leekha.common.config import preset
    from leekha.common.game import Game
    from leekha.common.record import GameRecord

    game = Game(preset("classic", {"target": 30}), 3)
    play_out(game, [make_strategy("random", 3 + i) for i in range(4)])
    r = ReplayModel(GameRecord.of(game, ["ann", "bob", "cy", "di"]))
    r.show_help = help_open
    pressed = Pressed(r, lambda _code: None)
    assert problems(REPLAY_KEYS, Seen(r, help_open), pressed, Seen(r, False)) == []
    shown = render_replay_text(r)
    if help_open:
        for keys, words in keytable.help_rows(REPLAY_KEYS, Seen(r, False)):
            assert keys in shown and words in shown, shown
