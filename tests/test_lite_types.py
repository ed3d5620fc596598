"""Values come back from lite as python-oracledb returns them, whatever produced them, and survive reopening.

python-oracledb returns NUMBER as int/float, VARCHAR2/CHAR/CLOB as str, DATE and
TIMESTAMP as datetime, INTERVAL DAY TO SECOND as timedelta, JSON as dict/list,
VECTOR as array.array and SDO_GEOMETRY as an object with attributes. These
tests write every type through binds and through SQL, read it back directly,
through expressions (COALESCE, CASE, NVL, CTEs, window functions, a FULL OUTER
JOIN of CTEs as in the workshop's hybrid search), from a new connection on the
same WORKSHOP_HOME, and check ``cursor.description``.
"""

from __future__ import annotations

import array
import datetime as dt
from decimal import Decimal
from pathlib import Path

import numpy as np
import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

DDL = """CREATE TABLE typed (
  id        NUMBER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  label     VARCHAR2(40),
  code      CHAR(3),
  amount    NUMBER(10,2),
  quantity  NUMBER(12),
  ratio     BINARY_DOUBLE,
  day       DATE,
  stamp     TIMESTAMP(6),
  body      CLOB,
  doc       JSON,
  v32       VECTOR(3, FLOAT32),
  v64       VECTOR(3, FLOAT64),
  place     SDO_GEOMETRY
)"""
INSERT = ("INSERT INTO typed (label, code, amount, quantity, ratio, day, stamp, body, doc, v32, v64, place) "
          "VALUES (:label, :code, :amount, :quantity, :ratio, :day, :stamp, :body, :doc, :v32, :v64, "
          "SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(:lon, :lat, NULL), NULL, NULL))")
ROWS = [
    {"label": "first", "code": "ABC", "amount": 12.5, "quantity": 10**11, "ratio": 0.25,
     "day": dt.datetime(2025, 11, 1, 13, 45, 7), "stamp": dt.datetime(2025, 11, 1, 13, 45, 7, 123456),
     "body": "long text " * 50, "doc": {"kind": "column", "tags": ["a", "b"], "n": 3},
     "v32": array.array("f", [1.0, 0.5, 0.25]), "v64": [0.1, 0.2, 0.3], "lon": 103.84, "lat": 1.26},
    {"label": "second", "code": "XYZ", "amount": Decimal("7"), "quantity": 3, "ratio": 2.0,
     "day": dt.date(2024, 2, 29), "stamp": dt.datetime(2024, 2, 29, 0, 0, 1),
     "body": "short", "doc": [1, 2, {"deep": True}],
     "v32": np.array([0.0, 1.0, 0.0], dtype=np.float32), "v64": array.array("d", [1.0, 2.0, 3.0]),
     "lon": 4.14, "lat": 51.95},
]
SELECT_ALL = ("SELECT id, label, code, amount, quantity, ratio, day, stamp, body, doc, v32, v64, place "
              "FROM typed ORDER BY id")


def _insert(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute(DDL)
        cur.executemany(INSERT, ROWS)
        cur.execute("INSERT INTO typed (label) VALUES (NULL)")
    conn.commit()


def _check_row(row: tuple, source: dict) -> None:
    (id_, label, code, amount, quantity, ratio, day, stamp, body, doc, v32, v64, place) = row
    assert isinstance(id_, int)
    assert label == source["label"] and code == source["code"] and body == source["body"]
    assert amount == float(source["amount"])
    assert type(amount) is (int if float(source["amount"]).is_integer() else float)
    assert quantity == source["quantity"] and type(quantity) is int
    assert ratio == source["ratio"] and type(ratio) is float  # BINARY_DOUBLE is always a float
    want_day = source["day"] if isinstance(source["day"], dt.datetime) else dt.datetime.combine(
        source["day"], dt.time())
    assert day == want_day and type(day) is dt.datetime
    assert stamp == source["stamp"] and type(stamp) is dt.datetime
    assert doc == source["doc"] and type(doc) is type(source["doc"])
    assert isinstance(v32, array.array) and v32.typecode == "f"
    assert list(v32) == pytest.approx(list(np.asarray(source["v32"], dtype=np.float32)))
    assert isinstance(v64, array.array) and v64.typecode == "d" and list(v64) == list(source["v64"])
    assert (place.SDO_POINT.X, place.SDO_POINT.Y) == (source["lon"], source["lat"])


@pytest.fixture()
def conn(tmp_path: Path) -> LiteConnection:
    connection = connect(tmp_path, "AGENT")
    _insert(connection)
    yield connection
    connection.close()


def test_every_type_round_trips(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute(SELECT_ALL)
        rows = cur.fetchall()
    for row, source in zip(rows, ROWS):
        _check_row(row, source)
    assert rows[2][1:] == (None,) * 12  # NULL of every type is None


def test_types_survive_reopening_the_connection(conn: LiteConnection, tmp_path: Path) -> None:
    conn.close()
    reopened = connect(tmp_path, "AGENT")
    with reopened.cursor() as cur:
        cur.execute(SELECT_ALL)
        rows = cur.fetchall()
        for row, source in zip(rows, ROWS):
            _check_row(row, source)
        cur.execute("INSERT INTO typed (label) VALUES ('after reopen')")  # the identity carries on
        cur.execute("SELECT MAX(id) FROM typed")
        assert cur.fetchone() == (len(ROWS) + 2,)
        cur.execute("SELECT data_type FROM user_tab_columns WHERE table_name = 'TYPED' ORDER BY column_id")
        assert [r[0] for r in cur.fetchall()] == [
            "NUMBER", "VARCHAR2", "CHAR", "NUMBER", "NUMBER", "BINARY_DOUBLE", "DATE", "TIMESTAMP(6)", "CLOB",
            "JSON", "VECTOR", "VECTOR", "SDO_GEOMETRY"]
    reopened.close()


def test_description_type_codes(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute(SELECT_ALL)
        codes = [d[1] for d in cur.description]
    assert codes == [oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_CHAR,
                     oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_BINARY_DOUBLE,
                     oracledb.DB_TYPE_DATE, oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_CLOB,
                     oracledb.DB_TYPE_JSON, oracledb.DB_TYPE_VECTOR, oracledb.DB_TYPE_VECTOR,
                     oracledb.DB_TYPE_OBJECT]


def test_types_survive_expressions_and_ctes(conn: LiteConnection) -> None:
    sql = """WITH a AS (SELECT id, doc, stamp, v32 FROM typed WHERE id = 1),
                  b AS (SELECT id, doc, day FROM typed WHERE id IN (1, 2))
             SELECT NVL(a.id, b.id) AS id,
                    COALESCE(a.doc, b.doc) AS doc,
                    CASE WHEN a.stamp IS NULL THEN CAST(b.day AS TIMESTAMP) ELSE a.stamp END AS seen,
                    NVL(a.v32, TO_VECTOR('[0, 0, 1]')) AS vec,
                    FIRST_VALUE(b.day) OVER (ORDER BY b.id) AS first_day,
                    MAX(b.day) OVER () AS last_day
             FROM a FULL OUTER JOIN b ON b.id = a.id
             ORDER BY 1"""
    with conn.cursor() as cur:
        cur.execute(sql)
        rows = cur.fetchall()
    assert [r[0] for r in rows] == [1, 2]
    assert rows[0][1] == ROWS[0]["doc"] and rows[1][1] == ROWS[1]["doc"]
    assert rows[0][2] == ROWS[0]["stamp"] and rows[1][2] == dt.datetime(2024, 2, 29)
    assert list(rows[0][3]) == [1.0, 0.5, 0.25] and list(rows[1][3]) == [0.0, 0.0, 1.0]
    assert all(isinstance(r[3], array.array) for r in rows)
    assert rows[0][4] == rows[1][4] == ROWS[0]["day"]
    assert rows[0][5] == ROWS[0]["day"]


def test_equal_instants_compare_equal_whatever_produced_them(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("INSERT INTO typed (label, day, stamp) VALUES ('noon', TO_DATE('2025-03-01 12:00:00', "
                    "'YYYY-MM-DD HH24:MI:SS'), TIMESTAMP '2025-03-01 12:00:00')")
        for where, binds in [
            ("day = TO_DATE('2025-03-01 12:00', 'YYYY-MM-DD HH24:MI')", {}),
            ("day = :d", {"d": dt.datetime(2025, 3, 1, 12)}),
            ("stamp = :d", {"d": dt.datetime(2025, 3, 1, 12)}),
            ("stamp = day", {}),
            ("TRUNC(day) = DATE '2025-03-01'", {}),
            ("stamp = TO_TIMESTAMP('2025-03-01 12:00:00.000', 'YYYY-MM-DD HH24:MI:SS.FF3')", {}),
            ("day BETWEEN DATE '2025-03-01' AND DATE '2025-03-02'", {}),
            ("day > DATE '2025-03-01' - 1 AND day < DATE '2025-03-01' + 1", {}),
        ]:
            cur.execute(f"SELECT label FROM typed WHERE {where}", binds)
            assert cur.fetchall() == [("noon",)], where


def test_date_arithmetic_types(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("""SELECT day + 1, day - 0.5, stamp + INTERVAL '90' MINUTE, stamp - day,
                              DATE '2025-01-31' - DATE '2025-01-01', ADD_MONTHS(DATE '2025-01-31', 1),
                              EXTRACT(MONTH FROM stamp), TO_CHAR(stamp, 'DD Mon YYYY HH24:MI:SS.FF3')
                       FROM typed WHERE id = 1""")
        (next_day, half_back, later, gap, days, month_end, month, text), = cur.fetchall()
    day, stamp = ROWS[0]["day"], ROWS[0]["stamp"]
    assert next_day == day + dt.timedelta(days=1)
    assert half_back == day - dt.timedelta(hours=12)
    assert later == stamp + dt.timedelta(minutes=90)
    assert gap == stamp - day and isinstance(gap, dt.timedelta)  # TIMESTAMP - DATE is an INTERVAL
    assert days == 30 and type(days) is int
    assert month_end == dt.datetime(2025, 2, 28)
    assert month == 11
    assert text == "01 Nov 2025 13:45:07.123"


def test_binds_of_every_supported_python_type(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("SELECT :i, :f, :s, :d, :n FROM dual", i=7, f=2.5, s="x", d=Decimal("1.25"), n=None)
        assert cur.fetchone() == (7, 2.5, "x", 1.25, None)
        cur.execute("SELECT COUNT(*) FROM typed WHERE label = :empty", empty="")  # '' binds as NULL
        assert cur.fetchone() == (0,)
        cur.execute("UPDATE typed SET doc = :doc, v32 = :vec WHERE id = 2",
                    doc={"nested": {"list": [1, 2.5, None]}}, vec=[0.5, 0.5, 0.5])
        cur.execute("SELECT doc, v32 FROM typed WHERE id = 2")
        doc, vec = cur.fetchone()
        assert doc == {"nested": {"list": [1, 2.5, None]}} and list(vec) == [0.5, 0.5, 0.5]
        with pytest.raises(oracledb.DatabaseError, match="ORA-03115"):
            cur.execute("SELECT :x FROM dual", x=object())


@pytest.mark.parametrize("sql, binds, code", [
    ("UPDATE typed SET doc = :d WHERE id = 1", {"d": "{not json"}, 40441),
    ("UPDATE typed SET v32 = :v WHERE id = 1", {"v": [1.0, 2.0]}, 51803),
    ("UPDATE typed SET v64 = TO_VECTOR('[1, 2, 3, 4]') WHERE id = 1", {}, 51803),
    ("UPDATE typed SET day = '2025-01-01' WHERE id = 1", {}, 1843),
    ("SELECT TO_DATE('31-02-2025', 'DD-MM-YYYY') FROM dual", {}, 1847),
    ("SELECT TO_NUMBER('12a') FROM dual", {}, 1722),
])
def test_values_oracle_would_refuse(conn: LiteConnection, sql: str, binds: dict, code: int) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        with conn.cursor() as cur:
            cur.execute(sql, binds or None)
            cur.fetchall()
    assert info.value.args[0].code == code, str(info.value)


def test_vector_formats_follow_the_column(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("UPDATE typed SET v64 = :v WHERE id = 1", v=array.array("f", [0.5, 0.25, 0.125]))
        cur.execute("SELECT v64, TO_VECTOR('[1, 2]'), TO_VECTOR('[1, 2]', 2, FLOAT64) FROM typed WHERE id = 1")
        v64, default, explicit = cur.fetchone()
    assert v64.typecode == "d" and list(v64) == [0.5, 0.25, 0.125]
    assert default.typecode == "f" and explicit.typecode == "d"


def test_number_results(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*), SUM(amount), AVG(quantity), 10 / 4, 10 / 5, ROUND(2.567, 2), "
                    "MAX(JSON_VALUE(doc, '$.n' RETURNING NUMBER)), MAX(JSON_VALUE(doc, '$.n')) FROM typed WHERE id = 1")
        row = cur.fetchone()
    assert row == (1, 12.5, 10**11, 2.5, 2, 2.57, 3, "3")
    assert [type(v) for v in row] == [int, float, int, float, int, float, int, str]


def test_values_written_by_insert_select_are_stored_like_binds(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("INSERT INTO typed (label, day, stamp, doc) SELECT 'copy', stamp, day, doc FROM typed WHERE id = 1")
        cur.execute("SELECT day, stamp, doc FROM typed WHERE label = 'copy'")
        day, stamp, doc = cur.fetchone()
        assert day == ROWS[0]["stamp"].replace(microsecond=0)  # a DATE drops the fractional seconds
        assert stamp == ROWS[0]["day"] and doc == ROWS[0]["doc"]
        cur.execute("SELECT COUNT(*) FROM typed WHERE day = :d", d=ROWS[0]["day"])
        assert cur.fetchone() == (2,)
        with pytest.raises(oracledb.DatabaseError, match="ORA-01843"):
            cur.execute("INSERT INTO typed (label, day) SELECT 'bad', '2025-01-01' FROM dual")


def test_varchar2_lengths_count_bytes_unless_declared_in_characters(tmp_path) -> None:
    """Oracle's default BYTE semantics: 'İstanbul' (8 characters, 9 UTF-8 bytes) fits VARCHAR2(8 CHAR) only."""
    from workshop_lib.backends.lite import connect_lite

    conn = connect_lite(tmp_path / "lite")
    cur = conn.cursor()
    cur.execute("CREATE TABLE cities (b VARCHAR2(8), c VARCHAR2(8 CHAR), x VARCHAR2(8 BYTE))")
    assert len("İstanbul") == 8 and len("İstanbul".encode("utf-8")) == 9
    for column in ("b", "x"):
        for sql, binds in ((f"INSERT INTO cities ({column}) VALUES ('İstanbul')", {}),
                           (f"INSERT INTO cities ({column}) VALUES (:v)", {"v": "İstanbul"})):
            with pytest.raises(Exception, match=r"ORA-12899.*actual: 9, maximum: 8"):
                cur.execute(sql, **binds)
        cur.execute(f"INSERT INTO cities ({column}) VALUES ('Istanbul')")
    cur.execute("INSERT INTO cities (c) VALUES ('İstanbul')")
    cur.execute("INSERT INTO cities (c) VALUES (:v)", v="İstanbul")
    cur.execute("SELECT column_name, data_length, char_length, char_used FROM user_tab_columns "
                "WHERE table_name = 'CITIES' ORDER BY column_id")
    assert cur.fetchall() == [("B", 8, 8, "B"), ("C", 32, 8, "C"), ("X", 8, 8, "B")]
    conn.close()


def test_numbers_beyond_28_digits_round_into_number_columns(tmp_path) -> None:
    """1e20 into NUMBER(38, 10) needs 31 digits at that scale: stored, not a Decimal InvalidOperation."""
    from workshop_lib.backends.lite import connect_lite

    conn = connect_lite(tmp_path / "lite")
    cur = conn.cursor()
    cur.execute("CREATE TABLE wide (x NUMBER(38, 10))")
    cur.execute("INSERT INTO wide VALUES (1e20)")
    cur.execute("INSERT INTO wide VALUES (:v)", v=123456789012345678.123456789)
    cur.execute("SELECT x FROM wide ORDER BY x")
    assert [row[0] for row in cur.fetchall()] == [123456789012345678.123456789, 10**20]
    conn.close()
