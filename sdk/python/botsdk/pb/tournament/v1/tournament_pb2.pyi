from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as _gnadenlos_pb2
from botsdk.pb.saboteur.v1 import saboteur_pb2 as _saboteur_pb2
from botsdk.pb.leduc.v1 import leduc_pb2 as _leduc_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class HandshakeRequest(_message.Message):
    __slots__ = ("protocol_version", "referee_version")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REFEREE_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    referee_version: str
    def __init__(self, protocol_version: _Optional[int] = ..., referee_version: _Optional[str] = ...) -> None: ...

class HandshakeResponse(_message.Message):
    __slots__ = ("name", "version", "protocol_version", "games", "variants", "events_in_decide")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_IN_DECIDE_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    protocol_version: int
    games: _containers.RepeatedScalarFieldContainer[str]
    variants: _containers.RepeatedScalarFieldContainer[str]
    events_in_decide: bool
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., games: _Optional[_Iterable[str]] = ..., variants: _Optional[_Iterable[str]] = ..., events_in_decide: _Optional[bool] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("move_time_ms", "time_bank_ms", "grace_ms")
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    move_time_ms: int
    time_bank_ms: int
    grace_ms: int
    def __init__(self, move_time_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., grace_ms: _Optional[int] = ...) -> None: ...

class GameObservation(_message.Message):
    __slots__ = ("gnadenlos", "saboteur", "leduc")
    GNADENLOS_FIELD_NUMBER: _ClassVar[int]
    SABOTEUR_FIELD_NUMBER: _ClassVar[int]
    LEDUC_FIELD_NUMBER: _ClassVar[int]
    gnadenlos: _gnadenlos_pb2.Observation
    saboteur: _saboteur_pb2.Observation
    leduc: _leduc_pb2.Observation
    def __init__(self, gnadenlos: _Optional[_Union[_gnadenlos_pb2.Observation, _Mapping]] = ..., saboteur: _Optional[_Union[_saboteur_pb2.Observation, _Mapping]] = ..., leduc: _Optional[_Union[_leduc_pb2.Observation, _Mapping]] = ...) -> None: ...

class GameAction(_message.Message):
    __slots__ = ("gnadenlos", "saboteur", "leduc")
    GNADENLOS_FIELD_NUMBER: _ClassVar[int]
    SABOTEUR_FIELD_NUMBER: _ClassVar[int]
    LEDUC_FIELD_NUMBER: _ClassVar[int]
    gnadenlos: _gnadenlos_pb2.Action
    saboteur: _saboteur_pb2.Action
    leduc: _leduc_pb2.Action
    def __init__(self, gnadenlos: _Optional[_Union[_gnadenlos_pb2.Action, _Mapping]] = ..., saboteur: _Optional[_Union[_saboteur_pb2.Action, _Mapping]] = ..., leduc: _Optional[_Union[_leduc_pb2.Action, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("gnadenlos", "saboteur", "leduc")
    GNADENLOS_FIELD_NUMBER: _ClassVar[int]
    SABOTEUR_FIELD_NUMBER: _ClassVar[int]
    LEDUC_FIELD_NUMBER: _ClassVar[int]
    gnadenlos: _gnadenlos_pb2.Event
    saboteur: _saboteur_pb2.Event
    leduc: _leduc_pb2.Event
    def __init__(self, gnadenlos: _Optional[_Union[_gnadenlos_pb2.Event, _Mapping]] = ..., saboteur: _Optional[_Union[_saboteur_pb2.Event, _Mapping]] = ..., leduc: _Optional[_Union[_leduc_pb2.Event, _Mapping]] = ...) -> None: ...

class MatchStart(_message.Message):
    __slots__ = ("match_id", "game", "variant", "seat", "num_seats", "seat_names", "time_control", "observation", "seed_commitment", "evaluation")
    class VariantEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    variant: _containers.ScalarMap[str, str]
    seat: int
    num_seats: int
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    time_control: TimeControl
    observation: GameObservation
    seed_commitment: bytes
    evaluation: Evaluation
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., variant: _Optional[_Mapping[str, str]] = ..., seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., seat_names: _Optional[_Iterable[str]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., observation: _Optional[_Union[GameObservation, _Mapping]] = ..., seed_commitment: _Optional[bytes] = ..., evaluation: _Optional[_Union[Evaluation, _Mapping]] = ...) -> None: ...

class Evaluation(_message.Message):
    __slots__ = ("purpose", "chosen_seats")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    purpose: str
    chosen_seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, purpose: _Optional[str] = ..., chosen_seats: _Optional[_Iterable[int]] = ...) -> None: ...

class Decide(_message.Message):
    __slots__ = ("request_id", "observation", "legal_actions", "deadline_ms", "events")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    observation: GameObservation
    legal_actions: _containers.RepeatedCompositeFieldContainer[GameAction]
    deadline_ms: int
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, request_id: _Optional[int] = ..., observation: _Optional[_Union[GameObservation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[GameAction, _Mapping]]] = ..., deadline_ms: _Optional[int] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class Notify(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("ranks", "reason", "detail", "seed", "seed_salt")
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEED_SALT_FIELD_NUMBER: _ClassVar[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    detail: str
    seed: int
    seed_salt: bytes
    def __init__(self, ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., detail: _Optional[str] = ..., seed: _Optional[int] = ..., seed_salt: _Optional[bytes] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("match_start", "decide", "notify", "match_end")
    MATCH_START_FIELD_NUMBER: _ClassVar[int]
    DECIDE_FIELD_NUMBER: _ClassVar[int]
    NOTIFY_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    match_start: MatchStart
    decide: Decide
    notify: Notify
    match_end: MatchEnd
    def __init__(self, match_start: _Optional[_Union[MatchStart, _Mapping]] = ..., decide: _Optional[_Union[Decide, _Mapping]] = ..., notify: _Optional[_Union[Notify, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("request_id", "action")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    action: GameAction
    def __init__(self, request_id: _Optional[int] = ..., action: _Optional[_Union[GameAction, _Mapping]] = ...) -> None: ...

class BotMessage(_message.Message):
    __slots__ = ("decision",)
    DECISION_FIELD_NUMBER: _ClassVar[int]
    decision: Decision
    def __init__(self, decision: _Optional[_Union[Decision, _Mapping]] = ...) -> None: ...
