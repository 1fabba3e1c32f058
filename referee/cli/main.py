"""Entry point of the `referee` command.

The commands are declared in referee/cli/commands.py: the referee's own,
and those other distributions add through the `bot_referee.commands` entry
point group of their metadata (the ladder's: ladder/cli/commands.py), as
games are added through `bot_referee.games`. So the referee composes the
program without naming the layers above it.

A command's module is imported only when that command runs or shows its
own help: `referee --help` imports none of them (together they import
gRPC, Dask and NumPy: docs/benchmarks.md, "Cold start"), and `referee
simulate` nothing of the ladder. Within a command's module, imports stand
at its top.
"""

from __future__ import annotations

import logging

import click

from referee.cli.commands import COMMANDS, command_specs
from referee.untrusted import configure_logging


class LazyGroup(click.Group):
    """A click group that imports a command's module only when it is used,
    and lists the commands from their declarations."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(command_specs())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        own = [spec for spec in COMMANDS if spec.name == cmd_name]  # the referee's own need no entry point scan
        spec = own[0] if own else command_specs().get(cmd_name)
        return spec.load() if spec is not None else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, as click lists them, from the
        declarations alone (click's own would import every command)."""
        specs = command_specs()
        if not specs:
            return
        limit = formatter.width - 6 - max(len(name) for name in specs)
        # a bare Command with the summary as its help shortens it exactly as click would the command's
        rows = [(name, click.Command(name, help=specs[name].summary).get_short_help_str(limit))
                for name in sorted(specs)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", count=True, help="Log more (-v info, -vv debug) to stderr.")
@click.version_option(package_name="bot-referee")
def cli(verbose: int) -> None:
    """A tournament harness for bots that play hidden-information board games.

    Run `referee COMMAND --help` for each command's options.
    """
    configure_logging(logging.WARNING - 10 * min(verbose, 2))  # log lines quote bots: escaped


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
