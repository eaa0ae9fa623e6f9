"""Start the grpcio server: RouteService plus the standard health service and reflection."""

from __future__ import annotations

import argparse
import os
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.serve_args import add_serve_arguments
from server.service import RouteService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
PORT_ENV = "ROUTEMAX_PORT"
HOST_ENV = "ROUTEMAX_HOST"
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["RouteService"].full_name


def default_address() -> tuple[str, int]:
    """Host and port from ROUTEMAX_HOST / ROUTEMAX_PORT, else 127.0.0.1:50051."""
    return os.environ.get(HOST_ENV, DEFAULT_HOST), int(os.environ.get(PORT_ENV, DEFAULT_PORT))


def create_server(host: str = DEFAULT_HOST, port: int = 0, workers: int = 4) -> tuple[grpc.Server, int]:
    """Build and start a server; port 0 picks a free port. Returns the server and its port."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers))
    pb_grpc.add_RouteServiceServicer_to_server(RouteService(), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"cannot listen on {host}:{port}")
    server.start()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
    return server, bound


def serve_main(argv: list[str]) -> int:
    """`routemax serve`: run the server until interrupted."""
    args = add_serve_arguments(argparse.ArgumentParser(prog="routemax serve")).parse_args(argv)
    host, port = default_address()
    server, bound = create_server(args.host or host, args.port if args.port is not None else port)
    print(f"routemax listening on {args.host or host}:{bound}", flush=True)
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        server.stop(grace=1.0)
    return 0
