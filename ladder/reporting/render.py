"""Rich renderings of the ladder: standings, head-to-head, seats, live view."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ladder.rating.evidence import INDISTINGUISHABLE, MAX_PROJECTED_SETS, ORDERED, PLACES, REVERSED
from ladder.rating.game_figures import ROLE_TITLES, ROLES, pair_score_rates, rests_on, role_records, score_rates
from ladder.rating.score_evidence import Basis
from ladder.rating.sprt import H0, H1, sets_to_decide
from ladder.rating.standings import Standing, head_to_head, mean_set_size, seat_shares, standings
from ladder.rating.stopping import PairStatus
from ladder.scheduling.scheduler import RunStatus, Versus
from ladder.store.database import BotRow, Store
from ladder.store.rule_set_names import heading
from referee.untrusted import safe_line, safe_text

LIVE_REFRESH = 0.5
"""Seconds between live standings rebuilds (each reads the store)."""


def _when(iso: str | None) -> str:
    """"MM-DD HH:MM" (UTC) of a stored timestamp: short enough for 80 columns."""
    return iso[5:16].replace("T", " ") if iso else "-"


@dataclass(frozen=True)
class _Column:
    header: str
    justify: str
    cell: Callable[[Standing, PairStatus | None, float], RenderableType]


def _strikes(row: Standing) -> str:
    """"3t 1i" (counts by reason's initial; see `table_notes`), "0" if none."""
    if not row.strikes:
        return "0"
    return " ".join(f"{n}{reason[0] if reason != 'unknown' else '?'}" for reason, n in row.strike_reasons.items())


def _verdict(pair: PairStatus | None, set_size: float) -> str:
    """How sure the row's place above the next row is."""
    if pair is None:
        return ""
    v = pair.verdict
    by = "" if pair.basis == PLACES else f" ({pair.basis})"  # judged by the game's match score
    if v.kind == ORDERED:
        return f"ordered{by}"
    if v.kind == INDISTINGUISHABLE:
        return f"≈ indisting.{by}"
    if v.more_sets is None or v.more_sets > MAX_PROJECTED_SETS:
        return f"{v.kind}{by}, ≫"
    return f"{v.kind}{by}, ~{round(v.more_sets * set_size)}m"


COLUMNS = [
    _Column("#", "right", lambda r, p, z: str(r.rank)),
    _Column("bot", "left", lambda r, p, z: safe_text(r.bot, "" if r.active else "dim")),
    _Column("version", "left", lambda r, p, z: safe_text(r.version)),
    _Column("μ", "right", lambda r, p, z: f"{r.mu:.2f}"),
    _Column("σ", "right", lambda r, p, z: f"{r.sigma:.2f}"),
    _Column("μ−3σ", "right", lambda r, p, z: Text(f"{r.conservative:.2f}", style="bold")),
    _Column("played", "right", lambda r, p, z: str(r.matches)),
    _Column("wins", "right", lambda r, p, z: str(r.wins)),
    _Column("avg pl", "right", lambda r, p, z: f"{r.average_place:.2f}" if r.average_place is not None else "-"),
    _Column("strikes", "right", lambda r, p, z: _strikes(r)),
    _Column("forf", "right", lambda r, p, z: str(r.forfeits)),
    _Column("last (UTC)", "left", lambda r, p, z: _when(r.last_played)),
    _Column("vs next", "left", lambda r, p, z: _verdict(p, z)),
]

DROP_ORDER = ("last (UTC)", "avg pl", "wins", "σ", "μ", "played", "version", "strikes", "forf", "vs next")
"""The columns left out, first to last, until the table fits the width; the
rank, the bot and its rating (μ−3σ) are always shown whole."""


def standings_table(rows: Sequence[Standing], title: str, pairs: Sequence[PairStatus] = (), *,
                    width: int | None = None, set_size: float = 3.5) -> Table:
    """The standings; with `width`, less important columns are left out
    until it fits, and a bot name too long even then wraps (never cut).
    `pairs` gives the "vs next" column (none: no column)."""
    columns = [c for c in COLUMNS if pairs or c.header != "vs next"]
    by_upper = {p.upper: p for p in pairs}
    for header in DROP_ORDER:
        if width is None or _natural_width(_build(rows, title, columns, by_upper, set_size)) <= width:
            break
        columns = [c for c in columns if c.header != header]
    table = _build(rows, title, columns, by_upper, set_size)
    if width is not None and _natural_width(table) > width:
        table.columns[1].no_wrap = False
        table.columns[1].overflow = "fold"
    return table


def _build(rows: Sequence[Standing], title: str, columns: Sequence[_Column], pairs: dict[int, PairStatus],
           set_size: float) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for c in columns:
        table.add_column(c.header, justify=c.justify, no_wrap=True)  # type: ignore[arg-type]
    for r in rows:
        table.add_row(*(c.cell(r, pairs.get(r.bot_id), set_size) for c in columns))
    return table


def _natural_width(table: Table) -> int:
    """The width `table` takes when nothing is squeezed."""
    console = Console(width=10_000)
    return Measurement.get(console, console.options, table).maximum


BOT_COLUMNS = ("name", "version", "kind", "active", "games", "sha256", "registered", "description")
BOT_DROP_ORDER = ("description", "registered", "sha256", "kind", "games")
"""`referee bots`' columns left out, first to last, until the table fits the width."""


def bots_table(bots: Sequence[BotRow], *, width: int | None = None) -> Table:
    """The registered bots; with `width`, less important columns are left
    out until it fits, and what is still too long wraps (never cut: a name
    cut short could be another bot's)."""
    columns = list(BOT_COLUMNS)
    for header in BOT_DROP_ORDER:
        if width is None or _natural_width(_bots(bots, columns)) <= width:
            break
        columns.remove(header)
    return _bots(bots, columns)


def _bots(bots: Sequence[BotRow], columns: Sequence[str]) -> Table:
    table = Table(title="registered bots", title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    for b in bots:  # name, version and description are the submitter's words: escaped, never markup
        cells: dict[str, RenderableType] = {"name": safe_text(b.name), "version": safe_text(b.version), "kind": b.kind,
                 "active": "yes" if b.active else "", "games": safe_text(",".join(b.games)),
                 "sha256": b.content_hash[:12], "registered": b.created_at, "description": safe_text(b.description)}
        table.add_row(*(cells[column] for column in columns))
    return table


def table_notes(confidence: float, margin: float, basis: Basis | None = None) -> Text:
    """The legend under a standings table: what its columns and their
    abbreviations mean (`referee table` and the end of `referee ladder`);
    `basis`: what the pairs are judged by, where not places (Leduc's chips)."""
    within = (f"their score within 0.5 ± {margin:g}" if basis is None or not basis.by_score else
              f"their {basis.unit} within ± {basis.rate(0.5 + basis.margin):g}")
    return Text(
        "μ−3σ: the conservative rating the rows are sorted by (99.7% sure the skill is at least this). "
        "avg pl: mean place, 1 = first. strikes: t timeout, i illegal, m malformed, c crashed (? stored before "
        "reasons were). forf: matches forfeited. vs next: the verdict on this row and the next, from their shared "
        f"duplicate sets at {confidence:.0%}: ordered = better than the next row; ≈ indisting. = {within}"
        "; open, ~Nm = not settled yet, about N more matches together would settle it "
        "(≫: far more); reversed = their shared sets put the next row ahead. A dim bot is a retired version."
    )


def pairs_report(status: RunStatus, names: dict[int, str], set_size: float) -> Text:
    """The end of an --until-stable run: stable, or the unsettled pairs and
    roughly how many more matches each needs."""
    if status.stable:
        against = [p for p in status.pairs if p.verdict.kind == REVERSED]  # settled by a score (stopping.PairStatus)
        return Text("stable: every adjacent pair is ordered or indistinguishable" + (
            f"; {len(against)} by {against[0].basis} put the lower row ahead (the ratings rate places)"
            if against else ""))
    text = Text(f"not stable: the budget of {status.budget} matches ran out; unsettled pairs:")
    for p in status.pairs:
        if p.settled:
            continue
        v = p.verdict
        more = ("far more than that" if v.more_sets is None or v.more_sets > MAX_PROJECTED_SETS
                else f"about {v.more_sets} more shared sets (~{round(v.more_sets * set_size)} matches)")
        text.append(f"\n  {safe_line(names.get(p.upper, p.upper))} over {safe_line(names.get(p.lower, p.lower))}: "
                    f"{v.kind} after {v.sets} shared sets by {p.basis} (score {v.mean:.2f}, interval "
                    f"{v.low:.2f}-{v.high:.2f}); "
                    f"needs {more}")
    return text


def versus_report(versus: Versus, names: dict[int, str], set_size: float) -> Text:
    """The verdict on --versus NEW OLD and its evidence (undecided: roughly
    how many more sets and matches it needs): the SPRT's by places, the
    hands' interval by a score."""
    new, old = safe_line(names.get(versus.new, versus.new)), safe_line(names.get(versus.old, versus.old))
    sprt = versus.sprt
    verdict = versus.verdict
    if verdict == H1:
        head = f"{new} is better than {old} (H1 accepted)"
    elif verdict == H0:
        by = f"{sprt.margin:g}" if versus.basis == PLACES else f"{versus.margin:g} {versus.unit}"
        head = f"{new} is not better than {old} by {by} (H0 accepted)"
    else:
        head = f"no verdict on {new} against {old}: the budget ran out"
    if versus.interval is not None:
        return Text(head + ": " + _interval_evidence(versus, new, old, set_size))
    text = Text(
        f"{head}: {new} scored {versus.mean:.3f} against {old} over {len(versus.scores)} shared duplicate sets "
        f"(1 = always ahead, ties half); log-likelihood ratio {versus.llr:.2f}, bounds {sprt.lower:.2f} and "
        f"{sprt.upper:.2f}; H0: score 0.5, H1: score {sprt.mu1:g}, alpha {sprt.alpha:g}, beta {sprt.beta:g}"
    )
    if verdict is None:
        more = sets_to_decide(sprt, versus.scores, versus.bounds) if versus.scores else math.inf
        text.append("; needs " + _more(more, set_size))
    return text


def _interval_evidence(versus: Versus, new: str, old: str, set_size: float) -> str:
    """--versus by a score: NEW's rate and its interval, hand by hand."""
    assert versus.interval is not None
    low, high = versus.interval
    level = 1 - 2 * min(versus.sprt.alpha, versus.sprt.beta)
    text = (f"{new} won {versus.rate or 0:+.1f} {versus.unit} from {old} over {len(versus.scores)} shared duplicate "
            f"sets by {versus.basis}, hand by hand, less each hand's luck where measured, interval [{low:+.1f}, "
            f"{high:+.1f}] at {level:.0%}; H1: the interval above 0, H0: below +{versus.margin:g}")
    if versus.verdict is None:
        text += "; needs " + _more(versus.more_sets if versus.more_sets is not None else math.inf, set_size)
    return text


def _more(sets: float, set_size: float) -> str:
    if sets > MAX_PROJECTED_SETS:
        return "far more shared sets than that"
    return f"about {math.ceil(sets)} more shared sets (~{round(math.ceil(sets) * set_size)} matches)"


def h2h_table(store: Store, game: str, rows: Sequence[Standing], rule_set: str = "") -> Table:
    """Row bot finished ahead of column bot in this share of their matches."""
    pairs = head_to_head(store, game, rule_set)
    table = Table(title="head to head: how often the row bot finished ahead of the column bot",
                  title_justify="left")
    table.add_column("")
    for r in rows:
        table.add_column(safe_text(r.bot), justify="right")
    for a in rows:
        cells = []
        for b in rows:
            ahead, together = pairs.get((a.bot_id, b.bot_id), (0, 0))
            cells.append("" if a.bot_id == b.bot_id else f"{ahead / together:.0%} ({together})" if together else "-")
        table.add_row(safe_text(a.bot), *cells)
    return table


def seats_table(store: Store, game: str, rule_set: str = "") -> Table:
    table = Table(title="win share per seat", title_justify="left")
    for name in ("players", "seat", "matches", "wins", "win share"):
        table.add_column(name, justify="right")
    for size, seats in seat_shares(store, game, rule_set).items():
        for s in seats:
            share = s["win_share"]
            table.add_row(str(size), str(s["seat"]), str(s["matches"]), str(s["wins"]),
                          f"{share:.0%}" if share is not None else "-")
    return table


class LiveView:
    """A progress bar over the run's budget and the standings, redrawn as
    matches finish."""

    def __init__(self, store: Store, game: str, budget: int, *, console: Any = None, rule_set: str = "") -> None:
        self.store = store
        self.game = game
        self.rule_set = rule_set
        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
        )
        self.task = self.progress.add_task("matches", total=budget, note="")
        self.live = Live(self._render(), console=console, refresh_per_second=4, transient=True)
        self._drawn = 0.0
        self._pairs: list[PairStatus] = []
        self._width = console.width if console is not None else None

    def _render(self) -> RenderableType:
        rows = standings(self.store, self.game, rule_set=self.rule_set)
        return Group(self.progress, standings_table(rows, f"{heading(self.game, self.rule_set)}, live", self._pairs,
                                                    width=self._width,
                                                    set_size=mean_set_size(self.store, self.game, self.rule_set)))

    def __enter__(self) -> "LiveView":
        self.live.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.live.__exit__(*exc)

    def update(self, status: RunStatus) -> None:
        note = f"running {status.running}"
        if status.failed:
            note += f", {status.failed} failed (retried)"
        if status.stable:
            note += ", stable"
        self.progress.update(self.task, completed=status.played, note=note)
        self._pairs = status.pairs
        now = time.monotonic()
        if now - self._drawn >= LIVE_REFRESH:
            self._drawn = now
            self.live.update(self._render())


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"[{low:+.1f}, {high:+.1f}]"


def game_figures_table(store: Store, game: str, rows: Sequence[Standing], rule_set: str = "") -> Table | None:
    """What the game's results mean beyond the places, beside the standings
    (ladder.rating.game_figures): a poker bot's chips per 100 hands with
    their 95 % interval; a Saboteur bot's rounds and team rating in each
    role, and the role its place rests on. None for another game, or
    before any such result."""
    rates = score_rates(store, game, rule_set)
    if rates:
        first = next(iter(rates.values()))
        table = Table(title=f"{first.score} per {first.per} hands (95 % interval over duplicate sets)",
                      title_justify="left", box=box.SIMPLE_HEAD)
        for header in ("#", "bot", f"{first.score}/{first.per}", "95 % interval", "sets", "hands"):
            table.add_column(header, justify="left" if header == "bot" else "right", no_wrap=True)
        for r in rows:
            rate = rates.get(r.bot_id)
            if rate is not None:
                table.add_row(str(r.rank), safe_text(r.bot), Text(f"{rate.rate:+.1f}", style="bold"),
                              _interval(rate.low, rate.high), str(rate.sets), str(rate.deals))
        return table
    records = role_records(store, game, rule_set)
    if not records:
        return None
    resting = rests_on([r.bot_id for r in rows], records)
    table = Table(title="by role (roles revealed at each round's end, S-6.2); team rating per role",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for header in ("#", "bot", *(f"{ROLE_TITLES[role]}\n{part}" for role in ROLES
                                 for part in ("rounds", "won", "μ−3σ")), "rank\nrests on"):
        table.add_column(header, justify="left" if header in ("bot", "rank\nrests on") else "right", no_wrap=True)
    for r in rows:
        roles = records.get(r.bot_id)
        if roles is None:
            continue
        cells: list[RenderableType] = [str(r.rank), safe_text(r.bot)]
        for role in ROLES:
            record = roles[role]
            share = f" ({record.win_share:.0%})" if record.win_share is not None else ""
            cells += [str(record.rounds), f"{record.won}{share}", f"{record.mu - 3 * record.sigma:.2f}"]
        rest = resting.get(r.bot_id)
        cells.append(f"{ROLE_TITLES[rest]} only" if rest else "")
        table.add_row(*cells)
    return table


def score_pairs_table(store: Store, game: str, rows: Sequence[Standing], rule_set: str = "") -> Table | None:
    """`--h2h` of a game ranked by a score: the row bot's chips per 100 hands
    in the matches it shared with the column bot (heads-up: what it won from
    it); None for another game."""
    rates = pair_score_rates(store, game, rule_set)
    if not rates:
        return None
    first = next(iter(rates.values()))
    table = Table(title=f"head to head: the row's {first.score} per {first.per} hands against the column",
                  title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("bot", no_wrap=True)
    for r in rows:
        table.add_column(safe_text(r.bot), justify="right", no_wrap=True)
    for a in rows:
        cells: list[RenderableType] = [safe_text(a.bot)]
        for b in rows:
            rate = rates.get((a.bot_id, b.bot_id))
            cells.append("" if rate is None else f"{rate.rate:+.1f} ({rate.sets})")
        table.add_row(*cells)
    return table
