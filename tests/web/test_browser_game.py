"""A guest with only a browser (Debian's chromium under Playwright) against a real
`leekha serve` on 127.0.0.1: a whole game against three bots by clicks only, and a watcher
who sees the turn marker and the clock. The figures on the page are checked against
`leekha records export` replayed through the engine; the page logs no error on the way (a
script or style the Content-Security-Policy refused would be one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.screens import recorded_stats
from helpers.web import Guest, chromium, new_page, on_thread, require_browser, web_serve

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]


def test_a_guest_plays_a_whole_game_against_three_bots_by_clicks(tmp_path: Path) -> None:
    require_browser()
    data = tmp_path / "data"

    def scene() -> tuple[dict[str, list[int]], str]:
        with web_serve(tmp_path, data) as server, chromium(tmp_path / "shots") as browser:
            guest = Guest(new_page(browser))
            guest.enter(server.url, "gus")
            guest.create_table("clicks", target=1)
            guest.page.locator("#start").click()
            played = guest.play_to_the_end(within=90)
            assert played >= 13, played
            assert not guest.errors, guest.errors
            assert not guest.console, guest.console
            return guest.stats(), guest.page.locator("#winners").inner_text()

    shown, winners = on_thread(scene, 130)
    recorded, rounds = recorded_stats(data)
    assert rounds >= 1 and sum(shown["tricks"]) == 13 * rounds
    assert {k: shown[k] for k in recorded} == recorded
    assert winners.strip(), "the game-over box names no winner"


def test_a_watcher_sees_the_turn_marker_and_the_clock(tmp_path: Path) -> None:
    """gus plays with a turn clock against three bots; wan watches from another browser
    context and sees whose turn it is (the seat marked, the line under the table) and the
    server's clock counting down for it."""
    require_browser()

    def scene() -> None:
        with (
            web_serve(tmp_path, tmp_path / "data") as server,
            chromium(tmp_path / "shots") as browser,
        ):
            gus = Guest(new_page(browser))
            gus.enter(server.url, "gus")
            p = gus.page
            p.locator("#new-table").click()
            p.locator("#cf-name").fill("watched")
            p.locator("#cf-pass-timer").select_option("60")
            p.locator("#cf-turn-timer").select_option("60")
            for seat in (1, 2, 3):
                p.locator(f'#cf-bots select[data-seat="{seat}"]').select_option("easy")
            p.locator("#cf-create").click()
            p.wait_for_function("() => document.querySelectorAll('.seat[data-control=\"bot\"]')"
                                ".length === 3")  # fmt: skip
            p.locator("#start").click()
            p.wait_for_selector('#hand[data-mode="pass"]')

            wan = Guest(new_page(browser))
            wan.enter(server.url, "wan")
            w = wan.page
            w.locator('#tables li.table-row[data-status="playing"] .watch').click()
            w.locator("#table").wait_for(state="visible")
            # In the pass every seat is awaited; once gus has passed, play starts and the
            # turn is one seat's.
            gus.pass_three()
            p.wait_for_selector('#table[data-phase="play"]')
            w.wait_for_selector('#table[data-phase="play"]')
            # The bots play at once, so the turn soon rests with gus (seat 0, the host's).
            w.wait_for_selector('#turn[data-seat="0"]')
            turn = 0
            marked = w.locator(".seat.turn").evaluate_all("els => els.map(e => e.dataset.seat)")
            assert marked == [str(turn)], (turn, marked)
            # The line under the table says wan only watches, as the terminal client does;
            # gus, seated, is not told so.
            watched, played = w.locator("#turn").inner_text(), p.locator("#turn").inner_text()
            assert watched.startswith("spectating · "), watched
            assert "spectating" not in played, played
            assert w.locator(f'.seat[data-seat="{turn}"] .seat-clock').is_visible()
            first = int(w.locator("#clock").get_attribute("data-seconds") or "-1")
            assert 0 < first <= 60, first
            # The clock counts down while gus thinks (it is his turn once the bots lead).
            w.wait_for_function(
                "s => { const c = document.querySelector('#clock').dataset.seconds;"
                " return c !== '' && Number(c) < s; }", arg=first, timeout=5_000,
            )  # fmt: skip
            assert w.locator("#clock").inner_text().strip()
            assert not gus.errors and not wan.errors, gus.errors + wan.errors

    on_thread(scene, 130)


def test_a_rounds_summary_stays_until_the_guest_closes_it(tmp_path: Path) -> None:
    require_browser()

    def scene() -> None:
        with web_serve(tmp_path, tmp_path / "data") as server, chromium() as browser:
            guest = Guest(new_page(browser))
            guest.enter(server.url, "sue")
            guest.create_table("rounds", target=10_000)
            guest.page.locator("#start").click()
            guest.page.wait_for_selector('#hand[data-mode="pass"]')
            guest.pass_three()
            for _ in range(13):
                guest.page.wait_for_selector("#hand .card.legal")
                guest.play_one()
            # The next round is dealt at once; the summary must wait for the guest.
            guest.page.locator("#summary-continue").wait_for(state="visible", timeout=5_000)
            guest.page.wait_for_timeout(1_000)
            assert guest.page.locator("#summary-continue").is_visible()
            # Under it, the new round's hand; Enter is the box's key first, then the pass's.
            assert guest.page.locator("#hand .card").count() == 13
            guest.page.keyboard.press("Enter")
            guest.page.locator("#overlay").wait_for(state="hidden")
            guest.page.wait_for_selector('#hand[data-mode="pass"]')

    on_thread(scene, 100)


def test_every_tap_on_a_card_counts_while_the_clock_runs(tmp_path: Path) -> None:
    """Twenty taps of 150 ms, a phone's unhurried tap, on one card of the pass with the
    pass clock running: each must choose it or put it back."""
    require_browser()

    def scene() -> list[int]:
        with web_serve(tmp_path, tmp_path / "data") as server, chromium() as browser:
            guest = Guest(new_page(browser, "en", 360, 640))
            p = guest.page
            guest.enter(server.url, "tia")
            p.locator("#new-table").click()
            p.locator("#cf-pass-timer").select_option("120")
            for seat in (1, 2, 3):
                p.locator(f'#cf-bots select[data-seat="{seat}"]').select_option("easy")
            p.locator("#cf-create").click()
            p.wait_for_function(
                "() => document.querySelectorAll('.seat[data-control=\"bot\"]').length === 3"
            )
            p.locator("#start").click()
            p.wait_for_selector('#hand[data-mode="pass"]')
            p.wait_for_selector("#clock:not([data-seconds=''])")
            card = p.locator("#hand .card").nth(4).get_attribute("data-card")
            box = None
            while box is None:  # None while a repaint has it detached
                box = p.locator(f'#hand .card[data-card="{card}"]').bounding_box()
            chosen = []
            for _ in range(20):
                p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                p.mouse.down()
                p.wait_for_timeout(150)
                p.mouse.up()
                p.wait_for_timeout(100)
                chosen.append(p.locator("#hand .card.chosen").count())
            return chosen

    chosen = on_thread(scene, 100)
    # Each tap flips the card: chosen, back, chosen, ...
    assert chosen == [1, 0] * 10, chosen
