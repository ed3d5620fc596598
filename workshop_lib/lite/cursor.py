"""The lite cursor: python-oracledb's cursor surface over a lite connection.

It runs a statement's :class:`~workshop_lib.lite.plan.Plan` on the connection's
SQLite handle with Oracle's statement-level atomicity and array-DML offsets,
runs DDL through ddl.py with Oracle's implicit commits, and converts results
back to Oracle types. It reaches its connection only through
:class:`CursorHost`, a protocol, so this module does not import
connection.py, and it reports what it changed through the connection's
:class:`~workshop_lib.lite.caches.DerivedCaches` (``invalidate``), never by
editing caches itself.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Iterator, Protocol, Sequence

import oracledb

from .caches import DerivedCaches
from .ddl import DdlTarget, execute_ddl, new_schema_of
from .error_catalogue import (
    ERR_BIND_COUNT, ERR_BIND_MISSING, ERR_BIND_TYPE, ERR_BINDS_TWO_WAYS, ERR_CURSOR_CLOSED,
    ERR_EXECUTEMANY_NEEDS_DML, ERR_FETCH_OUT_OF_SEQUENCE, ERR_UNKNOWN_BIND, ERR_UNSUPPORTED_CALLPROC,
    ERR_RETURNING_BIND_NOT_VAR, ERR_UNSUPPORTED, ERR_UNSUPPORTED_OUT_BINDS, ERR_UNSUPPORTED_REPEATED_BIND, error,
)
from .plan import Context, Plan
from .transactions import Transaction
from .translate import bind_occurrences
from .values import adapt_bind, convert_out
from .variables import LiteVar

_DB_TYPES = {
    "NUMBER": oracledb.DB_TYPE_NUMBER, "BINARY_DOUBLE": oracledb.DB_TYPE_BINARY_DOUBLE,
    "VARCHAR2": oracledb.DB_TYPE_VARCHAR, "CHAR": oracledb.DB_TYPE_CHAR, "CLOB": oracledb.DB_TYPE_CLOB,
    "DATE": oracledb.DB_TYPE_DATE, "TIMESTAMP": oracledb.DB_TYPE_TIMESTAMP, "JSON": oracledb.DB_TYPE_JSON,
    "VECTOR": oracledb.DB_TYPE_VECTOR, "BLOB": oracledb.DB_TYPE_BLOB, "SDO_GEOMETRY": oracledb.DB_TYPE_OBJECT,
    "RAW": oracledb.DB_TYPE_RAW,
}


class CursorHost(DdlTarget, Protocol):
    """What a cursor needs from its connection (LiteConnection is the one implementation).

    The underscored members are the engine's side of the connection, shared
    by the connection and its cursors only: the lock serialising statements,
    the plan cache lookup, the per-execution slots, and the mapping of SQLite
    errors to Oracle's.
    """

    autocommit: bool
    caches: DerivedCaches
    _lock: Any                  # threading.RLock
    _context: Context           # the translator's view of the database, for DDL
    _atomic_depth: int          # > 0 inside atomic(): DDL does not commit

    def commit(self) -> None: ...

    def _check_open(self) -> None: ...

    def _plan(self, sql: str) -> Plan | str | Transaction: ...

    def run_transaction_statement(self, statement: Transaction) -> None: ...

    def _prefetch(self, plan: Plan, rows: list[dict[str, Any]]) -> None: ...

    def _fill_slots(self, plan: Plan, binds: dict[str, Any]) -> None: ...

    def _raise(self, exc: sqlite3.Error, offset: int = 0, kind: str | None = None,
               target: tuple[str, str] | None = None) -> None: ...

    def _buffer_open_results(self) -> None: ...


class _BufferedRows:
    """The rest of a query's rows, read before a DDL: what the cursor returns from then on.

    SQLite refuses to drop or alter a table a pending statement still reads
    ("database table is locked"); Oracle runs the DDL. An error met while
    reading is kept and raised at the cursor's next fetch, where it belongs.
    """

    def __init__(self, rows: sqlite3.Cursor):
        self.description = rows.description
        self._error: sqlite3.Error | None = None
        try:
            self._rows = rows.fetchall()
        except sqlite3.Error as exc:
            self._rows, self._error = [], exc
        rows.close()
        self._at = 0   # the next row to hand out (slicing the rest off each fetch would copy it every time)

    def _take(self, n: int | None) -> list[tuple]:
        if self._error is not None and self._at >= len(self._rows):
            error, self._error = self._error, None
            raise error
        end = len(self._rows) if n is None else self._at + n
        taken, self._at = self._rows[self._at:end], min(end, len(self._rows))
        return taken

    def fetchone(self) -> tuple | None:
        taken = self._take(1)
        return taken[0] if taken else None

    def fetchmany(self, size: int) -> list[tuple]:
        return self._take(size)

    def fetchall(self) -> list[tuple]:
        return self._take(None)


class _RowFailed(Exception):
    """executemany(): row ``index`` failed with ``cause``; the rows before it stay applied, as in Oracle."""

    def __init__(self, cause: sqlite3.Error, index: int):
        super().__init__(str(cause))
        self.cause, self.index = cause, index


def _shown(bind: str) -> str:
    """A bind name as the learner wrote it (``:1`` rather than the internal ``:P__1``)."""
    return ":" + (bind[3:] if bind.startswith("P__") else bind.lower())


class LiteCursor:
    """Cursor with python-oracledb's surface (execute, fetch*, description, rowcount, ...)."""

    def __init__(self, connection: CursorHost):
        self.connection = connection
        self.arraysize = 100
        self.prefetchrows = 2
        self.rowcount = -1
        self.description: list[tuple] | None = None
        self._rows: sqlite3.Cursor | _BufferedRows | None = None
        self._types: list[str | None] = []
        self._closed = False
        self._outs: dict[str, LiteVar] = {}   # RETURNING ... INTO variables of the statement running

    # -- context manager / iteration
    def __enter__(self) -> "LiteCursor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[tuple]:
        while True:
            row = self.fetchone()
            if row is None:
                return
            yield row

    def _check_open(self) -> None:
        self.connection._check_open()
        if self._closed:
            raise error(ERR_CURSOR_CLOSED)

    def close(self) -> None:
        """Close the cursor."""
        self._rows = None
        self._closed = True

    def _buffer_rows(self) -> None:
        """Read the rest of a pending query into memory, so a DDL of this connection is not refused for it."""
        if isinstance(self._rows, sqlite3.Cursor):
            self._rows = _BufferedRows(self._rows)

    def setinputsizes(self, *args: Any, **kwargs: Any) -> None:
        """Accepted for compatibility; lite infers bind types from the values."""

    def var(self, typ: Any, *args: Any, **kwargs: Any) -> LiteVar:
        """A variable for ``RETURNING ... INTO :bind`` (python-oracledb's ``cursor.var``; lite/variables.py)."""
        return LiteVar(typ, *args, **kwargs)

    def callproc(self, name: str, *args: Any, **kwargs: Any) -> None:
        raise error(ERR_UNSUPPORTED_CALLPROC, name=name)

    # -- execution
    def _bind_dict(self, plan: Plan, parameters: Any, kwargs: dict[str, Any],
                   statement: str | None = None) -> dict[str, Any]:
        if parameters is not None and kwargs:
            raise error(ERR_BINDS_TWO_WAYS)
        values = kwargs if parameters is None else parameters
        if isinstance(values, dict):
            given = {}
            for key, value in values.items():
                name = str(key).upper().lstrip(":")
                given[f"P__{name}" if name.isdigit() else name] = value
        elif isinstance(values, (list, tuple)):
            # by position in the text, one value per occurrence: ":2 ... :2" takes two values (python-oracledb)
            named = set(plan.binds) | set(plan.returning.outs if plan.returning else ())
            occurrences = [b for b in bind_occurrences(statement) if b in named] if statement else plan.binds
            if len(values) != len(occurrences):
                raise error(ERR_BIND_COUNT, expected=len(occurrences),
                            binds=", ".join(_shown(b) for b in occurrences), given=len(values))
            given = {}
            for name, value in zip(occurrences, values):
                if name in given and given[name] != value:
                    raise error(ERR_UNSUPPORTED_REPEATED_BIND, bind=_shown(name))
                given[name] = value
        else:
            raise TypeError("parameters must be a dict, a list or a tuple")
        self._outs = {}
        for name in plan.returning.outs if plan.returning else ():
            var = given.pop(name, None)
            if not isinstance(var, LiteVar):
                raise error(ERR_RETURNING_BIND_NOT_VAR, bind=_shown(name).lstrip(":"))
            self._outs[name] = var
        for name, value in given.items():
            if isinstance(value, LiteVar):
                raise error(ERR_UNSUPPORTED_OUT_BINDS, use=f"the IN bind {_shown(name)}")
        missing = [b for b in plan.binds if b not in given]
        if missing:
            raise error(ERR_BIND_MISSING, binds=", ".join(_shown(m) for m in missing))
        extra = [k for k in given if k not in plan.binds]
        if extra:
            raise error(ERR_UNKNOWN_BIND, names=", ".join(extra).lower())
        try:
            return {k: adapt_bind(v) for k, v in given.items()}
        except (TypeError, ValueError) as exc:
            raise error(ERR_BIND_TYPE, detail=exc) from None

    def execute(self, statement: str, parameters: Any = None, **kwargs: Any) -> "LiteCursor | None":
        """Run one Oracle SQL statement with named binds (dict, sequence or keyword arguments)."""
        self._check_open()
        conn = self.connection
        with conn._lock:
            plan = conn._plan(statement)
            self._rows, self.description, self._types = None, None, []
            if plan == "DDL":
                self._run_ddl(statement)
                return None
            if isinstance(plan, Transaction):
                conn.run_transaction_statement(plan)
                self.rowcount = 0
                return None
            assert isinstance(plan, Plan)
            binds = self._bind_dict(plan, parameters, kwargs, statement)
            for var in self._outs.values():
                var._start()
            try:
                if plan.prefetch:
                    conn._prefetch(plan, [binds])
                conn._fill_slots(plan, binds)
                if plan.kind == "SELECT":
                    self._rows = conn.sqlite.execute(plan.sql[0], binds)
                    self._describe(plan)
                    self.rowcount = 0
                    return self
                self._dml(plan, [binds])
            except sqlite3.Error as exc:
                conn._raise(exc, kind=plan.kind, target=plan.target)
            return None

    def executemany(self, statement: str, parameters: Sequence[Any], **kwargs: Any) -> None:
        """Run one DML statement for each set of binds (VECTOR_EMBEDDING inputs are embedded in batches).

        As with python-oracledb, a failing row stops the batch: the rows before it stay applied
        (uncommitted) and the error's ``offset`` is the failing row's index.
        """
        self._check_open()
        for option in ("batcherrors", "arraydmlrowcounts"):
            if kwargs.get(option):
                # python-oracledb would carry on past failing rows / count per row: refusing beats a silent stop
                raise error(ERR_UNSUPPORTED, construct=f"executemany({option}=True)")
        conn = self.connection
        with conn._lock:
            plan = conn._plan(statement)
            if plan == "DDL" or not isinstance(plan, Plan) or plan.kind == "SELECT":
                raise error(ERR_EXECUTEMANY_NEEDS_DML)
            rows = [self._bind_dict(plan, p, {}, statement) for p in parameters]
            for var in self._outs.values():
                var._start()
            if not rows:
                self.rowcount = 0
                return
            try:
                if plan.prefetch:
                    conn._prefetch(plan, rows)
                if plan.vector_slots or plan.text_slots:
                    total = 0
                    for index, binds in enumerate(rows):
                        conn._fill_slots(plan, binds)
                        try:
                            self._dml(plan, [binds])
                        except sqlite3.Error as exc:
                            self.rowcount = total
                            raise _RowFailed(exc, index) from None
                        total += self.rowcount
                    self.rowcount = total
                else:
                    self._dml(plan, rows)
            except _RowFailed as failed:
                conn._raise(failed.cause, offset=failed.index, kind=plan.kind, target=plan.target)
            except sqlite3.Error as exc:
                conn._raise(exc, kind=plan.kind, target=plan.target)

    def _dml(self, plan: Plan, rows: list[dict[str, Any]]) -> None:
        conn = self.connection
        con = conn.sqlite
        if not con.in_transaction:
            con.execute("BEGIN")
        con.execute("SAVEPOINT lite_stmt")
        total = 0
        try:
            if len(rows) == 1 or len(plan.sql) > 1 or plan.returning is not None:
                for index, row in enumerate(rows):
                    total += self._dml_row(plan, row, index, len(rows) > 1)
            else:
                try:
                    total = con.executemany(plan.sql[0], rows).rowcount
                except sqlite3.Error:
                    # Oracle array DML keeps the rows before the failing one and reports its offset:
                    # undo the batch and replay it row by row to find that row.
                    con.execute("ROLLBACK TO lite_stmt")
                    total = 0
                    for index, row in enumerate(rows):
                        total += self._dml_row(plan, row, index, True)
                    raise
        except _RowFailed:
            con.execute("RELEASE lite_stmt")
            raise
        except BaseException:
            # Statement-level atomicity, as in Oracle: the failing statement leaves no trace.
            con.execute("ROLLBACK TO lite_stmt")
            con.execute("RELEASE lite_stmt")
            raise
        finally:
            self.rowcount = total
        con.execute("RELEASE lite_stmt")
        for written in plan.written():
            conn.caches.invalidate(*written)
        if conn.autocommit:
            conn.commit()

    def _returning(self, plan: Plan, row: dict[str, Any]) -> int:
        """Run a DML ... RETURNING ... INTO plan for one row of binds; hand the values to the INTO variables."""
        con = self.connection.sqlite
        returning = plan.returning
        assert returning is not None
        if returning.before:   # DELETE: the rows' values before they go
            values = con.execute(returning.sql, {k: row[k] for k in returning.binds}).fetchall()
            count = con.execute(plan.sql[0], row).rowcount
        else:                  # INSERT, UPDATE: each written row read back after its triggers ran
            rowids = [r[0] for r in con.execute(plan.sql[0], row).fetchall()]
            values = [con.execute(returning.sql, {"LITE_ROWID": rowid}).fetchone() for rowid in rowids]
            count = len(rowids)
        for i, name in enumerate(returning.outs):
            self._outs[name]._receive([convert_out(v[i], returning.types[i]) for v in values])
        return count

    def _dml_row(self, plan: Plan, row: dict[str, Any], index: int, many: bool) -> int:
        """Run one row's statements; with ``many``, a failure undoes only this row and raises _RowFailed."""
        con = self.connection.sqlite
        if not many:
            return self._returning(plan, row) if plan.returning else sum(
                con.execute(sql, row).rowcount for sql in plan.sql)
        con.execute("SAVEPOINT lite_row")
        try:
            count = self._returning(plan, row) if plan.returning else sum(
                con.execute(sql, row).rowcount for sql in plan.sql)
        except sqlite3.Error as exc:
            con.execute("ROLLBACK TO lite_row")
            con.execute("RELEASE lite_row")
            for written in plan.written():
                self.connection.caches.invalidate(*written)
            raise _RowFailed(exc, index) from None
        con.execute("RELEASE lite_row")
        return count

    def _run_ddl(self, statement: str) -> None:
        conn = self.connection
        con = conn.sqlite
        in_atomic = conn._atomic_depth > 0
        conn._buffer_open_results()
        try:
            if not in_atomic:
                if con.in_transaction:
                    con.execute("COMMIT")  # Oracle commits pending work before DDL
                schema = new_schema_of(statement, conn.username)
                if schema:
                    conn.attach(schema)  # SQLite cannot ATTACH inside the transaction opened next
                con.execute("BEGIN")
            result = execute_ddl(conn, statement, conn._context)
            if result.fill is not None:   # CREATE TABLE ... AS SELECT: its rows, in the DDL's transaction
                conn.caches.invalidate(result.owner, result.table, definition=True)
                self._fill(result.fill)
            if not in_atomic:
                con.execute("COMMIT")
        except sqlite3.Error as exc:
            if not in_atomic and con.in_transaction:
                con.execute("ROLLBACK")
            conn._raise(exc)
            return
        except BaseException:
            if not in_atomic and con.in_transaction:
                con.execute("ROLLBACK")
            raise
        conn.caches.invalidate(result.owner, result.table, definition=True)
        self.rowcount = 0

    def _fill(self, statement: str) -> None:
        """Run the INSERT ... SELECT of a CREATE TABLE ... AS SELECT (no binds: Oracle allows none in DDL)."""
        conn = self.connection
        plan = conn._plan(statement)
        assert isinstance(plan, Plan) and plan.kind == "INSERT"
        if plan.prefetch:
            conn._prefetch(plan, [{}])
        conn._fill_slots(plan, {})
        for sql in plan.sql:
            conn.sqlite.execute(sql, {})
        for written in plan.written():
            conn.caches.invalidate(*written)

    def _describe(self, plan: Plan) -> None:
        assert self._rows is not None
        names = tuple(c[0] for c in self._rows.description or ())
        cached = plan.described.get(names)
        if cached is None:
            types: list[str | None] = []
            described = []
            for i, raw_name in enumerate(names):
                if i < len(plan.columns) and (not plan.star or len(plan.columns) == len(names)):
                    name, typ = plan.columns[i]
                else:
                    name, typ = raw_name.upper(), None
                types.append(typ)
                described.append((name, _DB_TYPES.get(typ or "", oracledb.DB_TYPE_VARCHAR), None, None, None, None,
                                  True))
            cached = plan.described[names] = (described, types)
        self.description = list(cached[0])
        self._types = cached[1]

    # -- fetching
    def _convert(self, row: tuple) -> tuple:
        types = self._types
        return tuple(convert_out(v, types[i] if i < len(types) else None) for i, v in enumerate(row))

    def fetchone(self) -> tuple | None:
        """Next row, or None when the result is exhausted."""
        self._check_open()
        if self._rows is None:
            raise error(ERR_FETCH_OUT_OF_SEQUENCE)
        try:
            row = self._rows.fetchone()
        except sqlite3.Error as exc:
            self.connection._raise(exc)
            return None
        if row is None:
            return None
        self.rowcount += 1
        return self._convert(row)

    def fetchmany(self, size: int | None = None) -> list[tuple]:
        """Up to ``size`` (default ``arraysize``) more rows."""
        self._check_open()
        if self._rows is None:
            raise error(ERR_FETCH_OUT_OF_SEQUENCE)
        try:
            rows = self._rows.fetchmany(size or self.arraysize)
        except sqlite3.Error as exc:
            self.connection._raise(exc)
            return []
        self.rowcount += len(rows)
        return [self._convert(r) for r in rows]

    def fetchall(self) -> list[tuple]:
        """All remaining rows."""
        self._check_open()
        if self._rows is None:
            raise error(ERR_FETCH_OUT_OF_SEQUENCE)
        try:
            rows = self._rows.fetchall()
        except sqlite3.Error as exc:
            self.connection._raise(exc)
            return []
        self.rowcount += len(rows)
        return [self._convert(r) for r in rows]
