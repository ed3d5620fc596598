"""What Oracle refuses and SQLite would run: checks over the parsed Oracle statement, before translation.

SQLite is lenient where Oracle is strict, and each leniency is a silent
difference a learner cannot see: a select-list column missing from GROUP BY
(SQLite picks a value from some row; Oracle: ORA-00979), a select-list alias
used in WHERE (SQLite resolves it; Oracle: ORA-00904), a double-quoted name
that is no column (SQLite reads ``"King"`` as the string 'King'; in Oracle
it is an identifier: ORA-00904). These checks raise Oracle's error first.

GROUP BY needs only the tree; the name checks ask the translator's scopes
(``scope_for``: which FROM items a node sees, scope.py) and act only when every
FROM item's columns are known, so a source lite cannot see into (a dictionary
view, a table function) never causes a false refusal.
"""

from __future__ import annotations

from typing import Callable

from sqlglot import exp

from .dialect import Oracle, VectorEmbedding
from .error_catalogue import (
    ERR_INVALID_IDENTIFIER, ERR_NOT_A_GROUP_BY_EXPRESSION, ERR_NOT_SINGLE_GROUP, ERR_SET_COLUMN_COUNT,
    ERR_INVALID_NUMBER_CONVERSION, ERR_NOT_SELECTED_EXPRESSION, ERR_SET_EXPRESSION_TYPES,
    ERR_UNSUPPORTED_JSON_DATETIME, ERR_USING_COLUMN_QUALIFIED, error,
)
from .scope import Scope, infer_type, is_keep, name_of

# Unqualified names Oracle resolves without a FROM item (pseudo-columns and functions written without
# parentheses); lite handles or refuses each elsewhere.
PSEUDO_COLUMNS = {"USER", "UID", "ROWID", "ROWNUM", "LEVEL", "SYSDATE", "SYSTIMESTAMP", "CURRENT_DATE",
                  "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "NULL", "ORA_ROWSCN", "CONNECT_BY_ISLEAF"}


# Functions whose later arguments are keywords written as identifiers (a metric, a vector format), not columns
_KEYWORD_ARGUMENTS = {"VECTOR_DISTANCE": 2, "TO_VECTOR": 1, "VECTOR": 1}


def _is_keyword(column: exp.Column) -> bool:
    """True for an identifier that is a function's keyword argument (``COSINE``, ``FLOAT32``) or a
    VECTOR_EMBEDDING model name, which Oracle does not resolve as a column."""
    parent = column.parent
    if isinstance(parent, VectorEmbedding) and parent.this is column:
        return True
    if isinstance(parent, exp.Anonymous) and column.args.get("table") is None:
        first_keyword = _KEYWORD_ARGUMENTS.get(parent.name.upper())
        return first_keyword is not None and column in parent.expressions[first_keyword:]
    return False


def _key(node: exp.Expression) -> str:
    """An expression's text with column qualifiers dropped, to compare it with the GROUP BY items."""
    def strip(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star):
            return exp.column(exp.to_identifier(name_of(n.this), quoted=True))
        return n
    return node.copy().transform(strip).sql(dialect=Oracle)


def _aggregates(node: exp.Expression) -> bool:
    """True when ``node`` has an aggregate of this query block (not an analytic one, not a subquery's)."""
    for agg in node.find_all(exp.AggFunc, exp.WithinGroup):   # WITHIN GROUP: a hypothetical RANK(x) too
        chain, probe = [], agg
        while probe is not node and probe.parent is not None:
            probe = probe.parent
            chain.append(probe)
        # an analytic function (inside OVER) or a subquery's own aggregate does not make this block grouped;
        # an aggregate's KEEP (DENSE_RANK ...) does not make it analytic
        if not any(isinstance(c, (exp.Select, exp.Subquery)) or (isinstance(c, exp.Window) and not is_keep(c))
                   for c in chain):
            return True
    return False


def _alias_map(select: exp.Select) -> dict[str, exp.Expression]:
    return {name_of(p.args["alias"]): p.this for p in select.expressions if isinstance(p, exp.Alias)}


def check_group_by(select: exp.Select) -> None:
    """ORA-00979 for a select-list, HAVING or ORDER BY expression that is neither grouped nor aggregated;
    ORA-00937 for a plain column next to an aggregate without GROUP BY.

    A GROUP BY item may be a select-list alias (Oracle 23ai). An analytic function's arguments,
    PARTITION BY and ORDER BY are checked like any expression (they are evaluated after grouping).
    """
    group = select.args.get("group")
    if group is not None and any(group.args.get(k) for k in ("rollup", "cube", "grouping_sets")):
        return  # refused with its own error by the translator
    group_items = list(group.expressions) if group is not None else []
    having = select.args.get("having")
    if not group_items and not having and not any(_aggregates(p) for p in select.expressions):
        return
    aliases = _alias_map(select)
    keys = {_key(g) for g in group_items}
    for g in group_items:
        if isinstance(g, exp.Column) and not g.args.get("table") and name_of(g.this) in aliases:
            keys.add(_key(aliases[name_of(g.this)]))
    spec = ERR_NOT_A_GROUP_BY_EXPRESSION if group_items else ERR_NOT_SINGLE_GROUP

    def offending(node: exp.Expression) -> exp.Expression | None:
        # a grouped expression is never offending; its key (a copy rendered as SQL) is only worth computing
        # when the walk below finds an ungrouped column in it, so most nodes never need one
        bad = ungrouped(node)
        if bad is not None and keys and _key(node) in keys:
            return None
        return bad

    def ungrouped(node: exp.Expression) -> exp.Expression | None:
        if is_keep(node) or isinstance(node, exp.WithinGroup):
            return None   # an aggregate: its value and ORDER BY keys are read per row of the group
        if isinstance(node, exp.Window):
            inner = node.this
            parts = ([p for p in inner.iter_expressions() if not isinstance(p, exp.Star)]   # COUNT(*) OVER ()
                     if isinstance(inner, exp.AggFunc) else [inner])
            parts += list(node.args.get("partition_by") or [])
            if node.args.get("order") is not None:
                parts.append(node.args["order"])
            return next((bad for bad in map(offending, parts) if bad is not None), None)
        if isinstance(node, exp.AggFunc):
            return None
        if isinstance(node, (exp.Subquery, exp.Select)):
            return None
        if isinstance(node, exp.Column):
            if isinstance(node.this, exp.Star):
                return node
            if (not node.args.get("table") and name_of(node.this) in PSEUDO_COLUMNS) or _is_keyword(node):
                return None
            return node
        if isinstance(node, exp.Star):
            return node
        return next((bad for bad in map(offending, node.iter_expressions()) if bad is not None), None)

    items = [p.this if isinstance(p, exp.Alias) else p for p in select.expressions]
    if having is not None:
        # HAVING may name a select-list alias (Oracle 23ai); its expression is checked in the select list
        items.append(having.this.copy().transform(
            lambda n: exp.Literal.number(0) if isinstance(n, exp.Column) and not n.args.get("table")
            and name_of(n.this) in aliases else n))
    order = select.args.get("order")
    for ordered in (order.expressions if order is not None else []):
        key = ordered.this
        if isinstance(key, exp.Literal) or (isinstance(key, exp.Column) and not key.args.get("table")
                                            and name_of(key.this) in aliases):
            continue  # ORDER BY position or select-list alias
        items.append(key)
    for item in items:
        bad = offending(item)
        if bad is not None:
            raise error(spec, expression=bad.sql(dialect=Oracle))


def _complete(scope: Scope | None) -> bool:
    """True when every FROM item of ``scope`` and its enclosing scopes has known columns."""
    while scope is not None:
        if getattr(scope, "opaque", False) or any(not src.columns for src in scope.sources.values()):
            return False
        scope = scope.outer
    return True


def _opaque_from(select: exp.Select) -> bool:
    """A FROM/JOIN item the scope does not model (a table function, LATERAL, a dictionary view but DUAL)."""
    items = []
    if select.args.get("from_"):
        items.append(select.args["from_"].this)
    items += [join.this for join in select.args.get("joins") or []]
    for item in items:
        if isinstance(item, exp.Subquery) or (isinstance(item, exp.Table) and isinstance(item.this, exp.JSONTable)):
            continue
        if not isinstance(item, exp.Table) or not isinstance(item.this, exp.Identifier):
            return True
    return False


def _block_nodes(select: exp.Select) -> list[exp.Expression]:
    """The nodes of this query block, in ``find_all``'s order: its tree without the inside of nested SELECTs
    (whose nodes their own block checks), walked once for all the checks of :func:`check_select`."""
    return list(select.walk(prune=lambda n: n is not select and isinstance(n, exp.Select)))


def check_names(select: exp.Select, scope_for: Callable[[exp.Expression], Scope],
                nodes: list[exp.Expression]) -> None:
    """ORA-00904 for a WHERE column that names no FROM item's column (a select-list alias, say) and for a
    double-quoted name that is no column anywhere it is used (SQLite would read ``"King"`` as a string)."""
    if _opaque_from(select):
        return
    aliases = _alias_map(select)
    where = select.args.get("where")
    for column in nodes:
        if not isinstance(column, exp.Column) or column.args.get("table") is not None:
            continue
        if isinstance(column.this, exp.Star) or _is_keyword(column):
            continue
        name = name_of(column.this)
        in_where = where is not None and column.find_ancestor(exp.Where) is where
        quoted = isinstance(column.this, exp.Identifier) and column.this.quoted
        # A pseudo-column is a keyword only unquoted: Oracle reads "SYSDATE" as a column name (ORA-00904
        # when there is none), and SQLite would read an unknown quoted name as a string.
        if not (in_where or quoted) or (name in PSEUDO_COLUMNS and not quoted):
            continue
        if not in_where and name in aliases and column.find_ancestor(exp.Order, exp.Group, exp.Having) is not None:
            continue  # ORDER BY / GROUP BY / HAVING may name a select-list alias
        scope = scope_for(column)
        if not _complete(scope):
            return
        source, _ = scope.resolve(column)
        if source is None:
            raise error(ERR_INVALID_IDENTIFIER, name=name)


_TYPE_GROUPS = {"NUMBER": "NUMBER", "INTEGER": "NUMBER", "BINARY_DOUBLE": "NUMBER", "BINARY_FLOAT": "NUMBER",
                "FLOAT": "NUMBER", "VARCHAR2": "CHAR", "CHAR": "CHAR", "CLOB": "CHAR", "NVARCHAR2": "CHAR",
                "DATE": "DATE", "TIMESTAMP": "DATE"}


def _type_group(node: exp.Expression, scope: Scope) -> str | None:
    """The type group (NUMBER, CHAR or DATE) of an expression's Oracle type, None when unknown or other."""
    return _TYPE_GROUPS.get((infer_type(node, scope) or "").split("(")[0].upper())


def _first_block(node: exp.Expression) -> exp.Expression:
    while isinstance(node, (exp.SetOperation, exp.Subquery)):
        node = node.this
    return node


def check_set_operation(select: exp.Select, scope_for: Callable[[exp.Expression], Scope]) -> None:
    """The right-hand block of UNION/INTERSECT/MINUS against the first block: as many columns (ORA-01789) of
    the same type group, number, character or datetime (ORA-01790; SQLite would mix them in one column)."""
    parent = select.parent
    if not isinstance(parent, exp.SetOperation) or parent.expression is not select:
        return
    first = _first_block(parent.this)
    if not isinstance(first, exp.Select):
        return
    if any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
           for e in first.expressions + select.expressions):
        return
    if len(first.expressions) != len(select.expressions):
        raise error(ERR_SET_COLUMN_COUNT)
    for left, right in zip(first.expressions, select.expressions):
        try:   # the scope of a select-list expression is its block's
            kinds = [_type_group(e.unalias(), scope_for(e)) for e in (left, right)]
        except Exception:   # a name the later checks report; the type check has nothing to say
            return
        if kinds[0] and kinds[1] and kinds[0] != kinds[1]:
            raise error(ERR_SET_EXPRESSION_TYPES)


def _is_number_text(text: str) -> bool:
    try:
        float(text.strip())
    except ValueError:
        return False
    return True


def check_nvl_types(scope_for: Callable[[exp.Expression], Scope], nodes: list[exp.Expression]) -> None:
    """``NVL(number, 'text')``/``COALESCE``: Oracle converts the other arguments to the first one's type, so a
    string that is not a number is ORA-01722 (SQLite would return the text in a number column)."""
    for node in nodes:
        if not isinstance(node, exp.Coalesce):
            continue
        others = [a for a in node.expressions if isinstance(a, exp.Literal) and a.is_string
                  and not _is_number_text(a.this)]
        if not others:
            continue
        try:
            kind = _type_group(node.this, scope_for(node))
        except Exception:
            continue
        if kind == "NUMBER":
            raise error(ERR_INVALID_NUMBER_CONVERSION, text=others[0].this[:40])


def check_distinct_order(select: exp.Select) -> None:
    """SELECT DISTINCT ... ORDER BY a column that is not selected is ORA-01791 in Oracle (SQLite sorts by a
    value of some row of each group)."""
    order = select.args.get("order")
    if not select.args.get("distinct") or order is None:
        return
    if any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
           for e in select.expressions):
        return
    names = set()
    for e in select.expressions:
        if isinstance(e, exp.Alias):
            names.add(name_of(e.args["alias"]) if isinstance(e.args.get("alias"), exp.Identifier) else e.alias.upper())
            e = e.this
        if isinstance(e, exp.Column):
            names.add(name_of(e.this))
    for key in order.expressions:
        key = key.this if isinstance(key, exp.Ordered) else key
        if isinstance(key, exp.Column) and isinstance(key.this, exp.Identifier) and name_of(key.this) not in names:
            raise error(ERR_NOT_SELECTED_EXPRESSION, name=name_of(key.this))


def check_json_datetimes(scope_for: Callable[[exp.Expression], Scope], nodes: list[exp.Expression]) -> None:
    """A TIMESTAMP value in JSON_OBJECT/JSON_ARRAY/JSON_ARRAYAGG: Oracle writes it in ISO 8601 with a fraction
    lite has not checked, so it refuses by name (ORA-03001). A DATE is written by the translator
    (``Translator._json_dates``: "2024-01-02T00:00:00", the JSON Developer's Guide's form)."""
    for node in nodes:
        if not isinstance(node, (exp.JSONObject, exp.JSONArray, exp.JSONArrayAgg)):
            continue
        values = [kv.expression if isinstance(kv, exp.JSONKeyValue) else kv for kv in node.expressions]
        if isinstance(node, exp.JSONArrayAgg):
            values = [node.this]
        for value in values:
            if not isinstance(value, exp.Expression):
                continue
            try:
                kind = infer_type(value, scope_for(value))
            except Exception:
                continue
            if (kind or "").upper().startswith("TIMESTAMP"):
                raise error(ERR_UNSUPPORTED_JSON_DATETIME)


def check_using_qualifiers(select: exp.Select, nodes: list[exp.Expression]) -> None:
    """A column of a JOIN ... USING (col) list written with a qualifier (``a.id``) is ORA-25154 in Oracle."""
    using = {name_of(c.this if isinstance(c, exp.Column) else c)
             for join in select.args.get("joins") or [] for c in join.args.get("using") or []}
    if not using:
        return
    for column in nodes:
        if isinstance(column, exp.Column) and column.args.get("table") is not None \
                and isinstance(column.this, exp.Identifier) and name_of(column.this) in using:
            raise error(ERR_USING_COLUMN_QUALIFIED, name=name_of(column.this))


def check_select(select: exp.Select, scope_for: Callable[[exp.Expression], Scope]) -> None:
    """Every check of this module for one query block."""
    nodes = _block_nodes(select)
    check_using_qualifiers(select, nodes)
    check_json_datetimes(scope_for, nodes)
    check_distinct_order(select)
    check_group_by(select)
    check_names(select, scope_for, nodes)
    check_set_operation(select, scope_for)
    check_nvl_types(scope_for, nodes)
