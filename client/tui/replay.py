"""`leekha replay RECORD`: step through a finished game with every hand face up.

Reads the server's record export (one GameRecord dict or a list; --game N picks one), and
shows it on the same kind of table as the live game: → and ← step one action, ↑ and ↓ one
trick, n/p and the digits jump between rounds. No network and no Twisted: it runs
prompt_toolkit on its own asyncio loop.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from leekha.client import rulestext
from leekha.client.i18n import _, ngettext
from leekha.client.options import add_ascii_argument, in_range, no_terminal

if TYPE_CHECKING:  # imported where used, for the start-up time
    from leekha.client.tui.canvas import Canvas
    from leekha.client.tui.replay_model import ReplayModel


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(local=None)  # the command line hands over server/local.py
    parser.add_argument(
        "record",
        metavar="RECORD",
        nargs="?",
        default=None,
        help=_(
            "a JSON file from `leekha records export`; without it, the games you played "
            "with `leekha play`, --game 1 being the latest"
        ),
    )
    parser.add_argument(
        "--game",
        type=in_range(1, 10**9),
        default=1,
        metavar="N",
        help=_("which game in the file (default: the first)"),
    )
    add_ascii_argument(parser)
    parser.add_argument(
        "--round",
        type=in_range(1, 10**6),
        default=None,
        metavar="R",
        help=_("start at round R (default: the start, or the end with --print)"),
    )
    parser.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help=_("print the final position as text and exit (no full screen)"),
    )


def run(args: argparse.Namespace) -> int:
    from leekha.client.tui.replay_model import ReplayError, ReplayModel, load_records, pick_record

    try:
        if args.record is None:
            record = pick_record([kept_game(args.local, args.game)], 1)
        else:
            record = pick_record(load_records(args.record), args.game)
    except ReplayError as exc:
        print(_("leekha replay: {problem}").format(problem=exc), file=sys.stderr)
        return 1
    model = ReplayModel(record, ascii=args.ascii)
    if args.round is not None and not model.jump_round(args.round):
        text = ngettext(
            "leekha replay: the game has {n} round", "leekha replay: the game has {n} rounds",
            model.rounds,
        )  # fmt: skip
        print(text.format(n=model.rounds), file=sys.stderr)
        return 2
    if args.print_only:
        if args.round is None:
            model.end()
        print(render_replay_text(model, keys=False))
        return 0
    if no_terminal("replay"):
        return 1
    import asyncio

    return asyncio.run(run_replay(model))


def kept_game(local: Any, n: int) -> dict[str, Any]:
    """The n-th latest game `leekha play` kept in its data folder (`local`:
    server/local.py, handed over by the command line)."""
    from leekha.client.tui.replay_model import ReplayError

    record, path = local.kept_game(n)
    if record is None:
        raise ReplayError(
            _("no game number {n} kept by `leekha play` in {path}").format(n=n, path=path)
        )
    return dict(record)


async def run_replay(model: ReplayModel, **io: Any) -> int:
    app = build_replay_app(model, **io)
    result = await app.run_async()
    return int(result or 0)


def build_replay_app(model: ReplayModel, **io: Any) -> Any:
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.layout import Layout, Window

    from leekha.client.tui.keytable import register
    from leekha.client.tui.layout import STYLE, FrameControl
    from leekha.client.tui.replay_keys import REPLAY_KEYS, Pressed, Seen

    control = FrameControl(lambda w, h: paint_replay(model, w, h))
    kb = KeyBindings()

    def pressed(event: KeyPressEvent) -> Pressed:
        return Pressed(model, lambda code: event.app.exit(result=code))

    register(kb, REPLAY_KEYS, lambda: Seen(model, model.show_help), pressed)

    app: Application[int] = Application(
        layout=Layout(Window(control, always_hide_cursor=True)),
        key_bindings=kb,
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        **io,
    )
    app.ttimeoutlen = 0.05
    return app


def paint_replay(model: ReplayModel, width: int, height: int, keys: bool = True) -> Canvas:
    """One replay frame on a canvas: four open hands around the trick. The trick's
    geometry, the round summary and the game-over box are the table screen's own."""
    from prompt_toolkit.utils import get_cwidth

    from leekha.client.core.table import SeatStats
    from leekha.client.i18n import _
    from leekha.client.tui import replay_keys
    from leekha.client.tui.canvas import Canvas, fit, frags_width
    from leekha.client.tui.cardfrags import card_frag
    from leekha.client.tui.hints import fit_hints
    from leekha.client.tui.overlays import RoundSummary
    from leekha.client.tui.sheets import paint_game_over, paint_round_summary, put_columns
    from leekha.client.tui.table_screen import trick_spots
    from leekha.common import cards as C

    f = model.frame
    ascii = model.ascii
    cv = Canvas(width, height)
    names = model.names
    rules = model.record.rules
    # Where the viewer is, whole; the rules go first when the line is too narrow.
    parts = [
        _("Replay"),
        rulestext.summary(rules),
        _("round {n}/{rounds}").format(n=f.round + 1, rounds=model.rounds),
        _("step {step}/{steps}").format(step=f.step, steps=len(model.record.actions)),
    ]
    if get_cwidth(" " + " · ".join(parts)) > width:
        del parts[1]
    head = " " + " · ".join(parts)
    cv.put(0, 0, fit(head, width).ljust(width), "class:header")
    cx = width // 2
    body_top, body_bot = 1, height - 3

    def label(seat: int) -> list[tuple[str, str]]:
        out = [("class:seat.name", names[seat])]
        if seat == f.dealer:
            out.append(("class:seat.dealer", _(" (D)")))
        if f.round_over is not None:  # totals already include the finished round
            out.append(("", f" {f.totals[seat]}"))
        else:
            out.append(("", f" {f.totals[seat]}+{f.round_points[seat]}"))
        return out

    def hand_line(seat: int) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for c in C.display_order(f.hands[seat]):
            out.append(card_frag(c, ascii, width=len(C.format_card(c, ascii=ascii))))
            out.append(("", " "))
        return out

    def suit_rows(seat: int) -> list[list[tuple[str, str]]]:
        rows = []
        symbols = C.SUIT_LETTERS if ascii else C.SUIT_SYMBOLS
        for suit in (C.SPADES, C.HEARTS, C.CLUBS, C.DIAMONDS):
            cards = sorted((c for c in f.hands[seat] if C.suit_of(c) == suit), reverse=True)
            ranks = " ".join(C.RANK_TEXT[c % 13] for c in cards)
            colour = "class:suit.red" if suit in (C.HEARTS, C.DIAMONDS) else ""
            rows.append([(colour, symbols[suit] + " "), ("", ranks or "-")])
        return rows

    # seat 0 south, 1 east, 2 north, 3 west (play runs counter-clockwise)
    north, south = hand_line(2), hand_line(0)
    cv.frags(cx - frags_width(label(2)) // 2, body_top, label(2))
    cv.frags(max(0, cx - frags_width(north) // 2), body_top + 1, north)
    cv.frags(max(0, cx - frags_width(south) // 2), body_bot - 1, south)
    cv.frags(cx - frags_width(label(0)) // 2, body_bot, label(0))
    cy = (body_top + body_bot) // 2
    cv.frags(1, cy - 3, label(3))
    for i, row in enumerate(suit_rows(3)):
        cv.frags(1, cy - 2 + i, row)
    east = label(1)
    cv.frags(width - 1 - frags_width(east), cy - 3, east)
    for i, row in enumerate(suit_rows(1)):
        cv.frags(width - 17, cy - 2 + i, row)
    spots = trick_spots(cx, cy, min(width - 36, 60), body_bot - body_top)
    for seat, card in f.trick:
        x, y = spots["SENW"[seat]]
        cv.frags(x, y, [card_frag(card, ascii)])
    if f.trick_winner is not None:
        note = _("{name} takes it").format(name=names[f.trick_winner])
        cv.center(cx, spots["S"][1] + 1, note, "class:muted")
    cv.put(1, height - 2, fit(f.action, width - 1), "class:status")
    if keys:
        cv.put(0, height - 1, fit_hints(replay_keys.hints(model), width), "class:hint")
    if f.round_over is not None and f.result is None:
        summary = RoundSummary(
            f.round, f.round_over, f.totals, f.taken, [c for c, _seat in f.doubled]
        )
        paint_round_summary(cv, summary, names, ascii, _("→ to deal the next round"))
    if f.result is not None:
        # The winners are the box's next line: the head does not say them twice.
        head = _("the final scores")
        stats = SeatStats.of(f.result.get("stats"))  # what each seat did, as a live game says
        paint_game_over(cv, names, f.result, model.history(), head, stats, "")
    if model.show_help:
        rows = replay_keys.help_rows(model)
        x, y = cv.box(min(width, 50), len(rows) + 3, _("replay keys"))
        for i, (keys_shown, words) in enumerate(rows):
            put_columns(cv, x, y + i, 46, [(0, keys_shown), (12, words)], "class:box")
    return cv.asciified() if ascii else cv


def render_replay_text(
    model: ReplayModel, width: int = 80, height: int = 24, keys: bool = True
) -> str:
    """A frame as text; `keys=False` for `--print`, where no key does anything."""
    return str(paint_replay(model, width, height, keys).text())
