"""Property tests of Gnadenlos! over random seeds and random legal play to the end.

Invariants of the whole rule set: every match ends; every card is somewhere
exactly once (G-1: 29 adventurers, 13 IOUs per colour); nuggets never go
negative (G-8.4: an owner who cannot pay pays nothing); hats stay on the track
(G-1, 1..35); at most one player ever holds three vultures (G-9.1 end A stops
the match); the undertaker stays within 0..7; the final ranking follows G-9.4.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gnadenlos_support import GAME
from referee.games import load_game
from referee.games.gnadenlos.cards import IOU_VALUES, NUM_ADVENTURERS

VARIANTS = st.fixed_dictionaries(
    {"setup": st.sampled_from(["standard", "advanced"]), "gunfight_opt_out": st.sampled_from(["off", "on", "soft"])}
) | st.fixed_dictionaries(
    {"setup": st.sampled_from(["standard", "advanced"]), "gunfight_opt_out": st.sampled_from(["off", "on", "soft"]),
     "auction": st.just("single"), "auction_order": st.sampled_from(["first", "best"]),
     "auction_buy_limit": st.sampled_from(["one", "many"])}
)
"""Every variant option (G-2.6, G-5.10, G-5.11, G-6.7), the auction_* ones under auction=single."""
MAX_DECISIONS = 20_000


def _check_components(full: dict[str, Any]) -> None:
    """G-1: each adventurer once across its zones; each colour's 13 IOUs across theirs."""
    adv = full["adventurers"]
    places = (
        [c for c, _ in adv["deck"]]
        + adv["discard"]
        + [c for hand in adv["hands"] for c, _ in hand]
        + [c for unit in adv["units"] for c in unit]
        + [c for c in full["commits"] if c >= 0]
    )
    assert sorted(places) == list(range(NUM_ADVENTURERS))
    ious = full["ious"]
    cards = (
        [e for hand in ious["hands"] for e in hand]
        + [e for row in ious["market"] for e in row if e]
        + [e for bid in ious["bids"] if bid for e in bid]
    )
    for colour in range(full["seats"]):
        assert sorted(v for c, v, _ in cards if c == colour) == sorted(IOU_VALUES)
    assert len(cards) == full["seats"] * len(IOU_VALUES)


def _check_counters(full: dict[str, Any]) -> None:
    assert all(n >= 0 for n in full["nuggets"])
    assert all(1 <= f <= 35 for f in full["fields"])
    assert all(0 <= v <= 3 for v in full["vultures"])
    assert sum(1 for v in full["vultures"] if v == 3) <= 1
    assert 0 <= full["undertaker"] <= 7


def _check_ranking(full: dict[str, Any], ranks: tuple[int, ...]) -> None:
    """G-9.4: three vultures last; the others by field, then nuggets; equal share."""
    keys = [(v < 3, f, n) for v, f, n in zip(full["vultures"], full["fields"], full["nuggets"])]
    for a in range(full["seats"]):
        assert ranks[a] == sum(1 for b in range(full["seats"]) if keys[b] > keys[a])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), seats=st.sampled_from([3, 4]), variant=VARIANTS)
def test_random_play_keeps_every_invariant_to_the_end(seed: int, seats: int, variant: dict[str, str]) -> None:
    rng = random.Random(seed)
    state = load_game(GAME.name, variant).new_state(seats, seed)
    for _ in range(MAX_DECISIONS):
        full = state.to_json()
        _check_components(full)
        _check_counters(full)
        if not state.to_act():
            break
        state.apply({s: rng.choice(state.legal_actions(s)) for s in sorted(state.to_act())})
    assert state.is_terminal(), "the match did not end"
    outcome = state.outcome()
    _check_ranking(state.to_json(), outcome.ranks)
    assert outcome.reason in {"vultures", "undertaker", "goal", "safety_valve"}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), seats=st.sampled_from([3, 4]), variant=VARIANTS)
def test_greedy_buyers_reach_the_goal_and_play_on_to_a_valid_end(
    seed: int, seats: int, variant: dict[str, str]
) -> None:
    """Random play almost always ends by vultures; seats that always buy the
    most prestige and bid the least reach the other ends (G-9.1 B and C)."""
    rng = random.Random(seed)
    state = load_game(GAME.name, variant).new_state(seats, seed)
    for _ in range(MAX_DECISIONS):
        if not state.to_act():
            break
        decision = {}
        for seat in sorted(state.to_act()):
            actions = state.legal_actions(seat)
            decision[seat] = actions[-1] if state.phase in ("buy", "final_buy") else rng.choice(actions[:3])
        state.apply(decision)
        full = state.to_json()
        _check_components(full)
        _check_counters(full)
    assert state.is_terminal()
    _check_ranking(state.to_json(), state.outcome().ranks)
