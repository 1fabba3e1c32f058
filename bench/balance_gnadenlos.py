"""Issue 20's balance study, docs/balance-gnadenlos.md: do the reviewer's two
fixes for Gnadenlos! get a player out of a hole?

The English review among the rulebooks says the game "keeps you in a hole
once you are in one" and proposes two fixes: a gunfight opt-out (G-5.10,
`gunfight_opt_out=on`; its option G-5.11, `=soft`) and a single-card
auction (G-6.7, `auction=single` with `auction_order=first|best` and
`auction_buy_limit=one|many`). This plays `referee simulate --policy
heuristic` (the built-in heuristic at every seat) at 3 and 4 players under
the base rules, each fix in each of its options and both fixes together,
and measures, each with its 95 % interval:

- whether a player in a hole stays there: how often the player with the
  fewest adventurers after the first payday finishes last (chance: 1 in
  the number of players), and Kendall's tau-b between the standings after
  the first payday and the final ranking (referee/games/gnadenlos/summary.py);
- game length in turns, how games end, the win share by seat (in turn
  order from the start player, G-2.5).

Enough matches that every interval on a share is at most ±2 percentage
points (2,500 per table: ±1.96 pp at a share of one half). The same seeds
deal every rule set's matches. Each rule set's figures are kept in
docs/balance-gnadenlos.json as they are measured, so `--only` can add a
rule set without playing the others again; the page and its plot are
written from all of them.

    make balance-gnadenlos        # or: python -m bench.balance_gnadenlos [--games N] [--jobs N] [--only NAME ...] [--no-play]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.files import write_atomically
from referee.games import load_game
from referee.simulation import MatchSummary, simulate

DOCS = Path(__file__).resolve().parents[1] / "docs"
DOC = DOCS / "balance-gnadenlos.md"
DATA = DOCS / "balance-gnadenlos.json"
PLOT = DOCS / "balance-gnadenlos.png"
SEED = 20261125
GAMES = 2500
PLAYERS = (3, 4)
Z = 1.96
ENDS = ("vultures", "undertaker", "goal", "safety_valve")

RULE_SETS: dict[str, dict[str, str]] = {
    "base": {},
    "opt-out": {"gunfight_opt_out": "on"},
    "opt-out soft": {"gunfight_opt_out": "soft"},
    "single first/one": {"auction": "single", "auction_order": "first", "auction_buy_limit": "one"},
    "single first/many": {"auction": "single", "auction_order": "first", "auction_buy_limit": "many"},
    "single best/one": {"auction": "single", "auction_order": "best", "auction_buy_limit": "one"},
    "single best/many": {"auction": "single", "auction_order": "best", "auction_buy_limit": "many"},
    "both": {"gunfight_opt_out": "on", "auction": "single"},
}
"""The rule sets compared, by the name the page uses. "both" is each fix in
the reviewer's own first form: the opt-out of G-5.10 and the single-card
auction with its defaults (first card first, one card a round)."""

FIXES: dict[str, tuple[str, ...]] = {
    "the gunfight opt-out (G-5.10, G-5.11)": ("opt-out", "opt-out soft"),
    "the single-card auction (G-6.7)": ("single first/one", "single first/many", "single best/one",
                                         "single best/many"),
    "both together": ("both",),
}


@dataclass(frozen=True)
class Figure:
    """A mean over matches and the half-width of its 95 % interval."""

    mean: float
    half: float

    @classmethod
    def of(cls, values: Sequence[float]) -> "Figure":
        measured = [v for v in values if not math.isnan(v)]
        return cls(statistics.fmean(measured), Z * statistics.pstdev(measured) / math.sqrt(len(measured)))

    def pct(self) -> str:
        return f"{100 * self.mean:.1f} ±{100 * self.half:.1f}"

    def num(self, digits: int = 2) -> str:
        return f"{self.mean:.{digits}f} ±{self.half:.{digits}f}"


def measure(name: str, players: int, games: int) -> dict[str, Any]:
    """Play one table of one rule set; its figures (JSON-ready)."""
    matches: list[MatchSummary] = []
    started = time.monotonic()
    simulate(load_game("gnadenlos", RULE_SETS[name]), players, games, SEED, on_match=matches.append,
             seating=("heuristic",) * players)
    return figures(name, players, matches, time.monotonic() - started)


def figures(name: str, players: int, matches: Sequence[MatchSummary], seconds: float) -> dict[str, Any]:
    """The study's figures of one table from its matches."""
    paid = [m for m in matches if m.facts["first_payday"] == 1.0]
    ends = Counter(m.end_reason for m in matches)
    by_turn = list(zip(*(m.facts["turn_order_win_share"] for m in matches)))
    out: dict[str, Any] = {
        "rule_set": name, "variant": RULE_SETS[name], "players": players, "games": len(matches),
        "seconds": seconds, "with_payday": len(paid),
        "hole_last": Figure.of([float(m.facts["hole_finishes_last"]) for m in paid]).__dict__,  # type: ignore[arg-type]
        "tau": Figure.of([float(m.facts["payday_tau"]) for m in paid]).__dict__,  # type: ignore[arg-type]
        "turns": Figure.of([float(m.turns) for m in matches]).__dict__,
        "decisions": statistics.fmean(m.decisions for m in matches),
        "ends": {r: Figure.of([float(m.end_reason == r) for m in matches]).__dict__ for r in [*ENDS, *sorted(set(ends) - set(ENDS))]},
        "turn_order_win": [Figure.of(list(column)).__dict__ for column in by_turn],
    }
    return out


def fig(data: Mapping[str, float]) -> Figure:
    return Figure(data["mean"], data["half"])


def widest_share(results: Sequence[Mapping[str, Any]]) -> float:
    """The widest half-width of any share on the page."""
    halves = []
    for r in results:
        halves.append(r["hole_last"]["half"])
        halves += [e["half"] for e in r["ends"].values()]
        halves += [w["half"] for w in r["turn_order_win"]]
    return max(halves)


def table(results: Sequence[Mapping[str, Any]], players: int) -> list[str]:
    lines = [
        "| rule set | variant | fewest adventurers after payday 1 finishes last, % | Kendall's tau "
        "| turns | vultures, % | undertaker, % | goal, % | safety valve, % | win share by turn order, % |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        if r["players"] != players:
            continue
        variant = ", ".join(f"{k}={v}" for k, v in r["variant"].items()) or "(base rules)"
        ends = " | ".join(fig(r["ends"][e]).pct() if e in r["ends"] else "0.0" for e in ENDS)
        order = " / ".join(f"{100 * w['mean']:.1f}" for w in r["turn_order_win"])
        order_half = max(w["half"] for w in r["turn_order_win"])
        lines.append(f"| {r['rule_set']} | `{variant}` | {fig(r['hole_last']).pct()} | {fig(r['tau']).num()} "
                     f"| {fig(r['turns']).num(1)} | {ends} | {order} (±{100 * order_half:.1f}) |")
    return lines


def difference(fix: Mapping[str, Any], base: Mapping[str, Any], key: str) -> tuple[float, float]:
    """fix - base of a figure and the half-width of its 95 % interval
    (independent samples: conservative, since both share their seeds)."""
    a, b = fig(fix[key]), fig(base[key])
    return a.mean - b.mean, math.hypot(a.half, b.half)


def judge(diff: tuple[float, float]) -> str:
    """Lower is better for both measures of the hole."""
    d, half = diff
    if d + half < 0:
        return "lower"
    if d - half > 0:
        return "higher"
    return "no clear change"


def verdicts(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per fix and table: its change of each measure against the
    base rules, and what follows for the reviewer's claim."""
    found = {(r["rule_set"], r["players"]): r for r in results}
    lines = []
    for title, names in FIXES.items():
        lines += [f"**{title[0].upper()}{title[1:]}.**", ""]
        for name in names:
            for players in PLAYERS:
                fix, base = found.get((name, players)), found.get(("base", players))
                if fix is None or base is None:
                    lines.append(f"- {name}, {players} players: not measured.")
                    continue
                hole, tau = difference(fix, base, "hole_last"), difference(fix, base, "tau")
                lines.append(
                    f"- {name}, {players} players: the player in the hole finishes last "
                    f"{100 * fig(fix['hole_last']).mean:.1f} % of the time against {100 * fig(base['hole_last']).mean:.1f} % "
                    f"(difference {100 * hole[0]:+.2f} ±{100 * hole[1]:.2f} pp: {judge(hole)}); tau "
                    f"{fig(fix['tau']).mean:.3f} against {fig(base['tau']).mean:.3f} ({tau[0]:+.3f} ±{tau[1]:.3f}: "
                    f"{judge(tau)})."
                )
        lines.append("")
    return lines


def claim(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """The reviewer's premise under the base rules: is the player in the
    hole last more often than chance, and does the first payday predict
    the end?"""
    lines = []
    for r in results:
        if r["rule_set"] != "base":
            continue
        n, hole, tau = r["players"], fig(r["hole_last"]), fig(r["tau"])
        chance = 1 / n
        above = hole.mean - hole.half > chance
        lines.append(
            f"- {n} players: the player with the fewest adventurers after the first payday finishes last "
            f"{hole.pct()} % of the time, {hole.mean / chance:.2f} times chance ({100 * chance:.1f} %)"
            f"{'' if above else ' (not clearly above it)'}; the standings then and at the end agree with tau "
            f"{tau.num()}."
        )
    return lines


def plain_verdict(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """For each fix, plain sentences over its options and both table sizes:
    does the player in the hole finish last less often (lower is better),
    does the first payday foretell the end less (tau, lower is more ebb and
    flow), and how much longer games are."""
    found = {(r["rule_set"], r["players"]): r for r in results}
    lines = []
    for title, names in FIXES.items():
        pairs = [(name, players, found[(name, players)], found[("base", players)])
                 for name in names for players in PLAYERS if (name, players) in found and ("base", players) in found]
        heading = f"- **{title[0].upper()}{title[1:]}**"
        if not pairs:
            lines.append(f"{heading}: not measured.")
            continue
        hole = [(f"{name} at {players} players", difference(fix, base, "hole_last"))
                for name, players, fix, base in pairs]
        tau = [difference(fix, base, "tau") for _, _, fix, base in pairs]
        turns = statistics.fmean(difference(fix, base, "turns")[0] for _, _, fix, base in pairs)
        lower = [where for where, d in hole if judge(d) == "lower"]
        higher = [where for where, d in hole if judge(d) == "higher"]
        spread = f"{100 * min(d[0] for _, d in hole):+.1f} to {100 * max(d[0] for _, d in hole):+.1f} pp"
        if len(lower) == len(hole):
            words = "gets the player in the hole out of it: less often last in every table"
        elif lower and not higher:
            words = f"helps the player in the hole only in part: less often last in {', '.join(lower)}, no clear change elsewhere"
        elif not lower and not higher:
            words = "does not measurably help the player in the hole: no table changes beyond its interval"
        elif not lower:
            words = f"keeps the player in the hole deeper in it: more often last in {', '.join(higher)}, no clear change elsewhere"
        else:
            words = f"is mixed for the player in the hole: less often last in {', '.join(lower)}, more often in {', '.join(higher)}"
        tau_lower = sum(judge(d) == "lower" for d in tau)
        tau_higher = sum(judge(d) == "higher" for d in tau)
        tau_words = (f"the standings after the first payday foretell the final ranking less well in {tau_lower} of "
                     f"{len(tau)} tables (tau {min(d[0] for d in tau):+.2f} to {max(d[0] for d in tau):+.2f})"
                     if tau_lower else "tau does not fall in any table")
        if tau_higher:
            tau_words += f", better in {tau_higher}"
        lines.append(f"{heading} {words} (the hole share moves {spread}); {tau_words}; games last "
                     f"{turns:+.1f} turns on average.")
    return lines


def plot(results: Sequence[Mapping[str, Any]]) -> None:
    """One picture: for each rule set, how often the player in the hole
    finishes last at 3 and 4 players (chance marked), and tau beside it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n in RULE_SETS if any(r["rule_set"] == n for r in results)]
    fig_, (left, right) = plt.subplots(1, 2, figsize=(10, 0.45 * len(names) + 1.6), sharey=True)
    colours = {3: "#1f77b4", 4: "#d62728"}
    for players, offset in ((3, -0.15), (4, 0.15)):
        rows = {r["rule_set"]: r for r in results if r["players"] == players}
        ys = [i + offset for i, n in enumerate(names) if n in rows]
        shown = [n for n in names if n in rows]
        left.errorbar([100 * rows[n]["hole_last"]["mean"] for n in shown], ys,
                      xerr=[100 * rows[n]["hole_last"]["half"] for n in shown], fmt="o", color=colours[players],
                      label=f"{players} players", capsize=3)
        right.errorbar([rows[n]["tau"]["mean"] for n in shown], ys, xerr=[rows[n]["tau"]["half"] for n in shown],
                       fmt="o", color=colours[players], capsize=3)
        left.axvline(100 / players, color=colours[players], linestyle=":", linewidth=1)
        if "base" in rows:  # the base rules' value down each panel, to read every fix against it
            left.axvline(100 * rows["base"]["hole_last"]["mean"], color=colours[players], alpha=0.25, linewidth=4)
            right.axvline(rows["base"]["tau"]["mean"], color=colours[players], alpha=0.25, linewidth=4)
    left.set_yticks(range(len(names)), names)
    left.invert_yaxis()
    left.set_xlabel("fewest adventurers after the first payday: finishes last, %\n"
                    "(dotted: chance, 1 in the players; pale band: base rules)")
    right.set_xlabel("Kendall's tau, standings after the first payday vs final\n(0: the first payday tells nothing)")
    left.legend(loc="lower right", fontsize=8)
    for axis in (left, right):
        axis.grid(axis="x", alpha=0.3)
    fig_.suptitle("Gnadenlos!, heuristic players: does a player in a hole stay there? (95 % intervals)", fontsize=10)
    fig_.tight_layout()
    fig_.savefig(PLOT, dpi=110)
    plt.close(fig_)


def write(results: Sequence[Mapping[str, Any]], games: int) -> None:
    minutes = sum(r["seconds"] for r in results) / 60
    missing = [n for n in RULE_SETS if not any(r["rule_set"] == n for r in results)]
    text = "\n".join([
        "# Does Gnadenlos! keep you in a hole? The reviewer's fixes, measured",
        "",
        "The English review among the rulebooks says of Gnadenlos!: \"Once you find yourself in a hole the",
        "system tends to keep you there\", and proposes two fixes: a player down to one card may opt out of a",
        "gunfight, moving back a field ([G-5.10](rules/gnadenlos.md); its option [G-5.11](rules/gnadenlos.md),",
        "`gunfight_opt_out=soft`: after an opt-out the losers move back a field instead of being shot), and the",
        "phase-3 auction's cards auctioned one at a time ([G-6.7](rules/gnadenlos.md): `auction=single`, with",
        "`auction_order=first|best` and `auction_buy_limit=one|many`). This page measures whether they do what",
        "he says, with the built-in heuristic in every seat (`referee simulate --policy heuristic`; docs/bots.md",
        "says how it plays).",
        "",
        "**Is a player in a hole kept there?** The player holding the fewest adventurers right after the first",
        "payday ([G-8](rules/gnadenlos.md); a tie shares the match) — the review's player short of cards — and",
        "how often that player finishes last ([G-9.4](rules/gnadenlos.md)); by chance alone 33.3 % at 3 players",
        "and 25 % at 4. And Kendall's tau-b between the standings right after the first payday (G-9.4's ranking",
        "applied then: field, then nuggets, three vultures last) and the final ranking: 1 if the first payday",
        "already decides the order, 0 if it tells nothing. A fix that gets players out of holes lowers both.",
        "Both are over the matches that had a payday (all but a handful; the JSON counts them).",
        "",
        f"{games} matches per table, seeds {SEED}.. (the same deals for every rule set); every figure is a mean",
        f"± the half-width of its 95 % interval (normal approximation over matches); the widest interval on a",
        f"share is ±{100 * widest_share(results):.1f} percentage points. Reproduce with one command:",
        "`make balance-gnadenlos` (`python -m bench.balance_gnadenlos`; "
        f"{minutes:.0f} minutes of play here, summed over the tables, on a shared 2-core machine); the figures are also in",
        "[balance-gnadenlos.json](balance-gnadenlos.json).",
        *(["", f"Not measured yet: {', '.join(missing)}."] if missing else []),
        "",
        "![How often the player in the hole finishes last, and Kendall's tau, per rule set](balance-gnadenlos.png)",
        "",
        "## 3 players",
        "",
        *table(results, 3),
        "",
        "## 4 players",
        "",
        *table(results, 4),
        "",
        "Ends: [G-9.1](rules/gnadenlos.md) A (a third vulture), B (the undertaker), C (the goal); the safety",
        "valve [G-9.5](rules/gnadenlos.md). Win share by turn order: the start player first (G-2.5 draws the",
        "start player, so seat numbers alone would hide a first-player advantage); a shared win is split.",
        "",
        "## Verdict on the reviewer's claim",
        "",
        "**His premise, under the base rules.**",
        "",
        *claim(results),
        "",
        "**His fixes, in plain words** (each against the base rules at the same table size; a change is called",
        "only when the 95 % interval of the difference excludes zero):",
        "",
        *plain_verdict(results),
        "",
        "What this does not show: how people play. Every seat is the built-in heuristic, whose play under the",
        "variants follows simple rules (docs/bots.md: under `auction=single` it bids last, first only when it holds",
        "no IOU, and orders tied cards least wanted first; its commit rule ignores the opt-out's softer loss);",
        "players who use the fixes better may fare otherwise. \"The hole\" is",
        "measured one way, by adventurers in hand right after the first payday, the review's player short of cards.",
        "",
        "### Fix by fix, table by table",
        "",
        *verdicts(results),
    ])
    write_atomically(DOC, text, mode=0o644)


def load() -> list[dict[str, Any]]:
    if not DATA.exists():
        return []
    return list(json.loads(DATA.read_text())["tables"])


def save(results: Sequence[Mapping[str, Any]], games: int) -> None:
    order = {n: i for i, n in enumerate(RULE_SETS)}
    ordered = sorted(results, key=lambda r: (order.get(r["rule_set"], 99), r["players"]))
    write_atomically(DATA, json.dumps({"games": games, "seed": SEED, "tables": ordered}, indent=1) + "\n",
                     mode=0o644)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"matches per table (default {GAMES})")
    parser.add_argument("--jobs", type=int, default=1, help="tables played at once (default 1)")
    parser.add_argument("--only", nargs="+", choices=list(RULE_SETS), metavar="NAME",
                        help=f"play only these rule sets, keeping the others' figures ({', '.join(RULE_SETS)})")
    parser.add_argument("--players", type=int, nargs="+", choices=PLAYERS, default=list(PLAYERS))
    parser.add_argument("--no-play", action="store_true",
                        help="play nothing: write the page and the plot from the figures kept in the JSON")
    args = parser.parse_args(argv)
    names = [] if args.no_play else args.only or list(RULE_SETS)
    for name in names:  # a rule set the engine does not have is refused before anything is played
        try:
            load_game("gnadenlos", RULE_SETS[name])
        except ValueError as exc:
            parser.error(f"rule set {name!r}: {exc}")
    kept = [r for r in load() if not (r["rule_set"] in names and r["players"] in args.players)
            and r["games"] == args.games]
    jobs = [(name, players) for name in names for players in args.players]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {job: pool.submit(measure, *job, args.games) for job in jobs}
        for job, future in futures.items():
            kept.append(future.result())
            print(f"{job[0]}, {job[1]} players: done", file=sys.stderr, flush=True)
            save(kept, args.games)  # each table kept as soon as it is measured
    results = load()
    write(results, json.loads(DATA.read_text())["games"])
    plot(results)
    print(f"wrote {DOC} and {PLOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
