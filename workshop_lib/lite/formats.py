"""Oracle format models for TO_CHAR / TO_DATE / TO_TIMESTAMP / TO_NUMBER in the lite backend.

Oracle's datetime format models (``'YYYY-MM-DD HH24:MI:SS'``, ``'DD-MON-RR'``,
``'FMMonth DD, YYYY'``) are not strftime patterns: elements are
case-insensitive when parsing, their case sets the case of words when
formatting (``MON`` -> ``MAR``, ``Mon`` -> ``Mar``), ``MONTH``/``DAY`` are
blank-padded to 9 characters unless ``FM`` is on, and TO_DATE accepts input
that stops early (the missing trailing elements take their defaults) and any
punctuation where the model has punctuation. This module implements that
subset of the SQL Language Reference ("Format Models") and the common
number format elements (``9 0 . , D G $ FM``); anything else raises
:class:`FormatError` naming the element, which the engine reports as an
Oracle error.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from functools import lru_cache

NLS_DATE_FORMAT = "DD-MON-RR"                       # Oracle's default (NLS_TERRITORY=AMERICA)
NLS_TIMESTAMP_FORMAT = "DD-MON-RR HH.MI.SSXFF AM"


class FormatError(ValueError):
    """A value does not match its format model, or the model uses an element lite lacks.

    ``code`` is the ORA error number Oracle raises in the same situation.
    """

    def __init__(self, code: int, message: str):
        super().__init__(f"ORA-{code:05d}: {message}")
        self.code = code


# Longest first, so "MONTH" wins over "MON" and "HH24" over "HH".
_DATE_ELEMENTS = sorted([
    "SYYYY", "YYYY", "RRRR", "YYY", "YY", "RR", "Y", "MONTH", "MON", "MM", "DDD", "DD", "DAY", "DY", "D",
    "HH24", "HH12", "HH", "MI", "SSSSS", "SS", "AM", "PM", "A.M.", "P.M.", "Q", "WW", "IW", "J", "X",
    "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FF7", "FF8", "FF9", "FF", "FM", "FX",
], key=len, reverse=True)
_UNSUPPORTED_DATE = ("TZH", "TZM", "TZR", "TZD", "SP", "TH", "E", "EE", "CC", "SCC", "IYYY", "IYY", "IY", "I")
_PUNCT = set(" -/,.;:'\t\n")


@lru_cache(maxsize=256)
def parse_date_model(model: str) -> tuple[tuple[str, str], ...]:
    """Split a datetime format model into (kind, text) items: ('E', element as written) or ('L', literal)."""
    items: list[tuple[str, str]] = []
    i, n = 0, len(model)
    while i < n:
        ch = model[i]
        if ch == '"':
            j = model.find('"', i + 1)
            if j < 0:
                raise FormatError(1821, f"date format not recognized: {model!r} (unclosed quote)")
            items.append(("L", model[i + 1:j]))
            i = j + 1
            continue
        if ch in _PUNCT:
            items.append(("L", ch))
            i += 1
            continue
        upper = model[i:].upper()
        for element in _DATE_ELEMENTS:
            if upper.startswith(element):
                items.append(("E", model[i:i + len(element)]))
                i += len(element)
                break
        else:
            word = re.match(r"[A-Za-z]+", model[i:])
            bad = word.group(0) if word else ch
            hint = " (not supported by the lite backend)" if bad.upper() in _UNSUPPORTED_DATE else ""
            raise FormatError(1821, f"date format not recognized: {bad!r} in {model!r}{hint}")
    return tuple(items)


def _cased(word: str, element: str) -> str:
    """Oracle's capitalisation rule: MON -> MAR, Mon -> Mar, mon -> mar."""
    if element[:2].isupper():
        return word.upper()
    if element[:1].isupper():
        return word.capitalize()
    return word.lower()


def format_datetime_model(value: dt.datetime, model: str) -> str:
    """TO_CHAR(datetime, model)."""
    out: list[str] = []
    fill = True  # FM toggles "fill mode" (padding) off and on
    for kind, text in parse_date_model(model):
        if kind == "L":
            out.append(text)
            continue
        e = text.upper()
        if e == "FM":
            fill = not fill
        elif e == "FX":
            pass
        elif e in ("YYYY", "RRRR", "SYYYY"):
            out.append(f"{value.year:04d}")
        elif e == "YYY":
            out.append(f"{value.year % 1000:03d}")
        elif e in ("YY", "RR"):
            out.append(f"{value.year % 100:02d}")
        elif e == "Y":
            out.append(str(value.year % 10))
        elif e == "MM":
            out.append(f"{value.month:02d}" if fill else str(value.month))
        elif e == "MON":
            out.append(_cased(calendar.month_abbr[value.month], text))
        elif e == "MONTH":
            name = calendar.month_name[value.month]
            out.append(_cased(name.ljust(9) if fill else name, text))
        elif e == "DD":
            out.append(f"{value.day:02d}" if fill else str(value.day))
        elif e == "DDD":
            day = value.timetuple().tm_yday
            out.append(f"{day:03d}" if fill else str(day))
        elif e == "D":
            out.append(str(value.isoweekday() % 7 + 1))  # NLS_TERRITORY=AMERICA: Sunday is day 1
        elif e == "DY":
            out.append(_cased(calendar.day_abbr[value.weekday()], text))
        elif e == "DAY":
            name = calendar.day_name[value.weekday()]
            out.append(_cased(name.ljust(9) if fill else name, text))
        elif e == "HH24":
            out.append(f"{value.hour:02d}" if fill else str(value.hour))
        elif e in ("HH", "HH12"):
            hour = value.hour % 12 or 12
            out.append(f"{hour:02d}" if fill else str(hour))
        elif e == "MI":
            out.append(f"{value.minute:02d}" if fill else str(value.minute))
        elif e == "SS":
            out.append(f"{value.second:02d}" if fill else str(value.second))
        elif e == "SSSSS":
            out.append(f"{value.hour * 3600 + value.minute * 60 + value.second:05d}")
        elif e.startswith("FF"):
            digits = int(e[2:]) if len(e) > 2 else 6
            out.append(f"{value.microsecond:06d}".ljust(9, "0")[:digits])
        elif e in ("AM", "PM", "A.M.", "P.M."):
            word = ("AM" if value.hour < 12 else "PM") if "." not in e else ("A.M." if value.hour < 12 else "P.M.")
            out.append(_cased(word, text))
        elif e == "Q":
            out.append(str((value.month - 1) // 3 + 1))
        elif e == "WW":
            out.append(f"{(value.timetuple().tm_yday - 1) // 7 + 1:02d}")
        elif e == "IW":
            out.append(f"{value.isocalendar()[1]:02d}")
        elif e == "J":
            out.append(str(value.toordinal() + 1721425))   # 1 January 2000 is Julian day 2451545
        elif e == "X":
            out.append(".")
    return "".join(out)


_MONTHS = {name.upper(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.upper(): i for i, name in enumerate(calendar.month_abbr) if name})
_NUMERIC = {
    "YYYY": r"\d{1,4}", "SYYYY": r"-?\d{1,4}", "RRRR": r"\d{1,4}", "YYY": r"\d{1,3}", "YY": r"\d{1,4}",
    "RR": r"\d{1,4}", "Y": r"\d", "MM": r"\d{1,2}", "DD": r"\d{1,2}", "DDD": r"\d{1,3}", "D": r"\d",
    "HH24": r"\d{1,2}", "HH12": r"\d{1,2}", "HH": r"\d{1,2}", "MI": r"\d{1,2}", "SS": r"\d{1,2}",
    "SSSSS": r"\d{1,5}", "J": r"\d{1,7}", "Q": r"\d", "WW": r"\d{1,2}", "IW": r"\d{1,2}",
}
# compiled once: TO_DATE/TO_TIMESTAMP parse once per row
_NUMERIC_RE = {element: re.compile(pattern) for element, pattern in _NUMERIC.items()}
_PUNCT_RUN = re.compile(r"[^0-9A-Za-z]*")
_WORD = re.compile(r"[A-Za-z]+")
_MERIDIAN = re.compile(r"([AaPp])\.?[Mm]\.?")
_FRACTION = re.compile(r"\d{1,9}")


def parse_datetime_model(text: str, model: str, now: dt.datetime | None = None) -> dt.datetime:
    """TO_DATE / TO_TIMESTAMP(text, model), with Oracle's leniency about punctuation and missing trailing parts."""
    now = now or dt.datetime.now()
    year, month, day = now.year, now.month, 1
    hour = minute = second = micro = 0
    pm: bool | None = None
    pos, n = 0, len(text)
    items = parse_date_model(model)
    for kind, item in items:
        if pos >= n:
            break  # Oracle: trailing elements missing from the input take their defaults
        if kind == "L":
            if item in _PUNCT or all(c in _PUNCT for c in item):
                match = _PUNCT_RUN.match(text, pos)
                pos = match.end() if match else pos
                continue
            if text[pos:pos + len(item)].upper() != item.upper():
                raise FormatError(1861, f"literal does not match format string ({text!r} vs {model!r})")
            pos += len(item)
            continue
        e = item.upper()
        if e in ("FM", "FX"):
            continue
        if e in _NUMERIC_RE:
            match = _NUMERIC_RE[e].match(text, pos)
            if not match:
                raise FormatError(1858, f"a non-numeric character was found where a numeric was expected "
                                        f"({text!r} vs {model!r})")
            value = int(match.group(0))
            pos = match.end()
            if e in ("YYYY", "SYYYY", "RRRR"):
                year = value if len(match.group(0)) > 2 or e == "SYYYY" else _rr(value, now)
            elif e == "YYY":
                year = now.year // 1000 * 1000 + value
            elif e == "YY":
                # Oracle takes a four-digit year where YY/RR expect two ('01-JAN-2018' under DD-MON-RR)
                year = now.year // 100 * 100 + value if len(match.group(0)) <= 2 else value
            elif e == "RR":
                year = _rr(value, now) if len(match.group(0)) <= 2 else value
            elif e == "Y":
                year = now.year // 10 * 10 + value
            elif e == "MM":
                month = value
            elif e == "DD":
                day = value
            elif e == "DDD":
                start = dt.date(year, 1, 1) + dt.timedelta(days=value - 1)
                month, day = start.month, start.day
            elif e == "HH24":
                hour = value
            elif e in ("HH", "HH12"):
                if not 1 <= value <= 12:
                    raise FormatError(1849, "hour must be between 1 and 12")
                hour = value
            elif e == "MI":
                minute = value
            elif e == "SS":
                second = value
            elif e == "SSSSS":
                hour, rest = divmod(value, 3600)
                minute, second = divmod(rest, 60)
            elif e == "J":
                date = dt.date.fromordinal(value - 1721425)
                year, month, day = date.year, date.month, date.day
            continue
        if e in ("MON", "MONTH"):
            match = _WORD.match(text, pos)
            word = match.group(0).upper() if match else ""
            if word not in _MONTHS:
                raise FormatError(1843, f"not a valid month ({text!r} vs {model!r})")
            month = _MONTHS[word]
            pos = match.end()  # type: ignore[union-attr]
        elif e in ("DY", "DAY"):
            match = _WORD.match(text, pos)
            if not match:
                raise FormatError(1846, f"not a valid day of the week ({text!r})")
            pos = match.end()
        elif e in ("AM", "PM", "A.M.", "P.M."):
            match = _MERIDIAN.match(text, pos)
            if not match:
                raise FormatError(1855, "AM/A.M. or PM/P.M. required")
            pm = match.group(1).upper() == "P"
            pos = match.end()
        elif e.startswith("FF") or e == "X":
            if e == "X":
                if text[pos] == ".":
                    pos += 1
                continue
            match = _FRACTION.match(text, pos)
            if not match:
                raise FormatError(1858, "a non-numeric character was found where a numeric was expected")
            # up to 9 digits (nanoseconds): rounded, not truncated, to the microseconds lite keeps, as
            # Oracle rounds a more precise value stored into TIMESTAMP(6)
            micro = (int(match.group(0).ljust(9, "0")) + 500) // 1000   # half up, as Oracle
            pos = match.end()
        else:
            raise FormatError(1821, f"date format element {item!r} is not supported by TO_DATE in lite")
    if pos < n:
        if text[pos:].strip():
            raise FormatError(1830, f"date format picture ends before converting entire input string "
                                    f"({text!r} vs {model!r})")
    if pm is not None:
        hour = hour % 12 + (12 if pm else 0)
    if not 1 <= month <= 12:
        raise FormatError(1843, "not a valid month")
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        raise FormatError(1847, "day of month must be between 1 and last day of month")
    if not 0 <= hour <= 23:
        raise FormatError(1850, "hour must be between 0 and 23")
    if not 0 <= minute <= 59:
        raise FormatError(1851, "minutes must be between 0 and 59")
    if not 0 <= second <= 59:
        raise FormatError(1852, "seconds must be between 0 and 59")
    carry = micro // 1_000_000   # .9999996 rounds up into the next second
    return dt.datetime(year, month, day, hour, minute, second, micro % 1_000_000) + dt.timedelta(seconds=carry)


def round_fraction(value: dt.datetime, precision: int) -> dt.datetime:
    """``value`` with its fractional seconds rounded to ``precision`` digits (0-6), as Oracle stores a
    TIMESTAMP into TIMESTAMP(precision): half up, carrying into the seconds."""
    if precision >= 6:
        return value
    unit = 10 ** (6 - precision)
    rounded = (value.microsecond + unit // 2) // unit * unit
    return value.replace(microsecond=0) + dt.timedelta(microseconds=rounded)


def _rr(value: int, now: dt.datetime) -> int:
    """The RR century rule: 00-49 and 50-99 land in the century nearest the current year."""
    if value >= 100:
        return value
    century = now.year // 100 * 100
    current = now.year % 100
    if value < 50:
        return century + value if current < 50 else century + 100 + value
    return century + value if current >= 50 else century - 100 + value


# ----------------------------------------------------------------------------- numbers

_NUMBER_MODEL = re.compile(r"^(?P<fm>FM)?(?P<dollar>\$)?(?P<int>[90,G]*)(?:(?P<dot>[.D])(?P<frac>[90]*))?$",
                           re.I)


def format_number_model(value: float | int, model: str) -> str:
    """TO_CHAR(number, model) for the elements 9 0 , G . D $ and FM."""
    match = _NUMBER_MODEL.match(model.strip())
    if not match or not (match.group("int") or match.group("frac")):
        raise FormatError(1481, f"invalid number format model {model!r} (lite supports 9 0 , . G D $ FM)")
    int_model = match.group("int") or ""
    decimals = len(match.group("frac") or "")
    positions = [c for c in int_model if c in "90"]
    first_zero = positions.index("0") if "0" in positions else None
    min_digits = len(positions) - first_zero if first_zero is not None else 0
    whole, _, fraction = f"{round(abs(float(value)), decimals):.{decimals}f}".partition(".")
    whole = whole.lstrip("0")
    if len(whole) < min_digits:
        whole = whole.zfill(min_digits)
    if not whole and not decimals:
        whole = "0"
    width = len(re.sub("(?i)fm", "", model.strip())) + 1  # + the sign position
    if len(whole) > len(positions):
        return "#" * width
    out: list[str] = []
    digits = list(whole)
    for ch in reversed(int_model):
        if ch in "90":
            if digits:
                out.append(digits.pop())
        elif digits:
            out.append(",")
    text = "".join(reversed(out))
    if match.group("dot"):
        text += "." + fraction
    if match.group("dollar"):
        text = "$" + text
    if value < 0:
        text = "-" + text
    return text if match.group("fm") else text.rjust(width)


_INTEGER = re.compile(r"[+-]?\d+")


def to_number(text: object) -> int | float | None:
    """TO_NUMBER(text): ORA-01722 when the text is not a number."""
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return text
    cleaned = str(text).strip()
    try:
        if _INTEGER.fullmatch(cleaned):
            return int(cleaned)
        return float(cleaned)
    except ValueError:
        raise FormatError(1722, f"invalid number ({text!r})") from None
