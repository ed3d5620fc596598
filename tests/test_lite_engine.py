"""The lite engine's corpus: Oracle statements that must run on lite and return correct, correctly typed results.

A small SUPPLYCHAIN-like schema is built once per module with Oracle DDL (every
type the workshop uses, identity columns, PK/FK/UNIQUE/CHECK constraints,
comments, Oracle Text and vector indexes) and filled from the Python lists
below; every expected result is recomputed from those lists in the test, never
copied from lite's output. Statements that change data run on their own fresh
database. The last part checks that every corpus statement is Oracle SQL the
workshop's dialect reads, renders back and reads again unchanged.
"""

from __future__ import annotations

import array
import datetime as dt
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import oracledb
import pytest
import sqlglot
from sqlglot import exp

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection, guard
from workshop_lib.lite.dialect import Oracle
from workshop_lib.lite.errors import LiteDatabaseError

# --------------------------------------------------------------------------- the data, in Python

CARRIERS = [  # scac, name, founded, profile (JSON), notes (CLOB)
    ("MAEU", "Maersk", dt.datetime(1904, 4, 16), {"hq": "Copenhagen", "alliance": "GEMINI", "fleet": 700},
     "Danish integrated container logistics company with a large fleet of container vessels"),
    ("MSCU", "MSC", dt.datetime(1970, 10, 1), {"hq": "Geneva", "alliance": None, "fleet": 800},
     "Largest container shipping line by capacity, family owned, based in Geneva"),
    ("CMDU", "CMA CGM", dt.datetime(1978, 1, 1), {"hq": "Marseille", "alliance": "OCEAN", "fleet": 650, "tags": ["lng"]},
     None),
    ("HLCU", "Hapag-Lloyd", dt.datetime(1970, 9, 1), None, "German carrier; no vessels in this small test fleet"),
]
# vessel_id, carrier_id (identity order of CARRIERS), name, capacity_teu, built, embedding, lon, lat, specs
VESSELS = [
    (1, 1, "Emma Maersk", 15550, dt.datetime(2006, 8, 12, 10, 30), [1.0, 0.0, 0.0], 103.85, 1.26, {"flag": "DK", "engines": 1}),
    (2, 1, "Madrid Maersk", 20568, dt.datetime(2017, 4, 1, 8, 0), [0.9, 0.1, 0.0], 4.40, 51.90, {"flag": "DK"}),
    (3, 2, "MSC Gulsun", 23756, dt.datetime(2019, 7, 8, 12, 0), [0.0, 1.0, 0.0], 121.47, 31.23, {"flag": "PA", "engines": 2}),
    (4, 2, "MSC Oscar", 19224, dt.datetime(2015, 1, 8, 9, 15), [0.0, 0.8, 0.6], 55.03, 25.01, None),
    (5, 3, "CMA CGM Jacques Saade", 23112, dt.datetime(2020, 9, 22, 14, 45, 30, 250000), [0.6, 0.0, 0.8],
     -118.26, 33.74, {"flag": "FR", "fuel": "LNG"}),
    (6, 3, "CMA CGM Marco Polo", 16020, None, None, None, None, None),
]
NOTES = [  # id, content, metadata — the memory-like table with an Oracle Text index
    (1, "Vessel capacity is measured in TEU, twenty-foot equivalent units, never in tons.", {"kind": "column", "subject": "SUPPLYCHAIN.VESSELS.CAPACITY_TEU"}),
    (2, "Cargo unit values are stored in USD cents; divide by 100 for dollars.", {"kind": "column", "subject": "SUPPLYCHAIN.CARGO_ITEMS.UNIT_VALUE_CENTS"}),
    (3, "Delayed voyages list a delay reason; the status is DELAYED.", {"kind": "guideline"}),
    (4, "Port capacity in TEU per year is the annual throughput.", {"kind": "table", "subject": "SUPPLYCHAIN.PORTS"}),
]

SCHEMA_DDL = [
    """CREATE TABLE supplychain.carriers (
         carrier_id NUMBER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         scac       CHAR(4) NOT NULL,
         name       VARCHAR2(100) NOT NULL,
         founded    DATE,
         profile    JSON,
         notes      CLOB,
         CONSTRAINT carriers_scac_uk UNIQUE (scac))""",
    """CREATE TABLE supplychain.vessels (
         vessel_id    NUMBER(10) NOT NULL,
         carrier_id   NUMBER NOT NULL,
         name         VARCHAR2(100) NOT NULL,
         capacity_teu NUMBER(8),
         built        TIMESTAMP,
         embedding    VECTOR(3, FLOAT32),
         embedding64  VECTOR(3, FLOAT64),
         position     SDO_GEOMETRY,
         specs        JSON,
         CONSTRAINT vessels_pk PRIMARY KEY (vessel_id),
         CONSTRAINT vessels_carrier_fk FOREIGN KEY (carrier_id) REFERENCES supplychain.carriers (carrier_id),
         CONSTRAINT vessels_teu_ck CHECK (capacity_teu > 0))""",
    "COMMENT ON TABLE supplychain.vessels IS 'Container ships; capacity_teu is in TEU'",
    "COMMENT ON COLUMN supplychain.vessels.capacity_teu IS 'Capacity in twenty-foot equivalent units (TEU), never tons'",
    "CREATE INDEX supplychain.vessels_carrier_ix ON supplychain.vessels (carrier_id)",
    """CREATE VECTOR INDEX supplychain.vessels_embedding_vx ON supplychain.vessels (embedding)
         ORGANIZATION INMEMORY NEIGHBOR GRAPH DISTANCE COSINE WITH TARGET ACCURACY 95""",
    """CREATE TABLE notes (
         note_id    NUMBER PRIMARY KEY,
         content    CLOB,
         metadata   JSON,
         embedding  VECTOR(3, FLOAT32),
         created_at TIMESTAMP DEFAULT SYSTIMESTAMP NOT NULL)""",
    "CREATE INDEX notes_ctx ON notes (content) INDEXTYPE IS CTXSYS.CONTEXT PARAMETERS ('SYNC (ON COMMIT)')",
    """CREATE VECTOR INDEX notes_embedding_vx ON notes (embedding) ORGANIZATION NEIGHBOR PARTITIONS
         DISTANCE COSINE WITH TARGET ACCURACY 90""",
    "CREATE TABLE unindexed_notes (note_id NUMBER PRIMARY KEY, content VARCHAR2(400))",
]
SUPPLYCHAIN_DDL = 6   # the statements before it are SUPPLYCHAIN's, run as SUPPLYCHAIN; the rest are AGENT's
# SDO_WITHIN_DISTANCE needs a spatial index on its column (ORA-13226 otherwise), created once the rows are in:
# without a USER_SDO_GEOM_METADATA row, Oracle 23ai builds the index only over a table that has geometries.
SPATIAL_INDEX = ("CREATE INDEX supplychain.vessels_position_sx ON supplychain.vessels (position) "
                 "INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2 PARAMETERS ('layer_gtype=POINT')")
INSERT_CARRIER = ("INSERT INTO supplychain.carriers (scac, name, founded, profile, notes) "
                  "VALUES (:scac, :name, :founded, :profile, :notes)")
INSERT_VESSEL = (
    "INSERT INTO supplychain.vessels (vessel_id, carrier_id, name, capacity_teu, built, embedding, embedding64, "
    "position, specs) VALUES (:id, :carrier, :name, :teu, :built, :emb, :emb64, "
    "CASE WHEN :lon IS NULL THEN NULL ELSE SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(:lon, :lat, NULL), NULL, NULL) END, "
    ":specs)")
INSERT_NOTE = "INSERT INTO notes (note_id, content, metadata, embedding) VALUES (:id, :content, :metadata, :emb)"


def vessel_binds(v: tuple, float64: bool = True) -> dict[str, Any]:
    """Bind values for INSERT_VESSEL: VECTOR as array.array (FLOAT32) and list (FLOAT64 column)."""
    return {"id": v[0], "carrier": v[1], "name": v[2], "teu": v[3], "built": v[4],
            "emb": None if v[5] is None else array.array("f", v[5]),
            "emb64": v[5] if float64 else None, "lon": v[6], "lat": v[7], "specs": v[8]}


def cosine(a: list[float], b: list[float]) -> float:
    return 1.0 - float(np.dot(a, b)) / (float(np.linalg.norm(a)) * float(np.linalg.norm(b)))


def by_id(vessel_id: int) -> tuple:
    return next(v for v in VESSELS if v[0] == vessel_id)


def carrier_name(carrier_id: int) -> str:
    return CARRIERS[carrier_id - 1][1]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    """The corpus database (read-only for the SELECT corpus)."""
    home = tmp_path_factory.mktemp("lite_corpus")
    owner = connect(home, "SUPPLYCHAIN")   # only SUPPLYCHAIN changes its tables (AGENT reads them)
    cur = owner.cursor()
    for ddl in SCHEMA_DDL[:SUPPLYCHAIN_DDL]:
        cur.execute(ddl)
    cur.executemany(INSERT_CARRIER, [dict(zip(("scac", "name", "founded", "profile", "notes"), c)) for c in CARRIERS])
    cur.executemany(INSERT_VESSEL, [vessel_binds(v) for v in VESSELS])
    cur.execute(SPATIAL_INDEX)
    owner.commit()
    owner.close()
    conn = connect(home, "AGENT")
    cur = conn.cursor()
    for ddl in SCHEMA_DDL[SUPPLYCHAIN_DDL:]:
        cur.execute(ddl)
    cur.executemany(INSERT_NOTE, [{"id": n[0], "content": n[1], "metadata": n[2], "emb": [float(n[0]), 1.0, 0.0]}
                                  for n in NOTES])
    conn.register_mining_model("TEST_EMBEDDER", str(home / "model.onnx"), comments="test model")
    conn.commit()
    yield conn
    conn.close()


def _filled(home: Path) -> LiteConnection:
    conn = connect(home, "SUPPLYCHAIN")   # the statements run on it change SUPPLYCHAIN's tables
    cur = conn.cursor()
    for ddl in SCHEMA_DDL[:2]:
        cur.execute(ddl)
    cur.executemany(INSERT_CARRIER, [dict(zip(("scac", "name", "founded", "profile", "notes"), c)) for c in CARRIERS])
    cur.executemany(INSERT_VESSEL, [vessel_binds(v, float64=False) for v in VESSELS])
    conn.commit()
    return conn


@pytest.fixture()
def fresh(tmp_path: Path) -> LiteConnection:
    """The corpus schema and data in a database of its own, for statements that change data."""
    conn = _filled(tmp_path)
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    """A shared writable copy for statements that must fail (a failed statement changes nothing)."""
    conn = _filled(tmp_path_factory.mktemp("lite_scratch"))
    yield conn
    conn.close()


# --------------------------------------------------------------------------- the SELECT corpus

@dataclass
class Case:
    """One Oracle query, its binds, and a check that recomputes the expected answer from the lists above."""

    name: str
    sql: str
    check: Callable[[list[tuple], list[str]], None]
    binds: Any = None
    kwargs: dict[str, Any] = field(default_factory=dict)


def expect_rows(expected: list[tuple], names: list[str] | None = None) -> Callable[[list[tuple], list[str]], None]:
    def check(rows: list[tuple], cols: list[str]) -> None:
        assert rows == expected
        for row, want in zip(rows, expected):  # == is not enough: 1 == 1.0 == True
            assert [type(v) for v in row] == [type(v) for v in want]
        if names is not None:
            assert cols == names
    return check


Q = [1.0, 0.0, 0.0]
NOW_TOLERANCE = dt.timedelta(minutes=5)


def _check_sysdate(rows: list[tuple], cols: list[str]) -> None:
    (sysdate, systimestamp, trunc_day), = rows
    now = dt.datetime.now()
    assert isinstance(sysdate, dt.datetime) and isinstance(systimestamp, dt.datetime)
    assert abs(sysdate - now) < NOW_TOLERANCE and abs(systimestamp - now) < NOW_TOLERANCE
    assert sysdate.microsecond == 0  # DATE has no fractional seconds
    assert trunc_day == dt.datetime(sysdate.year, sysdate.month, sysdate.day)


def _check_types(rows: list[tuple], cols: list[str]) -> None:
    (name, founded, profile, notes, cid), = rows
    carrier = CARRIERS[0]
    assert (name, founded, profile, notes, cid) == (carrier[1], carrier[2], carrier[3], carrier[4], 1)
    assert isinstance(founded, dt.datetime) and isinstance(profile, dict) and isinstance(cid, int)
    assert cols == ["NAME", "FOUNDED", "PROFILE", "NOTES", "CARRIER_ID"]


def _check_vectors(rows: list[tuple], cols: list[str]) -> None:
    (e32, e64), = rows
    assert isinstance(e32, array.array) and e32.typecode == "f"
    assert isinstance(e64, array.array) and e64.typecode == "d"
    assert list(e32) == pytest.approx(by_id(2)[5]) and list(e64) == by_id(2)[5]


def _check_cosine_order(rows: list[tuple], cols: list[str]) -> None:
    with_vectors = [v for v in VESSELS if v[5] is not None]
    expected = sorted(with_vectors, key=lambda v: (cosine(v[5], Q), v[0]))[:3]
    assert [r[0] for r in rows] == [v[0] for v in expected]
    for row, vessel in zip(rows, expected):
        assert isinstance(row[1], float)
        assert row[1] == pytest.approx(cosine(vessel[5], Q), abs=1e-6)
    assert cols == ["VESSEL_ID", "DIST"]


def _check_metrics(rows: list[tuple], cols: list[str]) -> None:
    q = np.array([0.0, 0.6, 0.8])
    expected = [(v[0], float(np.linalg.norm(np.array(v[5]) - q)), -float(np.dot(v[5], q)), cosine(v[5], list(q)))
                for v in VESSELS if v[5] is not None]
    assert [r[0] for r in rows] == [e[0] for e in expected]
    for row, want in zip(rows, expected):
        assert row[1:] == pytest.approx(want[1:], abs=1e-6)


def _check_geometry(rows: list[tuple], cols: list[str]) -> None:
    (geometry,), = rows
    vessel = by_id(3)
    assert geometry.SDO_GTYPE == 2001 and geometry.SDO_SRID == 4326
    assert (geometry.SDO_POINT.X, geometry.SDO_POINT.Y) == pytest.approx((vessel[6], vessel[7]))


def _haversine_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def _check_distance_units(rows: list[tuple], cols: list[str]) -> None:
    (km, miles), = rows
    a, b = by_id(1), by_id(3)
    assert km == pytest.approx(_haversine_km(a[6], a[7], b[6], b[7]), rel=1e-9)
    assert miles == pytest.approx(km / 1.609344, rel=1e-9)


def _check_text_search(rows: list[tuple], cols: list[str]) -> None:
    hits = [n for n in NOTES if "teu" in n[1].lower().replace(",", " ").replace(".", " ").split()]
    assert sorted(r[0] for r in rows) == sorted(n[0] for n in hits)
    assert all(isinstance(r[1], int) and 1 <= r[1] <= 100 for r in rows)
    assert [r[1] for r in rows] == sorted((r[1] for r in rows), reverse=True)
    assert cols == ["NOTE_ID", "SCORE_TXT", "KIND"]
    assert {r[2] for r in rows} == {n[2]["kind"] for n in hits}


def _check_user_indexes(rows: list[tuple], cols: list[str]) -> None:
    found = {r[0]: r[1:] for r in rows}
    keys = {name: found.pop(name) for name in list(found) if name.startswith("SYS_C")}
    # the primary keys' indexes (NOTES, UNINDEXED_NOTES), named as their unnamed constraints, as Oracle does
    assert sorted(k[3] for k in keys.values()) == ["NOTES", "UNINDEXED_NOTES"]
    assert {k[:3] for k in keys.values()} == {("NORMAL", None, None)}
    assert set(found) == {"NOTES_CTX", "NOTES_EMBEDDING_VX"}  # the user's own; SUPPLYCHAIN's are not USER_
    assert found["NOTES_CTX"] == ("DOMAIN", "CONTEXT", "SYNC (ON COMMIT)", "NOTES", "VALID")
    assert found["NOTES_EMBEDDING_VX"][0] == "VECTOR" and "NEIGHBOR PARTITIONS" in found["NOTES_EMBEDDING_VX"][2]


def _check_all_indexes(rows: list[tuple], cols: list[str]) -> None:
    # with the key constraints' indexes: CARRIERS' unnamed primary key (SYS_C...), its unique SCAC, VESSELS_PK
    assert [r for r in rows if not r[0].startswith("SYS_C")] == [
        ("CARRIERS_SCAC_UK", "NORMAL", "CARRIERS"), ("VESSELS_CARRIER_IX", "NORMAL", "VESSELS"),
        ("VESSELS_EMBEDDING_VX", "VECTOR", "VESSELS"), ("VESSELS_PK", "NORMAL", "VESSELS"),
        ("VESSELS_POSITION_SX", "DOMAIN", "VESSELS")]
    assert [r[1:] for r in rows if r[0].startswith("SYS_C")] == [("NORMAL", "CARRIERS")]


def _check_columns(rows: list[tuple], cols: list[str]) -> None:
    assert rows == [
        ("VESSEL_ID", "NUMBER", "N", 1), ("CARRIER_ID", "NUMBER", "N", 2), ("NAME", "VARCHAR2", "N", 3),
        ("CAPACITY_TEU", "NUMBER", "Y", 4), ("BUILT", "TIMESTAMP(6)", "Y", 5), ("EMBEDDING", "VECTOR", "Y", 6),
        ("EMBEDDING64", "VECTOR", "Y", 7), ("POSITION", "SDO_GEOMETRY", "Y", 8), ("SPECS", "JSON", "Y", 9)]
    assert all(isinstance(r[3], int) for r in rows)


def _check_mining_models(rows: list[tuple], cols: list[str]) -> None:
    (name, function, algorithm, created), = rows
    assert (name, function, algorithm) == ("TEST_EMBEDDER", "EMBEDDING", "ONNX")
    assert isinstance(created, dt.datetime) and abs(created - dt.datetime.now()) < NOW_TOLERANCE


def _check_star(rows: list[tuple], cols: list[str]) -> None:
    assert cols == ["NOTE_ID", "CONTENT", "METADATA", "EMBEDDING", "CREATED_AT"]
    (row,) = rows
    assert row[:3] == NOTES[2] and list(row[3]) == [3.0, 1.0, 0.0]
    assert isinstance(row[4], dt.datetime) and abs(row[4] - dt.datetime.now()) < NOW_TOLERANCE


def _capacity_by_carrier() -> list[tuple]:
    totals: dict[str, int] = {}
    for v in VESSELS:
        totals[carrier_name(v[1])] = totals.get(carrier_name(v[1]), 0) + v[3]
    return sorted(totals.items(), key=lambda kv: -kv[1])


def _ranked_within_carrier() -> list[tuple]:
    out = []
    for cid in sorted({v[1] for v in VESSELS}):
        fleet = sorted((v for v in VESSELS if v[1] == cid), key=lambda v: -v[3])
        out.extend((carrier_name(cid), v[2], i) for i, v in enumerate(fleet, 1))
    return out


def _fused() -> list[tuple]:
    big = {v[0] for v in VESSELS if v[3] > 20000}
    old = {v[0] for v in VESSELS if v[4] is not None and v[4] < dt.datetime(2016, 1, 1)}
    return sorted((i, int(i in big), int(i in old)) for i in big | old)


def _check_interval(rows: list[tuple], cols: list[str]) -> None:
    (age, days_whole, plus_day), = rows
    built = by_id(2)[4]
    assert isinstance(age, dt.timedelta)
    assert abs(age - (dt.datetime.now() - built)) < NOW_TOLERANCE
    assert days_whole == int((dt.datetime(2017, 4, 11) - built).total_seconds() // 86400)
    assert plus_day == built + dt.timedelta(days=1)


CORPUS: list[Case] = [
    Case("dual", "SELECT 1 + 1 AS two, 'x' AS s, 7 / 2 AS half FROM dual",
         expect_rows([(2, "x", 3.5)], ["TWO", "S", "HALF"])),
    Case("identity_values", "SELECT carrier_id, scac FROM supplychain.carriers ORDER BY carrier_id",
         expect_rows([(i, c[0]) for i, c in enumerate(CARRIERS, 1)])),
    Case("typed_columns_kwargs",
         "SELECT name, founded, profile, notes, carrier_id FROM supplychain.carriers WHERE scac = :scac",
         _check_types, kwargs={"scac": "MAEU"}),
    Case("positional_binds_tuple",
         "SELECT name FROM supplychain.vessels WHERE carrier_id = :1 AND capacity_teu > :2 ORDER BY name",
         expect_rows([(v[2],) for v in sorted(VESSELS, key=lambda v: v[2]) if v[1] == 2 and v[3] > 20000]),
         binds=(2, 20000)),
    Case("named_binds_dict",
         "SELECT COUNT(*) AS n FROM supplychain.vessels WHERE capacity_teu BETWEEN :lo AND :hi",
         expect_rows([(sum(1 for v in VESSELS if 16000 <= v[3] <= 21000),)], ["N"]), binds={"lo": 16000, "hi": 21000}),
    Case("join_group_by",
         "SELECT c.name, SUM(v.capacity_teu) AS total_teu FROM supplychain.vessels v "
         "JOIN supplychain.carriers c ON c.carrier_id = v.carrier_id GROUP BY c.name ORDER BY total_teu DESC",
         expect_rows(_capacity_by_carrier(), ["NAME", "TOTAL_TEU"])),
    Case("having", "SELECT carrier_id, COUNT(*) AS n FROM supplychain.vessels GROUP BY carrier_id "
                   "HAVING COUNT(*) > 1 ORDER BY carrier_id",
         expect_rows(sorted((c, sum(1 for v in VESSELS if v[1] == c)) for c in {v[1] for v in VESSELS}))),
    Case("full_outer_join_carriers",
         "SELECT c.name, v.name AS vessel FROM supplychain.carriers c "
         "FULL OUTER JOIN supplychain.vessels v ON v.carrier_id = c.carrier_id WHERE v.vessel_id IS NULL",
         expect_rows([(c[1], None) for i, c in enumerate(CARRIERS, 1) if not any(v[1] == i for v in VESSELS)])),
    Case("full_outer_join_ctes",
         "WITH big AS (SELECT vessel_id FROM supplychain.vessels WHERE capacity_teu > 20000), "
         "old AS (SELECT vessel_id FROM supplychain.vessels WHERE built < TIMESTAMP '2016-01-01 00:00:00') "
         "SELECT NVL(b.vessel_id, o.vessel_id) AS vessel_id, "
         "CASE WHEN b.vessel_id IS NULL THEN 0 ELSE 1 END AS is_big, "
         "CASE WHEN o.vessel_id IS NULL THEN 0 ELSE 1 END AS is_old "
         "FROM big b FULL OUTER JOIN old o ON o.vessel_id = b.vessel_id ORDER BY 1",
         expect_rows(_fused())),
    Case("row_number_partition",
         "SELECT c.name AS carrier, v.name, ROW_NUMBER() OVER (PARTITION BY v.carrier_id "
         "ORDER BY v.capacity_teu DESC) AS rn FROM supplychain.vessels v "
         "JOIN supplychain.carriers c ON c.carrier_id = v.carrier_id ORDER BY v.carrier_id, rn",
         expect_rows(_ranked_within_carrier(), ["CARRIER", "NAME", "RN"])),
    Case("rank_and_running_sum",
         "SELECT vessel_id, RANK() OVER (ORDER BY capacity_teu DESC) AS r, "
         "SUM(capacity_teu) OVER (ORDER BY vessel_id) AS running FROM supplychain.vessels ORDER BY vessel_id",
         expect_rows([(v[0], 1 + sum(1 for w in VESSELS if w[3] > v[3]), sum(w[3] for w in VESSELS if w[0] <= v[0]))
                      for v in VESSELS])),
    Case("cte_types_survive",
         "WITH big AS (SELECT name, built, specs, capacity_teu FROM supplychain.vessels WHERE capacity_teu > 20000) "
         "SELECT * FROM big ORDER BY name",
         expect_rows([(v[2], v[4], v[8], v[3]) for v in sorted(VESSELS, key=lambda v: v[2]) if v[3] > 20000],
                     ["NAME", "BUILT", "SPECS", "CAPACITY_TEU"])),
    Case("fetch_first_bind",
         "SELECT name FROM supplychain.vessels ORDER BY capacity_teu DESC FETCH FIRST :k ROWS ONLY",
         expect_rows([(v[2],) for v in sorted(VESSELS, key=lambda v: -v[3])[:2]]), kwargs={"k": 2}),
    Case("offset_fetch_next",
         "SELECT vessel_id FROM supplychain.vessels ORDER BY vessel_id OFFSET 2 ROWS FETCH NEXT 3 ROWS ONLY",
         expect_rows([(v[0],) for v in VESSELS[2:5]])),
    Case("nvl_nvl2_coalesce",
         "SELECT vessel_id, NVL(built, TIMESTAMP '1900-01-01 00:00:00') AS built, "
         "NVL2(embedding, 'yes', 'no') AS has_vec, COALESCE(JSON_VALUE(specs, '$.fuel'), 'HFO') AS fuel "
         "FROM supplychain.vessels ORDER BY vessel_id",
         expect_rows([(v[0], v[4] or dt.datetime(1900, 1, 1), "yes" if v[5] else "no",
                       (v[8] or {}).get("fuel", "HFO")) for v in VESSELS])),
    Case("case_and_decode",
         "SELECT vessel_id, CASE WHEN capacity_teu >= 20000 THEN 'ULCV' ELSE 'large' END AS size_class, "
         "DECODE(carrier_id, 1, 'M', 2, 'S', 'other') AS code FROM supplychain.vessels ORDER BY vessel_id",
         expect_rows([(v[0], "ULCV" if v[3] >= 20000 else "large", {1: "M", 2: "S"}.get(v[1], "other"))
                      for v in VESSELS])),
    Case("coalesce_json_through_join",
         "SELECT v.vessel_id, COALESCE(v.specs, c.profile) AS meta FROM supplychain.vessels v "
         "JOIN supplychain.carriers c ON c.carrier_id = v.carrier_id ORDER BY v.vessel_id",
         expect_rows([(v[0], v[8] if v[8] is not None else CARRIERS[v[1] - 1][3]) for v in VESSELS])),
    Case("json_value_in_where",
         "SELECT vessel_id, JSON_VALUE(specs, '$.engines' RETURNING NUMBER) AS engines FROM supplychain.vessels "
         "WHERE JSON_VALUE(specs, '$.flag') = :flag ORDER BY vessel_id",
         expect_rows([(v[0], (v[8] or {}).get("engines")) for v in VESSELS if (v[8] or {}).get("flag") == "DK"]),
         kwargs={"flag": "DK"}),
    Case("json_array_value",
         "SELECT JSON_VALUE(profile, '$.tags[0]') AS tag FROM supplychain.carriers WHERE scac = 'CMDU'",
         expect_rows([("lng",)])),
    Case("dbms_lob_substr",
         "SELECT scac, DBMS_LOB.SUBSTR(notes, 20, 1) AS head FROM supplychain.carriers ORDER BY scac",
         expect_rows(sorted((c[0], c[4][:20] if c[4] else None) for c in CARRIERS))),
    Case("to_date_filter_and_to_char",
         "SELECT name, TO_CHAR(founded, 'YYYY-MM-DD') AS founded FROM supplychain.carriers "
         "WHERE founded < TO_DATE('01-01-1975', 'DD-MM-YYYY') ORDER BY founded",
         expect_rows([(c[1], c[2].strftime("%Y-%m-%d")) for c in sorted(CARRIERS, key=lambda c: c[2])
                      if c[2] < dt.datetime(1975, 1, 1)])),
    Case("timestamp_bind_compare",
         "SELECT vessel_id FROM supplychain.vessels WHERE built = :built",
         expect_rows([(5,)]), kwargs={"built": by_id(5)[4]}),
    Case("sysdate_systimestamp",
         "SELECT SYSDATE, SYSTIMESTAMP, TRUNC(SYSDATE) FROM dual", _check_sysdate),
    Case("date_arithmetic",
         "SELECT SYSTIMESTAMP - built AS age, TRUNC(DATE '2017-04-11' - CAST(built AS DATE)) AS days, "
         "built + 1 AS next_day FROM supplychain.vessels WHERE vessel_id = 2",
         _check_interval),
    Case("extract_and_add_months",
         "SELECT EXTRACT(YEAR FROM built) AS y, ADD_MONTHS(built, 12) AS later FROM supplychain.vessels "
         "WHERE vessel_id = 1",
         expect_rows([(2006, dt.datetime(2007, 8, 12, 10, 30))])),
    Case("vector_types", "SELECT embedding, embedding64 FROM supplychain.vessels WHERE vessel_id = 2", _check_vectors),
    Case("vector_distance_cosine_top_k",
         "SELECT vessel_id, VECTOR_DISTANCE(embedding, TO_VECTOR(:q), COSINE) AS dist FROM supplychain.vessels "
         "WHERE embedding IS NOT NULL ORDER BY dist, vessel_id FETCH FIRST 3 ROWS ONLY",
         _check_cosine_order, kwargs={"q": "[1, 0, 0]"}),
    Case("vector_distance_metrics_array_bind",
         "SELECT vessel_id, VECTOR_DISTANCE(embedding, :q, EUCLIDEAN), VECTOR_DISTANCE(embedding, :q, DOT), "
         "VECTOR_DISTANCE(:q, embedding, COSINE) FROM supplychain.vessels WHERE embedding IS NOT NULL "
         "ORDER BY vessel_id",
         _check_metrics, kwargs={"q": array.array("f", [0.0, 0.6, 0.8])}),
    Case("fetch_approx_vector_search",
         "SELECT vessel_id FROM supplychain.vessels WHERE embedding IS NOT NULL "
         "ORDER BY VECTOR_DISTANCE(embedding, TO_VECTOR(:q), COSINE) FETCH APPROX FIRST 2 ROWS ONLY",
         expect_rows([(v[0],) for v in sorted((v for v in VESSELS if v[5]), key=lambda v: cosine(v[5], [0, 1, 0]))[:2]]),
         kwargs={"q": "[0, 1, 0]"}),
    Case("regexp_json_query_initcap",
         "SELECT INITCAP(name) AS nice, REGEXP_SUBSTR(name, '[0-9A-Z]+$') AS last_word, "
         "JSON_QUERY(profile, '$.tags') AS tags FROM supplychain.carriers "
         "WHERE REGEXP_LIKE(scac, '^c', 'i') ORDER BY scac",
         expect_rows([(c[1].title(), c[1].split()[-1], (c[3] or {}).get("tags")) for c in sorted(CARRIERS)
                      if c[0].startswith("C")])),
    Case("to_vector_literal",
         "SELECT VECTOR_DISTANCE(TO_VECTOR('[3, 4]'), TO_VECTOR('[0, 0]'), EUCLIDEAN) AS d FROM dual",
         expect_rows([(5.0,)])),
    Case("sdo_geometry_object", "SELECT position FROM supplychain.vessels WHERE vessel_id = 3", _check_geometry),
    Case("sdo_distance_units",
         "SELECT SDO_GEOM.SDO_DISTANCE(a.position, b.position, 0.005, 'unit=KM') AS km, "
         "SDO_GEOM.SDO_DISTANCE(a.position, b.position, 0.005, 'unit=MILE') AS miles "
         "FROM supplychain.vessels a, supplychain.vessels b WHERE a.vessel_id = 1 AND b.vessel_id = 3",
         _check_distance_units),
    Case("sdo_within_distance",
         "SELECT v.vessel_id FROM supplychain.vessels v WHERE SDO_WITHIN_DISTANCE(v.position, "
         "SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(:lon, :lat, NULL), NULL, NULL), 'distance=6000 unit=KM') = 'TRUE' "
         "ORDER BY v.vessel_id",
         expect_rows([(v[0],) for v in VESSELS if v[6] is not None and _haversine_km(v[6], v[7], 103.82, 1.35) <= 6000]),
         kwargs={"lon": 103.82, "lat": 1.35}),
    Case("contains_score",
         "SELECT note_id, SCORE(1) AS score_txt, JSON_VALUE(metadata, '$.kind') AS kind FROM notes "
         "WHERE CONTAINS(content, :kw, 1) > 0 ORDER BY SCORE(1) DESC, note_id",
         _check_text_search, kwargs={"kw": "TEU"}),
    Case("all_tables",   # real tables: the spatial index's MDRT_…$ table is SECONDARY = 'Y', as in Oracle
         "SELECT table_name FROM all_tables WHERE owner = 'SUPPLYCHAIN' AND secondary = 'N' ORDER BY table_name",
         expect_rows([("CARRIERS",), ("VESSELS",)])),
    Case("user_tables",   # the text index's DR$ tables are listed, SECONDARY = 'Y', as in Oracle
         "SELECT table_name, secondary FROM user_tables ORDER BY table_name",
         expect_rows([("DR$NOTES_CTX$I", "Y"), ("DR$NOTES_CTX$K", "Y"), ("DR$NOTES_CTX$N", "Y"),
                      ("DR$NOTES_CTX$R", "Y"), ("NOTES", "N"), ("UNINDEXED_NOTES", "N")])),
    Case("all_tab_comments",   # ALL_TAB_COMMENTS lists secondary tables too (a null comment), as in Oracle
         "SELECT table_name, comments FROM all_tab_comments WHERE owner = 'SUPPLYCHAIN' AND table_name IN "
         "(SELECT table_name FROM all_tables WHERE owner = 'SUPPLYCHAIN' AND secondary = 'N') ORDER BY table_name",
         expect_rows([("CARRIERS", None), ("VESSELS", "Container ships; capacity_teu is in TEU")])),
    Case("all_col_comments",
         "SELECT column_name, comments FROM all_col_comments WHERE owner = 'SUPPLYCHAIN' "
         "AND table_name = 'VESSELS' AND comments IS NOT NULL",
         expect_rows([("CAPACITY_TEU", "Capacity in twenty-foot equivalent units (TEU), never tons")])),
    Case("all_tab_columns",
         "SELECT column_name, data_type, nullable, column_id FROM all_tab_columns "
         "WHERE owner = 'SUPPLYCHAIN' AND table_name = 'VESSELS' ORDER BY column_id",
         _check_columns),
    Case("user_indexes",
         "SELECT index_name, index_type, ityp_name, parameters, table_name, status FROM user_indexes "
         "ORDER BY index_name",
         _check_user_indexes),
    Case("all_indexes",
         "SELECT index_name, index_type, table_name FROM all_indexes WHERE owner = 'SUPPLYCHAIN' ORDER BY index_name",
         _check_all_indexes),
    Case("user_mining_models",
         "SELECT model_name, mining_function, algorithm, creation_date FROM user_mining_models",
         _check_mining_models),
    Case("union_all_minus",
         "SELECT vessel_id FROM supplychain.vessels WHERE carrier_id = 1 UNION ALL "
         "SELECT vessel_id FROM supplychain.vessels WHERE carrier_id = 3 MINUS "
         "SELECT vessel_id FROM supplychain.vessels WHERE capacity_teu > 20000 ORDER BY 1",
         expect_rows(sorted((v[0],) for v in VESSELS if v[1] in (1, 3) and v[3] <= 20000))),
    Case("in_subquery_and_exists",
         "SELECT c.name FROM supplychain.carriers c WHERE c.carrier_id IN "
         "(SELECT carrier_id FROM supplychain.vessels WHERE capacity_teu > 23000) AND EXISTS "
         "(SELECT 1 FROM supplychain.vessels v WHERE v.carrier_id = c.carrier_id AND v.built IS NULL)",
         expect_rows([(carrier_name(cid),) for cid in sorted({v[1] for v in VESSELS if v[3] > 23000})
                      if any(v[1] == cid and v[4] is None for v in VESSELS)])),
    Case("scalar_subquery",
         "SELECT c.scac, (SELECT MAX(v.capacity_teu) FROM supplychain.vessels v WHERE v.carrier_id = c.carrier_id) "
         "AS biggest FROM supplychain.carriers c ORDER BY c.scac",
         expect_rows(sorted((c[0], max((v[3] for v in VESSELS if v[1] == i), default=None))
                            for i, c in enumerate(CARRIERS, 1)))),
    Case("listagg",
         "SELECT LISTAGG(scac, ',') WITHIN GROUP (ORDER BY scac) AS codes FROM supplychain.carriers",
         expect_rows([(",".join(sorted(c[0] for c in CARRIERS)),)])),
    Case("string_functions",
         "SELECT UPPER(name) || '/' || LOWER(scac) AS label, SUBSTR(name, 1, 3) AS head, INSTR(name, 'a') AS pos, "
         "LENGTH(name) AS len, LPAD(TO_CHAR(carrier_id), 3, '0') AS padded FROM supplychain.carriers "
         "WHERE name LIKE 'M%' ORDER BY name",
         expect_rows([(c[1].upper() + "/" + c[0].lower(), c[1][:3], c[1].find("a") + 1, len(c[1]),
                       str(i).rjust(3, "0")) for i, c in sorted(enumerate(CARRIERS, 1), key=lambda ic: ic[1][1])
                      if c[1].startswith("M")])),
    Case("numeric_functions",
         "SELECT ROUND(capacity_teu / 1000, 1) AS kteu, TRUNC(capacity_teu / 1000) AS whole, "
         "MOD(capacity_teu, 1000) AS rest FROM supplychain.vessels WHERE vessel_id = 1",
         expect_rows([(round(15550 / 1000, 1), 15, 550)])),
    Case("distinct_and_count_distinct",
         "SELECT COUNT(DISTINCT carrier_id) AS carriers, COUNT(built) AS dated, COUNT(*) AS total "
         "FROM supplychain.vessels",
         expect_rows([(len({v[1] for v in VESSELS}), sum(1 for v in VESSELS if v[4]), len(VESSELS))])),
    Case("order_by_case_nulls",
         "SELECT vessel_id FROM supplychain.vessels ORDER BY built DESC NULLS LAST, vessel_id",
         expect_rows([(v[0],) for v in sorted((v for v in VESSELS if v[4]), key=lambda v: v[4], reverse=True)]
                     + [(v[0],) for v in VESSELS if v[4] is None])),
    Case("default_null_ordering_is_oracles",
         "SELECT vessel_id FROM supplychain.vessels ORDER BY built, vessel_id",
         expect_rows([(v[0],) for v in sorted((v for v in VESSELS if v[4]), key=lambda v: v[4])]
                     + [(v[0],) for v in VESSELS if v[4] is None])),
    Case("select_star_with_alias", "SELECT n.* FROM notes n WHERE n.note_id = 3", _check_star),
]


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.name)
def test_corpus_query(db: LiteConnection, case: Case) -> None:
    with db.cursor() as cur:
        cur.execute(case.sql, case.binds, **case.kwargs)
        cols = [d[0] for d in cur.description]
        rows = cur.fetchall()
    case.check(rows, cols)


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) + len(SCHEMA_DDL) + len(DML) >= 40


# --------------------------------------------------------------------------- DML and constraints

DML = [
    "INSERT INTO supplychain.vessels (vessel_id, carrier_id, name, capacity_teu) "
    "SELECT vessel_id + 100, carrier_id, name || ' II', capacity_teu FROM supplychain.vessels WHERE carrier_id = :cid",
    "UPDATE supplychain.vessels SET specs = :specs, capacity_teu = capacity_teu + 10 WHERE vessel_id = :id",
    "DELETE FROM supplychain.vessels WHERE built IS NULL",
    "MERGE INTO supplychain.carriers c USING (SELECT 'MAEU' AS scac, 'A.P. Moller-Maersk' AS name FROM dual "
    "UNION ALL SELECT 'ONEY', 'Ocean Network Express' FROM dual) s ON (c.scac = s.scac) "
    "WHEN MATCHED THEN UPDATE SET c.name = s.name "
    "WHEN NOT MATCHED THEN INSERT (scac, name) VALUES (s.scac, s.name)",
]


def test_insert_select_update_delete_merge(fresh: LiteConnection) -> None:
    cur = fresh.cursor()
    cur.execute(DML[0], cid=2)
    assert cur.rowcount == sum(1 for v in VESSELS if v[1] == 2)
    cur.execute("SELECT vessel_id, name FROM supplychain.vessels WHERE vessel_id > 100 ORDER BY vessel_id")
    assert cur.fetchall() == [(v[0] + 100, v[2] + " II") for v in VESSELS if v[1] == 2]

    cur.execute(DML[1], specs={"flag": "SG", "refit": [2024]}, id=1)
    assert cur.rowcount == 1
    cur.execute("SELECT specs, capacity_teu FROM supplychain.vessels WHERE vessel_id = 1")
    assert cur.fetchone() == ({"flag": "SG", "refit": [2024]}, by_id(1)[3] + 10)

    cur.execute(DML[2])  # the copies made above have no BUILT either
    assert cur.rowcount == sum(1 for v in VESSELS if v[4] is None) + sum(1 for v in VESSELS if v[1] == 2)

    cur.execute(DML[3])
    assert cur.rowcount == 2
    cur.execute("SELECT scac, name FROM supplychain.carriers WHERE scac IN ('MAEU', 'ONEY') ORDER BY scac")
    assert cur.fetchall() == [("MAEU", "A.P. Moller-Maersk"), ("ONEY", "Ocean Network Express")]
    cur.execute("SELECT carrier_id FROM supplychain.carriers WHERE scac = 'ONEY'")
    assert cur.fetchone() == (len(CARRIERS) + 1,)  # the identity continues after the last row


def test_executemany_dicts_and_tuples(fresh: LiteConnection) -> None:
    cur = fresh.cursor()
    cur.executemany("INSERT INTO supplychain.carriers (scac, name) VALUES (:scac, :name)",
                    [{"scac": "ZIMU", "name": "ZIM"}, {"scac": "EGLV", "name": "Evergreen"}])
    assert cur.rowcount == 2
    cur.executemany("UPDATE supplychain.carriers SET founded = :1 WHERE scac = :2",
                    [(dt.datetime(1945, 6, 7), "ZIMU"), (dt.datetime(1968, 9, 1), "EGLV")])
    assert cur.rowcount == 2
    cur.execute("SELECT scac, founded FROM supplychain.carriers WHERE scac IN ('ZIMU', 'EGLV') ORDER BY scac")
    assert cur.fetchall() == [("EGLV", dt.datetime(1968, 9, 1)), ("ZIMU", dt.datetime(1945, 6, 7))]


def test_executemany_stops_at_the_failing_row_like_oracle(fresh: LiteConnection) -> None:
    cur = fresh.cursor()
    rows = [(10, 1, "A", 100), (11, 1, "B", 100), (10, 1, "dup", 100), (12, 1, "C", 100)]
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.executemany("INSERT INTO supplychain.vessels (vessel_id, carrier_id, name, capacity_teu) "
                        "VALUES (:1, :2, :3, :4)", rows)
    error = info.value.args[0]
    assert error.code == 1 and error.offset == 2
    assert cur.rowcount == 2
    cur.execute("SELECT vessel_id FROM supplychain.vessels WHERE vessel_id >= 10 ORDER BY 1")
    assert cur.fetchall() == [(10,), (11,)]  # the rows before the failure stay (uncommitted)
    fresh.rollback()
    cur.execute("SELECT COUNT(*) FROM supplychain.vessels WHERE vessel_id >= 10")
    assert cur.fetchone() == (0,)


@pytest.mark.parametrize("sql, code", [
    ("INSERT INTO supplychain.vessels (vessel_id, carrier_id, name) VALUES (1, 1, 'dup key')", 1),
    ("INSERT INTO supplychain.carriers (scac, name) VALUES ('MAEU', 'dup unique')", 1),
    ("INSERT INTO supplychain.vessels (vessel_id, carrier_id, name) VALUES (50, 99, 'no parent')", 2291),
    ("INSERT INTO supplychain.vessels (vessel_id, carrier_id, name, capacity_teu) VALUES (51, 1, 'neg', -5)", 2290),
    ("DELETE FROM supplychain.carriers WHERE scac = 'MAEU'", 2292),
    ("INSERT INTO supplychain.vessels (vessel_id, carrier_id) VALUES (52, 1)", 1400),
    ("UPDATE supplychain.vessels SET name = NULL WHERE vessel_id = 1", 1407),
    ("INSERT INTO supplychain.vessels (vessel_id, carrier_id, name, specs) VALUES (53, 1, 'x', 'not json')", 40441),
    ("UPDATE supplychain.vessels SET name = '' WHERE vessel_id = 2", 1407),  # '' is NULL in Oracle
])
def test_constraint_violations_raise_oracle_codes(scratch: LiteConnection, sql: str, code: int) -> None:
    cur = scratch.cursor()
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute(sql)
    error = info.value.args[0]
    assert error.code == code
    assert error.full_code == f"ORA-{code:05d}" and str(info.value).startswith(f"ORA-{code:05d}")
    assert _count(scratch) == len(VESSELS)  # the failed statement left nothing behind
    scratch.rollback()


def test_dropping_a_parent_table(fresh: LiteConnection) -> None:
    cur = fresh.cursor()
    with pytest.raises(oracledb.DatabaseError, match="ORA-02449"):
        cur.execute("DROP TABLE supplychain.carriers")
    # Oracle would drop the children's foreign keys; lite cannot, and says so (see docs/lite-engine.md).
    with pytest.raises(oracledb.DatabaseError, match="ORA-03001.*CASCADE CONSTRAINTS"):
        cur.execute("DROP TABLE supplychain.carriers CASCADE CONSTRAINTS")
    cur.execute("DROP TABLE supplychain.vessels CASCADE CONSTRAINTS PURGE")
    cur.execute("DROP TABLE supplychain.carriers CASCADE CONSTRAINTS PURGE")
    cur.execute("SELECT COUNT(*) FROM all_tables WHERE owner = 'SUPPLYCHAIN'")
    assert cur.fetchone() == (0,)
    cur.execute("SELECT COUNT(*) FROM all_tab_columns WHERE owner = 'SUPPLYCHAIN'")
    assert cur.fetchone() == (0,)


def test_a_ddl_runs_while_another_cursor_has_rows_to_fetch(fresh: LiteConnection) -> None:
    """Oracle drops a table an open cursor still reads; SQLite refused ("database table is locked")."""
    cur = fresh.cursor()
    cur.execute("CREATE TABLE scratch_rows (n NUMBER)")
    fresh.cursor().executemany("INSERT INTO scratch_rows VALUES (:1)", [(n,) for n in range(250)])
    fresh.commit()
    reading = fresh.cursor()
    reading.execute("SELECT n FROM scratch_rows ORDER BY n")
    assert reading.fetchone() == (0,)
    other = fresh.cursor()
    other.execute("SELECT COUNT(*) FROM scratch_rows")   # not fetched at all
    cur.execute("DROP TABLE scratch_rows PURGE")
    assert reading.fetchmany(3) == [(1,), (2,), (3,)]
    assert len(reading.fetchall()) == 246 and reading.fetchone() is None
    assert other.fetchall() == [(250,)]
    with pytest.raises(oracledb.DatabaseError, match="ORA-00942"):
        cur.execute("SELECT n FROM scratch_rows")


def test_contains_without_a_context_index_fails_like_oracle(db: LiteConnection) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        db.cursor().execute("SELECT note_id FROM unindexed_notes WHERE CONTAINS(content, :kw, 1) > 0", kw="TEU")
    assert info.value.args[0].code == 20000
    assert "DRG-10599" in str(info.value) and "CTXSYS.CONTEXT" in str(info.value)


def test_score_without_contains_is_an_error(db: LiteConnection) -> None:
    with pytest.raises(oracledb.DatabaseError, match="ORA-29908"):
        db.cursor().execute("SELECT SCORE(1) FROM notes")


@pytest.mark.parametrize("sql, code, fragment", [
    ("SELECT * FROM supplychain.no_such_table", 942, '"SUPPLYCHAIN"."NO_SUCH_TABLE"'),
    ("SELECT * FROM no_such_table", 942, '"AGENT"."NO_SUCH_TABLE"'),
    ("INSERT INTO no_such_table (a) VALUES (1)", 942, "NO_SUCH_TABLE"),
    ("SELECT no_such_column FROM supplychain.vessels", 904, '"NO_SUCH_COLUMN"'),
    ("SELECT v.no_such_column FROM supplychain.vessels v", 904, '"V"."NO_SUCH_COLUMN"'),
    ("UPDATE notes SET no_such_column = 1", 904, "NO_SUCH_COLUMN"),
    ("INSERT INTO notes (no_such_column) VALUES (1)", 904, "NO_SUCH_COLUMN"),
])
def test_unknown_names_read_like_oracle(db: LiteConnection, sql: str, code: int, fragment: str) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        db.cursor().execute(sql)
    assert info.value.args[0].code == code
    assert f"ORA-{code:05d}" in str(info.value) and fragment in str(info.value)


# --------------------------------------------------------------------------- transactions

def _count(conn: LiteConnection, where: str = "1 = 1") -> int:
    with conn.cursor() as cur:
        cur.execute(f"SELECT COUNT(*) FROM supplychain.vessels WHERE {where}")
        return cur.fetchone()[0]


def test_rollback_undoes_dml(fresh: LiteConnection) -> None:
    before = _count(fresh)
    fresh.cursor().execute("DELETE FROM supplychain.vessels")
    assert _count(fresh) == 0
    fresh.rollback()
    assert _count(fresh) == before


def test_ddl_commits_pending_work(fresh: LiteConnection) -> None:
    fresh.cursor().execute("DELETE FROM supplychain.vessels WHERE vessel_id = 1")
    fresh.cursor().execute("CREATE TABLE scratch (id NUMBER)")
    fresh.rollback()
    assert _count(fresh, "vessel_id = 1") == 0  # the DELETE was committed by the DDL, as in Oracle
    fresh.cursor().execute("SELECT COUNT(*) FROM scratch")  # and the table exists


def test_atomic_rolls_back_ddl_and_dml(fresh: LiteConnection) -> None:
    with pytest.raises(RuntimeError):
        with fresh.atomic():
            fresh.cursor().execute("CREATE TABLE supplychain.half_done (id NUMBER)")
            fresh.cursor().execute("INSERT INTO supplychain.half_done (id) VALUES (1)")
            fresh.cursor().execute("DELETE FROM supplychain.vessels")
            raise RuntimeError("boom")
    assert _count(fresh) == len(VESSELS)
    with pytest.raises(oracledb.DatabaseError, match="ORA-00942"):
        fresh.cursor().execute("SELECT * FROM supplychain.half_done")
    cur = fresh.cursor()
    cur.execute("SELECT COUNT(*) FROM all_tables WHERE table_name = 'HALF_DONE'")
    assert cur.fetchone() == (0,)


def test_atomic_commits_on_success(fresh: LiteConnection, tmp_path: Path) -> None:
    with fresh.atomic():
        fresh.cursor().execute("CREATE TABLE supplychain.done (id NUMBER)")
        fresh.cursor().execute("INSERT INTO supplychain.done (id) VALUES (1)")
    other = connect(tmp_path, "AGENT")  # a second connection sees it: it was committed
    with other.cursor() as cur:
        cur.execute("SELECT id FROM supplychain.done")
        assert cur.fetchall() == [(1,)]
    other.close()


def test_a_failing_statement_does_not_undo_earlier_ones(fresh: LiteConnection) -> None:
    cur = fresh.cursor()
    cur.execute("UPDATE supplychain.vessels SET capacity_teu = 1 WHERE vessel_id = 1")
    with pytest.raises(oracledb.DatabaseError, match="ORA-02290"):
        # Multi-row UPDATE that fails on one row: none of its rows change (statement-level atomicity).
        cur.execute("UPDATE supplychain.vessels SET capacity_teu = capacity_teu - 16000")
    assert _count(fresh, "capacity_teu = 1") == 1
    assert _count(fresh, f"vessel_id = 3 AND capacity_teu = {by_id(3)[3]}") == 1
    fresh.rollback()
    assert _count(fresh, "capacity_teu = 1") == 0


def test_uncommitted_work_is_invisible_to_another_connection_and_lost_on_close(tmp_path: Path) -> None:
    first = connect(tmp_path, "AGENT")
    first.cursor().execute("CREATE TABLE t (id NUMBER)")
    first.cursor().execute("INSERT INTO t (id) VALUES (1)")
    first.close()  # uncommitted: rolled back, as in Oracle
    second = connect(tmp_path, "AGENT")
    with second.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM t")
        assert cur.fetchone() == (0,)
    second.close()


# --------------------------------------------------------------------------- cursor API

def test_cursor_api(db: LiteConnection) -> None:
    import pandas as pd

    with db.cursor() as cur:
        cur.execute("SELECT vessel_id, name AS vessel_name, capacity_teu * 2 FROM supplychain.vessels "
                    "ORDER BY vessel_id")
        assert [d[0] for d in cur.description] == ["VESSEL_ID", "VESSEL_NAME", "CAPACITY_TEU*2"]
        assert cur.description[0][1] is oracledb.DB_TYPE_NUMBER
        assert cur.description[1][1] is oracledb.DB_TYPE_VARCHAR
        first = cur.fetchone()
        assert first == (1, "Emma Maersk", 2 * 15550)
        two = cur.fetchmany(2)
        assert [r[0] for r in two] == [2, 3]
        rest = cur.fetchall()
        assert [r[0] for r in rest] == [v[0] for v in VESSELS[3:]]
        assert cur.rowcount == len(VESSELS)
        assert cur.fetchone() is None and cur.fetchall() == []

        cur.execute("SELECT vessel_id FROM supplychain.vessels ORDER BY vessel_id")
        assert [r for r in cur] == [(v[0],) for v in VESSELS]

        cur.arraysize = 4
        cur.execute("SELECT vessel_id FROM supplychain.vessels ORDER BY vessel_id")
        assert len(cur.fetchmany()) == 4

        cur.execute("SELECT v.name, v.built, v.specs, c.name AS carrier FROM supplychain.vessels v "
                    "JOIN supplychain.carriers c ON c.carrier_id = v.carrier_id ORDER BY v.vessel_id")
        frame = pd.DataFrame(cur.fetchall(), columns=[d[0] for d in cur.description])
        assert list(frame.columns) == ["NAME", "BUILT", "SPECS", "CARRIER"]
        assert frame["NAME"].tolist() == [v[2] for v in VESSELS]
        assert frame["CARRIER"].tolist() == [carrier_name(v[1]) for v in VESSELS]
    with pytest.raises(oracledb.DatabaseError, match="ORA-01001"):
        cur.execute("SELECT 1 FROM dual")  # the with block closed the cursor
    with pytest.raises(oracledb.DatabaseError, match="ORA-01001"):
        cur.fetchall()


def test_fetch_before_execute_and_dml_rowcount(fresh: LiteConnection) -> None:
    cur = fresh.cursor()
    with pytest.raises(oracledb.DatabaseError, match="ORA-01002"):
        cur.fetchone()
    cur.execute("UPDATE supplychain.vessels SET capacity_teu = capacity_teu WHERE carrier_id = 1")
    assert cur.rowcount == sum(1 for v in VESSELS if v[1] == 1)
    assert cur.description is None


def test_closed_connection(tmp_path: Path) -> None:
    with connect(tmp_path, "AGENT") as conn:
        cur = conn.cursor()
    with pytest.raises(oracledb.DatabaseError, match="ORA-03114"):
        conn.cursor()
    with pytest.raises(oracledb.DatabaseError, match="ORA-03114"):
        cur.execute("SELECT 1 FROM dual")
    conn.close()  # closing twice is harmless


def test_bind_errors(db: LiteConnection) -> None:
    cur = db.cursor()
    with pytest.raises(oracledb.DatabaseError, match="ORA-01008"):
        cur.execute("SELECT 1 FROM dual WHERE 1 = :one")
    with pytest.raises(oracledb.DatabaseError, match="ORA-01036"):
        cur.execute("SELECT 1 FROM dual WHERE 1 = :one", one=1, two=2)
    with pytest.raises(oracledb.DatabaseError, match="ORA-01008"):
        cur.execute("SELECT 1 FROM dual WHERE 1 = :1 AND 2 = :2", (1,))
    with pytest.raises(oracledb.DatabaseError, match="ORA-01036"):
        cur.execute("SELECT 1 FROM dual WHERE 1 = :one", {"one": 1}, one=1)


# --------------------------------------------------------------------------- the translation cache

def test_each_statement_text_is_translated_once(db: LiteConnection, monkeypatch: pytest.MonkeyPatch) -> None:
    import workshop_lib.lite.connection as connection_module

    calls: list[str] = []
    real = connection_module.translate

    def counting(sql: str, ctx: Any, *rest: Any) -> Any:   # rest: the guard's tokens
        calls.append(sql)
        return real(sql, ctx, *rest)

    monkeypatch.setattr(connection_module, "translate", counting)
    sql = "SELECT name FROM supplychain.vessels WHERE vessel_id = :id AND 'cache-probe' IS NOT NULL"
    cur = db.cursor()
    for vessel in VESSELS:
        cur.execute(sql, id=vessel[0])
        assert cur.fetchone() == (vessel[2],)
    assert calls == [sql]
    plan = db.caches.plans[sql]
    cur.execute(sql, id=1)
    assert db.caches.plans[sql] is plan
    other = sql.replace("cache-probe", "cache-probe-2")
    cur.execute(other, id=1)
    assert calls == [sql, other]


# --------------------------------------------------------------------------- every corpus statement is Oracle SQL

ORACLE_STATEMENTS = SCHEMA_DDL + [INSERT_CARRIER, INSERT_VESSEL, INSERT_NOTE] + DML + [c.sql for c in CORPUS]


@pytest.mark.parametrize("sql", ORACLE_STATEMENTS, ids=range(len(ORACLE_STATEMENTS)))
def test_statement_round_trips_through_the_oracle_dialect(sql: str) -> None:
    guard.check(sql)  # nothing non-Oracle in it
    tree = sqlglot.parse_one(sql, dialect=Oracle)
    assert not isinstance(tree, exp.Command), "sqlglot read it only as an opaque command"
    rendered = tree.sql(dialect=Oracle)
    again = sqlglot.parse_one(rendered, dialect=Oracle)
    assert again == tree, f"round trip changed the statement:\n{sql}\n->\n{rendered}"
    guard.check(rendered)


def test_rendered_statements_run_the_same(db: LiteConnection) -> None:
    """The Oracle text the dialect renders is itself runnable and gives the same answer."""
    for case in CORPUS:
        if case.name in ("sysdate_systimestamp", "date_arithmetic", "user_mining_models"):
            continue  # time-dependent answers
        rendered = sqlglot.parse_one(case.sql, dialect=Oracle).sql(dialect=Oracle)
        with db.cursor() as cur:
            cur.execute(case.sql, case.binds, **case.kwargs)
            original = cur.fetchall()
            cur.execute(rendered, case.binds, **case.kwargs)
            assert cur.fetchall() == original, case.name


def test_lite_errors_are_oracledb_errors(db: LiteConnection) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        db.cursor().execute("SELECT * FROM nowhere")
    assert isinstance(info.value, LiteDatabaseError)
    (error,) = info.value.args
    assert error.code == 942 and error.full_code == "ORA-00942" and error.message.startswith("ORA-00942")


def test_contains_and_score_are_rewritten_before_the_generic_pass(db: LiteConnection) -> None:
    """CONTAINS as a value and SCORE are answered by the slot rewrites; the per-node pass never sees them."""
    with db.cursor() as cur:
        cur.execute("SELECT note_id, CONTAINS(content, :kw, 1) FROM notes ORDER BY note_id", kw="TEU")
        scores = dict(cur.fetchall())
    assert scores[1] > 0 and scores[4] > 0 and scores[2] == 0 and scores[3] == 0
    with pytest.raises(oracledb.DatabaseError, match=r"ORA-29908.*SCORE\(2\)"):
        db.cursor().execute("SELECT SCORE(2) FROM notes WHERE CONTAINS(content, :kw, 1) > 0", kw="TEU")


def test_vector_distance_metric_written_in_lower_case_between_two_columns(db: LiteConnection) -> None:
    with db.cursor() as cur:
        cur.execute("SELECT a.vessel_id, VECTOR_DISTANCE(a.embedding, b.embedding, euclidean) "
                    "FROM supplychain.vessels a JOIN supplychain.vessels b ON b.vessel_id = 1 "
                    "WHERE a.vessel_id IN (1, 3) ORDER BY a.vessel_id")
        rows = cur.fetchall()
    assert rows[0] == (1, pytest.approx(0.0)) and rows[1] == (3, pytest.approx(math.sqrt(2.0), rel=1e-6))


# --------------------------------------------------------------------------- CREATE/DROP INDEX read from the parse tree

@pytest.mark.parametrize("sql, index_type, uniqueness, parameters", [
    ("CREATE UNIQUE INDEX ix_t1 ON ixt (a) TABLESPACE users ONLINE", "NORMAL", "UNIQUE", None),
    ("CREATE BITMAP INDEX ix_t1 ON ixt (b)", "NORMAL", "NONUNIQUE", None),
    ("CREATE INDEX ix_t1 ON ixt (a, b DESC) PARALLEL 4", "NORMAL", "NONUNIQUE", None),
    # a quote doubled inside PARAMETERS is one quote, as Oracle stores it
    ("CREATE INDEX ix_t1 ON ixt (b) INDEXTYPE IS CTXSYS.CONTEXT PARAMETERS ('SYNC (EVERY ''SYSDATE+1'')') "
     "PARALLEL 2", "DOMAIN", "NONUNIQUE", "SYNC (EVERY 'SYSDATE+1')"),
])
def test_create_index_forms_are_recorded(fresh: LiteConnection, sql: str, index_type: str, uniqueness: str,
                                         parameters: str | None) -> None:
    cur = fresh.cursor()
    cur.execute("CREATE TABLE ixt (a NUMBER, b VARCHAR2(40))")
    cur.execute(sql)
    cur.execute("SELECT index_name, table_name, index_type, uniqueness, parameters FROM user_indexes "
                "WHERE table_name = 'IXT'")
    assert cur.fetchall() == [("IX_T1", "IXT", index_type, uniqueness, parameters)]
    cur.execute("DROP INDEX ix_t1")
    cur.execute("SELECT COUNT(*) FROM user_indexes WHERE table_name = 'IXT'")
    assert cur.fetchone() == (0,)


@pytest.mark.parametrize("sql, code, fragment", [
    ("CREATE INDEX ix_t2 ON ixt (UPPER(b))", "ORA-03001", "function-based index (UPPER(b))"),
    ("CREATE INDEX ix_t2 ON ixt (a) COMPRESS 1", "ORA-03001", "index clause: COMPRESS 1"),
    ("CREATE INDEX ix_t2 ON ixt (b) INDEXTYPE IS CTXSYS.CONTEXT FILTER BY a", "ORA-03001", "FILTER BY a"),
    ("CREATE INDEX ix_t2 ON ixt (b) INDEXTYPE IS acme.fulltext", "ORA-03001", "INDEXTYPE IS acme.fulltext"),
    ("CREATE INDEX ix_t2 ON ixt (b) INDEXTYPE IS CTXSYS.CTXCAT", "ORA-03001", "CTXSYS.CTXCAT"),
    ("CREATE VECTOR INDEX ix_t2 ON ixt (a) ORGANIZATION NEIGHBOR PARTITIONS", "ORA-51961", "VECTOR column"),
    ("DROP INDEX no_such_ix", "ORA-01418", "does not exist"),
])
def test_create_index_refusals_name_the_clause(fresh: LiteConnection, sql: str, code: str, fragment: str) -> None:
    cur = fresh.cursor()
    cur.execute("CREATE TABLE ixt (a NUMBER, b VARCHAR2(40))")
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute(sql)
    assert info.value.args[0].full_code == code and fragment in info.value.args[0].message
    cur.execute("DROP INDEX IF EXISTS ix_t2")  # IF EXISTS: no error for a missing index
