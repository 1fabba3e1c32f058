"""Saboteur drawn for a viewer: the maze as it grows, the seats, the rounds.

The maze is a grid of 5x3 glyphs, one per cell, over the bounding box of the
start, the goals and every card placed (so it grows with the maze): tunnels
are drawn to the cell's open edges, so neighbouring cards join up; a dead end
has a red × in its centre (its stubs connect to nothing, S-1); S is the start,
a framed ? a face-down goal, a framed G or o a face-down goal the viewer
looked at (gold, stone), a plain G or o a turned-up goal; a dim dot is an
empty cell.

Everything comes from observations and the events the viewer was shown, so
nothing appears before its viewer may know it (S-8): another seat's role only
from the round's end (S-6.2), a face-down goal only to the seats that looked
(S-5.4), nugget values only to their owner until the end (S-6.5).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from referee.games.saboteur.cards import E, KIND_INDEX, KINDS, N, PATH, S, SABOTEUR, W, turned
from referee.games.saboteur.state import GOLD_DIGGERS_WIN
from referee.render.common import PUBLIC, GameRenderer, Json, combine_counts, combine_value

Cell = tuple[int, int]

CELL_WIDTH = 5
"""Characters per maze cell (three lines high): about square in a terminal."""

BOX = {N | S: "│", E | W: "─", N | E | S | W: "┼", N | E | S: "├", N | S | W: "┤", E | S | W: "┬",
       N | E | W: "┴", N | E: "└", N | W: "┘", E | S: "┌", S | W: "┐", N: "╵", E: "╶", S: "╷", W: "╴"}
"""The centre of a through card, joining its open edges."""

ROLE_NAMES = {"gold_digger": "gold-digger", "saboteur": "saboteur"}
ROLE_STYLES = {"gold_digger": "yellow", "saboteur": "bold red"}
TOOL_STYLE = "bold red"
MAZE_EVENTS = frozenset({"round_started", "path_placed", "rockfall", "goal_revealed", "tool_broken",
                         "tool_repaired"})
"""A step with one of these changes what the table shows most (the maze, the tools): draw it."""


def edges_of(card: str, is_turned: bool) -> int:
    """The open edges of a card as it lies (S-1: turned means rotated 180°)."""
    edges = KINDS[KIND_INDEX[card]].edges
    return turned(edges) if is_turned else edges


def goal_name(card: str) -> str:
    """GOLD or stone: the words the rendering uses for goal cards, and only for them."""
    return "GOLD" if card == "gold" else "stone"


def role_text(role: str | None) -> Text:
    if role is None:
        return Text("?", style="dim")
    return Text(ROLE_NAMES[role], style=ROLE_STYLES[role])


def card_text(card: str, is_turned: bool = False) -> str:
    """A card for a line of text; a path card with its centre glyph (as it lies)."""
    kind = KINDS[KIND_INDEX[card]]
    if kind.family != PATH:
        return card
    centre = BOX.get(edges_of(card, is_turned), "·") if kind.through else "×"
    return f"{card}{' turned' if is_turned else ''} {centre}"


# -------------------------------------------------------------------- maze


@dataclass(frozen=True)
class GoalShown:
    """A goal as the viewers jointly know it: `card` None while face down and unknown to them."""

    card: str | None
    revealed: bool
    turned: bool
    seen_by: tuple[int, ...] = ()


@dataclass
class Maze:
    """The start and path cards by cell, and the goals, as a viewer knows them."""

    cards: dict[Cell, tuple[str, bool]] = field(default_factory=dict)
    goals: dict[Cell, GoalShown] = field(default_factory=dict)

    @classmethod
    def from_observations(cls, observations: Sequence[Json], combine: str) -> "Maze":
        first = observations[0]
        maze = cls({(x, y): (card, is_turned) for x, y, card, is_turned in first["maze"]})
        for index, goal in enumerate(first["goals"]):
            card = combine_value([o["goals"][index]["card"] for o in observations], combine)
            maze.goals[(goal["x"], goal["y"])] = GoalShown(card, goal["revealed"], goal["turned"],
                                                           tuple(goal["seen_by"]))
        return maze

    def follow(self, event: Json) -> None:
        """Apply a public maze event (S-4.1, S-4.5, S-5.3) the viewer was shown."""
        data = event["data"]
        if event["kind"] == "path_placed":
            self.cards[(data["x"], data["y"])] = (data["card"], data["turned"])
        elif event["kind"] == "rockfall":
            self.cards.pop((data["x"], data["y"]), None)
        elif event["kind"] == "goal_revealed":
            self.goals[(data["x"], data["y"])] = GoalShown(data["card"], True, data["turned"])

    def bounds(self) -> tuple[int, int, int, int]:
        cells = [*self.cards, *self.goals]
        xs, ys = [x for x, _ in cells], [y for _, y in cells]
        return min(xs), max(xs), min(ys), max(ys)


def _tunnel(edges: int, centre: Text, arm_style: str) -> list[Text]:
    """Three lines of a card lying with `edges` open: arms to the open edges, `centre` between."""
    vertical = "  │  "
    return [
        Text(vertical if edges & N else " " * CELL_WIDTH, style=arm_style),
        Text.assemble(("──" if edges & W else "  ", arm_style), centre, ("──" if edges & E else "  ", arm_style)),
        Text(vertical if edges & S else " " * CELL_WIDTH, style=arm_style),
    ]


def _goal_centre(card: str) -> Text:
    return Text("G", style="bold yellow") if card == "gold" else Text("o", style="bold white")


def _glyph(maze: Maze, cell: Cell) -> list[Text]:
    if cell in maze.goals:
        goal = maze.goals[cell]
        if goal.revealed and goal.card is not None:
            return _tunnel(edges_of(goal.card, goal.turned), _goal_centre(goal.card), "white")
        inside = _goal_centre(goal.card) if goal.card is not None else Text("?", style="bold")
        return [Text(" ┌─┐ ", style="dim"), Text.assemble((" │", "dim"), inside, ("│ ", "dim")),
                Text(" └─┘ ", style="dim")]
    if cell in maze.cards:
        card, is_turned = maze.cards[cell]
        edges = edges_of(card, is_turned)
        if card == "start":
            return _tunnel(edges, Text("S", style="bold green"), "green")
        if KINDS[KIND_INDEX[card]].through:
            return _tunnel(edges, Text(BOX[edges], style="bold"), "bold")
        return _tunnel(edges, Text("×", style="bold red"), "dim")
    blank = Text(" " * CELL_WIDTH)
    return [blank, Text("  ·  ", style="dim"), blank]


def draw_maze(maze: Maze) -> Text:
    """The maze over its bounding box, north at the top, with x and y along the
    edges; cropped on the right if the console is narrower."""
    x0, x1, y0, y1 = maze.bounds()
    lines = [Text("    " + "".join(f"{x:^{CELL_WIDTH}}" for x in range(x0, x1 + 1)), style="dim")]
    for y in range(y1, y0 - 1, -1):
        rows = [Text("    "), Text(f"{y:>3} ", style="dim"), Text("    ")]
        for x in range(x0, x1 + 1):
            for row, part in zip(rows, _glyph(maze, (x, y))):
                row.append_text(part)
        lines += rows
    grid = Text("\n").join(lines)
    grid.no_wrap, grid.overflow = True, "crop"  # a wrapped row would tear the grid apart
    return grid


LEGEND = Text("S start · ┼ tunnel · × dead end · ? face-down goal · G gold · o stone "
              "(framed: face down, known to this view)", style="dim")


# -------------------------------------------------------------------- text


class SaboteurRenderer(GameRenderer):
    """Saboteur: the table after each step that changes the maze or the tools
    or starts a round, and the maze as it stood at each round's end."""

    figure_columns = (("nuggets", "nuggets"),)
    """Each seat's nugget total (summary.public_summary, S-6.5)."""

    def __init__(self, names: Sequence[str], combine: str = PUBLIC) -> None:
        super().__init__(names, combine)
        self._maze: Maze | None = None
        """The maze as the viewer last observed it, followed through the events since."""

    # ---------------------------------------------------------------- table

    def table(self, observations: Sequence[Json], title: str = "") -> RenderableType | None:
        if not observations:
            return None
        first = observations[0]
        maze = Maze.from_observations(observations, self.combine)
        parts: list[RenderableType] = [self._status(first), draw_maze(maze), LEGEND, self._goals(maze),
                                       self._seats(observations)]
        parts += [self._result_line(result) for result in first["results"]]
        heading = f"Saboteur — round {first['round']}/{first['rounds']}"
        return Panel(Group(*parts), title=f"{heading}, {title}" if title else heading, title_align="left",
                     expand=False)

    def _status(self, first: Json) -> Text:
        text = Text.assemble(("turn ", "dim"), str(first["turn"] + 1))
        if first["active"] >= 0:
            text.append_text(Text.assemble(("  to play ", "dim"), self.label(first["active"])))
        text.append_text(Text.assemble(
            ("  started by ", "dim"), self.label(first["first_player"]),
            ("  draw pile ", "dim"), str(first["draw_pile"]),
            ("  discards face up ", "dim"), str(len(first["discard_public"])),
            ("  nugget supply ", "dim"), str(first["supply"]),
        ))
        if first["sabotaged_diggers_lose_share"]:
            text.append("  (sabotaged gold-diggers lose their share)", style="dim")
        return text

    def _goals(self, maze: Maze) -> Text:
        text = Text()
        for (x, y), goal in sorted(maze.goals.items(), key=lambda item: -item[0][1]):
            if text:
                text.append("   ")
            text.append(f"goal ({x}, {y}) ")
            if goal.revealed and goal.card is not None:
                text.append(goal_name(goal.card), style="bold")
            else:
                text.append("face down")
                if goal.card is not None:
                    text.append(f" ({goal_name(goal.card)}: looked at)", style="bold")
            if goal.seen_by:
                text.append(" · map: ", style="dim")
                text.append_text(Text(", ").join(self.label(s) for s in goal.seen_by))
        return text

    def _seats(self, observations: Sequence[Json]) -> Table:
        first = observations[0]
        table = Table(box=None, pad_edge=False)
        for heading, justify in (("seat", "left"), ("role", "left"), ("hand", "left"), ("broken", "left"),
                                 ("discarded", "left"), ("nuggets", "left")):
            table.add_column(heading, justify=justify)  # type: ignore[arg-type]
        for seat in range(first["num_seats"]):
            label = self.label(seat)
            if seat == first["active"]:
                label = Text("▶ ") + label
            role = combine_value([o["roles"][seat] for o in observations], self.combine)
            table.add_row(
                label, role_text(role), self._hand(observations, seat),
                Text(" ".join(first["broken"][seat]), style=TOOL_STYLE) if first["broken"][seat]
                else Text("—", style="dim"),
                self._face_down(observations, seat), self._nuggets(observations, seat),
            )
        return table

    def _own(self, observations: Sequence[Json], seat: int, key: str) -> list[str] | None:
        """A seat's own private list (hand, face-down discards): only its own observation holds it."""
        return combine_value([o[key] if o["seat"] == seat else None for o in observations], self.combine)

    def _hand(self, observations: Sequence[Json], seat: int) -> Text:
        count = observations[0]["hand_counts"][seat]
        cards = self._own(observations, seat, "hand")
        text = Text(f"{count}", style="bold")
        if cards:
            text.append(": " + ", ".join(cards))
        return text

    def _face_down(self, observations: Sequence[Json], seat: int) -> Text:
        count = observations[0]["discard_face_down"][seat]
        if not count:
            return Text("—", style="dim")
        cards = self._own(observations, seat, "discard_own")
        return Text(f"{count} face down" + (": " + ", ".join(cards) if cards else ""))

    def _nuggets(self, observations: Sequence[Json], seat: int) -> Text:
        views = [o["nuggets"][seat] for o in observations]
        total = len(views[0]["known"]) + views[0]["unknown"]
        known = sorted(combine_counts([Counter(v["known"]) for v in views], self.combine).elements(), reverse=True)
        if not total:
            return Text("—", style="dim")
        text = Text(" ".join(map(str, known)), style="yellow")
        if known:
            text.append(f" (= {sum(known)})", style="dim")
        if total > len(known):
            text.append(("" if not known else " ") + f"+{total - len(known)} hidden", style="dim")
        return text

    def _result_line(self, result: Json) -> Text:
        """A finished round, all public from its end (S-6.2)."""
        text = Text.assemble((f"round {result['round']}: ", "bold"), self._winners(result))
        saboteurs = [s for s, role in enumerate(result["roles"]) if role == SABOTEUR]
        text.append("; saboteurs: ", style="dim")
        text.append_text(Text(", ").join(self.label(s) for s in saboteurs) if saboteurs else Text("none"))
        return text

    def _winners(self, result: Json) -> Text:
        if result["winners"] == GOLD_DIGGERS_WIN:
            return Text.assemble(("the gold-diggers win", "yellow"), ": ", self.label(result["reached_by"]),
                                 " reached the gold")
        if SABOTEUR not in result["roles"]:
            return Text("nobody wins: the cards ran out, and no saboteur was in play")
        return Text.assemble(("the saboteurs win", "bold red"), ": the cards ran out")

    # --------------------------------------------------------------- events

    def event(self, event: Json) -> Text:
        if self._maze is not None:
            self._maze.follow(event)
        describe = getattr(self, "_on_" + event["kind"], None)
        return super().event(event) if describe is None else describe(event["data"])

    def interlude(self, event: Json) -> RenderableType | None:
        """The maze as the round ended: the next round's deal follows in the same step."""
        if event["kind"] != "round_ended" or self._maze is None:
            return None
        return Panel(Group(draw_maze(self._maze), self._goals(self._maze)),
                     title=f"the maze at the end of round {event['data']['round']}", title_align="left",
                     expand=False)

    def shows_table(self, kinds: Collection[str]) -> bool:
        return not MAZE_EVENTS.isdisjoint(kinds)

    def shows_table_in_log(self, kinds: Collection[str]) -> bool:
        """In a log only as a round begins: with the maze at each round's
        end (`interlude`) that is every round's start and finish, where a
        7-player match drawn after every change printed 4,364 lines."""
        return "round_started" in kinds

    def observed(self, observations: Sequence[Json]) -> None:
        self._maze = Maze.from_observations(observations, self.combine) if observations else None

    def _seat_and(self, data: Json, *parts: str | Text | tuple[str, str]) -> Text:
        return Text.assemble(self.label(data["seat"]), *parts)

    def _record_only(self, what: str) -> Text:
        return Text.assemble(("record only: ", "dim"), what)

    def _on_round_started(self, data: Json) -> Text:
        return Text.assemble((f"— round {data['round']} begins", "bold"), ": ", self.label(data["first_player"]),
                             " plays first")

    def _on_roles_dealt(self, data: Json) -> Text:
        roles = ", ".join(f"{self.names[s]}[{s}] {ROLE_NAMES[r]}" for s, r in enumerate(data["roles"]))
        return self._record_only(f"dwarf cards dealt: {roles}; set aside: {ROLE_NAMES[data['set_aside']]}")

    def _on_role_dealt(self, data: Json) -> Text:
        return self._seat_and(data, " is dealt the dwarf card ", role_text(data["role"]))

    def _on_goals_placed(self, data: Json) -> Text:
        return self._record_only("goals placed face down, north to south: " + ", ".join(data["goals"]))

    def _on_deck_shuffled(self, data: Json) -> Text:
        return self._record_only("deck shuffled, top first: " + ", ".join(data["order"]))

    def _on_supply_shuffled(self, data: Json) -> Text:
        return self._record_only("nugget supply shuffled, top first: " + " ".join(map(str, data["values"])))

    def _on_hand_dealt(self, data: Json) -> Text:
        cards = f": {', '.join(data['cards'])}" if "cards" in data else ""
        return self._seat_and(data, f" is dealt {data['count']} cards{cards}")

    def _on_path_placed(self, data: Json) -> Text:
        return self._seat_and(data, " places ", (card_text(data["card"], data["turned"]), "bold"),
                              f" at ({data['x']}, {data['y']})")

    def _on_goal_revealed(self, data: Json) -> Text:
        return Text.assemble(f"goal ({data['x']}, {data['y']}) turns up: ",
                             (goal_name(data["card"]), "bold yellow" if data["card"] == "gold" else "bold"))

    def _on_tool_broken(self, data: Json) -> Text:
        return self._seat_and(data, " breaks ", self._whose(data), " ", (data["tool"], TOOL_STYLE))

    def _on_tool_repaired(self, data: Json) -> Text:
        return self._seat_and(data, " repairs ", self._whose(data), f" {data['tool']} with {data['card']}")

    def _whose(self, data: Json) -> Text:
        if data["target"] == data["seat"]:
            return Text("their own")
        return self.label(data["target"]) + Text("'s")

    def _on_rockfall(self, data: Json) -> Text:
        return self._seat_and(data, f" brings down a rockfall at ({data['x']}, {data['y']}): ",
                              card_text(data["card"]), " is removed")

    def _on_map_used(self, data: Json) -> Text:
        text = self._seat_and(data, f" looks at goal ({data['x']}, {data['y']}) with a map")
        if "goal" in data:
            text.append_text(Text.assemble(": it is ", (goal_name(data["goal"]), "bold")))
        return text

    def _on_discarded(self, data: Json) -> Text:
        what = data["card"] if "card" in data else "a card"
        return self._seat_and(data, f" passes, discarding {what} face down")

    def _on_passed(self, data: Json) -> Text:
        return self._seat_and(data, " passes (empty hand)")

    def _on_card_drawn(self, data: Json) -> Text:
        return self._seat_and(data, " draws " + (data["card"] if "card" in data else "a card"))

    def _on_round_ended(self, data: Json) -> Text:
        roles = Text(", ").join(self.label(s) + Text(" ") + role_text(r) for s, r in enumerate(data["roles"]))
        return Text.assemble((f"round {data['round']} ends: ", "bold"), self._winners(data), "\n    roles: ",
                             roles, "; set aside: ", role_text(data["set_aside"]))

    def _on_nuggets_drawn(self, data: Json) -> Text:
        return self._record_only("nugget cards drawn for the gold-diggers: " + " ".join(map(str, data["values"])))

    def _on_nuggets_received(self, data: Json) -> Text:
        values = f": {' '.join(map(str, data['values']))}" if "values" in data else ""
        return self._seat_and(data, f" receives {data['count']} nugget card{'s' if data['count'] != 1 else ''}"
                                    f"{values}")

    def _on_match_ended(self, data: Json) -> Text:
        totals = Text(", ").join(self.label(s) + Text(f" {t}") for s, t in enumerate(data["totals"]))
        return Text.assemble(("the match ends", "bold"), ": nugget totals ", totals)

    # ------------------------------------------------------------ decisions

    def action(self, action: Json) -> str:
        kind = action["type"]
        if kind == "place":
            return f"places {card_text(action['card'], action['turned'])} at ({action['x']}, {action['y']})"
        if kind == "break":
            return f"breaks {self._name(action['target'])}'s {action['tool']}"
        if kind == "repair":
            return f"repairs {self._name(action['target'])}'s {action['tool']} with {action['card']}"
        if kind == "rockfall":
            return f"rockfall at ({action['x']}, {action['y']})"
        if kind == "map":
            return f"map: looks at goal ({action['x']}, {action['y']})"
        if kind == "discard":
            return f"discards {action['card']} face down"
        if kind == "pass":
            return "passes"
        return str(action)

    def _name(self, seat: int) -> str:
        return f"{self.names[seat]}[{seat}]"

    # -------------------------------------------------------------- results

    def results(self, footer: Json) -> RenderableType | None:
        rounds = footer.get("summary", {}).get("rounds")
        if not rounds:
            return None
        table = Table(title="Rounds", title_justify="left")
        table.add_column("round", justify="right")
        table.add_column("result")
        table.add_column("saboteurs")
        for result in rounds:
            saboteurs = [s for s, role in enumerate(result["roles"]) if role == SABOTEUR]
            table.add_row(str(result["round"]), self._winners(result),
                          Text(", ").join(self.label(s) for s in saboteurs) if saboteurs else Text("none", style="dim"))
        return table

Renderer = SaboteurRenderer
"""The renderer this package declares (`GamePlugin.renderer`)."""
