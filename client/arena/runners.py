"""Where a match's deal tasks are played: inline, on a local process pool, or on Dask.

Every runner takes the tasks in deal order and yields their results in that same order,
whatever order they finish in, with a bounded window of tasks in flight; the match reads
one stream and cannot tell the runners apart, which is what makes its output the same for
`--jobs 1`, `--jobs N` and any cluster. A Dask worker that dies takes nothing with it: the
scheduler runs its tasks again elsewhere, and a task's result depends only on the task.
"""

from __future__ import annotations

import importlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

from leekha.client.arena.deal import DealTask, GameResult, play_deal
from leekha.client.i18n import _

INSTALL_DASK = "pip install 'leekha[cluster]'"


#: What every runner returns: the results of each task, in task order.
Results = Generator[list[GameResult], None, None]


class RunnerError(Exception):
    """The match cannot go on; the message is for the operator."""


class _Future(Protocol):
    """A submitted deal (concurrent.futures' or Dask's): its results, or cancel it."""

    def result(self) -> list[GameResult]: ...
    def cancel(self) -> object: ...


def ordered(
    submit: Callable[[DealTask], _Future], source: Iterator[DealTask], window: Callable[[], int]
) -> Results:
    """Results in submission order, keeping `window()` tasks submitted ahead."""
    pending: deque[_Future] = deque()
    try:
        while True:
            while len(pending) < window():
                pending.append(submit(next(source)))
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


def inline(source: Iterator[DealTask]) -> Results:
    for task in source:
        yield play_deal(task)


def process_pool(source: Iterator[DealTask], jobs: int) -> Results:
    pool = ProcessPoolExecutor(jobs)
    try:
        yield from ordered(lambda t: pool.submit(play_deal, t), source, lambda: 2 * jobs)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def parse_cluster(text: str) -> tuple[str, int | None]:
    """`local`, `local:N` (a LocalCluster of N workers) or a scheduler address."""
    if text == "local" or text.startswith("local:"):
        count = text.partition(":")[2]
        if not count:
            return "local", None
        if not count.isdigit() or not 1 <= int(count) <= 1024:
            problem = _("--cluster local:N needs N from 1 to 1024; got {n!r}")
            raise ValueError(problem.format(n=count))
        return "local", int(count)
    if not text.strip():
        raise ValueError(_("--cluster needs a scheduler address or local[:N]"))
    return text.strip(), None


def dask_module() -> Any:
    """`distributed`, or RunnerError saying what to install."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise RunnerError(
            _("--cluster needs Dask, which is not installed: {command}").format(
                command=INSTALL_DASK
            )
        ) from None


def local_cluster(count: int | None) -> Any:
    """A LocalCluster of `count` single-threaded worker processes (default: one a core):
    one thread each, since a strategy holds the GIL."""
    return dask_module().LocalCluster(
        n_workers=count or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        # No dashboard, and the scheduler's HTTP endpoints on a free loopback port only.
        dashboard_address=None,
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
    )


def dask_cluster(
    source: Iterator[DealTask], where: tuple[str, int | None], uploads: Sequence[str] = ()
) -> Results:
    """Results from a Dask cluster: a new LocalCluster, or the scheduler at an address."""
    distributed = dask_module()
    address, count = where
    cluster = local_cluster(count) if address == "local" else None
    if cluster is not None:
        address = cluster.scheduler_address
    try:
        try:
            client = distributed.Client(address, timeout="20s", set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise RunnerError(
                _("cannot reach the Dask scheduler at {address}: {problem}").format(
                    address=address, problem=exc
                )
            ) from None
        try:
            for path in uploads:
                client.upload_file(path)
            yield from on_client(client, source, distributed.KilledWorker)
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def on_client(client: Any, source: Iterator[DealTask], killed: type[Exception]) -> Results:
    threads = {"n": 1, "at": -1.0}

    def window() -> int:
        # Workers may join or leave a real cluster: ask again at most once a second.
        now = time.monotonic()
        if now - threads["at"] > 1.0:
            threads["n"] = max(1, sum(client.nthreads().values()))
            threads["at"] = now
        return max(4, 3 * int(threads["n"]))

    try:
        yield from ordered(lambda t: client.submit(play_deal, t, pure=False), source, window)
    except killed as exc:
        raise RunnerError(
            _("a deal task killed its workers again and again: {problem}").format(problem=exc)
        ) from None
    except (ImportError, ValueError) as exc:
        raise RunnerError(
            _(
                "a worker could not play a deal: {problem} (a module:Class strategy must be "
                "importable on every worker; ship a module with --upload FILE)"
            ).format(problem=exc)
        ) from None
