"""The report's ordinal ranking: Kemeny-Young beside TrueSkill, and where they differ.

Made from the parts every report has (the standings in TrueSkill's order
and the head-to-head counts, as `referee table --json --h2h` gives them),
so a report of a local store and one of a ladder service
(`referee report --server`) show the same (ladder.rating.ordinal).
"""

from __future__ import annotations

from typing import Any

from ladder.rating.ordinal import EXACT_LIMIT, disagreements, ordinal_ranking
from referee.untrusted import safe_line


def ordinal_json(table: dict[str, Any]) -> dict[str, Any]:
    """The ordinal order of the standings' bots that have played, each
    bot's place by both rankings, and the pairs they order differently
    (with the head-to-head count that decides it)."""
    played = [row for row in table["standings"] if row["matches"] > 0]
    ids = {row["bot"]: row["bot_id"] for row in played}
    labels = {row["bot_id"]: f"{safe_line(row['bot'])} {safe_line(row['version'])}" for row in played}
    counts = {(ids[p["bot"]], ids[p["opponent"]]): (p["ahead"], p["together"])
              for p in table.get("head_to_head", []) if p["bot"] in ids and p["opponent"] in ids}
    by_rating = [row["bot_id"] for row in played]
    ranking = ordinal_ranking(by_rating, counts)
    return {
        "method": ranking.method,
        "exact_limit": EXACT_LIMIT,
        "agreement": ranking.agreement,
        "rows": [{"bot": labels[b], "trueskill": by_rating.index(b) + 1, "ordinal": place}
                 for place, b in enumerate(ranking.order, 1)],
        "disagree": [{"above": labels[a], "below": labels[b], "ahead": counts.get((b, a), (0, 0))[0],
                      "behind": counts.get((a, b), (0, 0))[0], "together": counts.get((a, b), (0, 0))[1]}
                     for a, b in disagreements(by_rating, ranking.order)],
    }
