"""The screenshots of docs/web.md, taken from a real `leekha serve` in Debian's chromium at
phone size: the lobby, the pass, a trick in play and the box a round's end brings (its
summary, or the game-over box when the game ends), in English and Arabic. From the
repository root:

    python tests/web/screenshots.py            # writes docs/web/*.png
    python tests/web/screenshots.py --out DIR --lang en

The deals are the server's own, so two runs differ in the cards; the screens do not.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if __package__ in (None, ""):  # run as a script: tests/ holds the helpers
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from helpers.web import Guest, chromium, new_page, web_serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[2]
PHONE = (360, 640)
SHOTS = ("lobby", "pass", "trick", "round-end")
NAMES = {"en": ("Maya", "Friday cards"), "ar": ("سلمى", "سهرة الجمعة"), "it": ("Giulia", "Venerdì")}


def take(url: str, browser: Browser, lang: str, out: Path) -> list[Path]:
    """One person's walk through the page in `lang`; the PNGs written."""
    name, table = NAMES[lang]
    guest = Guest(new_page(browser, lang, *PHONE))
    p = guest.page
    written = []

    def shot(what: str) -> None:
        p.wait_for_timeout(150)  # let the paint settle
        path = out / f"{what}-{lang}.png"
        p.screenshot(path=str(path))
        written.append(path)

    guest.enter(url, name)
    p.wait_for_selector("#tables li.table-row")
    shot("lobby")
    guest.create_table(table, target=30, bots=("easy", "medium", "hard"))
    p.locator("#start").click()
    p.wait_for_selector('#hand[data-mode="pass"]')
    hand = guest.hand()
    suits: dict[str, list[str]] = {}
    for card in hand:
        suits.setdefault(card[-1], []).append(card)
    two = max(suits.values(), key=len)[:2]
    for card in two:
        p.locator(f'#hand .card[data-card="{card}"]').click()
    shot("pass")
    for card in two:  # chosen again: put back
        p.locator(f'#hand .card[data-card="{card}"]').click()
    guest.pass_three()
    # Her turn with cards on the table: one lifted to show it.
    deadline = time.monotonic() + 60
    while True:
        p.wait_for_selector("#hand .card.legal")
        if p.locator("#trick .card").count() >= 2 or time.monotonic() > deadline:
            break
        guest.play_one()
    p.locator("#hand .card.legal").first.click()
    shot("trick")
    p.locator("#hand .card.lifted").click()
    guest.play_to_the_end(within=120, close_summaries=False)
    shot("round-end")
    p.context.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "web")
    parser.add_argument("--lang", action="append", choices=sorted(NAMES))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    failed = Path(tempfile.gettempdir()) / "leekha-screenshots-failed"
    with (
        tempfile.TemporaryDirectory() as tmp,
        web_serve(Path(tmp), Path(tmp) / "data") as srv,
        chromium(failed) as browser,
    ):
        # A table waiting in the lobby, hosted by someone else.
        host = Guest(new_page(browser))
        host.enter(srv.url, "Karim")
        host.create_table("LAN party", bots=("", "medium", "easy"))
        for lang in args.lang or ["en", "ar"]:
            for path in take(srv.url, browser, lang, args.out):
                print(f"{path} {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
