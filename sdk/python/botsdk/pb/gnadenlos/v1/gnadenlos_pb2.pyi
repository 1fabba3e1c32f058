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

class BidPosition(_message.Message):
    __slots__ = ("first",)
    FIRST_FIELD_NUMBER: _ClassVar[int]
    first: bool
    def __init__(self, first: _Optional[bool] = ...) -> None: ...

class Order(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: int
    def __init__(self, card: _Optional[int] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("commit", "opt_out", "take", "refill", "buy", "final_buy", "bid", "pick", "bid_position", "order")
    COMMIT_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    REFILL_FIELD_NUMBER: _ClassVar[int]
    BUY_FIELD_NUMBER: _ClassVar[int]
    FINAL_BUY_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PICK_FIELD_NUMBER: _ClassVar[int]
    BID_POSITION_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    commit: Commit
    opt_out: OptOut
    take: Take
    refill: Refill
    buy: Buy
    final_buy: FinalBuy
    bid: Bid
    pick: Pick
    bid_position: BidPosition
    order: Order
    def __init__(self, commit: _Optional[_Union[Commit, _Mapping]] = ..., opt_out: _Optional[_Union[OptOut, _Mapping]] = ..., take: _Optional[_Union[Take, _Mapping]] = ..., refill: _Optional[_Union[Refill, _Mapping]] = ..., buy: _Optional[_Union[Buy, _Mapping]] = ..., final_buy: _Optional[_Union[FinalBuy, _Mapping]] = ..., bid: _Optional[_Union[Bid, _Mapping]] = ..., pick: _Optional[_Union[Pick, _Mapping]] = ..., bid_position: _Optional[_Union[BidPosition, _Mapping]] = ..., order: _Optional[_Union[Order, _Mapping]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "num_seats", "advanced", "opt_out_variant", "turn", "active", "phase", "to_act", "stage", "quiet_turns", "fields", "nuggets", "vultures", "undertaker", "event", "event_revealed", "event_deck_count", "adv_hand_known", "adv_hand_sizes", "adv_hand_unknown", "adv_private", "adv_deck_known", "adv_deck_unknown", "adv_discard", "unit_cards", "unit_sizes", "iou_hand_colours", "iou_hand_values", "iou_hand_sizes", "iou_hand_unknown", "iou_private_colours", "iou_private_values", "market_states", "market_colours", "market_values", "market_row_sizes", "participants", "deciding", "commits", "shot", "takers", "bid_order", "bid_made", "bid_sizes", "bid_colours", "bid_values", "pick_order", "final_order", "end_reason", "end_detail", "opt_out_soft", "single_auction", "order_best", "buy_limit_one", "ordered", "bought")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    ADVANCED_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_VARIANT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    QUIET_TURNS_FIELD_NUMBER: _ClassVar[int]
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
    BID_MADE_FIELD_NUMBER: _ClassVar[int]
    BID_SIZES_FIELD_NUMBER: _ClassVar[int]
    BID_COLOURS_FIELD_NUMBER: _ClassVar[int]
    BID_VALUES_FIELD_NUMBER: _ClassVar[int]
    PICK_ORDER_FIELD_NUMBER: _ClassVar[int]
    FINAL_ORDER_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    END_DETAIL_FIELD_NUMBER: _ClassVar[int]
    OPT_OUT_SOFT_FIELD_NUMBER: _ClassVar[int]
    SINGLE_AUCTION_FIELD_NUMBER: _ClassVar[int]
    ORDER_BEST_FIELD_NUMBER: _ClassVar[int]
    BUY_LIMIT_ONE_FIELD_NUMBER: _ClassVar[int]
    ORDERED_FIELD_NUMBER: _ClassVar[int]
    BOUGHT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_seats: int
    advanced: bool
    opt_out_variant: bool
    turn: int
    active: int
    phase: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    stage: str
    quiet_turns: int
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
    bid_made: _containers.RepeatedScalarFieldContainer[bool]
    bid_sizes: _containers.RepeatedScalarFieldContainer[int]
    bid_colours: _containers.RepeatedScalarFieldContainer[int]
    bid_values: _containers.RepeatedScalarFieldContainer[int]
    pick_order: _containers.RepeatedScalarFieldContainer[int]
    final_order: _containers.RepeatedScalarFieldContainer[int]
    end_reason: str
    end_detail: str
    opt_out_soft: bool
    single_auction: bool
    order_best: bool
    buy_limit_one: bool
    ordered: int
    bought: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., advanced: _Optional[bool] = ..., opt_out_variant: _Optional[bool] = ..., turn: _Optional[int] = ..., active: _Optional[int] = ..., phase: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., stage: _Optional[str] = ..., quiet_turns: _Optional[int] = ..., fields: _Optional[_Iterable[int]] = ..., nuggets: _Optional[_Iterable[int]] = ..., vultures: _Optional[_Iterable[int]] = ..., undertaker: _Optional[int] = ..., event: _Optional[int] = ..., event_revealed: _Optional[_Iterable[int]] = ..., event_deck_count: _Optional[int] = ..., adv_hand_known: _Optional[_Iterable[int]] = ..., adv_hand_sizes: _Optional[_Iterable[int]] = ..., adv_hand_unknown: _Optional[_Iterable[int]] = ..., adv_private: _Optional[_Iterable[int]] = ..., adv_deck_known: _Optional[_Iterable[int]] = ..., adv_deck_unknown: _Optional[int] = ..., adv_discard: _Optional[_Iterable[int]] = ..., unit_cards: _Optional[_Iterable[int]] = ..., unit_sizes: _Optional[_Iterable[int]] = ..., iou_hand_colours: _Optional[_Iterable[int]] = ..., iou_hand_values: _Optional[_Iterable[int]] = ..., iou_hand_sizes: _Optional[_Iterable[int]] = ..., iou_hand_unknown: _Optional[_Iterable[int]] = ..., iou_private_colours: _Optional[_Iterable[int]] = ..., iou_private_values: _Optional[_Iterable[int]] = ..., market_states: _Optional[_Iterable[_Union[SlotState, str]]] = ..., market_colours: _Optional[_Iterable[int]] = ..., market_values: _Optional[_Iterable[int]] = ..., market_row_sizes: _Optional[_Iterable[int]] = ..., participants: _Optional[_Iterable[int]] = ..., deciding: _Optional[_Iterable[int]] = ..., commits: _Optional[_Iterable[int]] = ..., shot: _Optional[_Iterable[int]] = ..., takers: _Optional[_Iterable[int]] = ..., bid_order: _Optional[_Iterable[int]] = ..., bid_made: _Optional[_Iterable[bool]] = ..., bid_sizes: _Optional[_Iterable[int]] = ..., bid_colours: _Optional[_Iterable[int]] = ..., bid_values: _Optional[_Iterable[int]] = ..., pick_order: _Optional[_Iterable[int]] = ..., final_order: _Optional[_Iterable[int]] = ..., end_reason: _Optional[str] = ..., end_detail: _Optional[str] = ..., opt_out_soft: _Optional[bool] = ..., single_auction: _Optional[bool] = ..., order_best: _Optional[bool] = ..., buy_limit_one: _Optional[bool] = ..., ordered: _Optional[int] = ..., bought: _Optional[_Iterable[int]] = ...) -> None: ...

class Iou(_message.Message):
    __slots__ = ("colour", "value")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    colour: int
    value: int
    def __init__(self, colour: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class Commitment(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...

class StartPlayer(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class AdventurersDrawn(_message.Message):
    __slots__ = ("seat", "count", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class MarketDealt(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class DeckReshuffled(_message.Message):
    __slots__ = ("deck", "count")
    DECK_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    deck: str
    count: int
    def __init__(self, deck: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("turn", "active")
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    turn: int
    active: int
    def __init__(self, turn: _Optional[int] = ..., active: _Optional[int] = ...) -> None: ...

class EventRevealed(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: int
    def __init__(self, event: _Optional[int] = ...) -> None: ...

class EventIgnored(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: int
    def __init__(self, event: _Optional[int] = ...) -> None: ...

class EventVoid(_message.Message):
    __slots__ = ("event",)
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: int
    def __init__(self, event: _Optional[int] = ...) -> None: ...

class UndertakerMoved(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class CommitmentsRevealed(_message.Message):
    __slots__ = ("event", "commitments")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_FIELD_NUMBER: _ClassVar[int]
    event: int
    commitments: _containers.RepeatedCompositeFieldContainer[Commitment]
    def __init__(self, event: _Optional[int] = ..., commitments: _Optional[_Iterable[_Union[Commitment, _Mapping]]] = ...) -> None: ...

class NuggetsGained(_message.Message):
    __slots__ = ("seat", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class HatMoved(_message.Message):
    __slots__ = ("seat", "steps", "field")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    steps: int
    field: int
    def __init__(self, seat: _Optional[int] = ..., steps: _Optional[int] = ..., field: _Optional[int] = ...) -> None: ...

class NoTakes(_message.Message):
    __slots__ = ("owed",)
    OWED_FIELD_NUMBER: _ClassVar[int]
    owed: int
    def __init__(self, owed: _Optional[int] = ...) -> None: ...

class IouTaken(_message.Message):
    __slots__ = ("seat", "row", "col", "iou")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    IOU_FIELD_NUMBER: _ClassVar[int]
    seat: int
    row: int
    col: int
    iou: Iou
    def __init__(self, seat: _Optional[int] = ..., row: _Optional[int] = ..., col: _Optional[int] = ..., iou: _Optional[_Union[Iou, _Mapping]] = ...) -> None: ...

class AdventurerDiscarded(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...

class PrestigeBought(_message.Message):
    __slots__ = ("seat", "steps", "final")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    steps: int
    final: bool
    def __init__(self, seat: _Optional[int] = ..., steps: _Optional[int] = ..., final: _Optional[bool] = ...) -> None: ...

class AdventurersRevealed(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class BidMade(_message.Message):
    __slots__ = ("seat", "ious", "total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    IOUS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ious: _containers.RepeatedCompositeFieldContainer[Iou]
    total: int
    def __init__(self, seat: _Optional[int] = ..., ious: _Optional[_Iterable[_Union[Iou, _Mapping]]] = ..., total: _Optional[int] = ...) -> None: ...

class Passed(_message.Message):
    __slots__ = ("seat", "hand")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: _containers.RepeatedCompositeFieldContainer[Iou]
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[Iou, _Mapping]]] = ...) -> None: ...

class BidReturned(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class Picked(_message.Message):
    __slots__ = ("seat", "cards", "slots")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    slots: _containers.RepeatedCompositeFieldContainer[Slot]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., slots: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ...) -> None: ...

class Payday(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DieRolled(_message.Message):
    __slots__ = ("face",)
    FACE_FIELD_NUMBER: _ClassVar[int]
    face: int
    def __init__(self, face: _Optional[int] = ...) -> None: ...

class IouTurnedUp(_message.Message):
    __slots__ = ("row", "col", "iou")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    IOU_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    iou: Iou
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ..., iou: _Optional[_Union[Iou, _Mapping]] = ...) -> None: ...

class NuggetsPaid(_message.Message):
    __slots__ = ("seat", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class VultureTaken(_message.Message):
    __slots__ = ("seat", "vultures")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VULTURES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    vultures: int
    def __init__(self, seat: _Optional[int] = ..., vultures: _Optional[int] = ...) -> None: ...

class Refilled(_message.Message):
    __slots__ = ("from_slot", "to_slot")
    FROM_SLOT_FIELD_NUMBER: _ClassVar[int]
    TO_SLOT_FIELD_NUMBER: _ClassVar[int]
    from_slot: Slot
    to_slot: Slot
    def __init__(self, from_slot: _Optional[_Union[Slot, _Mapping]] = ..., to_slot: _Optional[_Union[Slot, _Mapping]] = ...) -> None: ...

class MatchEnding(_message.Message):
    __slots__ = ("reason", "detail")
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    reason: str
    detail: str
    def __init__(self, reason: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...

class MatchOver(_message.Message):
    __slots__ = ("reason", "ranks")
    REASON_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, reason: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ...) -> None: ...

class Spared(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...

class Ordered(_message.Message):
    __slots__ = ("seat", "card", "place")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: int
    place: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ..., place: _Optional[int] = ...) -> None: ...

class AuctionOrder(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class Lot(_message.Message):
    __slots__ = ("card", "bidders")
    CARD_FIELD_NUMBER: _ClassVar[int]
    BIDDERS_FIELD_NUMBER: _ClassVar[int]
    card: int
    bidders: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, card: _Optional[int] = ..., bidders: _Optional[_Iterable[int]] = ...) -> None: ...

class BidPositionChosen(_message.Message):
    __slots__ = ("seat", "first", "bid_order")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    BID_ORDER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    first: bool
    bid_order: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., first: _Optional[bool] = ..., bid_order: _Optional[_Iterable[int]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("kind", "data", "start_player", "adventurers_drawn", "market_dealt", "deck_reshuffled", "turn_started", "event_revealed", "event_ignored", "event_void", "undertaker_moved", "commitments_revealed", "nuggets_gained", "hat_moved", "no_takes", "iou_taken", "adventurer_discarded", "prestige_bought", "adventurers_revealed", "bid", "passed", "bid_returned", "picked", "payday", "die_rolled", "iou_turned_up", "nuggets_paid", "vulture_taken", "refilled", "match_ending", "match_over", "spared", "ordered", "auction_order", "lot", "bid_position")
    KIND_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ADVENTURERS_DRAWN_FIELD_NUMBER: _ClassVar[int]
    MARKET_DEALT_FIELD_NUMBER: _ClassVar[int]
    DECK_RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    EVENT_REVEALED_FIELD_NUMBER: _ClassVar[int]
    EVENT_IGNORED_FIELD_NUMBER: _ClassVar[int]
    EVENT_VOID_FIELD_NUMBER: _ClassVar[int]
    UNDERTAKER_MOVED_FIELD_NUMBER: _ClassVar[int]
    COMMITMENTS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_GAINED_FIELD_NUMBER: _ClassVar[int]
    HAT_MOVED_FIELD_NUMBER: _ClassVar[int]
    NO_TAKES_FIELD_NUMBER: _ClassVar[int]
    IOU_TAKEN_FIELD_NUMBER: _ClassVar[int]
    ADVENTURER_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    PRESTIGE_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    ADVENTURERS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    BID_RETURNED_FIELD_NUMBER: _ClassVar[int]
    PICKED_FIELD_NUMBER: _ClassVar[int]
    PAYDAY_FIELD_NUMBER: _ClassVar[int]
    DIE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    IOU_TURNED_UP_FIELD_NUMBER: _ClassVar[int]
    NUGGETS_PAID_FIELD_NUMBER: _ClassVar[int]
    VULTURE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    REFILLED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDING_FIELD_NUMBER: _ClassVar[int]
    MATCH_OVER_FIELD_NUMBER: _ClassVar[int]
    SPARED_FIELD_NUMBER: _ClassVar[int]
    ORDERED_FIELD_NUMBER: _ClassVar[int]
    AUCTION_ORDER_FIELD_NUMBER: _ClassVar[int]
    LOT_FIELD_NUMBER: _ClassVar[int]
    BID_POSITION_FIELD_NUMBER: _ClassVar[int]
    kind: str
    data: _struct_pb2.Struct
    start_player: StartPlayer
    adventurers_drawn: AdventurersDrawn
    market_dealt: MarketDealt
    deck_reshuffled: DeckReshuffled
    turn_started: TurnStarted
    event_revealed: EventRevealed
    event_ignored: EventIgnored
    event_void: EventVoid
    undertaker_moved: UndertakerMoved
    commitments_revealed: CommitmentsRevealed
    nuggets_gained: NuggetsGained
    hat_moved: HatMoved
    no_takes: NoTakes
    iou_taken: IouTaken
    adventurer_discarded: AdventurerDiscarded
    prestige_bought: PrestigeBought
    adventurers_revealed: AdventurersRevealed
    bid: BidMade
    passed: Passed
    bid_returned: BidReturned
    picked: Picked
    payday: Payday
    die_rolled: DieRolled
    iou_turned_up: IouTurnedUp
    nuggets_paid: NuggetsPaid
    vulture_taken: VultureTaken
    refilled: Refilled
    match_ending: MatchEnding
    match_over: MatchOver
    spared: Spared
    ordered: Ordered
    auction_order: AuctionOrder
    lot: Lot
    bid_position: BidPositionChosen
    def __init__(self, kind: _Optional[str] = ..., data: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., start_player: _Optional[_Union[StartPlayer, _Mapping]] = ..., adventurers_drawn: _Optional[_Union[AdventurersDrawn, _Mapping]] = ..., market_dealt: _Optional[_Union[MarketDealt, _Mapping]] = ..., deck_reshuffled: _Optional[_Union[DeckReshuffled, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., event_revealed: _Optional[_Union[EventRevealed, _Mapping]] = ..., event_ignored: _Optional[_Union[EventIgnored, _Mapping]] = ..., event_void: _Optional[_Union[EventVoid, _Mapping]] = ..., undertaker_moved: _Optional[_Union[UndertakerMoved, _Mapping]] = ..., commitments_revealed: _Optional[_Union[CommitmentsRevealed, _Mapping]] = ..., nuggets_gained: _Optional[_Union[NuggetsGained, _Mapping]] = ..., hat_moved: _Optional[_Union[HatMoved, _Mapping]] = ..., no_takes: _Optional[_Union[NoTakes, _Mapping]] = ..., iou_taken: _Optional[_Union[IouTaken, _Mapping]] = ..., adventurer_discarded: _Optional[_Union[AdventurerDiscarded, _Mapping]] = ..., prestige_bought: _Optional[_Union[PrestigeBought, _Mapping]] = ..., adventurers_revealed: _Optional[_Union[AdventurersRevealed, _Mapping]] = ..., bid: _Optional[_Union[BidMade, _Mapping]] = ..., passed: _Optional[_Union[Passed, _Mapping]] = ..., bid_returned: _Optional[_Union[BidReturned, _Mapping]] = ..., picked: _Optional[_Union[Picked, _Mapping]] = ..., payday: _Optional[_Union[Payday, _Mapping]] = ..., die_rolled: _Optional[_Union[DieRolled, _Mapping]] = ..., iou_turned_up: _Optional[_Union[IouTurnedUp, _Mapping]] = ..., nuggets_paid: _Optional[_Union[NuggetsPaid, _Mapping]] = ..., vulture_taken: _Optional[_Union[VultureTaken, _Mapping]] = ..., refilled: _Optional[_Union[Refilled, _Mapping]] = ..., match_ending: _Optional[_Union[MatchEnding, _Mapping]] = ..., match_over: _Optional[_Union[MatchOver, _Mapping]] = ..., spared: _Optional[_Union[Spared, _Mapping]] = ..., ordered: _Optional[_Union[Ordered, _Mapping]] = ..., auction_order: _Optional[_Union[AuctionOrder, _Mapping]] = ..., lot: _Optional[_Union[Lot, _Mapping]] = ..., bid_position: _Optional[_Union[BidPositionChosen, _Mapping]] = ...) -> None: ...
