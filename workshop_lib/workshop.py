"""The workshop object the notebooks start from: ``ws = workshop_lib.start()``.

It connects to the configured backend and brings prerequisites up to date
idempotently (model, SUPPLYCHAIN seed, memory store, catalog scan), so every
notebook — and every graded TODO — can run on its own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from . import config, session
from .backends import Backend, get_backend
from .config import Settings, load_settings
from .dictionary import model_loaded, spatial_indexes_present

log = logging.getLogger(__name__)

#: How far start() catches up: each level includes the ones before it.
#: "memory" creates OAMP's tables only; "scan" also registers the profiles, creates the
#: Oracle Text index (Part 2 does both in view of the learner) and stores the catalog scan.
LEVELS = ("connect", "model", "seed", "memory", "scan")


@dataclass
class Workshop:
    """A connected workshop: connection, names, and the steps that prepare each part."""

    settings: Settings
    conn: Any
    impl: Backend = field(repr=False)
    user_id: str = config.USER_ID
    agent_id: str = config.AGENT_ID
    embed_model: str = config.EMBED_MODEL
    memory_table: str = config.MEMORY_TABLE
    chunks_table: str = config.CHUNKS_TABLE
    _memory_client: Any = field(default=None, repr=False)
    _target: Any = field(default=None, repr=False)

    @property
    def backend(self) -> str:
        """'lite' or 'oracle' (the implementation itself is :attr:`impl`)."""
        return self.impl.name

    def describe(self) -> str:
        """One line: backend, database version, model status (printed by the first notebook cell)."""
        return f"{self.impl.describe(self.conn)} | model {self.embed_model}: " + (
            "loaded" if self.model_loaded() else "not loaded")

    # ------------------------------------------------------------------ model
    def model_loaded(self) -> bool:
        """True when the embedding model is listed in USER_MINING_MODELS."""
        return model_loaded(self.conn, self.embed_model)

    def ensure_model(self, *, force: bool = False) -> None:
        """Build the ONNX model if needed and load it into the database (skipped when current)."""
        self.impl.load_model(self.conn, force=force)

    # ------------------------------------------------------------------ seed
    def seed_present(self) -> bool:
        """True when all seven SUPPLYCHAIN tables exist with exactly the seed's rows and their spatial indexes.

        Any table whose row count differs from the seed script (a table emptied,
        rows deleted) means the seed is not present, so ``start`` and
        ``workshop setup`` reseed it.
        """
        from .seed import seed_counts, seed_differences

        if seed_differences(seed_counts(self.conn)):
            return False
        return spatial_indexes_present(self.conn)

    def seed(self) -> Any:
        """(Re)create SUPPLYCHAIN from seed/supplychain.sql; returns the seed report."""
        return self.impl.seed(self.conn)

    # ------------------------------------------------------------------ memory
    @property
    def memory_client(self) -> Any:
        """The OAMP ``OracleAgentMemory`` client for this backend (built on first use)."""
        if self._memory_client is None:
            self._target = self._target or self.impl.memory_target(self.conn)
            self._memory_client = self.impl.build_memory_client(self._target)
        return self._memory_client

    def ensure_memory(self) -> None:
        """Create OAMP's tables, the Oracle Text index, and the user/agent profiles (idempotent).

        ``start(upto="memory")`` only builds the client (which creates the
        tables); Part 2 registers the profiles and creates the index where the
        learner sees the calls and the DDL, and ``start(upto="scan")`` catches
        up on both.
        """
        from .memory.setup import ensure_memory

        ensure_memory(self)

    def scan(self) -> Any:
        """Reference catalog scan: table and column facts plus the extra memories (idempotent)."""
        from .scanner import reference_scan

        return reference_scan(self)

    def close(self) -> None:
        """Close the connection (and the pool OAMP used, if any)."""
        self.conn.close()
        if self._target is not None:
            self.impl.close_target(self._target)


def current() -> Workshop:
    """The workshop started last in this process (library helpers use its connection)."""
    return session.current()


def start(backend: str | None = None, *, upto: str = "scan", settings: Settings | None = None) -> Workshop:
    """Connect and idempotently prepare everything up to ``upto`` (one of LEVELS).

    ``upto="seed"`` is what part 1 needs, ``"memory"`` part 2 (OAMP's tables;
    the notebook registers the profiles and creates the text index itself) and
    ``"scan"`` parts 3 and 4. Each step checks the database first and does nothing when it is
    already current, so running a notebook's first cell twice is cheap.
    """
    if upto not in LEVELS:
        raise ValueError(f"upto must be one of {', '.join(LEVELS)}, not {upto!r}")
    settings = settings or load_settings(backend=backend)
    impl = get_backend(settings)
    ws = Workshop(settings=settings, conn=impl.connect(), impl=impl)
    level = LEVELS.index(upto)
    if level >= LEVELS.index("model"):
        ws.ensure_model()
    if level >= LEVELS.index("seed") and not ws.seed_present():
        ws.seed()
    if level >= LEVELS.index("memory"):
        ws.memory_client  # building the client creates OAMP's tables when missing
    if level >= LEVELS.index("scan"):
        ws.ensure_memory()
        ws.scan()
    session.set_current(ws)
    return ws
