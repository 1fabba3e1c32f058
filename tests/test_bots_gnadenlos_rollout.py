"""The MCTS bot's Gnadenlos! rollouts play the heuristic's rules (issue 30).

The rollout policy (referee/games/gnadenlos/strategy/rollout.py) reads a
determinized state directly instead of building the heuristic's `SeatView`
at every step. It must choose exactly what the heuristic (`policy.decide`)
chooses for a seat that sees every card of that state: here `full_view`
builds such a view from the state (what the rollouts built before), and the
two are compared at every decision of seeded matches under every rule set,
in the true states and in determinizations of the deciding seat's
observation (what a search plays in).
"""

from __future__ import annotations

import random
from collections import Counter

from referee.games import load_game
from referee.games.gnadenlos.cards import IOU_COLOUR, IOU_VALUE, IOUS
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.gnadenlos.strategy import search
from referee.games.gnadenlos.strategy.policy import decide
from referee.games.gnadenlos.strategy.rollout import rollout_choice
from referee.games.gnadenlos.strategy.view import SeatView, Slot

RULE_SETS: tuple[dict[str, str], ...] = (
    {},
    {"gunfight_opt_out": "on"},
    {"auction": "single", "auction_order": "best", "auction_buy_limit": "one"},
    {"auction": "single", "auction_order": "best", "setup": "advanced", "gunfight_opt_out": "soft"},
)


def full_view(state: GnadenlosState, seat: int) -> SeatView:
    """The heuristic's view for `seat` if it saw every card of `state`."""
    market: list[list[Slot]] = [[None if c < 0 else IOUS[c] for c in row] for row in state.market]
    cards = [c for row in state.market for c in row if c >= 0]
    hands = [[IOUS[c] for c in hand] for hand in state.iou_hands]
    return SeatView(
        seat=seat, n=state.n, active=state.active, phase=state.phase or "", event=state.event,
        fields=state.fields, nuggets=state.nuggets, vultures=state.vultures, undertaker=state.undertaker,
        hand=state.adv_hands[seat], adv_known=state.adv_hands, adv_unknown=[0] * state.n, unseen_adventurers=(),
        ious=hands[seat], iou_known=hands, iou_unknown=[0] * state.n, market=market, filled=len(cards),
        exposure=float(sum(IOU_VALUE[c] for c in cards if IOU_COLOUR[c] == seat)),
        bid_totals=[None if b is None else (sum(IOU_VALUE[c] for c in b) if b else -1) for b in state.bids],
        bid_sizes=[len(b or ()) for b in state.bids], bid_order=state.bid_order,
        units=state.units[:1] if state.ordered else state.units, participants=state.participants,
    )


def test_rollouts_choose_as_the_heuristic_seeing_every_card() -> None:
    compared: Counter[str] = Counter()
    for number, variant in enumerate(RULE_SETS):
        game = load_game("gnadenlos", variant)
        for seats in (3, 4):
            rng = random.Random(number * 10 + seats)
            state = game.new_state(seats, 700 + number * 10 + seats)
            while not state.is_terminal():
                acting = sorted(state.to_act())
                worlds = [state, game.determinize(state.observe(acting[0]), rng)]
                for world in worlds:
                    assert isinstance(world, GnadenlosState)
                    for seat in acting:
                        legal = world.legal_actions(seat)
                        if len(legal) > 1:
                            assert rollout_choice(world, seat, legal) == decide(full_view(world, seat), legal), (
                                world.phase, seat, legal)
                            assert search.heuristic_rollout(world, seat, legal, rng) == rollout_choice(world, seat, legal)
                            compared[str(world.phase)] += 1
                # half the seats play the heuristic, half at random: more kinds of positions
                state.apply({s: rng.choice(state.legal_actions(s)) if s % 2 else
                             decide(full_view(state, s), state.legal_actions(s)) for s in acting})
    phases = {"commit", "bid", "buy", "pick", "take", "refill", "final_buy", "bid_position", "order"}
    assert set(compared) == phases, compared
    assert sum(compared.values()) > 1000, compared
