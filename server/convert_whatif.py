"""WhatIf messages ⇄ the what-if model (`solver.whatif`): scenarios in, ranked answers out."""

from __future__ import annotations

from typing import Any

from routemax.v1 import routemax_pb2 as pb
from server.convert import STATUS, route_to_proto
from server.convert_modifiers import modifiers_from_proto
from solver.model.errors import BoardError
from solver.model.jsonread import loads
from solver.whatif import Scenario, ScenarioResult, WhatIfResult
from solver.whatif.read import MAX_SCENARIOS


def scenarios_from_proto(msgs: Any) -> list[Scenario]:
    """The request's scenarios; a malformed one (modifiers or `hexes_json` out of spec) is a
    BoardError naming its field. Unknown trains or nodes are the runner's to report per scenario."""
    if len(msgs) > MAX_SCENARIOS:
        raise BoardError("scenarios", f"at most {MAX_SCENARIOS} scenarios (limit), got {len(msgs)}")
    out = []
    for i, m in enumerate(msgs):
        where = f"scenarios[{i}]"
        hexes: tuple[dict[str, Any], ...] = ()
        if m.hexes_json:
            raw = loads(m.hexes_json, f"{where}.hexes_json")
            if not isinstance(raw, list) or not all(isinstance(h, dict) for h in raw):
                raise BoardError(f"{where}.hexes_json", "must be a JSON list of hexes (snapshot form)")
            hexes = tuple(raw)
        out.append(Scenario(label=m.label, add_trains=tuple(m.add_trains), remove_trains=tuple(m.remove_trains),
                            tokens=tuple(m.tokens), remove_modifiers=tuple(m.remove_modifiers), hexes=hexes,
                            add_modifiers=modifiers_from_proto(list(m.add_modifiers), f"{where}.add_modifiers")))
    return out


def _answer(a: ScenarioResult) -> pb.ScenarioAnswer:
    name = a.scenario.describe()
    msg = pb.ScenarioAnswer(scenario=pb.ScenarioName(kind=name["kind"], node=name.get("node", ""),
                                                     train=name.get("train", ""), replaces=name.get("replaces", ""),
                                                     label=name.get("label", "")), index=a.index)
    if a.result is None:
        msg.error, msg.error_field, msg.status = f"{a.error_field}: {a.error}", a.error_field, pb.UNKNOWN
        return msg
    msg.revenue, msg.delta, msg.status, msg.bound = a.result.revenue, a.delta, STATUS[a.result.status], a.result.bound
    msg.subsidy, msg.solve_ms = a.result.subsidy, a.stats.get("solve_ms", 0.0)
    msg.routes.extend(route_to_proto(r) for r in a.result.routes)
    return msg


def whatif_response(result: WhatIfResult) -> pb.WhatIfResponse:
    return pb.WhatIfResponse(answers=[_answer(a) for a in result.all])
