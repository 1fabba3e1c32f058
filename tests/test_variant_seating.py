"""Issue 20: a bot is seated only in the variants it declares (the
handshake's `variants`), and `--variant NAME=VALUE` reads the same on
every command. Through the command line with real bot processes
(tests/bots/variant_bot.py declares exactly what its command line lists).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.games import load_game
from referee.games.rule_sets import option_tags

BOT = Path(__file__).parent / "bots" / "variant_bot.py"
GNADENLOS = load_game("gnadenlos")


def play(tmp_path: Path, *args: str) -> object:
    return CliRunner().invoke(cli, ["play", "--seed", "3", "--json", "--record", str(tmp_path / "m.jsonl"),
                                    "--move-time", "5s", "--log-dir", str(tmp_path / "logs"), *args])


def test_play_refuses_a_bot_that_does_not_declare_the_variant(tmp_path: Path) -> None:
    result = play(tmp_path, "--variant", "gunfight_opt_out=on", "--bot", f"{sys.executable} {BOT}",
                  "--bot", "random", "--bot", "random")
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert "does not declare gnadenlos:gunfight_opt_out=on" in result.output  # type: ignore[attr-defined]
    assert not (tmp_path / "m.jsonl").exists()  # refused before the match started


def test_play_seats_a_bot_that_declares_the_variant(tmp_path: Path) -> None:
    result = play(tmp_path, "--variant", "gunfight_opt_out=on",
                  "--bot", f"{sys.executable} {BOT} gnadenlos:gunfight_opt_out=on", "--bot", "random", "--bot", "random")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    header = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[0])
    assert header["variant"]["gunfight_opt_out"] == "on"


def test_a_bot_without_variants_plays_the_base_rules(tmp_path: Path) -> None:
    result = play(tmp_path, "--bot", f"{sys.executable} {BOT}", "--bot", "random", "--bot", "random")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]


def test_a_malformed_variant_tag_fails_the_handshake(tmp_path: Path) -> None:
    result = play(tmp_path, "--bot", f"{sys.executable} {BOT} gnadenlos:Auction=single",
                  "--bot", "random", "--bot", "random")
    assert result.exit_code == 4, result.output  # type: ignore[attr-defined]  # never started: not played
    (seat,) = json.loads(result.stdout)["not_started"]  # type: ignore[attr-defined]
    assert seat["seat"] == 0 and seat["reason"] == "startup" and "variants[0]" in seat["detail"]


@pytest.mark.parametrize("command", [
    ["play", "--bot", "random", "--bot", "random", "--bot", "random"],
    ["simulate", "--games", "1"],
    ["ladder", "--matches", "1"],
    ["submit", "random"],
    ["table"],
])
def test_every_command_refuses_a_bad_variant_listing_what_is_allowed(command: list[str], tmp_path: Path) -> None:
    runner = CliRunner()
    db = ["--db", str(tmp_path / "ladder.sqlite")] if command[0] in ("ladder", "submit", "table") else []
    unknown = runner.invoke(cli, [*command, *db, "--variant", "auction=sealed"])
    assert unknown.exit_code == 2, unknown.output
    assert "auction must be one of ['standard', 'single']" in unknown.output
    orphan = runner.invoke(cli, [*command, *db, "--variant", "auction_order=best"])
    assert orphan.exit_code == 2, orphan.output
    assert "auction=single" in orphan.output and "gunfight_opt_out=off|on|soft" in orphan.output
    assert not (tmp_path / "ladder.sqlite").exists()  # refused before a store was made


def test_rule_sets_name_only_what_differs_from_the_base_rules() -> None:
    assert str(GNADENLOS.make_rule_set({})) == ""
    assert str(GNADENLOS.make_rule_set({"gunfight_opt_out": "off", "setup": "standard"})) == ""
    assert str(GNADENLOS.make_rule_set({"auction": "single", "auction_order": "first"})) == "auction=single"
    named = GNADENLOS.make_rule_set({"auction_order": "best", "auction": "single", "gunfight_opt_out": "soft"})
    assert str(named) == "auction=single,auction_order=best,gunfight_opt_out=soft"
    assert GNADENLOS.parse_rule_set(str(named)) == named
    assert named.undeclared(["gnadenlos:auction=single"]) == (
        "gnadenlos:auction_order=best", "gnadenlos:gunfight_opt_out=soft")
    assert named.undeclared(option_tags(GNADENLOS.name, GNADENLOS.variant_options)) == ()
