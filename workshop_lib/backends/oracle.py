"""The Oracle backend: python-oracledb thin mode, OAMP's own Oracle store, in-database model.

Every operation delegates to the plain database code in
:mod:`workshop_lib.oracle` (connections, bootstrap, doctor) and
:mod:`workshop_lib.embedding.oracle_loader`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..config import EMBED_MODEL, SCHEMA, Settings


class OracleBackend:
    """Backend over Oracle AI Database (see :class:`~workshop_lib.backends.base.Backend`)."""

    name = "oracle"
    #: seconds ``setup`` waits for the database to accept a login (a closed port is retried until then)
    wait_timeout_s = 180.0

    def __init__(self, settings: Settings):
        self.settings = settings

    def connect(self, user: str | None = None) -> Any:
        from ..oracle.connection import connect_as

        self.settings.require_oracle()
        return connect_as(self.settings, user or self.settings.oracle_user, self.settings.oracle_password)

    def connect_schema_owner(self) -> Any:
        """A connection as SUPPLYCHAIN, the only user that may (re)create it."""
        from ..oracle.connection import connect_as

        self.settings.require_oracle(supplychain=True)
        return connect_as(self.settings, SCHEMA, self.settings.supplychain_password)

    def memory_target(self, conn: Any) -> Any:
        from ..oracle.connection import create_pool_as

        self.settings.require_oracle()
        return create_pool_as(self.settings, self.settings.oracle_user, self.settings.oracle_password)

    def close_target(self, target: Any) -> None:
        target.close()

    def embedder(self, target: Any) -> Any:
        from ..embedding.oamp_embedder import oracle_embedder

        return oracle_embedder(target, EMBED_MODEL)

    def build_memory_client(self, target: Any, embedder: Any = None) -> Any:
        from ..oracle.memory import build_oracle_memory_client

        return build_oracle_memory_client(target, self.settings, embedder)

    def load_model(self, conn: Any, *, force: bool = False) -> None:
        from ..embedding import ensure_model
        from ..embedding.oracle_loader import load_model_oracle

        load_model_oracle(conn, EMBED_MODEL, ensure_model(self.settings), force=force)

    def ensure_text_index(self, conn: Any) -> bool:
        from ..oracle.bootstrap import ensure_text_index

        # the bootstrap's version also rebuilds an index a half-finished run left FAILED
        return not ensure_text_index(conn).startswith("already present")

    def seed(self, conn: Any) -> Any:
        from ..seed import run_seed

        owner = self.connect_schema_owner()
        try:
            # Oracle commits each DDL statement, so a failed seed drops what it created instead
            return run_seed(owner, atomic=False, label=self.name)
        finally:
            owner.close()

    def describe(self, conn: Any) -> str:
        return f"Oracle Database {conn.version}"

    def doctor(self) -> Any:
        from ..oracle.doctor import doctor_oracle

        return doctor_oracle(self.settings)

    def setup(self, *, upto: str, reseed: bool, echo: Callable[[str], Any], reset_passwords: bool = False) -> None:
        """The idempotent bootstrap, then (``upto`` memory or scan) the memory repairs lite's setup makes.

        The users, seed, model, OAMP tables and text index are always brought up
        to date (``upto`` below ``memory`` stops before the memory repairs);
        ``reset_passwords`` sets both users' passwords from .env even when they log in.
        One setup at a time per WORKSHOP_HOME (lite's lock): two at once would race on
        CREATE USER, the seed and the scan's memory ids; the second says so and waits.
        """
        from pathlib import Path

        from .lite import setup_lock

        with setup_lock(Path(self.settings.home), echo):
            self._setup(upto=upto, reseed=reseed, echo=echo, reset_passwords=reset_passwords)

    def _setup(self, *, upto: str, reseed: bool, echo: Callable[[str], Any], reset_passwords: bool) -> None:
        from ..oracle.bootstrap import bootstrap
        from ..workshop import LEVELS

        repairs = MemoryRepairs(self)
        then = []
        if LEVELS.index(upto) >= LEVELS.index("scan"):
            then.append(("catalog memories", repairs.scan))
        if LEVELS.index(upto) >= LEVELS.index("memory"):
            then.append(("memory vectors", repairs.vectors))
        try:
            bootstrap(self.settings, echo=echo, reseed=reseed, reset_passwords=reset_passwords,
                      wait_timeout_s=self.wait_timeout_s, then=then)
        finally:
            repairs.close()


class MemoryRepairs:
    """Setup's memory steps on Oracle, through the same shared code lite's setup calls.

    A :class:`~workshop_lib.workshop.Workshop` over this backend (AGENT's
    connection, OAMP over a pool) is opened on first use; the scan is
    :meth:`Workshop.scan` (the reference scan: missing facts written, stale
    ``fact-`` memories deleted, other memories never touched) and the
    re-embedding is :func:`workshop_lib.memory.setup.repair_memories`.
    """

    def __init__(self, backend: OracleBackend):
        self.backend = backend
        self._ws: Any = None

    @property
    def ws(self) -> Any:
        if self._ws is None:
            from ..workshop import Workshop

            self._ws = Workshop(settings=self.backend.settings, conn=self.backend.connect(), impl=self.backend)
            self._ws.ensure_memory()   # the user and agent profiles (and the text index), as lite's setup
        return self._ws

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    def scan(self) -> tuple[str, str]:
        """The catalog scan: fact memories the catalog does not yield are deleted, missing ones written."""
        report = self.ws.scan()
        if not report.written and not report.removed:
            return "skipped", "every fact memory matches the catalog"
        return "done", (f"catalog scan: {report.written} fact memories written, {report.removed} stale ones "
                        f"removed; {report.others} memories of your own kept")

    def vectors(self) -> tuple[str, str]:
        """Re-embed every memory without a chunk/vector through OAMP (text, metadata and status kept)."""
        from ..memory.setup import repair_memories

        repaired = repair_memories(self.ws)
        if not repaired:
            return "skipped", "every memory has its chunk and vector"
        return "done", (f"re-embedded {len(repaired)} memories that had lost their chunks or vectors "
                        f"(e.g. {repaired[0]}; text, metadata and status kept)")
