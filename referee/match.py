"""The match loop: every match is played here, whoever plays its seats.

A match drives an engine and asks its seats for decisions through one
interface (`referee.seats.Seat`): bot processes over gRPC (`run_match`, what
`referee play`, `submit` and the ladder play), bots and policies in this
process (`play_match`: `referee check`'s opponents; `play_bots`: the
strength benchmark's bots; `Match` itself: `referee simulate`).
Who hears which event, the clock and the time bank, strikes, fallbacks,
forfeits and the record are written here once.

The loop asks exactly the seats in `to_act()`. A simultaneous decision (the
commitment of G-5.4) is sent to every deciding seat before any answer is
read, and no seat hears anything of another's commitment until all are in:
the engine reveals them only when it applies all decisions together (G-10:
"a simultaneous commitment is hidden from the others until all are in").
Every event goes only to the seats in its `visible_to` (G-10).

Time control: each decision may use `move_time` seconds plus what remains of
the seat's time bank; time used beyond `move_time` is drawn from the bank.
The referee's timer adds the GRACE transport allowance (both written into
the record's header). A seat is told its allowance without the grace. A
match without a time control (`time_control=None`, simulations) times
nobody.

Failure policy (DESIGN.md): a late, illegal or malformed answer, or none
because the bot died, gets a strike (with the stable reason code of the
`BotFault`) and a fallback action. The fallback is a uniformly random legal
action drawn from a generator seeded from the match seed ("seeded_random"),
so a replay of the same match reproduces it — the record holds it like any
other decision anyway. A crash, or reaching STRIKE_LIMIT strikes, is a
forfeit: the referee plays that seat with the fallback policy to the end and
ranks it last, after every seat that did not forfeit; several forfeiters
share the last place. The others' match goes on untouched.

Trusted seats (`referee.seats.TrustedSeat`: simulate's policies over the
whole state) are asked through `choose` without clock or failure policy;
when every seat is one and nothing is recorded, the loop takes its fast
path: no requests, no record, and `apply_unchecked` unless a watcher reads
the events (bench/loop_bench.py measures it against the simulation loop it
replaced).
"""

from __future__ import annotations

import logging
import math
import random
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, cast

from botsdk import fairness
from botsdk.contract import PROTOCOL_VERSION, TimeControl
from botsdk.fairness import Evaluation

from referee.games import Action, Event, Game, Outcome, State, load_game
from referee.games.base import IllegalActionError, derive_seed
from referee.games.plugin import match_game, plugin
from referee.games.rule_sets import RuleSet
from referee.process import BotProcess
from referee.protocol.faults import BotFault, IllegalAnswer
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
from referee.seats import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo, TrustedSeat
from referee.seats.in_process import InProcessBot, InProcessSeat
from referee.seats.process import ProcessSeat
from referee.untrusted import safe_line

log = logging.getLogger(__name__)

STRIKE_LIMIT = 3
"""Strikes after which a seat forfeits (DESIGN.md, Failure policy)."""

FALLBACK_POLICY = "seeded_random"
"""How the referee decides for a struck or forfeited seat (written into the record)."""

FALLBACK_STREAM = "referee_fallback"
"""The name under which the fallback generator's seed derives from the match seed."""

FORFEIT_CRASHED = "crashed"
FORFEIT_STRIKE_LIMIT = "strike_limit"

UNTIMED = TimeControl(move_time=math.inf, time_bank=None, grace=0.0)
"""What the seats of a match without a time control are told."""

Watch = Callable[[State, Sequence[Event]], None]
"""Follows a whole match from the referee's side: the state after the
setup and after each decision, and every event of that step, whoever may
see it (simulate's per-match figures)."""


def public_summary(rules: Game, state: State) -> dict[str, Any]:
    """The footer's `summary` of a finished match: the game's public
    end-of-match figures (its package's `summary`), from the JSON of a final
    observation, where they are public. A match of a game's own format (a
    Leduc match of hands) sums up as its parameters and each seat's score
    (the chips won in all its hands, public as each hand ends), each deal's
    scores and, where the game measures it, each deal's luck (L-7.5: told
    when the match is over, as the seed is): the final observation is only
    its last deal's."""
    played = rules.match_format()
    if played:
        outcome = state.outcome()
        luck = {"deal_luck": [list(d) for d in outcome.deal_luck]} if outcome.deal_luck else {}
        return {**played, "scores": list(outcome.scores), "deal_scores": [list(d) for d in outcome.deal_scores],
                **luck}
    summary: Callable[[Mapping[str, Any]], dict[str, Any]] | None = plugin(rules.name).load("summary")
    return {} if summary is None else summary(state.observe(0).to_json())


class RefereeError(Exception):
    """A match failed for a reason that is not a bot's fault (the referee,
    the engine, the disk): retry it, never rate it. Close and restart the
    bots before reusing them."""


class UndeclaredVariant(ValueError):
    """A bot would be seated in a variant its handshake does not list."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    name: str
    version: str
    rank: int
    forfeit: str | None
    """The forfeit's reason code, or None."""
    strikes: int
    forfeit_detail: str = ""
    """The forfeit's detail for the author (the seat's own words, unescaped), or ""."""
    decisions: int = 0
    """Decisions the seat was asked (or, for a trusted seat, made)."""
    seconds: float = 0.0
    """The seat's answer times, added up."""


@dataclass(frozen=True)
class MatchResult:
    match_id: str
    game: str
    seed: int
    rule_set: RuleSet
    ranks: tuple[int, ...]
    """Final places after the failure policy (0 = first, ties share)."""
    end_reason: str
    seats: tuple[SeatResult, ...]
    summary: Mapping[str, Any]
    record_path: Path | None
    decisions: int
    seconds: float
    scores: tuple[float, ...] = ()
    """Each seat's score where the match is ranked by one (the engine's
    `Outcome.scores`: a Leduc match's chips), else empty."""

    def to_json(self) -> dict[str, Any]:
        """The result as one JSON object (what `referee play --json` prints)."""
        ranking = sorted(range(len(self.ranks)), key=lambda s: (self.ranks[s], s))
        return {
            "match_id": self.match_id,
            "game": self.game,
            "seed": self.seed,
            "variant": dict(self.rule_set.options),
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
            **({"scores": list(self.scores)} if self.scores else {}),
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


# ------------------------------------------------------------ entry points


def run_match(
    game: Game | str,
    bots: Sequence[BotProcess | Seat],
    *,
    seed: int,
    time_control: TimeControl = TimeControl(),
    record_path: Path | None = None,
    match_id: str | None = None,
    on_event: Callable[[Entry], None] | None = None,
    reveal_seed: bool = True,
    match_format: Mapping[str, int] | None = None,
    evaluation: Evaluation | None = None,
) -> MatchResult:
    """Play one refereed match of `game` (a game configured with its rule
    set, `load_game(name, rule_set)`; a name: the base rules); seat i is
    played by bots[i] (a bot process, or any other `Seat`).

    `reveal_seed=False` keeps the seed and salt out of MatchEnd (the record
    still holds them): a ladder deals one seed to every seat rotation of a
    duplicate set, so a bot told it after one rotation would know every
    hidden card of the next; the ladder reveals it once the set is over
    (docs/records.md, "A ladder's deals").

    `evaluation` makes it an evaluation match, whose seed the caller chose
    for the deal it wanted: every seat's MatchStart says so, and the seed is
    committed to as an evaluation's, never as a fair deal (docs/records.md,
    "Evaluation deals").

    `on_event` receives every record line (a dict, see docs/records.md) as it
    is written; what it raises reaches the caller as it is. Raises
    ValueError for an unknown game or a bad seat count (UndeclaredVariant
    for a bot that does not declare the rule set), and RefereeError when the
    match fails for a reason that is not a bot's fault. A bot's failure
    never raises: it is struck or forfeits.

    `match_format` names the parameters of the game's own match format
    (`{"hands": 100}` for Leduc: referee.games.plugin.match_game); without
    it a match is one play of the engine's rules.
    """
    rules = match_game(game, match_format)
    seats = [bot if isinstance(bot, Seat) else ProcessSeat(bot) for bot in bots]
    match = Match(rules, seats, seed=seed, time_control=time_control, match_id=match_id,
                  reveal_seed=reveal_seed, evaluation=evaluation)
    try:
        if record_path is None and on_event is None:
            return match.play()
        with RecordWriter(record_path, _Listener(on_event) if on_event else None) as writer:
            return match.play(writer)
    except (RefereeError, KeyboardInterrupt):
        raise
    except _ListenerFailed as failed:
        raise failed.raised from None
    except Exception as exc:
        raise RefereeError(f"match {match.match_id} failed in the referee: {exc!r}") from exc


def play_match(
    game: Game | str,
    seats: Sequence[Seat],
    *,
    seed: int,
    time_control: TimeControl | None = TimeControl(),
    match_id: str | None = None,
    reveal_seed: bool = True,
) -> MatchResult:
    """Play one match with `seats` in this process and no record: what
    `referee check`, the arena and tests use. `game` is configured with its
    rule set (a name: the base rules). Raises ValueError for a bad game or
    seat count; whatever the engine or a strict seat
    raises reaches the caller as it is."""
    rules = game if isinstance(game, Game) else load_game(game)
    return Match(rules, seats, seed=seed, time_control=time_control, match_id=match_id,
                 reveal_seed=reveal_seed).play()


def play_bots(
    bots: Sequence[InProcessBot],
    seed: int,
    *,
    game: Game | str = "gnadenlos",
    move_time: float = 1.0,
) -> MatchResult:
    """A match of trusted bots in this process (anything shaped like
    `bots.sdk.Bot`: the strength benchmark, the bots' tests), seat i played
    by bots[i] in a strict `InProcessSeat`: an illegal answer or an
    exception is a bug, raised as it is, never repaired. The match id is
    "arena-SEED": a seeded bot's choices depend on it, so the same seed
    plays the same match."""
    return play_match(game, [InProcessSeat(bot, strict=True) for bot in bots], seed=seed,
                      time_control=TimeControl(move_time=move_time), match_id=f"arena-{seed}")


def check_seated(rule_set: RuleSet, infos: Sequence[SeatInfo]) -> None:
    """Refuse, before the match, to seat a bot in a rule set it does not say
    it plays (its handshake's `variants`, referee.games.rule_sets): a variant
    may ask decisions the base rules never do. Seats whose variants are not
    known (None: code in this process) are not checked. Raises
    UndeclaredVariant naming each bot and what it lacks."""
    lacking = []
    for info in infos:
        if info.variants is not None:
            missing = rule_set.undeclared(info.variants)
            if missing:
                lacking.append(f"{safe_line(info.label)} does not declare {', '.join(missing)}")
    if lacking:
        raise UndeclaredVariant(
            f"{'; '.join(lacking)} (its handshake's variants): a bot is seated only in the variants it says it "
            "plays; choose other bots or leave the variant out")


class _ListenerFailed(Exception):
    """What the caller's record listener raised, carried past the referee's
    own error handling (a closed pipe under `referee play` is the caller's)."""

    def __init__(self, raised: Exception) -> None:
        super().__init__(repr(raised))
        self.raised = raised


class _Listener:
    def __init__(self, listener: Callable[[Entry], None]) -> None:
        self.listener = listener

    def __call__(self, entry: Entry) -> None:
        try:
            self.listener(entry)
        except Exception as exc:
            raise _ListenerFailed(exc) from exc


_COLLECTORS = ThreadPoolExecutor(max_workers=64, thread_name_prefix="collect")
"""The threads that wait for the seats of a simultaneous decision, one each.
Shared by every match of the process and kept between matches: starting
them for each match cost more than the waits (bench/throughput_bench.py).
The pool grows only while every thread is busy, so it holds as many as the
most seats ever asked at once."""


# ------------------------------------------------------------------ a match


@dataclass(slots=True)
class _Book:
    """The loop's bookkeeping of one seat during a match."""

    bank: float | None
    strikes: list[Entry] = field(default_factory=list)
    forfeit: Entry | None = None
    started: bool = False
    """`start` succeeded: the seat hears events and the end."""
    requests: int = 0
    """Requests sent to this seat: its next request id is one more. Counted
    per seat, never across the match: a match-wide counter would tell a
    seat how many decisions the others made between its own, and so which
    of their turns the engine played because they had no choice (a forced
    turn can reveal a hand)."""
    decisions: int = 0
    seconds: float = 0.0


class Match:
    """One match: `deal()` (optional, to see the first state), `run()`, then
    `result()` — or `play()`, which does all three.

    Plays `rules` under the rule set it is configured with (`load_game(name,
    rule_set)`, checked there). Validates on construction (raises ValueError
    for a bad seat count, UndeclaredVariant for a seat that does not declare
    the rule set).
    `watch`, if given, follows the whole match (see `Watch`); `summary=False`
    leaves the footer's public figures out of the result (a simulation
    reads the final `state` itself).
    """

    state: State | None = None
    """The match's state, once dealt."""
    outcome: Outcome | None = None
    """The engine's outcome, once the match is over."""
    ranks: tuple[int, ...] = ()
    """The final places after the forfeit rule, once the match is over."""
    decisions = 0
    """Decisions of the match so far (one per `to_act()`, however many seats it asks)."""
    seconds = 0.0
    # What follows is set when needed. As class-level defaults they cost a
    # simulated match nothing: a Leduc hand is about 40 µs all told.
    _infos: list[SeatInfo] | None = None
    _setup: Sequence[Event] = ()
    _with_events = False
    _books: Sequence[_Book] = ()
    _counts: Sequence[int] = ()
    _writer: RecordWriter | None = None
    _fallback: random.Random | None = None
    _seed_salt = b""
    _seed_commitment = b""
    _summary_figures: dict[str, Any] | None = None
    _listeners: Sequence[tuple[int, Seat, _Book]] = ()
    """The seats that started, which hear events until they forfeit."""

    def __init__(
        self, rules: Game, seats: Sequence[Seat], *, seed: int,
        time_control: TimeControl | None = TimeControl(), match_id: str | None = None, reveal_seed: bool = True,
        watch: Watch | None = None, summary: bool = True, evaluation: Evaluation | None = None,
    ) -> None:
        rules.check_seats(len(seats))
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.trusted = [seat.reads_state for seat in seats]
        self._all_trusted = all(self.trusted)
        if not self._all_trusted:
            check_seated(rules.rule_set, self.infos)
            if time_control is None and any(seat.waits for seat in seats):
                raise ValueError("a match without a time control seats no seat that waits for its answers "
                                 "(a process)")
        self.tc = time_control
        self._clocks: list[TimeControl] = [] if time_control is None else [
            seat.time_control or time_control for seat in seats]
        """Each seat's clock: its own (a person's) or the match's."""
        self.match_id = match_id or uuid.uuid4().hex[:12]
        self.reveal_seed = reveal_seed
        self.watch = watch
        self.summary = summary
        self.evaluation = evaluation

    @property
    def variant(self) -> dict[str, str]:
        """The rule set's options, as the record's header and `MatchStart` carry them."""
        return dict(self.rules.rule_set.options)

    @property
    def seat_decisions(self) -> tuple[int, ...]:
        """Each seat's decisions so far (its own, or the fallback's after a forfeit)."""
        return tuple(self._counts) if self._counts else tuple(book.decisions for book in self._books)

    @property
    def infos(self) -> list[SeatInfo]:
        """Who plays each seat (read from the seats once, when first needed)."""
        if self._infos is None:
            self._infos = [seat.info for seat in self.seats]
        return self._infos

    def _chooser(self, seat: int) -> TrustedSeat:
        return cast(TrustedSeat, self.seats[seat])

    # -------------------------------------------------------------- flow

    def deal(self) -> State:
        """The dealt state (every chance outcome of the setup: G-2), dealt once."""
        if self.state is None:
            self._with_events = self._writer is not None or self.watch is not None or not self._all_trusted
            if self._with_events:
                self.state, self._setup = self.rules.new_state_with_events(len(self.seats), self.seed)
            else:
                self.state = self.rules.new_state(len(self.seats), self.seed)
        return self.state

    def play(self, record: RecordWriter | None = None) -> MatchResult:
        """Play the match to its end (`run`) and return its `result`."""
        self.run(record)
        return self.result()

    def run(self, record: RecordWriter | None = None) -> None:
        """Play the match to its end; `record` (if any) gets every line.
        A seat's failure never raises (it is struck or forfeits); what the
        engine, a strict seat or the record raises reaches the caller."""
        if record is not None:
            if self.tc is None:
                raise ValueError("a match without a time control is not recorded: give it one")
            if self.state is not None and not self._with_events:
                raise RuntimeError("a recorded match is dealt by run(), not deal()")
            self._writer = record
        started = time.monotonic()
        state = self.deal()
        if self._all_trusted and self._writer is None:
            if self.watch is not None:
                self.watch(state, self._setup)
            self._play_trusted(state)
            self.outcome = state.outcome()
            self.ranks = tuple(self.outcome.ranks)
            self.seconds = time.monotonic() - started
            return
        self._books = [_Book(clock.time_bank) for clock in self._clocks] or [_Book(None) for _ in self.seats]
        # The commitment goes to every seat in its MatchStart and into the
        # record; seed and salt are revealed at the end (docs/records.md,
        # "Provably fair deals"; an evaluation's under its own prefix).
        self._seed_salt = fairness.new_salt()
        self._seed_commitment = fairness.commitment(self.seed, self._seed_salt,
                                                    evaluation=self.evaluation is not None)
        if self._writer is not None:
            # one write: a record is never left with a header and no setup line
            self._writer.write(self._header(), {"type": SETUP, "events": [event.to_json() for event in self._setup]})
        self._start_seats(state)
        if self.watch is not None:
            self.watch(state, self._setup)
        while not state.is_terminal():
            self._decide(state)
        self._finish(state, time.monotonic() - started)

    def _header(self) -> Entry:
        tc = self.tc or UNTIMED
        return {
            "type": HEADER,
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "match_id": self.match_id,
            "game": self.rules.name,
            "rules_version": self.rules.rules_version,
            "variant": self.variant,
            **({"match_format": self.rules.match_format()} if self.rules.match_format() else {}),
            "seed": self.seed,
            "seed_commitment": self._seed_commitment.hex(),
            **({"evaluation": self.evaluation.to_json()} if self.evaluation is not None else {}),
            "seats": [
                {"seat": seat, "label": info.label, "name": info.name, "version": info.version,
                 "protocol_version": info.protocol_version, "sandbox": dict(info.sandbox),
                 "kind": self.seats[seat].kind, **self._own_clock(seat)}
                for seat, info in enumerate(self.infos)
            ],
            "time_control": {"move_time": tc.move_time, "time_bank": tc.time_bank, "grace": tc.grace},
            "protocol_version": PROTOCOL_VERSION,
            "strike_limit": STRIKE_LIMIT,
            "fallback": FALLBACK_POLICY,
            "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }

    def _own_clock(self, seat: int) -> Entry:
        """A seat's `time_control` in the header, where it has its own (a
        person's): the header's top-level one is every other seat's."""
        own = self.seats[seat].time_control
        if own is None or self.tc is None:
            return {}
        return {"time_control": {"move_time": own.move_time, "time_bank": own.time_bank, "grace": own.grace}}

    def _start_seats(self, state: State) -> None:
        """Tell each seat the match begins, with its first observation, then
        the setup events it may see. A seat that is not there forfeits."""
        names = tuple(info.name for info in self.infos)
        for seat, player in enumerate(self.seats):
            if self.trusted[seat]:
                continue
            try:
                player.start(MatchStart(
                    match_id=self.match_id, game=self.rules.name, variant=self.variant, seat=seat,
                    num_seats=len(self.seats), seat_names=names,
                    time_control=self._clocks[seat] if self._clocks else UNTIMED,
                    observation=state.observe(seat), seed_commitment=self._seed_commitment,
                    evaluation=self.evaluation))
            except BotFault as fault:
                self._forfeit(seat, fault.reason, fault.detail)
                continue
            self._books[seat].started = True
        self._listeners = [(seat, player, book) for seat, (player, book) in enumerate(zip(self.seats, self._books))
                           if book.started]
        self._tell(self._setup)

    def _play_trusted(self, state: State) -> None:
        """The fast path: every seat a trusted policy over the state, nothing
        recorded. Their actions are legal by contract, so the engine's check
        would only repeat work; a watcher gets the events of that same
        unchecked step."""
        choose = [seat.choose for seat in cast("Sequence[TrustedSeat]", self.seats)]
        watch = self.watch
        counts = self._counts = [0] * len(self.seats)
        steps = 0
        while not state.is_terminal():
            deciding = sorted(state.to_act())
            actions = {seat: choose[seat](state, seat) for seat in deciding}
            if watch is None:
                state.apply_unchecked(actions)
            else:
                watch(state, state._apply(actions, record=True))
            for seat in deciding:
                counts[seat] += 1
            steps += 1
        self.decisions = steps

    def _decide(self, state: State) -> None:
        """One decision: ask every deciding seat (all at once), fall back
        where needed, apply, record, and tell each seat what it may see."""
        self.decisions += 1
        deciding = sorted(state.to_act())
        recording = self._writer is not None
        legal: dict[int, tuple[Action, ...]] = {}
        actions: dict[int, Action] = {}
        asking: list[int] = []
        for seat in deciding:
            legal[seat] = state.legal_actions(seat)
            if self.trusted[seat]:
                actions[seat] = self._chooser(seat).choose(state, seat)
                if actions[seat] not in legal[seat]:
                    raise IllegalActionError(f"the trusted seat {seat} chose {actions[seat]}, not a legal action")
            elif self._books[seat].forfeit is None:
                asking.append(seat)
        answers = self._ask(state, asking, legal)
        lines: list[Entry] = []
        for seat in deciding:
            book = self._books[seat]
            book.decisions += 1
            line: Entry = {}  # what the record says of this seat's decision
            if not self.trusted[seat]:
                answer = answers.get(seat)
                if answer is not None and answer.action is not None:
                    actions[seat] = answer.action
                else:
                    actions[seat] = legal[seat][self._fallback_rng().randrange(len(legal[seat]))]
                    line["by"] = "referee"
                if answer is not None:
                    book.seconds += answer.seconds
                    if book.bank is not None:
                        self._charge(seat, book, answer)
                    if answer.fault is not None:
                        line["strike"] = self._strike(seat, answer.fault)
                    if recording:
                        line["time"] = round(answer.seconds, 6)
                        if book.bank is not None:
                            line["bank"] = round(book.bank, 6)
            if recording:
                strike = line.pop("strike", None)
                lines.append({"seat": seat, **offered(legal[seat]), "by": line.pop("by", "bot"),
                              "action": actions[seat].to_json(), **line,
                              **({"strike": strike} if strike is not None else {})})
        # Every seat of to_act() decided, and every action is one of the legal
        # actions the engine offered in this very state (an answer outside
        # them was struck above): the checks of the engine's public `apply`
        # would only compute the legal actions again, which costs a
        # simulation of heuristic players more than the loop's own work.
        events = state._apply(actions, record=True)
        if self._writer is not None:
            self._writer.write({"type": DECISION, "n": self.decisions, "seats": lines,
                                "events": [event.to_json() for event in events]})
            self._write_pending_forfeits()
        self._tell(events)
        if self.watch is not None:
            self.watch(state, events)

    def _ask(
        self, state: State, seats: list[int], legal: Mapping[int, tuple[Action, ...]]
    ) -> dict[int, Answer]:
        """Send every request first, then collect: no answer is read before
        all seats of a simultaneous decision have been asked."""
        answers: dict[int, Answer] = {}
        sent: list[int] = []
        for seat in seats:
            book = self._books[seat]
            book.requests += 1
            clock = self._clocks[seat] if self._clocks else UNTIMED
            request = Request(book.requests, state.observe(seat), legal[seat],
                              clock.move_time + (book.bank or 0.0), clock.grace)
            try:
                self.seats[seat].send(request)
            except BotFault as fault:
                answers[seat] = Answer(None, 0.0, fault)
            else:
                sent.append(seat)
        if len(sent) == 1:
            answers[sent[0]] = self.seats[sent[0]].collect()
        else:
            # Each answer is timed on its own: a seat whose answer comes from
            # elsewhere waits on a thread of its own, so that reading the
            # answers one after another never charges one seat for the time
            # spent on another.
            waiting: dict[int, Future[Answer]] = {
                seat: _COLLECTORS.submit(self.seats[seat].collect) for seat in sent if self.seats[seat].waits}
            for seat in sent:
                if seat not in waiting:
                    answers[seat] = self.seats[seat].collect()
            for seat, future in waiting.items():
                answers[seat] = future.result()
        for seat, answer in answers.items():
            if answer.action is not None and answer.action not in legal[seat]:  # never trust, it is cheap
                answers[seat] = Answer(None, answer.seconds, IllegalAnswer(
                    f"{answer.action} is not one of the {len(legal[seat])} legal actions offered"))
        return answers

    def _charge(self, seat: int, book: _Book, answer: Answer) -> None:
        """Time beyond the seat's move_time comes out of its bank; a timeout empties it."""
        if book.bank is None or not self._clocks:  # no bank: nothing to draw from
            return
        if answer.fault is not None and answer.fault.reason == "timeout":
            book.bank = 0.0
        else:
            book.bank = max(0.0, book.bank - max(0.0, answer.seconds - self._clocks[seat].move_time))

    def _fallback_rng(self) -> random.Random:
        """The fallback generator, made when first needed (seeding one costs
        more than a whole simulated Leduc hand's decisions)."""
        if self._fallback is None:
            self._fallback = random.Random(derive_seed(self.seed, FALLBACK_STREAM))
        return self._fallback

    # ------------------------------------------------------ failure policy

    def _strike(self, seat: int, fault: BotFault) -> Entry:
        book = self._books[seat]
        strike = {"reason": fault.reason, "detail": fault.detail}
        book.strikes.append({**strike, "decision": self.decisions})
        if book.forfeit is None:
            if fault.reason == FORFEIT_CRASHED:
                self._forfeit(seat, FORFEIT_CRASHED, fault.detail, write=False)
            elif len(book.strikes) >= STRIKE_LIMIT:
                reasons = ", ".join(s["reason"] for s in book.strikes)
                self._forfeit(seat, FORFEIT_STRIKE_LIMIT, f"{len(book.strikes)} strikes ({reasons})", write=False)
        return strike

    def _forfeit(self, seat: int, reason: str, detail: str, write: bool = True) -> None:
        """From now on the referee plays this seat; it is ranked last."""
        self._books[seat].forfeit = {"type": FORFEIT, "seat": seat, "reason": reason, "detail": detail,
                                     "decision": self.decisions, "written": False}
        log.info("match %s: seat %d (%s) forfeits: %s: %s", self.match_id, seat, self.infos[seat].label,
                 reason, detail)
        self.seats[seat].dismiss()
        if write:
            self._write_pending_forfeits()

    def _write_pending_forfeits(self) -> None:
        for book in self._books:
            if book.forfeit is not None and not book.forfeit["written"]:
                book.forfeit["written"] = True
                if self._writer is not None:
                    self._writer.write({k: v for k, v in book.forfeit.items() if k != "written"})

    def _tell(self, events: Sequence[Event]) -> None:
        """Each seat gets the events it may see (G-10), nothing else."""
        if not events:
            return
        for seat, player, book in self._listeners:
            if book.forfeit is None:
                seen = [event for event in events if seat in event.visible_to]
                if seen:
                    try:
                        player.tell(seen)
                    except BotFault as fault:
                        self._forfeit(seat, fault.reason, fault.detail)

    # --------------------------------------------------------------- end

    def _finish(self, state: State, seconds: float) -> None:
        """Rank, tell every seat that started the end, write the footer."""
        outcome = self.outcome = state.outcome()
        forfeited = frozenset(seat for seat, book in enumerate(self._books) if book.forfeit is not None)
        ranks = self.ranks = final_ranks(outcome.ranks, forfeited) if forfeited else tuple(outcome.ranks)
        self.seconds = seconds
        final = Outcome(outcome.reason, ranks, outcome.detail)
        end = MatchEnd(final, self.seed, self._seed_salt) if self.reveal_seed else MatchEnd(final)
        for seat, player in enumerate(self.seats):
            if self._books[seat].started:
                player.end(end)
        if self._writer is not None:
            self._writer.write({
                "type": FOOTER,
                "end_reason": outcome.reason,
                "end_detail": outcome.detail,
                "engine_ranks": list(outcome.ranks),
                "ranks": list(ranks),
                **({"scores": list(outcome.scores)} if outcome.scores else {}),
                "forfeits": [{k: v for k, v in book.forfeit.items() if k not in ("type", "written")}
                             for book in self._books if book.forfeit is not None],
                "strikes": [book.strikes for book in self._books],
                "summary": self._summary(),
                "seed_salt": self._seed_salt.hex(),
                "decisions": self.decisions,
                "seconds": round(seconds, 6),
            })

    def _summary(self) -> dict[str, Any]:
        """The footer's public figures (computed once), or {} without `summary`."""
        if self._summary_figures is None:
            assert self.state is not None
            self._summary_figures = public_summary(self.rules, self.state) if self.summary else {}
        return self._summary_figures

    def result(self) -> MatchResult:
        """What came of the finished match."""
        if self.outcome is None:
            raise RuntimeError("the match has not been played")
        ranks = self.ranks
        if not self._books:  # the fast path keeps only the counts
            self._books = [_Book(None, decisions=count) for count in self._counts]
        return MatchResult(
            match_id=self.match_id, game=self.rules.name, seed=self.seed, rule_set=self.rules.rule_set,
            ranks=ranks, end_reason=self.outcome.reason,
            seats=tuple(
                SeatResult(seat=seat, name=info.name, version=info.version, rank=ranks[seat],
                           forfeit=book.forfeit["reason"] if book.forfeit else None, strikes=len(book.strikes),
                           forfeit_detail=book.forfeit["detail"] if book.forfeit else "",
                           decisions=book.decisions, seconds=book.seconds)
                for seat, (info, book) in enumerate(zip(self.infos, self._books))
            ),
            summary=self._summary(), record_path=self._writer.path if self._writer is not None else None,
            decisions=self.decisions, seconds=self.seconds, scores=tuple(self.outcome.scores),
        )
