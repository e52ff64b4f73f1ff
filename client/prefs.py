"""The player's screen preferences kept between runs (the card-counting aid on or off), so
that a game resumed after a quit, a crash or a reboot looks as the player left it.

A small JSON map in the user's state folder, next to the session tokens; a missing or
damaged file means the defaults, and a file that cannot be written costs the preference,
never the game.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs
from twisted.logger import Logger

log = Logger()

FILE_NAME = "screen.json"


def default_path() -> Path:
    return platformdirs.user_state_path("leekha") / FILE_NAME


class Prefs:
    """The preferences, read once and written on change. `path=None`: kept in memory
    only (tests, and library users that keep their own)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._data: dict[str, object] = self._read()

    @property
    def counting(self) -> bool:
        """Whether the player last left the card-counting aid on."""
        return self._data.get("counting") is True

    @counting.setter
    def counting(self, on: bool) -> None:
        if self._data.get("counting") != on:
            self._data["counting"] = on
            self._write()

    def _read(self) -> dict[str, object]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warn("ignoring the preferences in {path}: {err}", path=self.path, err=exc)
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self._data, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warn("cannot keep the preferences in {path}: {err}", path=self.path, err=exc)
