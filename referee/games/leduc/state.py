"""The flow of a Leduc poker match (rules/leduc.md): antes, the deal, two
betting rounds around the public card, and the pot's award.

The bookkeeping is OpenSpiel's `LeducState` (leduc_poker.cc) variable for
variable — stakes, calls and raises of the round, each seat's contribution,
the seats still in — so that every rule has the same trigger as there: a
round ends when every seat still in has called with no raise, or every seat
still in but the last raiser has called since it (L-3.6); the match ends
when one seat is left (L-5.1) or round 2's betting ends (L-5.2).

Chance (L-2.3): the deck is shuffled once, at setup, by the `deck` stream
derived from the match seed; the private cards are dealt from its top, seat
0 first, and the public card is the next one. The state keeps the undealt
cards in order (top last), so nothing is drawn after setup.

Knowledge follows from where a card lies, since no card is ever looked at
or shown: a private card is known to its holder, the public card to every
seat, a deck card to nobody.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from referee.games.base import (
    JSON, Action, ChanceStream, Event, Outcome, Seat, State, audiences, derive_seed, ranks_from_keys,
)
from referee.games.leduc.actions import CALL, FOLD, MOVES, RAISE, LeducAction
from referee.games.leduc.cards import deck_size, hand_strength
from referee.games.leduc.config import ANTE, FIRST_PLAYER, MAX_PLAYERS, MAX_RAISES, RAISE_AMOUNTS, STARTING_CHIPS
from referee.games.leduc.observation import Bet, LeducObservation

DECK_STREAM = "deck"
"""L-2.3: the one chance stream: the shuffle at setup."""
NO_CARD = -1
FOLDS = "folds"
SHOWDOWN = "showdown"
"""The end reasons (L-5.1, L-5.2)."""

_WITH_FOLD = (FOLD, CALL, RAISE)
_WITH_FOLD_NO_RAISE = (FOLD, CALL)
_NO_FOLD = (CALL, RAISE)
_NO_FOLD_NO_RAISE = (CALL,)
NOBODY: frozenset[Seat] = frozenset()
ALONE: tuple[frozenset[Seat], ...] = tuple(frozenset((seat,)) for seat in range(MAX_PLAYERS))
"""`to_act()` of each seat: shared sets, not one built per call."""
BETS: tuple[tuple[Bet, ...], ...] = tuple(tuple(Bet(seat, move.name) for move in MOVES) for seat in range(MAX_PLAYERS))
"""The history's entries, by seat and move code (shared values)."""


class LeducState(State):
    """One Leduc poker match. Build it with `Leduc.new_state` or `state_from_json`."""

    __slots__ = ("players", "seed", "hands", "deck", "public", "round", "current", "stakes", "raises", "calls",
                 "pot", "contributions", "folded", "remaining", "history", "end_reason", "winners", "returns")

    def __init__(self, players: int, seed: int, hands: list[int], deck: list[int]) -> None:
        """The match after the antes and the deal (L-2): `hands` the private
        cards by seat, `deck` the undealt cards, top last. Seat 0 is to act."""
        self.players = players
        self.seed = seed
        self.hands = hands
        self.deck = deck
        self.public = NO_CARD
        self.round = 1
        self.current: Seat = FIRST_PLAYER  # L-3.1
        self.stakes = ANTE
        self.raises = 0
        self.calls = 0
        self.pot = ANTE * players  # L-2.1
        self.contributions = [ANTE] * players
        self.folded = [False] * players
        self.remaining = players
        self.history: tuple[list[Bet], list[Bet]] = ([], [])
        self.end_reason = ""
        self.winners: tuple[Seat, ...] = ()
        self.returns: tuple[float, ...] = ()

    # ------------------------------------------------------------ setup

    @classmethod
    def deal(cls, players: int, seed: int, events: list[Event] | None = None) -> "LeducState":
        """L-2.2, L-2.3: shuffle the deck with the seed's `deck` stream and deal
        one private card to each seat, seat 0 first, from the top."""
        deck = list(range(deck_size(players)))
        ChanceStream(derive_seed(seed, DECK_STREAM)).shuffle(deck)
        if events is not None:
            events.append(Event("deck_shuffled", {"order": list(deck)}, frozenset()))
        hands = [deck.pop() for _ in range(players)]
        state = cls(players, seed, hands, deck)
        if events is not None:
            everyone = frozenset(range(players))
            for seat, card in enumerate(hands):
                # the holder sees the card, the others only that a card was dealt
                events.append(Event("card_dealt", {"seat": seat, "card": card}, frozenset((seat,))))
                events.append(Event("card_dealt", {"seat": seat}, everyone - {seat}))
        return state

    # ------------------------------------------------------------ interface

    @property
    def num_seats(self) -> int:
        return self.players

    def to_act(self) -> frozenset[Seat]:
        return NOBODY if self.end_reason else ALONE[self.current]

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        """In OpenSpiel's order: fold (only when behind the stakes, L-3.4),
        call (always, L-3.3), raise (while the round has had fewer than two, L-3.5)."""
        if self.end_reason or seat != self.current:
            return ()
        if self.stakes > self.contributions[seat]:
            return _WITH_FOLD if self.raises < MAX_RAISES else _WITH_FOLD_NO_RAISE
        return _NO_FOLD if self.raises < MAX_RAISES else _NO_FOLD_NO_RAISE

    def _apply(self, actions: Mapping[Seat, Action], record: bool) -> list[Event]:
        seat = self.current
        move = cast(LeducAction, actions[seat])  # `apply` checked it is legal, `apply_unchecked` trusts it
        events: list[Event] = []
        self.history[self.round - 1].append(BETS[seat][move.code])
        if move is CALL:
            amount = self.stakes - self.contributions[seat]  # L-3.3: a check when 0
            self.pot += amount
            self.contributions[seat] += amount
            self.calls += 1
            if record:
                events.append(Event("called", {"seat": seat, "amount": amount}, self._everyone()))
        elif move is RAISE:  # L-3.5: match the stakes, then raise them
            raised = RAISE_AMOUNTS[self.round - 1]
            amount = self.stakes - self.contributions[seat] + raised
            self.stakes += raised
            self.pot += amount
            self.contributions[seat] += amount
            self.raises += 1
            self.calls = 0  # L-3.6: the calls that end a round are counted from the last raise
            if record:
                events.append(Event("raised", {"seat": seat, "amount": amount, "stakes": self.stakes},
                                    self._everyone()))
            self.current = self._next_in(seat + 1)  # a raise never ends a round (L-3.6)
            return events
        else:
            self.folded[seat] = True  # L-3.4
            self.remaining -= 1
            if record:
                events.append(Event("folded", {"seat": seat}, self._everyone()))
        if self._round_over() or self.remaining == 1:
            if self.round == 2 or self.remaining == 1:
                self._award(events if record else None)  # L-5.1, L-5.2
            else:
                self._second_round(events if record else None)
        else:
            self.current = self._next_in(seat + 1)  # L-3.2
        return events

    def observe(self, seat: Seat) -> LeducObservation:
        """L-6: the seat's own card, the public card once dealt, the betting; never another seat's card."""
        return LeducObservation(
            seat=seat,
            num_seats=self.players,
            card=self.hands[seat],
            public_card=None if self.public == NO_CARD else self.public,
            round=self.round,
            to_act=-1 if self.end_reason else self.current,
            stakes=self.stakes,
            raises=self.raises,
            pot=self.pot,
            contributions=tuple(self.contributions),
            folded=tuple(self.folded),
            history=(tuple(self.history[0]), tuple(self.history[1])),
            over=bool(self.end_reason),
            end_reason=self.end_reason,
            winners=self.winners,
            returns=self.returns,
        )

    def is_terminal(self) -> bool:
        return bool(self.end_reason)

    def outcome(self) -> Outcome:
        """L-5.6: places by return; equal returns share a place."""
        if not self.end_reason:
            raise ValueError("the match is not over")
        return Outcome(self.end_reason, ranks_from_keys(self.returns))

    def clone(self) -> "LeducState":
        twin = LeducState(self.players, self.seed, self.hands[:], self.deck[:])
        twin.public, twin.round = self.public, self.round
        twin.current, twin.stakes, twin.raises, twin.calls = self.current, self.stakes, self.raises, self.calls
        twin.pot, twin.remaining, twin.end_reason = self.pot, self.remaining, self.end_reason
        twin.winners, twin.returns = self.winners, self.returns
        twin.contributions, twin.folded = self.contributions[:], self.folded[:]
        twin.history = (self.history[0][:], self.history[1][:])
        return twin

    def to_json(self) -> JSON:
        from referee.games.leduc.serialize import state_to_json

        return state_to_json(self)

    # ------------------------------------------------------------ rules

    def _everyone(self) -> frozenset[Seat]:
        return audiences(self.players)[(1 << self.players) - 1]

    def _next_in(self, start: Seat) -> Seat:
        """L-3.2: the first seat from `start` on (wrapping) that has not folded."""
        for offset in range(self.players):
            seat = (start + offset) % self.players
            if not self.folded[seat]:
                return seat
        raise AssertionError("every seat has folded")

    def _round_over(self) -> bool:
        """L-3.6: every seat still in has called with no raise, or every seat
        still in but the last raiser has called since the raise."""
        if self.raises == 0:
            return self.calls == self.remaining
        return self.calls == self.remaining - 1

    def _second_round(self, events: list[Event] | None) -> None:
        """L-4.1: the public card, then round 2's betting from the first seat still in (L-3.1)."""
        self.round = 2
        self.raises = 0
        self.calls = 0
        self.public = self.deck.pop()
        self.current = self._next_in(FIRST_PLAYER)
        if events is not None:
            events.append(Event("public_card_dealt", {"card": self.public}, self._everyone()))

    def _award(self, events: list[Event] | None) -> None:
        """L-5.1 to L-5.5: the pot to the last seat in, or split among the best
        hands at the showdown; each seat's return is its chips minus 100."""
        live = [seat for seat in range(self.players) if not self.folded[seat]]
        if len(live) == 1:
            self.end_reason = FOLDS
            winners = live
        else:
            self.end_reason = SHOWDOWN
            strength = {seat: hand_strength(self.hands[seat], self.public, self.players) for seat in live}
            best = max(strength.values())
            winners = [seat for seat in live if strength[seat] == best]
        share = self.pot / len(winners)  # L-5.3: fractional chips, as OpenSpiel's doubles
        returns = []
        for seat in range(self.players):
            chips = float(STARTING_CHIPS - self.contributions[seat])
            if seat in winners:
                chips += share
            returns.append(chips - STARTING_CHIPS)
        pot, self.pot = self.pot, 0
        self.winners = tuple(winners)
        self.returns = tuple(returns)
        if events is not None:
            events.append(Event("pot_won", {"reason": self.end_reason, "winners": list(winners), "pot": pot,
                                            "returns": returns}, self._everyone()))

