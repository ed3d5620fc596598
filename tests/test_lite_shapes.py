"""Statement shapes (lite/shapes.py): INSERTs that differ only in literal values share one translation.

Every test compares the template path with lite's full path (guard, parse,
translate) on the same statements: the SQLite text, the rows written and the
errors raised must be the same.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import oracledb
import pytest
from sqlglot.tokens import TokenType

import workshop_lib.lite.connection as connection_module
from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite.caches import TEMPLATE_CACHE_SIZE, DerivedCaches
from workshop_lib.lite.dialect import Oracle
from workshop_lib.lite.shapes import Template, shape_of
from workshop_lib.lite.translate import translate, translate_shaped
from workshop_lib.seed import DEFAULT_SQL_PATH, run_seed, split_statements

TABLE = """CREATE TABLE t (
    id NUMBER PRIMARY KEY,
    name VARCHAR2(6),
    city VARCHAR2(4 CHAR),
    code CHAR(3),
    amount NUMBER(6, 2),
    plain NUMBER,
    born DATE,
    seen TIMESTAMP(3),
    notes CLOB,
    doc JSON,
    gen NUMBER GENERATED ALWAYS AS IDENTITY,
    must VARCHAR2(10) NOT NULL
)"""
COLUMNS = "id, name, city, code, amount, plain, born, seen, notes, doc, must"


def _sql(i: Any, name: Any = "'abc'", city: Any = "'xy'", code: Any = "'ABC'", amount: Any = "1.5",
         plain: Any = "7", born: Any = "TO_DATE('2025-01-31', 'YYYY-MM-DD')",
         seen: Any = "TO_TIMESTAMP('2025-01-31 10:20:30.123456', 'YYYY-MM-DD HH24:MI:SS.FF')",
         notes: Any = "'n'", doc: Any = "'{\"a\": 1}'", must: Any = "'m'") -> str:
    return (f"INSERT INTO t ({COLUMNS}) VALUES ({i}, {name}, {city}, {code}, {amount}, {plain}, {born}, {seen}, "
            f"{notes}, {doc}, {must})")


@pytest.fixture()
def pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Two connections on two homes with table T: ``cached`` uses shapes, ``plain`` never does."""
    cached = connect(tmp_path / "cached")
    plain = connect(tmp_path / "plain")
    for conn in (cached, plain):
        conn.cursor().execute(TABLE)
    real = connection_module.shape_of

    def shape_for(conn_is_cached: bool):
        return real if conn_is_cached else (lambda sql: None)

    class Pair:
        def run(self, sql: str) -> tuple[Any, Any]:
            """(outcome on cached, outcome on plain): None, or (full_code, message) of the error."""
            outcomes = []
            for conn, uses in ((cached, True), (plain, False)):
                monkeypatch.setattr(connection_module, "shape_of", shape_for(uses))
                try:
                    conn.cursor().execute(sql)
                    outcomes.append(None)
                except oracledb.DatabaseError as exc:
                    outcomes.append((exc.args[0].full_code, exc.args[0].message))
            monkeypatch.setattr(connection_module, "shape_of", real)
            return outcomes[0], outcomes[1]

    yield Pair(), cached, plain
    cached.close()
    plain.close()


def _rows(conn: Any, table: str = "T") -> list[tuple]:
    return conn.sqlite.execute(f'SELECT * FROM main."{table}" ORDER BY rowid').fetchall()


# --------------------------------------------------------------------------- the key

def test_statements_differing_only_in_lifted_literals_share_a_key_and_nothing_else_does() -> None:
    base = shape_of(_sql(1))
    assert base is not None
    assert shape_of(_sql(2, name="'it''s'", amount="99.25", born="TO_DATE('1999-12-01', 'YYYY-MM-DD')")).key == base.key
    different = [
        _sql(1).replace("VALUES (", "VALUES  ("),                       # whitespace
        _sql(1).replace("INSERT INTO t", "INSERT INTO u"),              # another table
        _sql(1, name="5"),                                              # a number where a string was
        _sql(1, plain="'7'"),                                           # a string where a number was
        _sql(1, name="''"),                                             # '' is NULL: not lifted
        _sql(1, name="NULL"),
        _sql(1, plain="-7"),                                            # the minus stays in the key
        _sql(1, born="TO_DATE('2025-01-31', 'YYYY-DD-MM')"),            # the format is not lifted
        _sql(1, amount="ROUND(1.5, 1)"),                                # arguments of other calls are not
        _sql(1, amount="1.5 + 1"),                                      # nor operands
        _sql(1, plain="1e3"),                                           # nor numbers other than digits[.digits]
        _sql(":id"),
    ]
    keys = {base.key}
    for sql in different:
        shape = shape_of(sql)
        assert shape is None or shape.key not in keys, sql
        if shape is not None:
            keys.add(shape.key)
    assert "'YYYY-MM-DD'" in base.key and "'2025-01-31'" not in base.key


@pytest.mark.parametrize("sql", [
    "SELECT 'a' FROM dual",
    "INSERT INTO t (id) SELECT 1 FROM dual",
    "INSERT INTO t (id) VALUES (1) -- a comment",
    "INSERT INTO t (id) /* c */ VALUES (1)",
    "INSERT INTO t (id, name) VALUES (1, q'[it's]')",
    "INSERT INTO t (id, name) VALUES (1, N'abc')",
    "INSERT INTO t (id, name) VALUES (1, 'unterminated)",
    "INSERT INTO t (id) VALUES (NULL)",
    "INSERT ALL INTO t (id) VALUES (1) INTO t (id) VALUES (2) SELECT 1 FROM dual",
    "INSERT INTO t (id) VALUES (1) RETURNING id INTO :x",
    "UPDATE t SET name = 'a' WHERE id = 1",
])
def test_statements_lite_does_not_read_with_certainty_have_no_shape(sql: str) -> None:
    assert shape_of(sql) is None


def test_the_scanner_reads_string_values_as_the_sqlglot_tokenizer_does() -> None:
    rng = random.Random(14)
    alphabet = ["a", "Z", "'", "''", " ", "\\", "\n", "İ", "€", "%", ",", ")", "(", "--", "/*", '"', "\t", "0"]
    for _ in range(400):
        parts = ["'" + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))).replace("'", "''") + "'"
                 for _ in range(3)]
        sql = f"INSERT INTO t (a, b, c) VALUES ({parts[0]}, {rng.randint(0, 10**6)}.{rng.randint(0, 99)}, {parts[1]})"
        shape = shape_of(sql)
        tokens = Oracle().tokenizer_class().tokenize(sql)
        literals = [t.text for t in tokens if t.token_type in (TokenType.STRING, TokenType.NUMBER)]
        assert shape is not None and list(shape.values) == literals, sql


# --------------------------------------------------------------------------- the cache

def test_the_template_cache_is_bounded_least_recently_used_first_and_dropped_by_ddl() -> None:
    caches = DerivedCaches(lambda owner: 0)
    template = Template("INSERT", ["x"], [], (), [], None)
    for i in range(TEMPLATE_CACHE_SIZE + 40):
        caches.keep_template(f"k{i}", template)
        if i >= 1:
            assert caches.template("k0") is template   # used every time: never the least recent
    assert len(caches.templates) == TEMPLATE_CACHE_SIZE
    assert caches.template("k0") is template and caches.template("k1") is None
    caches.keep_template("bad", None)
    assert caches.untemplatable("bad") and caches.template("bad") is None and not caches.untemplatable("k0")
    caches.invalidate("A", "T", definition=True)
    assert len(caches.templates) == 0


# --------------------------------------------------------------------------- same results as the full path

def test_every_seed_insert_gets_the_sqlite_text_of_its_full_translation(tmp_path: Path) -> None:
    conn = connect(tmp_path, "SUPPLYCHAIN")   # the seed runs as SUPPLYCHAIN
    run_seed(conn, atomic=True)
    inserts = [s for s in split_statements(DEFAULT_SQL_PATH.read_text(encoding="utf-8"))
               if s.upper().startswith("INSERT")]
    templates: dict[str, Any] = {}
    for sql in inserts:
        shape = shape_of(sql)
        assert shape is not None, sql
        if shape.key not in templates:
            templates[shape.key] = translate_shaped(sql, conn._context, shape)[1]
        template = templates[shape.key]
        assert template is not None, sql
        full = translate(sql, conn._context)
        made = template.instantiate(shape.values)
        assert (made.sql, made.binds, made.target, made.kind) == (full.sql, full.binds, full.target, full.kind)
    assert len(templates) < len(inserts) / 10   # the seed's 610 INSERTs are a handful of shapes
    conn.close()


def _dump(folder: Path) -> dict[str, list[tuple]]:
    out = {}
    for path in sorted(folder.glob("*.db")):
        con = sqlite3.connect(path)
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            out[f"{path.stem}.{name}"] = con.execute(f'SELECT rowid, * FROM "{name}" ORDER BY rowid').fetchall()
        con.close()
    return out


def test_the_seeded_database_is_identical_with_and_without_templates(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[int] = []
    real_instantiate = Template.instantiate

    def counting(self: Template, values: Any) -> Any:
        used.append(1)
        return real_instantiate(self, values)

    monkeypatch.setattr(Template, "instantiate", counting)
    with_templates = connect(tmp_path / "with", "SUPPLYCHAIN")
    run_seed(with_templates, atomic=True)
    with_templates.close()
    assert len(used) > 500
    monkeypatch.setattr(connection_module, "shape_of", lambda sql: None)
    without = connect(tmp_path / "without", "SUPPLYCHAIN")
    run_seed(without, atomic=True)
    without.close()
    a, b = _dump(tmp_path / "with" / "lite"), _dump(tmp_path / "without" / "lite")
    assert set(a) == set(b) and a["SUPPLYCHAIN.CARGO_ITEMS"]
    for table in a:
        if table.startswith("_catalog."):
            continue   # creation dates differ by the clock; the catalog's own rows are compared below
        assert a[table] == b[table], table
    strip = (lambda rows: [tuple(v for v in r if not (isinstance(v, str) and v[:2] == "20" and ":" in v))
                           for r in rows])
    for table in (t for t in a if t.startswith("_catalog.")):
        assert strip(a[table]) == strip(b[table]), table


def test_a_cached_shape_still_refuses_what_the_full_path_refuses_with_the_same_error(pair) -> None:
    run, cached, plain = pair
    assert run.run(_sql(1)) == (None, None)
    assert cached.caches.template(shape_of(_sql(1)).key) is not None   # noqa: SLF001 - the shape is cached
    cases = {
        _sql(2, name="'abcdefg'"): "ORA-12899",          # 7 bytes > VARCHAR2(6)
        _sql(3, name="'İstanb'"): "ORA-12899",           # 6 characters, 7 bytes
        _sql(4, city="'İİİİ'"): None,                    # 4 characters fit VARCHAR2(4 CHAR)
        _sql(5, city="'abcde'"): "ORA-12899",
        _sql(6, code="'ABCD'"): "ORA-12899",              # CHAR(3)
        _sql(7, amount="12345.678"): "ORA-01438",        # NUMBER(6, 2): 5 integer digits > 4
        _sql(8, amount="12.345"): None,                  # rounded to 12.35
        _sql(9, amount="'abc'"): "ORA-01722",            # another shape (a string), converted at run time
        _sql(1): "ORA-00001",                            # the primary key
        _sql(10, born="TO_DATE('2025-02-30', 'YYYY-MM-DD')"): "ORA-01847",
        _sql(11, seen="TO_TIMESTAMP('2025-01-31 10:20:30.999999', 'YYYY-MM-DD HH24:MI:SS.FF')"): None,
        _sql(12, doc="'{not json'"): "ORA-40441",
        _sql(13, must="NULL"): "ORA-01400",
        _sql(14, plain="-0.5"): None,
        _sql(15, name="'it''s'"): None,
        _sql(16, name="'ab''''c'"): None,
    }
    for sql, code in cases.items():
        on_cached, on_plain = run.run(sql)
        assert on_cached == on_plain, sql
        assert (on_cached[0] if on_cached else None) == code, (sql, on_cached)
    assert _rows(cached) == _rows(plain)


def test_an_identity_given_a_value_is_refused_through_a_template_too(pair) -> None:
    run, cached, plain = pair
    with_gen = f"INSERT INTO t ({COLUMNS}, gen) VALUES (1, 'a', 'b', 'c', 1, 2, NULL, NULL, 'n', NULL, 'm', 5)"
    assert run.run(with_gen)[0] == run.run(with_gen.replace("(1, 'a'", "(2, 'a'"))[1]
    assert run.run(with_gen)[0][0] == "ORA-32795"


def test_a_string_written_to_a_date_column_is_never_templated(pair) -> None:
    run, cached, plain = pair
    first = _sql(1, born="'31-JAN-25'")
    assert run.run(first) == (None, None)
    assert cached.caches.untemplatable(shape_of(first).key)
    for value in ("'01-FEB-25'", "'2025-01-01'", "'31-FEB-25'"):
        on_cached, on_plain = run.run(_sql(2, born=value))
        assert on_cached == on_plain, value
    assert _rows(cached) == _rows(plain)


def test_random_statements_of_one_shape_match_the_full_path(pair) -> None:
    run, cached, plain = pair
    rng = random.Random(1414)
    pieces = ["a", "B", "'", "İ", "€", " ", "\\", ",", ")", "0", "\n"]

    def text(longest: int = 9) -> str:   # mostly fitting the column, sometimes too long for it
        size = rng.randint(1, longest + 1 if rng.random() < 0.2 else longest)
        return "'" + "".join(rng.choice(pieces) for _ in range(size)).replace("'", "''") + "'"

    def number() -> str:
        return rng.choice(["0", "7", "9999.99", "10000", "0.005", "123.456", "42"])

    codes: list[str | None] = []
    for i in range(1, 160):
        sql = _sql(rng.choice([i, i, 1]), name=text(2), city=text(4), code=text(1), amount=number(),
                   plain=number(), notes=text(), must=text(),
                   born=f"TO_DATE('{rng.choice(['2025-01-31', '2024-02-29', '2023-02-29', '1999-13-01'])}', "
                        "'YYYY-MM-DD')")
        on_cached, on_plain = run.run(sql)
        assert on_cached == on_plain, sql
        codes.append(on_cached[0] if on_cached else None)
        shape = shape_of(sql)
        template = cached.caches.template(shape.key)
        if template is not None and on_plain is None:
            try:
                full = translate(sql, plain._context)
            except oracledb.DatabaseError:
                continue
            assert template.instantiate(shape.values).sql == full.sql
    assert len(_rows(cached)) > 10 and {"ORA-12899", "ORA-00001", "ORA-01438", None} <= set(codes), set(codes)
    assert _rows(cached) == _rows(plain)
