"""Data-dictionary questions both backends answer with the same Oracle SQL.

Lite keeps Oracle's dictionary views (``USER_MINING_MODELS``,
``USER_INDEXES``, ``ALL_INDEXES``), so each question is written once here and
asked of either connection: is a model loaded, does an index exist, what is
the DDL of the memory table's Oracle Text index.
"""

from __future__ import annotations

from typing import Any

from .config import MEMORY_TABLE, SCHEMA, SPATIAL_INDEXES, TEXT_INDEX

MODEL_LOADED_SQL = "SELECT COUNT(*) FROM user_mining_models WHERE model_name = :name"
INDEX_EXISTS_SQL = "SELECT COUNT(*) FROM user_indexes WHERE index_name = :name"
SPATIAL_INDEX_COUNT_SQL = ("SELECT COUNT(*) FROM all_indexes "
                           "WHERE table_owner = :owner AND ityp_owner = 'MDSYS'")


def _count(conn: Any, sql: str, **binds: Any) -> int:
    with conn.cursor() as cur:
        cur.execute(sql, binds)
        rows = cur.fetchall()
    return int(rows[0][0] or 0) if rows else 0


def model_loaded(conn: Any, model_name: str) -> bool:
    """True when ``model_name`` is listed in ``USER_MINING_MODELS`` of the connected schema."""
    return _count(conn, MODEL_LOADED_SQL, name=model_name.upper()) > 0


def index_exists(conn: Any, index_name: str) -> bool:
    """True when the connected schema owns an index called ``index_name`` (any case)."""
    return _count(conn, INDEX_EXISTS_SQL, name=index_name.upper()) > 0


def spatial_indexes_present(conn: Any, owner: str = SCHEMA) -> bool:
    """True when the seed's spatial indexes exist (a schema seeded before they were added lacks them)."""
    return _count(conn, SPATIAL_INDEX_COUNT_SQL, owner=owner) >= len(SPATIAL_INDEXES)


def text_index_sql(table: str = MEMORY_TABLE, index: str = TEXT_INDEX) -> str:
    """The Oracle Text CONTEXT index on ``table(content)``, synchronised at each commit.

    Both backends create it with this statement; names are validated by the
    callers (they come from :mod:`workshop_lib.config`, never from user input).
    """
    return (f"CREATE INDEX {index.lower()} ON {table.lower()}(content) INDEXTYPE IS CTXSYS.CONTEXT "
            "PARAMETERS ('SYNC (ON COMMIT)')")
