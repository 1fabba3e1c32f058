"""Information-set tests of Gnadenlos! (G-10, DESIGN.md "The information set").

A seat's observation must show exactly the cards the seat knows (checked
against the true state's knowledge bitmasks), be identical for every
determinization of it, and never carry the match seed; what a seat is told
by a step without chance and without a reveal must follow from its
observation and the decisions alone (else the step leaked something).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gnadenlos_support import GAME, act, load, scenario_json
from referee.games import Event, IllegalActionError, load_game
from referee.games.base import derive_seed
from referee.games.gnadenlos.actions import Bid, Refill, Take
from referee.games.gnadenlos.observation import HIDDEN
from referee.games.gnadenlos.state import COMMIT, GnadenlosState

VARIANTS = st.fixed_dictionaries(
    {"setup": st.sampled_from(["standard", "advanced"]), "gunfight_opt_out": st.sampled_from(["off", "on"])}
)
BIG_SEEDS = st.integers(min_value=10**12, max_value=2**62)


def _random_walk(
    seats: int, seed: int, variant: dict[str, str], rng: random.Random, greedy: bool = False
) -> Iterator[tuple[GnadenlosState, dict[int, Any] | None, list[Event]]]:
    """Yield (state before, decision, events) along one random match.

    Uniformly random play nearly always ends by vultures; `greedy` seats buy
    all the prestige they can and bid low, which reaches the goal and the
    undertaker ends (and their final paydays) too."""
    state = load_game(GAME.name, variant).new_state(seats, seed)
    while state.to_act():
        decision = {s: _choose(state, s, rng, greedy) for s in sorted(state.to_act())}
        before = state.clone()
        events = state.apply(decision)
        yield before, decision, events
    yield state, None, []


def _choose(state: GnadenlosState, seat: int, rng: random.Random, greedy: bool) -> Any:
    actions = state.legal_actions(seat)
    if not greedy:
        return rng.choice(actions)
    return actions[-1] if state.phase in ("buy", "final_buy") else rng.choice(actions[:3])


def _known_by(seat: int, entry: list[Any]) -> bool:
    return seat in entry[-1]


def _check_projection(state: GnadenlosState, seat: int) -> None:
    """G-10: every zone of the observation against the true state's knowledge."""
    obs = state.observe(seat)
    full = state.to_json()
    adv, ious = full["adventurers"], full["ious"]
    for holder in range(state.num_seats):
        hand = adv["hands"][holder]
        iou_hand = ious["hands"][holder]
        if holder == seat:
            assert obs.adv_hands[seat].known == tuple(sorted(c for c, _ in hand))
            assert Counter(obs.iou_hands[seat].known) == Counter((c, v) for c, v, _ in iou_hand)
            continue
        shown = obs.adv_hands[holder]
        assert shown.known == tuple(sorted(c for c, known in hand if seat in known))
        assert shown.unknown == len(hand) - len(shown.known)
        shown_ious = obs.iou_hands[holder]
        assert Counter(shown_ious.known) == Counter((c, v) for c, v, known in iou_hand if seat in known)
        assert shown_ious.unknown == len(iou_hand) - len(shown_ious.known)
    assert obs.adv_deck_known == tuple(sorted(c for c, known in adv["deck"] if seat in known))
    assert obs.adv_deck_unknown == len(adv["deck"]) - len(obs.adv_deck_known)
    assert len(obs.market) == len(ious["market"])
    for seen_row, row in zip(obs.market, ious["market"]):
        for seen, card in zip(seen_row, row):
            if card is None:
                assert seen is None
            elif _known_by(seat, card):
                assert seen == (card[0], card[1])
            else:
                assert seen == HIDDEN
    if state.phase == COMMIT:  # G-5.4: nothing of a commitment shows before all are in
        assert all(c < 0 for c in obs.commits)


def _unknown_count(state: GnadenlosState, seat: int) -> tuple[int, int]:
    """How many adventurers and IOUs the seat does not know (a reveal lowers it)."""
    full = state.to_json()
    adv, ious = full["adventurers"], full["ious"]
    adv_entries = adv["deck"] + [e for hand in adv["hands"] for e in hand]
    iou_entries = [e for hand in ious["hands"] for e in hand] + [e for row in ious["market"] for e in row if e]
    return (
        sum(1 for e in adv_entries if seat not in e[1]),
        sum(1 for e in iou_entries if seat not in e[2]),
    )


def _chance(state: GnadenlosState) -> tuple[Any, ...]:
    """What changes when chance is drawn: the streams and the sizes of the hidden decks."""
    full = state.to_json()
    return full["streams"], len(full["adventurers"]["deck"]), len(full["event_deck"])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.sampled_from([3, 4]), variant=VARIANTS, greedy=st.booleans())
def test_observation_shows_exactly_the_known_cards(
    seed: int, seats: int, variant: dict[str, str], greedy: bool
) -> None:
    """G-10: hands, deck and market as seen match the knowledge bitmasks."""
    rng = random.Random(seed)
    for state, _, _ in _random_walk(seats, seed, variant, rng, greedy):
        for seat in range(seats):
            _check_projection(state, seat)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.sampled_from([3, 4]), variant=VARIANTS, greedy=st.booleans())
def test_observation_is_the_same_in_every_determinization(
    seed: int, seats: int, variant: dict[str, str], greedy: bool
) -> None:
    """G-10: a determinization is indistinguishable from the truth for its seat."""
    rng = random.Random(seed)
    for step, (state, _, _) in enumerate(_random_walk(seats, seed, variant, rng, greedy)):
        if step % 3:
            continue
        seat = rng.randrange(seats)
        observation = state.observe(seat)
        for _ in range(3):
            world = GAME.determinize(observation, random.Random(rng.getrandbits(64)))
            assert world.observe(seat) == observation
            assert world.legal_actions(seat) == state.legal_actions(seat)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.sampled_from([3, 4]), variant=VARIANTS, greedy=st.booleans())
def test_a_quiet_step_tells_a_seat_nothing_new(
    seed: int, seats: int, variant: dict[str, str], greedy: bool
) -> None:
    """G-10: when a step draws no chance and reveals no card to a seat, what the
    seat sees afterwards (events and observation) is the same in every world
    it cannot tell from the true one: nothing hidden leaked through the step."""
    rng = random.Random(seed)
    compared = 0
    for before, decision, events in _random_walk(seats, seed, variant, rng, greedy):
        if decision is None:
            break
        after = before.clone()
        after.apply_unchecked(decision)
        if _chance(after) != _chance(before):
            continue
        for seat in range(seats):
            if _unknown_count(after, seat) != _unknown_count(before, seat):
                continue
            world = GAME.determinize(before.observe(seat), random.Random(rng.getrandbits(64)))
            try:
                world_events = world.apply(decision)
            except IllegalActionError:
                continue  # another seat's hidden choice is not possible in this world
            if _unknown_count(world, seat) != _unknown_count(before, seat):
                continue
            assert world.observe(seat) == after.observe(seat)
            assert [e for e in world_events if seat in e.visible_to] == [e for e in events if seat in e.visible_to]
            compared += 1
    assert compared > 0


@settings(max_examples=6, deadline=None)
@given(seed=BIG_SEEDS, seats=st.sampled_from([3, 4]), variant=VARIANTS)
def test_nothing_sent_to_a_seat_carries_the_seed(seed: int, seats: int, variant: dict[str, str]) -> None:
    """DESIGN.md: no observation or event a seat may see carries the match seed
    or a chance stream's seed."""
    secrets = [str(seed)] + [str(derive_seed(seed, name)) for name in ("adventurers", "events", "die", "market", "start")]
    state, setup_events = load_game(GAME.name, variant).new_state_with_events(seats, seed)
    rng = random.Random(seed)
    sent = [e for e in setup_events if e.visible_to]
    while True:
        for seat in range(seats):
            text = json.dumps(state.observe(seat).to_json())
            assert not any(s in text for s in secrets)
        if not state.to_act():
            break
        decision = {s: rng.choice(state.legal_actions(s)) for s in sorted(state.to_act())}
        sent.extend(e for e in state.apply(decision) if e.visible_to)
    assert sent
    for event in sent:
        text = json.dumps(event.to_json())
        assert not any(s in text for s in secrets), event.kind


def test_bidding_one_of_two_equal_cards_keeps_the_private_one_hidden() -> None:
    """G-6.4/G-10 (engine fix): green holds a public red 1 and a private one; red
    cannot tell this from green holding a private blue 4 instead. After green
    bids a red 1, red must still not be able to tell the two apart (the engine
    used to bid the private twin, so the public one stayed in sight)."""
    twin_a, twin_b = load("bid_twin_a"), load("bid_twin_b")
    assert twin_a.observe(0) == twin_b.observe(0)
    act(twin_a, Bid(((0, 1),)))
    act(twin_b, Bid(((0, 1),)))
    assert twin_a.observe(0) == twin_b.observe(0)
    assert twin_a.observe(0).iou_hands[1].unknown == 1


def test_refill_moves_keep_what_each_seat_knew_G_3_4_G_10() -> None:
    """G-3.4/G-10: a refill move is public; a face-down setup card stays hidden
    to all where it lands, a bid card stays known to all."""
    market = [
        [[1, 3], [1, 4], [2, 3], [2, 4], [3, 3], [3, 4]],
        [[2, 2, []], [3, 2], [1, 2, []], None, None, None],
    ]
    state = load("high_noon", ious={"market": market})
    act(state, Take(0, 0))
    act(state, Take(0, 5))
    act(state, Refill(0))  # the hidden blue 2 into (0, 0)
    act(state, Refill(1))  # the known yellow 2 into (0, 5)
    for seat in range(4):
        seen = state.observe(seat).market
        assert seen[0][0] == HIDDEN and seen[0][5] == (3, 2)
        assert seen[1] == (None, None, HIDDEN, None, None, None)


def test_payday_turn_up_makes_a_card_known_to_all_G_8_2_G_10() -> None:
    """G-8.2/G-10: a card turned up in a payday is known to all from then on,
    also back in its owner's hand."""
    market = scenario_json("payday_example")["ious"]["market"]
    market[3][0] = [2, 2, []]  # blue's 2 in column 1 was dealt face down
    state = load("payday_example", chance={"die": [1, 3, 2]}, ious={"market": market})
    assert state.to_json()["ious"]["hands"][2][-1] == [2, 2, [0, 1, 2, 3]]
    for seat in range(4):
        assert state.observe(seat).iou_hands[2].unknown == 0
