from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StopCount(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STOP_COUNT_UNSPECIFIED: _ClassVar[StopCount]
    STOP_COUNT_ONCE: _ClassVar[StopCount]
    STOP_COUNT_PER_HEX: _ClassVar[StopCount]
    STOP_COUNT_PER_STOP: _ClassVar[StopCount]

class Award(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AWARD_UNSPECIFIED: _ClassVar[Award]
    AWARD_MOST_VISITED_STOPS: _ClassVar[Award]
    AWARD_LAST: _ClassVar[Award]
    AWARD_FIRST_MAX: _ClassVar[Award]

class StopScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STOP_SCOPE_UNSPECIFIED: _ClassVar[StopScope]
    STOP_SCOPE_COUNTED: _ClassVar[StopScope]
    STOP_SCOPE_VISITED: _ClassVar[StopScope]
    STOP_SCOPE_PATH_HEXES: _ClassVar[StopScope]
    STOP_SCOPE_ENDPOINTS: _ClassVar[StopScope]
    STOP_SCOPE_CANDIDATES: _ClassVar[StopScope]

class BonusTarget(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BONUS_TARGET_UNSPECIFIED: _ClassVar[BonusTarget]
    BONUS_TARGET_REVENUE: _ClassVar[BonusTarget]
    BONUS_TARGET_SUBSIDY: _ClassVar[BonusTarget]

class CountMethod(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COUNT_METHOD_UNSPECIFIED: _ClassVar[CountMethod]
    COUNT_METHOD_MANDATORY_FIRST: _ClassVar[CountMethod]

class RouteRuleKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUTE_RULE_KIND_UNSPECIFIED: _ClassVar[RouteRuleKind]
    ROUTE_RULE_KIND_MIN_STOPS: _ClassVar[RouteRuleKind]
    ROUTE_RULE_KIND_MAX_STOPS: _ClassVar[RouteRuleKind]
    ROUTE_RULE_KIND_NO_HEX_REVISIT: _ClassVar[RouteRuleKind]
    ROUTE_RULE_KIND_FORBIDDEN_HEXES: _ClassVar[RouteRuleKind]

class RouteSetRuleKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUTE_SET_RULE_KIND_UNSPECIFIED: _ClassVar[RouteSetRuleKind]
    ROUTE_SET_RULE_KIND_MAX_ROUTES_VISITING: _ClassVar[RouteSetRuleKind]

class OverlapScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OVERLAP_SCOPE_UNSPECIFIED: _ClassVar[OverlapScope]
    OVERLAP_SCOPE_RUN: _ClassVar[OverlapScope]
    OVERLAP_SCOPE_ROUTE: _ClassVar[OverlapScope]
    OVERLAP_SCOPE_POOLS: _ClassVar[OverlapScope]

class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_UNSPECIFIED: _ClassVar[Status]
    OPTIMAL: _ClassVar[Status]
    FEASIBLE: _ClassVar[Status]
    INFEASIBLE: _ClassVar[Status]
    UNKNOWN: _ClassVar[Status]

class Objective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OBJECTIVE_UNSPECIFIED: _ClassVar[Objective]
    RULEBOOK: _ClassVar[Objective]
    REVENUE_ONLY: _ClassVar[Objective]
STOP_COUNT_UNSPECIFIED: StopCount
STOP_COUNT_ONCE: StopCount
STOP_COUNT_PER_HEX: StopCount
STOP_COUNT_PER_STOP: StopCount
AWARD_UNSPECIFIED: Award
AWARD_MOST_VISITED_STOPS: Award
AWARD_LAST: Award
AWARD_FIRST_MAX: Award
STOP_SCOPE_UNSPECIFIED: StopScope
STOP_SCOPE_COUNTED: StopScope
STOP_SCOPE_VISITED: StopScope
STOP_SCOPE_PATH_HEXES: StopScope
STOP_SCOPE_ENDPOINTS: StopScope
STOP_SCOPE_CANDIDATES: StopScope
BONUS_TARGET_UNSPECIFIED: BonusTarget
BONUS_TARGET_REVENUE: BonusTarget
BONUS_TARGET_SUBSIDY: BonusTarget
COUNT_METHOD_UNSPECIFIED: CountMethod
COUNT_METHOD_MANDATORY_FIRST: CountMethod
ROUTE_RULE_KIND_UNSPECIFIED: RouteRuleKind
ROUTE_RULE_KIND_MIN_STOPS: RouteRuleKind
ROUTE_RULE_KIND_MAX_STOPS: RouteRuleKind
ROUTE_RULE_KIND_NO_HEX_REVISIT: RouteRuleKind
ROUTE_RULE_KIND_FORBIDDEN_HEXES: RouteRuleKind
ROUTE_SET_RULE_KIND_UNSPECIFIED: RouteSetRuleKind
ROUTE_SET_RULE_KIND_MAX_ROUTES_VISITING: RouteSetRuleKind
OVERLAP_SCOPE_UNSPECIFIED: OverlapScope
OVERLAP_SCOPE_RUN: OverlapScope
OVERLAP_SCOPE_ROUTE: OverlapScope
OVERLAP_SCOPE_POOLS: OverlapScope
STATUS_UNSPECIFIED: Status
OPTIMAL: Status
FEASIBLE: Status
INFEASIBLE: Status
UNKNOWN: Status
OBJECTIVE_UNSPECIFIED: Objective
RULEBOOK: Objective
REVENUE_ONLY: Objective

class PathEnd(_message.Message):
    __slots__ = ("edge", "node")
    EDGE_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    edge: int
    node: str
    def __init__(self, edge: _Optional[int] = ..., node: _Optional[str] = ...) -> None: ...

class Lane(_message.Message):
    __slots__ = ("width", "index")
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    width: int
    index: int
    def __init__(self, width: _Optional[int] = ..., index: _Optional[int] = ...) -> None: ...

class Path(_message.Message):
    __slots__ = ("id", "a", "b", "track", "lanes", "terminal", "ignore", "ignore_gauge_walk")
    ID_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    TRACK_FIELD_NUMBER: _ClassVar[int]
    LANES_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    IGNORE_FIELD_NUMBER: _ClassVar[int]
    IGNORE_GAUGE_WALK_FIELD_NUMBER: _ClassVar[int]
    id: str
    a: PathEnd
    b: PathEnd
    track: str
    lanes: _containers.RepeatedCompositeFieldContainer[Lane]
    terminal: bool
    ignore: bool
    ignore_gauge_walk: bool
    def __init__(self, id: _Optional[str] = ..., a: _Optional[_Union[PathEnd, _Mapping]] = ..., b: _Optional[_Union[PathEnd, _Mapping]] = ..., track: _Optional[str] = ..., lanes: _Optional[_Iterable[_Union[Lane, _Mapping]]] = ..., terminal: _Optional[bool] = ..., ignore: _Optional[bool] = ..., ignore_gauge_walk: _Optional[bool] = ...) -> None: ...

class Token(_message.Message):
    __slots__ = ("corp", "status", "type")
    CORP_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    corp: str
    status: str
    type: str
    def __init__(self, corp: _Optional[str] = ..., status: _Optional[str] = ..., type: _Optional[str] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: Token
    def __init__(self, token: _Optional[_Union[Token, _Mapping]] = ...) -> None: ...

class Node(_message.Message):
    __slots__ = ("id", "kind", "revenue", "revenue_by_train", "visit_cost", "route", "groups", "slots", "tokens", "blocks", "terminal", "tokened_by_company", "near_edge", "sig", "train_class", "token_class", "country", "exchange_owner", "near_edge_halves")
    class RevenueByTrainEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    REVENUE_BY_TRAIN_FIELD_NUMBER: _ClassVar[int]
    VISIT_COST_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    BLOCKS_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    TOKENED_BY_COMPANY_FIELD_NUMBER: _ClassVar[int]
    NEAR_EDGE_FIELD_NUMBER: _ClassVar[int]
    SIG_FIELD_NUMBER: _ClassVar[int]
    TRAIN_CLASS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_CLASS_FIELD_NUMBER: _ClassVar[int]
    COUNTRY_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_OWNER_FIELD_NUMBER: _ClassVar[int]
    NEAR_EDGE_HALVES_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    revenue: int
    revenue_by_train: _containers.ScalarMap[str, int]
    visit_cost: int
    route: str
    groups: _containers.RepeatedScalarFieldContainer[str]
    slots: int
    tokens: _containers.RepeatedCompositeFieldContainer[Slot]
    blocks: bool
    terminal: bool
    tokened_by_company: bool
    near_edge: int
    sig: str
    train_class: str
    token_class: str
    country: str
    exchange_owner: str
    near_edge_halves: int
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., revenue: _Optional[int] = ..., revenue_by_train: _Optional[_Mapping[str, int]] = ..., visit_cost: _Optional[int] = ..., route: _Optional[str] = ..., groups: _Optional[_Iterable[str]] = ..., slots: _Optional[int] = ..., tokens: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ..., blocks: _Optional[bool] = ..., terminal: _Optional[bool] = ..., tokened_by_company: _Optional[bool] = ..., near_edge: _Optional[int] = ..., sig: _Optional[str] = ..., train_class: _Optional[str] = ..., token_class: _Optional[str] = ..., country: _Optional[str] = ..., exchange_owner: _Optional[str] = ..., near_edge_halves: _Optional[int] = ...) -> None: ...

class Hex(_message.Message):
    __slots__ = ("id", "neighbors", "nodes", "paths", "tile", "color", "framed", "location")
    class NeighborsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: str
        def __init__(self, key: _Optional[int] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    NEIGHBORS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    PATHS_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    FRAMED_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    id: str
    neighbors: _containers.ScalarMap[int, str]
    nodes: _containers.RepeatedCompositeFieldContainer[Node]
    paths: _containers.RepeatedCompositeFieldContainer[Path]
    tile: str
    color: str
    framed: bool
    location: str
    def __init__(self, id: _Optional[str] = ..., neighbors: _Optional[_Mapping[int, str]] = ..., nodes: _Optional[_Iterable[_Union[Node, _Mapping]]] = ..., paths: _Optional[_Iterable[_Union[Path, _Mapping]]] = ..., tile: _Optional[str] = ..., color: _Optional[str] = ..., framed: _Optional[bool] = ..., location: _Optional[str] = ...) -> None: ...

class Phase(_message.Message):
    __slots__ = ("name", "tiles")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    name: str
    tiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., tiles: _Optional[_Iterable[str]] = ...) -> None: ...

class PlacedToken(_message.Message):
    __slots__ = ("hex", "node", "status")
    HEX_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    hex: str
    node: str
    status: str
    def __init__(self, hex: _Optional[str] = ..., node: _Optional[str] = ..., status: _Optional[str] = ...) -> None: ...

class Company(_message.Message):
    __slots__ = ("id", "name", "tokens", "type", "home")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    HOME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    tokens: _containers.RepeatedCompositeFieldContainer[PlacedToken]
    type: str
    home: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., tokens: _Optional[_Iterable[_Union[PlacedToken, _Mapping]]] = ..., type: _Optional[str] = ..., home: _Optional[_Iterable[str]] = ...) -> None: ...

class DistanceRow(_message.Message):
    __slots__ = ("kinds", "pay", "visit", "multiplier", "row_multiplier")
    KINDS_FIELD_NUMBER: _ClassVar[int]
    PAY_FIELD_NUMBER: _ClassVar[int]
    VISIT_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    ROW_MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    kinds: _containers.RepeatedScalarFieldContainer[str]
    pay: int
    visit: int
    multiplier: int
    row_multiplier: int
    def __init__(self, kinds: _Optional[_Iterable[str]] = ..., pay: _Optional[int] = ..., visit: _Optional[int] = ..., multiplier: _Optional[int] = ..., row_multiplier: _Optional[int] = ...) -> None: ...

class StopsByType(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[DistanceRow]
    def __init__(self, rows: _Optional[_Iterable[_Union[DistanceRow, _Mapping]]] = ...) -> None: ...

class Unlimited(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Express(_message.Message):
    __slots__ = ("stops",)
    STOPS_FIELD_NUMBER: _ClassVar[int]
    stops: int
    def __init__(self, stops: _Optional[int] = ...) -> None: ...

class Flood(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class NoLimit(_message.Message):
    __slots__ = ("distance",)
    DISTANCE_FIELD_NUMBER: _ClassVar[int]
    distance: int
    def __init__(self, distance: _Optional[int] = ...) -> None: ...

class Distance(_message.Message):
    __slots__ = ("stops", "stops_by_type", "hexes", "unlimited", "express", "flood", "no_limit")
    STOPS_FIELD_NUMBER: _ClassVar[int]
    STOPS_BY_TYPE_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    UNLIMITED_FIELD_NUMBER: _ClassVar[int]
    EXPRESS_FIELD_NUMBER: _ClassVar[int]
    FLOOD_FIELD_NUMBER: _ClassVar[int]
    NO_LIMIT_FIELD_NUMBER: _ClassVar[int]
    stops: int
    stops_by_type: StopsByType
    hexes: int
    unlimited: Unlimited
    express: Express
    flood: Flood
    no_limit: NoLimit
    def __init__(self, stops: _Optional[int] = ..., stops_by_type: _Optional[_Union[StopsByType, _Mapping]] = ..., hexes: _Optional[int] = ..., unlimited: _Optional[_Union[Unlimited, _Mapping]] = ..., express: _Optional[_Union[Express, _Mapping]] = ..., flood: _Optional[_Union[Flood, _Mapping]] = ..., no_limit: _Optional[_Union[NoLimit, _Mapping]] = ...) -> None: ...

class Train(_message.Message):
    __slots__ = ("id", "name", "distance", "multiplier", "local", "requires_token", "train_class", "by_hex", "super_train", "diesel", "type")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    LOCAL_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TRAIN_CLASS_FIELD_NUMBER: _ClassVar[int]
    BY_HEX_FIELD_NUMBER: _ClassVar[int]
    SUPER_TRAIN_FIELD_NUMBER: _ClassVar[int]
    DIESEL_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    distance: Distance
    multiplier: int
    local: bool
    requires_token: bool
    train_class: str
    by_hex: bool
    super_train: str
    diesel: bool
    type: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., distance: _Optional[_Union[Distance, _Mapping]] = ..., multiplier: _Optional[int] = ..., local: _Optional[bool] = ..., requires_token: _Optional[bool] = ..., train_class: _Optional[str] = ..., by_hex: _Optional[bool] = ..., super_train: _Optional[str] = ..., diesel: _Optional[bool] = ..., type: _Optional[str] = ...) -> None: ...

class RulesOptions(_message.Message):
    __slots__ = ("location_bonus", "towns_plus_10", "port_token", "port_token_own", "classes_share_track")
    LOCATION_BONUS_FIELD_NUMBER: _ClassVar[int]
    TOWNS_PLUS_10_FIELD_NUMBER: _ClassVar[int]
    PORT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PORT_TOKEN_OWN_FIELD_NUMBER: _ClassVar[int]
    CLASSES_SHARE_TRACK_FIELD_NUMBER: _ClassVar[int]
    location_bonus: bool
    towns_plus_10: bool
    port_token: str
    port_token_own: bool
    classes_share_track: bool
    def __init__(self, location_bonus: _Optional[bool] = ..., towns_plus_10: _Optional[bool] = ..., port_token: _Optional[str] = ..., port_token_own: _Optional[bool] = ..., classes_share_track: _Optional[bool] = ...) -> None: ...

class Source(_message.Message):
    __slots__ = ("title", "fixture", "action_id", "position")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    FIXTURE_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    title: str
    fixture: str
    action_id: int
    position: int
    def __init__(self, title: _Optional[str] = ..., fixture: _Optional[str] = ..., action_id: _Optional[int] = ..., position: _Optional[int] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ("ruleset", "phase", "company", "trains", "hexes", "layout", "source", "options", "modifiers", "revenue_model", "axes", "h1873")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    COMPANY_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MODIFIERS_FIELD_NUMBER: _ClassVar[int]
    REVENUE_MODEL_FIELD_NUMBER: _ClassVar[int]
    AXES_FIELD_NUMBER: _ClassVar[int]
    H1873_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    phase: Phase
    company: Company
    trains: _containers.RepeatedCompositeFieldContainer[Train]
    hexes: _containers.RepeatedCompositeFieldContainer[Hex]
    layout: str
    source: Source
    options: RulesOptions
    modifiers: _containers.RepeatedCompositeFieldContainer[Modifier]
    revenue_model: str
    axes: str
    h1873: Harzbahn1873
    def __init__(self, ruleset: _Optional[str] = ..., phase: _Optional[_Union[Phase, _Mapping]] = ..., company: _Optional[_Union[Company, _Mapping]] = ..., trains: _Optional[_Iterable[_Union[Train, _Mapping]]] = ..., hexes: _Optional[_Iterable[_Union[Hex, _Mapping]]] = ..., layout: _Optional[str] = ..., source: _Optional[_Union[Source, _Mapping]] = ..., options: _Optional[_Union[RulesOptions, _Mapping]] = ..., modifiers: _Optional[_Iterable[_Union[Modifier, _Mapping]]] = ..., revenue_model: _Optional[str] = ..., axes: _Optional[str] = ..., h1873: _Optional[_Union[Harzbahn1873, _Mapping]] = ...) -> None: ...

class BonusValue(_message.Message):
    __slots__ = ("amount", "stop_revenue", "minus_stop_revenue")
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    STOP_REVENUE_FIELD_NUMBER: _ClassVar[int]
    MINUS_STOP_REVENUE_FIELD_NUMBER: _ClassVar[int]
    amount: int
    stop_revenue: bool
    minus_stop_revenue: bool
    def __init__(self, amount: _Optional[int] = ..., stop_revenue: _Optional[bool] = ..., minus_stop_revenue: _Optional[bool] = ...) -> None: ...

class StopBonus(_message.Message):
    __slots__ = ("hexes", "count", "endpoint", "nodes", "scope", "target")
    class HexesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: BonusValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[BonusValue, _Mapping]] = ...) -> None: ...
    class NodesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: BonusValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[BonusValue, _Mapping]] = ...) -> None: ...
    HEXES_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    hexes: _containers.MessageMap[str, BonusValue]
    count: StopCount
    endpoint: bool
    nodes: _containers.MessageMap[str, BonusValue]
    scope: StopScope
    target: BonusTarget
    def __init__(self, hexes: _Optional[_Mapping[str, BonusValue]] = ..., count: _Optional[_Union[StopCount, str]] = ..., endpoint: _Optional[bool] = ..., nodes: _Optional[_Mapping[str, BonusValue]] = ..., scope: _Optional[_Union[StopScope, str]] = ..., target: _Optional[_Union[BonusTarget, str]] = ...) -> None: ...

class HexValues(_message.Message):
    __slots__ = ("hexes",)
    class HexesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    HEXES_FIELD_NUMBER: _ClassVar[int]
    hexes: _containers.ScalarMap[str, int]
    def __init__(self, hexes: _Optional[_Mapping[str, int]] = ...) -> None: ...

class ComboBonus(_message.Message):
    __slots__ = ("sets", "fixed", "sum", "scope", "exclusive")
    SETS_FIELD_NUMBER: _ClassVar[int]
    FIXED_FIELD_NUMBER: _ClassVar[int]
    SUM_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    EXCLUSIVE_FIELD_NUMBER: _ClassVar[int]
    sets: _containers.RepeatedCompositeFieldContainer[HexValues]
    fixed: int
    sum: bool
    scope: StopScope
    exclusive: str
    def __init__(self, sets: _Optional[_Iterable[_Union[HexValues, _Mapping]]] = ..., fixed: _Optional[int] = ..., sum: _Optional[bool] = ..., scope: _Optional[_Union[StopScope, str]] = ..., exclusive: _Optional[str] = ...) -> None: ...

class BestRouteBonus(_message.Message):
    __slots__ = ("award", "per_visited_stop", "amount", "per_distinct", "requires_hexes", "stop_kinds", "distinct_hex_values")
    class DistinctHexValuesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    AWARD_FIELD_NUMBER: _ClassVar[int]
    PER_VISITED_STOP_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    PER_DISTINCT_FIELD_NUMBER: _ClassVar[int]
    REQUIRES_HEXES_FIELD_NUMBER: _ClassVar[int]
    STOP_KINDS_FIELD_NUMBER: _ClassVar[int]
    DISTINCT_HEX_VALUES_FIELD_NUMBER: _ClassVar[int]
    award: Award
    per_visited_stop: int
    amount: int
    per_distinct: int
    requires_hexes: _containers.RepeatedScalarFieldContainer[str]
    stop_kinds: NameList
    distinct_hex_values: _containers.ScalarMap[str, str]
    def __init__(self, award: _Optional[_Union[Award, str]] = ..., per_visited_stop: _Optional[int] = ..., amount: _Optional[int] = ..., per_distinct: _Optional[int] = ..., requires_hexes: _Optional[_Iterable[str]] = ..., stop_kinds: _Optional[_Union[NameList, _Mapping]] = ..., distinct_hex_values: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RequiredRoute(_message.Message):
    __slots__ = ("endpoint_hexes", "error")
    ENDPOINT_HEXES_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    endpoint_hexes: _containers.RepeatedScalarFieldContainer[str]
    error: str
    def __init__(self, endpoint_hexes: _Optional[_Iterable[str]] = ..., error: _Optional[str] = ...) -> None: ...

class DropLowestRoute(_message.Message):
    __slots__ = ("min_routes",)
    MIN_ROUTES_FIELD_NUMBER: _ClassVar[int]
    min_routes: int
    def __init__(self, min_routes: _Optional[int] = ...) -> None: ...

class NameList(_message.Message):
    __slots__ = ("names",)
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, names: _Optional[_Iterable[str]] = ...) -> None: ...

class CountedStops(_message.Message):
    __slots__ = ("method",)
    METHOD_FIELD_NUMBER: _ClassVar[int]
    method: CountMethod
    def __init__(self, method: _Optional[_Union[CountMethod, str]] = ...) -> None: ...

class RouteRule(_message.Message):
    __slots__ = ("rule", "scope", "error", "count", "kinds", "hexes", "exclude_nodes")
    RULE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_NODES_FIELD_NUMBER: _ClassVar[int]
    rule: RouteRuleKind
    scope: StopScope
    error: str
    count: int
    kinds: NameList
    hexes: NameList
    exclude_nodes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, rule: _Optional[_Union[RouteRuleKind, str]] = ..., scope: _Optional[_Union[StopScope, str]] = ..., error: _Optional[str] = ..., count: _Optional[int] = ..., kinds: _Optional[_Union[NameList, _Mapping]] = ..., hexes: _Optional[_Union[NameList, _Mapping]] = ..., exclude_nodes: _Optional[_Iterable[str]] = ...) -> None: ...

class RouteSetRule(_message.Message):
    __slots__ = ("rule", "hexes", "count", "error")
    RULE_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    rule: RouteSetRuleKind
    hexes: _containers.RepeatedScalarFieldContainer[str]
    count: int
    error: str
    def __init__(self, rule: _Optional[_Union[RouteSetRuleKind, str]] = ..., hexes: _Optional[_Iterable[str]] = ..., count: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class OverlapRule(_message.Message):
    __slots__ = ("scope", "pools")
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    POOLS_FIELD_NUMBER: _ClassVar[int]
    scope: OverlapScope
    pools: _containers.RepeatedCompositeFieldContainer[NameList]
    def __init__(self, scope: _Optional[_Union[OverlapScope, str]] = ..., pools: _Optional[_Iterable[_Union[NameList, _Mapping]]] = ...) -> None: ...

class StopPaysOnce(_message.Message):
    __slots__ = ("groups",)
    GROUPS_FIELD_NUMBER: _ClassVar[int]
    groups: bool
    def __init__(self, groups: _Optional[bool] = ...) -> None: ...

class Modifier(_message.Message):
    __slots__ = ("source", "label", "trains", "stop_bonus", "combo_bonus", "best_route_bonus", "required_route", "drop_lowest_route", "counted_stops", "route_rule", "route_set_rule", "overlap_rule", "stop_pays_once")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    STOP_BONUS_FIELD_NUMBER: _ClassVar[int]
    COMBO_BONUS_FIELD_NUMBER: _ClassVar[int]
    BEST_ROUTE_BONUS_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_ROUTE_FIELD_NUMBER: _ClassVar[int]
    DROP_LOWEST_ROUTE_FIELD_NUMBER: _ClassVar[int]
    COUNTED_STOPS_FIELD_NUMBER: _ClassVar[int]
    ROUTE_RULE_FIELD_NUMBER: _ClassVar[int]
    ROUTE_SET_RULE_FIELD_NUMBER: _ClassVar[int]
    OVERLAP_RULE_FIELD_NUMBER: _ClassVar[int]
    STOP_PAYS_ONCE_FIELD_NUMBER: _ClassVar[int]
    source: str
    label: str
    trains: NameList
    stop_bonus: StopBonus
    combo_bonus: ComboBonus
    best_route_bonus: BestRouteBonus
    required_route: RequiredRoute
    drop_lowest_route: DropLowestRoute
    counted_stops: CountedStops
    route_rule: RouteRule
    route_set_rule: RouteSetRule
    overlap_rule: OverlapRule
    stop_pays_once: StopPaysOnce
    def __init__(self, source: _Optional[str] = ..., label: _Optional[str] = ..., trains: _Optional[_Union[NameList, _Mapping]] = ..., stop_bonus: _Optional[_Union[StopBonus, _Mapping]] = ..., combo_bonus: _Optional[_Union[ComboBonus, _Mapping]] = ..., best_route_bonus: _Optional[_Union[BestRouteBonus, _Mapping]] = ..., required_route: _Optional[_Union[RequiredRoute, _Mapping]] = ..., drop_lowest_route: _Optional[_Union[DropLowestRoute, _Mapping]] = ..., counted_stops: _Optional[_Union[CountedStops, _Mapping]] = ..., route_rule: _Optional[_Union[RouteRule, _Mapping]] = ..., route_set_rule: _Optional[_Union[RouteSetRule, _Mapping]] = ..., overlap_rule: _Optional[_Union[OverlapRule, _Mapping]] = ..., stop_pays_once: _Optional[_Union[StopPaysOnce, _Mapping]] = ...) -> None: ...

class BonusLine(_message.Message):
    __slots__ = ("label", "amount", "source")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    label: str
    amount: int
    source: str
    def __init__(self, label: _Optional[str] = ..., amount: _Optional[int] = ..., source: _Optional[str] = ...) -> None: ...

class SuperTrain(_message.Message):
    __slots__ = ("id", "name", "distance", "diesel", "subtrains", "maintenance")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_FIELD_NUMBER: _ClassVar[int]
    DIESEL_FIELD_NUMBER: _ClassVar[int]
    SUBTRAINS_FIELD_NUMBER: _ClassVar[int]
    MAINTENANCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    distance: int
    diesel: bool
    subtrains: _containers.RepeatedScalarFieldContainer[str]
    maintenance: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., distance: _Optional[int] = ..., diesel: _Optional[bool] = ..., subtrains: _Optional[_Iterable[str]] = ..., maintenance: _Optional[int] = ...) -> None: ...

class HexSet(_message.Message):
    __slots__ = ("hexes",)
    HEXES_FIELD_NUMBER: _ClassVar[int]
    hexes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hexes: _Optional[_Iterable[str]] = ...) -> None: ...

class Mine(_message.Message):
    __slots__ = ("id", "name", "hex", "open", "connected", "multiplier", "machine_revenue", "switcher_revenue", "owner", "vor_harzer")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    HEX_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    MACHINE_REVENUE_FIELD_NUMBER: _ClassVar[int]
    SWITCHER_REVENUE_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    VOR_HARZER_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    hex: str
    open: bool
    connected: bool
    multiplier: int
    machine_revenue: _containers.RepeatedScalarFieldContainer[int]
    switcher_revenue: _containers.RepeatedScalarFieldContainer[int]
    owner: str
    vor_harzer: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., hex: _Optional[str] = ..., open: _Optional[bool] = ..., connected: _Optional[bool] = ..., multiplier: _Optional[int] = ..., machine_revenue: _Optional[_Iterable[int]] = ..., switcher_revenue: _Optional[_Iterable[int]] = ..., owner: _Optional[str] = ..., vor_harzer: _Optional[bool] = ...) -> None: ...

class Factory(_message.Message):
    __slots__ = ("hex", "name", "revenue")
    HEX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    hex: str
    name: str
    revenue: int
    def __init__(self, hex: _Optional[str] = ..., name: _Optional[str] = ..., revenue: _Optional[int] = ...) -> None: ...

class Harzbahn1873(_message.Message):
    __slots__ = ("super_trains", "concession_routes", "home_hexes", "mines", "factories", "terminus_nodes", "diesel_terminus_nodes", "diesel_connected_nodes", "diesel_pool", "is_qlb", "qlb_bonus", "maintenance", "stop_revenue", "diesel_stop_revenue", "concession_route_hexes", "hw_bonus")
    SUPER_TRAINS_FIELD_NUMBER: _ClassVar[int]
    CONCESSION_ROUTES_FIELD_NUMBER: _ClassVar[int]
    HOME_HEXES_FIELD_NUMBER: _ClassVar[int]
    MINES_FIELD_NUMBER: _ClassVar[int]
    FACTORIES_FIELD_NUMBER: _ClassVar[int]
    TERMINUS_NODES_FIELD_NUMBER: _ClassVar[int]
    DIESEL_TERMINUS_NODES_FIELD_NUMBER: _ClassVar[int]
    DIESEL_CONNECTED_NODES_FIELD_NUMBER: _ClassVar[int]
    DIESEL_POOL_FIELD_NUMBER: _ClassVar[int]
    IS_QLB_FIELD_NUMBER: _ClassVar[int]
    QLB_BONUS_FIELD_NUMBER: _ClassVar[int]
    MAINTENANCE_FIELD_NUMBER: _ClassVar[int]
    STOP_REVENUE_FIELD_NUMBER: _ClassVar[int]
    DIESEL_STOP_REVENUE_FIELD_NUMBER: _ClassVar[int]
    CONCESSION_ROUTE_HEXES_FIELD_NUMBER: _ClassVar[int]
    HW_BONUS_FIELD_NUMBER: _ClassVar[int]
    super_trains: _containers.RepeatedCompositeFieldContainer[SuperTrain]
    concession_routes: _containers.RepeatedCompositeFieldContainer[HexSet]
    home_hexes: _containers.RepeatedScalarFieldContainer[str]
    mines: _containers.RepeatedCompositeFieldContainer[Mine]
    factories: _containers.RepeatedCompositeFieldContainer[Factory]
    terminus_nodes: _containers.RepeatedScalarFieldContainer[str]
    diesel_terminus_nodes: _containers.RepeatedScalarFieldContainer[str]
    diesel_connected_nodes: _containers.RepeatedScalarFieldContainer[str]
    diesel_pool: _containers.RepeatedScalarFieldContainer[str]
    is_qlb: bool
    qlb_bonus: int
    maintenance: int
    stop_revenue: int
    diesel_stop_revenue: int
    concession_route_hexes: _containers.RepeatedScalarFieldContainer[str]
    hw_bonus: int
    def __init__(self, super_trains: _Optional[_Iterable[_Union[SuperTrain, _Mapping]]] = ..., concession_routes: _Optional[_Iterable[_Union[HexSet, _Mapping]]] = ..., home_hexes: _Optional[_Iterable[str]] = ..., mines: _Optional[_Iterable[_Union[Mine, _Mapping]]] = ..., factories: _Optional[_Iterable[_Union[Factory, _Mapping]]] = ..., terminus_nodes: _Optional[_Iterable[str]] = ..., diesel_terminus_nodes: _Optional[_Iterable[str]] = ..., diesel_connected_nodes: _Optional[_Iterable[str]] = ..., diesel_pool: _Optional[_Iterable[str]] = ..., is_qlb: _Optional[bool] = ..., qlb_bonus: _Optional[int] = ..., maintenance: _Optional[int] = ..., stop_revenue: _Optional[int] = ..., diesel_stop_revenue: _Optional[int] = ..., concession_route_hexes: _Optional[_Iterable[str]] = ..., hw_bonus: _Optional[int] = ...) -> None: ...

class RunSummary(_message.Message):
    __slots__ = ("routes_serviced", "routes_possible", "maintenance", "qlb_bonus", "net_revenue", "tokens")
    ROUTES_SERVICED_FIELD_NUMBER: _ClassVar[int]
    ROUTES_POSSIBLE_FIELD_NUMBER: _ClassVar[int]
    MAINTENANCE_FIELD_NUMBER: _ClassVar[int]
    QLB_BONUS_FIELD_NUMBER: _ClassVar[int]
    NET_REVENUE_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    routes_serviced: int
    routes_possible: int
    maintenance: int
    qlb_bonus: int
    net_revenue: int
    tokens: _containers.RepeatedCompositeFieldContainer[TokenStatus]
    def __init__(self, routes_serviced: _Optional[int] = ..., routes_possible: _Optional[int] = ..., maintenance: _Optional[int] = ..., qlb_bonus: _Optional[int] = ..., net_revenue: _Optional[int] = ..., tokens: _Optional[_Iterable[_Union[TokenStatus, _Mapping]]] = ...) -> None: ...

class TokenStatus(_message.Message):
    __slots__ = ("node", "status")
    NODE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    node: str
    status: str
    def __init__(self, node: _Optional[str] = ..., status: _Optional[str] = ...) -> None: ...

class Leg(_message.Message):
    __slots__ = ("paths", "hexes")
    PATHS_FIELD_NUMBER: _ClassVar[int]
    HEXES_FIELD_NUMBER: _ClassVar[int]
    paths: _containers.RepeatedScalarFieldContainer[str]
    hexes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, paths: _Optional[_Iterable[str]] = ..., hexes: _Optional[_Iterable[str]] = ...) -> None: ...

class Stop(_message.Message):
    __slots__ = ("node", "revenue")
    NODE_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    node: str
    revenue: int
    def __init__(self, node: _Optional[str] = ..., revenue: _Optional[int] = ...) -> None: ...

class Route(_message.Message):
    __slots__ = ("train", "nodes", "legs", "stops", "revenue", "bonuses", "subsidy")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    LEGS_FIELD_NUMBER: _ClassVar[int]
    STOPS_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    BONUSES_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    train: str
    nodes: _containers.RepeatedScalarFieldContainer[str]
    legs: _containers.RepeatedCompositeFieldContainer[Leg]
    stops: _containers.RepeatedCompositeFieldContainer[Stop]
    revenue: int
    bonuses: _containers.RepeatedCompositeFieldContainer[BonusLine]
    subsidy: int
    def __init__(self, train: _Optional[str] = ..., nodes: _Optional[_Iterable[str]] = ..., legs: _Optional[_Iterable[_Union[Leg, _Mapping]]] = ..., stops: _Optional[_Iterable[_Union[Stop, _Mapping]]] = ..., revenue: _Optional[int] = ..., bonuses: _Optional[_Iterable[_Union[BonusLine, _Mapping]]] = ..., subsidy: _Optional[int] = ...) -> None: ...

class ClaimedRoute(_message.Message):
    __slots__ = ("train", "nodes", "legs")
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    LEGS_FIELD_NUMBER: _ClassVar[int]
    train: str
    nodes: _containers.RepeatedScalarFieldContainer[str]
    legs: _containers.RepeatedCompositeFieldContainer[Leg]
    def __init__(self, train: _Optional[str] = ..., nodes: _Optional[_Iterable[str]] = ..., legs: _Optional[_Iterable[_Union[Leg, _Mapping]]] = ...) -> None: ...

class Finding(_message.Message):
    __slots__ = ("code", "message", "route", "hard")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    HARD_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    route: int
    hard: bool
    def __init__(self, code: _Optional[str] = ..., message: _Optional[str] = ..., route: _Optional[int] = ..., hard: _Optional[bool] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("board", "snapshot_json", "time_limit_s", "objective", "render_svg")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_JSON_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    RENDER_SVG_FIELD_NUMBER: _ClassVar[int]
    board: Board
    snapshot_json: str
    time_limit_s: float
    objective: Objective
    render_svg: bool
    def __init__(self, board: _Optional[_Union[Board, _Mapping]] = ..., snapshot_json: _Optional[str] = ..., time_limit_s: _Optional[float] = ..., objective: _Optional[_Union[Objective, str]] = ..., render_svg: _Optional[bool] = ...) -> None: ...

class SolveStats(_message.Message):
    __slots__ = ("solve_ms", "enumerate_ms", "candidates", "candidates_after_prune", "train_classes")
    SOLVE_MS_FIELD_NUMBER: _ClassVar[int]
    ENUMERATE_MS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_AFTER_PRUNE_FIELD_NUMBER: _ClassVar[int]
    TRAIN_CLASSES_FIELD_NUMBER: _ClassVar[int]
    solve_ms: float
    enumerate_ms: float
    candidates: int
    candidates_after_prune: int
    train_classes: int
    def __init__(self, solve_ms: _Optional[float] = ..., enumerate_ms: _Optional[float] = ..., candidates: _Optional[int] = ..., candidates_after_prune: _Optional[int] = ..., train_classes: _Optional[int] = ...) -> None: ...

class SolveResponse(_message.Message):
    __slots__ = ("revenue", "status", "bound", "routes", "stats", "summary", "reason", "foreign_income", "run_lines", "svg", "subsidy")
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    FOREIGN_INCOME_FIELD_NUMBER: _ClassVar[int]
    RUN_LINES_FIELD_NUMBER: _ClassVar[int]
    SVG_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    revenue: int
    status: Status
    bound: int
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    stats: SolveStats
    summary: RunSummary
    reason: str
    foreign_income: _containers.RepeatedCompositeFieldContainer[ForeignIncome]
    run_lines: _containers.RepeatedCompositeFieldContainer[BonusLine]
    svg: str
    subsidy: int
    def __init__(self, revenue: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., bound: _Optional[int] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., stats: _Optional[_Union[SolveStats, _Mapping]] = ..., summary: _Optional[_Union[RunSummary, _Mapping]] = ..., reason: _Optional[str] = ..., foreign_income: _Optional[_Iterable[_Union[ForeignIncome, _Mapping]]] = ..., run_lines: _Optional[_Iterable[_Union[BonusLine, _Mapping]]] = ..., svg: _Optional[str] = ..., subsidy: _Optional[int] = ...) -> None: ...

class ForeignIncome(_message.Message):
    __slots__ = ("node", "income")
    NODE_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    node: str
    income: int
    def __init__(self, node: _Optional[str] = ..., income: _Optional[int] = ...) -> None: ...

class EvaluateRequest(_message.Message):
    __slots__ = ("board", "snapshot_json", "routes", "render_svg")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_JSON_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    RENDER_SVG_FIELD_NUMBER: _ClassVar[int]
    board: Board
    snapshot_json: str
    routes: _containers.RepeatedCompositeFieldContainer[ClaimedRoute]
    render_svg: bool
    def __init__(self, board: _Optional[_Union[Board, _Mapping]] = ..., snapshot_json: _Optional[str] = ..., routes: _Optional[_Iterable[_Union[ClaimedRoute, _Mapping]]] = ..., render_svg: _Optional[bool] = ...) -> None: ...

class EvaluateResponse(_message.Message):
    __slots__ = ("legal", "revenue", "routes", "findings", "summary", "foreign_income", "run_lines", "svg", "subsidy")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    FOREIGN_INCOME_FIELD_NUMBER: _ClassVar[int]
    RUN_LINES_FIELD_NUMBER: _ClassVar[int]
    SVG_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    legal: bool
    revenue: int
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    summary: RunSummary
    foreign_income: _containers.RepeatedCompositeFieldContainer[ForeignIncome]
    run_lines: _containers.RepeatedCompositeFieldContainer[BonusLine]
    svg: str
    subsidy: int
    def __init__(self, legal: _Optional[bool] = ..., revenue: _Optional[int] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., summary: _Optional[_Union[RunSummary, _Mapping]] = ..., foreign_income: _Optional[_Iterable[_Union[ForeignIncome, _Mapping]]] = ..., run_lines: _Optional[_Iterable[_Union[BonusLine, _Mapping]]] = ..., svg: _Optional[str] = ..., subsidy: _Optional[int] = ...) -> None: ...

class ListRulesetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RulesetInfo(_message.Message):
    __slots__ = ("name", "description", "train_kinds")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TRAIN_KINDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    train_kinds: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., train_kinds: _Optional[_Iterable[str]] = ...) -> None: ...

class ListRulesetsResponse(_message.Message):
    __slots__ = ("rulesets", "server_version")
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    SERVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetInfo]
    server_version: str
    def __init__(self, rulesets: _Optional[_Iterable[_Union[RulesetInfo, _Mapping]]] = ..., server_version: _Optional[str] = ...) -> None: ...

class MineState(_message.Message):
    __slots__ = ("id", "connected", "machine", "switcher", "machine_revenue", "switcher_revenue")
    ID_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    MACHINE_FIELD_NUMBER: _ClassVar[int]
    SWITCHER_FIELD_NUMBER: _ClassVar[int]
    MACHINE_REVENUE_FIELD_NUMBER: _ClassVar[int]
    SWITCHER_REVENUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    connected: bool
    machine: int
    switcher: int
    machine_revenue: _containers.RepeatedScalarFieldContainer[int]
    switcher_revenue: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, id: _Optional[str] = ..., connected: _Optional[bool] = ..., machine: _Optional[int] = ..., switcher: _Optional[int] = ..., machine_revenue: _Optional[_Iterable[int]] = ..., switcher_revenue: _Optional[_Iterable[int]] = ...) -> None: ...

class MineProductionRequest(_message.Message):
    __slots__ = ("mines", "public_company", "harzer_werke", "hw_bonus")
    MINES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_COMPANY_FIELD_NUMBER: _ClassVar[int]
    HARZER_WERKE_FIELD_NUMBER: _ClassVar[int]
    HW_BONUS_FIELD_NUMBER: _ClassVar[int]
    mines: _containers.RepeatedCompositeFieldContainer[MineState]
    public_company: bool
    harzer_werke: bool
    hw_bonus: int
    def __init__(self, mines: _Optional[_Iterable[_Union[MineState, _Mapping]]] = ..., public_company: _Optional[bool] = ..., harzer_werke: _Optional[bool] = ..., hw_bonus: _Optional[int] = ...) -> None: ...

class MineRevenue(_message.Message):
    __slots__ = ("id", "switcher", "revenue")
    ID_FIELD_NUMBER: _ClassVar[int]
    SWITCHER_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    switcher: int
    revenue: int
    def __init__(self, id: _Optional[str] = ..., switcher: _Optional[int] = ..., revenue: _Optional[int] = ...) -> None: ...

class MineProductionResponse(_message.Message):
    __slots__ = ("revenue", "mines", "bonus")
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    MINES_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    revenue: int
    mines: _containers.RepeatedCompositeFieldContainer[MineRevenue]
    bonus: int
    def __init__(self, revenue: _Optional[int] = ..., mines: _Optional[_Iterable[_Union[MineRevenue, _Mapping]]] = ..., bonus: _Optional[int] = ...) -> None: ...

class AuditRequest(_message.Message):
    __slots__ = ("source", "snapshot_json", "time_limit_s", "objective")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_JSON_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    source: str
    snapshot_json: str
    time_limit_s: float
    objective: Objective
    def __init__(self, source: _Optional[str] = ..., snapshot_json: _Optional[str] = ..., time_limit_s: _Optional[float] = ..., objective: _Optional[_Union[Objective, str]] = ...) -> None: ...

class AuditLine(_message.Message):
    __slots__ = ("source", "title", "company", "action_id", "plain_revenue", "recorded_revenue", "legal", "revenue_by_rules", "findings", "optimum", "status", "bound", "gap", "solve_ms", "error", "json")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    COMPANY_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    PLAIN_REVENUE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_REVENUE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    REVENUE_BY_RULES_FIELD_NUMBER: _ClassVar[int]
    FINDINGS_FIELD_NUMBER: _ClassVar[int]
    OPTIMUM_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    GAP_FIELD_NUMBER: _ClassVar[int]
    SOLVE_MS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    source: str
    title: str
    company: str
    action_id: int
    plain_revenue: bool
    recorded_revenue: int
    legal: bool
    revenue_by_rules: int
    findings: _containers.RepeatedCompositeFieldContainer[Finding]
    optimum: int
    status: Status
    bound: int
    gap: int
    solve_ms: float
    error: str
    json: str
    def __init__(self, source: _Optional[str] = ..., title: _Optional[str] = ..., company: _Optional[str] = ..., action_id: _Optional[int] = ..., plain_revenue: _Optional[bool] = ..., recorded_revenue: _Optional[int] = ..., legal: _Optional[bool] = ..., revenue_by_rules: _Optional[int] = ..., findings: _Optional[_Iterable[_Union[Finding, _Mapping]]] = ..., optimum: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., bound: _Optional[int] = ..., gap: _Optional[int] = ..., solve_ms: _Optional[float] = ..., error: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class Scenario(_message.Message):
    __slots__ = ("label", "add_trains", "remove_trains", "tokens", "add_modifiers", "remove_modifiers", "hexes_json")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    ADD_TRAINS_FIELD_NUMBER: _ClassVar[int]
    REMOVE_TRAINS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    ADD_MODIFIERS_FIELD_NUMBER: _ClassVar[int]
    REMOVE_MODIFIERS_FIELD_NUMBER: _ClassVar[int]
    HEXES_JSON_FIELD_NUMBER: _ClassVar[int]
    label: str
    add_trains: _containers.RepeatedScalarFieldContainer[str]
    remove_trains: _containers.RepeatedScalarFieldContainer[str]
    tokens: _containers.RepeatedScalarFieldContainer[str]
    add_modifiers: _containers.RepeatedCompositeFieldContainer[Modifier]
    remove_modifiers: _containers.RepeatedScalarFieldContainer[str]
    hexes_json: str
    def __init__(self, label: _Optional[str] = ..., add_trains: _Optional[_Iterable[str]] = ..., remove_trains: _Optional[_Iterable[str]] = ..., tokens: _Optional[_Iterable[str]] = ..., add_modifiers: _Optional[_Iterable[_Union[Modifier, _Mapping]]] = ..., remove_modifiers: _Optional[_Iterable[str]] = ..., hexes_json: _Optional[str] = ...) -> None: ...

class WhatIfRequest(_message.Message):
    __slots__ = ("board", "snapshot_json", "scenarios", "tokens", "trains", "time_limit_s", "objective")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_JSON_FIELD_NUMBER: _ClassVar[int]
    SCENARIOS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    board: Board
    snapshot_json: str
    scenarios: _containers.RepeatedCompositeFieldContainer[Scenario]
    tokens: bool
    trains: _containers.RepeatedScalarFieldContainer[str]
    time_limit_s: float
    objective: Objective
    def __init__(self, board: _Optional[_Union[Board, _Mapping]] = ..., snapshot_json: _Optional[str] = ..., scenarios: _Optional[_Iterable[_Union[Scenario, _Mapping]]] = ..., tokens: _Optional[bool] = ..., trains: _Optional[_Iterable[str]] = ..., time_limit_s: _Optional[float] = ..., objective: _Optional[_Union[Objective, str]] = ...) -> None: ...

class ScenarioName(_message.Message):
    __slots__ = ("kind", "node", "train", "replaces", "label")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    REPLACES_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    kind: str
    node: str
    train: str
    replaces: str
    label: str
    def __init__(self, kind: _Optional[str] = ..., node: _Optional[str] = ..., train: _Optional[str] = ..., replaces: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class ScenarioAnswer(_message.Message):
    __slots__ = ("scenario", "index", "revenue", "delta", "status", "bound", "routes", "subsidy", "error", "error_field", "solve_ms")
    SCENARIO_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    REVENUE_FIELD_NUMBER: _ClassVar[int]
    DELTA_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    SUBSIDY_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_FIELD_NUMBER: _ClassVar[int]
    SOLVE_MS_FIELD_NUMBER: _ClassVar[int]
    scenario: ScenarioName
    index: int
    revenue: int
    delta: int
    status: Status
    bound: int
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    subsidy: int
    error: str
    error_field: str
    solve_ms: float
    def __init__(self, scenario: _Optional[_Union[ScenarioName, _Mapping]] = ..., index: _Optional[int] = ..., revenue: _Optional[int] = ..., delta: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., bound: _Optional[int] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., subsidy: _Optional[int] = ..., error: _Optional[str] = ..., error_field: _Optional[str] = ..., solve_ms: _Optional[float] = ...) -> None: ...

class WhatIfResponse(_message.Message):
    __slots__ = ("answers",)
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[ScenarioAnswer]
    def __init__(self, answers: _Optional[_Iterable[_Union[ScenarioAnswer, _Mapping]]] = ...) -> None: ...
