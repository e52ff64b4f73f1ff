"""One writer per data folder whatever happens to `leekha.lock`: deleted or replaced under
a running server, the database's own lock still refuses a second one; a link planted in
the data folder is refused, never followed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.loopback import serve_process

from leekha.server.datalock import LOCK_NAME, DataDirInUse, DataDirUnsafe, DataLock
from leekha.server.domain.database import db_path

SERVE = [sys.executable, "-m", "leekha.client.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
SERVE += ["--no-announce"]


def test_deleting_the_lock_file_does_not_let_a_second_writer_in(tmp_path: Path) -> None:
    first = DataLock(tmp_path).acquire()
    (tmp_path / LOCK_NAME).unlink()
    with pytest.raises(DataDirInUse) as info:
        DataLock(tmp_path).acquire()
    assert info.value.directory == tmp_path
    (tmp_path / LOCK_NAME).write_text("999999\n")  # replaced by a file of someone's
    with pytest.raises(DataDirInUse):
        DataLock(tmp_path).acquire()
    first.release()
    second = DataLock(tmp_path).acquire()  # once the first lets go, the folder is free
    assert second.held
    second.release()


@pytest.mark.parametrize("name", [LOCK_NAME, db_path(Path()).name])
def test_a_planted_link_is_refused_and_its_target_untouched(tmp_path: Path, name: str) -> None:
    data, elsewhere = tmp_path / "data", tmp_path / "precious"
    data.mkdir()
    elsewhere.write_text("keep me\n")
    (data / name).symlink_to(elsewhere)
    with pytest.raises(DataDirUnsafe) as info:
        DataLock(data).acquire()
    assert str(data / name) in str(info.value) and "symbolic link" in str(info.value)
    assert elsewhere.read_text() == "keep me\n"
    assert not DataLock(data).held


@pytest.mark.slow
def test_a_second_leekha_serve_is_refused_after_the_lock_file_was_deleted(
    tmp_path: Path,
) -> None:
    first, _port = serve_process(tmp_path)
    try:
        (tmp_path / LOCK_NAME).unlink()
        second = subprocess.run(
            [*SERVE, "--data", str(tmp_path)], capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 1, second.stdout
        assert "in use by another Leekha server" in second.stderr
        assert "Traceback" not in second.stderr and "listening" not in second.stdout
        assert first.poll() is None  # the first one serves on
    finally:
        first.kill()
        first.wait(timeout=30)
    assert os.path.exists(tmp_path / db_path(Path()).name)
