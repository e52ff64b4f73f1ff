"""One server per data folder: an OS lock held for the life of the process.

Two servers on one database both number their tables from the same place and both write
moves for them, and each serves the same seats to the same tokens: the database ends up
mixing the two and the tables are lost (issue 25). So a server takes an exclusive
`flock` on `<data>/leekha.lock` before it opens the database, and keeps it until it
stops. The kernel lets go of the lock when the process dies, however it dies (kill -9
included), so a stale lock is never a problem: the next server simply takes it. The
holder's PID is written into the file only so that the refusal can name it.

The lock file alone is not enough: deleted while a server runs, it lets a second server
lock a new file of the same name (issue 38). So the server also holds a `flock` on the
data folder itself, which nobody can delete while it holds the database, and checks that
the lock file it locked is still the one at its path. The folder's own files are opened
with `O_NOFOLLOW`, and a database that is a link is refused: a link planted in the data
folder is never followed to a file elsewhere.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from leekha.server.domain.database import db_path

LOCK_NAME = "leekha.lock"
#: How the data folder's own files are opened: never through a link.
_FLAGS = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC


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


class DataDirUnsafe(OSError):
    """A file of the data folder is a symbolic link: the server refuses to follow it (an
    OSError, as any folder the server cannot use, so every command words it already)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(
            errno.ELOOP,
            "a symbolic link; a server opens its data folder's files only directly: remove "
            "the link, or give the server another --data folder",
            str(path),
        )


class DataLock:
    """The lock on one data folder. `acquire` raises DataDirInUse if another process
    (or another server in this process) holds it."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / LOCK_NAME
        self._fd: int | None = None
        #: The lock held on the data folder itself.
        self._folder_fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> DataLock:
        if self._fd is not None:
            return self
        self.directory.mkdir(parents=True, exist_ok=True)
        database = db_path(self.directory)
        if database.is_symlink():
            raise DataDirUnsafe(database)
        folder = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fd = self._lock(self.path)
        except BlockingIOError:
            os.close(folder)
            raise DataDirInUse(self.directory, self._holder()) from None
        except BaseException:
            os.close(folder)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd, self._folder_fd = fd, folder
        return self

    def _holder(self) -> int | None:
        """The PID written in the lock file at its path, if it can be read."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            return _read_pid(fd)
        finally:
            os.close(fd)

    def _lock(self, path: Path) -> int:
        """An exclusive lock on the file at `path` (made if missing, never through a
        link), checked to be the file still at that path once locked."""
        for _ in range(3):  # the file replaced between open and lock: again
            try:
                fd = os.open(path, _FLAGS, 0o644)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise DataDirUnsafe(path) from None
                raise
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BaseException:
                os.close(fd)
                raise
            if _same_file(fd, path):
                return fd
            os.close(fd)
        raise DataDirInUse(self.directory, None)

    def release(self) -> None:
        """Let go (the file stays: removing it would race with a server taking it)."""
        fd, self._fd = self._fd, None
        folder, self._folder_fd = self._folder_fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)
        if folder is not None:
            os.close(folder)


def _same_file(fd: int, path: Path) -> bool:
    try:
        here, there = os.fstat(fd), os.lstat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
