"""The served random bot (`python -m bots.random`, ProtocolRandomBot, on the
protocol's messages) chooses exactly as RandomBot does on engine values."""

from __future__ import annotations

import random

from botsdk import DecisionContext, MatchInfo, TimeControl

from bots.random.bot import ProtocolRandomBot, RandomBot
from referee.games import load_game
from referee.protocol.codec import codec_for


def test_the_served_random_bot_makes_the_engine_random_bots_choices():
    game, codec = load_game("gnadenlos"), codec_for("gnadenlos")
    state = game.new_state(4, 12)
    match = MatchInfo(match_id="m7", game="gnadenlos", variant={}, seat=0, num_seats=4,
                      seat_names=("a", "b", "c", "d"), time_control=TimeControl())
    engine_bot, served_bot = RandomBot(9), ProtocolRandomBot(9)
    engine_bot.on_match_start(match, state.observe(0))
    served_bot.on_match_start(match, codec.encode_observation(state.observe(0)))
    others, asked = random.Random(1), 0
    while not state.is_terminal():
        actions = {}
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            if seat == 0 and len(legal) > 1:
                context = DecisionContext(match, asked + 1, 0.0)
                messages = [codec.encode_action(a) for a in legal]
                chosen = engine_bot.decide(state.observe(0), legal, context)
                assert served_bot.decide(codec.encode_observation(state.observe(0)), messages, context) \
                    is messages[legal.index(chosen)]
                actions[seat], asked = chosen, asked + 1
            else:
                actions[seat] = others.choice(legal)
        state.apply(actions)
    assert asked > 10
