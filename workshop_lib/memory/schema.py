"""Table names and Oracle DDL of the OAMP tables LiteMemoryStore manages.

The column names and types mirror OAMP's own DB store (``oracleagentmemory``
26.8, ``core/_db/schema.py``: THREAD, ACTOR_PROFILE, MESSAGE, MEMORY and
RECORD_CHUNKS), so SQL written against ``eda_onnx_memory`` and
``eda_onnx_record_chunks`` runs unchanged in both backends. Objects OAMP also
manages but the workshop never touches (documents/images, memory links and
their property graph, thread summaries, the schema registry, the HNSW vector
index) are not created in lite.

Every statement is Oracle 23ai DDL; ``IF NOT EXISTS`` makes :func:`ensure_schema`
idempotent. Identity columns omit OAMP's explicit ``NOT NULL``: Oracle adds
that constraint to every identity column itself, and the lite engine fills
identities after the row's NOT NULL checks have run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..config import EMBED_DIM, TABLE_PREFIX

_PREFIX_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,29}$")


@dataclass(frozen=True)
class MemoryTables:
    """Names of the managed tables for one ``table_name_prefix`` (lower case, as in config.py)."""

    prefix: str
    thread: str
    actor_profile: str
    message: str
    memory: str
    record_chunks: str
    relations: str

    @classmethod
    def for_prefix(cls, prefix: str = TABLE_PREFIX) -> MemoryTables:
        """Derive the table names OAMP uses for ``prefix`` (e.g. ``eda_onnx_`` -> ``eda_onnx_memory``)."""
        if not isinstance(prefix, str) or not _PREFIX_PATTERN.match(prefix):
            raise ValueError(
                f"table_name_prefix {prefix!r} is not usable: it must start with a letter and "
                "contain only letters, digits and underscores (at most 30 characters), e.g. 'eda_onnx_'."
            )
        p = prefix.lower()
        return cls(
            prefix=p,
            thread=p + "thread",
            actor_profile=p + "actor_profile",
            message=p + "message",
            memory=p + "memory",
            record_chunks=p + "record_chunks",
            relations=p + "record_relations",
        )


def schema_ddl(tables: MemoryTables, vector_dim: int = EMBED_DIM) -> list[str]:
    """The CREATE statements for ``tables``, parents before children."""
    if not isinstance(vector_dim, int) or vector_dim < 1:
        raise ValueError(f"vector_dim must be a positive integer, got {vector_dim!r}")
    t = tables
    p = t.prefix
    return [
        f"""CREATE TABLE IF NOT EXISTS {t.thread} (
          record_id       VARCHAR2(128) NOT NULL,
          user_id         VARCHAR2(128),
          agent_id        VARCHAR2(128),
          space_id        VARCHAR2(128),
          metadata        JSON,
          runtime_config  JSON,
          runtime_state   JSON,
          created_at      TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
          PRIMARY KEY (record_id)
        )""",
        f"""CREATE TABLE IF NOT EXISTS {t.actor_profile} (
          actor_id         VARCHAR2(128) NOT NULL,
          actor_type       VARCHAR2(30) NOT NULL,
          space_id         VARCHAR2(128),
          order_seq        NUMBER GENERATED ALWAYS AS IDENTITY,
          information      CLOB NOT NULL,
          metadata         JSON,
          status           VARCHAR2(30) DEFAULT 'valid' NOT NULL,
          created_at       TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
          PRIMARY KEY (actor_id),
          CHECK (actor_type IN ('user', 'agent')),
          CHECK (status IN ('valid', 'invalid'))
        )""",
        f"""CREATE TABLE IF NOT EXISTS {t.message} (
          record_id       VARCHAR2(128) NOT NULL,
          order_seq       NUMBER GENERATED ALWAYS AS IDENTITY,
          thread_id       VARCHAR2(128),
          user_id         VARCHAR2(128),
          agent_id        VARCHAR2(128),
          space_id        VARCHAR2(128),
          message_role    VARCHAR2(30) NOT NULL,
          content         JSON NOT NULL,
          timestamp       VARCHAR2(64),
          metadata        JSON,
          expires_at      TIMESTAMP(6) WITH TIME ZONE,
          status          VARCHAR2(30) DEFAULT 'valid' NOT NULL,
          created_at      TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
          PRIMARY KEY (record_id),
          CHECK (status IN ('valid', 'invalid')),
          CONSTRAINT {p}message_thread_fk FOREIGN KEY (thread_id)
            REFERENCES {t.thread}(record_id) ON DELETE CASCADE
        )""",
        f"""CREATE INDEX IF NOT EXISTS {p}message_thread_order_i
        ON {t.message} (thread_id, order_seq)""",
        f"""CREATE TABLE IF NOT EXISTS {t.memory} (
          record_id       VARCHAR2(128) NOT NULL,
          order_seq       NUMBER GENERATED ALWAYS AS IDENTITY,
          thread_id       VARCHAR2(128),
          user_id         VARCHAR2(128),
          agent_id        VARCHAR2(128),
          space_id        VARCHAR2(128),
          memory_type     VARCHAR2(128) NOT NULL,
          content         CLOB,
          timestamp       VARCHAR2(64),
          metadata        JSON,
          expires_at      TIMESTAMP(6) WITH TIME ZONE,
          status          VARCHAR2(30) DEFAULT 'valid' NOT NULL,
          created_at      TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
          PRIMARY KEY (record_id),
          CHECK (status IN ('valid', 'invalid')),
          CONSTRAINT {p}memory_thread_fk FOREIGN KEY (thread_id)
            REFERENCES {t.thread}(record_id) ON DELETE CASCADE
        )""",
        f"""CREATE TABLE IF NOT EXISTS {t.record_chunks} (
          chunk_id           NUMBER GENERATED ALWAYS AS IDENTITY,
          source_id          VARCHAR2(128) NOT NULL,
          source_record_type VARCHAR2(30) NOT NULL,
          source_emb_column  VARCHAR2(30) NOT NULL,
          chunk_seq          NUMBER DEFAULT 1 NOT NULL,
          chunk_text         CLOB,
          thread_id          VARCHAR2(128),
          user_id            VARCHAR2(128),
          agent_id           VARCHAR2(128),
          space_id           VARCHAR2(128),
          status             VARCHAR2(30) DEFAULT 'valid' NOT NULL,
          embedding          VECTOR({vector_dim}, FLOAT32),
          CHECK (status IN ('valid', 'invalid')),
          PRIMARY KEY (chunk_id)
        )""",
        # Lite's own table for OAMP record links (supersedes, contradicts, ...):
        # the DB store keeps them in OAMP's tables; lite stores the same fields.
        f"""CREATE TABLE IF NOT EXISTS {t.relations} (
          relation_id             VARCHAR2(128) NOT NULL,
          source_record_id        VARCHAR2(128) NOT NULL,
          source_record_type      VARCHAR2(30) NOT NULL,
          target_record_id        VARCHAR2(128) NOT NULL,
          target_record_type      VARCHAR2(30) NOT NULL,
          relation_type           VARCHAR2(64) NOT NULL,
          opposite_relation_type  VARCHAR2(64) NOT NULL,
          timestamp               VARCHAR2(64),
          metadata                JSON,
          created_at              TIMESTAMP(6) WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
          PRIMARY KEY (relation_id),
          CONSTRAINT {p}record_relations_pair_u UNIQUE (source_record_id, source_record_type,
            target_record_id, target_record_type)
        )""",
        # Not in OAMP's DDL: lite has no HNSW index, and every write or delete
        # looks chunk rows up by their source record.
        f"""CREATE INDEX IF NOT EXISTS {p}record_chunks_source_i
        ON {t.record_chunks} (source_id, source_record_type)""",
    ]


def ensure_schema(conn: Any, tables: MemoryTables, vector_dim: int = EMBED_DIM) -> None:
    """Create any missing managed table or index on ``conn`` (idempotent; DDL commits implicitly)."""
    with conn.cursor() as cur:
        for statement in schema_ddl(tables, vector_dim):
            cur.execute(statement)
