"""A ladder described once in a TOML file (issue 29, point 10): `referee
ladder`, `serve`, `table` and `report` read it with `--config`, a flag
wins over it, a bad key or value is one line naming it and the fix, and
the bots' resource limits it sets (fixed in code before) reach every
bot's sandbox in the ladder's matches."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli.config_file import LIMIT_KEYS, read_config
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import FakeRunner, add_bots, install_bot, random_bot_folder
from referee.cli.main import cli
from referee.sandbox import GiB, Limits

DOCS = Path(__file__).parent.parent / "docs" / "ladder.md"

HOG = f"""#!{sys.executable}
import mmap
import random
import sys

from bots.sdk import Bot, serve


class Hog(Bot):
    name = "hog"
    version = "1"

    def on_match_start(self, match, observation):
        try:  # address space only, never touched: a gRPC bot holds about 700 MiB of it already
            mmap.mmap(-1, 768 * 2**20).close()
            print("took 768 MiB", file=sys.stderr, flush=True)
        except OSError as exc:
            print(f"refused 768 MiB: {{exc}}", file=sys.stderr, flush=True)

    def decide(self, observation, legal_actions, context):
        return random.choice(legal_actions)


if __name__ == "__main__":
    serve(Hog())
"""


def referee(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def docs_example() -> str:
    """The example file of docs/ladder.md's "A ladder in one file"."""
    section = DOCS.read_text().split("### A ladder in one file", 1)[1]
    return section.split("```toml\n", 1)[1].split("```", 1)[0]


def test_the_documented_file_reads_and_shows_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(docs_example())
    read = read_config(path)
    assert read.limits == Limits()  # "defaults shown": each value is the sandbox's default
    assert {field for field, _ in LIMIT_KEYS.values()} == {f.name for f in dataclasses.fields(Limits)}
    assert read.options == {  # the parameters of the commands' options, as their flags give them
        "db_path": str(tmp_path / "data" / "ladder.sqlite"), "game": "saboteur", "players": "3-6", "move_time": 1.0,
        "no_builtins": False, "no_duplicate": False, "seed": 7, "variants": ["sabotaged_diggers_lose_share=on"],
        "max_mib": 64, "max_files": 2000, "max_depth": 16,
    }


def test_table_and_report_show_the_ladder_the_file_names_and_a_flag_wins(tmp_path: Path) -> None:
    db = tmp_path / "ladders" / "cup.sqlite"
    with Store(db) as store:
        with store.transaction() as conn:
            for name in ("alpha", "beta", "gamma"):
                store.add_bot(conn, name=name, version="1", content_hash=f"hash-{name}", kind="submitted",
                              command=["fake"], folder=None, games=["saboteur"],
                              variants=["saboteur:sabotaged_diggers_lose_share=on"])
        add_bots(store, ["delta", "eps", "zeta"])
        Ladder(store, InlinePool(FakeRunner()), LadderConfig(game="saboteur", matches=3, sizes=(3,), seed=1,
                                                              variant={"sabotaged_diggers_lose_share": "on"})).run()
        Ladder(store, InlinePool(FakeRunner()), LadderConfig(matches=6, sizes=(3,), seed=2)).run()
    config = tmp_path / "cup.toml"
    config.write_text('store = "ladders/cup.sqlite"\ngame = "saboteur"\n[variant]\nsabotaged_diggers_lose_share = "on"\n')
    table = referee("table", "--config", str(config))
    assert "Saboteur ladder (sabotaged_diggers_lose_share=on): 3 matches" in table and "alpha" in table
    data = json.loads(referee("table", "--config", str(config), "--json"))
    assert (data["game"], data["rule_set"], data["matches"]) == ("saboteur", "sabotaged_diggers_lose_share=on", 3)
    flagged = referee("table", "--config", str(config), "--game", "gnadenlos")  # the flag wins, and the file's
    assert "Gnadenlos! ladder (base rules): 6 matches" in flagged and "delta" in flagged  # rule set is Saboteur's
    out = tmp_path / "report.html"
    assert "Saboteur ladder (sabotaged_diggers_lose_share=on)" in referee(
        "report", "--config", str(config), "--out", str(out), "--viewers", "0")
    assert "alpha" in out.read_text()


@pytest.mark.parametrize(("text", "error"), [
    ("playrs = 3\n", "unknown key playrs; did you mean players? the keys are store, game, players"),
    ('players = "2-12"\ngame = "saboteur"\n', 'players = "2-12" does not fit Saboteur, played by 3 to 10 players'),
    ('game = "chess"\n', 'game = "chess" is not a game the referee runs; write one of gnadenlos, leduc, saboteur'),
    ('move_time = "2 seconds"\n', 'move_time = "2 seconds" is not a time; write it like e.g. 2s, 250ms'),
    ('move_time = "1ms"\n', 'move_time = "1ms" is less than the least allowed, 0.01s'),
    ("builtins = 0\n", "builtins = 0 is not true or false"),
    ('[limits]\nmemory = "2 GB"\n', 'limits.memory = "2 GB" is not a size; write it like "512MiB", "2GiB" or a '
                                    'number of bytes, or "none" for no limit'),
    ("[limits]\nprocs = 4\n", "unknown key limits.procs; did you mean limits.processes? the keys of [limits] are"),
    ("[limits]\nprocesses = 0\n", "limits.processes = 0 is not a whole number of at least 1"),
    ('[limits]\ntmpfs = "none"\n', 'limits.tmpfs = "none" is not a size'),
    ("limits = 3\n", "limits = 3 is not a table; write it as a section, [limits], with its keys beneath"),
    ('[variant]\nauction = "double"\n', "[variant] "),
    ("[submission]\nmax_mib = -1\n", "submission.max_mib = -1 is not a whole number of at least 1"),
    ("players = \n", "is not valid TOML (Invalid value (at line 1, column 11))"),
])
@pytest.mark.parametrize("command", ["ladder", "serve", "table", "report"])
def test_a_bad_key_or_value_is_one_line_naming_it(tmp_path: Path, command: str, text: str, error: str) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(text)
    result = CliRunner().invoke(cli, [command, "--config", str(path)])
    assert result.exit_code == 2, result.output
    [line] = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert line.startswith(f"Error: Invalid value for '--config': {path}") and error in line, line
    assert not (tmp_path / "data").exists()  # nothing started, nothing made


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    out = referee("table", "--config", str(tmp_path / "nowhere.toml"), code=2)
    assert f"cannot read {tmp_path / 'nowhere.toml'} (No such file or directory); check --config" in out


@pytest.mark.slow
def test_the_file_s_limits_reach_every_bot_of_the_ladder(tmp_path: Path) -> None:
    """A bot that maps 768 MiB more address space gets it under the
    default limits (2 GiB, `referee play`), and is refused it in the ladder
    whose file allows 1 GiB; its records list the file's limits."""
    hog = tmp_path / "hog"
    hog.mkdir()
    (hog / "bot.py").write_text(HOG)
    (hog / "bot.py").chmod(0o755)
    (hog / "bot.toml").write_text('command = "./bot.py"\ngames = ["gnadenlos"]\n')
    logs = tmp_path / "play-logs"
    played = subprocess.run([sys.executable, "-m", "referee.cli.main", "play", "--bot", str(hog), "--bot", "random",
                             "--bot", "random", "--seed", "1", "--log-dir", str(logs)], capture_output=True, text=True,
                            timeout=120)
    assert played.returncode == 0, played.stderr
    assert "took 768 MiB" in "".join(p.read_text() for p in logs.iterdir())

    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        install_bot(store, hog, "hog")
        for name in ("a", "b"):
            install_bot(store, random_bot_folder(tmp_path / "bots" / name), name)
    config = tmp_path / "ladder.toml"
    config.write_text('store = "data/ladder.sqlite"\nplayers = 3\nmove_time = "1s"\nbuiltins = false\n'
                      '[limits]\naddress_space = "1GiB"\nprocesses = 64\n')
    out = referee("ladder", "--config", str(config), "--matches", "3", "--workers", "1", "--seed", "2")
    assert "played 3 matches (3-player: 3)" in " ".join(out.split())
    log = (db.parent / "logs" / "hog@v1.log").read_text()
    assert log.count("refused 768 MiB: [Errno 12] Cannot allocate memory") == 3 and "took" not in log
    records = sorted((db.parent / "records").glob("*.jsonl"))
    assert len(records) == 3
    for record in records:
        for seat in json.loads(record.read_text().splitlines()[0])["seats"]:
            limits = seat["sandbox"]["limits"]
            assert (limits["memory_bytes"], limits["max_processes"]) == (GiB, 64)
            assert limits["tree_memory_bytes"] == Limits().tree_memory_bytes  # what the file leaves out: the default
    assert re.search(r"hog", referee("table", "--config", str(config)))


@pytest.mark.slow
def test_built_ins_that_cannot_start_stop_the_ladder_unrated(tmp_path: Path) -> None:
    """On a machine where bots cannot start (here: 48 MiB of address space,
    too little for a Python bot's imports), the built-ins fail for the
    harness's reasons, not their own: no match is rated, and the ladder
    stops with a nonzero exit naming what failed (before, it rated 48
    matches of forfeits and exited 0)."""
    db = tmp_path / "ladder.sqlite"
    config = tmp_path / "ladder.toml"
    config.write_text(f'store = "{db}"\nplayers = 3\n[limits]\naddress_space = "48MiB"\n')
    out = referee("ladder", "--config", str(config), "--matches", "12", "--workers", "1", "--seed", "2", code=1)
    assert "matches in a row failed" in out and "could not start" in out, out
    with Store(db) as store:
        assert store.match_count("gnadenlos") == 0
