"""`leekha replay` with no file replays the games `leekha play` kept, latest first."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from helpers.server import Harness, play_until

from leekha.client.tui import replay
from leekha.protocol import catalogue as M
from leekha.server import local
from leekha.server.domain.persistence import Store
from leekha.server.local import play_data_dir


def replay_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    args = parser.parse_args(list(argv))
    args.local = local  # as the command line hands it over
    return args


def test_replay_without_a_file_opens_the_latest_kept_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert play_data_dir() == tmp_path / "leekha" / "play"
    assert replay.run(replay_args("--print")) == 1
    assert "no game number 1 kept" in capsys.readouterr().err
    h = Harness(store=Store.in_dir(play_data_dir()))
    alice = h.player("alice")
    tid = h.table_with_bots(alice, overrides={"target": 10})
    alice.request(M.Start(id=alice.rid()))
    table = h.lobby.tables[tid]
    play_until(h, [alice], tid, lambda: table.status == "finished", limit=1000)
    assert table.game is not None and table.game.outcome is not None
    h.lobby.outbox.flush()
    h.store.close()
    assert replay.run(replay_args("--print")) == 0
    shown = capsys.readouterr().out
    totals = table.game.outcome.totals
    assert "alice" in shown and all(str(t) in shown for t in totals)
    assert replay.run(replay_args("--print", "--game", "2")) == 1


def test_a_second_play_on_the_same_folder_is_told_instead_of_crashing(tmp_path: Path) -> None:
    """Two embedded servers must not write one database: the second `leekha play` says
    which process holds the folder, and the folder is free again once the first ends.
    The lock is the servers' own (leekha.server.datalock), so a `leekha serve` on the
    folder is kept out too, and the embedded server starts under the play's lock."""
    import contextlib
    import os

    from leekha.client.tui.play import hold_folder
    from leekha.server.datalock import DataDirInUse, DataLock

    with contextlib.ExitStack() as first:
        assert not isinstance(hold_folder(local, tmp_path, first), str)
        with contextlib.ExitStack() as second:
            said = hold_folder(local, tmp_path, second)
        assert isinstance(said, str)
        assert f"another leekha play or server (process {os.getpid()}) is using {tmp_path}" in said
        with pytest.raises(DataDirInUse):
            DataLock(tmp_path).acquire()
    with contextlib.ExitStack() as again:
        assert not isinstance(hold_folder(local, tmp_path, again), str)
