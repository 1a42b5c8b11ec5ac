"""The layers of the package, read from the source: knowledge → tools → retrieval → agent →
the interfaces (ui, cli, mcp). knowledge/, tools/ and retrieval/ never import agent/ or an
interface, nor a layer above their own among the three; only agent/ knows the offline model;
and no two modules import each other, directly or through others.

Imports inside functions count (they are dependencies all the same); imports under
`if TYPE_CHECKING:` do not (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "assistant"

LOWER = ("knowledge", "tools", "retrieval")  # in this order, bottom first
HIGHER = ("agent", "ui", "cli", "mcp")

# Known exceptions, each being removed by its owner; an entry that no longer occurs fails
# `test_allow_lists_hold_only_what_still_occurs`, so the lists only shrink.
LAYER_ALLOWED: set[tuple[str, str]] = set()
OFFLINE_ALLOWED: set[tuple[str, str]] = set()
# Cycles inside a package that is being restructured now, whatever their exact members.
CYCLE_PACKAGES_ALLOWED: dict[str, str] = {}
CYCLES_ALLOWED: dict[frozenset[str], str] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _known(name: str) -> str | None:
    """The module (or package) of ours that `name` lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def imports_of(module: str) -> set[str]:
    """The modules of ours that `module` imports at run time."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str | None] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets |= {_known(alias.name) for alias in node.names}
            continue
        base = node.module or ""
        if node.level:
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        for alias in node.names:
            full = f"{base}.{alias.name}"
            targets.add(full if full in MODULES else _known(base))
    return {t for t in targets if t and t.startswith("assistant") and t != module}


GRAPH = {module: imports_of(module) for module in MODULES}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _above(module: str, target: str) -> bool:
    """Whether `target` sits in a layer above `module`'s (only for the three lower layers)."""
    here, there = _layer(module), _layer(target)
    if here not in LOWER:
        return False
    return there in HIGHER or (there in LOWER and LOWER.index(there) > LOWER.index(here))


def layer_violations() -> set[tuple[str, str]]:
    return {
        (module, target)
        for module, targets in GRAPH.items()
        for target in targets
        if _above(module, target)
    }


def offline_violations() -> set[tuple[str, str]]:
    return {
        (module, target)
        for module, targets in GRAPH.items()
        for target in targets
        if target.startswith("assistant.agent.offline") and _layer(module) != "agent"
    }


def cycles() -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(frozenset(group))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return groups


def test_the_graph_sees_our_imports():
    """The reader works: known edges are found, lazy ones too, TYPE_CHECKING ones not."""
    assert "assistant.agent.toolset" in GRAPH["assistant.mcp.server"]  # inside a function
    assert "assistant.tools.probe.markdown" in GRAPH["assistant.tools.probe.models"]
    assert "assistant.tools.probe.models" not in GRAPH["assistant.tools.probe.markdown"]
    assert len(GRAPH) > 100


def test_knowledge_tools_and_retrieval_never_import_upwards():
    assert layer_violations() <= LAYER_ALLOWED, sorted(layer_violations() - LAYER_ALLOWED)


def test_only_the_agent_knows_the_offline_model():
    assert offline_violations() <= OFFLINE_ALLOWED, sorted(offline_violations() - OFFLINE_ALLOWED)


def test_the_mcp_server_uses_only_the_registry_of_the_agent():
    for module, targets in GRAPH.items():
        if _layer(module) == "mcp":
            agent = {t for t in targets if _layer(t) == "agent"}
            assert agent <= {"assistant.agent.toolset"}, (module, agent)
            assert not {t for t in targets if _layer(t) == "cli"}, module


def _in_package(group: frozenset[str], package: str) -> bool:
    return all(m == package or m.startswith(package + ".") for m in group)


def _allowed(group: frozenset[str]) -> bool:
    return any(group <= allowed for allowed in CYCLES_ALLOWED) or any(
        _in_package(group, package) for package in CYCLE_PACKAGES_ALLOWED
    )


def test_no_import_cycles_between_modules():
    unexpected = [sorted(group) for group in cycles() if not _allowed(group)]
    assert unexpected == []


def test_allow_lists_hold_only_what_still_occurs():
    """When an owner removes an exception, its entry must go too."""
    assert layer_violations() >= LAYER_ALLOWED
    assert offline_violations() >= OFFLINE_ALLOWED
    found = cycles()
    stale = [sorted(allowed) for allowed in CYCLES_ALLOWED if not any(g <= allowed for g in found)]
    assert stale == []
