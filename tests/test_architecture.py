"""The architecture of ARCHITECTURE.md holds: the solver's sub-packages are the layers of its table
and import only downwards, no import cycles (imports inside functions count), every ruleset is a
package of the same shape behind the registry, the registry is the only module outside
`solver/rulesets/` that names a ruleset package, the solver never imports the server, the command
line or gRPC, and the command line never imports gRPC or the service."""

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
    graph = grimp.build_graph("solver", "server", "routemax_cli")
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
    graph = grimp.build_graph("solver", "server", "routemax_cli", include_external_packages=True)
    solver_modules = [m for m in graph.modules if m == "solver" or m.startswith("solver.")]
    bad = sorted((m, i) for m in solver_modules for i in graph.find_modules_directly_imported_by(m)
                 if i.split(".")[0] in ("server", "routemax_cli", "grpc", "routemax", "grpc_health",
                                        "grpc_reflection"))
    assert bad == []


# the solver's layers, from the top down (ARCHITECTURE.md); a module imports its own layer or lower ones
SOLVER_LAYERS = [
    {"audit", "whatif"},
    {"render"},
    {"optimiser", "evaluator"},
    {"input"},
    {"rulesets"},
    {"packing"},
    {"routes"},
    {"modifiers"},
    {"rules"},
    {"model", "examples", "native"},
]


def test_the_solver_tree_is_its_layers() -> None:
    children = {p.stem for p in (REPO / "solver").iterdir()
                if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__")}
    assert children == set().union(*SOLVER_LAYERS)


def test_the_solver_imports_only_downwards() -> None:
    rank = {name: i for i, layer in enumerate(SOLVER_LAYERS) for name in layer}
    g = _import_graph()

    def child(module: str) -> str | None:
        parts = module.split(".")
        return parts[1] if parts[0] == "solver" and len(parts) > 1 else None

    upwards = sorted((a, b) for a, b in g.edges
                     if child(a) and child(b) and rank[child(b)] < rank[child(a)])
    assert upwards == []
    # the audit and the what-if runner are independent, as are the two entries
    across = sorted((a, b) for a, b in g.edges
                    if child(a) and child(b) and child(a) != child(b) and rank[child(a)] == rank[child(b)]
                    and {child(a), child(b)} != {"model", "examples"})
    assert across == []


def test_the_command_line_never_imports_grpc_or_the_service() -> None:
    graph = grimp.build_graph("solver", "server", "routemax_cli", include_external_packages=True)
    cli_modules = [m for m in graph.modules if m == "routemax_cli" or m.startswith("routemax_cli.")]
    assert len(cli_modules) > 5
    allowed_server = {"server.serve_args", "server.config"}
    bad = sorted((m, i) for m in cli_modules for i in graph.find_modules_directly_imported_by(m)
                 if i.split(".")[0] in ("grpc", "routemax", "grpc_health", "grpc_reflection", "connectrpc")
                 or (i.split(".")[0] == "server" and i not in allowed_server))
    assert bad == []
