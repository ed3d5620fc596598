"""Workshop configuration: which backend, where data lives, and every shared name.

Settings come from the environment, then from an optional ``.env`` file in the
working directory or the repository root (the environment wins). No password
is ever written in code: Oracle credentials are read from ``ORACLE_PASSWORD``
and friends, and a missing one is a clear :class:`ConfigError`.

The names the notebooks, the hybrid SQL and the Oracle bootstrap must agree on
(schema, memory tables, text index, model, user and agent ids) live here and
nowhere else.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError

BACKENDS = ("lite", "oracle")

# --- names shared by seed, memory, retrieval and bootstrap -------------------
SCHEMA = "SUPPLYCHAIN"                       # the seeded catalog schema
SEED_TABLES = ("CARRIERS", "PORTS", "VESSELS", "VOYAGES",   # what seed/supplychain.sql creates,
               "VESSEL_POSITIONS", "CONTAINERS", "CARGO_ITEMS")  # parents first
SPATIAL_INDEXES = ("PORTS_LOCATION_SX", "VESSEL_POSITIONS_POSITION_SX")  # SDO_WITHIN_DISTANCE needs them
AGENT_SCHEMA = "AGENT"                       # the user that owns OAMP's tables
TABLE_PREFIX = "eda_onnx_"                   # OAMP table_name_prefix
MEMORY_TABLE = TABLE_PREFIX + "memory"       # OAMP memory table (content, metadata JSON)
CHUNKS_TABLE = TABLE_PREFIX + "record_chunks"  # OAMP chunk table (embedding VECTOR)
TEXT_INDEX = TABLE_PREFIX + "memory_ctx"     # Oracle Text CONTEXT index on MEMORY_TABLE(content)
EMBED_MODEL = "ALL_MINILM_L6_V2"            # in-database ONNX model name
EMBED_DIM = 384
USER_ID = "workshop_learner"                 # OAMP user scope of the workshop's memories
AGENT_ID = "supplychain_catalog_agent"       # OAMP agent scope
OTHER_USER_ID = "another_learner"            # used by checks to prove scoping
RERANK_MODEL = "RERANKER_MINILM"             # optional in-database cross-encoder


def masked_dsn(dsn: str | None) -> str:
    """``dsn`` safe to print: a password written into it (``user/password@host/service``) becomes ``***``."""
    if not dsn:
        return str(dsn)
    return re.sub(r"^([^/@\s]+)/[^@]*@", r"\1/***@", dsn)


def redact(text: str, settings: object) -> str:
    """``text`` with every password the settings hold (and one written into the DSN) replaced by ``***``."""
    secrets = [getattr(settings, name, None) for name in ("oracle_password", "supplychain_password",
                                                           "admin_password")]
    match = re.match(r"^[^/@\s]+/([^@]*)@", getattr(settings, "oracle_dsn", None) or "")
    if match:
        secrets.append(match.group(1))
    for secret in sorted({s for s in secrets if s and len(s) >= 3}, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _repo_root() -> Path | None:
    """Return the source checkout holding this package, when there is one."""
    here = Path(__file__).resolve().parent.parent
    return here if (here / "pyproject.toml").exists() else None


def _read_dotenv() -> dict[str, str]:
    """Read KEY=VALUE lines from ./.env or <repo>/.env; comments and blanks skipped.

    ``WORKSHOP_NO_DOTENV=1`` turns this off: ``workshop grade`` runs learners'
    code with it, so the instructor's .env settings are not handed to them.
    """
    if os.environ.get("WORKSHOP_NO_DOTENV") == "1":
        return {}
    candidates = [Path.cwd() / ".env"]
    root = _repo_root()
    if root is not None:
        candidates.append(root / ".env")
    values: dict[str, str] = {}
    for path in candidates:
        if not path.is_file():
            continue
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, _, value = line.partition("=")
            key = key.strip().removeprefix("export ").strip()
            value = value.strip().strip('"').strip("'")
            values.setdefault(key, value)
        break
    return values


def default_home() -> Path:
    """Where lite databases and the built model go when WORKSHOP_HOME is unset."""
    root = _repo_root()
    if root is not None:
        return root / ".workshop"
    return Path.home() / ".oracle-retrieval-workshop"


@dataclass(frozen=True)
class Settings:
    """Resolved configuration for one process (see :func:`load_settings`)."""

    backend: str = "lite"
    home: Path = field(default_factory=default_home)
    oracle_dsn: str | None = None
    oracle_user: str = AGENT_SCHEMA
    oracle_password: str | None = None
    supplychain_password: str | None = None
    admin_user: str = "SYSTEM"
    admin_password: str | None = None
    wallet_dir: str | None = None
    wallet_password: str | None = None
    llm_model: str | None = None

    @property
    def lite_dir(self) -> Path:
        """Folder of the lite backend's SQLite files."""
        return self.home / "lite"

    @property
    def model_dir(self) -> Path:
        """Folder of the built ONNX embedding model."""
        return self.home / "model"

    def require_oracle(self, *, admin: bool = False, supplychain: bool = False) -> None:
        """Raise ConfigError naming each Oracle setting this operation needs but lacks."""
        missing = []
        if not self.oracle_dsn:
            missing.append("ORACLE_DSN (e.g. localhost:1521/FREEPDB1)")
        if not self.oracle_user:
            missing.append("ORACLE_USER")
        if not self.oracle_password:
            missing.append("ORACLE_PASSWORD")
        if supplychain and not self.supplychain_password:
            missing.append("SUPPLYCHAIN_PASSWORD")
        if admin and not self.admin_password:
            missing.append("ORACLE_ADMIN_PASSWORD")
        if missing:
            raise ConfigError(
                "The Oracle backend needs these settings, which are not set: "
                + ", ".join(missing)
                + ". Put them in the environment or in .env in the workshop's top folder, next to "
                "README.md (copy .env.example), or use WORKSHOP_BACKEND=lite to run without a database."
            )


def load_settings(env: dict[str, str] | None = None, *, backend: str | None = None) -> Settings:
    """Build Settings from ``env`` (default: os.environ over .env) and an optional backend override.

    An unknown backend name raises ConfigError listing the valid ones. Oracle
    settings are only validated when an Oracle connection is actually opened
    (:meth:`Settings.require_oracle`), so lite users never need them.
    """
    if env is None:
        merged = _read_dotenv()
        merged.update(os.environ)
        env = merged
    chosen = (backend or env.get("WORKSHOP_BACKEND") or "lite").strip().lower()
    if chosen not in BACKENDS:
        raise ConfigError(
            f"Unknown workshop backend {chosen!r}. Use one of: {', '.join(BACKENDS)} "
            "(set WORKSHOP_BACKEND or pass backend=...)."
        )
    home = Path(env["WORKSHOP_HOME"]).expanduser() if env.get("WORKSHOP_HOME") else default_home()
    return Settings(
        backend=chosen,
        home=home,
        oracle_dsn=env.get("ORACLE_DSN") or None,
        oracle_user=env.get("ORACLE_USER") or AGENT_SCHEMA,
        oracle_password=env.get("ORACLE_PASSWORD") or None,
        supplychain_password=env.get("SUPPLYCHAIN_PASSWORD") or None,
        admin_user=env.get("ORACLE_ADMIN_USER") or "SYSTEM",
        admin_password=env.get("ORACLE_ADMIN_PASSWORD") or None,
        wallet_dir=env.get("ORACLE_WALLET_DIR") or None,
        wallet_password=env.get("ORACLE_WALLET_PASSWORD") or None,
        llm_model=env.get("WORKSHOP_LLM_MODEL") or None,
    )
