"""The compiled kernels (solver/native/*.c, found here, none listed by hand); everything else is in
pyproject.toml. Each is optional: without a C compiler the install goes on and the Python runs instead."""

from pathlib import Path

from setuptools import Extension, setup

KERNELS = sorted(Path("solver/native").glob("*.c"))

setup(ext_modules=[Extension(f"solver.native._{c.stem}", [str(c)], extra_compile_args=["-std=c99"],
                             optional=True) for c in KERNELS])
