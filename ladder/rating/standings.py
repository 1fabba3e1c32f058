"""The standings of a game's ladder, computed from the store.

Rows are sorted by the conservative rating mu - 3 sigma (TrueSkill's
`expose` with the default mu/sigma ratio): a bot with few matches is not
ranked above a proven one on luck. Each row says how sure its place above
the next row is: the verdict of their shared duplicate sets
(ladder.rating.evidence, ladder.rating.stopping), and, for information, TrueSkill's
posterior probability (ladder.rating.ratings).

Wins and places are the rated ones: a forfeiting bot finished last. Strikes
are counted by reason, forfeits per bot.

A store rated with other TrueSkill parameters than the program's (before
tau became 0) is shown with ratings recomputed from its results
(`current_ratings`); `referee ladder` stores them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ladder.deals.audit import chain_summaries
from ladder.rating.evidence import Evidence, PairEvidence, collect
from ladder.rating.game_figures import pair_score_rates, rests_on, role_records, score_rates
from ladder.rating.ratings import MODEL, MU, SIGMA, adjacent_confidences, make_env, replay_ratings
from ladder.rating.score_evidence import basis_of, score_pair_evidence
from ladder.rating.set_feed import StoredMatch, whole_store
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN, PairStatus, adjacent_pairs
from ladder.store.database import SeatRow, Store
from ladder.store.rule_set_names import plays
from ladder.store.skill import Skill
from ladder.store.strikes import STRIKE_REASONS
from referee.games.rule_sets import parse_options

RATING_MODEL_KEY = "rating_model"
"""The `meta` key naming the TrueSkill parameters the stored ratings were
computed with (unset: the parameters before it was stored)."""


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
    """TrueSkill's P(this bot is truly stronger than the next row's), for
    information; None for the last row."""
    strikes: int = 0
    strike_reasons: dict[str, int] = field(default_factory=dict)
    """Strikes by reason: timeout, illegal, malformed, crashed, and
    "unknown" for strikes stored before their reasons were."""


def current_ratings(store: Store, game: str, rule_set: str = "") -> dict[int, Skill]:
    """The ratings of one rule set of `game` ('' the base rules) under the
    program's rating model: the stored ones, or recomputed from the results
    when they were stored under other parameters."""
    if store.meta(RATING_MODEL_KEY) == MODEL or not store.match_count(game, rule_set):
        return store.ratings(game, rule_set)
    return replay_ratings(make_env(), store.rated_results(game, rule_set))


def _reasons(rows: Sequence[SeatRow]) -> dict[str, int]:
    """A bot's strikes summed by reason, the known reasons first."""
    total: Counter[str] = Counter()
    for row in rows:
        total.update(row.strike_reasons)
        total["unknown"] += row.strikes - sum(row.strike_reasons.values())
    order = [*STRIKE_REASONS, *sorted(set(total) - set(STRIKE_REASONS))]
    return {reason: total[reason] for reason in order if total[reason] > 0}


def standings(store: Store, game: str, *, include_retired: bool = False, rule_set: str = "") -> list[Standing]:
    """The ranking of one rule set of `game`: every active bot that plays
    it, variant included, or has a rating under it (and, with
    `include_retired`, every older version that has one)."""
    ratings = current_ratings(store, game, rule_set)
    seats = store.seat_rows(game, rule_set)
    variant = parse_options(rule_set)
    bots = [
        b for b in store.bots()
        if (b.active and game in b.games and (b.bot_id in ratings or plays(game, variant, b.variants)))
        or (include_retired and b.bot_id in ratings)
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
            strikes=sum(r.strikes for r in rows), strike_reasons=_reasons(rows),
        ))
    return result


Placed = tuple[tuple[int, ...], tuple[int, ...]]
"""A match as the evidence by places reads it: (bot ids by seat, rated places)."""


def read_places(store: Store, game: str, rule_set: str, after: int) -> list[StoredMatch[Placed]]:
    """The places of the matches stored after sequence number `after` (a
    ladder.rating.set_feed.Reader)."""
    seats: dict[str, list[SeatRow]] = defaultdict(list)
    for row in store.seat_rows(game, rule_set, after=after):
        seats[row.match_id].append(row)
    return [StoredMatch(rows[0].set_id, rows[0].seq, (tuple(r.bot_id for r in rows), tuple(r.place for r in rows)))
            for rows in seats.values()]


def finished_sets(store: Store, game: str, rule_set: str = "") -> list[list[Placed]]:
    """The whole duplicate sets of one rule set of `game` (none of whose
    matches is still planned), in the order they finished, each a list of
    (bot ids by seat, rated places): the units of ladder.rating.evidence. A
    set counts only once it is whole, so its score never changes after it
    was counted (ladder.rating.set_feed)."""
    return whole_store(store, game, rule_set, read_places)


def pair_evidence(store: Store, game: str, confidence: float, *,
                  rule_set: str = "") -> dict[tuple[int, int], PairEvidence]:
    """The evidence of every pair of bots from the finished sets of one rule set of `game`."""
    return collect(finished_sets(store, game, rule_set), 1 - confidence)


def pair_statuses(
    store: Store, game: str, rows: Sequence[Standing], *, confidence: float = DEFAULT_CONFIDENCE,
    margin: float = DEFAULT_MARGIN, rule_set: str = "", by_score: bool = True,
) -> list[PairStatus]:
    """The verdict on each adjacent pair of the standings `rows`: by the
    game's match score where it has one and `by_score` (Leduc's chips), else
    by places with `margin` (ladder.rating.score_evidence)."""
    basis = basis_of(game, margin, by_score=by_score)
    evidence: Mapping[tuple[int, int], Evidence]
    if basis.by_score:
        evidence = score_pair_evidence(store, game, basis, confidence, rule_set=rule_set)
    else:
        evidence = pair_evidence(store, game, confidence, rule_set=rule_set)
    return adjacent_pairs([r.bot_id for r in rows], evidence, confidence=confidence, margin=basis.margin,
                          basis=basis.name, empty=basis.evidence(1 - confidence))


def head_to_head(store: Store, game: str, rule_set: str = "") -> dict[tuple[int, int], tuple[int, int]]:
    """(a, b) -> (matches where a finished ahead of b, matches a and b played together)."""
    by_match: dict[str, list[SeatRow]] = defaultdict(list)
    for row in store.seat_rows(game, rule_set):
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


def seat_shares(store: Store, game: str, rule_set: str = "") -> dict[int, list[dict[str, Any]]]:
    """Table size -> per seat: matches, wins and win share (shared wins count
    for each winner), to spot a seat advantage."""
    matches: Counter[tuple[int, int]] = Counter()
    wins: Counter[tuple[int, int]] = Counter()
    for row in store.seat_rows(game, rule_set):
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


def pairs_json(statuses: Sequence[PairStatus], rows: Sequence[Standing], sizes: float) -> list[dict[str, Any]]:
    """The adjacent pairs as JSON; `sizes` is the mean seats per set, to
    turn the sets still needed into matches."""
    names = {r.bot_id: r.bot for r in rows}
    out = []
    for p in statuses:
        v = p.verdict
        out.append({
            "upper": names[p.upper], "lower": names[p.lower], "verdict": v.kind, "basis": p.basis,
            "settled": p.settled,
            "shared_sets": v.sets, "upper_score": v.mean, "score_low": v.low, "score_high": v.high,
            "more_sets": v.more_sets,
            "more_matches": None if v.more_sets is None else round(v.more_sets * sizes),
        })
    return out


def mean_set_size(store: Store, game: str, rule_set: str = "") -> float:
    """Matches per duplicate set so far (a set of N seats is N matches), 3.5
    before the first."""
    rows = store.matches(game, rule_set)
    sets = {m["set_id"] for m in rows}
    return len(rows) / len(sets) if sets else 3.5


def to_json(
    store: Store, game: str, *, h2h: bool = False, seats: bool = False, include_retired: bool = False,
    confidence: float = DEFAULT_CONFIDENCE, margin: float = DEFAULT_MARGIN, rule_set: str = "",
) -> dict[str, Any]:
    """The standings of one rule set, the adjacent pairs' verdicts, the
    deals' seed chains with what is revealed of them (ladder.deals.audit:
    safe to show anyone) and optionally head-to-head and seat shares, as
    JSON; `rule_sets` counts the matches of each rule set that has any.
    Read as of one moment (Store.snapshot)."""
    with store.snapshot():  # one moment, as a run may be writing: every part counts the same matches
        rows = standings(store, game, include_retired=include_retired, rule_set=rule_set)
        out: dict[str, Any] = {
            "game": game,
            "rule_set": rule_set,
            "variant": parse_options(rule_set),
            "rule_sets": store.rule_sets(game),
            "matches": store.match_count(game, rule_set),
            "rating_model": MODEL,
            "confidence_formula": "p_above_next = Phi((mu1 - mu2) / sqrt(sigma1^2 + sigma2^2))",
            "standings": [asdict(r) for r in rows],
            "pairs": {
                "confidence": confidence, "margin": margin,
                "adjacent": pairs_json(pair_statuses(store, game, rows, confidence=confidence, margin=margin,
                                                     rule_set=rule_set), rows, mean_set_size(store, game, rule_set)),
            },
            "deals": chain_summaries(store, game),
        }
        out.update(game_figures_json(store, game, rows, rule_set))
        if h2h:
            names = {r.bot_id: r.bot for r in rows}
            out["head_to_head"] = [
                {"bot": names[a], "opponent": names[b], "ahead": k, "together": n, "share": k / n}
                for (a, b), (k, n) in sorted(head_to_head(store, game, rule_set).items())
                if a in names and b in names
            ]
        if seats:
            out["seats"] = {str(size): shares for size, shares in seat_shares(store, game, rule_set).items()}
    return out


def game_figures_json(store: Store, game: str, rows: Sequence[Standing], rule_set: str = "") -> dict[str, Any]:
    """The game's own figures by bot (ladder.rating.game_figures): "scores"
    (Leduc's chips per 100 hands with their interval) or "roles" (Saboteur's
    rounds and team rating per role, and "rests_on": the one role a bot's
    place above the next rests on); {} for a game with neither."""
    names = {r.bot_id: r.bot for r in rows}
    rates = score_rates(store, game, rule_set)
    if rates:
        return {"scores": [{"bot": names[bot], **rate.to_json()} for bot, rate in rates.items() if bot in names],
                "score_pairs": [{"bot": names[bot], "opponent": names[opponent], **rate.to_json()}
                                for (bot, opponent), rate in sorted(pair_score_rates(store, game, rule_set).items())
                                if bot in names and opponent in names]}
    records = role_records(store, game, rule_set)
    if not records:
        return {}
    resting = rests_on([r.bot_id for r in rows], records)
    return {"roles": [{"bot": names[bot], "rests_on": resting.get(bot),
                       **{role: record.to_json() for role, record in roles.items()}}
                      for bot, roles in records.items() if bot in names]}


def forfeits_of(store: Store, game: str, bot_id: int) -> list[tuple[str, str]]:
    """(match id, forfeit reason) of every match `bot_id` forfeited."""
    return [(r.match_id, r.forfeit) for r in store.seat_rows(game) if r.bot_id == bot_id and r.forfeit is not None]
