"""`referee simulate --game saboteur` for every table size (issue 7).

The report's Saboteur figures (referee/games/saboteur/summary.py): how each round
ends (S-4.5 gold reached, S-6.1 cards exhausted), the share of rounds each
role's team wins (S-6.3, S-6.4; nobody with no saboteur in play, S-2.1), the
nuggets per seat (S-7.2, at most the 44 of the supply, S-1). The figures are
checked for consistency and against an independent count from the engine's
public events of the same matches. Random play almost never reaches the gold,
so a greedy digging policy shows the report with rounds the gold-diggers win.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.games import Event, State, load_game
from referee.games.base import derive_seed
from referee.games.saboteur.actions import Discard, PlacePath, Repair
from referee.games.saboteur.cards import KIND_INDEX, KINDS
from referee.simulation import simulate

ROUNDS = 3
NUGGET_VALUE = 44
"""S-1: 16 x 1 + 8 x 2 + 4 x 3."""
DECK = 67
"""S-1: 40 path and 27 action cards; a round has at most one turn per card (S-3.1, S-6.1)."""


def run_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["simulate", "--game", "saboteur", *args, "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


Decide = Callable[[State, int, random.Random], Any]


def random_decision(state: State, seat: int, rng: random.Random) -> Any:
    return rng.choice(state.legal_actions(seat))


def match_events(players: int, seed: int, decide: Decide = random_decision) -> list[Event]:
    """Every event of one match played as the simulator plays match `seed`
    (decisions from the documented stream), through the checked `apply`."""
    state, events = load_game("saboteur").new_state_with_events(players, seed)  # type: ignore[attr-defined]
    rng = random.Random(derive_seed(seed, "simulate-decisions"))
    while not state.is_terminal():
        events += state.apply({seat: decide(state, seat, rng) for seat in sorted(state.to_act())})
    return list(events)


def figures_from_events(events: list[Event]) -> dict[str, Any]:
    """The report's per-match figures, counted from the public round-end and match-end events."""
    ends = [e.data for e in events if e.kind == "round_ended"]
    (final,) = [e.data for e in events if e.kind == "match_ended"]
    teams = ["gold_diggers" if end["reached_by"] >= 0 else
             "saboteurs" if "saboteur" in end["roles"] else "nobody" for end in ends]
    return {
        "gold_reached": [1.0 if end["reached_by"] >= 0 else 0.0 for end in ends],
        "teams": teams,
        "nuggets": list(final["totals"]),
    }


def expected_report(players: int, seed: int, games: int, decide: Decide = random_decision) -> dict[str, Any]:
    matches = [figures_from_events(match_events(players, seed + i, decide)) for i in range(games)]
    return {
        "gold_reached_mean": [statistics.fmean(m["gold_reached"][r] for m in matches) for r in range(ROUNDS)],
        "nuggets_mean": [statistics.fmean(m["nuggets"][s] for m in matches) for s in range(players)],
        **{f"round_win_{team}_mean": statistics.fmean(m["teams"].count(team) / ROUNDS for m in matches)
           for team in ("gold_diggers", "saboteurs", "nobody")},
    }


def check_consistent(report: dict[str, Any], players: int) -> None:
    """The invariants every Saboteur report keeps."""
    assert report["game"] == "saboteur" and report["players"] == players
    assert report["end_reasons"] == {"rounds_played": 1.0}  # S-7.1: always three rounds
    # Turns include those the engine plays itself (a single legal action), decisions do not.
    assert report["decisions_mean"] <= report["turns_mean"] and report["turns_max"] <= ROUNDS * DECK
    # S-4.5 / S-6.1: each round ends one way or the other.
    assert len(report["gold_reached_mean"]) == len(report["cards_exhausted_mean"]) == ROUNDS
    for gold, exhausted in zip(report["gold_reached_mean"], report["cards_exhausted_mean"]):
        assert 0.0 <= gold <= 1.0 and gold + exhausted == pytest.approx(1.0)
    # A round is won by one team (or nobody), so the role shares sum to one;
    # the gold-diggers win exactly the rounds that reach the gold (S-6.3).
    shares = [report[f"round_win_{team}_mean"] for team in ("gold_diggers", "saboteurs", "nobody")]
    assert sum(shares) == pytest.approx(1.0)
    assert report["round_win_gold_diggers_mean"] == pytest.approx(statistics.fmean(report["gold_reached_mean"]))
    if players >= 5:  # S-2.1: at least two saboteurs among players + 1 dwarf cards
        assert report["round_win_nobody_mean"] == 0.0
    # S-7.2 / S-1: nuggets per seat; never more than the supply's 44 per match.
    assert len(report["nuggets_mean"]) == players
    assert sum(report["nuggets_mean"]) == pytest.approx(report["nuggets_total_mean"])
    assert 0.0 <= report["nuggets_total_mean"] <= NUGGET_VALUE
    # S-7.2: a winner holds at least the table's average.
    assert report["nuggets_total_mean"] / players <= report["winner_nuggets_mean"] <= NUGGET_VALUE
    assert sum(report["seat_win_share"]) == pytest.approx(1.0)


@pytest.mark.parametrize("players", range(3, 11))
def test_the_report_for_every_table_size(players: int) -> None:
    report = run_json("--players", str(players), "--games", "4", "--seed", str(10 * players))
    check_consistent(report, players)
    expected = expected_report(players, 10 * players, 4)
    for key, value in expected.items():
        assert report[key] == pytest.approx(value), key


def test_the_variant_is_reported_and_keeps_the_invariants() -> None:
    """S-6.6: sabotaged gold-diggers lose their share; the report names the variant."""
    report = run_json("--players", "6", "--games", "3", "--variant", "sabotaged_diggers_lose_share")
    assert report["variant"] == {"sabotaged_diggers_lose_share": "on"}
    check_consistent(report, 6)


def test_table_output_names_the_saboteur_figures() -> None:
    result = CliRunner().invoke(cli, ["simulate", "--game", "saboteur", "--players", "10", "--games", "2"],
                                terminal_width=160)
    assert result.exit_code == 0, result.output
    for heading in ("gold reached, by round", "cards exhausted, by round", "rounds won by the saboteurs",
                    "nuggets per seat", "Win share per seat"):
        assert heading in result.output


def test_out_of_range_tables_are_refused() -> None:
    for players in ("2", "11"):
        result = CliRunner().invoke(cli, ["simulate", "--game", "saboteur", "--players", players])
        assert result.exit_code == 2 and "3 to 10 seats" in result.output


# --- a policy that digs: rounds that reach the gold ---------------------------


def dig_towards_goals(state: State, seat: int, rng: random.Random) -> Any:
    """Every seat digs: the through card whose cell is nearest a face-down
    goal (first such in legal order); else a repair; else a discard.
    Deterministic: it ignores `rng`, so a match depends on its seed alone."""
    actions = state.legal_actions(seat)
    view: Any = state.observe(seat)
    goals = [(g.x, g.y) for g in view.goals if not g.revealed]

    def distance(action: PlacePath) -> int:
        return min(abs(action.x - x) + abs(action.y - y) for x, y in goals)

    digs = [a for a in actions if isinstance(a, PlacePath) and KINDS[KIND_INDEX[a.card]].through]
    if digs and goals:
        return min(digs, key=distance)
    for kind in (Repair, Discard):
        chosen = [a for a in actions if isinstance(a, kind)]
        if chosen:
            return chosen[0]
    return actions[0]


@pytest.mark.parametrize("players", [3, 7, 10])
def test_a_digging_table_reaches_the_gold_and_the_report_shows_it(players: int) -> None:
    games = 6
    report = simulate(load_game("saboteur"), players, games, seed=100, policy=dig_towards_goals).to_json()
    check_consistent(report, players)
    assert report["round_win_gold_diggers_mean"] > 0.0
    assert report["turns_min"] < ROUNDS * DECK  # S-6.1: the gold ends a round before the cards run out
    assert any(share > 0.0 for share in report["gold_reached_mean"])
    expected = expected_report(players, 100, games, dig_towards_goals)
    for key, value in expected.items():
        assert report[key] == pytest.approx(value), key


# ---------------------------------------------------------------- real players


def test_heuristic_players_reach_the_gold_where_random_ones_do_not() -> None:
    """`--policy heuristic` seats the game's built-in heuristic at every seat:
    its gold-diggers dig towards the gold (S-4.5), random ones almost never
    do (S-6.1 ends their rounds with the cards exhausted)."""
    heuristic = run_json("--players", "5", "--games", "12", "--seed", "3", "--policy", "heuristic")
    randomly = run_json("--players", "5", "--games", "12", "--seed", "3")
    assert heuristic["policies"] == ["heuristic"] * 5 and randomly["policies"] == ["random"] * 5
    reached = sum(heuristic["gold_reached_mean"]) / 3
    assert reached > 0.2 > sum(randomly["gold_reached_mean"]) / 3
    assert len(heuristic["gold_reached_stderr"]) == 3  # every figure comes with its interval


def test_one_policy_per_seat_and_clear_refusals() -> None:
    mixed = run_json("--players", "3", "--games", "4", "--policy", "heuristic,random,random")
    assert mixed["policies"] == ["heuristic", "random", "random"]
    for policy, expected in (("heuristic,random", "one policy for every seat or one per seat: 2 policies for 3"),
                             ("expert", "unknown policy 'expert'; policies: random, heuristic")):
        result = CliRunner().invoke(cli, ["simulate", "--game", "saboteur", "--players", "3", "--policy", policy])
        assert result.exit_code == 2 and expected in result.output
