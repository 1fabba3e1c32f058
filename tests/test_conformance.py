"""Every registered game passes the game-neutral conformance suite
(referee.games.conformance), for each seat count it supports and each value of
each variant option."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import pytest

from referee.games import Action, Event, Observation, Outcome, State, load_game
from referee.games.plugin import game_names
from referee.games.conformance import ConformanceError, check_choices, check_game


def _cases() -> list[tuple[str, int, dict[str, str] | None]]:
    """(game, seats, variant): the default rules at every seat count, and each
    non-default variant value (with the option it requires, if any) at the
    smallest and largest table; then EXTRA_VARIANTS."""
    cases: list[tuple[str, int, dict[str, str] | None]] = []
    for name in game_names():
        game = load_game(name)
        for seats in range(game.min_seats, game.max_seats + 1):
            cases.append((name, seats, None))
        variants: list[dict[str, str]] = []
        for option, values in game.variant_options.items():
            need = game.variant_requires.get(option)
            for value in values[1:]:
                variants.append({option: value, **dict([need] if need else [])})
        for variant in variants + EXTRA_VARIANTS.get(name, []):
            for seats in sorted({game.min_seats, game.max_seats}):
                cases.append((name, seats, variant))
    return cases


EXTRA_VARIANTS = {
    "gnadenlos": [
        # G-6.7 with every option away from its default, with G-5.11 and the
        # advanced setup (whose opening auction G-6.7 leaves unchanged).
        {"auction": "single", "auction_order": "best", "auction_buy_limit": "many", "gunfight_opt_out": "soft"},
        {"auction": "single", "auction_order": "best", "setup": "advanced"},
    ],
}
"""Combinations of options checked besides each option alone."""


def _param(name: str, seats: int, *rest: object) -> object:
    """A case as a parameter: a game's smallest and largest tables are played
    by `make test-fast` too, the sizes between them only by `make test`."""
    game = load_game(name)
    return pytest.param(name, seats, *rest, marks=[pytest.mark.slow] if game.min_seats < seats < game.max_seats else [])


@pytest.mark.parametrize(("name", "seats", "variant"), [_param(*case) for case in _cases()])
def test_random_matches_keep_the_engine_contract(name: str, seats: int, variant: dict[str, str] | None) -> None:
    matches = 3 if variant is None else 2  # the variants' matches share most of their code with the base rules'
    report = check_game(load_game(name, variant), seats, range(matches))
    assert report.matches == matches
    assert report.decisions > 0


CHOICE_MATCHES = {"gnadenlos": 80}
"""Random matches per table size for the choice check; 8 for other games.
Gnadenlos!'s rare forced decision (a bidder left with a single legal bid,
docs/engine.md) came up about once in seventy random matches: this many
catch it at 3 and 4 seats when the engine asks it."""


@pytest.mark.parametrize(("name", "seats"), [_param(name, seats) for name, seats, variant in _cases() if variant is None])
def test_no_seat_is_ever_asked_with_fewer_than_two_choices(name: str, seats: int) -> None:
    """docs/engine.md: a decision with a single legal action is applied by the
    engine; checked in every state of many random matches and one listed
    action beyond each."""
    report = check_choices(name, seats, range(CHOICE_MATCHES.get(name, 8)))
    assert report.decisions > 0


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("variant", [{"auction": "single"}, *EXTRA_VARIANTS["gnadenlos"]])
def test_no_seat_is_asked_without_a_choice_under_the_single_card_auction(seats: int, variant: dict[str, str]) -> None:
    """G-6.7 adds decisions (bid_position, order) and smaller bidding rounds
    (G-6.7.4): none of them may ask a seat that has no choice."""
    report = check_choices(load_game("gnadenlos", variant), seats, range(8))
    assert report.decisions > 0


def test_large_seeds_are_checked_for_leaks() -> None:
    """Seeds big enough to recognise are searched for in observations and events."""
    report = check_game(load_game("gnadenlos", "setup=advanced"), 4, [2**62 + 12345, 987654321987])
    assert report.matches == 2


def test_a_broken_game_fails_the_suite() -> None:
    """The suite can fail: an observation that shows the top card of the hidden
    adventurer deck differs between determinizations and is caught."""
    from referee.games.gnadenlos.game import Gnadenlos
    from referee.games.gnadenlos.state import GnadenlosState

    class LeakyState(State):
        """A Gnadenlos! state whose observations also show the deck's top card."""

        def __init__(self, honest: GnadenlosState) -> None:
            self.honest = honest

        @property
        def num_seats(self) -> int:
            return self.honest.num_seats

        def to_act(self) -> frozenset[int]:
            return self.honest.to_act()

        def legal_actions(self, seat: int) -> tuple[Action, ...]:
            return self.honest.legal_actions(seat)

        def _apply(self, actions: Mapping[int, Action], record: bool) -> list[Event]:
            return self.honest._apply(actions, record)

        def observe(self, seat: int) -> Observation:
            honest = self.honest.observe(seat)
            top = self.honest.adv_deck[-1]
            return dataclasses.replace(
                honest,
                adv_deck_known=tuple(sorted({*honest.adv_deck_known, top})),
                adv_deck_unknown=honest.adv_deck_unknown - (top not in honest.adv_deck_known),
            )

        def is_terminal(self) -> bool:
            return self.honest.is_terminal()

        def outcome(self) -> Outcome:
            return self.honest.outcome()

        def clone(self) -> State:
            return LeakyState(self.honest.clone())

        def to_json(self) -> Any:
            return self.honest.to_json()

    class LeakyGame(Gnadenlos):
        name = "gnadenlos-leaky"

        def new_state(self, seats: int, seed: int) -> State:
            return LeakyState(_gnadenlos(super().new_state(seats, seed)))

        def determinize(self, observation: Observation, rng: random.Random) -> State:
            return LeakyState(_gnadenlos(super().determinize(observation, rng)))

    LeakyState.game = LeakyGame()
    with pytest.raises(ConformanceError, match="determinization"):
        check_game(LeakyGame(), 3, [1])


def _gnadenlos(state: State) -> Any:
    from referee.games.gnadenlos.state import GnadenlosState

    assert isinstance(state, GnadenlosState)
    return state
