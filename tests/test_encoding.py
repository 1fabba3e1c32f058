"""One encoder: the tensor, mask and action index a policy sees in training are a ladder bot's (issue 27, part 3).

Thousands of positions of random matches of every game (several table
sizes and rule sets) are taken two ways:

- as the training environments show them (`envs.pettingzoo`: the engine's
  observation through the game's codec into `botsdk.encoding`);
- as a bot receives them: the referee's own `Decide` bytes
  (`referee.protocol.codec.DecideEncoder`), parsed as the SDK's servicer
  parses them, the observation and legal actions taken out of the
  envelope, and encoded by `botsdk.encoding` on the bot's side.

The tensors and masks must be equal, every legal action offered must have
its own index within `num_actions`, and `action_for(index, legal)` must
give back the very message offered (the answer a bot sends). The action
index's documented bounds are checked on the same positions: Saboteur's
cells stay in the grid, Gnadenlos!'s takes in 9 rows.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from botsdk.encoding import encoding_for
from botsdk.encoding import gnadenlos as gnadenlos_encoding
from botsdk.encoding import saboteur as saboteur_encoding
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from envs.pettingzoo import TableSession
from envs.table import Table
from referee.games import load_game
from referee.protocol.codec import DecideEncoder, codec_for

TABLES = {
    "leduc": [(2, None, 250), (5, None, 60)],
    "gnadenlos": [(3, None, 5), (4, {"setup": "advanced", "gunfight_opt_out": "soft"}, 4),
                  (4, {"auction": "single", "auction_order": "best", "auction_buy_limit": "many"}, 4)],
    "saboteur": [(3, None, 4), (10, {"sabotaged_diggers_lose_share": "on"}, 2)],
}
"""Per game, the tables played: (seats, variant, matches), over a thousand positions."""


def bot_side(game: str, seat: int, session: TableSession) -> tuple[object, list[object]]:
    """The observation and legal actions of the seat's Decide, as a bot parses the referee's bytes."""
    table = session.table
    wire = DecideEncoder(codec_for(game)).encode(1, table.state.observe(seat), table.state.legal_actions(seat), 1000)
    decide = tpb.RefereeMessage.FromString(wire).decide
    return getattr(decide.observation, game), [getattr(action, game) for action in decide.legal_actions]


@pytest.mark.parametrize("game", sorted(TABLES))
def test_training_and_the_wire_give_the_same_numbers(game: str) -> None:
    positions = sum(compare_positions(game, seats, variant, matches) for seats, variant, matches in TABLES[game])
    assert positions >= 1000


def compare_positions(game: str, seats: int, variant: dict[str, str] | None, matches: int) -> int:
    """Plays the matches, comparing both sides at every decision; returns the positions compared."""
    session = TableSession(game, seats, variant, None, "raise")
    encoding = encoding_for(game, seats)
    rng = random.Random(seats)
    positions = actions = 0
    for match in range(matches):
        session.reset(seed=1000 * seats + match)
        while not session.table.is_over():
            for seat in session.table.deciding():
                observation, legal = bot_side(game, seat, session)
                env = session.observe(seat)
                bot_tensor = np.frombuffer(encoding.information_state_tensor(observation), np.float32)
                assert np.array_equal(env["observation"], bot_tensor)
                assert np.array_equal(env["action_mask"], np.frombuffer(encoding.legal_mask(legal), np.int8))
                indices = encoding.legal_indices(legal)
                assert len(set(indices)) == len(legal) >= 2
                assert all(0 <= index < encoding.num_actions for index in indices)
                for index, action in zip(indices, legal):
                    assert encoding.action_for(index, legal) is action
                assert env["observation"].min() >= 0.0
                positions += 1
                actions += len(legal)
                session.choose(seat, rng.choice(indices))
    print(f"{game} {seats} seats {variant}: {positions} positions, {actions} legal actions, each indexed once")
    return positions


MANY = [
    ("gnadenlos", 3, None), ("gnadenlos", 4, None), ("gnadenlos", 4, {"setup": "advanced"}),
    ("gnadenlos", 3, {"gunfight_opt_out": "on", "auction": "single", "auction_order": "best"}),
    ("saboteur", 3, None), ("saboteur", 5, None), ("saboteur", 10, None),
]


@pytest.mark.parametrize("game, seats, variant", MANY)
def test_every_legal_action_of_many_matches_has_its_own_index(game: str, seats: int,
                                                              variant: dict[str, str] | None) -> None:
    """Engine-side, over many more random matches: no two legal actions
    share an index and none falls outside the index (an out-of-grid cell or
    a tenth market row would raise)."""
    rng = random.Random(seats)
    decisions = 0
    for match in range(12):
        table = Table.new(load_game(game, variant), seats, 77 * match + seats)
        while not table.is_over():
            for seat in table.deciding():
                legal = table.legal(seat)
                assert len(legal) == len(table.state.legal_actions(seat))
                assert all(0 <= index < table.encoding.num_actions for index in legal)
                decisions += 1
                table.choose(seat, rng.choice(list(legal)))
    assert decisions > 12 * 40


def test_context_free_action_messages_round_trip() -> None:
    """Leduc's and Saboteur's indices name one message each, which indexes back to them."""
    leduc, saboteur = encoding_for("leduc", 2), encoding_for("saboteur", 4)
    for index in range(leduc.num_actions):
        assert leduc.action_index(leduc.action_message(index)) == index  # type: ignore[attr-defined]
    rng = random.Random(0)
    for index in [*range(saboteur_encoding.ROCKFALL - 5, saboteur_encoding.NUM_ACTIONS),
                  *rng.sample(range(saboteur.num_actions), 2000)]:
        assert saboteur.action_index(saboteur.action_message(index)) == index  # type: ignore[attr-defined]
    gnadenlos = encoding_for("gnadenlos", 4)
    for index in range(gnadenlos.num_actions):
        assert gnadenlos.action_index(gnadenlos.action_message(index)) == index  # type: ignore[attr-defined]


def test_the_documented_sizes() -> None:
    assert encoding_for("leduc", 2).num_actions == 3
    assert gnadenlos_encoding.NUM_ACTIONS == 2253 and len(gnadenlos_encoding.BIDS) == 1687
    assert saboteur_encoding.NUM_ACTIONS == 166_594 and saboteur_encoding.SIDE == 71


def test_messages_outside_the_index_are_refused() -> None:
    """A message the rules cannot offer has no index: a clear ValueError, never a wrong number."""
    from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as gpb
    from botsdk.pb.leduc.v1 import leduc_pb2 as lpb
    from botsdk.pb.saboteur.v1 import saboteur_pb2 as spb

    gnadenlos, saboteur, leduc = (encoding_for(g, 4) for g in ("gnadenlos", "saboteur", "leduc"))
    refused = [
        (leduc, lpb.Action()),
        (saboteur, spb.Action(place_path=spb.PlacePath(card=spb.CARD_NS, x=36, y=0))),
        (saboteur, spb.Action(map=spb.Map(x=1, y=1))),
        (saboteur, spb.Action(repair=spb.Repair(card=spb.CARD_MAP, target=0, tool=spb.TOOL_PICK))),
        (gnadenlos, gpb.Action(bid=gpb.Bid(colours=[0, 0], values=[0, 0]))),  # one 0 per colour
        (gnadenlos, gpb.Action(bid=gpb.Bid(colours=[0] * 4, values=[1] * 4))),  # at most 3 IOUs
        (gnadenlos, gpb.Action(take=gpb.Take(row=9, col=0))),
        (gnadenlos, gpb.Action()),
    ]
    for encoding, message in refused:
        with pytest.raises(ValueError):
            encoding.action_index(message)
    with pytest.raises(ValueError, match="not among the legal actions"):
        leduc.action_for(0, [lpb.Action(move=lpb.MOVE_CALL), lpb.Action(move=lpb.MOVE_RAISE)])
