"""The key hints on the bottom line: what the keys do on the screen that is showing, fitted
to the width without cutting a hint in two."""

from __future__ import annotations

from leekha.client.i18n import _
from leekha.client.tui import model as M


def hint_items(m: M.ClientModel) -> list[tuple[str, str]]:
    """The key hints for what is on screen, most important first ("? help" last)."""
    top = m.overlay
    if m.holding:
        return [(_("any key"), _("next trick"))]
    if m.screen == M.CONNECTING:
        return [("q", _("quit"))]
    if top == M.HELP:
        return [("Esc", _("close"))]
    if top == M.FORM:
        return [
            ("↑↓", _("field")),
            ("←→", _("change")),
            ("Enter", _("create")),
            ("Esc", _("cancel")),
        ]
    if top == M.STATS:
        return [("↑↓", _("choose")), ("Enter", _("profile")), ("Esc", _("close"))]
    if top == M.SCORES:
        return [("Esc", _("close"))]
    if top == M.TOURNAMENTS and m.boxes.tournaments is not None:
        enter = _("watch") if m.boxes.tournaments.following_one else _("open")
        esc = _("back") if m.boxes.tournaments.following_one else _("close")
        join = [("e", _("take part"))] if m.boxes.tournaments.following_one else []
        return [("↑↓", _("choose")), ("Enter", enter), *join, ("g", _("refresh")), ("Esc", esc)]
    if top == M.PASSWORD:
        return [("Enter", _("join")), ("Esc", _("cancel"))]
    if top == M.SUMMARY:
        return [("Enter", _("continue")), ("S", _("score sheet"))]
    if top == M.DOUBLE:
        return [("y", _("double it")), ("n", _("keep it hidden"))]
    if top == M.PROFILE:
        return [("↑↓", _("choose")), ("Enter", _("show")), ("Esc", _("back"))]
    if top == M.PHRASES:
        return [("1-8", _("say it")), ("Esc", _("close"))]
    if top == M.INVITE:
        pw = m.boxes.invite_box is not None and m.boxes.invite_box.password is not None
        return [("p", _("password in or out"))] * pw + [("Esc", _("close"))]
    if top == M.BOT_LEVEL:
        return [("←→", _("level")), ("Enter", _("add the bot")), ("Esc", _("cancel"))]
    if top == M.GAME_OVER:
        return [("r", _("rematch")), ("L", _("leave")), ("q", _("quit"))]
    if m.screen == M.LOBBY and m.lobby.chosen_person() is not None:
        return [("←→", _("names")), ("Enter", _("profile")), ("↑↓", _("tables"))]
    if m.screen == M.LOBBY:
        return [
            ("↑↓", _("choose")),
            ("Enter", _("join")),
            ("n", _("new")),
            ("q", _("quit")),
            ("Q", _("quick play")),
            ("T", _("tournaments")),
            ("S", _("stats")),
            ("w", _("watch")),
            ("t", _("chat")),
            ("p", _("phrases")),
            ("g", _("refresh")),
            ("?", _("help")),
        ]
    if m.game.status_word == "waiting":
        host = [("b", _("add bot")), ("x", _("remove bot")), ("s", _("start"))]
        return [
            *(host if m.game.is_host else []),
            ("I", _("invite")),
            ("L", _("leave")),
            ("?", _("help")),
        ]
    if m.game.autopiloted:
        return [("Enter", _("take your seat back")), ("S", _("scores")), ("?", _("help"))]
    if m.game.phase == "pass" and m.my_turn:
        return [
            ("←→", _("move")),
            ("space", _("choose")),
            ("Enter", _("pass")),
            ("Esc", _("clear")),
            ("S", _("scores")),
            ("?", _("help")),
        ]
    if m.game.phase == "play" and m.my_turn:
        return [
            ("←→/a-m", _("pick")),
            ("Enter", _("lift, again to play")),
            ("Esc", _("cancel")),
            ("v", _("last trick")),
            ("?", _("help")),
        ]
    return [
        ("v", _("last trick")),
        ("S", _("scores")),
        ("t", _("chat")),
        ("p", _("phrases")),
        ("?", _("help")),
    ]


def fit_hints(items: list[tuple[str, str]], width: int) -> str:
    """The hints as one line no wider than `width`: tighter spacing first, then dropping
    hints from the end (the last, "? help", stays); never a hint cut in the middle."""
    parts = [f"{k} {v}" for k, v in items]
    for sep in ("  ", " "):
        line = sep.join(parts)
        if len(line) <= width:
            return line
    keep = parts[-1:]
    for part in parts[:-1]:
        if len(" ".join([*keep[:-1], part, keep[-1]])) > width:
            break
        keep.insert(len(keep) - 1, part)
    line = " ".join(keep)
    return line if len(line) <= width else ""
