"""Session tokens kept on disk, per server and name, so a seat outlives the client process.

The server holds a seat for its session token; a token only in memory dies with a crash,
a quit or a reboot, and the seat with it. `leekha join` to the same server under the same
name reads the token back and resumes. The token is a bearer secret for the seat, so the
file is private to the user (mode 0600) and lives in the user's state folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs
from twisted.logger import Logger

log = Logger()

FILE_NAME = "sessions.json"


def default_path() -> Path:
    return platformdirs.user_state_path("leekha") / FILE_NAME


def server_key(host: str, port: int) -> str:
    """How a server is named in the store: the address as the player reaches it."""
    host = host.strip().lower().rstrip(".")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class TokenStore:
    """A small JSON map "server name" -> token, rewritten whole (and atomically) on change."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_path()

    def get(self, server: str, name: str) -> str | None:
        token = self._read().get(f"{server} {name}")
        return token if isinstance(token, str) and token else None

    def put(self, server: str, name: str, token: str) -> None:
        data = self._read()
        if data.get(f"{server} {name}") != token:
            data[f"{server} {name}"] = token
            self._write(data)

    def forget(self, server: str, name: str) -> None:
        data = self._read()
        if data.pop(f"{server} {name}", None) is not None:
            self._write(data)

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            # A damaged file costs a resume, never the game: start a fresh session.
            log.warn("ignoring the session file {path}: {err}", path=self.path, err=exc)
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, object]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=1, sort_keys=True)
            os.chmod(tmp, 0o600)  # O_CREAT's mode does not apply to a file left over
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warn("cannot keep the session token in {path}: {err}", path=self.path, err=exc)
