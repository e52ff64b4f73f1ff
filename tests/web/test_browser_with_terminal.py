"""A browser player and a terminal player at one table, the game to its end: gus on the page
(chromium, clicks only) hosts with two easy bots; tom joins from `leekha join` on an 80×24
pty read through pyte and plays by keys. Both game-over boxes show the statistics of
`leekha records export` replayed through the engine."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from helpers.pty import LEEKHA, START, Terminal
from helpers.screens import game_over_stats, isolated_home, recorded_stats, stats_rows
from helpers.web import Guest, chromium, new_page, on_thread, require_browser, web_serve

pytestmark = [pytest.mark.slow, pytest.mark.timeout(200)]

CARD = re.compile(r"(10|[2-9JQKA])([♠♥♣♦])")
#: The row of the hand's letters (a mark after some: + received, ! a Leekha card).
LETTERS = re.compile(r"\s+a[+!]?(\s+[b-m][+!]?)*\s*")
#: The cursor on a card that may not be played: bold too (client/tui/layout.py, STYLE).
BAD_CURSOR = "ff8787"


class KeysPlayer:
    """tom at the terminal: reads his hand off the screen and answers with keys. A card's
    letter sits under its second column; the cards he may play are drawn bold (and so is the
    cursor, red on a card he may not play)."""

    def __init__(self, term: Terminal) -> None:
        self.term = term

    def hand(self) -> list[tuple[str, str, bool]]:
        """(letter, card, playable) of each card in the hand row, left to right."""
        lines = self.term.lines()
        rows = [i for i, line in enumerate(lines) if LETTERS.fullmatch(line.split("│")[0])]
        if not rows:
            return []
        row = rows[-1]
        cards, cells = lines[row - 1], self.term.screen.buffer[row - 1]
        out = []
        for m in CARD.finditer(cards):
            letter = lines[row][m.start() + 1]
            cell = cells[m.start()]
            out.append((letter, m.group(0), cell.bold and cell.bg != BAD_CURSOR))
        return out

    def my_row(self) -> str:
        return next((line for line in self.term.lines() if "(you)" in line), "")

    def settle(self) -> None:
        """Read until the screen has been quiet a moment: never act on a half-drawn one."""
        while True:
            before = len(self.term.raw)
            self.term.pump(0.08)
            if len(self.term.raw) == before:
                return

    def step(self) -> str:
        t = self.term
        self.settle()
        text = t.text()
        if "game over" in text and stats_rows(text) is not None:
            return "over"
        if "Enter or Esc to continue" in text:
            t.send("\x1b")
            return "moved"
        if "Enter pass" in text and "passing…" in self.my_row():
            suits: dict[str, list[str]] = {}
            for letter, card, _ in self.hand():
                suits.setdefault(card[-1], []).append(letter)
            t.send("".join(max(suits.values(), key=len)[:3]) + "\r")
            t.until(lambda: "Enter to confirm" in t.text(), "the pass to confirm")
            t.send("\r")
            t.until(lambda: "passing…" not in self.my_row(), "the pass sent")
            return "moved"
        if "◀ your turn" in text and "Enter lift" in text:
            playable = [(letter, card) for letter, card, ok in self.hand() if ok]
            if playable:
                letter, card = playable[0]
                t.send(letter)
                self.settle()
                if f"play {card}?" not in t.text():  # the turn moved on meanwhile
                    t.send("\x1b")
                    return "idle"
                t.send("\r")
                t.until(lambda: card not in [c for _, c, _ in self.hand()], f"{card} played")
                return "moved"
        return "idle"


def test_a_browser_and_a_terminal_player_finish_a_game_with_the_same_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_browser()
    home = isolated_home(tmp_path, monkeypatch)
    data = home / "data"

    def scene() -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        with web_serve(home, data) as server, chromium(tmp_path / "shots") as browser:
            gus = Guest(new_page(browser))
            gus.enter(server.url, "gus")
            gus.create_table("mixed", target=1, bots=("", "easy", "easy"))
            term = Terminal([LEEKHA, "join", f"127.0.0.1:{server.port}", "--name", "tom",
                             "--guest", "--trick-hold", "0.01"])  # fmt: skip
            try:
                term.until(lambda: "mixed" in term.text(), "tom's lobby lists the table", START)
                term.send("\r")
                gus.page.wait_for_selector('.seat[data-seat="1"][data-control="human"]')
                term.until(lambda: "tom (you)" in term.text(), "tom seated")
                gus.page.locator("#start").click()
                tom = KeysPlayer(term)
                deadline = time.monotonic() + 120
                done = {"gus": "", "tom": ""}
                while done != {"gus": "over", "tom": "over"}:
                    if time.monotonic() > deadline:
                        raise AssertionError(f"no game over for both: {done}\n{term.text()}")
                    done = {"gus": gus.step(), "tom": tom.step()}
                    if done["gus"] == "summary":
                        gus.page.locator("#summary-continue").click()
                assert not gus.errors, gus.errors
                return gus.stats(), game_over_stats(term)
            finally:
                term.close()

    page, screen = on_thread(scene, 190)
    recorded, rounds = recorded_stats(data)
    assert rounds >= 1 and sum(recorded["tricks"]) == 13 * rounds
    assert screen == recorded
    assert {k: page[k] for k in recorded} == recorded
