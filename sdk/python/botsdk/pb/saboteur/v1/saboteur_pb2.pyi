from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Card(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CARD_UNKNOWN: _ClassVar[Card]
    CARD_NESW: _ClassVar[Card]
    CARD_NES: _ClassVar[Card]
    CARD_NEW: _ClassVar[Card]
    CARD_NS: _ClassVar[Card]
    CARD_EW: _ClassVar[Card]
    CARD_NE: _ClassVar[Card]
    CARD_NW: _ClassVar[Card]
    CARD_DEAD_NESW: _ClassVar[Card]
    CARD_DEAD_NES: _ClassVar[Card]
    CARD_DEAD_NEW: _ClassVar[Card]
    CARD_DEAD_NS: _ClassVar[Card]
    CARD_DEAD_EW: _ClassVar[Card]
    CARD_DEAD_NE: _ClassVar[Card]
    CARD_DEAD_NW: _ClassVar[Card]
    CARD_DEAD_N: _ClassVar[Card]
    CARD_DEAD_E: _ClassVar[Card]
    CARD_BREAK_PICK: _ClassVar[Card]
    CARD_BREAK_LANTERN: _ClassVar[Card]
    CARD_BREAK_CART: _ClassVar[Card]
    CARD_REPAIR_PICK: _ClassVar[Card]
    CARD_REPAIR_LANTERN: _ClassVar[Card]
    CARD_REPAIR_CART: _ClassVar[Card]
    CARD_REPAIR_PICK_LANTERN: _ClassVar[Card]
    CARD_REPAIR_PICK_CART: _ClassVar[Card]
    CARD_REPAIR_LANTERN_CART: _ClassVar[Card]
    CARD_ROCKFALL: _ClassVar[Card]
    CARD_MAP: _ClassVar[Card]
    CARD_START: _ClassVar[Card]
    CARD_GOLD: _ClassVar[Card]
    CARD_STONE_NE: _ClassVar[Card]
    CARD_STONE_NW: _ClassVar[Card]
    CARD_GOLD_DIGGER: _ClassVar[Card]
    CARD_SABOTEUR: _ClassVar[Card]
    CARD_NUGGET_1: _ClassVar[Card]
    CARD_NUGGET_2: _ClassVar[Card]
    CARD_NUGGET_3: _ClassVar[Card]

class Tool(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOOL_UNSPECIFIED: _ClassVar[Tool]
    TOOL_PICK: _ClassVar[Tool]
    TOOL_LANTERN: _ClassVar[Tool]
    TOOL_CART: _ClassVar[Tool]
CARD_UNKNOWN: Card
CARD_NESW: Card
CARD_NES: Card
CARD_NEW: Card
CARD_NS: Card
CARD_EW: Card
CARD_NE: Card
CARD_NW: Card
CARD_DEAD_NESW: Card
CARD_DEAD_NES: Card
CARD_DEAD_NEW: Card
CARD_DEAD_NS: Card
CARD_DEAD_EW: Card
CARD_DEAD_NE: Card
CARD_DEAD_NW: Card
CARD_DEAD_N: Card
CARD_DEAD_E: Card
CARD_BREAK_PICK: Card
CARD_BREAK_LANTERN: Card
CARD_BREAK_CART: Card
CARD_REPAIR_PICK: Card
CARD_REPAIR_LANTERN: Card
CARD_REPAIR_CART: Card
CARD_REPAIR_PICK_LANTERN: Card
CARD_REPAIR_PICK_CART: Card
CARD_REPAIR_LANTERN_CART: Card
CARD_ROCKFALL: Card
CARD_MAP: Card
CARD_START: Card
CARD_GOLD: Card
CARD_STONE_NE: Card
CARD_STONE_NW: Card
CARD_GOLD_DIGGER: Card
CARD_SABOTEUR: Card
CARD_NUGGET_1: Card
CARD_NUGGET_2: Card
CARD_NUGGET_3: Card
TOOL_UNSPECIFIED: Tool
TOOL_PICK: Tool
TOOL_LANTERN: Tool
TOOL_CART: Tool

class PlacePath(_message.Message):
    __slots__ = ("card", "x", "y", "turned")
    CARD_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    card: Card
    x: int
    y: int
    turned: bool
    def __init__(self, card: _Optional[_Union[Card, str]] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., turned: _Optional[bool] = ...) -> None: ...

class BreakTool(_message.Message):
    __slots__ = ("tool", "target")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    tool: Tool
    target: int
    def __init__(self, tool: _Optional[_Union[Tool, str]] = ..., target: _Optional[int] = ...) -> None: ...

class Repair(_message.Message):
    __slots__ = ("card", "target", "tool")
    CARD_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    card: Card
    target: int
    tool: Tool
    def __init__(self, card: _Optional[_Union[Card, str]] = ..., target: _Optional[int] = ..., tool: _Optional[_Union[Tool, str]] = ...) -> None: ...

class Rockfall(_message.Message):
    __slots__ = ("x", "y")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: int
    y: int
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ...) -> None: ...

class Map(_message.Message):
    __slots__ = ("x", "y")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: int
    y: int
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ...) -> None: ...

class Discard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: Card
    def __init__(self, card: _Optional[_Union[Card, str]] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("place_path", "break_tool", "repair", "rockfall", "map", "discard", "pass_turn")
    PLACE_PATH_FIELD_NUMBER: _ClassVar[int]
    BREAK_TOOL_FIELD_NUMBER: _ClassVar[int]
    REPAIR_FIELD_NUMBER: _ClassVar[int]
    ROCKFALL_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    PASS_TURN_FIELD_NUMBER: _ClassVar[int]
    place_path: PlacePath
    break_tool: BreakTool
    repair: Repair
    rockfall: Rockfall
    map: Map
    discard: Discard
    pass_turn: Pass
    def __init__(self, place_path: _Optional[_Union[PlacePath, _Mapping]] = ..., break_tool: _Optional[_Union[BreakTool, _Mapping]] = ..., repair: _Optional[_Union[Repair, _Mapping]] = ..., rockfall: _Optional[_Union[Rockfall, _Mapping]] = ..., map: _Optional[_Union[Map, _Mapping]] = ..., discard: _Optional[_Union[Discard, _Mapping]] = ..., pass_turn: _Optional[_Union[Pass, _Mapping]] = ...) -> None: ...

class Goal(_message.Message):
    __slots__ = ("x", "y", "card", "revealed", "turned", "seen_by")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    SEEN_BY_FIELD_NUMBER: _ClassVar[int]
    x: int
    y: int
    card: Card
    revealed: bool
    turned: bool
    seen_by: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., revealed: _Optional[bool] = ..., turned: _Optional[bool] = ..., seen_by: _Optional[_Iterable[int]] = ...) -> None: ...

class RoundResult(_message.Message):
    __slots__ = ("round", "winners", "reached_by", "roles", "set_aside")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REACHED_BY_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    round: int
    winners: str
    reached_by: int
    roles: _containers.RepeatedScalarFieldContainer[Card]
    set_aside: Card
    def __init__(self, round: _Optional[int] = ..., winners: _Optional[str] = ..., reached_by: _Optional[int] = ..., roles: _Optional[_Iterable[_Union[Card, str]]] = ..., set_aside: _Optional[_Union[Card, str]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "num_seats", "sabotaged_diggers_lose_share", "round", "rounds", "turn", "first_player", "active", "over", "end_reason", "role", "roles", "set_aside", "maze_x", "maze_y", "maze_cards", "maze_turned", "goals", "hand", "hand_counts", "draw_pile", "discard_public", "discard_own", "discard_face_down", "broken_tools", "broken_sizes", "nuggets_known", "nuggets_known_sizes", "nuggets_unknown", "supply", "results")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    SABOTAGED_DIGGERS_LOSE_SHARE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    MAZE_X_FIELD_NUMBER: _ClassVar[int]
    MAZE_Y_FIELD_NUMBER: _ClassVar[int]
    MAZE_CARDS_FIELD_NUMBER: _ClassVar[int]
    MAZE_TURNED_FIELD_NUMBER: _ClassVar[int]
    GOALS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNTS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PUBLIC_FIELD_NUMBER: _ClassVar[int]
    DISCARD_OWN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    BROKEN_TOOLS_FIELD_NUMBER: _ClassVar[int]
    BROKEN_SIZES_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_KNOWN_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_KNOWN_SIZES_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_seats: int
    sabotaged_diggers_lose_share: bool
    round: int
    rounds: int
    turn: int
    first_player: int
    active: int
    over: bool
    end_reason: str
    role: Card
    roles: _containers.RepeatedScalarFieldContainer[Card]
    set_aside: Card
    maze_x: _containers.RepeatedScalarFieldContainer[int]
    maze_y: _containers.RepeatedScalarFieldContainer[int]
    maze_cards: _containers.RepeatedScalarFieldContainer[Card]
    maze_turned: _containers.RepeatedScalarFieldContainer[bool]
    goals: _containers.RepeatedCompositeFieldContainer[Goal]
    hand: _containers.RepeatedScalarFieldContainer[Card]
    hand_counts: _containers.RepeatedScalarFieldContainer[int]
    draw_pile: int
    discard_public: _containers.RepeatedScalarFieldContainer[Card]
    discard_own: _containers.RepeatedScalarFieldContainer[Card]
    discard_face_down: _containers.RepeatedScalarFieldContainer[int]
    broken_tools: _containers.RepeatedScalarFieldContainer[Tool]
    broken_sizes: _containers.RepeatedScalarFieldContainer[int]
    nuggets_known: _containers.RepeatedScalarFieldContainer[int]
    nuggets_known_sizes: _containers.RepeatedScalarFieldContainer[int]
    nuggets_unknown: _containers.RepeatedScalarFieldContainer[int]
    supply: int
    results: _containers.RepeatedCompositeFieldContainer[RoundResult]
    def __init__(self, seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., sabotaged_diggers_lose_share: _Optional[bool] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., turn: _Optional[int] = ..., first_player: _Optional[int] = ..., active: _Optional[int] = ..., over: _Optional[bool] = ..., end_reason: _Optional[str] = ..., role: _Optional[_Union[Card, str]] = ..., roles: _Optional[_Iterable[_Union[Card, str]]] = ..., set_aside: _Optional[_Union[Card, str]] = ..., maze_x: _Optional[_Iterable[int]] = ..., maze_y: _Optional[_Iterable[int]] = ..., maze_cards: _Optional[_Iterable[_Union[Card, str]]] = ..., maze_turned: _Optional[_Iterable[bool]] = ..., goals: _Optional[_Iterable[_Union[Goal, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[Card, str]]] = ..., hand_counts: _Optional[_Iterable[int]] = ..., draw_pile: _Optional[int] = ..., discard_public: _Optional[_Iterable[_Union[Card, str]]] = ..., discard_own: _Optional[_Iterable[_Union[Card, str]]] = ..., discard_face_down: _Optional[_Iterable[int]] = ..., broken_tools: _Optional[_Iterable[_Union[Tool, str]]] = ..., broken_sizes: _Optional[_Iterable[int]] = ..., nuggets_known: _Optional[_Iterable[int]] = ..., nuggets_known_sizes: _Optional[_Iterable[int]] = ..., nuggets_unknown: _Optional[_Iterable[int]] = ..., supply: _Optional[int] = ..., results: _Optional[_Iterable[_Union[RoundResult, _Mapping]]] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round", "first_player")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    round: int
    first_player: int
    def __init__(self, round: _Optional[int] = ..., first_player: _Optional[int] = ...) -> None: ...

class RoleDealt(_message.Message):
    __slots__ = ("seat", "role")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    role: Card
    def __init__(self, seat: _Optional[int] = ..., role: _Optional[_Union[Card, str]] = ...) -> None: ...

class HandDealt(_message.Message):
    __slots__ = ("seat", "count", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    cards: _containers.RepeatedScalarFieldContainer[Card]
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[Card, str]]] = ...) -> None: ...

class PathPlaced(_message.Message):
    __slots__ = ("seat", "card", "x", "y", "turned")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    x: int
    y: int
    turned: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., turned: _Optional[bool] = ...) -> None: ...

class GoalRevealed(_message.Message):
    __slots__ = ("x", "y", "card", "turned")
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    x: int
    y: int
    card: Card
    turned: bool
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., turned: _Optional[bool] = ...) -> None: ...

class ToolBroken(_message.Message):
    __slots__ = ("seat", "target", "tool")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    tool: Tool
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ..., tool: _Optional[_Union[Tool, str]] = ...) -> None: ...

class ToolRepaired(_message.Message):
    __slots__ = ("seat", "card", "target", "tool")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    target: int
    tool: Tool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., target: _Optional[int] = ..., tool: _Optional[_Union[Tool, str]] = ...) -> None: ...

class RockfallPlayed(_message.Message):
    __slots__ = ("seat", "x", "y", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    x: int
    y: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ...) -> None: ...

class MapUsed(_message.Message):
    __slots__ = ("seat", "x", "y", "goal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    x: int
    y: int
    goal: Card
    def __init__(self, seat: _Optional[int] = ..., x: _Optional[int] = ..., y: _Optional[int] = ..., goal: _Optional[_Union[Card, str]] = ...) -> None: ...

class Discarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ...) -> None: ...

class Passed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class CardDrawn(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: Card
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ...) -> None: ...

class RoundEnded(_message.Message):
    __slots__ = ("round", "winners", "reached_by", "roles", "set_aside")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    REACHED_BY_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    SET_ASIDE_FIELD_NUMBER: _ClassVar[int]
    round: int
    winners: str
    reached_by: int
    roles: _containers.RepeatedScalarFieldContainer[Card]
    set_aside: Card
    def __init__(self, round: _Optional[int] = ..., winners: _Optional[str] = ..., reached_by: _Optional[int] = ..., roles: _Optional[_Iterable[_Union[Card, str]]] = ..., set_aside: _Optional[_Union[Card, str]] = ...) -> None: ...

class NuggetsReceived(_message.Message):
    __slots__ = ("seat", "count", "values")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., values: _Optional[_Iterable[int]] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("reason", "totals")
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, reason: _Optional[str] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("round_started", "role_dealt", "hand_dealt", "path_placed", "goal_revealed", "tool_broken", "tool_repaired", "rockfall", "map_used", "discarded", "passed", "card_drawn", "round_ended", "nuggets_received", "match_ended")
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    ROLE_DEALT_FIELD_NUMBER: _ClassVar[int]
    HAND_DEALT_FIELD_NUMBER: _ClassVar[int]
    PATH_PLACED_FIELD_NUMBER: _ClassVar[int]
    GOAL_REVEALED_FIELD_NUMBER: _ClassVar[int]
    TOOL_BROKEN_FIELD_NUMBER: _ClassVar[int]
    TOOL_REPAIRED_FIELD_NUMBER: _ClassVar[int]
    ROCKFALL_FIELD_NUMBER: _ClassVar[int]
    MAP_USED_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDED_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    round_started: RoundStarted
    role_dealt: RoleDealt
    hand_dealt: HandDealt
    path_placed: PathPlaced
    goal_revealed: GoalRevealed
    tool_broken: ToolBroken
    tool_repaired: ToolRepaired
    rockfall: RockfallPlayed
    map_used: MapUsed
    discarded: Discarded
    passed: Passed
    card_drawn: CardDrawn
    round_ended: RoundEnded
    nuggets_received: NuggetsReceived
    match_ended: MatchEnded
    def __init__(self, round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., role_dealt: _Optional[_Union[RoleDealt, _Mapping]] = ..., hand_dealt: _Optional[_Union[HandDealt, _Mapping]] = ..., path_placed: _Optional[_Union[PathPlaced, _Mapping]] = ..., goal_revealed: _Optional[_Union[GoalRevealed, _Mapping]] = ..., tool_broken: _Optional[_Union[ToolBroken, _Mapping]] = ..., tool_repaired: _Optional[_Union[ToolRepaired, _Mapping]] = ..., rockfall: _Optional[_Union[RockfallPlayed, _Mapping]] = ..., map_used: _Optional[_Union[MapUsed, _Mapping]] = ..., discarded: _Optional[_Union[Discarded, _Mapping]] = ..., passed: _Optional[_Union[Passed, _Mapping]] = ..., card_drawn: _Optional[_Union[CardDrawn, _Mapping]] = ..., round_ended: _Optional[_Union[RoundEnded, _Mapping]] = ..., nuggets_received: _Optional[_Union[NuggetsReceived, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...
