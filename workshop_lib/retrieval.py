"""Retrieval helpers the notebooks give learners: text_query, keyword_search_memories, rerank.

``keyword_search_memories`` is the Oracle Text leg on its own (scoped, no
tool output); ``rerank`` reorders candidates with an in-database
cross-encoder when one is loaded and otherwise passes them through in their
incoming order — the call site is the same either way.
"""

from __future__ import annotations

from typing import Any

from .config import AGENT_ID, MEMORY_TABLE, RERANK_MODEL, USER_ID
from .dictionary import model_loaded
from .oracle_text import text_query
from .session import current

__all__ = ["text_query", "keyword_search_memories", "rerank", "reranker_available", "check_query", "check_k"]

KEYWORD_SQL = f"""SELECT m.record_id,
       JSON_VALUE(m.metadata, '$.kind') AS kind,
       JSON_VALUE(m.metadata, '$.subject') AS subject,
       DBMS_LOB.SUBSTR(m.content, 500, 1) AS content,
       SCORE(1) AS score_txt
FROM {MEMORY_TABLE} m
WHERE CONTAINS(m.content, :kw, 1) > 0
  AND m.user_id = :user_id
  AND m.agent_id = :agent_id
  AND m.status = 'valid'
  AND NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'
ORDER BY score_txt DESC, m.record_id
FETCH FIRST :k ROWS ONLY"""


MAX_K = 10_000   # more results than any search here can usefully return
# A VARCHAR2 bind in SQL holds 4000 bytes (MAX_STRING_SIZE = STANDARD); a longer string would be
# bound as a LONG, which PREDICTION's USING clause does not take. Cut by bytes, not characters:
# 4000 characters of multibyte text are up to 16000 bytes.
MAX_BIND_BYTES = 4000


def clip_utf8(text: str, limit: int = MAX_BIND_BYTES) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes, never inside a character."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore")


def check_query(query: Any, *, allow_blank: bool = False) -> str:
    """Validate a learner's query text: a non-empty string that is valid Unicode (clear errors otherwise).

    ``allow_blank`` lets a blank string through (for searches that document
    "nothing searchable gives []").
    """
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, got {type(query).__name__}")
    if not allow_blank and not query.strip():
        raise ValueError("query is empty: pass the question to search for, e.g. 'vessel capacity'")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"query has a character that is not valid text (position {exc.start}: "
                         f"{query[exc.start]!r}, a lone surrogate); remove it or decode the text properly") from None
    return query


def check_k(k: Any, name: str = "k") -> int:
    """Validate a result count: an int from 1 to MAX_K."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"{name} must be an int, got {type(k).__name__}")
    if k < 1:
        raise ValueError(f"{name} must be at least 1, got {k}")
    if k > MAX_K:
        raise ValueError(f"{name} must be at most {MAX_K:,}, got {k:,}")
    return k


def _default_conn(conn: Any) -> Any:
    if conn is not None:
        return conn
    return current().conn


def keyword_search_memories(query: str, k: int = 5, *, conn: Any = None, user_id: str = USER_ID,
                            agent_id: str = AGENT_ID) -> list[dict[str, Any]]:
    """Oracle Text search over the workshop's memories: dicts with record_id, kind, subject, content, score_txt.

    The query is made safe with :func:`text_query` (every term escaped, ACCUM
    between terms), so punctuation or reserved words in user text never cause
    an Oracle Text syntax error; a query with nothing searchable (blank,
    punctuation or stopwords only) returns [].
    """
    check_query(query, allow_blank=True)
    check_k(k)
    kw = text_query(query)
    if kw is None:
        return []
    with _default_conn(conn).cursor() as cur:
        cur.execute(KEYWORD_SQL, kw=kw, user_id=user_id, agent_id=agent_id, k=k)
        names = [d[0].lower() for d in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]


def reranker_available(conn: Any) -> bool:
    """True when an in-database cross-encoder (config.RERANK_MODEL) is loaded."""
    return model_loaded(conn, RERANK_MODEL)


def rerank(query: str, candidates: list[dict[str, Any]], top_k: int = 5, content_key: str = "content",
           *, conn: Any = None) -> list[dict[str, Any]]:
    """Reorder ``candidates`` by relevance to ``query`` and keep ``top_k``.

    With a cross-encoder loaded in the database (Oracle, model
    ``RERANK_MODEL``) each candidate gets ``rerank_score`` from
    ``PREDICTION(model USING :q AS query, :p AS passage)`` and the list is
    sorted by it; otherwise this is a pass-through that keeps the incoming
    order (already best-first) and slices to ``top_k``.
    """
    check_k(top_k, "top_k")
    if not isinstance(candidates, list):
        candidates = list(candidates)
    for item in candidates:
        if content_key not in item:
            raise KeyError(f"candidate has no {content_key!r} key (keys: {sorted(item)}); "
                           f"pass content_key= the key that holds the text")
    if not candidates:
        return []
    try:
        db = _default_conn(conn)
    except RuntimeError:
        db = None
    if db is None or not reranker_available(db):
        return [dict(c) for c in candidates[:top_k]]
    scored = []
    with db.cursor() as cur:
        for item in candidates:
            cur.execute(f"SELECT PREDICTION({RERANK_MODEL} USING :q AS query, :p AS passage) FROM dual",
                        q=clip_utf8(query), p=clip_utf8(str(item[content_key])))
            scored.append({**item, "rerank_score": float(cur.fetchone()[0])})
    scored.sort(key=lambda c: c["rerank_score"], reverse=True)
    return scored[:top_k]
