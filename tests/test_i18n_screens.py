"""The table screen in each language, as a person sees it: `leekha play` on an 80x24
pseudo-terminal, read through the pyte terminal emulator."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pyte
import pytest

NAME = "أحمد"  # an Arabic player name, laid out right in every language
COLS, ROWS = 80, 24
ARABIC = re.compile("[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff]+")
LABELS = re.compile("[^a-z]{3}".join("abcdefghijklm"))  # the key letters under the hand


def screen_of(argv: list[str], ready: Callable[[list[str]], bool], timeout: float) -> list[str]:
    """Run `argv` on a pty, feed its output to pyte until `ready(lines)`, then Ctrl-C."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + timeout
    shown: list[str] | None = None
    try:
        while shown is None:
            left = deadline - time.monotonic()
            if left <= 0 or proc.poll() is not None:
                raise AssertionError("no such screen:\n" + "\n".join(screen.display))
            if select.select([master], [], [], min(left, 0.5))[0]:
                stream.feed(os.read(master, 65536))
                if ready(screen.display):
                    shown = list(screen.display)
        os.write(master, b"\x03")
        assert proc.wait(timeout=10) == 0
        return shown
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def table_drawn(lines: list[str]) -> bool:
    """The own hand is dealt: its 13 key letters are on one line."""
    return any(LABELS.search(line) for line in lines)


def logical(visual: str) -> str:
    return unicodedata.normalize("NFKC", visual[::-1])


def play(lang: str, bidi: str) -> list[str]:
    leekha = str(Path(sys.executable).with_name("leekha"))
    argv = [leekha, "--lang", lang, "--bidi", bidi, "play", "--strategy", "random"]
    return screen_of([*argv, "--name", NAME, "--bot-delay", "0"], drawn_with_header, timeout=30)


def drawn_with_header(lines: list[str]) -> bool:
    """The table is drawn and so is the header, which names the table and the player."""
    return table_drawn(lines) and len(ARABIC.findall(lines[0])) >= 2


@pytest.mark.parametrize(("lang", "bidi"), [("en", "on"), ("it", "off"), ("ar", "on")])
def test_table_screen(lang: str, bidi: str) -> None:
    lines = play(lang, bidi)
    assert len(lines) == ROWS and all(len(line) == COLS for line in lines)
    # The header names the table ("NAME vs bots") and the player.
    words = ARABIC.findall(lines[0])
    if bidi == "on":
        # Sent in display order: right to left, letters joined.
        assert NAME not in words
        assert [w for w in words if logical(w) == NAME] == [rtl_name(), rtl_name()]
    else:
        assert words.count(NAME) == 2


def rtl_name() -> str:
    """The name as a left-to-right terminal must receive it: NAME's letters in their joined
    forms (initial, medial, final), last letter first."""
    return "\ufeaa\ufee4\ufea3\ufe83"  # final dal, medial mim, initial hah, isolated alef-hamza
