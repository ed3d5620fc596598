"""What the lite SQL tests share: running one statement and getting its rows."""

from __future__ import annotations

from typing import Any


def run(conn: Any, sql: str, binds: Any = None) -> list[tuple]:
    """Execute ``sql`` on a lite connection; the rows when it is a query, else an empty list."""
    cur = conn.cursor()
    cur.execute(sql, binds or {})
    return cur.fetchall() if cur.description else []


def failure(conn: Any, sql: str, binds: Any = None) -> Any:
    """The error ``sql`` fails with (``.code``, ``.message``), raised by the execute or the fetch; it must fail."""
    import oracledb
    import pytest

    with pytest.raises(oracledb.DatabaseError) as info:
        run(conn, sql, binds)
    return info.value.args[0]
