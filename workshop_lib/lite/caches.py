"""What a lite connection derives from its data and keeps between statements, behind one object.

* **plans** — the translated :class:`~workshop_lib.lite.plan.Plan` per statement text;
  any DDL may change what a text means, so DDL drops them all.
* **templates** — the :class:`~workshop_lib.lite.shapes.Template` per statement shape
  (an INSERT's text with its literals cut out, shapes.py), least recently used
  dropped first; dropped with the plans.
* **versions** — an epoch per ``(owner, table)``, moved by DDL, rollbacks and a
  change log that had to be (re)started; with SQLite's ``PRAGMA data_version``
  (which moves when another connection commits) it forms the key under which a
  derived value is current.
* **changes** — the :class:`ChangeLog`: the rowids this connection's statements
  touched in each tracked table, recorded by TEMP triggers (connection.py), so a
  derived value catches up with a write by re-reading those rows only.
* **vector matrices** — a :class:`VectorColumn` per VECTOR column (rowids,
  vectors, norms), for the numpy VECTOR_DISTANCE slots, updated in place.
* **text indexes** — the Oracle Text index of a column with its row fingerprints
  (``text.TextIndex``), updated row by row from the change log.
* **column values** — the values of one column in rowid order (:class:`ColumnValues`,
  the keyword leg's tie-breaking column), read once and then caught up row by row
  from the change log.
* **embeddings** — VECTOR_EMBEDDING results by ``(model, text)``, least recently
  added dropped first.

Writers say what they changed with :meth:`DerivedCaches.invalidate` (one table's
rows, or with ``definition=True`` its definition) or
:meth:`DerivedCaches.invalidate_all` (a rollback); nothing outside this module
edits the dictionaries. Why a row log and not a write counter: agent memory
alternates one-row writes and searches over 10^5 rows, and a counter can only
say "rebuild everything" (an O(N) re-read before every query).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Generic, TypeVar

import numpy as np

from .functions import rows_norms
from .plan import Plan
from .shapes import Template
from .value_order import OrderKeys

PLAN_CACHE_SIZE = 2000
TEMPLATE_CACHE_SIZE = 256
_UNTEMPLATABLE = "untemplatable"   # a shape whose first statement could not stand for it
EMBED_CACHE_SIZE = 20_000

Version = tuple[int, int, int]   # (rollbacks, the table's epoch on this connection, SQLite's data_version of its file)
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


class ChangeLog:
    """Rowids touched per tracked table, kept per consumer (one derived value) until it catches up.

    TEMP triggers on a tracked table call :meth:`touched` for every row an
    INSERT, UPDATE (old and new rowid) or DELETE of this connection writes,
    foreign-key cascades included. Each consumer (a vector matrix or text index
    of one column) has its own set, so catching up one never loses rows for
    another. The sets are supersets of what changed — a statement rolled back to
    a savepoint leaves its rowids behind — which is safe: a consumer re-reads
    those rows and finds them as they are.
    """

    def __init__(self) -> None:
        self.table_ids: dict[tuple[str, str], int] = {}
        self._pending: dict[int, dict[tuple[str, ...], set[int]]] = {}

    def table_id(self, owner: str, table: str) -> int:
        """The small integer the triggers of ``owner.table`` pass to :meth:`touched`."""
        key = (owner, table)
        if key not in self.table_ids:
            self.table_ids[key] = len(self.table_ids) + 1
        return self.table_ids[key]

    def touched(self, table_id: int, rowid: int | None) -> None:
        """Trigger callback: ``rowid`` of table ``table_id`` was written."""
        if rowid is None:
            return
        for rows in self._pending.get(table_id, {}).values():
            rows.add(rowid)

    def subscribe(self, owner: str, table: str, consumer: tuple[str, ...]) -> None:
        """Start (or restart, forgetting what was logged) the set of ``consumer`` on ``owner.table``."""
        self._pending.setdefault(self.table_id(owner, table), {})[consumer] = set()

    def take(self, owner: str, table: str, consumer: tuple[str, ...]) -> set[int] | None:
        """The rowids written since ``consumer`` last caught up (and reset), or None when it is not subscribed."""
        rows = self._pending.get(self.table_id(owner, table), {})
        if consumer not in rows:
            return None
        taken, rows[consumer] = rows[consumer], set()
        return taken

    def drop_table(self, owner: str, table: str) -> None:
        self._pending.pop(self.table_id(owner, table), None)

    def clear(self) -> None:
        self._pending.clear()


class _RowidArrays:
    """Parallel arrays (rowids first) in rowid order, with spare capacity at the end and deleted rows left in place.

    The shared storage of :class:`VectorColumn` and :class:`ColumnValues`: an
    append (new rowids above the others, what INSERT gives) is amortised O(1);
    a delete marks its slot dead (``live`` False) and moves nothing, so one
    deleted memory among 10^5 costs no copy of the arrays; an insert of a
    deleted slot's rowid brings the slot back. Dead slots are squeezed out once
    they pass an eighth of the slots (``DEAD_SHARE``), so a delete is O(1)
    amortised and at most that share of a scan is wasted on them. Readers use
    ``live`` (None when every slot is live) to skip dead slots.
    """

    DEAD_SHARE = 8   # squeeze dead slots out once they are more than 1/DEAD_SHARE of the slots
    MIN_DEAD = 64    # ... and more than this many (a small table is not squeezed after every delete)

    def __init__(self, rowids: np.ndarray, *columns: np.ndarray) -> None:
        self._n = n = len(rowids)
        self._dead = 0
        capacity = n + max(64, n // 8)
        self._arrays: list[np.ndarray] = []
        for array in (rowids, *columns, np.ones(n, dtype=bool)):   # the last array: is the slot's row live
            spare = np.zeros((capacity,) + array.shape[1:], dtype=array.dtype)   # spare rows are never read
            spare[:n] = array
            self._arrays.append(spare)

    @property
    def rowids(self) -> np.ndarray:
        """The rowid of every slot, dead ones included (see ``live``)."""
        return self._arrays[0][:self._n]

    @property
    def live(self) -> np.ndarray | None:
        """Per slot, whether its row exists; None when every slot's does (no filtering needed)."""
        return self._arrays[-1][:self._n] if self._dead else None

    def _find(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positions of ``ids`` (where they would go), whether each has a slot, and whether that slot is live."""
        n, rowids = self._n, self.rowids
        if n and rowids[n - 1] - rowids[0] == n - 1:
            # no gaps between the slots' rowids: a rowid's position is its distance from the first,
            # O(1) per id where a binary search over 10^5 rowids for 10^5 tied hits took 1.7 ms
            at = np.clip(ids - rowids[0], 0, n)
            slotted = (ids >= rowids[0]) & (ids <= rowids[n - 1])
        else:
            at = np.searchsorted(rowids, ids)
            slotted = ((at < n) & (rowids[np.minimum(at, max(n - 1, 0))] == ids) if n
                       else np.zeros(len(ids), dtype=bool))
        live = slotted & self._arrays[-1][np.minimum(at, n - 1)] if self._dead else slotted   # hot: tied hits
        return at, slotted, live

    def _revive(self, positions: np.ndarray) -> None:
        """Mark the slots at ``positions`` live (their columns were just written)."""
        live = self._arrays[-1]
        self._dead -= int(len(positions) - live[positions].sum())
        live[positions] = True

    def _remove(self, positions: np.ndarray) -> None:
        """Mark the live slots at ``positions`` dead; squeeze the dead slots out once there are too many."""
        if not len(positions):
            return
        self._arrays[-1][positions] = False
        self._dead += len(positions)
        if self._dead > max(self.MIN_DEAD, self._n // self.DEAD_SHARE):
            keep = self._arrays[-1][:self._n].copy()
            n = int(keep.sum())
            for array in self._arrays:
                array[:n] = array[:self._n][keep]
            self._n, self._dead = n, 0

    def _add(self, ids: np.ndarray, *columns: np.ndarray) -> None:
        """Insert rows ``ids`` (sorted, none of them slotted) with their ``columns``, keeping rowid order."""
        n, extra = self._n, len(ids)
        if not extra:
            return
        columns = (*columns, np.ones(extra, dtype=bool))
        if n + extra > len(self._arrays[0]):
            capacity = n + extra + max(64, (n + extra) // 2)
            for k, old in enumerate(self._arrays):
                grown = np.zeros((capacity,) + old.shape[1:], dtype=old.dtype)
                grown[:n] = old[:n]
                self._arrays[k] = grown
        if n == 0 or ids[0] > self._arrays[0][n - 1]:
            for array, added in zip(self._arrays, (ids, *columns)):
                array[n:n + extra] = added
        else:   # below the highest rowid (explicit rowids): merge in rowid order
            where = np.searchsorted(self.rowids, ids)
            for array, added in zip(self._arrays, (ids, *columns)):
                array[:n + extra] = np.insert(array[:n], where, added, axis=0)
        self._n = n + extra


class VectorColumn(_RowidArrays):
    """The vectors of one VECTOR column as one float32 matrix in rowid order, kept up to date row by row.

    The live slots hold exactly what ``SELECT rowid, col ... WHERE col IS NOT
    NULL`` returns, in that order. A delete leaves its slot in place, dead
    (:class:`_RowidArrays`), so readers skip slots whose ``live`` is False;
    the distances of the live rows are those of a fresh load bit for bit,
    because ``functions.distances_to`` computes each row's distance from that
    row alone, whatever its position (a BLAS matrix-vector product does not:
    moving a row can change its last bit). Spare capacity at the end makes an
    append (a new rowid above the others, what INSERT gives) amortised O(1); an
    update of a vector in place and a delete are O(1); only an insert below
    the highest rowid that had no slot moves the rows after it.
    """

    def __init__(self, rowids: np.ndarray, matrix: np.ndarray) -> None:
        dims = matrix.shape[1] if matrix.ndim == 2 else 0
        vectors = np.asarray(matrix, dtype=np.float32).reshape(len(rowids), dims)   # may be a strided view
        super().__init__(np.asarray(rowids, dtype=np.int64), vectors, np.zeros(len(rowids), dtype=np.float32))
        n = self._n
        self._arrays[2][:n] = rows_norms(self._arrays[1][:n])   # of the copy, as apply() computes them

    @property
    def dims(self) -> int:
        return self._arrays[1].shape[1]

    def view(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``(rowids, vectors, norms, live)`` of every slot in rowid order (views, not copies); ``live`` is
        None when every slot's row exists, else the slots to keep."""
        n = self._n
        rowids, matrix, norms, _ = self._arrays
        return rowids[:n], matrix[:n], norms[:n], self.live

    def apply(self, changed: dict[int, np.ndarray | None]) -> bool:
        """Bring the matrix up to ``changed`` (rowid -> its vector now, None when gone or NULL).

        Returns False, changing nothing, when a vector does not fit the matrix
        (another dimension count): the caller then reloads the column.
        """
        if any(v is not None and v.shape != (self.dims,) for v in changed.values()):
            return False
        ids = np.fromiter(changed, dtype=np.int64, count=len(changed))
        at, slotted, live = self._find(ids)
        vectors = [changed[int(i)] for i in ids]
        write = [k for k in range(len(ids)) if slotted[k] and vectors[k] is not None]   # updates and returns
        if write:
            rows = np.vstack([vectors[k] for k in write]).astype(np.float32)
            where = at[write]
            self._arrays[1][where] = rows
            self._arrays[2][where] = rows_norms(rows)   # row by row: the same bits as over the whole matrix
            self._revive(where)
        self._remove(np.asarray([int(at[k]) for k in range(len(ids)) if live[k] and vectors[k] is None],
                                dtype=np.int64))
        new = sorted(int(ids[k]) for k in range(len(ids)) if not slotted[k] and vectors[k] is not None)
        if new:
            rows = np.vstack([changed[i] for i in new]).astype(np.float32)
            self._add(np.asarray(new, dtype=np.int64), rows, rows_norms(rows))
        return True


class ColumnValues(_RowidArrays):
    """The values of one column by rowid, as arrays in rowid order (the keyword leg's tie-breaking keys).

    ``kinds`` says per row whether the value is text (0), a number (1) or
    anything else (2: NULL, bytes), so a caller can tell in one array operation
    whether a set of rows compares in Python as SQLite orders it; ``order``
    holds a float per text or number row that sorts as its value does among
    rows of its kind (value_order.py; NaN for the others), so such rows are
    ordered with numpy. Like :class:`VectorColumn`, spare capacity at the end
    makes an append (an INSERT's new rowid above the others) O(1) and a delete
    leaves a dead slot (``live``); :meth:`at` finds live rows only, so a
    caller that indexes by its positions never sees a dead slot.
    """

    TEXT, NUMBER, OTHER = 0, 1, 2

    def __init__(self, rows: list[tuple[int, Any]]) -> None:
        values = np.empty(len(rows), dtype=object)
        values[:] = [r[1] for r in rows]
        kinds = np.fromiter((self.kind(r[1]) for r in rows), dtype=np.int8, count=len(rows))
        self._keys = {kind: OrderKeys(values[kinds == kind].tolist()) for kind in (self.TEXT, self.NUMBER)}
        super().__init__(np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)), values, kinds,
                         self._order_of(values, kinds))

    @property
    def values(self) -> np.ndarray:
        return self._arrays[1][:self._n]

    @property
    def kinds(self) -> np.ndarray:
        return self._arrays[2][:self._n]

    @property
    def order(self) -> np.ndarray:
        return self._arrays[3][:self._n]

    @classmethod
    def kind(cls, value: Any) -> int:
        kind = type(value)
        return cls.TEXT if kind is str else cls.NUMBER if kind in (int, float) else cls.OTHER

    def _order_of(self, values: np.ndarray, kinds: np.ndarray) -> np.ndarray:
        """The order keys of ``values`` (NaN for a value that is neither text nor a number)."""
        order = np.full(len(values), np.nan)
        for kind, keys in self._keys.items():
            mine = kinds == kind
            order[mine] = np.fromiter(map(keys.key, values[mine].tolist()), dtype=np.float64, count=int(mine.sum()))
        return order

    def at(self, rowids: np.ndarray) -> np.ndarray | None:
        """Positions of ``rowids`` in the arrays, or None when one of them is not a row."""
        at, _, live = self._find(rowids)
        return at if live.all() else None

    def apply(self, rows: list[tuple[int, Any]], changed: set[int]) -> None:
        """Catch up with writes: ``changed`` rowids were written, ``rows`` are those of them that still exist.

        Updates are written in place, an INSERT above the highest rowid is an
        append and a delete marks its slot dead; only an insert below the
        highest rowid that had no slot moves the arrays. No sort.
        """
        renumbered = {kind: keys.renumbered for kind, keys in self._keys.items()}
        now = dict(rows)
        ids = np.asarray(sorted(changed), dtype=np.int64)
        at, slotted, live = self._find(ids)
        exists = np.fromiter((int(i) in now for i in ids), dtype=bool, count=len(ids))
        written = np.nonzero(slotted & exists)[0]   # updates, and rows back in a dead slot's rowid
        if len(written):
            values, kinds, order = self._arrays[1], self._arrays[2], self._arrays[3]
            where = at[written]
            values[where] = [now[int(ids[k])] for k in written.tolist()]
            kinds[where] = [self.kind(v) for v in values[where].tolist()]
            order[where] = self._order_of(values[where], kinds[where])
            self._revive(where)
        self._remove(at[live & ~exists])
        new = ids[~slotted & exists]
        added = np.empty(len(new), dtype=object)
        added[:] = [now[int(i)] for i in new]
        added_kinds = np.fromiter((self.kind(v) for v in added), dtype=np.int8, count=len(new))
        self._add(new, added, added_kinds, self._order_of(added, added_kinds))
        for kind, keys in self._keys.items():
            if keys.renumbered != renumbered[kind]:   # keys stored before the renumbering are stale
                mine = self.kinds == kind
                self.order[mine] = self._order_of(self.values[mine], self.kinds[mine])


class DerivedCaches:
    """The plan cache, table versions, vector matrices, text indexes and embeddings of one connection."""

    def __init__(self, data_version: Callable[[str], int]):
        self._data_version = data_version   # owner -> SQLite's PRAGMA data_version of that schema's file
        self.plans: dict[str, Plan | str] = {}
        self.templates: OrderedDict[str, Template | str] = OrderedDict()
        self.versions: dict[tuple[str, str], int] = {}
        self.rollbacks = 0
        self.changes = ChangeLog()
        self.matrices: _Versioned[VectorColumn] = _Versioned()
        self.text_indexes: _Versioned[tuple[Any, dict[int, int]]] = _Versioned()
        self.column_values: _Versioned[ColumnValues] = _Versioned()   # one column's values in rowid order
        self.embeddings: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    # -- what changed
    def invalidate(self, owner: str | None, table: str | None, *, definition: bool = False) -> None:
        """``owner.table`` changed: its rows (a write), or with ``definition`` its definition (DDL).

        A write needs nothing here: the change log already holds the rows it
        touched, and each derived value catches up with them when next used.
        DDL moves the table's epoch, drops its derived values outright and every
        plan, since a plan may depend on any table's columns and indexes; DDL
        that names no table (CREATE USER, DROP INDEX IF EXISTS of nothing)
        passes ``None`` and drops only the plans.
        """
        if not definition:
            return
        self.plans.clear()
        self.templates.clear()
        if owner is None or table is None:
            return
        self.new_epoch(owner, table)
        self.matrices.drop_table(owner, table)
        self.text_indexes.drop_table(owner, table)
        self.column_values.drop_table(owner, table)
        self.changes.drop_table(owner, table)

    def new_epoch(self, owner: str, table: str) -> None:
        """Values derived from ``owner.table`` before now can no longer catch up (e.g. its change log restarted)."""
        key = (owner, table)
        self.versions[key] = self.versions.get(key, 0) + 1

    def invalidate_all(self, *, definitions: bool = False) -> None:
        """A rollback: every table may have changed (and with ``definitions``, as in atomic(), its DDL too).

        The change log would cover the rolled-back rows, but a rollback also
        undoes TEMP triggers created in the transaction, so derived values are
        dropped and rebuilt rather than trusted.
        """
        self.rollbacks += 1
        self.matrices.clear()
        self.text_indexes.clear()
        self.column_values.clear()
        self.changes.clear()
        if definitions:
            self.plans.clear()
            self.templates.clear()

    def version(self, owner: str, table: str) -> Version:
        """The key under which values derived from ``owner.table`` are current."""
        return self.rollbacks, self.versions.get((owner, table), 0), self._data_version(owner)

    # -- plans
    def plan(self, sql: str) -> Plan | str | None:
        return self.plans.get(sql)

    def keep_plan(self, sql: str, plan: Plan | str) -> None:
        if len(self.plans) > PLAN_CACHE_SIZE:
            self.plans.clear()
        self.plans[sql] = plan

    # -- statement shapes
    def template(self, key: str) -> Template | None:
        """The template of shape ``key`` (marked most recently used), or None when there is none to use."""
        found = self.templates.get(key)
        if found is None:
            return None
        self.templates.move_to_end(key)
        return found if isinstance(found, Template) else None

    def untemplatable(self, key: str) -> bool:
        """True when a statement of shape ``key`` was translated and could not stand for the shape."""
        return self.templates.get(key) == _UNTEMPLATABLE

    def keep_template(self, key: str, template: Template | None) -> None:
        """Keep ``template`` for shape ``key`` (None: remember that the shape cannot be templated)."""
        self.templates[key] = template if template is not None else _UNTEMPLATABLE
        self.templates.move_to_end(key)
        while len(self.templates) > TEMPLATE_CACHE_SIZE:
            self.templates.popitem(last=False)

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
