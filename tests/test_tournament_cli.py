"""`referee tournament`: a fixed schedule committed before the first match,
played exactly once (resumed after a kill), checked against its commitment.

The fast tests play through the real schedule, store and ratings with the
ladder's fake match runner (tests/ladder_support.py); the slow one plays
built-in bots in their jails on the embedded Dask cluster, killed mid-run."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from ladder.running.dispatch import InlinePool
from ladder.store.database import Store
from ladder.tournament.commitment import META_KEY, load, schedule_hash
from ladder.tournament.plan import create
from ladder.tournament.run import TournamentRun
from ladder_support import FakeRunner, add_bots
from referee.cli.main import cli


def referee(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def played_tournament(db: Path, fmt: str, names: list[str], seats: int = 2, **options: int) -> str:
    """A tournament of fake bots (strength by roster order, best last) played to the end; its commitment."""
    with Store(db) as store:
        ids = add_bots(store, names, game="leduc")
        bots = [store.bot(b) for b in ids]
        t = create(store, "leduc", {}, fmt, bots, seats, **options)
        runner = FakeRunner(strength={b: float(i) for i, b in enumerate(ids)}, luck=0.5)
        status = TournamentRun(store, InlinePool(runner), t).run()
        assert status.complete and status.played == status.scheduled
        return t.commitment


@pytest.mark.parametrize(("args", "says", "code"), [
    (["--format", "knockout"], "'knockout' is not one of 'round-robin', 'gauntlet', 'swiss'", 2),
    (["--format", "round-robin", "--bots", "random,heuristic", "--game", "gnadenlos"],
     "tables of 3 seats need 3 different bots; the roster has 2", 1),
    (["--format", "gauntlet", "--game", "leduc"], "a gauntlet needs a champion: name it with --champion", 1),
    (["--format", "round-robin", "--game", "leduc", "--bots", "random,nobody"], "no bot nobody in this store", 1),
    (["--game", "leduc"], "no tournament in this store yet: start one with --format", 2),
    (["--format", "swiss", "--game", "leduc", "--cycles", "2"], "a Swiss tournament has --rounds", 2),
])
def test_bad_input_is_one_clear_line_and_a_nonzero_exit(tmp_path: Path, args: list[str], says: str,
                                                        code: int) -> None:
    out = referee("tournament", *args, "--db", str(tmp_path / "t.sqlite"), code=code)
    assert says in " ".join(out.split())
    if (tmp_path / "t.sqlite").exists():
        with Store(tmp_path / "t.sqlite") as store:
            assert load(store) is None and store.match_count() == 0


def test_the_schedule_and_every_match_check_out_against_the_published_commitment(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    commitment = played_tournament(db, "round-robin", ["a", "b", "c", "d"], cycles=2)
    out = referee("tournament", "--verify", "--commitment", commitment, "--db", str(db))
    assert f"schedule {commitment}: unchanged" in out and "24 matches checked" in out
    assert "FAILED" in referee("tournament", "--verify", "--commitment", "0" * 64, "--db", str(db), code=1)


def test_a_changed_schedule_or_match_is_detected(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    commitment = played_tournament(db, "round-robin", ["a", "b", "c"])
    with sqlite3.connect(db) as conn:
        stored = json.loads(conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchone()[0])
        first = stored["schedule"]["tables"][0][1]
        stored["schedule"]["tables"][0][1] = first[::-1]  # the first table's seats swapped
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(stored), META_KEY))
    out = " ".join(referee("tournament", "--verify", "--db", str(db), code=1).split())
    assert "changed after it was committed" in out
    assert "seats bots" in out, "the matches played no longer sit as the changed schedule says"

    with sqlite3.connect(db) as conn:  # the organiser rewrites the stored commitment to match
        stored["commitment"] = schedule_hash(stored["schedule"])
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(stored), META_KEY))
    out = " ".join(referee("tournament", "--verify", "--commitment", commitment, "--db", str(db), code=1).split())
    assert f"is not the published {commitment}" in out


def test_a_ladder_is_refused_on_a_tournament_s_store(tmp_path: Path) -> None:
    """A ladder's matches on a tournament's store would count in its table."""
    db = tmp_path / "t.sqlite"
    played_tournament(db, "round-robin", ["a", "b", "c"])
    with Store(db) as store:
        before = store.match_count()
    out = " ".join(referee("ladder", "--game", "leduc", "--players", "2", "--db", str(db), code=1).split())
    assert "holds a tournament" in out and "a store of its own (--db)" in out
    with Store(db) as store:
        assert store.match_count() == before


@pytest.mark.parametrize(("given", "says"), [
    (["--format", "gauntlet", "--champion", "a"], "whose format is not the one given"),
    (["--bots", "a,b"], "whose roster (--bots) is not the one given"),
    (["--cycles", "2"], "whose cycles is not the one given"),
])
def test_a_committed_schedule_is_resumed_as_it_is_or_not_at_all(tmp_path: Path, given: list[str],
                                                               says: str) -> None:
    db = tmp_path / "t.sqlite"
    played_tournament(db, "round-robin", ["a", "b", "c"])
    out = " ".join(referee("tournament", "--game", "leduc", "--db", str(db), *given, code=1).split())
    assert says in out and "start another with --db NEW" in out
    again = referee("tournament", "--game", "leduc", "--db", str(db), "--format", "round-robin", "--bots", "a,b,c")
    assert "played 0 matches in this run" in again and "tournament complete" in again


def test_swiss_commits_each_round_before_it_is_played_and_pairs_no_rematch_early(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    played_tournament(db, "swiss", ["a", "b", "c", "d", "e"], rounds=3)
    with Store(db) as store:
        t = load(store)
        assert t is not None and [r["round"] for r in t.rounds] == [1, 2, 3]
        pairs = [frozenset(table) for r in t.rounds for table in r["tables"]]
        assert len(pairs) == 6 and len(set(pairs)) == 6, "3 rounds of 5 bots: no pair met twice"
        assert sorted(b for r in t.rounds for b in r["out"]) == sorted(set(b for r in t.rounds for b in r["out"]))
        assert store.match_count("leduc") == 12
    out = referee("tournament", "--verify", "--db", str(db))
    assert "3 Swiss rounds and 12 matches checked" in out
    with sqlite3.connect(db) as conn:  # round 2's pairings changed after the round was played
        stored = json.loads(conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchone()[0])
        stored["rounds"][1]["out"] = stored["rounds"][1]["tables"][0][:1]
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(stored), META_KEY))
    assert "round 2's pairings do not hash" in " ".join(
        referee("tournament", "--verify", "--db", str(db), code=1).split())


def stored_matches(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def final_table(output: str) -> list[str]:
    """The final table's rows (bot, points, matches, ...) as printed."""
    return [line for line in output.splitlines() if re.match(r"│ \d", line)]


@pytest.mark.slow
def test_a_round_robin_killed_mid_run_resumes_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", "--game", "leduc", "--workers", "1", "--move-time", "0.5", "--db", str(db)]
    schedule = ["--format", "round-robin", "--bots", "random,heuristic,mcts-0.05", "--cycles", "2"]
    run = subprocess.Popen([sys.executable, "-m", "referee.cli.main", *args, *schedule],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 120
    while stored_matches(db) < 3:
        assert run.poll() is None and time.monotonic() < deadline, "the tournament stopped before 3 matches"
        time.sleep(0.05)
    family = psutil.Process(run.pid).children(recursive=True)
    os.kill(run.pid, signal.SIGKILL)
    published = run.communicate()[0].splitlines()[0]
    _, alive = psutil.wait_procs(family, timeout=20)
    assert not alive, f"orphans left behind: {[p.cmdline() for p in alive]}"
    commitment = re.match(r"schedule committed: ([0-9a-f]{64}) ", published)
    assert commitment is not None, published
    with Store(db) as store:
        before = {m["match_id"] for m in store.matches("leduc")}
    assert 3 <= len(before) < 12

    resumed = referee(*args, *schedule)  # the same command again
    assert f"schedule committed: {commitment[1]}" in resumed and "tournament complete" in resumed
    with Store(db) as store:
        after = [m["match_id"] for m in store.matches("leduc")]
        assert set(after) >= before and len(after) == len(set(after)) == 12  # 3 pairs x 2 seats x 2 cycles
        assert len(store.rating_history("leduc")) == 24  # one rating update per seat, none twice
    rows = final_table(resumed)
    assert len(rows) == 3 and all(" 8 " in row for row in rows)  # every bot: 2 opponents x 2 seats x 2 cycles
    again = referee(*args)
    assert "played 0 matches in this run" in again and final_table(again) == rows
    verified = referee("tournament", "--verify", "--commitment", commitment[1], "--db", str(db))
    assert "12 matches checked" in verified
