"""A game ranked by a score (Leduc's chips) has its pairs judged by the score:
the stopping rule, --versus and the table's pair column (ladder.rating.score_evidence)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.rating.evidence import INDISTINGUISHABLE, ORDERED, REVERSED, pair_key
from ladder.rating.score_evidence import (SCORE_MARGIN, ScoredMatch, ScoreOutOfBounds, basis_of, set_score,
                                          score_pair_evidence)
from ladder.rating.standings import pair_statuses, standings, to_json
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from ladder.reporting.render import pairs_report, versus_report
from ladder.running.dispatch import InlinePool
from ladder.scheduling.scheduler import Ladder, LadderConfig
from ladder.store.database import Store
from ladder_support import ChipRunner, add_bots, open_store
from referee.games import load_game
from referee.games.leduc.hands import hand_swing

EDGE = 0.5
"""a's edge over b in chips a hand: a wins 2 x EDGE a hand from b, 100 chips per 100 hands."""


def run(store: Store, runner: ChipRunner, **config: object) -> Ladder:
    ladder = Ladder(store, InlinePool(runner), LadderConfig(game="leduc", sizes=(2,), **config))  # type: ignore[arg-type]
    ladder.run()
    return ladder


def test_the_bound_is_the_rules_largest_heads_up_swing_reached_by_the_engine() -> None:
    """L-3.5: two raises a round, of 2 then 4, all called, and a showdown:
    each seat has put in 13 chips (L-2.1's ante and the raises), so one
    wins 13 and the other loses 13: a difference of 26 = hand_swing(2)."""
    game = load_game("leduc")
    for seed in range(40):  # a deal without a tie at the showdown (L-5.3 would split the pot)
        state = game.new_state(2, seed)
        while state.to_act():
            (seat,) = state.to_act()
            legal = {str(a): a for a in state.legal_actions(seat)}
            state.apply({seat: legal["raise"] if "raise" in legal else legal["call"]})
        returns = state.returns  # type: ignore[attr-defined]
        if returns[0] != returns[1]:
            assert sorted(returns) == [-13, 13]
            assert abs(returns[0] - returns[1]) == hand_swing(2) == 26
            assert hand_swing(3) == 39
            return
    pytest.fail("no deal of 40 ended without a tie")


def test_a_chip_difference_beyond_the_bound_is_refused_not_clipped() -> None:
    bound = basis_of("leduc", DEFAULT_MARGIN).bound
    assert bound is not None
    inside = [ScoredMatch((1, 2), (1555.5, -1555.5), 100)]  # the bound itself: 31.11 chips every hand
    assert set_score(1, 2, inside, bound) == 1.0
    assert set_score(2, 1, inside, bound) == 0.0
    beyond = [ScoredMatch((1, 2), (1556.0, -1556.0), 100)]
    with pytest.raises(ScoreOutOfBounds, match="beyond the bound of 3111"):
        set_score(1, 2, beyond, bound)


def test_a_ladder_whose_records_exceed_the_bound_stops_loudly(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        ids = add_bots(store, ["a", "b"], game="leduc")
        runner = ChipRunner(overstate=3.0)  # 3 x (4 to 6 chips a hand of luck): beyond 13 a seat
        with pytest.raises(ScoreOutOfBounds):
            run(store, runner, matches=20, until_stable=True, seed=3)
        assert len(runner.played) >= 2 and {t.bot_ids for t in runner.played} <= {tuple(ids), tuple(ids[::-1])}


def test_a_pair_that_splits_its_places_is_told_apart_by_its_chips(tmp_path: Path) -> None:
    """Seat 0's luck decides every match's places, so each bot wins one
    rotation of every set: by places the pair is indistinguishable; its
    chips put a ahead by 100 per 100 hands, and settle it."""
    with open_store(tmp_path / "places") as store:
        a, b = add_bots(store, ["a", "b"], game="leduc")
        ladder = run(store, ChipRunner(edge={a: EDGE}), matches=2000, until_stable=True, seed=4, by_score=False)
        assert ladder.status.stable
        (pair,) = ladder.status.pairs
        assert (pair.basis, pair.verdict.kind, pair.verdict.mean) == ("places", INDISTINGUISHABLE, 0.5)
    with open_store(tmp_path / "chips") as store:
        a, b = add_bots(store, ["a", "b"], game="leduc")
        ladder = run(store, ChipRunner(edge={a: EDGE}), matches=2000, until_stable=True, seed=4)
        assert ladder.status.stable and ladder.status.played < 2000
        (pair,) = ladder.status.pairs
        # the ratings rate the places, split evenly: either may be the upper row; the chips say a
        assert pair.basis == "chips" and pair.verdict.kind == (ORDERED if pair.upper == a else REVERSED)
        assert pair.settled
        evidence = score_pair_evidence(store, "leduc", basis_of("leduc", DEFAULT_MARGIN), DEFAULT_CONFIDENCE)
        found = evidence[pair_key(a, b)]
        seen = found if a < b else found.flipped()
        assert basis_of("leduc", DEFAULT_MARGIN).rate(seen.mean) == pytest.approx(200 * EDGE, abs=15)
        assert seen.low >= 0.5  # every candidate up to even ruled out: a wins chips from b
        rows = standings(store, "leduc")
        (shown,) = pair_statuses(store, "leduc", rows)
        assert (shown.basis, shown.verdict) == ("chips", pair.verdict)
        assert to_json(store, "leduc")["pairs"]["adjacent"][0]["basis"] == "chips"
        stable = pairs_report(ladder.status, {a: "a", b: "b"}, 2).plain
        assert stable.startswith("stable") and ("1 by chips put the lower row ahead" in stable) == (pair.upper == b)


def test_versus_judges_the_chips_where_places_cannot(tmp_path: Path) -> None:
    with open_store(tmp_path / "places") as store:
        new, old = add_bots(store, ["new", "old"], game="leduc")
        ladder = run(store, ChipRunner(edge={new: EDGE}), matches=400, versus=(new, old), seed=5, by_score=False)
        versus = ladder.status.versus
        assert versus is not None and versus.basis == "places" and versus.verdict == "H0" and versus.mean == 0.5
    with open_store(tmp_path / "chips") as store:
        new, old = add_bots(store, ["new", "old"], game="leduc")
        # H1: +50 chips per 100 hands (the default, 10, needs about 770 sets: docs/ladder.md, "Leduc poker")
        ladder = run(store, ChipRunner(edge={new: EDGE}), matches=400, versus=(new, old), seed=5, score_margin=50)
        versus = ladder.status.versus
        assert versus is not None and versus.basis == "chips" and versus.verdict == "H1"
        assert versus.rate == pytest.approx(200 * EDGE, abs=25)
        assert versus.sprt.margin == pytest.approx(50 / 100 / 62.22)
        text = versus_report(versus, {new: "new", old: "old"}, 2).plain
        assert "new is better than old" in text and "by chips" in text and "chips per 100 hands" in text


def test_an_even_pair_by_chips_is_indistinguishable_within_the_chip_margin(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["a", "b"], game="leduc")
        # 50 chips per 100 hands: the default 10 needs about 1,300 sets even for scores of exactly 1/2
        ladder = run(store, ChipRunner(noise=0.5), matches=600, until_stable=True, seed=6, score_margin=50)
        (pair,) = ladder.status.pairs
        assert ladder.status.stable and (pair.basis, pair.verdict.kind) == ("chips", INDISTINGUISHABLE)
        basis = basis_of("leduc", DEFAULT_MARGIN)
        assert -50 - 1e-9 <= basis.rate(pair.verdict.low) and basis.rate(pair.verdict.high) <= 50 + 1e-9
        assert basis_of("leduc", DEFAULT_MARGIN).margin == pytest.approx(SCORE_MARGIN / 100 / 62.22)


@pytest.mark.slow
@pytest.mark.parametrize(("judge", "basis"), [([], "chips"), (["--judge-by", "places"], "places")])
def test_the_command_judges_by_chips_unless_told_places(tmp_path: Path, judge: list[str], basis: str) -> None:
    """`referee ladder --until-stable` on Leduc's built-ins judges its pairs
    by chips, or by places when told: the unsettled pairs it names say which."""
    from click.testing import CliRunner

    from referee.cli.main import cli
    result = CliRunner().invoke(cli, ["ladder", "--game", "leduc", "--players", "2", "--hands", "3", "--until-stable",
                                      "--matches", "4", "--workers", "1", "--seed", "1", "--db",
                                      str(tmp_path / "ladder.sqlite"), *judge], catch_exceptions=False)
    assert result.exit_code in (0, 3), result.output
    verdicts = [line for line in result.output.splitlines() if "open" in line or "ordered" in line]
    assert verdicts, result.output
    assert any("(chips)" in line for line in verdicts) == (basis == "chips"), result.output
    words = " ".join(result.output.split())
    assert "chips/100" in words, "the ladder ends with the chips table, as `referee table` does"
    legend = "≈ indisting. = their chips per 100 hands within ± 10" if basis == "chips" else "within 0.5 ± 0.1"
    assert legend in words, result.output
