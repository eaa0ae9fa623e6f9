"""The committed stubs in routemax/v1 (protobuf, gRPC, Connect, and the OpenAPI document) are exactly what
`server.protogen` makes of proto/."""

from __future__ import annotations

from pathlib import Path

from server.protogen import PROTO_FILES, ROOT, generate


def test_committed_stubs_match_proto(tmp_path: Path) -> None:
    generate(tmp_path)
    for rel in PROTO_FILES:
        stem = rel.removesuffix(".proto")
        for suffix in ("_pb2.py", "_pb2_grpc.py", "_pb2.pyi", "_connect.py", ".openapi.json"):
            fresh = (tmp_path / (stem + suffix)).read_text()
            committed = (ROOT / (stem + suffix)).read_text()
            assert fresh == committed, f"{stem + suffix} is stale: run `python -m server.protogen`"
