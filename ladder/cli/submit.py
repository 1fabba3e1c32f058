"""`referee submit` and `referee retire`: a bot comes into the ladder, and leaves it.

Each works on a local store (`submit` makes it if it is missing) or, with
--server, on a ladder service; every expected failure is one error line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from ladder.cli.options import DEFAULT_MOVE_TIME, db_option, open_store, submission_limit_options, variant_tags
from ladder.cli.remote import remote, remote_options
from ladder.intake.copying import MIB, Limits
from ladder.intake.submission import SubmissionError, refusal
from ladder.intake.submission import submit as do_submit
from ladder.store.database import BotRow, Store
from referee.cli.variants import variant_option
from referee.durations import DURATION, format_duration
from referee.untrusted import safe_line


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--name", default=None, help="The bot's ladder name (required unless bot.toml names it).")
@click.option("--version", "version", default=None, help="The version label (default: bot.toml's, else v1, v2, ...).")
@click.option("--startup-timeout", type=DURATION, default="10s", show_default=True,
              help="Time the bot gets to start and answer the handshake (10s, 500ms).")
@click.option("--move-time", type=DURATION, default=format_duration(DEFAULT_MOVE_TIME), show_default=True,
              help="Time per decision in the validation match (2s, 250ms).")
@click.option("--game", "games", multiple=True,
              help="A game to validate and register the bot for (repeatable; default: the games its bot.toml "
                   "lists, or for a file every game its handshake names).")
@variant_option("A variant to validate and register the bot for, NAME=VALUE (repeatable; default: its bot.toml's "
                "variants, else every variant its handshake declares); its handshake must declare it.")
@submission_limit_options
@db_option
@remote_options
def submit(path: Path, name: str | None, version: str | None, startup_timeout: float, move_time: float,
           games: tuple[str, ...], variants: tuple[str, ...], max_mib: int, max_files: int, max_depth: int,
           db_path: Path | None, server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """Check a bot (file or folder with bot.toml) and register it (with --server: the service's limits apply)."""
    limits = Limits(max_bytes=max_mib * MIB, max_files=max_files, max_depth=max_depth)
    tags = variant_tags(variants, games)
    if server is not None:
        with remote(server, token, tls_ca) as service:
            done = service.submit(path, name=name, version=version, games=games, startup_timeout=startup_timeout,
                                  move_time=move_time, variants=tags)
            versions = [b for b in service.bots() if b.name == done.name] if done.new else []
    else:
        with open_store(db_path) as store:
            try:
                done = do_submit(store, path, name=name, version=version, games=games, variants=tags,
                                 startup_timeout=startup_timeout, move_time=move_time, limits=limits)
            except SubmissionError as exc:  # it may quote the submission (file names, bot.toml, the bot's words)
                raise click.ClickException(refusal(exc, exc.log)) from None
            versions = store.bot_versions(done.name)
    plays = ", ".join(done.games) + (f" with variants {', '.join(done.variants)}" if done.variants else "")
    if done.new:
        twins = f"; identical to {', '.join(done.twins)}, rated as a bot of its own" if done.twins else ""
        click.echo(f"registered {done.name} version {done.version} for {plays} "
                   f"(sha256 {done.content_hash[:12]}){twins}{fresh_rating(done.name, done.version, versions)}")
    else:
        click.echo(f"{done.name} version {done.version} is already registered with identical content "
                   f"(for {plays}); nothing to do")


@click.command()
@click.argument("name")
@db_option
@remote_options
def retire(name: str, db_path: Path | None, server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """Take a bot out of the ladder: its active version plays no more matches (its rating and history stay)."""
    if server is not None:
        with remote(server, token, tls_ca) as service:
            retired_name, retired_version = service.retire(name)
        label = f"{retired_name}@{retired_version}"
    else:
        with open_store(db_path, create=False) as store:
            label = retire_local(store, name)
    click.echo(f"retired {safe_line(label)}: it plays no more matches (a ladder drops those planned with it); its "
               f"rating and history stay (`referee table --all`); a new version (`referee submit`) brings "
               f"{safe_line(name)} back")


def retire_local(store: Store, name: str) -> str:
    """Retire the active version of `name` in `store`; its label. A built-in
    bot is not retired (the next `referee ladder` would register it again:
    `--no-builtins` keeps them out). Raises click.ClickException."""
    if store.read_only is not None:
        raise click.ClickException(store.refusal())
    active = [b for b in store.bot_versions(name) if b.active]
    if active and active[-1].kind == "builtin":
        raise click.ClickException(f"{name} is a built-in bot, registered again by every `referee ladder`: "
                                   "`referee ladder --no-builtins` leaves the built-ins out of a run")
    retired = store.retire(name)
    if retired is None:
        known = ", ".join(b.name for b in store.bots(active_only=True)) or "none"
        raise click.ClickException(f"no active bot named {safe_line(name)!r} in {store.path}; the active bots: "
                                   f"{safe_line(known)}")
    return retired.label


def fresh_rating(name: str, version: str, versions: Sequence[BotRow]) -> str:
    """What a newly registered version means for its rating, when `name`
    had versions before: it starts afresh, the older ones keep theirs."""
    earlier = [b.label for b in versions if b.version != version]
    if not earlier:
        return ""
    return (f"; a new version of {name}: it starts with a fresh rating (each version is rated apart), "
            f"{earlier[-1]} keeps its own (`referee table --all` shows it)")
