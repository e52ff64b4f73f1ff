"""`leekha` commands as subprocesses (serve, bot) whose output is read line by line under a
deadline, for end-to-end tests.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LEEKHA = [sys.executable, "-m", "leekha.client.cli"]


DEADLINE = 60.0


class Proc:
    """A subprocess whose stdout and stderr lines are collected as they come."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.popen = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        for stream in (self.popen.stdout, self.popen.stderr):
            threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.lines.put(line.rstrip("\n"))

    def wait_line(self, pattern: str, timeout: float = DEADLINE) -> re.Match[str]:
        end = time.monotonic() + timeout
        rx = re.compile(pattern)
        for line in self.seen:
            if m := rx.search(line):
                return m
        while (left := end - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            self.seen.append(line)
            if m := rx.search(line):
                return m
        raise AssertionError(f"no line matching {pattern!r}; got:\n" + "\n".join(self.seen))

    def finish(self, timeout: float = DEADLINE) -> int:
        code = self.popen.wait(timeout=timeout)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return code

    def text(self) -> str:
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return "\n".join(self.seen)

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait(timeout=10)


def clean_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(tmp / "config")  # never read the user's server.toml
    env["HOME"] = str(tmp)
    return env


@contextmanager
def serve(
    tmp: Path, port: int = 0, data: Path | None = None, *extra: str
) -> Iterator[tuple[Proc, int]]:
    argv = [
        *LEEKHA, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-announce",
        "--data", str(data or tmp / "data"), "--bot-think-ms", "0", "--log-level", "warn",
        *extra,
    ]  # fmt: skip
    server = Proc(argv, clean_env(tmp))
    try:
        m = server.wait_line(r"listening on [\d.]+:(\d+)")
        yield server, int(m.group(1))
    finally:
        server.kill()


def bot(tmp: Path, port: int, *args: str) -> Proc:
    argv = [*LEEKHA, "bot", f"127.0.0.1:{port}", *args]
    return Proc(argv, clean_env(tmp))


def totals(proc: Proc) -> str:
    return proc.wait_line(r"game 1 over, totals (\[[-\d, ]+\])", timeout=1).group(1)
