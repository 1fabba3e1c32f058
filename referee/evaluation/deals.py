"""Evaluation deals: the seed of a match in which the evaluated seat holds a chosen card.

An evaluation match (`MatchStart.evaluation`, docs/records.md "Evaluation
deals") is dealt from a seed like any match, so that everything else
stays as it is — the deal's events, the commitment, the reveal in
`MatchEnd`, a record that `referee verify` replays. The referee only
chooses the seed: it draws seeds at random, from the operating system's
generator, until one deals the evaluated seat the card it wants. That is
rejection sampling: the other cards — the opponent's and the public card —
are then uniformly random among the cards left, exactly as in a fair deal
in which the seat happened to get that card. So the referee chooses only
what the seat sees at the start anyway (its own card), and a bot can learn
nothing about the hidden cards from the walk's choices, or from the deals
of the matches before.
"""

from __future__ import annotations

import random

from botsdk.fairness import Evaluation

from referee.games import load_game
from referee.games.leduc.observation import LeducObservation

PURPOSE = "exploitability"
SEATS = 2
"""Heads-up: the only table whose exploitability is computed."""
SEED_BITS = 63

_DRAW = random.SystemRandom()
"""Seeds from the operating system: nothing about the next deal follows from the last ones."""


def evaluation_seed(seat: int, card: int, *, draw: random.Random = _DRAW) -> int:
    """A random seed whose deal gives `seat` the private card `card`
    (in heads-up Leduc poker one seed in six). Raises ValueError for a seat
    or card the table does not have."""
    rules = load_game("leduc")
    if not 0 <= seat < SEATS or not 0 <= card < 2 * SEATS + 2:
        raise ValueError(f"heads-up Leduc poker has seats 0-1 and cards 0-5, not seat {seat}, card {card}")
    while True:
        seed = draw.getrandbits(SEED_BITS)
        view = rules.new_state(SEATS, seed).observe(seat)
        if isinstance(view, LeducObservation) and view.card == card:
            return seed


def evaluation_of(seat: int) -> Evaluation:
    """What the match tells every seat of itself: an exploitability
    evaluation in which `seat`'s card was chosen."""
    return Evaluation(PURPOSE, (seat,))
