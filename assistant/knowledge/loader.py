"""The one loader for package data files: TOML arrays of tables and CSV rows, validated by pydantic."""

from __future__ import annotations

import csv
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)


class DataFileError(ValueError):
    """A data file is missing or a row fails its schema; the message names the file and row."""


def data_path(filename: str) -> Path:
    """Path of a file in assistant/knowledge/data."""
    return Path(str(resources.files("assistant.knowledge").joinpath("data", filename)))


@cache
def _read_toml(filename: str) -> dict[str, Any]:
    path = data_path(filename)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise DataFileError(f"missing data file {filename}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{filename}: {exc}") from exc


def read_toml_table(filename: str) -> dict[str, Any]:
    """The raw parsed TOML document (for files with top-level settings beside their rows)."""
    return _read_toml(filename)


def read_toml_rows(filename: str, table: str, model: type[T]) -> list[T]:
    """Rows of `[[table]]` in a TOML data file, each validated as `model`."""
    raw = _read_toml(filename).get(table, [])
    return [_validate(model, row, filename, i) for i, row in enumerate(raw, 1)]


def read_csv_rows(filename: str, model: type[T]) -> list[T]:
    """Rows of a CSV data file (header line first, '#' comment lines skipped), validated as `model`."""
    path = data_path(filename)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise DataFileError(f"missing data file {filename}") from exc
    lines = [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]
    rows = []
    for i, row in enumerate(csv.DictReader(lines), 2):
        cleaned = {
            k.strip(): (v.strip() if v is not None and v.strip() != "" else None)
            for k, v in row.items()
            if k
        }
        rows.append(_validate(model, cleaned, filename, i))
    return rows


def _validate(model: type[T], row: dict[str, Any], filename: str, index: int) -> T:
    try:
        return model.model_validate(row)
    except ValidationError as exc:
        raise DataFileError(f"{filename} row {index}: {exc}") from exc
