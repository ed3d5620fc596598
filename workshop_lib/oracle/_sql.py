"""Three tiny cursor helpers shared by bootstrap, doctor and provisioning."""

from __future__ import annotations

from typing import Any


def rows(conn: Any, sql: str, params: dict[str, Any] | None = None) -> list[tuple]:
    """Execute ``sql`` with named binds and return all rows."""
    with conn.cursor() as cur:
        cur.execute(sql, params or {})
        return list(cur.fetchall())


def scalar(conn: Any, sql: str, params: dict[str, Any] | None = None) -> Any:
    """The first column of the first row, or None when there is no row."""
    found = rows(conn, sql, params)
    return found[0][0] if found else None


def execute(conn: Any, sql: str, params: dict[str, Any] | None = None) -> None:
    """Execute a statement that returns no rows (DDL, DML, GRANT)."""
    with conn.cursor() as cur:
        cur.execute(sql, params or {})
