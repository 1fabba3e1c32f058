"""Matchmaking: which bots meet next, in which seats, on which deal.

A table is chosen to teach the ratings the most: each candidate table is
scored by how uncertain its bots still are (mean sigma relative to the
initial sigma), how few matches they have played and how long ago (so a new
or neglected bot is pulled in), times TrueSkill's match quality (an even
table says more about the order of its bots than a lopsided one).

Seats: with duplicate deals a table of N bots plays one deal (seed) N times,
once per cyclic seat rotation, so every bot holds every seat once and the
luck of the cards cancels out; without duplicates the one match gets the
seating that evens out each bot's seat counts. Over many matches every bot
plays every seat position about equally either way.
"""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import trueskill

from ladder.rating.ratings import match_quality
from ladder.store.skill import Skill

MAX_CANDIDATES = 2000
"""Tables scored per decision; larger rosters are sampled (the score is a
heuristic, so a good sample finds a near-best table)."""

JITTER = 0.05
"""Random noise added to each score, so equal tables take turns."""

SEED_BITS = 62
"""Seeds fit SQLite's signed 64-bit integers."""


@dataclass(frozen=True)
class BotStats:
    """What matchmaking knows about a bot besides its rating."""

    matches: int = 0
    last_seq: int = 0
    """The `seq` of its latest match (0 if none): staleness is measured in
    matches played since."""
    seat_counts: Mapping[tuple[int, int], int] | None = None
    """(table size, seat) -> matches played there."""


@dataclass(frozen=True)
class Table:
    """One planned duplicate set (or a single match): `rotations[r][s]` is
    the bot id in seat s of the r-th match; all share `seed`."""

    set_id: str
    seed: int
    rotations: tuple[tuple[int, ...], ...]


def table_score(
    env: trueskill.TrueSkill, bots: Sequence[int], skills: Mapping[int, Skill],
    stats: Mapping[int, BotStats], latest_seq: int,
) -> float:
    """How much a match between `bots` would teach the ratings."""
    chosen = [skills[b] for b in bots]
    uncertainty = sum(s.sigma for s in chosen) / (len(chosen) * env.sigma)
    novelty = sum(1 / (1 + stats.get(b, BotStats()).matches) for b in bots) / len(bots)
    staleness = sum(
        min(1.0, (latest_seq - stats.get(b, BotStats()).last_seq) / 50) for b in bots
    ) / len(bots)
    return float(match_quality(env, chosen) * (uncertainty + novelty + 0.5 * staleness))  # trueskill is untyped


def choose_bots(
    env: trueskill.TrueSkill, roster: Sequence[int], size: int, skills: Mapping[int, Skill],
    stats: Mapping[int, BotStats], latest_seq: int, rng: random.Random,
    focus: Collection[tuple[int, int]] = (), required: Collection[int] = (),
) -> tuple[int, ...]:
    """The `size` bots (sorted ids) whose match teaches the ratings most.

    With `focus` pairs (the unsettled adjacent pairs of --until-stable) the
    table seats as many of them together as it can, so every set adds
    evidence where it is missing; `required` bots sit at every table (the
    two bots of --versus). Raises ValueError when the roster has fewer than
    `size` bots."""
    if len(roster) < size:
        raise ValueError(f"a {size}-player table needs {size} bots; the roster has {len(roster)}")
    fixed = tuple(sorted(set(required)))
    rest = sorted(set(roster) - set(fixed))
    candidates = [tuple(sorted(fixed + c)) for c in itertools.combinations(rest, size - len(fixed))]
    if len(candidates) > MAX_CANDIDATES:
        candidates = rng.sample(candidates, MAX_CANDIDATES)

    def focused(table: tuple[int, ...]) -> int:
        return sum(a in table and b in table for a, b in focus)

    return max(
        candidates,
        key=lambda c: (focused(c), table_score(env, c, skills, stats, latest_seq) + rng.uniform(0, JITTER)),
    )


def balanced_seating(bots: Sequence[int], stats: Mapping[int, BotStats]) -> tuple[int, ...]:
    """The seating of `bots` whose bots have sat least often in their seats.

    An assignment problem solved exactly over subsets of seats (n * 2^n
    steps: 10 240 at 10 seats, where trying all 10! seatings takes most of
    a minute); among equally loaded seatings the one closest to the order
    of `bots` wins, so a shuffled `bots` varies who sits next to whom."""
    size = len(bots)

    def load(bot: int, seat: int) -> int:
        return (stats.get(bot, BotStats()).seat_counts or {}).get((size, seat), 0)

    # best[mask]: the least (load, seats) placing the first popcount(mask)
    # bots, in order, in the seats of mask; every mask | seat > mask, so
    # counting up visits each mask after all the masks it grows from.
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for mask in range(1 << size):
        if mask not in best or len(best[mask][1]) == size:
            continue
        total, seats = best[mask]
        bot = bots[len(seats)]
        for seat in range(size):
            if mask >> seat & 1:
                continue
            option = (total + load(bot, seat), (*seats, seat))
            grown = mask | 1 << seat
            if grown not in best or option < best[grown]:
                best[grown] = option
    _, seats = best[(1 << size) - 1]
    seating = [0] * size
    for bot, seat in zip(bots, seats):
        seating[seat] = bot
    return tuple(seating)


def rotations(seating: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Every cyclic seat rotation of `seating`: in rotation r, seat s is
    played by seating[(s + r) % n], so each bot sits in each seat once."""
    n = len(seating)
    return tuple(tuple(seating[(s + r) % n] for s in range(n)) for r in range(n))


def plan_table(
    env: trueskill.TrueSkill, roster: Sequence[int], size: int, skills: Mapping[int, Skill],
    stats: Mapping[int, BotStats], latest_seq: int, rng: random.Random, *, duplicate: bool,
    focus: Collection[tuple[int, int]] = (), required: Collection[int] = (),
) -> Table:
    """Choose the next table (see `choose_bots`): its bots, seating, deal
    and (for a duplicate set) all its seat rotations."""
    bots = choose_bots(env, roster, size, skills, stats, latest_seq, rng, focus, required)
    seating = balanced_seating(rng.sample(bots, len(bots)), stats)
    seats = rotations(seating) if duplicate else (seating,)
    set_id = uuid.UUID(int=rng.getrandbits(128)).hex[:12]
    return Table(set_id, rng.getrandbits(SEED_BITS), seats)


def next_table_size(sizes: Sequence[int], played: Mapping[int, int]) -> int:
    """The table size of `sizes` played least so far (so 3- and 4-player
    tables alternate under `--players 3-4`); the smaller one breaks ties."""
    return min(sizes, key=lambda n: (played.get(n, 0), n))
