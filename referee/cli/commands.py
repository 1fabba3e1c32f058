"""The `referee` commands, declared: the referee's own, and where to find others'.

A `CommandSpec` says where a command's click command lives and the line
`referee --help` shows, without importing it (referee/cli/main.py imports a
command's module only when it runs). Other distributions declare theirs in
the `bot_referee.commands` entry point group (pyproject.toml: the ladder's
table is ladder/cli/commands.py), as games are declared in
`bot_referee.games`, so the referee names no layer above it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points

import click

ENTRY_POINT_GROUP = "bot_referee.commands"
"""Where another distribution names its table of commands (a sequence of
`CommandSpec`s), e.g. `ladder = "ladder.cli.commands:COMMANDS"`."""


@dataclass(frozen=True)
class CommandSpec:
    """One `referee` command, declared without importing it."""

    name: str
    target: str
    """"module:attribute" of its click command."""
    summary: str
    """What `referee --help` shows: the first sentence of the command's
    help (tests/test_cli_commands.py checks that they agree)."""

    def load(self) -> click.Command:
        module_name, _, attribute = self.target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} (the command {self.name}) is not a click command")
        return command


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("simulate", "referee.cli.simulate:simulate", "Play matches in-process and report how they went."),
    CommandSpec("play", "referee.cli.play:play", "Play one match between bot processes and show it as it happens."),
    CommandSpec("replay", "referee.cli.replay:replay", "Re-run a match record from its seed and decisions and show it."),
    CommandSpec("verify", "referee.cli.verify:verify",
                "Check a match record: the seed revealed at the end is the one committed to before the deal, every "
                "chance outcome follows from it, and every decision was legal (docs/records.md, \"Provably fair "
                "deals\")."),
    CommandSpec("exploitability", "referee.cli.exploitability:exploitability",
                "Estimate a bot's exploitability in heads-up Leduc poker, over the wire."),
    CommandSpec("view", "referee.cli.view:view", "Step through a match record in the browser, from any seat's view."),
)
"""The referee's own commands."""


@cache
def command_specs() -> dict[str, CommandSpec]:
    """Every command by name: the referee's own, then those the installed
    distributions declare (`ENTRY_POINT_GROUP`; a name taken twice is an
    error, not a silent choice)."""
    specs = {spec.name: spec for spec in COMMANDS}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        for spec in point.load():
            if not isinstance(spec, CommandSpec):
                raise TypeError(f"entry point {point.name} = {point.value} holds {spec!r}, not a CommandSpec")
            if spec.name in specs:
                raise ValueError(f"two commands are named {spec.name}: {specs[spec.name].target} and {spec.target}")
            specs[spec.name] = spec
    return specs
