"""Which GPUs a program runs on: Ollama, vLLM, ComfyUI, FlashAttention... (data/programs.toml).

For each program: the NVIDIA compute capabilities its current releases build for (a minimum, or
the only ones), and whether it runs on AMD, Apple and Intel GPUs and through what, each with the
documents that say so and when they were read. Programs are found in a question by their names
("ollama", "llama.cpp", "comfy ui"), matched on folded text at word boundaries.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from assistant.knowledge.cuda_support import version_key
from assistant.knowledge.features import keyed_sources, rows_with_sources
from assistant.knowledge.loader import read_toml_table
from assistant.knowledge.names import fold
from assistant.knowledge.sources import Source
from assistant.knowledge.speed import Backend

PROGRAMS_FILE = "programs.toml"

Verdict = Literal["yes", "partial", "no", "unknown"]
Vendor = Literal["nvidia", "amd", "apple", "intel"]


class Platform(BaseModel):
    """How a program runs on one vendor's GPUs."""

    supported: Verdict
    how: str = Field(default="", description="Through what: 'ROCm', 'Metal', 'Vulkan'...")
    how_fr: str = Field(default="", description="The same in French, where it is not a name")
    note: str = ""
    note_fr: str = ""


class NvidiaSupport(BaseModel):
    """The NVIDIA cards a program's current releases run on."""

    min_cc: str | None = Field(default=None, pattern=r"^\d{1,2}\.\d$")
    only_cc: list[str] = Field(default_factory=list, description="When only these CCs run it")
    note: str = ""
    note_fr: str = ""
    older: str = Field(default="", description="What to do on a card below the minimum")
    older_fr: str = ""

    def runs_on(self, cc: str) -> bool | None:
        """Whether current releases run on this compute capability; None when unknown."""
        if self.only_cc:
            return cc in self.only_cc
        if self.min_cc is None:
            return None
        return version_key(cc) >= version_key(self.min_cc)

    def floor(self) -> str:
        """The CCs it needs, in words: '≥ 7.0' or '9.0 only'."""
        if self.only_cc:
            return " or ".join(self.only_cc) + " only"
        return f"≥ {self.min_cc}" if self.min_cc else "unknown"


class Program(BaseModel):
    key: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    names: list[str] = Field(min_length=1, description="What people type, folded")
    cpu: bool = Field(description="It also runs without a GPU")
    nvidia: NvidiaSupport
    amd: Platform
    apple: Platform
    intel: Platform
    date: dt.date = Field(description="When the documents were read")
    sources: list[Source] = Field(min_length=1)
    built_on: list[str] = Field(
        default_factory=list,
        description="Keys of the programs it runs on top of (ComfyUI: PyTorch), so that what is "
        "said of those also bears on it",
    )
    speed_backend: Backend | None = Field(
        default=None,
        description="The speed estimate's backend this program runs models with (Ollama: "
        "llama.cpp; vLLM: vllm, tensor parallel across cards)",
    )

    def platform(self, vendor: str) -> Platform | None:
        """How it runs on a non-NVIDIA vendor's GPUs, or None for NVIDIA and unknown vendors."""
        return {"amd": self.amd, "apple": self.apple, "intel": self.intel}.get(vendor)


@lru_cache(maxsize=1)
def load_programs() -> tuple[Program, ...]:
    raw = read_toml_table(PROGRAMS_FILE)
    sources = keyed_sources(raw.get("source", []), PROGRAMS_FILE)
    programs = tuple(rows_with_sources(raw, "program", Program, sources, PROGRAMS_FILE))
    keys = {p.key for p in programs}
    for p in programs:
        if unknown := set(p.built_on) - keys:
            raise ValueError(f"{PROGRAMS_FILE}: {p.key} is built on unknown {sorted(unknown)}")
    return programs


def program_names() -> list[str]:
    """Every name of every program, folded (the vocabulary the router reads)."""
    return [fold(n) for p in load_programs() for n in p.names]


@lru_cache(maxsize=1)
def _names_pattern() -> tuple[re.Pattern[str], dict[str, Program]]:
    by_name = {fold(n): p for p in load_programs() for n in p.names}
    alternatives = "|".join(re.escape(n) for n in sorted(by_name, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})(?!\w)"), by_name


def programs_named(text: str) -> frozenset[str]:
    """The keys of every program a text names, with those they are built on (a question on
    ComfyUI is also one on PyTorch)."""
    pattern, by_name = _names_pattern()
    keys = {by_name[m.group(0)].key for m in pattern.finditer(fold(text))}
    by_key = {p.key: p for p in load_programs()}
    for key in list(keys):
        keys.update(by_key[key].built_on)
    return frozenset(keys)


def find_program(text: str) -> Program | None:
    """The first program a text names, or None."""
    pattern, by_name = _names_pattern()
    found = pattern.search(fold(text))
    return by_name[found.group(0)] if found else None
