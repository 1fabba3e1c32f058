"""The ladder run: plan tables, hand matches to workers, rate each result.

One ladder process owns the ratings: workers only play matches and send
back results; this loop rates each one as it arrives and stores it in one
transaction (so ratings follow the order matches were stored in, which is
what a recompute replays).

Resuming: a duplicate set is written to the store (`planned`) before its
first match is played; a run first plays what earlier runs left planned, so
a killed or interrupted ladder picks up where it stopped. A match that is
already stored is never rated again (its id is a unique key). A planned
set this run cannot seat (a table size outside its `sizes`, a built-in
with `builtins` off) is left for a later run; one that seats a bot version
no longer active (retired, or replaced by a new version) can never be
played and is dropped.

Failures that are not a bot's (`MatchFailed`) are recorded and the match is
retried up to `max_attempts` times, never rated. Ctrl-C stops the run:
finished matches are kept; running ones are discarded and stay planned.

Two questions a run can stop on, each answered from the evidence of shared
duplicate sets (ladder.rating.evidence): `until_stable` plays until every adjacent
pair of the standings is ordered or indistinguishable (ladder.rating.stopping),
seating the unsettled pairs together; `versus` (NEW, OLD) seats both at
every table, filled from the rest of the roster, until the SPRT
(ladder.rating.sprt) accepts a hypothesis.

Deals: a run commits to a seed chain (ladder.deals.seedchain) before its first
match, stores it and tells `on_commit`; the n-th set it plans is dealt from
the chain's n-th element, and the chain ends with the run (the sets it
left planned keep their deals for the next run). The matchmaking's own
random choices (`seed`) never choose a deal.
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ladder.deals.seedchain import MAX_LENGTH, SeedChain, new_chain
from ladder.rating.control_variate import CorrectedCollector, helps, read_dealt
from ladder.rating.evidence import PLACES, Evidence, PlacesCollector, pair_key
from ladder.rating.hand_evidence import HandEvidence
from ladder.rating.ratings import MODEL, initial_skill, make_env, ranking, rate_match, rated_places, replay_ratings
from ladder.rating.sprt import H0, H1, Sprt
from ladder.rating.score_evidence import SCORE_MARGIN, Basis, ScoreCollector, basis_of, score_reader
from ladder.rating.set_feed import Collector, KeptEvidence, Reader
from ladder.rating.standings import RATING_MODEL_KEY, read_places
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN, PairStatus, adjacent_pairs, all_settled, focus
from ladder.running.dispatch import Pool
from ladder.scheduling import matchmaking
from ladder.scheduling.matchmaking import BotStats
from ladder.store.database import BotRow, Store
from ladder.store.rule_set_names import plays, rule_set_of
from ladder.store.skill import Skill
from ladder.store.tasks import BotSpec, MatchFailed, MatchTask, PlayedMatch
from referee.games import load_game
from referee.games.plugin import default_match_format

log = logging.getLogger(__name__)

MAX_CONSECUTIVE_FAILURES = 6
"""Failed matches in a row (no success in between) after which the run
gives up: something is wrong with the machine or a bot cannot start."""


class LadderError(Exception):
    """The ladder cannot run (too few bots, matches keep failing)."""


@dataclass(frozen=True)
class LadderConfig:
    game: str = "gnadenlos"
    matches: int = 48
    """Matches to play in this run (the budget, also with until_stable)."""
    until_stable: bool = False
    confidence: float = DEFAULT_CONFIDENCE
    margin: float = DEFAULT_MARGIN
    """Of --until-stable: how close to even (1/2) a pair's score must be
    shown to be to call the pair indistinguishable."""
    versus: tuple[int, int] | None = None
    """(NEW, OLD) bot ids: seat both at every table until `sprt` decides."""
    sprt: Sprt = field(default_factory=Sprt)
    control_variate: bool = True
    """Whether the stopping rule and the SPRT judge the pairs' scores
    corrected by the reference on each deal (ladder.rating.control_variate)
    where that was measured to need fewer matches (`helps`: single matches
    at two seats); elsewhere it gains nothing (docs/ladder.md, "Less luck
    per match")."""
    by_score: bool = True
    """Whether a game whose match is ranked by a score (Leduc's chips) has
    its pairs judged by that score (ladder.rating.score_evidence); False
    judges its places, as before the score was, to measure one beside the
    other (docs/ladder.md, "Leduc poker")."""
    score_margin: float = SCORE_MARGIN
    """By a score: the margin of "indistinguishable" and the improvement
    --versus's H1 claims, per 100 deals (10 chips per 100 hands)."""
    sizes: tuple[int, ...] = (3, 4)
    duplicate: bool = True
    variant: dict[str, str] = field(default_factory=dict)
    """The rule set's options (only those given): its ratings are its own."""
    seed: int | None = None
    """Of the matchmaking's random choices (which bots meet, seats); never of
    the deals, which come from the run's secret seed chain."""
    builtins: bool = True
    """Whether the built-in bots play (False: `--no-builtins`, even those
    an earlier run registered)."""
    max_attempts: int = 3
    match_format: dict[str, int] = field(default_factory=dict)
    """The game's own match format ({"hands": 100} for Leduc: rules L-7);
    {} for the game's default (`referee.games.plugin.default_match_format`)."""

    @property
    def rule_set(self) -> str:
        """The name its ratings and matches are kept under (ladder.store.rule_set_names)."""
        return rule_set_of(self.game, self.variant)


@dataclass
class RunStatus:
    """What the live view shows; updated after every finished match."""

    budget: int
    played: int = 0
    failed: int = 0
    abandoned: int = 0
    running: int = 0
    stable: bool = False
    interrupted: bool = False
    discarded: int = 0
    rating_seconds: float = 0.0
    storage_seconds: float = 0.0
    match_seconds: float = 0.0
    last: PlayedMatch | None = None
    last_failure: MatchFailed | None = None
    sizes: Counter[int] = field(default_factory=Counter)
    pairs: list[PairStatus] = field(default_factory=list)
    """The adjacent pairs of the standings and their verdicts (until_stable)."""
    versus: "Versus | None" = None


@dataclass(frozen=True)
class Versus:
    """Where the SPRT of NEW against OLD stands."""

    new: int
    old: int
    sprt: Sprt
    scores: tuple[float, ...]
    """NEW's score against OLD in each shared finished set, in order
    (corrected where the run corrects them: ladder.rating.control_variate)."""
    bounds: tuple[float, float] = (0.0, 1.0)
    """The scores' range (PairEvidence.least and most)."""
    basis: str = PLACES
    """What the scores judge: "places", or the game's match score ("chips":
    each set's mean chip difference per hand, mapped to [0, 1] by
    ladder.rating.score_evidence)."""
    rate: float | None = None
    """By a score: NEW's mean score won from OLD per 100 deals (chips per
    100 hands), the mean told in the score's units."""
    unit: str = ""
    """By a score: the rate's unit ("chips per 100 hands")."""
    margin: float | None = None
    """By a score: the improvement H1 claims, in `unit`."""
    interval: tuple[float, float] | None = None
    """By a score, the verdict's evidence instead of the SPRT's likelihood
    ratio: the confidence sequence's interval for NEW's rate in `unit`,
    hand by hand (ladder.rating.hand_evidence), at confidence
    1 - 2 min(alpha, beta), so that each wrong verdict has at most the
    error rate asked."""
    more_sets: int | None = None
    """By a score, undecided: about how many more shared sets narrow the
    interval enough for a verdict."""

    @property
    def llr(self) -> float:
        return self.sprt.llr(self.scores, self.bounds)

    @property
    def verdict(self) -> str | None:
        """H1 (NEW is better), H0 (it is not) or None (undecided). By a
        score: H1 when the interval lies above 0, H0 when it lies below the
        margin H1 claims (NEW is not better by it); by places, the SPRT's."""
        if not self.scores:
            return None
        if self.interval is not None and self.margin is not None:
            low, high = self.interval
            return H1 if low >= 0 else H0 if high <= self.margin else None
        return self.sprt.decide(self.llr)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.5


@dataclass
class _Tally:
    """A bot's match count, latest match and seat counts, kept up to date."""

    matches: int = 0
    last_seq: int = 0
    seats: Counter[tuple[int, int]] = field(default_factory=Counter)


@dataclass(frozen=True)
class Commitment:
    """A seed chain a run has committed to (published before its sets)."""

    chain_id: int
    game: str
    head: str
    """Hex: x_0 of the chain (ladder.deals.seedchain)."""
    length: int

    @property
    def text(self) -> str:
        """The line a run publishes before its first match (docs/records.md, "A ladder's deals")."""
        return f"deals committed: seed chain {self.chain_id} of {self.length} sets, commitment {self.head}"


class Ladder:
    """One ladder run over a store, playing through a pool of workers."""

    def __init__(
        self, store: Store, pool: Pool, config: LadderConfig,
        on_update: Callable[[RunStatus], None] | None = None,
        on_warning: Callable[[str], None] | None = None,
        on_commit: Callable[[Commitment], None] | None = None,
    ) -> None:
        self.store = store
        self.pool = pool
        self.config = config
        self.on_update = on_update or (lambda status: None)
        self.on_warning = on_warning or log.warning
        self.on_commit = on_commit or (lambda commitment: log.info("deal seeds committed: %s", commitment))
        self._chain: tuple[int, SeedChain] | None = None
        self._chain_index = 0
        self._warned = False
        self.env = make_env()
        self.rng = random.Random(config.seed)
        self._adopt_rating_model()
        self.skills: dict[int, Skill] = store.ratings(config.game, config.rule_set)
        self.stats: dict[int, _Tally] = {}
        self.latest_seq = 0
        self._load_stats()
        self.queue: deque[MatchTask] = deque(self._resumed_tasks())
        self.status = RunStatus(budget=config.matches)
        self._dispatched: set[str] = set()
        self._consecutive_failures = 0
        self._tables: Counter[int] = Counter()
        self._kept: dict[tuple[str, float], KeptEvidence[Any]] = {}
        """The evidence kept between looks, by basis (or "corrected") and confidence."""

    # -- state ----------------------------------------------------------------

    def _load_stats(self) -> None:
        for row in self.store.seat_rows(self.config.game, self.config.rule_set):
            self._count_seat(row.bot_id, row.num_seats, row.seat, row.seq)

    def _count_seat(self, bot_id: int, num_seats: int, seat: int, seq: int) -> None:
        tally = self.stats.setdefault(bot_id, _Tally())
        tally.matches += 1
        tally.last_seq = seq
        tally.seats[(num_seats, seat)] += 1
        self.latest_seq = max(self.latest_seq, seq)

    def _bot_stats(self) -> dict[int, BotStats]:
        return {b: BotStats(t.matches, t.last_seq, dict(t.seats)) for b, t in self.stats.items()}

    def skill(self, bot_id: int) -> Skill:
        return self.skills.get(bot_id, initial_skill(self.env))

    def _adopt_rating_model(self) -> None:
        """Ratings stored under other TrueSkill parameters (a store from
        before tau became 0) are recomputed from the results, for every
        game, before anything is rated on top of them."""
        if self.store.meta(RATING_MODEL_KEY) == MODEL:
            return
        env = make_env()
        for game in self.store.games():
            for rule_set in self.store.rule_sets(game):
                results = self.store.rated_results(game, rule_set)
                self.store.replace_ratings(game, replay_ratings(env, results), rule_set)
        self.store.set_meta(RATING_MODEL_KEY, MODEL)

    def roster(self) -> list[BotRow]:
        """The active bots of the game, and with --versus both bots compared
        (OLD may be a retired version)."""
        bots = game_roster(self.store, self.config.game, self.config.variant, builtins=self.config.builtins)
        known = {b.bot_id for b in bots}
        extra = [self.store.bot(b) for b in self.config.versus or () if b not in known]
        return bots + extra

    def ranking(self) -> list[int]:
        """Active bot ids, best first (by the conservative rating)."""
        roster = game_roster(self.store, self.config.game, self.config.variant, builtins=self.config.builtins)
        return ranking(self.skills, [b.bot_id for b in roster], initial_skill(self.env))

    def basis(self) -> Basis:
        """What the pairs are judged by: the game's match score where it has
        one (Leduc's chips), else places (ladder.rating.score_evidence)."""
        return basis_of(self.config.game, self.config.margin, by_score=self.config.by_score,
                        score_margin=self.config.score_margin)

    def _evidence(self, basis: Basis, confidence: float | None = None) -> Mapping[tuple[int, int], Evidence]:
        """The pairs' evidence at `confidence` (the run's by default), kept
        from one look to the next: each adds only the sets finished since
        (ladder.rating.set_feed)."""
        level = self.config.confidence if confidence is None else confidence
        alpha = 1 - level
        if basis.by_score:  # the reference's correction is of places; a score needs none of it
            return self._kept_evidence((basis.name, level), score_reader(self.config.game),
                                       lambda: ScoreCollector(basis, alpha))
        if self.config.control_variate and helps(self.config.duplicate, self.config.sizes):
            return self._kept_evidence(("corrected", level), read_dealt, lambda: CorrectedCollector(alpha))
        return self._kept_evidence((PLACES, level), read_places, lambda: PlacesCollector(alpha))

    def _kept_evidence(self, key: tuple[str, float], read: Reader[Any],
                       start: Callable[[], Collector[Any]]) -> Mapping[tuple[int, int], Evidence]:
        """The evidence kept under `key`, brought up to date (made on the first look)."""
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept[key] = KeptEvidence(self.config.game, self.config.rule_set, read, start)
        return kept.current(self.store)

    def refresh(self) -> None:
        """Judge the evidence anew: the adjacent pairs (and whether all are
        settled), or where --versus stands. A run asking neither skips it:
        reading every result after every match costs a long-running ladder
        more as its store grows."""
        if not self.config.until_stable and self.config.versus is None:
            return
        basis = self.basis()
        if self.config.versus is not None:
            self.status.versus = self._versus(basis)
            self.status.stable = self.status.versus.verdict is not None
            return
        evidence = self._evidence(basis)
        self.status.pairs = adjacent_pairs(self.ranking(), evidence, confidence=self.config.confidence,
                                           margin=basis.margin, basis=basis.name,
                                           empty=basis.evidence(1 - self.config.confidence))
        self.status.stable = len(self.status.pairs) >= 1 and all_settled(self.status.pairs)

    def _versus(self, basis: Basis) -> "Versus":
        """Where --versus NEW OLD stands. By places, the SPRT on the sets'
        scores; by a score, the hands' confidence sequence at confidence
        1 - 2 min(alpha, beta): the likelihood ratio of whole sets, like
        their betting sequence, is held to the bound (docs/ladder.md,
        "Pairs judged by chips")."""
        assert self.config.versus is not None
        new, old = self.config.versus
        sprt = self.config.sprt
        if not basis.by_score:
            found = self._evidence(basis).get(pair_key(new, old), basis.evidence(1 - self.config.confidence))
            seen = found if new < old else found.flipped()  # from NEW's side
            return Versus(new, old, sprt, tuple(seen.scores), (seen.least, seen.most), basis.name)
        sprt = replace(sprt, margin=basis.margin)  # H1 claims score_margin per 100 deals, on the score's scale
        level = 1 - 2 * min(sprt.alpha, sprt.beta)
        found = self._evidence(basis, level).get(pair_key(new, old), HandEvidence(1 - level))
        assert isinstance(found, HandEvidence), "a score's evidence is on deals"
        seen = found if new < old else found.flipped()
        rate = basis.rate(seen.mean) if seen.n else None
        versus = Versus(new, old, sprt, tuple(seen.scores), (seen.least, seen.most), basis.name, rate, basis.unit,
                        self.config.score_margin, (basis.rate(seen.low), basis.rate(seen.high)))
        if versus.verdict is None:
            need = max(seen.mean - 0.5, sprt.mu1 - seen.mean)  # the wider half-width of the two verdicts
            versus = replace(versus, more_sets=seen.sets_to_narrow(need))
        return versus

    # -- planning -------------------------------------------------------------

    def _match_format(self) -> dict[str, int]:
        """What one match of this ladder is: the configured format, or the game's own (100 Leduc hands)."""
        return dict(self.config.match_format) or default_match_format(self.config.game)

    def _spec(self, bot: BotRow) -> BotSpec:
        """`bot` as a worker anywhere can start it (content-addressed files)."""
        folder = str(self.store.root / bot.folder) if bot.folder is not None else None
        return BotSpec(bot.bot_id, bot.label, bot.kind, bot.command, bot.content_hash, folder)

    def _resumed_tasks(self) -> list[MatchTask]:
        """The matches earlier runs left planned that this run plays first;
        a set it cannot seat is left planned, one it never can is dropped
        (see the module doc), each said once (`on_warning`)."""
        seated = {b.bot_id for b in self.roster()}
        bots = {b.bot_id: b for b in self.store.bots()}
        specs: dict[int, BotSpec] = {}
        tasks: list[MatchTask] = []
        left: list[str] = []
        gone: dict[str, set[str]] = {}
        for p in self.store.planned(self.config.game, self.config.rule_set):
            ids = p["bot_ids"]
            if len(ids) in self.config.sizes and seated.issuperset(ids):
                seats = tuple(specs.setdefault(b, self._spec(bots[b])) for b in ids)
                tasks.append(MatchTask(p["match_id"], p["game"], p["set_id"], p["rotation"], p["seed"],
                                       p["variant"], seats, attempt=p["attempts"] + 1,
                                       match_format=self._match_format()))
            elif all(bots[b].active or b in (self.config.versus or ()) for b in ids):
                left.append(p["match_id"])
            else:
                gone.setdefault(p["set_id"], set()).update(bots[b].label for b in ids if not bots[b].active)
        if left:
            self.on_warning(f"{len(left)} matches an earlier run planned are left for a later run: they seat a "
                            "table size or bots this run leaves out (--players, --no-builtins); the next run "
                            "that can seat them plays them first")
        if gone:
            dropped = self.store.drop_planned(gone)
            labels = sorted(set().union(*gone.values()))
            self.on_warning(f"{dropped} matches an earlier run planned were dropped, never to be played: they seat "
                            f"{', '.join(labels)}, no longer in the ladder (retired, or replaced by a new version)")
        return tasks

    def playable_sizes(self, roster_size: int) -> tuple[int, ...]:
        """The table sizes of the run that `roster_size` bots can seat
        (`seatable`); the first time some cannot, says so (`on_warning`)."""
        sizes, warning = seatable(self.config.game, self.config.sizes, roster_size)
        if warning is not None and not self._warned:
            self._warned = True
            self.on_warning(warning)
        return sizes

    # -- deals ----------------------------------------------------------------

    def _commit_chain(self) -> None:
        """Start a seed chain for this run's sets, store it and publish its
        commitment (before any set is dealt from it)."""
        chain = new_chain(max(1, min(self.config.matches, MAX_LENGTH)))
        chain_id = self.store.start_chain(self.config.game, chain.head, chain.length, chain.secret)
        self._chain, self._chain_index = (chain_id, chain), 0
        self.on_commit(Commitment(chain_id, self.config.game, chain.head.hex(), chain.length))

    def _end_chain(self) -> None:
        if self._chain is not None:
            self.store.end_chain(self._chain[0])
            self._chain = None

    def _next_deal(self) -> tuple[int, int, int]:
        """(chain id, index, seed) of the next set's deal; a used-up chain
        ends and a new one is committed to."""
        if self._chain is None or self._chain_index >= self._chain[1].length:
            self._end_chain()
            self._commit_chain()
        assert self._chain is not None
        self._chain_index += 1
        chain_id, chain = self._chain
        return chain_id, self._chain_index, chain.seed(self._chain_index)

    def plan_next(self) -> None:
        """Choose the next table and store its matches as planned."""
        roster = {b.bot_id: b for b in self.roster()}
        sizes = self.playable_sizes(len(roster))
        size = matchmaking.next_table_size(sizes, self._tables)
        self._tables[size] += 1
        skills = {b: self.skill(b) for b in roster}
        table = matchmaking.plan_table(
            self.env, list(roster), size, skills, self._bot_stats(), self.latest_seq, self.rng,
            duplicate=self.config.duplicate, focus=focus(self.status.pairs) if self.config.until_stable else (),
            required=self.config.versus or (),
        )
        specs = {b: self._spec(roster[b]) for b in table.rotations[0]}
        chain_id, index, seed = self._next_deal()
        tasks = [
            MatchTask(f"{self.config.game}-{table.set_id}-{r}", self.config.game, table.set_id, r,
                      seed, dict(self.config.variant), tuple(specs[b] for b in seating),
                      match_format=self._match_format())
            for r, seating in enumerate(table.rotations)
        ]
        self.store.plan(tasks, deal=(chain_id, index))
        self.queue.extend(tasks)

    def _may_dispatch(self) -> bool:
        if len(self._dispatched) >= self.config.matches:
            return False
        stops = self.config.until_stable or self.config.versus is not None
        return not (stops and self.status.stable)

    def _dispatch(self) -> None:
        while self.pool.idle() > 0:
            retry = bool(self.queue) and self.queue[0].match_id in self._dispatched
            if not retry and not self._may_dispatch():
                return
            if not self.queue:
                self.plan_next()
            task = self.queue.popleft()
            if self._retired(task):
                continue
            self._dispatched.add(task.match_id)
            self.pool.submit(task)

    def _retired(self, task: MatchTask) -> bool:
        """Whether a bot of `task` was retired since its set was planned (the
        service's Retire, `referee retire` beside a run): then its whole set
        is dropped, never to be played."""
        gone = [b.label for b in map(self.store.bot, task.bot_ids)
                if not b.active and b.bot_id not in (self.config.versus or ())]
        if gone:
            dropped = self.store.drop_planned([task.set_id])
            self.queue = deque(t for t in self.queue if t.set_id != task.set_id)
            self.on_warning(f"{dropped} planned matches were dropped, never to be played: {', '.join(gone)} left "
                            "the ladder")
        return bool(gone)

    # -- results --------------------------------------------------------------

    def _rate(self, played: PlayedMatch) -> None:
        if self.store.has_match(played.match_id):
            return
        started = time.perf_counter()
        before = [self.skill(b) for b in played.bot_ids]
        places = rated_places(played.ranks, played.forfeits)
        after = rate_match(self.env, before, places)
        rated = time.perf_counter()
        self.store.record_match(played, places, before, after)
        self.status.storage_seconds += time.perf_counter() - rated
        self.status.rating_seconds += rated - started
        self.status.match_seconds += played.seconds
        self.skills.update(zip(played.bot_ids, after))
        self.latest_seq += 1
        for seat, bot_id in enumerate(played.bot_ids):
            self._count_seat(bot_id, len(played.bot_ids), seat, self.latest_seq)
        self.status.played += 1
        self.status.sizes[len(played.bot_ids)] += 1
        self.status.last = played
        self._consecutive_failures = 0

    def _fail(self, failed: MatchFailed) -> None:
        task = failed.task
        abandon = task.attempt >= self.config.max_attempts
        self.store.record_failure(task.match_id, task.attempt, failed.kind, failed.detail, abandon=abandon)
        self.status.failed += 1
        self.status.last_failure = failed
        self._consecutive_failures += 1
        if abandon:
            self.status.abandoned += 1
        else:
            self.queue.appendleft(MatchTask(
                task.match_id, task.game, task.set_id, task.rotation, task.seed, task.variant, task.bots,
                attempt=task.attempt + 1, match_format=task.match_format,
            ))
        if self._consecutive_failures >= MAX_CONSECUTIVE_FAILURES:
            raise LadderError(
                f"{self._consecutive_failures} matches in a row failed; the last: {failed.kind}: {failed.detail}"
            )

    # -- the run --------------------------------------------------------------

    def run(self) -> RunStatus:
        """Play until the budget is spent, or until_stable's pairs are all
        settled, or versus' SPRT decided; Ctrl-C stops cleanly. Raises
        LadderError."""
        interrupted = False
        self.playable_sizes(len(self.roster()))  # refuse or warn before anything starts
        if self._chain is None:  # (a set planned before the run committed it already)
            self._commit_chain()
        try:
            self.refresh()
            self._dispatch()
            while self.pool.running():
                outcomes = self.pool.poll(0.25)
                for outcome in outcomes:
                    if isinstance(outcome, PlayedMatch):
                        self._rate(outcome)
                    else:
                        self._fail(outcome)
                if outcomes:  # only results change the evidence
                    self.refresh()
                self._dispatch()
                self.status.running = len(self.pool.running())
                self.on_update(self.status)
        except KeyboardInterrupt:
            interrupted = True
            self.status.interrupted = True
            self.status.discarded = len(self.pool.running())
        finally:
            self.pool.close(interrupt=interrupted or bool(self.pool.running()))
            self._end_chain()
        self.status.running = 0
        return self.status


def game_roster(store: Store, game: str, variant: Mapping[str, str] | None = None, *,
                builtins: bool = True) -> list[BotRow]:
    """The active bots that play `game`, under `variant` when given: a bot
    is never seated in a variant it did not declare; without `builtins`,
    no built-in bot."""
    return [b for b in store.bots(active_only=True)
            if game in b.games and (not variant or plays(game, variant, b.variants))
            and (builtins or b.kind != "builtin")]


def seatable(game: str, sizes: Sequence[int], roster_size: int) -> tuple[tuple[int, ...], str | None]:
    """The table sizes of `sizes` that `roster_size` bots can seat, and a
    one-line warning naming the others (None when every size can be seated).

    A table needs as many different bots as seats: one bot in two seats of
    a free-for-all would be rated against itself. Raises LadderError when
    no size can be seated."""
    playable = tuple(n for n in sizes if n <= roster_size)
    skipped = [n for n in sizes if n > roster_size]
    bots = f"{roster_size} bot{'s' * (roster_size != 1)}"
    title = load_game(game).title
    if not playable:
        raise LadderError(
            f"{title} tables of {_size_list(skipped)} players need as many different bots and the {title} "
            f"ladder has {bots}: register more with `referee submit` (or choose a smaller --players)"
        )
    if not skipped:
        return playable, None
    return playable, (f"{title} tables of {_size_list(skipped)} players are skipped: each needs as many different "
                      f"bots and the {title} ladder has {bots}; register more with `referee submit`")


def _size_list(sizes: Sequence[int]) -> str:
    """[8, 9, 10] as "8, 9 and 10"."""
    words = [str(n) for n in sizes]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def recompute(store: Store, game: str, rule_set: str = "") -> tuple[bool, dict[int, Skill]]:
    """Replay every stored result of one rule set of `game` through
    TrueSkill in the order it was rated. Returns (equal to the stored
    ratings, the recomputed ones)."""
    recomputed = replay_ratings(make_env(), store.rated_results(game, rule_set))
    return recomputed == store.ratings(game, rule_set), recomputed
