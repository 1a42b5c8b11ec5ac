"""The wheel and the sdist carry every file the package reads at run time.

"Every file" is found in the committed tree, not listed here: all files under assistant/ (the
corpus included, through the assistant/corpus_data link), so a new data file, skill, table or
knowledge entry is checked without editing this test.
"""

from __future__ import annotations

import os
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.install, pytest.mark.timeout(900)]


def tree_files(clone: Path) -> set[str]:
    """Every file under the clone's assistant/ (links followed), as paths inside the package."""
    out = set()
    root = clone / "assistant"
    for folder, subfolders, files in os.walk(root, followlinks=True):
        subfolders[:] = [d for d in subfolders if d != "__pycache__" and not d.startswith(".")]
        for name in files:
            if name.startswith(".") or name.endswith((".pyc", ".pyo")):
                continue
            out.add((Path(folder) / name).relative_to(clone).as_posix())
    return out


@pytest.fixture(scope="module")
def expected(clone: Path) -> set[str]:
    files = tree_files(clone)
    # The walk must see each kind of runtime data (else it checks nothing).
    assert "assistant/retrieval/data/vectors.npz" in files
    assert any(f.startswith("assistant/corpus_data/") and f.endswith(".md") for f in files)
    assert any(f.startswith("assistant/knowledge/data/") for f in files)
    return files


def test_the_wheel_carries_every_file_of_the_package(dists: dict[str, Path], expected: set[str]):
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        shipped = set(wheel.namelist())
    missing = sorted(expected - shipped)
    assert not missing, f"{len(missing)} files missing from the wheel: {missing[:20]}"


def test_the_sdist_carries_every_file_of_the_package(dists: dict[str, Path], expected: set[str]):
    with tarfile.open(dists["sdist"]) as sdist:
        members = sdist.getmembers()
    top = members[0].name.split("/")[0]
    shipped = {m.name.removeprefix(f"{top}/") for m in members if m.isfile()}
    missing = sorted(expected - shipped)
    assert not missing, f"{len(missing)} files missing from the sdist: {missing[:20]}"
    links = [m.name for m in members if m.issym() or m.islnk()]
    assert not links, f"the sdist holds links, not files: {links}"


def test_the_wheel_ships_no_stray_build_files(dists: dict[str, Path]):
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = wheel.namelist()
    stray = [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".so"))]
    assert not stray
    assert all(n.startswith(("assistant/", "gpu_advisor-")) for n in names)
