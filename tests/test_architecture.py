"""The architecture of ARCHITECTURE.md holds: no import cycles (imports inside functions count),
every ruleset is a package of the same shape behind the registry, and the registry is the only
module outside `solver/rulesets/` that names a ruleset package."""

from __future__ import annotations

import importlib
from pathlib import Path

import grimp
import networkx as nx

from solver import rulesets
from solver.rulesets.base import Ruleset

REPO = Path(__file__).resolve().parent.parent
RULESET_DIR = REPO / "solver" / "rulesets"


def _import_graph() -> nx.DiGraph:
    graph = grimp.build_graph("solver", "server")
    g = nx.DiGraph()
    for module in graph.modules:
        g.add_node(module)
        for imported in graph.find_modules_directly_imported_by(module):
            g.add_edge(module, imported)
    return g


def test_no_import_cycles_in_solver_and_server() -> None:
    g = _import_graph()
    assert g.number_of_edges() > 100  # the graph was really read
    cycles = list(nx.simple_cycles(g))
    assert cycles == []


def test_every_ruleset_package_has_the_same_shape() -> None:
    packages = sorted(p.name for p in RULESET_DIR.iterdir() if p.is_dir() and p.name.startswith("r_"))
    assert packages == sorted(f"r_{name}" for name in rulesets.names())
    for pkg in packages:
        module = importlib.import_module(f"solver.rulesets.{pkg}")
        assert isinstance(module.RULESET, Ruleset)
        assert (RULESET_DIR / pkg / "ruleset.py").exists()
        assert module.RULESET is rulesets.get(module.RULESET.name)


def test_only_the_registry_imports_a_ruleset_package() -> None:
    g = _import_graph()
    packages = {f"solver.rulesets.r_{name}" for name in rulesets.names()}
    offenders = sorted((a, b) for a, b in g.edges
                       if any(b == p or b.startswith(p + ".") for p in packages)
                       and not (a == "solver.rulesets" or a.startswith("solver.rulesets.")))
    assert offenders == []


def test_the_solver_never_imports_the_server_or_grpc() -> None:
    graph = grimp.build_graph("solver", "server", include_external_packages=True)
    solver_modules = [m for m in graph.modules if m == "solver" or m.startswith("solver.")]
    bad = sorted((m, i) for m in solver_modules for i in graph.find_modules_directly_imported_by(m)
                 if i.split(".")[0] in ("server", "grpc", "routemax", "grpc_health", "grpc_reflection"))
    assert bad == []
