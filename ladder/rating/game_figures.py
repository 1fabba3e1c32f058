"""What a game's results mean beyond the places, read from stored results.

Poker is measured in chips (rules L-7): a Leduc bot's chips won per 100
hands, with a 95 % interval over its duplicate sets — a set plays one deal
sequence from every seat, so its chips are the unit whose luck is mostly
cancelled; the set's figure is the bot's chips in the set over its hands
there. The interval is the normal one, mean ± 1.96 standard errors over the
sets (none before two sets).

Saboteur is played in roles (S-2.1): how a bot does as a gold-digger and as
a saboteur, from the roles revealed at each round's end (S-6.2), which the
record's footer lists per finished round (the store's match summary). Per
role: rounds played, rounds its team won; and a team rating per role
(TrueSkill, each round a game of the gold-diggers' team against the
saboteurs', as Kaggle's Werewolf evaluator rates each role's team), each
(bot, role) rated apart. A round without a saboteur in play is nobody's win
(S-6.4) and rated for no one. Only what the summary holds is read, and only
of finished matches: nothing of a match in play.

A bot's rank "rests on one role" when it is above the next row of the
standings by one role's rating and below it by the other's: its place would
change if the roles fell otherwise.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import trueskill

from ladder.rating.ratings import make_env
from ladder.store.database import Store
from ladder.store.skill import Skill
from referee.games.plugin import match_format_of

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""

ROLES = ("gold_digger", "saboteur")
"""Saboteur's roles, as the engine names them (S-2.1) and the JSON keys them."""
ROLE_TITLES = {"gold_digger": "gold-digger", "saboteur": "saboteur"}
GOLD_DIGGERS_WIN = "gold_diggers"
"""A round result's `winners` when the gold was reached (S-6.3)."""


@dataclass(frozen=True)
class ScoreRate:
    """A bot's score per `per` deals (chips per 100 hands) over its duplicate sets."""

    score: str
    per: int
    rate: float
    low: float | None
    high: float | None
    """The 95 % interval; None with fewer than two sets."""
    sets: int
    deals: int

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "per": self.per, "rate": self.rate, "low": self.low, "high": self.high,
                "sets": self.sets, "deals": self.deals}


@dataclass(frozen=True)
class RoleRecord:
    """A bot's rounds in one Saboteur role."""

    role: str
    rounds: int
    won: int
    mu: float
    sigma: float

    @property
    def win_share(self) -> float | None:
        return self.won / self.rounds if self.rounds else None

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "rounds": self.rounds, "won": self.won, "win_share": self.win_share,
                "team_mu": self.mu, "team_sigma": self.sigma, "team_conservative": self.mu - 3 * self.sigma}


def _summaries(store: Store, game: str, rule_set: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(match row, its summary) of every stored match, in rating order."""
    return [(row, json.loads(row["summary"])) for row in store.matches(game, rule_set)]


def score_rates(store: Store, game: str, rule_set: str = "") -> dict[int, ScoreRate]:
    """Bot id -> its score rate (chips per 100 hands), for a game ranked by a
    score (a match format, L-7); {} for any other game."""
    return {bot: rate for (bot, opponent), rate in _rates(store, game, rule_set, pairs=False).items()}


def pair_score_rates(store: Store, game: str, rule_set: str = "") -> dict[tuple[int, int], ScoreRate]:
    """(bot, opponent) -> the bot's score rate over the matches it shared with
    the opponent (heads-up, the chips it won from it), as `score_rates`."""
    return _rates(store, game, rule_set, pairs=True)


def _rates(store: Store, game: str, rule_set: str, pairs: bool) -> dict[tuple[int, int], ScoreRate]:
    """Score rates by (bot, opponent) over the matches they shared, or by
    (bot, -1) over all the bot's matches; the unit is the duplicate set."""
    declared = match_format_of(game)
    if declared is None:
        return {}
    bots_of: dict[str, dict[int, int]] = defaultdict(dict)
    for row in store.seat_rows(game, rule_set):
        bots_of[row.match_id][row.seat] = row.bot_id
    won: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    deals: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for match, summary in _summaries(store, game, rule_set):
        scores, count = summary.get("scores"), summary.get(declared.parameter)
        if not isinstance(scores, list) or not isinstance(count, int):
            continue  # a match of one deal, played before the match format: no score to count
        seated = bots_of[match["match_id"]]
        for seat, bot in seated.items():
            for opponent in ([other for other in seated.values() if other != bot] if pairs else [-1]):
                won[(bot, opponent)][match["set_id"]] += float(scores[seat])
                deals[(bot, opponent)][match["set_id"]] += count
    rates = {}
    for key, sets in won.items():
        per_set = [declared.per * sets[s] / deals[key][s] for s in sets]
        mean = statistics.fmean(per_set)
        half = Z95 * statistics.stdev(per_set) / math.sqrt(len(per_set)) if len(per_set) > 1 else None
        rates[key] = ScoreRate(declared.score, declared.per, mean, None if half is None else mean - half,
                               None if half is None else mean + half, len(per_set), sum(deals[key].values()))
    return rates


def role_records(store: Store, game: str, rule_set: str = "") -> dict[int, dict[str, RoleRecord]]:
    """Bot id -> role -> its rounds in that role, for a game whose finished
    rounds reveal roles (Saboteur, S-6.2); {} for any other game."""
    bots_of: dict[str, dict[int, int]] = defaultdict(dict)
    for row in store.seat_rows(game, rule_set):
        bots_of[row.match_id][row.seat] = row.bot_id
    env = make_env()
    skills: dict[tuple[int, str], Skill] = {}
    rounds: dict[tuple[int, str], int] = defaultdict(int)
    won: dict[tuple[int, str], int] = defaultdict(int)
    for match, summary in _summaries(store, game, rule_set):
        for result in summary.get("rounds") or ():
            roles = result.get("roles")
            if not isinstance(roles, list):
                continue
            seats = bots_of[match["match_id"]]
            teams = {role: [(seats[seat], role) for seat, r in enumerate(roles) if r == role and seat in seats]
                     for role in ROLES}
            winner = "gold_digger" if result.get("winners") == GOLD_DIGGERS_WIN else "saboteur"
            for role, members in teams.items():
                for key in members:
                    rounds[key] += 1
                    won[key] += role == winner
            if all(teams.values()):  # no saboteur in play: nobody's win (S-6.4), rated for no one
                _rate_round(env, skills, teams, winner)
    out: dict[int, dict[str, RoleRecord]] = defaultdict(dict)
    for (bot, role), played in rounds.items():
        skill = skills.get((bot, role), Skill(env.mu, env.sigma))
        out[bot][role] = RoleRecord(role, played, won[(bot, role)], skill.mu, skill.sigma)
    for roles_of in out.values():
        for role in ROLES:
            roles_of.setdefault(role, RoleRecord(role, 0, 0, env.mu, env.sigma))
    return dict(out)


def _rate_round(env: trueskill.TrueSkill, skills: dict[tuple[int, str], Skill],
                teams: dict[str, list[tuple[int, str]]], winner: str) -> None:
    """One round as a game of two teams, the winner's first."""
    order = [teams[role] for role in ROLES]
    groups = [[env.create_rating(*_pair(skills.get(key, Skill(env.mu, env.sigma)))) for key in team]
              for team in order]
    rated = env.rate(groups, ranks=[0 if role == winner else 1 for role in ROLES])
    for team, ratings in zip(order, rated):
        for key, rating in zip(team, ratings):
            skills[key] = Skill(rating.mu, rating.sigma)


def _pair(skill: Skill) -> tuple[float, float]:
    return skill.mu, skill.sigma


def rests_on(order: Sequence[int], records: dict[int, dict[str, RoleRecord]]) -> dict[int, str]:
    """Bot id -> the one role its place above the next row rests on, for
    each row of the standings `order` (bot ids, best first) that is above
    the next by one role's team rating (mu) and below it by the other's."""
    out: dict[int, str] = {}
    for upper, lower in zip(order, order[1:]):
        if upper not in records or lower not in records:
            continue
        ahead = [role for role in ROLES if records[upper][role].mu > records[lower][role].mu]
        if len(ahead) == 1:
            out[upper] = ahead[0]
    return out
