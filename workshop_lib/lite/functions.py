"""Oracle built-in functions that SQLite lacks, registered as SQLite functions.

The translator (translate.py) rewrites each Oracle call into a call of one of
these ``ora_*`` functions; values use the storage forms of values.py.
Vector ranking over a whole table does not come through here row by row:
the connection precomputes it with numpy (see connection.py).
"""

from __future__ import annotations

import calendar
import collections
import datetime as dt
import decimal
import functools
import json
import math
import re
import sqlite3
from typing import Any, Callable

import numpy as np

from . import formats, json_path, raw
from .error_catalogue import ERR_VALUE_TOO_LARGE, error
from .values import (VECTOR_MAGIC, compact_json, encode_vector, format_datetime, geometry_text,
                     is_vector_blob, parse_stored_datetime, vector_as_numpy)

EARTH_RADIUS_KM = 6371.0088  # mean Earth radius (IUGG); lite's SDO distances are haversine on it

_UNIT_KM = {"KM": 1.0, "KILOMETER": 1.0, "M": 0.001, "METER": 0.001, "MILE": 1.609344,
            "NAUT_MILE": 1.852, "NM": 1.852}


def _as_vector(value: Any) -> np.ndarray:
    if value is None:
        raise ValueError("NULL vector")
    if is_vector_blob(value):
        return vector_as_numpy(value)
    if isinstance(value, (int, float)):   # text converts ('[1, 2]'), a number does not
        raise ValueError(f"ORA-00932: inconsistent datatypes: expected VECTOR got NUMBER ({value!r})")
    return vector_as_numpy(encode_vector(value))


def vector_distance(a: Any, b: Any, metric: str | None = "COSINE") -> float | None:
    """VECTOR_DISTANCE(a, b, metric): COSINE (1 - cos), EUCLIDEAN, EUCLIDEAN_SQUARED, DOT (-a.b), MANHATTAN."""
    if a is None or b is None:
        return None
    x, y = _as_vector(a).astype(np.float64), _as_vector(b).astype(np.float64)
    if x.shape != y.shape:
        raise ValueError(f"ORA-51808: VECTOR_DISTANCE of vectors with {x.size} and {y.size} dimensions")
    metric = (metric or "COSINE").upper()
    if metric == "COSINE":
        denom = float(np.linalg.norm(x) * np.linalg.norm(y))
        return 1.0 - float(x @ y) / denom if denom else 1.0
    if metric in ("EUCLIDEAN", "L2"):
        return float(np.linalg.norm(x - y))
    if metric in ("EUCLIDEAN_SQUARED", "L2_SQUARED"):
        return float(((x - y) ** 2).sum())
    if metric == "DOT":
        return -float(x @ y)
    if metric in ("MANHATTAN", "L1"):
        return float(np.abs(x - y).sum())
    raise ValueError(f"unknown VECTOR_DISTANCE metric {metric}")


def distances_to(matrix: np.ndarray, query: np.ndarray, metric: str,
                 row_norms: np.ndarray | None = None) -> np.ndarray:
    """Distances from every row of ``matrix`` to ``query`` with the VECTOR_DISTANCE metric (vectorised).

    Each row's distance is computed from that row alone, the same bits
    wherever the row sits in ``matrix``: the dot products are numpy's einsum
    loop, not a BLAS matrix-vector product, whose blocking and threads give a
    row a different last bit at another position (as fast here: the product is
    memory-bound). That is what lets a cached matrix keep deleted rows' slots
    (caches.VectorColumn) and still answer as a fresh load would.
    ``row_norms`` (the rows' Euclidean norms) may be passed in when cached, as
    recomputing them costs more than the distances themselves.
    """
    metric = metric.upper()
    q = query.astype(np.float32)
    if metric == "COSINE":
        if row_norms is None:
            row_norms = rows_norms(matrix)
        norms = row_norms * float(np.linalg.norm(q))
        norms[norms == 0] = 1.0
        return 1.0 - _row_dots(matrix, q) / norms
    if metric in ("EUCLIDEAN", "L2"):
        return np.linalg.norm(matrix - q, axis=1)
    if metric in ("EUCLIDEAN_SQUARED", "L2_SQUARED"):
        return ((matrix - q) ** 2).sum(axis=1)
    if metric == "DOT":
        return -_row_dots(matrix, q)
    if metric in ("MANHATTAN", "L1"):
        return np.abs(matrix - q).sum(axis=1)
    raise ValueError(f"unknown VECTOR_DISTANCE metric {metric}")


def _row_dots(matrix: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``matrix @ q``, each row's product from that row alone (see distances_to)."""
    return np.einsum("ij,j->i", matrix, q, optimize=False)


def rows_norms(matrix: np.ndarray) -> np.ndarray:
    """The Euclidean norm of each row, computed from that row alone (see distances_to), without the temporary
    matrix of squares ``np.linalg.norm`` makes (150 MB, five times slower, at 10^5 vectors of 384)."""
    return np.sqrt(np.einsum("ij,ij->i", matrix, matrix, optimize=False))


def to_vector(value: Any, dimensions: Any = None, fmt: Any = None) -> bytes | None:
    """TO_VECTOR(text|vector [, dimensions [, FLOAT32|FLOAT64]]), also used for values written to a VECTOR column.

    With a format the vector is stored in it (a FLOAT32 array written to a FLOAT64
    column becomes FLOAT64, as in Oracle); with dimensions a different length
    raises ORA-51803.
    """
    if value is None:
        return None
    if fmt is not None and str(fmt).upper() not in ("FLOAT32", "FLOAT64", "*"):
        raise ValueError(f"ORA-51813: vector format {fmt} is not supported by the lite backend (FLOAT32, FLOAT64)")
    target = {"FLOAT32": "f", "FLOAT64": "d"}.get(str(fmt).upper()) if fmt is not None else None
    blob = encode_vector(value, target or "f")  # text and lists are read straight into the target format
    if target is not None and VECTOR_MAGIC[blob[:4]] != target:
        # encode_vector casts (and refuses a value beyond the target's range: ORA-51805)
        blob = encode_vector(vector_as_numpy(blob), target)
    if dimensions not in (None, "*"):
        count = (len(blob) - 4) // (8 if VECTOR_MAGIC[blob[:4]] == "d" else 4)
        if count != int(dimensions):
            raise ValueError(f"ORA-51803: Vector dimension count must match the dimension count specified in "
                             f"the column definition (actual: {count}, required: {int(dimensions)}).")
    return blob


def vector_dims(value: Any) -> int | None:
    """VECTOR_DIMENSION_COUNT(v)."""
    return None if value is None else int(_as_vector(value).size)


def vector_norm(value: Any) -> float | None:
    """VECTOR_NORM(v): Euclidean norm."""
    return None if value is None else float(np.linalg.norm(_as_vector(value)))


def json_text(value: Any) -> str | None:
    """Validate and normalise a value written to a JSON column (ORA-40441 when not JSON)."""
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return json.dumps(value)
    try:
        return compact_json(json.loads(value, parse_constant=_not_json))
    except (TypeError, ValueError):
        raise ValueError("ORA-40441: JSON syntax error (value written to a JSON column is not JSON)") from None


_MISSING = object()
_INVALID = object()

_LAX_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[A-Za-z_$][A-Za-z0-9_$]*|\s+|.', re.S)


def _lax_to_strict(text: str) -> str:
    """Oracle's lax JSON syntax (its default for JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_TABLE and IS JSON)
    as strict JSON: unquoted field names and single-quoted strings are quoted; true/false/null in any letter
    case; a trailing comma in an array or object is dropped."""
    out: list[str] = []
    tokens = _LAX_TOKEN.findall(text)
    for i, token in enumerate(tokens):
        if token == "," and "".join(tokens[i + 1:i + 3]).lstrip()[:1] in ("]", "}"):
            continue   # a trailing comma, as in [1, 2, ]
        if token.startswith("'"):
            inner = token[1:-1].replace("\\'", "'")
            out.append(json.dumps(json.loads('"' + inner.replace('"', '\\"') + '"')))
        elif token[0].isalpha() or token[0] in "_$":
            rest = "".join(tokens[i + 1:i + 3]).lstrip()
            if rest.startswith(":"):
                out.append(json.dumps(token))
            elif token.lower() in ("true", "false", "null"):
                out.append(token.lower())
            else:
                out.append(token)   # not JSON: json.loads refuses it
        else:
            out.append(token)
    return "".join(out)


@functools.lru_cache(maxsize=32)
def _json_load(doc: str) -> Any:
    """``doc`` parsed as Oracle reads JSON text by default (lax syntax); _INVALID when it is not JSON.

    Cached: a row's document is read by each JSON_VALUE/JSON_QUERY/JSON_EXISTS of the select list in turn.
    The parsed value is shared, so callers only read it.
    """
    try:
        return json.loads(doc, parse_constant=_not_json)
    except ValueError:
        pass
    try:
        return json.loads(_lax_to_strict(doc), parse_constant=_not_json)
    except ValueError:
        return _INVALID


def _not_json(constant: str) -> Any:
    """NaN, Infinity and -Infinity: Python's json reads them, JSON (and Oracle) does not."""
    raise ValueError(f"{constant} is not JSON")


def _json_path(path: str) -> json_path.Path:
    """``path`` parsed (cached); ValueError with Oracle's error when it is not one lite evaluates."""
    try:
        return json_path.parse(path)
    except json_path.Unsupported as exc:
        raise ValueError(f"ORA-03001: unimplemented feature in the lite backend: {exc.construct}") from None


def _json_data(doc: Any) -> Any:
    """The parsed document: _MISSING for NULL, _INVALID for text that is not JSON."""
    if doc is None:
        return _MISSING
    return _json_load(doc) if isinstance(doc, str) else doc


def _json_at(doc: Any, path: str) -> Any:
    """The one JSON value a field-and-index ``path`` names in ``doc`` (simple dot notation), or _MISSING
    (_INVALID when doc is not JSON); a field of an array is not looked for in its elements."""
    data = _json_data(doc)
    if data is _MISSING or data is _INVALID:
        return data
    for step in _json_path(path).steps:
        if isinstance(step, json_path.Field):
            if not isinstance(data, dict) or step.name not in data:
                return _MISSING
            data = data[step.name]
            continue
        found = json_path.matches(data, json_path.Path((step,)))
        if not isinstance(data, list) or len(found) != 1:
            return _MISSING
        data = found[0]
    return data


def json_value(doc: Any, path: str, on_empty: Any = None, empty_default: Any = None, on_error: Any = "NULL",
               error_default: Any = None) -> Any:
    """JSON_VALUE(doc, path [... ON EMPTY] [... ON ERROR]): the one scalar ``path`` reaches, as text.

    ``on_empty``/``on_error`` are ``NULL``, ``ERROR`` or ``DEFAULT`` (with its value); Oracle's defaults are
    NULL ON ERROR and, without an ON EMPTY clause, the ON ERROR behaviour for a path that matches nothing.
    An object or array, several values, or a document that is not JSON, is an error (NULL by default).
    """
    if doc is None:
        return None
    data = _json_data(doc)
    found = [] if data is _INVALID else json_path.matches(data, _json_path(path))
    if data is not _INVALID and not found:
        mode, default = (on_empty, empty_default) if on_empty is not None else (on_error, error_default)
        if mode == "ERROR":
            raise ValueError(f"ORA-40462: JSON_VALUE evaluated to no value (path {path})")
        return default if mode == "DEFAULT" else None
    if data is _INVALID or len(found) > 1 or isinstance(found[0], (dict, list)):
        if on_error == "ERROR":
            raise ValueError("ORA-40441: JSON syntax error" if data is _INVALID else
                             "ORA-40470: JSON_VALUE evaluated to multiple values" if len(found) > 1 else
                             f"ORA-40456: JSON_VALUE evaluated to non-scalar value (path {path})")
        return error_default if on_error == "DEFAULT" else None
    value = found[0]
    if value is None or value == "":   # Oracle has no empty string: "" is NULL
        return None
    return json_path.scalar_text(value)


def json_matches(data: Any, path: str) -> list[Any]:
    """Every value ``path`` reaches in the parsed JSON ``data``, in document order, as Oracle's lax mode reads
    it (:mod:`json_path`); ValueError (ORA-40442) for a path that is not one."""
    return json_path.matches(data, _json_path(path))


def json_parsed(doc: str) -> Any:
    """``doc`` read as Oracle reads JSON text by default (lax syntax); ValueError (ORA-40441) when not JSON.
    The value may be shared with other readers of the same text: read it, do not change it."""
    data = _json_load(doc)
    if data is _INVALID:
        raise ValueError("ORA-40441: JSON syntax error")
    return data


def json_query(doc: Any, path: str, wrapper: Any = 0) -> str | None:
    """JSON_QUERY(doc, path [WITH [CONDITIONAL] WRAPPER]): the object or array at ``path`` as JSON text; NULL
    for scalars, misses and several matches (NULL ON ERROR). ``wrapper`` 1 (WITH WRAPPER): every match, in
    an array; 2 (CONDITIONAL): the same unless the one match is an object or array."""
    data = _json_data(doc)
    if data is _MISSING or data is _INVALID:
        return None
    found = json_path.matches(data, _json_path(path))
    if wrapper:
        if int(wrapper) == 2 and len(found) == 1 and isinstance(found[0], (dict, list)):
            return compact_json(found[0])
        return compact_json(found)
    if len(found) != 1 or not isinstance(found[0], (dict, list)):
        return None
    return compact_json(found[0])


def json_dot(doc: Any, path: str) -> str | None:
    """``alias.json_column.field...`` (simple dot notation on a JSON column): the value at ``path`` as JSON
    text (a JSON scalar, object or array, as Oracle 23ai returns a JSON-type value); NULL when absent."""
    data = _json_at(doc, path)
    if data is _MISSING or data is _INVALID or data is None:
        return None
    return compact_json(data)


def _json_document(value: Any, function: str) -> Any:
    """An argument of JSON_SERIALIZE / JSON_MERGEPATCH / JSON_EQUAL parsed (lax syntax, as Oracle reads JSON
    text by default); ORA-40441 naming the function when it is not JSON."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    data = _json_load(value) if isinstance(value, str) else _INVALID
    if data is _INVALID:
        raise ValueError(f"ORA-40441: JSON syntax error (the argument of {function} is not JSON)")
    return data


def json_serialize(value: Any) -> str | None:
    """JSON_SERIALIZE(doc): the JSON value as compact JSON text (lax input, such as ``{a:1}``, written strictly)."""
    return None if value is None else compact_json(_json_document(value, "JSON_SERIALIZE"))


def json_mergepatch(target: Any, patch: Any) -> str | None:
    """JSON_MERGEPATCH(target, patch): ``target`` changed by ``patch`` as RFC 7396 defines it (a patch member
    that is null removes the field, an object merges recursively, anything else replaces), as JSON text."""
    if target is None or patch is None:
        return None

    def merged(base: Any, change: Any) -> Any:
        if not isinstance(change, dict):
            return change
        out = dict(base) if isinstance(base, dict) else {}
        for key, value in change.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = merged(out.get(key), value)
        return out

    return compact_json(merged(_json_document(target, "JSON_MERGEPATCH"), _json_document(patch, "JSON_MERGEPATCH")))


def json_equal(left: Any, right: Any) -> int | None:
    """JSON_EQUAL(a, b) as 1/0: the same JSON value whatever the spacing and member order; numbers equal by
    value (``1`` and ``1.0``), a boolean never equal to a number. NULL for a NULL argument."""
    if left is None or right is None:
        return None

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
            return type(a) is type(b) and a == b
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        numbers = (int, float)
        if isinstance(a, numbers) and isinstance(b, numbers):
            return a == b
        return type(a) is type(b) and a == b

    return int(same(_json_document(left, "JSON_EQUAL"), _json_document(right, "JSON_EQUAL")))


def row_count(value: Any) -> int:
    """A FETCH FIRST / OFFSET count as Oracle reads it: the fraction dropped, a negative or NULL count 0, text
    converted as TO_NUMBER does (ORA-01722)."""
    if value is None:
        return 0
    number = _numeric(value)
    if isinstance(number, float) and not math.isfinite(number):
        return 0 if number < 0 else 2 ** 62
    return max(0, math.trunc(number))


def nanvl(value: Any, instead: Any) -> Any:
    """NANVL(n, m): ``m`` when ``n`` is NaN (a BINARY_DOUBLE/FLOAT value), else ``n``; NULL for a NULL."""
    if value is None or instead is None:
        return None
    return instead if isinstance(value, float) and math.isnan(value) else value


def to_binary_double(value: Any) -> float | None:
    """TO_BINARY_DOUBLE(x): a number or numeric text as an IEEE double (ORA-01722 for text that is not one);
    Oracle's 'INF', '-INF' and 'NaN' spellings included."""
    if value is None:
        return None
    if isinstance(value, str):
        special = {"INF": math.inf, "-INF": -math.inf, "NAN": math.nan}.get(value.strip().upper())
        return special if special is not None else float(_numeric(value))
    return float(value)


def to_binary_float(value: Any) -> float | None:
    """TO_BINARY_FLOAT(x): as TO_BINARY_DOUBLE, rounded to single precision."""
    double = to_binary_double(value)
    return None if double is None else float(np.float32(double))


def bin_to_num(*bits: Any) -> int | None:
    """BIN_TO_NUM(b1, ..., bn): the bits (each 0 or 1, most significant first) as a number; ORA-01760 otherwise."""
    if any(b is None for b in bits):
        return None
    number = 0
    for bit in bits:
        bit = _numeric(bit)
        if bit not in (0, 1):
            raise ValueError("ORA-01760: illegal argument for function (BIN_TO_NUM takes only 0 and 1)")
        number = number * 2 + int(bit)
    return number


def varchar_in(value: Any, length: Any, in_bytes: Any = 1) -> Any:
    """A value written to a VARCHAR2(n)/CHAR(n) column: ORA-12899 when it is longer than ``n``.

    ``n`` counts UTF-8 bytes (Oracle's default BYTE semantics; AL32UTF8 stores
    'İstanbul' in 9 bytes) unless the column was declared ``VARCHAR2(n CHAR)``
    (``in_bytes`` 0), when it counts characters.
    """
    if isinstance(value, str) and length is not None:
        actual = value_length(value, bool(in_bytes))
        if actual > int(length):
            raise error(ERR_VALUE_TOO_LARGE, actual=actual, maximum=int(length))
    return value


def value_length(value: str, in_bytes: bool) -> int:
    """The length Oracle compares with a VARCHAR2/CHAR column's limit: UTF-8 bytes, or characters."""
    return len(value.encode("utf-8", "surrogatepass")) if in_bytes else len(value)


def _numeric(value: Any) -> Any:
    """A NUMBER argument as Oracle converts it implicitly: text through TO_NUMBER (ORA-01722 when it is not
    a number), a VECTOR or other binary value ORA-00932 (Oracle does not convert those), a number as it is."""
    if isinstance(value, str):
        return formats.to_number(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        got = "VECTOR" if is_vector_blob(value) else "BLOB"
        raise ValueError(f"ORA-00932: inconsistent datatypes: expected NUMBER got {got}")
    return value


def _float(value: Any) -> float:
    """A NUMBER argument of a math function (SQRT, POWER, LN, ...) as a float, converted as :func:`_numeric`."""
    return float(_numeric(value))


def _plain_number(value: Any) -> Any:
    """A whole float as an int (``17000``, not ``17000.0``), as Oracle's NUMBER shows it; anything else as it is."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _text(value: Any) -> Any:
    """A character argument as Oracle converts it implicitly: text as it is, a number as TO_CHAR writes it."""
    return value if isinstance(value, str) else to_char(value)


def oracle_round(value: Any, places: Any = 0) -> int | float | None:
    """ROUND(n, places) with any ``places``, negative included (ROUND(1234.5678, -2) is 1200), half away
    from zero on the decimal value as written (SQLite's round() treats negative places as 0)."""
    if value is None or places is None:
        return None
    # Oracle takes any integer for places; beyond NUMBER's 130 digits either way the value is unchanged or 0
    return _round_half_up(_numeric(value), max(-130, min(130, int(_float(places)))))


def _round_half_up(number: int | float, places: int) -> int | float:
    """``number`` rounded half away from zero to ``places`` decimals (negative: tens, hundreds, ...) on its
    decimal value as written (repr), as Oracle's ROUND and a NUMBER(p, s) column do; an int when whole."""
    quantum = decimal.Decimal(1).scaleb(-places)
    rounded = _WIDE.quantize(decimal.Decimal(repr(number)), quantum)
    # an int only where SQLite can store one (64 bits); beyond that SQLite keeps numbers as REAL
    whole = rounded == rounded.to_integral_value() and abs(rounded) < 2 ** 63
    return int(rounded) if whole else float(rounded)


# Wide enough for any NUMBER (up to 10^126 with 38-digit precision) at any scale: Decimal's default 28
# digits made quantize raise InvalidOperation for 1e20 written to NUMBER(38, 10).
_WIDE = decimal.Context(prec=200, rounding=decimal.ROUND_HALF_UP)


def oracle_mod(m: Any, n: Any) -> int | float | None:
    """MOD(m, n): ``m`` when ``n`` is 0, else the remainder with the sign of ``m`` (non-integers too)."""
    if m is None or n is None:
        return None
    m, n = _numeric(m), _numeric(n)
    if n == 0:
        return m
    if isinstance(m, int) and isinstance(n, int):
        return int(math.fmod(m, n))
    result = float(decimal.Decimal(repr(m)) % decimal.Decimal(repr(n)))   # Decimal % keeps m's sign
    return int(result) if result.is_integer() else result


def oracle_divide(a: Any, b: Any) -> float | None:
    """a / b, with ORA-01476 for a zero divisor (SQLite returns NULL); decimal arithmetic when either is not
    a whole number (:func:`decimal_arithmetic`)."""
    if a is None or b is None:
        return None
    a, b = _numeric(a), _numeric(b)
    if b == 0:
        raise ValueError("ORA-01476: divisor is equal to zero")
    if isinstance(a, float) or isinstance(b, float):
        return _from_decimal(_NUMBER.divide(_decimal(a), _decimal(b)))
    return a / b


# Oracle's NUMBER keeps 38 to 40 significant decimal digits; its arithmetic is decimal, so 0.1 + 0.2 is 0.3
_NUMBER = decimal.Context(prec=40, rounding=decimal.ROUND_HALF_UP, Emax=126, Emin=-130)


def _decimal(value: int | float) -> decimal.Decimal:
    """The decimal number a stored value stands for: an int exactly, a float as the shortest decimal that reads
    back as it (``repr``), which is the literal or NUMBER value it was made from."""
    return decimal.Decimal(value) if isinstance(value, int) else decimal.Decimal(repr(value))


def _decimal_total(numbers: list[int | float]) -> decimal.Decimal:
    """The exact decimal sum of NUMBER values (as Oracle adds them), at NUMBER's 40 digits."""
    total = decimal.Decimal(0)
    for number in numbers:
        total = _NUMBER.add(total, _decimal(number))
    return total


def _from_decimal(value: decimal.Decimal) -> int | float:
    """A decimal result as lite stores NUMBER values: an int when whole and within SQLite's 64 bits, else the
    nearest float (what python-oracledb gives for Oracle's NUMBER)."""
    if value == value.to_integral_value() and abs(value) < 2 ** 63:
        return int(value)
    return float(value)


def decimal_arithmetic(operator: str) -> Callable[[Any, Any], Any]:
    """``a + b``, ``a - b`` or ``a * b`` on NUMBER values as Oracle computes them: in decimal, so ``0.1 + 0.2``
    is ``0.3`` and ``24000 * 1.1`` is ``26400`` (binary floats give 0.30000000000000004 and 26400.000000000004).
    Whole numbers stay exact integers; text operands are converted as TO_NUMBER does (ORA-01722)."""
    apply = {"+": _NUMBER.add, "-": _NUMBER.subtract, "*": _NUMBER.multiply}[operator]

    def arithmetic(a: Any, b: Any) -> Any:
        if a is None or b is None:
            return None
        a, b = _numeric(a), _numeric(b)
        if isinstance(a, float) and not math.isfinite(a) or isinstance(b, float) and not math.isfinite(b):
            return {"+": a + b, "-": a - b, "*": a * b}[operator]
        return _from_decimal(apply(_decimal(a), _decimal(b)))

    arithmetic.__name__ = f"decimal_{ {'+': 'add', '-': 'subtract', '*': 'multiply'}[operator]}"
    return arithmetic


class DecimalSum:
    """``SUM(x)`` over NUMBER values in decimal, as Oracle adds them (SQLite adds binary floats: ten times 0.1
    is 0.9999999999999999 there); also as a window function and with DISTINCT. Called ``ora_dec_sum(x)``."""

    average = False

    def __init__(self) -> None:
        self.total, self.count = decimal.Decimal(0), 0

    def step(self, value: Any) -> None:
        if value is not None:
            self.total = _NUMBER.add(self.total, _decimal(_numeric(value)))
            self.count += 1

    def inverse(self, value: Any) -> None:
        if value is not None:
            self.total = _NUMBER.subtract(self.total, _decimal(_numeric(value)))
            self.count -= 1

    def value(self) -> Any:
        if not self.count:
            return None
        return _from_decimal(_NUMBER.divide(self.total, self.count) if self.average else self.total)

    def finalize(self) -> Any:
        return self.value()


class DecimalAverage(DecimalSum):
    """``AVG(x)`` over NUMBER values in decimal: the decimal sum divided by the count (``ora_dec_avg(x)``)."""

    average = True


def is_json(value: Any, strict: Any = 0, unique: Any = 0, scalars: Any = 1) -> int | None:
    """``value IS JSON [STRICT] [WITH UNIQUE KEYS] [DISALLOW SCALARS]`` as 1/0 (NULL for NULL): JSON text in
    Oracle's lax syntax (``{a:1}``), or the standard's alone when ``strict``; with ``unique``, no object names a
    field twice; without ``scalars``, only an object or an array."""
    if value is None:
        return None
    if not isinstance(value, str):
        return 0
    if not (strict or unique):
        data = _json_load(value)
        return 0 if data is _INVALID or (not scalars and not isinstance(data, (dict, list))) else 1
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        repeated = repeated or len({k for k, _ in items}) < len(items)
        return dict(items)

    text = value if strict else _lax_to_strict(value)
    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=_not_json)
    except ValueError:
        if strict:
            return 0
        try:   # valid strict JSON that the lax rewriting would change: read it as it is
            data = json.loads(value, object_pairs_hook=pairs, parse_constant=_not_json)
        except ValueError:
            return 0
    if unique and repeated:
        return 0
    return 0 if not scalars and not isinstance(data, (dict, list)) else 1


def json_exists(doc: Any, path: str, *passing: Any) -> int | None:
    """JSON_EXISTS(doc, path [PASSING v AS name, ...]) as 1/0 (a condition): 1 when the path reaches at least one
    value; ``passing`` alternates names and values of the path's ``$name`` variables."""
    data = _json_data(doc)
    if data is _MISSING:
        return None
    variables = {str(passing[i]): _plain_number(passing[i + 1]) for i in range(0, len(passing) - 1, 2)}
    return 0 if data is _INVALID or not json_path.matches(data, _json_path(path), variables) else 1


def _stored(value: Any, what: str = "DATE") -> dt.datetime:
    """A stored DATE/TIMESTAMP text as datetime (ORA-01861 when the text is not one)."""
    if isinstance(value, str):
        try:
            return parse_stored_datetime(value)
        except ValueError:
            pass
        try:
            return formats.parse_datetime_model(value, formats.NLS_DATE_FORMAT)
        except formats.FormatError:
            pass
    raise ValueError(f"ORA-01861: literal does not match format string ({value!r} is not a {what})")


def to_date(text: Any, model: str | None = None) -> str | None:
    """TO_DATE(text[, format model]); the default model is NLS_DATE_FORMAT (DD-MON-RR)."""
    if text is None:
        return None
    value = formats.parse_datetime_model(str(text), model or formats.NLS_DATE_FORMAT)
    return format_datetime(value, timestamp=False)


def to_timestamp(text: Any, model: str | None = None) -> str | None:
    """TO_TIMESTAMP(text[, format model]); the default model is NLS_TIMESTAMP_FORMAT."""
    if text is None:
        return None
    return format_datetime(formats.parse_datetime_model(str(text), model or formats.NLS_TIMESTAMP_FORMAT))


def to_char(value: Any, model: str | None = None, kind: str | None = None) -> str | None:
    """TO_CHAR(date|timestamp|number|text[, format model]); ``kind`` is the argument's Oracle type class."""
    if value is None:
        return None
    if kind in ("DATE", "TIMESTAMP"):
        default = formats.NLS_DATE_FORMAT if kind == "DATE" else formats.NLS_TIMESTAMP_FORMAT
        return formats.format_datetime_model(_stored(value, kind), model or default)
    if isinstance(value, (int, float)):
        if model:
            return formats.format_number_model(value, model)
        if isinstance(value, float):
            if value.is_integer():
                return str(int(value))
            text = repr(value)
            if "e" in text:   # Oracle writes 0.00001 as .00001 (not 1e-05) while it fits in 64 characters
                plain = format(decimal.Decimal(text), "f")
                text = plain if len(plain) <= 64 else text.upper()
            return text[1:] if text.startswith("0.") else text.replace("-0.", "-.")  # Oracle: .5, not 0.5
        return str(value)
    if model:
        raise ValueError(f"ORA-01722: invalid number (TO_CHAR with format {model!r} of a text value)")
    return str(value)


def to_number(value: Any, model: str | None = None) -> int | float | None:
    """TO_NUMBER(text) (ORA-01722 when it is not a number)."""
    if model is not None:
        value = str(value).replace(",", "").replace("$", "") if value is not None else None
    return formats.to_number(value)


def number_in(value: Any, precision: Any = None, scale: Any = None) -> int | float | None:
    """A value written to a NUMBER[(p[, s])] column, as Oracle stores it: text converted (ORA-01722 when it
    is not a number), rounded half away from zero to ``s`` decimals, ORA-01438 when more than ``p - s``
    integer digits remain."""
    if value is None:
        return None
    if isinstance(value, bytes):
        raise ValueError("ORA-00932: inconsistent datatypes: expected NUMBER got BINARY")
    number = _numeric(value)
    if scale is not None and ((isinstance(number, float) and math.isfinite(number))
                              or (isinstance(number, int) and int(scale) < 0)):
        number = _round_half_up(number, int(scale))
    if precision is not None and scale is not None and abs(number) >= 10 ** (int(precision) - int(scale)):
        raise ValueError("ORA-01438: value larger than specified precision allowed for this column")
    return number


def as_date(value: Any) -> str | None:
    """A value written to a DATE column: stored form, fractional seconds dropped (ORA-01861 on bad text)."""
    if value is None:
        return None
    return format_datetime(_stored(value), timestamp=False)


def as_timestamp(value: Any, precision: Any = None) -> str | None:
    """A value written to a TIMESTAMP[(precision)] column, in the stored form (fraction rounded to the precision)."""
    if value is None:
        return None
    stored = _stored(value, "TIMESTAMP")
    if precision is not None:
        stored = formats.round_fraction(stored, int(precision))
    return format_datetime(stored)


def sysdate() -> str:
    """SYSDATE: local date and time to the second."""
    return format_datetime(dt.datetime.now(), timestamp=False)


def systimestamp() -> str:
    """SYSTIMESTAMP: local date and time to the microsecond."""
    return format_datetime(dt.datetime.now())


# Oracle's format models for ROUND and TRUNC of a date ("ROUND and TRUNC Date Functions", SQL Language
# Reference) -> the unit they round or truncate to.
_DATE_UNITS = {
    **dict.fromkeys(("CC", "SCC"), "CC"),
    **dict.fromkeys(("SYYYY", "YYYY", "YEAR", "SYEAR", "YYY", "YY", "Y"), "YYYY"),
    **dict.fromkeys(("IYYY", "IYY", "IY", "I"), "IYYY"),
    "Q": "Q",
    **dict.fromkeys(("MONTH", "MON", "MM", "RM"), "MM"),
    "WW": "WW", "IW": "IW", "W": "W",
    **dict.fromkeys(("DDD", "DD", "J"), "DD"),
    **dict.fromkeys(("DAY", "DY", "D"), "DAY"),
    **dict.fromkeys(("HH", "HH12", "HH24"), "HH"),
    "MI": "MI",
}


def _iso_year_start(year: int) -> dt.datetime:
    """Monday of ISO week 1 of ``year`` (the week with the year's first Thursday)."""
    return dt.datetime.fromisocalendar(year, 1, 1)


def _date_unit_bounds(day: dt.datetime, key: str) -> tuple[dt.datetime, dt.datetime]:
    """The start of the ``key`` unit holding ``day`` and the start of the next one."""
    midnight = dt.datetime(day.year, day.month, day.day)
    if key == "CC":
        first = (day.year - 1) // 100 * 100 + 1  # the 21st century is 2001-2100
        return dt.datetime(first, 1, 1), dt.datetime(first + 100, 1, 1)
    if key == "YYYY":
        return dt.datetime(day.year, 1, 1), dt.datetime(day.year + 1, 1, 1)
    if key == "IYYY":
        year = day.isocalendar()[0]
        return _iso_year_start(year), _iso_year_start(year + 1)
    if key == "Q":
        month = (day.month - 1) // 3 * 3 + 1
        start = dt.datetime(day.year, month, 1)
        return start, _shift_months(start, 3)
    if key == "MM":
        start = dt.datetime(day.year, day.month, 1)
        return start, _shift_months(start, 1)
    if key in ("WW", "W", "IW", "DAY"):
        # a week starting on the weekday of 1 January (WW), of the 1st of the month (W), Monday (IW) or
        # Sunday (DAY: the first day of the week under NLS_TERRITORY = AMERICA)
        anchor = {"WW": dt.datetime(day.year, 1, 1), "W": dt.datetime(day.year, day.month, 1)}.get(key)
        if anchor is not None:
            start = midnight - dt.timedelta(days=(midnight - anchor).days % 7)
        else:
            first_weekday = 0 if key == "IW" else 6   # Python: Monday = 0, Sunday = 6
            start = midnight - dt.timedelta(days=(midnight.weekday() - first_weekday) % 7)
        return start, start + dt.timedelta(days=7)
    if key == "DD":
        return midnight, midnight + dt.timedelta(days=1)
    if key == "HH":
        start = day.replace(minute=0, second=0, microsecond=0)
        return start, start + dt.timedelta(hours=1)
    start = day.replace(second=0, microsecond=0)
    return start, start + dt.timedelta(minutes=1)


def _rounds_up(day: dt.datetime, key: str, start: dt.datetime, end: dt.datetime) -> bool:
    """Oracle's rounding point: July 1 (year), the 16th (month), the 16th of a quarter's second month,
    noon (day), half past (hour), 30 seconds (minute); the half-way point for centuries and weeks."""
    if key == "YYYY":
        return day.month >= 7
    if key == "MM":
        return day.day >= 16
    if key == "Q":
        month_in_quarter = day.month - start.month
        return month_in_quarter == 2 or (month_in_quarter == 1 and day.day >= 16)
    if key == "CC":
        return day.year - start.year >= 50
    return (day - start) * 2 >= (end - start)


def round_trunc_date(value: Any, unit: Any = "DD", rounding: Any = 0) -> str | None:
    """ROUND(date[, fmt]) (``rounding`` true) or TRUNC(date[, fmt]) for every format model Oracle lists; a
    DATE comes back (also for a TIMESTAMP argument, as in Oracle). An unknown model is ORA-01899."""
    if value is None:
        return None
    day = _stored(value)
    key = _DATE_UNITS.get(str(unit if unit is not None else "DD").strip().upper())
    if key is None:
        raise ValueError(f"ORA-01899: bad precision specifier ({unit!r})")
    if key == "IYYY" and rounding:
        raise ValueError("ORA-03001: unimplemented feature in the lite backend: ROUND(date, 'IYYY') "
                         "(the ISO year's rounding point); use TRUNC(date, 'IYYY')")
    start, end = _date_unit_bounds(day, key)
    result = end if rounding and _rounds_up(day, key, start, end) else start
    return format_datetime(result, timestamp=False)


def trunc_date(value: Any, unit: Any = "DD") -> str | None:
    """TRUNC(date[, unit]): the start of the unit (see :func:`round_trunc_date`)."""
    return round_trunc_date(value, unit, 0)


def round_date(value: Any, unit: Any = "DD") -> str | None:
    """ROUND(date[, unit]): the nearer start of a unit (see :func:`round_trunc_date`)."""
    return round_trunc_date(value, unit, 1)


def trunc(value: Any, arg: Any = None) -> Any:
    """TRUNC(number[, places]), or TRUNC(date[, unit]) when the value is a stored date."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            parse_stored_datetime(value)
        except ValueError:
            value = formats.to_number(value)
        else:
            return trunc_date(value, arg if arg is not None else "DD")
    places = int(_float(arg)) if arg is not None else 0
    factor = 10 ** places
    result = math.trunc(_float(value) * factor) / factor
    return int(result) if places <= 0 else result


_INTERVAL_UNITS = {"DAY": 86400.0, "HOUR": 3600.0, "MINUTE": 60.0, "SECOND": 1.0}


def date_add(value: Any, days: Any) -> str | None:
    """DATE/TIMESTAMP + n days (fractions allowed): Oracle returns a DATE, to the second."""
    if value is None or days is None:
        return None
    moved = _stored(value) + dt.timedelta(days=float(days))
    return format_datetime(formats.round_fraction(moved, 0), timestamp=False)


def add_interval(value: Any, amount: Any, unit: str, keep_fraction: int = 1) -> str | None:
    """DATE/TIMESTAMP +/- INTERVAL 'n' unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND)."""
    if value is None or amount is None:
        return None
    start = _stored(value)
    unit = unit.upper()
    if unit in ("YEAR", "MONTH"):
        months = int(float(amount)) * (12 if unit == "YEAR" else 1)
        moved = _shift_months(start, months, interval=True)
    else:
        moved = start + dt.timedelta(seconds=float(amount) * _INTERVAL_UNITS[unit])
    return format_datetime(moved, timestamp=bool(keep_fraction))


def interval_seconds(amount: Any, unit: str) -> float | None:
    """INTERVAL 'n' DAY|HOUR|MINUTE|SECOND (or NUMTODSINTERVAL) as seconds, lite's INTERVAL DAY TO SECOND form."""
    if amount is None:
        return None
    key = str(unit).upper()
    if key not in _INTERVAL_UNITS:
        raise ValueError(f"ORA-01760: illegal argument for function (interval unit {unit!r})")
    return _float(amount) * _INTERVAL_UNITS[key]


def days_between(a: Any, b: Any) -> float | None:
    """DATE - DATE: the difference in days (a NUMBER, fractional)."""
    if a is None or b is None:
        return None
    return (_stored(a) - _stored(b)).total_seconds() / 86400.0


def seconds_between(a: Any, b: Any) -> float | None:
    """TIMESTAMP - TIMESTAMP: an INTERVAL DAY TO SECOND, kept as seconds."""
    if a is None or b is None:
        return None
    return (_stored(a) - _stored(b)).total_seconds()


def interval_part(seconds: Any, unit: str) -> int | float | None:
    """EXTRACT(unit FROM interval) for an INTERVAL DAY TO SECOND kept as seconds."""
    if seconds is None:
        return None
    delta = dt.timedelta(seconds=float(seconds))
    sign = -1 if delta.total_seconds() < 0 else 1
    delta = abs(delta)
    unit = unit.upper()
    if unit == "DAY":
        return sign * delta.days
    if unit == "HOUR":
        return sign * (delta.seconds // 3600)
    if unit == "MINUTE":
        return sign * (delta.seconds % 3600 // 60)
    if unit == "SECOND":
        return sign * (delta.seconds % 60 + delta.microseconds / 1e6)
    raise ValueError(f"ORA-30076: invalid extract field for extract source ({unit})")


def date_part(value: Any, unit: str) -> int | float | None:
    """EXTRACT(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND FROM date)."""
    if value is None:
        return None
    day = _stored(value)
    unit = unit.upper()
    if unit == "SECOND":
        return day.second + day.microsecond / 1e6 if day.microsecond else day.second
    if unit in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE"):
        return getattr(day, unit.lower())
    raise ValueError(f"ORA-30076: invalid extract field for extract source ({unit})")


def _shift_months(start: dt.datetime, months: int, interval: bool = False) -> dt.datetime:
    index = start.year * 12 + start.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    if interval and start.day > last:
        raise ValueError("ORA-01839: date not valid for month specified")
    # ADD_MONTHS: the last day of a month maps to the last day of the target month.
    at_end = start.day == calendar.monthrange(start.year, start.month)[1]
    day = last if (at_end and not interval) else min(start.day, last)
    return start.replace(year=year, month=month + 1, day=day)


def add_months(value: Any, months: Any) -> str | None:
    """ADD_MONTHS(date, n)."""
    if value is None or months is None:
        return None
    return format_datetime(_shift_months(_stored(value), int(float(months))), timestamp=False)


def months_between(a: Any, b: Any) -> float | None:
    """MONTHS_BETWEEN(a, b): whole months when the days match or both are month ends, else /31 fractions."""
    if a is None or b is None:
        return None
    x, y = _stored(a), _stored(b)
    months = (x.year - y.year) * 12 + (x.month - y.month)
    x_end = x.day == calendar.monthrange(x.year, x.month)[1]
    y_end = y.day == calendar.monthrange(y.year, y.month)[1]
    if x.day == y.day or (x_end and y_end):
        return float(months)
    seconds_x = x.day * 86400 + x.hour * 3600 + x.minute * 60 + x.second
    seconds_y = y.day * 86400 + y.hour * 3600 + y.minute * 60 + y.second
    return months + (seconds_x - seconds_y) / (31 * 86400)


def last_day(value: Any) -> str | None:
    """LAST_DAY(date)."""
    if value is None:
        return None
    day = _stored(value)
    return format_datetime(day.replace(day=calendar.monthrange(day.year, day.month)[1]), timestamp=False)


def initcap(text: Any) -> str | None:
    """INITCAP(text): first letter of each word upper case, the rest lower case."""
    if text is None:
        return None
    return re.sub(r"[A-Za-z0-9]+", lambda m: m.group(0).capitalize(), str(text).lower())


def _regex(pattern: Any, flags: Any) -> re.Pattern[str]:
    options = 0
    for flag in str(flags or ""):
        if flag == "i":
            options |= re.I
        elif flag == "c":
            options &= ~re.I
        elif flag == "n":
            options |= re.S
        elif flag == "m":
            options |= re.M
        elif flag == "x":
            options |= re.X
        else:
            raise ValueError(f"ORA-01760: illegal argument for function (match parameter {flag!r})")
    try:
        return _compiled(str(pattern), options)
    except re.error as exc:
        raise ValueError(f"ORA-12726: unmatched bracket in regular expression ({exc})") from None


# POSIX character classes Oracle's regular expressions take inside a bracket expression ([[:alnum:]]), as the
# members of a Python character class (Python's re reads [[:alnum:]] as the set ':', 'a', 'l', ... and a ']').
_POSIX_CLASSES = {
    "alnum": r"^\W_", "alpha": r"^\W\d_", "digit": r"0-9", "lower": r"a-z", "upper": r"A-Z", "space": r"\s",
    "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": r"0-9A-Fa-f", "cntrl": r"\x00-\x1f\x7f",
    "print": r"\x20-\x7e", "graph": r"\x21-\x7e", "word": r"\w",
}


def _python_pattern(pattern: str) -> str:
    """An Oracle (POSIX ERE) pattern as Python's re reads it: POSIX classes inside brackets become their members.

    A class that is the whole bracket expression ([[:alpha:]], [^[:digit:]]) uses Python's negated-class form
    where the members are a negation (alnum, alpha); mixed with other members (``[[:alnum:]_-]``) the Unicode-aware
    classes are spelled as ASCII ranges. Equivalence classes ([=a=]) and collating elements ([.ch.]) are ORA-03001.
    """
    if "[:" not in pattern and "[=" not in pattern and "[." not in pattern:
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if ch != "[":
            out.append(ch)
            i += 1
            continue
        # a bracket expression: read to its closing ]
        j = i + 1
        negate = j < n and pattern[j] == "^"
        if negate:
            j += 1
        members: list[str] = []
        first = True
        while j < n and (pattern[j] != "]" or first):
            first = False
            m = re.match(r"\[([:=.])(\w+)\1\]", pattern[j:])
            if m:
                if m.group(1) != ":":
                    raise ValueError(f"ORA-03001: unimplemented feature in the lite backend: regular expression "
                                     f"{m.group(0)} (equivalence classes and collating elements)")
                name = m.group(2).lower()
                if name not in _POSIX_CLASSES:
                    raise ValueError(f"ORA-12729: invalid character class in regular expression ({m.group(0)})")
                members.append(("posix", name))
                j += m.end()
                continue
            if pattern[j] == "\\" and j + 1 < n:
                members.append(("raw", pattern[j:j + 2]))
                j += 2
                continue
            members.append(("raw", pattern[j]))
            j += 1
        if j >= n:   # no closing bracket: leave it to re's error
            out.append(pattern[i:])
            break
        posix = [name for kind, name in members if kind == "posix"]
        raw = "".join(text for kind, text in members if kind == "raw")
        if len(members) == 1 and posix and _POSIX_CLASSES[posix[0]].startswith("^"):
            inner = _POSIX_CLASSES[posix[0]][1:]
            out.append(f"[{inner}]" if negate else f"[^{inner}]")
        else:
            ascii_forms = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z"}
            body = "".join(ascii_forms.get(name, _POSIX_CLASSES[name]) for name in posix)
            out.append("[" + ("^" if negate else "") + body + raw + "]")
        i = j + 1
    return "".join(out)


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str, options: int) -> re.Pattern[str]:
    return re.compile(_python_pattern(pattern), options)


def regexp_like(text: Any, pattern: Any, flags: Any = None) -> int | None:
    """REGEXP_LIKE(text, pattern[, match_parameter]) as 1/0 (a condition)."""
    if text is None or pattern is None:
        return None
    return 1 if _regex(pattern, flags).search(str(text)) else 0


def regexp_substr(text: Any, pattern: Any, position: Any = 1, occurrence: Any = 1, flags: Any = None,
                  group: Any = 0) -> str | None:
    """REGEXP_SUBSTR(text, pattern[, position[, occurrence[, match_parameter[, subexpression]]]])."""
    if text is None or pattern is None:
        return None
    matches = list(_regex(pattern, flags).finditer(str(text), int(position or 1) - 1))
    nth = int(occurrence or 1)
    if len(matches) < nth:
        return None
    return matches[nth - 1].group(int(group or 0)) or None


def regexp_replace(text: Any, pattern: Any, replacement: Any = None, position: Any = 1, occurrence: Any = 0,
                   flags: Any = None) -> str | None:
    """REGEXP_REPLACE(text, pattern[, replacement[, position[, occurrence[, match_parameter]]]])."""
    if text is None:
        return None
    if pattern is None:
        return str(text)
    source = str(text)
    start = int(position or 1) - 1
    regex = _regex(pattern, flags)
    repl = re.sub(r"\\(\d)", r"\\g<\1>", str(replacement or ""))
    head, tail = source[:start], source[start:]
    nth = int(occurrence or 0)
    if nth == 0:
        result = head + regex.sub(repl, tail)
    else:
        matches = list(regex.finditer(tail))
        if len(matches) < nth:
            return source
        m = matches[nth - 1]
        result = head + tail[:m.start()] + m.expand(repl) + tail[m.end():]
    return result or None


def regexp_count(text: Any, pattern: Any, position: Any = 1, flags: Any = None) -> int | None:
    """REGEXP_COUNT(text, pattern[, position[, match_parameter]])."""
    if text is None or pattern is None:
        return None
    return sum(1 for _ in _regex(pattern, flags).finditer(str(text), int(position or 1) - 1))


def _pad_args(text: Any, width: Any, fill: Any) -> tuple[Any, int, str]:
    """LPAD/RPAD's arguments as Oracle reads them: numbers as TO_CHAR writes them (LPAD(123, 5, 0) is
    '00123'), NULL (or '') text or fill and a width below 1 giving NULL."""
    if text is None or width is None or fill is None or fill == "":
        return None, 0, ""
    width = int(float(width))
    if width < 1:
        return None, 0, ""
    return _text(text), width, _text(fill)


def lpad(text: Any, width: Any, fill: Any = " ") -> str | None:
    """LPAD(text, width[, fill])."""
    text, width, fill = _pad_args(text, width, fill)
    if text is None:
        return None
    if len(text) >= width:
        return text[:width]
    pad = (fill * width)[: width - len(text)]
    return pad + text


def rpad(text: Any, width: Any, fill: Any = " ") -> str | None:
    """RPAD(text, width[, fill])."""
    text, width, fill = _pad_args(text, width, fill)
    if text is None:
        return None
    if len(text) >= width:
        return text[:width]
    return text + (fill * width)[: width - len(text)]


def instr(text: Any, search: Any, start: Any = 1, nth: Any = 1) -> int | None:
    """INSTR(text, search[, position[, occurrence]]): 1-based, 0 when absent; a negative position counts
    from the end and searches backwards (Oracle: INSTR('CORPORATE FLOOR', 'OR', -3, 2) is 2)."""
    if text is None or search is None or start is None or nth is None:
        return None
    text, search, position, occurrence = str(text), str(search), int(start), int(nth)
    if position == 0 or occurrence < 1:
        return 0 if position == 0 else None
    if position > 0:
        pos = position - 1
        for _ in range(occurrence):
            found = text.find(search, pos)
            if found < 0:
                return 0
            pos = found + 1
        return pos
    end = len(text) + position + 1   # a match may start at the counted position at the latest
    for _ in range(occurrence):
        found = text.rfind(search, 0, end - 1 + len(search))
        if found < 0:
            return 0
        end = found   # the next occurrence starts before this one
    return found + 1


def oracle_replace(text: Any, search: Any, replacement: Any = None) -> str | None:
    """REPLACE(text, search[, replacement]): a NULL or missing replacement removes ``search``; a NULL
    ``search`` leaves the text; an empty result is NULL (SQLite's replace() returns NULL for NULL args)."""
    if text is None:
        return None
    if search is None or search == "":
        return str(text)
    return str(text).replace(str(search), "" if replacement is None else str(replacement)) or None


def oracle_substr(text: Any, position: Any, length: Any = None) -> str | None:
    """SUBSTR(text, position[, length]) as Oracle defines it: position 0 is 1, a negative one counts from
    the end, a length below 1 (or a start past the end) gives NULL."""
    if text is None or position is None:
        return None
    text, position = str(text), int(position)
    if position == 0:
        position = 1
    start = position - 1 if position > 0 else len(text) + position
    if start < 0 or start >= len(text):
        return None
    if length is None:
        return text[start:] or None
    count = int(math.floor(float(length)))
    return text[start:start + count] or None if count >= 1 else None


def _simple_case(text: str, upper: bool) -> str:
    """Oracle's UPPER/LOWER map each character to one character (SQLite's only map ASCII; Python maps
    'ß' to 'SS')."""
    out = []
    for ch in text:
        mapped = ch.upper() if upper else ch.lower()
        out.append(mapped if len(mapped) == 1 else ch)
    return "".join(out)


def oracle_upper(text: Any) -> Any:
    """UPPER for every alphabet (SQLite's built-in upper() leaves non-ASCII letters as they are)."""
    if not isinstance(text, str):
        return text if text is None else _simple_case(str(text), True)
    return text.upper() if text.isascii() else _simple_case(text, True)


def oracle_lower(text: Any) -> Any:
    """LOWER for every alphabet (see :func:`oracle_upper`)."""
    if not isinstance(text, str):
        return text if text is None else _simple_case(str(text), False)
    return text.lower() if text.isascii() else _simple_case(text, False)


def next_day(value: Any, weekday: Any) -> str | None:
    """NEXT_DAY(date, 'MONDAY'): the first such weekday after the date (English names or abbreviations)."""
    if value is None or weekday is None:
        return None
    day = _stored(value)
    names = ("MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY")
    wanted = str(weekday).strip().upper()
    match = [i for i, name in enumerate(names) if len(wanted) >= 3 and name.startswith(wanted)]
    if not match:
        raise ValueError(f"ORA-01846: not a valid day of the week ({weekday!r})")
    ahead = (match[0] - day.weekday() - 1) % 7 + 1
    return format_datetime(day + dt.timedelta(days=ahead), timestamp=False)


def translate_chars(text: Any, source: Any, target: Any) -> str | None:
    """TRANSLATE(text, from, to): each character of ``from`` becomes the one at the same place in ``to``;
    characters of ``from`` beyond ``to``'s length are removed; NULL when any argument is NULL."""
    if text is None or source is None or target is None:
        return None
    return str(text).translate(_translation_table(str(source), str(target))) or None


@functools.lru_cache(maxsize=256)
def _translation_table(source: str, target: str) -> dict[int, int | None]:
    """TRANSLATE's str.translate table (built once per ``from``/``to`` pair, not once per row); the first
    place of a repeated ``from`` character wins."""
    table: dict[int, int | None] = {}
    for i, ch in enumerate(source):
        if ord(ch) not in table:
            table[ord(ch)] = ord(target[i]) if i < len(target) else None
    return table


def lob_substr(lob: Any, amount: Any = 32767, offset: Any = 1) -> str | None:
    """DBMS_LOB.SUBSTR(lob, amount, offset) — note Oracle's argument order.

    As in Oracle (PL/SQL Packages and Types Reference, DBMS_LOB.SUBSTR): NULL
    when any argument is NULL, ``amount`` is below 1 or above 32767, or
    ``offset`` is below 1 (offset 0 is not the first character, as it is for
    SUBSTR).
    """
    if lob is None or amount is None or offset is None:
        return None
    amount, start = int(amount), int(offset)
    if not 1 <= amount <= 32767 or start < 1:
        return None
    return str(lob)[start - 1:start - 1 + amount]


def sdo_point(x: Any, y: Any, z: Any = None) -> str:
    """SDO_POINT_TYPE(x, y, z) as JSON text [x, y, z]."""
    return json.dumps([x, y, z])


def sdo_geometry(gtype: Any, srid: Any, point: Any, elem_info: Any = None, ordinates: Any = None) -> str:
    """SDO_GEOMETRY(gtype, srid, point, NULL, NULL) — point geometries only."""
    if elem_info is not None or ordinates is not None:
        raise ValueError("lite supports point SDO_GEOMETRY only (SDO_ELEM_INFO and SDO_ORDINATES must be NULL)")
    if point is None:
        raise ValueError("lite supports point SDO_GEOMETRY only: pass SDO_POINT_TYPE(lon, lat, NULL)")
    return geometry_text(gtype, srid, point)


def _lon_lat(geometry: Any) -> tuple[float, float]:
    data = json.loads(geometry)
    x, y = data["point"][0], data["point"][1]
    return float(x), float(y)


def _params(text: Any) -> dict[str, str]:
    out = {}
    for part in str(text or "").replace(",", " ").split():
        if "=" in part:
            key, _, value = part.partition("=")
            out[key.strip().lower()] = value.strip().upper()
    return out


def haversine_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance in km on a sphere of the mean Earth radius."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def sdo_distance(g1: Any, g2: Any, tolerance: Any = None, params: Any = None) -> float | None:
    """SDO_GEOM.SDO_DISTANCE(g1, g2, tol, 'unit=KM'); meters when no unit is given (geodetic)."""
    if g1 is None or g2 is None:
        return None
    km = haversine_km(*_lon_lat(g1), *_lon_lat(g2))
    unit = _params(params).get("unit", "M")
    if unit not in _UNIT_KM:
        raise ValueError(f"ORA-13205: unknown unit {unit!r} (use KM, M, MILE or NAUT_MILE)")
    return km / _UNIT_KM[unit]


def sdo_within_distance(g1: Any, g2: Any, params: Any) -> str:
    """SDO_WITHIN_DISTANCE(g1, g2, 'distance=1500 unit=KM') -> 'TRUE' / 'FALSE'."""
    if g1 is None or g2 is None:
        return "FALSE"
    options = _params(params)
    if "distance" not in options:
        raise ValueError("ORA-13207: SDO_WITHIN_DISTANCE needs 'distance=<n> [unit=KM]'")
    unit = options.get("unit", "M")
    if unit not in _UNIT_KM:
        raise ValueError(f"ORA-13205: unknown unit {unit!r} (use KM, M, MILE or NAUT_MILE)")
    limit_km = float(options["distance"]) * _UNIT_KM[unit]
    return "TRUE" if haversine_km(*_lon_lat(g1), *_lon_lat(g2)) <= limit_km else "FALSE"


def sdo_attribute(geometry: Any, path: str) -> float | int | None:
    """geometry.SDO_GTYPE / SDO_SRID / SDO_POINT.X|Y|Z of a stored point geometry."""
    if geometry is None:
        return None
    data = json.loads(geometry)
    if path == "SDO_GTYPE":
        return data.get("gtype")
    if path == "SDO_SRID":
        return data.get("srid")
    point = data.get("point")
    if point is None:
        return None
    return point["XYZ".index(path[-1])]


_DIM_KEYS = ("SDO_DIMNAME", "SDO_LB", "SDO_UB", "SDO_TOLERANCE")
_MAX_DIMENSIONS = 4  # CREATE TYPE SDO_DIM_ARRAY AS VARRAY(4) OF SDO_DIM_ELEMENT


def _number_attribute(value: Any) -> int | float | None:
    if value is None or isinstance(value, (int, float)):
        return value
    try:
        number = float(str(value).strip())
    except ValueError:
        raise ValueError(f"ORA-01722: invalid number: {value!r}") from None
    return int(number) if number.is_integer() else number


def sdo_dim_element(*args: Any) -> str:
    """SDO_DIM_ELEMENT(dimname, lower bound, upper bound, tolerance) as JSON text (an object of those four)."""
    if len(args) != len(_DIM_KEYS):
        raise ValueError("ORA-02315: incorrect number of arguments for default constructor "
                         "(SDO_DIM_ELEMENT takes name, lower bound, upper bound, tolerance)")
    name = None if args[0] is None else str(args[0])
    return json.dumps(dict(zip(_DIM_KEYS, [name, *(_number_attribute(a) for a in args[1:])])))


def _dim_element(text: Any) -> dict | None:
    if text is None:
        return None
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    if not isinstance(value, dict) or tuple(value) != _DIM_KEYS:
        raise ValueError("ORA-00932: inconsistent datatypes: expected MDSYS.SDO_DIM_ELEMENT got CHAR")
    return value


def sdo_dim_array(*elements: Any) -> str:
    """SDO_DIM_ARRAY(SDO_DIM_ELEMENT(...), ...) as JSON text: a list of up to four dimension objects."""
    if len(elements) > _MAX_DIMENSIONS:
        raise ValueError(f"ORA-22909: exceeded maximum VARRAY limit (SDO_DIM_ARRAY holds at most "
                         f"{_MAX_DIMENSIONS} dimensions, got {len(elements)})")
    return json.dumps([_dim_element(e) for e in elements])


def check_diminfo(value: Any) -> None:
    """Raise ORA-00932 unless ``value`` is NULL or what SDO_DIM_ARRAY(...) produces (USER_SDO_GEOM_METADATA.DIMINFO)."""
    if value is None:
        return None
    try:
        items = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        items = None
    if not isinstance(items, list) or len(items) > _MAX_DIMENSIONS or not all(
            item is None or (isinstance(item, dict) and tuple(item) == _DIM_KEYS) for item in items):
        raise ValueError("ORA-00932: inconsistent datatypes: expected MDSYS.SDO_DIM_ARRAY got "
                         f"{'NUMBER' if isinstance(value, (int, float)) else 'CHAR'}")
    return None


def raise_error(code: Any, message: Any) -> None:
    """Raise ``ORA-<code>: <message>`` from SQL (used by the dictionary views' triggers)."""
    raise ValueError(f"ORA-{int(code):05d}: {message}")


def _out_of_range(value: Any) -> ValueError:
    return ValueError(f"ORA-01428: argument '{to_char(value)}' is out of range")


def oracle_sqrt(n: Any) -> float | None:
    """SQRT(n): ORA-01428 for a negative n (SQLite's sqrt gives NULL)."""
    if n is None:
        return None
    if _float(n) < 0:
        raise _out_of_range(n)
    return math.sqrt(_float(n))


def oracle_power(m: Any, n: Any) -> float | int | None:
    """POWER(m, n): a negative m needs an integer n (ORA-01428; SQLite gives NULL); 0 to a negative power is
    ORA-01428 too."""
    if m is None or n is None:
        return None
    m, n = _float(m), _float(n)
    if (m < 0 and not n.is_integer()) or (m == 0 and n < 0):
        raise _out_of_range(n if m < 0 else m)
    result = m ** n
    return int(result) if isinstance(result, float) and result.is_integer() and abs(result) < 2 ** 53 else result


def oracle_ln(n: Any) -> float | None:
    """LN(n): n must be greater than 0 (ORA-01428)."""
    if n is None:
        return None
    if _float(n) <= 0:
        raise _out_of_range(n)
    return math.log(_float(n))


def oracle_log(base: Any, n: Any = None) -> float | None:
    """LOG(base, n): base positive and not 1, n positive (ORA-01428)."""
    if n is None:   # SQLite's one-argument log(x) is base 10; Oracle's LOG always takes two
        base, n = 10, base
    if base is None or n is None:
        return None
    if _float(base) <= 0 or _float(base) == 1:
        raise _out_of_range(base)
    if _float(n) <= 0:
        raise _out_of_range(n)
    result = math.log(_float(n)) / math.log(_float(base))
    return round(result) if abs(result - round(result)) < 1e-12 else result


def oracle_ascii(text: Any) -> int | None:
    """ASCII(char): the code of the first character (its UTF-8 bytes read as one number, as AL32UTF8 does)."""
    if text is None or str(text) == "":
        return None
    return int.from_bytes(str(text)[0].encode("utf-8"), "big")


def bitand(a: Any, b: Any) -> int | None:
    """BITAND(a, b) of two integers."""
    if a is None or b is None:
        return None
    return int(float(a)) & int(float(b))


def remainder(n2: Any, n1: Any) -> int | float | None:
    """REMAINDER(n2, n1): n2 - n1 * N with N the integer nearest n2 / n1 (the even one at .5); n1 = 0 is
    ORA-01476 for NUMBER arguments."""
    if n2 is None or n1 is None:
        return None
    n2, n1 = _numeric(n2), _numeric(n1)
    if n1 == 0:
        raise ValueError("ORA-01476: divisor is equal to zero")
    result = math.remainder(n2, n1)
    return int(result) if float(result).is_integer() else result


def width_bucket(value: Any, low: Any, high: Any, buckets: Any) -> int | None:
    """WIDTH_BUCKET(expr, min, max, n): the equiwidth bucket of expr (0 below, n + 1 above the range)."""
    if value is None or low is None or high is None or buckets is None:
        return None
    value, low, high, n = float(value), float(low), float(high), int(float(buckets))
    if n <= 0:
        raise ValueError("ORA-30494: The argument [4] of WIDTH_BUCKET function is NULL or invalid.")
    if low == high:
        raise ValueError("ORA-30494: The argument [3] of WIDTH_BUCKET function is NULL or invalid.")
    if low < high:
        if value < low:
            return 0
        if value >= high:
            return n + 1
        return int((value - low) * n // (high - low)) + 1
    if value > low:
        return 0
    if value <= high:
        return n + 1
    return int((low - value) * n // (low - high)) + 1


def regexp_instr(text: Any, pattern: Any, position: Any = 1, occurrence: Any = 1, return_option: Any = 0,
                 flags: Any = None, group: Any = 0) -> int | None:
    """REGEXP_INSTR(text, pattern[, position[, occurrence[, return_option[, match_parameter[, subexpr]]]]]):
    the 1-based position of the match (after it when return_option is 1), 0 when there is none."""
    if text is None or pattern is None:
        return None
    matches = list(_regex(pattern, flags).finditer(str(text), int(position or 1) - 1))
    nth = int(occurrence or 1)
    if len(matches) < nth:
        return 0
    match, sub = matches[nth - 1], int(group or 0)
    if match.start(sub) < 0:
        return 0
    return (match.end(sub) if int(return_option or 0) else match.start(sub)) + 1


def decode_eq(value: Any, search: Any) -> int:
    """DECODE's comparison: NULL matches NULL; a number and a text compare as numbers (ORA-01722 when the text
    is not one, as Oracle's implicit conversion)."""
    if value is None or search is None:
        return 1 if value is None and search is None else 0
    if isinstance(value, (int, float)) and isinstance(search, str):
        search = formats.to_number(search)
    elif isinstance(search, (int, float)) and isinstance(value, str):
        value = formats.to_number(value)
    return 1 if value == search else 0


def _trimmer(strip: str) -> Callable[..., str | None]:
    """SQLite's trim/ltrim/rtrim with Oracle's result for nothing left: NULL, not '' (Oracle has no empty
    string: NVL(TRIM('  '), 'x') is 'x', LENGTH(RTRIM('   ')) is NULL)."""
    def trim(text: Any, chars: Any = " ") -> str | None:
        if text is None or chars is None:
            return None
        result = getattr(_text(text), strip)(_text(chars))
        return result or None
    return trim


def json_number(value: Any) -> int | float | None:
    """JSON_VALUE ... RETURNING NUMBER: the scalar as a number, NULL when it is not one (NULL ON ERROR)."""
    if value is None or isinstance(value, (int, float)):
        return value
    try:
        return formats.to_number(str(value))
    except ValueError:
        return None


def single_row(count: Any) -> int:
    """The ORDER BY key lite adds to a scalar subquery (``ORDER BY ora_single_row(COUNT(*) OVER ())``): SQLite
    takes a scalar subquery's first row where Oracle raises ORA-01427 when it returns more than one."""
    if count is not None and int(count) > 1:
        raise ValueError("ORA-01427: single-row subquery returns more than one row")
    return 1


def _wrap(fn: Callable[..., Any], on_error: Callable[[BaseException], None]) -> Callable[..., Any]:
    """SQLite reports only 'user-defined function raised exception': keep the real one for the caller."""
    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - re-raised by the connection with its message
            on_error(exc)
            raise
    call.__name__ = fn.__name__
    return call


def _wrap_aggregate(cls: type, on_error: Callable[[BaseException], None]) -> type:
    """The aggregate class with each method SQLite calls wrapped as :func:`_wrap` wraps a scalar function
    (SQLite reports only "user-defined aggregate's 'step' method raised error")."""
    methods = {name: getattr(cls, name) for name in ("step", "inverse", "value", "finalize") if hasattr(cls, name)}
    return type(cls.__name__, (cls,), {name: _wrap(method, on_error) for name, method in methods.items()})


SCALAR_FUNCTIONS: dict[str, tuple[Callable[..., Any], int, bool]] = {
    # name: (function, number of args (-1 = variadic), deterministic)
    "ora_vector_distance": (vector_distance, -1, True),
    "ora_to_vector": (to_vector, -1, True),
    "ora_vector_dims": (vector_dims, 1, True),
    "ora_vector_norm": (vector_norm, 1, True),
    "ora_json_text": (json_text, 1, True),
    "ora_json_value": (json_value, -1, True),
    "ora_json_query": (json_query, -1, True),
    "ora_json_exists": (json_exists, -1, True),
    "ora_json_dot": (json_dot, 2, True),
    "ora_json_serialize": (json_serialize, 1, True),
    "ora_json_mergepatch": (json_mergepatch, 2, True),
    "ora_json_equal": (json_equal, 2, True),
    "ora_plain_number": (_plain_number, 1, True),
    "ora_nanvl": (nanvl, 2, True),
    "ora_row_count": (row_count, 1, True),
    "ora_to_binary_double": (to_binary_double, 1, True),
    "ora_to_binary_float": (to_binary_float, 1, True),
    "ora_bin_to_num": (bin_to_num, -1, True),
    "ora_sys_guid": (raw.sys_guid, 0, False),
    "ora_hextoraw": (raw.hextoraw, 1, True),
    "ora_rawtohex": (raw.rawtohex, 1, True),
    "ora_raw_in": (raw.raw_in, 2, True),
    "ora_is_json": (is_json, -1, True),
    "ora_round": (oracle_round, 2, True),
    "ora_varchar_in": (varchar_in, 3, True),
    "ora_mod": (oracle_mod, 2, True),
    "ora_divide": (oracle_divide, 2, True),
    "ora_dec_add": (decimal_arithmetic("+"), 2, True),
    "ora_dec_sub": (decimal_arithmetic("-"), 2, True),
    "ora_dec_mul": (decimal_arithmetic("*"), 2, True),
    "ora_to_date": (to_date, -1, True),
    "ora_to_timestamp": (to_timestamp, -1, True),
    "ora_to_char": (to_char, -1, True),
    "ora_to_number": (to_number, -1, True),
    "ora_as_date": (as_date, 1, True),
    "ora_number_in": (number_in, -1, True),
    "ora_as_timestamp": (as_timestamp, -1, True),
    "ora_sysdate": (sysdate, 0, False),
    "ora_systimestamp": (systimestamp, 0, False),
    "ora_trunc": (trunc, -1, True),
    "ora_trunc_date": (trunc_date, -1, True),
    "ora_round_date": (round_date, -1, True),
    "ora_date_add": (date_add, 2, True),
    "ora_date_add_interval": (lambda v, n, u: add_interval(v, n, u, 0), 3, True),
    "ora_ts_add_interval": (lambda v, n, u: add_interval(v, n, u, 1), 3, True),
    "ora_interval": (interval_seconds, 2, True),
    "ora_days_between": (days_between, 2, True),
    "ora_seconds_between": (seconds_between, 2, True),
    "ora_interval_part": (interval_part, 2, True),
    "ora_date_part": (date_part, 2, True),
    "ora_add_months": (add_months, 2, True),
    "ora_months_between": (months_between, 2, True),
    "ora_last_day": (last_day, 1, True),
    "ora_initcap": (initcap, 1, True),
    "ora_regexp_like": (regexp_like, -1, True),
    "ora_regexp_substr": (regexp_substr, -1, True),
    "ora_regexp_replace": (regexp_replace, -1, True),
    "ora_regexp_count": (regexp_count, -1, True),
    "ora_lpad": (lpad, -1, True),
    "ora_rpad": (rpad, -1, True),
    "ora_instr": (instr, -1, True),
    "ora_next_day": (next_day, 2, True),
    "ora_replace": (oracle_replace, -1, True),
    "ora_substr": (oracle_substr, -1, True),
    # SQLite's own upper()/lower() only know ASCII: replaced for the connection, Oracle's for every alphabet
    "upper": (oracle_upper, 1, True),
    "lower": (oracle_lower, 1, True),
    "ora_translate": (translate_chars, 3, True),
    "ora_lob_substr": (lob_substr, -1, True),
    "ora_sdo_point": (sdo_point, -1, True),
    "ora_sdo_geometry": (sdo_geometry, -1, True),
    "ora_sdo_distance": (sdo_distance, -1, True),
    "ora_sdo_within_distance": (sdo_within_distance, 3, True),
    "ora_sdo_attribute": (sdo_attribute, 2, True),
    "ora_sdo_dim_element": (sdo_dim_element, -1, True),
    "ora_sdo_dim_array": (sdo_dim_array, -1, True),
    "ora_sdo_check_diminfo": (check_diminfo, 1, True),
    "ora_raise_error": (raise_error, 2, False),
    "ora_single_row": (single_row, 1, False),
    "ora_json_number": (json_number, 1, True),
    "trim": (_trimmer("strip"), -1, True),
    "ltrim": (_trimmer("lstrip"), -1, True),
    "rtrim": (_trimmer("rstrip"), -1, True),
    "ora_decode_eq": (decode_eq, 2, True),
    "ascii": (oracle_ascii, 1, True),
    "bitand": (bitand, 2, True),
    "remainder": (remainder, 2, True),
    "width_bucket": (width_bucket, 4, True),
    "regexp_instr": (regexp_instr, -1, True),
    # SQLite's math functions return NULL for arguments outside their domain; Oracle raises ORA-01428
    "sqrt": (oracle_sqrt, 1, True),
    "power": (oracle_power, 2, True),
    "pow": (oracle_power, 2, True),
    "ln": (oracle_ln, 1, True),
    "log": (oracle_log, -1, True),
}


def _sqlite_order(value: Any) -> tuple[int, Any]:
    """SQLite's order of mixed values (numbers before text before blobs); NULLs are placed by the caller."""
    if isinstance(value, (int, float)):
        return (0, value)
    if isinstance(value, str):
        return (1, value)
    return (2, bytes(value))


def compare_keys(a: list[Any], b: list[Any], flags: list[int]) -> int:
    """-1, 0 or 1 as ORDER BY would place rows with sort keys ``a`` and ``b`` (``flags``: 1 DESC, 2 NULLS FIRST)."""
    for x, y, flag in zip(a, b, flags):
        if x is None or y is None:
            if x is None and y is None:
                continue
            return (-1 if flag & 2 else 1) * (1 if x is None else -1)
        ox, oy = _sqlite_order(x), _sqlite_order(y)
        if ox != oy:
            result = -1 if ox < oy else 1
            return -result if flag & 1 else result
    return 0


class ListAgg:
    """``LISTAGG(x, sep) WITHIN GROUP (ORDER BY k1 [DESC] [NULLS FIRST|LAST], ...)`` as a SQLite aggregate
    and window function (SQLite 3.40 has no ORDER BY inside an aggregate call).

    Called as ``ora_listagg(x, sep, distinct, k1, flags1, k2, flags2, ...)``; each ``flags`` is
    ``1`` for DESC plus ``2`` for NULLS FIRST. As in Oracle, NULL values of ``x`` are left out and
    the result of no values is NULL.
    """

    def __init__(self) -> None:
        self.rows: list[tuple[Any, list[Any]]] = []
        self.separator = ""
        self.distinct = False
        self.flags: list[int] = []

    def step(self, value: Any, separator: Any, distinct: Any, *keys: Any) -> None:
        self.separator = "" if separator is None else str(separator)
        self.distinct = bool(distinct)
        self.flags = [int(f) for f in keys[1::2]]
        if value is not None:
            self.rows.append((value, list(keys[0::2])))

    def inverse(self, value: Any, separator: Any, distinct: Any, *keys: Any) -> None:
        if value is not None:
            self.rows.remove((value, list(keys[0::2])))

    def ordered_values(self) -> list[Any]:
        """The values in the ORDER BY keys' order (stable: ties keep their arrival order)."""
        return [v for v, _ in self.ordered_rows()]

    def ordered_rows(self) -> list[tuple[Any, list[Any]]]:
        """(value, keys) of every row in the ORDER BY keys' order (stable)."""
        return sorted(self.rows, key=functools.cmp_to_key(lambda a, b: compare_keys(a[1], b[1], self.flags)))

    def value(self) -> str | None:
        ordered = [_listagg_text(v) for v in self.ordered_values()]
        if self.distinct:
            seen: set[str] = set()
            ordered = [v for v in ordered if not (v in seen or seen.add(v))]
        return self.separator.join(ordered) if ordered else None

    def finalize(self) -> str | None:
        return self.value()


def _listagg_text(value: Any) -> str:
    """A value as LISTAGG concatenates it: numbers as Oracle's TO_CHAR writes them (``.4``, ``17000``)."""
    return to_char(value) or ""


class JsonArrayAgg(ListAgg):
    """``JSON_ARRAYAGG(x ORDER BY k ... [NULL ON NULL])`` as ``ora_json_arrayagg(x, null_on_null, k1, flags1,
    ...)``: the values as a JSON array in Oracle's order (SQLite's json_group_array has no ORDER BY);
    NULLs are left out unless NULL ON NULL."""

    def step(self, value: Any, null_on_null: Any, *keys: Any) -> None:  # type: ignore[override]
        self.flags = [int(f) for f in keys[1::2]]
        if value is not None or null_on_null:
            self.rows.append((value, list(keys[0::2])))

    def inverse(self, value: Any, null_on_null: Any, *keys: Any) -> None:  # type: ignore[override]
        if value is not None or null_on_null:
            self.rows.remove((value, list(keys[0::2])))

    def value(self) -> str | None:
        if not self.rows:
            return None
        items = self.ordered_values()
        return compact_json([_plain_number(v) for v in items])


def _aggregate(function: str, values: list[Any]) -> Any:
    """MIN, MAX, SUM, AVG, COUNT, VARIANCE or STDDEV of ``values`` (NULLs left out), as Oracle computes them."""
    present = [v for v in values if v is not None]
    if function == "COUNT":
        return len(present)
    if not present:
        return None
    if function in ("MIN", "MAX"):
        ordered = sorted(present, key=_sqlite_order)
        return ordered[0] if function == "MIN" else ordered[-1]
    numbers = [_numeric(v) for v in present]
    if function in ("SUM", "AVG"):   # in decimal, as the plain SUM and AVG (DecimalSum)
        total = _decimal_total(numbers)
        return _from_decimal(total if function == "SUM" else _NUMBER.divide(total, len(numbers)))
    return _statistic(function, [(n,) for n in numbers])   # VARIANCE, STDDEV


_ONE_ARGUMENT_STATISTICS = frozenset({"VARIANCE", "VAR_SAMP", "VAR_POP", "STDDEV", "STDDEV_SAMP", "STDDEV_POP"})


def _statistic(function: str, rows: list[tuple[Any, ...]]) -> Any:
    """One of Oracle's statistical aggregates over ``rows`` (values, or (y, x) pairs, NULLs already left out),
    by the SQL Language Reference's definitions; sums by math.fsum around the mean (two passes)."""
    n = len(rows)
    if function == "REGR_COUNT":
        return n
    if n == 0:
        return None
    if function in _ONE_ARGUMENT_STATISTICS:
        values = [_numeric(r[0]) for r in rows]
        mean = math.fsum(values) / n
        squares = math.fsum((v - mean) ** 2 for v in values)
        if function.endswith("_POP"):
            variance = squares / n
        elif n == 1:
            variance = 0 if function in ("VARIANCE", "STDDEV") else None   # VARIANCE and STDDEV: 0 for one value
        else:
            variance = squares / (n - 1)
        if variance is None:
            return None
        return _plain_number(math.sqrt(variance) if function.startswith("STDDEV") else variance)
    ys, xs = [_numeric(r[0]) for r in rows], [_numeric(r[1]) for r in rows]
    my, mx = math.fsum(ys) / n, math.fsum(xs) / n
    sxy = math.fsum((y - my) * (x - mx) for y, x in zip(ys, xs))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    result = {
        "COVAR_POP": sxy / n,
        "COVAR_SAMP": sxy / (n - 1) if n > 1 else None,
        "CORR": sxy / math.sqrt(sxx * syy) if sxx and syy else None,
        "REGR_SLOPE": sxy / sxx if sxx else None,
        "REGR_INTERCEPT": my - sxy / sxx * mx if sxx else None,
        "REGR_R2": None if not sxx else 1 if not syy else sxy * sxy / (sxx * syy),
        "REGR_AVGX": mx, "REGR_AVGY": my, "REGR_SXX": sxx, "REGR_SYY": syy, "REGR_SXY": sxy,
    }[function]
    return None if result is None else _plain_number(result)


class Statistic:
    """Oracle's statistical aggregates as ``ora_stat(function, distinct, y [, x])``, also as window functions:
    VARIANCE, VAR_SAMP, VAR_POP, STDDEV, STDDEV_SAMP, STDDEV_POP of one expression, and CORR, COVAR_POP,
    COVAR_SAMP and the REGR_ functions of a (y, x) pair, rows with a NULL left out (SQLite has none of them)."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.function, self.distinct = "VARIANCE", False

    def step(self, function: Any, distinct: Any, *values: Any) -> None:
        self.function, self.distinct = str(function), bool(distinct)
        if None not in values:
            self.rows.append(values)

    def inverse(self, function: Any, distinct: Any, *values: Any) -> None:
        if None not in values:
            self.rows.remove(values)

    def value(self) -> Any:
        rows = list(dict.fromkeys(self.rows)) if self.distinct else self.rows
        return _statistic(self.function, rows)

    def finalize(self) -> Any:
        return self.value()


class Keep(ListAgg):
    """``agg(x) KEEP (DENSE_RANK FIRST|LAST ORDER BY k1 ..., ...)`` as ``ora_keep(agg, last, x, k1, flags1, ...)``:
    ``agg`` (MIN, MAX, SUM, AVG, COUNT, VARIANCE, STDDEV) over the rows whose sort keys rank first (``last``
    0) or last (1) in the ORDER BY's order, NULLs placed as it says. ``COUNT(*)`` passes 1 for ``x``."""

    def __init__(self) -> None:
        super().__init__()
        self.function, self.last = "MIN", False

    def step(self, function: Any, last: Any, value: Any, *keys: Any) -> None:  # type: ignore[override]
        self.function, self.last = str(function), bool(last)
        self.flags = [int(f) for f in keys[1::2]]
        self.rows.append((value, list(keys[0::2])))

    def inverse(self, function: Any, last: Any, value: Any, *keys: Any) -> None:  # type: ignore[override]
        self.rows.remove((value, list(keys[0::2])))

    def value(self) -> Any:
        ordered = self.ordered_rows()
        if not ordered:
            return _aggregate(self.function, [])
        edge = ordered[-1 if self.last else 0][1]
        return _aggregate(self.function, [v for v, k in ordered if compare_keys(k, edge, self.flags) == 0])


class FrameValue:
    """``FIRST_VALUE``, ``LAST_VALUE`` and ``NTH_VALUE(x, n) [FROM FIRST|FROM LAST]`` with IGNORE NULLS (or
    NTH_VALUE FROM LAST), which SQLite lacks, as the window function ``ora_frame_value(x, kind, n, ignore,
    drop_front, drop_back)``: the frame's values are kept in order (SQLite adds rows at the frame's end and
    removes them from its start) and the value is read from them, NULLs skipped when ``ignore`` is 1: the
    n-th counted from the FIRST or LAST end. ``drop_front``/``drop_back`` rows are left out of the ends first:
    a frame that could be empty (``ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING``, LAG's rows before the current
    one) is given to SQLite widened to the current row and cut back here, because CPython 3.11's sqlite3
    crashes the process when SQLite asks a Python window function for the value of an empty frame."""

    def __init__(self) -> None:
        self.frame: collections.deque[Any] = collections.deque()
        self.kind, self.n, self.ignore, self.drop_front, self.drop_back = "FIRST", 1, False, 0, 0

    def step(self, value: Any, kind: Any, n: Any, ignore: Any, drop_front: Any, drop_back: Any) -> None:
        if n is None or not isinstance(n, (int, float)) or n < 1 or int(n) != n:
            raise ValueError(f"ORA-01428: argument '{to_char(n)}' is out of range")
        self.kind, self.n, self.ignore = str(kind), int(n), bool(ignore)
        self.drop_front, self.drop_back = int(drop_front), int(drop_back)
        self.frame.append(value)

    def inverse(self, *_args: Any) -> None:
        self.frame.popleft()

    def value(self) -> Any:
        frame = list(self.frame)[self.drop_front:len(self.frame) - self.drop_back]
        values = [v for v in frame if v is not None] if self.ignore else frame
        if len(values) < self.n:
            return None
        return values[self.n - 1] if self.kind == "FIRST" else values[-self.n]

    def finalize(self) -> Any:
        return self.value()


class Hypothetical:
    """``RANK | DENSE_RANK | PERCENT_RANK | CUME_DIST(v1, ...) WITHIN GROUP (ORDER BY k1, ...)``: where a row with
    the values ``v`` would rank among the group's rows in the ORDER BY's order, as
    ``ora_hyp_<kind>(n, v1, ..., vn, k1, flags1, ..., kn, flagsn)`` (the SQL Language Reference's hypothetical
    set aggregates): RANK is 1 + the rows before it, DENSE_RANK 1 + the distinct keys before it, PERCENT_RANK
    (RANK - 1) / rows (0 for none), CUME_DIST (rows before it or tied with it + 1) / (rows + 1)."""

    kind = "RANK"

    def __init__(self) -> None:
        self.rows: list[list[Any]] = []
        self.values: list[Any] = []
        self.flags: list[int] = []

    def step(self, n: Any, *rest: Any) -> None:
        count = int(n)
        self.values, pairs = list(rest[:count]), rest[count:]
        self.flags = [int(f) for f in pairs[1::2]]
        self.rows.append(list(pairs[0::2]))

    def finalize(self) -> Any:
        places = [compare_keys(k, self.values, self.flags) for k in self.rows]   # each row against the new one
        before = [k for k, place in zip(self.rows, places) if place < 0]
        tied = places.count(0)
        total = len(self.rows)
        if self.kind == "RANK":
            return len(before) + 1
        if self.kind == "DENSE_RANK":
            distinct: list[list[Any]] = []
            for keys in before:
                if not any(compare_keys(keys, seen, self.flags) == 0 for seen in distinct):
                    distinct.append(keys)
            return len(distinct) + 1
        if self.kind == "PERCENT_RANK":
            return _plain_number(len(before) / total) if total else 0
        return _plain_number((len(before) + tied + 1) / (total + 1))   # CUME_DIST


_HYPOTHETICAL = {kind: type(f"Hypothetical{kind.title().replace('_', '')}", (Hypothetical,), {"kind": kind})
                 for kind in ("RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST")}

_PERCENTILE_RANGE = "ORA-30493: The percentile value should be a number between 0 and 1."


class Percentile:
    """``PERCENTILE_CONT(p)`` / ``PERCENTILE_DISC(p) WITHIN GROUP (ORDER BY x [DESC])`` as
    ``ora_percentile(p, 'CONT'|'DISC', desc, x)``, by the SQL Language Reference's definitions over the
    non-NULL values in the ORDER BY's order: CONT interpolates at row number RN = 1 + p * (n - 1)
    between rows FLOOR(RN) and CEIL(RN); DISC is the first value whose cumulative distribution is at
    least p (row CEIL(p * n), the first row for p = 0). p outside 0..1 is ORA-30493."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.percent: decimal.Decimal | None = None
        self.kind, self.desc = "CONT", False

    def step(self, percent: Any, kind: Any, desc: Any, value: Any) -> None:
        if percent is None or not isinstance(percent, (int, float)) or not 0 <= percent <= 1:
            raise ValueError(_PERCENTILE_RANGE)
        self.percent, self.kind, self.desc = decimal.Decimal(str(percent)), str(kind), bool(desc)
        if value is not None:
            self.values.append(_numeric(value) if self.kind == "CONT" else value)

    def inverse(self, percent: Any, kind: Any, desc: Any, value: Any) -> None:
        if value is not None:
            self.values.remove(_numeric(value) if self.kind == "CONT" else value)

    def value(self) -> Any:
        if not self.values or self.percent is None:
            return None
        ordered = sorted(self.values, key=_sqlite_order, reverse=self.desc)
        n = len(ordered)
        if self.kind == "DISC":
            return ordered[max(1, math.ceil(self.percent * n)) - 1]
        row = 1 + self.percent * (n - 1)
        low, high = math.floor(row), math.ceil(row)
        if low == high:
            return ordered[low - 1]
        below, above = decimal.Decimal(str(ordered[low - 1])), decimal.Decimal(str(ordered[high - 1]))
        return _plain_number(float((high - row) * below + (row - low) * above))

    def finalize(self) -> Any:
        return self.value()


#: SQLite aggregate (and window) functions: name -> (class, number of args (-1 = variadic))
AGGREGATE_FUNCTIONS: dict[str, tuple[type, int]] = {
    "ora_listagg": (ListAgg, -1),
    "ora_json_arrayagg": (JsonArrayAgg, -1),
    "ora_keep": (Keep, -1),
    "ora_stat": (Statistic, -1),
    "ora_dec_sum": (DecimalSum, 1),
    "ora_dec_avg": (DecimalAverage, 1),
    "ora_percentile": (Percentile, 4),
    "ora_frame_value": (FrameValue, 6),
    **{f"ora_hyp_{kind.lower()}": (cls, -1) for kind, cls in _HYPOTHETICAL.items()},
}


def register(con: sqlite3.Connection, on_error: Callable[[BaseException], None],
             extra: dict[str, tuple[Callable[..., Any], int, bool]] | None = None) -> None:
    """Register every ``ora_*`` function (plus connection-bound ``extra`` ones) on a SQLite connection, the
    aggregates, Oracle's UPPER/LOWER in place of SQLite's ASCII-only ones, and a case-sensitive LIKE."""
    for name, (fn, nargs, deterministic) in {**SCALAR_FUNCTIONS, **(extra or {})}.items():
        con.create_function(name, nargs, _wrap(fn, on_error), deterministic=deterministic)
    for name, (cls, nargs) in AGGREGATE_FUNCTIONS.items():
        con.create_window_function(name, nargs, _wrap_aggregate(cls, on_error))
    # Oracle's LIKE is case-sensitive; SQLite's ignores ASCII case unless told otherwise
    con.execute("PRAGMA case_sensitive_like = ON")
