"""The standings as `referee table` prints them, one rule set at a time.

The ladder service prints the same tables for `referee table --server`
(ladder/service/api.py), so a table looks the same from a store and from a
service.
"""

from __future__ import annotations

from rich.console import Console

from ladder.rating.score_evidence import basis_of
from ladder.rating.standings import pair_statuses, standings
from ladder.reporting.render import (
    game_figures_table,
    h2h_table,
    score_pairs_table,
    seats_table,
    standings_table,
    table_notes,
)
from ladder.store.database import Store
from ladder.store.rule_set_names import heading
from referee.games import load_game

def print_table(store: Store, console: Console, game: str, *, h2h: bool, seats: bool, include_retired: bool,
                confidence: float, margin: float, rule_set: str = "") -> None:
    """`referee table`'s tables (the ladder service prints them for `--server` with this too): the
    standings of one rule set, titled with it, and a line naming the other rule sets that have matches."""
    elsewhere = other_games(store, game)
    if elsewhere:
        console.print(elsewhere, markup=False, highlight=False)
        return
    rows = standings(store, game, include_retired=include_retired, rule_set=rule_set)
    pairs = pair_statuses(store, game, rows, confidence=confidence, margin=margin, rule_set=rule_set)
    console.print(standings_table(rows, f"{heading(game, rule_set)}: {store.match_count(game, rule_set)} matches",
                                  pairs, width=console.width))
    console.print(table_notes(confidence, margin, basis_of(game, margin)))
    figures = game_figures_table(store, game, rows, rule_set)
    if figures is not None:
        console.print(figures)
    others = {name: count for name, count in store.rule_sets(game).items() if name != rule_set}
    if others:
        listed = "; ".join(f"{name or 'base rules'} ({count} matches)" for name, count in others.items())
        console.print(f"other rule sets, each rated apart (show one with --variant NAME=VALUE): {listed}",
                      markup=False, highlight=False)
    if h2h:
        console.print(h2h_table(store, game, rows, rule_set))
        pairs_by_score = score_pairs_table(store, game, rows, rule_set)
        if pairs_by_score is not None:
            console.print(pairs_by_score)
    if seats:
        console.print(seats_table(store, game, rule_set))


def other_games(store: Store, game: str) -> str | None:
    """When `game` has no matches in the store but other games do, the line
    that says so and how to show theirs (an empty table would say nothing)."""
    if store.rule_sets(game):
        return None
    counts = {name: sum(store.rule_sets(name).values()) for name in store.games() if name != game}
    if not counts:
        return None
    listed = "; ".join(f"{load_game(name).title}, {count} matches: `referee table --game {name}`"
                       for name, count in counts.items())
    return f"this store has no {load_game(game).title} matches; its ladders: {listed}"
