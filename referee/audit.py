"""Checking a match record the way a competitor would: was the deal fixed
before play, did every card come from it, and was every decision legal?

`audit(record)` checks, in order:
1. the commitment: the seed and salt the record reveals hash to the
   commitment every seat received in its MatchStart (docs/records.md,
   "Provably fair deals"), so the organiser could not choose the seed after
   seeing the bots — or, in an evaluation match, whose header says the
   referee chose the deal, that they hash to the commitment under the
   evaluation prefix (docs/records.md, "Evaluation deals"): the deal was
   fixed at the start, though not at random;
2. the derivation: re-run from that seed, the engine deals, draws and rolls
   exactly the chance outcomes recorded (docs/chance.md says how a seed
   becomes each of them, for an independent check);
3. the decisions: every recorded decision was legal where it was taken,
   and the match reproduces to its recorded result.
"""

from __future__ import annotations

from dataclasses import dataclass

from botsdk import fairness

from referee.records import MatchRecord
from referee.replay import ReplayMismatch, verify


class AuditFailed(Exception):
    """The record fails a check; the message says which and why."""


@dataclass(frozen=True)
class Audit:
    """What a passed audit established."""

    seed: int
    commitment: str
    decisions: int
    chance_events: int
    evaluation: bool = False
    """An evaluation match: the referee chose the deal (verified as committed, not as fair)."""


def audit(record: MatchRecord) -> Audit:
    """Check the record's commitment, deals and decisions. Raises AuditFailed."""
    header, footer = record.header, record.footer
    if footer is None:
        raise AuditFailed("the record has no footer: the match did not finish, so its seed was never revealed")
    committed, salt = header.get("seed_commitment"), footer.get("seed_salt")
    if not committed or not salt:
        raise AuditFailed("the record holds no seed commitment (written by a referee before fair deals)")
    evaluation = header.get("evaluation") is not None
    try:
        fair = fairness.verify(bytes.fromhex(committed), int(header["seed"]), bytes.fromhex(salt),
                               evaluation=evaluation)
    except (ValueError, TypeError):
        raise AuditFailed("the record's seed, commitment or salt is malformed") from None
    if not fair:
        raise AuditFailed(f"the seed {header['seed']} and the revealed salt do not hash to the commitment "
                          f"{committed} the bots were given: the deal was not the one committed to")
    try:
        verify(record)
    except ReplayMismatch as exc:
        raise AuditFailed(f"the match does not follow from the committed seed: {exc}") from None
    chance = len(record.setup.get("events", [])) + sum(len(d.get("events", [])) for d in record.decisions)
    return Audit(int(header["seed"]), committed, len(record.decisions), chance, evaluation)
