"""Generate the Python stubs of `proto/` into the `routemax` package.

The stubs are committed; `tests/test_proto_stubs.py` regenerates them into a temporary folder
and fails if they differ from the committed ones. Run `python -m server.protogen` after
editing a `.proto` file.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PROTO_FILES = ["routemax/v1/routemax.proto"]


def generate(out_dir: Path) -> None:
    """Run protoc (from grpcio-tools) over PROTO_FILES into out_dir.

    protoc runs in its own process: its bundled protobuf runtime cannot share a process with
    the one OR-Tools loads.
    """
    import grpc_tools

    include = str(resources.files(grpc_tools) / "_proto")
    for rel in PROTO_FILES:
        args = [sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_DIR}", f"-I{include}",
                f"--python_out={out_dir}", f"--pyi_out={out_dir}", f"--grpc_python_out={out_dir}",
                str(PROTO_DIR / rel)]
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"protoc failed on {rel}: {done.stderr}")


def main() -> int:
    generate(ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
