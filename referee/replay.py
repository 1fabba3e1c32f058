"""Re-run a match record from its seed and decisions, and check it.

A record is verified when the engine, dealt from the header's seed and fed
the recorded decisions one by one, produces exactly the recorded events
(setup and after every decision: every chance outcome, with the same
audiences) and the recorded end: end reason, engine ranking, the public end
figures (the footer's summary, e.g. Saboteur's nugget totals and rounds), and
the final ranking after the forfeit rule. The first difference is reported; what
follows it would only be its consequence.

A seat's view of the match (`SeatView`) is built only from what that seat
was entitled to: the events whose `visible_to` holds it and its own
observations (G-10), never from the full state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.games import Event, Game, Observation, State, load_game
from referee.games.plugin import match_game
from referee.match import final_ranks, public_summary
from referee.records import Entry, MatchRecord, events_json, offered


class ReplayMismatch(Exception):
    """The record does not reproduce: where, and what differs."""


@dataclass
class Step:
    """One step of a replayed match: the setup (decision None) or a decision,
    the events it caused, and the observations of every seat after it."""

    index: int
    decision: Entry | None
    events: list[Event]
    observations: list[Observation]
    forfeits: list[Entry] = field(default_factory=list)

    def events_for(self, seat: int | None) -> list[Event]:
        """The events `seat` saw (all of them, record-only ones included, for None)."""
        if seat is None:
            return list(self.events)
        return [event for event in self.events if seat in event.visible_to]


class Replayer:
    """Drives a fresh engine state through a record's lines as they come.

    Used both on a finished record (`replay`) and live, fed line by line by
    the referee (`referee play` renders from it).
    """

    def __init__(self, header: Entry) -> None:
        self.header = header
        rules = load_game(header["game"])
        if header["rules_version"] != rules.rules_version:
            raise ReplayMismatch(
                f"the record was played under rules {header['rules_version']!r}; "
                f"this engine implements {rules.rules_version!r}")
        self.game: Game = match_game(load_game(header["game"], header["variant"]), header.get("match_format"))
        self.num_seats = len(header["seats"])
        self.state, self.setup_events = self.game.new_state_with_events(self.num_seats, header["seed"])
        self.decisions = 0

    def setup_step(self) -> Step:
        return Step(0, None, list(self.setup_events), self._observe())

    def apply(self, decision: Entry) -> Step:
        """Apply one decision line. Raises ReplayMismatch if it is not legal,
        or if the seats were offered other actions than the line says."""
        self.decisions += 1
        self._check_offered(decision)
        actions = {line["seat"]: self.game.action_from_json(line["action"]) for line in decision["seats"]}
        try:
            events = self.state.apply(actions)
        except ValueError as exc:
            raise ReplayMismatch(f"decision {decision.get('n', self.decisions)}: {exc}") from None
        return Step(self.decisions, decision, events, self._observe())

    def _check_offered(self, decision: Entry) -> None:
        """Each seat's `legal_count` and `legal_digest` are those of the legal
        actions the engine offers it now (records.offered)."""
        n = decision.get("n", self.decisions)
        for line in decision["seats"]:
            seat = line["seat"]
            if "legal_count" not in line or "legal_digest" not in line:
                raise ReplayMismatch(f"decision {n}, seat {seat}: the record does not say which actions were "
                                     "offered (legal_count, legal_digest)")
            mine = offered(self.state.legal_actions(seat))
            if mine != {"legal_count": line["legal_count"], "legal_digest": line["legal_digest"]}:
                raise ReplayMismatch(
                    f"decision {n}, seat {seat}: the engine offers {mine['legal_count']} actions (digest "
                    f"{mine['legal_digest'][:16]}...), the record says {line['legal_count']} "
                    f"({str(line['legal_digest'])[:16]}...)")

    def _observe(self) -> list[Observation]:
        return [self.state.observe(seat) for seat in range(self.num_seats)]


def steps(record: MatchRecord) -> Iterator[Step]:
    """Replay `record` step by step, checking each step's events against it.

    Raises ReplayMismatch at the first difference.
    """
    replayer = Replayer(record.header)
    setup = replayer.setup_step()
    _same_events("setup", setup.events, record.setup["events"])
    setup.forfeits = [f for f in record.forfeits if f["decision"] == 0]
    yield setup
    for entry in record.decisions:
        step = replayer.apply(entry)
        _same_events(f"decision {entry['n']}", step.events, entry["events"])
        step.forfeits = [f for f in record.forfeits if f["decision"] == entry["n"]]
        yield step
    if record.footer is not None:
        _check_end(record, replayer.state)


def verify(record: MatchRecord) -> None:
    """Raises ReplayMismatch unless the record reproduces exactly, to the end."""
    for _ in steps(record):
        pass
    if record.footer is None:
        raise ReplayMismatch("the record has no footer: the match did not finish")


def _same_events(where: str, replayed: list[Event], recorded: list[Entry]) -> None:
    ours = events_json(replayed)
    if ours == recorded:
        return
    for index, (mine, theirs) in enumerate(zip(ours, recorded)):
        if mine != theirs:
            raise ReplayMismatch(f"{where}, event {index}: the engine gives {mine}, the record says {theirs}")
    raise ReplayMismatch(f"{where}: the engine gives {len(ours)} events, the record lists {len(recorded)}")


def _check_end(record: MatchRecord, state: State) -> None:
    footer = record.footer
    assert footer is not None
    if not state.is_terminal():
        raise ReplayMismatch("the record's decisions end before the match does")
    outcome = state.outcome()
    if outcome.reason != footer["end_reason"]:
        raise ReplayMismatch(f"end reason: the engine gives {outcome.reason!r}, the record says "
                             f"{footer['end_reason']!r}")
    if list(outcome.ranks) != footer["engine_ranks"]:
        raise ReplayMismatch(f"ranking: the engine gives {list(outcome.ranks)}, the record says "
                             f"{footer['engine_ranks']}")
    if list(outcome.scores) != footer.get("scores", []):
        raise ReplayMismatch(f"scores: the engine gives {list(outcome.scores)}, the record says "
                             f"{footer.get('scores', [])}")
    summary = json.loads(json.dumps(public_summary(match_game(record.header["game"], record.header.get("match_format")),
                                                   state)))
    if "summary" in footer:
        # every figure the record states must reproduce; figures added since it was written (a Leduc match's
        # deal_scores and deal_luck, L-7.5) are not in an older record and are not missing from it
        stated = footer["summary"]
        given = {key: summary[key] for key in stated if key in summary} if isinstance(stated, dict) else summary
        if given != stated:
            raise ReplayMismatch(f"end figures: the engine gives {given}, the record says {stated}")
    forfeited = frozenset(f["seat"] for f in footer["forfeits"])
    if forfeited != frozenset(f["seat"] for f in record.forfeits):
        raise ReplayMismatch("the footer's forfeits differ from the record's forfeit lines")
    if list(final_ranks(outcome.ranks, forfeited)) != footer["ranks"]:
        raise ReplayMismatch(f"final ranking: the forfeit rule gives "
                             f"{list(final_ranks(outcome.ranks, forfeited))}, the record says {footer['ranks']}")
