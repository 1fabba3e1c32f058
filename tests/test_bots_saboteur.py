"""The built-in bots play Saboteur (issue 7).

- Both bots complete in-process matches (`referee.match.play_bots`) at 3, 5 and 10 seats.
- Honesty (S-8): the MCTS bot's decision, with a fixed seed and iteration
  count, is the same for two true states that give its seat the same
  observation but differ in what it cannot see (roles, hands, goals, pile).
- Sanity: in hand-built positions with an obviously right move each bot finds
  it: reach the gold it knows (S-4.5), block the cell before the gold as a
  saboteur, break the one gold-digger who can still dig (S-5.1), repair its
  own pick (S-4.4, S-5.2); and the heuristic breaks the seat that attacked it,
  an inference it draws from the events alone (S-8), on a maze it rebuilds
  from those events.
"""

from __future__ import annotations

import random

import pytest

from referee.games.base import Action, Observation
from referee.games.saboteur.actions import BreakTool, Discard, PlacePath, Repair
from referee.games.saboteur.game import GAME as SABOTEUR_RULES
from referee.games.saboteur.state import SaboteurState
from referee.match import play_bots

from bots.heuristic import HeuristicBot
from referee.games.saboteur.strategy.view import tunnel_from_observation
from referee.games.saboteur.strategy.suspicion import Suspicion
from bots.mcts import MctsBot
from referee.games.saboteur.strategy.search import RoleDeal
from bots.random import RandomBot
from bots.sdk import Bot, MatchInfo
from tests.bots_support import SABOTEUR, context, decide, saboteur_scenario


@pytest.mark.parametrize("seats", [3, 5, 10])
def test_heuristic_and_mcts_play_complete_matches(seats: int) -> None:
    mcts = MctsBot(iterations=3, seed=1)
    bots: list[Bot] = [mcts, HeuristicBot()] + [
        RandomBot(k) if k % 2 else HeuristicBot() for k in range(2, seats)
    ]
    result = play_bots(bots, seed=seats, game="saboteur")
    assert len(result.ranks) == seats
    assert result.end_reason == "rounds_played"
    assert result.seats[0].decisions > 0 and result.seats[1].decisions > 0
    assert mcts.stats.searches > 0 and mcts.stats.mean_iterations_per_second > 0


def test_seeded_mcts_matches_are_reproducible() -> None:
    def play() -> tuple[int, ...]:
        bots: list[Bot] = [MctsBot(iterations=3, seed=9), HeuristicBot(), HeuristicBot(), RandomBot(1)]
        return play_bots(bots, seed=78, game="saboteur").ranks

    assert play() == play()


# ------------------------------------------------------------------ honesty


def _position(seats: int, seed: int, decisions: int) -> SaboteurState:
    """A match played by heuristic bots for a number of decisions."""
    state = SABOTEUR.new_state(seats, seed)
    assert isinstance(state, SaboteurState)
    bot = HeuristicBot()
    for _ in range(decisions):
        state.apply({s: decide(bot, state, s) for s in state.to_act()})
    return state


def _hidden(state: SaboteurState, seat: int) -> tuple[object, ...]:
    """What `seat` cannot see: the others' roles and hands, the goals, the pile."""
    others = [s for s in range(state.n) if s != seat]
    roles = tuple(state.roles[s] for s in others) + (state.set_aside,)
    hands = tuple(tuple(sorted(state.hands[s])) for s in others)
    return roles, hands, tuple(state.goals), tuple(state.pile)


def _twin(observation: Observation, seed: int) -> SaboteurState:
    """A true state drawn among those that give the seat this observation."""
    state = SABOTEUR.determinize(observation, random.Random(seed))
    assert isinstance(state, SaboteurState)
    return state


@pytest.mark.parametrize(("seats", "seed", "decisions"), [(4, 1, 0), (5, 2, 9), (10, 3, 25)])
def test_same_observation_same_decision(seats: int, seed: int, decisions: int) -> None:
    played = _position(seats, seed, decisions)
    seat = min(played.to_act())
    observation = played.observe(seat)
    twins = [_twin(observation, k) for k in (100, 200)]
    assert twins[0].observe(seat) == twins[1].observe(seat) == observation
    assert _hidden(twins[0], seat) != _hidden(twins[1], seat), "the twins must differ in hidden cards"
    choices = [decide(MctsBot(iterations=40, seed=5), twin, seat) for twin in twins]
    assert choices[0] == choices[1]


# ------------------------------------------------------------------ sanity


def bots() -> list[tuple[str, Bot]]:
    return [("heuristic", HeuristicBot()), ("mcts", MctsBot(iterations=150, seed=11))]


def _reaches_gold(state: SaboteurState, action: Action) -> bool:
    """Whether `action` ends the round with the gold reached (S-4.5, S-6.1)."""
    after = state.clone()
    after.apply({after.active: action})
    return bool(after.results) and after.results[-1]["winners"] == "gold_diggers"


@pytest.mark.parametrize(("label", "bot"), bots(), ids=[b[0] for b in bots()])
def test_gold_digger_reaches_the_gold_it_knows(label: str, bot: Bot) -> None:
    state = saboteur_scenario("digger_reaches_gold")
    action = decide(bot, state, 0)
    assert action == PlacePath("nesw", 7, 0)
    assert _reaches_gold(state, action)


@pytest.mark.parametrize(("label", "bot"), bots(), ids=[b[0] for b in bots()])
def test_saboteur_does_not_connect_to_the_gold(label: str, bot: Bot) -> None:
    state = saboteur_scenario("saboteur_blocks")
    assert _reaches_gold(state, PlacePath("nesw", 7, 0)), "the scenario offers the saboteur the gold"
    action = decide(bot, state, 1)
    assert not _reaches_gold(state, action)
    assert action == PlacePath("dead_ew", 7, 0)  # the dead end closes the cell before the gold


@pytest.mark.parametrize(("label", "bot"), bots(), ids=[b[0] for b in bots()])
def test_saboteur_breaks_the_gold_digger_who_can_still_dig(label: str, bot: Bot) -> None:
    state = saboteur_scenario("break_the_digger")
    assert decide(bot, state, 0) == BreakTool("pick", 2)


@pytest.mark.parametrize(("label", "bot"), bots(), ids=[b[0] for b in bots()])
def test_gold_digger_repairs_its_own_pick(label: str, bot: Bot) -> None:
    state = saboteur_scenario("repair_own_pick")
    assert not any(isinstance(a, PlacePath) for a in state.legal_actions(0))  # S-4.4
    assert decide(bot, state, 0) == Repair("repair_pick", 0, "pick")


def test_heuristic_breaks_the_seat_that_attacked_it() -> None:
    """Seat 2 breaks the pick of seat 0, a gold-digger; seat 3 discards. Told
    those events, seat 0 breaks seat 2's cart; a bot shown only the
    observation (which does not say who broke the pick) does not."""
    state = saboteur_scenario("suspect")
    told = HeuristicBot()
    info = MatchInfo("test", "saboteur", {}, 0, 4, ("bot",) * 4, context(0, 4).match.time_control)
    told.on_match_start(info, state.observe(0))
    for seat, action in ((2, BreakTool("pick", 0)), (3, Discard("nw"))):
        events = state.apply({seat: action})
        told.on_events([e for e in events if 0 in e.visible_to])
    assert decide(told, state, 0) == BreakTool("cart", 2)
    assert decide(HeuristicBot(), state, 0) != BreakTool("cart", 2)


def test_mcts_deals_unseen_roles_by_its_suspicion() -> None:
    """The MCTS bot's determinizations deal the dwarf cards it cannot see
    (other seats and the set-aside card, S-2.1) by its suspicion scores, and
    every one still gives its seat the observation it had (S-8)."""
    state = saboteur_scenario("suspect")
    observation = state.observe(0)
    deal = RoleDeal()
    deal.prepare(observation, [0.0, -2.0, 3.0, 0.0])
    rng = random.Random(1)
    saboteur_seats = []
    for _ in range(200):
        world = SABOTEUR.determinize(observation, rng)
        assert isinstance(world, SaboteurState)
        deal(world, observation, rng)
        assert world.observe(0) == observation
        saboteur_seats += [s for s in range(4) if world.observe(s).role == "saboteur"]
    # odds 20 : 1 : 1 : 0.14 for seat 2, seat 3, the set-aside card, seat 1
    assert saboteur_seats.count(2) > 160 and saboteur_seats.count(1) < 10


@pytest.mark.parametrize("seats", [3, 7])
def test_suspicion_tracker_replays_the_maze_from_events(seats: int) -> None:
    """The tracker judges each move on its own copy of the maze, rebuilt from
    the events alone (placements, rockfalls, goals turned up, new rounds):
    after every decision of a match it equals the maze the observation shows."""
    state, setup = SABOTEUR_RULES.new_state_with_events(seats, seats)
    tracker = Suspicion()
    tracker.sync(state.observe(0))
    tracker.on_events([e for e in setup if 0 in e.visible_to])
    players: list[Bot] = [HeuristicBot() if s % 2 else RandomBot(s) for s in range(seats)]
    rockfalls = reveals = 0
    while not state.is_terminal():
        seat = state.active
        events = state.apply({seat: decide(players[seat], state, seat)})
        tracker.on_events([e for e in events if 0 in e.visible_to])
        rockfalls += sum(e.kind == "rockfall" for e in events)
        reveals += sum(e.kind == "goal_revealed" for e in events)
        if not state.is_terminal():
            shown = tunnel_from_observation(state.observe(0))
            assert (tracker.tunnel.cards, tracker.tunnel.hidden) == (shown.cards, shown.hidden)
    assert rockfalls and reveals, "the match should exercise rockfalls and goals turned up"
