"""Playing strength of the built-in bots, and where the MCTS bot's time goes (issue 4).

Settings (4 seats; the bot under test rotates over the seats, match i puts it
in seat i mod 4; match i is dealt from seed BASE_SEED + i):
- `heuristic`: the heuristic bot against three random bots (target: a win share of at least 60 %; chance is 25 %);
- `mcts-0.2`: the MCTS bot thinking 0.2 s per decision against three heuristic bots (target: at least 40 %);
- `mcts-0.05`: the same at 0.05 s per decision.
Opt-in Saboteur settings (`--settings saboteur-heuristic,...`): the same names
prefixed `saboteur-`, played at SABOTEUR_SEATS seats (match i puts the bot in
seat i mod 5), a win being first place by final nugget total (S-7.2); e.g.
`saboteur-heuristic` (heuristic vs four random bots; chance is 20 %) and
`saboteur-mcts-0.2` (MCTS vs four heuristic bots).
Any setting may end in "@" and a variant of the game, its options joined by
"+" (`heuristic@auction=single+auction_order=best`): its matches are played
under that rule set.
A shared first place counts as a fraction (1/k for k winners). Intervals are
95 % Wilson score intervals over the matches played.

Matches run in process through the referee's one match loop
(`referee.match.play_bots`: each bot gets only its observation, legal
actions and events), in parallel over `--workers` processes. The
MCTS bot's figures (decisions per match, iterations per second) come from its
own `stats`. The profile plays a few MCTS decisions from positions of
heuristic matches under cProfile and splits the search time by what it calls.
Prints tables and rewrites the "Bots" section of docs/benchmarks.md (unless
--no-record).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import multiprocessing
import pstats
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from bench.recording import machine_summary, write_section
from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.random import RandomBot
from bots.sdk import Bot, DecisionContext, MatchInfo, TimeControl
from referee.games import load_game
from referee.match import play_bots
from referee.games.rule_sets import parse_options
from referee.files import write_atomically

SECTION = "Bots"
SEATS = 4
BASE_SEED = 10_000
ARENA_MOVE_TIME = 30.0
"""The in-process matches' move time: loose, so the MCTS bot thinks exactly its own move time."""
CPU_CLOCK = True
"""Count the MCTS move time in CPU seconds of the worker: the machine may be
shared, and a decision should get the same work whatever else runs."""
PROGRESS_EVERY = 10
TARGETS = {"heuristic": 0.60, "mcts-0.2": 0.40, "mcts-0.05": None}
OPPONENTS = {"heuristic": "random", "mcts-0.2": "heuristic", "mcts-0.05": "heuristic"}
SABOTEUR = "saboteur-"
"""Prefix of the Saboteur settings; the rest of the name reads as a Gnadenlos! setting's."""
SABOTEUR_SEATS = 5
"""Five seats: two saboteurs among six dwarf cards (S-1), the smallest table
where both teams have more than one member."""


def split_variant(setting: str) -> tuple[str, dict[str, str]]:
    """The setting without its "@variant" suffix, and that variant."""
    name, _, variant = setting.partition("@")
    return name, parse_options(variant.replace("+", ","))


def table(setting: str) -> tuple[str, int, str]:
    """(game, seats, the setting without its game prefix and variant) of `setting`."""
    setting = split_variant(setting)[0]
    if setting.startswith(SABOTEUR):
        return "saboteur", SABOTEUR_SEATS, setting[len(SABOTEUR):]
    return "gnadenlos", SEATS, setting


def opponents(setting: str) -> str:
    """The opponents of `setting`: random bots for the heuristic, heuristic bots for MCTS."""
    return OPPONENTS.get(setting, "random" if table(setting)[2] == "heuristic" else "heuristic")


@dataclass(frozen=True)
class MatchFigures:
    setting: str
    win: float
    reason: str
    decisions: int
    think_seconds: float
    iterations: int
    search_cpu: float


def subject(setting: str, match: int) -> Bot:
    """The bot under test: "heuristic", or "mcts-<seconds>" with optional
    "-d<rollout depth>" (d0: full rollouts), "-w<hint weight>", "-random" (rollouts)."""
    if setting == "heuristic":
        return HeuristicBot()
    _, move_time, *extras = setting.split("-")
    options: dict[str, object] = {}
    for extra in extras:
        if extra.startswith("d"):
            options["rollout_depth"] = int(extra[1:]) or None
        elif extra.startswith("w"):
            options["hint_weight"] = float(extra[1:])
        elif extra == "random":
            options["rollout"] = "random"
    return MctsBot(move_time=float(move_time), seed=match, cpu_clock=CPU_CLOCK, **options)  # type: ignore[arg-type]


def play_one(job: tuple[str, int]) -> MatchFigures:
    """One match of `setting`: the subject in seat match % seats."""
    setting, match = job
    game, seats, name = table(setting)
    seat = match % seats
    bots: list[Bot] = [
        RandomBot(match * seats + k) if opponents(setting) == "random" else HeuristicBot()
        for k in range(seats)
    ]
    bots[seat] = subject(name, match)
    variant = split_variant(setting)[1]
    result = play_bots(bots, BASE_SEED + match, game=load_game(game, variant), move_time=ARENA_MOVE_TIME)
    ranks = result.ranks
    win = 1 / ranks.count(0) if ranks[seat] == 0 else 0.0
    stats = getattr(bots[seat], "stats", None)
    return MatchFigures(
        setting, win, result.end_reason, result.seats[seat].decisions, result.seats[seat].seconds,
        stats.total_iterations if stats else 0, stats.total_cpu_seconds if stats else 0.0,
    )


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (fractional successes allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run_setting(
    setting: str, matches: int, workers: int, progress: Callable[[list[MatchFigures], float], None],
    first: int = 0,
) -> tuple[list[MatchFigures], float]:
    """Play the matches of `setting`; `progress` gets the figures so far every
    PROGRESS_EVERY matches, so a run stopped early still leaves its results."""
    started = time.monotonic()
    jobs = [(setting, m) for m in range(first, first + matches)]
    figures: list[MatchFigures] = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for figure in pool.imap_unordered(play_one, jobs, chunksize=1):
            figures.append(figure)
            if len(figures) % PROGRESS_EVERY == 0:
                progress(figures, time.monotonic() - started)
    return figures, time.monotonic() - started


# ------------------------------------------------------------------ profile

PROFILE_PARTS = (
    ("determinize (a state from the observation)", "determinize.py", "determinize"),
    ("legal actions (tree and rollouts)", "state.py", "legal_actions"),
    ("apply_unchecked (engine steps)", "base.py", "apply_unchecked"),
    ("rollout policy and tree hints (heuristic)", "gnadenlos.py", "heuristic_rollout"),
    ("static evaluation at the depth cut-off", "gnadenlos.py", "evaluate"),
    ("clone (not used: each iteration builds a fresh determinization)", "state.py", "clone"),
)


def positions(count: int) -> list[tuple[object, int]]:
    """(state, seat) pairs from heuristic matches, one decision in every few."""
    game = load_game("gnadenlos")
    bot = HeuristicBot()
    found: list[tuple[object, int]] = []
    seed = 0
    while len(found) < count:
        state = game.new_state(SEATS, BASE_SEED + 90_000 + seed)
        step = 0
        while not state.is_terminal() and len(found) < count:
            seats = sorted(state.to_act())
            if step % 7 == 3:
                found.append((state.clone(), seats[0]))
            ctx = _context(seats[0])
            state.apply({s: bot.decide(state.observe(s), state.legal_actions(s), ctx) for s in seats})
            step += 1
        seed += 1
    return found


def _context(seat: int) -> DecisionContext:
    info = MatchInfo("bench", "gnadenlos", {}, seat, SEATS, ("bot",) * SEATS, TimeControl(ARENA_MOVE_TIME))
    return DecisionContext(info, 1, time.monotonic() + ARENA_MOVE_TIME)


def profile_search(decisions: int, iterations: int) -> tuple[list[tuple[str, float]], float, float]:
    """Shares of search time per part, and iterations per second with and without the profiler."""
    bot = MctsBot(iterations=iterations, seed=1)
    work = [(s, seat) for s, seat in positions(decisions)]
    for state, seat in work:
        bot.decide(state.observe(seat), state.legal_actions(seat), _context(seat))  # type: ignore[attr-defined]
    plain_rate = bot.stats.total_iterations / bot.stats.total_cpu_seconds
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for state, seat in work:
        bot.decide(state.observe(seat), state.legal_actions(seat), _context(seat))  # type: ignore[attr-defined]
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = next(v[3] for k, v in stats.items() if k[2] == "search" and k[0].endswith("search.py"))
    shares = []
    for label, filename, function in PROFILE_PARTS:
        cumulative = sum(v[3] for k, v in stats.items() if k[2] == function and k[0].endswith(filename))
        shares.append((label, cumulative / total))
    accounted = sum(share for label, share in shares if "clone" not in label)
    shares.append(("tree: selection, expansion, backup, bookkeeping", max(0.0, 1 - accounted)))
    return shares, plain_rate, iterations * len(work) / total


# ------------------------------------------------------------------- report


def summarise(setting: str, figures: Sequence[MatchFigures], seconds: float) -> dict[str, object]:
    n = len(figures)
    wins = sum(f.win for f in figures)
    low, high = wilson(wins, n)
    decisions = sum(f.decisions for f in figures)
    iterations = sum(f.iterations for f in figures)
    search = sum(f.search_cpu for f in figures)
    return {
        "setting": setting,
        "matches": n,
        "share": wins / n,
        "low": low,
        "high": high,
        "decisions": decisions / n,
        "ms_per_decision": 1000 * sum(f.think_seconds for f in figures) / max(1, decisions),
        "iterations_per_second": iterations / search if search else None,
        "iterations_per_decision": iterations / decisions if iterations else None,
        "reasons": Counter(f.reason for f in figures),
        "wall": seconds,
    }


def describe(setting: str) -> str:
    game, seats, name = table(setting)
    variant = split_variant(setting)[1]
    where = f" (Saboteur, {seats} seats)" if game == "saboteur" else ""
    if variant:
        where += " under " + ", ".join(f"{k}={v}" for k, v in variant.items())
    if name == "heuristic":
        return f"heuristic vs {seats - 1} random{where}"
    _, move_time, *extras = name.split("-")
    return f"MCTS {move_time} s/decision{' ' + ' '.join(extras) if extras else ''} vs {seats - 1} heuristic{where}"


def render(rows: list[dict[str, object]], profile: tuple[list[tuple[str, float]], float, float] | None,
           workers: int) -> str:
    saboteur = any(table(str(row["setting"]))[0] == "saboteur" for row in rows)
    saboteur_seats = (f" (Saboteur: {SABOTEUR_SEATS}, a win is first place by nuggets; its MCTS cuts rollouts "
                      "off after 8 decisions, then estimates the round, docs/bots.md)") if saboteur else ""
    lines = [
        f"Measured by `python -m bench strength` (bench/strength_bench.py) on {machine_summary()}.",
        f"{SEATS} seats{saboteur_seats}, the bot under test rotated over the seats, {workers} worker processes, "
        "in-process arena "
        "(`referee.match.play_bots`, the referee's match loop: observations and legal actions only). A shared first place counts as a fraction. "
        "95 % Wilson intervals. MCTS: default settings (heuristic rollouts cut off after 24 decisions, then a "
        "static evaluation; heuristic-guided progressive widening); its move time counted in CPU seconds of its "
        "worker process (the machine was shared with other jobs, so wall-clock time would give a decision less "
        "work the busier the machine); iterations/s are per CPU second of search.",
        "",
        "| setting | matches | win share | 95 % interval | target | decisions/match (bot) | ms/decision (wall) | MCTS iterations/s | iterations/decision | end reasons | wall time |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        target = TARGETS.get(str(row["setting"]))
        ips = row["iterations_per_second"]
        ipd = row["iterations_per_decision"]
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(row["reasons"].items()))  # type: ignore[attr-defined]
        lines.append(
            f"| {describe(str(row['setting']))} | {row['matches']} | {100 * row['share']:.1f} % "  # type: ignore[operator]
            f"| {100 * row['low']:.1f}–{100 * row['high']:.1f} % "  # type: ignore[operator]
            f"| {'≥ %d %%' % (100 * target) if target else '—'} | {row['decisions']:.1f} "
            f"| {row['ms_per_decision']:.2f} | {f'{ips:,.0f}' if ips else '—'} | {f'{ipd:,.0f}' if ipd else '—'} "
            f"| {reasons} | {row['wall']:.0f} s |"
        )
    if profile:
        shares, plain, profiled = profile
        lines += [
            "",
            f"Where the MCTS bot's time goes (cProfile over fixed-iteration searches from positions of heuristic "
            f"matches; one process; CPU time): {plain:,.0f} iterations/s without the profiler, {profiled:,.0f} with it. "
            "Shares of search time, each including what it calls (a heuristic rollout step includes building its view):",
            "",
            "| part | share |",
            "|---|---|",
        ]
        lines += [f"| {label} | {100 * share:.0f} % |" for label, share in shares]
    return "\n".join(lines)


def _load_rows(path: Path | None) -> list[dict[str, Any]]:
    if path is None or not path.exists():
        return []
    rows = json.loads(path.read_text())
    for row in rows:
        row["reasons"] = Counter(row["reasons"])
    return rows


def _save_rows(path: Path | None, rows: list[dict[str, Any]]) -> None:
    if path is not None:
        write_atomically(path, json.dumps(rows, indent=1))  # a killed run leaves the last rows whole


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench strength", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per setting (default 200)")
    parser.add_argument("--first-match", type=int, default=0,
                        help="index of the first match (its deal and the tested seat follow from it)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes (default 2; more than the cores only shares a busy machine's CPU "
                             "in our favour, which the CPU-time budget allows)")
    parser.add_argument("--settings", default="heuristic,mcts-0.05,mcts-0.2",
                        help="comma-separated: heuristic, mcts-<seconds>, and either prefixed saboteur- "
                             "(default: heuristic,mcts-0.05,mcts-0.2)")
    parser.add_argument("--profile-decisions", type=int, default=20, help="0 skips the profile")
    parser.add_argument("--profile-iterations", type=int, default=100)
    parser.add_argument("--no-record", action="store_true", help="do not rewrite docs/benchmarks.md")
    parser.add_argument("--rows", type=Path, default=None,
                        help="a JSON file of setting results: earlier runs' rows are read from it and "
                             "reported with this run's, and it is rewritten (to split a long run in parts)")
    args = parser.parse_args(argv)
    console = Console()
    rows = _load_rows(args.rows)
    for setting in filter(None, args.settings.split(",")):
        OPPONENTS.setdefault(setting, opponents(setting))
        TARGETS.setdefault(setting, None)
        def progress(so_far: list[MatchFigures], seconds: float, setting: str = setting) -> None:
            partial = summarise(setting, so_far, seconds)
            _save_rows(args.rows, [r for r in rows if r["setting"] != setting] + [partial])
            console.print(f"  {setting}: {len(so_far)} matches, {100 * partial['share']:.1f} % "  # type: ignore[operator]
                          f"in {seconds:.0f} s")

        figures, seconds = run_setting(setting, args.matches, args.workers, progress, args.first_match)
        row = summarise(setting, figures, seconds)
        rows = [r for r in rows if r["setting"] != setting] + [row]
        _save_rows(args.rows, rows)
        console.print(f"{describe(setting)}: {100 * row['share']:.1f} % "  # type: ignore[operator]
                      f"[{100 * row['low']:.1f}, {100 * row['high']:.1f}] over {row['matches']} matches "  # type: ignore[operator]
                      f"in {seconds:.0f} s; iterations/s {row['iterations_per_second']}")
    profile = profile_search(args.profile_decisions, args.profile_iterations) if args.profile_decisions else None
    text = render(rows, profile, args.workers)
    console.print(text)
    if not args.no_record:
        write_section(SECTION, text)


if __name__ == "__main__":
    main()
