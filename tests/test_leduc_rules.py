"""Leduc poker's rules through the engine's public interface (docs/rules/leduc.md).

Each test names the rules it checks. OpenSpiel agreement over random
matches is tests/test_leduc_openspiel.py; these are the rules one by one,
on hand-written positions (the JSON state replays its betting, so a
position is its cards and its moves), the deal, the JSON format and
determinization.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.games import IllegalActionError, load_game
from referee.games.leduc.actions import CALL, FOLD, RAISE
from referee.games.leduc.cards import card_name, deck_size, hand_strength
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.state import LeducState

GAME = load_game("leduc")
DOC = Path(__file__).resolve().parent.parent / "docs" / "engine_leduc.md"


def position(seats: int, hands: list[int], *rounds: list[str], public: int | None = None) -> LeducState:
    obj: dict[str, Any] = {"seats": seats, "hands": hands, "history": [*rounds, [], []][:2]}
    if public is not None:
        obj["public_card"] = public
    state = GAME.state_from_json(obj)
    assert isinstance(state, LeducState)
    return state


def view(state: Any, seat: int) -> LeducObservation:
    observation = state.observe(seat)
    assert isinstance(observation, LeducObservation)
    return observation


def determinized(observation: LeducObservation, rng: random.Random) -> LeducState:
    state = GAME.determinize(observation, rng)
    assert isinstance(state, LeducState) and state.observe(observation.seat) == observation
    return state


# ------------------------------------------------------------------ components and setup


@pytest.mark.parametrize("seats", range(2, 11))
def test_the_deck_and_the_antes(seats: int) -> None:
    """L-1.2: two suits of N + 1 ranks; L-2.1: an ante of 1 each; L-2.2: one
    private card per seat, all different; L-3.1: seat 0 acts first."""
    state = GAME.new_state(seats, 99)
    assert isinstance(state, LeducState)
    assert deck_size(seats) == 2 * (seats + 1)
    assert sorted(state.hands + state.deck) == list(range(deck_size(seats)))
    obs = view(state, 0)
    assert obs.pot == seats and obs.contributions == (1,) * seats and obs.stakes == 1
    assert state.to_act() == frozenset({0})


def test_two_players_play_with_jacks_queens_and_kings() -> None:
    """L-1.2: the original six cards, numbered as OpenSpiel's chance outcomes."""
    assert [card_name(c, 2) for c in range(6)] == ["J♠", "J♥", "Q♠", "Q♥", "K♠", "K♥"]
    assert [card_name(c, 10) for c in (0, 21)] == ["3♠", "K♥"]


def test_the_deal_comes_from_the_seed_alone() -> None:
    """L-2.3: the same seed deals the same cards and public card; another seed, others."""
    deals = {seed: GAME.new_state(4, seed).to_json() for seed in range(30)}
    assert all(GAME.new_state(4, seed).to_json() == deal for seed, deal in deals.items())
    assert len({json.dumps(d["hands"] + d["deck"]) for d in deals.values()}) == 30


def test_the_public_card_is_the_next_card_of_the_deck_whatever_the_betting() -> None:
    """L-2.3: duplicate deals: two matches of one seed with different betting
    see the same public card."""
    first, second = GAME.new_state(3, 7), GAME.new_state(3, 7)
    assert isinstance(first, LeducState) and isinstance(second, LeducState)
    for checked in (CALL, CALL, CALL):
        first.apply({first.current: checked})
    for move in (RAISE, RAISE, CALL, CALL):
        second.apply({second.current: move})
    assert first.public == second.public >= 0


def test_each_seat_is_told_only_its_own_card() -> None:
    """L-2.2: the deal's events: a seat's card to that seat, a bare "a card was
    dealt" to the others, the whole shuffle to the record only."""
    state, events = GAME.new_state_with_events(3, 4)
    assert isinstance(state, LeducState)
    for seat in range(3):
        told = [e for e in events if seat in e.visible_to]
        assert [e.data for e in told] == [{"seat": s, "card": state.hands[s]} if s == seat else {"seat": s}
                                          for s in range(3)]
    assert [e.kind for e in events if not e.visible_to] == ["deck_shuffled"]


# ------------------------------------------------------------------ betting


def test_no_fold_when_a_check_is_free() -> None:
    """L-3.4: fold only when behind the stakes; L-3.3: call always; L-3.5: raise."""
    state = position(3, [0, 2, 4])
    assert state.legal_actions(0) == (CALL, RAISE)
    with pytest.raises(IllegalActionError):
        state.apply({0: FOLD})
    state.apply({0: RAISE})
    assert state.legal_actions(1) == (FOLD, CALL, RAISE)


def test_raises_are_two_then_four_and_at_most_two_a_round() -> None:
    """L-3.5: a raise calls, then raises the stakes by 2 in round 1 and 4 in
    round 2; after two raises in a round only fold and call remain."""
    state = position(2, [0, 2], ["raise", "raise"])
    obs = view(state, 0)
    assert (obs.stakes, obs.contributions, obs.raises) == (5, (3, 5), 2)
    assert state.legal_actions(0) == (FOLD, CALL)
    state.apply({0: CALL})
    state.apply({0: RAISE})  # round 2: seat 0 first (L-3.1)
    obs = view(state, 1)
    assert (obs.round, obs.stakes, obs.contributions) == (2, 9, (9, 5))


def test_a_round_ends_when_everyone_still_in_has_called_since_the_last_raise() -> None:
    """L-3.6, L-4.1: three checks end round 1; a raise restarts the count, a
    fold leaves it; round 2 follows with the public card."""
    checked = position(3, [0, 2, 4], ["call", "call", "call"])
    assert view(checked, 0).round == 2 and view(checked, 0).public_card is not None
    raised = position(3, [0, 2, 4], ["call", "raise", "call"])
    assert view(raised, 0).round == 1 and raised.to_act() == frozenset({0})
    raised.apply({0: FOLD})  # the last caller before the raiser folds: the round is over
    obs = view(raised, 1)
    assert obs.round == 2 and obs.folded == (True, False, False)


def test_round_two_starts_with_the_first_seat_still_in_from_seat_zero() -> None:
    """L-3.1, L-3.2: seat 0 folded in round 1, so seat 1 opens round 2, and
    the turn skips seat 0 afterwards."""
    state = position(3, [0, 2, 4], ["call", "raise", "call", "fold"])
    assert state.to_act() == frozenset({1})
    state.apply({1: RAISE})
    assert state.to_act() == frozenset({2})
    state.apply({2: RAISE})
    assert state.to_act() == frozenset({1})


def test_every_decision_offers_a_choice() -> None:
    """L-3.3 to L-3.5: call and at least one of fold and raise, so the engine
    never plays a forced move for a seat."""
    rng = random.Random(3)
    for seed in range(200):
        state = GAME.new_state(rng.randrange(2, 11), seed)
        while not state.is_terminal():
            (seat,) = state.to_act()
            legal = state.legal_actions(seat)
            assert CALL in legal and len(legal) >= 2
            state.apply({seat: rng.choice(legal)})


# ------------------------------------------------------------------ the end


def test_the_last_seat_in_takes_the_pot_and_no_card_is_shown() -> None:
    """L-5.1, L-5.4, L-5.5: everyone else folds: the pot goes to the last
    seat at once, before any public card; returns sum to zero."""
    state, _ = GAME.new_state_with_events(3, 5)
    events = []
    for move in (RAISE, FOLD, FOLD):
        events += state.apply({min(state.to_act()): move})
    obs = view(state, 1)
    assert (obs.over, obs.end_reason, obs.winners, obs.returns) == (True, "folds", (0,), (2.0, -1.0, -1.0))
    assert obs.public_card is None and obs.pot == 0
    assert events[-1].kind == "pot_won" and events[-1].data["pot"] == 5
    assert state.outcome().ranks == (0, 1, 1)  # L-5.6: equal returns share a place


def test_a_pair_beats_any_high_card() -> None:
    """L-5.2: a jack pairing the public jack beats a king; suits never count."""
    assert hand_strength(1, 0, 2) > hand_strength(5, 0, 2)  # J♥ with J♠ against K♥
    assert hand_strength(4, 2, 2) == hand_strength(5, 2, 2)  # K♠ and K♥ with Q♠: a tie
    assert hand_strength(5, 0, 2) > hand_strength(3, 0, 2)  # K high beats Q high on a J board
    assert hand_strength(2, 6, 3) > hand_strength(0, 6, 3)  # with three players: K-Q beats K-J
    state = position(2, [1, 5], ["call", "call"], ["call", "call"], public=0)
    assert view(state, 0).winners == (0,) and view(state, 0).returns == (1.0, -1.0)


def test_the_higher_card_then_the_lower_decides_without_a_pair() -> None:
    """L-5.2: Q with K on the board beats J with K on the board."""
    state = position(2, [0, 2], ["call", "call"], ["raise", "call"], public=5)
    assert view(state, 1).winners == (1,) and view(state, 1).returns == (-5.0, 5.0)


def test_tied_hands_split_the_pot_in_halves() -> None:
    """L-5.3: two jacks tie against a queen on the board and split a pot of 7."""
    state = position(3, [0, 1, 4], ["raise", "call", "fold"], ["call", "call"], public=5)
    obs = view(state, 2)
    assert (obs.end_reason, obs.winners, obs.returns) == ("showdown", (0, 1), (0.5, 0.5, -1.0))
    assert state.outcome().ranks == (0, 0, 2)


def test_a_showdown_shows_nobody_another_seats_card() -> None:
    """L-5.4, L-6.1: after the showdown a seat sees who won, not with what:
    the pair of jacks looks the same to its holder whether it beat a king or a queen."""
    against_king = position(2, [1, 5], ["call", "call"], ["call", "call"], public=0)
    against_queen = position(2, [1, 3], ["call", "call"], ["call", "call"], public=0)
    assert view(against_king, 0) == view(against_queen, 0)
    assert view(against_king, 1) != view(against_queen, 1)  # each holder knows its own card


# ------------------------------------------------------------------ information


def test_a_seat_knows_the_betting_the_public_card_and_its_own_card() -> None:
    """L-6.1: each bet, who made it, the stakes, the pot."""
    state = position(3, [0, 2, 4], ["call", "raise", "call", "fold"], public=7)
    obs = view(state, 2)
    assert obs.card == 4 and obs.public_card == 7 and obs.to_act == 1
    assert [(b.seat, b.move) for b in obs.history[0]] == [(0, "call"), (1, "raise"), (2, "call"), (0, "fold")]
    assert (obs.pot, obs.stakes, obs.contributions) == (7, 3, (1, 3, 3))


def test_a_determinized_showdown_gives_the_same_winners_and_every_such_deal() -> None:
    """L-5.3 in determinization: seat 0 lost a heads-up showdown with J♠ on a
    Q♠ board, so seat 1 held a better hand: the Q♥ pair or a king, each of
    the three equally likely; never the other jack."""
    state = position(2, [0, 5], ["call", "call"], ["call", "call"], public=2)
    obs = view(state, 0)
    rng = random.Random(1)
    seen = Counter(determinized(obs, rng).hands[1] for _ in range(3000))
    assert set(seen) == {3, 4, 5}
    assert all(abs(count - 1000) < 150 for count in seen.values()), seen


def test_a_determinized_split_pot_deals_the_other_winner_the_same_rank() -> None:
    """L-5.3: a split showdown tells seat 0 that seat 1 held the other jack."""
    state = position(3, [0, 1, 4], ["raise", "call", "fold"], ["call", "call"], public=5)
    rng = random.Random(2)
    assert {determinized(view(state, 0), rng).hands[1] for _ in range(50)} == {1}


def test_determinizations_before_the_end_deal_every_unseen_card() -> None:
    """L-6.1: before the end nothing but the betting is known of the other cards."""
    state = position(4, [0, 2, 4, 6], ["call"])
    rng = random.Random(3)
    dealt = {card for _ in range(400) for card in determinized(view(state, 1), rng).hands}
    assert dealt == set(range(deck_size(4)))


# ------------------------------------------------------------------ JSON


def test_the_documented_scenario_plays_as_the_page_says() -> None:
    """docs/engine_leduc.md's example: K♠ against J♥ on a Q♥ board; seat 0
    raises, seat 1 calls, king high wins the pot of 14 (L-3.5, L-5.2, L-5.5)."""
    block = re.search(r"<!-- example: scenario -->\s*```json\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert block, "docs/engine_leduc.md has no scenario block"
    state = GAME.state_from_json(json.loads(block.group(1)))
    assert state.to_act() == frozenset({0}) and view(state, 0).round == 2
    state.apply({0: RAISE})
    state.apply({1: CALL})
    obs = view(state, 1)
    assert (obs.winners, obs.returns, obs.contributions) == ((0,), (7.0, -7.0), (7, 7))


@pytest.mark.parametrize(("change", "message"), [
    ({"seats": 11}, "seats must be 2 to 10"),
    ({"hands": [0, 0]}, "placed twice \\[0\\]"),
    ({"hands": [0]}, "one card per seat"),
    ({"hands": [0, 9]}, "card 9 is not one of 0 to 5"),
    ({"history": [["fold"], []]}, "move 1 of round 1 \\('fold'\\) is not legal for seat 0"),
    ({"history": [["call"], ["call"]]}, "comes before round 1's betting is over"),
    ({"history": [["raise", "fold", "call"], []]}, "comes after round 1 ended"),
    ({"history": [["check"], []]}, "is not fold, call or raise"),
    ({"public_card": 3}, "do not reach round 2"),
    ({"deck": [1]}, "need \"hands\""),
])
def test_a_bad_state_is_refused_naming_what_is_wrong(change: dict[str, Any], message: str) -> None:
    obj: dict[str, Any] = {"seats": 2, "hands": [0, 2], **change}
    if "deck" in change:
        del obj["hands"]
    with pytest.raises(ValueError, match=message):
        GAME.state_from_json(obj)


def test_a_scenario_without_cards_is_dealt_from_its_seed() -> None:
    assert GAME.state_from_json({"seats": 5, "seed": 8}).to_json() == GAME.new_state(5, 8).to_json()


def test_actions_read_back_from_text_and_json() -> None:
    for move in (FOLD, CALL, RAISE):
        assert GAME.parse_action(str(move)) == move
        assert GAME.action_from_json(move.to_json()) == move
    with pytest.raises(ValueError, match="fold, call, raise"):
        GAME.parse_action("check")
