"""The ladder's matches on Dask: a real `dask scheduler` and two `dask
worker`s as a user would start them on separate machines (own working
folders, nothing shared but the address), a worker killed mid-match, and
a match whose worker keeps dying coming back as a failure that is never
rated."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from distributed import Client, LocalCluster

from cluster_support import CrashOnceWorker, real_cluster, sleepy_bot_folder
from ladder.running.cluster import DaskPool
from ladder.scheduling.scheduler import Ladder, LadderConfig, recompute
from ladder.store.database import Store
from ladder_support import install_bot, open_store

MATCHES = 8


def stored_matches(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def running_on(client: Client, worker: str) -> list[str]:
    """The match ids the scheduler has placed on the worker named `worker`."""
    names = {address: info["name"] for address, info in client.scheduler_info()["workers"].items()}
    return ["-".join(str(key).split("-")[1:-2])  # the task key: match-<match id>-<attempt>-<run>
            for address, keys in client.processing().items() if names.get(address) == worker for key in keys]


@pytest.mark.slow
def test_a_ladder_on_a_real_cluster_loses_no_match_when_a_worker_is_killed_mid_match(tmp_path: Path) -> None:
    db = tmp_path / "owner" / "data" / "ladder.sqlite"
    with Store(db) as store:
        hashes = set()
        for name in ("a", "b", "c", "d"):
            install_bot(store, sleepy_bot_folder(tmp_path / "bots" / name, 0.02), name)
            hashes.add(store.bot_versions(name)[0].content_hash)
    with real_cluster(tmp_path / "cluster", workers=2) as (address, workers), Client(address, timeout=30) as client:
        client.wait_for_workers(2, timeout=60)
        owner = subprocess.Popen(
            [sys.executable, "-m", "referee.cli.main", "ladder", "--scheduler", address, "--no-builtins",
             "--matches", str(MATCHES), "--players", "4", "--move-time", "2s", "--db", str(db)],
            cwd=tmp_path / "owner", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        victim = workers[0]
        deadline = time.monotonic() + 120
        while stored_matches(db) < 2 or not running_on(client, victim.name):
            assert owner.poll() is None, owner.communicate()[0]
            assert time.monotonic() < deadline, "no match reached the first worker"
            time.sleep(0.05)
        killed = running_on(client, victim.name)  # the match it plays, and one waiting there
        time.sleep(0.3)  # into the match: its bots are playing
        bots = psutil.Process(victim.process.pid).children(recursive=True)
        assert bots, "the worker had started no bot"
        victim.kill()
        output, _ = owner.communicate(timeout=180)
        assert owner.returncode == 0, output
        _, alive = psutil.wait_procs(bots, timeout=20)
        assert not alive, f"the killed worker's bots live on: {[p.cmdline() for p in alive]}"
        survivor = workers[1].folder / "local"  # read before the worker stops: it then clears its folder
        cached = {p.name for p in survivor.rglob("bot-files/*") if p.is_dir() and p.name != ".incoming"}
        assert cached == hashes  # the survivor fetched every bot by its hash into its own folder
        assert not any(survivor.rglob(".incoming/*"))

    with Store(db) as store:
        matches = store.matches("gnadenlos")
        ids = [m["match_id"] for m in matches]
        assert len(ids) == len(set(ids)) == MATCHES and set(killed) <= set(ids)  # played again elsewhere, stored once
        assert len(store.rating_history("gnadenlos")) == len(store.seat_rows("gnadenlos")) == 4 * MATCHES
        assert recompute(store, "gnadenlos")[0]
        assert store.planned("gnadenlos") == [] or len(store.planned("gnadenlos")) < 4  # a set cut by the budget
        for name in ("a", "b", "c", "d"):  # the bots' output came back from the workers with the results
            assert "choice bot starting" in (store.logs_dir / f"{name}@v1.log").read_text()
        for match in matches:  # every record came back to the owner, each seat in its jail
            header = Path(match["record_path"]).read_text().splitlines()[0]
            assert '"jail":"nsjail"' in header and '"seccomp":true' in header


def test_a_match_whose_worker_dies_comes_back_as_a_failure_and_is_rated_once(tmp_path: Path) -> None:
    import dask

    plugin = CrashOnceWorker(str(tmp_path / "crashed"))
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):  # no silent retry by Dask
        cluster = LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None, host="127.0.0.1")
        client = Client(cluster)
        client.register_plugin(plugin, name=plugin.name)
        with open_store(tmp_path) as store:
            with store.transaction() as conn:  # built-in kind: no files to ship; the fake runner plays them
                for name in ("a", "b", "c"):
                    store.add_bot(conn, name=name, version="1", content_hash=name, kind="builtin", command=["random"],
                                  folder=None, games=["gnadenlos"])
            status = Ladder(store, DaskPool(client, plugin, cluster), LadderConfig(matches=3, sizes=(3,), seed=11)).run()
            assert status.played == 3
            failures = store.failures()  # the match it played, and any waiting on the worker with it
            assert failures and all(f["kind"] == "worker_crash" and "KilledWorker" in f["detail"] for f in failures)
            assert store.match_count() == 3 and recompute(store, "gnadenlos")[0]
            assert len(store.rating_history("gnadenlos")) == 9


def test_workers_size_only_the_embedded_cluster(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from referee.cli.main import cli

    result = CliRunner().invoke(cli, ["ladder", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2",
                                      "--db", str(tmp_path / "ladder.sqlite")])
    assert result.exit_code == 2 and "leave out one of the two" in result.output
    assert not (tmp_path / "ladder.sqlite").exists()  # refused before anything was made
