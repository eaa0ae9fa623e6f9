"""Build the grpcio server from a ServerConfig: RouteService, the standard health service, reflection,
the request log and the message size limits.

RouteService's methods are registered from the proto's descriptors with a request that stays bytes until
the handler's wrapper parses it: grpcio answers a deserializer that raises with INTERNAL, and bytes that
are not the request message are the client's error, INVALID_ARGUMENT."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent import futures
from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import DecodeError, Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from routemax.v1 import routemax_pb2 as pb
from server.config import ServerConfig
from server.health import HealthServicer
from server.listen import ListenError, bind_problem, host_for_uri
from server.request_log import InFlight, RequestLogInterceptor
from server.service import SPARE_THREADS, RouteService

__all__ = ["SERVICE_NAME", "ListenError", "create_server", "route_service_handlers", "server_options"]
SERVICE = pb.DESCRIPTOR.services_by_name["RouteService"]
SERVICE_NAME = SERVICE.full_name


def server_options(config: ServerConfig) -> list[tuple[str, int]]:
    """grpcio channel options: no port sharing between processes, and the message size limits."""
    return [("grpc.so_reuseport", 0),
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes)]


def create_server(config: ServerConfig, in_flight: InFlight | None = None, service: RouteService | None = None,
                  ) -> tuple[grpc.Server, int, HealthServicer]:
    """Build and start a server (port 0 picks a free port); health is SERVING once it listens.
    `service` (one is made from config when None) may be shared with the HTTP side, so that both
    share its worker slots.

    Returns the server, the bound port and the health servicer. Raises ListenError (an OSError)
    when the address cannot be bound."""
    # `workers` long calls compute at once (the service's slots); the other threads serve health checks,
    # light calls and long calls waiting for a slot, so those never wait behind a search
    threads = config.workers + SPARE_THREADS
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rpc"),
                         interceptors=[RequestLogInterceptor(in_flight)], options=server_options(config))
    handlers = route_service_handlers(service or RouteService(config))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)
    health_servicer = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    problem = bind_problem(config.host, config.port)  # ask first: grpcio's own failure is a C-core log line
    if problem is None:
        try:
            bound = server.add_insecure_port(f"{host_for_uri(config.host)}:{config.port}")
        except RuntimeError:
            bound = 0
        if bound == 0:
            problem = bind_problem(config.host, config.port) or ListenError(config.host, config.port, "bind failed")
    if problem is not None:
        server.stop(None)
        raise problem
    server.start()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    return server, bound, health_servicer


def route_service_handlers(service: RouteService) -> dict[str, grpc.RpcMethodHandler]:
    """The method handlers of routemax.v1.RouteService, by method name (as the generated
    `add_RouteServiceServicer_to_server` makes them), each parsing its own requests."""
    return {method.name: _method_handler(method, getattr(service, method.name)) for method in SERVICE.methods}


def _method_handler(method: MethodDescriptor, behaviour: Callable) -> grpc.RpcMethodHandler:
    request_type = message_factory.GetMessageClass(method.input_type)
    serializer = message_factory.GetMessageClass(method.output_type).SerializeToString
    if method.client_streaming:
        def streamed(request_iterator: Iterator[bytes], context: grpc.ServicerContext) -> Any:
            return behaviour((_parsed(request_type, data, context) for data in request_iterator), context)

        make = (grpc.stream_stream_rpc_method_handler if method.server_streaming
                else grpc.stream_unary_rpc_method_handler)
        return make(streamed, request_deserializer=None, response_serializer=serializer)

    def unary(data: bytes, context: grpc.ServicerContext) -> Any:
        return behaviour(_parsed(request_type, data, context), context)

    make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
    return make(unary, request_deserializer=None, response_serializer=serializer)


def _parsed(request_type: type[Message], data: bytes, context: grpc.ServicerContext) -> Message:
    """The request message in `data`; bytes that are not one end the call with INVALID_ARGUMENT."""
    try:
        return request_type.FromString(data)
    except DecodeError:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                      f"request: not a {request_type.DESCRIPTOR.full_name} message in protobuf's binary encoding")
