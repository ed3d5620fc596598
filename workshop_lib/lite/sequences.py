"""Oracle sequences in lite: CREATE/DROP SEQUENCE, ``seq.NEXTVAL`` and ``seq.CURRVAL`` with Oracle's rules.

A sequence is a row of LITECAT.SEQUENCES (USER_SEQUENCES / ALL_SEQUENCES read
it) holding its bounds, step, CYCLE flag and the next number to hand out.
The translator puts ``ora_nextval('OWNER', 'NAME')`` (``ora_currval``) where
the statement names ``seq.NEXTVAL`` (``CURRVAL``); the connection registers
both functions, which call :func:`next_value` and read its session's last
value. As in Oracle:

* a statement that names ``seq.NEXTVAL`` more than once takes one number per
  row: the later occurrences read CURRVAL;
* NEXTVAL and CURRVAL are allowed only in a query's select list (not in a
  subquery, nor with DISTINCT, GROUP BY, ORDER BY or a set operation), in an
  INSERT's VALUES or query, and in an UPDATE's SET (ORA-02287 elsewhere);
* CURRVAL before the session's first NEXTVAL of the sequence is ORA-08002; a
  NOCYCLE sequence past its bound is ORA-08004; a CYCLE sequence starts again.

One difference: lite's numbers belong to the transaction, so a rolled-back
NEXTVAL is handed out again (Oracle's sequences skip it).
"""

from __future__ import annotations

import math
import sqlite3
from typing import Callable

from sqlglot import exp

from .error_catalogue import (
    ERR_SEQUENCE_BAD_OPTION, ERR_SEQUENCE_CACHE_CYCLE, ERR_SEQUENCE_CURRVAL_UNDEFINED, ERR_SEQUENCE_EXHAUSTED,
    ERR_SEQUENCE_INCREMENT_ZERO, ERR_SEQUENCE_MIN_MAX, ERR_SEQUENCE_NOT_ALLOWED, ERR_SEQUENCE_START_ABOVE_MAX,
    ERR_SEQUENCE_START_BELOW_MIN, ERR_SEQUENCE_DOES_NOT_EXIST, ERR_UNSUPPORTED_SEQUENCE_OPTION, error,
)
from .scope import clause_of, is_sequence_number, name_of

#: Oracle's defaults: NOMAXVALUE is 10^28 - 1 for an ascending sequence, NOMINVALUE -(10^27 - 1) descending.
_BIG_MAX, _BIG_MIN = 10 ** 28 - 1, -(10 ** 27 - 1)
_DEFAULT_CACHE = 20
#: Options that change nothing in lite (one session per file; numbers are handed out in order anyway).
_IGNORED = {"NOCACHE", "ORDER", "NOORDER", "NOKEEP", "NOSCALE", "NOCYCLE", "NOMAXVALUE", "NOMINVALUE", "NOSHARD",
            "GLOBAL", "CYCLE"}


def _number(node: exp.Expression | None, option: str) -> int | None:
    if node is None:
        return None
    text = node.sql(dialect="oracle").replace(" ", "")
    try:
        return int(text)
    except ValueError:
        raise error(ERR_SEQUENCE_BAD_OPTION, option=option, value=text) from None


def definition(create: exp.Create) -> tuple[int, int, int, int, bool, int]:
    """(start, increment, minvalue, maxvalue, cycle, cache) of ``CREATE SEQUENCE``, Oracle's defaults filled in."""
    props = next((p for p in (create.args.get("properties") or exp.Properties(expressions=[])).expressions
                  if isinstance(p, exp.SequenceProperties)), None)
    args = props.args if props is not None else {}
    options = {o.name.upper() for o in args.get("options") or []}
    unknown = options - _IGNORED
    if unknown:
        raise error(ERR_UNSUPPORTED_SEQUENCE_OPTION, option=sorted(unknown)[0])
    increment = _number(args.get("increment"), "INCREMENT BY")
    increment = 1 if increment is None else increment
    if increment == 0:
        raise error(ERR_SEQUENCE_INCREMENT_ZERO)
    low = _number(args.get("minvalue"), "MINVALUE")
    high = _number(args.get("maxvalue"), "MAXVALUE")
    low = low if low is not None else (1 if increment > 0 else _BIG_MIN)
    high = high if high is not None else (_BIG_MAX if increment > 0 else -1)
    if low >= high:
        raise error(ERR_SEQUENCE_MIN_MAX)
    start = _number(args.get("start"), "START WITH")
    start = start if start is not None else (low if increment > 0 else high)
    if start < low:
        raise error(ERR_SEQUENCE_START_BELOW_MIN)
    if start > high:
        raise error(ERR_SEQUENCE_START_ABOVE_MAX)
    cycle = "CYCLE" in options
    cache = 0 if "NOCACHE" in options else (_number(args.get("cache"), "CACHE") or _DEFAULT_CACHE)
    if cycle and cache >= math.ceil((high - low + 1) / abs(increment)):
        raise error(ERR_SEQUENCE_CACHE_CYCLE)
    return start, increment, low, high, cycle, cache


def next_value(con: sqlite3.Connection, owner: str, name: str) -> int:
    """Hand out ``owner.name``'s next number (in the caller's transaction): Oracle's NEXTVAL."""
    row = con.execute("SELECT NEXT_VALUE, INCREMENT_BY, MIN_VALUE, MAX_VALUE, CYCLE_FLAG FROM LITECAT.SEQUENCES "
                      "WHERE SEQUENCE_OWNER = ? AND SEQUENCE_NAME = ?", (owner, name)).fetchone()
    if row is None:
        raise error(ERR_SEQUENCE_DOES_NOT_EXIST)
    value, increment, low, high, cycle = int(row[0]), int(row[1]), int(row[2]), int(row[3]), row[4] == "Y"
    if not low <= value <= high:
        if not cycle:
            raise error(ERR_SEQUENCE_EXHAUSTED, sequence=name, bound="exceeds MAXVALUE" if value > high
                        else "goes below MINVALUE")
        value = low if increment > 0 else high
    con.execute("UPDATE LITECAT.SEQUENCES SET NEXT_VALUE = ? WHERE SEQUENCE_OWNER = ? AND SEQUENCE_NAME = ?",
                (str(value + increment), owner, name))
    return value


def current_value(last: dict[tuple[str, str], int], owner: str, name: str) -> int:
    """The session's last NEXTVAL of ``owner.name``: Oracle's CURRVAL (ORA-08002 before the first)."""
    if (owner, name) not in last:
        raise error(ERR_SEQUENCE_CURRVAL_UNDEFINED, sequence=name)
    return last[(owner, name)]


def _allowed(column: exp.Column) -> bool:
    """Whether NEXTVAL/CURRVAL may stand where ``column`` is (Oracle's list; ORA-02287 otherwise)."""
    block = column.find_ancestor(exp.Select)
    if block is None:
        values = column.find_ancestor(exp.Values)
        assignment = column.find_ancestor(exp.EQ)
        return (values is not None and isinstance(values.parent, exp.Insert)) or (
            assignment is not None and isinstance(assignment.parent, exp.Update) and assignment.arg_key == "expressions"
            and column.find_ancestor(exp.Where) is None)
    if clause_of(column, block) != "expressions" or any(block.args.get(k) for k in ("distinct", "group", "order")):
        return False
    holder = block.parent
    while isinstance(holder, exp.Subquery):
        holder = holder.parent
    return holder is None or (isinstance(holder, exp.Insert) and block.find_ancestor(exp.Select) is None)


def rewrite(tree: exp.Expression, user: str, exists: Callable[[str, str], bool]) -> exp.Expression:
    """``tree`` with ``seq.NEXTVAL``/``seq.CURRVAL`` as lite's functions (module docstring), checked."""
    taken: set[tuple[str, str]] = set()
    for column in list(tree.find_all(exp.Column, bfs=False)):   # text order: the first NEXTVAL is NEXTVAL
        if not is_sequence_number(column):
            continue
        pseudo = name_of(column.this)
        owner = name_of(column.args["db"]) if column.args.get("db") is not None else user
        name = name_of(column.args["table"])
        if not exists(owner, name):
            raise error(ERR_SEQUENCE_DOES_NOT_EXIST)
        if not _allowed(column):
            raise error(ERR_SEQUENCE_NOT_ALLOWED)
        function = "ora_nextval" if pseudo == "NEXTVAL" and (owner, name) not in taken else "ora_currval"
        if pseudo == "NEXTVAL":
            taken.add((owner, name))
        column.replace(exp.Anonymous(this=function, expressions=[exp.Literal.string(owner), exp.Literal.string(name)]))
    return tree
