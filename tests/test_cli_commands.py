"""The `referee` program is composed from declarations (referee/cli/main.py):
the referee's own commands and those the ladder declares through the
`bot_referee.commands` entry point, each imported only when it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from referee.cli.commands import COMMANDS, CommandSpec, command_specs
from referee.cli.main import cli

LADDER_COMMANDS = {"submit", "retire", "check", "bots", "logs", "ladder", "tournament", "table", "report",
                   "ladder-audit", "serve", "token", "records"}


def test_every_command_is_declared_once_the_ladders_through_its_entry_point() -> None:
    specs = command_specs()
    assert set(specs) == {spec.name for spec in COMMANDS} | LADDER_COMMANDS
    assert all(spec.target.startswith("ladder.cli.") for name, spec in specs.items() if name in LADDER_COMMANDS)


@pytest.mark.parametrize("spec", sorted(command_specs().values(), key=lambda spec: spec.name), ids=lambda s: s.name)
def test_a_declaration_names_its_command_and_says_what_its_help_says(spec: CommandSpec) -> None:
    command = spec.load()
    assert isinstance(command, click.Command) and command.name == spec.name
    assert spec.summary == command.get_short_help_str(limit=10_000)


def test_help_lists_every_command_with_its_summary() -> None:
    result = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    listed = result.output.split("Commands:\n", 1)[1]
    for spec in command_specs().values():
        assert f"  {spec.name} " in listed and spec.summary[:60] in listed


def imported_by(*args: str) -> set[str]:
    """The modules a fresh interpreter has imported after `referee ARGS`."""
    script = ("import json, sys\nfrom referee.cli.main import cli\n"
              "try:\n    cli(sys.argv[1:], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120,
                          check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_help_imports_no_command_and_nothing_heavy() -> None:
    modules = imported_by("--help")
    commands = {spec.target.partition(":")[0] for spec in command_specs().values()}
    assert not commands & modules
    assert not {"grpc", "distributed", "numpy", "ladder.store.database"} & modules


def test_a_referee_command_imports_nothing_of_the_ladder() -> None:
    modules = imported_by("simulate", "--games", "1", "--players", "3")
    assert "referee.cli.simulate" in modules
    assert not {module for module in modules if module.split(".")[0] == "ladder"}
