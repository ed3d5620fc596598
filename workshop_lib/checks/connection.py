"""Small helpers the checks use on the shared connection: fetch rows, run a statement, spot an open transaction."""

from __future__ import annotations

from typing import Any


def _fetch(conn: Any, sql: str, **binds: Any) -> list[tuple[Any, ...]]:
    with conn.cursor() as cur:
        cur.execute(sql, **binds)
        return cur.fetchall()


def _run(conn: Any, sql: str) -> None:
    with conn.cursor() as cur:
        cur.execute(sql)


def _transaction_open(conn: Any) -> bool:
    """True when ``conn`` has uncommitted work (python-oracledb's ``transaction_in_progress``; lite has it too)."""
    return bool(conn.transaction_in_progress)


def _connection_error(conn: Any) -> Exception | None:
    """Why ``conn`` cannot run a statement (a closed connection's error), or None when it answers."""
    try:
        _fetch(conn, "SELECT 1 FROM dual")
    except Exception as exc:  # noqa: BLE001 - any failure means the connection is unusable
        return exc
    return None
