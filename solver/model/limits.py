"""The documented limits of an input board and of a claimed route set.

Every entry point (a snapshot, a protobuf board, a claimed run) is held to these bounds before any
rule reads it, so that sums stay far inside CP-SAT's 64-bit integers, no walk recurses deeper than
Python allows and no check costs more than a fixed amount of work. Real 18xx.games positions stay
far below them (the largest corpus board has 154 hexes and about 200 nodes).
"""

from __future__ import annotations

MAX_HEXES = 2_000
MAX_NODES = 800  # also bounds the stops of one route, so a route walk stays far from the recursion limit
MAX_PATHS = 20_000
MAX_TRAINS = 64
MAX_MODIFIERS = 256
MAX_REVENUE = 100_000  # |revenue| of a node, per-train revenue, bonus or 1873 money
MAX_MULTIPLIER = 100  # a train's or a distance row's multiplier: 1..100
MAX_DISTANCE = 999  # stops, hexes or a row's pay/visit; 999 is solver.model.board.UNLIMITED
MAX_VISIT_COST = 999  # 999 = a stop no train can afford (1877: Stockholm Tramways uses 100)
MAX_LANE_WIDTH = 8
MAX_SLOTS = 16
MAX_GROUPS = 16  # revenue groups of one node
MAX_ID_LENGTH = 200  # characters of an id or a name
MAX_JSON_DEPTH = 64  # nesting of snapshot JSON (real snapshots nest 6 deep)
MAX_CLAIMED_ROUTES = 128
MAX_ROUTE_STOPS = 200  # stops of one claimed route
MAX_LEG_PATHS = 2_000  # paths of one claimed leg
MAX_WALK_STEPS = 100_000  # path steps of the leg walk from one node (real boards: under 5,000)
MAX_BOARD_WALK_STEPS = 1_000_000  # path steps of the leg walks over one board (real boards: under 60,000)
MAX_SUBSET_SEARCH = 200_000  # subsets a list train's best paying subset search may examine
MAX_MINES = 64  # mines of one 1873 production request (the game has 23; a public company holds a few)

LIMITS_TEXT = (
    f"at most {MAX_HEXES:,} hexes, {MAX_NODES:,} nodes, {MAX_PATHS:,} paths, {MAX_TRAINS} trains and "
    f"{MAX_MODIFIERS} modifiers; |revenue| ≤ {MAX_REVENUE:,}; multiplier 1..{MAX_MULTIPLIER}; distance "
    f"0..{MAX_DISTANCE}; visit cost 0..{MAX_VISIT_COST}; lane width 1..{MAX_LANE_WIDTH}; JSON nested at most "
    f"{MAX_JSON_DEPTH} deep; track whose leg walk takes at most {MAX_WALK_STEPS:,} path steps from one node and "
    f"{MAX_BOARD_WALK_STEPS:,} over the board; a claimed run of at most {MAX_CLAIMED_ROUTES} routes of at most "
    f"{MAX_ROUTE_STOPS} stops; a mine production of at most {MAX_MINES} mines"
)
