"""Match records: one JSON object per line, written as the match happens.

The format is documented in docs/records.md. A record holds a header (game,
rules version, variant, seed, seats with bot name and version, time control
with its grace allowance, protocol version), the setup events (the deal, every
shuffle's result, the start player: G-2), one line per decision with the
events it caused and who saw each, a line per forfeit, and a footer (ranking,
end reason, forfeits, strikes). Every chance outcome is in the events, so an
independent implementation of the rules can check a match without our random
generator, and `referee replay` re-runs it from the seed and the decisions.

Each line is flushed as soon as it is written, so a killed referee loses at
most the line it was writing; `read_record` accepts such a torn last line and
reports the record as unfinished. The file is private (0600) from its first
byte: it holds the seed and every hand, and bots may share the machine.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from referee.files import create_private
from referee.games.base import Event

RECORD_FORMAT = "referee-match-record"
RECORD_VERSION = 1
"""Bumped when a line changes shape; readers reject versions they do not know."""

HEADER, SETUP, DECISION, FORFEIT, FOOTER = "header", "setup", "decision", "forfeit", "footer"
LINE_TYPES = (HEADER, SETUP, DECISION, FORFEIT, FOOTER)

Entry = dict[str, Any]


class RecordError(ValueError):
    """A file is not a match record this version can read."""


class RecordWriter:
    """Appends record lines to a file (if any) and hands each to a listener.

    Lines are compact JSON; each is flushed at once (no fsync: a killed
    process loses at most the current line, a power cut may lose more). The
    file is always a new one, mode 0600 (`referee.files.create_private`):
    an existing file of that name is replaced, not written into.
    """

    def __init__(self, path: Path | None, listener: Callable[[Entry], None] | None = None) -> None:
        self.path = path
        self._listener = listener
        self._file: IO[str] | None = None
        if path is not None:
            self._file = os.fdopen(create_private(path), "w", encoding="utf-8")

    def write(self, *entries: Entry) -> None:
        """Append `entries` in one write and flush: a Ctrl-C (which Python
        raises between two statements) never separates them, so lines that
        belong together (the header and the setup) arrive together."""
        if self._file is not None:
            self._file.write("".join(json.dumps(entry, separators=(",", ":")) + "\n" for entry in entries))
            self._file.flush()
        if self._listener is not None:
            for entry in entries:
                self._listener(entry)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "RecordWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class MatchRecord:
    """A record as read back: its lines grouped by type, in file order."""

    header: Entry
    setup: Entry
    decisions: list[Entry] = field(default_factory=list)
    forfeits: list[Entry] = field(default_factory=list)
    footer: Entry | None = None
    torn_line: bool = False
    """The last line was cut off (the writer was killed while writing it)."""

    @property
    def finished(self) -> bool:
        return self.footer is not None

    @property
    def num_seats(self) -> int:
        return len(self.header["seats"])

    def seat_names(self) -> list[str]:
        return [seat["name"] for seat in self.header["seats"]]


def read_record(path: Path) -> MatchRecord:
    """Read a record file. Raises RecordError if it is not one (or is of an
    unknown version); a torn last line is tolerated and flagged."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_record(text.splitlines(), source=str(path))


def parse_record(lines: list[str], source: str = "record") -> MatchRecord:
    """Group the lines of a record. Raises RecordError."""
    entries: list[Entry] = []
    torn = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                torn = True
                break
            raise RecordError(f"{source}:{number}: not a JSON line") from None
        if not isinstance(entry, dict) or entry.get("type") not in LINE_TYPES:
            raise RecordError(f"{source}:{number}: not a record line (type must be one of {LINE_TYPES})")
        entries.append(entry)
    if len(entries) < 2 or entries[0]["type"] != HEADER or entries[1]["type"] != SETUP:
        raise RecordError(f"{source}: a record starts with a header line and a setup line")
    header = entries[0]
    if header.get("format") != RECORD_FORMAT or header.get("version") != RECORD_VERSION:
        raise RecordError(
            f"{source}: format {header.get('format')!r} version {header.get('version')!r}; "
            f"this referee reads {RECORD_FORMAT!r} version {RECORD_VERSION}"
        )
    record = MatchRecord(header=header, setup=entries[1], torn_line=torn)
    for entry in entries[2:]:
        kind = entry["type"]
        if kind == DECISION:
            record.decisions.append(entry)
        elif kind == FORFEIT:
            record.forfeits.append(entry)
        elif kind == FOOTER:
            record.footer = entry
        else:
            raise RecordError(f"{source}: a second {kind} line")
    return record


def offered(actions: Sequence[Any]) -> Entry:
    """What a decision line says a seat was offered: `legal_count`, the number
    of legal actions, and `legal_digest`, the SHA-256 (hex) of their set.

    The digest is over the actions' canonical JSON texts (keys sorted, no
    spaces), sorted and joined with newlines: a set, so any program that
    lists the legal actions, in any order, can recompute it
    (docs/records.md, `decision`)."""
    texts = sorted([canonical_text(action) for action in actions])
    return {"legal_count": len(texts), "legal_digest": hashlib.sha256("\n".join(texts).encode()).hexdigest()}


def canonical_text(action: Any) -> str:
    """An action's canonical JSON text (keys sorted, no spaces).

    Cached: the same few hundred actions recur all match long, and their
    JSON was a tenth of the referee's CPU per decision (bench/throughput_bench.py).
    An action that cannot be hashed is encoded each time."""
    try:
        return _cached_canonical_text(action)
    except TypeError:  # unhashable
        return _canonical_text(action)


def _canonical_text(action: Any) -> str:
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


_cached_canonical_text = functools.lru_cache(maxsize=1 << 16, typed=True)(_canonical_text)


def events_json(events: Iterable[Event]) -> list[Entry]:
    """Events as record JSON (kind, data, visible_to), normalised through a
    JSON round trip so tuples and lists compare equal."""
    normalised: list[Entry] = json.loads(json.dumps([event.to_json() for event in events]))
    return normalised


def forfeits_by_seat(entries: list[Entry]) -> Mapping[int, Entry]:
    return {entry["seat"]: entry for entry in entries}
