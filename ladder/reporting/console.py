"""The console the ladder's tables are printed on: as wide as the output.

A terminal is as wide as it is; a file or a pipe (a CI job's log, `| tee`)
as wide as $COLUMNS says, else PIPE_WIDTH, so that a log's standings table
is not squeezed into rich's 80 columns. The ladder service prints
`referee table --server`'s tables at the width the client asks, else this.
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

PIPE_WIDTH = 150
"""Columns of a table printed to a file or a pipe when $COLUMNS does not say."""


def make_console() -> Console:
    """A console as wide as the terminal; for output to a file or pipe as
    wide as $COLUMNS says, else PIPE_WIDTH, so that a log's standings
    table is not squeezed into rich's 80 columns."""
    if sys.stdout.isatty():
        return Console()
    columns = os.environ.get("COLUMNS", "")
    return Console(width=int(columns) if columns.isdigit() and int(columns) > 0 else PIPE_WIDTH)
