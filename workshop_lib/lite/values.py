"""How Oracle values are stored in SQLite and returned as python-oracledb returns them.

Storage: VECTOR is a BLOB with a 4-byte header naming its element format
(self-describing, so any expression yielding a vector converts back);
JSON and SDO_GEOMETRY are JSON text; DATE and TIMESTAMP are fixed-width
ISO-8601 text ``YYYY-MM-DD HH:MM:SS.ffffff`` (sortable, so comparisons work
in SQL); NUMBER is INTEGER/REAL; INTERVAL DAY TO SECOND results are seconds.

Returned values: ``array.array`` for VECTOR, ``dict``/``list`` for JSON,
``datetime`` for DATE/TIMESTAMP, ``timedelta`` for INTERVAL DAY TO SECOND,
``int`` for integral NUMBER values, and an
attribute object for SDO_GEOMETRY (``g.SDO_POINT.X`` as with python-oracledb
DbObjects).
"""

from __future__ import annotations

import array
import datetime as dt
import json
from decimal import Decimal
from typing import Any

import numpy as np

VECTOR_MAGIC = {b"VF32": "f", b"VF64": "d"}
_MAGIC_FOR = {"f": b"VF32", "d": b"VF64"}


def encode_vector(values: Any, fmt: str = "f") -> bytes:
    """Encode a sequence of numbers (list, array.array, ndarray, '[1,2]' text) as a VECTOR blob."""
    if isinstance(values, (bytes, bytearray, memoryview)):
        raw = bytes(values)
        if raw[:4] in VECTOR_MAGIC:
            return raw
        raise ValueError("ORA-00932: inconsistent datatypes: expected VECTOR got BINARY (bytes that are not a "
                         "VECTOR: bind an array.array('f', ...) or a list)")
    if isinstance(values, str):
        try:
            values = json.loads(values)
        except ValueError:
            raise ValueError(f"ORA-51805: Vector is not properly formatted ({values[:60]!r} is not a list of "
                             f"numbers in brackets)") from None
    if isinstance(values, array.array):
        fmt = "d" if values.typecode == "d" else "f"
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            arr = np.asarray(values, dtype=np.float64 if fmt == "d" else np.float32)
    except (TypeError, ValueError, OverflowError):
        raise ValueError("ORA-51805: Vector is not properly formatted (a dimension value is not a number)") from None
    if arr.size and not np.isfinite(arr).all():
        raise ValueError(f"ORA-51805: Vector is not properly formatted (a dimension value is NaN, infinite or "
                         f"beyond {'FLOAT64' if fmt == 'd' else 'FLOAT32'}'s range)")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("ORA-51805: Vector is not properly formatted (a VECTOR is a non-empty one-dimensional "
                         "list of numbers)")
    return _MAGIC_FOR[fmt] + arr.tobytes()


def compact_json(data: Any) -> str:
    """JSON text as lite stores and returns it: no spaces, non-ASCII characters as they are."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def is_vector_blob(value: Any) -> bool:
    """True when ``value`` is a stored VECTOR blob."""
    return isinstance(value, bytes) and value[:4] in VECTOR_MAGIC


def vector_as_numpy(blob: bytes) -> np.ndarray:
    """View a stored VECTOR blob as a numpy array (no copy)."""
    fmt = VECTOR_MAGIC[blob[:4]]
    return np.frombuffer(blob, dtype=np.float32 if fmt == "f" else np.float64, offset=4)


def decode_vector(blob: bytes) -> array.array:
    """Return a stored VECTOR blob as ``array.array`` (python-oracledb's VECTOR type)."""
    fmt = VECTOR_MAGIC[blob[:4]]
    out = array.array(fmt)
    out.frombytes(blob[4:])
    return out


class SdoPoint:
    """SDO_POINT_TYPE as returned to Python: attributes X, Y, Z."""

    def __init__(self, x: float | None, y: float | None, z: float | None = None):
        self.X, self.Y, self.Z = x, y, z

    def __repr__(self) -> str:
        return f"SDO_POINT_TYPE({self.X}, {self.Y}, {self.Z})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SdoPoint) and (self.X, self.Y, self.Z) == (other.X, other.Y, other.Z)

    __hash__ = None  # type: ignore[assignment]


class SdoGeometry:
    """SDO_GEOMETRY as returned to Python: SDO_GTYPE, SDO_SRID and SDO_POINT (point geometries)."""

    def __init__(self, gtype: int, srid: int | None, point: SdoPoint | None):
        self.SDO_GTYPE, self.SDO_SRID, self.SDO_POINT = gtype, srid, point
        self.SDO_ELEM_INFO = None
        self.SDO_ORDINATES = None

    @classmethod
    def from_text(cls, text: str) -> "SdoGeometry":
        data = json.loads(text)
        point = data.get("point")
        return cls(data["gtype"], data.get("srid"),
                   SdoPoint(*point) if point is not None else None)

    def __repr__(self) -> str:
        return f"SDO_GEOMETRY({self.SDO_GTYPE}, {self.SDO_SRID}, {self.SDO_POINT!r}, NULL, NULL)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SdoGeometry) and (self.SDO_GTYPE, self.SDO_SRID, self.SDO_POINT) == (
            other.SDO_GTYPE, other.SDO_SRID, other.SDO_POINT)

    __hash__ = None  # type: ignore[assignment]


def geometry_text(gtype: Any, srid: Any, point: Any) -> str:
    """Storage text of an SDO_GEOMETRY point (the point is a JSON [x, y, z] text or None)."""
    coords = json.loads(point) if isinstance(point, str) else point
    return json.dumps({"gtype": int(gtype), "srid": None if srid is None else int(srid), "point": coords},
                      separators=(",", ":"))


def format_datetime(value: dt.datetime | dt.date, *, timestamp: bool = True) -> str:
    """Storage text of a DATE or TIMESTAMP: always ``YYYY-MM-DD HH:MM:SS.ffffff``.

    One fixed-width form for both types means SQLite's text comparison and
    ORDER BY agree with time order, and equal instants compare equal whatever
    produced them (a bind, a function, a literal). ``timestamp=False`` drops the
    fractional seconds, as assigning a value to an Oracle DATE does.
    """
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    if value.tzinfo is not None:
        value = value.replace(tzinfo=None)  # wall time, as a TIMESTAMP WITH TIME ZONE shows it
    if not timestamp:
        value = value.replace(microsecond=0)
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def parse_stored_datetime(text: str) -> dt.datetime:
    """Read a stored DATE/TIMESTAMP text (ISO-8601) back as a datetime."""
    return dt.datetime.fromisoformat(text)


def adapt_bind(value: Any) -> Any:
    """Convert a Python bind value into its SQLite storage form.

    Oracle treats '' as NULL, so an empty string binds as NULL here too.
    """
    if isinstance(value, int):   # bool too: True is 1
        # SQLite's integers are 64-bit; a larger whole NUMBER is kept as the nearest float, as SQLite keeps one
        return int(value) if -2 ** 63 <= value < 2 ** 63 else float(value)
    if value is None or isinstance(value, (float, bytes)):
        return value
    if isinstance(value, str):
        return None if value == "" else value
    if isinstance(value, Decimal):
        return adapt_bind(int(value)) if value == value.to_integral_value() else float(value)
    if isinstance(value, (dt.datetime, dt.date)):
        return format_datetime(value)
    if isinstance(value, array.array):
        return encode_vector(value)
    if isinstance(value, np.ndarray):
        return encode_vector(value, "d" if value.dtype == np.float64 else "f")
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (dict, list, tuple)):
        return compact_json(value)
    raise TypeError(
        f"cannot bind a value of type {type(value).__name__}; use str, int, float, "
        "datetime, dict/list (JSON), array.array (VECTOR) or None"
    )


def convert_out(value: Any, oracle_type: str | None) -> Any:
    """Turn a stored value into what python-oracledb returns for ``oracle_type``."""
    if value is None:
        return None
    if isinstance(value, bytes) and value[:4] in VECTOR_MAGIC:
        return decode_vector(value)
    if oracle_type is None:
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if oracle_type == "NUMBER":
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        if isinstance(value, str):
            digits = value.strip().lstrip("+-")
            if digits.isascii() and digits.isdigit() and len(value.strip()) - len(digits) <= 1:
                return int(value)   # exactly, past a float's 2^53 (a sequence's MAXVALUE is 10^28 - 1)
            try:
                number = float(value)
            except ValueError:
                return value
            return int(number) if number.is_integer() else number
        return value
    if oracle_type in ("BINARY_DOUBLE", "BINARY_FLOAT"):
        return float(value) if isinstance(value, (int, float)) else value
    if oracle_type == "JSON":
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value
    if oracle_type in ("DATE", "TIMESTAMP"):
        if isinstance(value, str):
            try:
                parsed = parse_stored_datetime(value)
            except ValueError:
                return value
            return parsed.replace(microsecond=0) if oracle_type == "DATE" else parsed
        return value
    if oracle_type == "INTERVAL":
        # INTERVAL DAY TO SECOND is kept as a number of seconds; python-oracledb returns timedelta.
        return dt.timedelta(seconds=float(value)) if isinstance(value, (int, float)) else value
    if oracle_type == "SDO_GEOMETRY" and isinstance(value, str):
        try:
            return SdoGeometry.from_text(value)
        except (ValueError, KeyError):
            return value
    if oracle_type in ("VARCHAR2", "CHAR", "CLOB", "NVARCHAR2"):
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return value if isinstance(value, str) else str(value)
    return value
