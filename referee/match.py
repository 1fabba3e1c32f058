"""Run one match between bot processes: drive the engine, ask the seats,
enforce time, apply the failure policy, write the record.

The referee asks exactly the seats in `to_act()`. A simultaneous decision
(the commitment of G-5.4) is sent to every deciding seat before any answer is
read, and no seat hears anything of another's commitment until all are in:
the engine reveals them only when it applies all decisions together (G-10:
"a simultaneous commitment is hidden from the others until all are in").
Every event goes only to the seats in its `visible_to` (G-10).

Time control: each decision may use `move_time` seconds plus what remains of
the seat's time bank; time used beyond `move_time` is drawn from the bank.
The referee's own timer adds the GRACE transport allowance (both written into
the record's header). The bot is told its allowance without the grace.

Failure policy (DESIGN.md): a late, illegal or malformed answer, or none
because the bot died, gets a strike (with the stable reason code of the
`BotFault`) and a fallback action. The fallback is a uniformly random legal
action drawn from a generator seeded from the match seed ("seeded_random"),
so a replay of the same match reproduces it — the record holds it like any
other decision anyway. A crash, or reaching STRIKE_LIMIT strikes, is a
forfeit: the referee plays that seat with the fallback policy to the end and
ranks it last, after every seat that did not forfeit; several forfeiters
share the last place. The others' match goes on untouched.
"""

from __future__ import annotations

import logging
import random
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from botsdk import fairness
from botsdk.contract import PROTOCOL_VERSION, TimeControl

from referee.games import Action, Event, Game, Observation, Outcome, State, load_game
from referee.games.base import derive_seed
from referee.games.rule_sets import undeclared
from referee.games.plugin import plugin
from referee.process import BotProcess
from referee.protocol.client import BotClient, BotCrashed, BotFault, IllegalAnswer
from referee.records import (
    DECISION,
    FOOTER,
    FORFEIT,
    HEADER,
    RECORD_FORMAT,
    RECORD_VERSION,
    SETUP,
    Entry,
    RecordWriter,
    offered,
)
from referee.untrusted import safe_line

log = logging.getLogger(__name__)

STRIKE_LIMIT = 3
"""Strikes after which a seat forfeits (DESIGN.md, Failure policy)."""

FALLBACK_POLICY = "seeded_random"
"""How the referee decides for a struck or forfeited seat (written into the record)."""

FALLBACK_STREAM = "referee_fallback"
"""The name under which the fallback generator's seed derives from the match seed."""

FORFEIT_CRASHED = "crashed"
CRASH_EXIT_WAIT = 0.2
"""Seconds to wait for a crashed bot's exit status (the stream breaks first)."""
FORFEIT_STRIKE_LIMIT = "strike_limit"

def public_summary(game: str, state: State) -> dict[str, Any]:
    """The footer's `summary` of a finished match: the game's public
    end-of-match figures (its package's `summary`), from the JSON of a final
    observation, where they are public."""
    summary: Callable[[Mapping[str, Any]], dict[str, Any]] | None = plugin(game).load("summary")
    return {} if summary is None else summary(state.observe(0).to_json())


class RefereeError(Exception):
    """A match failed for a reason that is not a bot's fault (the referee,
    the engine, the disk): retry it, never rate it. Close and restart the
    bots before reusing them."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    name: str
    version: str
    rank: int
    forfeit: str | None
    """The forfeit's reason code, or None."""
    strikes: int


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    game: str
    seed: int
    variant: Mapping[str, str]
    ranks: tuple[int, ...]
    """Final places after the failure policy (0 = first, ties share)."""
    end_reason: str
    seats: tuple[SeatResult, ...]
    summary: Mapping[str, Any]
    record_path: Path | None
    decisions: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The result as one JSON object (what `referee play --json` prints)."""
        ranking = sorted(range(len(self.ranks)), key=lambda s: (self.ranks[s], s))
        return {
            "match_id": self.match_id,
            "game": self.game,
            "seed": self.seed,
            "variant": dict(self.variant),
            "end_reason": self.end_reason,
            "ranks": list(self.ranks),
            "ranking": ranking,
            **{key: list(value) if isinstance(value, (list, tuple)) else value
               for key, value in self.summary.items()},
            "strikes": [s.strikes for s in self.seats],
            "forfeits": {str(s.seat): s.forfeit for s in self.seats if s.forfeit},
            "seats": [
                {"seat": s.seat, "name": s.name, "version": s.version, "rank": s.rank,
                 "strikes": s.strikes, "forfeit": s.forfeit}
                for s in self.seats
            ],
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "record": str(self.record_path) if self.record_path else None,
        }


def final_ranks(engine_ranks: Sequence[int], forfeited: frozenset[int]) -> tuple[int, ...]:
    """Places after the forfeit rule: the seats that did not forfeit keep
    their order (and ties) from the engine; every forfeiter comes after all
    of them, and forfeiters share that last place."""
    stayed = [s for s in range(len(engine_ranks)) if s not in forfeited]
    last = len(stayed)
    return tuple(
        last if seat in forfeited
        else sum(1 for other in stayed if engine_ranks[other] < engine_ranks[seat])
        for seat in range(len(engine_ranks))
    )


def run_match(
    game: str,
    bots: Sequence[BotProcess],
    *,
    seed: int,
    variant: Mapping[str, str] | None = None,
    time_control: TimeControl = TimeControl(),
    record_path: Path | None = None,
    match_id: str | None = None,
    on_event: Callable[[Any], None] | None = None,
    reveal_seed: bool = True,
) -> MatchResult:
    """Play one match; seat i is played by bots[i].

    `reveal_seed=False` keeps the seed and salt out of MatchEnd (the record
    still holds them): a ladder deals one seed to every seat rotation of a
    duplicate set, so a bot told it after one rotation would know every
    hidden card of the next; the ladder reveals it once the set is over
    (docs/records.md, "A ladder's deals").

    `on_event` receives every record line (a dict, see docs/records.md) as it
    is written. Raises ValueError for an unknown game, variant or seat
    count, and RefereeError when the match fails for a reason that is not a
    bot's fault. A bot's failure never raises: it is struck or forfeits.
    """
    rules = load_game(game)
    rules.check_seats(len(bots))
    full_variant = rules.check_variant(variant)
    check_seated(rules, full_variant, bots)
    match = _Match(rules.name, bots, seed, full_variant, time_control,
                   match_id or uuid.uuid4().hex[:12], record_path, reveal_seed)
    try:
        with RecordWriter(record_path, on_event) as writer:
            return match.run(writer)
    except (RefereeError, KeyboardInterrupt):
        raise
    except Exception as exc:
        raise RefereeError(f"match {match.match_id} failed in the referee: {exc!r}") from exc


class UndeclaredVariant(ValueError):
    """A bot would be seated in a variant its handshake does not list."""


def check_seated(rules: Game, variant: Mapping[str, str], bots: Sequence[BotProcess]) -> None:
    """Refuse, before the match, to seat a bot in a variant it does not say
    it plays (its handshake's `variants`, referee.games.rule_sets): a variant
    may ask decisions the base rules never do. Bots that failed to start
    are left to forfeit. Raises UndeclaredVariant naming each bot and what
    it lacks."""
    lacking = []
    for bot in bots:
        if bot.fault is None:
            missing = undeclared(rules, variant, bot.info.variants)
            if missing:
                lacking.append(f"{safe_line(bot.label)} does not declare {', '.join(missing)}")
    if lacking:
        raise UndeclaredVariant(
            f"{'; '.join(lacking)} (its handshake's variants): a bot is seated only in the variants it says it "
            "plays; choose other bots or leave the variant out")


# --------------------------------------------------------------- one request


@dataclass
class Pending:
    """A decision request sent to one seat, waiting for its answer."""

    client: BotClient
    request_id: int
    legal_actions: tuple[Action, ...]
    sent: float
    timeout: float
    """The referee's timer: the seat's allowance plus GRACE, from `sent`."""


@dataclass
class Answer:
    action: Action | None
    seconds: float
    fault: BotFault | None = None


def send_request(
    client: BotClient, *, request_id: int, observation: Observation,
    legal_actions: tuple[Action, ...], allowance: float, grace: float,
) -> Pending | Answer:
    """Send one decide; an Answer (with its fault) if the bot cannot be reached."""
    sent = time.monotonic()
    try:
        client.send_decide(request_id=request_id, observation=observation,
                           legal_actions=legal_actions, deadline=allowance)
    except BotFault as fault:
        return Answer(None, 0.0, fault)
    return Pending(client, request_id, legal_actions, sent, allowance + grace)


def collect(pending: Pending) -> Answer:
    """Wait for the answer to `pending` until the referee's timer runs out."""
    remaining = pending.timeout - (time.monotonic() - pending.sent)
    try:
        action = pending.client.receive_decision(
            request_id=pending.request_id, legal_actions=pending.legal_actions,
            timeout=max(0.0, remaining))
    except BotFault as fault:
        return Answer(None, time.monotonic() - pending.sent, fault)
    seconds = time.monotonic() - pending.sent
    if action not in pending.legal_actions:  # the client promises this; never trust, it is cheap
        return Answer(None, seconds, IllegalAnswer("the answer is not one of the legal actions"))
    return Answer(action, seconds)


_COLLECTORS = ThreadPoolExecutor(max_workers=64, thread_name_prefix="collect")
"""The threads that wait for the seats of a simultaneous decision, one each.
Shared by every match of the process and kept between matches: starting
them for each match cost more than the waits (bench/throughput_bench.py).
The pool grows only while every thread is busy, so it holds as many as the
most seats ever asked at once."""


# ------------------------------------------------------------------ a match


@dataclass
class _Seat:
    """One seat's bookkeeping during a match."""

    seat: int
    bot: BotProcess
    bank: float | None
    strikes: list[Entry] = field(default_factory=list)
    forfeit: Entry | None = None
    in_match: bool = False
    """The bot's match stream is open (start_match succeeded)."""
    unsent: list[Event] = field(default_factory=list)
    """Events for this seat not sent yet (see `_Match._notify`)."""
    requests: int = 0
    """Requests sent to this seat: its next request id is one more. Counted
    per seat, never across the match: a match-wide counter would tell a
    seat how many decisions the others made between its own, and so which
    of their turns the engine played because they had no choice (a forced
    turn can reveal a hand)."""


class _Match:
    def __init__(
        self, game: str, bots: Sequence[BotProcess], seed: int, variant: dict[str, str],
        time_control: TimeControl, match_id: str, record_path: Path | None, reveal_seed: bool = True,
    ) -> None:
        self.rules = load_game(game)
        self.seed = seed
        self.variant = variant
        self.tc = time_control
        self.match_id = match_id
        self.record_path = record_path
        self.reveal_seed = reveal_seed
        self.seats = [_Seat(i, bot, time_control.time_bank) for i, bot in enumerate(bots)]
        self.fallback_rng = random.Random(derive_seed(seed, FALLBACK_STREAM))
        self.seed_salt = fairness.new_salt()
        self.seed_commitment = fairness.commitment(seed, self.seed_salt)
        """Sent to every seat before the deal and recorded; seed and salt are
        revealed at the end (docs/records.md, "Provably fair deals")."""
        self.decisions = 0
        self._writer: RecordWriter | None = None

    # -------------------------------------------------------------- flow

    def run(self, writer: RecordWriter) -> MatchResult:
        self._writer = writer
        started = time.monotonic()
        state, setup_events = self._new_state()
        writer.write(self._header())
        writer.write({"type": SETUP, "events": [event.to_json() for event in setup_events]})
        self._start_seats(state, setup_events)
        while not state.is_terminal():
            self._decide(state)
        return self._finish(state, time.monotonic() - started)

    def _new_state(self) -> tuple[State, list[Event]]:
        """The dealt state and its setup events (every chance outcome of G-2)."""
        return self.rules.new_state_with_events(len(self.seats), self.seed, self.variant)

    def _header(self) -> Entry:
        return {
            "type": HEADER,
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "match_id": self.match_id,
            "game": self.rules.name,
            "rules_version": self.rules.rules_version,
            "variant": self.variant,
            "seed": self.seed,
            "seed_commitment": self.seed_commitment.hex(),
            "seats": [
                {"seat": s.seat, "label": s.bot.label, "name": s.bot.info.name,
                 "version": s.bot.info.version, "protocol_version": s.bot.info.protocol_version,
                 "sandbox": s.bot.protections()}
                for s in self.seats
            ],
            "time_control": {"move_time": self.tc.move_time, "time_bank": self.tc.time_bank,
                             "grace": self.tc.grace},
            "protocol_version": PROTOCOL_VERSION,
            "strike_limit": STRIKE_LIMIT,
            "fallback": FALLBACK_POLICY,
            "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }

    def _start_seats(self, state: State, setup_events: list[Event]) -> None:
        """Open each bot's match stream with its first observation, then tell
        it the setup events it may see. A bot that is not there forfeits."""
        names = [s.bot.info.name for s in self.seats]
        for seat in self.seats:
            bot = seat.bot
            if bot.fault is not None:
                self._forfeit(seat, bot.fault.reason, bot.fault.detail)
                continue
            if not bot.alive:
                self._forfeit(seat, FORFEIT_CRASHED,
                              f"the bot process was not running at the start ({bot.exit_description()})")
                continue
            bot.begin_match()  # fresh CPU and wall budgets: a warm bot's limits bound each match
            try:
                bot.client.start_match(
                    match_id=self.match_id, game=self.rules.name, variant=self.variant,
                    seat=seat.seat, num_seats=len(self.seats), seat_names=names,
                    time_control=self.tc, observation=state.observe(seat.seat),
                    seed_commitment=self.seed_commitment)
            except BotFault as fault:
                self._forfeit(seat, fault.reason, self._fault_detail(seat, fault))
                continue
            seat.in_match = True
        self._notify(setup_events)

    def _decide(self, state: State) -> None:
        """One decision: ask every deciding seat (all at once), fall back
        where needed, apply, record, and tell each seat what it may see."""
        self.decisions += 1
        deciding = sorted(state.to_act())
        legal = {seat: state.legal_actions(seat) for seat in deciding}
        answers = self._ask(state, [s for s in deciding if self.seats[s].forfeit is None], legal)
        actions: dict[int, Action] = {}
        lines: list[Entry] = []
        for seat in deciding:
            answer = answers.get(seat)
            line: Entry = {"seat": seat, **offered(legal[seat])}  # what the seat could choose from
            if answer is not None and answer.action is not None:
                actions[seat] = answer.action
                line["by"] = "bot"
            else:
                actions[seat] = legal[seat][self.fallback_rng.randrange(len(legal[seat]))]
                line["by"] = "referee"
            line["action"] = actions[seat].to_json()
            if answer is not None:
                line["time"] = round(answer.seconds, 6)
                self._charge(self.seats[seat], answer)
                if self.seats[seat].bank is not None:
                    line["bank"] = round(self.seats[seat].bank or 0.0, 6)
                if answer.fault is not None:
                    line["strike"] = self._strike(self.seats[seat], answer.fault)
            lines.append(line)
        events = state.apply(actions)
        assert self._writer is not None
        self._writer.write({"type": DECISION, "n": self.decisions, "seats": lines,
                            "events": [event.to_json() for event in events]})
        self._write_pending_forfeits()
        self._notify(events)

    def _ask(
        self, state: State, seats: list[int], legal: Mapping[int, tuple[Action, ...]]
    ) -> dict[int, Answer]:
        """Send every request first, then collect: no answer is read before
        all seats of a simultaneous decision have been asked."""
        answers: dict[int, Answer] = {}
        pending: dict[int, Pending] = {}
        for seat in seats:
            entry = self.seats[seat]
            self._flush(entry)
            if entry.forfeit is not None:  # its stream broke while catching up
                answers[seat] = Answer(None, 0.0, BotCrashed(entry.forfeit["detail"]))
                continue
            entry.requests += 1
            sent = send_request(
                entry.bot.client, request_id=entry.requests, observation=state.observe(seat),
                legal_actions=legal[seat], allowance=self.tc.move_time + (entry.bank or 0.0),
                grace=self.tc.grace)
            if isinstance(sent, Answer):
                answers[seat] = sent
            else:
                pending[seat] = sent
        if len(pending) == 1:
            ((seat, request),) = pending.items()
            answers[seat] = collect(request)
        elif pending:
            # Each answer is timed on its own thread: reading them one after
            # another would charge a seat for the time spent waiting on another.
            futures = {seat: _COLLECTORS.submit(collect, request) for seat, request in pending.items()}
            for seat, future in futures.items():
                answers[seat] = future.result()
        return answers

    def _charge(self, seat: _Seat, answer: Answer) -> None:
        """Time beyond move_time comes out of the bank; a timeout empties it."""
        if seat.bank is None:
            return
        if answer.fault is not None and answer.fault.reason == "timeout":
            seat.bank = 0.0
        else:
            seat.bank = max(0.0, seat.bank - max(0.0, answer.seconds - self.tc.move_time))

    # ------------------------------------------------------ failure policy

    def _strike(self, seat: _Seat, fault: BotFault) -> Entry:
        strike = {"reason": fault.reason, "detail": self._fault_detail(seat, fault)}
        seat.strikes.append({**strike, "decision": self.decisions})
        if seat.forfeit is None:
            if fault.reason == FORFEIT_CRASHED:
                self._forfeit(seat, FORFEIT_CRASHED, strike["detail"], write=False)
            elif len(seat.strikes) >= STRIKE_LIMIT:
                reasons = ", ".join(s["reason"] for s in seat.strikes)
                self._forfeit(seat, FORFEIT_STRIKE_LIMIT,
                              f"{len(seat.strikes)} strikes ({reasons})", write=False)
        return strike

    def _fault_detail(self, seat: _Seat, fault: BotFault) -> str:
        """The fault's text, and for a crash how the process ended (the hint
        an author needs most)."""
        if fault.reason == FORFEIT_CRASHED and seat.bot.pid > 0:
            return f"{fault.detail} ({seat.bot.exit_description(wait=CRASH_EXIT_WAIT)})"
        return fault.detail

    def _forfeit(self, seat: _Seat, reason: str, detail: str, write: bool = True) -> None:
        """From now on the referee plays this seat; it is ranked last."""
        seat.forfeit = {"type": FORFEIT, "seat": seat.seat, "reason": reason, "detail": detail,
                        "decision": self.decisions, "written": False}
        log.info("match %s: seat %d (%s) forfeits: %s: %s", self.match_id, seat.seat,
                 seat.bot.label, reason, detail)
        seat.bot.kill()  # its whole process tree: a spinning loop or a fork bomb must not play on
        if write:
            self._write_pending_forfeits()

    def _write_pending_forfeits(self) -> None:
        assert self._writer is not None
        for seat in self.seats:
            if seat.forfeit is not None and not seat.forfeit["written"]:
                seat.forfeit["written"] = True
                self._writer.write({k: v for k, v in seat.forfeit.items() if k != "written"})

    def _notify(self, events: Sequence[Event]) -> None:
        """Each seat gets the events it may see (G-10), nothing else.

        They are held and sent in one Notify just before the seat's next
        Decide (or MatchEnd): a seat that is not deciding is not woken for
        every event. Four bot processes decoding every event on two cores
        cost more than the decisions themselves (measured in
        bench/match_bench.py)."""
        for seat in self.seats:
            if seat.forfeit is None and seat.in_match:
                seat.unsent.extend(event for event in events if seat.seat in event.visible_to)

    def _flush(self, seat: _Seat) -> None:
        """Send the seat's held events; a broken stream is a crash (forfeit)."""
        if not seat.unsent:
            return
        events, seat.unsent = seat.unsent, []
        try:
            seat.bot.client.notify(events)
        except BotFault as fault:  # only a broken stream fails a one-way message
            self._forfeit(seat, fault.reason, self._fault_detail(seat, fault))

    # --------------------------------------------------------------- end

    def _finish(self, state: State, seconds: float) -> MatchResult:
        outcome = state.outcome()
        forfeited = frozenset(s.seat for s in self.seats if s.forfeit is not None)
        ranks = final_ranks(outcome.ranks, forfeited)
        final = Outcome(outcome.reason, ranks, outcome.detail)
        for seat in self.seats:
            if seat.in_match and seat.bot.alive:
                if seat.forfeit is None:
                    self._flush(seat)
                try:
                    if self.reveal_seed:
                        seat.bot.client.end_match(final, outcome.reason, self.seed, self.seed_salt)
                    else:
                        seat.bot.client.end_match(final, outcome.reason)
                except BotFault as fault:  # the match is over; it changes nothing
                    log.info("match %s: end of match not delivered to seat %d: %s",
                             self.match_id, seat.seat, fault.detail)
        summary = public_summary(self.rules.name, state)
        assert self._writer is not None
        self._writer.write({
            "type": FOOTER,
            "end_reason": outcome.reason,
            "end_detail": outcome.detail,
            "engine_ranks": list(outcome.ranks),
            "ranks": list(ranks),
            "forfeits": [{k: v for k, v in s.forfeit.items() if k not in ("type", "written")}
                         for s in self.seats if s.forfeit is not None],
            "strikes": [s.strikes for s in self.seats],
            "summary": summary,
            "seed_salt": self.seed_salt.hex(),
            "decisions": self.decisions,
            "seconds": round(seconds, 6),
        })
        return MatchResult(
            match_id=self.match_id, game=self.rules.name, seed=self.seed, variant=self.variant,
            ranks=ranks, end_reason=outcome.reason,
            seats=tuple(
                SeatResult(seat=s.seat, name=s.bot.info.name, version=s.bot.info.version,
                           rank=ranks[s.seat], forfeit=s.forfeit["reason"] if s.forfeit else None,
                           strikes=len(s.strikes))
                for s in self.seats
            ),
            summary=summary, record_path=self.record_path, decisions=self.decisions, seconds=seconds,
        )

