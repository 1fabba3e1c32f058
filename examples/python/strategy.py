"""The starter bot's strategy: one simple, sensible rule per game (the same
rules as the JavaScript and C++ kits).

Every rule only scores the legal actions the referee offered, so the bot can
never play an illegal move; a kind of action the rules do not know (a new
variant's decision) scores 0, and ties go to the first action offered.
"""

from collections.abc import Callable, Sequence
from typing import Any

from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as gnadenlos
from botsdk.pb.leduc.v1 import leduc_pb2 as leduc
from botsdk.pb.saboteur.v1 import saboteur_pb2 as saboteur

DEAD_ENDS = range(saboteur.CARD_DEAD_NESW, saboteur.CARD_DEAD_E + 1)


def choose(game: str, observation: Any, legal: Sequence[Any]) -> Any:
    """The action to play among `legal`: the best score, ties to the first."""
    rules: dict[str, Callable[[Any, Any, Sequence[Any]], float]] = {
        "gnadenlos": gnadenlos_score, "saboteur": saboteur_score, "leduc": leduc_score}
    score = rules.get(game)
    if score is None:
        return legal[0]
    return max(legal, key=lambda action: score(observation, action, legal))  # max keeps the first of equals


def gnadenlos_score(observation: gnadenlos.Observation, action: gnadenlos.Action,
                    legal: Sequence[gnadenlos.Action]) -> float:
    """Gnadenlos!: bid cheaply (every IOU bid is paid back at a payday, G-8),
    buy prestige with half of what could be spent during the match (keep
    nuggets for paydays) and with all of it at the end (G-9.3)."""
    kind = action.WhichOneof("kind")
    if kind == "bid":
        total: int = sum(action.bid.values)
        return -(10 * total + len(action.bid.values))
    if kind == "buy":
        most = max(a.buy.steps for a in legal)
        return -abs(action.buy.steps - most // 2)
    if kind == "final_buy":
        return action.final_buy.steps
    return 0  # commit, take, refill, pick, opt out: the first offered


def saboteur_score(observation: saboteur.Observation, action: saboteur.Action,
                   legal: Sequence[saboteur.Action]) -> float:
    """Saboteur: a gold-digger digs towards the goals at x = 8 (S-4.1) with
    through paths and repairs tools; a saboteur blocks with dead ends and
    breaks tools. Both discard only when nothing better is left."""
    is_saboteur = observation.role == saboteur.CARD_SABOTEUR
    kind = action.WhichOneof("kind")
    if kind == "place_path":
        path = action.place_path
        if (path.card in DEAD_ENDS) == is_saboteur:
            return 100 + path.x - abs(path.y)  # nearer the goals is better
        return -50
    if kind == "repair":
        return -100 if is_saboteur else 50
    if kind == "break_tool":
        return 60 if is_saboteur else -100
    if kind == "discard":
        return 10 if action.discard.card in DEAD_ENDS else 0
    return -10  # a map, a rockfall: kept for later


def leduc_score(observation: leduc.Observation, action: leduc.Action, legal: Sequence[leduc.Action]) -> float:
    """Leduc poker: raise with a pair (L-5.2) or the highest rank, fold the
    lowest rank when calling costs chips in the second round, else call (or
    check)."""
    rank = observation.card // 2
    pair = observation.HasField("public_card") and observation.public_card // 2 == rank
    strong = pair or rank == observation.num_seats  # ranks run 0 .. num_seats
    owed = observation.stakes - observation.contributions[observation.seat]
    weak = rank == 0 and not pair and observation.round == 2 and owed > 0
    if action.move == leduc.MOVE_RAISE:
        return 2 if strong else 0
    if action.move == leduc.MOVE_FOLD:
        return 3 if weak else -1
    return 1
