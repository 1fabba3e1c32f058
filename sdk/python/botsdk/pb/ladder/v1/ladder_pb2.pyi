from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SubmitRequest(_message.Message):
    __slots__ = ("archive", "single_file", "name", "version", "games", "startup_timeout", "move_time", "shown_path", "variants")
    ARCHIVE_FIELD_NUMBER: _ClassVar[int]
    SINGLE_FILE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    STARTUP_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_FIELD_NUMBER: _ClassVar[int]
    SHOWN_PATH_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    archive: bytes
    single_file: bool
    name: str
    version: str
    games: _containers.RepeatedScalarFieldContainer[str]
    startup_timeout: float
    move_time: float
    shown_path: str
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, archive: _Optional[bytes] = ..., single_file: _Optional[bool] = ..., name: _Optional[str] = ..., version: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., startup_timeout: _Optional[float] = ..., move_time: _Optional[float] = ..., shown_path: _Optional[str] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class SubmitPiece(_message.Message):
    __slots__ = ("request", "archive")
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    ARCHIVE_FIELD_NUMBER: _ClassVar[int]
    request: SubmitRequest
    archive: bytes
    def __init__(self, request: _Optional[_Union[SubmitRequest, _Mapping]] = ..., archive: _Optional[bytes] = ...) -> None: ...

class SubmitReply(_message.Message):
    __slots__ = ("name", "version", "content_hash", "new", "games", "twins", "variants")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    CONTENT_HASH_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    TWINS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    content_hash: str
    new: bool
    games: _containers.RepeatedScalarFieldContainer[str]
    twins: _containers.RepeatedScalarFieldContainer[str]
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., content_hash: _Optional[str] = ..., new: _Optional[bool] = ..., games: _Optional[_Iterable[str]] = ..., twins: _Optional[_Iterable[str]] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class RetireRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RetireReply(_message.Message):
    __slots__ = ("name", "version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Bot(_message.Message):
    __slots__ = ("id", "name", "version", "kind", "active", "games", "sha256", "description", "registered", "variants")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    REGISTERED_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    version: str
    kind: str
    active: bool
    games: _containers.RepeatedScalarFieldContainer[str]
    sha256: str
    description: str
    registered: str
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., version: _Optional[str] = ..., kind: _Optional[str] = ..., active: _Optional[bool] = ..., games: _Optional[_Iterable[str]] = ..., sha256: _Optional[str] = ..., description: _Optional[str] = ..., registered: _Optional[str] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class ListBotsReply(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[Bot]
    def __init__(self, bots: _Optional[_Iterable[_Union[Bot, _Mapping]]] = ...) -> None: ...

class StandingsRequest(_message.Message):
    __slots__ = ("game", "h2h", "seats", "include_retired", "confidence", "margin", "text", "width", "color", "variant")
    class VariantEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    H2H_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_RETIRED_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    MARGIN_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    game: str
    h2h: bool
    seats: bool
    include_retired: bool
    confidence: float
    margin: float
    text: bool
    width: int
    color: bool
    variant: _containers.ScalarMap[str, str]
    def __init__(self, game: _Optional[str] = ..., h2h: _Optional[bool] = ..., seats: _Optional[bool] = ..., include_retired: _Optional[bool] = ..., confidence: _Optional[float] = ..., margin: _Optional[float] = ..., text: _Optional[bool] = ..., width: _Optional[int] = ..., color: _Optional[bool] = ..., variant: _Optional[_Mapping[str, str]] = ...) -> None: ...

class StandingsReply(_message.Message):
    __slots__ = ("json", "text", "rule_set")
    JSON_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    json: str
    text: str
    rule_set: str
    def __init__(self, json: _Optional[str] = ..., text: _Optional[str] = ..., rule_set: _Optional[str] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("variant",)
    class VariantEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    variant: _containers.ScalarMap[str, str]
    def __init__(self, variant: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("bot", "version", "rank", "forfeit")
    BOT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    version: str
    rank: int
    forfeit: str
    def __init__(self, bot: _Optional[str] = ..., version: _Optional[str] = ..., rank: _Optional[int] = ..., forfeit: _Optional[str] = ...) -> None: ...

class MatchFinished(_message.Message):
    __slots__ = ("match_id", "game", "seats", "seconds", "end_reason", "rule_set")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    seconds: float
    end_reason: str
    rule_set: str
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., seconds: _Optional[float] = ..., end_reason: _Optional[str] = ..., rule_set: _Optional[str] = ...) -> None: ...

class LadderEvent(_message.Message):
    __slots__ = ("match", "standings")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    match: MatchFinished
    standings: StandingsReply
    def __init__(self, match: _Optional[_Union[MatchFinished, _Mapping]] = ..., standings: _Optional[_Union[StandingsReply, _Mapping]] = ...) -> None: ...

class RatingHistoryRequest(_message.Message):
    __slots__ = ("game", "variant")
    class VariantEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    game: str
    variant: _containers.ScalarMap[str, str]
    def __init__(self, game: _Optional[str] = ..., variant: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RatingPoint(_message.Message):
    __slots__ = ("match", "mu", "sigma")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    match: int
    mu: float
    sigma: float
    def __init__(self, match: _Optional[int] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ...) -> None: ...

class BotHistory(_message.Message):
    __slots__ = ("bot_id", "points")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    bot_id: int
    points: _containers.RepeatedCompositeFieldContainer[RatingPoint]
    def __init__(self, bot_id: _Optional[int] = ..., points: _Optional[_Iterable[_Union[RatingPoint, _Mapping]]] = ...) -> None: ...

class RatingHistoryReply(_message.Message):
    __slots__ = ("bots", "rule_set")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotHistory]
    rule_set: str
    def __init__(self, bots: _Optional[_Iterable[_Union[BotHistory, _Mapping]]] = ..., rule_set: _Optional[str] = ...) -> None: ...

class RecentMatchesRequest(_message.Message):
    __slots__ = ("game", "limit", "variant")
    class VariantEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    game: str
    limit: int
    variant: _containers.ScalarMap[str, str]
    def __init__(self, game: _Optional[str] = ..., limit: _Optional[int] = ..., variant: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RecentMatch(_message.Message):
    __slots__ = ("number", "match_id", "finished_at", "end_reason", "decisions", "seats", "record_kept", "set_finished")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FINISHED_AT_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RECORD_KEPT_FIELD_NUMBER: _ClassVar[int]
    SET_FINISHED_FIELD_NUMBER: _ClassVar[int]
    number: int
    match_id: str
    finished_at: str
    end_reason: str
    decisions: int
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    record_kept: bool
    set_finished: bool
    def __init__(self, number: _Optional[int] = ..., match_id: _Optional[str] = ..., finished_at: _Optional[str] = ..., end_reason: _Optional[str] = ..., decisions: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., record_kept: _Optional[bool] = ..., set_finished: _Optional[bool] = ...) -> None: ...

class RecentMatchesReply(_message.Message):
    __slots__ = ("matches", "rule_set")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[RecentMatch]
    rule_set: str
    def __init__(self, matches: _Optional[_Iterable[_Union[RecentMatch, _Mapping]]] = ..., rule_set: _Optional[str] = ...) -> None: ...

class GetRecordRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetRecordReply(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: bytes
    def __init__(self, record: _Optional[bytes] = ...) -> None: ...

class BotLogsRequest(_message.Message):
    __slots__ = ("name", "version", "lines", "game")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    lines: int
    game: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., lines: _Optional[int] = ..., game: _Optional[str] = ...) -> None: ...

class Forfeit(_message.Message):
    __slots__ = ("match_id", "reason")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    reason: str
    def __init__(self, match_id: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class BotLogsReply(_message.Message):
    __slots__ = ("label", "has_log", "text", "forfeits", "rotated")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    HAS_LOG_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    FORFEITS_FIELD_NUMBER: _ClassVar[int]
    ROTATED_FIELD_NUMBER: _ClassVar[int]
    label: str
    has_log: bool
    text: str
    forfeits: _containers.RepeatedCompositeFieldContainer[Forfeit]
    rotated: bool
    def __init__(self, label: _Optional[str] = ..., has_log: _Optional[bool] = ..., text: _Optional[str] = ..., forfeits: _Optional[_Iterable[_Union[Forfeit, _Mapping]]] = ..., rotated: _Optional[bool] = ...) -> None: ...

class BotRecordsRequest(_message.Message):
    __slots__ = ("name", "version", "game", "limit")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    game: str
    limit: int
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., game: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class MatchRecord(_message.Message):
    __slots__ = ("match_id", "game", "rule_set", "version", "record")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    rule_set: str
    version: str
    record: bytes
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., rule_set: _Optional[str] = ..., version: _Optional[str] = ..., record: _Optional[bytes] = ...) -> None: ...

class BotRecordsItem(_message.Message):
    __slots__ = ("record", "withheld")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    WITHHELD_FIELD_NUMBER: _ClassVar[int]
    record: MatchRecord
    withheld: int
    def __init__(self, record: _Optional[_Union[MatchRecord, _Mapping]] = ..., withheld: _Optional[int] = ...) -> None: ...
