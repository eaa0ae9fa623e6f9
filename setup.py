"""The compiled kernels (solver/native/*.c, found here, none listed by hand); everything else is in
pyproject.toml. Each is optional: without a C compiler the install goes on and the Python runs instead."""

from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
KERNELS = sorted(p.relative_to(HERE) for p in (HERE / "solver" / "native").glob("*.c"))

setup(ext_modules=[Extension(f"solver.native._{c.stem}", [c.as_posix()], extra_compile_args=["-std=c99"],
                             optional=True) for c in KERNELS])
