"""Lite's rewrites that need only the node itself: sqlglot's ``TRANSFORMS`` and ``transforms.preprocess`` shapes.

Two kinds, both pure functions over sqlglot's syntax tree (no catalog, no
scopes, no types; those rewrites stay in translate.py's ``Translator``):

* ``TRANSFORMS`` maps a sqlglot node class to its one-to-one SQLite form
  (sqlglot's ``Generator.TRANSFORMS`` with ``rename_func``);
* named **passes** (``PASSES``, chained by :func:`preprocess` like sqlglot's
  ``transforms.preprocess([...])``) for the structural rewrites: one Oracle
  construct each, with a docstring saying what Oracle means and what SQLite is
  given instead; :func:`unsupported_args` refuses the parts of a construct lite
  does not implement with the catalogue's ORA-03001 entry, and
  :func:`merge_to_update_insert` turns a MERGE into the UPDATE and INSERT
  statements SQLite runs.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from sqlglot import exp

from .dialect import JsonQuery, NegativeDotDistance, Oracle, Prediction, VarSamp, VectorEmbedding
from .error_catalogue import (
    ERR_CAST_VALUE_OUT_OF_RANGE, ERR_DATE_LITERAL, ERR_MISSING_WINDOW, ERR_RESERVED_WORD_AS_NAME, ERR_NOT_SINGLE_GROUP_NESTED, ERR_ILLEGAL_FUNCTION_ARGUMENT, ERR_INVALID_INTERVAL, ERR_UNKNOWN_FUNCTION, ERR_UNSUPPORTED, ERR_UNSUPPORTED_ORACLE_FUNCTION,
    ERR_UNSUPPORTED_CTE_SEARCH, ERR_UNSUPPORTED_DATE_OF_EXPRESSION,
    ERR_UNSUPPORTED_EXTRACT,
    ERR_HYPOTHETICAL_ARGUMENTS, ERR_ORDER_BY_NOT_ALLOWED, ERR_PERCENTILE_ONE_KEY, ERR_UNSUPPORTED_KEEP, ERR_UNSUPPORTED_PREDICTION, ERR_UNSUPPORTED_WITHIN_GROUP,
    ERR_UNSUPPORTED_FETCH_OPTION, ERR_UNSUPPORTED_INTERVAL_SPAN, ERR_UNSUPPORTED_INTERVAL_SPAN_EXPRESSION,
    ERR_UNSUPPORTED_INTERVAL_UNIT, ERR_UNSUPPORTED_INTERVAL_UNIT_EXPRESSION, ERR_UNSUPPORTED_JSON_QUERY_OPTIONS,
    ERR_UNSUPPORTED_MERGE_CLAUSE, ERR_UNSUPPORTED_MERGE_DELETE, ERR_UNSUPPORTED_NUMTOYMINTERVAL, ERR_UNSUPPORTED_YM_INTERVAL,
    ERR_WRONG_NUMBER_OF_ARGUMENTS, ErrorSpec, error, passthrough,
)
from . import grouping_sets, json_path, json_table, outer_join, rownum
from .oracle_functions import ORACLE_FUNCTIONS, is_lite_helper
from .reserved import ORACLE_RESERVED_WORDS, PSEUDOCOLUMNS
from .functions import AGGREGATE_FUNCTIONS
from .formats import NLS_DATE_FORMAT, FormatError, parse_datetime_model, round_fraction
from .scope import _DOTTED, is_analytic, is_keep, name_of
from .values import format_datetime

Pass = Callable[[exp.Expression], exp.Expression]

# Oracle functions that SQLite has under the same name and meaning.
_NATIVE = {
    "ABS", "CEIL", "FLOOR", "LENGTH", "LOWER", "UPPER", "LTRIM", "RTRIM", "TRIM", "REPLACE",
    "SUBSTR", "ROUND", "SQRT", "EXP", "LN", "LOG", "POWER", "SIGN", "SIN", "COS", "TAN",
    "COUNT", "SUM", "AVG", "MIN", "MAX", "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE", "LAG", "LEAD",
    "FIRST_VALUE", "LAST_VALUE", "COALESCE", "NULLIF", "CUME_DIST", "PERCENT_RANK",
    "BITAND", "REMAINDER",   # lite's own SQLite functions of the same name (functions.py)
}

# Anonymous Oracle function -> lite SQLite function
_RENAMES = {
    "VECTOR_DISTANCE": "ora_vector_distance", "TO_VECTOR": "ora_to_vector", "VECTOR": "ora_to_vector",
    "VECTOR_DIMENSION_COUNT": "ora_vector_dims", "VECTOR_NORM": "ora_vector_norm",
    "SDO_GEOMETRY": "ora_sdo_geometry", "SDO_POINT_TYPE": "ora_sdo_point",
    "SDO_WITHIN_DISTANCE": "ora_sdo_within_distance", "TRUNC": "ora_trunc",
    "SDO_DIM_ARRAY": "ora_sdo_dim_array", "SDO_DIM_ELEMENT": "ora_sdo_dim_element",
    "JSON_SERIALIZE": "ora_json_serialize", "JSON_MERGEPATCH": "ora_json_mergepatch", "JSON_EQUAL": "ora_json_equal",
    "TO_BINARY_DOUBLE": "ora_to_binary_double", "TO_BINARY_FLOAT": "ora_to_binary_float",
    "BIN_TO_NUM": "ora_bin_to_num", "TO_NCHAR": "ora_to_char",
    "SYS_GUID": "ora_sys_guid", "HEXTORAW": "ora_hextoraw", "RAWTOHEX": "ora_rawtohex",
}

# Oracle functions that are another one of lite's when called with one argument (their NLS parameter or
# format argument is ORA-03001): name -> lite's function
_ONE_ARGUMENT_RENAMES = {"NLS_UPPER": "UPPER", "NLS_LOWER": "LOWER", "NLS_INITCAP": "ora_initcap",
                         "TO_CLOB": "ora_to_char", "TO_NCLOB": "ora_to_char"}

# --------------------------------------------------------------------------- rewrites

def _anon(name: str, *args: exp.Expression) -> exp.Anonymous:
    return exp.Anonymous(this=name, expressions=list(args))


def lite_call(name: str, *args: exp.Expression) -> exp.Anonymous:
    """A call of SQLite's or lite's own function ``name``, written by lite: the later passes leave it alone
    (a statement that names it itself gets ORA-00904, as in Oracle)."""
    call = _anon(name, *args)
    call.meta["lite"] = True
    return call


def quoted(name: str) -> exp.Identifier:
    """``name`` as a quoted identifier (the structural rewrites name their columns and tables exactly)."""
    return exp.to_identifier(name, quoted=True)


def quoted_column(name: str, table: str | None = None) -> exp.Column:
    """``"table"."name"`` (or ``"name"``), quoted as :func:`quoted` quotes."""
    return exp.column(quoted(name), quoted(table) if table else None)


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


def replace_block(tree: exp.Expression, block: exp.Expression, new: exp.Expression) -> exp.Expression:
    """``tree`` with ``block`` (one of its nodes, or the tree itself) replaced by ``new``."""
    if block is tree:
        return new
    block.replace(new)
    return tree


def _oracle_model(node: exp.Expression) -> str:
    """The Oracle format model of TO_DATE/TO_TIMESTAMP (sqlglot keeps it as strftime; map it back)."""
    return Oracle().generator().format_time(node).strip("'")  # type: ignore[union-attr]


def _json_path_text(path: exp.Expression | None, passing: frozenset | set = frozenset()) -> str:
    """The JSON path as written, read once here so a path lite does not evaluate is refused by name
    (ORA-03001) and one that is not a path is ORA-40442, before any row is read (:mod:`json_path`)."""
    return json_path.checked(path.sql(dialect=Oracle).strip("'") if path is not None else "$", passing=passing)


def _json_exists(node: exp.Expression) -> exp.Expression:
    """``JSON_EXISTS(doc, path [PASSING expr AS name, ...])`` is ``ora_json_exists(doc, path, 'name', expr, ...)``:
    each PASSING value is the path's ``$name`` (an unquoted name is read in upper case, as SQL reads it)."""
    pairs: list[exp.Expression] = []
    for item in node.args.get("passing") or []:
        if not isinstance(item, exp.Alias):
            raise error(ERR_UNSUPPORTED, construct="JSON_EXISTS ... PASSING without AS name")
        ident = item.args["alias"]
        pairs += [exp.Literal.string(ident.name if ident.quoted else ident.name.upper()), item.this]
    text = _json_path_text(node.args.get("path"), passing={pairs[i].this for i in range(0, len(pairs), 2)})
    return _anon("ora_json_exists", node.this, exp.Literal.string(text), *pairs)


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
        default=exp.Coalesce(this=exp.Nullif(this=exp.Cast(this=_anon("json_extract", doc.copy(), lit.copy()),
                                                           to=exp.DataType.build("TEXT")),
                                             expression=exp.Literal.string("")),
                             expressions=[_lax_miss(doc, lit)]),
    )
    if trusted:
        return case
    return exp.Case(ifs=[exp.If(this=_anon("json_valid", doc.copy()), true=case)],
                    default=_anon("ora_json_value", doc.copy(), lit.copy()))


def _lax_miss(doc: exp.Expression, path: exp.Literal) -> exp.Expression:
    """Where SQLite's strict reading finds nothing, Oracle's lax mode may still find one value: a field of a
    one-element array of objects, or ``[0]`` of a scalar. Lite's own evaluator answers those rows; a path of
    fields only can differ only in a document with an array, so the C ``instr`` keeps the others native."""
    lax = _anon("ora_json_value", doc.copy(), path.copy())
    if "[" in path.name:
        return lax
    return exp.Case(ifs=[exp.If(this=exp.GT(this=_anon("instr", doc.copy(), exp.Literal.string("[")),
                                            expression=exp.Literal.number(0)), true=lax)])


def _string(node: exp.Expression) -> exp.Expression:
    """Metric / model names are written as identifiers in Oracle; pass them as text."""
    if isinstance(node, exp.Column) and not node.args.get("table"):
        return exp.Literal.string(name_of(node.this))
    return node


_SDO_ATTRIBUTES = ("SDO_GTYPE", "SDO_SRID", "SDO_POINT.X", "SDO_POINT.Y", "SDO_POINT.Z")
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
_DS_UNITS = ("DAY", "HOUR", "MINUTE", "SECOND")
_DS_SECONDS = {"DAY": 86400.0, "HOUR": 3600.0, "MINUTE": 60.0, "SECOND": 1.0}


def date_literal(text: str, model: str = NLS_DATE_FORMAT, *, timestamp: bool = False,
                 precision: int = 6) -> exp.Literal:
    """A datetime text checked against ``model`` at translation time, as a stored-form literal.

    Oracle converts a string compared with or assigned to a DATE with
    NLS_DATE_FORMAT (DD-MON-RR), so '2025-01-01' there is ORA-01861: lite
    raises the same error rather than guessing.
    """
    try:
        value = parse_datetime_model(text, model)
    except FormatError as exc:
        raise passthrough(exc.code, str(exc)[11:], ERR_DATE_LITERAL) from None
    return exp.Literal.string(format_datetime(round_fraction(value, precision) if timestamp else value,
                                              timestamp=timestamp))


def _interval_parts(node: exp.Expression) -> tuple[exp.Expression, str] | None:
    """(amount, unit) of an INTERVAL literal or NUMTODSINTERVAL/NUMTOYMINTERVAL call; units YEAR..SECOND."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Anonymous) and node.name.upper() in ("NUMTODSINTERVAL", "NUMTOYMINTERVAL"):
        if len(node.expressions) != 2:
            raise error(ERR_WRONG_NUMBER_OF_ARGUMENTS, function=node.name.upper())
        if not (isinstance(node.expressions[1], exp.Literal) and node.expressions[1].is_string):
            # Oracle reads the unit at run time; lite must know it when it translates (the arithmetic differs)
            raise error(ERR_UNSUPPORTED_INTERVAL_UNIT_EXPRESSION, function=node.name.upper())
        unit = node.expressions[1].this.upper().strip()
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


def _positive_literal(node: exp.Expression | None) -> bool:
    return isinstance(node, exp.Literal) and not node.is_string and float(node.this) >= 1


def _substr(node: exp.Expression) -> exp.Expression:
    """SUBSTR: SQLite's substr() where it agrees with Oracle's (positive literal start and length), lite's
    ora_substr otherwise (start 0 is 1, a length below 1 is NULL, which SQLite's reads differently)."""
    start, length = node.args.get("start"), node.args.get("length")
    if _positive_literal(start) and (length is None or _positive_literal(length)):
        return node
    return _anon("ora_substr", node.this, start if start is not None else exp.Literal.number(1),
                 *([length] if length is not None else []))


def _round(node: exp.Expression) -> exp.Expression:
    """ROUND(n[, places]): SQLite's round() for places 0..n written as a literal, lite's for the rest
    (SQLite's reads negative places as 0: ROUND(1234.5, -2) would be 1235)."""
    places = node.args.get("decimals")
    if places is None or (isinstance(places, exp.Literal) and not places.is_string):
        return node
    return _anon("ora_round", node.this, places)


def _divide(node: exp.Expression) -> exp.Expression:
    """``a / b``: SQLite's division when ``b`` is a non-zero number literal, else lite's, which raises
    ORA-01476 for a zero divisor as Oracle does (SQLite returns NULL)."""
    divisor = node.expression
    while isinstance(divisor, exp.Paren):
        divisor = divisor.this
    if isinstance(divisor, exp.Literal) and not divisor.is_string and float(divisor.this) != 0:
        return node
    return _anon("ora_divide", node.this, node.expression)


def _null_tolerant_concat(node: exp.Expression) -> exp.Expression:
    """``a || b``: Oracle treats a NULL operand as '' (and an empty result as NULL); SQLite's || gives NULL."""
    empty = exp.Literal.string("")
    joined = exp.DPipe(this=exp.Coalesce(this=node.this, expressions=[empty.copy()]),
                       expression=exp.Coalesce(this=node.expression, expressions=[empty.copy()]))
    return exp.Nullif(this=joined, expression=empty.copy())


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
#: Oracle's statistical aggregates (sqlglot's node -> the name ``ora_stat`` computes: functions.Statistic)
_STATISTICS = {exp.Variance: "VARIANCE", VarSamp: "VAR_SAMP", exp.VariancePop: "VAR_POP", exp.Stddev: "STDDEV",
               exp.StddevSamp: "STDDEV_SAMP", exp.StddevPop: "STDDEV_POP", exp.Corr: "CORR",
               exp.CovarPop: "COVAR_POP", exp.CovarSamp: "COVAR_SAMP", exp.RegrSlope: "REGR_SLOPE",
               exp.RegrIntercept: "REGR_INTERCEPT", exp.RegrCount: "REGR_COUNT", exp.RegrR2: "REGR_R2",
               exp.RegrAvgx: "REGR_AVGX", exp.RegrAvgy: "REGR_AVGY", exp.RegrSxx: "REGR_SXX",
               exp.RegrSyy: "REGR_SYY", exp.RegrSxy: "REGR_SXY"}


_ONE_ARGUMENT = ("VARIANCE", "VAR_SAMP", "VAR_POP", "STDDEV", "STDDEV_SAMP", "STDDEV_POP")


def statistic_call(node: exp.Expression) -> exp.Expression:
    """``STDDEV([DISTINCT] x)``, ``CORR(y, x)``, ``REGR_SLOPE(y, x)``, ... become ``ora_stat('NAME', distinct, y
    [, x])`` (functions.Statistic), as an aggregate or with OVER; REGR_COUNT over no rows is 0, as COUNT is."""
    if isinstance(node.parent, exp.Window) and is_keep(node.parent):
        return node   # VARIANCE / STDDEV ... KEEP (...): keep_and_percentiles reads the node as it is
    name = _STATISTICS[type(node)]
    if (name in _ONE_ARGUMENT) != (node.args.get("expression") is None):
        raise error(ERR_WRONG_NUMBER_OF_ARGUMENTS, function=name)
    first = node.this
    distinct = isinstance(first, exp.Distinct)
    if distinct:
        first = first.expressions[0]
    values = [first] + ([node.expression] if node.args.get("expression") is not None else [])
    call = _anon("ora_stat", exp.Literal.string(name), exp.Literal.number(int(distinct)), *values)
    return _over_no_rows(call, 0) if name == "REGR_COUNT" and not isinstance(node.parent, exp.Window) else call


TRANSFORMS: dict[type[exp.Expression], Callable[[exp.Expression], exp.Expression]] = {
    **{cls: statistic_call for cls in _STATISTICS},
    # APPROX_COUNT_DISTINCT(x) is answered exactly, as lite answers approximate vector searches
    exp.ApproxDistinct: lambda node: exp.Count(this=exp.Distinct(expressions=[node.this])),
    exp.Nanvl: rename_func("ora_nanvl", "this", "expression"),
    # MEDIAN is PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x) (the Reference defines it so): one aggregate
    exp.Median: lambda node: _anon("ora_percentile", exp.Literal.number(0.5), exp.Literal.string("CONT"),
                                   exp.Literal.number(0), node.this),
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
    exp.JSONExists: lambda node: _json_exists(node),
    exp.Pad: _pad,
    exp.NextDay: rename_func("ora_next_day", "this", "expression"),
    exp.Mod: rename_func("ora_mod", "this", "expression"),
    exp.Round: lambda node: _round(node),
    exp.Div: lambda node: _divide(node),
    exp.Replace: rename_func("ora_replace", "this", "expression", optional=("replacement",)),
    exp.Substring: lambda node: _substr(node),
    exp.DPipe: lambda node: _null_tolerant_concat(node),
    exp.Translate: rename_func("ora_translate", "this", "from_", "to"),
    exp.StrPosition: _instr,
}


def _transform_for(node: exp.Expression) -> Callable[[exp.Expression], exp.Expression] | None:
    for cls in type(node).__mro__:
        transform = TRANSFORMS.get(cls)
        if transform is not None:
            return transform
    return None


# --------------------------------------------------------------------------- named structural passes

def preprocess(passes: Sequence[Pass]) -> Pass:
    """Chain node passes into one, like sqlglot's ``transforms.preprocess([...])``.

    Each pass takes a node and returns it unchanged or its replacement; the
    next pass sees what the previous one returned. The translator applies the
    chain to every node bottom-up (children first), so a pass sees its
    arguments already rewritten.
    """
    def apply(node: exp.Expression) -> exp.Expression:
        for rewrite in passes:
            node = rewrite(node)
        return node
    return apply


def _arg_path(node: exp.Expression, path: str) -> object:
    value: object = node
    for key in path.split("."):
        if not isinstance(value, exp.Expression):
            return None
        value = value.args.get(key)
    return value


def unsupported_args(node_type: type[exp.Expression],
                     *refusals: tuple[str, ErrorSpec, dict[str, str]]) -> Callable[[Pass], Pass]:
    """Decorate a pass so that a ``node_type`` node with one of the named arguments set is refused.

    sqlglot's ``unsupported_args`` for lite: each refusal is ``(argument path,
    catalogue entry, message parameters)``; the path may reach into a child
    (``"limit_options.percent"``). The entry is raised before the pass runs,
    so a construct lite does not implement is an ORA error naming it, never
    silently dropped.
    """
    def decorate(rewrite: Pass) -> Pass:
        def checked(node: exp.Expression) -> exp.Expression:
            if isinstance(node, node_type):
                for path, spec, params in refusals:
                    if _arg_path(node, path):
                        raise error(spec, **params)
            return rewrite(node)
        checked.__name__ = rewrite.__name__
        checked.__doc__ = rewrite.__doc__
        return checked
    return decorate


def vector_embedding_call(node: exp.Expression) -> exp.Expression:
    """``VECTOR_EMBEDDING(model USING expr AS DATA)`` becomes ``ora_vector_embedding('MODEL', expr)``.

    The model is written as an identifier in Oracle; lite's SQL function takes its name as text.
    """
    if isinstance(node, VectorEmbedding):
        model = name_of(node.this.this if isinstance(node.this, exp.Column) else node.this)
        return _anon("ora_vector_embedding", exp.Literal.string(model), node.expression)
    return node


def upper_case_binds(node: exp.Expression) -> exp.Expression:
    """Bind names are case-insensitive in Oracle: ``:Owner`` and ``:OWNER`` are one bind, named in upper case."""
    if isinstance(node, exp.Placeholder):
        return exp.Placeholder(this=node.name.upper())
    return node


def package_function_call(node: exp.Expression) -> exp.Expression:
    """``PACKAGE.FUNCTION(...)`` (``DBMS_LOB.SUBSTR``, ``SDO_GEOM.SDO_DISTANCE``, ``MDSYS.SDO_GEOMETRY``)
    becomes the lite function of ``scope._DOTTED``; any other package call is ORA-03001 naming it."""
    if isinstance(node, exp.Dot) and isinstance(node.this, exp.Identifier) and isinstance(
            node.expression, exp.Anonymous):
        key = (name_of(node.this), node.expression.name.upper())
        if key in _DOTTED:
            return _anon(_DOTTED[key], *node.expression.expressions)
        raise error(ERR_UNSUPPORTED, construct=f"{key[0]}.{key[1]}")
    return node


def _json_on_conditions(condition: exp.Expression | None) -> list[exp.Expression]:
    """JSON_VALUE's ``... ON EMPTY`` / ``... ON ERROR`` clauses as ora_json_value's last four arguments (mode
    and default of each), or [] for Oracle's defaults (NULL ON ERROR, and ON ERROR's behaviour when empty)."""
    if not isinstance(condition, exp.OnCondition):
        return []
    args: list[exp.Expression] = []
    given = False
    for key, default_mode in (("empty", None), ("error", "NULL")):
        clause = condition.args.get(key)
        if clause is None:
            args += [exp.Literal.string(default_mode) if default_mode else exp.Null(), exp.Null()]
            continue
        given = True
        text = clause.sql(dialect=Oracle).upper() if not isinstance(clause, str) else clause.upper()
        if isinstance(clause, exp.Literal) or (isinstance(clause, exp.Expression) and not text.startswith(("ERROR", "NULL"))):
            args += [exp.Literal.string("DEFAULT"), clause.copy() if isinstance(clause, exp.Expression) else exp.Null()]
        elif text.startswith("ERROR"):
            args += [exp.Literal.string("ERROR"), exp.Null()]
        else:
            args += [exp.Literal.string("NULL"), exp.Null()]
    if condition.args.get("null") is not None:
        raise error(ERR_UNSUPPORTED, construct=f"JSON_VALUE ... {condition.args['null']}")
    return args if given else []


_WRAPPERS = {"WITH WRAPPER": 1, "WITH ARRAY WRAPPER": 1, "WITH UNCONDITIONAL WRAPPER": 1,
             "WITH UNCONDITIONAL ARRAY WRAPPER": 1, "WITH CONDITIONAL WRAPPER": 2,
             "WITH CONDITIONAL ARRAY WRAPPER": 2, "WITHOUT WRAPPER": 0, "WITHOUT ARRAY WRAPPER": 0}


def json_query_call(node: exp.Expression) -> exp.Expression:
    """``JSON_QUERY(doc, path [WITH [CONDITIONAL|UNCONDITIONAL] [ARRAY] WRAPPER])`` is ``ora_json_query(doc,
    path, wrapper)``: with a wrapper every match of the path (wildcards ``[*]`` and ``.*`` included) is
    gathered into an array (CONDITIONAL: unless the one match is an object or array); without one, the
    object or array at the path (NULL for a scalar, Oracle's NULL ON ERROR). Other options are ORA-03001."""
    if not isinstance(node, JsonQuery):
        return node
    options = node.args["options"].name.upper() if node.args.get("options") else ""
    wrapper = 0
    if options:
        if options not in _WRAPPERS:
            raise error(ERR_UNSUPPORTED, construct=f"JSON_QUERY option {options} (lite reads JSON_QUERY(doc, path "
                                                   f"[WITH [CONDITIONAL] [ARRAY] WRAPPER]))")
        wrapper = _WRAPPERS[options]
    path = node.args["path"]
    if not isinstance(path, exp.Literal):
        raise error(ERR_UNSUPPORTED_JSON_QUERY_OPTIONS)
    text = _json_path_text(path)
    return _anon("ora_json_query", node.this, exp.Literal.string(text), exp.Literal.number(wrapper))


def json_value_call(node: exp.Expression) -> exp.Expression:
    """``JSON_VALUE(doc, path [RETURNING NUMBER])``: SQLite's C JSON functions for a simple path
    (``$.a.b``, ``$[0]``), lite's ``ora_json_value`` for the rest; ``RETURNING NUMBER`` casts.

    The translator marks documents read from a JSON column (``meta["json_column"]``, validated
    on write) so the fast path skips ``json_valid``.
    """
    if not isinstance(node, exp.JSONValue):
        return node
    path_text = _json_path_text(node.args.get("path"))
    conditions = _json_on_conditions(node.args.get("on_condition"))
    if conditions:
        call = _anon("ora_json_value", node.this, exp.Literal.string(path_text), *conditions)
    elif _SIMPLE_JSON_PATH.match(path_text):
        call = _native_json_value(node.this, path_text, trusted=bool(node.meta.get("json_column")))
    else:
        call = _anon("ora_json_value", node.this, exp.Literal.string(path_text))
    returning = node.args.get("returning")
    if isinstance(returning, exp.Expression) and returning.sql(dialect=Oracle).upper().startswith(("NUMBER", "DECIMAL")):
        # a value that is not a number is NULL (NULL ON ERROR), not SQLite's CAST result 0
        return _anon("ora_json_number", call)
    return call


def one_to_one_functions(node: exp.Expression) -> exp.Expression:
    """The node classes of :data:`TRANSFORMS` become their SQLite form (``ADD_MONTHS`` → ``ora_add_months``, ...)."""
    transform = _transform_for(node)
    return transform(node) if transform is not None else node


def interval_number_call(node: exp.Expression) -> exp.Expression:
    """``NUMTODSINTERVAL(n, 'unit')`` becomes ``ora_interval(n, 'UNIT')`` (seconds, lite's INTERVAL DAY TO
    SECOND); ``NUMTOYMINTERVAL`` outside date arithmetic is ORA-03001 (lite has no YEAR TO MONTH values)."""
    if not (isinstance(node, exp.Anonymous) and node.name.upper() in ("NUMTODSINTERVAL", "NUMTOYMINTERVAL")):
        return node
    parts = _interval_parts(node)
    assert parts is not None  # _interval_parts raises for every malformed call
    amount, unit = parts
    if unit in ("YEAR", "MONTH"):
        raise error(ERR_UNSUPPORTED_NUMTOYMINTERVAL)
    return _anon("ora_interval", amount, exp.Literal.string(unit))


def oracle_function_call(node: exp.Expression) -> exp.Expression:
    """A call sqlglot keeps as an anonymous function: lite's ``ora_*`` function for an Oracle function
    SQLite lacks (``_RENAMES``), unchanged for one SQLite has with Oracle's meaning (``_NATIVE``), and
    ``ORA-00904`` for any other name (a function Oracle or lite does not have)."""
    if not isinstance(node, exp.Anonymous):
        return node
    fname = node.name.upper()
    if isinstance(node.parent, exp.Dot) and node.parent.expression is node:
        return node  # PACKAGE.FUNCTION(...): rewritten with its Dot by package_function_call
    if fname == "LNNVL":
        # LNNVL(cond): TRUE when cond is FALSE or UNKNOWN; Oracle takes a simple condition only
        if len(node.expressions) != 1:
            raise error(ERR_WRONG_NUMBER_OF_ARGUMENTS, function=fname)
        condition = node.expressions[0]
        if isinstance(condition, (exp.And, exp.Or, exp.Between)):
            raise error(ERR_UNSUPPORTED, construct="LNNVL of a compound condition (AND, OR, BETWEEN: Oracle "
                                                   "takes a simple condition)")
        return exp.Paren(this=exp.EQ(this=exp.Coalesce(this=exp.Paren(this=condition),
                                                       expressions=[exp.Literal.number(0)]),
                                     expression=exp.Literal.number(0)))
    if fname == "RATIO_TO_REPORT":
        if isinstance(node.parent, exp.Window) and node.parent.this is node:
            return node   # rewritten with its OVER clause by ratio_to_report
        raise error(ERR_MISSING_WINDOW, function=fname)
    if fname == "JSON_QUERY":
        if len(node.expressions) != 2 or not isinstance(node.expressions[1], exp.Literal):
            raise error(ERR_UNSUPPORTED_JSON_QUERY_OPTIONS)
        return _anon("ora_json_query", *node.expressions)
    if is_lite_helper(fname) or fname in ("JSON_EACH", "STRFTIME") or node.meta.get("lite"):
        return node  # already lite's (written by an earlier rewrite)
    if fname in _RENAMES:
        target = _RENAMES[fname]
        args = list(node.expressions)
        if fname in ("TO_VECTOR", "VECTOR"):
            # TO_VECTOR(text [, dimensions [, format]]): format and * are written as identifiers
            args = args[:1] + [exp.Null() if isinstance(a, exp.Star) else _string(a) for a in args[1:3]]
        return _anon(target, *args)
    if fname in _ONE_ARGUMENT_RENAMES:
        if len(node.expressions) != 1:
            raise error(ERR_UNSUPPORTED, construct=f"{fname} with {len(node.expressions)} arguments (lite reads "
                                                   f"{fname}(x), with the session's defaults)")
        return lite_call(_ONE_ARGUMENT_RENAMES[fname], node.expressions[0])
    if fname == "JSON":
        return _anon("ora_json_text", *node.expressions)
    if fname in _NATIVE:
        return node
    if fname in ORACLE_FUNCTIONS:
        raise error(ERR_UNSUPPORTED_ORACLE_FUNCTION, name=fname)
    raise error(ERR_UNKNOWN_FUNCTION, name=fname)


def ratio_to_report(node: exp.Expression) -> exp.Expression:
    """``RATIO_TO_REPORT(x) OVER ([PARTITION BY ...])`` is ``x / SUM(x) OVER ([PARTITION BY ...])``, as the
    Reference defines it (NULL for a NULL ``x``; a zero sum is ORA-01476, as any division by zero)."""
    if not (isinstance(node, exp.Window) and isinstance(node.this, exp.Anonymous)
            and node.this.name.upper() == "RATIO_TO_REPORT"):
        return node
    if len(node.this.expressions) != 1:
        raise error(ERR_WRONG_NUMBER_OF_ARGUMENTS, function="RATIO_TO_REPORT")
    value = node.this.expressions[0]
    total = node.copy()
    total.set("this", exp.Sum(this=value.copy()))
    return _anon("ora_divide", value.copy(), total)


@unsupported_args(exp.Fetch,
                  ("limit_options.percent", ERR_UNSUPPORTED_FETCH_OPTION, {"option": "PERCENT"}),
                  ("limit_options.with_ties", ERR_UNSUPPORTED_FETCH_OPTION, {"option": "WITH TIES"}))
def fetch_first_rows_only(node: exp.Expression) -> exp.Expression:
    """``FETCH FIRST|NEXT n ROWS ONLY`` (also ``APPROX``/``EXACT``) is kept: SQLite's generator writes
    ``LIMIT n``; lite answers approximate searches exactly. ``PERCENT`` and ``WITH TIES`` were rewritten by
    row_limits.py before this runs, except on a set operation, which is refused (a LIMIT would drop them).
    A count or offset that is not a whole-number literal is read as Oracle reads it (``ora_row_count``: the
    fraction dropped, a negative or NULL count 0, text through TO_NUMBER)."""
    key = "count" if isinstance(node, exp.Fetch) else "expression" if isinstance(node, exp.Offset) else None
    value = node.args.get(key) if key else None
    if value is not None and not (isinstance(value, exp.Literal) and not value.is_string
                                  and re.fullmatch(r"\d+", value.this)):
        node.set(key, _anon("ora_row_count", value))
    return node


def interval_literal(node: exp.Expression) -> exp.Expression:
    """``INTERVAL '7' DAY``, ``INTERVAL '1 02:00:00' DAY TO SECOND`` become ``ora_interval(seconds-or-n, 'UNIT')``;
    a YEAR/MONTH interval outside date arithmetic (where the translator handles it) is ORA-03001."""
    if not isinstance(node, exp.Interval):
        return node
    parts = _interval_parts(node)
    assert parts is not None
    if parts[1] in ("YEAR", "MONTH"):
        raise error(ERR_UNSUPPORTED_YM_INTERVAL)
    return _anon("ora_interval", parts[0], exp.Literal.string(parts[1]))


def extract_datetime_field(node: exp.Expression) -> exp.Expression:
    """``EXTRACT(unit FROM d)`` becomes ``ora_date_part(d, 'UNIT')`` for YEAR..SECOND; other fields
    (``TIMEZONE_HOUR``, ...) are ORA-03001. (The translator first picks ``ora_interval_part`` where it
    can see that ``d`` is an INTERVAL; this is the rewrite for what it did not type.)"""
    if not isinstance(node, exp.Extract):
        return node
    unit = node.this.name.upper()
    if unit not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
        raise error(ERR_UNSUPPORTED_EXTRACT, unit=unit)
    return _anon("ora_date_part", node.expression, exp.Literal.string(unit))


def _sort_keys(order: exp.Order) -> list[exp.Expression]:
    """An ordered aggregate's ORDER BY as the ``key, flags`` argument pairs of lite's ora_listagg and
    ora_json_arrayagg (flags: 1 descending, 2 NULLS FIRST)."""
    keys: list[exp.Expression] = []
    for ordered in order.expressions:
        flags = (1 if ordered.args.get("desc") else 0) + (2 if ordered.args.get("nulls_first") else 0)
        keys.extend([ordered.this, exp.Literal.number(flags)])
    return keys


def listagg_ordered(node: exp.Expression) -> exp.Expression:
    """``LISTAGG([DISTINCT] x, sep) WITHIN GROUP (ORDER BY k [DESC] [NULLS FIRST|LAST], ...)`` becomes
    ``ora_listagg(x, sep, distinct, k1, flags1, ...)``, lite's aggregate that sorts as Oracle does.

    SQLite 3.40 has no ORDER BY inside an aggregate, and ``group_concat`` would
    list the values in table order. Oracle's default separator is the empty
    string; ``nulls_first`` is as sqlglot resolved it for Oracle (NULLS LAST
    for ascending keys, NULLS FIRST for descending ones). ``ON OVERFLOW`` is
    accepted: lite's strings have no 4000-byte limit to overflow.
    """
    if not isinstance(node, exp.GroupConcat):
        return node
    inner = node.this
    keys: list[exp.Expression] = []
    if isinstance(inner, exp.Order):
        keys = _sort_keys(inner)
        inner = inner.this
    distinct = isinstance(inner, exp.Distinct)
    if distinct:
        inner = inner.expressions[0]
    sep = node.args.get("separator") or exp.Literal.string("")
    return _anon("ora_listagg", inner, sep, exp.Literal.number(1 if distinct else 0), *keys)


#: hypothetical set aggregates: sqlglot's node -> lite's ora_hyp_<name> (functions.Hypothetical)
_HYPOTHETICAL = {exp.Rank: "rank", exp.DenseRank: "dense_rank", exp.PercentRank: "percent_rank",
                 exp.CumeDist: "cume_dist"}
_KEEP_AGGREGATES = {exp.Min: "MIN", exp.Max: "MAX", exp.Sum: "SUM", exp.Avg: "AVG", exp.Count: "COUNT",
                    exp.Variance: "VARIANCE", exp.Stddev: "STDDEV"}


def _over_no_rows(call: exp.Expression, value: int) -> exp.Coalesce:
    """``COALESCE(call, value)``: Oracle's answer ``value`` for a lite aggregate over no rows, which SQLite
    never calls (CPython's sqlite3 then answers NULL); over any rows these aggregates are never NULL."""
    return exp.Coalesce(this=call, expressions=[exp.Literal.number(value)])


def keep_and_percentiles(node: exp.Expression) -> exp.Expression:
    """``agg(x) KEEP (DENSE_RANK FIRST|LAST ORDER BY k ...)`` becomes ``ora_keep('AGG', last, x, k1, flags1,
    ...)`` and ``PERCENTILE_CONT|DISC(p) WITHIN GROUP (ORDER BY x [DESC])`` ``ora_percentile(p, 'CONT'|'DISC',
    desc, x)``: lite's aggregates (functions.Keep, functions.Percentile), which are window functions too, so
    ``... OVER (PARTITION BY ...)`` keeps working. Other forms were refused by refuse_unimplemented_clauses."""
    if is_keep(node):
        aggregate = node.this
        value = exp.Literal.number(1) if isinstance(aggregate.this, exp.Star) else aggregate.this
        keep = _anon("ora_keep", exp.Literal.string(_KEEP_AGGREGATES[type(aggregate)]),
                     exp.Literal.number(0 if node.args.get("first") else 1), value, *_sort_keys(node.args["order"]))
        # (an analytic KEEP, inside OVER, never sees an empty partition)
        if isinstance(aggregate, exp.Count) and not isinstance(node.parent, exp.Window):
            return _over_no_rows(keep, 0)   # COUNT of no rows is 0
        return keep
    if isinstance(node, exp.WithinGroup) and isinstance(node.this, tuple(_HYPOTHETICAL)):
        values = list(node.this.expressions)
        name = _HYPOTHETICAL[type(node.this)]
        # over no rows the hypothetical row is alone: rank 1, PERCENT_RANK 0, CUME_DIST 1
        return _over_no_rows(_anon(f"ora_hyp_{name}", exp.Literal.number(len(values)), *values,
                                   *_sort_keys(node.expression)), 0 if name == "percent_rank" else 1)
    if isinstance(node, exp.WithinGroup) and isinstance(node.this, (exp.PercentileCont, exp.PercentileDisc)):
        ordered = node.expression.expressions[0]
        kind = "CONT" if isinstance(node.this, exp.PercentileCont) else "DISC"
        return _anon("ora_percentile", node.this.this, exp.Literal.string(kind),
                     exp.Literal.number(1 if ordered.args.get("desc") else 0), ordered.this)
    return node


def _offset_rows(value: exp.Expression | str | None) -> int | None:
    """A ROWS frame bound's row count when it is a literal integer (None otherwise)."""
    if isinstance(value, exp.Literal) and not value.is_string and value.this.isdigit():
        return int(value.this)
    return None


def frame_may_be_empty(node: exp.Expression | None) -> bool:
    """Whether ``node`` is a window whose frame can hold no row (it ends before the current row or starts after
    it). CPython 3.11's sqlite3 crashes the process when SQLite asks a Python window function (lite's
    aggregates) for the value of such a frame, so those functions must not see one (functions.FrameValue)."""
    spec = node.args.get("spec") if isinstance(node, exp.Window) else None
    return spec is not None and (spec.args.get("start_side") == "FOLLOWING" or spec.args.get("end_side") == "PRECEDING")


def _frame_with_current_row(node: exp.Window) -> tuple[int, int]:
    """Widen the window's frame to take in the current row when it could be empty without it, and return how
    many rows to drop from its front and back to get the frame written (see functions.FrameValue)."""
    spec = node.args.get("spec")
    if spec is None:
        return 0, 0   # RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (or the whole partition)
    start_side, end_side = spec.args.get("start_side"), spec.args.get("end_side")
    if start_side != "FOLLOWING" and end_side != "PRECEDING":
        return 0, 0   # the frame has the current row in it
    rows = str(spec.args.get("kind") or "").upper() == "ROWS"
    if end_side == "PRECEDING" and rows and _offset_rows(spec.args.get("end")) is not None:
        back = _offset_rows(spec.args["end"])
        spec.set("end", "CURRENT ROW")
        spec.set("end_side", None)
        return 0, back
    if start_side == "FOLLOWING" and rows and _offset_rows(spec.args.get("start")) is not None:
        front = _offset_rows(spec.args["start"])
        spec.set("start", "CURRENT ROW")
        spec.set("start_side", None)
        return front, 0
    raise error(ERR_UNSUPPORTED, construct="IGNORE NULLS or FROM LAST over a window frame that leaves out the "
                                           "current row, other than ROWS with a number of rows")


def ignore_nulls_values(node: exp.Expression) -> exp.Expression:
    """``FIRST_VALUE|LAST_VALUE|NTH_VALUE(x ...) IGNORE NULLS``, ``NTH_VALUE ... FROM LAST`` and ``LAG|LEAD(x[, k[,
    d]]) IGNORE NULLS``, which SQLite lacks, through lite's window function ``ora_frame_value`` (functions.FrameValue):

    * the first three read the window's own frame (NULLs skipped under IGNORE NULLS);
    * ``LAG(x, k, d) IGNORE NULLS`` is the k-th value counted back from the last of the rows before the
      current one, NULLs skipped, ``d`` when there is none (``LEAD`` the same forward from the row after
      it), as the SQL Language Reference defines them.

    ``RESPECT NULLS`` (the default) is dropped where SQLite has the function.
    """
    if not is_analytic(node):
        return node
    inner = node.this
    if isinstance(inner, exp.RespectNulls):
        inner = inner.this
        node.set("this", inner)
    ignore = isinstance(inner, exp.IgnoreNulls)
    function = inner.this if ignore else inner
    from_last = isinstance(function, exp.NthValue) and function.args.get("from_first") is False
    if not ignore and not from_last:
        return node
    flag = exp.Literal.number(int(ignore))
    if isinstance(function, (exp.FirstValue, exp.LastValue, exp.NthValue)):
        kind = "LAST" if isinstance(function, exp.LastValue) or from_last else "FIRST"
        n = function.args.get("offset") if isinstance(function, exp.NthValue) else exp.Literal.number(1)
        front, back = _frame_with_current_row(node)
        node.set("this", _anon("ora_frame_value", function.this, exp.Literal.string(kind), n, flag,
                               exp.Literal.number(front), exp.Literal.number(back)))
        return node
    if isinstance(function, (exp.Lag, exp.Lead)):
        back = isinstance(function, exp.Lag)
        offset = function.args.get("offset") or exp.Literal.number(1)
        node.set("this", _anon("ora_frame_value", function.this, exp.Literal.string("LAST" if back else "FIRST"),
                               offset, flag, exp.Literal.number(0 if back else 1), exp.Literal.number(1 if back else 0)))
        node.set("spec", exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING", end="CURRENT ROW")
                 if back else exp.WindowSpec(kind="ROWS", start="CURRENT ROW", end="UNBOUNDED", end_side="FOLLOWING"))
        default = function.args.get("default")
        # a copy: the node is replaced in its parent by what this returns (transforms._bottom_up)
        return exp.Coalesce(this=node.copy(), expressions=[default]) if default is not None else node
    raise error(ERR_UNSUPPORTED, construct=f"IGNORE NULLS in {function.sql(dialect=Oracle)[:40]}")


def _absent_on_null(node: exp.Expression) -> bool:
    return not str(node.args.get("null_handling") or "").upper().startswith("NULL")


def json_array_nulls(node: exp.Expression) -> exp.Expression:
    """JSON_ARRAY and JSON_ARRAYAGG leave NULLs out unless NULL ON NULL is written (Oracle's default is ABSENT
    ON NULL; SQLite's json_array/json_group_array keep them): the aggregate gets ``FILTER (WHERE x IS NOT
    NULL)``, the array is rebuilt from its non-null elements (``json_each``, array order, nested JSON kept).
    JSON_OBJECT keeps NULL members by default; with ABSENT ON NULL it is rebuilt the same way."""
    if isinstance(node, exp.JSONArrayAgg) and node.args.get("order"):
        if isinstance(node.this, (exp.JSONObject, exp.JSONArray, exp.JSONArrayAgg, JsonQuery)):
            raise error(ERR_UNSUPPORTED, construct="ORDER BY in JSON_ARRAYAGG of JSON values (objects, arrays)")
        keys = _sort_keys(node.args["order"])
        return _anon("ora_json_arrayagg", node.this, exp.Literal.number(0 if _absent_on_null(node) else 1), *keys)
    if isinstance(node, exp.JSONArrayAgg) and not node.args.get("order"):
        call = _anon("json_group_array", node.this)
        if not _absent_on_null(node):
            return call
        return exp.Filter(this=call, expression=exp.Where(this=exp.Not(this=exp.Is(this=node.this.copy(),
                                                                                  expression=exp.Null()))))
    if isinstance(node, exp.JSONArray):
        values = list(node.expressions)
        if not _absent_on_null(node):
            return _anon("json_array", *values)
        if all(isinstance(v, (exp.Literal, exp.Null)) for v in values):
            return _anon("json_array", *[v for v in values if not isinstance(v, exp.Null)])
        return _without_nulls("json_group_array", _anon("json_array", *values), [_json_member_value()])
    if isinstance(node, exp.JSONObject) and str(node.args.get("null_handling") or "").upper().startswith("ABSENT"):
        # JSON_OBJECT's default is NULL ON NULL; ABSENT ON NULL leaves out the members whose value is NULL
        plain = node.copy()
        plain.set("null_handling", None)
        return _without_nulls("json_group_object", plain, [exp.column("key", "j"), _json_member_value()])
    return node


def _json_member_value() -> exp.Expression:
    """A ``json_each`` row's value as JSON again: nested objects and arrays through ``json()``, scalars as they are."""
    return exp.Case(ifs=[exp.If(this=exp.In(this=exp.column("type", "j"), expressions=[
        exp.Literal.string("object"), exp.Literal.string("array")]), true=_anon("json", exp.column("value", "j")))],
                    default=exp.column("value", "j"))


def _without_nulls(group: str, built: exp.Expression, arguments: list[exp.Expression]) -> exp.Subquery:
    """``(SELECT group(arguments) FROM json_each(built) j WHERE j.type <> 'null')``: the JSON array or object
    ``built`` rebuilt without its NULL members, in their order."""
    rebuilt = exp.select(_anon(group, *arguments)).from_(
        exp.Table(this=_anon("json_each", built), alias=exp.TableAlias(this=exp.to_identifier("j")))).where(
        exp.NEQ(this=exp.column("type", "j"), expression=exp.Literal.string("null")))
    return exp.Subquery(this=rebuilt)


def empty_string_is_null(node: exp.Expression) -> exp.Expression:
    """Oracle treats ``''`` as NULL (in comparisons, concatenation inputs and stored values alike)."""
    if isinstance(node, exp.Literal) and node.is_string and node.this == "":
        return exp.Null()
    return node


#: The structural passes, in the order the translator chains them over every node (bottom-up).
def python_window_frames(node: exp.Expression) -> exp.Expression:
    """The last pass: no Python window function of lite's (functions.AGGREGATE_FUNCTIONS) may get a frame that
    can hold no row, since CPython 3.11's sqlite3 then kills the process. The rewrites avoid such frames (the
    decimal SUM leaves them to SQLite's, FrameValue widens them); this refuses whatever still has one
    (ORA-03001), so a new aggregate cannot bring the crash back."""
    if not (isinstance(node, exp.Window) and isinstance(node.this, exp.Anonymous) and frame_may_be_empty(node)):
        return node
    name = node.this.name.lower()
    if name not in AGGREGATE_FUNCTIONS:
        return node
    first = node.this.expressions[0] if node.this.expressions else None
    label = first.name if name == "ora_stat" and isinstance(first, exp.Literal) else name.removeprefix("ora_").upper()
    raise error(ERR_UNSUPPORTED, construct=f"{label} over a window frame that can hold no row (it ends before the "
                                           "current row or starts after it)")


PASSES: tuple[Pass, ...] = (
    vector_embedding_call,
    upper_case_binds,
    package_function_call,
    json_value_call,
    json_query_call,
    interval_number_call,
    oracle_function_call,
    ratio_to_report,
    one_to_one_functions,
    fetch_first_rows_only,
    interval_literal,
    extract_datetime_field,
    listagg_ordered,
    keep_and_percentiles,
    ignore_nulls_values,
    json_array_nulls,
    empty_string_is_null,
    python_window_frames,
)

rewrite_node: Pass = preprocess(PASSES)


# --------------------------------------------------------------------------- refusals and parse-time passes

_PARTITION_ONLY = {exp.GroupConcat: "LISTAGG", exp.Median: "MEDIAN", exp.JSONArrayAgg: "JSON_ARRAYAGG"}
_PARTITION_ONLY_BY_NAME = ("RATIO_TO_REPORT",)


def _partition_only_function(inner: exp.Expression) -> str | None:
    """The name of an analytic function whose OVER clause takes only PARTITION BY (None for any other)."""
    if is_keep(inner):
        return "KEEP (DENSE_RANK ...)"
    if isinstance(inner, exp.WithinGroup) and isinstance(inner.this, exp.Func):
        return inner.this.sql_name()
    if isinstance(inner, exp.Anonymous) and inner.name.upper() in _PARTITION_ONLY_BY_NAME:
        return inner.name.upper()
    return _PARTITION_ONLY.get(type(inner))


@unsupported_args(exp.With, ("search", ERR_UNSUPPORTED_CTE_SEARCH, {}))
def refuse_unimplemented_clauses(node: exp.Expression) -> exp.Expression:
    """Oracle clauses SQLite has no counterpart for, refused by name before anything else reads the
    statement: a recursive WITH's SEARCH clause, GROUPING() outside grouping sets, aggregate
    KEEP (DENSE_RANK ...) of another aggregate or with DISTINCT, hypothetical aggregates (``RANK(x) WITHIN
    GROUP``) and PREDICTION."""
    if isinstance(node, (exp.Grouping, exp.GroupingId)):   # left after grouping_sets.expand: no grouping sets
        raise error(ERR_UNSUPPORTED, construct="GROUPING() and GROUPING_ID() without ROLLUP, CUBE or GROUPING SETS")
    if is_analytic(node) and (node.args.get("order") is not None or node.args.get("spec") is not None):
        # Oracle's rule for these analytic functions; lite's versions (Python window functions) would also crash
        # the process on a frame without rows in it (CPython 3.11's sqlite3, see functions.FrameValue)
        name = _partition_only_function(node.this)
        if name is not None:
            raise error(ERR_ORDER_BY_NOT_ALLOWED, function=name)
    if is_analytic(node) and (isinstance(node.this.args.get("this"), exp.Distinct)
                              or isinstance(node.this, exp.ApproxDistinct)):
        # Oracle takes DISTINCT in an analytic aggregate with PARTITION BY only (ORA-30487 otherwise)
        name = (f"{node.this.sql_name()}(DISTINCT ...)" if not isinstance(node.this, exp.ApproxDistinct)
                else "APPROX_COUNT_DISTINCT(...)")
        if node.args.get("order") is not None or node.args.get("spec") is not None:
            raise error(ERR_ORDER_BY_NOT_ALLOWED, function=name)
        raise error(ERR_UNSUPPORTED, construct=f"{name} OVER (PARTITION BY ...) (lite has no DISTINCT "
                                               "in a window function: aggregate in a GROUP BY subquery and join it)")
    if is_keep(node):
        aggregate = node.this
        if type(aggregate) not in _KEEP_AGGREGATES or isinstance(aggregate.this, exp.Distinct):
            raise error(ERR_UNSUPPORTED_KEEP, aggregate=aggregate.sql(dialect=Oracle)[:60])
    if isinstance(node, exp.WithinGroup) and isinstance(node.this, tuple(_HYPOTHETICAL)):
        if isinstance(node.parent, exp.Window):
            raise error(ERR_UNSUPPORTED, construct=f"{node.this.sql_name()}(...) WITHIN GROUP with OVER (a "
                                                   "hypothetical rank is an aggregate only, as in Oracle)")
        if len(node.this.expressions) != len(node.expression.expressions):
            raise error(ERR_HYPOTHETICAL_ARGUMENTS, function=node.this.sql_name())
        return node
    if isinstance(node, exp.WithinGroup):
        percentile = isinstance(node.this, (exp.PercentileCont, exp.PercentileDisc))
        if not percentile:
            function = (node.this.name if isinstance(node.this, exp.Anonymous) else node.this.sql_name()
                        if isinstance(node.this, exp.Func) else node.this.sql(dialect=Oracle))
            raise error(ERR_UNSUPPORTED_WITHIN_GROUP, function=function.split("(")[0].upper())
        if len(node.expression.expressions) != 1:
            raise error(ERR_PERCENTILE_ONE_KEY)
    if isinstance(node, exp.Table) and isinstance(node.this, exp.Anonymous):
        raise error(ERR_UNSUPPORTED, construct=f"table functions and collections in FROM "
                                               f"({node.this.sql(dialect=Oracle)[:60]})")
    if isinstance(node, exp.Lateral):
        raise error(ERR_UNSUPPORTED, construct="LATERAL inline views (use a join or a correlated subquery)")
    if isinstance(node, Prediction):
        raise error(ERR_UNSUPPORTED_PREDICTION)
    if isinstance(node, (exp.XMLElement, exp.XMLTable)):
        raise error(ERR_UNSUPPORTED_ORACLE_FUNCTION, name="XMLELEMENT" if isinstance(node, exp.XMLElement)
                    else "XMLTABLE")
    return node


_DISTANCE_OPERATORS = {exp.NullSafeEQ: "COSINE", exp.Distance: "EUCLIDEAN", NegativeDotDistance: "DOT"}


def distance_operators(node: exp.Expression) -> exp.Expression:
    """Oracle 23ai's ``a <=> b`` (cosine), ``a <-> b`` (Euclidean) and ``a <#> b`` (negative dot product)
    become ``VECTOR_DISTANCE(a, b, metric)``, which the translator then answers like any distance."""
    metric = _DISTANCE_OPERATORS.get(type(node))
    if metric is None:
        return node
    return _anon("VECTOR_DISTANCE", node.this, node.expression, exp.column(metric))


_DISTANCE_FUNCTIONS = {"L1_DISTANCE": "MANHATTAN", "L2_DISTANCE": "EUCLIDEAN", "COSINE_DISTANCE": "COSINE",
                       "INNER_PRODUCT": "DOT"}


def distance_functions(node: exp.Expression) -> exp.Expression:
    """Oracle 23ai's shorthand functions ``L1_DISTANCE``, ``L2_DISTANCE``, ``COSINE_DISTANCE`` are
    ``VECTOR_DISTANCE(a, b, MANHATTAN|EUCLIDEAN|COSINE)``; ``INNER_PRODUCT(a, b)`` is the dot product, which
    is ``-VECTOR_DISTANCE(a, b, DOT)`` (the DOT metric is the negated product)."""
    if isinstance(node, (exp.EuclideanDistance, exp.CosineDistance)):
        metric = "EUCLIDEAN" if isinstance(node, exp.EuclideanDistance) else "COSINE"
        return _anon("VECTOR_DISTANCE", node.this, node.expression, exp.column(metric))
    if isinstance(node, exp.Anonymous) and node.name.upper() in _DISTANCE_FUNCTIONS and len(node.expressions) == 2:
        name = node.name.upper()
        call = _anon("VECTOR_DISTANCE", *node.expressions, exp.column(_DISTANCE_FUNCTIONS[name]))
        return exp.Neg(this=exp.Paren(this=call)) if name == "INNER_PRODUCT" else call
    return node


def select_for_update(node: exp.Expression) -> exp.Expression:
    """``SELECT ... FOR UPDATE [NOWAIT|WAIT n|SKIP LOCKED]`` returns the same rows; lite (one writer at a time,
    SQLite's database lock) takes no row locks, so the clause is dropped."""
    if isinstance(node, exp.Select) and node.args.get("locks"):
        node.set("locks", None)
    return node


def is_json_condition(node: exp.Expression) -> exp.Expression:
    """``expr IS [NOT] JSON [STRICT|LAX] [ALLOW|DISALLOW SCALARS] [WITH|WITHOUT UNIQUE KEYS]`` (Oracle's condition)
    is ``ora_is_json(expr, strict, unique, scalars) = 1``; NULL stays unknown. Oracle's defaults: LAX, ALLOW
    SCALARS, WITHOUT UNIQUE KEYS."""
    if not (isinstance(node, exp.Is) and isinstance(node.expression, exp.JSON)):
        return node
    options = node.expression.meta
    if options.get("kind") or node.expression.this:
        kind = options.get("kind") or node.expression.name
        raise error(ERR_UNSUPPORTED, construct=f"IS JSON {kind} (lite reads IS JSON [STRICT|LAX] "
                                               f"[ALLOW|DISALLOW SCALARS] [WITH|WITHOUT UNIQUE KEYS])")
    flags = [exp.Literal.number(int(bool(options.get(key, default))))
             for key, default in (("strict", False), ("unique", False), ("scalars", True))]
    return exp.Paren(this=exp.EQ(this=_anon("ora_is_json", node.this, *flags), expression=exp.Literal.number(1)))


def concat_to_pipes(node: exp.Expression) -> exp.Expression:
    """``CONCAT(a, b)`` is ``a || b`` in Oracle (NULL as '', numbers as TO_CHAR writes them)."""
    if isinstance(node, exp.Concat) and len(node.expressions) >= 2:
        result = node.expressions[0]
        for part in node.expressions[1:]:
            result = exp.DPipe(this=result, expression=part)
        return exp.Paren(this=result)
    return node


def insert_from_parenthesised_query(node: exp.Expression) -> exp.Expression:
    """``INSERT INTO t (cols) (SELECT ...)``: Oracle allows the query in parentheses, SQLite does not."""
    if isinstance(node, exp.Insert) and isinstance(node.expression, exp.Subquery) \
            and not node.expression.args.get("alias"):
        node.set("expression", node.expression.this)
    return node


_QUANTIFIED = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _in_condition_conjunct(node: exp.Expression) -> bool:
    """True when ``node`` is a WHERE/HAVING condition or one of its AND terms (where UNKNOWN acts as FALSE)."""
    parent = node.parent
    while isinstance(parent, (exp.And, exp.Paren)):
        parent = parent.parent
    return isinstance(parent, (exp.Where, exp.Having))


def _quantified_exists(node: exp.Expression, block: exp.Select, every: bool, three_valued: bool) -> exp.Expression:
    """``x op ANY|ALL (SELECT e ...)`` through EXISTS probes of ``(SELECT e AS v ...) q``, as Oracle defines them
    (ALL of no rows is true, ANY of no rows false).

    Where UNKNOWN counts as FALSE (a WHERE/HAVING condition or one of its AND terms) one probe says it:
    ANY is ``EXISTS (... WHERE x op q.v)``, ALL is ``NOT EXISTS (... WHERE NOT (x op q.v) OR (x op q.v) IS
    NULL)``. Anywhere else (under NOT, in an OR, in a CASE) UNKNOWN must stay UNKNOWN, so a second probe
    looks for a comparison with NULL and ``1 = NULL`` stands for UNKNOWN:
    ALL is ``NOT EXISTS (false one) AND (NOT EXISTS (unknown one) OR 1 = NULL)``,
    ANY is ``EXISTS (true one) OR (EXISTS (unknown one) AND 1 = NULL)``.
    """
    inner = block.copy()
    inner.set("expressions", [exp.alias_(inner.expressions[0].unalias(), "LITE_QUANTIFIED_V")])
    value = exp.column("LITE_QUANTIFIED_V", "LITE_QUANTIFIED_Q")
    comparison = type(node)(this=node.this.copy(), expression=value)

    def probe(condition: exp.Expression) -> exp.Exists:
        return exp.Exists(this=exp.select(exp.Literal.number(1)).from_(exp.Subquery(
            this=inner.copy(), alias=exp.TableAlias(this=exp.to_identifier("LITE_QUANTIFIED_Q")))).where(condition))

    unknown = exp.Is(this=exp.Paren(this=comparison.copy()), expression=exp.Null())
    decided = exp.Not(this=exp.Paren(this=comparison.copy())) if every else comparison.copy()
    if not three_valued:
        return exp.Not(this=probe(exp.or_(decided, unknown))) if every else probe(decided)
    null = exp.EQ(this=exp.Literal.number(1), expression=exp.Null())
    if every:
        return exp.Paren(this=exp.and_(exp.Not(this=probe(decided)),
                                       exp.Paren(this=exp.or_(exp.Not(this=probe(unknown)), null))))
    return exp.Paren(this=exp.or_(probe(decided), exp.Paren(this=exp.and_(probe(unknown), null))))


def quantified_comparison(node: exp.Expression) -> exp.Expression:
    """``x op ANY|SOME (...)`` / ``x op ALL (...)``, which SQLite lacks: ``= ANY`` is ``IN``, ``<> ALL`` is
    ``NOT IN``; over a list, ``x op ANY (a, b)`` is ``x op a OR x op b`` and ``ALL`` the same with AND (Oracle
    defines them so, NULLs included); any other comparison with a subquery is ORA-03001."""
    if not isinstance(node, _QUANTIFIED):
        return node
    quantifier = node.expression
    if isinstance(quantifier, exp.Anonymous) and quantifier.name.upper() in ("ALL", "ANY", "SOME"):
        # sqlglot reads "op ALL (a, b)" as a call of a function ALL
        kind = exp.All if quantifier.name.upper() == "ALL" else exp.Any
        quantifier = kind(this=exp.Tuple(expressions=list(quantifier.expressions)))
    if not isinstance(quantifier, (exp.Any, exp.All)):
        return node
    inner = quantifier.this
    if isinstance(inner, exp.Paren):
        inner = exp.Tuple(expressions=[inner.this])
    every = isinstance(quantifier, exp.All)
    if isinstance(inner, (exp.Select, exp.Subquery, exp.SetOperation)):
        query = inner if isinstance(inner, exp.Subquery) else exp.Subquery(this=inner)
        if isinstance(node, exp.EQ) and not every:
            return exp.In(this=node.this, query=query)
        if isinstance(node, exp.NEQ) and every:
            return exp.Not(this=exp.In(this=node.this, query=query))
        word = "ALL" if every else "ANY"
        block = query.this
        if isinstance(block, exp.Select) and len(block.expressions) == 1 \
                and not isinstance(block.expressions[0], exp.Star) and node.this.find(exp.AggFunc) is None:
            return _quantified_exists(node, block, every, three_valued=not _in_condition_conjunct(node))
        raise error(ERR_UNSUPPORTED, construct=f"a comparison with {word} (subquery) of an aggregate, or over a "
                                               f"set operation or more than one column")
    values = inner.expressions if isinstance(inner, exp.Tuple) else [inner]
    parts = [type(node)(this=node.this.copy(), expression=v.copy()) for v in values]
    combined = exp.and_(*parts) if every else exp.or_(*parts)
    return exp.Paren(this=combined)


_NOT_SCALAR_PARENTS = (exp.From, exp.Join, exp.In, exp.Exists, exp.Any, exp.All, exp.Merge, exp.Insert, exp.Create,
                       exp.CTE, exp.SetOperation, exp.Lateral, exp.Table, exp.Subquery)


def scalar_subquery_single_row(node: exp.Expression) -> exp.Expression:
    """A scalar subquery that returns more than one row is ORA-01427 in Oracle; SQLite silently takes the first
    row. A one-column subquery used as a value gets ``ORDER BY ora_single_row(COUNT(*) OVER ())`` (its other
    ORDER BY keys after it): the window counts the subquery's rows (after WHERE and GROUP BY) and the function
    raises ORA-01427 when there is more than one. Subqueries that cannot return two rows (an aggregate without
    GROUP BY, FETCH FIRST 1) and those the count would misjudge (DISTINCT, FETCH/OFFSET) are left as they are."""
    if not isinstance(node, exp.Subquery) or not isinstance(node.this, exp.Select) or node.args.get("alias"):
        return node
    parent = node.parent
    while isinstance(parent, exp.Paren):
        parent = parent.parent
    if parent is None or isinstance(parent, _NOT_SCALAR_PARENTS):
        return node
    select = node.this
    if len(select.expressions) != 1 or select.args.get("distinct") or select.args.get("limit") \
            or select.args.get("offset") or select.args.get("fetch") or not select.args.get("from_"):
        return node
    if not select.args.get("group") and any(_is_aggregate(agg) for agg in select.expressions[0].find_all(exp.AggFunc)):
        return node
    guard = exp.Ordered(this=_anon("ora_single_row", exp.Window(this=exp.Count(this=exp.Star()))))
    order = select.args.get("order")
    keys = [guard] + (list(order.expressions) if order is not None else [])
    select.set("order", exp.Order(expressions=keys))
    return node


def _is_aggregate(node: exp.Expression) -> bool:
    return isinstance(node, exp.AggFunc) and not isinstance(node.parent, exp.Window)


def nested_aggregates(node: exp.Expression) -> exp.Expression:
    """``SELECT MAX(COUNT(*)) FROM t GROUP BY g`` (an aggregate of the groups' aggregates, which Oracle allows
    with GROUP BY) is ``SELECT MAX(c1) FROM (SELECT COUNT(*) c1 FROM t GROUP BY g)``; SQLite refused it as a
    misuse of an aggregate. Every select-list item must then be such a nested aggregate (Oracle's rule)."""
    if not isinstance(node, exp.Select) or not node.args.get("group"):
        return node
    nested = [agg for e in node.expressions for agg in e.find_all(exp.AggFunc)
              if _is_aggregate(agg) and any(_is_aggregate(a) for a in agg.find_all(exp.AggFunc) if a is not agg)]
    if not nested:
        return node
    if node.args.get("order") or node.args.get("distinct"):
        raise error(ERR_UNSUPPORTED, construct="nested aggregate functions with ORDER BY or DISTINCT "
                                               "(aggregate the grouped rows in a subquery)")
    inner = node.copy()
    inner_columns: list[exp.Expression] = []
    outer = node.copy()
    outer.set("group", None)
    outer.set("having", None)
    outer.set("where", None)
    outer.set("joins", None)
    outer.set("with_", None)
    for item in outer.expressions:
        for agg in [a for a in item.find_all(exp.AggFunc) if _is_aggregate(a)]:
            inner_aggs = [a for a in agg.find_all(exp.AggFunc) if a is not agg and _is_aggregate(a)]
            for inner_agg in inner_aggs:
                if inner_agg.parent is None:
                    continue
                alias = f"LITE_NESTED_{len(inner_columns) + 1}"
                inner_columns.append(exp.alias_(inner_agg.copy(), alias))
                inner_agg.replace(exp.column(alias))
        if not any(_is_aggregate(a) for a in item.find_all(exp.AggFunc)):
            raise error(ERR_NOT_SINGLE_GROUP_NESTED)
    inner.set("expressions", inner_columns)
    outer.set("from_", exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(
        this=exp.to_identifier("LITE_GROUPS")))))
    return outer


def national_string(node: exp.Expression) -> exp.Expression:
    """``N'text'`` (a national character literal) is the text: lite's strings are Unicode already (SQLite
    read N'x' as a column N followed by a string, ORA-00904 "N")."""
    if isinstance(node, exp.National):
        return exp.Literal.string(node.name)
    return node


def decode_to_case(node: exp.Expression) -> exp.Expression:
    """``DECODE(expr, s1, r1, ..., [default])`` is a CASE over ``ora_decode_eq(expr, s)``: NULL matches NULL,
    and a number compared with a character value converts the text as Oracle's implicit conversion does
    (``DECODE(1, '1', 'a', 'b')`` is 'a'; SQLite's ``1 = '1'`` is false, so the CASE sqlglot writes said 'b')."""
    if not isinstance(node, exp.DecodeCase) or len(node.expressions) < 3:
        return node
    subject, *rest = node.expressions
    pairs = rest[:len(rest) // 2 * 2]
    default = rest[-1] if len(rest) % 2 else None
    ifs = [exp.If(this=exp.EQ(this=_anon("ora_decode_eq", subject.copy(), search), expression=exp.Literal.number(1)),
                  true=result) for search, result in zip(pairs[0::2], pairs[1::2])]
    return exp.Case(ifs=ifs, default=default)


def cast_with_length(node: exp.Expression) -> exp.Expression:
    """``CAST(x AS NUMBER(p, s))`` rounds to ``s`` decimals and checks ``p`` as a NUMBER(p, s) column does
    (SQLite's CAST kept 15.649 for NUMBER(5,1)); ``CAST('literal' AS VARCHAR2(n))`` longer than ``n`` bytes is
    Oracle's ORA-25137 (SQLite's CAST ignores the length)."""
    if not isinstance(node, exp.Cast) or not isinstance(node.args.get("to"), exp.DataType):
        return node
    to = node.args["to"]
    params = [p.this for p in to.expressions if isinstance(p, exp.DataTypeParam)]
    target = to.sql(dialect=Oracle).upper()
    if target.startswith(("NUMBER", "DECIMAL", "NUMERIC")) and len(params) == 2 \
            and all(isinstance(p, exp.Literal) for p in params):
        return _anon("ora_number_in", node.this, exp.Literal.number(int(params[0].name)),
                     exp.Literal.number(int(params[1].name)))
    if target.startswith(("VARCHAR2", "VARCHAR", "CHAR", "NVARCHAR2")) and isinstance(node.this, exp.Literal) \
            and node.this.is_string and params and isinstance(params[0], exp.Literal):
        limit = int(params[0].name)
        chars = "CHAR" in target.split("(", 1)[1]
        if (len(node.this.this) if chars else len(node.this.this.encode("utf-8"))) > limit:
            raise error(ERR_CAST_VALUE_OUT_OF_RANGE, value=node.this.this[:40], type=target)
    return node


def is_default_keyword(node: exp.Expression) -> bool:
    """Whether ``node`` is the DEFAULT keyword of ``VALUES (DEFAULT)`` (a Var) or ``SET c = DEFAULT`` (an unquoted
    column: a column named DEFAULT would have to be quoted, it is a reserved word)."""
    if isinstance(node, exp.Var):
        return node.name.upper() == "DEFAULT"
    return (isinstance(node, exp.Column) and not node.table and isinstance(node.this, exp.Identifier)
            and not node.this.quoted and node.name.upper() == "DEFAULT")


def _set_to_default(column: exp.Expression | None) -> bool:
    """Whether ``column`` is the DEFAULT of an UPDATE's (a MERGE's too) ``SET c = DEFAULT``."""
    assignment = column.parent if column is not None and is_default_keyword(column) else None
    return (isinstance(assignment, exp.EQ) and assignment.expression is column
            and isinstance(assignment.parent, exp.Update))


#: Checks run on every node of a freshly parsed statement (they raise or return the node).
def refuse_reserved_names(node: exp.Expression) -> exp.Expression:
    """An unquoted Oracle reserved word used as a name (``SELECT 1 AS order``, ``FROM dual order``) is a
    syntax error in Oracle; sqlglot reads many of them as names and SQLite takes them quoted, so they are
    refused here (a pseudocolumn such as ROWNUM or SYSDATE in column position is Oracle's own)."""
    if isinstance(node, exp.Identifier) and not node.quoted and node.name.upper() in ORACLE_RESERVED_WORDS:
        if isinstance(node.parent, exp.Column) and node.name.upper() in PSEUDOCOLUMNS:
            return node
        if _set_to_default(node.parent):
            return node   # UPDATE ... SET c = DEFAULT: the keyword (translate.py puts the column's default)
        raise error(ERR_RESERVED_WORD_AS_NAME, name=node.name.upper())
    return node


REFUSALS: tuple[Pass, ...] = (refuse_unimplemented_clauses, refuse_reserved_names)
#: Rewrites of the freshly parsed statement into the Oracle forms the rest of lite reads.
PARSE_PASSES: tuple[Pass, ...] = (distance_operators, distance_functions, insert_from_parenthesised_query,
                                  quantified_comparison, concat_to_pipes, select_for_update, is_json_condition,
                                  scalar_subquery_single_row, cast_with_length, decode_to_case, national_string,
                                  nested_aggregates, json_table.name_unaliased)


def prepare(tree: exp.Expression) -> exp.Expression:
    """Refuse what lite does not implement and normalise Oracle shorthands, right after parsing."""
    for block in [b for b in tree.find_all(exp.Select) if grouping_sets.uses_grouping_sets(b)]:
        tree = replace_block(tree, block, grouping_sets.expand(block))
    numbered_or_marked = False   # ROWNUM or (+) somewhere: noted on the refusals' walk, which sees every node
    for node in tree.walk():
        for refuse in REFUSALS:
            refuse(node)
        if isinstance(node, exp.Column) and (node.args.get("join_mark") or rownum.is_rownum(node)):
            numbered_or_marked = True
    # ROWNUM and (+) first: the parse passes read a block's LIMIT (a scalar subquery's single-row check does)
    # and its joins.
    if numbered_or_marked:
        for block in list(tree.find_all(exp.Select)):
            outer_join.outer_joins(block)
            rownum.number_rows(block)
        outer_join.refuse_leftovers(tree)
        rownum.refuse_leftovers(tree)
    return tree.transform(preprocess(PARSE_PASSES), copy=False)


# --------------------------------------------------------------------------- statement passes

def _alias_name(node: exp.Expression, default: str) -> str:
    alias = node.args.get("alias")
    return name_of(alias.this) if alias is not None else default


def _merge_delete(merge: exp.Merge, update_where: exp.Expression | None, target: exp.Table, source: exp.Expression,
                  on: exp.Expression, condition: exp.Expression) -> exp.Delete:
    """``... UPDATE SET ... DELETE WHERE c``: after the update, the updated rows for which ``c`` holds (on their
    new values, and the source row that matched them) are deleted, as Oracle does. Only the matched rows can
    be deleted, and the UPDATE just made every matched row an updated one, so the DELETE reads ``on`` and
    ``c``. With an UPDATE ... WHERE (matched rows left alone) or a WHEN NOT MATCHED clause (rows the INSERT
    adds would match too) that is no longer so: ORA-03001."""
    whens = merge.args["whens"].expressions
    if update_where is not None or any(not w.args.get("matched") for w in whens):
        raise error(ERR_UNSUPPORTED_MERGE_DELETE)
    probe = exp.select("1").from_(source.copy()).where(exp.and_(on.copy(), exp.Paren(this=condition.copy())))
    return exp.Delete(this=target, where=exp.Where(this=exp.Exists(this=probe)))


def merge_to_update_insert(merge: exp.Merge) -> list[exp.Expression]:
    """``MERGE INTO t USING s ON (c) WHEN MATCHED ... WHEN NOT MATCHED ...`` as the statements SQLite runs.

    * ``WHEN MATCHED THEN UPDATE SET ... [WHERE w]`` →
      ``UPDATE t AS <t alias> SET ... FROM s AS <s alias> WHERE c [AND w]``;
    * ``WHEN NOT MATCHED THEN INSERT (cols) VALUES (...) [WHERE w]`` →
      ``INSERT INTO t (cols) SELECT ... FROM s AS <s alias> WHERE NOT EXISTS
      (SELECT 1 FROM t AS <t alias> WHERE c) [AND w]``.

    The UPDATE runs first, so rows the INSERT adds are not updated, as in
    Oracle. ``UPDATE SET ... DELETE WHERE c`` adds a DELETE after the UPDATE
    (:func:`_merge_delete`); ``WHEN MATCHED AND`` is ORA-03001. The statements are still Oracle trees (Oracle names, no
    coercions): the translator types and translates them like any UPDATE and
    INSERT.
    """
    target = merge.this
    using = merge.args["using"]
    on = merge.args["on"]
    while isinstance(on, exp.Paren):
        on = on.this
    t_alias = _alias_name(target, name_of(target.this))
    s_alias = _alias_name(using, name_of(using.this) if isinstance(using, exp.Table) else "S")
    bare_target = target.copy()
    bare_target.set("alias", None)
    source = using.copy()
    source.set("alias", exp.TableAlias(this=exp.to_identifier(s_alias, quoted=True)))

    def aliased_target() -> exp.Table:
        table = bare_target.copy()
        table.set("alias", exp.TableAlias(this=exp.to_identifier(t_alias, quoted=True)))
        return table

    statements: list[exp.Expression] = []
    whens = merge.args["whens"].expressions if merge.args.get("whens") else []
    for when in whens:
        then = when.args["then"]
        matched = when.args.get("matched")
        if when.args.get("condition") is not None:
            raise error(ERR_UNSUPPORTED_MERGE_CLAUSE)  # WHEN [NOT] MATCHED AND ... is not Oracle's MERGE
        where = then.args.get("where") if isinstance(then, (exp.Update, exp.Insert)) else None
        condition = on.copy() if where is None else exp.and_(on.copy(), exp.Paren(this=where.this.copy()))
        if matched and isinstance(then, exp.Update):
            statements.append(exp.Update(
                this=aliased_target(),
                expressions=[a.copy() for a in then.expressions],
                from_=exp.From(this=source.copy()),
                where=exp.Where(this=condition)))
            delete_where = then.meta.get("delete_where")
            if delete_where is not None:
                statements.append(_merge_delete(merge, where, aliased_target(), source, on, delete_where))
        elif not matched and isinstance(then, exp.Insert):
            names = list(then.this.expressions) if then.this is not None else []
            values = then.expression.expressions if isinstance(then.expression, exp.Tuple) else [then.expression]
            missing = exp.Exists(this=exp.select("1").from_(aliased_target()).where(on.copy()))
            insert_where = exp.Not(this=missing)
            if where is not None:
                insert_where = exp.and_(insert_where, exp.Paren(this=where.this.copy()))
            select = exp.select(*[v.copy() for v in values]).from_(source.copy()).where(insert_where)
            into: exp.Expression = bare_target.copy()
            if names:
                into = exp.Schema(this=into, expressions=[
                exp.to_identifier(name_of(n.this if isinstance(n, exp.Column) else n), quoted=True) for n in names])
            statements.append(exp.Insert(this=into, expression=select))
        else:
            raise error(ERR_UNSUPPORTED_MERGE_CLAUSE)
    return statements
