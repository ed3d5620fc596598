"""Oracle Text's default lexer and stoplist, and a safe query builder: shared by both backends.

Oracle evaluates ``CONTAINS`` with its own ``BASIC_LEXER`` and
``CTXSYS.DEFAULT_STOPLIST``; the lite engine's Oracle Text index is handed the
same rules (:func:`tokenize`, :data:`STOPWORDS`) when the lite backend opens
a connection, and :func:`text_query` builds queries from them, so a query
built here means the same thing to both backends. Nothing here imports the
rest of the workshop.

* **Lexer.** Case-insensitive; a token is a maximal run of alphanumeric
  characters (letters of any script, digits); every other character separates
  tokens, so ``ORA-00904`` is ``ora`` + ``00904`` and ``AT&T`` is ``at`` +
  ``t``. Text is NFC-normalised first.
* **Stoplist.** :data:`STOPWORDS` is the English default stoplist of the
  current Oracle Text Reference ("Oracle Text Supplied Stoplists", 114 words
  since 11g).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["STOPWORDS", "MAX_QUERY_TOKEN_BYTES", "fold_case", "tokenize", "text_query", "MAX_TERMS", "MAX_QUERY_BYTES"]

# Oracle Text Reference, appendix "Oracle Text Supplied Stoplists", English
# default stoplist (11g and later; Mr/Mrs/Ms listed capitalised there).
STOPWORDS: frozenset[str] = frozenset("""
    a all almost also although an and any are as at
    be because been both but by
    can could
    d did do does
    either
    for from
    had has have having he her here hers him his how however
    i if in into is it its
    just
    ll
    me might mr mrs ms my
    no non nor not
    of on one only onto or our ours
    s shall she should since so some still such
    t than that the their them then there therefore these they this those
    though through thus to too
    until
    ve very
    was we were what when where whether which while who whose why will with
    would
    yet you your yours
""".split())

MAX_QUERY_TOKEN_BYTES = 64      # longer query tokens raise DRG-50943 in Oracle

_TOKEN_RE = re.compile(r"[^\W_]+")


def fold_case(token: str) -> str:
    """Lower-case one token as the index stores it.

    Python lower-cases the Turkish capital dotted I (``İ``) to ``i`` plus a
    combining dot, which would make ``İstanbul`` a different term from
    ``istanbul`` (and a lexer that treats the dot as a separator split it);
    the dot is dropped so both spellings are one term, in queries and rows alike.
    """
    lowered = token.lower()
    return lowered.replace("i\u0307", "i") if "\u0130" in token else lowered


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lower-cased tokens the way BASIC_LEXER does.

    A token is a maximal run of alphanumeric characters (letters of any
    script and digits, after NFC normalisation); everything else separates
    tokens. Stopwords are kept so that positions stay right; filter them with
    :data:`STOPWORDS` when you need only the indexed terms.
    """
    text = unicodedata.normalize("NFC", text)
    if text.isascii():                      # lower-casing first is safe (and faster) for ASCII
        return _TOKEN_RE.findall(text.lower())
    # elsewhere lower-case per token: 'İ'.lower() adds a combining mark that must not split a word
    return [fold_case(token) for token in _TOKEN_RE.findall(text)]


MAX_TERMS = 64            # more terms add little to ranking and only slow the query
MAX_QUERY_BYTES = 4000    # a CONTAINS query bound as VARCHAR2 must fit in 4000 bytes
_SEPARATOR = " ACCUM "


def text_query(user_text: str) -> str | None:
    """Turn free text into an Oracle Text query for ``CONTAINS(col, :kw, 1) > 0``.

    The text is split with the default lexer's rules (runs of letters and
    digits; everything else separates, so ``ORA-00904`` gives ``ora`` and
    ``00904``), lower-cased (Oracle Text is case-insensitive), stopwords of
    the default English stoplist and repeated terms are dropped (first
    occurrence kept), and every remaining term is brace-escaped and joined
    with ACCUM, so rows matching more terms score higher:
    ``text_query("TEU 20-foot equivalent")`` returns
    ``"{teu} ACCUM {20} ACCUM {foot} ACCUM {equivalent}"``. Quotes, braces,
    ``&``, ``-``, ``%``, ``;``, ``?`` and words such as NEAR, ABOUT or AND in
    the input can therefore never act as operators, and the result parses
    in Oracle and in lite. Limits: at most ``MAX_TERMS`` (64) terms, terms
    longer than 64 bytes (Oracle's query-token limit) are skipped, and the
    query stays within ``MAX_QUERY_BYTES`` (4000 bytes); later terms are
    dropped, so a 10 KB text gives a query over its first distinct terms.
    Returns ``None`` when nothing searchable remains (empty text, only
    stopwords or punctuation): callers should then skip the keyword search
    (return no keyword hits, or give every row the "not ranked" sentinel)
    instead of running CONTAINS, which would match nothing in Oracle and
    raise a syntax error for an empty query. Raises ``TypeError`` when
    ``user_text`` is not a ``str``.
    """
    if not isinstance(user_text, str):
        if user_text is None:
            raise TypeError("text_query() needs the search text as a str, got None; "
                            "pass the user's question, e.g. text_query('TEU capacity of vessels')")
        raise TypeError(f"text_query() needs the search text as a str, got "
                        f"{type(user_text).__name__}; convert it first, e.g. text_query(str(value))")
    terms: list[str] = []
    seen: set[str] = set()
    size = 0
    for token in tokenize(user_text):
        if token in STOPWORDS or token in seen:
            continue
        if len(token.encode("utf-8")) > MAX_QUERY_TOKEN_BYTES:
            continue
        piece = len(token.encode("utf-8")) + 2 + (len(_SEPARATOR) if terms else 0)
        if size + piece > MAX_QUERY_BYTES:
            break
        seen.add(token)
        terms.append("{" + token + "}")
        size += piece
        if len(terms) == MAX_TERMS:
            break
    return _SEPARATOR.join(terms) if terms else None
