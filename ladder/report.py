"""The ladder report: what a page shows of a game's ladder, as data and plots.

Everything is read through the code `referee table --json` uses
(`ladder.standings.to_json`: standings, head-to-head, seats) and the
store's own records of rating history and matches; nothing is computed
twice. A report shows one rule set of the game (its ratings are kept
apart from the others'), names it in its title and lists the other rule
sets that have matches. What this module adds is what a page needs on top: the rating
history per bot, intervals on the head-to-head shares and the seat win
shares, the recent matches with their seats, and the plots, as Plotly
figure specifications (JSON that plotly.js draws; the page inlines
plotly.js from the `plotly` package, so it needs no network).

The parts are read (`to_json`, `history_points`, `recent_matches`) apart
from the page's making (`build_report`), so a ladder service's API can
send them and `referee report --server` makes the same page from them.

Intervals are 95 % Wilson score intervals of a proportion (they stay inside
0..1 and are honest for small counts, unlike the normal approximation).
The rating band is mu +- 3 sigma: its lower edge is the conservative rating
the standings rank by.
"""

from __future__ import annotations

import html
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ladder.rule_set_names import heading
from ladder.standings import to_json
from ladder.store import Store, now_iso
from referee.games.rule_sets import describe
from referee.untrusted import safe_line

Z95 = 1.959964
"""The standard normal quantile of a two-sided 95 % interval."""
BAND_SIGMAS = 3
"""The rating history's band: mu +- 3 sigma, down to the conservative rating."""
RECENT_MATCHES = 20
"""How many of the latest matches the report lists."""
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
"""One colour per bot in the rating history (plotly's own cycle), its band the same colour, faint."""
PLOT_CONFIG = {"displaylogo": False, "responsive": True, "modeBarButtonsToRemove": ["sendDataToCloud"]}
"""plotly.js options: no logo link to the outside world."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) without data."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _label(row: dict[str, Any]) -> str:
    return f"{safe_line(row['bot'])} {safe_line(row['version'])}"


def _plot_text(text: str) -> str:
    """A name for a plot: plotly.js reads a few HTML tags (links among them)
    in its labels, so a bot's name is escaped for it."""
    return html.escape(text, quote=False)


def history_points(store: Store, game: str, rule_set: str = "") -> dict[int, list[dict[str, Any]]]:
    """Per bot id: after which of the rule set's matches (1 = the first) its
    rating changed, and mu and sigma after each; the start (match 0) at the
    rating before its first match. What the service's RatingHistory sends."""
    order = {row["match_id"]: index + 1 for index, row in enumerate(store.matches(game, rule_set))}
    by_bot: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in store.rating_history(game, rule_set):
        by_bot[row["bot_id"]].append(row)
    return {
        bot_id: [{"match": 0, "mu": rows[0]["mu_before"], "sigma": rows[0]["sigma_before"]},
                 *({"match": order[r["match_id"]], "mu": r["mu_after"], "sigma": r["sigma_after"]} for r in rows)]
        for bot_id, rows in by_bot.items()
    }


def rating_history(points: dict[int, list[dict[str, Any]]],
                   standings: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history of each ranked bot, in the standings' order, named for a plot."""
    return [{"bot": _plot_text(_label(standing)), "bot_id": standing["bot_id"],
             "points": points.get(standing["bot_id"], [])} for standing in standings]


def recent_matches(store: Store, game: str, limit: int = RECENT_MATCHES, rule_set: str = "") -> list[dict[str, Any]]:
    """The latest matches of one rule set, newest first, as the store holds them (what the
    service's RecentMatches sends): when, who sat where (name, version) and
    finished where (rated place, 0 = first), how it ended, whether its record
    is kept, and whether its duplicate set is finished (no seat rotation of
    its deal still to be played)."""
    bots = {b.bot_id: b for b in store.bots()}
    pending = {planned["set_id"] for planned in store.planned(game, rule_set)}
    matches = store.matches(game, rule_set)
    latest = list(enumerate(matches, 1))[-limit:] if limit > 0 else []
    wanted = {match["match_id"] for _, match in latest}
    seats: dict[str, list[Any]] = defaultdict(list)
    for row in store.seat_rows(game, rule_set):
        if row.match_id in wanted:
            seats[row.match_id].append(row)
    out = []
    for number, match in reversed(latest):
        rows = sorted(seats[match["match_id"]], key=lambda r: r.seat)
        out.append({
            "number": number,
            "match_id": match["match_id"],
            "finished_at": match["finished_at"],
            "end_reason": match["end_reason"],
            "decisions": match["decisions"],
            "seats": [{"seat": r.seat, "bot": bots[r.bot_id].name if r.bot_id in bots else f"#{r.bot_id}",
                       "version": bots[r.bot_id].version if r.bot_id in bots else "", "place": r.place,
                       "forfeit": r.forfeit or ""} for r in rows],
            "record_kept": match["record_path"] is not None,
            "set_finished": match["set_id"] not in pending,
        })
    return out


def _shown_match(match: dict[str, Any]) -> dict[str, Any]:
    """A recent match as the page lists it: every bot's string made safe,
    places from 1."""
    return {
        **match,
        "match_id": safe_line(match["match_id"]),
        "end_reason": safe_line(match["end_reason"]),
        "seats": [{"seat": s["seat"], "bot": f"{safe_line(s['bot'])} {safe_line(s['version'])}".rstrip(),
                   "place": s["place"] + 1, "forfeit": safe_line(s["forfeit"]) if s["forfeit"] else None}
                  for s in match["seats"]],
    }


def _history_figure(series: list[dict[str, Any]]) -> dict[str, Any]:
    traces: list[dict[str, Any]] = []
    for index, bot in enumerate(series):
        points = bot["points"]
        if not points:
            continue
        x = [p["match"] for p in points]
        upper = [p["mu"] + BAND_SIGMAS * p["sigma"] for p in points]
        lower = [p["mu"] - BAND_SIGMAS * p["sigma"] for p in points]
        group = f"bot{index}"
        colour = COLOURS[index % len(COLOURS)]
        band = f"rgba({int(colour[1:3], 16)},{int(colour[3:5], 16)},{int(colour[5:7], 16)},0.15)"
        traces.append({"type": "scatter", "mode": "lines", "x": x, "y": upper, "line": {"width": 0, "color": colour},
                       "legendgroup": group, "showlegend": False, "hoverinfo": "skip", "name": bot["bot"]})
        traces.append({"type": "scatter", "mode": "lines", "x": x, "y": lower, "line": {"width": 0, "color": colour},
                       "fill": "tonexty", "fillcolor": band, "legendgroup": group, "showlegend": False,
                       "hoverinfo": "skip", "name": bot["bot"]})
        traces.append({"type": "scatter", "mode": "lines+markers", "x": x, "y": [p["mu"] for p in points],
                       "name": bot["bot"], "legendgroup": group, "marker": {"size": 4}, "line": {"color": colour},
                       "customdata": [p["sigma"] for p in points],
                       "hovertemplate": "%{fullData.name}<br>after match %{x}: μ %{y:.2f} ± 3σ "
                                        "(σ %{customdata:.2f})<extra></extra>"})
    return {"data": traces, "layout": {
        "xaxis": {"title": {"text": "match of the ladder"}, "rangemode": "tozero"},
        "yaxis": {"title": {"text": "rating μ (band: μ ± 3σ)"}},
        "margin": {"t": 10, "r": 10}, "height": 380, "legend": {"orientation": "h", "y": -0.2},
        "hovermode": "closest"}}


def _h2h_figure(bots: list[str], pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Rows: the bot; columns: its opponent; colour: how often the row bot
    finished ahead; text: the counts; hover: the interval too."""
    index = {bot: i for i, bot in enumerate(bots)}
    z: list[list[float | None]] = [[None] * len(bots) for _ in bots]
    text = [[""] * len(bots) for _ in bots]
    hover = [["" for _ in bots] for _ in bots]
    for pair in pairs:
        r, c = index[pair["bot"]], index[pair["opponent"]]
        z[r][c] = pair["share"]
        text[r][c] = f"{pair['ahead']}/{pair['together']}"
        hover[r][c] = (f"{pair['bot']} ahead of {pair['opponent']}: {pair['ahead']} of {pair['together']} "
                       f"({pair['share']:.0%}, 95 % interval {pair['low']:.0%}–{pair['high']:.0%})")
    return {"data": [{"type": "heatmap", "x": bots, "y": bots, "z": z, "text": text, "customdata": hover,
                      "texttemplate": "%{text}", "hovertemplate": "%{customdata}<extra></extra>",
                      "zmin": 0, "zmax": 1, "colorscale": "RdBu", "reversescale": False,
                      "colorbar": {"title": {"text": "ahead"}, "tickformat": ".0%"}}],
            "layout": {"xaxis": {"title": {"text": "opponent"}, "side": "top", "automargin": True},
                       "yaxis": {"title": {"text": "bot"}, "autorange": "reversed", "automargin": True},
                       "margin": {"t": 40, "r": 10}, "height": 120 + 40 * len(bots)}}


def _seats_figure(seats: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    traces = []
    for size, rows in seats.items():
        shares = [r["win_share"] or 0.0 for r in rows]
        traces.append({
            "type": "bar", "name": f"{size} players", "x": [f"seat {r['seat']}" for r in rows], "y": shares,
            "error_y": {"type": "data", "symmetric": False,
                        "array": [r["high"] - s for r, s in zip(rows, shares)],
                        "arrayminus": [s - r["low"] for r, s in zip(rows, shares)]},
            "customdata": [[r["wins"], r["matches"], r["low"], r["high"]] for r in rows],
            "hovertemplate": "%{x} at %{fullData.name}: won %{customdata[0]} of %{customdata[1]} "
                             "(%{y:.0%}, 95 % interval %{customdata[2]:.0%}–%{customdata[3]:.0%})<extra></extra>"})
    shapes = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 1 / int(size), "y1": 1 / int(size),
               "line": {"dash": "dot", "width": 1}} for size in seats]
    return {"data": traces, "layout": {"barmode": "group", "yaxis": {"title": {"text": "win share"},
                                                                       "tickformat": ".0%", "range": [0, 1]},
                                       "shapes": shapes, "margin": {"t": 10, "r": 10}, "height": 340}}


def report_data(store: Store, game: str, rule_set: str = "") -> dict[str, Any]:
    """Everything the report page shows of one rule set's ladder of `game` (JSON), read from the store."""
    return build_report(game, to_json(store, game, h2h=True, seats=True, rule_set=rule_set),
                        history_points(store, game, rule_set), recent_matches(store, game, rule_set=rule_set))


def build_report(game: str, table: dict[str, Any], points: dict[int, list[dict[str, Any]]],
                 recent: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The report's data from its parts, wherever they were read (the
    store, or a ladder service through its API: `referee report --server`):
    `table` as `referee table --json --h2h --seats` gives it (its rule set
    and the other rule sets' match counts among it), `points` as
    `history_points`, `recent` as `recent_matches`, all of the same rule set."""
    standings = table["standings"]
    label = {row["bot"]: _plot_text(_label(row)) for row in standings}
    pairs = [{**pair, "bot": label[pair["bot"]], "opponent": label[pair["opponent"]],
              **dict(zip(("low", "high"), wilson(pair["ahead"], pair["together"])))}
             for pair in table["head_to_head"]]
    for rows in table["seats"].values():
        for row in rows:
            row["low"], row["high"] = wilson(row["wins"], row["matches"])
    history = rating_history(points, standings)
    bots = [_plot_text(_label(row)) for row in standings]
    rule_set = table["rule_set"]
    return {
        "game": game,
        "title": heading(game, rule_set),
        "rule_set": rule_set,
        "other_rule_sets": [{"rule_set": name, "name": describe(name), "matches": count}
                            for name, count in table["rule_sets"].items() if name != rule_set],
        "generated": now_iso(),
        "table": table,
        "recent": [_shown_match(match) for match in recent],
        "figures": {
            "history": _history_figure(history),
            "h2h": _h2h_figure(bots, pairs),
            "seats": _seats_figure(table["seats"]),
        },
        "plot_config": PLOT_CONFIG,
    }
