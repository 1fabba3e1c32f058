"""The components of Saboteur (S-1): card kinds and the card instances of one match.

Every physical card is an instance with a fixed id; its kind (a name such as
"nes" or "map") is what a seat sees. Copies of one kind are interchangeable,
so actions, observations and the JSON state name kinds, never instance ids.

Edges: N=1, E=2, S=4, W=8 (S-1). A path kind is named by its open edges in
one orientation, e.g. "nes" is the T along N-S open to the east; dead ends
carry the prefix "dead_". Turning a card 180 degrees swaps N/S and E/W.

Instance ids: 0..66 the deck (40 path, 27 action cards), 67 the start card,
68..70 the goals, 71..81 the dwarf cards (7 gold-diggers, 4 saboteurs),
82..109 the nugget cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

N, E, S, W = 1, 2, 4, 8
DIRECTIONS: tuple[tuple[int, int, int, int], ...] = ((N, 0, 1, S), (E, 1, 0, W), (S, 0, -1, N), (W, -1, 0, E))
"""(edge, dx, dy, the facing edge of the neighbour in that direction)."""

TOOLS: tuple[str, ...] = ("pick", "lantern", "cart")

PATH = "path"
ACTION = "action"
START = "start"
GOAL = "goal"
ROLE = "role"
NUGGET = "nugget"

GOLD_DIGGER = "gold_digger"
SABOTEUR = "saboteur"


def turned(edges: int) -> int:
    """The edge mask of a card turned 180 degrees (S-1: never 90)."""
    return ((edges << 2) | (edges >> 2)) & 15


def edge_mask(letters: str) -> int:
    return sum({"n": N, "e": E, "s": S, "w": W}[c] for c in letters)


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of card and how many copies a match has."""

    name: str
    family: str
    copies: int = 1
    edges: int = 0
    through: bool = False
    tools: tuple[str, ...] = ()
    value: int = 0


def _path(letters: str, copies: int) -> Kind:
    return Kind(letters, PATH, copies, edge_mask(letters), through=True)


def _dead(letters: str) -> Kind:
    return Kind("dead_" + letters, PATH, 1, edge_mask(letters), through=False)


KINDS: tuple[Kind, ...] = (
    # S-1 path cards in the deck: 31 through, 9 dead ends.
    _path("nesw", 5),
    _path("nes", 5),
    _path("new", 5),
    _path("ns", 4),
    _path("ew", 3),
    _path("ne", 5),
    _path("nw", 4),
    *(_dead(letters) for letters in ("nesw", "nes", "new", "ns", "ew", "ne", "nw", "n", "e")),
    # S-1 action cards: 27.
    *(Kind("break_" + tool, ACTION, 3, tools=(tool,)) for tool in TOOLS),
    *(Kind("repair_" + tool, ACTION, 2, tools=(tool,)) for tool in TOOLS),
    Kind("repair_pick_lantern", ACTION, 1, tools=("pick", "lantern")),
    Kind("repair_pick_cart", ACTION, 1, tools=("pick", "cart")),
    Kind("repair_lantern_cart", ACTION, 1, tools=("lantern", "cart")),
    Kind("rockfall", ACTION, 3),
    Kind("map", ACTION, 6),
    # Not in the deck.
    Kind("start", START, 1, edge_mask("nesw"), through=True),
    Kind("gold", GOAL, 1, edge_mask("nesw"), through=True),
    Kind("stone_ne", GOAL, 1, edge_mask("ne"), through=True),
    Kind("stone_nw", GOAL, 1, edge_mask("nw"), through=True),
    Kind(GOLD_DIGGER, ROLE, 7),
    Kind(SABOTEUR, ROLE, 4),
    Kind("nugget_1", NUGGET, 16, value=1),
    Kind("nugget_2", NUGGET, 8, value=2),
    Kind("nugget_3", NUGGET, 4, value=3),
)

KIND_INDEX: dict[str, int] = {kind.name: i for i, kind in enumerate(KINDS)}

CARD_KIND: tuple[int, ...] = tuple(i for i, kind in enumerate(KINDS) for _ in range(kind.copies))
"""Instance id -> index into KINDS."""
NUM_CARDS = len(CARD_KIND)


def _ids(family: str) -> tuple[int, ...]:
    return tuple(card for card, k in enumerate(CARD_KIND) if KINDS[k].family == family)


DECK: tuple[int, ...] = _ids(PATH) + _ids(ACTION)
START_CARD: int = _ids(START)[0]
GOAL_CARDS: tuple[int, ...] = _ids(GOAL)
GOLD_CARD: int = GOAL_CARDS[0]
DIGGER_CARDS: tuple[int, ...] = tuple(c for c in _ids(ROLE) if KINDS[CARD_KIND[c]].name == GOLD_DIGGER)
SABOTEUR_CARDS: tuple[int, ...] = tuple(c for c in _ids(ROLE) if KINDS[CARD_KIND[c]].name == SABOTEUR)
NUGGET_CARDS: tuple[int, ...] = _ids(NUGGET)

assert DECK == tuple(range(67)) and len(_ids(PATH)) == 40 and len(_ids(ACTION)) == 27
assert sum(KINDS[CARD_KIND[c]].value for c in NUGGET_CARDS) == 44

NAME: tuple[str, ...] = tuple(KINDS[k].name for k in CARD_KIND)
"""Instance id -> kind name (the hot path reads these tables)."""
FAMILY: tuple[str, ...] = tuple(KINDS[k].family for k in CARD_KIND)
THROUGH: tuple[bool, ...] = tuple(KINDS[k].through for k in CARD_KIND)
VALUE: tuple[int, ...] = tuple(KINDS[k].value for k in CARD_KIND)
EDGES: tuple[tuple[int, int], ...] = tuple((KINDS[k].edges, turned(KINDS[k].edges)) for k in CARD_KIND)
"""Instance id -> (edges upright, edges turned)."""


NUGGET_KIND = {1: "nugget_1", 2: "nugget_2", 3: "nugget_3"}


@mypyc_attr(allow_interpreted_subclasses=True)  # the JSON reader extends it
class Pool:
    """Unused instances of some cards, handed out by kind name, lowest id first.

    The JSON reader and determinization build states from kind names; this
    turns each name into a fresh instance and records who knows it.
    """

    def __init__(self, cards: Iterable[int], known: list[int]) -> None:
        self.known = known
        self.by_name: dict[str, list[int]] = {}
        for card in sorted(cards, reverse=True):
            self.by_name.setdefault(NAME[card], []).append(card)

    def take(self, name: str, mask: int) -> int:
        """An unused instance of `name`, now known to the seats in `mask`.
        Raises ValueError when none is left."""
        cards = self.by_name.get(name)
        if not cards:
            raise ValueError(f"no {name!r} card left to place (unknown kind, or more copies than the game has)")
        card = cards.pop()
        self.known[card] = mask
        return card

    def rest(self) -> list[int]:
        """The instances not handed out, in id order."""
        return sorted(c for cards in self.by_name.values() for c in cards)
