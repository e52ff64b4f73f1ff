"""The terminal client's key table: every key, when it is live, what it calls, and its words
on the hint line and in the help box. `keys.py` binds it; `hints.py` and the help box read
it, so a hint or a help row can only name a key that is bound there and then.

The same letter can mean "card b" in a hand and "add a bot" in a waiting room: the entries'
conditions (`keyfilters.py`) keep such pairs from ever being live together, and a test
checks every screen for that. The hints say what the player most likely wants now, so
their words may narrow to a phase; the help box lists every live key of the screen under
it, in this table's order.
"""

from __future__ import annotations

from collections.abc import Callable

from leekha import protocol as P
from leekha.client.i18n import N_
from leekha.client.tui import keytable
from leekha.client.tui import model as M
from leekha.client.tui.keyfilters import (
    CHAT,
    HELD,
    Binds,
    Intent,
    Press,
    Where,
    always,
    at_table,
    box,
    connected,
    do,
    enter_help,
    enter_hint,
    esc_hint,
    following,
    host,
    idle,
    in_hand,
    invite_password,
    lobby,
    may_enter,
    my_pass,
    my_play,
    on,
    on_person,
    on_table_row,
    only,
    outside,
    passing_hand,
    plain_table,
    playing_hand,
    under_help,
    waiting,
)
from leekha.client.tui.keytable import Key, Words
from leekha.client.tui.overlays import (
    BOT_LEVEL,
    BOT_LEVELS,
    DOUBLE,
    FORM,
    GAME_OVER,
    HELP,
    INVITE,
    PASSWORD,
    PHRASES,
    PROFILE,
    SCORES,
    STATS,
    SUMMARY,
    TABLE,
    TOURNAMENTS,
)

CARD_KEYS = "a b c d e f g h i j k l m"


def _seated_game_over(w: Where) -> bool:
    """The game-over box of a player in a seat: a spectator, or a person whose seat the
    server has freed (a tournament's game), has no rematch vote."""
    return w.top == GAME_OVER and w.m.game.seated


Entry = Key[Where, Press]
When = Callable[[Where], bool]


def _text_field(
    where: When,
    type_char: Callable[[M.ClientModel, str], None],
    backspace: Callable[[M.ClientModel], None],
    submit: Callable[[M.ClientModel], None],
    submit_words: str | Callable[[Where], str],
) -> list[Entry]:
    """A typed field: printable keys type, backspace, Enter submits, Esc closes."""

    def typed(p: Press) -> None:
        if p.data.isprintable() and len(p.data) == 1:
            type_char(p.m, p.data)

    return [
        Entry("Enter", on("enter", do(submit)), where, hint=submit_words, rank=3),
        Entry("Esc", on("escape", do(M.ClientModel.escape)), where, hint=N_("cancel"), rank=9),
        Entry("⌫", on("backspace", do(backspace)), where, silent="edits the field"),
        Entry("…", on("<any>", typed), where, silent="types into the field"),
    ]


def _password_enter(w: Where) -> str:
    """What Enter does in the password box: the table is joined, or watched."""
    prompt = w.m.boxes.password_prompt
    return N_("watch") if prompt is not None and prompt.spectate else N_("join")


Move = Callable[[M.ClientModel, int], object]


def _step(move: Move, n: int) -> Intent:
    def intent(p: Press) -> None:
        move(p.m, n)

    return intent


def _moves(move: Move, back: str, forth: str) -> Binds:
    """`move` one step back on the keys `back`, one on along `forth`."""
    return on(back, _step(move, -1)) + on(forth, _step(move, 1))


def _list(where: When, move: Move, words: str, help: str | None = None) -> Entry:
    """↑/↓ (and j/k) through a list."""
    binds = _moves(move, "up k", "down j")
    return Entry("↑↓", binds, where, hint=words, help=help, rank=1, help_keys="↑/↓ j/k")


def _closes(where: When, keys: str, words: Words[Where] = None) -> Entry:
    """Esc, and the other keys of `keys` (the one that opened the box), close it."""
    intent = do(M.ClientModel.escape)
    return Entry("Esc", on("escape " + keys, intent), where, hint=words or N_("close"), rank=9)


def _quit(p: Press) -> None:
    if p.m.ask_quit():
        p.act.quit()


def _say(i: int) -> Intent:
    return lambda p: p.m.social.say_phrase(i)


def _card(i: int) -> Intent:
    return lambda p: p.m.choose(i)


def _level(level: str) -> Intent:
    return lambda p: p.m.at_table.bot_level_choose(level)


def _cards() -> Binds:
    return tuple((k, _card(i)) for i, k in enumerate(CARD_KEYS.split()))


_HELD_KEYS = "<any> enter escape space left right up down tab backspace"


def _go_on(p: Press) -> None:
    """Any key while the screen shows a moment just past ends it; past a finished trick
    the key then does what it does on the true state (our turn may be there already), so
    no key is lost to a trick on screen. A round's summary takes its key: it closes."""
    if p.m.key_release():
        p.again()


_TOURNAMENT_ESC = lambda w: N_("back") if following(w) else N_("close")  # noqa: E731
_SCORES_HINT = lambda w: (  # noqa: E731
    N_("score sheet") if w.top == SUMMARY else N_("scores") if my_pass(w) or idle(w) else None
)

#: The client's keys. The boxes that take the keys come first, then the screens' keys in
#: the help box's order.
# fmt: off
CLIENT_KEYS: list[Entry] = [
    Entry("Ctrl-C", on("c-c", lambda p: p.act.interrupt()), always, silent="quits at once"),
    Entry(N_("any key"), on(_HELD_KEYS, _go_on), box(HELD),
          hint=lambda w: N_("continue") if w.m.overlay == SUMMARY else N_("next trick")),
    Entry("Enter", on("enter", lambda p: p.act.send_chat()), box(CHAT), hint=N_("send")),
    Entry("Esc", on("escape", lambda p: p.act.close_chat()), box(CHAT), hint=N_("close")),
    Entry("Esc", on("escape enter", do(M.ClientModel.escape))
          + on("?", do(M.ClientModel.toggle_help)), box(HELP), hint=N_("close")),
    # the new-table form and the password prompt
    Entry("↑↓", _moves(lambda m, n: m.in_lobby.form_move(n), "up", "down tab"), box(FORM),
          hint=N_("field"), rank=1),
    Entry("←→", _moves(lambda m, n: m.in_lobby.form_change(n), "left", "right"), box(FORM),
          hint=N_("change"), rank=2),
    *_text_field(box(FORM), lambda m, t: m.in_lobby.form_type(t),
                 lambda m: m.in_lobby.form_backspace(), lambda m: m.in_lobby.form_submit(),
                 N_("create")),
    *_text_field(box(PASSWORD), lambda m, t: m.in_lobby.password_type(t),
                 lambda m: m.in_lobby.password_backspace(),
                 lambda m: m.in_lobby.password_submit(), _password_enter),
    # statistics, the score sheet, the profiles, the tournaments
    _list(box(STATS), lambda m, n: m.in_lobby.stats_move(n), N_("choose")),
    Entry("Enter", on("enter", do(lambda m: m.in_lobby.stats_profile())), box(STATS),
          hint=N_("profile"), rank=2),
    _closes(box(STATS), "S q"),
    _closes(box(SCORES), "S q enter"),
    _list(box(PROFILE), lambda m, n: m.social.profile_move(n), N_("choose")),
    Entry("Enter", on("enter", do(lambda m: m.social.profile_show())), box(PROFILE),
          hint=N_("show"), rank=2),
    _closes(box(PROFILE), "q P", N_("back")),
    _list(box(TOURNAMENTS), lambda m, n: m.in_lobby.tournament_move(n), N_("choose")),
    Entry("Enter", on("enter", do(lambda m: m.in_lobby.tournament_enter())), box(TOURNAMENTS),
          hint=lambda w: N_("watch") if following(w) else N_("open"), rank=2),
    Entry("e", on("e", do(lambda m: m.in_lobby.tournament_join())), may_enter,
          hint=N_("take part"), rank=3),
    Entry("g", on("g", do(lambda m: m.in_lobby.tournament_refresh())), box(TOURNAMENTS),
          hint=N_("refresh"), rank=4),
    _closes(box(TOURNAMENTS), "q T", _TOURNAMENT_ESC),
    # the phrase picker, the invitation, the bot level
    Entry("1-8", tuple((str(i + 1), _say(i)) for i in range(len(P.PHRASES))), box(PHRASES),
          hint=N_("say it"), rank=1),
    _closes(box(PHRASES), "p q"),
    Entry("p", on("p", do(lambda m: m.social.invite_toggle_password())), invite_password,
          hint=N_("password in or out"), rank=1),
    _closes(box(INVITE), "q I enter"),
    Entry("←→", _moves(lambda m, n: m.at_table.bot_level_move(n), "left up", "right down"),
          box(BOT_LEVEL), hint=N_("level"), rank=1),
    Entry("e m h", tuple((k, _level(lv)) for k, lv in zip("emh", BOT_LEVELS, strict=True)),
          box(BOT_LEVEL), silent="the box names them"),
    Entry("Enter", on("enter", do(lambda m: m.at_table.bot_level_choose())), box(BOT_LEVEL),
          hint=N_("add the bot"), rank=2),
    Entry("Esc", on("escape", do(M.ClientModel.escape)), box(BOT_LEVEL),
          hint=N_("cancel"), rank=9),
    # the lobby
    _list(on_table_row, lambda m, n: m.lobby.move(n), N_("choose"), N_("choose a table")),
    Entry("↑↓", _moves(lambda m, n: m.lobby.move(n), "up k", "down j"), on_person,
          hint=N_("tables"), help=N_("back to the tables"), rank=3, help_keys="↑/↓ j/k"),
    Entry("Enter", on("enter", do(lambda m: m.in_lobby.enter())), lobby,
          hint=lambda w: N_("profile") if on_person(w) else N_("join"),
          help=lambda w: N_("the name's profile") if on_person(w) else N_("sit at the table"),
          rank=2),
    Entry("←→", _moves(lambda m, n: m.lobby.move_person(n), "left", "right"), lobby,
          hint=only(on_person, N_("names")), help=N_("a name under it; Enter: profile"),
          help_keys="←/→", rank=0),
    Entry("w", on("w", lambda p: p.m.in_lobby.join_selected(spectate=True)), lobby,
          hint=N_("watch"), help=N_("watch the table"), rank=8),
    Entry("Q", on("Q", do(lambda m: m.in_lobby.start_quick())), lobby, hint=N_("quick play"),
          help=N_("quick play: seat me now (bots fill in)"), rank=5),
    Entry("n", on("n", do(lambda m: m.in_lobby.open_form())), lobby, hint=N_("new"),
          help=N_("new table"), rank=3),
    Entry("g", on("g", do(lambda m: m.in_lobby.refresh())), lobby, hint=N_("refresh"),
          help=N_("refresh the list"), rank=11),
    Entry("S", on("S", do(lambda m: m.in_lobby.open_stats())), lobby, hint=N_("stats"),
          help=N_("player statistics"), rank=7),
    Entry("T", on("T", do(lambda m: m.in_lobby.open_tournaments())), lobby, hint=N_("tournaments"),
          help=N_("tournaments: standings, Enter watches"), rank=6),
    # the table: your hand, and the boxes that leave the table's keys live
    Entry("←→", _moves(lambda m, n: m.choices.move(n), "left", "right"), passing_hand,
          hint=only(my_pass, N_("move")), help=N_("move along your hand"), rank=2,
          help_keys="←/→"),
    Entry("←→/a-m", _moves(lambda m, n: m.choices.move(n), "left", "right") + _cards(),
          playing_hand,
          hint=only(my_play, N_("pick")), help=N_("move along your hand, or lift by letter"),
          rank=2, help_keys="←/→ a-m"),
    Entry("a-m", _cards(), passing_hand, help=N_("choose that card for the pass"),
          help_keys="a-m"),
    Entry("space", on("space", do(lambda m: m.choices.toggle())), passing_hand,
          hint=only(my_pass, N_("choose")), help=N_("choose or unchoose the card"), rank=3),
    Entry("Enter", on("enter", do(M.ClientModel.enter)), in_hand, hint=enter_hint,
          help=enter_help, rank=4),
    Entry("Enter", on("enter space", do(M.ClientModel.enter)), box(SUMMARY), hint=N_("continue"),
          help=N_("close the round's summary"), rank=1, help_keys="Enter space"),
    Entry("y", on("y", lambda p: p.m.choices.answer_double(True)), box(DOUBLE),
          hint=N_("double it"), help=N_("double the card: everyone sees it"), rank=1),
    Entry("n", on("n", lambda p: p.m.choices.answer_double(False)), box(DOUBLE),
          hint=N_("keep it hidden"), help=N_("keep the card hidden"), rank=2),
    Entry("r", on("r enter", do(lambda m: m.at_table.rematch())), _seated_game_over,
          hint=N_("rematch"), help=N_("rematch: the same table again"), rank=1,
          help_keys="r Enter"),
    # the table: the waiting room
    Entry("b", on("b", lambda p: p.m.at_table.open_bot_level(p.act.bot_strategy)), waiting,
          hint=only(host, N_("add bot")), help=N_("host: add a bot"), rank=3),
    Entry("x", on("x", do(lambda m: m.at_table.remove_bot())), waiting,
          hint=only(host, N_("remove bot")), help=N_("host: remove a bot"), rank=4),
    Entry("s", on("s", do(lambda m: m.at_table.start())), waiting,
          hint=only(host, N_("start")), help=N_("host: start the game"), rank=5),
    # the table, any time
    Entry("Esc", on("escape", do(M.ClientModel.escape)), outside, hint=esc_hint,
          help=N_("cancel / close"), rank=6),
    Entry("v", on("v", do(lambda m: m.at_table.toggle_last_trick())),
          lambda w: at_table(w) and w.top != SUMMARY,
          hint=only(lambda w: my_play(w) or idle(w), N_("last trick")),
          help=N_("show the last trick"), rank=7),
    Entry("S", on("S", do(M.ClientModel.toggle_scores)), at_table, hint=_SCORES_HINT,
          help=N_("score sheet"), rank=8),
    Entry("C", on("C", do(lambda m: m.at_table.toggle_counting())), at_table,
          help=N_("card-counting aid (if the table allows)")),
    Entry("I", on("I", do(lambda m: m.social.open_invite())), at_table,
          hint=only(lambda w: plain_table(w) and waiting(w), N_("invite")),
          help=N_("invite a friend: a line to paste"), rank=12),
    Entry("P", on("P", do(lambda m: m.social.open_profiles())), at_table,
          help=N_("the players' profiles")),
    Entry("L", on("L", do(lambda m: m.at_table.leave())), at_table,
          hint=only(lambda w: waiting(w) or w.top == GAME_OVER, N_("leave")),
          help=N_("leave the table (asks first)"), rank=13),
    # anywhere outside the boxes that take the keys
    Entry("q", on("q", _quit), outside,
          hint=only(lambda w: w.m.screen != TABLE or w.top == GAME_OVER, N_("quit")),
          help=N_("quit (asks first)"), rank=4),
    Entry("t", on("t", lambda p: p.act.open_chat()), connected,
          hint=only(lambda w: lobby(w) or idle(w), N_("chat")),
          help=N_("chat; Enter sends, Esc closes"), rank=9),
    Entry("p", on("p", do(lambda m: m.social.open_phrases())), connected,
          hint=only(lambda w: lobby(w) or idle(w), N_("phrases")),
          help=N_("quick phrases"), rank=10),
    Entry("?", on("?", do(M.ClientModel.toggle_help)), outside, hint=N_("help"),
          help=N_("this help"), rank=99),
]
# fmt: on


def help_rows(m: M.ClientModel) -> list[tuple[str, str]]:
    """The help box's rows: (keys, what they do) for the screen under the box."""
    return keytable.help_rows(CLIENT_KEYS, Where(m, under_help(m)))
