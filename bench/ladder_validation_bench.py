"""The ladder's statistics validated by simulation: `python -m bench ladder_validation`.

Runs ladder/scheduling/validation.py (synthetic bots of known skill, matches drawn
in-process, the ladder's own ratings, matchmaking, stopping rule and SPRT)
many times and writes the tables of docs/ladder.md's "Validation" section
and its plot, docs/ladder_validation.png:

- the --until-stable rule: how often it stops within the budget, the matches
  it needs, and how often a verdict on an adjacent pair is wrong (ordered
  the wrong way or with equal skills, or indistinguishable though the true
  score is outside the margin), at 3-, 4- and 7-player tables with ties, on
  rosters with equal bots and with gaps; beside it the rule before (TrueSkill
  with tau = sigma/100 and P(upper stronger) >= 95%);
- the matches a fixed duplicate round-robin needs to order the same bots as
  often right, knowing the gaps in advance;
- the SPRT of --versus: how often it accepts H1 and how many sets it needs,
  at H0, H1 and beyond, against alpha, beta and Wald's approximation;
- the TrueSkill parameters: tau 0 against sigma/100 and three draw
  probabilities, by how often adjacent bots end in the wrong order.

`--runs` scales every count of runs (the published tables used 0.15, about
15 minutes on two busy cores); `--no-record` prints without writing the page.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bench.recording import machine_summary, write_section
from ladder.rating.sprt import H0, H1, Sprt, expected_sets
from ladder.rating.stopping import DEFAULT_CONFIDENCE, DEFAULT_MARGIN
from ladder.scheduling.validation import (
    LadderRun,
    Model,
    Rule,
    SprtRun,
    round_robin,
    run_ladder,
    run_versus,
    skills_for_scores,
    tie_width_for,
    wrongly_indistinguishable,
    wrongly_ordered,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"
SECTION = "Validation by simulation"
PLOT = DOCS / "ladder_validation.png"
NEW = Rule("new: pairwise evidence, tau 0", 0.0, 0.02, True)
OLD = Rule("before: TrueSkill P >= 95%, tau sigma/100", 25 / 300, 0.02, False)
BUDGET = 3000
OLD_BUDGET = 1500
"""The rule before rarely stops; its runs are cut here to keep the bench short."""
UNIT = Model((0.0,)).spread
T = TypeVar("T")


@dataclass(frozen=True)
class Roster:
    name: str
    scores: tuple[float, ...]
    """True scores of the adjacent pairs, best first (0.5: equal bots)."""
    sizes: tuple[int, ...]
    tie_rate: float

    def model(self) -> Model:
        skills = skills_for_scores(self.scores, UNIT)
        base = Model(skills)
        return Model(skills, tie_width=tie_width_for(self.tie_rate, base, random.Random(0)) if self.tie_rate else 0.0)


ROSTERS = (
    Roster("4 bots, gaps 0.6, 3-4 players, 2% ties", (0.6, 0.6, 0.6), (3, 4), 0.02),
    Roster("6 bots like the issue's (3 equal), 3-4 players, 2% ties", (0.55, 0.6, 0.75, 0.5, 0.5), (3, 4), 0.02),
    Roster("4 bots, 2 equal pairs, 3 players, 30% ties", (0.5, 0.7, 0.5), (3,), 0.30),
    Roster("8 bots, gaps 0.6, 7 players, 30% ties", (0.6,) * 7, (7,), 0.30),
)
PARAMETER_ROSTERS = (
    Roster("6 bots, gaps 0.55, 3-4 players, 2% ties", (0.55,) * 5, (3, 4), 0.02),
    Roster("6 bots, gaps 0.55, 3 players, 30% ties", (0.55,) * 5, (3,), 0.30),
)
"""Close bots, where the rating model's parameters matter most."""
SWEEP = (0.55, 0.6, 0.7, 0.8)
"""Adjacent gaps of the plot (4 bots, 3-4 players)."""


def parallel(job: Callable[[random.Random], T], runs: int, seed: int, processes: int) -> list[T]:
    """`job` on `runs` independent generators, spread over processes."""
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return pool.map(functools.partial(_seeded, job), [seed * 1_000_003 + i for i in range(runs)])


def _seeded(job: Callable[[random.Random], T], seed: int) -> T:
    return job(random.Random(seed))


def _ladder(roster: Roster, rule: Rule, budget: int, rng: random.Random) -> LadderRun:
    return run_ladder(roster.model(), rule, roster.sizes, confidence=DEFAULT_CONFIDENCE, margin=DEFAULT_MARGIN,
                      budget=budget, rng=rng)


def _rr(roster: Roster, rounds: int, rng: random.Random) -> list[tuple[int, int, int]]:
    return round_robin(roster.model(), max(roster.sizes), rounds, rng)


def _versus(model: Model, sprt: Sprt, rng: random.Random) -> SprtRun:
    return run_versus(model, 0, 1, (3, 4), sprt, budget=20_000, rng=rng)


def _params(roster: Roster, tau: float, draw: float, matches: int, rng: random.Random) -> tuple[int, int]:
    """Truly different neighbours that TrueSkill with (tau, draw) ranks the
    wrong way round after `matches` matches of the ladder's matchmaking."""
    model = roster.model()
    run = run_ladder(model, Rule("", tau, draw, False), roster.sizes, confidence=1.0, margin=0.0,
                     budget=matches, rng=rng)
    return run.misordered(model)


def total(counts: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(wrong, pairs) summed."""
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


def percent(k: int, n: int) -> str:
    return f"{k / n:.1%} ({k}/{n})" if n else "-"


def spread(counts: Sequence[int]) -> str:
    """mean / median / 90th percentile."""
    if not counts:
        return "-"
    ordered = sorted(counts)
    ninety = ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
    return f"{statistics.mean(ordered):.0f} / {statistics.median(ordered):.0f} / {ninety}"


def stopping_rows(roster: Roster, rule: Rule, runs: list[LadderRun]) -> str:
    """One row of the stopping table."""
    model = roster.model()
    stopped = [r for r in runs if r.settled]
    verdicts = [p for r in stopped for p in r.pairs]
    ordered = [p for p in verdicts if p.kind == "ordered"]
    indist = [p for p in verdicts if p.kind == "indistinguishable"]
    equal = [p for p in verdicts if abs(p.true_score - 0.5) < 1e-9]
    wrong, pairs = total([r.misordered(model) for r in stopped])
    return (f"| {roster.name} | {rule.name} | {len(runs)} | {percent(len(stopped), len(runs))} | "
            f"{spread([r.matches for r in stopped])} | "
            f"{percent(sum(wrongly_ordered(p) for p in ordered), len(ordered))} | "
            f"{percent(sum(wrongly_indistinguishable(p, DEFAULT_MARGIN) for p in indist), len(indist))} | "
            f"{percent(sum(p.kind == 'ordered' for p in equal), len(equal))} | {percent(wrong, pairs)} |")


def rr_matches(curves: list[list[tuple[int, int, int]]], target: float) -> int | None:
    """The fewest round-robin matches at which the share of truly different
    neighbours in the wrong order (over all runs) is at most `target`."""
    for i in range(len(curves[0])):
        wrong = sum(c[i][1] for c in curves)
        pairs = sum(c[i][2] for c in curves)
        if wrong <= target * pairs:
            return curves[0][i][0]
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench ladder_validation", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=float, default=1.0, help="scale of every count of runs (default 1)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--no-record", action="store_true", help="print only; leave docs/ladder.md and the plot")
    args = parser.parse_args(argv)

    def n(runs: int) -> int:
        return max(2, round(runs * args.runs))

    out = [f"Measured {machine_summary()} with `python -m bench ladder_validation`; confidence "
           f"{DEFAULT_CONFIDENCE:.0%}, margin {DEFAULT_MARGIN:g}, budget {BUDGET} matches.", ""]

    # 1. the stopping rule, new and before
    out += ["### The stopping rule", "",
            "| roster | rule | runs | stopped within budget (before: 1500) | matches to stop (mean / median / 90%) | "
            "ordered, but wrongly | indistinguishable, but wrongly | equal pairs called ordered | "
            "ranking: neighbours the wrong way |",
            "|---|---|---|---|---|---|---|---|---|"]
    for k, roster in enumerate(ROSTERS):
        for rule, count, budget in ((NEW, n(200), BUDGET), (OLD, n(20), OLD_BUDGET)):
            results = parallel(functools.partial(_ladder, roster, rule, budget), count, 100 + k, args.processes)
            out.append(stopping_rows(roster, rule, results))
            print(out[-1], flush=True)

    # 2. matches to settle 4 bots by gap: new rule, before, round-robin
    out += ["", "### Matches to settle 4 bots (3-4 players, 2% ties)", "",
            "| adjacent gap (true score) | new rule: matches (mean / median / 90%) | its ranking wrong | "
            "round-robin as often right | round-robin wrong at most 5% | before: stopped within budget |",
            "|---|---|---|---|---|---|"]
    plot: dict[str, list[float]] = {"new": [], "rr_same": [], "rr_5": [], "old": []}
    for k, gap in enumerate(SWEEP):
        roster = Roster(f"gap {gap}", (gap,) * 3, (3, 4), 0.02)
        model = roster.model()
        new = parallel(functools.partial(_ladder, roster, NEW, BUDGET), n(100), 200 + k, args.processes)
        old = parallel(functools.partial(_ladder, roster, OLD, OLD_BUDGET), n(20), 300 + k, args.processes)
        wrong, pairs = total([r.misordered(model) for r in new])
        curves = parallel(functools.partial(_rr, roster, 1500), n(200), 400 + k, args.processes)
        same = rr_matches(curves, max(wrong / pairs, 0.005))
        five = rr_matches(curves, 0.05)
        old_stopped = [r for r in old if r.settled]
        plot["new"].append(statistics.mean(r.matches for r in new if r.settled))
        plot["rr_same"].append(float("nan") if same is None else same)
        plot["rr_5"].append(float("nan") if five is None else five)
        plot["old"].append(statistics.median(r.matches if r.settled else OLD_BUDGET for r in old))
        out.append(f"| {gap} | {spread([r.matches for r in new if r.settled])} | {percent(wrong, pairs)} | "
                   f"{same if same is not None else '> 6000'} | {five if five is not None else '> 6000'} | "
                   f"{percent(len(old_stopped), len(old))}, median {plot['old'][-1]:.0f} matches |")
        print(out[-1], flush=True)

    # 3. the SPRT of --versus
    sprt = Sprt()
    out += ["", f"### The SPRT of --versus (H0: score 0.5, H1: score {sprt.mu1:g}, alpha {sprt.alpha:g}, "
            f"beta {sprt.beta:g}; 5 bots, 3-4 players, 2% ties)", "",
            "| true score of NEW against OLD | runs | accepted H1 | nominal | sets (mean / median / 90%) | "
            "matches (mean) | Wald's approximate sets |",
            "|---|---|---|---|---|---|---|"]
    for k, score in enumerate((0.45, 0.5, 0.525, 0.55, 0.6)):
        skills = (UNIT * statistics.NormalDist().inv_cdf(score), 0.0, 0.4, -0.3, -0.9)
        base = Model(skills)
        model = Model(skills, tie_width=tie_width_for(0.02, base, random.Random(0)))
        runs = parallel(functools.partial(_versus, model, sprt), n(2000 if score in (0.5, 0.55) else 700),
                        500 + k, args.processes)
        scores = [x for r in runs for x in r.scores]
        sd = statistics.pstdev(scores)
        nominal = {0.5: f"≤ {sprt.alpha:g}", 0.55: f"≥ {1 - sprt.beta:g}"}.get(score, "")
        wald = f"{expected_sets(sprt, sd, score):.0f}" if score in (0.5, 0.55) else ""
        out.append(f"| {score} | {len(runs)} | {percent(sum(r.verdict == H1 for r in runs), len(runs))} | {nominal} | "
                   f"{spread([r.sets for r in runs])} | {statistics.mean(r.matches for r in runs):.0f} | {wald} |")
        print(out[-1], flush=True)
        undecided = sum(r.verdict not in (H0, H1) for r in runs)
        assert undecided == 0, f"{undecided} SPRT runs reached the cap"

    # 4. TrueSkill's parameters
    out += ["", "### TrueSkill's tau and draw probability (ladder without stopping rule, 400 matches)", "",
            "| roster | tau | draw probability | neighbours the wrong way |", "|---|---|---|---|"]
    for k, roster in enumerate(PARAMETER_ROSTERS):
        for tau in (0.0, 25 / 300):
            for draw in (0.02, 0.1, 0.3):
                found = parallel(functools.partial(_params, roster, tau, draw, 400), n(200), 600 + k, args.processes)
                wrong, pairs = total(found)
                out.append(f"| {roster.name} | {tau:.3g} | {draw:g} | {percent(wrong, pairs)} |")
                print(out[-1], flush=True)

    body = "\n".join(out)
    if args.no_record:
        print(body)
        return
    write_plot(plot)
    write_section(SECTION, body, DOCS / "ladder.md")


def write_plot(plot: dict[str, list[float]]) -> None:
    """docs/ladder_validation.png: matches to settle 4 bots by gap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.plot(SWEEP, plot["new"], "o-", label="--until-stable (pairwise evidence, anytime 95%)")
    ax.plot(SWEEP, plot["rr_same"], "s--",
            label="fixed round-robin, as often right (gaps known)")
    ax.plot(SWEEP, plot["rr_5"], "^:",
            label="fixed round-robin, wrong at most 5%")
    ax.plot(SWEEP, plot["old"], "x-.", label=f"before: TrueSkill P >= 95% (median; {OLD_BUDGET} = did not stop)")
    ax.set_yscale("log")
    ax.set_xlabel("true score of each adjacent pair (how often the better one finishes ahead)")
    ax.set_ylabel("matches")
    ax.set_title("Matches to settle 4 bots (3-4 players, 2% ties)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(PLOT, metadata={"Software": None})
    plt.close(fig)


if __name__ == "__main__":
    main()
