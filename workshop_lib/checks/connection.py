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
    """True when ``conn`` has uncommitted work (python-oracledb flag, or the lite engine's SQLite state)."""
    flag = getattr(conn, "transaction_in_progress", None)
    if isinstance(flag, bool):
        return flag
    inner = getattr(conn, "_con", None)  # lite: no public flag yet, the SQLite connection knows
    return bool(getattr(inner, "in_transaction", False))
