"""Oracle's multitable INSERT (INSERT ALL / INSERT FIRST) as one INSERT ... SELECT per INTO clause.

    INSERT ALL|FIRST
      [WHEN c1 THEN] INTO t1 [(cols)] [VALUES (v, ...)] [INTO ...]
      [WHEN c2 THEN  INTO ...]
      [ELSE          INTO ...]
    subquery

Each INTO clause becomes ``INSERT INTO t [(cols)] SELECT v, ... FROM (subquery) "LITE_MTI" WHERE w``, where
the values and conditions read the subquery's columns by name, as Oracle's do. ``w`` says which subquery
rows the clause takes, by the SQL Language Reference:

* unconditional INSERT ALL: every row;
* INSERT ALL: the rows for which the clause's WHEN condition is true; ELSE the rows for which none is;
* INSERT FIRST: the rows whose first true WHEN condition is the clause's one
  (``CASE WHEN c1 THEN 1 WHEN c2 THEN 2 ... ELSE 0 END = i``); ELSE the rows with none (``= 0``).

An INTO without VALUES inserts the subquery's columns in order. The statements run in order inside the
statement's one savepoint, so the whole INSERT is done or undone together. Oracle evaluates the subquery
once; the INSERTs each evaluate it again, which gives the same rows unless the subquery reads a table the
statement writes or takes sequence numbers: both are ORA-03001.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from .error_catalogue import ERR_UNSUPPORTED, error
from .scope import is_sequence_number

SOURCE = "LITE_MTI"


def _groups(tree: exp.MultitableInserts) -> list[tuple[exp.Expression | None, bool, list[exp.Insert]]]:
    """The INTO clauses grouped under their WHEN (condition, is ELSE, inserts); one group of all when there is
    no WHEN. An INTO after another belongs to the same WHEN or ELSE."""
    groups: list[tuple[exp.Expression | None, bool, list[exp.Insert]]] = []
    for clause in tree.expressions:
        condition, is_else = clause.args.get("expression"), bool(clause.args.get("else_"))
        if condition is not None or is_else or not groups:
            groups.append((condition, is_else, []))
        groups[-1][2].append(clause.this)
    return groups


def _case(conditions: list[exp.Expression]) -> exp.Case:
    """``CASE WHEN c1 THEN 1 WHEN c2 THEN 2 ... ELSE 0 END``: the number of the first true condition."""
    return exp.Case(ifs=[exp.If(this=c.copy(), true=exp.Literal.number(i)) for i, c in enumerate(conditions, 1)],
                    default=exp.Literal.number(0))


def refuse_sequence_numbers(nodes: list[exp.Expression]) -> None:
    """ORA-03001 for NEXTVAL/CURRVAL in a multitable INSERT (called with its nodes before sequences.py rewrites
    them): Oracle takes one number per subquery row for all INTO clauses, which separate INSERTs cannot."""
    if any(is_sequence_number(n) for n in nodes):
        raise error(ERR_UNSUPPORTED, construct="sequence numbers in INSERT ALL|FIRST (insert one table at a time)")


def inserts(tree: exp.MultitableInserts,
            table_ref: Callable[[exp.Table], tuple[str, str]]) -> list[exp.Insert]:
    """The INSERT ... SELECT statements, in order, that do what the multitable INSERT ``tree`` does."""
    source = tree.args["source"]
    groups = _groups(tree)
    targets = []
    for _, _, group in groups:
        for insert in group:
            table = insert.this.this if isinstance(insert.this, exp.Schema) else insert.this
            targets.append(table_ref(table))
    read = {table_ref(t) for t in source.find_all(exp.Table) if isinstance(t.this, exp.Identifier)}
    if read & set(targets):
        raise error(ERR_UNSUPPORTED, construct="INSERT ALL|FIRST whose subquery reads a table it inserts into "
                                               "(select the rows into a table of their own first)")
    conditions = [c for c, _, _ in groups if c is not None]
    first = str(tree.args.get("kind") or "").upper() == "FIRST"
    out: list[exp.Insert] = []
    for condition, is_else, group in groups:
        if is_else:
            where: exp.Expression | None = exp.EQ(this=_case(conditions), expression=exp.Literal.number(0))
        elif condition is not None and first:
            where = exp.EQ(this=_case(conditions), expression=exp.Literal.number(conditions.index(condition) + 1))
        else:
            where = condition.copy() if condition is not None else None
        for insert in group:
            values = insert.expression
            if values is None:
                items: list[exp.Expression] = [exp.Star()]
            elif isinstance(values, exp.Values) and len(values.expressions) == 1:
                items = [v.copy() for v in values.expressions[0].expressions]
            else:
                raise error(ERR_UNSUPPORTED, construct="an INTO clause of INSERT ALL|FIRST with more than one "
                                                       "VALUES row")
            query = exp.select(*items).from_(exp.Subquery(this=source.copy(),
                                                          alias=exp.TableAlias(this=exp.to_identifier(SOURCE))))
            if where is not None:
                query = query.where(where.copy())
            out.append(exp.Insert(this=insert.this.copy(), expression=query))
    return out
