from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SlotState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SLOT_STATE_UNSPECIFIED: _ClassVar[SlotState]
    SLOT_STATE_EMPTY: _ClassVar[SlotState]
    SLOT_STATE_HIDDEN: _ClassVar[SlotState]
    SLOT_STATE_KNOWN: _ClassVar[SlotState]
SLOT_STATE_UNSPECIFIED: SlotState
SLOT_STATE_EMPTY: SlotState
SLOT_STATE_HIDDEN: SlotState
SLOT_STATE_KNOWN: SlotState

class Commit(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: int
    def __init__(self, card: _Optional[int] = ...) -> None: ...

class OptOut(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Take(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class Refill(_message.Message):
    __slots__ = ("col",)
    COL_FIELD_NUMBER: _ClassVar[int]
    col: int
    def __init__(self, col: _Optional[int] = ...) -> None: ...

class Buy(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: int
    def __init__(self, steps: _Optional[int] = ...) -> None: ...

class FinalBuy(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: int
    def __init__(self, steps: _Optional[int] = ...) -> None: ...

class Bid(_message.Message):
    __slots__ = ("colours", "values")
    COLOURS_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    colours: _containers.RepeatedScalarFieldContainer[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, colours: _Optional[_Iterable[int]] = ..., values: _Optional[_Iterable[int]] = ...) -> None: ...

class Pick(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("commit", "opt_out", "take", "refill", "buy", "final_buy", "bid", "pick")
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    REFILL_FIELD_NUMBER: _ClassVar[int]
    BUY_FIELD_NUMBER: _ClassVar[int]
    FINAL_BUY_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PICK_FIELD_NUMBER: _ClassVar[int]
    commit: Commit
    opt_out: OptOut
    take: Take
    refill: Refill
    buy: Buy
    final_buy: FinalBuy
    bid: Bid
    pick: Pick
    def __init__(self, commit: _Optional[_Union[Commit, _Mapping]] = ..., opt_out: _Optional[_Union[OptOut, _Mapping]] = ..., take: _Optional[_Union[Take, _Mapping]] = ..., refill: _Optional[_Union[Refill, _Mapping]] = ..., buy: _Optional[_Union[Buy, _Mapping]] = ..., final_buy: _Optional[_Union[FinalBuy, _Mapping]] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., pick: _Optional[_Union[Pick, _Mapping]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "num_seats", "advanced", "opt_out_variant", "turn", "active", "phase", "to_act", "todo", "fields", "nuggets", "vultures", "undertaker", "event", "event_revealed", "event_deck_count", "adv_hand_known", "adv_hand_sizes", "adv_hand_unknown", "adv_private", "adv_deck_known", "adv_deck_unknown", "adv_discard", "unit_cards", "unit_sizes", "iou_hand_colours", "iou_hand_values", "iou_hand_sizes", "iou_hand_unknown", "iou_private_colours", "iou_private_values", "market_states", "market_colours", "market_values", "market_row_sizes", "participants", "deciding", "commits", "shot", "takers", "bid_order", "bid_pos", "bid_made", "bid_sizes", "bid_colours", "bid_values", "pick_order", "pick_pos", "final_order", "final_pos", "quiet", "activity", "end_reason", "end_detail")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    ADVANCED_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_VARIANT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TODO_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_FIELD_NUMBER: _ClassVar[int]
    VULTURES_FIELD_NUMBER: _ClassVar[int]
    UNDERTAKER_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    EVENT_REVEALED_FIELD_NUMBER: _ClassVar[int]
    EVENT_DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    ADV_HAND_KNOWN_FIELD_NUMBER: _ClassVar[int]
    ADV_HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    ADV_HAND_UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    ADV_PRIVATE_FIELD_NUMBER: _ClassVar[int]
    ADV_DECK_KNOWN_FIELD_NUMBER: _ClassVar[int]
    ADV_DECK_UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    ADV_DISCARD_FIELD_NUMBER: _ClassVar[int]
    UNIT_CARDS_FIELD_NUMBER: _ClassVar[int]
    UNIT_SIZES_FIELD_NUMBER: _ClassVar[int]
    IOU_HAND_COLOURS_FIELD_NUMBER: _ClassVar[int]
    IOU_HAND_VALUES_FIELD_NUMBER: _ClassVar[int]
    IOU_HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    IOU_HAND_UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    IOU_PRIVATE_COLOURS_FIELD_NUMBER: _ClassVar[int]
    IOU_PRIVATE_VALUES_FIELD_NUMBER: _ClassVar[int]
    MARKET_STATES_FIELD_NUMBER: _ClassVar[int]
    MARKET_COLOURS_FIELD_NUMBER: _ClassVar[int]
    MARKET_VALUES_FIELD_NUMBER: _ClassVar[int]
    MARKET_ROW_SIZES_FIELD_NUMBER: _ClassVar[int]
    PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    DECIDING_FIELD_NUMBER: _ClassVar[int]
    COMMITS_FIELD_NUMBER: _ClassVar[int]
    SHOT_FIELD_NUMBER: _ClassVar[int]
    TAKERS_FIELD_NUMBER: _ClassVar[int]
    BID_ORDER_FIELD_NUMBER: _ClassVar[int]
    BID_POS_FIELD_NUMBER: _ClassVar[int]
    BID_MADE_FIELD_NUMBER: _ClassVar[int]
    BID_SIZES_FIELD_NUMBER: _ClassVar[int]
    BID_COLOURS_FIELD_NUMBER: _ClassVar[int]
    BID_VALUES_FIELD_NUMBER: _ClassVar[int]
    PICK_ORDER_FIELD_NUMBER: _ClassVar[int]
    PICK_POS_FIELD_NUMBER: _ClassVar[int]
    FINAL_ORDER_FIELD_NUMBER: _ClassVar[int]
    FINAL_POS_FIELD_NUMBER: _ClassVar[int]
    QUIET_FIELD_NUMBER: _ClassVar[int]
    ACTIVITY_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    END_DETAIL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_seats: int
    advanced: bool
    opt_out_variant: bool
    turn: int
    active: int
    phase: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    todo: _containers.RepeatedScalarFieldContainer[str]
    fields: _containers.RepeatedScalarFieldContainer[int]
    nuggets: _containers.RepeatedScalarFieldContainer[int]
    vultures: _containers.RepeatedScalarFieldContainer[int]
    undertaker: int
    event: int
    event_revealed: _containers.RepeatedScalarFieldContainer[int]
    event_deck_count: int
    adv_hand_known: _containers.RepeatedScalarFieldContainer[int]
    adv_hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    adv_hand_unknown: _containers.RepeatedScalarFieldContainer[int]
    adv_private: _containers.RepeatedScalarFieldContainer[int]
    adv_deck_known: _containers.RepeatedScalarFieldContainer[int]
    adv_deck_unknown: int
    adv_discard: _containers.RepeatedScalarFieldContainer[int]
    unit_cards: _containers.RepeatedScalarFieldContainer[int]
    unit_sizes: _containers.RepeatedScalarFieldContainer[int]
    iou_hand_colours: _containers.RepeatedScalarFieldContainer[int]
    iou_hand_values: _containers.RepeatedScalarFieldContainer[int]
    iou_hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    iou_hand_unknown: _containers.RepeatedScalarFieldContainer[int]
    iou_private_colours: _containers.RepeatedScalarFieldContainer[int]
    iou_private_values: _containers.RepeatedScalarFieldContainer[int]
    market_states: _containers.RepeatedScalarFieldContainer[SlotState]
    market_colours: _containers.RepeatedScalarFieldContainer[int]
    market_values: _containers.RepeatedScalarFieldContainer[int]
    market_row_sizes: _containers.RepeatedScalarFieldContainer[int]
    participants: _containers.RepeatedScalarFieldContainer[int]
    deciding: _containers.RepeatedScalarFieldContainer[int]
    commits: _containers.RepeatedScalarFieldContainer[int]
    shot: _containers.RepeatedScalarFieldContainer[int]
    takers: _containers.RepeatedScalarFieldContainer[int]
    bid_order: _containers.RepeatedScalarFieldContainer[int]
    bid_pos: int
    bid_made: _containers.RepeatedScalarFieldContainer[bool]
    bid_sizes: _containers.RepeatedScalarFieldContainer[int]
    bid_colours: _containers.RepeatedScalarFieldContainer[int]
    bid_values: _containers.RepeatedScalarFieldContainer[int]
    pick_order: _containers.RepeatedScalarFieldContainer[int]
    pick_pos: int
    final_order: _containers.RepeatedScalarFieldContainer[int]
    final_pos: int
    quiet: int
    activity: bool
    end_reason: str
    end_detail: str
    def __init__(self, seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., advanced: _Optional[bool] = ..., opt_out_variant: _Optional[bool] = ..., turn: _Optional[int] = ..., active: _Optional[int] = ..., phase: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., todo: _Optional[_Iterable[str]] = ..., fields: _Optional[_Iterable[int]] = ..., nuggets: _Optional[_Iterable[int]] = ..., vultures: _Optional[_Iterable[int]] = ..., undertaker: _Optional[int] = ..., event: _Optional[int] = ..., event_revealed: _Optional[_Iterable[int]] = ..., event_deck_count: _Optional[int] = ..., adv_hand_known: _Optional[_Iterable[int]] = ..., adv_hand_sizes: _Optional[_Iterable[int]] = ..., adv_hand_unknown: _Optional[_Iterable[int]] = ..., adv_private: _Optional[_Iterable[int]] = ..., adv_deck_known: _Optional[_Iterable[int]] = ..., adv_deck_unknown: _Optional[int] = ..., adv_discard: _Optional[_Iterable[int]] = ..., unit_cards: _Optional[_Iterable[int]] = ..., unit_sizes: _Optional[_Iterable[int]] = ..., iou_hand_colours: _Optional[_Iterable[int]] = ..., iou_hand_values: _Optional[_Iterable[int]] = ..., iou_hand_sizes: _Optional[_Iterable[int]] = ..., iou_hand_unknown: _Optional[_Iterable[int]] = ..., iou_private_colours: _Optional[_Iterable[int]] = ..., iou_private_values: _Optional[_Iterable[int]] = ..., market_states: _Optional[_Iterable[_Union[SlotState, str]]] = ..., market_colours: _Optional[_Iterable[int]] = ..., market_values: _Optional[_Iterable[int]] = ..., market_row_sizes: _Optional[_Iterable[int]] = ..., participants: _Optional[_Iterable[int]] = ..., deciding: _Optional[_Iterable[int]] = ..., commits: _Optional[_Iterable[int]] = ..., shot: _Optional[_Iterable[int]] = ..., takers: _Optional[_Iterable[int]] = ..., bid_order: _Optional[_Iterable[int]] = ..., bid_pos: _Optional[int] = ..., bid_made: _Optional[_Iterable[bool]] = ..., bid_sizes: _Optional[_Iterable[int]] = ..., bid_colours: _Optional[_Iterable[int]] = ..., bid_values: _Optional[_Iterable[int]] = ..., pick_order: _Optional[_Iterable[int]] = ..., pick_pos: _Optional[int] = ..., final_order: _Optional[_Iterable[int]] = ..., final_pos: _Optional[int] = ..., quiet: _Optional[int] = ..., activity: _Optional[bool] = ..., end_reason: _Optional[str] = ..., end_detail: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("kind", "data")
    KIND_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    kind: str
    data: _struct_pb2.Struct
    def __init__(self, kind: _Optional[str] = ..., data: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
