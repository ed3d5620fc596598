"""Connections for both backends, with the same python-oracledb calling shape.

``connect()`` returns a python-oracledb thin-mode connection for ``oracle``
and a :class:`~workshop_lib.lite.LiteConnection` for ``lite``; notebook code
(cursor, execute with named binds, fetch, commit) is identical for both.
"""

from __future__ import annotations

from typing import Any

from .config import AGENT_SCHEMA, SCHEMA, Settings, load_settings


def connect(backend: str | None = None, *, settings: Settings | None = None, user: str | None = None) -> Any:
    """Open a connection as the workshop's agent user (or ``user``) on the configured backend.

    ``backend`` overrides WORKSHOP_BACKEND. An unknown backend or a missing
    Oracle setting raises :class:`~workshop_lib.errors.ConfigError` naming it.
    """
    settings = settings or load_settings(backend=backend)
    if settings.backend == "lite":
        from .lite import connect as lite_connect

        return lite_connect(settings.home, user or AGENT_SCHEMA)
    settings.require_oracle()
    from .oracle.connection import connect_as

    return connect_as(settings, user or settings.oracle_user, settings.oracle_password)


def create_pool(settings: Settings | None = None, *, max_size: int = 4) -> Any:
    """A python-oracledb connection pool as the agent user (Oracle only; OAMP prefers pools)."""
    settings = settings or load_settings()
    if settings.backend != "oracle":
        raise ValueError("connection pools exist only for the oracle backend; use connect() for lite")
    settings.require_oracle()
    from .oracle.connection import create_pool_as

    return create_pool_as(settings, settings.oracle_user, settings.oracle_password, max_size=max_size)


def connect_schema_owner(settings: Settings) -> Any:
    """A connection that may (re)create SUPPLYCHAIN: its owner on Oracle, the lite connection in lite."""
    if settings.backend == "lite":
        return connect(settings=settings)
    settings.require_oracle(supplychain=True)
    from .oracle.connection import connect_as

    return connect_as(settings, SCHEMA, settings.supplychain_password)


def database_version(conn: Any) -> str:
    """A one-line description of the database behind ``conn`` (for the notebooks' first cell)."""
    from .lite import LiteConnection

    if isinstance(conn, LiteConnection):
        return f"lite backend: Oracle {conn.version.split('.')[0]}ai SQL on SQLite {conn.sqlite_version}"
    return f"Oracle Database {conn.version}"
