"""`leekha match --cluster`: a Dask cluster gives `--jobs 1`'s output byte for byte, even
when a worker dies mid-run; without Dask the option says what to install.

One LocalCluster of two worker processes serves the module (starting one costs seconds),
made by the same function `--cluster local:N` uses.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leekha.client import cli
from leekha.client.arena import runners

pytest.importorskip("distributed")

# Short games in all four rotations: several deal tasks, a second or two of work.
MATCH = ["match", "--duplicate", "--rounds", "48", "--seed", "11", "--rule", "target=30"]

DIES_ONCE = textwrap.dedent(
    """
    import os

    from leekha.common.bots.random_bot import RandomStrategy


    class DiesOnce(RandomStrategy):
        '''Random play; the first worker process to reach its 150th card dies on the spot.'''

        calls = 0

        def choose_play(self, view):
            DiesOnce.calls += 1
            marker = os.environ.get("LEEKHA_TEST_DIE_ONCE")
            parent = os.environ.get("LEEKHA_TEST_PARENT_PID")
            if marker and DiesOnce.calls == 150 and str(os.getpid()) != parent:
                try:
                    os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                except FileExistsError:
                    pass
                else:
                    os._exit(1)
            return super().choose_play(view)
    """
)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A two-worker LocalCluster's address, and the marker the dying strategy leaves."""
    marker = tmp_path_factory.mktemp("die") / "died"
    with pytest.MonkeyPatch.context() as mp:
        # Set before the workers start, so that they inherit it.
        mp.setenv("LEEKHA_TEST_DIE_ONCE", str(marker))
        mp.setenv("LEEKHA_TEST_PARENT_PID", str(os.getpid()))
        cluster = runners.local_cluster(2)
        try:
            yield cluster.scheduler_address, marker
        finally:
            cluster.close()


def stdout_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_a_cluster_prints_what_one_process_prints(
    scheduler: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    strategies = ["--strategies", "heuristic,random,random,random"]
    one = stdout_of(capsys, *MATCH, *strategies, "--jobs", "1")
    assert "48 rounds (duplicate" in one
    assert stdout_of(capsys, *MATCH, *strategies, "--cluster", scheduler[0]) == one


@pytest.mark.slow  # starts a process or a pty: not in the fast lane
def test_a_worker_killed_mid_run_changes_nothing(
    scheduler: tuple[str, Path],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = tmp_path / "dies_once_strategy.py"
    module.write_text(DIES_ONCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    strategies = ["--strategies", "dies_once_strategy:DiesOnce,heuristic,random,random"]
    one = stdout_of(capsys, *MATCH, *strategies)
    address, marker = scheduler
    assert not marker.exists()
    many = stdout_of(capsys, *MATCH, *strategies, "--cluster", address, "--upload", str(module))
    assert marker.exists(), "no worker died: the test proved nothing"
    assert many == one


def test_without_dask_the_option_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert cli.main([*MATCH, "--cluster", "local:2"]) == 1
    err = capsys.readouterr().err
    assert "pip install 'leekha[cluster]'" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("local", ("local", None)),
        ("local:3", ("local", 3)),
        ("tcp://h:8786", ("tcp://h:8786", None)),
    ],
)
def test_cluster_addresses(text: str, where: tuple[str, Any]) -> None:
    assert runners.parse_cluster(text) == where


@pytest.mark.parametrize("text", ["local:0", "local:x", " "])
def test_bad_cluster_addresses_are_one_line(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*MATCH, "--cluster", text]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("leekha match: --cluster") and "\n" not in err
