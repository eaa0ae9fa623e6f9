"""Build the grpcio server from a ServerConfig: RouteService, the standard health service, reflection,
the request log and the message size limits."""

from __future__ import annotations

from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.config import ServerConfig
from server.health import HealthServicer
from server.listen import ListenError, bind_problem, host_for_uri
from server.request_log import InFlight, RequestLogInterceptor
from server.service import SPARE_THREADS, RouteService

__all__ = ["SERVICE_NAME", "ListenError", "create_server", "server_options"]
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RouteService"].full_name


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
    pb_grpc.add_RouteServiceServicer_to_server(service or RouteService(config), server)
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
