"""One server per data folder: an OS lock held for the life of the process.

Two servers on one database both number their tables from the same place and both write
moves for them, and each serves the same seats to the same tokens: the database ends up
mixing the two and the tables are lost (issue 25). So a server takes an exclusive
`flock` on `<data>/leekha.lock` before it opens the database, and keeps it until it
stops. The kernel lets go of the lock when the process dies, however it dies (kill -9
included), so a stale lock is never a problem: the next server simply takes it. The
holder's PID is written into the file only so that the refusal can name it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_NAME = "leekha.lock"


class DataDirInUse(Exception):
    """Another process holds the data folder. `directory` and `pid` (None if it could
    not be read) let each command word the refusal its own way; `str()` is a sentence
    for an operator."""

    def __init__(self, directory: Path, pid: int | None) -> None:
        self.directory = directory
        self.pid = pid
        who = f"process {pid}" if pid is not None else "another process"
        super().__init__(
            f"the data folder {directory} is in use by another Leekha server ({who}); "
            "stop that one first, or give this one another --data folder"
        )


class DataLock:
    """The lock on one data folder. `acquire` raises DataDirInUse if another process
    (or another server in this process) holds it."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> DataLock:
        if self._fd is not None:
            return self
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise DataDirInUse(self.directory, pid) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        return self

    def release(self) -> None:
        """Let go (the file stays: removing it would race with a server taking it)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
