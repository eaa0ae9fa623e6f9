"""What routes of one run share: track (OverlapRule) and paid stops (StopPaysOnce)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from solver.model.board import Board, Node
from solver.modifiers.model import Modifier, OverlapRule, StopPaysOnce


def overlap_rule(modifiers: Sequence[Modifier]) -> OverlapRule | None:
    """The board's OverlapRule, when it has one (scope "run" is the generic rule: None)."""
    rule = next((m for m in modifiers if isinstance(m, OverlapRule)), None)
    return None if rule is None or rule.scope == "run" else rule


def overlap_group(rule: OverlapRule | None, train_name: str, route_index: int) -> str:
    """The track group of a route: routes of one group may not share track. Scope "route": each route
    alone; "pools": the pool of its train's name (a name in no pool: one further common pool)."""
    if rule is None:
        return ""
    if rule.scope == "route":
        return f"route{route_index}"
    return next((f"pool{i}" for i, pool in enumerate(rule.pools) if train_name in pool), "pool-")


def stop_pays_once(modifiers: Sequence[Modifier]) -> StopPaysOnce | None:
    return next((m for m in modifiers if isinstance(m, StopPaysOnce)), None)


class PaidStops:
    """The stops earlier routes of the run counted: under StopPaysOnce they pay nothing again."""

    def __init__(self, rule: StopPaysOnce) -> None:
        self.rule = rule
        self.nodes: set[str] = set()
        self.groups: set[str] = set()

    def zero(self, node: Node) -> bool:
        """Whether this stop pays nothing on the next route."""
        return node.id in self.nodes or (self.rule.groups and any(g in self.groups for g in node.groups))

    def add(self, board: Board, counted: Iterable[str]) -> None:
        """Record a route's counted stops."""
        for nid in counted:
            self.nodes.add(nid)
            self.groups.update(board.nodes[nid].groups)
