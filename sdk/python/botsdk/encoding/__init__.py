"""What a learning agent sees, computed from the protocol's messages: tensors, strings, action indices.

    from botsdk.encoding import encoding_for

    encoding = encoding_for("leduc", num_seats=2)
    tensor = encoding.information_state_tensor(observation)  # array("f"), numpy-free
    mask = encoding.legal_mask(legal_actions)                 # array("b"), num_actions long
    action = encoding.action_for(index, legal_actions)        # the message to answer with

The training environments of the repository (`envs`: OpenSpiel games,
PettingZoo environments) build every tensor, string and index through this
package, from the very message the referee sends a seat, so a policy
trained there reads the same numbers when it plays as a bot
(`botsdk.policy`). Each game's module documents its action index (size,
layout, why it covers every legal action) and its tensor's layout:
`botsdk.encoding.leduc` (OpenSpiel's `leduc_poker`, number for number),
`botsdk.encoding.gnadenlos`, `botsdk.encoding.saboteur`. Plain Python:
nothing here needs numpy.
"""

from __future__ import annotations

from botsdk.encoding.base import Encoding
from botsdk.encoding.gnadenlos import GnadenlosEncoding
from botsdk.encoding.leduc import LeducEncoding
from botsdk.encoding.saboteur import SaboteurEncoding

ENCODINGS: dict[str, type[GnadenlosEncoding] | type[LeducEncoding] | type[SaboteurEncoding]] = {
    "gnadenlos": GnadenlosEncoding,
    "leduc": LeducEncoding,
    "saboteur": SaboteurEncoding,
}


def encoding_for(game: str, num_seats: int) -> Encoding:
    """The encoding of `game` at a table of `num_seats`. Raises ValueError for a game without one."""
    if game not in ENCODINGS:
        raise ValueError(f"no encoding for game {game!r}; games with one: {', '.join(sorted(ENCODINGS))}")
    return ENCODINGS[game](num_seats)


__all__ = ["ENCODINGS", "Encoding", "encoding_for"]
