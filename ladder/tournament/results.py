"""A tournament's table: points, a score with its interval, and two rankings.

A match scores each seat by whom it finished ahead of: one point shared
out over its k - 1 opponents (ahead of one: 1/(k-1), level with one: half
that), so a two-seat match scores 1, 1/2 or 0 as in chess, and a table of
four gives the winner 1 and the last 0. A bot's **points** are the sum over
its matches (a Swiss bye scores half a point for each match of the set it
sat out, as a draw would). The table ranks by points, then Buchholz (the
sum of the points of every opponent met, once per table shared), then the
seeding.

The **score** is a bot's mean over its duplicate sets of its mean match
score in the set, with a 95 % Wilson interval over the sets: sets are
dealt independently, while the rotations of one set share a deal. A set's
score lies in 0..1, and its variance is at most p(1 - p) for mean p, which
is what the Wilson interval assumes, so the interval is conservative.

Beside it: TrueSkill's conservative rating (the store rates every match as
the ladder does) and the Kemeny-Young order of the same results
(ladder.rating.ordinal), with the pairs where those two disagree.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from ladder.rating.ordinal import disagreements, ordinal_ranking
from ladder.rating.ratings import initial_skill, make_env
from ladder.rating.intervals import wilson
from ladder.rating.standings import head_to_head
from ladder.store.database import SeatRow, Store
from ladder.tournament.commitment import Tournament


@dataclass(frozen=True)
class Entry:
    """One bot's line of the final table."""

    bot_id: int
    bot: str
    points: float
    matches: int
    sets: int
    byes: int
    score: float | None
    """The mean set score (None before its first set)."""
    low: float
    high: float
    buchholz: float
    conservative: float
    """TrueSkill's mu - 3 sigma."""
    ordinal_rank: int
    """1-based place in the ordinal (Kemeny-Young) order."""


def match_scores(rows: list[SeatRow]) -> dict[int, float]:
    """Each bot's score in one match (its seats' rows): see the module doc."""
    others = len(rows) - 1
    return {a.bot_id: sum(1.0 if a.place < b.place else 0.5 if a.place == b.place else 0.0
                          for b in rows if b is not a) / others for a in rows}


def final_table(store: Store, tournament: Tournament) -> tuple[list[Entry], dict[str, Any]]:
    """The table, best first, and the ordinal ranking's JSON (method,
    order, agreement, disagreeing pairs)."""
    by_match: dict[str, list[SeatRow]] = defaultdict(list)
    for row in store.seat_rows(tournament.game, tournament.rule_set):
        by_match[row.match_id].append(row)
    points: defaultdict[int, float] = defaultdict(float)
    matches: Counter[int] = Counter()
    set_scores: dict[tuple[int, str], list[float]] = defaultdict(list)
    for rows in by_match.values():
        for bot, score in match_scores(rows).items():
            points[bot] += score
            matches[bot] += 1
            set_scores[(bot, rows[0].set_id)].append(score)
    byes: Counter[int] = Counter(b for entry in tournament.rounds for b in entry["out"])
    seats = int(tournament.schedule["seats"])
    for bot, n in byes.items():
        points[bot] += 0.5 * seats * n
    met: Counter[tuple[int, int]] = Counter()
    for _, table in tournament.tables():
        for a in table:
            for b in table:
                if a != b:
                    met[(a, b)] += 1
    seeding = [b["id"] for b in tournament.schedule["bots"]]
    labels = {b["id"]: b["label"] for b in tournament.schedule["bots"]}
    buchholz = {a: sum(points[b] * n for (x, b), n in met.items() if x == a) for a in seeding}
    order = sorted(seeding, key=lambda b: (-points[b], -buchholz[b], seeding.index(b)))
    env = make_env()
    skills = store.ratings(tournament.game, tournament.rule_set)
    h2h = head_to_head(store, tournament.game, tournament.rule_set)
    ordinal = ordinal_ranking(order, h2h)
    entries = []
    for bot in order:
        sets = [sum(s) / len(s) for (b, _), s in set_scores.items() if b == bot]
        low, high = wilson(sum(sets), len(sets))
        skill = skills.get(bot, initial_skill(env))
        entries.append(Entry(bot, labels[bot], points[bot], matches[bot], len(sets), byes[bot],
                             sum(sets) / len(sets) if sets else None, low, high, buchholz[bot],
                             skill.mu - 3 * skill.sigma, ordinal.order.index(bot) + 1))
    by_rating = sorted(seeding, key=lambda b: -(skills.get(b, initial_skill(env)).mu
                                                  - 3 * skills.get(b, initial_skill(env)).sigma))
    ordinal_json = {
        "method": ordinal.method, "agreement": ordinal.agreement,
        "order": [labels[b] for b in ordinal.order],
        "disagree_with_points": [[labels[a], labels[b]] for a, b in disagreements(order, ordinal.order)],
        "disagree_with_trueskill": [[labels[a], labels[b]] for a, b in disagreements(by_rating, ordinal.order)],
    }
    return entries, ordinal_json


def tournament_json(store: Store, tournament: Tournament) -> dict[str, Any]:
    """The tournament as the report, the live page and `--json` show it."""
    entries, ordinal = final_table(store, tournament)
    schedule = tournament.schedule
    total = sum(len(t) for _, t in tournament.tables())
    planned = len(store.planned(tournament.game, tournament.rule_set))
    return {
        "format": schedule["format"], "game": tournament.game, "rule_set": tournament.rule_set,
        "seats": schedule["seats"], "design": schedule["design"], "rounds": schedule["rounds"],
        "rounds_committed": len(tournament.rounds) if tournament.swiss else schedule["rounds"],
        "commitment": tournament.commitment, "deals_commitment": schedule["deals"]["commitment"],
        "round_commitments": [entry["commitment"] for entry in tournament.rounds],
        "matches_scheduled": total, "matches_played": store.match_count(tournament.game, tournament.rule_set),
        "matches_planned": planned,
        "table": [asdict(e) for e in entries],
        "ordinal": ordinal,
    }
