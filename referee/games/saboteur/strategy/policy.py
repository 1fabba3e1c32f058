"""The heuristic strategy for Saboteur: every legal action scored, the best played.

Scores are in *cards of tunnel*: 1.0 is one card's progress towards the gold
(referee/games/saboteur/strategy/tunnel.py). Every action uses up its card, so each score is
what the action gains minus what keeping that card would have been worth
(`keep`); a discard gains nothing and loses only its card, so when nothing is
useful the least useful card goes (S-3.1). A gold-digger scores progress
towards where it believes the gold lies; a saboteur scores the opposite, and
each weighs breaking and repairing tools by how likely the target is a
saboteur (`SaboteurView.saboteur_chance`). Ties go to the first legal
action, so the policy is deterministic. The reasoning behind every rule is in
docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.games.saboteur.actions import BreakTool, Discard, Map, PlacePath, Repair, Rockfall
from referee.games.saboteur.cards import ACTION, KINDS, PATH

from referee.games.saboteur.strategy.view import SaboteurView
from referee.games.saboteur.strategy.tunnel import card

WIN = 20.0
"""Reaching the gold ends the round and pays the gold-diggers (S-4.5, S-6.3)."""
BREAK_VALUE = 1.5
"""A broken tool stops a seat laying path cards (S-4.4) until it is repaired:
about a card and a half of tunnel that seat will not dig (or block)."""
SECOND_BREAK = 0.3
"""Share of that worth left when the target already has a broken tool: one
more card it must repair first."""
REPAIR_VALUE = 1.5
"""The same worth, given back (S-5.2)."""
MAP_VALUE = 1.3
"""Knowing where the gold is steers every later card (S-5.4): worth more than
one card of progress while the gold's place is open."""
IDLE_PLACEMENT = 0.01
"""A card laid where it changes nothing is no better than a discard of it,
and it clutters cells a later card may want: the discard wins the tie."""
ROCKFALL_REACH = 1
"""Only cards this near a goal (beyond the tunnel's distance) are worth clearing."""

DIGGER_KEEP = {"through": 0.5, "dead": 0.05, "break": 0.4, "repair": 0.6, "rockfall": 0.35, "map": 0.6}
"""What holding a card is worth to a gold-digger: through cards dig, repairs
help allies, dead ends only block."""
SABOTEUR_KEEP = {"through": 0.2, "dead": 0.6, "break": 0.7, "repair": 0.4, "rockfall": 0.6, "map": 0.4}
"""And to a saboteur: dead ends, broken tools and rockfalls are its weapons."""


def _family(name: str) -> str:
    if name.startswith("dead_"):
        return "dead"
    if name.startswith("break_"):
        return "break"
    if name.startswith("repair_"):
        return "repair"
    if name in ("rockfall", "map"):
        return name
    return "through"


FAMILY: dict[str, str] = {kind.name: _family(kind.name) for kind in KINDS if kind.family in (PATH, ACTION)}
"""Card kind -> the heuristic's family: through, dead, break, repair, rockfall or map."""


def keep(view: SaboteurView, name: str) -> float:
    """What keeping a card of kind `name` is worth to the seat. A crossroads
    or T fits more places than a straight or a curve; a map is worthless once
    the gold's place is known."""
    kind = FAMILY[name]
    table = SABOTEUR_KEEP if view.saboteur else DIGGER_KEEP
    value = table[kind]
    if kind == "through":
        value += 0.05 * (len(name) - 2)
    elif kind == "map" and view.gold_known:
        value = 0.0
    return value


def decide(view: SaboteurView, legal: Sequence[Any]) -> Any:
    """The heuristic's choice among `legal` (at least one action)."""
    if len(legal) == 1:
        return legal[0]
    best, best_score = legal[0], -float("inf")
    for action in legal:
        score = score_action(view, action)
        if score > best_score:
            best, best_score = action, score
    return best


def score_action(view: SaboteurView, action: Any) -> float:
    """The score of one legal action; a pass (an empty hand's only action) scores 0."""
    rule = RULES.get(type(action))
    return rule(view, action) if rule is not None else 0.0


def _side(view: SaboteurView) -> float:
    """+1 for a gold-digger (progress is good), -1 for a saboteur."""
    return -1.0 if view.saboteur else 1.0


def place_score(view: SaboteurView, action: PlacePath) -> float:
    """S-4: a gold-digger digs towards the gold and reaches it when it can; a
    saboteur closes the best open end with a dead end or turns the tunnel
    away, and never reaches the gold."""
    progress, reach = view.outlook.place((action.x, action.y), card(action.card, action.turned))
    idle = IDLE_PLACEMENT if progress == 0 and reach == 0 else 0.0
    return _side(view) * (progress + WIN * reach) - keep(view, action.card) - idle


def break_score(view: SaboteurView, action: BreakTool) -> float:
    """S-5.1: break the tools of the likely other side. The more likely the
    target is on the other side, the more it is worth; a target that already
    has a broken tool loses less by one more."""
    if action.target == view.seat:
        return -WIN
    enemy = view.saboteur_chance(action.target)
    if view.saboteur:
        enemy = 1.0 - enemy
    worth = BREAK_VALUE * (SECOND_BREAK if view.broken[action.target] else 1.0)
    soon = 0.01 * ((action.target - view.seat) % view.n)  # among equals, the seat that plays next
    return worth * (2 * enemy - 1) - soon - keep(view, "break_" + action.tool)


def repair_score(view: SaboteurView, action: Repair) -> float:
    """S-5.2: repair itself and likely allies; a repair that frees the seat
    to lay path cards again (its only broken tool) is worth most."""
    friend = view.saboteur_chance(action.target)
    if not view.saboteur:
        friend = 1.0 - friend
    worth = REPAIR_VALUE * (1.0 if len(view.broken[action.target]) == 1 else 0.5)
    return worth * (2 * friend - 1) - keep(view, action.card)


def rockfall_score(view: SaboteurView, action: Rockfall) -> float:
    """S-5.3: a gold-digger clears a dead end in its way; a saboteur cuts the
    tunnel nearest the gold. Only cards near a goal are worth weighing."""
    outlook = view.outlook
    cell = (action.x, action.y)
    near = any(abs(cell[0] - g[0]) + abs(cell[1] - g[1]) <= best + ROCKFALL_REACH
               for g, _, best, _, _, _ in outlook.goals)
    if not near:
        return -WIN
    return _side(view) * outlook.remove(cell) - keep(view, "rockfall")


def map_score(view: SaboteurView, action: Map) -> float:
    """S-5.4: look at a goal while the gold's place is open, the goal the
    tunnel is nearest first (it matters soonest)."""
    cell = (action.x, action.y)
    if view.gold_known or cell not in view.unknown_goals:
        return -keep(view, "map") - 0.01
    distance = next((best for g, _, best, _, _, _ in view.outlook.goals if g == cell), 0)
    return MAP_VALUE - 0.01 * distance - keep(view, "map")


def discard_score(view: SaboteurView, action: Discard) -> float:
    """S-3.1: a pass loses only the card."""
    return -keep(view, action.card)


RULES: dict[type, Callable[[SaboteurView, Any], float]] = {
    PlacePath: place_score,
    BreakTool: break_score,
    Repair: repair_score,
    Rockfall: rockfall_score,
    Map: map_score,
    Discard: discard_score,
}
"""The rule that scores each type of action (by exact type: a dict lookup is
several times cheaper than isinstance checks against the Action base class)."""
