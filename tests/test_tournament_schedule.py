"""Fixed schedules (ladder/tournament/schedule.py): who meets whom, by format and table size."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from ladder.tournament.schedule import (
    ALL_COMBINATIONS,
    BALANCED,
    MAX_COMBINATIONS,
    ScheduleError,
    check_roster,
    fixed_rounds,
    swiss_round,
)

BOTS = [11, 12, 13, 14, 15]


def test_a_two_seat_round_robin_meets_every_pair_once_in_rounds_where_each_bot_plays_once() -> None:
    rounds, design = fixed_rounds(BOTS, 2, "round-robin")
    pairs = [frozenset(t) for r in rounds for t in r]
    assert design == ALL_COMBINATIONS and len(rounds) == 5  # odd roster: one sits out each round
    assert Counter(pairs) == Counter(frozenset(p) for p in itertools.combinations(BOTS, 2))
    for round_ in rounds:
        seated = [b for t in round_ for b in t]
        assert len(seated) == len(set(seated)) == 4


def test_tables_of_more_seats_are_every_combination_while_there_are_few() -> None:
    rounds, design = fixed_rounds(BOTS, 3, "round-robin")
    assert design == ALL_COMBINATIONS
    assert sorted(tuple(sorted(t)) for r in rounds for t in r) == list(itertools.combinations(BOTS, 3))


def test_many_combinations_give_a_balanced_design_each_bot_at_as_many_tables() -> None:
    roster = list(range(1, 11))  # Saboteur-sized: C(10, 4) = 210 tables would be too many
    rounds, design = fixed_rounds(roster, 4, "round-robin")
    tables = [t for r in rounds for t in r]
    plays = Counter(b for t in tables for b in t)
    met = Counter(frozenset(p) for t in tables for p in itertools.combinations(t, 2))
    assert design == BALANCED and len(tables) <= MAX_COMBINATIONS
    assert set(plays) == set(roster) and max(plays.values()) - min(plays.values()) <= 1
    assert len(met) == 45, "every pair meets at least once"


def test_a_gauntlet_seats_the_champion_at_every_table_against_each_other_bot() -> None:
    rounds, _ = fixed_rounds(BOTS, 2, "gauntlet", champion=13)
    tables = [t for r in rounds for t in r]
    assert all(t[0] == 13 for t in tables) and sorted(t[1] for t in tables) == [11, 12, 14, 15]


@pytest.mark.parametrize(("bots", "size", "fmt", "champion", "says"), [
    ([1, 2], 3, "round-robin", None, "need 3 different bots"),
    ([1, 2, 3], 2, "gauntlet", None, "needs a champion"),
    ([1, 2, 3], 2, "knockout", None, "unknown format"),
    ([1, 2, 2], 2, "round-robin", None, "named twice"),
])
def test_a_roster_that_cannot_play_the_format_is_refused(bots: list[int], size: int, fmt: str,
                                                         champion: int | None, says: str) -> None:
    with pytest.raises(ScheduleError, match=says):
        check_roster(bots, size, fmt, champion)


def test_swiss_pairs_by_standings_avoids_a_rematch_and_sits_out_the_lowest() -> None:
    ranked = [11, 12, 13, 14, 15]
    tables, out = swiss_round(ranked, met={(11, 12): 1}, byes={}, size=2)
    assert out == (15,)
    assert tables == ((11, 13), (12, 14))  # 11 met 12 already
    tables, out = swiss_round(ranked, met={}, byes={15: 1}, size=2)
    assert out == (14,), "a bot sits out once before another sits out twice"
