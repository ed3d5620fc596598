"""What a lite connection derives from its data and keeps between statements, behind one object.

* **plans** — the translated :class:`~workshop_lib.lite.plan.Plan` per statement text;
  any DDL may change what a text means, so DDL drops them all.
* **versions** — a counter per ``(owner, table)``, bumped by every write the
  connection makes; with SQLite's ``PRAGMA data_version`` (which moves when
  another connection writes) it forms the key that says a derived value is current.
* **vector matrices** — ``(rowids, vectors, norms)`` of a VECTOR column, for the
  numpy VECTOR_DISTANCE slots.
* **text indexes** — the Oracle Text index of a column with its row fingerprints
  (``text.TextIndex``), synced incrementally when the table changed.
* **embeddings** — VECTOR_EMBEDDING results by ``(model, text)``, least recently
  added dropped first.

Writers say what they changed with :meth:`DerivedCaches.invalidate` (one table's
rows, or with ``definition=True`` its definition) or
:meth:`DerivedCaches.invalidate_all` (a rollback); nothing outside this module
edits the dictionaries.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Generic, TypeVar

from .plan import Plan

PLAN_CACHE_SIZE = 2000
EMBED_CACHE_SIZE = 20_000

Version = tuple[int, int]   # (this connection's write counter, SQLite's data_version of the schema file)
T = TypeVar("T")


class _Versioned(Generic[T]):
    """Values per ``(owner, table, column)``, each valid for the table version it was built at."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str, str], tuple[Version, T]] = {}

    def current(self, key: tuple[str, str, str], version: Version) -> T | None:
        cached = self.entries.get(key)
        return cached[1] if cached is not None and cached[0] == version else None

    def stale(self, key: tuple[str, str, str]) -> T | None:
        """The value kept for ``key`` whatever its version (the text index syncs from it)."""
        cached = self.entries.get(key)
        return cached[1] if cached is not None else None

    def put(self, key: tuple[str, str, str], version: Version, value: T) -> None:
        self.entries[key] = (version, value)

    def discard(self, key: tuple[str, str, str]) -> None:
        self.entries.pop(key, None)

    def drop_table(self, owner: str, table: str) -> None:
        for key in [k for k in self.entries if k[:2] == (owner, table)]:
            del self.entries[key]

    def clear(self) -> None:
        self.entries.clear()


class DerivedCaches:
    """The plan cache, table versions, vector matrices, text indexes and embeddings of one connection."""

    def __init__(self, data_version: Callable[[str], int]):
        self._data_version = data_version   # owner -> SQLite's PRAGMA data_version of that schema's file
        self.plans: dict[str, Plan | str] = {}
        self.versions: dict[tuple[str, str], int] = {}
        self.matrices: _Versioned[tuple[Any, Any, Any]] = _Versioned()
        self.text_indexes: _Versioned[tuple[Any, dict[int, int]]] = _Versioned()
        self.embeddings: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    # -- what changed
    def invalidate(self, owner: str | None, table: str | None, *, definition: bool = False) -> None:
        """``owner.table`` changed: its rows (a write), or with ``definition`` its definition (DDL).

        A write makes every value derived from the table stale (its version
        moves). DDL also drops the table's derived values outright and every
        plan, since a plan may depend on any table's columns and indexes; DDL
        that names no table (CREATE USER, DROP INDEX IF EXISTS of nothing)
        passes ``None`` and drops only the plans.
        """
        if definition:
            self.plans.clear()
        if owner is None or table is None:
            return
        key = (owner, table)
        self.versions[key] = self.versions.get(key, 0) + 1
        if definition:
            self.matrices.drop_table(owner, table)
            self.text_indexes.drop_table(owner, table)

    def invalidate_all(self, *, definitions: bool = False) -> None:
        """A rollback: every table may have changed (and with ``definitions``, as in atomic(), its DDL too)."""
        for key in list(self.versions):
            self.versions[key] += 1
        self.matrices.clear()
        self.text_indexes.clear()
        if definitions:
            self.plans.clear()

    def version(self, owner: str, table: str) -> Version:
        """The key under which values derived from ``owner.table`` are current."""
        return self.versions.get((owner, table), 0), self._data_version(owner)

    # -- plans
    def plan(self, sql: str) -> Plan | str | None:
        return self.plans.get(sql)

    def keep_plan(self, sql: str, plan: Plan | str) -> None:
        if len(self.plans) > PLAN_CACHE_SIZE:
            self.plans.clear()
        self.plans[sql] = plan

    # -- embeddings
    def embedding(self, model: str, text: str) -> bytes | None:
        return self.embeddings.get((model, text))

    def has_embedding(self, model: str, text: str) -> bool:
        return (model, text) in self.embeddings

    def keep_embedding(self, model: str, text: str, blob: bytes) -> None:
        self.embeddings[(model, text)] = blob

    def trim_embeddings(self) -> None:
        while len(self.embeddings) > EMBED_CACHE_SIZE:
            self.embeddings.popitem(last=False)

    def forget_model(self, model: str) -> None:
        """A model was (re)registered: its cached embeddings may be another model's."""
        for key in [k for k in self.embeddings if k[0] == model]:
            del self.embeddings[key]
