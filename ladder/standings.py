"""The standings of a game's ladder, computed from the store.

Rows are sorted by the conservative rating mu - 3 sigma (TrueSkill's
`expose` with the default mu/sigma ratio): a bot with few matches is not
ranked above a proven one on luck. For each row the probability that it is
truly stronger than the row below is given (see ladder.ratings for the
formula and why it leaves out beta).

Wins and places are the rated ones: a forfeiting bot finished last.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from ladder.ratings import MU, SIGMA, Skill, adjacent_confidences
from ladder.store import SeatRow, Store


@dataclass(frozen=True)
class Standing:
    rank: int
    bot_id: int
    bot: str
    version: str
    active: bool
    mu: float
    sigma: float
    conservative: float
    matches: int
    wins: int
    average_place: float | None
    """1 = always first; None before the first match."""
    forfeits: int
    last_played: str | None
    p_above_next: float | None
    """P(this bot is truly stronger than the next row's); None for the last row."""


def standings(store: Store, game: str, *, include_retired: bool = False) -> list[Standing]:
    """The ranking of `game`: every active bot that plays it (and, with
    `include_retired`, every older version that has a rating)."""
    ratings = store.ratings(game)
    seats = store.seat_rows(game)
    bots = [
        b for b in store.bots()
        if (b.active and game in b.games) or (include_retired and b.bot_id in ratings)
    ]
    played: dict[int, list[SeatRow]] = defaultdict(list)
    for row in seats:
        played[row.bot_id].append(row)
    initial = Skill(MU, SIGMA)
    ordered = sorted(bots, key=lambda b: (-ratings.get(b.bot_id, initial).conservative, b.name))
    confidences = adjacent_confidences([ratings.get(b.bot_id, initial) for b in ordered])
    result = []
    for i, bot in enumerate(ordered):
        skill = ratings.get(bot.bot_id, initial)
        rows = played[bot.bot_id]
        result.append(Standing(
            rank=i + 1, bot_id=bot.bot_id, bot=bot.name, version=bot.version, active=bot.active,
            mu=skill.mu, sigma=skill.sigma, conservative=skill.conservative, matches=len(rows),
            wins=sum(r.place == 0 for r in rows),
            average_place=sum(r.place + 1 for r in rows) / len(rows) if rows else None,
            forfeits=sum(r.forfeit is not None for r in rows),
            last_played=max((r.finished_at for r in rows), default=None),
            p_above_next=confidences[i] if i < len(confidences) else None,
        ))
    return result


def head_to_head(store: Store, game: str) -> dict[tuple[int, int], tuple[int, int]]:
    """(a, b) -> (matches where a finished ahead of b, matches a and b played together)."""
    by_match: dict[str, list[SeatRow]] = defaultdict(list)
    for row in store.seat_rows(game):
        by_match[row.match_id].append(row)
    ahead: Counter[tuple[int, int]] = Counter()
    together: Counter[tuple[int, int]] = Counter()
    for rows in by_match.values():
        for a in rows:
            for b in rows:
                if a.bot_id != b.bot_id:
                    together[(a.bot_id, b.bot_id)] += 1
                    ahead[(a.bot_id, b.bot_id)] += a.place < b.place
    return {pair: (ahead[pair], n) for pair, n in together.items()}


def seat_shares(store: Store, game: str) -> dict[int, list[dict[str, Any]]]:
    """Table size -> per seat: matches, wins and win share (shared wins count
    for each winner), to spot a seat advantage."""
    matches: Counter[tuple[int, int]] = Counter()
    wins: Counter[tuple[int, int]] = Counter()
    for row in store.seat_rows(game):
        matches[(row.num_seats, row.seat)] += 1
        wins[(row.num_seats, row.seat)] += row.place == 0
    result: dict[int, list[dict[str, Any]]] = {}
    for size in sorted({n for n, _ in matches}):
        result[size] = [
            {"seat": seat, "matches": matches[(size, seat)], "wins": wins[(size, seat)],
             "win_share": wins[(size, seat)] / matches[(size, seat)] if matches[(size, seat)] else None}
            for seat in range(size)
        ]
    return result


def to_json(
    store: Store, game: str, *, h2h: bool = False, seats: bool = False, include_retired: bool = False
) -> dict[str, Any]:
    """The standings (and optionally head-to-head and seat shares) as JSON."""
    rows = standings(store, game, include_retired=include_retired)
    out: dict[str, Any] = {
        "game": game,
        "matches": store.match_count(game),
        "confidence_formula": "p_above_next = Phi((mu1 - mu2) / sqrt(sigma1^2 + sigma2^2))",
        "standings": [asdict(r) for r in rows],
    }
    if h2h:
        names = {r.bot_id: r.bot for r in rows}
        out["head_to_head"] = [
            {"bot": names[a], "opponent": names[b], "ahead": k, "together": n, "share": k / n}
            for (a, b), (k, n) in sorted(head_to_head(store, game).items())
            if a in names and b in names
        ]
    if seats:
        out["seats"] = {str(size): shares for size, shares in seat_shares(store, game).items()}
    return out


def forfeits_of(store: Store, game: str, bot_id: int) -> list[tuple[str, str]]:
    """(match id, forfeit reason) of every match `bot_id` forfeited."""
    return [(r.match_id, r.forfeit) for r in store.seat_rows(game) if r.bot_id == bot_id and r.forfeit is not None]
