"""Where a match stands, in the rules' words (G-4), and the engine's plan behind it.

A seat's view says which stage of the match a decision belongs to — the
advanced setup's opening auction, a turn's event, buy, auction or paydays,
or the end — never the engine's stack of automatic steps (`state.todo`).
The two determine each other at every decision: `stage_of` reads the stage
from a state for the observation, and `steps_after` gives back the steps
that follow a decision of that stage, for a state rebuilt from an
observation (determinize). A new step plan (a variant's flow) is one more
entry in `PLANS`; the round-trip test along random matches
(tests/test_gnadenlos_view.py) fails until it is there.
"""

from __future__ import annotations

from collections.abc import Sequence

SETUP = "setup"
"""G-2.6: the advanced setup's opening auction, before the first turn."""
EVENT = "event"
"""G-4 phase 1, the event (G-5): commitments, High Noon takes and refills."""
BUY = "buy"
"""G-4 phase 2, buying prestige (G-7)."""
AUCTION = "auction"
"""G-4 phase 3, the auction (G-6)."""
PAYDAY = "payday"
"""G-4 phase 3, the paydays (G-8): the refills between them."""
END = "end"
"""G-9.2, G-9.3: the match has ended; the final buys, then nothing."""

PLANS: dict[tuple[str, str], tuple[str, ...]] = {
    (EVENT, "commit"): (),
    (EVENT, "take"): ("refill", "finish_event", "buy"),
    (EVENT, "refill"): ("finish_event", "buy"),
    (BUY, "buy"): (),
    (AUCTION, "bid"): ("picks", "payday_check"),
    (AUCTION, "pick"): ("payday_check",),
    (AUCTION, "order"): ("lot", "payday_check"),  # G-6.7.1 (auction=single)
    (AUCTION, "bid_position"): ("payday_check",),  # G-6.7.2 (auction=single)
    (PAYDAY, "refill"): ("payday_check",),
    (SETUP, "bid"): ("picks", "turn"),
    (SETUP, "pick"): ("turn",),
    (END, "final_buy"): (),
    (END, "over"): (),
}
"""(stage, decision phase) -> the automatic steps that run after the
decision, in the order they run (the engine's `todo` holds them reversed)."""

_USUAL: dict[str, str] = {
    "commit": EVENT, "take": EVENT, "refill": PAYDAY, "buy": BUY,
    "bid": AUCTION, "pick": AUCTION, "final_buy": END, "over": END,
    "order": AUCTION, "bid_position": AUCTION,
}
"""The stage of a phase when a hand-written scenario's steps match no plan."""


def stage_of(phase: str, todo: Sequence[str], ended: bool) -> str:
    """The stage of a decision `phase` with the engine's step stack `todo`;
    `ended` once the match has an end reason (G-9.1). Raises ValueError for
    a phase no stage knows (a new decision needs its entry in PLANS)."""
    if ended:
        return END
    plan = tuple(reversed(todo))
    for (stage, planned_phase), steps in PLANS.items():
        if planned_phase == phase and steps == plan:
            return stage
    if phase not in _USUAL:
        raise ValueError(f"no stage of the match has the decision {phase!r}: add it to stages.PLANS")
    return _USUAL[phase]


def steps_after(stage: str, phase: str) -> list[str]:
    """The engine's step stack (`todo`, next step last) after a decision
    `phase` of `stage`. Raises ValueError for a pair that never occurs."""
    try:
        return list(reversed(PLANS[stage, phase]))
    except KeyError:
        raise ValueError(f"inconsistent observation: no {phase!r} decision in stage {stage!r}") from None
