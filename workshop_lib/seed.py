"""Run the SUPPLYCHAIN seed script (``seed/supplychain.sql``) against either backend.

The script drops and recreates its tables, so running it again leaves the same
data. In lite the whole run is one transaction (``conn.atomic()``): a failing
statement leaves the previous tables and rows exactly as they were. In Oracle,
DDL commits implicitly, so on failure the runner drops the tables this run had
created and reports what went wrong; the next run starts clean either way.
"""

from __future__ import annotations

import functools

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import oracledb

from .config import SCHEMA, SEED_TABLES
from .errors import SeedError

# Package data, so an installed (non-editable) package can seed; seed/supplychain.sql links to it.
DEFAULT_SQL_PATH = Path(__file__).resolve().parent / "data" / "supplychain.sql"

_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w$#.\"]+)", re.IGNORECASE)


@dataclass(frozen=True)
class SeedReport:
    """What a seed run did: rows per table (lower-case table name), statements run, time taken."""

    backend: str
    row_counts: dict[str, int]
    statements: int
    elapsed_seconds: float
    sql_path: Path = field(default=DEFAULT_SQL_PATH)

    def __str__(self) -> str:
        tables = ", ".join(f"{name}={count}" for name, count in self.row_counts.items())
        return (f"Seeded {SCHEMA} ({self.backend}) with {self.statements} statements "
                f"in {self.elapsed_seconds:.2f} s: {tables}")


#: Where split_statements must look closer: a comment, a (q-)quoted string or identifier, or a ``;``.
_SPECIAL = re.compile(r"[-/qQ'\";]")


def split_statements(text: str) -> list[str]:
    """Split an SQL script into statements on ``;``, ignoring semicolons in strings and comments.

    Understands single-quoted strings (with ``''`` escapes), Oracle's q-quoted
    strings (``q'[...]'``), double-quoted identifiers, ``--`` line comments and
    ``/* */`` block comments. Comments and blank lines before a statement are
    dropped; the terminating ``;`` is not part of the returned text, and a last
    statement without one is still returned. PL/SQL blocks (which contain
    ``;`` inside) are not supported: the seed uses plain SQL only.
    """
    statements: list[str] = []
    buf: list[str] = []
    i, n = 0, len(text)
    closers = {"[": "]", "{": "}", "(": ")", "<": ">"}

    def flush() -> None:
        stmt = _strip_leading_comments("".join(buf)).strip()
        if stmt:
            statements.append(stmt)
        buf.clear()

    while i < n:
        ch = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if ch == "-" and nxt == "-":
            end = text.find("\n", i)
            end = n if end == -1 else end
            buf.append(text[i:end])
            i = end
        elif ch == "/" and nxt == "*":
            end = text.find("*/", i + 2)
            if end == -1:
                raise SeedError(f"Unterminated /* comment starting at character {i} of the SQL script.")
            buf.append(text[i:end + 2])
            i = end + 2
        elif ch in "qQ" and nxt == "'" and i + 2 < n and not _is_word_char(text, i - 1):
            delim = text[i + 2]
            close = closers.get(delim, delim)
            end = text.find(close + "'", i + 3)
            if end == -1:
                raise SeedError(f"Unterminated q'{delim}...' string starting at character {i} of the SQL script.")
            buf.append(text[i:end + 2])
            i = end + 2
        elif ch in "'\"":
            j = i + 1
            while True:
                j = text.find(ch, j)
                if j == -1:
                    kind = "string" if ch == "'" else "quoted identifier"
                    raise SeedError(f"Unterminated {kind} starting at character {i} of the SQL script.")
                if j + 1 < n and text[j + 1] == ch:  # doubled quote is an escaped quote
                    j += 2
                    continue
                break
            buf.append(text[i:j + 1])
            i = j + 1
        elif ch == ";":
            flush()
            i += 1
        else:   # plain text up to the next character that may start a comment, string or the end
            special = _SPECIAL.search(text, i + 1)
            end = n if special is None else special.start()
            buf.append(text[i:end])
            i = end
    flush()
    return statements


def _is_word_char(text: str, index: int) -> bool:
    return index >= 0 and (text[index].isalnum() or text[index] in "_$#")


def _strip_leading_comments(stmt: str) -> str:
    while True:
        stmt = stmt.lstrip()
        if stmt.startswith("--"):
            newline = stmt.find("\n")
            stmt = "" if newline == -1 else stmt[newline + 1:]
        elif stmt.startswith("/*") and not stmt.startswith("/*+"):
            end = stmt.find("*/")
            stmt = "" if end == -1 else stmt[end + 2:]
        else:
            return stmt


@functools.lru_cache(maxsize=4)
def seed_manifest(sql_path: Path = DEFAULT_SQL_PATH) -> dict[str, int]:
    """Rows per SUPPLYCHAIN table that the seed script inserts (table name upper case -> count).

    Read from the script itself, so a doctor or a setup that compares the
    database with it can never disagree with what seeding produces.
    """
    counts: dict[str, int] = {}
    for stmt in split_statements(Path(sql_path).read_text(encoding="utf-8")):
        match = re.match(r"INSERT\s+INTO\s+(\w+)\.(\w+)", _strip_leading_comments(stmt), re.I)
        if match:
            table = match.group(2).upper()
            counts[table] = counts.get(table, 0) + 1
    return counts


def seed_counts(conn: Any) -> dict[str, int | None]:
    """Rows in each SUPPLYCHAIN seed table, read through ``SUPPLYCHAIN.<table>`` (None: the table is missing).

    Works as the owner, as AGENT (SELECT granted) and in both backends, so the
    doctor, ``start`` and setup compare the same numbers with :func:`seed_manifest`.
    """
    with conn.cursor() as cur:
        cur.execute("SELECT table_name FROM all_tables WHERE owner = :owner", owner=SCHEMA)
        present = {str(row[0]).upper() for row in cur.fetchall()}
        counts: dict[str, int | None] = {}
        for table in SEED_TABLES:
            if table in present:
                cur.execute(f"SELECT COUNT(*) FROM {SCHEMA}.{table}")
                counts[table] = int(cur.fetchone()[0] or 0)
            else:
                counts[table] = None
    return counts


def seed_differences(counts: dict[str, int | None], manifest: dict[str, int] | None = None) -> list[str]:
    """What differs from the seed script, one phrase per table (empty when every count matches).

    A table is missing, or holds another number of rows than the script
    inserts (``manifest``, default :func:`seed_manifest`): a learner's DELETE
    on any one table, not only the last one, is noticed.
    """
    manifest = seed_manifest() if manifest is None else manifest
    found = []
    for table, rows in counts.items():
        wanted = manifest.get(table)
        if rows is None:
            found.append(f"{table.lower()} missing")
        elif wanted is not None and rows != wanted:
            found.append(f"{table.lower()} {rows} of {wanted} rows")
    return found


def created_tables(statements: list[str]) -> list[str]:
    """Table names (as written, e.g. ``supplychain.ports``) that the statements CREATE, in order."""
    names = []
    for stmt in statements:
        match = _CREATE_TABLE.match(stmt)
        if match:
            names.append(match.group(1))
    return names


def run_seed(conn: Any, sql_path: Path | None = None, *, atomic: bool, label: str = "") -> SeedReport:
    """Execute the seed script on ``conn`` and report row counts.

    ``atomic=True`` runs the whole script in one ``conn.atomic()`` transaction
    (lite, where DDL can be rolled back): a failure changes nothing.
    ``atomic=False`` is for Oracle, where each DDL statement commits: it
    commits at the end and, when a statement fails, drops the tables created
    so far. ``label`` names the backend in the report. A failure raises
    :class:`SeedError` naming the statement number, its first line and the
    ORA error.
    """
    path = Path(sql_path) if sql_path is not None else DEFAULT_SQL_PATH
    if not path.is_file():
        raise SeedError(
            f"Seed script {path} not found. Run the workshop from a source checkout, or regenerate "
            "the script with: python seed/generate.py"
        )
    statements = split_statements(path.read_text(encoding="utf-8"))
    if not statements:
        raise SeedError(f"Seed script {path} contains no SQL statements.")
    tables = created_tables(statements)
    started = time.perf_counter()
    if atomic:
        with conn.atomic():
            _execute_all(conn, statements, path, rollback_note="nothing was changed: the previous "
                         f"{SCHEMA} tables and rows are intact")
    else:
        _run_oracle(conn, statements, path)
    counts = _row_counts(conn, tables)
    return SeedReport(label, counts, len(statements), time.perf_counter() - started, path)


def _run_oracle(conn: Any, statements: list[str], path: Path) -> None:
    created: list[str] = []
    number = 0
    cur = conn.cursor()
    try:
        for number, stmt in enumerate(statements, 1):
            cur.execute(stmt)
            match = _CREATE_TABLE.match(stmt)
            if match:
                created.append(match.group(1))
        conn.commit()
    except Exception as exc:
        try:
            conn.rollback()
        except oracledb.DatabaseError:
            pass  # the connection may be gone; the drops below report what is left
        leftovers = _drop_tables(conn, created)
        if not created:
            note = "no table had been created yet"
        elif not leftovers:
            note = "the tables this run created were dropped again (" + ", ".join(created) + ")"
        else:
            note = ("these tables could not be dropped and need a manual DROP TABLE: "
                    + ", ".join(leftovers))
        if isinstance(exc, oracledb.DatabaseError):
            raise _seed_error(exc, number, statements, path, note) from exc
        raise


def _execute_all(conn: Any, statements: list[str], path: Path, rollback_note: str) -> None:
    cur = conn.cursor()
    for number, stmt in enumerate(statements, 1):
        try:
            cur.execute(stmt)
        except oracledb.DatabaseError as exc:
            raise _seed_error(exc, number, statements, path, rollback_note) from exc


def _seed_error(exc: oracledb.DatabaseError, number: int, statements: list[str], path: Path,
                note: str) -> SeedError:
    err = exc.args[0] if exc.args else exc
    message = str(getattr(err, "message", err)).strip()
    first_line = statements[number - 1].splitlines()[0] if 0 < number <= len(statements) else "?"
    return SeedError(
        f"Seeding {SCHEMA} failed at statement {number} of {len(statements)} in {path.name} "
        f"({first_line!r}): {message}. Because of the failure {note}. Fix that statement "
        "(or regenerate the script with python seed/generate.py) and run the seed again."
    )


def _drop_tables(conn: Any, tables: list[str]) -> list[str]:
    leftovers = []
    cur = conn.cursor()
    for table in reversed(tables):
        try:
            cur.execute(f"DROP TABLE IF EXISTS {table} CASCADE CONSTRAINTS PURGE")
        except oracledb.DatabaseError:
            leftovers.append(table)
    return leftovers


def _row_counts(conn: Any, tables: list[str]) -> dict[str, int]:
    cur = conn.cursor()
    counts = {}
    for table in tables:
        cur.execute(f"SELECT COUNT(*) FROM {table}")
        counts[table.split(".")[-1].strip('"').lower()] = int(cur.fetchone()[0])
    return counts
