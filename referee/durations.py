"""Times on the command line, written one way in every command.

`--move-time 250ms`, `--startup-timeout 2s`, `--time-bank 1m` or a plain
number of seconds (`0.5`, so older scripts keep working): `referee play`,
`submit`, `ladder` and the built-in bots' `mcts:250ms` setting all read
their times with `parse_duration`, and options with `DURATION`, so a time
is never milliseconds in one place and seconds in another. A dozen lines
of regular expression: the libraries made for this (pytimeparse,
humanfriendly) parse far more than a time per decision needs and would be
one more dependency to keep.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import click

_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m)?\s*$")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}

EXAMPLES = "e.g. 2s, 250ms, 1m or 0.5 (seconds)"
"""How a time is written, quoted in every refusal."""


def parse_duration(text: str) -> float:
    """Seconds from "2s", "250ms", "1m" or a plain number of seconds ("0.5").

    Raises ValueError naming the text and how to write a time.
    """
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a time; write it like {EXAMPLES}")
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    if not math.isfinite(seconds):
        raise ValueError(f"{text!r} is too long a time; write it like {EXAMPLES}")
    return seconds


if TYPE_CHECKING:  # click's ParamType is generic to a type checker (its value, its input); at run time the plain class, on every release
    _TimeType = click.ParamType[float, object]
else:
    _TimeType = click.ParamType


class Duration(_TimeType):
    """A click option type for times: the value arrives as seconds (float).

    `minimum` is the least allowed value in seconds; `positive` refuses 0
    (a time per decision or a start-up timeout of nothing is a mistake,
    an empty time bank is not)."""

    name = "time"

    def __init__(self, *, positive: bool = True, minimum: float = 0.0) -> None:
        self.positive = positive
        self.minimum = minimum

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            seconds = float(value)  # a default given as a number
        else:
            try:
                seconds = parse_duration(str(value))
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        if self.positive and seconds <= 0:
            self.fail(f"{value!r} is no time at all; give more than 0, {EXAMPLES}", param, ctx)
        if seconds < self.minimum:
            self.fail(f"{value!r} is less than the least allowed, {format_duration(self.minimum)}", param, ctx)
        return seconds


DURATION = Duration()
"""A time of more than zero."""

DURATION_OR_ZERO = Duration(positive=False)
"""A time of zero or more (a time bank)."""


def format_duration(seconds: float) -> str:
    """A time as a person writes it: "250ms", "2s", "1.5s" (parse_duration reads it back)."""
    if seconds < 1:
        return f"{seconds * 1000:g}ms"
    return f"{seconds:g}s"
