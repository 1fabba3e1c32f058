"""Leduc poker agrees with OpenSpiel's `leduc_poker` exactly (issue 12, part 4).

For every player count OpenSpiel allows (2 to 10), thousands of random
matches are played in both implementations at once: OpenSpiel is dealt the
very cards our engine dealt from its seeded stream (the same chance
outcomes: a card's number is OpenSpiel's chance outcome for it, L-1.2), and
both get the same random decisions. At every decision, and at the end:

- the legal actions are OpenSpiel's, in its order (fold 0, call 1, raise 2:
  L-3.3 to L-3.5);
- what each seat knows is OpenSpiel's: every seat's observation, mapped to
  OpenSpiel's text, equals OpenSpiel's information state string of that
  seat (private card, round, player to act, pot, every seat's money, the
  public card, both rounds' betting: L-6) and its observation string (the
  same with each seat's contribution to the pot);
- at the end, each seat's return is OpenSpiel's, to the last bit (L-5.5,
  split pots included: L-5.3).

The texts are built from our observation alone, never from the state, so
they check what a seat is told. The test skips only if OpenSpiel cannot be
imported (it is in the dev extra that `make test` installs).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.games import load_game
from referee.games.leduc.actions import BY_NAME, RAISE, LeducAction
from referee.games.leduc.config import MAX_PLAYERS, MIN_PLAYERS, STARTING_CHIPS
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.state import LeducState

pytestmark = pytest.mark.slow  # thousands of matches checked against OpenSpiel's

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open_spiel package of the dev extra) is not installed")

MATCHES = {2: 4000, 3: 3000, 4: 2500, 5: 2000, 6: 2000, 7: 1500, 8: 1500, 9: 1200, 10: 1200}
"""Random matches per player count: a few seconds each."""


def money(obs: LeducObservation) -> list[float]:
    """OpenSpiel's money per seat: 100 less what it put in, plus its share of the pot at the end."""
    if obs.over:
        return [STARTING_CHIPS + r for r in obs.returns]
    return [float(STARTING_CHIPS - c) for c in obs.contributions]


def number(value: float) -> str:
    """A double as absl::StrCat writes it (six significant digits, no trailing zeros)."""
    return f"{value:g}"


def player(obs: LeducObservation) -> int:
    """OpenSpiel's current player field: the seat to act, and at the end the seat that acted last."""
    if not obs.over:
        return obs.to_act
    return (obs.history[1] or obs.history[0])[-1].seat


def openspiel_texts(obs: LeducObservation) -> tuple[str, str]:
    """OpenSpiel's information state string and observation string of
    `obs.seat`, written from our observation alone."""
    head = (f"[Observer: {obs.seat}][Private: {obs.card}][Round {obs.round}][Player: {player(obs)}]"
            f"[Pot: {obs.pot}][Money: {' '.join(number(m) for m in money(obs))}]")
    if obs.public_card is not None:
        head += f"[Public: {obs.public_card}]"
    rounds = [" ".join(str(BY_NAME[bet.move].code) for bet in bets) for bets in obs.history]
    info_state = f"{head}[Round1: {rounds[0]}][Round2: {rounds[1]}]"
    observation = f"{head}[Ante: {' '.join(str(c) for c in obs.contributions)}]"
    return info_state, observation


def play_both(players: int, seed: int, rng: random.Random, theirs: Any) -> tuple[int, bool]:
    """One match in both; returns the decisions compared and whether a
    showdown split the pot. Fails at the first difference."""
    ours = load_game("leduc").new_state(players, seed)
    assert isinstance(ours, LeducState)
    state = theirs.new_initial_state()
    for card in ours.hands:  # the private cards, seat 0 first (L-2.2)
        state.apply_action(card)
    steps = 0
    while True:
        if state.is_chance_node():  # the public card (L-4.1): the one our engine dealt
            assert ours.public >= 0 and ours.round == 2, "OpenSpiel deals the public card, we did not"
            state.apply_action(ours.public)
            continue
        for seat in range(players):
            obs = ours.observe(seat)
            assert openspiel_texts(obs) == (state.information_state_string(seat),
                                            state.observation_string(seat)), (seed, steps, seat)
        if ours.is_terminal():
            assert state.is_terminal(), (seed, steps)
            end = ours.observe(0)
            assert list(end.returns) == state.returns(), (seed, steps)
            return steps, len(end.winners) > 1
        (seat,) = ours.to_act()
        legal = [a for a in ours.legal_actions(seat) if isinstance(a, LeducAction)]
        assert state.current_player() == seat and [a.code for a in legal] == state.legal_actions(), (seed, steps)
        move = legal[rng.randrange(len(legal))]
        ours.apply({seat: move})
        state.apply_action(move.code)
        steps += 1


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_random_matches_agree_with_openspiel_at_every_step(players: int) -> None:
    theirs = pyspiel.load_game("leduc_poker", {"players": players})
    assert (theirs.num_players(), theirs.get_type().min_num_players, theirs.get_type().max_num_players) == \
        (players, MIN_PLAYERS, MAX_PLAYERS)
    rng = random.Random(players)
    played = [play_both(players, 10_000 * players + match, rng, theirs) for match in range(MATCHES[players])]
    decisions = sum(steps for steps, _ in played)
    splits = sum(split for _, split in played)
    assert decisions >= 2 * len(played) and splits > 0  # every match was compared; split pots were among them
    print(f"{players} players: {len(played)} matches, {decisions} decisions and {decisions + len(played)} "
          f"positions x {players} seats agree with OpenSpiel; {splits} split pots")


def test_the_cross_check_sees_a_difference() -> None:
    """The comparison can fail: an observation with one bet changed no longer
    gives OpenSpiel's information state."""
    theirs = pyspiel.load_game("leduc_poker", {"players": 3})
    ours = load_game("leduc").new_state(3, 1)
    assert isinstance(ours, LeducState)
    state = theirs.new_initial_state()
    for card in ours.hands:
        state.apply_action(card)
    ours.apply({0: RAISE})
    state.apply_action(1)  # OpenSpiel is told a call where we raised
    assert openspiel_texts(ours.observe(1))[0] != state.information_state_string(1)
