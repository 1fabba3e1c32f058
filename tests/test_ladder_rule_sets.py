"""Issue 20: each rule set is a ladder of its own. `referee submit` records
the variants a bot plays (validated by its handshake and a match of each),
`referee ladder --variant` seats only the bots that declare the variant and
rates them apart from the base rules, `referee table` shows the rule set it
shows and can select another; a store from before rule sets files its
variant matches under theirs. Real bot processes through the command line.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.store.database import Store
from ladder.store.schema import MIGRATIONS
from ladder_support import declaring_bot, install_bot, random_bot_folder
from referee.cli.main import cli

OPT_OUT = "gnadenlos:gunfight_opt_out=on"


def referee(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


@pytest.mark.slow
def test_submit_records_the_variants_it_validated(tmp_path: Path) -> None:
    db = str(tmp_path / "ladder.sqlite")
    folder = declaring_bot(tmp_path / "opt", (OPT_OUT,), in_manifest=False)
    out = referee("submit", str(folder), "--name", "opt", "--move-time", "1s", "--variant", "gunfight_opt_out=on",
                  "--db", db)
    assert f"with variants {OPT_OUT}" in out
    bots = json.loads(referee("bots", "--json", "--db", db))
    assert bots[0]["variants"] == [OPT_OUT]
    # a variant its handshake does not declare is refused, naming the fix
    refused = referee("submit", str(folder), "--name", "opt2", "--variant", "gunfight_opt_out=soft", "--db", db,
                      code=1)
    assert "not gnadenlos:gunfight_opt_out=soft" in refused and "Bot.variants" in refused


def test_a_bot_toml_with_a_variant_its_game_lacks_is_refused(tmp_path: Path) -> None:
    folder = random_bot_folder(tmp_path / "bad")
    with (folder / "bot.toml").open("a") as manifest:
        manifest.write('variants = ["gnadenlos:auction=sealed"]\n')
    out = referee("submit", str(folder), "--name", "bad", "--db", str(tmp_path / "ladder.sqlite"), code=1)
    assert "variants" in out and "gnadenlos:auction=single" in out  # what is allowed


@pytest.mark.slow
def test_each_rule_set_is_rated_apart_and_seats_only_its_bots(tmp_path: Path) -> None:
    db = tmp_path / "data" / "ladder.sqlite"
    with Store(db) as store:
        for name in ("alpha", "beta", "gamma"):
            install_bot(store, declaring_bot(tmp_path / name, (OPT_OUT,)), name)
        install_bot(store, random_bot_folder(tmp_path / "plain"), "plain")
    common = ["--no-builtins", "--players", "3", "--workers", "1", "--move-time", "1s", "--seed", "5", "--db", str(db)]
    out = referee("ladder", "--variant", "gunfight_opt_out=on", "--matches", "3", *common)
    assert "Gnadenlos! ladder (gunfight_opt_out=on)" in out
    referee("ladder", "--matches", "3", *common)

    varied = json.loads(referee("table", "--json", "--variant", "gunfight_opt_out=on", "--db", str(db)))
    base = json.loads(referee("table", "--json", "--db", str(db)))
    assert varied["rule_set"] == "gunfight_opt_out=on" and base["rule_set"] == ""
    assert varied["matches"] == 3 and base["matches"] == 3
    assert base["rule_sets"] == {"": 3, "gunfight_opt_out=on": 3}
    # the bot that declares nothing is never seated under the variant, nor listed in its ladder
    assert sorted(r["bot"] for r in varied["standings"]) == ["alpha", "beta", "gamma"]
    assert sum(r["matches"] for r in varied["standings"]) == 9
    for path in sorted((tmp_path / "data" / "records").glob("*.jsonl")):
        header = json.loads(path.read_text().splitlines()[0])
        if header["variant"]["gunfight_opt_out"] == "on":
            assert "plain" not in {seat["label"].partition("@")[0] for seat in header["seats"]}
    # a bot's rating under the variant is its own: its matches there, and only there
    with Store(db, create=False) as store:
        alpha = next(b.bot_id for b in store.bots() if b.name == "alpha")
        assert store.ratings("gnadenlos", "gunfight_opt_out=on")[alpha] != store.ratings("gnadenlos").get(alpha)
    text = referee("table", "--variant", "gunfight_opt_out=on", "--db", str(db))
    assert "Gnadenlos! ladder (gunfight_opt_out=on): 3 matches" in text
    assert "base rules (3 matches)" in " ".join(text.split())  # the line may wrap at $COLUMNS
    assert "Gnadenlos! ladder (base rules): 3 matches" in referee("table", "--db", str(db))
    assert "identical to the stored ones" in referee("ladder", "--recompute", "--variant", "gunfight_opt_out=on",
                                                     "--db", str(db))


def test_a_store_from_before_rule_sets_files_its_matches_under_them(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (3)")
    for migration in MIGRATIONS[:3]:
        migration(conn)
    conn.execute("INSERT INTO meta VALUES ('rating_model', 'x')")
    for name in ("x", "y", "z"):
        conn.execute("INSERT INTO bots (name, version, content_hash, kind, command, games, created_at)"
                     " VALUES (?, 'v1', ?, 'submitted', '[]', '[\"gnadenlos\"]', 'now')", (name, name))
    for match_id, variant in (("m1", {}), ("m2", {"gunfight_opt_out": "on", "setup": "standard"})):
        conn.execute("INSERT INTO matches (match_id, game, set_id, rotation, seed, variant, num_seats, end_reason,"
                     " decisions, seconds, record_path, summary, finished_at)"
                     " VALUES (?, 'gnadenlos', ?, 0, 1, ?, 3, 'goal', 9, 1.0, NULL, '{}', 'now')",
                     (match_id, match_id, json.dumps(variant)))
        conn.execute("INSERT INTO match_seats VALUES (?, 0, 1, 0, 0, NULL, 0, '{}'), (?, 1, 2, 1, 1, NULL, 0, '{}'),"
                     " (?, 2, 3, 2, 2, NULL, 0, '{}')", (match_id,) * 3)
    conn.execute("INSERT INTO ratings VALUES ('gnadenlos', 1, 30.0, 5.0)")  # both matches rated together
    conn.close()
    varied = json.loads(referee("table", "--json", "--variant", "gunfight_opt_out=on", "--db", str(db)))
    base = json.loads(referee("table", "--json", "--db", str(db)))
    assert varied["matches"] == 1 and base["matches"] == 1
    # recomputed per rule set: one match each, so each winner's rating is the same, and not the mixed one
    assert varied["standings"][0]["bot"] == "x" and base["standings"][0]["bot"] == "x"
    assert varied["standings"][0]["mu"] == base["standings"][0]["mu"] != 30.0
