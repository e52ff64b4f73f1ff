"""Key bindings: each key maps to one model intent, guarded by what is on screen.

Which keys are live follows the model's one `overlay` value (the same value the painter,
Esc and the hints use), then the screen and the phase; so the same letter can mean "card b"
in a hand and "add a bot" at an empty table without the two ever both being active. While
a finished trick is held on screen, any key releases it and does nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from leekha import protocol as P
from leekha.client.tui import model as M

CARD_KEYS = "abcdefghijklm"


@dataclass
class Actions:
    """What the keys can do beyond the model: app-level effects supplied by app.py."""

    quit: Callable[[], None]
    open_chat: Callable[[], None]
    close_chat: Callable[[], None]
    send_chat: Callable[[], None]
    bot_strategy: str = "random"


def build_keys(m: M.ClientModel, act: Actions) -> KeyBindings:
    kb = KeyBindings()

    def top(*names: str | None) -> Filter:
        return Condition(lambda: not m.chat_open and not m.holding and m.overlay in names)

    chat = Condition(lambda: m.chat_open)
    held = Condition(lambda: m.holding and not m.chat_open)
    help_open = top(M.HELP)
    form = top(M.FORM)
    password = top(M.PASSWORD)
    stats = top(M.STATS)
    tournaments = top(M.TOURNAMENTS)
    scores = top(M.SCORES)
    summary = top(M.SUMMARY)
    doubling = top(M.DOUBLE)
    over = top(M.GAME_OVER)
    bot_level = top(M.BOT_LEVEL)
    invite = top(M.INVITE)
    phrases = top(M.PHRASES)
    profile = top(M.PROFILE)
    # no overlay, or one that leaves the table keys live under it
    free = top(None, M.GAME_OVER, M.DOUBLE, M.SUMMARY)
    lobby = top(None) & Condition(lambda: m.screen == M.LOBBY)
    table = free & Condition(lambda: m.screen == M.TABLE)
    in_hand = top(None) & Condition(
        lambda: m.screen == M.TABLE and m.game.phase in ("pass", "play") and bool(m.hand)
    )
    waiting = table & Condition(lambda: m.game.status_word == "waiting")

    def on(*keys: str, filter: Filter) -> Callable[[Callable[[], None]], None]:
        def bind(fn: Callable[[], None]) -> None:
            @kb.add(*keys, filter=filter)
            def handler(event: KeyPressEvent) -> None:
                fn()

        return bind

    def text_entry(
        where: Filter,
        type_char: Callable[[str], None],
        backspace: Callable[[], None],
        submit: Callable[[], None],
    ) -> None:
        """A typed field: printable keys type, backspace, enter submits, Esc closes."""
        on("backspace", filter=where)(backspace)
        on("enter", filter=where)(submit)
        on("escape", filter=where)(m.escape)

        @kb.add("<any>", filter=where)
        def typed(event: KeyPressEvent) -> None:
            data = event.data
            if data.isprintable() and len(data) == 1:
                type_char(data)

    # always
    on("c-c", filter=Condition(lambda: True))(act.quit)

    @kb.add("<any>", filter=held)
    def release(event: KeyPressEvent) -> None:
        m.key_release()

    for key in ("enter", "escape", "space", "left", "right", "up", "down", "tab", "backspace"):
        on(key, filter=held)(m.key_release)

    # chat input line
    on("enter", filter=chat)(act.send_chat)
    on("escape", filter=chat)(act.close_chat)

    # help
    on("escape", filter=help_open)(m.escape)
    on("?", filter=help_open)(m.toggle_help)
    on("enter", filter=help_open)(m.escape)

    # create-table form
    on("up", filter=form)(lambda: m.in_lobby.form_move(-1))
    on("down", filter=form)(lambda: m.in_lobby.form_move(1))
    on("tab", filter=form)(lambda: m.in_lobby.form_move(1))
    on("left", filter=form)(lambda: m.in_lobby.form_change(-1))
    on("right", filter=form)(lambda: m.in_lobby.form_change(1))
    text_entry(form, m.in_lobby.form_type, m.in_lobby.form_backspace, m.in_lobby.form_submit)

    # password prompt
    lobby_x = m.in_lobby
    text_entry(password, lobby_x.password_type, lobby_x.password_backspace, lobby_x.password_submit)

    # statistics overlay and score sheet
    for key in ("escape", "S", "q"):
        on(key, filter=stats | scores)(m.escape)
    on("enter", filter=scores)(m.escape)
    on("enter", filter=stats)(m.in_lobby.stats_profile)
    for key, step in (("up", -1), ("k", -1), ("down", 1), ("j", 1)):
        on(key, filter=stats)(lambda step=step: m.in_lobby.stats_move(step))  # type: ignore[misc]
        on(key, filter=profile)(lambda step=step: m.social.profile_move(step))  # type: ignore[misc]
    on("enter", filter=profile)(m.social.profile_show)
    for key in ("escape", "q", "P"):
        on(key, filter=profile)(m.escape)

    # tournament screen
    on("up", filter=tournaments)(lambda: m.in_lobby.tournament_move(-1))
    on("down", filter=tournaments)(lambda: m.in_lobby.tournament_move(1))
    on("k", filter=tournaments)(lambda: m.in_lobby.tournament_move(-1))
    on("j", filter=tournaments)(lambda: m.in_lobby.tournament_move(1))
    on("enter", filter=tournaments)(m.in_lobby.tournament_enter)
    on("g", filter=tournaments)(m.in_lobby.tournament_refresh)
    on("e", filter=tournaments)(m.in_lobby.tournament_join)
    for key in ("escape", "q", "T"):
        on(key, filter=tournaments)(m.escape)

    # anywhere outside the modal overlays
    outside = top(None, M.GAME_OVER, M.DOUBLE, M.SUMMARY)
    on("?", filter=outside)(m.toggle_help)
    on("t", filter=outside & Condition(lambda: m.screen != M.CONNECTING))(act.open_chat)

    def quit_key() -> None:
        if m.ask_quit():
            act.quit()

    on("q", filter=outside)(quit_key)
    on("p", filter=outside & Condition(lambda: m.screen != M.CONNECTING))(m.social.open_phrases)
    for i in range(len(P.PHRASES)):
        on(str(i + 1), filter=phrases)(lambda i=i: m.social.say_phrase(i))  # type: ignore[misc]
    for key in ("escape", "p", "q"):
        on(key, filter=phrases)(m.escape)
    on("escape", filter=outside)(m.escape)

    # lobby
    on("up", filter=lobby)(lambda: m.lobby.move(-1))
    on("down", filter=lobby)(lambda: m.lobby.move(1))
    on("k", filter=lobby)(lambda: m.lobby.move(-1))
    on("j", filter=lobby)(lambda: m.lobby.move(1))
    on("enter", filter=lobby)(m.in_lobby.enter)
    on("right", filter=lobby)(lambda: m.lobby.move_person(1))
    on("left", filter=lobby)(lambda: m.lobby.move_person(-1))
    on("w", filter=lobby)(lambda: m.in_lobby.join_selected(spectate=True))
    on("n", filter=lobby)(m.in_lobby.open_form)
    on("g", filter=lobby)(m.in_lobby.refresh)
    on("S", filter=lobby)(m.in_lobby.open_stats)
    on("T", filter=lobby)(m.in_lobby.open_tournaments)
    on("Q", filter=lobby)(m.in_lobby.start_quick)

    # table
    on("enter", filter=summary)(m.enter)
    on("space", filter=summary)(m.enter)
    on("y", filter=doubling)(lambda: m.choices.answer_double(True))
    on("n", filter=doubling)(lambda: m.choices.answer_double(False))
    on("left", filter=in_hand)(lambda: m.choices.move(-1))
    on("right", filter=in_hand)(lambda: m.choices.move(1))
    on("enter", filter=in_hand)(m.enter)
    on("space", filter=in_hand)(m.choices.toggle)
    for i, letter in enumerate(CARD_KEYS):
        on(letter, filter=in_hand)(lambda i=i: m.choose(i))  # type: ignore[misc]
    on("v", filter=table & ~summary)(m.at_table.toggle_last_trick)
    on("S", filter=table)(m.toggle_scores)
    on("C", filter=table)(m.at_table.toggle_counting)
    on("r", filter=over)(m.at_table.rematch)
    on("enter", filter=over)(m.at_table.rematch)
    on("b", filter=waiting)(lambda: m.at_table.open_bot_level(act.bot_strategy))
    for key, step in (("left", -1), ("up", -1), ("right", 1), ("down", 1)):
        on(key, filter=bot_level)(lambda step=step: m.at_table.bot_level_move(step))  # type: ignore[misc]
    for key, level in zip("emh", M.BOT_LEVELS, strict=True):
        on(key, filter=bot_level)(lambda level=level: m.at_table.bot_level_choose(level))  # type: ignore[misc]
    on("enter", filter=bot_level)(m.at_table.bot_level_choose)
    on("escape", filter=bot_level)(m.escape)
    on("x", filter=waiting)(m.at_table.remove_bot)
    on("s", filter=waiting)(m.at_table.start)
    on("L", filter=table)(m.at_table.leave)
    on("I", filter=table)(m.social.open_invite)
    on("P", filter=table)(m.social.open_profiles)
    on("p", filter=invite)(m.social.invite_toggle_password)
    for key in ("escape", "enter", "q", "I"):
        on(key, filter=invite)(m.escape)
    return kb
