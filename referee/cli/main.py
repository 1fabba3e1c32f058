"""Entry point of the `referee` command.

Commands are loaded lazily from `COMMANDS`, so `referee simulate` does not pay
for importing gRPC and `referee --help` stays fast. The ladder's commands live
in the ladder package (the layer above the referee); this table is the one
place that composes the layers into one program.
"""

from __future__ import annotations

import importlib
import logging

import click

COMMANDS: dict[str, str] = {
    "simulate": "referee.cli.simulate:simulate",
    "play": "referee.cli.play:play",
    "replay": "referee.cli.replay:replay",
    "verify": "referee.cli.verify:verify",
    "exploitability": "referee.cli.exploitability:exploitability",
    "view": "referee.cli.view:view",
    "report": "ladder.report_cli:report",
    "submit": "ladder.cli:submit",
    "retire": "ladder.cli:retire",
    "check": "ladder.check_cli:check",
    "bots": "ladder.cli:bots",
    "ladder": "ladder.cli:ladder",
    "table": "ladder.cli:table",
    "ladder-audit": "ladder.audit_cli:ladder_audit",
    "logs": "ladder.cli:logs",
    "serve": "ladder.service.cli:serve",
    "token": "ladder.service.cli:token",
}
"""Command name -> "module:attribute" of its click command."""


class LazyGroup(click.Group):
    """A click group that imports a command's module only when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", count=True, help="Log more (-v info, -vv debug) to stderr.")
@click.version_option(package_name="bot-referee")
def cli(verbose: int) -> None:
    """A tournament harness for bots that play hidden-information board games.

    Run `referee COMMAND --help` for each command's options.
    """
    from referee.untrusted import configure_logging

    configure_logging(logging.WARNING - 10 * min(verbose, 2))  # log lines quote bots: escaped


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
