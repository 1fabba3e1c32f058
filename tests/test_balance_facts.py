"""The figures of issue 20's balance study, measured by `referee simulate`:
the standings after Gnadenlos!'s first payday (G-8) against the final
ranking (G-9.4). Kendall's tau-b and the hole share on worked values; the
watch of real matches against an independent reading of the same moment;
the figures in `referee simulate --json`.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.games import load_game
from referee.games.gnadenlos.summary import FirstPaydayWatch, hole_finishes_last, kendall_tau_b, standings

GAME = load_game("gnadenlos")


def test_kendall_tau_b_on_worked_rankings() -> None:
    assert kendall_tau_b((0, 1, 2, 3), (0, 1, 2, 3)) == 1.0
    assert kendall_tau_b((0, 1, 2, 3), (3, 2, 1, 0)) == -1.0
    # one swapped pair of six: (5 - 1) / 6
    assert kendall_tau_b((0, 1, 2, 3), (1, 0, 2, 3)) == pytest.approx(4 / 6)
    # ties: scipy.stats.kendalltau([0, 0, 1, 2], [0, 1, 1, 2]) = 0.8 (tau-b)
    assert kendall_tau_b((0, 0, 1, 2), (0, 1, 1, 2)) == pytest.approx(0.8)
    assert kendall_tau_b((0, 0, 0), (0, 1, 2)) == 0.0  # no order to compare


def test_hole_share_counts_each_match_once_whatever_the_ties() -> None:
    assert hole_finishes_last((1, 3, 4), (0, 1, 2)) == 0.0
    assert hole_finishes_last((1, 3, 4), (2, 1, 0)) == 1.0
    assert hole_finishes_last((1, 1, 4, 2), (3, 0, 1, 2)) == 0.5  # two tied on the fewest, one last
    assert hole_finishes_last((2, 3, 4), (0, 2, 2)) == 0.0
    assert hole_finishes_last((3, 2, 4), (0, 2, 2)) == 1.0  # a shared last place is last


def test_standings_follow_g_9_4() -> None:
    # three vultures last whatever the field; then field, then nuggets
    assert standings((10, 12, 12, 20), (5, 3, 4, 9), (0, 1, 0, 3)) == (2, 1, 0, 3)
    assert standings((8, 8, 8), (2, 2, 1), (0, 0, 0)) == (0, 0, 2)


def _independent_reading(seed: int, players: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """Play a random match by hand; where its first payday's step stops at
    the decision right after the payday (nothing else happened in it after
    the payday), read the standings and hands from the state itself."""
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = {s: rng.choice(state.legal_actions(s)) for s in sorted(state.to_act())}
        events = state.apply(actions)
        kinds = [e.kind for e in events]
        if "payday" in kinds:
            after = kinds[kinds.index("payday"):]
            if set(after) - {"payday", "die_rolled", "iou_turned_up", "nuggets_paid", "vulture_taken", "hat_moved"}:
                return None  # the step went on past the payday (a refill...): not comparable here
            s: object = state
            after_payday = standings(s.fields, s.nuggets, s.vultures)  # type: ignore[attr-defined]
            hands = tuple(len(h) for h in s.adv_hands)  # type: ignore[attr-defined]
            while not state.is_terminal():
                state.apply({x: rng.choice(state.legal_actions(x)) for x in sorted(state.to_act())})
            return after_payday, hands, state.outcome().ranks
    return None


@pytest.mark.parametrize("players", [3, 4])
def test_the_watch_reads_the_moment_right_after_the_first_payday(players: int) -> None:
    compared = 0
    for seed in range(40):
        reading = _independent_reading(seed, players)
        if reading is None:
            continue
        after, hands, final = reading
        watch = FirstPaydayWatch()
        state, setup = GAME.new_state_with_events(players, seed)
        watch.step(state, setup)
        rng = random.Random(seed)
        while not state.is_terminal():
            events = state.apply({s: rng.choice(state.legal_actions(s)) for s in sorted(state.to_act())})
            watch.step(state, events)
        facts = watch.facts(state.outcome())
        assert watch.standings == after and watch.counts == hands
        assert facts["first_payday"] == 1.0
        assert facts["payday_tau"] == pytest.approx(kendall_tau_b(after, final))
        assert facts["hole_finishes_last"] == pytest.approx(hole_finishes_last(hands, final))
        compared += 1
    assert compared >= 10


def test_simulate_reports_the_hole_figures_with_intervals() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--players", "3", "--games", "30", "--seed", "5",
                                      "--policy", "heuristic", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert 0.0 <= report["hole_finishes_last_mean"] <= 1.0
    assert -1.0 <= report["payday_tau_mean"] <= 1.0
    assert report["hole_finishes_last_stderr"] > 0 and not math.isnan(report["payday_tau_stderr"])
    assert 0.0 < report["first_payday_mean"] <= 1.0
