"""Both built-in bots play complete matches in process (`referee.match.play_bots`), for
3 and 4 seats and both variants (G-2.6, G-5.10), and the search behaves as
documented: seeded and reproducible (its generator shuffling as the standard
one), no thinking for a forced choice, rewards from the final ranking with
ties averaged (G-9.4)."""

from __future__ import annotations

import random

import pytest

from referee.games.base import IllegalActionError
from referee.games.gnadenlos.actions import Buy
from referee.games import load_game
from referee.match import play_bots

from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.mcts.bot import SearchRandom
from bots.mcts.search import rank_rewards
from bots.random import RandomBot
from bots.sdk import Bot
from tests.bots_support import GAME, context


@pytest.mark.parametrize(
    ("seats", "variant"),
    [(4, {}), (3, {}), (4, {"setup": "advanced"}), (3, {"gunfight_opt_out": "on"})],
)
def test_heuristic_and_mcts_play_complete_matches(seats: int, variant: dict[str, str]) -> None:
    bots: list[Bot] = [MctsBot(iterations=4, seed=1), HeuristicBot(), RandomBot(2), HeuristicBot()][:seats]
    result = play_bots(bots, seed=seats * 10 + len(variant), game=load_game("gnadenlos", variant))
    assert len(result.ranks) == seats
    assert result.end_reason in ("vultures", "undertaker", "goal", "safety_valve")
    assert result.seats[0].decisions > 0 and result.seats[1].decisions > 0


def test_heuristic_beats_random_bots() -> None:
    wins = 0.0
    for match in range(8):
        seat = match % 4
        bots: list[Bot] = [RandomBot(match * 4 + k) for k in range(4)]
        bots[seat] = HeuristicBot()
        ranks = play_bots(bots, seed=500 + match).ranks
        if ranks[seat] == 0:
            wins += 1 / ranks.count(0)
    assert wins >= 4  # measured 79 % over 200 matches (docs/benchmarks.md); 25 % by chance


def test_seeded_mcts_matches_are_reproducible() -> None:
    def play() -> tuple[int, ...]:
        bots: list[Bot] = [MctsBot(iterations=3, seed=9), HeuristicBot(), HeuristicBot()]
        return play_bots(bots, seed=77).ranks

    assert play() == play()


def test_forced_choice_takes_no_search() -> None:
    bot = MctsBot(iterations=50, seed=1)
    state = GAME.new_state(3, 1)
    seat = min(state.to_act())
    assert bot.decide(state.observe(seat), (Buy(0),), context(seat, 3)) == Buy(0)
    assert bot.stats.searches == 0


def test_search_reports_iterations_per_second() -> None:
    bot = MctsBot(iterations=25, seed=1)
    state = GAME.new_state(4, 2)
    seat = min(state.to_act())
    bot.decide(state.observe(seat), state.legal_actions(seat), context(seat, 4))
    assert bot.stats.iterations == 25 and bot.stats.searches == 1
    assert bot.stats.iterations_per_second > 0 and bot.stats.tree_nodes > 1


def test_search_stops_at_the_deadline() -> None:
    """A deadline already past leaves time for one iteration only."""
    bot = MctsBot(move_time=5.0, seed=1)
    state = GAME.new_state(4, 3)
    seat = min(state.to_act())
    bot.decide(state.observe(seat), state.legal_actions(seat), context(seat, 4, seconds=0.0))
    assert bot.stats.iterations == 1


def test_the_search_generator_shuffles_as_the_standard_one() -> None:
    """The search's own generator (its shuffle compiled) draws and shuffles
    exactly as `random.Random` for the same seed: a seeded search plays as
    it did with the standard one."""
    ours, theirs = SearchRandom("5:match:2"), random.Random("5:match:2")
    for size in [*range(12), 29, 52, 257, 1000]:
        mine, standard = list(range(size)), list(range(size))
        ours.shuffle(mine)
        theirs.shuffle(standard)
        assert mine == standard and sorted(mine) == list(range(size))
        assert ours.getrandbits(63) == theirs.getrandbits(63)
    assert ours.random() == theirs.random() and ours.randrange(7) == theirs.randrange(7)


def test_rank_rewards_average_shared_places() -> None:
    assert rank_rewards([30, 20, 10, 0]) == [1.0, 2 / 3, 1 / 3, 0.0]
    shared = (1.0 + 2 / 3) / 2
    assert rank_rewards([25, 25, 10, 0]) == pytest.approx([shared, shared, 1 / 3, 0.0])


def test_an_in_process_match_of_trusted_bots_raises_an_illegal_answer() -> None:
    class Cheat(Bot):
        name = "cheat"

        def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
            return Buy(99)

    with pytest.raises(IllegalActionError):
        play_bots([Cheat(), Cheat(), Cheat()], seed=1)
