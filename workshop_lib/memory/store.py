"""LiteMemoryStore: OAMP's ``OracleMemoryStore`` extension point, persisted through the lite engine.

``OracleAgentMemory(store=LiteMemoryStore(conn, embedder))`` gives learners the
real OAMP client without an Oracle database. The store writes OAMP's own
tables (see :mod:`workshop_lib.memory.schema`) with Oracle SQL through a
python-oracledb-shaped connection, so the workshop's hand-written SQL over
``eda_onnx_memory`` / ``eda_onnx_record_chunks`` sees the same rows in both
backends.

Behaviour follows OAMP's DB store (``OracleDBMemoryStore``) as documented:

* ``add`` inserts memory-like rows (memory, guideline, fact, preference),
  messages and actor profiles plus one ``RECORD_CHUNKS`` row per chunk.
  A record id that already exists raises ``ValueError`` ("Duplicate
  record_ids are not allowed."), exactly like the DB store; use ``update``
  to change a stored record. Writes scoped to an unknown thread raise the
  DB store's "Unknown thread_id" error.
* ``search`` ranks in SQL (``VECTOR_DISTANCE(..., COSINE)`` over the chunk
  table, best chunk per record, ``ORDER BY`` ... ``FETCH FIRST``). Metadata
  lives on the source rows, so a metadata filter is checked while walking the
  SQL ranking, widening the ranked window until ``k`` records match or the
  ranking is exhausted.
* Lite differences: a text is embedded as one chunk (the ONNX model truncates
  at its token limit) instead of ``DBMS_VECTOR_CHAIN.UTL_TO_CHUNKS``;
  images and thread summaries are not supported. Memory relations (links
  such as ``supersedes``) are stored in lite's own ``…record_relations``
  table; adding one does not change the records' valid/invalid status.
"""

from __future__ import annotations

import array
import threading
import uuid
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
from oracleagentmemory.apis.embedders.embedder import IEmbedder
from oracleagentmemory.apis.memorystore import MAX_LIST_LIMIT, PendingRecordBatch
from oracleagentmemory.apis.records import MEMORY_TYPES, MessageRecord, Record, RecordStatus, ThreadRecord
from oracleagentmemory.apis.ttl import TimeToLiveAnchor
from oracleagentmemory.core import OracleMemoryStore

from ..config import EMBED_DIM, TABLE_PREFIX
from . import _oamp, rows
from ._oamp import NOT_SET, is_set
from .chunks import Chunk, chunk_texts, pair_chunks, to_vector, vectors_from
from .schema import MemoryTables, ensure_schema
from .search_sql import IN_LIST_PAGE, in_list, ranking_sql, scope_predicate

PROFILE_ACTOR_TYPES = {"user_profile": "user", "agent_profile": "agent"}
SEARCHABLE_RECORD_TYPES = frozenset(MEMORY_TYPES | {"message"} | set(PROFILE_ACTOR_TYPES))
_NOT_IN_LITE = {
    "image": "images (add_image, image message parts)",
    "thread_summary": "thread summaries",
}


def _lite_unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"{what} are not supported in the lite backend of the workshop. "
        "Use WORKSHOP_BACKEND=oracle for the full OAMP feature set."
    )


def _utcnow() -> datetime:
    # Naive UTC: lite stores timestamps as text without a zone, so every
    # value this store compares (expires_at vs. now) uses the same clock.
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _status_value(status: Any) -> str:
    try:
        return RecordStatus(status).value
    except ValueError:
        raise ValueError(
            f"Unknown record status {status!r}; use RecordStatus.VALID or RecordStatus.INVALID."
        ) from None


def _as_list(value: Any, n: int) -> list[Any]:
    """Broadcast a scalar batch field to ``n`` rows; OAMP has already checked list lengths."""
    if isinstance(value, list):
        return list(value)
    return [value] * n


def _per_row(value: Any, n: int) -> list[Any]:
    """Like :func:`_as_list` but an omitted field stays omitted on every row."""
    return [NOT_SET] * n if not is_set(value) else _as_list(value, n)


class LiteMemoryStore(OracleMemoryStore):
    """OAMP memory store over a lite (or any python-oracledb-shaped) connection.

    Parameters
    ----------
    conn:
        Connection from ``workshop_lib.lite.connect`` (Oracle SQL, named binds).
        The store commits its own writes, one transaction per call.
    embedder:
        An OAMP ``IEmbedder`` (e.g. the workshop's ONNX embedder). May be
        ``None`` when every call supplies precomputed vectors.
    table_name_prefix:
        Prefix of the managed tables, ``eda_onnx_`` by default (config.py).
    vector_dim:
        Width of the ``VECTOR`` column and of every embedding.
    """

    def __init__(
        self,
        conn: Any,
        embedder: IEmbedder | None,
        *,
        table_name_prefix: str = TABLE_PREFIX,
        vector_dim: int = EMBED_DIM,
    ) -> None:
        super().__init__()
        if embedder is not None and not isinstance(embedder, IEmbedder):
            raise TypeError(
                f"embedder must be an oracleagentmemory IEmbedder (or None), got {type(embedder).__name__}."
            )
        self._conn = conn
        self._embedder = embedder
        self._dim = vector_dim
        self.tables = MemoryTables.for_prefix(table_name_prefix)
        # OracleAgentMemory runs some store calls on AnyIO worker threads; one
        # connection must never see two statements interleave.
        self._lock = threading.RLock()
        self._batch_depth = 0                          # > 0 inside batched_writes(): no commit per call
        self._prepared: dict[str, array.array] = {}    # texts embedded up front by batched_writes()
        with self._lock:
            ensure_schema(conn, self.tables, vector_dim)

    # ------------------------------------------------------------------ plumbing

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        """A cursor whose statements commit together, or roll back together on any error.

        Inside :meth:`batched_writes` the commit (or rollback) is the batch's,
        at its end, so a batch of calls is one transaction.
        """
        with self._lock:
            cur = self._conn.cursor()
            try:
                yield cur
                if not self._batch_depth:
                    self._conn.commit()
            except BaseException:
                if not self._batch_depth:
                    self._conn.rollback()
                raise
            finally:
                cur.close()

    @contextmanager
    def batched_writes(self, texts: Sequence[str] = ()) -> Iterator[None]:
        """Run many store calls as one transaction, with ``texts`` embedded up front in one batch.

        Writers that store many memories at once (the catalog scan) pay one
        embedding run and one commit instead of one of each per memory: the
        texts are embedded together (the model is much faster per text in a
        batch) and later calls that embed one of them take the prepared
        vector; every write inside commits when the block ends, or rolls back
        together when it raises (all or nothing). The lock is not held across
        the block, since OAMP may run store calls on worker threads.
        """
        wanted = [t for t in dict.fromkeys(texts) if t and t not in self._prepared]
        for text, vector in zip(wanted, self._embed(wanted)):
            self._prepared[text] = vector
        self._batch_depth += 1
        failed = True
        try:
            yield
            failed = False
        finally:
            with self._lock:
                self._batch_depth -= 1
                if not self._batch_depth:
                    self._prepared.clear()
                    if failed:
                        self._conn.rollback()
                    else:
                        self._conn.commit()

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        with self._lock:
            cur = self._conn.cursor()
            try:
                yield cur
            finally:
                cur.close()

    def _kind(self, record_type: Any) -> str:
        """Classify a record type: 'memory', 'message', 'profile' or 'thread'; reject the rest."""
        if not isinstance(record_type, str):
            raise ValueError(f"record_type must be a string, got {type(record_type).__name__}.")
        if record_type in MEMORY_TYPES:
            return "memory"
        if record_type in PROFILE_ACTOR_TYPES:
            return "profile"
        if record_type in ("message", "thread"):
            return record_type
        if record_type in _NOT_IN_LITE:
            raise _lite_unsupported(_NOT_IN_LITE[record_type].capitalize())
        known = sorted(MEMORY_TYPES | {"message", "thread"} | set(PROFILE_ACTOR_TYPES))
        raise ValueError(f"Unsupported record_type {record_type!r}; use one of {', '.join(known)}.")

    def _embed(self, texts: list[str], *, is_query: bool = False) -> list[array.array]:
        if not texts:
            return []
        if not is_query and self._prepared and all(t in self._prepared for t in texts):
            return [self._prepared[t] for t in texts]   # embedded up front by batched_writes()
        if self._embedder is None:
            raise ValueError(
                "This LiteMemoryStore has no embedder, so it cannot embed text. Construct it with "
                "an embedder, or pass precomputed vectors (embeddings=/embedding=/query_vector=)."
            )
        matrix = np.asarray(self._embedder.embed(list(texts), is_query=is_query), dtype=np.float32)
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise ValueError(
                f"The embedder returned shape {tuple(matrix.shape)} for {len(texts)} texts; "
                "an OAMP IEmbedder must return a (n_texts, dim) float32 array."
            )
        return [to_vector(row, self._dim) for row in matrix]

    def _fill_vectors(self, chunks: Sequence[Chunk]) -> None:
        """Embed, in one embedder call, every chunk that has text but no caller-given vector."""
        pending = [c for c in chunks if c.vector is None and c.text]
        vectors = self._embed([c.text for c in pending])  # type: ignore[misc]
        for chunk, vector in zip(pending, vectors, strict=True):
            chunk.vector = vector

    def _insert_chunks(
        self,
        cur: Any,
        source_id: str,
        record_type: str,
        chunks: Sequence[Chunk],
        scope: tuple[str | None, str | None, str | None],
        status: str,
    ) -> None:
        if not chunks:
            return
        emb_column = "information" if record_type in PROFILE_ACTOR_TYPES else "content"
        thread_id, user_id, agent_id = scope
        cur.executemany(
            f"INSERT INTO {self.tables.record_chunks} (source_id, source_record_type, source_emb_column, "
            "chunk_seq, chunk_text, thread_id, user_id, agent_id, status, embedding) VALUES "
            "(:source_id, :source_record_type, :source_emb_column, :chunk_seq, :chunk_text, "
            ":thread_id, :user_id, :agent_id, :status, :embedding)",
            [
                {
                    "source_id": source_id,
                    "source_record_type": record_type,
                    "source_emb_column": emb_column,
                    "chunk_seq": chunk.seq,
                    "chunk_text": chunk.text,
                    "thread_id": thread_id,
                    "user_id": user_id,
                    "agent_id": agent_id,
                    "status": status,
                    "embedding": chunk.vector,
                }
                for chunk in chunks
            ],
        )

    def _delete_chunks(self, cur: Any, source_id: str, record_type: str) -> None:
        cur.execute(
            f"DELETE FROM {self.tables.record_chunks} "
            "WHERE source_id = :source_id AND source_record_type = :source_record_type",
            source_id=source_id,
            source_record_type=record_type,
        )

    def _expires_at(self, ttl_days: Any, anchor: Any, timestamp: str | None) -> datetime | None:
        if not is_set(ttl_days) or ttl_days is None:
            return None
        if isinstance(ttl_days, bool) or not isinstance(ttl_days, int) or ttl_days < 0:
            raise ValueError(f"ttl_days must be a non-negative integer or None, got {ttl_days!r}.")
        start = _utcnow()
        if is_set(anchor) and TimeToLiveAnchor(anchor) is TimeToLiveAnchor.TIMESTAMP:
            if not timestamp:
                raise ValueError("ttl_anchor=TIMESTAMP needs an ISO-8601 timestamp on the record.")
            parsed = datetime.fromisoformat(timestamp)
            if parsed.tzinfo is not None:
                parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
            start = parsed
        return start + timedelta(days=ttl_days)

    # ------------------------------------------------------------------ add

    def _add_prepared_batches(self, batches: list[PendingRecordBatch], **store_kwargs: Any) -> list[str]:
        if store_kwargs:
            raise TypeError(
                "LiteMemoryStore.add() takes no store-specific options; got "
                + ", ".join(sorted(store_kwargs))
            )
        ids: list[str] = []
        with self._transaction() as cur:
            for raw_batch in batches:
                batch = self._normalize_pending_batch(raw_batch)
                kind = self._kind(batch.record_type)
                if kind == "thread":
                    raise ValueError("Threads are created with create_thread(), not add().")
                ids.extend(self._add_batch(cur, batch, kind))
        return ids

    async def _add_prepared_batches_async(
        self, batches: list[PendingRecordBatch], **store_kwargs: Any
    ) -> list[str]:
        return self._add_prepared_batches(batches, **store_kwargs)

    def _add_batch(self, cur: Any, batch: PendingRecordBatch, kind: str) -> list[str]:
        record_type = batch.record_type
        contents = self._materialize_batch_contents(batch)
        n = len(contents)
        metadata = _as_list(batch.metadata if is_set(batch.metadata) else None, n)
        for meta in metadata:
            if meta is not None and not isinstance(meta, dict):
                raise ValueError("metadata must be a dict, None, or a list of those aligned with contents.")
        thread_ids = _as_list(batch.thread_ids if is_set(batch.thread_ids) else None, n)
        user_ids = _as_list(batch.user_ids if is_set(batch.user_ids) else None, n)
        agent_ids = _as_list(batch.agent_ids if is_set(batch.agent_ids) else None, n)
        timestamps = _as_list(batch.timestamps if is_set(batch.timestamps) else None, n)
        statuses = [
            _status_value(s) for s in _as_list(batch.statuses if is_set(batch.statuses) else "valid", n)
        ]
        ttl_days = _per_row(batch.ttl_days, n)
        anchors = _per_row(batch.ttl_anchor, n)
        explicit_expiry = _per_row(batch._expires_at, n)
        # Per-record payloads are always aligned lists (OAMP has checked their lengths).
        index_texts = list(batch.index_texts) if is_set(batch.index_texts) else [NOT_SET] * n
        embeddings = list(batch.embeddings) if is_set(batch.embeddings) else [NOT_SET] * n

        if kind == "message":
            self._validate_roles_for_record_type(record_type, batch.roles)
            roles = _as_list(batch.roles if is_set(batch.roles) else None, n)
            if any(not role for role in roles):
                raise ValueError("Every message needs a role such as 'user' or 'assistant'.")
            stored = [_oamp.message_storage(content) for content in contents]
            for parts, _, _ in stored:
                if any(type(part).__name__ == "ImageContent" for part in parts):
                    raise _lite_unsupported("Image message parts")
            texts: list[str] = [search_text for _, search_text, _ in stored]
        else:
            self._validate_roles_for_record_type(record_type, batch.roles)
            texts = self._resolve_texts_from_metadata_content(list(contents), metadata)

        if kind == "profile":
            if not is_set(batch.record_ids) or batch.record_ids is None:
                raise ValueError("Actor profiles need their actor id as record_ids (see add_user/add_agent).")
            record_ids = self._resolve_record_ids_for_texts(texts, batch.record_ids)
        else:
            record_ids = self._resolve_record_ids_for_texts(texts, batch.record_ids) or [
                str(uuid.uuid4()) for _ in range(n)
            ]
        self._check_new_ids(cur, kind, record_type, record_ids)
        if kind != "profile":
            self._check_threads_exist(cur, thread_ids)

        all_chunks = [
            pair_chunks(chunk_texts(index_texts[i], texts[i]), embeddings[i], self._dim) for i in range(n)
        ]
        self._fill_vectors([c for chunks in all_chunks for c in chunks])

        for i, record_id in enumerate(record_ids):
            expires = explicit_expiry[i] if is_set(explicit_expiry[i]) else self._expires_at(
                ttl_days[i], anchors[i], timestamps[i]
            )
            if kind == "memory":
                cur.execute(
                    f"INSERT INTO {self.tables.memory} (record_id, thread_id, user_id, agent_id, memory_type, "
                    "content, timestamp, metadata, expires_at, status) VALUES (:record_id, :thread_id, "
                    ":user_id, :agent_id, :memory_type, :content, :timestamp, :metadata, :expires_at, :status)",
                    record_id=record_id, thread_id=thread_ids[i], user_id=user_ids[i],
                    agent_id=agent_ids[i], memory_type=record_type, content=texts[i],
                    timestamp=timestamps[i], metadata=metadata[i], expires_at=expires, status=statuses[i],
                )
                scope = (thread_ids[i], user_ids[i], agent_ids[i])
            elif kind == "message":
                cur.execute(
                    f"INSERT INTO {self.tables.message} (record_id, thread_id, user_id, agent_id, "
                    "message_role, content, timestamp, metadata, expires_at, status) VALUES (:record_id, "
                    ":thread_id, :user_id, :agent_id, :message_role, :content, :timestamp, :metadata, "
                    ":expires_at, :status)",
                    record_id=record_id, thread_id=thread_ids[i], user_id=user_ids[i],
                    agent_id=agent_ids[i], message_role=roles[i], content=stored[i][2],
                    timestamp=timestamps[i], metadata=metadata[i], expires_at=expires, status=statuses[i],
                )
                scope = (thread_ids[i], user_ids[i], agent_ids[i])
            else:
                if not texts[i]:
                    raise ValueError("A profile needs non-empty information text.")
                cur.execute(
                    f"INSERT INTO {self.tables.actor_profile} (actor_id, actor_type, information, metadata, "
                    "status) VALUES (:actor_id, :actor_type, :information, :metadata, :status)",
                    actor_id=record_id, actor_type=PROFILE_ACTOR_TYPES[record_type],
                    information=texts[i], metadata=metadata[i], status=statuses[i],
                )
                # OAMP keeps profile chunks unscoped; search maps them onto their actor id.
                scope = (None, None, None)
            self._insert_chunks(cur, record_id, record_type, all_chunks[i], scope, statuses[i])
        return record_ids

    def _check_new_ids(self, cur: Any, kind: str, record_type: str, record_ids: list[str]) -> None:
        """Raise the DB store's duplicate-id error before any row of the batch is written."""
        if len(set(record_ids)) != len(record_ids):
            raise ValueError("Duplicate record_ids are not allowed.")
        table, column = {
            "memory": (self.tables.memory, "record_id"),
            "message": (self.tables.message, "record_id"),
            "profile": (self.tables.actor_profile, "actor_id"),
        }[kind]
        existing: dict[str, str] = {}
        type_column = {"memory": "memory_type", "message": "'message'", "profile": "actor_type"}[kind]
        for start in range(0, len(record_ids), IN_LIST_PAGE):
            predicate, binds = in_list(column, "id", record_ids[start:start + IN_LIST_PAGE])
            cur.execute(f"SELECT {column}, {type_column} FROM {table} WHERE {predicate}", binds)
            existing.update({row[0]: row[1] for row in cur.fetchall()})
        if not existing:
            return
        if kind == "profile":
            wanted = PROFILE_ACTOR_TYPES[record_type]
            if any(actor_type != wanted for actor_type in existing.values()):
                raise ValueError("Actor profile already exists with a different type.")
            raise ValueError(f"{wanted.capitalize()} profile already exists.")
        raise ValueError(
            "Duplicate record_ids are not allowed. Already stored: "
            + ", ".join(sorted(existing))
            + ". Use update() to change a stored record (or delete it first)."
        )

    def _check_threads_exist(self, cur: Any, thread_ids: list[str | None]) -> None:
        for thread_id in sorted({t for t in thread_ids if t is not None}):
            cur.execute(
                f"SELECT COUNT(*) FROM {self.tables.thread} WHERE record_id = :thread_id", thread_id=thread_id
            )
            if cur.fetchone()[0] == 0:
                raise ValueError(
                    "Unknown thread_id for message/memory write. Create it first with create_thread(), "
                    f"or omit thread_id for global (unscoped) writes. (thread_id={thread_id!r})"
                )

    def add_user(self, user_id: Any = NOT_SET, information: Any = NOT_SET, metadata: Any = NOT_SET) -> str:
        """Add a user profile; its id is ``user_id`` and ``information`` is embedded for search."""
        return self._add_profile("user_profile", user_id, information, metadata)

    def add_agent(self, agent_id: str, information: str, metadata: Any = NOT_SET) -> str:
        """Add an agent profile; its id is ``agent_id`` and ``information`` is embedded for search."""
        return self._add_profile("agent_profile", agent_id, information, metadata)

    def _add_profile(self, record_type: str, actor_id: Any, information: Any, metadata: Any) -> str:
        if not is_set(actor_id) or not isinstance(actor_id, str) or not actor_id:
            raise ValueError(
                f"{record_type} needs a non-empty actor id (the lite backend has no end-user context)."
            )
        if not is_set(information) or not isinstance(information, str) or not information:
            raise ValueError(f"{record_type} needs non-empty information text.")
        self._validate_metadata_value(metadata)
        batch = PendingRecordBatch(
            contents=[information],
            record_type=record_type,
            record_ids=actor_id,
            metadata=metadata if is_set(metadata) else NOT_SET,
        )
        return self._add_prepared_batches([batch])[0]

    # ------------------------------------------------------------------ read

    def _select_sql(self, kind: str) -> tuple[str, str, Any]:
        """(select list, table, row builder) for one kind of record."""
        t = self.tables
        return {
            "memory": (rows.MEMORY_COLUMNS, t.memory, rows.memory_record),
            "message": (rows.MESSAGE_COLUMNS, t.message, rows.message_record),
            "profile": (rows.PROFILE_COLUMNS, t.actor_profile, rows.profile_record),
            "thread": (rows.THREAD_COLUMNS, t.thread, rows.thread_record),
        }[kind]

    def get(self, record_type: str, record_id: str, include_bytes: Any = NOT_SET) -> Record | None:
        """Return the stored record of this type and id (``None`` if absent or expired)."""
        if self._kind(record_type) == "thread":
            return self._get_thread_record(record_id)
        found = self.list(record_type, record_id=record_id, limit=1)
        return found[0] if found else None

    def list(  # noqa: A003 - OAMP's method name
        self,
        record_type: str,
        *,
        limit: Any = NOT_SET,
        thread_id: Any = NOT_SET,
        user_id: Any = NOT_SET,
        agent_id: Any = NOT_SET,
        metadata_filter: Any = NOT_SET,
        include_bytes: Any = NOT_SET,
        record_id: Any = NOT_SET,
    ) -> list[Record]:
        """List records of one type, oldest first; ``limit`` keeps the most recent (default cap 10,000).

        Scope filters are exact: omitted means no filter, ``None`` means SQL NULL.
        ``metadata_filter=None`` selects records without metadata; a dict is matched
        as OAMP documents (recursive dicts, exact lists).
        """
        kind = self._kind(record_type)
        if limit is NOT_SET:
            limit = MAX_LIST_LIMIT
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ValueError(f"limit must be a positive integer or None, got {limit!r}.")
        columns, table, build = self._select_sql(kind)
        where: list[str] = []
        binds: dict[str, Any] = {}
        if kind == "memory":
            where.append("memory_type = :record_type")
            binds["record_type"] = record_type
        elif kind == "profile":
            where.append("actor_type = :actor_type")
            binds["actor_type"] = PROFILE_ACTOR_TYPES[record_type]
        if is_set(record_id):
            where.append(("actor_id" if kind == "profile" else "record_id") + " = :record_id")
            binds["record_id"] = record_id
        scope_filters = {"thread_id": thread_id, "user_id": user_id, "agent_id": agent_id}
        if kind == "thread" and is_set(thread_id):
            raise ValueError("To select one thread pass record_id=..., not thread_id.")
        if kind == "thread":
            scope_filters.pop("thread_id")
        if kind != "profile":  # profiles are unscoped: OAMP ignores scope filters for them
            for column, value in scope_filters.items():
                if not is_set(value):
                    continue
                if value is None:
                    where.append(f"{column} IS NULL")
                else:
                    where.append(f"{column} = :{column}")
                    binds[column] = value
        if kind in ("memory", "message"):
            where.append("(expires_at IS NULL OR expires_at > :now_utc)")
            binds["now_utc"] = _utcnow()
        post_filter = None
        if is_set(metadata_filter):
            if metadata_filter is None:
                where.append("metadata IS NULL")
            else:
                post_filter = _oamp.normalize_filter(metadata_filter)
        order = "created_at, record_id" if kind == "thread" else "order_seq"
        sql = f"SELECT {columns} FROM {table}"
        if where:
            sql += " WHERE " + " AND ".join(where)
        if limit is not None and post_filter is None:
            desc = ", ".join(f"{part.strip()} DESC" for part in order.split(","))
            sql = (f"SELECT {columns} FROM ({sql} ORDER BY {desc} FETCH FIRST :row_limit ROWS ONLY) "
                   f"ORDER BY {order}")
            binds["row_limit"] = limit
        else:
            sql += f" ORDER BY {order}"
        with self._reading() as cur:
            cur.execute(sql, binds)
            fetched = cur.fetchall()
        records = [build(row) for row in fetched]
        if post_filter is not None:
            records = [r for r in records if _oamp.matches_metadata(r.metadata, post_filter)]
            if limit is not None:
                records = records[-limit:]
        return records

    def list_thread_messages(
        self,
        thread_id: str,
        *,
        last_n: int | None = None,
        range_start_seq_no: int | None = None,
        range_end_seq_no: int | None = None,
        include_bytes: Any = NOT_SET,
    ) -> list[MessageRecord]:
        """Messages of one thread, oldest first; ``last_n`` keeps the most recent ones in the range."""
        where = ["thread_id = :thread_id", "(expires_at IS NULL OR expires_at > :now_utc)"]
        binds: dict[str, Any] = {"thread_id": thread_id, "now_utc": _utcnow()}
        if range_start_seq_no is not None:
            where.append("order_seq >= :range_start")
            binds["range_start"] = range_start_seq_no
        if range_end_seq_no is not None:
            where.append("order_seq < :range_end")
            binds["range_end"] = range_end_seq_no
        sql = f"SELECT {rows.MESSAGE_COLUMNS} FROM {self.tables.message} WHERE " + " AND ".join(where)
        if last_n is not None:
            if isinstance(last_n, bool) or not isinstance(last_n, int) or last_n < 0:
                raise ValueError(f"last_n must be a non-negative integer or None, got {last_n!r}.")
            if last_n == 0:
                return []
            sql = (
                f"SELECT {rows.MESSAGE_COLUMNS} FROM ({sql} ORDER BY order_seq DESC "
                "FETCH FIRST :last_n ROWS ONLY) ORDER BY order_seq"
            )
            binds["last_n"] = last_n
        else:
            sql += " ORDER BY order_seq"
        with self._reading() as cur:
            cur.execute(sql, binds)
            fetched = cur.fetchall()
        return [rows.message_record(row) for row in fetched]

    # ------------------------------------------------------------------ search

    def search(
        self,
        query: str | None,
        k: int,
        query_vector: list[float] | None = None,
        thread_id: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        exact_user_match: bool = False,
        exact_agent_match: bool = False,
        exact_thread_match: bool = False,
        record_types: set[str] | None = None,
        metadata_filter: dict[str, Any] | None = None,
        num_hops: int = 0,
        max_linked_results: int = 100,
        include_invalid_results: bool = True,
    ) -> list[tuple[Record, float]]:
        """Up to ``k`` (record, cosine distance) pairs, nearest first, ranked in SQL.

        Each ``exact_*_match`` flag constrains its dimension to the given id
        (``None`` meaning "unscoped on that dimension"); without the flag the
        dimension is not filtered. Profiles count as scoped to their own actor id.
        """
        if isinstance(k, bool) or not isinstance(k, int):
            raise ValueError(f"k must be an integer of at least 1, got {k!r}.")
        k = self._validate_search_k(k)
        if (query is None) == (query_vector is None):
            raise ValueError("Pass exactly one of query (text) and query_vector (precomputed embedding).")
        if not isinstance(num_hops, int) or not 0 <= num_hops <= 5:
            raise ValueError(f"num_hops must be between 0 and 5, got {num_hops!r}.")
        types = self._search_types(record_types)
        if not types:
            return []
        normalized_filter = _oamp.normalize_filter(metadata_filter)
        if query_vector is not None:
            qvec = to_vector(query_vector, self._dim)
        else:
            if not isinstance(query, str):
                raise ValueError(f"query must be a string, got {type(query).__name__}.")
            qvec = self._embed([query], is_query=True)[0]

        types_sql, binds = in_list("c.source_record_type", "rt", sorted(types))
        where = ["c.embedding IS NOT NULL", types_sql]
        binds["query_vector"] = qvec
        scope_sql, scope_binds = scope_predicate(
            thread_id, user_id, agent_id, exact_thread_match, exact_user_match, exact_agent_match
        )
        if scope_sql:
            where.append(scope_sql)
            binds.update(scope_binds)
        if not include_invalid_results:
            where.append("c.status = 'valid'")
        sql = ranking_sql(self.tables.record_chunks, where)
        # Metadata lives on the source rows: walk the SQL ranking, widening the
        # window until k records pass the filter or the ranking runs out.
        window = k if normalized_filter is None else max(4 * k, 32)
        with self._reading() as cur:
            while True:
                cur.execute(sql, {**binds, "candidate_limit": window})
                ranked = [(row[0], row[1], float(row[2])) for row in cur.fetchall()]
                records = self._hydrate(cur, ranked)
                results: list[tuple[Record, float]] = []
                dropped = False
                for source_id, record_type, distance in ranked:
                    record = records.get((source_id, record_type))
                    if record is None or (
                        normalized_filter is not None
                        and not _oamp.matches_metadata(record.metadata, normalized_filter)
                    ):
                        dropped = True
                        continue
                    results.append((record, distance))
                    if len(results) == k:
                        return results
                if not dropped or len(ranked) < window:
                    return results
                window *= 4

    def _search_types(self, record_types: Any) -> set[str]:
        if record_types is None:
            return set(SEARCHABLE_RECORD_TYPES)
        if isinstance(record_types, str):
            raise ValueError("record_types must be a set of record types such as {'memory'}, not a string.")
        types = set(record_types)
        for record_type in types:
            if record_type in _NOT_IN_LITE:
                raise _lite_unsupported(_NOT_IN_LITE[record_type].capitalize())
            if record_type not in SEARCHABLE_RECORD_TYPES:
                raise ValueError(
                    f"Unsupported search record type {record_type!r}; use any of "
                    + ", ".join(sorted(SEARCHABLE_RECORD_TYPES)) + "."
                )
        return types

    def _hydrate(self, cur: Any, ranked: list[tuple[str, str, float]]) -> dict[tuple[str, str], Record]:
        """Load the ranked source records (unexpired), keyed by (id, record type)."""
        by_kind: dict[str, list[str]] = {}
        for source_id, record_type, _ in ranked:
            by_kind.setdefault(self._kind(record_type), []).append(source_id)
        found: dict[tuple[str, str], Record] = {}
        now = _utcnow()
        for kind, ids in by_kind.items():
            columns, table, build = self._select_sql(kind)
            id_column = "actor_id" if kind == "profile" else "record_id"
            for start in range(0, len(ids), IN_LIST_PAGE):
                predicate, binds = in_list(id_column, "id", ids[start:start + IN_LIST_PAGE])
                sql = f"SELECT {columns} FROM {table} WHERE {predicate}"
                if kind in ("memory", "message"):
                    sql += " AND (expires_at IS NULL OR expires_at > :now_utc)"
                    binds["now_utc"] = now
                cur.execute(sql, binds)
                for row in cur.fetchall():
                    record = build(row)
                    found[(record.id, record.record_type)] = record
        return found

    # ------------------------------------------------------------------ update

    def update(
        self,
        record_type: str,
        record_id: str,
        *,
        content: Any = NOT_SET,
        index_text: Any = NOT_SET,
        embedding: Any = NOT_SET,
        metadata: Any = NOT_SET,
        timestamp: Any = NOT_SET,
        ttl_days: Any = NOT_SET,
        ttl_anchor: Any = NOT_SET,
        status: Any = NOT_SET,
        text: Any = NOT_SET,
    ) -> int:
        """Update one record's content, search chunks, metadata, timestamp, expiry or status.

        Returns 1 when the record exists, else 0. ``content=None`` clears a
        memory's text and its embedding; ``embedding=None`` clears only the
        embedding; ``index_text`` re-indexes without changing the stored text.
        """
        if is_set(text):
            if is_set(content):
                raise ValueError("Pass either content or the deprecated text, not both.")
            warnings.warn(
                "update(text=...) is deprecated in oracleagentmemory 26.8; use content=...",
                DeprecationWarning,
                stacklevel=2,
            )
            content = text
        fields = (content, index_text, embedding, metadata, timestamp, ttl_days, ttl_anchor, status)
        if not any(is_set(value) for value in fields):
            raise ValueError(
                "update() needs at least one of content, index_text, embedding, metadata, timestamp, "
                "ttl_days, ttl_anchor or status."
            )
        kind = self._kind(record_type)
        if kind == "thread":
            raise ValueError("Threads are updated through OracleAgentMemory.update_thread(), not update().")
        if is_set(metadata):
            self._validate_metadata_value(metadata)
        if kind == "profile" and (is_set(timestamp) or is_set(ttl_days) or is_set(ttl_anchor)):
            raise ValueError("Actor profiles have no timestamp or expiry to update.")
        if is_set(content) and content is None:
            if kind != "memory":
                raise ValueError(f"content=None is only accepted for memory-like records, not {record_type!r}.")
            if (is_set(index_text) and index_text is not None) or (is_set(embedding) and embedding is not None):
                raise ValueError("Cannot provide a non-null index_text or embedding when content=None.")

        with self._transaction() as cur:
            current = self._row_for_update(cur, kind, record_type, record_id)
            if current is None:
                return 0
            scope, stored_text, stored_timestamp = current
            if kind == "profile":
                scope = (None, None, None)
            sets: dict[str, Any] = {}
            semantic_source: list[str] | None = None  # chunk texts to rebuild, if any
            if is_set(content):
                if kind == "message":
                    parts, search_text, storage = _oamp.message_storage(content)
                    if any(type(part).__name__ == "ImageContent" for part in parts):
                        raise _lite_unsupported("Image message parts")
                    sets["content"] = storage
                    new_text: str | None = search_text
                elif kind == "profile":
                    if not isinstance(content, str) or not content:
                        raise ValueError("A profile's information must be non-empty text.")
                    sets["information"] = content
                    new_text = content
                else:
                    if content is not None and not isinstance(content, str):
                        raise ValueError("A memory's content must be a string or None.")
                    sets["content"] = content
                    new_text = content
                semantic_source = chunk_texts(index_text, new_text)
            elif is_set(index_text):
                semantic_source = chunk_texts(index_text, stored_text)
            if is_set(metadata):
                sets["metadata"] = metadata
            if is_set(timestamp):
                sets["timestamp"] = timestamp
                stored_timestamp = timestamp
            if is_set(ttl_days) or is_set(ttl_anchor):
                days = ttl_days if is_set(ttl_days) else None
                sets["expires_at"] = self._expires_at(days, ttl_anchor, stored_timestamp)
            new_status = _status_value(status) if is_set(status) else None
            if new_status is not None:
                sets["status"] = new_status

            if semantic_source is not None:
                chunks = pair_chunks(semantic_source, embedding if is_set(embedding) else NOT_SET, self._dim)
                if not (is_set(embedding) and embedding is None):
                    self._fill_vectors(chunks)
                self._delete_chunks(cur, record_id, record_type)
                chunk_status = new_status or self._current_status(cur, kind, record_type, record_id)
                self._insert_chunks(cur, record_id, record_type, chunks, scope, chunk_status)
            elif is_set(embedding):
                self._replace_embeddings(cur, record_id, record_type, embedding)
            if new_status is not None:
                cur.execute(
                    f"UPDATE {self.tables.record_chunks} SET status = :status "
                    "WHERE source_id = :source_id AND source_record_type = :source_record_type",
                    status=new_status, source_id=record_id, source_record_type=record_type,
                )
            if sets:
                table, id_column, type_sql, type_binds = self._row_key(kind, record_type)
                assignments = ", ".join(f"{column} = :set_{column}" for column in sets)
                cur.execute(
                    f"UPDATE {table} SET {assignments} WHERE {id_column} = :record_id{type_sql}",
                    {**{f"set_{c}": v for c, v in sets.items()}, "record_id": record_id, **type_binds},
                )
            return 1

    def _row_key(self, kind: str, record_type: str) -> tuple[str, str, str, dict[str, Any]]:
        t = self.tables
        if kind == "memory":
            return t.memory, "record_id", " AND memory_type = :memory_type", {"memory_type": record_type}
        if kind == "message":
            return t.message, "record_id", "", {}
        return t.actor_profile, "actor_id", " AND actor_type = :actor_type", {
            "actor_type": PROFILE_ACTOR_TYPES[record_type]
        }

    def _row_for_update(
        self, cur: Any, kind: str, record_type: str, record_id: str
    ) -> tuple[tuple[Any, Any, Any], str | None, str | None] | None:
        """(scope, searchable text, timestamp) of the record to update, or None if absent."""
        table, id_column, type_sql, type_binds = self._row_key(kind, record_type)
        if kind == "profile":
            cur.execute(
                f"SELECT information FROM {table} WHERE {id_column} = :record_id{type_sql}",
                {"record_id": record_id, **type_binds},
            )
            row = cur.fetchone()
            return None if row is None else ((None, None, None), row[0], None)
        cur.execute(
            f"SELECT thread_id, user_id, agent_id, content, timestamp FROM {table} "
            f"WHERE {id_column} = :record_id{type_sql}",
            {"record_id": record_id, **type_binds},
        )
        row = cur.fetchone()
        if row is None:
            return None
        stored = row[3]
        if kind == "message":
            parts = _oamp.message_content_from_storage(stored, record_id)
            stored = _oamp.message_storage(list(parts))[1]
        return (row[0], row[1], row[2]), stored, row[4]

    def _current_status(self, cur: Any, kind: str, record_type: str, record_id: str) -> str:
        table, id_column, type_sql, type_binds = self._row_key(kind, record_type)
        cur.execute(
            f"SELECT status FROM {table} WHERE {id_column} = :record_id{type_sql}",
            {"record_id": record_id, **type_binds},
        )
        return cur.fetchone()[0]

    def _replace_embeddings(self, cur: Any, record_id: str, record_type: str, embedding: Any) -> None:
        """Set (or clear, for None) the vectors of a record's existing chunk rows."""
        if embedding is None:
            cur.execute(
                f"UPDATE {self.tables.record_chunks} SET embedding = NULL "
                "WHERE source_id = :source_id AND source_record_type = :source_record_type",
                source_id=record_id, source_record_type=record_type,
            )
            return
        vectors = vectors_from(embedding, self._dim)
        cur.execute(
            f"SELECT chunk_seq FROM {self.tables.record_chunks} "
            "WHERE source_id = :source_id AND source_record_type = :source_record_type ORDER BY chunk_seq",
            source_id=record_id, source_record_type=record_type,
        )
        seqs = [row[0] for row in cur.fetchall()]
        if len(seqs) != len(vectors):
            raise ValueError(
                f"Explicit chunk embeddings ({len(vectors)}) and existing chunk texts ({len(seqs)}) "
                "must have the same length; pass content or index_text to re-chunk."
            )
        cur.executemany(
            f"UPDATE {self.tables.record_chunks} SET embedding = :embedding WHERE source_id = :source_id "
            "AND source_record_type = :source_record_type AND chunk_seq = :chunk_seq",
            [
                {"embedding": v, "source_id": record_id, "source_record_type": record_type, "chunk_seq": s}
                for s, v in zip(seqs, vectors, strict=True)
            ],
        )

    # ------------------------------------------------------------------ delete

    def delete(self, record_type: str, record_id: str, cascade: bool = False) -> int:
        """Delete one record and its chunk rows in one transaction; returns 0 or 1.

        With ``cascade=True`` an actor-profile delete also removes the threads the
        actor owns (with their messages and memories) and every message and
        memory-like row scoped to that actor, even when the profile itself is absent.
        """
        record_type, record_id = self._resolve_delete_target(record_type, record_id)
        kind = self._kind(record_type)
        if kind == "thread":
            return self.delete_thread(record_id)
        with self._transaction() as cur:
            return self._delete_in_txn(cur, kind, record_type, record_id, cascade)

    def _delete_in_txn(self, cur: Any, kind: str, record_type: str, record_id: str, cascade: bool) -> int:
        table, id_column, type_sql, type_binds = self._row_key(kind, record_type)
        self._delete_chunks(cur, record_id, record_type)
        cur.execute(f"DELETE FROM {self.tables.relations} WHERE source_record_id = :record_id "
                    "OR target_record_id = :record_id", record_id=record_id)
        cur.execute(
            f"DELETE FROM {table} WHERE {id_column} = :record_id{type_sql}", {"record_id": record_id, **type_binds}
        )
        deleted = cur.rowcount
        if kind == "profile" and cascade:
            column = "user_id" if record_type == "user_profile" else "agent_id"
            cur.execute(f"SELECT record_id FROM {self.tables.thread} WHERE {column} = :actor_id", actor_id=record_id)
            for (thread_id,) in cur.fetchall():
                self._delete_thread_in_txn(cur, thread_id)
            for child_table, child_kind in ((self.tables.message, "message"), (self.tables.memory, "memory")):
                type_col = "'message'" if child_kind == "message" else "s.memory_type"
                cur.execute(
                    f"DELETE FROM {self.tables.record_chunks} c WHERE EXISTS (SELECT 1 FROM {child_table} s "
                    f"WHERE s.record_id = c.source_id AND {type_col} = c.source_record_type "
                    f"AND s.{column} = :actor_id)",
                    actor_id=record_id,
                )
                cur.execute(f"DELETE FROM {child_table} WHERE {column} = :actor_id", actor_id=record_id)
        return deleted

    def delete_thread(self, thread_id: str) -> int:
        """Delete a thread with its messages, thread-scoped memories and their chunks; returns 0 or 1."""
        with self._transaction() as cur:
            return self._delete_thread_in_txn(cur, thread_id)

    def _delete_thread_in_txn(self, cur: Any, thread_id: str) -> int:
        t = self.tables
        cur.execute(f"DELETE FROM {t.record_chunks} WHERE thread_id = :thread_id", thread_id=thread_id)
        cur.execute(f"DELETE FROM {t.message} WHERE thread_id = :thread_id", thread_id=thread_id)
        cur.execute(f"DELETE FROM {t.memory} WHERE thread_id = :thread_id", thread_id=thread_id)
        cur.execute(f"DELETE FROM {t.thread} WHERE record_id = :thread_id", thread_id=thread_id)
        return cur.rowcount

    # ------------------------------------------------------------------ threads

    def _create_thread_record(
        self,
        thread_id: str,
        user_id: str | None,
        agent_id: str | None,
        metadata: dict[str, Any] | None,
        runtime_config: dict[str, Any] | None,
        runtime_state: dict[str, Any] | None = None,
    ) -> ThreadRecord:
        with self._transaction() as cur:
            cur.execute(f"SELECT COUNT(*) FROM {self.tables.thread} WHERE record_id = :record_id", record_id=thread_id)
            if cur.fetchone()[0]:
                raise ValueError(f"Thread {thread_id!r} already exists; open it with get_thread().")
            cur.execute(
                f"INSERT INTO {self.tables.thread} (record_id, user_id, agent_id, metadata, runtime_config, "
                "runtime_state) VALUES (:record_id, :user_id, :agent_id, :metadata, :runtime_config, :runtime_state)",
                record_id=thread_id, user_id=user_id, agent_id=agent_id, metadata=metadata,
                runtime_config=runtime_config, runtime_state=runtime_state,
            )
        record = self._get_thread_record(thread_id)
        assert record is not None
        return record

    def _get_thread_record(self, thread_id: str) -> ThreadRecord | None:
        with self._reading() as cur:
            cur.execute(
                f"SELECT {rows.THREAD_COLUMNS} FROM {self.tables.thread} WHERE record_id = :record_id",
                record_id=thread_id,
            )
            row = cur.fetchone()
        return None if row is None else rows.thread_record(row)

    def _update_thread_record(
        self,
        thread_id: str,
        metadata: Any = NOT_SET,
        runtime_config: Any = NOT_SET,
        runtime_state: Any = NOT_SET,
    ) -> int:
        sets = {
            name: value
            for name, value in (("metadata", metadata), ("runtime_config", runtime_config),
                                ("runtime_state", runtime_state))
            if is_set(value)
        }
        with self._transaction() as cur:
            if not sets:
                cur.execute(
                    f"SELECT COUNT(*) FROM {self.tables.thread} WHERE record_id = :record_id", record_id=thread_id
                )
                return int(cur.fetchone()[0])
            cur.execute(
                f"UPDATE {self.tables.thread} SET " + ", ".join(f"{c} = :{c}" for c in sets)
                + " WHERE record_id = :record_id",
                {**sets, "record_id": thread_id},
            )
            return cur.rowcount

    def _list_owned_thread_ids_for_actor_profile(self, actor_id: str, profile_record_type: str) -> list[str]:
        column = "user_id" if profile_record_type == "user_profile" else "agent_id"
        with self._reading() as cur:
            cur.execute(
                f"SELECT record_id FROM {self.tables.thread} WHERE {column} = :actor_id ORDER BY created_at, record_id",
                actor_id=actor_id,
            )
            return [row[0] for row in cur.fetchall()]

    def _get_record_expiration(self, record_type: str, record_id: str) -> datetime | None:
        kind = self._kind(record_type)
        if kind not in ("memory", "message"):
            return None
        table, id_column, type_sql, type_binds = self._row_key(kind, record_type)
        with self._reading() as cur:
            cur.execute(
                f"SELECT expires_at FROM {table} WHERE {id_column} = :record_id{type_sql}",
                {"record_id": record_id, **type_binds},
            )
            row = cur.fetchone()
        return None if row is None else row[0]

    # ------------------------------------------------------------------ relations

    def _record_exists(self, cur: Any, record_type: str, record_id: str) -> bool:
        table, id_column, type_sql, type_binds = self._row_key(self._kind(record_type), record_type)
        cur.execute(f"SELECT COUNT(*) FROM {table} WHERE {id_column} = :record_id{type_sql}",
                    {"record_id": record_id, **type_binds})
        return cur.fetchone()[0] > 0

    def add_relations(
        self,
        source_record_ids: Any,
        source_record_types: Any,
        target_record_ids: Any,
        target_record_types: Any,
        relation_types: Any,
        opposite_relation_types: Any = NOT_SET,
        relation_ids: Any = NOT_SET,
        timestamps: Any = NOT_SET,
        metadata: Any = NOT_SET,
    ) -> list[str]:
        """Store directed links between records (``supersedes``, ``contradicts``, ...) in one transaction.

        Scalars are broadcast over the sources, as OAMP documents. Both ends
        must exist; only one orientation is stored per endpoint pair. A
        built-in label gets its fixed inverse (``supersedes`` /
        ``is_superseded_by``); a custom label needs ``opposite_relation_types``.
        Lite does not change the records' valid/invalid status when a link is
        added (the DB store may); the workshop's lifecycle sets status itself.
        """
        sources = source_record_ids if isinstance(source_record_ids, list) else [source_record_ids]
        n = len(sources)
        if n == 0:
            return []
        source_types = _as_list(source_record_types, n)
        targets = _as_list(target_record_ids, n)
        target_types = _as_list(target_record_types, n)
        labels = _as_list(relation_types, n)
        opposites = _as_list(opposite_relation_types if is_set(opposite_relation_types) else None, n)
        ids = _as_list(relation_ids if is_set(relation_ids) else None, n)
        stamps = _as_list(timestamps if is_set(timestamps) else None, n)
        metas = _as_list(metadata if is_set(metadata) else None, n)
        created: list[str] = []
        with self._transaction() as cur:
            for i in range(n):
                label = labels[i]
                if not isinstance(label, str) or not label:
                    raise ValueError(f"relation type must be a non-empty string, got {label!r}.")
                opposite = opposites[i] or _INVERSE_RELATIONS.get(label)
                if opposite is None:
                    raise ValueError(f"relation type {label!r} is not built in ({', '.join(_INVERSE_RELATIONS)}); "
                                     "pass opposite_relation_types for a custom label.")
                for rid, rtype in ((sources[i], source_types[i]), (targets[i], target_types[i])):
                    if not self._record_exists(cur, rtype, rid):
                        raise ValueError(f"Cannot link {rtype} {rid!r}: no such record.")
                cur.execute(
                    f"SELECT COUNT(*) FROM {self.tables.relations} WHERE (source_record_id = :a AND "
                    "target_record_id = :b) OR (source_record_id = :b AND target_record_id = :a)",
                    a=sources[i], b=targets[i])
                if cur.fetchone()[0]:
                    raise ValueError(f"Records {sources[i]!r} and {targets[i]!r} are already linked; "
                                     "update or delete that relation instead.")
                relation_id = ids[i] or str(uuid.uuid4())
                cur.execute(
                    f"INSERT INTO {self.tables.relations} (relation_id, source_record_id, source_record_type, "
                    "target_record_id, target_record_type, relation_type, opposite_relation_type, timestamp, "
                    "metadata) VALUES (:relation_id, :source_id, :source_type, :target_id, :target_type, "
                    ":relation_type, :opposite, :ts, :metadata)",
                    relation_id=relation_id, source_id=sources[i], source_type=source_types[i],
                    target_id=targets[i], target_type=target_types[i], relation_type=label,
                    opposite=opposite, ts=stamps[i], metadata=metas[i])
                created.append(relation_id)
        return created

    def _relation_rows(self, where: list[str], binds: dict[str, Any], limit: int | None) -> list[Any]:
        sql = (f"SELECT relation_id, source_record_id, source_record_type, target_record_id, target_record_type, "
               f"relation_type, opposite_relation_type, timestamp, metadata, created_at "
               f"FROM {self.tables.relations}" + (" WHERE " + " AND ".join(where) if where else "")
               + " ORDER BY created_at, relation_id")
        if limit is not None:
            sql += " FETCH FIRST :lim ROWS ONLY"
            binds = {**binds, "lim": limit}
        with self._reading() as cur:
            cur.execute(sql, binds)
            return [_relation(row) for row in cur.fetchall()]

    def list_relations(
        self,
        relation_type: Any = NOT_SET,
        source_record_id: Any = NOT_SET,
        source_record_type: Any = NOT_SET,
        target_record_id: Any = NOT_SET,
        target_record_type: Any = NOT_SET,
        limit: Any = NOT_SET,
        metadata_filter: Any = NOT_SET,
        relation_id: Any = NOT_SET,
    ) -> list[Any]:
        """Stored links in their source-to-target orientation, oldest first, filtered by any given field."""
        where, binds = [], {}
        for column, value in (("relation_type", relation_type), ("source_record_id", source_record_id),
                              ("source_record_type", source_record_type), ("target_record_id", target_record_id),
                              ("target_record_type", target_record_type), ("relation_id", relation_id)):
            if is_set(value):
                where.append(f"{column} = :{column}")
                binds[column] = value
        found = self._relation_rows(where, binds, None)
        if is_set(metadata_filter) and metadata_filter is not None:
            wanted = _oamp.normalize_filter(metadata_filter)
            found = [r for r in found if _oamp.matches_metadata(r.metadata, wanted)]
        return found[:limit] if is_set(limit) and limit is not None else found

    def get_relation(
        self,
        source_record_id: Any = NOT_SET,
        source_record_type: Any = NOT_SET,
        target_record_id: Any = NOT_SET,
        target_record_type: Any = NOT_SET,
        relation_type: Any = NOT_SET,
        relation_id: Any = NOT_SET,
    ) -> Any:
        """One link by ``relation_id``, or by its full source-to-target endpoint tuple (None when absent)."""
        if not is_set(relation_id) and not all(is_set(v) for v in (source_record_id, source_record_type,
                                                                     target_record_id, target_record_type)):
            raise ValueError("Pass relation_id, or all of source_record_id, source_record_type, "
                             "target_record_id and target_record_type.")
        found = self.list_relations(relation_type=relation_type, source_record_id=source_record_id,
                                    source_record_type=source_record_type, target_record_id=target_record_id,
                                    target_record_type=target_record_type, relation_id=relation_id, limit=1)
        return found[0] if found else None

    def update_relations(
        self,
        relation_ids: Any,
        relation_types: Any = NOT_SET,
        opposite_relation_types: Any = NOT_SET,
        timestamps: Any = NOT_SET,
        metadata: Any = NOT_SET,
    ) -> list[str]:
        """Change labels, timestamps or metadata of stored links; omitted fields stay as they are."""
        ids = relation_ids if isinstance(relation_ids, list) else [relation_ids]
        n = len(ids)
        labels = _as_list(relation_types, n) if is_set(relation_types) else [NOT_SET] * n
        opposites = _as_list(opposite_relation_types, n) if is_set(opposite_relation_types) else [NOT_SET] * n
        stamps = _as_list(timestamps, n) if is_set(timestamps) else [NOT_SET] * n
        metas = _as_list(metadata, n) if is_set(metadata) else [NOT_SET] * n
        with self._transaction() as cur:
            for i, relation_id in enumerate(ids):
                sets: dict[str, Any] = {}
                if is_set(labels[i]):
                    sets["relation_type"] = labels[i]
                    opposite = opposites[i] if is_set(opposites[i]) else _INVERSE_RELATIONS.get(labels[i])
                    if opposite is None:
                        raise ValueError(f"relation type {labels[i]!r} is not built in; pass opposite_relation_types.")
                    sets["opposite_relation_type"] = opposite
                elif is_set(opposites[i]):
                    sets["opposite_relation_type"] = opposites[i]
                if is_set(stamps[i]):
                    sets["timestamp"] = stamps[i]
                if is_set(metas[i]):
                    sets["metadata"] = metas[i]
                if not sets:
                    continue
                cur.execute(f"UPDATE {self.tables.relations} SET "
                            + ", ".join(f"{col} = :{col}" for col in sets) + " WHERE relation_id = :relation_id",
                            {**sets, "relation_id": relation_id})
                if cur.rowcount == 0:
                    raise ValueError(f"No relation with id {relation_id!r}.")
        return ids

    def delete_relations(self, relation_ids: Any) -> int:
        """Delete links by id; returns how many were deleted."""
        ids = relation_ids if isinstance(relation_ids, list) else [relation_ids]
        if not ids:
            return 0
        with self._transaction() as cur:
            id_sql, binds = in_list("relation_id", "rel", ids)
            cur.execute(f"DELETE FROM {self.tables.relations} WHERE {id_sql}", binds)
            return cur.rowcount


# The fixed inverse of each built-in memory link label (OAMP's MemoryLinkType / MemoryLinkOppositeType).
_INVERSE_RELATIONS = {"supersedes": "is_superseded_by", "contradicts": "contradicts", "refines": "is_refined_by",
                      "supports": "is_supported_by", "duplicates": "duplicates"}


def _relation(row: Sequence[Any]) -> Any:
    from oracleagentmemory.core import RecordRelation

    (relation_id, source_id, source_type, target_id, target_type, label, opposite, timestamp, metadata,
     created_at) = row
    return RecordRelation(id=relation_id, source_record_id=source_id, source_record_type=source_type,
                          target_record_id=target_id, target_record_type=target_type, relation_type=label,
                          opposite_relation_type=opposite, timestamp=timestamp, metadata=metadata,
                          created_at=rows.iso(created_at))
