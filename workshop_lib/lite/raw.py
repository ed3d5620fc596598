"""RAW values: SYS_GUID, HEXTORAW, RAWTOHEX, and what a RAW(n) column stores.

A RAW value is bytes (a SQLite BLOB). Oracle writes and reads it as
hexadecimal text: a character value written to a RAW column, or given to
HEXTORAW, is read as hex digits (either case; an odd count gets a leading
zero), and anything else is ORA-01465. RAWTOHEX of a character value shows
the bytes of its text as they are (the SQL function recasts, it does not
parse hex). A number is not converted to RAW (ORA-00932).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from .error_catalogue import ERR_VALUE_TOO_LARGE, error

_HEX = re.compile(r"[0-9A-Fa-f]*")


def sys_guid() -> bytes:
    """SYS_GUID(): a 16-byte RAW unique to the call (random here; Oracle's mixes host, process and a counter)."""
    return uuid.uuid4().bytes


def hextoraw(text: Any) -> bytes | None:
    """HEXTORAW(char): the bytes the hexadecimal digits spell; ORA-01465 for any other character."""
    if text is None or isinstance(text, bytes):
        return text
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise ValueError(f"ORA-00932: inconsistent datatypes: expected CHAR got {_type_name(text)}")
    # a number is read as its text (HEXTORAW(10) is 0x10), as Oracle converts NUMBER to VARCHAR2
    digits = text if isinstance(text, str) else str(int(text)) if float(text).is_integer() else str(text)
    if not _HEX.fullmatch(digits):
        raise ValueError("ORA-01465: invalid hex number")
    if not digits:
        return None   # '' is NULL in Oracle
    return bytes.fromhex(digits if len(digits) % 2 == 0 else "0" + digits)


def rawtohex(value: Any) -> str | None:
    """RAWTOHEX(raw): two upper-case hex digits per byte; a character value's own bytes (AL32UTF8)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.hex().upper() or None
    if isinstance(value, str):
        return value.encode("utf-8").hex().upper() or None
    raise ValueError("ORA-03001: unimplemented feature in the lite backend: RAWTOHEX of a number or a date "
                     "(Oracle shows its internal bytes, which lite does not keep); pass a RAW or a character value")


def raw_in(value: Any, length: Any) -> bytes | None:
    """A value written to a RAW(n) column: hex text read as HEXTORAW reads it; ORA-12899 over ``n`` bytes."""
    data = value if isinstance(value, bytes) or value is None else hextoraw(_as_text(value))
    if data is not None and length is not None and len(data) > int(length):
        raise error(ERR_VALUE_TOO_LARGE, actual=len(data), maximum=int(length))
    return data


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueError(f"ORA-00932: inconsistent datatypes: expected BINARY got {_type_name(value)}")


def _type_name(value: Any) -> str:
    return "NUMBER" if isinstance(value, (int, float)) else type(value).__name__.upper()
