"""Strikes by reason, read from a match record's footer.

The referee writes every strike into the record (docs/records.md: the
footer's `strikes`, one list per seat of {reason, detail, decision}); the
ladder keeps their count per reason per seat (`match_seats.strike_reasons`)
so the standings can show why a bot was struck without reading records.
Reasons are the referee's stable codes: timeout, illegal, malformed and
crashed.
"""

from __future__ import annotations

import json
from collections import Counter

STRIKE_REASONS = ("timeout", "illegal", "malformed", "crashed")
"""The reasons the standings show, in this order."""


def strike_reasons(record: bytes | str | None, seats: int) -> list[dict[str, int]]:
    """Per seat, the count of each strike reason in `record` (empty counts
    when there is no record or its last line is not a footer)."""
    empty: list[dict[str, int]] = [{} for _ in range(seats)]
    if not record:
        return empty
    text = record.decode("utf-8", errors="replace") if isinstance(record, bytes) else record
    lines = text.rstrip("\n").rsplit("\n", 1)
    try:
        footer = json.loads(lines[-1])
    except ValueError:
        return empty
    per_seat = footer.get("strikes") if isinstance(footer, dict) and footer.get("type") == "footer" else None
    if not isinstance(per_seat, list) or len(per_seat) != seats:
        return empty
    return [dict(Counter(str(s.get("reason")) for s in seat if isinstance(s, dict)))
            if isinstance(seat, list) else {} for seat in per_seat]
