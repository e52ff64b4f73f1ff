"""A program on a pseudo-terminal, its screen read through the pyte terminal emulator: the
terminal client tested as a person sees it."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest

WAIT = 20.0
#: Seconds a `leekha` process may take to start and draw its first screen on a loaded
#: machine (one `leekha join` took 31 s at load 9 with six test runs beside it).
START = 90.0
LEEKHA = str(Path(sys.executable).with_name("leekha"))


def summary_open(text: str) -> bool:
    """Whether a round summary box is on the screen: "Enter or Esc to continue", or "any
    key to continue" while it holds the next round back (Esc closes it either way)."""
    return "Enter or Esc to continue" in text or "any key to continue" in text


class Terminal:
    """One program on a pty, its screen kept by pyte."""

    def __init__(self, argv: list[str], cols: int = 80, rows: int = 24) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def pump(self, timeout: float) -> None:
        ready, _w, _x = select.select([self.master], [], [], timeout)
        if ready:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b""
            self.raw.extend(chunk)
            self.stream.feed(chunk)

    def lines(self) -> list[str]:
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines())

    def until(self, pred: Callable[[], bool], what: str, within: float = WAIT) -> None:
        deadline = time.monotonic() + within
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{self.text()}")
            if self.proc.poll() is not None:
                self.pump(0.05)
                if not pred():
                    raise AssertionError(f"exited while waiting for {what}:\n{self.text()}")
                return
            self.pump(0.05)

    def send(self, data: str) -> None:
        os.write(self.master, data.encode())

    def create_table(self, name: str) -> None:
        """From the empty lobby: a new table with the form's defaults, `name` at it."""
        self.until(lambda: "Press n to create one" in self.text(), "the lobby")
        self.send("n")
        self.until(lambda: "new table" in self.text(), "the create form")
        self.send("\r")
        self.until(lambda: f"{name} (you)" in self.text(), f"{name} seated at the table")

    def close(self) -> int:
        try:
            if self.proc.poll() is None:
                self.send("qq")
                deadline = time.monotonic() + WAIT
                while self.proc.poll() is None and time.monotonic() < deadline:
                    self.pump(0.05)
            if self.proc.poll() is None:
                self.proc.kill()
            return self.proc.wait(timeout=5)
        finally:
            os.close(self.master)


def serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A real `leekha serve` on a free loopback port (yields the port), with the clients'
    state and config folders under `tmp_path`, not the user's. For a fixture."""
    for var, sub in (("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    (tmp_path / "empty.toml").write_text("")
    argv = [LEEKHA, "serve", "--host", "127.0.0.1", "--port", "0", "--no-announce"]
    argv += ["--data", str(tmp_path / "srv"), "--config", str(tmp_path / "empty.toml")]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode().strip()
        assert line.startswith("listening on "), line
        yield int(line.rsplit(":", 1)[1])
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class Terminals:
    """Several programs on ptys, read together. A program whose pty nobody reads blocks
    once the pty's buffer is full and stops handling its messages, so every wait here
    reads them all, not only the one it waits for."""

    def __init__(self) -> None:
        self.open: dict[str, Terminal] = {}

    def start(self, name: str, argv: list[str]) -> Terminal:
        self.open[name] = Terminal(argv)
        return self.open[name]

    def __getitem__(self, name: str) -> Terminal:
        return self.open[name]

    def pump(self, timeout: float = 0.05) -> None:
        by_fd = {t.master: t for t in self.open.values()}
        ready, _w, _x = select.select(list(by_fd), [], [], timeout)
        for fd in ready:
            by_fd[fd].pump(0)

    def until(self, pred: Callable[[], bool], what: str, wait: float = WAIT) -> float:
        """Read every screen until `pred()` holds; the time it did (time.monotonic)."""
        deadline = time.monotonic() + wait
        while not pred():
            if time.monotonic() > deadline:
                screens = "\n\n".join(f"{n}:\n{t.text()}" for n, t in self.open.items())
                raise AssertionError(f"timed out waiting for {what}; screens:\n{screens}")
            self.pump()
        return time.monotonic()

    def kill(self, name: str) -> None:
        """kill -9: no goodbye, nothing flushed."""
        t = self.open.pop(name)
        t.proc.kill()
        t.proc.wait(timeout=5)
        os.close(t.master)

    def close(self) -> None:
        """Kill them all at once: a test that needs a clean quit says `q` itself."""
        for name in list(self.open):
            self.kill(name)
