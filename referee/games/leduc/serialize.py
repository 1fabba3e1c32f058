"""The JSON state format of Leduc poker (documented in docs/engine_leduc.md).

A match is fully given by its cards and its betting, so that is all the
format holds: the private cards, the public card, the undealt deck (top
last) and the moves of each round. Reading a state replays the moves
through the rules, so the stakes, the pot and who is to act are never
written by hand and can never disagree with the moves; a move that is not
legal where it stands is an error naming it.

`state_to_json` is for records, scenarios and tests, never for a bot: it
holds every hidden card.

A hand-written scenario may leave out almost everything: without "hands" the
cards are dealt from "seed" (default 0) exactly as a new match; with
"hands", the cards it does not place form the deck, highest number on top,
unless "deck" is given.
"""

from __future__ import annotations

from typing import Any

from referee.games.leduc.actions import BY_NAME
from referee.games.leduc.cards import deck_size
from referee.games.leduc.config import MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION
from referee.games.leduc.state import NO_CARD, LeducState


def state_to_json(state: LeducState) -> dict[str, Any]:
    return {
        "game": "leduc",
        "rules_version": RULES_VERSION,
        "seats": state.players,
        "seed": state.seed,
        "hands": list(state.hands),
        "public_card": None if state.public == NO_CARD else state.public,
        "deck": list(state.deck),
        "history": [[bet.move for bet in bets] for bets in state.history],
    }


def state_from_json(obj: Any) -> LeducState:
    """Rebuild a state from `state_to_json` output or a scenario.
    Raises ValueError naming what is wrong."""
    if not isinstance(obj, dict):
        raise ValueError("a Leduc poker state is a JSON object")
    try:
        seats = _int(obj["seats"], "seats")
    except KeyError:
        raise ValueError("a Leduc poker state needs \"seats\"") from None
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise ValueError(f"seats must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {seats}")
    seed = _int(obj.get("seed", 0), "seed")
    state = _dealt(obj, seats, seed)
    _replay(state, obj.get("history", [[], []]))
    if obj.get("public_card") is not None and state.public == NO_CARD:
        raise ValueError("public_card is given but the moves do not reach round 2, where it is dealt (L-4.1)")
    return state


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    return value


def _dealt(obj: dict[str, Any], seats: int, seed: int) -> LeducState:
    """The state after the deal: from the seed, or the cards the JSON places
    (every card of the deck exactly once). A public card goes on top of the
    deck, to be dealt where the moves reach round 2."""
    if "hands" not in obj:
        if obj.get("deck") is not None or obj.get("public_card") is not None:
            raise ValueError("\"deck\" and \"public_card\" need \"hands\" too (without them the seed deals)")
        return LeducState.deal(seats, seed)
    cards = deck_size(seats)
    hands = _cards(obj["hands"], "hands", cards)
    if len(hands) != seats:
        raise ValueError(f"hands must list one card per seat ({seats}), not {len(hands)}")
    public = obj.get("public_card")
    placed = hands + ([] if public is None else [_card(public, "public_card", cards)])
    if "deck" in obj:
        deck = _cards(obj["deck"], "deck", cards)
    else:
        deck = sorted(set(range(cards)) - set(placed))
    every = placed + deck
    if sorted(every) != list(range(cards)):
        twice = sorted({c for c in every if every.count(c) > 1})
        missing = sorted(set(range(cards)) - set(every))
        raise ValueError(f"the {seats}-seat deck is cards 0 to {cards - 1}, each once: "
                         f"placed twice {twice}, missing {missing}")
    if public is not None:
        deck.append(public)
    return LeducState(seats, seed, hands, deck)


def _card(value: Any, what: str, cards: int) -> int:
    card = _int(value, what)
    if not 0 <= card < cards:
        raise ValueError(f"{what}: card {card} is not one of 0 to {cards - 1}")
    return card


def _cards(value: Any, what: str, cards: int) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of cards")
    return [_card(v, what, cards) for v in value]


def _replay(state: LeducState, history: Any) -> None:
    """Play each round's moves through the rules (L-3), each checked legal."""
    if not isinstance(history, list) or len(history) != 2:
        raise ValueError("history must be two lists of moves, round 1's and round 2's")
    for round_, moves in enumerate(history, start=1):
        if not isinstance(moves, list):
            raise ValueError(f"history[{round_ - 1}] must be a list of moves")
        for number, name in enumerate(moves):
            where = f"move {number + 1} of round {round_} ({name!r})"
            if state.end_reason or state.round > round_:
                raise ValueError(f"{where} comes after round {round_} ended")
            if state.round < round_:
                raise ValueError(f"{where} comes before round 1's betting is over")
            move = BY_NAME.get(name) if isinstance(name, str) else None
            if move is None:
                raise ValueError(f"{where} is not fold, call or raise")
            if move not in state.legal_actions(state.current):
                raise ValueError(f"{where} is not legal for seat {state.current} there")
            state.apply_unchecked({state.current: move})
