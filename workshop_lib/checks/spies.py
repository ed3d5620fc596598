"""Recording proxies lent to the learner's function in place of its notebook globals.

``agent_conn`` (every ``cursor.execute`` with its SQL and binds; ``close()``
is refused and recorded), ``memory_client`` (every ``search`` with its
arguments; writes are refused), ``rerank`` and ``keyword_search_memories``.
What they observe goes into a :class:`_Log`; once the check is over the
proxies stop working.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Log:
    """What the learner's function did to the objects lent to it during one call."""

    statements: list[tuple[str, Any, dict[str, Any]]] = field(default_factory=list)
    searches: list[dict[str, Any]] = field(default_factory=list)
    reranks: list[dict[str, Any]] = field(default_factory=list)
    keyword_searches: int = 0
    commits: int = 0
    closed: bool = False
    refused: list[str] = field(default_factory=list)
    live: bool = True

    def require_live(self) -> None:
        if not self.live:
            raise RuntimeError("This object was lent to a workshop check that has finished; "
                               "use the notebook's own agent_conn / memory_client.")


class _CursorSpy:
    """A cursor that records every statement (and its binds) before running it."""

    def __init__(self, cursor: Any, log: _Log) -> None:
        object.__setattr__(self, "_cursor", cursor)
        object.__setattr__(self, "_log", log)

    def execute(self, statement: Any, parameters: Any = None, **kwargs: Any) -> Any:
        self._log.require_live()
        self._log.statements.append((str(statement), parameters, dict(kwargs)))
        result = self._cursor.execute(statement, parameters, **kwargs)
        return self if result is self._cursor else result

    def executemany(self, statement: Any, parameters: Any, **kwargs: Any) -> Any:
        self._log.require_live()
        self._log.statements.append((str(statement), parameters, dict(kwargs)))
        result = self._cursor.executemany(statement, parameters, **kwargs)
        return self if result is self._cursor else result

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor)

    def __enter__(self) -> _CursorSpy:
        return self

    def __exit__(self, *exc: object) -> None:
        self._cursor.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._cursor, name, value)  # e.g. cursor.rowfactory / arraysize must reach the real cursor


class _ConnectionSpy:
    """The shared connection as lent to a learner: cursors are recorded, close() is refused."""

    def __init__(self, conn: Any, log: _Log) -> None:
        object.__setattr__(self, "_conn", conn)
        object.__setattr__(self, "_log", log)
        object.__setattr__(self, "_changed", {})

    def cursor(self, *args: Any, **kwargs: Any) -> _CursorSpy:
        self._log.require_live()
        return _CursorSpy(self._conn.cursor(*args, **kwargs), self._log)

    def close(self) -> None:
        self._log.closed = True  # refused: the notebook and the next checks need this connection

    def commit(self) -> None:
        self._log.require_live()
        self._log.commits += 1   # recorded: a committed change cannot be rolled back by the check
        self._conn.commit()

    def __enter__(self) -> _ConnectionSpy:
        return self

    def __exit__(self, *exc: object) -> None:
        self._log.closed = True  # python-oracledb closes a connection at the end of `with conn:`

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def __setattr__(self, name: str, value: Any) -> None:
        # Settings such as outputtypehandler reach the real connection for the
        # call and are put back afterwards (restore()).
        self._changed.setdefault(name, getattr(self._conn, name, None))
        setattr(self._conn, name, value)

    def restore(self) -> None:
        for name, value in self._changed.items():
            with contextlib.suppress(Exception):
                setattr(self._conn, name, value)


class _ClientSpy:
    """The OAMP client as lent to a learner: search() is recorded, writes are refused."""

    def __init__(self, client: Any, log: _Log) -> None:
        self._client = client
        self._log = log
        try:
            self._signature: inspect.Signature | None = inspect.signature(client.search)
        except (TypeError, ValueError):
            self._signature = None

    def search(self, *args: Any, **kwargs: Any) -> Any:
        self._log.require_live()
        arguments: dict[str, Any] = dict(kwargs)
        if self._signature is not None:
            with contextlib.suppress(TypeError):
                arguments = dict(self._signature.bind_partial(*args, **kwargs).arguments)
        elif args:
            arguments["query"] = args[0]
        self._log.searches.append(arguments)
        return self._client.search(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("add", "delete", "update", "create", "register")):
            def refused(*args: Any, **kwargs: Any) -> Any:
                self._log.refused.append(name)
                raise RuntimeError(f"memory_client.{name}() is not allowed here: this function must only "
                                   "search the memories, not change them.")
            return refused
        return getattr(self._client, name)


def _signature_of(fn: Any) -> inspect.Signature | None:
    """``fn``'s signature, or None for a callable that has none to read."""
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _bound_arguments(signature: inspect.Signature | None, args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments by parameter name, defaults filled in (the keywords alone without a signature).

    Raises TypeError, as the call itself would, when they do not fit the signature.
    """
    if signature is None:
        return dict(kwargs)
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _cross_encoder_order(items: Any) -> list[dict[str, Any]]:
    """``items`` as a cross-encoder that disagrees with the distances may return them: farthest first, each a new
    dict with a descending ``rerank_score``. Lite has no in-database cross-encoder (its rerank keeps the search
    order, which would hide code that ignores rerank's order or re-sorts by distance), so the checks of TODO 2 and
    TODO 5 use this stand-in on one call each."""
    ranked = list(reversed(list(items)))
    return [{**item, "rerank_score": float(len(ranked) - position)} for position, item in enumerate(ranked)]


def _rerank_spy(real: Callable[..., Any], log: _Log, *, reorder: bool = False) -> Callable[..., Any]:
    """``rerank`` that records its calls. With ``reorder`` it answers as :func:`_cross_encoder_order` does for the
    candidates the real rerank is given, cut to ``top_k``; the real rerank still runs, for its argument errors."""
    signature = _signature_of(real)

    def reordered(arguments: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        real(*args, **kwargs)   # its argument checks and errors, as for any call
        return _cross_encoder_order(arguments.get("candidates"))[:arguments.get("top_k")]

    def rerank(*args: Any, **kwargs: Any) -> Any:
        log.require_live()
        arguments: dict[str, Any] = dict(kwargs)
        with contextlib.suppress(TypeError):
            arguments = _bound_arguments(signature, args, kwargs)
        candidates = arguments.get("candidates")
        snapshot = [dict(c) if isinstance(c, Mapping) else c for c in candidates] \
            if isinstance(candidates, list) else candidates
        call = {**arguments, "candidates": snapshot}
        log.reranks.append(call)
        result = reordered(arguments, args, kwargs) if reorder else real(*args, **kwargs)
        call["result"] = result
        return result

    rerank.__doc__ = getattr(real, "__doc__", None)
    return rerank


def _keyword_spy(real: Callable[..., Any], log: _Log) -> Callable[..., Any]:
    def keyword_search_memories(*args: Any, **kwargs: Any) -> Any:
        log.require_live()
        log.keyword_searches += 1
        return real(*args, **kwargs)

    return keyword_search_memories


def _bind_values(parameters: Any, kwargs: Mapping[str, Any]) -> list[Any]:
    values: list[Any] = list(kwargs.values())
    if isinstance(parameters, Mapping):
        values.extend(parameters.values())
    elif isinstance(parameters, (list, tuple)):
        values.extend(parameters)
    elif parameters is not None:
        values.append(parameters)
    return values
