"""--server: the commands that read or submit talk to a ladder service
(`referee serve`) instead of a local store, through its client
(ladder/service/client.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ladder.service.client import Remote, RemoteError

INSECURE_PLAINTEXT = "insecure_plaintext"
"""Where --insecure-plaintext is kept (the click context's meta), for `remote`."""


def remote_options(command: Callable[..., None]) -> Callable[..., None]:
    """--server, --token, --tls-ca and --insecure-plaintext: talk to a ladder service instead of a local store."""
    for option in reversed([
        click.option("--server", default=None, metavar="HOST:PORT|unix:PATH",
                     help="Ask this ladder service (`referee serve`) instead of a local store."),
        click.option("--token", envvar="REFEREE_TOKEN", default=None,
                     help="Your submitter token for --server (or $REFEREE_TOKEN), from the ladder's operator."),
        click.option("--tls-ca", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="With --server: check the service's TLS certificate against this CA (PEM) instead of the "
                          "system's trust store. TLS is used for every address but 127.0.0.1 and unix:PATH."),
        click.option("--insecure-plaintext", is_flag=True, expose_value=False,
                     callback=lambda ctx, param, value: ctx.meta.__setitem__(INSECURE_PLAINTEXT, value),
                     help="With --server on another machine: talk without TLS, which anyone on the way can read "
                          "and change; your token is then not sent (you can read, not submit)."),
    ]):
        command = option(command)
    return command


@contextmanager
def remote(server: str, token: str | None, tls_ca: Path | None) -> Iterator[Remote]:
    """The ladder service at `server` (over TLS unless it is local or the
    command was given --insecure-plaintext); its failures are one error line."""
    context = click.get_current_context(silent=True)
    insecure = bool(context is not None and context.meta.get(INSECURE_PLAINTEXT))
    try:
        with Remote(server, token=token, tls_ca=tls_ca, insecure_plaintext=insecure) as service:
            if service.withheld:
                click.echo(f"warning: {server} is reached without TLS (--insecure-plaintext): your token is not sent",
                           err=True)
            yield service
    except RemoteError as exc:
        raise click.ClickException(str(exc)) from None

