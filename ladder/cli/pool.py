"""The Dask pool of the commands that run a ladder (`referee ladder`, `serve`):
--workers and --scheduler, and the pool opened with its failures as one
error line (ladder/running/cluster.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ladder.running.cluster import ClusterError, DaskPool, open_pool
from referee.sandbox import Limits as BotLimits

workers_option = click.option(
    "--workers", type=click.IntRange(min=1), default=None,
    help="Worker processes of the embedded Dask cluster (default: one per CPU); not with --scheduler.",
)
scheduler_option = click.option(
    "--scheduler", default=None, metavar="tcp://HOST:PORT",
    help="Play the matches on this Dask cluster (`dask scheduler` and `dask worker`s) instead of an embedded one.",
)


def check_cluster_options(workers: int | None, scheduler: str | None) -> None:
    """--workers sizes the embedded cluster; a remote one has its own workers."""
    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers sizes the embedded Dask cluster; with --scheduler the cluster's own "
                               "workers play the matches: leave out one of the two")


@contextmanager
def dask_pool(scheduler: str | None, move_time: float, workers: int | None, logs_dir: Path,
              limits: BotLimits | None = None) -> Iterator[DaskPool]:
    """The matches' Dask pool (ladder/running/cluster.py), its bots under `limits`
    (default: the sandbox's), closed on the way out; a cluster that cannot
    be had is one error line."""
    try:
        pool = open_pool(scheduler, move_time, workers=workers, logs_dir=logs_dir, limits=limits)
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        yield pool
    finally:
        pool.close()

