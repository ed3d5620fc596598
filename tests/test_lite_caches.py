"""The seam between the lite cursor, the connection and its derived caches (lite/caches.py, lite/cursor.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import workshop_lib.lite as lite_pkg
from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection, LiteCursor
from workshop_lib.lite.caches import DerivedCaches
from workshop_lib.lite.cursor import LiteCursor as CursorClass

LITE = Path(lite_pkg.__file__).parent


def _caches() -> DerivedCaches:
    return DerivedCaches(lambda owner: 7)


def test_a_write_keeps_derived_values_current_and_the_change_log_names_its_rows() -> None:
    caches = _caches()
    caches.keep_plan("SELECT 1 FROM dual", "P")
    caches.matrices.put(("A", "T", "V"), caches.version("A", "T"), "matrix of T")
    caches.changes.subscribe("A", "T", ("vector", "V"))
    caches.changes.subscribe("A", "T", ("text", "C"))
    before = caches.version("A", "T")
    caches.invalidate("A", "T")                       # a write: the rows are in the log, nothing is rebuilt
    tid = caches.changes.table_id("A", "T")
    caches.changes.touched(tid, 5)
    caches.changes.touched(tid, 9)
    caches.changes.touched(caches.changes.table_id("A", "U"), 1)   # another table's write
    assert caches.version("A", "T") == before and before[-1] == 7
    assert caches.matrices.current(("A", "T", "V"), before) == "matrix of T"
    assert caches.changes.take("A", "T", ("vector", "V")) == {5, 9}
    assert caches.changes.take("A", "T", ("vector", "V")) == set()      # caught up
    assert caches.changes.take("A", "T", ("text", "C")) == {5, 9}       # each consumer keeps its own rows
    assert caches.changes.take("A", "U", ("vector", "V")) is None       # never subscribed
    assert caches.plan("SELECT 1 FROM dual") == "P"  # rows changed, statements mean the same
    caches.new_epoch("A", "T")                          # e.g. the triggers had to be created again
    assert caches.version("A", "T") != before and caches.matrices.current(("A", "T", "V"), before) == "matrix of T"
    assert caches.matrices.current(("A", "T", "V"), caches.version("A", "T")) is None


def test_ddl_drops_every_plan_and_the_tables_derived_values() -> None:
    caches = _caches()
    caches.keep_plan("q", "P")
    caches.text_indexes.put(("A", "T", "C"), caches.version("A", "T"), ("index", {}))
    caches.text_indexes.put(("A", "U", "C"), caches.version("A", "U"), ("other", {}))
    caches.changes.subscribe("A", "T", ("text", "C"))
    before = caches.version("A", "T")
    caches.invalidate("A", "T", definition=True)
    assert caches.plans == {} and caches.version("A", "T") != before
    assert caches.text_indexes.stale(("A", "T", "C")) is None
    assert caches.changes.take("A", "T", ("text", "C")) is None
    assert caches.text_indexes.stale(("A", "U", "C")) == ("other", {})
    caches.keep_plan("q", "P")
    caches.invalidate(None, None, definition=True)  # CREATE USER: no table, plans still go
    assert caches.plans == {}


def test_a_rollback_makes_everything_stale() -> None:
    caches = _caches()
    caches.invalidate("A", "T")
    caches.keep_plan("q", "P")
    caches.matrices.put(("A", "T", "V"), caches.version("A", "T"), ("m",))
    caches.changes.subscribe("A", "T", ("vector", "V"))
    before = caches.version("A", "T")
    caches.invalidate_all()
    assert caches.version("A", "T") != before and caches.matrices.stale(("A", "T", "V")) is None
    assert caches.changes.take("A", "T", ("vector", "V")) is None
    assert caches.plan("q") == "P"
    caches.invalidate_all(definitions=True)  # atomic() rolled back DDL too
    assert caches.plans == {}


def test_embeddings_are_bounded_and_forgotten_per_model(monkeypatch: pytest.MonkeyPatch) -> None:
    import workshop_lib.lite.caches as caches_module

    monkeypatch.setattr(caches_module, "EMBED_CACHE_SIZE", 2)
    caches = _caches()
    for text in ("a", "b", "c"):
        caches.keep_embedding("M", text, text.encode())
    caches.keep_embedding("N", "a", b"n")
    caches.trim_embeddings()
    assert list(caches.embeddings) == [("M", "c"), ("N", "a")]
    caches.forget_model("M")
    assert not caches.has_embedding("M", "c") and caches.embedding("N", "a") == b"n"


def test_the_connection_reports_writes_ddl_and_rollbacks_to_its_caches(tmp_path: Path) -> None:
    conn: LiteConnection = connect(tmp_path, "AGENT")
    try:
        cur = conn.cursor()
        assert isinstance(cur, LiteCursor) and LiteCursor is CursorClass
        cur.execute("CREATE TABLE t (id NUMBER PRIMARY KEY, body VARCHAR2(100))")
        start = conn.caches.version("AGENT", "T")
        cur.execute("INSERT INTO t (id, body) VALUES (:1, :2)", [1, "one"])
        assert conn.caches.version("AGENT", "T") == start and conn.caches.plans   # a write: the log has it
        conn.rollback()
        assert conn.caches.version("AGENT", "T") != start
        cur.execute("CREATE INDEX t_ctx ON t (body) INDEXTYPE IS CTXSYS.CONTEXT")
        assert conn.caches.plans == {}
        cur.execute("INSERT INTO t (id, body) VALUES (2, 'container ships')")
        cur.execute("SELECT id FROM t WHERE CONTAINS(body, :q, 1) > 0", q="ships")
        assert cur.fetchall() == [(2,)]
        built = conn.caches.text_indexes.stale(("AGENT", "T", "BODY"))
        cur.execute("INSERT INTO t (id, body) VALUES (3, 'more ships')")
        cur.execute("SELECT id FROM t WHERE CONTAINS(body, :q, 1) > 0 ORDER BY id", q="ships")
        assert cur.fetchall() == [(2,), (3,)]
        assert conn.caches.text_indexes.stale(("AGENT", "T", "BODY"))[0] is built[0]   # caught up, not rebuilt
        cur.execute("TRUNCATE TABLE t")  # DDL on the table drops its text index
        assert conn.caches.text_indexes.stale(("AGENT", "T", "BODY")) is None
    finally:
        conn.close()


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            found.add(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_the_cursor_module_does_not_import_the_connection_and_edits_no_cache() -> None:
    source = (LITE / "cursor.py").read_text()
    assert ".connection" not in _imports(LITE / "cursor.py")
    for attribute in ("plans", "versions", "matrices", "text_indexes", "embeddings"):
        assert f"caches.{attribute}" not in source
    for private in ("_plans", "_versions", "_matrices", "_text_indexes", "_embed_cache", "_bump", "._con."):
        assert private not in source



def test_column_values_catch_up_with_writes_exactly_as_a_fresh_read() -> None:
    """ColumnValues.apply after random inserts, updates and deletes equals a ColumnValues read afresh."""
    import random

    import numpy as np

    from workshop_lib.lite.caches import ColumnValues

    rng = random.Random(5)
    table = {rowid: f"k{rng.randrange(50)}" for rowid in range(1, 200)}
    kept = ColumnValues(sorted(table.items()))
    dead_seen = 0
    for _ in range(60):
        changed = set()
        for _ in range(rng.randint(1, 6)):
            op = rng.random()
            rowid = rng.randint(1, 260)
            if op < 0.4:
                table[rowid] = rng.choice([f"k{rng.randrange(50)}", rng.randrange(9), None, 2.5])
            elif op < 0.7:
                table.pop(rowid, None)
            else:
                rowid = max(table, default=0) + 1   # an INSERT: above every rowid
                table[rowid] = f"k{rng.randrange(50)}"
            changed.add(rowid)
        kept.apply([(r, table[r]) for r in changed if r in table], changed)
        fresh = ColumnValues(sorted(table.items()))
        live = _live(kept)
        assert kept.rowids[live].tolist() == fresh.rowids.tolist()
        assert kept.values[live].tolist() == fresh.values.tolist()
        assert kept.kinds[live].tolist() == fresh.kinds.tolist()
        dead_seen += kept.live is not None
        assert kept.at(np.asarray(sorted(table))) is not None   # every row is found ...
        gone = sorted(set(kept.rowids.tolist()) - set(table))
        assert all(kept.at(np.asarray([r])) is None for r in gone)   # ... and no deleted row's slot
    assert dead_seen
    assert kept.at(np.asarray([max(table) + 5])) is None
    some = np.asarray(sorted(table)[:3])
    assert kept.values[kept.at(some)].tolist() == [table[r] for r in some.tolist()]


def test_score_lookups_have_the_candidates_at_hand_and_every_hit_on_demand() -> None:
    import numpy as np

    from workshop_lib.lite.connection import _HitScores

    rowids, scores = np.asarray([7, 3, 9, 4]), np.asarray([10, 20, 30, 40])
    near = _HitScores(rowids, scores, {9: 30})
    assert near.get(9) == 30 and near._all is None          # a candidate: no mapping of every hit built
    assert near.get(3) == 20 and near.get(5) == 0 and near.get(5, -1) == -1   # another hit, a non-hit
    full = _HitScores(rowids, scores)
    assert [full.get(r) for r in (7, 3, 9, 4, 1)] == [10, 20, 30, 40, 0]


def _live(cv):
    """The live slots of a ColumnValues (every slot when no row was deleted since the last squeeze)."""
    import numpy as np

    return np.ones(cv.rowids.size, dtype=bool) if cv.live is None else cv.live


def _orders_like_values(cv) -> bool:
    """Within each kind, the order keys sort the rows as their values sort, equal values sharing a key."""
    from workshop_lib.lite.caches import ColumnValues

    for kind in (ColumnValues.TEXT, ColumnValues.NUMBER):
        mine = (cv.kinds == kind) & _live(cv)
        pairs = list(zip(cv.values[mine].tolist(), cv.order[mine].tolist()))
        for (a, ka), (b, kb) in zip(sorted(pairs), sorted(pairs)[1:]):
            if not ((a == b and ka == kb) or (a < b and ka < kb)):
                return False
    return True


def test_column_values_order_keys_follow_the_values_through_writes() -> None:
    """Order keys stay consistent with the values after inserts, updates (kind changes too) and deletes."""
    import random

    import numpy as np

    from workshop_lib.lite.caches import ColumnValues

    rng = random.Random(8)
    table = {rowid: rng.choice([f"r{rng.randrange(40)}", rng.randrange(30), rng.random(), None, b"x"])
             for rowid in range(1, 300)}
    kept = ColumnValues(sorted(table.items()))
    assert _orders_like_values(kept) and np.isnan(kept.order[kept.kinds == ColumnValues.OTHER]).all()
    for _ in range(80):
        changed = set()
        for _ in range(rng.randint(1, 5)):
            rowid = rng.choice([rng.randint(1, 330), max(table) + 1])
            if rng.random() < 0.25:
                table.pop(rowid, None)
            else:
                table[rowid] = rng.choice([f"r{rng.randrange(60)}", f"é{rng.randrange(9)}", rng.randrange(50),
                                           rng.random() * 50, None])
            changed.add(rowid)
        kept.apply([(r, table[r]) for r in changed if r in table], changed)
        assert kept.values[_live(kept)].tolist() == [table[r] for r in sorted(table)]
        assert _orders_like_values(kept)


def test_order_keys_renumber_when_no_float_fits_between_two_values() -> None:
    from fractions import Fraction

    from workshop_lib.lite.value_order import OrderKeys

    seen = [Fraction(0), Fraction(1), Fraction(2)]
    keys = OrderKeys(seen)
    for depth in range(1, 80):   # always just above 1: every new key halves the gap above 1's key
        value = 1 + Fraction(1, 2 ** depth)
        keys.key(value)
        seen.append(value)
    assert keys.renumbered >= 1
    ordered = sorted(seen)
    assert [keys.key(v) for v in ordered] == sorted(keys.key(v) for v in ordered)
    assert len({keys.key(v) for v in ordered}) == len(ordered)
    assert keys.key(Fraction(-5)) < keys.key(Fraction(0)) and keys.key(Fraction(9)) > keys.key(Fraction(1))


def test_positions_of_rowids_with_and_without_gaps() -> None:
    import numpy as np

    from workshop_lib.lite.caches import ColumnValues

    dense = ColumnValues([(r, f"v{r}") for r in range(10, 20)])
    assert dense.at(np.asarray([10, 15, 19])).tolist() == [0, 5, 9]
    assert dense.at(np.asarray([9])) is None and dense.at(np.asarray([20])) is None
    gaps = ColumnValues([(r, f"v{r}") for r in (3, 5, 8, 9)])
    assert gaps.at(np.asarray([5, 9])).tolist() == [1, 3] and gaps.at(np.asarray([4])) is None
    assert dense.at(np.asarray([], dtype=np.int64)).tolist() == []
