"""Statement shapes: one translation for INSERTs that differ only in their literal values.

A seed script (and any loop that formats values into SQL) runs hundreds of
``INSERT ... VALUES (...)`` texts that differ only in the literals. Each
distinct text would be guarded, parsed and translated (about 1.5 ms), so the
connection also keys translations by *shape*: the text with the liftable
literals cut out (:func:`shape_of`). The first statement of a shape is
translated as usual and, when the translator can show that its SQLite form
does not depend on those literals' values, yields a :class:`Template`: the
SQLite text with a gap per literal plus the value checks the translator made
on them (a VARCHAR2 length). A later statement of the same shape is
``template.instantiate(values)``: the same checks, the same SQLite text the
full path would write (sqlglot's own string escaping), no parse.

Which literals are lifted is decided twice, so that neither decision alone
has to be trusted:

* here, on the text, conservatively: a string (non-empty, no prefix like
  ``N'`` or ``q'``) or an unsigned decimal number that is a whole argument
  (``(`` or ``,`` before it, ``,`` or ``)`` after, a unary ``-`` allowed
  before a number) of the single top-level ``VALUES (...)`` of an
  ``INSERT INTO``, directly, inside ``SDO_GEOMETRY``/``SDO_POINT_TYPE``
  calls, or as the first argument of ``TO_DATE``/``TO_TIMESTAMP`` (a direct
  element; the format stays part of the shape). Texts with comments, quoted
  string prefixes or NUL characters have no shape;
* by the translator, on the parsed tree of the first statement
  (``translate.translate_shaped``): each cut-out span must be exactly one
  literal token with the value read here, in one of those positions; the
  translator records the checks it makes on them and refuses to template a
  shape whose output depends on a value (a string written to a DATE
  column is converted while translating). Instantiating the template with the
  first statement's own values must give the text the full translation gave.

Why equal shapes mean equal translations: outside the cut-out spans the two
texts are identical, and each span is one complete literal token of the same
kind, so sqlglot's tokenizer yields the same tokens except those literals'
texts, the parser builds the same tree except those literals' values, and
the translator's decisions on those positions depend only on the kind (string
or number) and the column, never on the value — except the checks the
template repeats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from .error_catalogue import ERR_VALUE_TOO_LARGE, error
from .functions import value_length
from .plan import Plan

#: Calls whose every argument lite passes through unchanged to a SQL function evaluated at run time.
PASS_THROUGH_CALLS = frozenset({"SDO_GEOMETRY", "SDO_POINT_TYPE"})
#: Calls whose first argument (the value) is passed through; the second (the format) is part of the shape.
VALUE_FIRST_CALLS = frozenset({"TO_DATE", "TO_TIMESTAMP"})

_TOKEN = re.compile(r"""
    (?P<str>'(?:[^']|'')*')          # a string literal, '' inside is one quote
  | (?P<qid>"[^"]*")                 # a quoted identifier
  | (?P<cmt>--|/\*)                  # a comment: no shape
  | (?P<num>\d[\w.$#]*)              # a number-like run; liftable only when it is digits[.digits]
  | (?P<word>[A-Za-z_][\w$#]*)
  | (?P<ws>\s+)
  | (?P<punct>.)
""", re.S | re.X)
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_HEAD = re.compile(r"\s*INSERT\s+INTO\s", re.I)
STRING_MARK, NUMBER_MARK = "\x00S", "\x00N"


@dataclass(frozen=True)
class Lifted:
    """One literal cut out of a statement: where it is, its kind and its value as the tokenizer reads it."""

    start: int          # offset of its first character in the statement
    end: int            # offset after its last character
    is_string: bool
    value: str          # a string's text ('' unescaped) or a number's digits


@dataclass(frozen=True)
class Shape:
    """A statement's shape key (its text with the lifted literals replaced by kind marks) and those literals."""

    key: str
    literals: tuple[Lifted, ...]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(lit.value for lit in self.literals)


def shape_of(sql: str) -> Shape | None:
    """The shape of a single-row ``INSERT INTO ... VALUES (...)`` with liftable literals, or None.

    None means "no shape" (translate the text as usual): not such an INSERT,
    nothing to lift, or text this scanner does not read with certainty
    (comments, prefixed strings, an unterminated quote, a NUL character).
    Two statements get the same key only when they are identical except for
    the lifted literals' values, and lifted strings and numbers get different
    marks.
    """
    if not _HEAD.match(sql) or "\x00" in sql:
        return None
    tokens: list[tuple[str, str, int, int]] = []   # (kind, text, start, end), whitespace dropped
    for match in _TOKEN.finditer(sql):
        kind = match.lastgroup or ""
        if kind == "ws":
            continue
        text = match.group()
        if kind == "cmt" or (kind == "punct" and text in "'\""):
            return None
        if kind == "str" and tokens and tokens[-1][0] == "word" and tokens[-1][3] == match.start():
            return None   # N'...', q'[...]', X'..': prefixed strings are read differently
        tokens.append((kind, text, match.start(), match.end()))
    values_at = _top_level_values(tokens)
    if values_at is None:
        return None
    lifted = _liftable(tokens, values_at)
    if not lifted:
        return None
    parts, last = [], 0
    for lit in lifted:
        parts.append(sql[last:lit.start])
        parts.append(STRING_MARK if lit.is_string else NUMBER_MARK)
        last = lit.end
    parts.append(sql[last:])
    return Shape("".join(parts), tuple(lifted))


def _top_level_values(tokens: list[tuple[str, str, int, int]]) -> int | None:
    """Index of the ``(`` opening the only depth-0 VALUES list, when its ``)`` ends the statement."""
    depth, found = 0, None
    for i, (kind, text, _s, _e) in enumerate(tokens):
        if kind == "punct" and text == "(":
            depth += 1
        elif kind == "punct" and text == ")":
            depth -= 1
        elif kind == "word" and depth == 0 and text.upper() == "VALUES":
            if found is not None:
                return None
            found = i + 1
    if found is None or found >= len(tokens) or tokens[found][1] != "(" or tokens[found][0] != "punct":
        return None
    depth = 0
    for i in range(found, len(tokens)):
        kind, text = tokens[i][0], tokens[i][1]
        if kind == "punct" and text == "(":
            depth += 1
        elif kind == "punct" and text == ")":
            depth -= 1
            if depth == 0:
                return found if i == len(tokens) - 1 else None
    return None


def _liftable(tokens: list[tuple[str, str, int, int]], open_at: int) -> list[Lifted]:
    """The literals of the VALUES list at ``tokens[open_at]`` that sit in a liftable position (module doc)."""
    frames: list[list] = []   # [owner name or "", argument index]
    lifted: list[Lifted] = []
    for i in range(open_at, len(tokens)):
        kind, text, start, end = tokens[i]
        if kind == "punct" and text == "(":
            prev = tokens[i - 1]
            qualified = i >= 2 and tokens[i - 2][1] == "."
            owner = prev[1].upper() if prev[0] == "word" and not qualified and i > open_at else ""
            frames.append([owner if frames else "VALUES", 0])
        elif kind == "punct" and text == ")":
            frames.pop()
        elif kind == "punct" and text == ",":
            frames[-1][1] += 1
        elif kind in ("str", "num"):
            is_string = kind == "str"
            if is_string and text == "''":
                continue   # '' is NULL in Oracle: kept in the shape
            if not is_string and not _PLAIN_NUMBER.fullmatch(text):
                continue
            before = i - 1
            if not is_string and tokens[before][1] == "-" and tokens[before][0] == "punct":
                before -= 1   # -12.5: the minus stays in the shape, the digits are lifted
            if tokens[before][1] not in ("(", ",") or tokens[i + 1][1] not in (",", ")"):
                continue
            if not _allowed(frames):
                continue
            value = text[1:-1].replace("''", "'") if is_string else text
            lifted.append(Lifted(start, end, is_string, value))
    return lifted


def _allowed(frames: list[list]) -> bool:
    """A literal directly in VALUES, inside pass-through calls only, or first in TO_DATE/TO_TIMESTAMP."""
    if len(frames) == 1:
        return True
    inner = frames[1:]
    if len(inner) == 1 and inner[0][0] in VALUE_FIRST_CALLS:
        return inner[0][1] == 0
    return all(owner in PASS_THROUGH_CALLS for owner, _ in inner)


@dataclass
class Template:
    """The translation of one shape: SQLite text with a gap per lifted literal, and the checks to repeat.

    ``pieces[i]`` is followed by the rendering of literal ``slots[i]`` (the
    last piece by nothing); ``length_checks`` maps a literal to the
    ``(maximum, in_bytes)`` of the VARCHAR2/CHAR column it is written to.
    """

    kind: str
    pieces: list[str]
    slots: list[int]
    kinds: tuple[bool, ...]                      # is_string per lifted literal
    binds: list[str]
    target: tuple[str, str] | None
    length_checks: dict[int, tuple[int, bool]] = field(default_factory=dict)
    quote: str = "'"
    escape: object = None                        # sqlglot's SQLite string escaping (Generator.escape_str)

    def render(self, values: Sequence[str]) -> str:
        """The SQLite text for these literal values (strings escaped as sqlglot escapes them)."""
        rendered = [self.quote + self.escape(v) + self.quote if s else v   # type: ignore[operator]
                    for v, s in zip(values, self.kinds)]
        out = [self.pieces[0]]
        for slot, piece in zip(self.slots, self.pieces[1:]):
            out.append(rendered[slot])
            out.append(piece)
        return "".join(out)

    def instantiate(self, values: Sequence[str]) -> Plan:
        """A fresh Plan for a statement of this shape, after the checks the translator would make.

        A string too long for its column is ORA-12899 with the same figures
        the translator reports, checked in column order as it does.
        """
        for index, (maximum, in_bytes) in sorted(self.length_checks.items()):   # column order, as translated
            actual = value_length(values[index], in_bytes)
            if actual > maximum:
                raise error(ERR_VALUE_TOO_LARGE, actual=actual, maximum=maximum)
        return Plan(self.kind, [self.render(values)], list(self.binds), target=self.target)
