"""`referee report`: the ladder report as an HTML file, or live in the browser.

Reads the store only (a mistyped --db is an error naming the path, never a
new store), or, with `--server ADDR`, a running ladder service through its
API (`ladder.v1`: Standings, RatingHistory, RecentMatches, GetRecord), which
gives the same parts, so the same page. `--out FILE` writes the report
(ladder/reporting/report_page.py) with viewer pages of the recent matches beside it;
`--web PORT` serves a store's report live instead (ladder/service/live.py) until
Ctrl-C, for a store another process is filling (`referee ladder --web PORT`
serves its own run the same way, `referee serve --web PORT` a service's).

A report shows one rule set, named in its title: the base rules unless
`--variant NAME=VALUE` names another, and with `--server` the one the
service plays unless `--variant` names another (as `referee table`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ladder.cli.options import config_option, db_option, game_option, open_store, parse_variant
from ladder.cli.remote import remote, remote_options
from ladder.reporting.report import RECENT_MATCHES, build_report, report_data
from ladder.reporting.report_page import match_viewer, record_viewer, write_report
from ladder.service.client import Remote, RemoteError
from ladder.service.live import LiveServer
from ladder.store.database import default_db_path
from ladder.store.rule_set_names import rule_set_of
from referee.cli.variants import variant_option

PORT = click.IntRange(min=0, max=65535)


@click.command()
@db_option
@game_option
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=Path("report.html"),
              show_default=True, help="Write the report here (viewer pages go to <name>-matches/ beside it).")
@click.option("--viewers", type=click.IntRange(min=0, max=RECENT_MATCHES), default=RECENT_MATCHES, show_default=True,
              help="Viewer pages to write for the most recent matches (0: the report file alone).")
@click.option("--web", "port", type=PORT, default=None,
              help="Serve the report live on this port (127.0.0.1) instead of writing it; Ctrl-C stops.")
@variant_option("Report the ladder of this rule set, NAME=VALUE (repeatable; default: the base rules, with --server "
                "the rule set the service plays): each rule set is rated apart.")
@remote_options
@config_option(exposed=False)
def report(db_path: Path | None, game: str, out: Path, viewers: int, port: int | None, variants: tuple[str, ...],
           server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """Write the ladder report of one rule set: standings, rating history, head to head, seats, recent matches."""
    variant = parse_variant(variants, game)
    rule_set = rule_set_of(game, variant)

    if server is not None:
        if port is not None:
            raise click.UsageError("--web serves a local store; a ladder service serves its own live page "
                                   "(`referee serve --web PORT`)")
        if db_path is not None:
            raise click.UsageError("give --db (a local store) or --server (a ladder service), not both")
        with remote(server, token, tls_ca) as service:
            data = served_report(service, game, variant)
            written, listed = write_report(data, out, viewers=viewers,
                                           viewer_of=lambda match: served_viewer(service, match))
    elif port is not None:
        serve(db_path or default_db_path(), game, port, rule_set)
        return
    else:
        with open_store(db_path, create=False) as store:
            data = report_data(store, game, rule_set)
            written, listed = write_report(data, out, viewers=viewers,
                                           viewer_of=lambda match: match_viewer(store.record_of(match["match_id"])))
    click.echo(f"report of the {data['title']}: {out}" + (f" (with {written} of {listed} recent matches' viewers in "
                                   f"{out.parent / (out.stem + '-matches')})" if written else ""))


def served_report(service: Remote, game: str, variant: dict[str, str]) -> dict[str, Any]:
    """The report's data of one rule set (`variant`; empty: the one the
    service plays) from a ladder service's API: its parts as the store would give them."""
    table = json.loads(service.standings(game, h2h=True, seats=True, variant=variant).json)
    asked = variant or dict(table["variant"])  # the other parts of the same rule set
    return build_report(game, table, service.rating_history(game, asked),
                        service.recent_matches(game, RECENT_MATCHES, asked))


def served_viewer(service: Remote, match: dict[str, Any]) -> tuple[str | None, str]:
    """A recent match's viewer page from the record the service sends."""
    try:
        text = service.record(match["match_id"]).decode("utf-8", errors="replace")
    except RemoteError as exc:
        return None, str(exc)[:120]
    return record_viewer(text, f"match {match['match_id']}")


def serve(db_path: Path, game: str, port: int, rule_set: str) -> None:
    """Serve the live page of one rule set until Ctrl-C."""
    with open_store(db_path, create=False):
        pass  # the same clear error as the other read-only commands for a store that is not there
    try:
        server = LiveServer(db_path, game, port, rule_set=rule_set)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on port {port}: {exc.strerror or exc}") from None
    click.echo(f"live page: {server.url}  (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping.set()
        server.server_close()
