"""Hostile bot: answers with actions that are valid, but not its own.

  impostor.py other-seat SEED   answers every decision with an action that
                                is legal for another seat (computed, as a
                                cheater who knew the deal, from the match's
                                seed) and not for its own
  impostor.py other-match       plays its first match legally; in every later
                                match answers with the request id and action
                                of the last decision of its previous match
"""

import sys

from raw_bot import decision, serve

from referee.games import load_game
from referee.protocol import codec as wire

mode = sys.argv[1]
remembered = {}


def other_seat_action(start, decide):
    state = load_game(start.game, dict(start.variant)).new_state(start.num_seats, int(sys.argv[2]))
    codec = wire.codec_for(start.game)
    mine = {action.SerializeToString() for action in decide.legal_actions}
    for seat in range(start.num_seats):
        if seat != start.seat and seat in state.to_act():
            for action in state.legal_actions(seat):
                encoded = wire.game_action(codec, action)
                if encoded.SerializeToString() not in mine:
                    return encoded
    return decide.legal_actions[0]


def answer(start, decide):
    if mode == "other-seat":
        stolen = remembered.setdefault(start.match_id, other_seat_action(start, decide))
        return decision(decide.request_id, stolen)
    previous = remembered.get("previous")
    if previous is not None and previous[0] != start.match_id:
        return decision(previous[1], previous[2])
    remembered["previous"] = (start.match_id, decide.request_id, decide.legal_actions[0])
    return decision(decide.request_id, decide.legal_actions[0])


serve(f"impostor-{mode}", answer)
