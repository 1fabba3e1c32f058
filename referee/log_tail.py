"""The last lines of a bot's log: its author's first clue when it fails.

`referee play` shows them (and puts them into its `--json` result) for
every seat that forfeits, `referee submit` for a bot it refuses. A log may
hold megabytes (the cap is per bot), so only its end is read. Every line
is the bot's own words: escaped and cut (referee.untrusted).
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.untrusted import safe_line

TAIL_LINES = 10
"""Lines shown of a failing bot's log."""

TAIL_BYTES = 64 * 1024
"""The most read from the end of a log to find its last lines."""


def last_lines(path: Path, count: int = TAIL_LINES) -> list[str]:
    """The last `count` lines of the file at `path`, each made safe to show
    (escaped, cut to one line); empty if the file is missing or empty."""
    try:
        with open(path, "rb") as log:
            size = log.seek(0, os.SEEK_END)
            log.seek(max(0, size - TAIL_BYTES))
            data = log.read(TAIL_BYTES)
    except OSError:
        return []
    lines = data.decode(errors="replace").splitlines()
    if size > TAIL_BYTES and lines:
        lines = lines[1:]  # the first is cut somewhere in its middle
    return [safe_line(line) for line in lines[-count:]]
