"""A rule set is a value (issue 25, part 2): made and checked once by its
game, immutable and hashable, with one text form that the ladder's store,
the command line and `referee check` share, and the same text the store
has always keyed ratings by (so existing ladder stores keep working)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from ladder.store.skill import Skill
from ladder.store.tasks import PlayedMatch
from ladder_support import add_bots, open_store
from referee.games import load_game

# (game, options given, the store's key text, the full options a record's header carries), as
# the code before rule sets were values wrote them (rule_sets.rule_set and Game.check_variant at
# commit 1a9b26f): the keys of every existing ladder store and the headers of every old record.
BEFORE = [
    ("gnadenlos", {}, "", {"setup": "standard", "gunfight_opt_out": "off", "auction": "standard"}),
    ("gnadenlos", {"setup": "standard", "gunfight_opt_out": "off"}, "",
     {"setup": "standard", "gunfight_opt_out": "off", "auction": "standard"}),
    ("gnadenlos", {"auction": "single"}, "auction=single",
     {"setup": "standard", "gunfight_opt_out": "off", "auction": "single", "auction_order": "first",
      "auction_buy_limit": "one"}),
    ("gnadenlos", {"auction": "single", "auction_order": "first", "auction_buy_limit": "one"}, "auction=single",
     {"setup": "standard", "gunfight_opt_out": "off", "auction": "single", "auction_order": "first",
      "auction_buy_limit": "one"}),
    ("gnadenlos", {"auction_order": "best", "auction": "single", "gunfight_opt_out": "soft", "setup": "advanced"},
     "auction=single,auction_order=best,gunfight_opt_out=soft,setup=advanced",
     {"setup": "advanced", "gunfight_opt_out": "soft", "auction": "single", "auction_order": "best",
      "auction_buy_limit": "one"}),
    ("gnadenlos", {"auction": "single", "auction_buy_limit": "many"}, "auction=single,auction_buy_limit=many",
     {"setup": "standard", "gunfight_opt_out": "off", "auction": "single", "auction_order": "first",
      "auction_buy_limit": "many"}),
    ("saboteur", {}, "", {"sabotaged_diggers_lose_share": "off"}),
    ("saboteur", {"sabotaged_diggers_lose_share": "on"}, "sabotaged_diggers_lose_share=on",
     {"sabotaged_diggers_lose_share": "on"}),
    ("leduc", {}, "", {}),
]


@pytest.mark.parametrize(("game", "given", "text", "full"), BEFORE)
def test_the_text_form_and_the_options_are_what_stores_and_records_already_hold(
        game: str, given: dict[str, str], text: str, full: dict[str, str]) -> None:
    rule_set = load_game(game).make_rule_set(given)
    assert str(rule_set) == text
    assert list(rule_set.options.items()) == list(full.items())  # the record header's order too
    assert load_game(game).parse_rule_set(text) == rule_set  # the text reads back
    assert load_game(game, text).rule_set == rule_set == load_game(game, given).rule_set


def test_a_rule_set_is_an_immutable_hashable_value() -> None:
    game = load_game("gnadenlos")
    one = game.make_rule_set({"auction": "single", "gunfight_opt_out": "soft"})
    same = game.parse_rule_set("gunfight_opt_out=soft, auction=single")
    assert one == same and hash(one) == hash(same) and len({one, same, game.rule_set}) == 2
    assert pickle.loads(pickle.dumps(one)) == one
    with pytest.raises(AttributeError):
        one.game = "saboteur"  # type: ignore[misc]
    assert one != load_game("saboteur").rule_set and game.rule_set != load_game("leduc").rule_set
    assert one.tags == ("gnadenlos:auction=single", "gnadenlos:gunfight_opt_out=soft")
    assert one.undeclared(["gnadenlos:auction=single"]) == ("gnadenlos:gunfight_opt_out=soft",)
    assert game.rule_set.is_base and game.rule_set.describe() == "base rules" and one.describe() == str(one)


def test_a_game_is_loaded_with_its_rule_set_and_plays_it() -> None:
    base = load_game("gnadenlos")
    single = load_game("gnadenlos", "auction=single")
    assert base.rule_set.is_base and str(single.rule_set) == "auction=single"
    assert load_game("gnadenlos", {}) is base and base.configure(base.rule_set) is base
    assert single.new_state(4, 9).to_json()["variant"]["auction"] == "single"
    assert base.new_state(4, 9).to_json()["variant"]["auction"] == "standard"  # the registered game is untouched
    with pytest.raises(ValueError, match="a rule set of saboteur does not configure gnadenlos"):
        base.configure(load_game("saboteur").rule_set)


@pytest.mark.parametrize(("text", "named"), [
    ("auction=twice", ["auction must be one of ['standard', 'single'], not 'twice'"]),
    ("colour=red", ["no variant option 'colour'", "setup=standard|advanced", "auction=standard|single"]),
    ("auction_order=best", ["auction_order applies only with auction=single", "auction_order=first|best (with auction=single)"]),
])
def test_a_bad_option_is_refused_naming_it_and_what_is_allowed(text: str, named: list[str]) -> None:
    with pytest.raises(ValueError) as error:
        load_game("gnadenlos", text)
    for part in named:
        assert part in str(error.value), str(error.value)


def test_the_store_keys_a_match_by_the_same_text_as_before(tmp_path: Path) -> None:
    """Matches recorded now land under the rule set keys that matches
    recorded before rule sets were values hold (BEFORE): an existing
    store's ratings, history and reports go on under the same names."""
    with open_store(tmp_path) as store:
        ids = tuple(add_bots(store, ["a", "b", "c"]))
        for index, (game, given, _, _) in enumerate(BEFORE):
            if game == "gnadenlos":
                store.record_match(
                    PlayedMatch(match_id=f"m{index}", game=game, set_id="s", rotation=0, seed=index, variant=given,
                                bot_ids=ids, ranks=(0, 1, 2), forfeits=(None,) * 3, strikes=(0,) * 3,
                                end_reason="goal", decisions=3, seconds=0.1, record=None),
                    (0, 1, 2), [Skill(25.0, 8.0)] * 3, [Skill(25.0, 8.0)] * 3)
        expected: dict[str, int] = {}
        for game, _, text, _ in BEFORE:
            if game == "gnadenlos":
                expected[text] = expected.get(text, 0) + 1
        assert store.rule_sets("gnadenlos") == dict(sorted(expected.items()))

