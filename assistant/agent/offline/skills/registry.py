"""Find the skills: every module of this package that defines `SKILL`."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from functools import lru_cache
from pathlib import Path
from typing import Any

from assistant.agent.offline.skills.base import Skill
from assistant.log import get_logger

log = get_logger(__name__)

_PACKAGE = __name__.rsplit(".", 1)[0]
_NOT_SKILLS = {"base", "registry", "common"}


@lru_cache(maxsize=1)
def _discover() -> dict[str, Skill[Any]]:
    found: dict[str, Skill[Any]] = {}
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda i: i.name):
        if info.name.startswith("_") or info.name in _NOT_SKILLS:
            continue
        try:
            module = importlib.import_module(f"{_PACKAGE}.{info.name}")
        except ImportError as exc:  # one broken skill must not take the others down
            log.warning("skill %s unavailable: %s", info.name, exc)
            continue
        skill = getattr(module, "SKILL", None)
        if not isinstance(skill, Skill):
            continue
        if skill.tool in found:
            raise ValueError(f"two skills for tool {skill.tool!r}")
        found[skill.tool] = dataclasses.replace(skill, examples_package=_PACKAGE)
    return found


def all_skills() -> dict[str, Skill[Any]]:
    """tool name → its skill, for every skill of the package."""
    return dict(_discover())


def get_skill(tool: str) -> Skill[Any] | None:
    """The skill of this tool, or None when no skill has that name."""
    return _discover().get(tool)
