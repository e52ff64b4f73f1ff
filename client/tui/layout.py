"""What the player sees: the lobby, the table and their overlays, painted from the model.

Each frame is painted afresh onto a Canvas sized to the window (so 80x24 and any resize work
the same way) by pure functions of the model; `render_text` gives tests the same frame as
plain text. The only live prompt_toolkit widgets are the chat input line and the root
container; everything else is one UIControl that asks these functions for its lines.

This module is the frame: the header, the body (lobby or table), the side panel, the hints,
the status lines and the overlay on top, and the prompt_toolkit glue. Each part is painted
by its own module: `lobby_screen`, `table_screen`, `side_panel`, `hints`, `overlay_boxes`,
with `sheets` (the boxes the replay viewer shares) and `cardfrags` under them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    HSplit,
    Layout,
    UIContent,
    UIControl,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from leekha.client.i18n import _
from leekha.client.rulestext import summary
from leekha.client.tui import model as M
from leekha.client.tui.canvas import Canvas, Frags, fit, fit_name, wrap
from leekha.client.tui.hints import fit_hints, hint_items
from leekha.client.tui.lobby_screen import paint_lobby
from leekha.client.tui.overlay_boxes import OVERLAYS
from leekha.client.tui.side_panel import paint_counting, paint_side
from leekha.client.tui.table_screen import paint_table

# The suit colour classes are not children of `card`: prompt_toolkit expands a dotted
# class to its parents too, so a `card.…` class placed after the colour would set the
# card's black foreground again (red suits turned black exactly when legal or under the
# cursor). The colour class always comes last.
STYLE = Style.from_dict(
    {
        "header": "reverse",
        "header.alert": "reverse fg:ansiyellow",
        "card": "bg:#f4f4f4 fg:#000000",
        "card.dim": "bg:#9e9e9e",
        "card.legal": "bold",
        "card.cursor": "underline bold bg:#ffffaf",
        "card.badcursor": "underline bold bg:#ff8787",
        "card.selected": "bg:#87d7ff",
        "card.lifted": "bg:#ffd787",
        "suit.red": "fg:#c00000",
        "suit.black": "fg:#000000",
        "mark": "bold fg:ansigreen",
        "seat.turn": "bold fg:ansigreen",
        "seat.name": "bold",
        "seat.away": "fg:ansiyellow",
        "seat.bot": "fg:ansicyan",
        "seat.dealer": "fg:ansimagenta",
        "seat.partner": "fg:ansicyan",
        "muted": "fg:ansibrightblack",
        "hint": "fg:ansibrightblack",
        "status": "",
        "status.error": "fg:ansired bold",
        "box": "bg:#1c1c1c fg:#e4e4e4",
        "box.border": "fg:#8a8a8a",
        "box.title": "bold",
        "cursorrow": "reverse",
        "timer": "bold fg:ansiyellow",
        "chat.from": "bold fg:ansicyan",
        "lobby.head": "bold underline",
    }
)

CHAT_MIN_WIDTH = 80  # below this the chat pane folds away (t still opens the input line)
CHAT_WIDTH = 24  # at 80 columns; wider windows give the chat a fifth of the width
CHAT_MAX_WIDTH = 40
#: The smallest window every screen and box is drawn in whole (the layout test checks
#: it); below it a "too small" note instead of cut words.
MIN_WIDTH, MIN_HEIGHT = 60, 20
COUNT_WIDTH = 16  # the counting aid's column: a suit and its 13 ranks
TABLE_MAX_WIDTH, TABLE_MAX_HEIGHT = 100, 34
HEADER_NAME_MIN = 8  # a table's name shortened to less than this says nothing: left out


@dataclass
class Options:
    ascii: bool = False
    title: str = "Leekha"


def _header(m: M.ClientModel, opts: Options, width: int) -> Frags:
    parts = [opts.title]
    rules = ""
    if m.game.table is not None:
        rules = summary(m.game.rules)
        parts += [str(m.game.table.get("name", "")), rules]
        if m.game.view is not None:
            parts.append(_("round {n}").format(n=m.game.view.round + 1))
    elif m.server_label or m.link.server:
        parts.append(m.server_label or m.link.server)
    # Your own name gives way to the rules (the target first): it is on your seat too.
    own = max(HEADER_NAME_MIN, width - get_cwidth(f" {opts.title} · {rules}") - 2)
    right = (fit_name(m.name, own) if rules else m.name) + " "
    style = "class:header"
    if m.link.state == M.RECONNECTING:
        right = _("reconnecting… {detail}").format(detail=m.link.detail) + " "
        style = "class:header.alert"
    elif m.link.state == M.FAILED:
        right = _("offline") + " "
        style = "class:header.alert"
    right = fit(right, width)
    # The right part (who you are, or the connection) wins, your name shortened so that
    # the rules fit; on the left the round goes first, then the table's name is
    # shortened, or left out when too little of it would show, then the title: the
    # rules stay, shortened only when nothing else is left.
    room = max(0, width - get_cwidth(right) - 1)

    def wide(ps: list[str]) -> int:
        return get_cwidth(" " + " · ".join(ps))

    if len(parts) > 3 and wide(parts) > room:
        del parts[3]  # the round number: the score sheet has it
    if len(parts) > 1 and wide(parts) > room:
        name_room = room - (wide(parts) - get_cwidth(parts[1]))
        if name_room >= HEADER_NAME_MIN:
            parts[1] = fit(parts[1], name_room)
        else:
            del parts[1]
    if rules and len(parts) > 1 and wide(parts) > room:
        parts = [fit(rules, room - 1)]  # what a player needs most: the title goes first
    while parts and wide(parts) > room:
        parts.pop()
    left = " " + " · ".join(parts) if parts else ""
    pad = max(0, width - get_cwidth(left) - get_cwidth(right))
    return [(style, left + " " * pad + right)]


def _paint_too_small(cv: Canvas) -> None:
    text = _("window too small: need {w}×{h}").format(w=MIN_WIDTH, h=MIN_HEIGHT)
    for i, line in enumerate(wrap(text, cv.width)):
        cv.put(0, i, line, "class:status.error")


def chat_width(width: int) -> int:
    if width < CHAT_MIN_WIDTH:
        return 0
    return max(CHAT_WIDTH, min(CHAT_MAX_WIDTH, width // 5))


def paint(m: M.ClientModel, opts: Options, width: int, height: int) -> Canvas:
    """The whole frame for a window of width x height."""
    cv = Canvas(width, height)
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        _paint_too_small(cv)
        return cv.asciified() if m.ascii or opts.ascii else cv
    cv.frags(0, 0, _header(m, opts, width))
    chat_w = chat_width(width) if m.screen != M.CONNECTING else 0
    main_w = width - chat_w - (1 if chat_w else 0)
    # A long line (a first TLS contact's fingerprint) gets the rows it needs, up to a
    # quarter of the window.
    status = wrap(m.status, width)[: max(2, height // 4)] if m.status else []
    body_h = height - 2 - max(1, len(status))
    if m.screen == M.CONNECTING:
        text = _("Connecting…") if m.link.state != M.FAILED else m.link.detail
        for i, line in enumerate(wrap(text, width - 4)):
            cv.put(
                2, height // 2 + i, line, "class:status.error" if m.link.state == M.FAILED else ""
            )
    elif m.screen == M.LOBBY:
        paint_lobby(m, cv, 1, 1, main_w - 1, body_h)
    else:
        # With no chat column the counting aid takes a column of its own at the left, so
        # it never covers the west seat.
        aid = COUNT_WIDTH + 1 if m.at_table.counting and not chat_w else 0
        if aid:
            paint_counting(m, cv, 1, 1, COUNT_WIDTH)
        # A big window gets a bigger table, not four seats lost in the corners.
        tw, th = min(main_w - 2 - aid, TABLE_MAX_WIDTH), min(body_h, TABLE_MAX_HEIGHT)
        x0 = 1 + aid + (main_w - 2 - aid - tw) // 2
        paint_table(m, cv, x0, 1 + (body_h - th) // 2, tw, th)
    if chat_w:
        paint_side(m, cv, main_w + 1, 1, chat_w, body_h)
    hints = fit_hints(hint_items(m), width)
    cv.line(0, height - 1 - max(1, len(status)), width, hints, "class:hint")
    status_style = "class:status.error" if m.status_error else "class:status"
    for i, line in enumerate(status):
        cv.line(0, height - len(status) + i, width, line, status_style)
    if not chat_w and not status and m.screen != M.CONNECTING and m.chat:
        # No chat column in a narrow window: the latest line (your own too) takes the
        # status row while nothing else is said there.
        sender, text = m.chat[-1]
        said = fit(f"{fit(sender, 16)}: {text}", width)
        cv.line(0, height - 1, width, said, "class:muted")
    top = m.overlay
    if top is not None:
        OVERLAYS[top](m, cv)
    return cv.asciified() if m.ascii or opts.ascii else cv


def render_text(m: M.ClientModel, width: int = 80, height: int = 24, ascii: bool = False) -> str:
    """The frame as plain text (for tests and the notes' captures)."""
    return paint(m, Options(ascii=ascii), width, height).text()


# ---- prompt_toolkit glue ---------------------------------------------------------------


class FrameControl(UIControl):
    """One control that paints the whole frame at the size it is given."""

    def __init__(self, painter: Callable[[int, int], Canvas]) -> None:
        self.painter = painter
        self.frames = 0
        self.on_frame: Callable[[int], None] | None = None

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.painter(width, height).lines()
        self.frames += 1
        if self.on_frame is not None:
            self.on_frame(self.frames)
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines))

    def is_focusable(self) -> bool:
        return True


def build_layout(
    m: M.ClientModel, opts: Options, chat_buffer: Buffer
) -> tuple[Layout, FrameControl]:
    control = FrameControl(lambda w, h: paint(m, opts, w, h))
    body = Window(control, always_hide_cursor=True)
    chat_prompt: StyleAndTextTuples = [("class:chat.from", _(" say: "))]
    chat_line = ConditionalContainer(
        VSplit(
            [
                Window(FormattedTextControl(chat_prompt), width=6, height=1),
                Window(BufferControl(chat_buffer), height=1),
            ]
        ),
        filter=Condition(lambda: m.chat_open),
    )
    root = HSplit([body, chat_line])
    return Layout(root, focused_element=body), control
