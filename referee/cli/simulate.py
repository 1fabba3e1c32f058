"""`referee simulate`: play many matches in-process and show the balance report.

The simulation itself lives in `referee.simulation` (game-neutral, with
per-game summarisers); this module only reads the command line, shows a
progress bar on stderr (so `--json` output on stdout stays clean) and renders
the report as rich tables or one JSON object.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import click
from rich.console import Console, Group
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from referee.games import Game, load_game
from referee.cli.variants import read_variant, variant_option
from referee.simulation import (
    SEAT_POLICIES,
    FactValue,
    MatchFailed,
    SimulationReport,
    seat_policies,
    simulate as run_simulation,
    summariser_for,
)

BAR_WIDTH = 24
"""Characters of a full (100 %) bar in the report's share columns."""


def _game(ctx: click.Context, param: click.Parameter, name: str) -> Game:
    try:
        return load_game(name)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


@click.command()
@click.option("--game", "game", default="gnadenlos", show_default=True, callback=_game,
              help="The game to simulate (a registered game's name).")
@click.option("--players", type=int, default=None,
              help="Seats at the table, within the game's range [default: 4 if allowed, else the minimum].")
@click.option("--games", "games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of matches to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Match i is dealt from seed S+i; its random decisions derive from that seed too.")
@click.option("--setup", default=None, help="Setup variant, e.g. 'advanced' (same as --variant setup=VALUE).")
@variant_option()
@click.option("--policy", "policy", default="random", show_default=True, metavar="NAME[,NAME...]",
              help=f"Who plays: one of {', '.join(SEAT_POLICIES)} for every seat, or one name per seat "
                   "separated by commas (e.g. heuristic,random,random).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object on stdout.")
def simulate(
    game: Game, players: int | None, games: int, seed: int, setup: str | None,
    variants: tuple[str, ...], policy: str, as_json: bool,
) -> None:
    """Play matches in-process and report how they went.

    By default every decision is a uniformly random legal action, so the
    report shows the game's structure (seat advantage, how matches end, how
    long they last) without any strategy in it; `--policy heuristic` seats
    the game's built-in heuristic players instead, which decide from their
    own seat's observation and events, as a designer's real players would.
    Examples:

        referee simulate --game gnadenlos --players 4 --games 1000 --seed 1

        referee simulate --game saboteur --players 7 --games 300 --policy heuristic
    """
    seats = players if players is not None else min(max(4, game.min_seats), game.max_seats)
    try:
        game.check_seats(seats)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--players'") from None
    game = game.configure(read_variant(game, [*variants, *([f"setup={setup}"] if setup else [])]))
    try:
        seating = seat_policies([name.strip() for name in policy.split(",")], seats)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--policy'") from None

    try:
        report = _run_with_progress(game, seats, games, seed, seating)
    except MatchFailed as exc:
        raise click.ClickException(f"{exc} (an engine bug: please report it with this line)") from exc
    if as_json:
        click.echo(json.dumps(report.to_json()))
    else:
        Console().print(render_report(game, report))


def _run_with_progress(game: Game, seats: int, games: int, seed: int,
                       seating: Sequence[str]) -> SimulationReport:
    stderr = Console(stderr=True)
    columns = (TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=stderr, transient=True, disable=not stderr.is_terminal) as progress:
        task = progress.add_task("matches", total=games)
        return run_simulation(game, seats, games, seed, on_match=lambda _: progress.advance(task),
                              seating=seating)


def _players(policies: Sequence[str]) -> str:
    """"random matches", "matches of heuristic players", or the seats' policies in order."""
    if set(policies) == {"random"}:
        return "random matches"
    if len(set(policies)) == 1:
        return f"matches of {policies[0]} players"
    return "matches (seats: " + ", ".join(policies) + ")"


def _with_interval(value: FactValue, stderr: FactValue | None, form: str) -> str:
    """"12.0 % ±1.3 %", element-wise for a tuple; the interval is 1.96 standard errors."""
    values = value if isinstance(value, tuple) else (value,)
    errors = stderr if isinstance(stderr, tuple) else (stderr,) * len(values)
    return " / ".join(form.format(v) if e is None else f"{form.format(v)} ±{form.format(1.96 * e)}"
                      for v, e in zip(values, errors))


def _bar(fraction: float, style: str) -> Text:
    filled = round(max(0.0, min(1.0, fraction)) * BAR_WIDTH)
    return Text("█" * filled + "·" * (BAR_WIDTH - filled), style=style)


def render_report(game: Game, report: SimulationReport) -> Panel:
    """The report as a panel of tables, for a game designer to read."""
    summariser = summariser_for(game)
    variant = ", ".join(f"{k}={v}" for k, v in report.variant.items()) or "none"
    heading = Text.assemble(
        (f"{report.games} {_players(report.policies)}", "bold"), f" of {game.name}, {report.players} players, ",
        f"variant {variant}, seeds {report.seed}..{report.seed + report.games - 1}\n",
        (f"{report.games_per_second:,.0f} matches/s", "bold green"), f" ({report.seconds:.2f} s in-process)",
    )

    length = Table(title="Match length", title_justify="left", show_edge=False)
    for name in ("turns: mean", "stdev", "min", "max", "decisions: mean"):
        length.add_column(name, justify="right")
    length.add_row(
        f"{report.turns_mean:.1f}", f"{report.turns_stdev:.1f}", str(min(report.turns)),
        str(max(report.turns)), f"{sum(report.decisions) / report.games:.1f}",
    )

    ends = Table(title="How matches ended", title_justify="left", show_edge=False)
    ends.add_column("end")
    ends.add_column("share", justify="right")
    ends.add_column("")
    for reason, share in report.end_reasons.items():
        ends.add_row(summariser.end_labels.get(reason, reason), f"{share:.1%}", _bar(share, "cyan"))

    seats = Table(title="Win share per seat (shared wins split)", title_justify="left", show_edge=False)
    seats.add_column("seat", justify="right")
    seats.add_column("win share", justify="right")
    seats.add_column("±95 %", justify="right")
    seats.add_column(f"vs fair {1 / report.players:.1%}", justify="right")
    seats.add_column("")
    fair = 1 / report.players
    for seat, (share, err) in enumerate(zip(report.seat_win_share, report.seat_win_share_stderr)):
        margin = 1.96 * err
        off = share - fair
        style = "red" if abs(off) > margin else "green"
        seats.add_row(str(seat), f"{share:.1%}", f"{margin:.1%}", Text(f"{off:+.1%}", style=style),
                      _bar(share, "magenta"))

    parts: list[Table | Text] = [heading, Text(), length, Text(), ends, Text(), seats]
    if report.fact_means:
        facts = Table(title="Per match (mean ± 95 % interval)", title_justify="left", show_edge=False)
        facts.add_column("figure")
        facts.add_column("mean", justify="right")
        for key, value in report.fact_means.items():
            form = "{:.1%}" if key in summariser.percent_facts else "{:.2f}"
            facts.add_row(summariser.fact_labels.get(key, key),
                          _with_interval(value, report.fact_stderr.get(key), form))
        parts += [Text(), facts]
    if any(abs(s - fair) > 1.96 * e for s, e in zip(report.seat_win_share, report.seat_win_share_stderr)):
        parts += [Text(), Text("A red seat is outside the 95 % interval of a fair share.", style="dim")]
    elif report.games < 400:
        parts += [Text(), Text("Few matches: intervals are wide; try --games 2000.", style="dim")]
    return Panel(Group(*parts), title=f"referee simulate — {game.name}", expand=False)
