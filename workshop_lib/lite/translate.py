"""Oracle SQL -> SQLite SQL: small rewrites over sqlglot's AST.

Each rewrite handles one Oracle construct SQLite lacks (in the spirit of
sqlglot's own ``transforms`` module). The result is a :class:`Plan` (plan.py): the
SQLite text, the bind names, the Oracle types of the result columns, and the
"slots" whose values the connection computes once per execution with numpy or
the text index (vector distances to a constant query vector, Oracle Text
scores) instead of row by row. Column names and types come from scope.py.
Plans are cached per statement text by the connection; DDL is executed by
ddl.py, not here.
"""

from __future__ import annotations

import logging
import re
from typing import Callable

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, UnsupportedError

from .catalog import ColumnType
from . import vector_topk
from .dialect import Oracle, VectorEmbedding
from .error_catalogue import (
    ERR_DATE_LITERAL, ERR_ILLEGAL_FUNCTION_ARGUMENT, ERR_INCONSISTENT_DATATYPES, ERR_INVALID_IDENTIFIER,
    ERR_INVALID_INTERVAL, ERR_INVALID_METRIC, ERR_INVALID_SDO_ATTRIBUTE, ERR_MORE_THAN_ONE_STATEMENT,
    ERR_NOT_ENOUGH_ARGUMENTS, ERR_NOT_ENOUGH_VALUES, ERR_PARSE, ERR_SCORE_WITHOUT_CONTAINS,
    ERR_SPATIAL_INDEX_NEEDED, ERR_TABLE_DOES_NOT_EXIST, ERR_TEXT_COLUMN_NOT_INDEXED, ERR_TEXT_INVALID_LABEL,
    ERR_TEXT_NOT_INDEXED, ERR_TOO_MANY_VALUES, ERR_UNKNOWN_FUNCTION, ERR_UNSUPPORTED,
    ERR_UNSUPPORTED_CONTAINS_CORRELATED, ERR_UNSUPPORTED_CONTAINS_EXPRESSION,
    ERR_UNSUPPORTED_DATE_OF_EXPRESSION, ERR_UNSUPPORTED_DISTANCE_FUNCTION, ERR_UNSUPPORTED_EXTRACT,
    ERR_UNSUPPORTED_FETCH_OPTION, ERR_UNSUPPORTED_INTERVAL_SPAN, ERR_UNSUPPORTED_INTERVAL_SPAN_EXPRESSION,
    ERR_UNSUPPORTED_INTERVAL_UNIT, ERR_UNSUPPORTED_JSON_QUERY_OPTIONS, ERR_UNSUPPORTED_MERGE_CLAUSE,
    ERR_UNSUPPORTED_NUMTOYMINTERVAL, ERR_UNSUPPORTED_RETURNING, ERR_UNSUPPORTED_SCORE_PLACE,
    ERR_UNSUPPORTED_STATEMENT_KIND, ERR_UNSUPPORTED_YM_INTERVAL, error, passthrough,
)
from .formats import NLS_DATE_FORMAT, FormatError, parse_datetime_model
from .plan import Context, EmbedPrefetch, Plan, TextSlot, VectorSlot
from .scope import (
    DATETIME_TYPES, DICTIONARY_VIEWS, _DOTTED, Scope, Source, _source_for_table, build_scope, cte_sources,
    infer_type, name_of, output_columns, table_ref,
)
from .values import format_datetime

METRICS = {"COSINE", "EUCLIDEAN", "EUCLIDEAN_SQUARED", "L2", "L2_SQUARED", "DOT", "MANHATTAN", "L1"}

# Oracle functions that SQLite has under the same name and meaning.
_NATIVE = {
    "ABS", "CEIL", "FLOOR", "LENGTH", "LOWER", "UPPER", "LTRIM", "RTRIM", "TRIM", "REPLACE",
    "SUBSTR", "ROUND", "SQRT", "EXP", "LN", "LOG", "POWER", "SIGN", "SIN", "COS", "TAN",
    "COUNT", "SUM", "AVG", "MIN", "MAX", "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE", "LAG", "LEAD",
    "FIRST_VALUE", "LAST_VALUE", "COALESCE", "NULLIF", "CUME_DIST", "PERCENT_RANK",
}

# Anonymous Oracle function -> lite SQLite function
_RENAMES = {
    "VECTOR_DISTANCE": "ora_vector_distance", "TO_VECTOR": "ora_to_vector", "VECTOR": "ora_to_vector",
    "VECTOR_DIMENSION_COUNT": "ora_vector_dims", "VECTOR_NORM": "ora_vector_norm",
    "SDO_GEOMETRY": "ora_sdo_geometry", "SDO_POINT_TYPE": "ora_sdo_point",
    "SDO_WITHIN_DISTANCE": "ora_sdo_within_distance", "TRUNC": "ora_trunc",
    "SDO_DIM_ARRAY": "ora_sdo_dim_array", "SDO_DIM_ELEMENT": "ora_sdo_dim_element",
    "COSINE_DISTANCE": None, "INNER_PRODUCT": None,
}


class _NoCommandFallbackNoise(logging.Filter):
    """sqlglot logs a warning when it falls back to an opaque Command; lite raises a clear error instead,
    and a notebook check cell must not write to stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Falling back to parsing as a 'Command'" not in record.getMessage()


logging.getLogger("sqlglot").addFilter(_NoCommandFallbackNoise())

_NUMERIC_BIND = re.compile(r"(?<![\w:]):(\d+)\b")
NUMERIC_BIND_PREFIX = "P__"


def _name_numeric_binds(sql: str) -> str:
    """Oracle allows ``:1``-style binds; sqlglot does not, so they become ``:P__1`` (outside literals)."""
    from .guard import _strip_strings

    masked = _strip_strings(sql)
    if not _NUMERIC_BIND.search(masked):
        return sql
    out, last = [], 0
    for match in _NUMERIC_BIND.finditer(masked):
        out.append(sql[last:match.start()])
        out.append(f":{NUMERIC_BIND_PREFIX}{match.group(1)}")
        last = match.end()
    out.append(sql[last:])
    return "".join(out)


def parse(sql: str) -> exp.Expression:
    """Parse one Oracle statement (ORA-00900/00933 style errors on failure)."""
    sql = _name_numeric_binds(sql)
    try:
        statements = sqlglot.parse(sql, dialect=Oracle)
    except ParseError as exc:
        first = exc.errors[0] if exc.errors else {}
        where = f" at line {first.get('line')}, column {first.get('col')}" if first else ""
        desc = first.get("description", str(exc)) if first else str(exc)
        raise error(ERR_PARSE, where=where, description=desc) from None
    statements = [s for s in statements if s is not None]
    if len(statements) != 1:
        raise error(ERR_MORE_THAN_ONE_STATEMENT)
    return statements[0]


# --------------------------------------------------------------------------- rewrites

def _anon(name: str, *args: exp.Expression) -> exp.Anonymous:
    return exp.Anonymous(this=name, expressions=list(args))


def _bottom_up(tree: exp.Expression, fn: Callable[[exp.Expression], exp.Expression]) -> exp.Expression:
    """Apply ``fn`` to every node, children before parents, so rewrites nest (unlike a pruned pre-order walk)."""
    root = tree
    for node in reversed(list(tree.walk(bfs=False))):
        new = fn(node)
        if new is not node:
            if node is root:
                root = new
            else:
                node.replace(new)
    return root


def _oracle_model(node: exp.Expression) -> str:
    """The Oracle format model of TO_DATE/TO_TIMESTAMP (sqlglot keeps it as strftime; map it back)."""
    return Oracle().generator().format_time(node).strip("'")  # type: ignore[union-attr]


def _json_path_text(path: exp.Expression | None) -> str:
    return path.sql(dialect=Oracle).strip("'") if path is not None else "$"


def _optional_args(node: exp.Expression, *names: str) -> list[exp.Expression]:
    """Positional arguments up to the last one given, NULL for the gaps (the SQL functions use defaults)."""
    values = [node.args.get(n) for n in names]
    while values and values[-1] is None:
        values.pop()
    return [v if v is not None else exp.Null() for v in values]


def _ancestors(node: exp.Expression) -> list[exp.Expression]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def _has_column(node: exp.Expression) -> bool:
    """True when ``node`` reads a column (a VECTOR_EMBEDDING model name is not a column)."""
    for column in node.find_all(exp.Column):
        parent = column.parent
        if isinstance(parent, VectorEmbedding) and parent.this is column:
            continue
        return True
    return False


_SIMPLE_JSON_PATH = re.compile(r'^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$')


def _native_json_value(doc: exp.Expression, path: str, *, trusted: bool) -> exp.Expression:
    """JSON_VALUE with SQLite's C json functions: scalars as text, NULL for objects and arrays.

    ``CASE json_type(doc, path) WHEN ... END`` parses the document once for the
    type and once for the value. ``trusted`` documents come from a JSON column
    (validated on write); others are checked with json_valid first, because
    Oracle returns NULL (NULL ON ERROR) where SQLite would raise.
    """
    lit = exp.Literal.string(path)
    case = exp.Case(
        this=_anon("json_type", doc.copy(), lit.copy()),
        ifs=[exp.If(this=exp.Literal.string(k), true=v) for k, v in (
            ("object", exp.Null()), ("array", exp.Null()),
            ("true", exp.Literal.string("true")), ("false", exp.Literal.string("false")))],
        default=exp.Cast(this=_anon("json_extract", doc.copy(), lit.copy()), to=exp.DataType.build("TEXT")),
    )
    if trusted:
        return case
    return exp.Case(ifs=[exp.If(this=_anon("json_valid", doc.copy()), true=case)], default=exp.Null())


def _string(node: exp.Expression) -> exp.Expression:
    """Metric / model names are written as identifiers in Oracle; pass them as text."""
    if isinstance(node, exp.Column) and not node.args.get("table"):
        return exp.Literal.string(name_of(node.this))
    return node


_SDO_ATTRIBUTES = ("SDO_GTYPE", "SDO_SRID", "SDO_POINT.X", "SDO_POINT.Y", "SDO_POINT.Z")
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
_DS_UNITS = ("DAY", "HOUR", "MINUTE", "SECOND")
_DS_SECONDS = {"DAY": 86400.0, "HOUR": 3600.0, "MINUTE": 60.0, "SECOND": 1.0}


def date_literal(text: str, model: str = NLS_DATE_FORMAT, *, timestamp: bool = False) -> exp.Literal:
    """A datetime text checked against ``model`` at translation time, as a stored-form literal.

    Oracle converts a string compared with or assigned to a DATE with
    NLS_DATE_FORMAT (DD-MON-RR), so '2025-01-01' there is ORA-01861: lite
    raises the same error rather than guessing.
    """
    try:
        value = parse_datetime_model(text, model)
    except FormatError as exc:
        raise passthrough(exc.code, str(exc)[11:], ERR_DATE_LITERAL) from None
    return exp.Literal.string(format_datetime(value, timestamp=timestamp))


def _interval_parts(node: exp.Expression) -> tuple[exp.Expression, str] | None:
    """(amount, unit) of an INTERVAL literal or NUMTODSINTERVAL/NUMTOYMINTERVAL call; units YEAR..SECOND."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Anonymous) and node.name.upper() in ("NUMTODSINTERVAL", "NUMTOYMINTERVAL") \
            and len(node.expressions) == 2 and isinstance(node.expressions[1], exp.Literal):
        unit = node.expressions[1].this.upper()
        if unit not in (_DS_UNITS if node.name.upper() == "NUMTODSINTERVAL" else ("YEAR", "MONTH")):
            raise error(ERR_ILLEGAL_FUNCTION_ARGUMENT, function=node.name.upper(), unit=unit)
        return node.expressions[0], unit
    if not isinstance(node, exp.Interval):
        return None
    unit = node.args.get("unit")
    text = node.this.name if isinstance(node.this, exp.Literal) else None
    if isinstance(unit, exp.IntervalSpan):
        first, last = unit.this.name.upper(), unit.expression.name.upper()
        if text is None:
            raise error(ERR_UNSUPPORTED_INTERVAL_SPAN_EXPRESSION)
        if (first, last) == ("YEAR", "MONTH"):
            match = re.fullmatch(r"\s*([+-]?)(\d+)-(\d+)\s*", text)
            if not match:
                raise error(ERR_INVALID_INTERVAL)
            months = int(match.group(2)) * 12 + int(match.group(3))
            return exp.Literal.number(-months if match.group(1) == "-" else months), "MONTH"
        if first in _DS_UNITS and last in _DS_UNITS:
            units = list(_DS_UNITS[_DS_UNITS.index(first):_DS_UNITS.index(last) + 1])
            sign = -1 if text.strip().startswith("-") else 1
            parts = re.split(r"[ :]", text.strip().lstrip("+-"))
            if len(parts) != len(units):
                raise error(ERR_INVALID_INTERVAL)
            seconds = sum(float(p) * _DS_SECONDS[u] for p, u in zip(parts, units))
            return exp.Literal.number(sign * seconds), "SECOND"
        raise error(ERR_UNSUPPORTED_INTERVAL_SPAN, first=first, last=last)
    unit_name = (unit.name if unit is not None else "DAY").upper().rstrip("S")
    if unit_name not in ("YEAR", "MONTH", *_DS_UNITS):
        raise error(ERR_UNSUPPORTED_INTERVAL_UNIT, unit=unit_name)
    return node.this, unit_name


# --------------------------------------------------------------------------- one-to-one rewrites

def rename_func(name: str, *positional: str, optional: tuple[str, ...] = ()) -> Callable[[exp.Expression], exp.Expression]:
    """sqlglot's ``rename_func`` for lite: ``node`` becomes ``name(<positional args>, <optional args>)``.

    ``positional`` names the node's arguments always passed; ``optional`` names
    further ones passed up to the last one given, NULL for the gaps (the ora_*
    functions use their defaults).
    """
    def rewrite(node: exp.Expression) -> exp.Expression:
        return _anon(name, *(node.args.get(arg) for arg in positional), *_optional_args(node, *optional))
    return rewrite


def _with_if_given(name: str, arg: str) -> Callable[[exp.Expression], exp.Expression]:
    """``name(this [, <arg>])``: the argument is passed only when written."""
    return lambda node: _anon(name, node.this, *([node.args[arg]] if node.args.get(arg) else []))


def _date_of_literal(node: exp.Expression) -> exp.Expression:
    if not (isinstance(node.this, exp.Literal) and node.this.is_string):
        raise error(ERR_UNSUPPORTED_DATE_OF_EXPRESSION)
    return date_literal(node.this.this, "YYYY-MM-DD")


def _greatest_least(node: exp.Expression) -> exp.Expression:
    args = [node.this, *node.expressions]
    if len(args) == 1:
        return args[0]
    # SQLite's multi-argument max()/min() return NULL when any argument is NULL, as Oracle does.
    return _anon("max" if isinstance(node, exp.Greatest) else "min", *args)


def _pad(node: exp.Expression) -> exp.Expression:
    fn = "ora_lpad" if node.args.get("is_left") else "ora_rpad"
    return _anon(fn, node.this, node.expression,
                 *([node.args["fill_pattern"]] if node.args.get("fill_pattern") else []))


def _instr(node: exp.Expression) -> exp.Expression:
    args = [node.this, node.args["substr"]]
    if node.args.get("position"):
        args.append(node.args["position"])
    if node.args.get("occurrence"):
        args.append(node.args["occurrence"])
    return _anon("ora_instr", *args)


def _str_to(fn: str) -> Callable[[exp.Expression], exp.Expression]:
    """TO_DATE / TO_TIMESTAMP: the format, when given, as the Oracle model text."""
    return lambda node: _anon(fn, node.this, *([exp.Literal.string(_oracle_model(node))]
                                               if node.args.get("format") else []))


def _to_char(node: exp.Expression) -> exp.Expression:
    fmt = node.args.get("format")
    return _anon("ora_to_char", node.this, fmt if fmt is not None else exp.Null())


def _trunc_date(node: exp.Expression) -> exp.Expression:
    unit = node.args.get("unit")
    return _anon("ora_trunc_date", node.this, unit if unit is not None else exp.Literal.string("DD"))


_REGEXP_SUBSTR_ARGS = ("position", "occurrence", "parameters", "group")

#: sqlglot node class -> its SQLite form, for rewrites that need only the node itself (sqlglot's
#: Generator.TRANSFORMS). Rewrites that need scopes, types or slots stay in the Translator.
TRANSFORMS: dict[type[exp.Expression], Callable[[exp.Expression], exp.Expression]] = {
    exp.CurrentTimestamp: lambda node: _anon("ora_sysdate" if node.args.get("sysdate") else "ora_systimestamp"),
    exp.Systimestamp: lambda node: _anon("ora_systimestamp"),
    exp.Localtimestamp: lambda node: _anon("ora_systimestamp"),
    exp.CurrentDate: lambda node: _anon("ora_sysdate"),
    exp.StrToDate: _str_to("ora_to_date"),
    exp.StrToTime: _str_to("ora_to_timestamp"),
    exp.DateStrToDate: _date_of_literal,
    exp.ToChar: _to_char,
    exp.TimeToStr: _to_char,
    exp.ToNumber: _with_if_given("ora_to_number", "format"),
    exp.DateTrunc: _trunc_date,
    exp.TimestampTrunc: _trunc_date,
    exp.Trunc: _with_if_given("ora_trunc", "decimals"),
    exp.AddMonths: rename_func("ora_add_months", "this", "expression"),
    exp.MonthsBetween: rename_func("ora_months_between", "this", "expression"),
    exp.LastDay: rename_func("ora_last_day", "this"),
    exp.Initcap: rename_func("ora_initcap", "this"),
    exp.RegexpLike: rename_func("ora_regexp_like", "this", "expression", optional=("flag",)),
    exp.RegexpSubstr: rename_func("ora_regexp_substr", "this", "expression", optional=_REGEXP_SUBSTR_ARGS),
    exp.RegexpExtract: rename_func("ora_regexp_substr", "this", "expression", optional=_REGEXP_SUBSTR_ARGS),
    exp.RegexpReplace: rename_func("ora_regexp_replace", "this", "expression",
                                   optional=("replacement", "position", "occurrence", "modifiers")),
    exp.RegexpCount: rename_func("ora_regexp_count", "this", "expression", optional=("position", "parameters")),
    exp.Greatest: _greatest_least,
    exp.Least: _greatest_least,
    exp.JSONExists: lambda node: _anon("ora_json_exists", node.this,
                                       exp.Literal.string(_json_path_text(node.args.get("path")))),
    exp.Pad: _pad,
    exp.StrPosition: _instr,
}


def _transform_for(node: exp.Expression) -> Callable[[exp.Expression], exp.Expression] | None:
    for cls in type(node).__mro__:
        transform = TRANSFORMS.get(cls)
        if transform is not None:
            return transform
    return None


class Translator:
    """Translate one parsed Oracle statement into a Plan."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._scopes: dict[int, Scope] = {}
        self.vector_slots: list[VectorSlot] = []
        self.prunes: list[tuple[VectorSlot, exp.Select]] = []
        self.text_slots: list[TextSlot] = []
        self.prefetch: list[EmbedPrefetch] = []
        self.labels: dict[int, TextSlot] = {}

    # -- entry point
    def plan(self, tree: exp.Expression) -> Plan:
        if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)) and tree.args.get("returning"):
            raise error(ERR_UNSUPPORTED_RETURNING)
        if isinstance(tree, (exp.Select, exp.SetOperation, exp.Subquery)):
            return self._plan_query(tree)
        if isinstance(tree, exp.Insert):
            return self._plan_insert(tree)
        if isinstance(tree, exp.Update):
            return self._plan_update(tree)
        if isinstance(tree, exp.Delete):
            return self._plan_delete(tree)
        if isinstance(tree, exp.Merge):
            return self._plan_merge(tree)
        raise error(ERR_UNSUPPORTED_STATEMENT_KIND, kind=type(tree).__name__.upper())

    def _finish(self, kind: str, sql: list[str], tree: exp.Expression, **kw: object) -> Plan:
        for slot, block in self.prunes:  # rendered now that the whole tree is rewritten
            slot.prune_sql = self._sqlite(block)
            slot.limit_sql = self._sqlite(vector_topk.limit_count(block))
        binds: list[str] = []
        for ph in tree.find_all(exp.Placeholder):
            name = ph.name.upper()
            if name and name not in binds:
                binds.append(name)
        return Plan(kind, sql, binds, vector_slots=self.vector_slots, text_slots=self.text_slots,
                    prefetch=self.prefetch, **kw)  # type: ignore[arg-type]

    def _plan_query(self, tree: exp.Expression) -> Plan:
        columns = output_columns(self.ctx, tree)
        star = any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star))
                   for s in tree.find_all(exp.Select) if s is tree or s.parent is None for p in s.expressions)
        out = self.rewrite(tree.copy())
        return self._finish("SELECT", [self._sqlite(out)], tree, columns=columns, star=star)

    # -- DML
    def _target(self, table: exp.Table) -> tuple[str, str, dict[str, ColumnType]]:
        owner, name = table_ref(table, self.ctx.user)
        cols = self.ctx.columns_of(owner, name)
        if not cols:
            raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=name)
        return owner, name, cols

    def _coerce(self, value: exp.Expression, ctype: ColumnType | None) -> exp.Expression:
        """Wrap a value written to a JSON/VECTOR column so it is validated and stored canonically."""
        if ctype is None:
            return value
        if ctype.type_class == "JSON":
            if isinstance(value, exp.Anonymous) and value.name.upper() == "JSON":
                value = value.expressions[0]
            return _anon("ora_json_text", value)
        if ctype.type_class == "VECTOR":
            dims = exp.Literal.number(ctype.vector_dim) if ctype.vector_dim else exp.Null()
            fmt = exp.Literal.string(ctype.vector_format) if ctype.vector_format else exp.Null()
            return _anon("ora_to_vector", value, dims, fmt)
        if ctype.type_class in DATETIME_TYPES:
            if isinstance(value, exp.Literal) and value.is_string:
                return date_literal(value.this, timestamp=ctype.type_class == "TIMESTAMP")
            if isinstance(value, exp.Null):
                return value
            return _anon("ora_as_date" if ctype.type_class == "DATE" else "ora_as_timestamp", value)
        return value

    def _plan_insert(self, tree: exp.Insert) -> Plan:
        target = tree.this
        schema_cols: list[str] | None = None
        if isinstance(target, exp.Schema):
            schema_cols = [name_of(c) for c in target.expressions]
            table = target.this
        else:
            table = target
        owner, name, cols = self._target(table)
        names = schema_cols or list(cols)
        for col in names:
            if col not in cols:
                raise error(ERR_INVALID_IDENTIFIER, name=col)
        tree = tree.copy()
        source = tree.expression
        if isinstance(source, exp.Values):
            for row in source.expressions:
                values = row.expressions
                if len(values) != len(names):
                    raise error(ERR_TOO_MANY_VALUES if len(values) > len(names) else ERR_NOT_ENOUGH_VALUES)
                for i, value in enumerate(values):
                    value.replace(self._coerce(value.copy(), cols.get(names[i])))
        elif isinstance(source, (exp.Select, exp.SetOperation, exp.Subquery)):
            select = source.this if isinstance(source, exp.Subquery) else source
            if isinstance(select, exp.Select):
                for i, proj in enumerate(select.expressions):
                    if i < len(names) and cols.get(names[i]) and cols[names[i]].type_class in (
                            "JSON", "VECTOR", *DATETIME_TYPES):
                        inner = proj.this if isinstance(proj, exp.Alias) else proj
                        inner.replace(self._coerce(inner.copy(), cols[names[i]]))
        self._qualify_target(table, owner, name)
        out = self.rewrite(tree)
        return self._finish("INSERT", [self._sqlite(out)], tree, target=(owner, name))

    def _plan_update(self, tree: exp.Update) -> Plan:
        owner, name, cols = self._target(tree.this)
        tree = tree.copy()
        for assign in tree.expressions:
            col = name_of(assign.this.this if isinstance(assign.this, exp.Column) else assign.this)
            if col not in cols:
                raise error(ERR_INVALID_IDENTIFIER, name=col)
            assign.set("expression", self._coerce(assign.expression, cols[col]))
            if isinstance(assign.this, exp.Column) and assign.this.args.get("table"):
                assign.this.set("table", None)
        self._qualify_target(tree.this, owner, name)
        out = self.rewrite(tree)
        return self._finish("UPDATE", [self._sqlite(out)], tree, target=(owner, name))

    def _plan_delete(self, tree: exp.Delete) -> Plan:
        owner, name, _ = self._target(tree.this)
        tree = tree.copy()
        self._qualify_target(tree.this, owner, name)
        out = self.rewrite(tree)
        return self._finish("DELETE", [self._sqlite(out)], tree, target=(owner, name))

    def _plan_merge(self, tree: exp.Merge) -> Plan:
        """MERGE = UPDATE ... FROM for matched rows, then INSERT ... SELECT for the rest."""
        target = tree.this
        owner, name, cols = self._target(target)
        t_alias = name_of(target.args["alias"].this) if target.args.get("alias") else name
        using = tree.args["using"]
        on = tree.args["on"]
        if isinstance(on, exp.Paren):
            on = on.this
        s_alias = name_of(using.args["alias"].this) if using.args.get("alias") else (
            name_of(using.this) if isinstance(using, exp.Table) else "S")
        source_sql = self._sqlite(self.rewrite(using.copy())) if isinstance(using, exp.Subquery) else None
        if isinstance(using, exp.Table):
            probe = using.copy()
            probe.set("alias", None)
            self._rewrite_tables(probe)
            source_sql = self._sqlite(probe)
        else:
            source_sql = re.sub(r"\s+AS\s+\S+$", "", source_sql or "")
        statements: list[str] = []
        whens = tree.args["whens"].expressions if tree.args.get("whens") else []
        qualified = f'"{"main" if owner == self.ctx.user else owner}"."{name}"'
        for when in whens:
            then = when.args["then"]
            matched = when.args.get("matched")
            condition = when.args.get("condition")
            if matched and isinstance(then, exp.Update):
                sets = []
                for assign in then.expressions:
                    col = name_of(assign.this.this if isinstance(assign.this, exp.Column) else assign.this)
                    value = self._coerce(assign.expression.copy(), cols.get(col))
                    sets.append(f'"{col}" = {self._sqlite(self.rewrite(value))}')
                on_sql = self._sqlite(self.rewrite(on.copy()))
                extra = f" AND ({self._sqlite(self.rewrite(condition.copy()))})" if condition else ""
                statements.append(
                    f"UPDATE {qualified} AS \"{t_alias}\" SET {', '.join(sets)} "
                    f"FROM {source_sql} AS \"{s_alias}\" WHERE {on_sql}{extra}")
            elif not matched and isinstance(then, exp.Insert):
                names = [name_of(c) for c in then.this.expressions] if isinstance(then.this, exp.Tuple) or (
                    then.this is not None and hasattr(then.this, "expressions") and then.this.expressions) else list(cols)
                values = then.expression.expressions if isinstance(then.expression, exp.Tuple) else [then.expression]
                vals = [self._sqlite(self.rewrite(self._coerce(v.copy(), cols.get(names[i]))))
                        for i, v in enumerate(values)]
                on_sql = self._sqlite(self.rewrite(on.copy()))
                col_list = ", ".join(f'"{n}"' for n in names)
                statements.append(
                    f"INSERT INTO {qualified} ({col_list}) SELECT {', '.join(vals)} FROM {source_sql} AS \"{s_alias}\" "
                    f"WHERE NOT EXISTS (SELECT 1 FROM {qualified} AS \"{t_alias}\" WHERE {on_sql})")
            else:
                raise error(ERR_UNSUPPORTED_MERGE_CLAUSE)
        return self._finish("MERGE", statements, tree, target=(owner, name))

    def _qualify_target(self, table: exp.Table, owner: str, name: str) -> None:
        if not table.args.get("db") and name in DICTIONARY_VIEWS:
            # USER_SDO_GEOM_METADATA: a per-connection view whose triggers do the write (catalog.view_triggers)
            table.set("this", exp.to_identifier(name, quoted=True))
            return
        table.set("db", exp.to_identifier(owner, quoted=True))
        table.set("this", exp.to_identifier(name, quoted=True))

    # -- expression rewrites
    def rewrite(self, tree: exp.Expression) -> exp.Expression:
        """Apply every rewrite to ``tree`` (in place where possible) and return it."""
        self._rewrite_special(tree)   # needs the original table names for scopes
        self._rewrite_tables(tree)
        return _bottom_up(tree, self._rewrite_node)

    def _rewrite_tables(self, tree: exp.Expression) -> None:
        cte_names: set[str] = set()
        for with_ in tree.find_all(exp.With):
            for cte in with_.expressions:
                cte_names.add(name_of(cte.args["alias"].this))
        for table in list(tree.find_all(exp.Table)):
            if not isinstance(table.this, exp.Identifier):
                continue
            name = name_of(table.this)
            db = name_of(table.args.get("db")) if table.args.get("db") else None
            if db in (None, "SYS") and name in DICTIONARY_VIEWS:
                table.set("db", None)
                table.set("this", exp.to_identifier(name, quoted=True))
                continue
            if db is None and name in cte_names:
                continue
            owner = db or self.ctx.user
            table.set("db", exp.to_identifier("main" if owner == self.ctx.user else owner, quoted=False))
            table.set("this", exp.to_identifier(name, quoted=True))

    def _column_source(self, column: exp.Column) -> tuple[str, str, str, str] | None:
        """(owner, table, column, alias) of a base-table column, for the slot rewrites."""
        if column.find_ancestor(exp.Select) is None:
            return None
        scope = self._scope_for(column)
        src, name = scope.resolve(column)
        if src is None or src.owner is None:
            return None
        qualifier = name_of(column.args.get("table")) if column.args.get("table") else None
        if qualifier is None:
            probe: Scope | None = scope
            while probe is not None and qualifier is None:
                for alias in probe.order:
                    if probe.sources[alias] is src:
                        qualifier = alias
                probe = probe.outer
        return src.owner, src.table or "", name, qualifier or ""

    def _rewrite_special(self, tree: exp.Expression) -> None:
        """Slot rewrites that need scope information (run before tables are renamed in output)."""
        self._scopes = {}
        for node in list(tree.find_all(exp.Anonymous)):
            fname = node.name.upper()
            if fname == "VECTOR_DISTANCE":
                self._vector_distance(node)
        for node in list(tree.find_all(exp.Contains)):
            self._contains(node)
        for node in list(tree.find_all(exp.Anonymous)):
            if node.name.upper() == "SCORE":
                self._score(node)
            elif node.name.upper() == "SDO_WITHIN_DISTANCE":
                self._spatial_operator(node)
        for node in list(tree.find_all(VectorEmbedding)):
            self._embedding_prefetch(node)
        for node in reversed(list(tree.walk(bfs=False))):
            if isinstance(node, (exp.Add, exp.Sub)):
                self._datetime_arith(node)
            elif isinstance(node, _COMPARISONS + (exp.Between, exp.In)):
                self._datetime_comparison(node)
            elif isinstance(node, (exp.ToChar, exp.TimeToStr)):
                self._to_char(node)
            elif isinstance(node, exp.Extract):
                self._extract(node)
            elif isinstance(node, exp.JSONValue) and self._type(node.this) == "JSON":
                node.meta["json_column"] = True  # validated on write: the C fast path needs no json_valid
            elif isinstance(node, exp.Cast):
                self._cast(node)
            elif isinstance(node, exp.DateTrunc) and self._type(node.this) not in (*DATETIME_TYPES, None):
                # sqlglot reads TRUNC(<expression>) as a date TRUNC when it cannot tell; numbers truncate.
                node.replace(_anon("ora_trunc", node.this))
            elif isinstance(node, exp.Column) and node.args.get("db") is not None:
                self._object_attribute(node)
            elif isinstance(node, exp.Column) and not node.args.get("table") and name_of(node.this) == "USER" \
                    and not isinstance(node.this, exp.Star):
                if self._scope_for(node).resolve(node)[0] is None:
                    node.replace(exp.Literal.string(self.ctx.user))

    # -- datetime rewrites (they need the types of columns, hence a scope)
    def _scope_for(self, node: exp.Expression) -> Scope:
        """The scope ``node`` is evaluated in: its SELECT (with enclosing CTEs and queries), or a DML target."""
        select = node.find_ancestor(exp.Select)
        key = id(select) if select is not None else id(node.root())
        cached = self._scopes.get(key)
        if cached is not None:
            return cached
        outer: Scope | None = None
        holder = select.parent if select is not None else None
        enclosing = holder.find_ancestor(exp.Select) if holder is not None else None
        if enclosing is not None:
            outer = self._scope_for(holder)
        ctes: dict[str, Source] = {}
        chain = [a for a in ([select] if select is not None else []) + list(_ancestors(select or node))]
        for anc in reversed(chain):
            if isinstance(anc, (exp.Select, exp.SetOperation)) and anc.args.get("with_"):
                ctes = cte_sources(self.ctx, anc, ctes)
        if select is not None:
            scope = build_scope(self.ctx, select, ctes)
            scope.outer = outer or self._dml_scope(select)
        else:
            scope = self._dml_scope(node) or Scope(self.ctx, ctes)
        self._scopes[key] = scope
        return scope

    def _dml_scope(self, node: exp.Expression) -> Scope | None:
        stmt = node.root()
        if isinstance(stmt, (exp.Update, exp.Delete)) and isinstance(stmt.this, exp.Table):
            scope = Scope(self.ctx, {})
            table = stmt.this
            alias = name_of(table.args["alias"].this) if table.args.get("alias") else name_of(table.this)
            scope.add(alias, _source_for_table(self.ctx, table, {}))
            return scope
        return None

    def _type(self, node: exp.Expression) -> str | None:
        return infer_type(node, self._scope_for(node))

    def _datetime_arith(self, node: exp.Expression) -> None:
        left, right = node.this, node.expression
        lt, rt = self._type(left), self._type(right)
        sub = isinstance(node, exp.Sub)
        if lt not in DATETIME_TYPES and (sub or rt not in DATETIME_TYPES):
            if "INTERVAL" in (lt, rt) and (_interval_parts(left) or _interval_parts(right)) \
                    and lt != rt and None not in (lt, rt):
                raise error(ERR_INCONSISTENT_DATATYPES, expected="DATE or TIMESTAMP", got=lt or rt)
            return
        if sub and lt in DATETIME_TYPES and rt in DATETIME_TYPES:
            fn = "ora_days_between" if lt == rt == "DATE" else "ora_seconds_between"
            node.replace(_anon(fn, left, right))
            return
        if lt not in DATETIME_TYPES:  # n + date, INTERVAL + date
            left, right, lt, rt = right, left, rt, lt
        parts = _interval_parts(right)
        if parts is None and rt == "INTERVAL":
            parts = (right, "SECOND")
        if parts is not None:
            amount, unit = parts
            if sub:
                amount = exp.Neg(this=exp.Paren(this=amount))
            fn = "ora_ts_add_interval" if lt == "TIMESTAMP" else "ora_date_add_interval"
            node.replace(_anon(fn, left, amount, exp.Literal.string(unit)))
            return
        if rt in ("VARCHAR2", "CHAR", "CLOB", "JSON", "VECTOR", "SDO_GEOMETRY"):
            raise error(ERR_INCONSISTENT_DATATYPES, expected="NUMBER", got=rt)
        amount = exp.Neg(this=exp.Paren(this=right)) if sub else right
        node.replace(_anon("ora_date_add", left, amount))

    def _datetime_comparison(self, node: exp.Expression) -> None:
        if isinstance(node, exp.Between):
            operands = [node.this, node.args.get("low"), node.args.get("high")]
        elif isinstance(node, exp.In):
            operands = [node.this, *node.expressions]
        else:
            operands = [node.this, node.expression]
        types = [self._type(o) if o is not None and not (isinstance(o, exp.Literal) and o.is_string) else None
                 for o in operands]
        target = next((t for t in types if t in DATETIME_TYPES), None)
        if target is None:
            return
        for operand in operands:
            if isinstance(operand, exp.Literal) and operand.is_string:
                operand.replace(date_literal(operand.this, timestamp=target == "TIMESTAMP"))

    def _to_char(self, node: exp.Expression) -> None:
        fmt = node.args.get("format")
        kind = self._type(node.this)
        node.replace(_anon("ora_to_char", node.this, fmt if fmt is not None else exp.Null(),
                           exp.Literal.string(kind) if kind else exp.Null()))

    def _object_attribute(self, node: exp.Column) -> None:
        """alias.geometry_column.SDO_POINT.X (Oracle object attribute access, which needs the table alias)."""
        parts = [name_of(node.args[k]) for k in ("catalog", "db", "table") if node.args.get(k) is not None]
        parts.append(name_of(node.this))
        scope = self._scope_for(node)
        source = scope.sources.get(parts[0])
        column_type = dict(source.columns).get(parts[1]) if source is not None else None
        if column_type != "SDO_GEOMETRY":
            return  # not an object attribute: left for the usual column resolution (and its ORA-00904)
        path = ".".join(parts[2:])
        if path not in _SDO_ATTRIBUTES:
            raise error(ERR_INVALID_SDO_ATTRIBUTE, alias=parts[0], column=parts[1], path=path)
        column = exp.Column(this=exp.to_identifier(parts[1]), table=exp.to_identifier(parts[0]))
        node.replace(_anon("ora_sdo_attribute", column, exp.Literal.string(path)))

    def _cast(self, node: exp.Cast) -> None:
        """CAST to or from DATE/TIMESTAMP: SQLite's CAST would turn the stored text into a number."""
        target = node.args["to"].sql(dialect=Oracle).upper()
        kind = self._type(node.this)
        if target.startswith(("DATE", "TIMESTAMP")):
            if isinstance(node.this, exp.Literal) and node.this.is_string:
                node.replace(date_literal(node.this.this, timestamp=target.startswith("TIMESTAMP")))
            elif kind not in (None, "DATE", "TIMESTAMP", "VARCHAR2", "CHAR", "CLOB"):
                raise error(ERR_INCONSISTENT_DATATYPES, expected=target.split("(")[0], got=kind)
            else:
                node.replace(_anon("ora_as_date" if target.startswith("DATE") else "ora_as_timestamp", node.this))
        elif kind in DATETIME_TYPES:
            if target.startswith(("VARCHAR", "CHAR", "NVARCHAR", "CLOB")):
                node.replace(_anon("ora_to_char", node.this, exp.Null(), exp.Literal.string(kind)))
            else:
                raise error(ERR_INCONSISTENT_DATATYPES, expected=target.split("(")[0], got=kind)

    def _extract(self, node: exp.Extract) -> None:
        unit = node.this.name.upper()
        kind = self._type(node.expression)
        fn = "ora_interval_part" if kind == "INTERVAL" else "ora_date_part"
        if unit not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
            raise error(ERR_UNSUPPORTED_EXTRACT, unit=unit)
        node.replace(_anon(fn, node.expression, exp.Literal.string(unit)))

    def _vector_distance(self, node: exp.Anonymous) -> None:
        args = node.expressions
        if len(args) < 2:
            raise error(ERR_NOT_ENOUGH_ARGUMENTS, function="VECTOR_DISTANCE")
        metric = name_of(args[2]) if len(args) > 2 else "COSINE"
        if metric not in METRICS:
            raise error(ERR_INVALID_METRIC, metric=metric)
        for col_side, const_side in ((args[0], args[1]), (args[1], args[0])):
            if isinstance(col_side, exp.Column) and not _has_column(const_side):
                ref = self._column_source(col_side)
                if ref is None:
                    continue
                owner, table, column, alias = ref
                slot = VectorSlot(self.ctx.next_slot(), owner, table, column,
                                  self._sqlite(self.rewrite(const_side.copy())), metric)
                self.vector_slots.append(slot)
                rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
                lookup = _anon("ora_vd_lookup", exp.Literal.number(slot.slot), rowid)
                node.replace(lookup)
                block = vector_topk.prunable_block(lookup, alias)
                if block is not None and not any(s is block for _, s in self.prunes):
                    block.where(vector_topk.restriction(slot.slot, alias), copy=False)
                    self.prunes.append((slot, block))
                return
        node.set("expressions", [args[0], args[1], exp.Literal.string(metric)])

    def _contains(self, node: exp.Contains) -> None:
        column = node.this
        query = node.expression
        label = None
        label_node = node.args.get("json_scope")  # sqlglot keeps CONTAINS' third argument here
        if label_node is not None:
            if not (isinstance(label_node, exp.Literal) and not label_node.is_string):
                raise error(ERR_TEXT_INVALID_LABEL)
            label = int(label_node.this)
        if not isinstance(column, exp.Column):
            raise error(ERR_UNSUPPORTED_CONTAINS_EXPRESSION)
        ref = self._column_source(column)
        if ref is None:
            raise error(ERR_TEXT_NOT_INDEXED)
        owner, table, col, alias = ref
        if not self.ctx.text_index_on(owner, table, col):
            raise error(ERR_TEXT_COLUMN_NOT_INDEXED, owner=owner, table=table, column=col,
                        table_lower=table.lower(), column_lower=col.lower())
        if _has_column(query):
            raise error(ERR_UNSUPPORTED_CONTAINS_CORRELATED)
        slot = TextSlot(self.ctx.next_slot(), owner, table, col, self._sqlite(self.rewrite(query.copy())), label)
        self.text_slots.append(slot)
        if label is not None:
            self.labels[label] = slot
        rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
        call = _anon("ora_ctx_score", exp.Literal.number(slot.slot), rowid)
        parent = node.parent
        # CONTAINS(...) > 0 is by far the usual form: make it an index-driven rowid set.
        if isinstance(parent, exp.GT) and parent.this is node and isinstance(parent.expression, exp.Literal) \
                and parent.expression.this == "0":
            members = exp.select("value").from_(
                exp.Anonymous(this="json_each", expressions=[_anon("ora_ctx_rowids", exp.Literal.number(slot.slot))]))
            parent.replace(exp.In(this=rowid.copy(), query=exp.Subquery(this=members)))
            return
        node.replace(call)

    def _spatial_operator(self, node: exp.Anonymous) -> None:
        """SDO_WITHIN_DISTANCE's first argument must be a column with a spatial index (ORA-13226 otherwise)."""
        first = node.expressions[0] if node.expressions else None
        if isinstance(first, exp.Column):
            ref = self._column_source(first)
            if ref is None:
                return  # a derived table's column (or a DML statement's): Oracle may still reach the index
            owner, table, col, _alias = ref
            ctype = self.ctx.columns_of(owner, table).get(col)
            if ctype is None or ctype.type_class != "SDO_GEOMETRY" or ctype.spatial_index:
                return
            where = f"{owner}.{table}.{col}"
        else:
            where = "the first argument is not a table column"
        raise error(ERR_SPATIAL_INDEX_NEEDED, where=where)

    def _score(self, node: exp.Anonymous) -> None:
        args = node.expressions
        label = int(args[0].this) if args and isinstance(args[0], exp.Literal) else None
        slot = self.labels.get(label) if label is not None else None
        if slot is None:
            raise error(ERR_SCORE_WITHOUT_CONTAINS, label=label)
        select = node.find_ancestor(exp.Select)
        alias = None
        if select is not None:
            scope = self._scope_for(node)
            for name in scope.order:
                src = scope.sources[name]
                if src.owner == slot.owner and src.table == slot.table:
                    alias = name
        if alias is None:
            raise error(ERR_UNSUPPORTED_SCORE_PLACE)
        rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
        node.replace(_anon("ora_ctx_score", exp.Literal.number(slot.slot), rowid))

    def _embedding_prefetch(self, node: VectorEmbedding) -> None:
        model = name_of(node.this.this if isinstance(node.this, exp.Column) else node.this)
        data = node.expression
        if isinstance(data, exp.Placeholder):
            self.prefetch.append(EmbedPrefetch(model, bind=data.name.upper()))
            return
        if not _has_column(data):
            return  # constant: computed once and cached
        select = node.find_ancestor(exp.Select)
        if select is None or select.find_ancestor(exp.Select) is not None:
            return
        probe = select.copy()
        probe.set("expressions", [data.copy()])
        for key in ("order", "limit", "offset", "group", "having", "distinct", "with_"):
            probe.set(key, None)
        try:
            self._rewrite_tables(probe)
            sql = to_sqlite(_bottom_up(probe, self._rewrite_node))
        except Exception:  # noqa: BLE001 - prefetch is only an optimisation
            return
        self.prefetch.append(EmbedPrefetch(model, query_sql=sql))

    def _rewrite_node(self, node: exp.Expression) -> exp.Expression:
        if isinstance(node, VectorEmbedding):
            model = name_of(node.this.this if isinstance(node.this, exp.Column) else node.this)
            return _anon("ora_vector_embedding", exp.Literal.string(model), node.expression)
        if isinstance(node, exp.Placeholder):
            return exp.Placeholder(this=node.name.upper())
        if isinstance(node, exp.Anonymous):
            return self._anonymous(node)
        if isinstance(node, exp.Dot) and isinstance(node.this, exp.Identifier) and isinstance(
                node.expression, exp.Anonymous):
            key = (name_of(node.this), node.expression.name.upper())
            if key in _DOTTED:
                return _anon(_DOTTED[key], *node.expression.expressions)
            raise error(ERR_UNSUPPORTED, construct=f"{key[0]}.{key[1]}")
        if isinstance(node, exp.JSONValue):
            path_text = _json_path_text(node.args.get("path"))
            if _SIMPLE_JSON_PATH.match(path_text):
                call = _native_json_value(node.this, path_text, trusted=bool(node.meta.get("json_column")))
            else:
                call = _anon("ora_json_value", node.this, exp.Literal.string(path_text))
            returning = node.args.get("returning")
            if isinstance(returning, exp.Expression) and returning.sql(dialect=Oracle).upper().startswith(("NUMBER", "DECIMAL")):
                return exp.Cast(this=call, to=exp.DataType.build("DOUBLE"))
            return call
        transform = _transform_for(node)
        if transform is not None:
            return transform(node)
        if isinstance(node, exp.Fetch):
            options = node.args.get("limit_options")
            if options is not None and (options.args.get("percent") or options.args.get("with_ties")):
                raise error(ERR_UNSUPPORTED_FETCH_OPTION,
                            option="PERCENT" if options.args.get("percent") else "WITH TIES")
            return node
        if isinstance(node, exp.Interval):
            parts = _interval_parts(node)
            assert parts is not None
            if parts[1] in ("YEAR", "MONTH"):
                raise error(ERR_UNSUPPORTED_YM_INTERVAL)
            return _anon("ora_interval", parts[0], exp.Literal.string(parts[1]))
        if isinstance(node, exp.Extract):
            unit = node.this.name.upper()
            if unit not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
                raise error(ERR_UNSUPPORTED_EXTRACT, unit=unit)
            return _anon("ora_date_part", node.expression, exp.Literal.string(unit))
        if isinstance(node, exp.GroupConcat):
            inner = node.this
            if isinstance(inner, exp.Order):
                inner = inner.this  # SQLite 3.40 has no ORDER BY inside aggregates
            sep = node.args.get("separator") or exp.Literal.string("")
            return exp.GroupConcat(this=inner, separator=sep)
        if isinstance(node, exp.Literal) and node.is_string and node.this == "":
            return exp.Null()
        return node

    def _anonymous(self, node: exp.Anonymous) -> exp.Expression:
        fname = node.name.upper()
        if isinstance(node.parent, exp.Dot) and node.parent.expression is node:
            return node  # PACKAGE.FUNCTION(...): rewritten with its Dot
        if fname == "JSON_QUERY":
            if len(node.expressions) != 2 or not isinstance(node.expressions[1], exp.Literal):
                raise error(ERR_UNSUPPORTED_JSON_QUERY_OPTIONS)
            return _anon("ora_json_query", *node.expressions)
        if fname in ("NUMTODSINTERVAL", "NUMTOYMINTERVAL"):
            amount, unit = _interval_parts(node)  # type: ignore[misc]
            if unit in ("YEAR", "MONTH"):
                raise error(ERR_UNSUPPORTED_NUMTOYMINTERVAL)
            return _anon("ora_interval", amount, exp.Literal.string(unit))
        if fname.startswith("ORA_") or fname in ("JSON_EACH", "STRFTIME"):
            return node
        if fname in _RENAMES:
            target = _RENAMES[fname]
            if target is None:
                raise error(ERR_UNSUPPORTED_DISTANCE_FUNCTION, function=fname)
            args = list(node.expressions)
            if fname in ("TO_VECTOR", "VECTOR"):
                # TO_VECTOR(text [, dimensions [, format]]): format and * are written as identifiers
                args = args[:1] + [exp.Null() if isinstance(a, exp.Star) else _string(a) for a in args[1:3]]
            return _anon(target, *args)
        if fname == "JSON":
            return _anon("ora_json_text", *node.expressions)
        if fname in _NATIVE:
            return node
        raise error(ERR_UNKNOWN_FUNCTION, name=fname)

    def _sqlite(self, tree: exp.Expression) -> str:
        return to_sqlite(tree)


def to_sqlite(tree: exp.Expression) -> str:
    """Render a rewritten tree as SQLite SQL; a construct SQLite cannot express is an error, never a guess."""
    try:
        return tree.sql(dialect="sqlite", unsupported_level=ErrorLevel.RAISE)
    except UnsupportedError as exc:
        raise error(ERR_UNSUPPORTED, construct=str(exc).strip().splitlines()[0][:200]) from None


def translate(sql: str, ctx: Context) -> Plan:
    """Parse and translate one Oracle DML/query statement into a Plan."""
    tree = parse(sql)
    return Translator(ctx).plan(tree)
