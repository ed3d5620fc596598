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
        return ensure_text_index(conn) != "already present"

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

    def setup(self, *, upto: str, reseed: bool, echo: Callable[[str], Any]) -> None:
        from ..oracle.bootstrap import bootstrap

        bootstrap(self.settings, echo=echo, reseed=reseed)
