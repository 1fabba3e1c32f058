"""The ladder's `referee` commands, declared for the referee's command line.

pyproject.toml names this table in the `bot_referee.commands` entry point
group; referee/cli/main.py reads it without importing any command's
module (`referee --help` shows the summaries, a command's module is
imported when it runs). The referee never names the ladder: the ladder
declares itself to it.
"""

from __future__ import annotations

from referee.cli.commands import CommandSpec

COMMANDS = (
    CommandSpec("submit", "ladder.cli.submit:submit",
                "Check a bot (file or folder with bot.toml) and register it (with --server: the service's limits "
                "apply)."),
    CommandSpec("retire", "ladder.cli.submit:retire",
                "Take a bot out of the ladder: its active version plays no more matches (its rating and history "
                "stay)."),
    CommandSpec("check", "ladder.cli.check:check",
                "Check a bot (file or folder with bot.toml) as the ladder will run it, before you submit it."),
    CommandSpec("bots", "ladder.cli.bots:bots", "List the registered bots and their versions."),
    CommandSpec("logs", "ladder.cli.bots:logs", "Show a bot's own output and its forfeits."),
    CommandSpec("ladder", "ladder.cli.run:ladder", "Run the ladder: schedule matches, rate them, show the standings."),
    CommandSpec("tournament", "ladder.cli.tournament:tournament",
                "Play a fixed-schedule tournament (round robin, gauntlet, Swiss), its schedule committed before "
                "the first match; run it again to resume."),
    CommandSpec("table", "ladder.cli.table:table",
                "Show the standings of the ladder (one rule set: the base rules, or the service's, unless "
                "--variant)."),
    CommandSpec("report", "ladder.cli.report:report",
                "Write the ladder report of one rule set: standings, rating history, head to head, seats, recent "
                "matches."),
    CommandSpec("ladder-audit", "ladder.cli.audit:ladder_audit",
                "Reveal the ladder's deal seeds of finished sets (never of a set still to play) and check each "
                "stored match against its chain's commitment."),
    CommandSpec("serve", "ladder.cli.serve:serve",
                "Run the ladder continuously and answer its API (submissions, standings, live stream)."),
    CommandSpec("token", "ladder.cli.tokens:token",
                "Issue, list and revoke the tokens submitters use with `--server`."),
    CommandSpec("records", "ladder.cli.records:records",
                "Download the records of a bot's finished matches (with --server: your own bot's, from the ladder "
                "service)."),
)
"""The ladder's commands (`referee submit`, `ladder`, `table`, `serve`, ...)."""
