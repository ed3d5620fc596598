"""JSON_TABLE: the rows Oracle's SQL/JSON function makes, computed in Python and read through SQLite's json_each.

Python cannot give SQLite a table function of its own, but SQLite's
``json_each`` is one, and like Oracle's JSON_TABLE it may read the columns of
the FROM items before it (an implicit lateral join). So

    JSON_TABLE(doc, 'row path' COLUMNS (...)) jt

is run as ``json_each(ora_json_table(doc, 'spec')) AS "JT"``: :func:`rows`
evaluates the row path and every column under Oracle's rules and returns the
rows as a JSON array of arrays, and each reference to a column becomes
``json_extract("JT".value, '$[i]')`` (:func:`column_value`). The scope
(scope.py) sees the columns with their Oracle types, so names are checked,
``*`` is spelled out and values convert back as for a table's columns.

The rules, from the SQL/JSON part of Oracle's JSON Developer's Guide:

* The row path's matches are the rows (lax: ``[*]`` on a non-array is the
  value itself); a document that is not JSON gives no rows (NULL ON ERROR, the
  default) or ORA-40441 (ERROR ON ERROR).
* A column reads its path (default ``$.<name as written>``) from the row's
  value as JSON_VALUE does (EXISTS: as JSON_EXISTS; FORMAT JSON: as
  JSON_QUERY) and converts it to its type (default VARCHAR2(4000)); a missing
  value takes ON EMPTY, a failure ON ERROR, both NULL unless the column or
  the table says otherwise.
* ``NESTED PATH`` joins each row to the rows of its path, outer: a row whose
  nested path matches nothing is kept with NULLs; sibling NESTED clauses are
  a union (each sibling's rows have the other siblings' columns NULL).
* ``FOR ORDINALITY`` numbers the rows of its own COLUMNS level from 1.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Any

from sqlglot import exp

from .catalog import parse_type
from .dialect import JsonTableColumn, Oracle
from .error_catalogue import (
    ERR_JSON_TABLE_DUPLICATE_COLUMN, ERR_JSON_TABLE_ORDINALITY, ERR_UNSUPPORTED, error,
)
from . import json_path
from .functions import json_matches, json_parsed, number_in, value_length
from .values import compact_json, format_datetime

FUNCTION = "ora_json_table"
#: json_each's own columns: a bare name in a query with a JSON_TABLE must not reach SQLite as one of them
JSON_EACH_COLUMNS = frozenset({"key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"})
_TYPES = ("NUMBER", "VARCHAR2", "CHAR", "CLOB", "DATE", "TIMESTAMP")
_DEFAULT_LENGTH = 4000   # VARCHAR2(4000), a column's type when none is given


# ----------------------------------------------------------------------------- the spec, from the parsed node

def spec(node: exp.JSONTable) -> dict[str, Any]:
    """The JSON_TABLE's row path, error handling and columns as the plain data :func:`rows` reads.

    The table's ON ERROR and ON EMPTY are the columns' defaults. Raises
    ORA-00957 for a column name used twice, the ordinality error for a second
    FOR ORDINALITY in one COLUMNS clause, and ORA-03001 for what lite does not
    evaluate (a column type other than NUMBER, VARCHAR2, CHAR, CLOB, DATE and
    TIMESTAMP; a path lite cannot read).
    """
    table_error = "ERROR" if str(node.args.get("error_handling") or "").upper().startswith("ERROR") else "NULL"
    empty = str(node.args.get("empty_handling") or "").upper()
    table_empty = ["ERROR", None] if empty.startswith("ERROR") else ["NULL", None] if empty else None
    names: set[str] = set()
    level = _level(_path(node.args.get("path")), node.args["schema"], (table_error, table_empty), names, [0])
    return {"error": table_error, "level": level}


def _level(path: str, schema: exp.Expression, table: tuple[str, list | None], names: set[str],
           counter: list[int]) -> dict:
    items: list[dict] = []
    ordinality = 0
    for column in schema.expressions:
        if column.args.get("nested_schema") is not None:
            items.append({"nested": _level(_path(column.args.get("path")), column.args["nested_schema"],
                                           table, names, counter)})
            continue
        name = _name(column.this)
        if name in names:
            raise error(ERR_JSON_TABLE_DUPLICATE_COLUMN, name=name)
        names.add(name)
        item: dict[str, Any] = {"index": counter[0], "name": name}
        counter[0] += 1
        if column.args.get("ordinality"):
            ordinality += 1
            if ordinality > 1:
                raise error(ERR_JSON_TABLE_ORDINALITY, name=name)
            item.update(kind="ordinality", type="NUMBER")
            items.append(item)
            continue
        item.update(_column_type(column, name))
        written = column.this.this   # the implicit path names the field as the column is written
        item["path"] = _path(column.args.get("path")) if column.args.get("path") else f'$."{written}"'
        item["kind"] = "exists" if column.args.get("exists") else \
            "query" if column.args.get("format_json") else "value"
        item["wrapper"] = int(column.args.get("wrapper") or 0)
        item["on_error"] = _handling(column.args.get("on_error")) or [table[0], None]
        item["on_empty"] = _handling(column.args.get("on_empty")) or table[1]
        items.append(item)
    return {"path": path, "items": items}


def _column_type(column: JsonTableColumn, name: str) -> dict[str, Any]:
    kind = column.args.get("kind")
    if kind is None:
        return {"type": "VARCHAR2", "length": _DEFAULT_LENGTH, "bytes": True}
    text = kind.sql(dialect=Oracle)
    try:
        ctype = parse_type(text)
    except (KeyError, ValueError):
        ctype = None
    if ctype is None or ctype.type_class not in _TYPES or ctype.data_type == "BOOLEAN":
        raise error(ERR_UNSUPPORTED, construct=f"JSON_TABLE column {name} of type {text} (lite reads NUMBER, "
                                               f"VARCHAR2, CHAR, CLOB, DATE and TIMESTAMP columns)")
    out: dict[str, Any] = {"type": ctype.type_class}
    if ctype.type_class in ("VARCHAR2", "CHAR"):
        out.update(length=ctype.length if ctype.length else (1 if ctype.type_class == "CHAR" else _DEFAULT_LENGTH),
                   bytes=ctype.char_used != "C")
    elif ctype.type_class == "NUMBER":
        out.update(precision=ctype.precision, scale=ctype.scale)
    elif ctype.type_class == "DATE":
        out["time"] = bool(column.args.get("time"))
    return out


def _handling(node: exp.Expression | None) -> list[Any] | None:
    """An ON ERROR / ON EMPTY clause as [mode, default value]."""
    if node is None:
        return None
    if isinstance(node, exp.Var):
        return [node.name, None]
    literal = node.this if isinstance(node, exp.Neg) else node
    value: Any = literal.this if literal.is_string else float(literal.this)
    if not literal.is_string:
        value = -value if isinstance(node, exp.Neg) else value
        value = int(value) if value.is_integer() else value
    return ["DEFAULT", value]


def _name(ident: exp.Expression) -> str:
    return ident.this if isinstance(ident, exp.Identifier) and ident.quoted else ident.name.upper()


def _path(node: exp.Expression | None) -> str:
    return json_path.checked(node.name if isinstance(node, exp.Literal) else "$", where="JSON_TABLE ")


def columns(node: exp.JSONTable) -> list[tuple[str, str]]:
    """(Oracle name, type class) of the JSON_TABLE's columns, NESTED columns where they are written."""
    out: list[tuple[str, str]] = []

    def walk(level: dict) -> None:
        for item in level["items"]:
            if "nested" in item:
                walk(item["nested"])
            else:
                out.append((item["name"], item["type"]))
    walk(spec(node)["level"])
    return out


# ----------------------------------------------------------------------------- the SQLite side

def name_unaliased(node: exp.Expression) -> exp.Expression:
    """A parse pass: an unaliased JSON_TABLE gets the alias ``__JT<n>`` (its place among its query's FROM
    items), so that the scope and the SQLite statement name its json_each alike; Oracle's own names for it
    are its columns, unqualified."""
    if isinstance(node, exp.Table) and isinstance(node.this, exp.JSONTable) and node.args.get("alias") is None:
        block = node.find_ancestor(exp.Select)
        items = ([block.args["from_"].this] if block is not None and block.args.get("from_") else []) + \
            [join.this for join in (block.args.get("joins") or [] if block is not None else [])]
        position = next((i for i, item in enumerate(items) if item is node), 0)
        node.set("alias", exp.TableAlias(this=exp.to_identifier(f"__JT{position}", quoted=True)))
    return node



def from_item(node: exp.JSONTable, alias: str) -> exp.Expression:
    """``json_each(ora_json_table(doc, 'spec'))`` for the FROM item whose JSON_TABLE is ``node``."""
    text = json.dumps(spec(node), separators=(",", ":"))
    call = exp.Anonymous(this=FUNCTION, expressions=[node.this, exp.Literal.string(text)])
    return exp.Table(this=exp.Anonymous(this="json_each", expressions=[call]),
                     alias=exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))


def column_value(alias: str, index: int) -> exp.Expression:
    """The value of the JSON_TABLE column at ``index`` in the row json_each gives under ``alias``."""
    read = exp.Anonymous(this="json_extract", expressions=[
        exp.column("value", table=exp.to_identifier(alias, quoted=True)), exp.Literal.string(f"$[{index}]")])
    read.meta["lite"] = True   # SQLite's own json_extract, written by lite (a statement's JSON_EXTRACT is not Oracle)
    return read


# ----------------------------------------------------------------------------- the rows (a SQLite function)

class _ColumnError(Exception):
    """A column's value failed; its ON ERROR clause decides (``code``: Oracle's message)."""


@functools.lru_cache(maxsize=64)
def _load_spec(text: str) -> dict[str, Any]:
    return json.loads(text)


def rows(doc: Any, spec_text: str) -> str:
    """``ora_json_table(doc, spec)``: the JSON_TABLE's rows as a JSON array of arrays, one value per column."""
    table = _load_spec(spec_text)
    width = _width(table["level"])
    if doc is None:
        return "[]"
    try:
        data = json_parsed(doc if isinstance(doc, str) else "")
    except ValueError:
        if table["error"] == "ERROR":
            raise
        return "[]"
    out = []
    for values in _level_rows(data, table["level"]):
        row: list[Any] = [None] * width
        for index, value in values.items():
            row[index] = value
        out.append(row)
    return compact_json(out)


def _width(level: dict) -> int:
    return sum(_width(i["nested"]) if "nested" in i else 1 for i in level["items"])


def _level_rows(context: Any, level: dict) -> list[dict[int, Any]]:
    out: list[dict[int, Any]] = []
    nested = [item["nested"] for item in level["items"] if "nested" in item]
    for ordinal, item in enumerate(json_matches(context, level["path"]), 1):
        own = {c["index"]: _value(c, item, ordinal) for c in level["items"] if "nested" not in c}
        below = [r for child in nested for r in _level_rows(item, child)]
        out += [{**own, **r} for r in below] if below else [own]
    return out


def _value(column: dict, item: Any, ordinal: int) -> Any:
    if column["kind"] == "ordinality":
        return ordinal
    found = json_matches(item, column["path"])
    try:
        if column["kind"] == "exists":
            return _typed(column, "true" if found else "false") if column["type"] != "NUMBER" else int(bool(found))
        if not found:
            return _empty(column)
        if column["kind"] == "query":
            return _query(column, found)
        if len(found) > 1:
            raise _ColumnError("ORA-40470: JSON_VALUE evaluated to multiple values")
        value = found[0]
        if isinstance(value, (dict, list)):
            raise _ColumnError(f"ORA-40456: JSON_VALUE evaluated to non-scalar value (path {column['path']})")
        return _typed(column, value)
    except _ColumnError as failure:
        mode, default = column["on_error"]
        if mode == "ERROR":
            raise ValueError(str(failure)) from None
        return _fixed(column, mode, default)


def _empty(column: dict) -> Any:
    if column["on_empty"] is None:   # without ON EMPTY, a missing value is an error
        raise _ColumnError(f"ORA-40462: JSON_VALUE evaluated to no value (path {column['path']})")
    mode, default = column["on_empty"]
    if mode == "ERROR":
        raise ValueError(f"ORA-40462: JSON_VALUE evaluated to no value (path {column['path']})")
    return _fixed(column, mode, default)


def _fixed(column: dict, mode: str, default: Any) -> Any:
    """The value an ON ERROR / ON EMPTY clause gives (other than ERROR)."""
    if mode == "DEFAULT":
        try:
            return _typed(column, default)
        except _ColumnError as failure:
            raise ValueError(str(failure)) from None
    if mode in ("EMPTY ARRAY", "EMPTY OBJECT"):
        return "[]" if mode == "EMPTY ARRAY" else "{}"
    if mode in ("TRUE", "FALSE"):
        return _typed(column, mode.lower()) if column["type"] != "NUMBER" else int(mode == "TRUE")
    return None


def _query(column: dict, found: list[Any]) -> Any:
    """A FORMAT JSON column: the object or array at the path as JSON text (JSON_QUERY's rules)."""
    wrapper = column["wrapper"]
    if wrapper == 2 and len(found) == 1 and isinstance(found[0], (dict, list)):
        wrapper = 0
    if wrapper:
        value: Any = found
    elif len(found) > 1 or not isinstance(found[0], (dict, list)):
        raise _ColumnError("ORA-40480: result cannot be returned without array wrapper")
    else:
        value = found[0]
    return _typed(column, compact_json(value))


def _typed(column: dict, value: Any) -> Any:
    """A JSON scalar as the column's type holds it (lite's stored form), or a _ColumnError."""
    if value is None:
        return None
    kind = column["type"]
    if kind == "NUMBER":
        if isinstance(value, bool):
            raise _ColumnError("ORA-01722: invalid number")
        try:
            return number_in(value, column.get("precision"), column.get("scale"))
        except ValueError as failure:
            raise _ColumnError(str(failure)) from None
    if kind in ("DATE", "TIMESTAMP"):
        return _datetime(value, kind, column.get("time", False))
    text = json_path.scalar_text(value)
    if text == "":
        return None   # Oracle has no empty string
    length = column.get("length")
    if length is not None and value_length(text, column.get("bytes", True)) > length:
        raise _ColumnError(f"ORA-40478: output value too large (maximum: {length})")
    if kind == "CHAR":
        text = text.ljust(length - (value_length(text, column.get("bytes", True)) - len(text)))
    return text


def _datetime(value: Any, kind: str, keep_time: bool) -> str:
    """An ISO 8601 date or date-time string as a DATE (time dropped unless PRESERVE TIME) or TIMESTAMP."""
    if not isinstance(value, str):
        raise _ColumnError(f"ORA-01861: literal does not match format string ({value!r} is not an ISO 8601 date)")
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        raise _ColumnError(f"ORA-01861: literal does not match format string ({value!r} is not an ISO 8601 date)"
                           ) from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(dt.timezone.utc).replace(tzinfo=None)
    if kind == "DATE":
        return format_datetime(parsed if keep_time else dt.datetime.combine(parsed.date(), dt.time()),
                               timestamp=False)
    return format_datetime(parsed)
