"""Seeded Gnadenlos! matches play exactly as pinned, under every rule set.

The engine's hot paths are tuned for speed (cached legal bids, reused action
values, event data built only when recorded: issue 20's "Measure"); such work
must never change what a match does. Each case plays two random matches
through the public API (`apply`, which builds every event) and digests, step
by step, who is to act, every seat's legal actions and observation, the
decision and its events, then the outcome and the final state's JSON. The
digests were taken from the engine before that tuning (commit 947afcd) and
again after it: the same.

A deliberate rules change alters them: check the change is the intended
one, then pin the new digests this test prints.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from referee.games import load_game

PINNED: dict[str, str] = {
    "base@3": "d0660cdea932282b7dc5e8b2b7113b9093f7e1a8bdca242cecff889fc67e9bdc",
    "base@4": "7701a8dc9edde677b30672cb02178bb6e62dde193cbddd143ba8d342aa1cd3bc",
    "gunfight_opt_out=on@3": "703e4819de5d644ac858a2fb900e4f9ea8e2bed4f1977572f949724fe6ee6bf2",
    "gunfight_opt_out=on@4": "d862d7266affe457e853e1d21437b2199b83b5df5349472fcbf3e696238ec3d8",
    "gunfight_opt_out=soft@3": "890c7f1169a943d3a376780375b23553ea2a602b67359c452b60210949e8503e",
    "gunfight_opt_out=soft@4": "6f331794db7e40113503810199e46e91c35f0f285f69f5734c79fa97f75c47f9",
    "auction=single,auction_buy_limit=one,auction_order=first@3": "ef6382edc77ab2bd4707cba4802fdd974a221ba61daa92881311d94070a75816",
    "auction=single,auction_buy_limit=one,auction_order=first@4": "014fb1dfe8244e48f53e2b37785f8f1355e4629b23f267e6c385f71f5ef57651",
    "auction=single,auction_buy_limit=many,auction_order=best@3": "6cb94378f016ed317878d4fbf27c8df76050bb5160e49a3ed5d333796e63ca5c",
    "auction=single,auction_buy_limit=many,auction_order=best@4": "109a6debb5324c0d64f69a278247cb62d06005f529d2379dd7d580051c9af5cf",
    "auction=single,auction_order=best,gunfight_opt_out=on,setup=advanced@3": "d9d1c87c27b7c41984da20b4920c5d3267875f73020d3eb13a9df908ad0a7333",
    "auction=single,auction_order=best,gunfight_opt_out=on,setup=advanced@4": "cb41456ef2097626eef0c1a29bc3f7ad5ef05c44cc7c2e067122f224853b2160",
}
"""Rule set (`base`, or its options as `name=value` joined by commas) at 3
and 4 seats -> the digest of its two matches (seeds 11 and 12)."""

RULE_SETS: tuple[dict[str, str], ...] = (
    {},
    {"gunfight_opt_out": "on"},
    {"gunfight_opt_out": "soft"},  # G-5.11
    {"auction": "single", "auction_order": "first", "auction_buy_limit": "one"},  # G-6.7
    {"auction": "single", "auction_order": "best", "auction_buy_limit": "many"},
    {"auction": "single", "auction_order": "best", "setup": "advanced", "gunfight_opt_out": "on"},
)


def _text(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True).encode("utf-8")


def _digest(variant: dict[str, str], seats: int) -> str:
    game = load_game("gnadenlos")
    digest = hashlib.sha256()
    for seed in (11, 12):
        rng = random.Random(seed)
        state = load_game(game.name, variant).new_state(seats, seed)
        while not state.is_terminal():
            acting = sorted(state.to_act())
            legal = {seat: state.legal_actions(seat) for seat in range(seats)}
            digest.update(_text([acting, [[str(a) for a in legal[seat]] for seat in range(seats)]]))
            digest.update(_text([state.observe(seat).to_json() for seat in range(seats)]))
            decision = {seat: rng.choice(legal[seat]) for seat in acting}
            digest.update(_text([str(decision[seat]) for seat in acting]))
            digest.update(_text([event.to_json() for event in state.apply(decision)]))
        outcome = state.outcome()
        digest.update(_text([outcome.reason, list(outcome.ranks), outcome.detail, state.to_json()]))
    return digest.hexdigest()


def _rule_set(variant: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(variant.items())) or "base"


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("variant", RULE_SETS, ids=_rule_set)
def test_seeded_matches_play_as_pinned(variant: dict[str, str], seats: int) -> None:
    name = f"{_rule_set(variant)}@{seats}"
    got = _digest(variant, seats)
    assert got == PINNED.get(name), f"the engine plays {name} differently now: if intended, pin {name!r}: {got!r}"
