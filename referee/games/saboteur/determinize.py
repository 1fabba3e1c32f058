"""Determinization for Saboteur: a full state consistent with one observation.

The inverse of the observation (S-8): every card the seat knows goes back
where it saw it; the cards it does not know are dealt at random over the
places it cannot see: the other hands, the other seats' face-down discards and
the draw pile (deck cards); the other seats and the set-aside card (dwarf
cards); the face-down goals it has not looked at; the other seats' nuggets and
the supply. Knowledge bitmasks are rebuilt from what is public: a hand card is
known to its holder, a face-down discard to its discarder, a face-down goal to
the seats that looked at it, a dwarf or nugget card to its holder until the
round (dwarfs) or match (nuggets) ends.

The unseen nuggets are dealt uniformly: the deal does not use what the payout
rules (S-6.3, S-6.4) imply about other seats' values. Nuggets only count at
the end, so this affects nothing but a search bot's estimate of the ranking.

The new state's chance streams are seeded from the caller's generator, never
from the match seed, which no observation carries.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from referee.games.base import ChanceStream, derive_seed
from referee.games.saboteur import maze
from referee.games.saboteur.cards import (
    DECK,
    Pool,
    DIGGER_CARDS,
    EDGES,
    GOAL_CARDS,
    GOLD_DIGGER,
    NAME,
    NUGGET_CARDS,
    NUGGET_KIND,
    NUM_CARDS,
    SABOTEUR,
    SABOTEUR_CARDS,
    START_CARD,
)
from referee.games.saboteur.config import SaboteurConfig
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.state import STREAMS, SaboteurState


def _mask(seats: Iterable[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def determinize(obs: SaboteurObservation, rng: random.Random, cfg: SaboteurConfig) -> SaboteurState:
    """A state drawn at random among those consistent with `obs`.

    Raises ValueError if the observation is inconsistent (its counts do not add
    up to the game's cards).
    """
    state = SaboteurState()
    state.set_seats(obs.num_seats)
    state.cfg, state.lose_share = cfg, obs.sabotaged_diggers_lose_share
    state.seed = rng.getrandbits(63)
    state.streams = {name: ChanceStream(derive_seed(state.seed, name)) for name in STREAMS}
    state.round, state.turn, state.first = obs.round, obs.turn, obs.first_player
    state.active = max(obs.active, 0)
    state.over, state.end_reason = obs.over, obs.end_reason
    state.results = [
        {"round": r.round, "winners": r.winners, "reached_by": r.reached_by, "roles": list(r.roles),
         "set_aside": r.set_aside}
        for r in obs.results
    ]
    state.known = [0] * NUM_CARDS
    _deal_roles(state, obs, rng)
    _deal_goals(state, obs, rng)
    _deal_deck(state, obs, rng)
    _deal_nuggets(state, obs, rng)
    return state


def _deal_roles(state: SaboteurState, obs: SaboteurObservation, rng: random.Random) -> None:
    n, everyone = obs.num_seats, (1 << obs.num_seats) - 1
    diggers, saboteurs = state.cfg.role_counts(n)
    pools = Pool(DIGGER_CARDS[:diggers] + SABOTEUR_CARDS[:saboteurs], state.known)

    def mask(holder: int) -> int:
        return everyone if obs.over else 1 << holder if holder >= 0 else 0

    roles = [pools.take(name, mask(s)) if name else -1 for s, name in enumerate(obs.roles)]
    set_aside = pools.take(obs.set_aside, mask(-1)) if obs.set_aside else -1
    unseen = pools.rest()
    rng.shuffle(unseen)
    for seat in range(n):
        if roles[seat] < 0:
            roles[seat] = unseen.pop()
            state.known[roles[seat]] = mask(seat)
    if set_aside < 0:
        set_aside = unseen.pop()
        state.known[set_aside] = mask(-1)
    if unseen or {NAME[c] for c in roles} - {GOLD_DIGGER, SABOTEUR}:
        raise ValueError("inconsistent observation: dwarf cards")
    state.roles, state.set_aside = roles, set_aside


def _deal_goals(state: SaboteurState, obs: SaboteurObservation, rng: random.Random) -> None:
    everyone = (1 << obs.num_seats) - 1
    unseen = [c for c in GOAL_CARDS if NAME[c] not in {g.card for g in obs.goals}]
    rng.shuffle(unseen)
    pools = Pool(GOAL_CARDS, state.known)
    state.cells = {state.cfg.start_cell: (START_CARD, False)}
    state.edges = {state.cfg.start_cell: EDGES[START_CARD][0]}
    state.known[START_CARD] = everyone
    for placed in obs.maze:
        if placed.card != "start":
            state.cells[(placed.x, placed.y)] = (-1, placed.turned)  # filled by _deal_deck
    state.goals, state.goal_up = [], []
    for goal in obs.goals:
        name = goal.card if goal.card is not None else NAME[unseen.pop()]
        card = pools.take(name, everyone if goal.revealed else _mask(goal.seen_by))
        cell = (goal.x, goal.y)
        state.cells[cell] = (card, goal.turned)
        if goal.revealed:
            state.edges[cell] = EDGES[card][goal.turned]
        state.goals.append(card)
        state.goal_up.append(goal.revealed)


def _deal_deck(state: SaboteurState, obs: SaboteurObservation, rng: random.Random) -> None:
    n, seat = obs.num_seats, obs.seat
    everyone = (1 << n) - 1
    pools = Pool(DECK, state.known)
    for placed in obs.maze:
        if placed.card != "start":
            card = pools.take(placed.card, everyone)
            cell = (placed.x, placed.y)
            state.cells[cell] = (card, placed.turned)
            state.edges[cell] = EDGES[card][placed.turned]
    state.conn = maze.connected(state.cells, state.edges, state.cfg.start_cell)
    state.broken = [{tool: pools.take("break_" + tool, everyone) for tool in tools} for tools in obs.broken]
    state.discard = [pools.take(name, everyone) for name in obs.discard_public]
    state.discard += [pools.take(name, 1 << seat) for name in obs.discard_own]
    state.hands = [[] for _ in range(n)]
    state.hands[seat] = [pools.take(name, 1 << seat) for name in obs.hand]
    unseen = pools.rest()
    others = [s for s in range(n) if s != seat]
    wanted = obs.draw_pile + sum(obs.hand_counts[s] + obs.discard_face_down[s] for s in others)
    if len(unseen) != wanted or len(obs.hand) != obs.hand_counts[seat]:
        raise ValueError("inconsistent observation: deck card counts")
    rng.shuffle(unseen)
    for other in others:
        for _ in range(obs.hand_counts[other]):
            card = unseen.pop()
            state.known[card] = 1 << other
            state.hands[other].append(card)
        for _ in range(obs.discard_face_down[other]):
            card = unseen.pop()
            state.known[card] = 1 << other
            state.discard.append(card)
    state.pile = unseen


def _deal_nuggets(state: SaboteurState, obs: SaboteurObservation, rng: random.Random) -> None:
    n, everyone = obs.num_seats, (1 << obs.num_seats) - 1
    pools = Pool(NUGGET_CARDS, state.known)
    state.nuggets = [
        [pools.take(NUGGET_KIND[v], everyone if obs.over else 1 << s) for v in view.known]
        for s, view in enumerate(obs.nuggets)
    ]
    unseen = pools.rest()
    if len(unseen) != obs.supply + sum(view.unknown for view in obs.nuggets):
        raise ValueError("inconsistent observation: nugget counts")
    rng.shuffle(unseen)
    for owner, view in enumerate(obs.nuggets):
        for _ in range(view.unknown):
            card = unseen.pop()
            state.known[card] = 1 << owner
            state.nuggets[owner].append(card)
    state.supply = unseen
