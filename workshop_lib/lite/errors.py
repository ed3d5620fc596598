"""Oracle-shaped errors for the lite backend.

Lite raises :class:`LiteDatabaseError`, a subclass of ``oracledb.DatabaseError``,
so notebook code written ``except oracledb.DatabaseError as e: err, = e.args``
works unchanged in both backends: ``err.code``, ``err.full_code`` and
``err.message`` read like python-oracledb's.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

import oracledb


@dataclass(frozen=True)
class LiteError:
    """The error object in ``exc.args[0]``, shaped like python-oracledb's ``_Error``."""

    code: int
    message: str
    offset: int = 0
    isrecoverable: bool = False

    @property
    def full_code(self) -> str:
        """The ``ORA-NNNNN`` code, as python-oracledb reports it."""
        return f"ORA-{self.code:05d}"

    def __str__(self) -> str:
        return self.message


class LiteDatabaseError(oracledb.DatabaseError):
    """A database error raised by the lite engine (message starts with its ORA code)."""

    def __init__(self, code: int, text: str, hint: str | None = None, offset: int = 0):
        message = f"ORA-{code:05d}: {text}"
        if hint:
            message += f"\nHelp: {hint}"
        super().__init__(LiteError(code, message, offset))

    def __str__(self) -> str:
        return self.args[0].message


class LiteNotSupportedError(LiteDatabaseError):
    """Valid or invalid SQL the lite engine refuses, with the construct named.

    Uses ORA-03001 ("unimplemented feature") for Oracle constructs lite does
    not cover; non-Oracle syntax is reported with the Oracle error a real
    database would give (see guard.py).
    """

    def __init__(self, construct: str, hint: str | None = None, code: int = 3001):
        super().__init__(code, f"unimplemented feature in the lite backend: {construct}", hint)


_SQLITE_PATTERNS: list[tuple[re.Pattern[str], object]] = [
    (re.compile(r"no such table: (?:\w+\.)?(.+)"),
     lambda m: (942, f'table or view "{m.group(1).upper()}" does not exist',
                "check the name and schema (e.g. SUPPLYCHAIN.VESSELS); run ws.seed() if SUPPLYCHAIN is missing")),
    (re.compile(r"no such column: (.+)"),
     lambda m: (904, ".".join(f'"{part.upper()}"' for part in m.group(1).split(".")) + ": invalid identifier",
                None)),
    (re.compile(r"UNIQUE constraint failed: (.+)"),
     lambda m: (1, f"unique constraint ({m.group(1).upper()}) violated", None)),
    (re.compile(r"FOREIGN KEY constraint failed"),
     lambda m: (2291, "integrity constraint violated - parent key not found (or child record found)", None)),
    (re.compile(r"NOT NULL constraint failed: (.+)"),
     lambda m: (1400, f"cannot insert NULL into ({m.group(1).upper()})", None)),
    (re.compile(r"CHECK constraint failed: (.+)"),
     lambda m: (2290, f"check constraint ({m.group(1)}) violated", None)),
    (re.compile(r"table (\S+) already exists"),
     lambda m: (955, f"name is already used by an existing object ({m.group(1).upper()})", None)),
    (re.compile(r"index (\S+) already exists"),
     lambda m: (955, f"name is already used by an existing object ({m.group(1).upper()})", None)),
    (re.compile(r"ambiguous column name: (.+)"),
     lambda m: (918, f'column ambiguously defined: "{m.group(1).upper()}"', None)),
    (re.compile(r"no such function: (\w+)"),
     lambda m: (904, f'"{m.group(1).upper()}": invalid identifier',
                "the lite backend does not implement this function; see docs/lite-engine.md for the ones it has")),
    (re.compile(r"database is locked"),
     lambda m: (54, "resource busy (the lite database is locked by another process)",
                "close other notebooks or kernels using the same WORKSHOP_HOME")),
]


def from_sqlite(exc: sqlite3.Error, sql: str | None = None) -> LiteDatabaseError:
    """Map a sqlite3 error to the Oracle error a learner would see on Oracle."""
    text = str(exc)
    for pattern, build in _SQLITE_PATTERNS:
        match = pattern.search(text)
        if match:
            code, message, hint = build(match)  # type: ignore[operator]
            return LiteDatabaseError(code, message, hint)
    return LiteDatabaseError(604, f"error in the lite engine: {text}",
                             "this statement is probably outside the SQL subset lite supports")
