"""Generate the Python stubs of `proto/` into the `routemax` package, with the JSON schema.

protoc writes the protobuf and gRPC stubs and the Connect stubs (`protoc-gen-connectrpc`, for
HTTP JSON and gRPC-Web); `server.schemagen` turns the same descriptors (with their comments) into
the OpenAPI document the HTTP side serves. All are committed; `tests/server/test_proto_stubs.py`
regenerates them into a temporary folder and fails if they differ from the committed ones. Run
`python -m server.protogen` after editing a `.proto` file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PROTO_FILES = ["routemax/v1/routemax.proto"]
CONNECT_PLUGIN = "protoc-gen-connectrpc"


def connect_plugin() -> str:
    """The Connect code generator installed beside this Python (or on PATH)."""
    beside = Path(sys.executable).parent / CONNECT_PLUGIN
    found = str(beside) if beside.exists() else shutil.which(CONNECT_PLUGIN)
    if not found:
        raise RuntimeError(f"{CONNECT_PLUGIN} is missing: pip install the test extras (protoc-gen-connectrpc)")
    return found


def generate(out_dir: Path) -> None:
    """Run protoc (from grpcio-tools) over PROTO_FILES into out_dir, then write the schema.

    protoc runs in its own process: its bundled protobuf runtime cannot share a process with
    the one OR-Tools loads.
    """
    import grpc_tools

    from server import schemagen

    include = str(resources.files(grpc_tools) / "_proto")
    for rel in PROTO_FILES:
        with tempfile.TemporaryDirectory() as tmp:
            descriptors = Path(tmp) / "descriptors.pb"
            args = [sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_DIR}", f"-I{include}",
                    f"--python_out={out_dir}", f"--pyi_out={out_dir}", f"--grpc_python_out={out_dir}",
                    f"--plugin=protoc-gen-connectrpc={connect_plugin()}", f"--connectrpc_out={out_dir}",
                    "--connectrpc_opt=protobuf=google", f"--descriptor_set_out={descriptors}",
                    "--include_source_info", str(PROTO_DIR / rel)]
            done = subprocess.run(args, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"protoc failed on {rel}: {done.stderr}")
            schema = schemagen.openapi_from_descriptor_set(descriptors.read_bytes(), rel)
        (out_dir / rel).with_suffix(".openapi.json").write_text(schemagen.dumps(schema), encoding="utf-8")


def main() -> int:
    generate(ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
