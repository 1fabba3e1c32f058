"""The conformance suite every registered game must pass (DESIGN.md, "One conformance suite").

Like OpenSpiel's `random_sim_test` and PettingZoo's `api_test`, it lives in the
package so that each new game is checked by the same code: `check_game` plays
seeded random matches through the public interface only and checks, at every
decision, the contract of `referee.games.base`:

- `to_act()` is empty exactly when the match is over, and only the seats in it
  have legal actions, at least two each (a forced move is the engine's to
  play: no seat is asked when it has no choice). This holds in every state
  the match passes through and in every state one listed action away from
  them, so a rare forced decision is caught without playing into it;
- every listed action applies; an unlisted one, or decisions from the wrong
  seats, raise `IllegalActionError` and leave the state unchanged;
- actions round-trip through `str()`/`parse_action` and JSON;
- a state round-trips through JSON and the restored state plays on
  identically; `clone()` is independent of its original;
- the same seed and the same decisions give the same trajectory;
- recording events changes nothing: `new_state_with_events` deals what
  `new_state` deals, and `apply_unchecked` leaves the state `apply` leaves
  (the engines build event data only when asked, base.EventLog);
- a seat's observation is identical for every determinization of it
  (OpenSpiel's ISMCTS asserts the same of its information-state keys), and it
  round-trips through JSON; a determinization is a function of the
  generator's state (the same draws give the same state, so a seeded search
  is reproducible);
- events are tagged only to real seats, and nothing sent to a seat carries
  the match seed (when the seed is large enough to be recognisable);
- `outcome()` raises before the end and is a valid ranking with ties at the end.

A failure raises `ConformanceError` naming the game, seats, seed, rule set and
decision number, so the match can be replayed.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from referee.games.base import (
    JSON,
    Action,
    Event,
    Game,
    IllegalActionError,
    Seat,
    State,
)
from referee.games.plugin import load_game
from referee.games.rule_sets import RuleSet

Decision = dict[Seat, Action]

RECOGNISABLE_SEED = 10**9
"""Seeds at least this large are searched for in what a seat is sent; smaller
ones could appear in an observation by coincidence (a field, a count)."""


class ConformanceError(AssertionError):
    """A game broke the engine contract; the message says where."""


@dataclass
class ConformanceReport:
    """What `check_game` played: for the caller's own sanity checks."""

    matches: int = 0
    decisions: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class _Where:
    rule_set: RuleSet
    seats: int
    seed: int

    def fail(self, step: int, message: str) -> ConformanceError:
        """An error naming the match; `step` < 0 when the decision is unknown."""
        at = f" decision {step}" if step >= 0 else ""
        return ConformanceError(
            f"{self.rule_set.game} seats={self.seats} seed={self.seed} rule set {self.rule_set.describe()}{at}: "
            f"{message}"
        )


def check_game(
    game: Game | str,
    seats: int,
    seeds: Iterable[int],
    *,
    determinizations: int = 2,
    actions_checked: int = 24,
    max_decisions: int = 100_000,
) -> ConformanceReport:
    """Play one seeded random match per seed and check the engine contract
    (under the rule set `game` is configured with; a name: the base rules).

    `determinizations` is how many determinizations of the observation of each
    deciding seat (and of one random seat) are compared with it at each
    decision; `actions_checked` how
    many listed actions of each deciding seat are applied (to a clone) at each
    decision. Raises ConformanceError at the first violation.
    """
    if isinstance(game, str):
        game = load_game(game)
    report = ConformanceReport()
    for seed in seeds:
        where = _Where(game.rule_set, seats, seed)
        try:
            reason, decisions = _check_match(game, where, determinizations, actions_checked, max_decisions)
        except ConformanceError:
            raise
        except Exception as exc:  # any crash of the engine is a failure of the suite
            raise where.fail(-1, f"the engine raised {type(exc).__name__}: {exc}") from exc
        report.matches += 1
        report.decisions += decisions
        report.end_reasons[reason] += 1
    return report


def check_choices(
    game: Game | str, seats: int, seeds: Iterable[int], *, max_decisions: int = 100_000,
) -> ConformanceReport:
    """Play one seeded random match per seed and check only that no seat is
    ever asked with fewer than two choices: in every state of the match, and
    after every listed action of every state (applied to a clone).

    Lighter than `check_game`, so it can afford many more matches: a forced
    decision can be rare (a bidder left with one legal bid came up about once
    in fifty four-seat Gnadenlos! matches). Raises ConformanceError."""
    if isinstance(game, str):
        game = load_game(game)
    report = ConformanceReport()
    for seed in seeds:
        where = _Where(game.rule_set, seats, seed)
        rng = random.Random(seed)
        state = game.new_state(seats, seed)
        step = 0
        while state.to_act():
            if step >= max_decisions:
                raise where.fail(step, f"no end after {max_decisions} decisions")
            _check_choices(state, where, step)
            decision = {seat: rng.choice(state.legal_actions(seat)) for seat in sorted(state.to_act())}
            for seat in decision:
                for action in state.legal_actions(seat):
                    trial = state.clone()
                    trial.apply({**decision, seat: action})
                    _check_choices(trial, where, step, f"after {action} of seat {seat}")
            state.apply(decision)
            step += 1
        report.matches += 1
        report.decisions += step
        report.end_reasons[state.outcome().reason] += 1
    return report


def _check_match(
    game: Game, where: _Where, determinizations: int, actions_checked: int, max_decisions: int
) -> tuple[str, int]:
    """One random match with every check; returns its end reason and length."""
    rng = random.Random(where.seed)
    state = game.new_state(where.seats, where.seed)
    _check_not_over(state, where)
    _check_setup_events(game, state, where)
    trajectory: list[Decision] = []
    all_events: list[Event] = []
    checkpoints: list[tuple[int, JSON]] = []
    seen_actions: list[Action] = []
    seen_set: set[Action] = set()
    while state.to_act():
        step = len(trajectory)
        if step >= max_decisions:
            raise where.fail(step, f"no end after {max_decisions} decisions")
        _check_turn(state, where, step)
        for seat in sorted(state.to_act()):
            for action in state.legal_actions(seat):
                if action not in seen_set:
                    seen_set.add(action)
                    seen_actions.append(action)
        watchers = state.to_act() | {rng.randrange(where.seats)}  # and one seat that may be waiting
        for seat in sorted(watchers):
            _check_observation(game, state, seat, rng, determinizations, where, step)
        decision = {seat: rng.choice(state.legal_actions(seat)) for seat in sorted(state.to_act())}
        _check_every_action_applies(state, decision, rng, actions_checked, where, step)
        _check_unlisted_actions_raise(state, decision, seen_actions, rng, where, step)
        if step & (step - 1) == 0:  # steps 0, 1, 2, 4, 8...: each replays the rest of the match
            checkpoints.append((step, _json_round_trip(game, state, where, step)))
        elif step % 5 == 0:
            _json_round_trip(game, state, where, step)
        _check_unchecked_apply(state, decision, where, step)
        events = _apply_checked_clone(state, decision, where, step)
        _check_events(events, where, step)
        all_events.extend(events)
        trajectory.append(decision)
    _check_outcome(state, where, len(trajectory))
    _check_observations_at_end(game, state, rng, where, len(trajectory))
    final = _json_text(state.to_json())
    _check_replay(game, where, trajectory, all_events, final)
    for step, saved in checkpoints:
        _check_plays_on(game, saved, trajectory[step:], final, where, step)
    return state.outcome().reason, len(trajectory)


def _json_text(obj: JSON) -> str:
    return json.dumps(obj, sort_keys=True)


def _check_not_over(state: State, where: _Where) -> None:
    if state.is_terminal() or not state.to_act():
        raise where.fail(0, "a new state is already over")
    try:
        state.outcome()
    except ValueError:
        return
    raise where.fail(0, "outcome() must raise ValueError before the end")


def _check_setup_events(game: Game, state: State, where: _Where) -> None:
    """Dealing with the setup's events recorded deals the same match, and
    tells them only to real seats."""
    recorded, events = game.new_state_with_events(where.seats, where.seed)
    if _json_text(recorded.to_json()) != _json_text(state.to_json()):
        raise where.fail(0, "new_state_with_events deals another match than new_state")
    _check_events(events, where, 0)


def _check_unchecked_apply(state: State, decision: Decision, where: _Where, step: int) -> None:
    """apply_unchecked (no events) leaves the state apply leaves."""
    checked, unchecked = state.clone(), state.clone()
    checked.apply(decision)
    unchecked.apply_unchecked(decision)
    if _json_text(unchecked.to_json()) != _json_text(checked.to_json()):
        raise where.fail(step, "apply_unchecked leaves another state than apply: recording events changed the rules")


def _check_choices(state: State, where: _Where, step: int, when: str = "") -> None:
    """Every seat asked has at least two legal actions: a single one is the
    engine's to apply (docs/engine.md), so no seat is asked without a choice."""
    for seat in state.to_act():
        count = len(state.legal_actions(seat))
        if count < 2:
            at = f" {when}" if when else ""
            raise where.fail(step, f"seat {seat} must decide{at} but has {count} legal action(s), not a choice")


def _check_turn(state: State, where: _Where, step: int) -> None:
    """to_act() is non-empty and only its seats have legal actions, at least two each."""
    if state.is_terminal():
        raise where.fail(step, "to_act() is not empty in a terminal state")
    deciding = state.to_act()
    _check_choices(state, where, step)
    for seat in range(state.num_seats):
        actions = state.legal_actions(seat)
        if seat not in deciding and actions:
            raise where.fail(step, f"seat {seat} is not to act but has legal actions")
        if len(set(actions)) != len(actions):
            raise where.fail(step, f"seat {seat} has duplicate legal actions")
    if not deciding <= frozenset(range(state.num_seats)):
        raise where.fail(step, f"to_act() names seats that do not exist: {sorted(deciding)}")


def _check_action_codecs(game: Game, action: Action, where: _Where, step: int) -> None:
    if game.parse_action(str(action)) != action:
        raise where.fail(step, f"parse_action(str({action!r})) does not give the action back")
    if game.action_from_json(json.loads(json.dumps(action.to_json()))) != action:
        raise where.fail(step, f"action_from_json(to_json()) does not give {action!r} back")


def _check_every_action_applies(
    state: State, decision: Decision, rng: random.Random, limit: int, where: _Where, step: int
) -> None:
    """Listed actions of each deciding seat, with the others' chosen ones, apply.

    All of them when there are at most `limit`, else a seeded sample of `limit`
    (games with hundreds of placements per turn would make the suite slow)."""
    game = state.game
    for seat in decision:
        listed = state.legal_actions(seat)
        sample = listed if len(listed) <= limit else rng.sample(listed, limit)
        for action in sample:
            _check_action_codecs(game, action, where, step)
            trial = state.clone()
            try:
                trial.apply({**decision, seat: action})
            except IllegalActionError as exc:
                raise where.fail(step, f"listed action {action} of seat {seat} was refused: {exc}") from None
            _check_choices(trial, where, step, f"after {action} of seat {seat}")


def _check_unlisted_actions_raise(
    state: State, decision: Decision, seen: list[Action], rng: random.Random, where: _Where, step: int
) -> None:
    """Actions seen earlier but not legal now, and the wrong seats, are refused cleanly."""
    before = _json_text(state.to_json())
    seat = min(decision)
    legal = set(state.legal_actions(seat))
    candidates = [rng.choice(seen) for _ in range(6)] if seen else []
    unlisted = [a for a in dict.fromkeys(candidates) if a not in legal][:3]
    attempts: list[Decision] = [{**decision, seat: a} for a in unlisted]
    outsiders = [s for s in range(state.num_seats) if s not in decision]
    if outsiders:
        attempts.append({**decision, outsiders[0]: decision[seat]})
    attempts.append({s: a for s, a in decision.items() if s != seat})
    for attempt in attempts:
        try:
            state.apply(attempt)
        except IllegalActionError:
            continue
        raise where.fail(step, f"apply({attempt}) was accepted; legal for seat {seat}: {len(legal)} actions")
    if _json_text(state.to_json()) != before:
        raise where.fail(step, "a refused apply changed the state")


def _json_round_trip(game: Game, state: State, where: _Where, step: int) -> JSON:
    """state -> JSON text -> state gives the same JSON; returns that JSON."""
    saved = json.loads(json.dumps(state.to_json()))
    restored = game.state_from_json(saved)
    if _json_text(restored.to_json()) != _json_text(saved):
        raise where.fail(step, "state_from_json(to_json()) does not give the same JSON back")
    if restored.to_act() != state.to_act():
        raise where.fail(step, "a state restored from JSON has other seats to act")
    return saved


def _apply_checked_clone(state: State, decision: Decision, where: _Where, step: int) -> list[Event]:
    """Apply the decision; a clone taken before must not change with it."""
    twin = state.clone()
    before = _json_text(twin.to_json())
    events = state.apply(decision)
    if _json_text(twin.to_json()) != before:
        raise where.fail(step, "applying to a state changed its clone")
    return events


def _check_events(events: Sequence[Event], where: _Where, step: int) -> None:
    seats = frozenset(range(where.seats))
    for event in events:
        if not event.visible_to <= seats:
            raise where.fail(step, f"event {event.kind} is tagged to seats {sorted(event.visible_to)}")
        text = json.dumps(event.to_json())
        if event.visible_to and _carries_seed(text, where.seed):
            raise where.fail(step, f"event {event.kind}, sent to seats, carries the match seed")


def _carries_seed(text: str, seed: int) -> bool:
    return abs(seed) >= RECOGNISABLE_SEED and str(seed) in text


def _check_observation(
    game: Game, state: State, seat: Seat, rng: random.Random, count: int, where: _Where, step: int
) -> None:
    """The seat's observation: JSON round trip, no seed, same for every determinization."""
    observation = state.observe(seat)
    text = json.dumps(observation.to_json())
    if _carries_seed(text, where.seed):
        raise where.fail(step, f"the observation of seat {seat} carries the match seed")
    if game.observation_from_json(json.loads(text)) != observation:
        raise where.fail(step, f"observation_from_json(to_json()) of seat {seat} differs")
    draws = rng.getrandbits(64)
    twins = [game.determinize(observation, random.Random(draws)) for _ in range(2)]
    if _json_text(twins[0].to_json()) != _json_text(twins[1].to_json()):
        raise where.fail(step, f"two determinizations of seat {seat}'s observation from the same draws differ")
    for _ in range(count):
        world = game.determinize(observation, random.Random(rng.getrandbits(64)))
        if world.observe(seat) != observation:
            raise where.fail(step, f"a determinization of seat {seat}'s observation looks different to it")
        if world.to_act() != state.to_act() or world.legal_actions(seat) != state.legal_actions(seat):
            raise where.fail(step, f"a determinization of seat {seat}'s observation offers other decisions")


def _check_observations_at_end(game: Game, state: State, rng: random.Random, where: _Where, step: int) -> None:
    for seat in range(state.num_seats):
        _check_observation(game, state, seat, rng, 1, where, step)


def _check_outcome(state: State, where: _Where, step: int) -> None:
    if not state.is_terminal():
        raise where.fail(step, "to_act() is empty but the state is not terminal")
    outcome = state.outcome()
    ranks = outcome.ranks
    if len(ranks) != where.seats:
        raise where.fail(step, f"outcome ranks {ranks} do not cover {where.seats} seats")
    # Standard competition ranking: a place is the number of seats strictly ahead.
    if any(rank != sum(1 for other in ranks if other < rank) for rank in ranks):
        raise where.fail(step, f"outcome ranks {ranks} are not a valid ranking with ties")
    if not outcome.reason:
        raise where.fail(step, "outcome has no reason")


def _check_replay(
    game: Game, where: _Where, trajectory: Sequence[Decision], events: Sequence[Event], final: str
) -> None:
    """The same seed and the same decisions give the same events and final state."""
    state = game.new_state(where.seats, where.seed)
    replayed: list[Event] = []
    for step, decision in enumerate(trajectory):
        if state.to_act() != frozenset(decision):
            raise where.fail(step, "a replay from the same seed asks other seats")
        replayed.extend(state.apply(decision))
    if replayed != list(events) or _json_text(state.to_json()) != final:
        raise where.fail(len(trajectory), "a replay from the same seed and decisions diverged")


def _check_plays_on(
    game: Game, saved: JSON, rest: Sequence[Decision], final: str, where: _Where, step: int
) -> None:
    """A state restored from JSON, given the same decisions, ends the same way."""
    state = game.state_from_json(saved)
    for offset, decision in enumerate(rest):
        if state.to_act() != frozenset(decision):
            raise where.fail(step + offset, f"a state restored from JSON at decision {step} diverged")
        state.apply(decision)
    if _json_text(state.to_json()) != final:
        raise where.fail(step, f"a state restored from JSON at decision {step} ended differently")
