#!/usr/bin/env bash
# CI: build the wheel, install it with its dependencies into a fresh venv outside the source tree,
# and run every command of the installed `routemax` from an empty directory, ending with a gRPC
# round trip and an HTTP JSON call against `routemax serve --http-port` and a SIGTERM drain. Exits non-zero naming the failed step.
set -uo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PYTHON:-python3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/routemax-wheel-smoke.XXXXXX")"
SERVER_PID=""

cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -KILL "$SERVER_PID"; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "wheel smoke: FAILED at step: $1" >&2; [[ -f "$WORK/step.log" ]] && tail -n 30 "$WORK/step.log" >&2; exit 1; }

step() {  # step NAME COMMAND... : run with output to step.log; show it on failure
    local name="$1"; shift
    echo "wheel smoke: $name" >&2
    "$@" >"$WORK/step.log" 2>&1 || fail "$name"
}

step "build wheel" "$PY" -m pip wheel --no-deps -q -w "$WORK/dist" "$SRC"
WHEEL="$(ls "$WORK"/dist/routemax-*.whl)" || fail "find wheel"
step "create venv" "$PY" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
RM="$WORK/venv/bin/routemax"
step "install wheel" "$VPY" -m pip install -q "$WHEEL"

mkdir -p "$WORK/cwd" && cd "$WORK/cwd" || fail "enter temp cwd"
export PYTHONPATH="" PYTHONNOUSERSITE=1
step "no source tree on the path" "$VPY" -c "
import server, solver, routemax
for m in (server, solver, routemax):
    assert '$SRC' not in m.__file__, m.__file__
assert not __import__('importlib').util.find_spec('tests'), 'tests/ was installed'
assert not __import__('importlib').util.find_spec('benchmarks'), 'benchmarks/ was installed'"
step "the compiled kernels are in the wheel" "$VPY" -c "
from solver.packing.setpack_native import available
from solver.routes import walk_native
assert available(), 'the packing kernel was not built into the wheel'
assert walk_native.available(), 'the route walk kernel was not built into the wheel'"
step "routemax --version" "$RM" --version
grep -q "^routemax [0-9]" "$WORK/step.log" || fail "routemax --version output"
step "routemax --help" "$RM" --help
step "routemax solve (built-in example)" "$RM" solve --time-limit 20
step "routemax solve --example 1839 --json" "$RM" solve --example 1839 --json --time-limit 20
"$VPY" -c 'import json,sys; json.loads(open(sys.argv[1]).readline())["revenue"]' "$WORK/step.log" \
    || fail "solve --json output is a JSON line with a revenue"
EXAMPLE="$("$VPY" -c 'from solver.examples import example_path; print(example_path("1830"))')" || fail "example path"
[[ "$EXAMPLE" != "$SRC"* ]] || fail "example path comes from the source tree"
step "routemax evaluate <installed example>" "$RM" evaluate "$EXAMPLE"
step "routemax render <installed example>" "$RM" render "$EXAMPLE" --routes recorded -o "$WORK/map.svg"
grep -q "data-path" "$WORK/map.svg" || fail "routemax render wrote no track"
step "routemax solve --svg" "$RM" solve --example 1871sc --svg "$WORK/best.svg" --time-limit 20
[[ -s "$WORK/best.svg" ]] || fail "routemax solve --svg wrote no picture"
cat >"$WORK/mines.json" <<'JSON'
{"public_company": true, "harzer_werke": false, "mines": [
 {"id": "M1", "connected": true, "machine": 2, "switcher": 3,
  "machine_revenue": [10, 20, 30, 40, 50], "switcher_revenue": [10, 20, 30, 40]},
 {"id": "M2", "connected": false, "machine": 1, "switcher": 0,
  "machine_revenue": [10, 20, 30, 40, 50], "switcher_revenue": [10, 20, 30, 40]}]}
JSON
step "routemax mines" "$RM" mines "$WORK/mines.json" --json
step "routemax audit" "$RM" audit "$EXAMPLE" --out "$WORK/audit.jsonl" --workers 1 --time-limit 20
[[ -s "$WORK/audit.jsonl" ]] || fail "audit wrote no line"

PORT="$("$VPY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" \
    || fail "pick a free port"
HTTP_PORT="$("$VPY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" \
    || fail "pick a free HTTP port"
echo "wheel smoke: routemax serve on port $PORT, HTTP on $HTTP_PORT" >&2
"$RM" serve --port "$PORT" --http-port "$HTTP_PORT" --grace 5 2>"$WORK/serve.log" &
SERVER_PID=$!
step "gRPC round trip (health, ListRulesets, Solve)" "$VPY" - "$PORT" "$EXAMPLE" <<'PY'
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc

port, example = sys.argv[1], sys.argv[2]
with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
    grpc.channel_ready_future(channel).result(timeout=60)
    health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
    assert health.status == health_pb2.HealthCheckResponse.SERVING, health
    stub = pb_grpc.RouteServiceStub(channel)
    listed = stub.ListRulesets(pb.ListRulesetsRequest(), timeout=10)
    assert listed.server_version and listed.rulesets, listed
    with open(example, encoding="utf-8") as fh:
        solved = stub.Solve(pb.SolveRequest(snapshot_json=fh.read(), time_limit_s=20), timeout=60)
    assert solved.status == pb.OPTIMAL and solved.revenue > 0, solved
    print("server", listed.server_version, "revenue", solved.revenue)
PY
step "HTTP JSON call (Solve), the page and the schema" "$VPY" - "$HTTP_PORT" "$EXAMPLE" <<'PY'
import json
import sys
import urllib.request

port, example = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"
with open(example, encoding="utf-8") as fh:
    body = json.dumps({"snapshotJson": fh.read(), "timeLimitS": 20}).encode()
request = urllib.request.Request(f"{base}/routemax.v1.RouteService/Solve", data=body,
                                 headers={"content-type": "application/json"})
with urllib.request.urlopen(request, timeout=60) as response:
    solved = json.loads(response.read())
assert solved["status"] == "OPTIMAL" and int(solved["revenue"]) > 0, solved
with urllib.request.urlopen(f"{base}/", timeout=10) as response:
    assert b"/routemax.v1.RouteService/" in response.read()
with urllib.request.urlopen(f"{base}/openapi.json", timeout=10) as response:
    assert "/routemax.v1.RouteService/Solve" in json.loads(response.read())["paths"]
print("HTTP revenue", solved["revenue"])
PY
kill -TERM "$SERVER_PID" || fail "send SIGTERM to the server"
wait "$SERVER_PID"
RC=$?
SERVER_PID=""
[[ "$RC" == 0 ]] || { cat "$WORK/serve.log" >&2; fail "server exit code after SIGTERM is $RC, not 0"; }
grep -q '"event": "stopped"' "$WORK/serve.log" || { cat "$WORK/serve.log" >&2; fail "server logged its drain"; }
echo "wheel smoke: all steps passed ($(basename "$WHEEL"))" >&2
