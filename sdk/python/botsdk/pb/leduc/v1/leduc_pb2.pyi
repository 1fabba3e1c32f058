from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Move(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_UNSPECIFIED: _ClassVar[Move]
    MOVE_FOLD: _ClassVar[Move]
    MOVE_CALL: _ClassVar[Move]
    MOVE_RAISE: _ClassVar[Move]
MOVE_UNSPECIFIED: Move
MOVE_FOLD: Move
MOVE_CALL: Move
MOVE_RAISE: Move

class Action(_message.Message):
    __slots__ = ("move",)
    MOVE_FIELD_NUMBER: _ClassVar[int]
    move: Move
    def __init__(self, move: _Optional[_Union[Move, str]] = ...) -> None: ...

class Bet(_message.Message):
    __slots__ = ("seat", "move")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    move: Move
    def __init__(self, seat: _Optional[int] = ..., move: _Optional[_Union[Move, str]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "num_seats", "card", "public_card", "round", "to_act", "stakes", "raises", "pot", "contributions", "folded", "round1", "round2", "over", "end_reason", "winners", "returns")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_CARD_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    STAKES_FIELD_NUMBER: _ClassVar[int]
    RAISES_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    CONTRIBUTIONS_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    ROUND1_FIELD_NUMBER: _ClassVar[int]
    ROUND2_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_seats: int
    card: int
    public_card: int
    round: int
    to_act: int
    stakes: int
    raises: int
    pot: int
    contributions: _containers.RepeatedScalarFieldContainer[int]
    folded: _containers.RepeatedScalarFieldContainer[bool]
    round1: _containers.RepeatedCompositeFieldContainer[Bet]
    round2: _containers.RepeatedCompositeFieldContainer[Bet]
    over: bool
    end_reason: str
    winners: _containers.RepeatedScalarFieldContainer[int]
    returns: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., card: _Optional[int] = ..., public_card: _Optional[int] = ..., round: _Optional[int] = ..., to_act: _Optional[int] = ..., stakes: _Optional[int] = ..., raises: _Optional[int] = ..., pot: _Optional[int] = ..., contributions: _Optional[_Iterable[int]] = ..., folded: _Optional[_Iterable[bool]] = ..., round1: _Optional[_Iterable[_Union[Bet, _Mapping]]] = ..., round2: _Optional[_Iterable[_Union[Bet, _Mapping]]] = ..., over: _Optional[bool] = ..., end_reason: _Optional[str] = ..., winners: _Optional[_Iterable[int]] = ..., returns: _Optional[_Iterable[float]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("card_dealt", "folded", "called", "raised", "public_card_dealt", "pot_won", "hand_started")
    CARD_DEALT_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    CALLED_FIELD_NUMBER: _ClassVar[int]
    RAISED_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_CARD_DEALT_FIELD_NUMBER: _ClassVar[int]
    POT_WON_FIELD_NUMBER: _ClassVar[int]
    HAND_STARTED_FIELD_NUMBER: _ClassVar[int]
    card_dealt: CardDealt
    folded: Folded
    called: Called
    raised: Raised
    public_card_dealt: PublicCardDealt
    pot_won: PotWon
    hand_started: HandStarted
    def __init__(self, card_dealt: _Optional[_Union[CardDealt, _Mapping]] = ..., folded: _Optional[_Union[Folded, _Mapping]] = ..., called: _Optional[_Union[Called, _Mapping]] = ..., raised: _Optional[_Union[Raised, _Mapping]] = ..., public_card_dealt: _Optional[_Union[PublicCardDealt, _Mapping]] = ..., pot_won: _Optional[_Union[PotWon, _Mapping]] = ..., hand_started: _Optional[_Union[HandStarted, _Mapping]] = ...) -> None: ...

class CardDealt(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[int] = ...) -> None: ...

class Folded(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class Called(_message.Message):
    __slots__ = ("seat", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class Raised(_message.Message):
    __slots__ = ("seat", "amount", "stakes")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    STAKES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    amount: int
    stakes: int
    def __init__(self, seat: _Optional[int] = ..., amount: _Optional[int] = ..., stakes: _Optional[int] = ...) -> None: ...

class PublicCardDealt(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: int
    def __init__(self, card: _Optional[int] = ...) -> None: ...

class PotWon(_message.Message):
    __slots__ = ("reason", "winners", "pot", "returns")
    REASON_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    winners: _containers.RepeatedScalarFieldContainer[int]
    pot: int
    returns: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, reason: _Optional[str] = ..., winners: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ..., returns: _Optional[_Iterable[float]] = ...) -> None: ...

class HandStarted(_message.Message):
    __slots__ = ("hand", "hands", "chips")
    HAND_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    hand: int
    hands: int
    chips: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, hand: _Optional[int] = ..., hands: _Optional[int] = ..., chips: _Optional[_Iterable[float]] = ...) -> None: ...
