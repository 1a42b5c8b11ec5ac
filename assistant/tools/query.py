"""What tool query models share."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, model_validator


class NullsMeanDefaults(BaseModel):
    """A query whose null fields take their defaults: a tool call may send null for a setting it
    leaves alone."""

    @model_validator(mode="before")
    @classmethod
    def _nulls_mean_defaults(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data
