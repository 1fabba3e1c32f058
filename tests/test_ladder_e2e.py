"""The whole path with real bot processes: `referee submit`, `referee
ladder` in worker processes, `referee table --json`, `referee replay`."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from ladder.cli.run import EXIT_UNSETTLED
from ladder.store.database import Store
from ladder_support import install_bot, random_bot_folder
from referee.cli.main import cli
from referee.sandbox import capabilities


def referee(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def leftover_processes() -> list[str]:
    """Our child processes, but multiprocessing's own resource tracker."""
    children = [" ".join(p.cmdline()) for p in psutil.Process().children(recursive=True)]
    return [c for c in children if "resource_tracker" not in c]


@pytest.mark.slow
def test_submit_ladder_table_with_real_bots(tmp_path: Path) -> None:
    db = str(tmp_path / "data" / "ladder.sqlite")
    for name in ("alpha", "beta", "gamma", "delta"):
        folder = random_bot_folder(tmp_path / name)
        (folder / "bot.py").chmod(0o700)  # the store opens it to the bot's own sandboxed user
        assert "registered" in referee("submit", str(folder), "--name", name, "--db", db)
    output = referee("ladder", "--no-builtins", "--matches", "8", "--workers", "2", "--move-time", "0.5",
                     "--seed", "3", "--db", db)
    assert "played 8 matches" in output
    assert not leftover_processes()  # workers and their bots are gone

    table = json.loads(referee("table", "--json", "--h2h", "--seats", "--db", db))
    assert table["matches"] == 8
    rows = table["standings"]
    assert sorted(r["bot"] for r in rows) == ["alpha", "beta", "delta", "gamma"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert sum(r["matches"] for r in rows) in range(8 * 3, 8 * 4 + 1)
    assert all(r["mu"] - 3 * r["sigma"] == r["conservative"] for r in rows)
    assert all(0 <= r["p_above_next"] <= 1 for r in rows[:-1]) and rows[-1]["p_above_next"] is None
    assert {"3", "4"} >= set(table["seats"]) and table["head_to_head"]

    records = sorted((tmp_path / "data" / "records").glob("*.jsonl"))
    assert len(records) == 8
    data = tmp_path / "data"  # closed to the bots, which ran from it all the same
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (data, *data.iterdir()) if not p.name.startswith("ladder")}
    assert modes == {"data": 0o700, "records": 0o700, "bots": 0o700, "logs": 0o700}
    assert {stat.S_IMODE(p.stat().st_mode) for p in data.glob("ladder.sqlite*")} == {0o600}
    caps = capabilities()
    if caps.root and caps.switch_user:
        seats = json.loads(records[0].read_text().splitlines()[0])["seats"]
        assert all(seat["sandbox"]["own_uid"] is not None for seat in seats)
    assert "verified" in referee("replay", str(records[0]), "--verify")
    assert "identical to the stored ones" in referee("ladder", "--recompute", "--db", db)
    assert "choice bot starting" in referee("logs", "alpha", "--db", db)  # the author reads their bot's output


@pytest.mark.slow
def test_an_unsettled_ladder_exits_3_naming_its_open_pairs(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("alpha", "beta", "gamma"):
            install_bot(store, random_bot_folder(tmp_path / name), name)
    common = ["--no-builtins", "--matches", "3", "--players", "3", "--workers", "1", "--move-time", "500ms",
              "--seed", "4", "--db", str(db)]
    result = CliRunner().invoke(cli, ["ladder", "--until-stable", *common], catch_exceptions=False)
    assert result.exit_code == EXIT_UNSETTLED, result.output
    assert "not stable: the budget of 3 matches ran out; unsettled pairs:" in result.output
    assert "more shared sets" in result.output and "vs next" in result.output
    committed = result.output.index("deals committed: seed chain 1 of 3 sets, commitment ")
    assert committed < result.output.index("played 3 matches")
    assert "deals revealed: seed chain 1, its ladder seed" in result.output  # the one 3-seat set is finished
    audit = CliRunner().invoke(cli, ["ladder-audit", "--db", str(db)])  # real records: seeds, commitments, salts
    assert audit.exit_code == 0 and "verified: 3 matches revealed and checked" in audit.output, audit.output

    result = CliRunner().invoke(cli, ["ladder", "--versus", "alpha", "beta@v1", *common], catch_exceptions=False)
    assert result.exit_code == EXIT_UNSETTLED, result.output
    assert "no verdict on alpha@v1 against beta@v1" in result.output and "log-likelihood ratio" in result.output
    assert "more shared sets" in result.output.split("no verdict")[1]  # roughly how many more it needs

    result = CliRunner().invoke(cli, ["ladder", "--versus", "alpha", "nobody", *common])
    assert result.exit_code == 2 and "no bot nobody" in result.output
