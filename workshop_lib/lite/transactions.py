"""Oracle's transaction control statements run through ``cursor.execute``: COMMIT, ROLLBACK, SAVEPOINT.

Scripts written for SQL*Plus end with ``COMMIT;`` and mark savepoints; python-oracledb runs them as
statements too. Lite runs them on the connection's own transaction:

* ``COMMIT [WORK] [COMMENT 'text'] [WRITE ...]`` is ``connection.commit()``;
* ``ROLLBACK [WORK]`` is ``connection.rollback()``;
* ``SAVEPOINT name`` marks a point in the transaction (SQLite's SAVEPOINT, which opens one when none is open,
  as the first change would);
* ``ROLLBACK [WORK] TO [SAVEPOINT] name`` undoes the work after it and keeps it; savepoints marked after it are
  gone, as are all of them after a COMMIT, a ROLLBACK or DDL (which commits). A name never marked, or gone,
  is ORA-01086.

``ROLLBACK ... FORCE`` and ``COMMIT FORCE`` (distributed transactions) are ORA-03001.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .error_catalogue import ERR_UNSUPPORTED, error

_NAME = r'(?P<name>"[^"]+"|[A-Za-z][\w$#]*)'
_COMMIT = re.compile(r"^\s*COMMIT(\s+WORK)?(\s+COMMENT\s+'(?:[^']|'')*')?(\s+WRITE(\s+(WAIT|NOWAIT|IMMEDIATE|BATCH))*)?"
                     r"\s*;?\s*$", re.I)
_ROLLBACK = re.compile(r"^\s*ROLLBACK(\s+WORK)?\s*;?\s*$", re.I)
_ROLLBACK_TO = re.compile(rf"^\s*ROLLBACK(\s+WORK)?\s+TO\s+(SAVEPOINT\s+)?{_NAME}\s*;?\s*$", re.I)
_SAVEPOINT = re.compile(rf"^\s*SAVEPOINT\s+{_NAME}\s*;?\s*$", re.I)
_HEADS = ("COMMIT", "ROLLBACK", "SAVEPOINT")


@dataclass(frozen=True)
class Transaction:
    """One transaction control statement: ``kind`` COMMIT, ROLLBACK, SAVEPOINT or ROLLBACK TO; ``name`` the
    savepoint's name as Oracle stores it (upper case unless quoted)."""

    kind: str
    name: str | None = None


def is_transaction_statement(sql: str) -> bool:
    """Whether ``sql`` starts with COMMIT, ROLLBACK or SAVEPOINT."""
    head = sql.lstrip()[:9].upper()
    return head.startswith(_HEADS)


def _name(text: str) -> str:
    return text[1:-1] if text.startswith('"') else text.upper()


def parse(sql: str) -> Transaction:
    """The transaction statement ``sql`` is; ORA-03001 naming the forms lite runs for anything else (a
    distributed transaction's FORCE, or text Oracle would not read either)."""
    if _COMMIT.match(sql):
        return Transaction("COMMIT")
    if _ROLLBACK.match(sql):
        return Transaction("ROLLBACK")
    match = _ROLLBACK_TO.match(sql) or _SAVEPOINT.match(sql)
    if match:
        kind = "SAVEPOINT" if sql.lstrip()[:9].upper() == "SAVEPOINT" else "ROLLBACK TO"
        return Transaction(kind, _name(match.group("name")))
    if re.search(r"\bFORCE\b", sql, re.I):
        raise error(ERR_UNSUPPORTED, construct="COMMIT FORCE / ROLLBACK FORCE (distributed transactions)")
    raise error(ERR_UNSUPPORTED, construct=f"this form of {sql.split()[0].upper()} (lite runs COMMIT [WORK], "
                                           "ROLLBACK [WORK] [TO [SAVEPOINT] name] and SAVEPOINT name)")


def savepoint_sql(name: str) -> str:
    """SQLite's statement for a savepoint of this name (quoted: Oracle names keep their case once stored)."""
    return '"' + name.replace('"', '""') + '"'
