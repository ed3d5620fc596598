"""JSON_TABLE in lite (lite/json_table.py), held to the rules of Oracle's JSON Developer's Guide.

Each test states the rule it checks; where Oracle's own output for a
statement is published (the ON ERROR examples below), the rows are Oracle's.
The sample schemas' PRODUCT_REVIEWS view is checked against rows computed in
Python in tests/test_lite_fidelity.py.
"""

from __future__ import annotations

import json

import oracledb
import pytest

from lite_sql import run
from workshop_lib.backends.lite import connect_lite

ORDERS = [
    (1, {"po": "A1", "placed": "2025-03-04T10:30:00", "items": [
        {"sku": "X", "qty": 2, "price": 1.5, "tags": ["red", "big"]},
        {"sku": "Y", "qty": "3", "price": 10, "tags": []}], "note": "rush"}),
    (2, {"po": "B2", "placed": "2025-03-05", "items": {"sku": "Z", "qty": 1, "price": 99.99}}),
    (3, {"po": "C3", "items": []}),
    (4, None),
    (5, "not json {"),
]


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("json_table"), "HR")
    cur = connection.cursor()
    cur.execute("CREATE TABLE orders (id NUMBER PRIMARY KEY, doc VARCHAR2(4000))")
    cur.executemany("INSERT INTO orders VALUES (:1, :2)",
                    [(i, d if isinstance(d, str) or d is None else json.dumps(d)) for i, d in ORDERS])
    connection.commit()
    yield connection
    connection.close()


def rows(conn, sql: str, binds=None) -> list[tuple]:
    return run(conn, sql, binds)


def fails(conn, sql: str, code: str) -> str:
    with pytest.raises(oracledb.DatabaseError) as info:
        rows(conn, sql)
    error = info.value.args[0]
    assert error.full_code == code, error.message
    return error.message


# --------------------------------------------------------------------------- rows from the row path

def test_each_match_of_the_row_path_is_a_row_and_lax_reads_a_lone_object_as_one_item(conn) -> None:
    """The row path's matches are the rows; in lax mode ``[*]`` on an object (order 2's items) is that object."""
    got = rows(conn, "SELECT o.id, jt.sku, jt.qty FROM orders o, "
                     "JSON_TABLE(o.doc, '$.items[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku', qty NUMBER PATH '$.qty')) jt "
                     "ORDER BY o.id, jt.sku")
    assert got == [(1, "X", 2), (1, "Y", 3), (2, "Z", 1)]   # "3" converts to NUMBER; order 3 has no items


def test_a_null_document_and_one_that_is_not_json_give_no_rows_unless_error_on_error(conn) -> None:
    """NULL ON ERROR (the default) gives no rows for a document that is not JSON; ERROR ON ERROR raises ORA-40441."""
    assert rows(conn, "SELECT jt.po FROM orders o, JSON_TABLE(o.doc, '$' COLUMNS (po PATH '$.po')) jt "
                      "WHERE o.id IN (4, 5)") == []
    fails(conn, "SELECT jt.po FROM orders o, JSON_TABLE(o.doc, '$' ERROR ON ERROR COLUMNS (po PATH '$.po')) jt "
                "WHERE o.id = 5", "ORA-40441")


def test_a_bind_and_a_literal_can_be_the_document(conn) -> None:
    assert rows(conn, "SELECT v FROM JSON_TABLE(:d, '$[*]' COLUMNS (v NUMBER PATH '$'))", {"d": "[3, 4.5]"}) \
        == [(3,), (4.5,)]
    assert rows(conn, "SELECT jt.a FROM JSON_TABLE('[{\"a\":1},{\"a\":2}]', '$[*]' COLUMNS (a NUMBER PATH '$.a')) jt") \
        == [(1,), (2,)]


# --------------------------------------------------------------------------- NESTED PATH and FOR ORDINALITY

def test_nested_path_is_an_outer_join_and_ordinality_restarts_for_each_parent(conn) -> None:
    """A NESTED PATH's rows join their parent row; a parent whose nested path matches nothing keeps one row
    with NULLs there; FOR ORDINALITY numbers the rows of its own level from 1 (per parent, when nested)."""
    got = rows(conn, """
        SELECT o.id, jt.*
        FROM   orders o,
               JSON_TABLE(o.doc, '$' COLUMNS (
                 po VARCHAR2(5) PATH '$.po',
                 NESTED PATH '$.items[*]' COLUMNS (
                   line FOR ORDINALITY,
                   sku VARCHAR2(5) PATH '$.sku',
                   NESTED PATH '$.tags[*]' COLUMNS (tag_no FOR ORDINALITY, tag VARCHAR2(10) PATH '$')))) jt
        ORDER BY o.id, jt.line, jt.tag_no""")
    assert got == [(1, "A1", 1, "X", 1, "red"), (1, "A1", 1, "X", 2, "big"), (1, "A1", 2, "Y", None, None),
                   (2, "B2", 1, "Z", None, None), (3, "C3", None, None, None, None)]


def test_sibling_nested_paths_are_a_union(conn) -> None:
    """Sibling NESTED clauses: each sibling's rows carry NULL in the other siblings' columns."""
    got = rows(conn, """
        SELECT n, tag FROM JSON_TABLE('{"nums": [1, 2], "tags": ["a"]}', '$' COLUMNS (
                 NESTED PATH '$.nums[*]' COLUMNS (n NUMBER PATH '$'),
                 NESTED PATH '$.tags[*]' COLUMNS (tag VARCHAR2(5) PATH '$')))""")
    assert got == [(1, None), (2, None), (None, "a")]


def test_the_sample_schemas_nested_form_without_path_and_with_dot_notation(conn) -> None:
    """``NESTED items[*] COLUMNS (...)`` and ``PATH a.b`` are Oracle's simplified syntax for '$.items[*]' and
    '$.a.b'; a column without PATH reads the field named as the column is written."""
    got = rows(conn, """
        SELECT jt.* FROM JSON_TABLE('{"Info": {"Code": 7}, "LineItems": [{"ItemNumber": 1}, {"ItemNumber": 2}]}',
               '$' COLUMNS (code NUMBER PATH Info.Code, NESTED LineItems[*] COLUMNS (ItemNumber NUMBER))) jt""")
    assert got == [(7, 1), (7, 2)]
    assert rows(conn, "SELECT \"Special Instructions\" FROM JSON_TABLE('{\"Special Instructions\": \"fragile\"}', "
                      "'$' COLUMNS (\"Special Instructions\"))") == [("fragile",)]


# --------------------------------------------------------------------------- column kinds and types

def test_exists_columns_are_true_or_false_text_or_one_and_zero_as_number(conn) -> None:
    got = rows(conn, "SELECT o.id, jt.has_note, jt.note_flag FROM orders o, JSON_TABLE(o.doc, '$' COLUMNS ("
                     "has_note EXISTS PATH '$.note', note_flag NUMBER EXISTS PATH '$.note')) jt ORDER BY o.id")
    assert got == [(1, "true", 1), (2, "false", 0), (3, "false", 0)]


def test_format_json_columns_give_objects_and_arrays_as_json_text(conn) -> None:
    """FORMAT JSON reads as JSON_QUERY: an object or array as JSON text, a scalar NULL unless a wrapper
    gathers the matches (CONDITIONAL: unless the one match is an object or array)."""
    got = rows(conn, """
        SELECT jt.* FROM JSON_TABLE('{"a": {"b": 1}, "s": "x", "l": [1, 2]}', '$' COLUMNS (
                 a VARCHAR2(100) FORMAT JSON PATH '$.a',
                 s VARCHAR2(100) FORMAT JSON PATH '$.s',
                 sw VARCHAR2(100) FORMAT JSON WITH WRAPPER PATH '$.s',
                 lw VARCHAR2(100) FORMAT JSON WITH WRAPPER PATH '$.l[*]',
                 lc VARCHAR2(100) FORMAT JSON WITH CONDITIONAL WRAPPER PATH '$.l')) jt""")
    assert got == [('{"b":1}', None, '["x"]', "[1,2]", "[1,2]")]


def test_values_convert_to_the_column_type(conn) -> None:
    """NUMBER reads numbers and numeric text (rounded to the declared scale); VARCHAR2 writes numbers and
    booleans as text; the default type is VARCHAR2(4000); an empty string is NULL."""
    got = rows(conn, """
        SELECT jt.* FROM JSON_TABLE('{"n": "12.345", "f": 1.5, "i": 2.0, "b": true, "e": "", "r": 2.5}', '$' COLUMNS (
                 n NUMBER(4,1) PATH '$.n', f PATH '$.f', i PATH '$.i', b PATH '$.b', e PATH '$.e',
                 r INTEGER PATH '$.r')) jt""")
    assert got == [(12.3, "1.5", "2", "true", None, 3)]


def test_dates_are_iso_8601_text_and_a_date_drops_its_time_unless_preserve_time(conn) -> None:
    import datetime as dt

    got = rows(conn, "SELECT jt.* FROM orders o, JSON_TABLE(o.doc, '$' COLUMNS ("
                     "d DATE PATH '$.placed', dp DATE PRESERVE TIME PATH '$.placed', ts TIMESTAMP PATH '$.placed')) jt "
                     "WHERE o.id = 1")
    assert got == [(dt.datetime(2025, 3, 4), dt.datetime(2025, 3, 4, 10, 30), dt.datetime(2025, 3, 4, 10, 30))]
    assert rows(conn, "SELECT ts FROM JSON_TABLE('{\"t\": \"2025-01-01T12:00:00Z\"}', '$' COLUMNS "
                      "(ts TIMESTAMP PATH '$.t'))") == [(dt.datetime(2025, 1, 1, 12, 0),)]
    assert rows(conn, "SELECT d, ts FROM JSON_TABLE('{\"t\": \"2025-01-01T12:00:00.75\"}', '$' COLUMNS "
                      "(d DATE PRESERVE TIME PATH '$.t', ts TIMESTAMP PATH '$.t'))") == [
        (dt.datetime(2025, 1, 1, 12, 0), dt.datetime(2025, 1, 1, 12, 0, 0, 750000))]   # a DATE has no fraction
    assert rows(conn, "SELECT COUNT(*) FROM orders o, JSON_TABLE(o.doc, '$' COLUMNS (d DATE PATH '$.placed')) jt "
                      "WHERE jt.d >= DATE '2025-03-05'") == [(1,)]


def test_description_types_follow_the_columns(conn) -> None:
    cur = conn.cursor()
    cur.execute("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (n FOR ORDINALITY, a NUMBER PATH '$.a', "
                "b PATH '$.b', d DATE PATH '$.d'))")
    assert [(d[0], d[1]) for d in cur.description] == [
        ("N", oracledb.DB_TYPE_NUMBER), ("A", oracledb.DB_TYPE_NUMBER), ("B", oracledb.DB_TYPE_VARCHAR),
        ("D", oracledb.DB_TYPE_DATE)]


# --------------------------------------------------------------------------- ON EMPTY and ON ERROR

ONE_TWO_THREE = """json_table ('[
  [1, "one"  , "B"],
  [2, "two"  , "C"],
  [3, "three", "D"],
  [4, "four" , "E"],
]', '$[*]' {table} columns (id number (1) path '$[0]', num varchar2(4) path '$[1]' {column}, meta varchar2(3) path '$[2]'))"""


def test_a_value_too_long_for_its_column_is_null_by_default_and_an_error_when_asked(conn) -> None:
    """Oracle's published output for this statement (lax JSON, with its trailing comma): "three" does not fit
    VARCHAR2(4), so that one value is NULL; ERROR ON ERROR on the table or the column makes it ORA-40478."""
    assert rows(conn, "SELECT * FROM " + ONE_TWO_THREE.format(table="", column="")) == [
        (1, "one", "B"), (2, "two", "C"), (3, None, "D"), (4, "four", "E")]
    for table, column in (("ERROR ON ERROR", ""), ("", "ERROR ON ERROR")):
        message = fails(conn, "SELECT * FROM " + ONE_TWO_THREE.format(table=table, column=column), "ORA-40478")
        assert "maximum: 4" in message


def test_on_empty_and_on_error_defaults_and_errors(conn) -> None:
    got = rows(conn, """
        SELECT jt.* FROM JSON_TABLE('{"a": "x", "o": {"k": 1}}', '$' COLUMNS (
                 missing VARCHAR2(10) PATH '$.nope' DEFAULT 'none' ON EMPTY,
                 bad NUMBER PATH '$.a' DEFAULT -1 ON ERROR,
                 obj VARCHAR2(10) PATH '$.o',
                 obj_default VARCHAR2(10) PATH '$.o' DEFAULT 'object' ON ERROR,
                 fj VARCHAR2(10) FORMAT JSON PATH '$.nope' EMPTY ARRAY ON EMPTY)) jt""")
    assert got == [("none", -1, None, "object", "[]")]
    fails(conn, "SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a PATH '$.a' ERROR ON EMPTY))", "ORA-40462")
    fails(conn, "SELECT * FROM JSON_TABLE('{\"o\": {}}', '$' COLUMNS (a PATH '$.o' ERROR ON ERROR))", "ORA-40456")
    fails(conn, "SELECT * FROM JSON_TABLE('{\"a\": [1, 2]}', '$' COLUMNS (a PATH '$.a[*]' ERROR ON ERROR))",
          "ORA-40470")
    fails(conn, "SELECT * FROM JSON_TABLE('{\"a\": \"x\"}', '$' ERROR ON ERROR COLUMNS (a NUMBER PATH '$.a'))",
          "ORA-01722")


def test_the_table_s_on_error_and_on_empty_are_the_columns_defaults(conn) -> None:
    assert rows(conn, "SELECT * FROM JSON_TABLE('{}', '$' NULL ON EMPTY COLUMNS (a PATH '$.a'))") == [(None,)]
    fails(conn, "SELECT * FROM JSON_TABLE('{}', '$' ERROR ON ERROR ERROR ON EMPTY COLUMNS (a PATH '$.a'))",
          "ORA-40462")
    assert rows(conn, "SELECT * FROM JSON_TABLE('{}', '$' ERROR ON EMPTY COLUMNS (a PATH '$.a' NULL ON EMPTY))") \
        == [(None,)]


def test_the_json_developer_s_guide_forms(conn) -> None:
    """As the guide writes them: no row path (it is '$'), columns without PATH or type, dot-notation NESTED
    paths, and ``AS "JT"`` after the JSON_TABLE (Oracle takes AS there, not before a table's alias)."""
    doc = {"id": 1, "name": "Ann", "orders": [{"status": "open", "lineitems": [{"quantity": 2, "price": 1.5}]}]}
    got = rows(conn, "SELECT c.* FROM JSON_TABLE(:d COLUMNS (id, name, NESTED orders[*] COLUMNS (status, "
                     "NESTED lineitems[*] COLUMNS (quantity NUMBER, price NUMBER)))) AS \"JT\", dual, "
                     "JSON_TABLE(:d COLUMNS (name)) c", {"d": json.dumps(doc)})
    assert got == [("Ann",)]
    assert rows(conn, "SELECT jt.* FROM JSON_TABLE(:d COLUMNS (id, name, NESTED orders[*] COLUMNS (status, "
                      "NESTED lineitems[*] COLUMNS (quantity NUMBER, price NUMBER)))) AS \"JT\"",
                {"d": json.dumps(doc)}) == [("1", "Ann", "open", 2, 1.5)]
    fails(conn, "SELECT o.id FROM orders AS o", "ORA-00933")


# --------------------------------------------------------------------------- in queries, views and writes

def test_json_table_columns_work_everywhere_a_column_does(conn) -> None:
    got = rows(conn, """
        SELECT sku, SUM(qty * price) total
        FROM   orders o, JSON_TABLE(o.doc, '$.items[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku',
                                                             qty NUMBER PATH '$.qty', price NUMBER PATH '$.price'))
        WHERE  qty > 0
        GROUP  BY sku
        HAVING SUM(qty) >= 1
        ORDER  BY total DESC""")
    assert got == [("Z", 99.99), ("Y", 30), ("X", 3)]


def test_an_outer_join_keeps_rows_whose_document_has_no_match(conn) -> None:
    got = rows(conn, "SELECT o.id, jt.sku FROM orders o LEFT OUTER JOIN JSON_TABLE(o.doc, '$.items[*]' "
                     "COLUMNS (sku VARCHAR2(5) PATH '$.sku')) jt ON 1 = 1 ORDER BY o.id, jt.sku")
    assert got == [(1, "X"), (1, "Y"), (2, "Z"), (3, None), (4, None), (5, None)]


def test_a_second_json_table_reads_the_first_ones_json_column(conn) -> None:
    got = rows(conn, """
        SELECT items.sku, tags.tag
        FROM   orders o,
               JSON_TABLE(o.doc, '$.items[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku',
                                                      tags VARCHAR2(200) FORMAT JSON PATH '$.tags')) items,
               JSON_TABLE(items.tags, '$[*]' COLUMNS (tag VARCHAR2(10) PATH '$')) tags
        ORDER  BY 1, 2""")
    assert got == [("X", "big"), ("X", "red")]


def test_a_view_over_json_table_and_insert_select_and_ctas_from_it(conn) -> None:
    rows(conn, "CREATE OR REPLACE VIEW order_lines AS SELECT o.id, jt.sku, jt.qty FROM orders o, "
               "JSON_TABLE(o.doc, '$.items[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku', qty NUMBER PATH '$.qty')) jt")
    try:
        assert rows(conn, "SELECT sku, qty FROM order_lines WHERE id = 1 ORDER BY sku") == [("X", 2), ("Y", 3)]
        rows(conn, "CREATE TABLE lines AS SELECT * FROM order_lines")
        assert rows(conn, "SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'LINES' "
                          "ORDER BY column_id") == [("ID", "NUMBER"), ("SKU", "VARCHAR2"), ("QTY", "NUMBER")]
        rows(conn, "INSERT INTO lines SELECT 9, jt.sku, jt.qty FROM JSON_TABLE('[{\"sku\": \"N\", \"qty\": 4}]', "
                   "'$[*]' COLUMNS (sku VARCHAR2(5) PATH '$.sku', qty NUMBER PATH '$.qty')) jt")
        assert rows(conn, "SELECT COUNT(*), SUM(qty) FROM lines") == [(4, 10)]
    finally:
        conn.rollback()
        for statement in ("DROP TABLE lines", "DROP VIEW order_lines"):
            try:
                rows(conn, statement)
            except oracledb.DatabaseError:
                pass


def test_bare_names_mean_the_query_s_columns_never_json_each_s_own(conn) -> None:
    """lite reads the rows through SQLite's json_each, which has columns of its own (id, key, value, type,
    path, ...): a bare ID is still the table's, and a name no FROM item has is ORA-00904, as in Oracle."""
    rows(conn, "CREATE TABLE kinds (id NUMBER, type VARCHAR2(5), doc VARCHAR2(100))")
    try:
        rows(conn, "INSERT INTO kinds VALUES (7, 'k', '[1, 2]')")
        assert rows(conn, "SELECT id, type, v FROM kinds, JSON_TABLE(doc, '$[*]' COLUMNS (v NUMBER PATH '$')) "
                          "ORDER BY v DESC") == [(7, "k", 2), (7, "k", 1)]
        assert rows(conn, "SELECT v AS id FROM kinds, JSON_TABLE(doc, '$[*]' COLUMNS (v NUMBER PATH '$')) "
                          "ORDER BY id DESC") == [(2,), (1,)]
        assert fails(conn, "SELECT path FROM kinds, JSON_TABLE(doc, '$[*]' COLUMNS (v NUMBER PATH '$'))",
                     "ORA-00904").endswith('"PATH": invalid identifier')
    finally:
        conn.rollback()
        rows(conn, "DROP TABLE kinds")


def test_a_nearest_rows_search_unnests_its_rows_tags(conn) -> None:
    """A vector search ordered by VECTOR_DISTANCE with FETCH FIRST, over a table joined to JSON_TABLE, gives
    the rows brute force gives (lite's pruned search must see the JSON_TABLE rows of every candidate)."""
    rows(conn, "CREATE TABLE notes (id NUMBER, v VECTOR(2, FLOAT32), meta JSON)")
    try:
        cur = conn.cursor()
        cur.executemany("INSERT INTO notes VALUES (:1, TO_VECTOR(:2), :3)",
                        [(i, f"[{i % 7}, {i % 3 + 1}]", json.dumps({"tags": [f"t{i % 2}", f"u{i % 3}"]}))
                         for i in range(60)])
        got = rows(conn, "SELECT n.id, jt.tag FROM notes n, JSON_TABLE(n.meta, '$.tags[*]' COLUMNS "
                         "(tag VARCHAR2(5) PATH '$')) jt ORDER BY VECTOR_DISTANCE(n.v, TO_VECTOR('[1, 3]'), "
                         "EUCLIDEAN), n.id, jt.tag FETCH FIRST 5 ROWS ONLY")
        by_distance = sorted(range(60), key=lambda i: ((i % 7 - 1) ** 2 + (i % 3 + 1 - 3) ** 2, i))
        assert got == [(i, t) for i in by_distance for t in sorted([f"t{i % 2}", f"u{i % 3}"])][:5]
    finally:
        conn.rollback()
        rows(conn, "DROP TABLE notes")


# --------------------------------------------------------------------------- what Oracle refuses, and lite

@pytest.mark.parametrize("sql, code, fragment", [
    ("SELECT jt.nope FROM orders o, JSON_TABLE(o.doc, '$' COLUMNS (po PATH '$.po')) jt", "ORA-00904", '"JT"."NOPE"'),
    ("SELECT id FROM orders o, JSON_TABLE(o.doc, '$' COLUMNS (id NUMBER PATH '$.id'))", "ORA-00918", "ID"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a PATH '$.a', NESTED PATH '$.b' COLUMNS (a PATH '$.c')))",
     "ORA-00957", "A in JSON_TABLE"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (i FOR ORDINALITY, j FOR ORDINALITY))", "ORA-00933",
     "FOR ORDINALITY"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a PATH $.a))", "ORA-00933", ""),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a RAW(16) PATH '$.a'))", "ORA-03001", "of type RAW(16)"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a BINARY_DOUBLE PATH '$.a'))", "ORA-03001", "BINARY_DOUBLE"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a BOOLEAN PATH '$.a'))", "ORA-03001", "BOOLEAN"),
    ("SELECT * FROM JSON_TABLE('[1]', '$..*' COLUMNS (a PATH '$'))", "ORA-03001", "descendant steps"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a PATH '$.a.date()'))", "ORA-03001", "date()"),
    ("SELECT * FROM JSON_TABLE('{}', '$' COLUMNS (a PATH '$.a?(@ >)'))", "ORA-40442", "syntax error"),
])
def test_mistakes_and_what_lite_lacks_are_named(conn, sql: str, code: str, fragment: str) -> None:
    assert fragment in fails(conn, sql, code)
