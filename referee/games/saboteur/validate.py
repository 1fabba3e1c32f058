"""The invariants of a reachable Saboteur state, checked on a scenario read from JSON.

The reader (serialize.py) already refuses what it cannot place: a card twice,
more copies of a kind than the game has (S-1), dwarf cards that are not the
table's (S-2.1), a path card on the start or a goal cell. What is left is
checked here, on the state it built, before anything runs: the rounds and the
results so far, the goals (a goal the tunnel reaches is turned up, the gold
only as the round ends), the maze (neighbouring cards fit), the hands (never
more than the deal). Each refusal is a `ScenarioError` naming the field, what
is wrong and the rule.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.saboteur import maze
from referee.games.saboteur.cards import DIRECTIONS, FAMILY, GOLD_CARD, GOLD_DIGGER, PATH, SABOTEUR, START
from referee.games.saboteur.state import END_ROUNDS_PLAYED, GOLD_DIGGERS_WIN, SABOTEURS_WIN, SaboteurState
from referee.games.scenario import ScenarioError


def check_state(state: SaboteurState) -> None:
    """Raise ScenarioError unless `state` could arise in a match."""
    _check_rounds(state)
    _check_goals(state)
    _check_maze(state)
    _check_hands(state)


def _check_rounds(state: SaboteurState) -> None:
    """S-7.1: three rounds; the results of those finished, and the end."""
    rounds = state.cfg.rounds
    finished = rounds if state.over else state.round - 1
    if len(state.results) != finished:
        raise ScenarioError(
            "results", f"{len(state.results)} finished rounds, but round {state.round} "
            f"{'ended the match' if state.over else 'is being played'}: {finished} expected", "S-7.1")
    if state.over and state.round != rounds:
        raise ScenarioError("round", f"{state.round}: a match is over after round {rounds}", "S-7.1")
    expected_reason = END_ROUNDS_PLAYED if state.over else ""
    if state.end_reason != expected_reason:
        raise ScenarioError("end_reason", f"{state.end_reason!r}: {expected_reason!r} when over is "
                            f"{str(state.over).lower()}", "S-7.1")
    diggers, saboteurs = state.cfg.role_counts(state.n)
    dwarfs = Counter({GOLD_DIGGER: diggers, SABOTEUR: saboteurs})
    for index, result in enumerate(state.results):
        _check_result(f"results[{index}]", result, index + 1, state.n, dwarfs)


def _check_result(field: str, result: Any, number: int, seats: int, dwarfs: Counter[str]) -> None:
    """S-6.2 to S-6.4: one finished round, as the observation shows it."""
    if not isinstance(result, dict) or set(result) != {"round", "winners", "reached_by", "roles", "set_aside"}:
        raise ScenarioError(field, "needs exactly round, winners, reached_by, roles and set_aside", "S-6")
    if result["round"] != number:
        raise ScenarioError(f"{field}.round", f"{result['round']}: the rounds are numbered 1, 2, 3 in order",
                            "S-7.1")
    if result["winners"] not in (GOLD_DIGGERS_WIN, SABOTEURS_WIN):
        raise ScenarioError(f"{field}.winners", f"{result['winners']!r}: gold_diggers or saboteurs", "S-6.3, S-6.4")
    reached = result["reached_by"]
    if not isinstance(reached, int) or not -1 <= reached < seats or (reached >= 0) != (
            result["winners"] == GOLD_DIGGERS_WIN):
        raise ScenarioError(f"{field}.reached_by", f"{reached!r}: the seat that reached the gold when the "
                            "gold-diggers won, else -1", "S-6.3")
    roles = result["roles"]
    if not isinstance(roles, list) or len(roles) != seats or Counter([*roles, result["set_aside"]]) != dwarfs:
        raise ScenarioError(f"{field}.roles", f"{roles!r} and set_aside {result['set_aside']!r}: one dwarf card "
                            f"per seat and one aside, {dict(dwarfs)} in all", "S-2.1")


def _check_goals(state: SaboteurState) -> None:
    """S-4.5: a goal the tunnel reaches lies face up; the gold ends the round."""
    for index, (cell, card, up) in enumerate(zip(state.cfg.goal_cells, state.goals, state.goal_up)):
        field = f"goals[{index}]"
        if not up:
            if state.cells[cell][1]:
                raise ScenarioError(f"{field}.turned", "a face-down goal has no orientation yet", "S-4.5")
            if maze.reaching_sides(state.edges, state.conn, cell):
                raise ScenarioError(field, f"face down at {cell}, but a tunnel from the start reaches it: "
                                    "it would have been turned up", "S-4.5")
        elif card == GOLD_CARD and not state.over:
            raise ScenarioError(field, "the gold is face up, but reaching it ends the round", "S-4.5, S-6.1")


def _check_maze(state: SaboteurState) -> None:
    """S-4.2: neighbouring path cards (and the start) fit: open faces open, closed faces closed.

    Goals are left out: a face-down goal constrains nothing, and a turned-up
    one may have been reached where it does not fit (S-4.5)."""
    cells = state.cells
    for (x, y), (card, _) in sorted(cells.items()):
        if FAMILY[card] not in (PATH, START):
            continue
        mine = state.edges[(x, y)]
        for edge, dx, dy, facing in DIRECTIONS[:2]:  # east and north once per pair
            other = (x + dx, y + dy)
            if other not in cells or FAMILY[cells[other][0]] not in (PATH, START):
                continue
            if bool(mine & edge) != bool(state.edges[other] & facing):
                raise ScenarioError("maze", f"the cards at {(x, y)} and {other} do not fit: an open edge "
                                    "faces a closed one", "S-4.2")


def _check_hands(state: SaboteurState) -> None:
    """S-2.3/S-3.2: a hand never holds more than the deal (one card is played, then one drawn)."""
    size = state.cfg.hand_size(state.n)
    for seat, hand in enumerate(state.hands):
        if len(hand) > size:
            raise ScenarioError(f"hands[{seat}]", f"{len(hand)} cards; at {state.n} seats a hand holds at "
                                f"most {size}", "S-2.3, S-3.2")
