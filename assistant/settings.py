"""The one settings object: every knob is an environment variable prefixed GPU_ADVISOR_."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return Path.home() / ".cache" / "gpu-advisor"


class Settings(BaseSettings):
    """Runtime configuration. Read from the environment only when first asked for."""

    model_config = SettingsConfigDict(env_prefix="GPU_ADVISOR_", extra="ignore")

    # Where indexes, locks and other generated state live.
    home: Path = Field(default_factory=_default_home)
    # Source documents to index; None means the repository's corpus/ or the packaged copy.
    corpus_dir: Path | None = None
    # Embedding model: "e5" (packaged multilingual-e5-small, chosen by docs/retrieval.md), "minilm"
    # (packaged all-MiniLM-L6-v2) or a local directory holding a sentence-transformers model.
    embedding_model: str = "e5"
    # CPU threads of the e5 engine; 1 keeps query latency low when several requests share the cores.
    embedding_threads: int = Field(default=1, ge=1, le=64)
    # Chroma server URL (e.g. http://chroma:8000); None keeps the index on local disk.
    chroma_url: str | None = None
    collection: str = "gpu-advisor"

    # Chat-model backend: "offline", "openai:<model>" or "ollama:<model>".
    llm: str = "offline"
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_max_steps: int = Field(default=8, ge=1, le=50)

    # Money assumptions, stated in every cost result that uses them.
    currency: str = "EUR"
    usd_per_eur: float = Field(default=1.08, gt=0)
    eur_per_gbp: float = Field(default=1.15, gt=0)
    electricity_price_per_kwh: float = Field(default=0.25, ge=0)  # in `currency`

    # Limits at the edges.
    max_message_chars: int = Field(default=4000, ge=100)
    max_history_turns: int = Field(default=20, ge=0)
    probe_timeout_s: float = Field(default=5.0, gt=0)

    # Interfaces.
    discord_token: SecretStr | None = None
    discord_rate_per_minute: int = Field(default=6, ge=1)
    chat_host: str = "127.0.0.1"
    chat_port: int = Field(default=7860, ge=0, le=65535)
    chat_rate_per_minute: int = Field(default=12, ge=1)  # per browser session
    chat_concurrency: int = Field(default=4, ge=1)  # answers computed at once; the rest queue
    mcp_rate_per_minute: int = Field(default=60, ge=1)  # tool calls per MCP client

    log_level: str = "WARNING"

    @field_validator("currency")
    @classmethod
    def _upper_currency(cls, value: str) -> str:
        value = value.strip().upper()
        if value not in {"EUR", "USD", "GBP"}:
            raise ValueError("currency must be EUR, USD or GBP")
        return value

    @property
    def index_dir(self) -> Path:
        """Where the search index lives: `index/` under the home folder."""
        return self.home / "index"

    def resolved_corpus_dir(self) -> Path:
        """The corpus folder: the configured one, else the package's `corpus_data` (in a checkout,
        a link to `corpus/`; in a wheel, the documents themselves)."""
        if self.corpus_dir is not None:
            return self.corpus_dir
        return packaged_corpus_dir()


def packaged_corpus_dir() -> Path:
    """The corpus shipped with the package, found through importlib.resources."""
    return Path(str(resources.files("assistant").joinpath("corpus_data")))


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()


def reset_settings() -> None:
    """Forget cached settings (tests and the CLI's --backend flag use this)."""
    get_settings.cache_clear()
