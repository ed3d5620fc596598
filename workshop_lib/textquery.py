"""Build safe Oracle Text queries from free text, for Oracle and the lite backend alike."""

from __future__ import annotations

from .lite.text import MAX_QUERY_TOKEN_BYTES, STOPWORDS, tokenize

__all__ = ["text_query", "MAX_TERMS", "MAX_QUERY_BYTES"]

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
