"""The HTTP side as one ASGI application (starlette): routemax.v1 and the health Check through Connect's
ASGI application (HTTP JSON, gRPC-Web and Connect from the one proto, at `/<package>.<Service>/<Method>`),
the example page at `/`, the OpenAPI document at `/openapi.json` and the built-in examples at
`/examples/<name>`, behind CORS (the configured origins only) and gzip for the page and documents; every
error answer in Connect's JSON form (`server.http_errors`)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from importlib import resources

from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.compression.gzip import GzipCompression
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from grpc_health.v1 import health_pb2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp

import routemax
from routemax.v1 import routemax_connect
from routemax.v1 import routemax_pb2 as pb
from server.config import ServerConfig
from server.health import HealthServicer
from server.http_codec import StrictJsonCodec
from server.http_errors import JsonErrors
from server.http_service import HEALTH_SERVICE, HttpCalls, HttpRouteService, health_check
from server.request_log import InFlight
from server.service import RouteService
from solver.examples import EXAMPLES, example_path

SCHEMA_PATH = "/openapi.json"
PAGE_PATH = "/"
EXAMPLES_PATH = "/examples"
# request headers a page may send (the Connect and gRPC-Web protocol headers), response headers it may read
CORS_REQUEST_HEADERS = ["content-type", "connect-protocol-version", "connect-timeout-ms", "connect-content-encoding",
                        "connect-accept-encoding", "content-encoding", "grpc-timeout", "x-grpc-web", "x-user-agent"]
CORS_RESPONSE_HEADERS = ["grpc-status", "grpc-message", "grpc-status-details-bin", "content-encoding",
                         "connect-content-encoding"]
CORS_MAX_AGE_S = 7200
SERVICES = {service.full_name: [method.name for method in service.methods]  # what the HTTP side serves
            for service in pb.DESCRIPTOR.services_by_name.values()} | {HEALTH_SERVICE: ["Check"]}


class HealthASGIApplication(ConnectASGIApplication):
    """grpc.health.v1.Health/Check over HTTP (Connect, gRPC-Web), answered by the gRPC health servicer."""

    def __init__(self, check: object, **options: object) -> None:
        method = MethodInfo(name="Check", service_name=HEALTH_SERVICE, input=health_pb2.HealthCheckRequest,
                            output=health_pb2.HealthCheckResponse, idempotency_level=IdempotencyLevel.NO_SIDE_EFFECTS,
                            stream_type=StreamType.UNARY)
        super().__init__(service=check, endpoints=lambda fn: {f"/{HEALTH_SERVICE}/Check": Endpoint.unary(method, fn)},
                         **options)  # type: ignore[arg-type]

    @property
    def path(self) -> str:
        return f"/{HEALTH_SERVICE}"


def build_app(config: ServerConfig, service: RouteService, health: HealthServicer, in_flight: InFlight,
              executor: ThreadPoolExecutor) -> ASGIApp:
    """The ASGI application of the HTTP side, over the gRPC side's service and health servicer."""
    calls = HttpCalls(executor, in_flight)
    options = {"read_max_bytes": config.max_message_bytes, "compressions": [GzipCompression(level=1)],
               "codecs": [StrictJsonCodec(), google_protobuf_binary_codec()]}
    routes_app = routemax_connect.RouteServiceASGIApplication(HttpRouteService(service, calls), **options)
    health_app = HealthASGIApplication(health_check(health, calls), **options)
    documents = Starlette(routes=[
        Route(PAGE_PATH, _page, methods=["GET"]),
        Route(SCHEMA_PATH, _schema, methods=["GET"]),
        Route(EXAMPLES_PATH, _examples, methods=["GET"]),
        Route(EXAMPLES_PATH + "/{name}", _example, methods=["GET"]),
    ], middleware=[Middleware(GZipMiddleware, minimum_size=1024)])
    return Starlette(
        routes=[Mount(routes_app.path, app=routes_app), Mount(health_app.path, app=health_app),
                Mount("", app=documents)],
        middleware=[
            Middleware(JsonErrors, services=SERVICES),
            Middleware(CORSMiddleware, allow_origins=list(config.cors_origins), allow_methods=["GET", "POST"],
                       allow_headers=CORS_REQUEST_HEADERS, expose_headers=CORS_RESPONSE_HEADERS,
                       max_age=CORS_MAX_AGE_S)])


def _page(_request: Request) -> Response:
    html = resources.files("server.static").joinpath("index.html").read_bytes()
    return Response(html, media_type="text/html; charset=utf-8", headers={"cache-control": "no-cache"})


def _schema(_request: Request) -> Response:
    text = resources.files("routemax.v1").joinpath("routemax.openapi.json").read_bytes()
    return Response(text, media_type="application/json", headers={"cache-control": "no-cache"})


def _examples(_request: Request) -> JSONResponse:
    """The built-in examples: name -> the URL of its snapshot, with the version serving them."""
    return JSONResponse({"examples": {name: f"{EXAMPLES_PATH}/{name}" for name in EXAMPLES},
                         "server_version": routemax.__version__})


def _example(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in EXAMPLES:
        return JSONResponse({"code": "not_found", "message": f"no example {name!r}; known: {', '.join(EXAMPLES)}"},
                            status_code=404)
    return Response(example_path(name).read_bytes(), media_type="application/json")
