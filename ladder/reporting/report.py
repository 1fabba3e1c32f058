"""The ladder report: what a page shows of a game's ladder, as data and charts.

Everything is read through the code `referee table --json` uses
(`ladder.rating.standings.to_json`: standings, head-to-head, seats) and the
store's own records of rating history and matches; nothing is computed
twice. A report shows one rule set of the game (its ratings are kept
apart from the others'), names it in its title and lists the other rule
sets that have matches. What this module adds is what a page needs on top: the rating
history per bot, intervals on the head-to-head shares and the seat win
shares, the recent matches with their seats, and the charts' data
(`charts`: numbers only; the page's own script, ladder/reporting/static/charts.js,
draws them as SVG, so the page carries no chart library).

The parts are read (`to_json`, `history_points`, `recent_matches`) apart
from the page's making (`build_report`), so a ladder service's API can
send them and `referee report --server` makes the same page from them.

Intervals are 95 % Wilson score intervals of a proportion (they stay inside
0..1 and are honest for small counts, unlike the normal approximation).
The rating band is mu +- 3 sigma: its lower edge is the conservative rating
the standings rank by. The rating history is thinned to at most
`HISTORY_STRETCHES` + 1 points per bot, so a report's size does not grow
with the ladder's length.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ladder.rating.intervals import wilson
from ladder.rating.standings import to_json
from ladder.reporting.ordinal_view import ordinal_json
from ladder.store.database import Store, now_iso
from ladder.store.rule_set_names import heading
from ladder.tournament.commitment import load as load_tournament
from ladder.tournament.results import tournament_json
from referee.games.rule_sets import describe
from referee.untrusted import safe_line

BAND_SIGMAS = 3
"""The rating history's band: mu +- 3 sigma, down to the conservative rating."""
RECENT_MATCHES = 20
"""How many of the latest matches the report lists."""
HISTORY_STRETCHES = 400
"""The rating history keeps, per bot, its start and its last rating in each
of this many equal stretches of the ladder's matches: a chart is at most
about 1,300 px wide, so a stretch is 3 px or less and the curve looks the
same. Without it the history grows with every match: for 2,000 matches of
8 bots, 124 KB of the page (7,150 points), 43 KB thinned (2,491 points)."""
DIGITS = 2
"""Ratings in the charts' data are rounded to the decimals the page shows
(with more, the page's rounding of a rounded number could differ from the
table's by 0.01)."""


def _label(row: dict[str, Any]) -> str:
    return f"{safe_line(row['bot'])} {safe_line(row['version'])}"


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


def thinned(points: Sequence[dict[str, Any]], last_match: int,
            stretches: int = HISTORY_STRETCHES) -> list[dict[str, Any]]:
    """One bot's history points (`history_points`'s form, in match order)
    as a chart draws them: the start and the last point in each of
    `stretches` equal stretches of matches 1..`last_match`; all of them
    when there are no more than that."""
    if len(points) <= stretches + 1:
        return list(points)
    kept: dict[int, dict[str, Any]] = {}
    for point in points:
        kept[-(-point["match"] * stretches // last_match)] = point  # stretch 0 holds the start alone
    return [kept[stretch] for stretch in sorted(kept)]


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


def _history_chart(points: dict[int, list[dict[str, Any]]], standings: Sequence[dict[str, Any]],
                   last_match: int) -> dict[str, Any]:
    """Each ranked bot that has played, in the standings' order: its
    [match, mu, sigma] after each of its matches, thinned, from its
    starting rating just before its first match (a bot that came later
    has no line before it came)."""
    series = []
    for row in standings:
        shown = thinned(points.get(row["bot_id"], []), last_match)
        if len(shown) > 1:
            start = {**shown[0], "match": shown[1]["match"] - 1}
            series.append({"bot": _label(row), "points": [
                [p["match"], round(p["mu"], DIGITS), round(p["sigma"], DIGITS)] for p in [start, *shown[1:]]]})
    return {"band_sigmas": BAND_SIGMAS, "matches": last_match, "series": series}


def _h2h_chart(standings: Sequence[dict[str, Any]], head_to_head: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Rows: the bot; columns: its opponent (both in the standings' order);
    each cell how often the row's bot finished ahead, of how many matches
    together, with the interval of that share."""
    index = {row["bot"]: i for i, row in enumerate(standings)}
    cells = []
    for pair in head_to_head:
        low, high = wilson(pair["ahead"], pair["together"])
        cells.append({"row": index[pair["bot"]], "col": index[pair["opponent"]], "ahead": pair["ahead"],
                      "together": pair["together"], "share": pair["share"], "low": low, "high": high})
    return {"bots": [_label(row) for row in standings], "cells": cells}


def _seats_chart(seats: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per table size, each seat's wins of its matches, win share (None
    without a match) and its interval."""
    return [{"size": int(size), "seats": [
        {"seat": r["seat"], "wins": r["wins"], "matches": r["matches"], "share": r["win_share"],
         **dict(zip(("low", "high"), wilson(r["wins"], r["matches"])))} for r in rows]}
        for size, rows in seats.items()]


def report_data(store: Store, game: str, rule_set: str = "") -> dict[str, Any]:
    """Everything the report page shows of one rule set's ladder of `game`
    (JSON), read from the store as of one moment (a ladder or a service may
    be writing to it: every part of the page counts the same matches)."""
    with store.snapshot():
        data = build_report(game, to_json(store, game, h2h=True, seats=True, rule_set=rule_set),
                            history_points(store, game, rule_set), recent_matches(store, game, rule_set=rule_set))
        tournament = load_tournament(store)  # a tournament's store (referee tournament): its final table too
        if tournament is not None and (tournament.game, tournament.rule_set) == (game, rule_set):
            data["tournament"] = tournament_json(store, tournament)
            data["title"] = heading(game, rule_set, f"{tournament.schedule['format']} tournament")
    return data


def build_report(game: str, table: dict[str, Any], points: dict[int, list[dict[str, Any]]],
                 recent: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The report's data from its parts, wherever they were read (the
    store, or a ladder service through its API: `referee report --server`):
    `table` as `referee table --json --h2h --seats` gives it (its rule set
    and the other rule sets' match counts among it), `points` as
    `history_points`, `recent` as `recent_matches`, all of the same rule set."""
    standings = table["standings"]
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
        "ordinal": ordinal_json(table),
        "charts": {
            "history": _history_chart(points, standings, table["matches"]),
            "h2h": _h2h_chart(standings, table["head_to_head"]),
            "seats": _seats_chart(table["seats"]),
        },
    }
