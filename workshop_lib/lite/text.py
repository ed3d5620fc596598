"""Oracle Text for the lite backend: lexer, query parser, inverted index and scoring.

The lite engine keeps one :class:`TextIndex` per ``CTXSYS.CONTEXT`` index and
evaluates ``CONTAINS(col, :q, label) > 0`` / ``SCORE(label)`` with
:meth:`TextIndex.search`. Everything here follows the Oracle Text Reference
(23ai/26ai) for the default ``BASIC_LEXER`` and ``CTXSYS.DEFAULT_STOPLIST``.
The lexer and stoplist themselves are passed in (:class:`Lexer`; the workshop
passes :mod:`workshop_lib.oracle_text`, which the Oracle path's query builder
uses too), so this module depends on nothing above the engine:

* **Lexer.** Case-insensitive; a token is a maximal run of alphanumeric
  characters (letters of any script, digits); every other character separates
  tokens, so ``ORA-00904`` is ``ora`` + ``00904`` and ``AT&T`` is ``at`` +
  ``t``. Text is NFC-normalised first. (Oracle's ``numjoin``/``numgroup``
  would keep ``3.5`` as one token; lite splits it into ``3`` and ``5``. A
  brace-escaped query matches either way.)
* **Stoplist.** The lexer's ``STOPWORDS`` is the English default stoplist of the
  current Oracle Text Reference ("Oracle Text Supplied Stoplists", 114 words
  since 11g; the shorter list of 8i-10g is not used). Stopwords are not
  indexed but keep their positions.
* **Stopwords in queries** follow the reference's "Stopword Transformations"
  appendix: a stopword (or stopword-only phrase) operand is removed —
  ``x AND stop`` → ``x``, ``stop NOT x`` → nothing, ``x MINUS stop`` → ``x``,
  and so on; a query that is left with nothing matches no rows (Oracle
  returns no hits, it does not raise). Inside a phrase each stopword is a
  placeholder that matches any one word ("hiking in California" matches
  "hiking to California"); this applies at the ends of a phrase too, so the
  placeholder needs a word at that position.
* **Operators** (Group 1 precedence, highest first, equal precedence left to
  right): MINUS ``-``, NOT ``~``, AND ``&``, OR ``|``, ACCUM ``,``. Words
  written next to each other form a phrase, which binds tighter than every
  operator. ``( )`` and ``[ ]`` group; ``{...}`` escapes everything inside
  (``}}`` is a literal ``}``), ``\\x`` escapes one character. ``%`` (any
  characters) and ``_`` (one character) are wildcards inside a term; an
  expansion beyond :data:`WILDCARD_MAXTERMS` raises DRG-51030 as Oracle does.
  Every other Oracle Text operator (NEAR ``;``, WITHIN, ABOUT, fuzzy ``?``,
  stem ``$``, soundex ``!``, threshold ``>``, weight ``*``, EQUIV ``=``, SQE,
  thesaurus operators, ...) raises :class:`TextQueryError` naming it.
* **Scores** are integers 1-100 ("The Oracle Text Scoring Algorithm"): a term
  scores ``3 * f * (1 + log10(N / n))`` truncated and capped at 100 (``f``
  occurrences in the document, ``N`` documents in the index, ``n`` documents
  containing the term) — this reproduces the reference's table of
  occurrences needed to reach 100. A phrase scores like a term whose occurrences are the
  phrase's occurrences; a wildcard scores like one term whose occurrences
  are those of all its expansions. AND takes the minimum, OR the maximum,
  NOT keeps the left score, MINUS subtracts the right score from the left
  (rows at 0 or below drop out). ACCUM over ``k`` operands puts a row that
  matches ``m`` of them in band ``m`` (``floor((m-1)*100/k)+1`` ..
  ``floor(m*100/k)``: 1-50/51-100 for two operands, 1-33/34-66/67-100 for
  three) and places it inside the band by the mean score of the operands it
  matched, so matching more operands always ranks higher.
"""

from __future__ import annotations

import math
import operator
import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Protocol, Union

import numpy as np

__all__ = [
    "Lexer",
    "WILDCARD_MAXTERMS",
    "TextQueryError",
    "ParsedQuery",
    "TextIndex",
    "parse_query",
    "term_score",
]

WILDCARD_MAXTERMS = 20000       # Oracle's default WILDCARD_MAXTERMS
_MAX_NESTING = 50               # keeps recursive descent far from Python's limit


class Lexer(Protocol):
    """What the engine needs from Oracle Text's BASIC_LEXER and stoplist.

    The engine does not define the lexer itself: the caller passes one in
    (the workshop passes :mod:`workshop_lib.oracle_text`, which the Oracle
    path shares), so lite and the query builder can never disagree on what
    a token is. A module with these three names satisfies the protocol.
    """

    STOPWORDS: frozenset[str]
    MAX_QUERY_TOKEN_BYTES: int

    def tokenize(self, text: str) -> list[str]: ...

    def fold_case(self, token: str) -> str: ...


class TextQueryError(ValueError):
    """An Oracle Text query the lite backend cannot run.

    ``code`` is the Oracle Text error it corresponds to (``DRG-50901`` syntax
    error, ``DRG-50943`` token too long, ``DRG-51030`` wildcard expansion too
    large) or ``None`` when Oracle would accept the query but lite does not
    support the operator (``operator`` then names it). ``column`` is the
    1-based position in the query text. The engine reports it as ORA-29902.
    """

    def __init__(self, message: str, *, code: str | None = None,
                 column: int | None = None, operator: str | None = None):
        super().__init__(message)
        self.code = code
        self.column = column
        self.operator = operator


def _syntax_error(column: int, detail: str) -> TextQueryError:
    # The engine adds the fix (escape with braces or text_query) when it wraps this as ORA-29902.
    return TextQueryError(
        f"DRG-50901: text query parser syntax error on line 1, column {column}: {detail}",
        code="DRG-50901", column=column)


def term_score(freq: int, n_docs: int, doc_freq: int) -> int:
    """Oracle Text's score of a term occurring ``freq`` times in one document.

    ``n_docs`` is the number of documents in the index, ``doc_freq`` the
    number that contain the term. Salton's inverse-frequency formula as the
    Oracle Text scoring appendix tabulates it: ``3 * f * (1 + log10(N / n))``
    truncated to an integer and capped at 100 (truncation, not rounding, is
    what reproduces the appendix's table); 0 when the term does not occur.
    """
    if freq <= 0 or doc_freq <= 0 or n_docs <= 0:
        return 0
    raw = 3.0 * freq * (1.0 + math.log10(n_docs / doc_freq))
    return min(100, int(raw))


# --- query syntax tree ----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _NoToken:
    """What a stopword-only or punctuation-only operand rewrites to: no hits."""


NO_TOKEN = _NoToken()


@dataclass(frozen=True, slots=True)
class _Term:
    token: str


@dataclass(frozen=True, slots=True)
class _Wildcard:
    pattern: str   # lower-cased, with % and _

    @property
    def prefix(self) -> str:
        return re.split(r"[%_]", self.pattern, maxsplit=1)[0]


@dataclass(frozen=True, slots=True)
class _Phrase:
    parts: tuple[Union[_Term, _Wildcard, None], ...]   # None: stopword placeholder


@dataclass(frozen=True, slots=True)
class _Nary:
    op: str                       # "AND" | "OR" | "ACCUM"
    children: tuple["_Node", ...]


@dataclass(frozen=True, slots=True)
class _Binary:
    op: str                       # "NOT" | "MINUS"
    left: "_Node"
    right: "_Node"


_Node = Union[_NoToken, _Term, _Wildcard, _Phrase, _Nary, _Binary]


@dataclass(frozen=True)
class ParsedQuery:
    """A parsed, stopword-transformed Oracle Text query, ready for :meth:`TextIndex.search`."""

    text: str
    root: _Node

    @property
    def matches_nothing(self) -> bool:
        """True when only stopwords or punctuation remained (Oracle returns no rows)."""
        return self.root is NO_TOKEN

    def __str__(self) -> str:
        return _render(self.root)


def _render(node: _Node) -> str:
    if node is NO_TOKEN:
        return "<no_token>"
    if isinstance(node, _Term):
        return "{" + node.token + "}"
    if isinstance(node, _Wildcard):
        return node.pattern
    if isinstance(node, _Phrase):
        return "(" + " ".join("<any>" if p is None else _render(p) for p in node.parts) + ")"
    if isinstance(node, _Nary):
        return "(" + f" {node.op} ".join(_render(c) for c in node.children) + ")"
    return f"({_render(node.left)} {node.op} {_render(node.right)})"


def _nary(op: str, children: list[_Node]) -> _Node:
    # Stopword transformations: stopword operands of AND/OR/ACCUM are dropped.
    kept = tuple(c for c in children if c is not NO_TOKEN)
    if not kept:
        return NO_TOKEN
    if len(kept) == 1:
        return kept[0]
    return _Nary(op, kept)


def _binary(op: str, left: _Node, right: _Node) -> _Node:
    # Stopword transformations: "stop NOT x" -> no_token, "x NOT stop" -> x (same for MINUS).
    if left is NO_TOKEN:
        return NO_TOKEN
    if right is NO_TOKEN:
        return left
    return _Binary(op, left, right)


# --- query scanner ----------------------------------------------------------------

_OPERATOR_CHARS = {"&": "AND", "|": "OR", ",": "ACCUM", "~": "NOT", "-": "MINUS"}
_OPERATOR_WORDS = {"AND", "OR", "ACCUM", "NOT", "MINUS"}

_THESAURUS_HINT = "lite has no thesaurus; list the alternatives with OR"
_UNSUPPORTED_CHARS = {
    ";": ("NEAR (;)", "use AND or ACCUM"),
    "=": ("EQUIV (=)", "use OR"),
    "?": ("fuzzy (?)", "use a % wildcard, or escape the text with braces {...}"),
    "$": ("stem ($)", "use a % wildcard (e.g. vessel%)"),
    "!": ("soundex (!)", "spell the term, or use a % wildcard"),
    ">": ("threshold (>)", "filter on SCORE(label) in SQL instead"),
    "*": ("weight (*)", "repeat the term or drop the weight"),
}
_UNSUPPORTED_WORDS = {
    "NEAR": ("NEAR (;)", "use AND or ACCUM"),
    "WITHIN": ("WITHIN", "lite indexes have no sections; search the whole column"),
    "ABOUT": ("ABOUT", "theme queries need Oracle's knowledge base; use ACCUM of keywords"),
    "EQUIV": ("EQUIV (=)", "use OR"),
    "FUZZY": ("FUZZY (?)", "use a % wildcard"),
    "SQE": ("SQE", "write the stored query expression out in full"),
    "SYN": ("SYN", _THESAURUS_HINT),
    "BT": ("BT", _THESAURUS_HINT), "BTG": ("BTG", _THESAURUS_HINT),
    "BTI": ("BTI", _THESAURUS_HINT), "BTP": ("BTP", _THESAURUS_HINT),
    "NT": ("NT", _THESAURUS_HINT), "NTG": ("NTG", _THESAURUS_HINT),
    "NTI": ("NTI", _THESAURUS_HINT), "NTP": ("NTP", _THESAURUS_HINT),
    "PT": ("PT", _THESAURUS_HINT), "RT": ("RT", _THESAURUS_HINT),
    "TT": ("TT", _THESAURUS_HINT), "TR": ("TR", _THESAURUS_HINT),
    "TRSYN": ("TRSYN", _THESAURUS_HINT),
    "HASPATH": ("HASPATH", "lite indexes have no XML sections"),
    "INPATH": ("INPATH", "lite indexes have no XML sections"),
    "MDATA": ("MDATA", "lite indexes have no MDATA sections"),
    "SDATA": ("SDATA", "lite indexes have no SDATA sections"),
    "NDATA": ("NDATA", "lite indexes have no NDATA sections"),
    "PATTERN": ("PATTERN", "use a % or _ wildcard"),
    "MNOT": ("MNOT", "use NOT"),
}
_RESERVED_CHARS = frozenset("&|,~-;=?$!>*()[]{}\\")


def _unsupported(label: str, hint: str, column: int) -> TextQueryError:
    return TextQueryError(
        f"Oracle Text operator {label} is not supported by the lite backend; {hint} "
        f"(found at column {column})",
        column=column, operator=label.split(" ")[0])


# Scanned items: ("op", NAME, col) ("open", ch, col) ("close", ch, col)
# ("word", ((char, is_literal), ...), col)
_Item = tuple


def _scan(text: str) -> list[_Item]:
    items: list[_Item] = []
    word: list[tuple[str, bool]] = []
    word_col = 0

    def flush() -> None:
        nonlocal word
        if not word:
            return
        if not any(lit for _, lit in word):
            upper = "".join(ch for ch, _ in word).upper()
            if upper in _OPERATOR_WORDS:
                items.append(("op", upper, word_col))
                word = []
                return
            if upper in _UNSUPPORTED_WORDS:
                label, hint = _UNSUPPORTED_WORDS[upper]
                raise _unsupported(label, hint, word_col)
        items.append(("word", tuple(word), word_col))
        word = []

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        col = i + 1
        if ch == "{":
            if not word:
                word_col = col
            j = i + 1
            while True:
                if j >= n:
                    raise _syntax_error(col, "'{' starts escaped text that is never closed with '}'")
                c = text[j]
                if c == "}":
                    if j + 1 < n and text[j + 1] == "}":   # '}}' is a literal '}'
                        word.append(("}", True))
                        j += 2
                        continue
                    break
                word.append((c, True))
                j += 1
            i = j + 1
            continue
        if ch == "\\":
            if i + 1 >= n:
                raise _syntax_error(col, "'\\' at the end of the query escapes nothing")
            if not word:
                word_col = col
            word.append((text[i + 1], True))
            i += 2
            continue
        if ch.isspace():
            flush()
            i += 1
            continue
        if ch in _RESERVED_CHARS:
            flush()
            if ch == "}":
                raise _syntax_error(col, "'}' has no matching '{'")
            if ch in "([":
                items.append(("open", ch, col))
            elif ch in ")]":
                items.append(("close", ch, col))
            elif ch in _OPERATOR_CHARS:
                items.append(("op", _OPERATOR_CHARS[ch], col))
            else:
                label, hint = _UNSUPPORTED_CHARS[ch]
                raise _unsupported(label, hint, col)
            i += 1
            continue
        if not word:
            word_col = col
        word.append((ch, False))
        i += 1
    flush()
    return items


def _lex_word(chars: tuple[tuple[str, bool], ...], column: int, lexer: Lexer) -> list[_Node | None]:
    """Lex one scanned word into phrase parts: terms, wildcards, stopword placeholders."""
    parts: list[_Node | None] = []
    buf: list[str] = []
    wild = False

    def flush() -> None:
        nonlocal wild
        if not buf:
            return
        token = lexer.fold_case("".join(buf))
        buf.clear()
        if len(token.encode("utf-8")) > lexer.MAX_QUERY_TOKEN_BYTES:
            raise TextQueryError(
                f"DRG-50943: query token too long on line 1 on column {column}: "
                f"{token[:20]}... has more than {lexer.MAX_QUERY_TOKEN_BYTES} bytes; shorten it "
                f"or use a % wildcard",
                code="DRG-50943", column=column)
        if wild:
            parts.append(_Wildcard(token))
        elif token in lexer.STOPWORDS:
            parts.append(None)
        else:
            parts.append(_Term(token))
        wild = False

    for ch, literal in chars:
        if ch.isalnum():
            buf.append(ch)
        elif not literal and ch in "%_":
            buf.append(ch)
            wild = True
        else:
            flush()
    flush()
    return parts


def _phrase(words: list[tuple[tuple[tuple[str, bool], ...], int]], lexer: Lexer) -> _Node:
    parts: list[_Node | None] = []
    for chars, column in words:
        parts.extend(_lex_word(chars, column, lexer))
    if all(p is None for p in parts):          # stopwords / punctuation only (or nothing)
        return NO_TOKEN
    if len(parts) == 1:
        return parts[0]  # type: ignore[return-value]
    return _Phrase(tuple(parts))  # type: ignore[arg-type]


_LEVELS = ("ACCUM", "OR", "AND", "NOT", "MINUS")   # lowest to highest precedence
_CLOSERS = {"(": ")", "[": "]"}


class _Parser:
    def __init__(self, text: str, items: list[_Item], lexer: Lexer):
        self.text = text
        self.items = items
        self.lexer = lexer
        self.pos = 0
        self.depth = 0

    def _peek(self) -> _Item | None:
        return self.items[self.pos] if self.pos < len(self.items) else None

    def parse(self) -> _Node:
        if not self.items:
            raise _syntax_error(1, "the query is empty (only blanks)")
        node = self._expr(0)
        item = self._peek()
        if item is not None:
            if item[0] == "close":
                raise _syntax_error(item[2], f"'{item[1]}' has no matching opening bracket")
            raise _syntax_error(item[2], "an operator (AND, OR, ACCUM, NOT, MINUS) is missing here")
        return node

    def _expr(self, level: int) -> _Node:
        if level == len(_LEVELS):
            return self._primary()
        op = _LEVELS[level]
        left = self._expr(level + 1)
        if op in ("ACCUM", "OR", "AND"):
            operands = [left]
            while self._at(op):
                self.pos += 1
                operands.append(self._expr(level + 1))
            return left if len(operands) == 1 else _nary(op, operands)
        while self._at(op):
            self.pos += 1
            left = _binary(op, left, self._expr(level + 1))
        return left

    def _at(self, op: str) -> bool:
        item = self._peek()
        return item is not None and item[0] == "op" and item[1] == op

    def _primary(self) -> _Node:
        item = self._peek()
        if item is None:
            previous = self.items[self.pos - 1] if self.pos else None
            after = f" after {previous[1]}" if previous and previous[0] == "op" else ""
            raise _syntax_error(len(self.text) + 1, f"the query ends{after} where a search term was expected")
        kind, value, column = item
        if kind == "open":
            self.depth += 1
            if self.depth > _MAX_NESTING:
                raise _syntax_error(column, f"brackets are nested more than {_MAX_NESTING} deep")
            self.pos += 1
            if self._peek() is not None and self._peek()[0] == "close":
                raise _syntax_error(self._peek()[2], f"empty brackets '{value}{self._peek()[1]}'")
            node = self._expr(0)
            closing = self._peek()
            if closing is None:
                raise _syntax_error(column, f"'{value}' is never closed")
            if closing[0] != "close":
                raise _syntax_error(closing[2], "an operator (AND, OR, ACCUM, NOT, MINUS) is missing here")
            if closing[1] != _CLOSERS[value]:
                raise _syntax_error(closing[2], f"'{closing[1]}' does not match '{value}' at column {column}")
            self.pos += 1
            self.depth -= 1
            return node
        if kind == "word":
            words = []
            while self._peek() is not None and self._peek()[0] == "word":
                words.append((self._peek()[1], self._peek()[2]))
                self.pos += 1
            return _phrase(words, self.lexer)
        if kind == "op":
            raise _syntax_error(column, f"operator {value} has no search term before it")
        raise _syntax_error(column, f"'{value}' has no matching opening bracket")


@lru_cache(maxsize=1024)
def parse_query(text: str, lexer: Lexer) -> ParsedQuery:
    """Parse an Oracle Text query (the supported subset) into a :class:`ParsedQuery`.

    ``lexer`` decides tokens and stopwords (see :class:`Lexer`).
    Raises :class:`TextQueryError` for syntax errors (DRG-50901 style, with
    the column), for over-long tokens (DRG-50943) and for Oracle Text
    operators lite does not implement (the message names the operator).
    Results are cached, so repeated statements parse once.
    """
    if not isinstance(text, str):
        raise TypeError(f"an Oracle Text query must be a str, got {type(text).__name__}; "
                        "bind the query text, e.g. CONTAINS(content, :kw, 1) > 0 with kw='...'")
    normalised = unicodedata.normalize("NFC", text)
    return ParsedQuery(text, _Parser(normalised, _scan(normalised), lexer).parse())


@lru_cache(maxsize=256)
def _wildcard_regex(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern),
                      re.DOTALL)


# --- the index ----------------------------------------------------------------------

_POSITION = np.dtype(np.int32)   # a token's position in its row, as the postings store it
_ONE_POSITION = [np.asarray([p], dtype=_POSITION).tobytes() for p in range(256)]   # shared, not one per posting


def _packed(positions: list[int]) -> bytes:
    """A row's positions of one token as the postings keep them: bytes, which the garbage collector never
    scans. As lists, the postings of 10^5 rows were a million objects that every full collection walked:
    pausing the collector during a build only moved 2.4 s of collections to the first query after it.
    """
    if len(positions) == 1 and positions[0] < 256:
        return _ONE_POSITION[positions[0]]
    return np.asarray(positions, dtype=_POSITION).tobytes()


def _unpacked(packed: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """``(counts, positions)`` as int64 arrays: how many positions each entry of ``packed`` holds, and all of
    them in order."""
    counts = np.fromiter(map(len, packed), dtype=np.int64, count=len(packed)) // _POSITION.itemsize
    return counts, np.frombuffer(b"".join(packed), dtype=_POSITION).astype(np.int64)


class TextIndex:
    """An inverted index over one column, answering Oracle Text queries with scores.

    Keeps ``token -> {doc: positions}`` for non-stopword tokens (positions
    count stopwords too, so phrases work) and each row's token count. Rows
    get dense internal document numbers; query evaluation runs on numpy
    arrays built lazily per token, so a query over 10,000 rows costs a few
    milliseconds. ``None`` or empty text is not indexed (Oracle treats '' as
    NULL). ``lexer`` tokenizes rows and queries (see :class:`Lexer`). Not
    thread-safe; the engine serialises access per connection.
    """

    def __init__(self, lexer: Lexer) -> None:
        self._lexer = lexer
        self._reset()

    def _reset(self) -> None:
        self._postings: dict[str, dict[int, list[int]]] = {}
        self._doc_of: dict[int, int] = {}          # rowid -> internal doc number
        self._rowids: list[int] = []               # doc number -> rowid
        self._lengths: list[int] = []              # doc number -> token count (stopwords included)
        self._doc_tokens: dict[int, tuple[str, ...]] = {}
        self._vocabulary: list[str] | None = []
        self._arrays: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._tails: dict[str, list[int]] = {}     # token -> docs added since its arrays were built
        self._gone: dict[str, list[int]] = {}      # token -> docs of its arrays removed since they were built
        self._rowid_array: np.ndarray | None = None
        self._length_array: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self._doc_of)

    def __contains__(self, rowid: object) -> bool:
        return rowid in self._doc_of

    def add(self, rowid: int, text: str | None) -> None:
        """Index (or re-index) ``text`` for ``rowid``; ``None`` or '' just removes the row."""
        if text is not None and not isinstance(text, str):
            raise TypeError(f"a CONTEXT index can only index text; row {rowid} has a "
                            f"{type(text).__name__} value")
        rowid = operator.index(rowid)   # ints, numpy ints; anything else raises TypeError
        self.remove(rowid)
        if not text:
            return
        tokens = self._lexer.tokenize(text)
        stopwords = self._lexer.STOPWORDS
        positions: dict[str, list[int]] = {}
        for pos, token in enumerate(tokens):
            if token not in stopwords:
                positions.setdefault(token, []).append(pos)
        if len(self._rowids) > 1000 and len(self._rowids) > 2 * len(self._doc_of):
            self._compact()
        doc = len(self._rowids)
        self._rowids.append(rowid)
        self._lengths.append(len(tokens))
        self._doc_of[rowid] = doc
        # The new document has the highest number, so arrays built for searches stay valid for the documents
        # before it and are extended when next used (_token_arrays, _prefix_array), not dropped: after a write
        # the next search does not rebuild them from the postings (O(hits) per query token), and many writes
        # before a search extend each array once, not once per write.
        postings, arrays, tails = self._postings, self._arrays, self._tails
        for token, where in positions.items():
            bucket = postings.get(token)
            if bucket is None:
                postings[token] = bucket = {}
                self._vocabulary = None
            bucket[doc] = _packed(where)
            if token in arrays:
                tails.setdefault(token, []).append(doc)
        self._doc_tokens[doc] = tuple(positions)

    def _compact(self) -> None:
        """Renumber live documents densely (re-indexed rows leave gaps behind)."""
        live = sorted(self._doc_of.values())
        renumber = {old: new for new, old in enumerate(live)}
        self._rowids = [self._rowids[old] for old in live]
        self._lengths = [self._lengths[old] for old in live]
        self._doc_of = {rowid: renumber[doc] for rowid, doc in self._doc_of.items()}
        self._doc_tokens = {renumber[doc]: tokens for doc, tokens in self._doc_tokens.items()}
        # old numbers are ascending within each bucket, so the new ones are too
        self._postings = {token: {renumber[doc]: where for doc, where in bucket.items()}
                          for token, bucket in self._postings.items()}
        self._arrays = {}
        self._tails = {}
        self._gone = {}
        self._rowid_array = self._length_array = None

    def remove(self, rowid: int) -> None:
        """Drop ``rowid`` from the index (no-op when it is not indexed)."""
        doc = self._doc_of.pop(rowid, None)
        if doc is None:
            return
        # A token's arrays are not dropped but filtered when next used (_token_arrays): rebuilding them from the
        # postings is O(hits) in Python, 10 ms for a token in 10^4 rows, and a rewritten memory removes its row.
        for token in self._doc_tokens.pop(doc):
            bucket = self._postings[token]
            del bucket[doc]
            if not bucket:
                del self._postings[token]
                self._arrays.pop(token, None)
                self._tails.pop(token, None)
                self._gone.pop(token, None)
                self._vocabulary = None
            elif token in self._arrays:
                built = self._arrays[token][0]
                if len(built) and doc <= built[-1]:
                    self._gone.setdefault(token, []).append(doc)
                else:   # added since the arrays were built: only in the tail
                    self._tails[token].remove(doc)

    def rebuild(self, rows: Iterable[tuple[int, str | None]]) -> None:
        """Replace the whole index with ``rows`` of ``(rowid, text)``.

        Linear in the rows with the garbage collector running: the postings
        hold bytes (:func:`_packed`), which it never scans.
        """
        self._reset()
        for rowid, text in rows:
            self.add(rowid, text)

    def search(self, query: str | ParsedQuery) -> dict[int, int]:
        """Evaluate an Oracle Text query: ``{rowid: score}`` for matching rows (scores 1..100)."""
        rowids, scores = self.search_arrays(query)
        return dict(zip(rowids.tolist(), scores.tolist()))

    def search_arrays(self, query: str | ParsedQuery) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`search` as two int64 arrays ``(rowids, scores)``, in the same order as the dict's keys.

        The keyword leg's top-k works on these directly: at 10^5 rows a query
        can match tens of thousands, and a dict of them costs more than the search.
        """
        parsed = query if isinstance(query, ParsedQuery) else parse_query(query, self._lexer)
        if parsed.root is NO_TOKEN or not self._doc_of:
            return _EMPTY, _EMPTY
        docs, scores = self._eval(parsed.root)
        self._rowid_array = _prefix_array(self._rowid_array, self._rowids)
        return self._rowid_array[docs], scores

    # -- per-token arrays --

    def _token_arrays(self, token: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(docs, freqs, keys)`` for a token; keys are ``doc << 32 | position``, sorted."""
        cached = self._arrays.get(token)
        gone = self._gone.pop(token, None) if cached is not None else None
        if gone:   # documents removed since: dropped from the arrays, which stay sorted
            docs, freqs, keys = cached
            kept, kept_keys = ~np.isin(docs, gone), ~np.isin(keys >> 32, gone)
            cached = self._arrays[token] = (docs[kept], freqs[kept], keys[kept_keys])
        tail = self._tails.pop(token, None) if cached is not None else None
        if tail:   # documents added since: above every number in the arrays, so docs and keys stay sorted
            bucket = self._postings[token]
            new_docs = np.asarray(tail, dtype=np.int64)
            new_freqs, positions = _unpacked([bucket[doc] for doc in tail])
            docs, freqs, keys = cached
            cached = self._arrays[token] = (np.concatenate([docs, new_docs]), np.concatenate([freqs, new_freqs]),
                                            np.concatenate([keys, (np.repeat(new_docs, new_freqs) << 32) | positions]))
        if cached is None:
            bucket = self._postings.get(token)
            if not bucket:
                return _EMPTY, _EMPTY, _EMPTY
            docs = np.fromiter(bucket.keys(), dtype=np.int64, count=len(bucket))
            freqs, positions = _unpacked(list(bucket.values()))
            keys = (np.repeat(docs, freqs) << 32) | positions
            if len(docs) > 1 and not bool(np.all(docs[1:] > docs[:-1])):
                order = np.argsort(docs, kind="stable")
                docs, freqs = docs[order], freqs[order]
                keys = np.sort(keys)
            cached = self._arrays[token] = (docs, freqs, keys)
        return cached

    def _part_arrays(self, part: _Term | _Wildcard) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if isinstance(part, _Term):
            return self._token_arrays(part.token)
        expansions = [self._token_arrays(token) for token in self._expand(part)]
        if not expansions:
            return _EMPTY, _EMPTY, _EMPTY
        if len(expansions) == 1:
            return expansions[0]
        docs, inverse = np.unique(np.concatenate([e[0] for e in expansions]), return_inverse=True)
        freqs = np.bincount(inverse, weights=np.concatenate([e[1] for e in expansions]),
                            minlength=len(docs)).astype(np.int64)
        return docs, freqs, np.sort(np.concatenate([e[2] for e in expansions]))

    def _expand(self, wildcard: _Wildcard) -> list[str]:
        if self._vocabulary is None:
            self._vocabulary = sorted(self._postings)
        vocabulary = self._vocabulary
        regex = _wildcard_regex(wildcard.pattern)
        prefix = wildcard.prefix
        start = bisect_left(vocabulary, prefix) if prefix else 0
        found = []
        for i in range(start, len(vocabulary)):
            token = vocabulary[i]
            if prefix and not token.startswith(prefix):
                break
            if regex.fullmatch(token):
                found.append(token)
                if len(found) > WILDCARD_MAXTERMS:
                    raise TextQueryError(
                        f"DRG-51030: wildcard query expansion resulted in too many terms: "
                        f"'{wildcard.pattern}' matches more than {WILDCARD_MAXTERMS} tokens; "
                        f"make the pattern more specific",
                        code="DRG-51030")
        return found

    # -- evaluation: every result is (docs sorted ascending, int64 scores) --

    def _scores(self, docs: np.ndarray, freqs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if not len(docs):
            return _EMPTY, _EMPTY
        idf = 1.0 + math.log10(len(self._doc_of) / len(docs))
        # same evaluation order as term_score(), so both give identical integers
        return docs, np.minimum(100, (3.0 * freqs * idf).astype(np.int64))

    def _eval(self, node: _Node) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(node, (_Term, _Wildcard)):
            docs, freqs, _ = self._part_arrays(node)
            return self._scores(docs, freqs)
        if isinstance(node, _Phrase):
            return self._scores(*self._phrase_counts(node))
        if isinstance(node, _Nary):
            results = [self._eval(child) for child in node.children]
            if node.op == "AND":
                return _and(results)
            if node.op == "OR":
                return _or(results)
            return _accum(results)
        if isinstance(node, _Binary):
            left_docs, left_scores = self._eval(node.left)
            if not len(left_docs):
                return _EMPTY, _EMPTY
            right_docs, right_scores = self._eval(node.right)
            if node.op == "NOT":
                keep = ~np.isin(left_docs, right_docs, assume_unique=True)
                return left_docs[keep], left_scores[keep]
            scores = left_scores - _lookup(right_docs, right_scores, left_docs)
            keep = scores > 0
            return left_docs[keep], scores[keep]
        return _EMPTY, _EMPTY

    def _phrase_counts(self, phrase: _Phrase) -> tuple[np.ndarray, np.ndarray]:
        """Docs containing the phrase and how often: keys shifted to the phrase start, intersected."""
        span = len(phrase.parts)
        words = [(offset, self._part_arrays(part)[2])
                 for offset, part in enumerate(phrase.parts) if part is not None]
        starts: np.ndarray | None = None
        for offset, keys in sorted(words, key=lambda item: len(item[1])):   # rarest first
            if offset:
                keys = keys[(keys & _POSITION_MASK) >= offset] - offset
            starts = keys if starts is None else np.intersect1d(starts, keys, assume_unique=True)
            if not len(starts):
                return _EMPTY, _EMPTY
        assert starts is not None
        docs = starts >> 32
        if any(part is None for part in phrase.parts):
            # stopword placeholders at either end still need a word at that position
            self._length_array = _prefix_array(self._length_array, self._lengths)
            docs = docs[(starts & _POSITION_MASK) + span <= self._length_array[docs]]
        if not len(docs):
            return _EMPTY, _EMPTY
        return np.unique(docs, return_counts=True)


def _prefix_array(array: np.ndarray | None, values: list[int]) -> np.ndarray:
    """``values`` as an int64 array, extending ``array`` (built from a prefix of them) rather than rebuilding."""
    if array is None:
        return np.asarray(values, dtype=np.int64)
    if len(array) < len(values):
        return np.concatenate([array, np.asarray(values[len(array):], dtype=np.int64)])
    return array


_EMPTY = np.zeros(0, dtype=np.int64)
_POSITION_MASK = (1 << 32) - 1


def _lookup(docs: np.ndarray, scores: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Scores of ``wanted`` docs in a sorted result, 0 where absent."""
    if not len(docs):
        return np.zeros(len(wanted), dtype=np.int64)
    at = np.minimum(np.searchsorted(docs, wanted), len(docs) - 1)
    return np.where(docs[at] == wanted, scores[at], 0)


def _and(results: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    results = sorted(results, key=lambda r: len(r[0]))
    docs, scores = results[0]
    for other_docs, other_scores in results[1:]:
        docs, mine, theirs = np.intersect1d(docs, other_docs, assume_unique=True, return_indices=True)
        scores = np.minimum(scores[mine], other_scores[theirs])
        if not len(docs):
            break
    return docs, scores


def _or(results: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    docs = np.concatenate([r[0] for r in results])
    scores = np.concatenate([r[1] for r in results])
    order = np.lexsort((scores, docs))            # by doc, then score: keep each doc's last
    docs, scores = docs[order], scores[order]
    last = np.ones(len(docs), dtype=bool)
    last[:-1] = docs[1:] != docs[:-1]
    return docs[last], scores[last]


def _accum(results: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    k = len(results)
    every = np.concatenate([r[0] for r in results])
    weights = np.concatenate([r[1] for r in results])
    span = int(every.max()) + 1 if len(every) else 0
    if span <= 4 * len(every) + 1024:
        # doc numbers are dense (0..N-1): counting into an array of N beats sorting the operands' docs
        matched_all = np.bincount(every, minlength=span)
        docs = np.flatnonzero(matched_all)
        matched = matched_all[docs]
        totals = np.bincount(every, weights=weights, minlength=span)[docs]
    else:   # a few hits among many documents: sort them instead
        docs, inverse, matched = np.unique(every, return_inverse=True, return_counts=True)
        totals = np.bincount(inverse, weights=weights, minlength=len(docs))
    low = (matched - 1) * 100 // k + 1
    high = matched * 100 // k
    within = ((high - low) * (totals / matched) / 100).astype(np.int64)
    # more than 100 operands make bands narrower than one point: clamp to the band start
    scores = np.where(high > low, low + within, np.minimum(100, low))
    return docs, scores.astype(np.int64)
