"""A decision's legal actions as a person reads them: grouped, in words.

A bot gets its legal actions as a list; a person needs them sorted into
what they mean: Gnadenlos!'s bids by their amount (G-6.2) with the IOUs
each is made of, Saboteur's path cards by card with their place and
rotation on the maze (S-4.1), Leduc's fold, call and raise with what each
puts in (L-3.3 to L-3.5). A `Menu` is that: groups of options, each the
index of one legal action (what the person's answer names) and its words.
The browser page (referee.web.seat_page) and the terminal
(referee.seats.person.terminal) both show the same menu.

The words are built from the request alone — the seat's own observation
and legal actions, exactly what a bot is sent — so a menu can say nothing
its seat may not know. A seat is named by reference (`SeatRef`), never by
its name: names are chosen by bots, and each display writes them as text
in its own way. A game without words of its own gets one group of its
actions' texts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.games.base import Action
from referee.games.gnadenlos import actions as gn
from referee.games.gnadenlos.cards import ADVENTURERS, EventCard
from referee.games.leduc import actions as lp
from referee.games.leduc.cards import card_name
from referee.games.leduc.config import RAISE_AMOUNTS
from referee.games.saboteur import actions as sb
from referee.games.saboteur.render import card_text

Json = Mapping[str, Any]


@dataclass(frozen=True)
class SeatRef:
    """A seat named in an option's words (each display writes its name)."""

    seat: int


@dataclass(frozen=True)
class IouRef:
    """A Gnadenlos! IOU in an option's words (drawn in its colour: G-1)."""

    colour: int
    value: int


Part = str | SeatRef | IouRef


@dataclass(frozen=True)
class Placement:
    """Where a Saboteur path card goes (S-4.1): what the maze draws a choice as."""

    card: str
    x: int
    y: int
    turned: bool


@dataclass(frozen=True)
class Option:
    """One legal action: its index in the request's legal actions, its words."""

    index: int
    words: tuple[Part, ...]
    action: str
    """The action's own text (`str(action)`, what `parse` reads back)."""
    placement: Placement | None = None


@dataclass(frozen=True)
class Group:
    title: str
    options: tuple[Option, ...]


@dataclass(frozen=True)
class Menu:
    """A decision's legal actions for a person: a prompt, then groups."""

    prompt: str
    groups: tuple[Group, ...]

    @property
    def options(self) -> list[Option]:
        """Every option, in the order shown (the terminal numbers them so)."""
        return [option for group in self.groups for option in group.options]

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "groups": [
            {"title": group.title, "options": [_option_json(option) for option in group.options]}
            for group in self.groups]}


def _option_json(option: Option) -> dict[str, Any]:
    out: dict[str, Any] = {"i": option.index, "action": option.action,
                           "words": [_part_json(part) for part in option.words]}
    if option.placement is not None:
        p = option.placement
        out["place"] = {"card": p.card, "x": p.x, "y": p.y, "turned": p.turned}
    return out


def _part_json(part: Part) -> Any:
    if isinstance(part, SeatRef):
        return {"seat": part.seat}
    if isinstance(part, IouRef):
        return {"iou": [part.colour, part.value]}
    return part


def menu_for(game: str, observation: Json, legal: Sequence[Action]) -> Menu:
    """The menu of a request of `game` (its observation as JSON, its legal actions)."""
    build = MENUS.get(game)
    return build(observation, legal) if build is not None else plain_menu(legal)


def plain_menu(legal: Sequence[Action]) -> Menu:
    """Any game's actions by their own texts, one group."""
    return Menu("choose an action", (Group("actions", tuple(
        Option(index, (str(action),), str(action)) for index, action in enumerate(legal))),))


def _grouped(legal: Sequence[Action], key: Callable[[Action], str],
             words: Callable[[Action], tuple[Part, ...]], order: Iterable[int] | None = None,
             placement: Callable[[Action], Placement | None] = lambda action: None) -> tuple[Group, ...]:
    """Options grouped by `key`, groups in the order first met (`order`: the
    legal actions' indices in the order to meet them)."""
    groups: dict[str, list[Option]] = {}
    for index in (range(len(legal)) if order is None else order):
        action = legal[index]
        groups.setdefault(key(action), []).append(
            Option(index, words(action), str(action), placement(action)))
    return tuple(Group(title, tuple(options)) for title, options in groups.items())


# --------------------------------------------------------------- Gnadenlos!


def _adventurer(card: int) -> str:
    a = ADVENTURERS[card]
    return f"{a.name} (gold {a.gold}, gun {a.gun}, poker {a.poker})"


def _market_slot(observation: Json, row: int, col: int) -> tuple[Part, ...]:
    where = f"row {row + 1}, column {col + 1}: "
    rows = observation.get("market") or []
    seen = rows[row][col] if row < len(rows) and col < len(rows[row]) else None
    return (where, IouRef(*seen)) if isinstance(seen, list) else (where + "face down",)


def _gnadenlos_words(observation: Json) -> Callable[[Action], tuple[Part, ...]]:
    def words(action: Action) -> tuple[Part, ...]:
        if isinstance(action, gn.Commit):
            return (_adventurer(action.card),)
        if isinstance(action, gn.OptOut):
            return ("stay out of the High Noon",)
        if isinstance(action, gn.Take):
            return _market_slot(observation, action.row, action.col)
        if isinstance(action, gn.Refill):
            return (f"move the card of column {action.col + 1} into the gap",)
        if isinstance(action, (gn.Buy, gn.FinalBuy)):
            steps = action.steps
            return ("buy nothing",) if steps == 0 else (f"{steps} field{'s' * (steps > 1)} for {steps} "
                                                        f"nugget{'s' * (steps > 1)}",)
        if isinstance(action, gn.Bid):
            if not action.ious:
                return ("pass (and show your IOUs)",)
            return tuple(IouRef(c, v) for c, v in action.ious)
        if isinstance(action, gn.Pick):
            return (" and ".join(_adventurer(card) for card in action.cards),)
        if isinstance(action, gn.BidPosition):
            return ("bid first" if action.first else "bid last",)
        if isinstance(action, gn.Order):
            return (f"{_adventurer(action.card)} next",)
        return (str(action),)
    return words


def _gnadenlos_prompt(observation: Json, action: Action) -> str:
    if isinstance(action, (gn.Commit, gn.OptOut)):
        event = observation.get("event", -1)
        named = f" to {EventCard(event).label}" if isinstance(event, int) and event >= 0 else ""
        return f"commit one adventurer face down{named}; the others commit at the same time (G-5.4)"
    prompts: dict[type, str] = {
        gn.Take: "take an IOU from the market (G-5.7)",
        gn.Refill: "refill the market: which card of the last row moves into the gap (G-3.4)",
        gn.Buy: "buy fields with nuggets (G-7.1)",
        gn.FinalBuy: "the final buy: up to 3 fields (G-9.3)",
        gn.Bid: "bid 1 to 3 IOUs: the amount is their sum, unlike every earlier bid's (G-6.2)",
        gn.Pick: "pick from the auction (G-6.5)",
        gn.BidPosition: "bid first or last in this card's auction (G-6.7.2)",
        gn.Order: "which tied card is auctioned next (G-6.7.1)",
    }
    return prompts.get(type(action), "choose an action")


def _gnadenlos_key(action: Action) -> str:
    if isinstance(action, gn.Bid):
        return "pass" if not action.ious else f"bid {action.total}"
    if isinstance(action, gn.Take):
        return f"row {action.row + 1}"
    titles: dict[type, str] = {gn.Commit: "commit", gn.OptOut: "commit", gn.Refill: "refill", gn.Buy: "buy",
                               gn.FinalBuy: "final buy", gn.Pick: "pick", gn.BidPosition: "your place in the bidding",
                               gn.Order: "auction order"}
    return titles.get(type(action), "choose")


def gnadenlos_menu(observation: Json, legal: Sequence[Action]) -> Menu:
    """Bids grouped by amount, lowest first, the pass last (G-6.2, G-6.3);
    market slots by row; everything else one group."""
    order: list[int] = list(range(len(legal)))
    if any(isinstance(action, gn.Bid) for action in legal):
        def amount(index: int) -> tuple[int, int]:
            action = legal[index]
            return ((1, 0) if isinstance(action, gn.Bid) and not action.ious
                    else (0, action.total if isinstance(action, gn.Bid) else 0))
        order.sort(key=amount)
    return Menu(_gnadenlos_prompt(observation, legal[0]),
                _grouped(legal, _gnadenlos_key, _gnadenlos_words(observation), order))


# ------------------------------------------------------------------ Saboteur


def _saboteur_words(action: Action) -> tuple[Part, ...]:
    if isinstance(action, sb.PlacePath):
        return (f"at ({action.x}, {action.y})" + (" turned" if action.turned else ""),)
    if isinstance(action, sb.BreakTool):
        return ("break ", SeatRef(action.target), f"'s {action.tool}")
    if isinstance(action, sb.Repair):
        return ("repair ", SeatRef(action.target), f"'s {action.tool} with {action.card}")
    if isinstance(action, sb.Rockfall):
        return (f"clear the path card at ({action.x}, {action.y})",)
    if isinstance(action, sb.Map):
        return (f"look at the goal at ({action.x}, {action.y})",)
    if isinstance(action, sb.Discard):
        return (f"discard {card_text(action.card)} face down",)
    if isinstance(action, sb.Pass):
        return ("pass",)
    return (str(action),)


def _saboteur_key(action: Action) -> str:
    if isinstance(action, sb.PlacePath):
        return f"place {card_text(action.card)}"
    if isinstance(action, (sb.BreakTool, sb.Repair)):
        return "tools"
    if isinstance(action, sb.Rockfall):
        return "rockfall"
    if isinstance(action, sb.Map):
        return "map"
    return "pass: discard a card face down" if isinstance(action, sb.Discard) else "pass"


def _placement(action: Action) -> Placement | None:
    return Placement(action.card, action.x, action.y, action.turned) if isinstance(action, sb.PlacePath) else None


def saboteur_menu(observation: Json, legal: Sequence[Action]) -> Menu:
    """A group per path card in the hand (each place and rotation, S-4.1),
    then the action cards (S-5), then the passes (S-3.1)."""
    return Menu("play a card, or pass by discarding one face down (S-3)",
                _grouped(legal, _saboteur_key, _saboteur_words, placement=_placement))


# --------------------------------------------------------------------- Leduc


def leduc_menu(observation: Json, legal: Sequence[Action]) -> Menu:
    """Fold, call (a check when it costs nothing) and raise, each with what
    it puts into the pot (L-3.3 to L-3.5)."""
    seat = observation["seat"]
    to_call = observation["stakes"] - observation["contributions"][seat]
    raise_by = RAISE_AMOUNTS[min(observation["round"], len(RAISE_AMOUNTS)) - 1]

    def words(action: Action) -> tuple[Part, ...]:
        if isinstance(action, lp.Fold):
            return ("fold: leave the hand, giving up what you put in",)
        if isinstance(action, lp.Call):
            return (f"call: put in {to_call}",) if to_call else ("check: put in nothing",)
        if isinstance(action, lp.Raise):
            return (f"raise by {raise_by}: put in {to_call + raise_by}",)
        return (str(action),)

    card = observation.get("card")
    holding = f"you hold {card_name(card, observation['num_seats'])}; " if isinstance(card, int) else ""
    return Menu(f"{holding}the pot holds {observation['pot']}", (Group("bet", tuple(
        Option(index, words(action), str(action)) for index, action in enumerate(legal))),))


MENUS: dict[str, Callable[[Json, Sequence[Action]], Menu]] = {
    "gnadenlos": gnadenlos_menu,
    "saboteur": saboteur_menu,
    "leduc": leduc_menu,
}
"""Each game's menu by its name; any other game gets `plain_menu`."""
