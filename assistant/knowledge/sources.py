"""Where a figure came from. Every data row carries at least one."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field


class Source(BaseModel):
    """A citable origin for a figure: a vendor document, a provider's price page, a corpus section."""

    title: str = Field(min_length=3, description="Document or page title")
    url: str | None = Field(default=None, description="Where to read it, if public")
    date: dt.date | None = Field(default=None, description="When seen (required for prices)")
    note: str | None = Field(
        default=None, description="Which table/page, or how a figure was derived"
    )

    def label(self) -> str:
        """The title, followed by the date when there is one."""
        when = f", {self.date.isoformat()}" if self.date else ""
        return f"{self.title}{when}"


def dedupe_sources(sources: list[Source]) -> list[Source]:
    """The sources in order, each (title, url, note) once."""
    seen: set[tuple[str, str | None, str | None]] = set()
    out = []
    for source in sources:
        key = (source.title, source.url, source.note)
        if key not in seen:
            seen.add(key)
            out.append(source)
    return out
