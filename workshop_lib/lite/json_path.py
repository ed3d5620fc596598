"""SQL/JSON path expressions, read and evaluated as Oracle does in its default lax mode.

Lite's JSON_VALUE, JSON_QUERY, JSON_EXISTS and JSON_TABLE run in Python, so
their paths are read here once per path text (:func:`parse`, cached) and
applied to each row's parsed document (:func:`matches`). What is read:

* steps ``.field``, ``."field"``, ``["field"]``, ``..field`` (at any depth), ``.*``, ``[*]``, and array
  selectors ``[2]``, ``[last]``, ``[last - 1]``, ``[0 to 2]``, ``[0, 3 to last]``
  (written in ascending order without overlap);
* filters ``?( ... )`` after any step: ``@`` paths, string / number / true /
  false / null literals, ``== != < <= > >=``, ``has substring``,
  ``starts with``, ``like``, ``like_regex``, ``eq_regex``, ``exists( )``,
  ``&&``, ``||`` and ``!( )``, with the standard's three-valued answers, and ``$name``
  variables whose values JSON_EXISTS's PASSING clause gives;
* one trailing item method: ``size() type() length() upper() lower() abs()
  ceiling() floor() number() numberOnly() string() stringOnly() boolean()
  booleanOnly() double()`` and the aggregates ``count() sum() avg()
  minNumber() maxNumber() minString() maxString()``.

Lax mode, as the SQL/JSON standard and Oracle define it: a field step, a
filter and an item method other than ``size()``/``type()`` apply to each
element of an array they meet; an array step on a value that is not an
array treats it as a one-element array; a comparison is true when any pair
of its operands' values compares true. An item method whose target has the
wrong type matches nothing, so JSON_VALUE's error handling applies (NULL by
default) and JSON_EXISTS is false.

Not read, and refused by name (:class:`Unsupported`, ORA-03001 at plan time):
descendant steps other than ``..field``, ``strict`` mode, the
datetime, interval and binary item methods and any other method name.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["PathSyntaxError", "Unsupported", "Path", "parse", "checked", "matches", "scalar_text"]


class PathSyntaxError(ValueError):
    """The text is not a SQL/JSON path (ORA-40442)."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"ORA-40442: JSON path expression syntax error: {path!r} ({detail})")


class Unsupported(Exception):
    """A valid path that uses something lite does not evaluate; ``construct`` names it."""

    def __init__(self, construct: str) -> None:
        super().__init__(construct)
        self.construct = construct


@dataclass(frozen=True)
class Field:
    name: str


@dataclass(frozen=True)
class Descendant:
    """``..name``: the field ``name`` of the value or of any object below it, each object before its contents."""
    name: str


@dataclass(frozen=True)
class AnyField:
    pass


@dataclass(frozen=True)
class AnyItem:
    pass


@dataclass(frozen=True)
class Items:
    """Array selectors: ``(first, last)`` pairs, each bound an index from the start or ``("last", n)``."""
    ranges: tuple[tuple[Any, Any], ...]


@dataclass(frozen=True)
class Filter:
    condition: tuple


@dataclass(frozen=True)
class Method:
    name: str


@dataclass(frozen=True)
class Path:
    """A parsed path: its steps, the last of which may be an item :class:`Method`, and the names of the
    ``$variables`` its filters read (given by JSON_EXISTS's PASSING clause)."""
    steps: tuple
    variables: frozenset = frozenset()


_SCALAR_METHODS = {"size", "type", "length", "upper", "lower", "abs", "ceiling", "floor", "number", "numberonly",
                   "string", "stringonly", "boolean", "booleanonly", "double"}
_AGGREGATES = {"count", "sum", "avg", "minnumber", "maxnumber", "minstring", "maxstring"}
_KNOWN_UNREAD = {"date", "timestamp", "datewithtime", "dsinterval", "yminterval", "binary", "binaryonly", "float",
                 "indexof", "concat", "substr", "replace", "split", "atan", "keyvalue"}

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<string>"(?:[^"\\]|\\.)*")
    | (?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
    | (?P<op>==|!=|<>|<=|>=|&&|\|\||\.\.|[.$@\[\](),*?!<>-])
    | (?P<word>[A-Za-z_][\w$]*)
    )""", re.X)


def _spans(text: str) -> list[re.Match]:
    out, i = [], 0
    while i < len(text):
        if text[i:].strip() == "":
            break
        m = _TOKEN.match(text, i)
        if m is None:
            raise PathSyntaxError(text, f"unexpected {text[i:].strip()[:10]!r}")
        out.append(m)
        i = m.end()
    return out



class _Reader:
    """Recursive descent over the path's tokens (one instance per parse)."""

    def __init__(self, text: str) -> None:
        found = _spans(text)
        self.text, self.at = text, 0
        self.tokens = [(m.lastgroup or "", m.group(m.lastgroup or "")) for m in found]
        self.spans = [m.span(m.lastgroup) for m in found]
        self.variables: set[str] = set()

    def _adjacent(self, index: int) -> bool:
        """Whether token ``index`` and the next one touch (``$name``, a variable, not ``$ .name``)."""
        return index + 1 < len(self.spans) and self.spans[index][1] == self.spans[index + 1][0]

    def peek(self, ahead: int = 0) -> tuple[str, str]:
        i = self.at + ahead
        return self.tokens[i] if i < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None, kind: str | None = None) -> str:
        got_kind, got = self.peek()
        if (value is not None and got != value) or (kind is not None and got_kind != kind):
            wanted = value or kind
            raise PathSyntaxError(self.text, f"expected {wanted} at {got or 'the end'!r}")
        self.at += 1
        return got

    def accept(self, value: str) -> bool:
        if self.peek()[1] == value:
            self.at += 1
            return True
        return False

    def path(self) -> Path:
        kind, word = self.peek()
        if kind == "word" and word.lower() in ("lax", "strict"):
            if word.lower() == "strict":
                raise Unsupported("strict JSON path mode")
            self.at += 1
        self.take("$")
        steps = self.steps()
        if self.peek()[0] != "end":
            raise PathSyntaxError(self.text, f"unexpected {self.peek()[1]!r}")
        return Path(steps, frozenset(self.variables))

    def steps(self) -> tuple:
        steps: list[Any] = []
        while True:
            kind, token = self.peek()
            if token == "..":
                self.at += 1
                kind, token = self.peek()
                if kind not in ("word", "string"):
                    raise Unsupported("JSON path descendant steps other than ..field")
                self.at += 1
                steps.append(Descendant(_unquote(token) if kind == "string" else token))
                continue
            if token == ".":
                self.at += 1
                kind, token = self.peek()
                if token == "*":
                    self.at += 1
                    steps.append(AnyField())
                elif kind == "string":
                    self.at += 1
                    steps.append(Field(_unquote(token)))
                elif kind == "word":
                    self.at += 1
                    if self.peek()[1] == "(":
                        steps.append(self.method(token))
                        if self.peek()[1] in (".", "[", "?"):
                            raise PathSyntaxError(self.text, f"{token}() must be the path's last step")
                        return tuple(steps)
                    steps.append(Field(token))
                else:
                    raise PathSyntaxError(self.text, "a field name must follow '.'")
            elif token == "[":
                self.at += 1
                steps.append(self.selectors())
            elif token == "?":
                self.at += 1
                self.take("(")
                condition = self.condition()
                self.take(")")
                steps.append(Filter(condition))
            else:
                return tuple(steps)

    def method(self, name: str) -> Method:
        self.take("(")
        self.take(")")
        key = name.lower()
        if key in _SCALAR_METHODS or key in _AGGREGATES:
            return Method(key)
        if key in _KNOWN_UNREAD:
            raise Unsupported(f"JSON path item method {name}()")
        raise PathSyntaxError(self.text, f"{name}() is not an item method")

    def selectors(self) -> Any:
        kind, token = self.peek()
        if token == "*":
            self.at += 1
            self.take("]")
            return AnyItem()
        if kind == "string":   # ["field name"]
            self.at += 1
            self.take("]")
            return Field(_unquote(token))
        ranges = []
        while True:
            first = last = self.index()
            if self.peek()[1].lower() == "to":
                self.at += 1
                last = self.index()
            ranges.append((first, last))
            if not self.accept(","):
                break
        self.take("]")
        # Selectors written in ascending order without overlap select the same elements whatever order a
        # database returns them in; others are refused rather than guessed. ``last`` may only end the list.
        plain = [r for r in ranges if not any(isinstance(b, tuple) for b in r)]
        if len(plain) < len(ranges) - 1 or (len(plain) == len(ranges) - 1 and ranges[-1] in plain) \
                or any(a > b for a, b in plain) or any(a[1] >= b[0] for a, b in zip(ranges, ranges[1:])
                                                        if not isinstance(b[0], tuple) and not isinstance(a[1], tuple)):
            raise Unsupported("JSON array selectors that are not in ascending order without overlap")
        return Items(tuple(ranges))

    def index(self) -> Any:
        kind, token = self.peek()
        if kind == "number" and re.fullmatch(r"\d+", token):
            self.at += 1
            return int(token)
        if kind == "word" and token.lower() == "last":
            self.at += 1
            if self.accept("-"):
                return ("last", int(self.take(kind="number")))
            kind, token = self.peek()
            if kind == "number" and re.fullmatch(r"-\d+", token):   # "last-1" reads as last, -1
                self.at += 1
                return ("last", -int(token))
            return ("last", 0)
        raise PathSyntaxError(self.text, f"an array index must be a whole number or last, not {token!r}")

    # filter conditions: tuples ("or", a, b), ("and", a, b), ("not", a), ("exists", path),
    # ("cmp", op, left, right), ("str", op, left, argument); operands ("path", steps) or ("value", v)
    def condition(self) -> tuple:
        left = self.conjunction()
        while self.accept("||"):
            left = ("or", left, self.conjunction())
        return left

    def conjunction(self) -> tuple:
        left = self.negation()
        while self.accept("&&"):
            left = ("and", left, self.negation())
        return left

    def negation(self) -> tuple:
        if self.accept("!"):
            self.take("(")
            inner = self.condition()
            self.take(")")
            return ("not", inner)
        if self.peek()[1] == "(":
            self.at += 1
            inner = self.condition()
            self.take(")")
            return inner
        kind, word = self.peek()
        if kind == "word" and word.lower() == "exists" and self.peek(1)[1] == "(":
            self.at += 2
            operand = self.operand()
            self.take(")")
            if operand[0] != "path":
                raise PathSyntaxError(self.text, "exists() takes a path starting with @")
            return ("exists", operand[1])
        return self.comparison()

    def comparison(self) -> tuple:
        left = self.operand()
        kind, token = self.peek()
        if token in ("==", "!=", "<>", "<", "<=", ">", ">="):
            self.at += 1
            return ("cmp", "!=" if token == "<>" else token, left, self.operand())
        words = token.lower()
        if kind == "word" and words in ("has", "starts", "like", "like_regex", "eq_regex"):
            self.at += 1
            follower = {"has": "substring", "starts": "with"}.get(words)
            if follower is not None:
                if self.peek()[1].lower() != follower:
                    raise PathSyntaxError(self.text, f"expected '{follower}' after '{words}'")
                self.at += 1
            argument = self.operand()
            if words in ("like", "like_regex", "eq_regex") and argument[0] != "value":
                raise PathSyntaxError(self.text, f"{words} takes a string literal")
            if self.peek()[1].lower() == "flag":
                raise Unsupported(f"JSON path {words} ... flag")
            return ("str", words, left, argument)
        raise PathSyntaxError(self.text, f"expected a comparison after the operand, found {token or 'the end'!r}")

    def operand(self) -> tuple:
        kind, token = self.peek()
        if token == "@":
            self.at += 1
            return ("path", self.steps())
        if token == "$":
            self.at += 1
            if self.peek()[0] == "word" and self._adjacent(self.at - 1):   # $name, not $ .name
                name = self.take(kind="word")
                self.variables.add(name)
                return ("var", name)
            return ("root", self.steps())
        self.at += 1
        if kind == "string":
            return ("value", _unquote(token))
        if kind == "number":
            number = float(token)
            return ("value", int(number) if number.is_integer() and re.fullmatch(r"-?\d+", token) else number)
        if kind == "word" and token in ("true", "false", "null"):
            return ("value", {"true": True, "false": False, "null": None}[token])
        raise PathSyntaxError(self.text, f"unexpected {token or 'the end'!r} where a value or @ path belongs")


def _unquote(token: str) -> str:
    try:
        return json.loads(token)
    except ValueError:
        return token[1:-1]


@functools.lru_cache(maxsize=512)
def parse(text: str) -> Path:
    """The path ``text`` parsed (cached per text); PathSyntaxError (ORA-40442) or Unsupported (ORA-03001)."""
    if not isinstance(text, str) or not text.strip():
        raise PathSyntaxError(str(text), "empty path")
    return _Reader(text.strip()).path()


def checked(text: str, where: str = "", passing: frozenset | set = frozenset()) -> str:
    """``text`` when lite evaluates it as a path; otherwise the Oracle error a statement using it gets before
    any row is read: ORA-03001 naming what lite lacks (``where`` says in which clause), ORA-40442 for a text
    that is not a path or that reads a ``$variable`` not among ``passing``."""
    from .error_catalogue import ERR_JSON_PATH_SYNTAX, ERR_UNSUPPORTED, error

    try:
        path = parse(text)
    except Unsupported as exc:
        raise error(ERR_UNSUPPORTED, construct=f"{exc.construct} in {where}{text}") from None
    except PathSyntaxError:
        raise error(ERR_JSON_PATH_SYNTAX, path=text) from None
    missing = sorted(path.variables - set(passing))
    if missing:
        raise error(ERR_JSON_PATH_SYNTAX, path=f"{text}: ${missing[0]} has no PASSING ... AS \"{missing[0]}\"")
    return text


# ---- evaluation ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Env:
    root: Any
    variables: dict


def matches(data: Any, path: Path, variables: dict | None = None) -> list[Any]:
    """Every value ``path`` reaches in the parsed JSON ``data`` (lax mode), in document order; ``variables``
    holds the values of its ``$names`` (ValueError naming one that has none)."""
    missing = path.variables - set(variables or {})
    if missing:
        raise ValueError(f"ORA-40442: JSON path expression syntax error (${sorted(missing)[0]} has no PASSING value)")
    return _walk([data], path.steps, _Env(data, variables or {}))


def _walk(found: list[Any], steps: tuple, root: _Env) -> list[Any]:
    for step in steps:
        following: list[Any] = []
        if isinstance(step, Field):
            for value in found:
                if isinstance(value, dict):
                    if step.name in value:
                        following.append(value[step.name])
                elif isinstance(value, list):   # lax: a field step applies to each element
                    following += [item[step.name] for item in value if isinstance(item, dict) and step.name in item]
        elif isinstance(step, Descendant):
            for value in found:
                _descendants(value, step.name, following)
        elif isinstance(step, AnyField):
            for value in found:
                if isinstance(value, dict):
                    following += list(value.values())
                elif isinstance(value, list):
                    for item in value:
                        following += list(item.values()) if isinstance(item, dict) else []
        elif isinstance(step, AnyItem):
            for value in found:
                following += value if isinstance(value, list) else [value]   # lax: a non-array is its one item
        elif isinstance(step, Items):
            for value in found:
                following += _selected(value if isinstance(value, list) else [value], step.ranges)
        elif isinstance(step, Filter):
            for value in found:
                for item in (value if isinstance(value, list) else [value]):
                    if _truth(step.condition, item, root) is True:
                        following.append(item)
        else:
            following = _method(step.name, found)
        found = following
    return found


def _descendants(value: Any, name: str, out: list[Any]) -> None:
    if isinstance(value, dict):
        if name in value:
            out.append(value[name])
        for child in value.values():
            _descendants(child, name, out)
    elif isinstance(value, list):
        for item in value:
            _descendants(item, name, out)


def _selected(items: list[Any], ranges: tuple) -> list[Any]:
    size = len(items)

    def position(bound: Any) -> int:
        return size - 1 - bound[1] if isinstance(bound, tuple) else bound

    chosen: set[int] = set()
    for first, last in ranges:
        chosen.update(range(max(position(first), 0), min(position(last), size - 1) + 1))
    return [items[i] for i in sorted(chosen)]   # a short array can make [0, last] name one element twice


def scalar_text(value: Any) -> str:
    """A JSON scalar as JSON_VALUE returns it and ``string()`` writes it: ``true`` / ``false``, a whole number
    without ``.0``, text as it is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES = ((type(None), "null"), (bool, "boolean"), (str, "string"), (list, "array"), (dict, "object"))


def _type_name(value: Any) -> str:
    return next((name for kind, name in _TYPES if isinstance(value, kind)), "number")


def _number_from(value: Any) -> Any:
    if _is_number(value):
        return value
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        if math.isfinite(number):
            return int(number) if number.is_integer() and re.fullmatch(r"\s*-?\d+\s*", value) else number
    return None


def _method(name: str, found: list[Any]) -> list[Any]:
    if name == "size":
        return [len(v) if isinstance(v, list) else 1 for v in found]
    if name == "type":
        return [_type_name(v) for v in found]
    items = [item for v in found for item in (v if isinstance(v, list) else [v])]   # lax: arrays unwrapped
    if name in _AGGREGATES:
        return _aggregate(name, items)
    out = []
    for item in items:
        result = _scalar_method(name, item)
        if result is not _NO_MATCH:
            out.append(result)
    return out


_NO_MATCH = object()


def _scalar_method(name: str, item: Any) -> Any:
    if name == "length":
        return len(item) if isinstance(item, str) else _NO_MATCH
    if name in ("upper", "lower"):
        return getattr(item, name)() if isinstance(item, str) else _NO_MATCH
    if name in ("abs", "ceiling", "floor"):
        if not _is_number(item):
            return _NO_MATCH
        return abs(item) if name == "abs" else math.ceil(item) if name == "ceiling" else math.floor(item)
    if name == "numberonly":
        return item if _is_number(item) else _NO_MATCH
    if name in ("number", "double"):
        number = _number_from(item)
        if number is None:
            return _NO_MATCH
        return float(number) if name == "double" else number
    if name == "stringonly":
        return item if isinstance(item, str) else _NO_MATCH
    if name == "string":
        return scalar_text(item) if isinstance(item, (str, bool)) or _is_number(item) else _NO_MATCH
    if name == "booleanonly":
        return item if isinstance(item, bool) else _NO_MATCH
    # boolean()
    if isinstance(item, bool):
        return item
    if isinstance(item, str) and item.lower() in ("true", "false"):
        return item.lower() == "true"
    return _NO_MATCH


def _aggregate(name: str, items: list[Any]) -> list[Any]:
    if name == "count":
        return [len(items)]
    if name in ("minstring", "maxstring"):
        strings = [i for i in items if isinstance(i, str)]
        return [(min if name == "minstring" else max)(strings)] if strings else []
    numbers = [i for i in items if _is_number(i)]
    if not numbers:
        return []
    if name == "sum":
        return [sum(numbers)]
    if name == "avg":
        return [sum(numbers) / len(numbers)]
    return [(min if name == "minnumber" else max)(numbers)]


# ---- filter conditions (True, False or None for unknown) ----------------------------------------------------

def _truth(condition: tuple, item: Any, root: _Env) -> bool | None:
    kind = condition[0]
    if kind == "and":
        left, right = _truth(condition[1], item, root), _truth(condition[2], item, root)
        return False if False in (left, right) else None if None in (left, right) else True
    if kind == "or":
        left, right = _truth(condition[1], item, root), _truth(condition[2], item, root)
        return True if True in (left, right) else None if None in (left, right) else False
    if kind == "not":
        inner = _truth(condition[1], item, root)
        return None if inner is None else not inner
    if kind == "exists":
        return bool(_walk([item], condition[1], root))
    left = _operand(condition[2], item, root)
    right = _operand(condition[3], item, root)
    test = _compare if kind == "cmp" else _string_test
    unknown = False
    for a in left:
        for b in right:
            outcome = test(condition[1], a, b)
            if outcome is True:
                return True
            unknown = unknown or outcome is None
    return None if unknown else False


def _operand(operand: tuple, item: Any, root: _Env) -> list[Any]:
    if operand[0] == "value":
        return [operand[1]]
    if operand[0] == "var":
        return [root.variables[operand[1]]]
    start = item if operand[0] == "path" else root.root
    found = _walk([start], operand[1], root)
    return [x for v in found for x in (v if isinstance(v, list) else [v])]   # lax: arrays unwrapped


_ORDER = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _compare(op: str, a: Any, b: Any) -> bool | None:
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return None
    if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
        if op in ("==", "!="):
            same = type(a) is type(b) and a == b
            return same if op == "==" else not same
        return None
    if not ((_is_number(a) and _is_number(b)) or (isinstance(a, str) and isinstance(b, str))):
        return None
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    return _ORDER[op](a, b)


def _string_test(op: str, a: Any, b: Any) -> bool | None:
    if not (isinstance(a, str) and isinstance(b, str)):
        return None
    if op == "has":
        return b in a
    if op == "starts":
        return a.startswith(b)
    if op == "like":
        return _like(b).fullmatch(a) is not None
    try:
        pattern = _regex(b)
    except re.error:
        return None
    return (pattern.search(a) if op == "like_regex" else pattern.fullmatch(a)) is not None


@functools.lru_cache(maxsize=128)
def _like(pattern: str) -> re.Pattern:
    return re.compile("".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern), re.S)


@functools.lru_cache(maxsize=128)
def _regex(pattern: str) -> re.Pattern:
    return re.compile(pattern)
