"""Standings: ranking order, head-to-head counts, seat shares, JSON."""

from __future__ import annotations

from pathlib import Path

from ladder.rating.ratings import make_env, rate_match, rated_places
from ladder.rating.standings import head_to_head, seat_shares, standings, to_json
from ladder.store.database import Store
from ladder.store.skill import Skill
from ladder.store.tasks import PlayedMatch
from ladder_support import add_bots, open_store


def store_match(store: Store, match_id: str, bot_ids: tuple[int, ...], ranks: tuple[int, ...],
                forfeits: tuple[str | None, ...] | None = None) -> None:
    env = make_env()
    forfeits = forfeits or tuple(None for _ in bot_ids)
    ratings = store.ratings("gnadenlos")
    before = [ratings.get(b, Skill(env.mu, env.sigma)) for b in bot_ids]
    places = rated_places(ranks, forfeits)
    played = PlayedMatch(match_id=match_id, game="gnadenlos", set_id="s", rotation=0, seed=1, variant={},
                         bot_ids=bot_ids, ranks=ranks, forfeits=forfeits, strikes=(0,) * len(bot_ids),
                         end_reason="goal", decisions=1, seconds=0.1, record=None)
    store.record_match(played, places, before, rate_match(env, before, places))


def test_head_to_head_seats_and_rows(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        a, b, c = add_bots(store, ["a", "b", "c"])
        store_match(store, "m1", (a, b, c), (0, 1, 2))
        store_match(store, "m2", (b, c, a), (1, 2, 0))
        store_match(store, "m3", (c, a, b), (0, 2, 1), forfeits=(None, "crashed", None))
        pairs = head_to_head(store, "gnadenlos")
        assert pairs[(a, b)] == (2, 3) and pairs[(b, a)] == (1, 3)
        assert pairs[(a, c)] == (2, 3) and pairs[(c, a)] == (1, 3)
        shares = seat_shares(store, "gnadenlos")[3]
        assert [s["wins"] for s in shares] == [2, 0, 1] and all(s["matches"] == 3 for s in shares)

        rows = standings(store, "gnadenlos")
        by_name = {r.bot: r for r in rows}
        assert by_name["a"].wins == 2 and by_name["a"].forfeits == 1
        assert by_name["a"].average_place == (1 + 1 + 3) / 3
        assert [r.rank for r in rows] == [1, 2, 3]
        assert [r.conservative for r in rows] == sorted((r.conservative for r in rows), reverse=True)

        data = to_json(store, "gnadenlos", h2h=True, seats=True)
        assert data["matches"] == 3 and len(data["head_to_head"]) == 6
        assert data["seats"]["3"][0]["win_share"] == 2 / 3


def test_a_fresh_ladder_lists_its_bots_at_the_initial_rating(tmp_path: Path) -> None:
    with open_store(tmp_path) as store:
        add_bots(store, ["x", "y"])
        rows = standings(store, "gnadenlos")
        assert [(r.matches, r.average_place, r.last_played) for r in rows] == [(0, None, None)] * 2
        assert rows[0].p_above_next == 0.5
