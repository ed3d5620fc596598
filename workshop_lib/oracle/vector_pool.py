"""The Vector Pool OAMP's HNSW index lives in: read its size, compute what a class needs, say what to ask for.

OAMP always creates ``CREATE VECTOR INDEX … ORGANIZATION INMEMORY NEIGHBOR
GRAPH`` (HNSW) on its chunk table; with ``VECTOR_MEMORY_SIZE = 0`` (the
default of an on-premises database) that step fails with ORA-51962. The
doctor and the bootstrap read the parameter before anything is created and,
when it is 0 or too small, fail with the exact statement to ask the DBA for
and a size computed from the number of schemas (AGENT + learners) and
memories. On Autonomous Database the pool is managed automatically (the
parameter reads 0 there and cannot be set), so nothing is asked for.
"""

from __future__ import annotations

import math
from typing import Any

from ..config import EMBED_DIM
from ._sql import scalar as _scalar
from .diagnosis import error_codes

VECTOR_MEMORY_SIZE_SQL = "SELECT value FROM v$parameter WHERE name = 'vector_memory_size'"
# Oracle's estimate of an HNSW index in the Vector Pool (AI Vector Search User's Guide,
# "Size the Vector Pool"): 1.3 x number of vectors x dimensions x bytes per dimension.
HNSW_FACTOR = 1.3
BYTES_PER_DIMENSION = 4        # FLOAT32, the embedding model's output
HEADROOM = 2                   # agent messages' chunks, index rebuilds
DEFAULT_MEMORIES = 10_000      # per schema: far above what the notebooks store
MIN_RECOMMENDED_MB = 256       # what the devcontainer's startup hook sets
_MB = 1024 * 1024


def needed_bytes(schemas: int = 1, memories: int = DEFAULT_MEMORIES, dim: int = EMBED_DIM) -> int:
    """Bytes of Vector Pool ``schemas`` workshop schemas of ``memories`` memories each need (with headroom)."""
    if schemas < 1 or memories < 1:
        raise ValueError("schemas and memories must be at least 1")
    return math.ceil(HNSW_FACTOR * schemas * memories * dim * BYTES_PER_DIMENSION * HEADROOM)


def recommended_mb(schemas: int = 1, memories: int = DEFAULT_MEMORIES, dim: int = EMBED_DIM) -> int:
    """The size to ask for: :func:`needed_bytes` rounded up to 64 MB, at least 256 MB."""
    mb = math.ceil(needed_bytes(schemas, memories, dim) / (64 * _MB)) * 64
    return max(MIN_RECOMMENDED_MB, mb)


def pool_request(schemas: int = 1, memories: int = DEFAULT_MEMORIES) -> str:
    """What to ask the DBA for, with the size and how it was computed."""
    mb = recommended_mb(schemas, memories)
    return (f"ask your DBA to size the Vector Pool: as SYSDBA in CDB$ROOT run "
            f"`ALTER SYSTEM SET vector_memory_size = {mb}M SCOPE = BOTH;` (if it is refused, "
            f"SCOPE = SPFILE and restart the database). {mb} MB is sized for {schemas} workshop "
            f"schema(s) x {memories:,} memories x {EMBED_DIM} dimensions (Oracle's HNSW estimate "
            f"{HNSW_FACTOR} x vectors x dimensions x {BYTES_PER_DIMENSION} bytes, doubled for headroom; "
            "DBMS_VECTOR.INDEX_VECTOR_MEMORY_ADVISOR gives Oracle's own figure). In the devcontainer, "
            "`docker compose -f .devcontainer/docker-compose.yml restart db` - its startup hook sizes the pool.")


# AGENT and every learner hold SELECT on SUPPLYCHAIN's tables: one HNSW index each (DBA view: admin only).
SCHEMAS_SQL = ("SELECT COUNT(DISTINCT grantee) FROM dba_tab_privs "
               "WHERE owner = :owner AND privilege = 'SELECT'")


def workshop_schemas(conn: Any) -> int:
    """How many workshop schemas (AGENT + learners) the pool must hold; 1 when the admin view is not readable."""
    from ..config import SCHEMA

    try:
        return max(1, int(_scalar(conn, SCHEMAS_SQL, {"owner": SCHEMA}) or 0))
    except Exception as exc:  # noqa: BLE001 - only an admin reads DBA_TAB_PRIVS
        if any(code in error_codes(exc) for code in ("ORA-00942", "ORA-01031")):
            return 1
        raise


# What the pool holds, seen from the session's container. In a PDB, VECTOR_MEMORY_SIZE is the PDB's own
# limit and may read 0 when only CDB$ROOT sets the pool (as the devcontainer's hook does), while
# V$VECTOR_MEMORY_POOL shows what is allocated to the container; the larger of the two counts.
VECTOR_POOL_ALLOC_SQL = "SELECT NVL(SUM(alloc_bytes), 0) FROM v$vector_memory_pool"


def _read(conn: Any, sql: str) -> int | None:
    try:
        value = _scalar(conn, sql)
    except Exception as exc:  # noqa: BLE001 - no SELECT_CATALOG_ROLE is normal for AGENT
        if any(code in error_codes(exc) for code in ("ORA-00942", "ORA-01031")):
            return None
        raise
    return int(value or 0)


def read_vector_memory_size(conn: Any) -> int | None:
    """Bytes of Vector Pool this container has: max(VECTOR_MEMORY_SIZE, V$VECTOR_MEMORY_POOL's allocation).

    None when this user may read neither view (AGENT without SELECT_CATALOG_ROLE).
    """
    found = [v for v in (_read(conn, VECTOR_MEMORY_SIZE_SQL), _read(conn, VECTOR_POOL_ALLOC_SQL)) if v is not None]
    return max(found) if found else None


def read_pool(conn: Any, schemas: int, *, as_admin: bool) -> tuple[int | None, int]:
    """The pool's bytes as ``conn`` reads them (None: not readable) and how many workshop schemas it must hold.

    That is ``schemas``, or, read as the admin user (who can list them), the
    number of workshop schemas already in the database (AGENT and the class's
    learners) when larger. The doctor and setup's early check both plan with it.
    """
    size = read_vector_memory_size(conn)
    if size is not None and as_admin:
        schemas = max(schemas, workshop_schemas(conn))
    return size, schemas


def pool_problem(size: int | None, *, schemas: int = 1, memories: int = DEFAULT_MEMORIES,
                 autonomous: bool = False) -> str | None:
    """Why a pool of ``size`` bytes cannot hold the workshop's HNSW indexes, or None when it can (or is unknown)."""
    if autonomous or size is None:
        return None
    if size <= 0:
        return ("VECTOR_MEMORY_SIZE is 0: there is no Vector Pool, so OAMP's HNSW vector index "
                "cannot be created (ORA-51962)")
    need = needed_bytes(schemas, memories)
    if size < need:
        return (f"VECTOR_MEMORY_SIZE is {size // _MB} MB; {schemas} schema(s) x {memories:,} memories "
                f"need about {math.ceil(need / _MB)} MB")
    return None
