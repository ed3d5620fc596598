"""A python-oracledb-shaped connection over SQLite, speaking Oracle SQL (the cursor is in cursor.py).

Each schema is one SQLite file under ``<WORKSHOP_HOME>/lite``; the connecting
user's schema is ``main`` and the others (SUPPLYCHAIN, ...) are attached under
their names, so ``SUPPLYCHAIN.VESSELS`` works as written. Statements are
checked for non-Oracle syntax (guard.py), translated once per text
(translate.py, cached), and run by SQLite. Whole-table work that would be a
per-row Python loop — distances to a constant query vector, Oracle Text
scores — is done once per execution with numpy and the inverted text index,
and looked up per row by rowid.

Transactions follow Oracle: DML opens a transaction that ``commit()`` ends;
DDL commits implicitly (except inside the lite-only ``atomic()`` block).

The cursor lives in cursor.py and reaches the connection through its
``CursorHost`` protocol; what the connection derives from the data (plans,
table versions, vector matrices, text indexes, embeddings) lives in one
:class:`~workshop_lib.lite.caches.DerivedCaches`, ``conn.caches``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import weakref
from itertools import repeat
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from . import catalog, connect_by, functions, guard, json_table, sequences, transactions, vector_topk
from .caches import ColumnValues, DerivedCaches, VectorColumn
from .cursor import LiteCursor
from .ddl import is_ddl
from .error_catalogue import (
    ERR_CANNOT_INSERT_NULL, ERR_CANNOT_UPDATE_TO_NULL, ERR_CHILD_RECORD_FOUND, ERR_MODEL_DOES_NOT_EXIST, ERR_NOT_CONNECTED,
    ERR_SAVEPOINT_UNKNOWN, ERR_TEXT_NULL_QUERY, ERR_TEXT_QUERY, ERR_UNSUPPORTED, ERR_UNSUPPORTED_PLSQL,
    ERR_USER_NOT_ATTACHED, ERR_VECTOR_DIMENSIONS,
    error, from_function_error, from_sqlite,
)
from .errors import LiteError
from . import text as text_engine
from .text import TextQueryError
from .shapes import shape_of
from .translate import Context, Plan, translate, translate_shaped
from .values import encode_vector, vector_as_numpy

if TYPE_CHECKING:
    from .text import Lexer

LITE_VERSION = catalog.ORACLE_SQL_VERSION   # the Oracle release whose SQL lite speaks (V$VERSION says it too)
KNOWN_SCHEMAS = ("SUPPLYCHAIN",)  # attached up front, so DDL on them works inside atomic()
_EMBED_BATCH = 64


#: How long a write waits for another connection's open transaction before ORA-00054 (SQLite's busy timeout).
BUSY_TIMEOUT_SECONDS = 5.0


class LiteConnection:
    """Connection to a lite workshop database (see module docstring)."""

    def __init__(self, home: Path | str, user: str, *, model_runner: Callable[[Path], Any], lexer: Lexer):
        self.home = Path(home)
        self._model_runner = model_runner
        self._lexer = lexer
        self.folder = self.home / "lite"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.username = user.upper()
        self.version = LITE_VERSION
        self.autocommit = False
        self.dsn = f"lite:{self.folder}"
        self._lock = threading.RLock()
        self._cursors: weakref.WeakSet[LiteCursor] = weakref.WeakSet()   # for _buffer_open_results
        self._con = sqlite3.connect(self.folder / f"{self.username}.db", isolation_level=None,
                                    check_same_thread=False, timeout=BUSY_TIMEOUT_SECONDS)
        self._con.execute("PRAGMA foreign_keys = ON")
        self._con.execute(f"ATTACH DATABASE ? AS {catalog.CATALOG_SCHEMA}", (str(self.folder / "_catalog.db"),))
        catalog.ensure_catalog(self._con)
        # The catalog file's change counter (its header's bytes 24-27, which SQLite moves on every commit that
        # changes the file, from any connection) is read before each plan lookup: 1 µs, where PRAGMA
        # data_version costs 7 µs per execute. Only when it moved is data_version asked whether the change
        # was another connection's. Without pread (Windows), data_version is asked every time. The counter
        # moves per commit in SQLite's default rollback journal, which lite keeps (in WAL mode it would not:
        # tests/test_lite_statement_checks.py would fail).
        self._catalog_fd = os.open(self.folder / "_catalog.db", os.O_RDONLY) if hasattr(os, "pread") else None
        self._catalog_counter: bytes | None = None
        self._attached: set[str] = set()
        for schema in KNOWN_SCHEMAS:
            self.attach(schema)
        for path in sorted(self.folder.glob("*.db")):
            self.attach(path.stem)
        catalog.add_missing_text_index_tables(self._con, lambda schema: "main" if schema == self.username else schema)
        catalog.install_views(self._con, self.username)
        # pruned slots hand their candidates and values to SQLite here (vector_topk.hand_over)
        self._con.execute(f"CREATE TEMP TABLE IF NOT EXISTS {vector_topk.SLOT_ROWS} (slot INTEGER NOT NULL, "
                          "rid INTEGER NOT NULL, v, PRIMARY KEY (slot, rid)) WITHOUT ROWID")
        self._udf_error: BaseException | None = None
        self.caches = DerivedCaches(self._data_version)
        # While one statement fills its slots: data_version per schema and the tables whose change-log
        # triggers were checked (a statement reads several derived values of one table; None between statements)
        self._statement_seen: tuple[dict[str, int], set[tuple[str, str]]] | None = None
        self._slot = 0
        self._vd: dict[int, dict[int, float]] = {}
        self._vd_candidates: dict[int, str] = {}
        self._ctx: dict[int, _HitScores] = {}   # SCORE lookups per text slot
        self._ctx_members: dict[int, str] = {}   # JSON rowids CONTAINS(...) > 0 admits (all hits, or the pruned top)
        self._atomic_depth = 0
        self._catalog_version: int | None = None   # LITECAT's data_version when the plans were last checked
        self._closed = False
        self._sequence_values: dict[tuple[str, str], int] = {}   # this session's CURRVALs
        functions.register(self._con, self._record_udf_error, {
            "ora_vector_embedding": (self._vector_embedding, 2, True),
            "ora_ctx_rowids": (lambda slot: self._ctx_members[slot], 1, False),
            "ora_vd_candidates": (lambda slot: self._vd_candidates[slot], 1, False),
            "ora_row_changed": (self.caches.changes.touched, 2, False),   # the change log's TEMP triggers
            json_table.FUNCTION: (json_table.rows, 2, True),
            **connect_by.SQL_FUNCTIONS,
            "ora_nextval": (self._nextval, 2, False),
            "ora_currval": (lambda owner, name: sequences.current_value(self._sequence_values, owner, name), 2, False),
        })
        # The per-row slot lookups run once or more per candidate row (tens of thousands per query at
        # 10^5 rows) and cannot fail once their slot is filled: registered without the error wrapper.
        vd, ctx = self._vd, self._ctx
        self._con.create_function("ora_vd_lookup", 2, lambda slot, rid: vd[slot].get(rid))
        self._con.create_function("ora_ctx_score", 2, lambda slot, rid: ctx[slot].get(rid, 0))
        self._context = Context(self.username, self._columns_of, self._text_index_on, self._next_slot,
                                lambda owner, name: catalog.view_text(self._con, owner, name),
                                lambda owner, name: catalog.sequence_exists(self._con, owner, name),
                                lambda owner, table, column: catalog.column_default(self._con, self._db(owner), owner,
                                                                                    table, column))

    # ------------------------------------------------------------------ python-oracledb surface
    def cursor(self) -> LiteCursor:
        """A new cursor (python-oracledb: ``connection.cursor()``)."""
        self._check_open()
        cursor = LiteCursor(self)
        self._cursors.add(cursor)
        return cursor

    def _buffer_open_results(self) -> None:
        """Before a DDL: the cursors with rows still to fetch read them now (SQLite would refuse the DDL)."""
        for cursor in list(self._cursors):
            cursor._buffer_rows()

    def commit(self) -> None:
        """Commit the current transaction."""
        self._check_open()
        with self._lock:
            if self._con.in_transaction and self._atomic_depth == 0:
                self._con.execute("COMMIT")

    def run_transaction_statement(self, statement: transactions.Transaction) -> None:
        """COMMIT, ROLLBACK, SAVEPOINT name or ROLLBACK TO name run through ``cursor.execute`` (transactions.py)."""
        if statement.kind == "COMMIT":
            self.commit()   # inside atomic() it waits for the block's end, as DDL's implicit commit does
        elif self._atomic_depth:
            raise error(ERR_UNSUPPORTED, construct=f"{statement.kind} inside connection.atomic()")
        elif statement.kind == "ROLLBACK":
            self.rollback()
        else:
            assert statement.name is not None
            with self._lock:
                name = transactions.savepoint_sql(statement.name)
                if statement.kind == "SAVEPOINT":
                    self._con.execute(f"SAVEPOINT {name}")
                    return
                try:
                    self._con.execute(f"ROLLBACK TO {name}")
                except sqlite3.OperationalError:
                    raise error(ERR_SAVEPOINT_UNKNOWN, name=statement.name) from None
                self.caches.invalidate_all()

    def rollback(self) -> None:
        """Roll back the current transaction."""
        self._check_open()
        with self._lock:
            if self._con.in_transaction and self._atomic_depth == 0:
                self._con.execute("ROLLBACK")
                self.caches.invalidate_all()

    def close(self) -> None:
        """Close the connection; uncommitted work is rolled back, as in Oracle."""
        if self._closed:
            return
        with self._lock:
            if self._con.in_transaction:
                self._con.execute("ROLLBACK")
            self._con.close()
            if self._catalog_fd is not None:
                os.close(self._catalog_fd)
            self._closed = True

    def ping(self) -> None:
        """Raise when the connection is closed (python-oracledb's ``ping``)."""
        self._check_open()

    @property
    def transaction_in_progress(self) -> bool:
        """True while DML is uncommitted (python-oracledb's ``transaction_in_progress``)."""
        return not self._closed and self._con.in_transaction

    def cancel(self) -> None:
        """Interrupt the statement running on this connection (python-oracledb's ``cancel``)."""
        if not self._closed:
            self._con.interrupt()

    def __enter__(self) -> "LiteConnection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def sqlite_version(self) -> str:
        """Version of the SQLite library underneath."""
        return sqlite3.sqlite_version

    # ------------------------------------------------------------------ lite-only helpers
    @contextmanager
    def atomic(self) -> Iterator["LiteConnection"]:
        """All-or-nothing block: DDL inside does not commit; an exception rolls everything back."""
        self._check_open()
        with self._lock:
            if self._atomic_depth == 0:
                if self._con.in_transaction:
                    self._con.execute("COMMIT")
                self._con.execute("BEGIN")
            self._atomic_depth += 1
            try:
                yield self
            except BaseException:
                self._atomic_depth -= 1
                if self._atomic_depth == 0:
                    self._con.execute("ROLLBACK")
                    self.caches.invalidate_all(definitions=True)
                raise
            else:
                self._atomic_depth -= 1
                if self._atomic_depth == 0:
                    self._con.execute("COMMIT")

    def register_mining_model(self, name: str, path: str, mining_function: str = "EMBEDDING",
                              algorithm: str = "ONNX", comments: str | None = None) -> None:
        """Record an ONNX model so ``USER_MINING_MODELS`` lists it and VECTOR_EMBEDDING can use it."""
        model = name.upper()
        size = Path(path).stat().st_size if Path(path).exists() else None
        with self._lock:
            self._con.execute(
                "INSERT INTO LITECAT.MINING_MODELS (OWNER, MODEL_NAME, MINING_FUNCTION, ALGORITHM, PATH, "
                "CREATION_DATE, MODEL_SIZE, COMMENTS) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (OWNER, MODEL_NAME) DO UPDATE SET MINING_FUNCTION = excluded.MINING_FUNCTION, "
                "ALGORITHM = excluded.ALGORITHM, PATH = excluded.PATH, CREATION_DATE = excluded.CREATION_DATE, "
                "MODEL_SIZE = excluded.MODEL_SIZE, COMMENTS = excluded.COMMENTS",
                (self.username, model, mining_function, algorithm, str(path),
                 functions.sysdate(), size, comments))
            self.caches.forget_model(model)

    def model_path(self, name: str) -> str | None:
        """File of a registered model, or None."""
        row = self._con.execute("SELECT PATH FROM LITECAT.MINING_MODELS WHERE OWNER = ? AND MODEL_NAME = ?",
                                (self.username, name.upper())).fetchone()
        return row[0] if row else None

    # ------------------------------------------------------------------ internals
    def _check_open(self) -> None:
        if self._closed:
            raise error(ERR_NOT_CONNECTED)

    @property
    def sqlite(self) -> sqlite3.Connection:
        """The underlying SQLite connection (for the engine's own modules, e.g. DDL)."""
        return self._con

    def attach(self, schema: str) -> None:
        """Attach ``schema``'s database file (each Oracle user is one SQLite file)."""
        schema = schema.upper()
        if schema in self._attached or schema == self.username or schema.startswith("_"):
            return
        if self._con.in_transaction:
            raise error(ERR_USER_NOT_ATTACHED, schema=schema)
        self._con.execute(f'ATTACH DATABASE ? AS "{schema}"', (str(self.folder / f"{schema}.db"),))
        self._attached.add(schema)

    def _record_udf_error(self, exc: BaseException) -> None:
        self._udf_error = exc

    def _next_slot(self) -> int:
        self._slot += 1
        return self._slot

    def _nextval(self, owner: str, name: str) -> int:
        value = sequences.next_value(self._con, owner, name)
        self._sequence_values[(owner, name)] = value
        return value

    def _columns_of(self, owner: str, table: str) -> dict[str, catalog.ColumnType]:
        return catalog.column_types(self._con, owner, table)

    def _text_index_on(self, owner: str, table: str, column: str) -> bool:
        return self._con.execute(
            "SELECT 1 FROM LITECAT.INDEXES WHERE TABLE_OWNER = ? AND TABLE_NAME = ? AND COLUMN_NAMES = ? "
            "AND INDEX_TYPE = 'DOMAIN' AND ITYP_NAME = 'CONTEXT'", (owner, table, column)).fetchone() is not None

    def _db(self, owner: str) -> str:
        return "main" if owner == self.username else owner

    def _data_version(self, owner: str) -> int:
        """SQLite's data_version of ``owner``'s file: it moves when another connection commits to it.

        Read once per statement: the slots of one statement are filled back to
        back, and a commit landing between two reads could as well land just
        after the last one.
        """
        seen = self._statement_seen
        if seen is not None and owner in seen[0]:
            return seen[0][owner]
        version = self._con.execute(f'PRAGMA "{self._db(owner)}".data_version').fetchone()[0]
        if seen is not None:
            seen[0][owner] = version
        return version

    @property
    def _embed_cache(self) -> Any:
        """The embedding cache (benchmarks/bench_retrieval.py clears it so every run embeds)."""
        return self.caches.embeddings

    def _plan(self, sql: str) -> Plan | str | transactions.Transaction:
        counter = os.pread(self._catalog_fd, 4, 24) if self._catalog_fd is not None else None
        if counter is None or counter != self._catalog_counter:
            self._catalog_counter = counter
            catalog_version = self._con.execute(f"PRAGMA {catalog.CATALOG_SCHEMA}.data_version").fetchone()[0]
            if catalog_version != self._catalog_version:
                # another connection changed the catalog (DDL, a view replaced): a plan may hold old definitions
                self._catalog_version = catalog_version
                self.caches.invalidate(None, None, definition=True)
        cached = self.caches.plan(sql)
        if cached is not None:
            return cached
        shape = shape_of(sql)
        if shape is not None:
            # an INSERT differing from an earlier one only in its literals: its template, checks included
            # (a hit is not kept in the plan cache: formatted INSERTs are each run once and would crowd it)
            template = self.caches.template(shape.key)
            if template is not None:
                return template.instantiate(shape.values)
        if transactions.is_transaction_statement(sql):
            plan: Plan | str | transactions.Transaction = transactions.parse(sql)
            self.caches.keep_plan(sql, plan)
            return plan
        tokens = guard.check(sql)
        if is_ddl(sql):
            plan = "DDL"
        elif sql.lstrip()[:5].upper() in ("BEGIN", "DECLA"):
            raise error(ERR_UNSUPPORTED_PLSQL)
        elif shape is not None and not self.caches.untemplatable(shape.key):
            plan, template = translate_shaped(sql, self._context, shape, tokens)
            self.caches.keep_template(shape.key, template)
        else:
            plan = translate(sql, self._context, tokens)
        self.caches.keep_plan(sql, plan)
        return plan

    # -- embeddings
    def _embedder(self, model: str) -> Any:
        path = self.model_path(model)
        if path is None:
            raise error(ERR_MODEL_DOES_NOT_EXIST, model=model)
        return self._model_runner(path)

    def _embed_texts(self, model: str, texts: Sequence[str]) -> None:
        todo = [t for t in dict.fromkeys(texts) if t is not None and not self.caches.has_embedding(model, t)]
        if not todo:
            return
        embedder = self._embedder(model)
        for start in range(0, len(todo), _EMBED_BATCH):
            chunk = todo[start:start + _EMBED_BATCH]
            vectors = embedder.embed(chunk)
            for text, vec in zip(chunk, vectors):
                self.caches.keep_embedding(model, text, encode_vector(np.asarray(vec, dtype=np.float32)))
        self.caches.trim_embeddings()

    def _vector_embedding(self, model: str, text: Any) -> bytes | None:
        if text is None:
            return None
        text = str(text)
        blob = self.caches.embedding(model, text)
        if blob is None:
            self._embed_texts(model, [text])
            blob = self.caches.embedding(model, text)
        return blob

    # -- slots
    def _tracked(self, owner: str, table: str) -> tuple[int, int]:
        """The version of ``owner.table`` for derived values, after making sure its change log records writes.

        TEMP triggers (this connection only, like the caches) log every rowid an
        INSERT, UPDATE or DELETE touches. They are checked on every use because
        a rollback undoes triggers created inside its transaction and DROP TABLE
        drops them; when they are missing they are created again and the
        table's epoch moves, so values that missed writes are rebuilt.
        """
        seen = self._statement_seen
        if seen is not None and (owner, table) in seen[1]:
            return self.caches.version(owner, table)   # checked (or created) earlier in this statement
        tid = self.caches.changes.table_id(owner, table)
        names = [f"lite_log_{tid}_{op}" for op in ("i", "u", "d")]
        present = self._con.execute("SELECT COUNT(*) FROM sqlite_temp_master WHERE type = 'trigger' "
                                    "AND name IN (?, ?, ?)", names).fetchone()[0]
        if present != 3:
            target = f'"{self._db(owner)}"."{table}"'
            for name, event, rows in zip(names, ("INSERT", "UPDATE", "DELETE"),
                                         ("NEW.rowid", "OLD.rowid), ora_row_changed(" + str(tid) + ", NEW.rowid",
                                          "OLD.rowid")):
                self._con.execute(f'CREATE TEMP TRIGGER IF NOT EXISTS "{name}" AFTER {event} ON {target} '
                                  f"BEGIN SELECT ora_row_changed({tid}, {rows}); END")
            self.caches.new_epoch(owner, table)
        if seen is not None:
            seen[1].add((owner, table))
        return self.caches.version(owner, table)

    def _changed_rows(self, owner: str, table: str, column: str, rowids: set[int]) -> list[tuple[int, Any]]:
        """``(rowid, value)`` of the given rows that still exist (one statement, whatever their number)."""
        return self._con.execute(
            f'SELECT rowid, "{column}" FROM "{self._db(owner)}"."{table}" '
            "WHERE rowid IN (SELECT value FROM json_each(?))", (json.dumps(sorted(rowids)),)).fetchall()

    def _matrix(self, owner: str, table: str, column: str
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """(rowids, vectors, vector norms, live) of a VECTOR column's slots: loaded once, then kept up to date
        row by row (``live`` is None, or says which slots hold a row: ``caches.VectorColumn``)."""
        key = (owner, table, column)
        consumer = ("vector", column)
        version = self._tracked(owner, table)
        cached = self.caches.matrices.current(key, version)
        if cached is not None:
            changed = self.caches.changes.take(owner, table, consumer)
            if not changed:
                return cached.view()
            now: dict[int, np.ndarray | None] = dict.fromkeys(changed)
            for rowid, blob in self._changed_rows(owner, table, column, changed):
                now[rowid] = None if blob is None else vector_as_numpy(blob).astype(np.float32)
            if cached.apply(now):
                return cached.view()
        self.caches.changes.subscribe(owner, table, consumer)   # before the read: it sees every earlier write
        rows = self._con.execute(
            f'SELECT rowid, "{column}" FROM "{self._db(owner)}"."{table}" WHERE "{column}" IS NOT NULL').fetchall()
        rowids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        matrix = _float32_matrix([r[1] for r in rows]) if rows else np.zeros((0, 0), dtype=np.float32)
        column_cache = VectorColumn(rowids, matrix)
        self.caches.matrices.put(key, version, column_cache)
        return column_cache.view()

    def _row_count(self, slot: Any, binds: dict[str, Any]) -> int:
        """The FETCH FIRST count of a pruned block, read as Oracle reads it (functions.row_count)."""
        count_sql, call = slot.limit_sql, "ORA_ROW_COUNT("
        if count_sql.upper().startswith(call + ":") and count_sql.endswith(")"):
            count_sql = count_sql[len(call):-1]   # the bare bind: _scalar reads it without an execute
        try:
            return functions.row_count(self._scalar(count_sql, binds))
        except ValueError as exc:
            raise from_function_error(exc) from None

    def _scalar(self, expr_sql: str, binds: dict[str, Any]) -> Any:
        """The value of a row-constant SQLite expression (a slot's query or FETCH count) for these binds.

        A bare bind (``:KW``, the common case) is its value when SQLite would
        hand it back unchanged, which saves an execute per slot.
        """
        if expr_sql[:1] == ":" and expr_sql[1:] in binds:
            value = binds[expr_sql[1:]]
            if value is None or type(value) in (str, bytes) or (type(value) is int and -2**63 <= value < 2**63):
                return value
        return self._con.execute(f"SELECT {expr_sql}", binds).fetchone()[0]

    def _fill_slots(self, plan: Plan, binds: dict[str, Any]) -> None:
        if not (plan.text_slots or plan.vector_slots):
            return
        self._statement_seen = ({}, set())
        try:
            self._fill_text_and_vector_slots(plan, binds)
        finally:
            self._statement_seen = None

    def _fill_text_and_vector_slots(self, plan: Plan, binds: dict[str, Any]) -> None:
        # Text slots first: a pruned vector block may also read Oracle Text scores.
        for slot in plan.text_slots:
            query = self._scalar(slot.query_sql, binds)
            rowids, scores = self._text_search(slot.owner, slot.table, slot.column, query)
            if slot.prune_sql is None:
                self._ctx[slot.slot] = _HitScores(rowids, scores)
                self._ctx_members[slot.slot] = json.dumps(rowids.tolist())
            else:
                self._best_scored_rows(slot, rowids, scores, binds)
        for slot in plan.vector_slots:
            query = self._scalar(slot.query_sql, binds)
            self._vd_candidates[slot.slot] = "[]"
            if query is None:
                self._vd[slot.slot] = {}
                if slot.prune_sql is not None:   # no distance to prune by: every row, as a full scan reads them
                    every = [r[0] for r in self._con.execute(
                        f'SELECT rowid FROM "{self._db(slot.owner)}"."{slot.table}"')]
                    self._hand_over(slot.slot, every, [None] * len(every))
                continue
            try:
                if isinstance(query, (int, float)):   # text converts ('[1, 2]'), a number does not
                    raise ValueError("ORA-00932: inconsistent datatypes: expected VECTOR got NUMBER")
                qvec = vector_as_numpy(encode_vector(query))
            except ValueError as exc:   # the query vector of VECTOR_DISTANCE, as its SQL function would say it
                raise from_function_error(exc) from None
            rowids, matrix, norms, live = self._matrix(slot.owner, slot.table, slot.column)
            has_rows = bool(matrix.shape[0]) if live is None else bool(live.any())
            if has_rows and matrix.shape[1] != qvec.shape[0]:
                raise error(ERR_VECTOR_DIMENSIONS, left=matrix.shape[1], right=qvec.shape[0])
            dists = (functions.distances_to(matrix, qvec, slot.metric, norms) if has_rows
                     else np.zeros(len(rowids)))
            if live is not None:   # deleted rows' slots: computed with the others (no copy), then dropped
                rowids, dists = rowids[live], dists[live]
            if slot.prune_sql is None:
                self._vd[slot.slot] = dict(zip(rowids.tolist(), dists.astype(float).tolist()))
            else:
                self._nearest_rows(slot, rowids, dists, binds)

    def _best_scored_rows(self, slot: Any, rowids: np.ndarray, values: np.ndarray, binds: dict[str, Any]) -> None:
        """Give a block ordered by SCORE DESC the best-scored hits only, widening until it yields its n rows (exact).

        ``rowids``/``values`` are every hit and its score. The candidates are
        always a prefix of the block's own order: every hit scoring above a
        threshold, plus those at the threshold — all of them, or, when many tie
        and the block orders ties by a column of the table (``slot.tie_key``),
        the first of them by that column. SCORE lookups find the candidates'
        scores at hand (any other hit's on demand).
        """
        wanted = self._row_count(slot, binds)
        total = len(rowids)
        size = vector_topk.first_size(wanted)
        keys = self._column_values(slot.owner, slot.table, slot.tie_key) if slot.tie_key and size < total else None
        while True:
            if size >= total:
                self._ctx[slot.slot] = _HitScores(rowids, values)
                self._hand_over(slot.slot, rowids.tolist(), values.tolist())
                return
            threshold = vector_topk.nth_highest(values, size)
            above = values > threshold
            tied = rowids[values == threshold]
            room = size - int(above.sum())
            first = self._first_ties(tied, room, keys) if keys is not None and len(tied) > 2 * room else None
            chosen_tied = tied if first is None else first
            chosen = np.concatenate([rowids[above], chosen_tied])
            near = dict(zip(rowids[above].tolist(), values[above].tolist()))
            near.update(dict.fromkeys(chosen_tied.tolist(), int(threshold)))
            self._ctx[slot.slot] = _HitScores(rowids, values, near)
            self._hand_over(slot.slot, list(near), list(near.values()))
            if len(chosen) == total:
                return   # ties reach down to the lowest score: every hit, nothing to count
            found = len(self._con.execute(slot.prune_sql, binds).fetchall())   # the block's row probe
            if found >= wanted:
                return
            size = vector_topk.widen(size, wanted, found)

    def _hand_over(self, slot: int, rowids: list[int], values: list[Any]) -> None:
        """Put a pruned slot's candidate rows and their values where its SQL reads them (vector_topk.hand_over).

        In a savepoint, so outside a transaction it commits at once and inside
        one it is part of it (a rollback may undo it: every execution refills it).
        """
        con = self._con
        con.execute("SAVEPOINT lite_slot_rows")
        try:
            con.execute(f"DELETE FROM temp.{vector_topk.SLOT_ROWS} WHERE slot = ?", (slot,))
            con.executemany(f"INSERT INTO temp.{vector_topk.SLOT_ROWS} (slot, rid, v) VALUES (?, ?, ?)",
                            zip(repeat(slot), rowids, values))
        finally:
            con.execute("RELEASE lite_slot_rows")

    def _column_values(self, owner: str, table: str, column: str) -> ColumnValues:
        """The values of one column in rowid order: read once, then kept across queries.

        Rows the change log names are read again before use, so the values are
        the table's current ones.
        """
        key = (owner, table, column)
        consumer = ("values", column)
        version = self._tracked(owner, table)
        values = self.caches.column_values.current(key, version)
        if values is not None:
            changed = self.caches.changes.take(owner, table, consumer)
            if changed:
                values.apply(self._changed_rows(owner, table, column, changed), changed)
            return values
        self.caches.changes.subscribe(owner, table, consumer)   # before the read: it sees every earlier write
        values = ColumnValues(self._con.execute(
            f'SELECT rowid, "{column}" FROM "{self._db(owner)}"."{table}" ORDER BY rowid').fetchall())
        self.caches.column_values.put(key, version, values)
        return values

    @staticmethod
    def _first_ties(tied: np.ndarray, room: int, keys: ColumnValues) -> np.ndarray | None:
        """The tied rows whose tie key is among the ``room`` smallest (equal keys kept together).

        None when the keys cannot be compared the way SQLite orders them
        (a NULL, or numbers mixed with text): the caller then keeps every tie.
        """
        at = keys.at(tied)
        if at is None:
            return None
        kinds = keys.kinds[at]
        if not (np.all(kinds == ColumnValues.TEXT) or np.all(kinds == ColumnValues.NUMBER)):
            return None
        # text compares by code point in Python and by UTF-8 bytes in SQLite (BINARY): the same order, which
        # the order keys of one kind follow (equal values, equal keys): the room-th smallest key is the cut
        order = keys.order[at]
        cut = np.partition(order, room - 1)[room - 1]
        return tied[order <= cut]

    def _nearest_rows(self, slot: Any, rowids: np.ndarray, dists: np.ndarray, binds: dict[str, Any]) -> None:
        """Give a top-k block the rows nearest the query, widening until it yields its k rows (exact)."""
        wanted = self._row_count(slot, binds)
        total = len(rowids)
        size = vector_topk.first_size(wanted)
        while True:
            if size >= total:
                chosen = np.arange(total)
            else:
                threshold = np.partition(dists, size - 1)[size - 1]   # the size-th smallest, O(N) not a sort
                chosen = np.nonzero(dists <= threshold)[0]  # ties at the threshold stay in
            near = rowids[chosen].tolist()
            values = dists[chosen].astype(float).tolist()
            if len(chosen) >= total:
                # every vector is a candidate: keep rows with a NULL vector too (no distance), as a full scan would
                every = self._con.execute(f'SELECT rowid FROM "{self._db(slot.owner)}"."{slot.table}"')
                known = dict(zip(near, values))
                rows = [r[0] for r in every]
                self._hand_over(slot.slot, rows, [known.get(r) for r in rows])
                return
            self._hand_over(slot.slot, near, values)
            found = len(self._con.execute(slot.prune_sql, binds).fetchall())   # the block's row probe
            if found >= wanted:
                return
            size = vector_topk.widen(size, wanted, found)

    def _text_search(self, owner: str, table: str, column: str, query: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(rowids, scores)`` of the rows ``query`` matches in the column's Oracle Text index."""
        index = self._text_index(owner, table, column, query)
        try:
            return index.search_arrays(str(query))
        except TextQueryError as exc:
            raise error(ERR_TEXT_QUERY, detail=exc) from None

    def _text_index(self, owner: str, table: str, column: str, query: Any) -> Any:
        """The column's Oracle Text index as the session sees the table now (built once, then row by row)."""
        if query is None:
            raise error(ERR_TEXT_NULL_QUERY)
        key = (owner, table, column)
        consumer = ("text", column)
        version = self._tracked(owner, table)
        texts = self.caches.text_indexes
        current = texts.current(key, version)
        if current is not None:
            changed = self.caches.changes.take(owner, table, consumer)
            if not changed:
                return current[0]
            index, fingerprints = current
            if 2 * len(changed) <= max(len(fingerprints), 1):
                texts.discard(key)   # a failed update must not leave a half-updated index cached
                _update_text_index(index, fingerprints, changed, self._changed_rows(owner, table, column, changed))
                texts.put(key, version, (index, fingerprints))
                return index
        previous = texts.stale(key)
        texts.discard(key)   # a failed sync must not leave a half-updated index cached
        self.caches.changes.subscribe(owner, table, consumer)
        rows = self._con.execute(f'SELECT rowid, "{column}" FROM "{self._db(owner)}"."{table}"').fetchall()
        index, fingerprints = _sync_text_index(lambda: text_engine.TextIndex(self._lexer), previous, rows)
        texts.put(key, version, (index, fingerprints))
        return index

    def _prefetch(self, plan: Plan, rows: list[dict[str, Any]]) -> None:
        for item in plan.prefetch:
            if item.bind is not None:
                texts = [str(r[item.bind]) for r in rows if r.get(item.bind) is not None]
            else:
                try:
                    texts = [str(r[0]) for r in self._con.execute(item.query_sql, rows[0] if rows else {})
                             if r[0] is not None]
                except sqlite3.Error:
                    continue
            self._embed_texts(item.model, texts)

    def _raise(self, exc: sqlite3.Error, offset: int = 0, kind: str | None = None,
               target: tuple[str, str] | None = None) -> None:
        udf = self._udf_error
        self._udf_error = None
        if udf is not None and ("user-defined function raised exception" in str(exc)
                                or "user-defined aggregate's" in str(exc)):
            failure = from_function_error(udf)
        else:
            failure = from_sqlite(exc)
        if failure.args[0].code == 1400:
            # SQLite names TABLE.COLUMN; Oracle names ("OWNER"."TABLE"."COLUMN") of the statement's table. And
            # updating a NOT NULL column to NULL is ORA-01407 in Oracle, inserting NULL ORA-01400.
            column = failure.args[0].message.split("(", 1)[1].split(")", 1)[0]
            table, _, name = column.rpartition(".")
            if target is not None and table == target[1]:
                column = f'"{target[0]}"."{table}"."{name}"'
            failure = error(ERR_CANNOT_UPDATE_TO_NULL if kind == "UPDATE" else ERR_CANNOT_INSERT_NULL, column=column)
        if kind == "DELETE" and failure.args[0].code == 2291:
            failure = error(ERR_CHILD_RECORD_FOUND)
        if offset:
            # python-oracledb reports the failing row of executemany() in the error's offset.
            first = failure.args[0]
            failure.args = (LiteError(first.code, first.message, offset, first.isrecoverable),)
        raise failure from None


_VF32 = np.frombuffer(b"VF32", dtype=np.uint8)


def _float32_matrix(blobs: list[Any]) -> np.ndarray:
    """The stored VECTOR values of a column (none NULL) as one float32 matrix, a row per value.

    Vectors of one width stored as FLOAT32 (what an embedding column holds)
    are joined whole and viewed past their 4-byte headers, a strided view the
    caller copies once: cutting each header off first copied 150 MB once more
    at 10^5 vectors of 384. Other values are decoded one by one.
    """
    widths = {len(blob) if isinstance(blob, bytes) else -1 for blob in blobs}
    width = widths.pop() if len(widths) == 1 else -1
    if width > 4 and width % 4 == 0:
        packed = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), width)
        if bool((packed[:, :4] == _VF32).all()):
            return packed[:, 4:].view(np.float32)
    return np.vstack([vector_as_numpy(blob).astype(np.float32) for blob in blobs])


class _HitScores:
    """SCORE(label) per rowid for one execution: the candidates' scores at hand, every hit's on demand.

    A pruned keyword block looks up only its candidates (a few hundred rows), so
    the mapping of every hit (tens of thousands at 10^5 rows) is built only if
    some other row is asked for; a row that is not a hit scores 0.
    """

    __slots__ = ("_near", "_all", "_rowids", "_scores")

    def __init__(self, rowids: np.ndarray, scores: np.ndarray, near: dict[int, int] | None = None) -> None:
        self._rowids, self._scores = rowids, scores
        self._all: dict[int, int] | None = None if near is not None else dict(zip(rowids.tolist(), scores.tolist()))
        self._near = near if near is not None else self._all

    def get(self, rowid: int, default: int = 0) -> int:
        found = self._near.get(rowid)   # type: ignore[union-attr]
        if found is not None:
            return found
        if self._all is None:
            self._all = dict(zip(self._rowids.tolist(), self._scores.tolist()))
        return self._all.get(rowid, default)


def _update_text_index(index: Any, fingerprints: dict[int, int], changed: Iterable[int],
                       rows: list[tuple[int, Any]]) -> None:
    """Apply the named rows (in that order): re-tokenize those whose text changed, drop those now gone or empty.

    Used for the rows the change log named and by :func:`_sync_text_index` for
    the rows a full read found different. ``rows`` are (at least) the named
    rows that still exist, as ``(rowid, text)``; ``fingerprints`` is updated in
    place. A row
    whose fingerprint (``hash(text)``) is unchanged — an UPDATE of another
    column, or of the same text — is left alone, so only real text changes
    cost a tokenization.
    """
    now = dict(rows)
    for rowid in changed:
        text = now.get(rowid)
        if text is None or text == "":
            if fingerprints.pop(rowid, None) is not None:
                index.remove(rowid)
            continue
        mark = hash(text)
        if fingerprints.get(rowid) != mark:
            index.add(rowid, text)
            fingerprints[rowid] = mark


def _sync_text_index(new_index: Callable[[], Any], cached: tuple[Any, dict[int, int]] | None,
                     rows: list[tuple[int, Any]]) -> tuple[Any, dict[int, int]]:
    """Bring a cached text index up to ``rows`` of ``(rowid, text)``; return it and its fingerprints.

    Fingerprints map each indexed rowid to ``hash(text)`` (rows with NULL or ''
    text are not indexed, so they have none). Only rows whose fingerprint
    appeared, vanished or changed are re-tokenized with ``add``/``remove``,
    which give the same index as a rebuild, so a write costs one table scan
    and a hash per row instead of re-tokenizing every row. Without a cached
    index, or when more than half the rows changed, the index is rebuilt.
    """
    fresh = {rowid: hash(text) for rowid, text in rows if text is not None and text != ""}
    if cached is not None:
        index, old = cached
        changed = [rowid for rowid, mark in fresh.items() if old.get(rowid) != mark]
        gone = [rowid for rowid in old if rowid not in fresh]
        if 2 * (len(changed) + len(gone)) <= max(len(fresh), len(old)):
            # the removals, then the additions in row order: what the change log's catch-up does per row
            _update_text_index(index, old, [*gone, *changed], rows if changed else [])
            return index, fresh
    index = new_index()
    index.rebuild(rows)
    return index, fresh
