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
