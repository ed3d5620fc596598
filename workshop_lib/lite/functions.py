"""Oracle built-in functions that SQLite lacks, registered as SQLite functions.

The translator (translate.py) rewrites each Oracle call into a call of one of
these ``ora_*`` functions; values use the storage forms of values.py.
Vector ranking over a whole table does not come through here row by row:
the connection precomputes it with numpy (see connection.py).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import sqlite3
from typing import Any, Callable

import numpy as np

from .values import encode_vector, format_datetime, geometry_text, is_vector_blob, vector_as_numpy

EARTH_RADIUS_KM = 6371.0088  # mean Earth radius (IUGG); lite's SDO distances are haversine on it

_UNIT_KM = {"KM": 1.0, "KILOMETER": 1.0, "M": 0.001, "METER": 0.001, "MILE": 1.609344,
            "NAUT_MILE": 1.852, "NM": 1.852}


def _as_vector(value: Any) -> np.ndarray:
    if value is None:
        raise ValueError("NULL vector")
    if is_vector_blob(value):
        return vector_as_numpy(value)
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


def distances_to(matrix: np.ndarray, query: np.ndarray, metric: str) -> np.ndarray:
    """Distances from every row of ``matrix`` to ``query`` with the VECTOR_DISTANCE metric (vectorised)."""
    metric = metric.upper()
    q = query.astype(np.float32)
    if metric == "COSINE":
        norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(q))
        norms[norms == 0] = 1.0
        return 1.0 - (matrix @ q) / norms
    if metric in ("EUCLIDEAN", "L2"):
        return np.linalg.norm(matrix - q, axis=1)
    if metric in ("EUCLIDEAN_SQUARED", "L2_SQUARED"):
        return ((matrix - q) ** 2).sum(axis=1)
    if metric == "DOT":
        return -(matrix @ q)
    if metric in ("MANHATTAN", "L1"):
        return np.abs(matrix - q).sum(axis=1)
    raise ValueError(f"unknown VECTOR_DISTANCE metric {metric}")


def to_vector(value: Any, *_ignored: Any) -> bytes | None:
    """TO_VECTOR('[1,2,3]') / TO_VECTOR(vector): the stored VECTOR form."""
    if value is None:
        return None
    return encode_vector(value)


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
        return json.dumps(json.loads(value), separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        raise ValueError("ORA-40441: JSON syntax error (value written to a JSON column is not JSON)") from None


def json_value(doc: Any, path: str) -> Any:
    """JSON_VALUE(doc, path): the scalar at ``path`` as text; NULL for objects, arrays and misses."""
    if doc is None:
        return None
    try:
        data = json.loads(doc) if isinstance(doc, str) else doc
    except ValueError:
        return None
    for step in _json_path_steps(path):
        if isinstance(step, int):
            if not isinstance(data, list) or step >= len(data):
                return None
            data = data[step]
        else:
            if not isinstance(data, dict) or step not in data:
                return None
            data = data[step]
    if isinstance(data, (dict, list)) or data is None:
        return None
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, float) and data.is_integer():
        return str(int(data))
    return str(data)


def _json_path_steps(path: str) -> list[str | int]:
    if not path or not path.startswith("$"):
        raise ValueError(f"ORA-40442: JSON path expression syntax error: {path!r}")
    steps: list[str | int] = []
    i, n = 1, len(path)
    while i < n:
        ch = path[i]
        if ch == ".":
            j = i + 1
            if j < n and path[j] == '"':
                k = path.index('"', j + 1)
                steps.append(path[j + 1:k])
                i = k + 1
                continue
            while j < n and path[j] not in ".[":
                j += 1
            steps.append(path[i + 1:j])
            i = j
        elif ch == "[":
            k = path.index("]", i)
            steps.append(int(path[i + 1:k]))
            i = k + 1
        else:
            raise ValueError(f"ORA-40442: JSON path expression syntax error: {path!r}")
    return steps


def to_date(text: Any, py_format: str | None = None) -> str | None:
    """TO_DATE(text, format) with sqlglot's strptime form of the Oracle format."""
    if text is None:
        return None
    if py_format is None:
        py_format = "%d-%b-%y"
    try:
        return format_datetime(dt.datetime.strptime(str(text), py_format))
    except ValueError:
        raise ValueError(f"ORA-01861: literal does not match format string ({text!r})") from None


def to_timestamp(text: Any, py_format: str | None = None) -> str | None:
    """TO_TIMESTAMP(text, format)."""
    if text is None:
        return None
    value = dt.datetime.strptime(str(text), py_format or "%Y-%m-%d %H:%M:%S.%f")
    return format_datetime(value, timestamp=True)


def to_char(value: Any, py_format: str | None = None) -> str | None:
    """TO_CHAR(date|number[, format])."""
    if value is None:
        return None
    if isinstance(value, str) and py_format:
        try:
            return dt.datetime.fromisoformat(value).strftime(py_format)
        except ValueError:
            return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def sysdate() -> str:
    """SYSDATE: local date and time to the second."""
    return format_datetime(dt.datetime.now().replace(microsecond=0))


def systimestamp() -> str:
    """SYSTIMESTAMP: local date and time to the microsecond."""
    return format_datetime(dt.datetime.now(), timestamp=True)


def trunc(value: Any, arg: Any = None) -> Any:
    """TRUNC(number[, places]) or TRUNC(date) (to midnight)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            day = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
        return format_datetime(dt.datetime(day.year, day.month, day.day))
    places = int(arg or 0)
    factor = 10 ** places
    result = math.trunc(float(value) * factor) / factor
    return int(result) if places <= 0 else result


def lpad(text: Any, width: Any, fill: Any = " ") -> str | None:
    """LPAD(text, width[, fill])."""
    if text is None or width is None:
        return None
    text, width, fill = str(text), int(width), str(fill or " ")
    if len(text) >= width:
        return text[:width]
    pad = (fill * width)[: width - len(text)]
    return pad + text


def rpad(text: Any, width: Any, fill: Any = " ") -> str | None:
    """RPAD(text, width[, fill])."""
    if text is None or width is None:
        return None
    text, width, fill = str(text), int(width), str(fill or " ")
    if len(text) >= width:
        return text[:width]
    return text + (fill * width)[: width - len(text)]


def instr(text: Any, search: Any, start: Any = 1, nth: Any = 1) -> int | None:
    """INSTR(text, search[, start[, occurrence]]) (1-based; 0 when absent)."""
    if text is None or search is None:
        return None
    text, search, pos = str(text), str(search), int(start) - 1
    for _ in range(int(nth)):
        found = text.find(search, pos)
        if found < 0:
            return 0
        pos = found + 1
    return pos


def lob_substr(lob: Any, amount: Any = 32767, offset: Any = 1) -> str | None:
    """DBMS_LOB.SUBSTR(lob, amount, offset) — note Oracle's argument order."""
    if lob is None:
        return None
    start = int(offset or 1) - 1
    return str(lob)[start:start + int(amount if amount is not None else 32767)]


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


SCALAR_FUNCTIONS: dict[str, tuple[Callable[..., Any], int, bool]] = {
    # name: (function, number of args (-1 = variadic), deterministic)
    "ora_vector_distance": (vector_distance, -1, True),
    "ora_to_vector": (to_vector, -1, True),
    "ora_vector_dims": (vector_dims, 1, True),
    "ora_vector_norm": (vector_norm, 1, True),
    "ora_json_text": (json_text, 1, True),
    "ora_json_value": (json_value, 2, True),
    "ora_to_date": (to_date, -1, True),
    "ora_to_timestamp": (to_timestamp, -1, True),
    "ora_to_char": (to_char, -1, True),
    "ora_sysdate": (sysdate, 0, False),
    "ora_systimestamp": (systimestamp, 0, False),
    "ora_trunc": (trunc, -1, True),
    "ora_lpad": (lpad, -1, True),
    "ora_rpad": (rpad, -1, True),
    "ora_instr": (instr, -1, True),
    "ora_lob_substr": (lob_substr, -1, True),
    "ora_sdo_point": (sdo_point, -1, True),
    "ora_sdo_geometry": (sdo_geometry, -1, True),
    "ora_sdo_distance": (sdo_distance, -1, True),
    "ora_sdo_within_distance": (sdo_within_distance, 3, True),
}


def register(con: sqlite3.Connection, on_error: Callable[[BaseException], None],
             extra: dict[str, tuple[Callable[..., Any], int, bool]] | None = None) -> None:
    """Register every ``ora_*`` function (plus connection-bound ``extra`` ones) on a SQLite connection."""
    for name, (fn, nargs, deterministic) in {**SCALAR_FUNCTIONS, **(extra or {})}.items():
        con.create_function(name, nargs, _wrap(fn, on_error), deterministic=deterministic)
