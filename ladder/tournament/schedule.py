"""Who meets whom in a fixed-schedule tournament: round robin, gauntlet, Swiss.

Pure functions of bot ids (in the roster's order, the seeding), no store,
no randomness: the same roster gives the same schedule, which is what makes
a schedule something to publish and commit to (ladder.tournament.commitment).

- **Round robin**, as cutechess-cli's: every pair meets once per cycle; for
  two seats, in rounds by the circle method (each bot plays once a round,
  one sits out when the roster is odd). For tables of more seats
  (Gnadenlos! 3-4, Saboteur 3-10) every combination of the table's size
  meets once, up to `MAX_COMBINATIONS` tables; beyond that a greedy
  balanced design of `balanced_tables` tables (each next table is the
  combination whose bots have played least, then whose pairs have met
  least, first in the roster's order), so every bot plays as often as any
  other, to within one table, and the pairs meet as evenly as the greedy
  rule manages. The schedule says which design it is.
- **Gauntlet**: the champion meets every other bot (with more seats: every
  combination of the others, one seat short, or the balanced design of
  them), as cutechess-cli's gauntlet.
- **Swiss**: each round pairs by the standings so far (`swiss_round`), so
  its rounds are committed one at a time, each before it is played.

Every table is played as a duplicate set (one deal, every cyclic seat
rotation: ladder.scheduling.matchmaking.rotations), as the ladder's are.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence

FORMATS = ("round-robin", "gauntlet", "swiss")
MAX_COMBINATIONS = 56
"""Tables of every combination up to this many (8 bots at tables of 3 or 5);
beyond it, a balanced design (`balanced_tables`)."""
ALL_COMBINATIONS = "all combinations"
BALANCED = "balanced design"
SWISS_RULE = ("swiss-v1: order by points (then Buchholz, then seeding); the best bot not yet at a table takes "
              "the next bots in that order that it has met least often, to the table's size; when the roster "
              "does not fill the last table, the lowest-ranked bots with the fewest byes sit out, scoring half "
              "a point a match of the round")
"""The Swiss pairing rule, as committed to in the schedule (ladder.tournament.commitment)."""

Table = tuple[int, ...]
Round = tuple[Table, ...]


class ScheduleError(ValueError):
    """The roster or format cannot make a schedule (too few bots, no champion)."""


def circle_rounds(bots: Sequence[int]) -> list[Round]:
    """A two-seat round robin in rounds by the circle method: n - 1 rounds
    (n when odd, one bot sitting out each), every pair once."""
    ring: list[int | None] = list(bots) + ([None] if len(bots) % 2 else [])
    rounds: list[Round] = []
    for _ in range(len(ring) - 1):
        half = len(ring) // 2
        pairs = [(ring[i], ring[-1 - i]) for i in range(half)]
        rounds.append(tuple((a, b) for a, b in pairs if a is not None and b is not None))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def balanced_tables(bots: Sequence[int], size: int, count: int) -> list[Table]:
    """`count` tables of `size` from `bots` by the greedy rule of the module doc."""
    plays: Counter[int] = Counter()
    met: Counter[tuple[int, int]] = Counter()
    chosen: list[Table] = []
    candidates = list(itertools.combinations(bots, size))
    for _ in range(count):
        table = min(candidates, key=lambda t: (sum(plays[b] for b in t),
                                               sum(met[p] for p in itertools.combinations(t, 2))))
        chosen.append(table)
        plays.update(table)
        met.update(itertools.combinations(table, 2))
    return chosen


def design_size(bots: int, size: int) -> int:
    """Tables of a balanced design: enough for every pair to meet twice on
    average, and a whole number of tables per bot."""
    pairs_per_table = size * (size - 1) // 2
    tables = math.ceil(2 * bots * (bots - 1) / 2 / pairs_per_table)
    per_bot = math.ceil(tables * size / bots)
    return math.ceil(per_bot * bots / size)


def combinations(bots: Sequence[int], size: int, fixed: Sequence[int] = ()) -> tuple[list[Table], str]:
    """Every table of `size` of `fixed` plus others of `bots`, or a balanced
    design of them when there are more than MAX_COMBINATIONS; and which."""
    free = size - len(fixed)
    count = math.comb(len(bots), free)
    if count <= MAX_COMBINATIONS:
        return [tuple(fixed) + t for t in itertools.combinations(bots, free)], ALL_COMBINATIONS
    return [tuple(fixed) + t for t in balanced_tables(bots, free, design_size(len(bots), free))], BALANCED


def check_roster(bots: Sequence[int], size: int, fmt: str, champion: int | None) -> None:
    """Raises ScheduleError for a roster that cannot play `fmt` at tables of `size`."""
    if fmt not in FORMATS:
        raise ScheduleError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
    if len(set(bots)) != len(bots):
        raise ScheduleError("a bot is named twice")
    if len(bots) < size:
        raise ScheduleError(f"tables of {size} seats need {size} different bots; the roster has {len(bots)}")
    if fmt == "gauntlet" and champion is None:
        raise ScheduleError("a gauntlet needs a champion: name it with --champion NAME")
    if fmt != "gauntlet" and champion is not None:
        raise ScheduleError("--champion belongs to a gauntlet")
    if champion is not None and champion not in bots:
        raise ScheduleError("the champion must be one of the tournament's bots")


def fixed_rounds(bots: Sequence[int], size: int, fmt: str, champion: int | None = None) -> tuple[list[Round], str]:
    """The rounds of a round robin or gauntlet (one cycle), and the design
    used ("all combinations" or "balanced design"). Raises ScheduleError."""
    check_roster(bots, size, fmt, champion)
    if fmt == "round-robin":
        if size == 2:
            return circle_rounds(bots), ALL_COMBINATIONS
        tables, design = combinations(bots, size)
        return [tuple(tables)], design
    if fmt == "gauntlet":
        assert champion is not None
        others = [b for b in bots if b != champion]
        tables, design = combinations(others, size, fixed=(champion,))
        return [(t,) for t in tables], design
    raise ScheduleError("a Swiss tournament is paired round by round (swiss_round)")


def swiss_rounds(bots: int, size: int) -> int:
    """The default number of Swiss rounds: enough for a clear winner of a
    two-seat event, ceil(log2 n); at tables of k seats, ceil(log_k n)."""
    return max(1, math.ceil(math.log(bots) / math.log(size) - 1e-9))


def swiss_round(ranked: Sequence[int], met: Mapping[tuple[int, int], int], byes: Mapping[int, int],
                size: int) -> tuple[Round, tuple[int, ...]]:
    """One Swiss round by SWISS_RULE: `ranked` is the standings so far, best
    first; `met[(a, b)]` (a < b) how often a and b shared a table; `byes`
    how often each sat out. Returns the tables and who sits out."""
    sit_out = len(ranked) % size
    out: tuple[int, ...] = ()
    if sit_out:
        # the lowest-ranked with fewest byes: by byes, then from the bottom of the standings
        bottom = sorted(reversed(ranked), key=lambda b: byes.get(b, 0))
        out = tuple(sorted(bottom[:sit_out], key=ranked.index))
    left = [b for b in ranked if b not in out]
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            pick = min(left, key=lambda b: (sum(met.get((min(a, b), max(a, b)), 0) for a in table), left.index(b)))
            left.remove(pick)
            table.append(pick)
        tables.append(tuple(table))
    return tuple(tables), out
