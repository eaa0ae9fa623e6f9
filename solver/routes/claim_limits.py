"""The limits of a claimed route set (solver.model.limits), checked before any rule judges it."""

from __future__ import annotations

from collections.abc import Sequence

from solver.model.errors import BoardError
from solver.model.limits import MAX_CLAIMED_ROUTES, MAX_ID_LENGTH, MAX_LEG_PATHS, MAX_ROUTE_STOPS
from solver.model.results import ClaimedRoute


def check_claims(claims: Sequence[ClaimedRoute], where: str = "routes") -> None:
    """BoardError naming the field when a claimed run has too many routes, a route too many stops
    or legs, or a leg too many paths or hexes. Repeated stops are judged later (NODE_TWICE)."""
    if len(claims) > MAX_CLAIMED_ROUTES:
        raise BoardError(where, f"at most {MAX_CLAIMED_ROUTES} routes allowed (limit), got {len(claims):,}")
    for i, claim in enumerate(claims):
        at = f"{where}[{i}]"
        if len(claim.train) > MAX_ID_LENGTH:
            raise BoardError(f"{at}.train", f"an id has at most {MAX_ID_LENGTH} characters")
        if len(claim.nodes) > MAX_ROUTE_STOPS:
            raise BoardError(f"{at}.nodes",
                             f"at most {MAX_ROUTE_STOPS} stops allowed (limit), got {len(claim.nodes):,}")
        for unit, legs in (("paths", claim.legs), ("hexes", claim.connections)):
            if len(legs) > MAX_ROUTE_STOPS:
                raise BoardError(f"{at}.legs", f"at most {MAX_ROUTE_STOPS} legs allowed (limit), got {len(legs):,}")
            for j, leg in enumerate(legs):
                if len(leg) > MAX_LEG_PATHS:
                    raise BoardError(f"{at}.legs[{j}]",
                                     f"at most {MAX_LEG_PATHS:,} {unit} allowed in a leg (limit), got {len(leg):,}")
