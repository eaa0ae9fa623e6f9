"""Binding a listening address: why it cannot be bound, as one short reason (both the gRPC and the HTTP side)."""

from __future__ import annotations

import errno
import socket


class ListenError(OSError):
    """The server could not bind its address; `reason` is a few words such as "address in use"."""

    def __init__(self, host: str, port: int, reason: str, err: int = 0) -> None:
        super().__init__(err, f"cannot listen on {host}:{port}: {reason}")
        self.host, self.port, self.reason = host, port, reason

    def __str__(self) -> str:
        return self.strerror or ""


def host_for_uri(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def bind_problem(host: str, port: int) -> ListenError | None:
    """Why the address cannot be bound (a trial bind with a plain socket), or None if it can."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return ListenError(host, port, f"unknown host ({exc.strerror})")
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as grpcio does: TIME_WAIT is no conflict
        try:
            probe.bind(addr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return ListenError(host, port, "address in use", exc.errno)
            return ListenError(host, port, exc.strerror or str(exc), exc.errno or 0)
    return None


def listening_socket(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket on host:port (port 0 picks a free port); ListenError when it cannot be."""
    problem = bind_problem(host, port)
    if problem is not None:
        raise problem
    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        raise ListenError(host, port, exc.strerror or str(exc), exc.errno or 0) from None
    sock.setblocking(False)
    return sock
