"""Name resolution and type inference over a parsed Oracle query.

Which table or derived table a column reference names (:class:`Scope`, built
per SELECT from its FROM/JOIN items and enclosing WITH clauses), the names
Oracle reports for a query's columns, and their Oracle type classes
(:func:`infer_type`), which the translator uses to pick datetime arithmetic and
the connection uses to convert values back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from . import json_table
from .catalog import DICTIONARY_TYPES, dictionary_views
from .dialect import JsonQuery, Oracle, VectorEmbedding
from .error_catalogue import (
    ERR_DICTIONARY_VIEW_NOT_IN_LITE, ERR_INVALID_IDENTIFIER, ERR_TABLE_DOES_NOT_EXIST_IN_QUERY, error,
)
from .plan import Context

DICTIONARY_VIEWS = frozenset(dictionary_views(""))   # the names catalog.py defines them under


def _dictionary_columns() -> dict[str, list[tuple[str, str | None]]]:
    """Each dictionary view's columns in order, typed as a column named alone is (catalog.DICTIONARY_TYPES).

    Read from the views' own SELECT lists, so ``SELECT *`` and ``v.*`` describe and convert a view's columns
    as naming them does (a date as a DATE, a sequence number as a NUMBER), and a name the view lacks is
    Oracle's ORA-00904 for it.
    """
    out = {}
    for view, body in dictionary_views("").items():
        names = [name.upper() for name in sqlglot.parse_one(body, read="sqlite").named_selects]
        out[view] = [(name, DICTIONARY_TYPES.get(name)) for name in names]
    return out


DICTIONARY_COLUMNS = _dictionary_columns()
# A name Oracle gives its dictionary views (USER_SYNONYMS, DBA_OBJECTS, V$SESSION, and the public ones without
# a prefix that scripts ask: NLS_SESSION_PARAMETERS, SESSION_PRIVS, DICTIONARY, ...): when lite has no such view
# (and no table or view of the user's has that name), the error names the views lite has, not the seed.
_DICTIONARY_NAME = re.compile(r"(?:USER|ALL|DBA|CDB)_[A-Z0-9_$#]+|G?V_?\$[A-Z0-9_$#]+"
                              r"|NLS_(?:SESSION|DATABASE|INSTANCE)_PARAMETERS|SESSION_(?:PRIVS|ROLES)"
                              r"|ROLE_(?:SYS|TAB|ROLE)_PRIVS|DICT(?:IONARY)?|DICT_COLUMNS")


def _views_lite_has() -> str:
    """``ALL_/USER_ CONSTRAINTS, ...; ALL_USERS, DUAL``: DICTIONARY_VIEWS, the ALL_/USER_ pairs together."""
    pairs = sorted(n[4:] for n in DICTIONARY_VIEWS if n.startswith("ALL_") and f"USER_{n[4:]}" in DICTIONARY_VIEWS)
    single = sorted(DICTIONARY_VIEWS - {f"{prefix}{rest}" for rest in pairs for prefix in ("ALL_", "USER_")})
    return "ALL_/USER_ " + ", ".join(pairs) + "; " + ", ".join(single)


def _missing_dictionary_view(owner: str, name: str) -> Exception:
    """ORA-00942 for a dictionary view lite lacks, naming the ALL_ view of a DBA_/CDB_ one it has."""
    rest = name.split("_", 1)[1] if "_" in name else ""
    instead = f" (use ALL_{rest})" if name.startswith(("DBA_", "CDB_")) and f"ALL_{rest}" in DICTIONARY_VIEWS else ""
    return error(ERR_DICTIONARY_VIEW_NOT_IN_LITE, owner=owner, table=name, instead=instead, views=_views_lite_has())

# Oracle PACKAGE.FUNCTION -> lite SQLite function (translate.py rewrites calls with it; infer_type
# types them by the function they become)
_DOTTED = {("DBMS_LOB", "SUBSTR"): "ora_lob_substr", ("DBMS_LOB", "GETLENGTH"): "length",
           ("DBMS_LOB", "INSTR"): "ora_instr",
           ("SDO_GEOM", "SDO_DISTANCE"): "ora_sdo_distance",
           ("MDSYS", "SDO_GEOMETRY"): "ora_sdo_geometry", ("MDSYS", "SDO_POINT_TYPE"): "ora_sdo_point",
           ("MDSYS", "SDO_DIM_ARRAY"): "ora_sdo_dim_array", ("MDSYS", "SDO_DIM_ELEMENT"): "ora_sdo_dim_element"}

# Result types of functions (for value conversion)
_FUNC_TYPES = {
    "ora_vector_distance": "BINARY_DOUBLE", "ora_vector_norm": "BINARY_DOUBLE", "ora_to_vector": "VECTOR",
    "ora_vector_embedding": "VECTOR", "ora_sdo_geometry": "SDO_GEOMETRY", "ora_sdo_distance": "NUMBER",
    "ora_sdo_within_distance": "VARCHAR2", "ora_lob_substr": "VARCHAR2", "ora_json_value": "VARCHAR2",
    "ora_to_date": "DATE", "ora_to_timestamp": "TIMESTAMP", "ora_sysdate": "DATE",
    "ora_systimestamp": "TIMESTAMP", "ora_to_char": "VARCHAR2", "ora_vd_lookup": "BINARY_DOUBLE",
    "ora_ctx_score": "NUMBER", "ora_vector_dims": "NUMBER",
    # the same functions under their Oracle names (types are inferred on the untranslated tree)
    "vector_distance": "BINARY_DOUBLE", "to_vector": "VECTOR", "vector": "VECTOR", "score": "NUMBER",
    "sdo_geometry": "SDO_GEOMETRY", "sdo_within_distance": "VARCHAR2", "vector_norm": "BINARY_DOUBLE",
    "vector_dimension_count": "NUMBER",
    "ora_date_add": "DATE", "ora_date_add_interval": "DATE", "ora_ts_add_interval": "TIMESTAMP",
    "ora_days_between": "NUMBER", "ora_seconds_between": "INTERVAL", "ora_interval": "INTERVAL",
    "numtodsinterval": "INTERVAL", "ora_trunc_date": "DATE", "ora_round_date": "DATE", "ora_as_date": "DATE",
    "ora_as_timestamp": "TIMESTAMP", "ora_sdo_attribute": "NUMBER",
    "ora_sdo_dim_array": "VARCHAR2", "ora_sdo_dim_element": "VARCHAR2", "ora_json_dot": "JSON", "ora_round": "NUMBER", "ora_mod": "NUMBER",
    "ora_divide": "NUMBER",
    "ora_next_day": "DATE", "ora_translate": "VARCHAR2",
    "json_serialize": "VARCHAR2", "ora_json_serialize": "VARCHAR2", "ora_stat": "NUMBER",
    "ora_dec_add": "NUMBER", "ora_dec_sub": "NUMBER", "ora_dec_mul": "NUMBER", "ora_dec_sum": "NUMBER", "ora_dec_avg": "NUMBER",
    "ora_plain_number": "NUMBER",
    "to_binary_double": "BINARY_DOUBLE", "to_binary_float": "BINARY_FLOAT", "bin_to_num": "NUMBER",
    "ora_sys_guid": "RAW", "ora_hextoraw": "RAW", "ora_rawtohex": "VARCHAR2", "sys_guid": "RAW", "hextoraw": "RAW",
    "rawtohex": "VARCHAR2",
    "to_nchar": "VARCHAR2", "to_clob": "CLOB", "to_nclob": "CLOB", "nls_upper": "VARCHAR2",
    "nls_lower": "VARCHAR2", "nls_initcap": "VARCHAR2",
}
DATETIME_TYPES = ("DATE", "TIMESTAMP")


def first_block(query: exp.Expression) -> exp.Select:
    """The query block that names and types a query's columns (a set operation's first branch)."""
    while isinstance(query, (exp.SetOperation, exp.Subquery)):
        query = query.this
    return query


def clause_of(node: exp.Expression, block: exp.Select) -> str:
    """The argument of ``block`` that holds ``node`` (``expressions`` for the select list, ``where``, ``joins``...)."""
    while node.parent is not block:
        node = node.parent
    return node.arg_key


def is_sequence_number(node: exp.Expression) -> bool:
    """Whether ``node`` is ``seq.NEXTVAL`` or ``seq.CURRVAL`` (a sequence's number; sequences.py)."""
    return isinstance(node, exp.Column) and node.args.get("table") is not None \
        and isinstance(node.this, exp.Identifier) and name_of(node.this) in ("NEXTVAL", "CURRVAL")


def conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    """The AND terms of ``condition`` (itself when it is not an AND), nested ANDs flattened."""
    return list(condition.flatten()) if isinstance(condition, exp.And) else [condition]


def name_of(ident: exp.Expression | str | None) -> str:
    """Oracle name resolution: unquoted identifiers are upper-cased, quoted ones kept."""
    if ident is None:
        return ""
    if isinstance(ident, str):
        return ident.upper()
    if isinstance(ident, exp.Identifier):
        return ident.this if ident.quoted else ident.this.upper()
    return ident.name.upper()


def table_ref(table: exp.Table, user: str) -> tuple[str, str]:
    """(owner, table) named by a Table node; unqualified means the current user's schema."""
    owner = name_of(table.args.get("db")) if table.args.get("db") else user
    return owner, name_of(table.this)


@dataclass
class Source:
    """One FROM item: a base table (owner, table) or a derived table with typed columns."""

    owner: str | None
    table: str | None
    columns: list[tuple[str, str | None]]
    json_table: bool = False   # a JSON_TABLE: its columns are read from json_each's value (json_table.py)
    dictionary: bool = False   # a dictionary view: its columns typed by name (catalog.DICTIONARY_TYPES)


class Scope:
    """Aliases visible in one SELECT, with CTEs of enclosing WITH clauses (``outer``: the enclosing query)."""

    def __init__(self, ctx: Context, ctes: dict[str, Source], outer: "Scope | None" = None):
        self.ctx = ctx
        self.ctes = ctes
        self.outer = outer
        self.sources: dict[str, Source] = {}
        self.order: list[str] = []

    def add(self, alias: str, source: Source) -> None:
        self.sources[alias] = source
        self.order.append(alias)

    def resolve(self, column: exp.Column) -> tuple[Source | None, str]:
        name = name_of(column.this)
        qualifier = name_of(column.args.get("table")) if column.args.get("table") else None
        if qualifier:
            if qualifier in self.sources or self.outer is None:
                return self.sources.get(qualifier), name
            return self.outer.resolve(column)
        for alias in self.order:
            src = self.sources[alias]
            if any(c == name for c, _ in src.columns):
                return src, name
        if self.outer is not None:
            return self.outer.resolve(column)
        return None, name


def _source_for_table(ctx: Context, table: exp.Table, ctes: dict[str, Source]) -> Source:
    owner, name = table_ref(table, ctx.user)
    if not table.args.get("db") and name in ctes:
        return ctes[name]
    if not table.args.get("db") and name == "DUAL" or (owner == "SYS" and name == "DUAL"):
        return Source(None, "DUAL", [("DUMMY", "VARCHAR2")])  # known, so names checked against it (semantics.py)
    if (not table.args.get("db") or owner == "SYS") and name not in DICTIONARY_VIEWS \
            and _DICTIONARY_NAME.fullmatch(name) and (owner == "SYS" or not ctx.columns_of(owner, name)):
        raise _missing_dictionary_view(owner, name)
    if not table.args.get("db") and name in DICTIONARY_VIEWS or owner == "SYS":
        return Source(None, None, list(DICTIONARY_COLUMNS.get(name, [])), dictionary=True)
    cols = ctx.columns_of(owner, name)
    if not cols:
        raise error(ERR_TABLE_DOES_NOT_EXIST_IN_QUERY, owner=owner, table=name)
    return Source(owner, name, [(c, t.type_class) for c, t in cols.items()])


def build_scope(ctx: Context, select: exp.Select, ctes: dict[str, Source]) -> Scope:
    """The aliases of ``select``'s FROM and JOIN items."""
    scope = Scope(ctx, ctes)
    items = []
    if select.args.get("from_"):
        items.append(select.args["from_"].this)
    for join in select.args.get("joins") or []:
        items.append(join.this)
    for item in items:
        if isinstance(item, exp.Table) and isinstance(item.this, exp.JSONTable):
            scope.add(name_of(item.args["alias"].this), Source(None, None, json_table.columns(item.this), True))
        elif isinstance(item, exp.Table):
            source = _source_for_table(ctx, item, ctes)
            alias = name_of(item.args["alias"].this) if item.args.get("alias") else name_of(item.this)
            scope.add(alias, source)
        elif isinstance(item, exp.Subquery):
            inner = item.this
            cols = output_columns(ctx, inner, ctes)
            alias = name_of(item.args["alias"].this) if item.args.get("alias") else f"__SUB{len(scope.order)}"
            scope.add(alias, Source(None, None, cols))
    return scope


def cte_sources(ctx: Context, query: exp.Expression, outer: dict[str, Source]) -> dict[str, Source]:
    """CTE name -> Source for the WITH clause of ``query`` (each CTE sees the earlier ones)."""
    ctes = dict(outer)
    with_ = query.args.get("with_")
    if with_:
        for cte in with_.expressions:
            alias = cte.args["alias"]
            name = name_of(alias.this)
            declared = [name_of(c) for c in alias.args.get("columns") or []]
            if declared and with_.args.get("recursive") is None and name not in ctes:
                ctes[name] = Source(None, None, [(c, None) for c in declared])  # a recursive member may read it
            columns = output_columns(ctx, cte.this, ctes)
            if declared:
                # WITH t (a, b) AS (...): the declared names replace the query's, position by position
                columns = [(c, columns[i][1] if i < len(columns) else None) for i, c in enumerate(declared)]
            ctes[name] = Source(None, None, columns)
    return ctes


def expand_stars(items: list[exp.Expression], scope: Scope) -> list[exp.Expression]:
    """Select-list ``items`` with ``*`` and ``alias.*`` spelled out as the columns they stand for.

    Each column is qualified with its FROM item's alias (quoted, as the scope
    holds names), except a derived table's that has none.
    """
    out: list[exp.Expression] = []
    for item in items:
        if not (isinstance(item, exp.Star) or (isinstance(item, exp.Column) and isinstance(item.this, exp.Star))):
            out.append(item)
            continue
        aliases = scope.order if isinstance(item, exp.Star) else [name_of(item.args.get("table"))]
        for alias in aliases:
            source = scope.sources.get(alias)
            if source is None:
                raise error(ERR_INVALID_IDENTIFIER, name=alias)
            table = None if alias.startswith("__SUB") else exp.to_identifier(alias, quoted=True)
            out += [exp.Column(this=exp.to_identifier(column, quoted=True), table=table)
                    for column, _ in source.columns]
    return out


def output_columns(ctx: Context, query: exp.Expression, outer: dict[str, Source] | None = None
                   ) -> list[tuple[str, str | None]]:
    """(Oracle column name, type class) of each column ``query`` returns."""
    outer = outer or {}
    if isinstance(query, exp.Subquery):
        return output_columns(ctx, query.this, outer)
    if isinstance(query, exp.SetOperation):
        return output_columns(ctx, query.this, cte_sources(ctx, query, outer))
    if not isinstance(query, exp.Select):
        return []
    ctes = cte_sources(ctx, query, outer)
    scope = build_scope(ctx, query, ctes)
    out: list[tuple[str, str | None]] = []
    for proj in query.expressions:
        if isinstance(proj, exp.Star):
            for alias in scope.order:
                out.extend(scope.sources[alias].columns)
        elif isinstance(proj, exp.Column) and isinstance(proj.this, exp.Star):
            src = scope.sources.get(name_of(proj.args.get("table")))
            out.extend(src.columns if src else [])
        else:
            out.append((column_name(proj), infer_type(proj, scope)))
    return out


def column_name(proj: exp.Expression) -> str:
    """The name Oracle reports in cursor.description for a select-list item."""
    if isinstance(proj, exp.Alias):
        return name_of(proj.args["alias"])
    if isinstance(proj, exp.Column):
        if proj.args.get("db") is not None:  # alias.object_column.ATTRIBUTE: Oracle shows the whole path
            return ".".join(name_of(proj.args[k]) for k in ("catalog", "db", "table", "this")
                            if proj.args.get(k) is not None)
        return name_of(proj.this)
    text = proj.sql(dialect=Oracle)
    return re.sub(r"\s+", "", text).upper()


def object_column(node: exp.Column, scope: Scope) -> tuple[str, str, str | None]:
    """(alias, column, the column's type class) of ``alias.column.attribute...`` (a Column with ``db`` set),
    as JSON dot notation and object attribute access name it; the type is None when ``alias`` is no FROM item."""
    parts = [name_of(node.args[k]) for k in ("catalog", "db", "table") if node.args.get(k) is not None]
    source = scope.sources.get(parts[0])
    return parts[0], parts[1], dict(source.columns).get(parts[1]) if source is not None else None


def _window_kind(node: exp.Expression) -> str:
    return str(node.args.get("over") or "").upper() if isinstance(node, exp.Window) else ""


def is_keep(node: exp.Expression) -> bool:
    """Whether ``node`` is ``agg(x) KEEP (DENSE_RANK FIRST|LAST ORDER BY ...)`` (sqlglot reads it as a window):
    an aggregate of its query block, not an analytic function, unless an OVER clause encloses it."""
    return _window_kind(node) == "KEEP"


def is_analytic(node: exp.Expression) -> bool:
    """Whether ``node`` is ``function(...) OVER (...)`` (sqlglot's Window node holds KEEP clauses too)."""
    return _window_kind(node) == "OVER"


def infer_type(node: exp.Expression, scope: Scope) -> str | None:
    """The Oracle type class of an expression, following columns through aliases and CTEs."""
    if isinstance(node, (exp.Alias, exp.Paren)):
        return infer_type(node.this, scope)
    if is_sequence_number(node):
        return "NUMBER"
    if isinstance(node, exp.Column) and node.args.get("db") is not None:
        # alias.column.attribute: JSON dot notation gives JSON; SDO_POINT.X and the like give NUMBER
        kind = object_column(node, scope)[2]
        return "JSON" if kind == "JSON" else ("NUMBER" if kind == "SDO_GEOMETRY" else None)
    if isinstance(node, exp.Column):
        src, name = scope.resolve(node)
        if src is None or src.dictionary:   # an unqualified name no FROM item lists, or alias.column of a view
            return DICTIONARY_TYPES.get(name)
        for col, typ in src.columns:
            if col == name:
                return typ
        return None
    if isinstance(node, exp.Literal):
        return "VARCHAR2" if node.is_string else "NUMBER"
    if isinstance(node, (exp.Coalesce, exp.Greatest, exp.Least)):
        for arg in [node.this, *node.expressions]:
            typ = infer_type(arg, scope)
            if typ:
                return typ
        return None
    if isinstance(node, exp.Nvl2):
        for arg in (node.args.get("true"), node.args.get("false")):
            typ = infer_type(arg, scope) if arg is not None else None
            if typ:
                return typ
        return None
    if isinstance(node, (exp.Case, exp.DecodeCase)):
        branches = node.args.get("ifs") or []
        for branch in branches:
            typ = infer_type(branch.args["true"], scope)
            if typ:
                return typ
        if isinstance(node, exp.DecodeCase):
            args = node.expressions
            results = [args[i] for i in range(2, len(args), 2)] + ([args[-1]] if len(args) % 2 == 0 else [])
            for arg in results:
                typ = infer_type(arg, scope)
                if typ:
                    return typ
            return None
        return infer_type(node.args["default"], scope) if node.args.get("default") else None
    if isinstance(node, exp.Cast):
        text = node.args["to"].sql(dialect=Oracle).upper()
        if text.startswith(("NUMBER", "INT", "DECIMAL", "FLOAT")):
            return "NUMBER"
        if text.startswith(("VARCHAR", "CHAR", "CLOB")):
            return "VARCHAR2"
        if text.startswith("DATE"):
            return "DATE"
        if text.startswith("TIMESTAMP"):
            return "TIMESTAMP"
        return None
    if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Anonymous):
        key = (name_of(node.this), node.expression.name.upper())
        return {"ora_lob_substr": "VARCHAR2", "length": "NUMBER", "ora_sdo_distance": "NUMBER",
                "ora_instr": "NUMBER"}.get(_DOTTED.get(key, ""), None)
    if isinstance(node, (exp.Add, exp.Sub)):
        return _arith_type(node, scope)
    if isinstance(node, exp.Neg):
        return infer_type(node.this, scope)
    if isinstance(node, (exp.Mul, exp.Div)):
        left, right = infer_type(node.this, scope), infer_type(node.expression, scope)
        return "INTERVAL" if "INTERVAL" in (left, right) else "NUMBER"
    if isinstance(node, (exp.Count, exp.RowNumber, exp.Sum, exp.Avg, exp.Binary, exp.ToNumber, exp.MonthsBetween,
                         exp.RegexpCount, exp.Stddev, exp.Variance)) and not isinstance(
            node, (exp.DPipe, exp.Connector, exp.Predicate)):
        return "NUMBER"
    if isinstance(node, exp.Window):
        return infer_type(node.this, scope)
    if isinstance(node, exp.WithinGroup) and isinstance(node.this, exp.PercentileDisc):
        return infer_type(node.expression.expressions[0].this, scope)   # one of the values
    if isinstance(node, exp.WithinGroup) and isinstance(node.this, (exp.PercentileCont, exp.Rank, exp.DenseRank,
                                                                    exp.PercentRank, exp.CumeDist)):
        return "NUMBER"
    if isinstance(node, (exp.Min, exp.Max, exp.FirstValue, exp.LastValue, exp.Lag, exp.Lead, exp.AnyValue)):
        return infer_type(node.this, scope)
    if isinstance(node, exp.DPipe):
        return "VARCHAR2"
    if isinstance(node, VectorEmbedding):
        return "VECTOR"
    if isinstance(node, (exp.StrToDate, exp.CurrentTimestamp)):
        return "DATE" if not isinstance(node, exp.CurrentTimestamp) or node.args.get("sysdate") else "TIMESTAMP"
    if isinstance(node, exp.Round) and infer_type(node.this, scope) in DATETIME_TYPES:
        return "DATE"  # ROUND(date|timestamp[, fmt]) is a DATE, as TRUNC's is
    if isinstance(node, exp.DateTrunc) and infer_type(node.this, scope) not in (*DATETIME_TYPES, None):
        return "NUMBER"
    if isinstance(node, (exp.DateStrToDate, exp.CurrentDate, exp.AddMonths, exp.LastDay, exp.DateTrunc, exp.NextDay,
                         exp.TimestampTrunc)):
        return "DATE"
    if isinstance(node, (exp.Systimestamp, exp.StrToTime, exp.Localtimestamp)):
        return "TIMESTAMP"
    if isinstance(node, exp.Interval):
        return "INTERVAL"
    if isinstance(node, exp.Extract):
        return "NUMBER"
    if isinstance(node, exp.JSONValue):
        returning = node.args.get("returning")
        if isinstance(returning, exp.DataType) and returning.is_type(*exp.DataType.NUMERIC_TYPES):
            return "NUMBER"
        return "VARCHAR2"
    if isinstance(node, (exp.ToChar, exp.TimeToStr, exp.Pad, exp.Initcap, exp.RegexpReplace, exp.RegexpExtract,
                         exp.Translate,
                         exp.RegexpSubstr, exp.Concat)):
        return "VARCHAR2"
    if isinstance(node, JsonQuery):   # JSON_QUERY of a JSON column is JSON (a dict or list in Python)
        return "JSON" if infer_type(node.this, scope) == "JSON" else "VARCHAR2"
    if isinstance(node, exp.Anonymous):
        name = node.name.lower()
        if name == "json_query" and node.expressions:
            return "JSON" if infer_type(node.expressions[0], scope) == "JSON" else "VARCHAR2"
        if name in _FUNC_TYPES:
            return _FUNC_TYPES[name]
        if name in ("rank", "dense_rank", "ntile"):
            return "NUMBER"
        if name == "trunc" and node.expressions:
            inner = infer_type(node.expressions[0], scope)
            return "DATE" if inner in DATETIME_TYPES else "NUMBER"
    if isinstance(node, (exp.Upper, exp.Lower, exp.Substring, exp.Trim, exp.GroupConcat)):
        return "VARCHAR2"
    if isinstance(node, (exp.Round, exp.Abs, exp.Length, exp.Mod, exp.Trunc, exp.StrPosition, exp.Ceil,
                         exp.Floor, exp.Pow, exp.Sqrt, exp.Sign, exp.Ln, exp.Log, exp.Exp)):
        return "NUMBER"
    return None


def _arith_type(node: exp.Expression, scope: Scope) -> str:
    """Oracle's datetime arithmetic: DATE + n is a DATE, DATE - DATE a NUMBER of days, TIMESTAMP - TIMESTAMP
    an INTERVAL DAY TO SECOND, datetime +/- INTERVAL keeps the datetime's type."""
    left, right = infer_type(node.this, scope), infer_type(node.expression, scope)
    left_dt, right_dt = left in DATETIME_TYPES, right in DATETIME_TYPES
    if isinstance(node, exp.Sub) and left_dt and right_dt:
        return "NUMBER" if left == right == "DATE" else "INTERVAL"
    if left_dt and right == "INTERVAL":
        return left  # type: ignore[return-value]
    if right_dt and left == "INTERVAL" and isinstance(node, exp.Add):
        return right  # type: ignore[return-value]
    if left_dt or (right_dt and isinstance(node, exp.Add)):
        return "DATE"
    if left == right == "INTERVAL":
        return "INTERVAL"
    return "NUMBER"
