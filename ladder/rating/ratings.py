"""TrueSkill ratings of multiplayer free-for-all matches.

One explicit `trueskill.TrueSkill` environment (never the package's global
`setup()`), one-player teams, `env.rate(groups, ranks)` with equal ranks for
ties. The places rated are the engine's ranking (for Gnadenlos! G-9.4:
three vultures last, then field, then nuggets; equal players share a rank)
after the referee's failure policy. A bot that forfeited is placed last
(below every bot that did not), whatever place the referee's fallback
policy reached with its seat: a forfeit is the bot's own failure and must
never pay.

The posterior probability that one bot is truly stronger than another
compares their *skills*, not one match's performances: P = Phi((mu1 - mu2) /
sqrt(s1^2 + s2^2)) (beta left out: with it the formula answers "how likely
does the upper bot finish ahead in the next match"). It is shown for
information only: whether a pair is settled is decided from the pairs'
shared duplicate sets (ladder.rating.evidence), whose error rate holds whenever
the ladder looks; TrueSkill's approximate posterior over correlated
duplicate matches has no such guarantee.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
import trueskill

from ladder.store.skill import Skill

MU = 25.0
SIGMA = MU / 3
BETA = SIGMA / 2
TAU = 0.0
"""No skill drift: a bot version's code never changes, so its strength does
not either, and sigma may shrink towards zero as evidence accumulates. The
package default (sigma / 100) adds drift before every match, which keeps
every sigma above about 0.73 and the ranking from ever settling; in the
simulation (docs/ladder.md, "Validation") tau = 0 orders the bots at least
as well (bench/ladder_validation_bench.py)."""
DRAW_PROBABILITY = 0.02
"""Gnadenlos! breaks ties by nuggets (G-9.4), so shared places are rare;
Saboteur shares more places, yet in the simulation a higher draw
probability ordered its bots no better (docs/ladder.md, "Validation")."""

MODEL = f"trueskill mu={MU:g} sigma={SIGMA:g} beta={BETA:g} tau={TAU:g} draw_probability={DRAW_PROBABILITY:g}"
"""The rating model's parameters as stored beside the ratings: a store rated
with other parameters is recomputed (ladder.rating.standings.current_ratings)."""


def make_env(tau: float = TAU, draw_probability: float = DRAW_PROBABILITY) -> trueskill.TrueSkill:
    """The ladder's TrueSkill environment (other tau and draw probabilities
    only for the validation by simulation). `backend=None` keeps the
    pure-Python normal functions, so stored and recomputed ratings agree to
    the last bit on every machine."""
    return trueskill.TrueSkill(
        mu=MU, sigma=SIGMA, beta=BETA, tau=tau, draw_probability=draw_probability, backend=None
    )


def rated_places(ranks: Sequence[int], forfeits: Sequence[str | None]) -> tuple[int, ...]:
    """The places used for rating: the referee's ranks, with every forfeiting
    seat moved below all the others (forfeits tie among themselves).

    Places are dense from 0 so ties keep sharing a place."""
    played = sorted({r for r, f in zip(ranks, forfeits) if f is None})
    dense = {r: i for i, r in enumerate(played)}
    last = len(played)
    return tuple(last if f is not None else dense[r] for r, f in zip(ranks, forfeits))


def rate_match(
    env: trueskill.TrueSkill, skills: Sequence[Skill], places: Sequence[int]
) -> list[Skill]:
    """New skills of a match's bots (seat order) after they finished in `places`."""
    groups = [(env.create_rating(mu=s.mu, sigma=s.sigma),) for s in skills]
    rated = env.rate(groups, ranks=list(places))
    return [Skill(group[0].mu, group[0].sigma) for group in rated]


def replay_ratings(
    env: trueskill.TrueSkill, matches: Iterable[tuple[Sequence[int], Sequence[int]]]
) -> dict[int, Skill]:
    """Ratings after rating `matches` (bot ids by seat, places) in order, from
    the initial rating: what `referee ladder --recompute` compares with the
    stored ratings."""
    skills: dict[int, Skill] = {}
    initial = Skill(env.mu, env.sigma)
    for bot_ids, places in matches:
        new = rate_match(env, [skills.get(b, initial) for b in bot_ids], places)
        skills.update(zip(bot_ids, new))
    return skills


def prob_stronger(upper: Skill, lower: Skill) -> float:
    """The probability that `upper`'s true skill exceeds `lower`'s (skills
    are independent normal beliefs; beta is left out, see the module doc)."""
    spread = math.sqrt(upper.sigma**2 + lower.sigma**2)
    if spread == 0:
        return 1.0 if upper.mu > lower.mu else 0.5
    return 0.5 * (1 + math.erf((upper.mu - lower.mu) / (spread * math.sqrt(2))))


def match_quality(env: trueskill.TrueSkill, skills: Sequence[Skill]) -> float:
    """TrueSkill's draw-based match quality of a table (1 = perfectly even)."""
    return float(env.quality([(env.create_rating(mu=s.mu, sigma=s.sigma),) for s in skills]))


def adjacent_confidences(ordered: Sequence[Skill]) -> list[float]:
    """For each adjacent pair of a ranking, P(the upper one is truly stronger)."""
    return [prob_stronger(a, b) for a, b in zip(ordered, ordered[1:])]


def ranking(skills: dict[int, Skill], bot_ids: Iterable[int], initial: Skill) -> list[int]:
    """`bot_ids` best first, by the conservative rating (a bot without a
    rating has `initial`); equal ratings keep the order given."""
    return sorted(bot_ids, key=lambda b: -skills.get(b, initial).conservative)


def initial_skill(env: trueskill.TrueSkill) -> Skill:
    return Skill(env.mu, env.sigma)
