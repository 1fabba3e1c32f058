"""A match record named on the command line (`replay`, `view`, `verify`)."""

from __future__ import annotations

from pathlib import Path

import click

from referee.records import MatchRecord, RecordError, read_record
from referee.untrusted import safe_line


def load_record(path: Path, seat: int | None = None) -> MatchRecord:
    """The record at `path`, and `seat` checked against its seats: a usage
    error (exit 2) naming what is wrong otherwise. A record's error may quote
    the record, which quotes bots: it is shown escaped."""
    try:
        record = read_record(path)
    except RecordError as exc:
        raise click.UsageError(safe_line(exc)) from None
    if seat is not None and not 0 <= seat < record.num_seats:
        raise click.UsageError(f"--seat must be 0..{record.num_seats - 1}: the match had {record.num_seats} seats")
    return record
