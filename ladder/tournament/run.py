"""A tournament run: play the committed schedule on a pool, rate, resume.

The ladder's run (ladder/scheduling/scheduler.py) chooses each next table
from the ratings; a tournament's tables are fixed by its committed schedule,
so this loop only plays what is planned, in order: every set is planned in
the store before its first match (ladder.tournament.plan), each result is
rated with TrueSkill and stored in one transaction (the match id a unique
key: exactly once), and a run that is killed or interrupted leaves the
rest planned for the next, which plays it first. A Swiss round is paired
(and committed) when the round before it has no match left to play.

Failures that are not a bot's are retried up to `max_attempts` times and
never rated, as the ladder's; `MAX_CONSECUTIVE_FAILURES` in a row stop the
run. When every committed table is played (and a Swiss tournament has
committed all its rounds) the run ends the seed chain: its seed, and so
every deal, may then be revealed (`referee ladder-audit`).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from ladder.rating.ratings import initial_skill, make_env, rate_match, rated_places
from ladder.running.dispatch import Pool
from ladder.store.database import Store
from ladder.store.tasks import MatchFailed, MatchTask, PlayedMatch
from ladder.tournament import schedule as sched
from ladder.tournament.commitment import Tournament
from ladder.tournament.plan import bot_spec, plan_pending
from ladder.tournament.results import final_table

MAX_CONSECUTIVE_FAILURES = 6


class TournamentError(Exception):
    """The tournament cannot go on (matches keep failing)."""


@dataclass
class TournamentStatus:
    """What a run has done; `on_update` gets it after every result."""

    scheduled: int
    played: int = 0
    failed: int = 0
    abandoned: int = 0
    interrupted: bool = False
    discarded: int = 0
    complete: bool = False
    last: PlayedMatch | None = None


def finished(store: Store, tournament: Tournament) -> bool:
    """Whether every table is played and (Swiss) every round committed:
    nothing is left for a run (its sets are planned first, if any are not)."""
    plan_pending(store, tournament)
    rounds_left = tournament.swiss and len(tournament.rounds) < int(tournament.schedule["rounds"])
    return not rounds_left and not store.planned(tournament.game, tournament.rule_set)


class TournamentRun:
    """Plays one store's tournament through `pool` (see the module doc)."""

    def __init__(self, store: Store, pool: Pool, tournament: Tournament, *, max_attempts: int = 3,
                 on_update: Callable[[TournamentStatus], None] | None = None,
                 on_round: Callable[[int, str], None] | None = None) -> None:
        self.store = store
        self.pool = pool
        self.tournament = tournament
        self.max_attempts = max_attempts
        self.on_update = on_update or (lambda status: None)
        self.on_round = on_round or (lambda number, commitment: None)
        self.env = make_env()
        self.skills = store.ratings(tournament.game, tournament.rule_set)
        seats = int(tournament.schedule["seats"])
        self.status = TournamentStatus(scheduled=int(tournament.schedule["deals"]["sets"]) * seats)
        self._failures_in_a_row = 0

    def _queue(self) -> deque[MatchTask]:
        bots = {b.bot_id: b for b in self.store.bots()}
        return deque(
            MatchTask(p["match_id"], p["game"], p["set_id"], p["rotation"], p["seed"], p["variant"],
                      tuple(bot_spec(self.store, bots[b]) for b in p["bot_ids"]), attempt=p["attempts"] + 1)
            for p in self.store.planned(self.tournament.game, self.tournament.rule_set))

    def _next_round(self) -> bool:
        """Pair and commit the next Swiss round (False: none is left)."""
        t = self.tournament
        if not t.swiss or len(t.rounds) >= int(t.schedule["rounds"]):
            return False
        entries, _ = final_table(self.store, t)
        met: Counter[tuple[int, int]] = Counter()
        for _, table in t.tables():
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    met[(min(a, b), max(a, b))] += 1
        byes = Counter(b for entry in t.rounds for b in entry["out"])
        tables, out = sched.swiss_round([e.bot_id for e in entries], met, byes, int(t.schedule["seats"]))
        commitment = t.commit_round(list(tables), out)
        t.save(self.store)  # committed (stored) before any of its sets is planned
        self.on_round(len(t.rounds), commitment)
        return True

    def run(self) -> TournamentStatus:
        """Play until the schedule is done or Ctrl-C; raises TournamentError."""
        try:
            while True:
                plan_pending(self.store, self.tournament)
                queue = self._queue()
                if not queue:
                    if self._next_round():
                        continue
                    break
                self._play(queue)
        except KeyboardInterrupt:
            self.status.interrupted = True
            self.status.discarded = len(self.pool.running())
        finally:
            self.pool.close(interrupt=self.status.interrupted or bool(self.pool.running()))
        if not self.status.interrupted:
            self.store.end_chain(self.tournament.chain_id)
            self.status.complete = True
        return self.status

    def _play(self, queue: deque[MatchTask]) -> None:
        while queue or self.pool.running():
            while queue and self.pool.idle() > 0:
                self.pool.submit(queue.popleft())
            for outcome in self.pool.poll(0.25):
                if isinstance(outcome, PlayedMatch):
                    self._rate(outcome)
                else:
                    self._fail(outcome, queue)
                self.on_update(self.status)

    def _rate(self, played: PlayedMatch) -> None:
        before = [self.skills.get(b, initial_skill(self.env)) for b in played.bot_ids]
        places = rated_places(played.ranks, played.forfeits)
        after = rate_match(self.env, before, places)
        if self.store.record_match(played, places, before, after):
            self.skills.update(zip(played.bot_ids, after))
            self.status.played += 1
            self.status.last = played
        self._failures_in_a_row = 0

    def _fail(self, failed: MatchFailed, queue: deque[MatchTask]) -> None:
        task = failed.task
        abandon = task.attempt >= self.max_attempts
        self.store.record_failure(task.match_id, task.attempt, failed.kind, failed.detail, abandon=abandon)
        self.status.failed += 1
        self._failures_in_a_row += 1
        if abandon:
            self.status.abandoned += 1
        else:
            queue.appendleft(MatchTask(task.match_id, task.game, task.set_id, task.rotation, task.seed,
                                       task.variant, task.bots, attempt=task.attempt + 1))
        if self._failures_in_a_row >= MAX_CONSECUTIVE_FAILURES:
            raise TournamentError(f"{self._failures_in_a_row} matches in a row failed; the last: "
                                  f"{failed.kind}: {failed.detail}")
