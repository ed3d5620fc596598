"""Spatial SQL in lite: SDO_GEOMETRY points, SDO_WITHIN_DISTANCE and SDO_GEOM.SDO_DISTANCE.

A small table of real container ports (approximate WGS 84 positions of the port
areas, longitude first as in SDO_POINT_TYPE) is queried with the Oracle SQL the
workshop uses; every expected answer comes from a haversine written here, in
the test, independently of the engine. Lite computes great-circle distances on
a sphere of the mean Earth radius, Oracle on the WGS 84 ellipsoid (up to ~0.5 %
apart), so the fixtures keep every port well clear of the thresholds used.

As in Oracle, SDO_WITHIN_DISTANCE needs a spatial index on its column
(ORA-13226 without one), and the index is set up the Oracle way: the table
owner inserts a USER_SDO_GEOM_METADATA row, then creates the index with
INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

PORTS = [  # unlocode, name, longitude, latitude
    ("SGSIN", "Singapore", 103.84, 1.26),
    ("MYTPP", "Tanjung Pelepas", 103.55, 1.36),
    ("MYPKG", "Port Klang", 101.39, 3.00),
    ("IDTPP", "Jakarta (Tanjung Priok)", 106.88, -6.10),
    ("VNSGN", "Ho Chi Minh City", 106.75, 10.77),
    ("THLCH", "Laem Chabang", 100.88, 13.08),
    ("PHMNL", "Manila", 120.96, 14.59),
    ("HKHKG", "Hong Kong", 114.17, 22.30),
    ("LKCMB", "Colombo", 79.85, 6.95),
    ("CNSHA", "Shanghai", 121.80, 31.23),
    ("KRPUS", "Busan", 129.04, 35.10),
    ("NLRTM", "Rotterdam", 4.14, 51.95),
    ("USLAX", "Los Angeles", -118.26, 33.74),
]
SINGAPORE = (103.84, 1.26)
EARTH_RADIUS_KM = 6371.0088
KM_PER_MILE = 1.609344


def haversine_km(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Great-circle distance on a sphere of the mean Earth radius (the test's own reference)."""
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi, dlmb = phi2 - phi1, math.radians(lon2 - lon1)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlmb / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def from_singapore(port: tuple) -> float:
    return haversine_km(*SINGAPORE, port[2], port[3])


DIMINFO_SQL = "SDO_DIM_ARRAY(SDO_DIM_ELEMENT('X', -180, 180, 0.05), SDO_DIM_ELEMENT('Y', -90, 90, 0.05))"
DIMINFO = [{"SDO_DIMNAME": "X", "SDO_LB": -180, "SDO_UB": 180, "SDO_TOLERANCE": 0.05},
           {"SDO_DIMNAME": "Y", "SDO_LB": -90, "SDO_UB": 90, "SDO_TOLERANCE": 0.05}]
CREATE_PORTS = """CREATE TABLE supplychain.ports (
                    unlocode  CHAR(5) PRIMARY KEY,
                    port_name VARCHAR2(80) NOT NULL,
                    location  SDO_GEOMETRY)"""
INSERT_PORT = ("INSERT INTO supplychain.ports (unlocode, port_name, location) VALUES (:code, :name, "
               "SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(:lon, :lat, NULL), NULL, NULL))")
INSERT_METADATA = ("INSERT INTO user_sdo_geom_metadata (table_name, column_name, diminfo, srid) "
                   f"VALUES (:t, :c, {DIMINFO_SQL}, 4326)")
PORTS_INDEX = ("CREATE INDEX supplychain.ports_location_sx ON supplychain.ports (location) "
               "INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2 PARAMETERS ('layer_gtype=POINT')")


def error_code(conn: LiteConnection, sql: str, **binds: object) -> tuple[int, str]:
    """Run ``sql``, which must fail; (ORA code, message) of the error."""
    with pytest.raises(oracledb.DatabaseError) as info:
        with conn.cursor() as cur:
            cur.execute(sql, **binds)
            cur.fetchall()
    return info.value.args[0].code, info.value.args[0].message


def spatial_setup(home: Path) -> None:
    """As the table owner (SUPPLYCHAIN, as the seed runs in Oracle): geometry metadata, then the spatial index."""
    with connect(home, "SUPPLYCHAIN") as owner, owner.cursor() as cur:
        cur.execute(INSERT_METADATA, t="PORTS", c="LOCATION")
        owner.commit()
        cur.execute(PORTS_INDEX)


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    home = tmp_path_factory.mktemp("lite_spatial")
    with connect(home, "SUPPLYCHAIN") as owner, owner.cursor() as cur:   # the owner fills its table
        cur.execute(CREATE_PORTS)
        cur.executemany(INSERT_PORT, [{"code": p[0], "name": p[1], "lon": p[2], "lat": p[3]} for p in PORTS])
        cur.execute("INSERT INTO supplychain.ports (unlocode, port_name, location) VALUES ('XXNUL', 'Unplaced', NULL)")
        owner.commit()
    spatial_setup(home)
    connection = connect(home, "AGENT")   # the queries run as AGENT, which reads SUPPLYCHAIN's tables
    yield connection
    connection.close()


@pytest.fixture()
def owner(tmp_path: Path) -> LiteConnection:
    """A fresh home connected as SUPPLYCHAIN, owner of an empty PORTS table (no metadata, no index)."""
    connection = connect(tmp_path, "SUPPLYCHAIN")
    connection.cursor().execute(CREATE_PORTS)
    yield connection
    connection.close()


WITHIN_SQL = """SELECT p.unlocode
FROM supplychain.ports p
WHERE SDO_WITHIN_DISTANCE(
        p.location,
        SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(:lon, :lat, NULL), NULL, NULL),
        'distance=1500 unit=KM') = 'TRUE'
ORDER BY p.unlocode"""


def test_ports_within_1500_km_of_singapore(conn: LiteConnection) -> None:
    distances = {p[0]: from_singapore(p) for p in PORTS}
    assert all(abs(d - 1500) > 50 for d in distances.values()), "a fixture port sits on the 1500 km boundary"
    expected = sorted(code for code, km in distances.items() if km <= 1500)
    assert 3 <= len(expected) < len(PORTS)  # the filter is doing something
    with conn.cursor() as cur:
        cur.execute(WITHIN_SQL, lon=SINGAPORE[0], lat=SINGAPORE[1])
        assert [r[0] for r in cur.fetchall()] == expected


def test_within_distance_in_miles_and_with_a_built_parameter_string(conn: LiteConnection) -> None:
    miles = 800
    expected = sorted(p[0] for p in PORTS if from_singapore(p) <= miles * KM_PER_MILE)
    assert all(abs(from_singapore(p) - miles * KM_PER_MILE) > 50 for p in PORTS)
    with conn.cursor() as cur:
        cur.execute("SELECT p.unlocode FROM supplychain.ports p, supplychain.ports s "
                    "WHERE s.unlocode = 'SGSIN' AND SDO_WITHIN_DISTANCE(p.location, s.location, "
                    "'distance=' || :miles || ' unit=MILE') = 'TRUE' ORDER BY p.unlocode", miles=miles)
        assert [r[0] for r in cur.fetchall()] == expected


def test_sdo_distance_km_mile_and_default_meters(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("""SELECT p.unlocode,
                              SDO_GEOM.SDO_DISTANCE(p.location, s.location, 0.005, 'unit=KM') AS km,
                              SDO_GEOM.SDO_DISTANCE(p.location, s.location, 0.005, 'unit=MILE') AS miles,
                              SDO_GEOM.SDO_DISTANCE(p.location, s.location, 0.005) AS meters
                       FROM supplychain.ports p
                       JOIN supplychain.ports s ON s.unlocode = 'SGSIN'
                       WHERE p.location IS NOT NULL
                       ORDER BY km
                       FETCH FIRST 5 ROWS ONLY""")
        assert [d[0] for d in cur.description] == ["UNLOCODE", "KM", "MILES", "METERS"]
        rows = cur.fetchall()
    nearest = sorted(PORTS, key=from_singapore)[:5]
    assert [r[0] for r in rows] == [p[0] for p in nearest]
    for (code, km, miles, meters), port in zip(rows, nearest):
        assert km == pytest.approx(from_singapore(port), rel=1e-9, abs=1e-9)
        assert miles == pytest.approx(km / KM_PER_MILE, rel=1e-9, abs=1e-9)
        assert meters == pytest.approx(km * 1000, rel=1e-9, abs=1e-6)
    assert rows[0][1] == 0  # Singapore to itself


def test_rotterdam_to_singapore_is_a_long_haul(conn: LiteConnection) -> None:
    rotterdam = next(p for p in PORTS if p[0] == "NLRTM")
    with conn.cursor() as cur:
        cur.execute("SELECT SDO_GEOM.SDO_DISTANCE(a.location, b.location, 0.005, 'unit=KM') FROM supplychain.ports a, "
                    "supplychain.ports b WHERE a.unlocode = 'NLRTM' AND b.unlocode = 'SGSIN'")
        (km,) = cur.fetchone()
    assert km == pytest.approx(from_singapore(rotterdam), rel=1e-9)
    assert 10_000 < km < 10_700  # sanity check against the published great-circle distance (~10,500 km)


def test_geometry_values_and_attributes(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("SELECT p.location, p.location.SDO_POINT.X AS lon, p.location.SDO_POINT.Y AS lat, "
                    "p.location.SDO_SRID AS srid FROM supplychain.ports p WHERE p.unlocode IN ('HKHKG', 'XXNUL') "
                    "ORDER BY p.unlocode")
        (geometry, lon, lat, srid), empty = cur.fetchall()
    hong_kong = next(p for p in PORTS if p[0] == "HKHKG")
    assert geometry.SDO_GTYPE == 2001 and geometry.SDO_SRID == 4326 and geometry.SDO_POINT.Z is None
    assert (geometry.SDO_POINT.X, geometry.SDO_POINT.Y) == (hong_kong[2], hong_kong[3]) == (lon, lat)
    assert srid == 4326
    assert empty == (None, None, None, None)


def test_null_locations_are_never_within_distance(conn: LiteConnection) -> None:
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM supplychain.ports p WHERE SDO_WITHIN_DISTANCE(p.location, "
                    "SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(0, 0, NULL), NULL, NULL), 'distance=30000 unit=KM') "
                    "= 'TRUE'")
        assert cur.fetchone() == (len(PORTS),)


@pytest.mark.parametrize("sql, code", [
    ("SELECT SDO_GEOM.SDO_DISTANCE(location, location, 0.005, 'unit=FURLONG') FROM supplychain.ports", 13205),
    ("SELECT COUNT(*) FROM supplychain.ports p WHERE SDO_WITHIN_DISTANCE(p.location, p.location, 'unit=KM') "
     "= 'TRUE'", 13207),
    ("SELECT SDO_GEOMETRY(2003, 4326, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 3), "
     "SDO_ORDINATE_ARRAY(0, 0, 1, 1)) FROM dual", None),
])
def test_spatial_errors(conn: LiteConnection, sql: str, code: int | None) -> None:
    with pytest.raises(oracledb.DatabaseError) as info:
        with conn.cursor() as cur:
            cur.execute(sql)
            cur.fetchall()
    if code is not None:
        assert info.value.args[0].code == code, str(info.value)


# --------------------------------------------------------------------------- geometry metadata and spatial indexes

def test_geometry_metadata_insert_select_update_delete(owner: LiteConnection, tmp_path: Path) -> None:
    cur = owner.cursor()
    # Oracle upper-cases the names it stores (the view's trigger does it), so lower case works too.
    cur.execute(INSERT_METADATA, t="ports", c="location")
    cur.execute("SELECT table_name, column_name, diminfo, srid FROM user_sdo_geom_metadata")
    (table, column, diminfo, srid), = cur.fetchall()
    assert (table, column, srid) == ("PORTS", "LOCATION", 4326)
    assert json.loads(diminfo) == DIMINFO
    owner.commit()
    cur.execute("UPDATE user_sdo_geom_metadata SET srid = 8307 WHERE table_name = 'PORTS'")
    cur.execute("SELECT srid FROM user_sdo_geom_metadata WHERE table_name = 'PORTS' AND column_name = 'LOCATION'")
    assert cur.fetchall() == [(8307,)]
    owner.rollback()
    cur.execute("SELECT srid FROM user_sdo_geom_metadata")
    assert cur.fetchall() == [(4326,)]  # the view's writes are ordinary transactional DML
    # Rows are per user: another user sees none of them in USER_, all of them (with OWNER) in ALL_.
    with connect(tmp_path, "AGENT") as agent, agent.cursor() as other:
        other.execute("SELECT COUNT(*) FROM user_sdo_geom_metadata")
        assert other.fetchone() == (0,)
        other.execute("INSERT INTO user_sdo_geom_metadata (table_name, column_name, diminfo, srid) "
                      "VALUES ('PORTS', 'LOCATION', NULL, NULL)")  # the same names, AGENT's own row
        agent.commit()
        other.execute("SELECT owner, table_name, column_name, srid FROM all_sdo_geom_metadata ORDER BY owner")
        assert other.fetchall() == [("AGENT", "PORTS", "LOCATION", None), ("SUPPLYCHAIN", "PORTS", "LOCATION", 4326)]
    cur.execute("DELETE FROM user_sdo_geom_metadata WHERE table_name IN ('PORTS', 'VESSEL_POSITIONS')")
    owner.commit()
    cur.execute("SELECT owner FROM all_sdo_geom_metadata")
    assert cur.fetchall() == [("AGENT",)]  # SUPPLYCHAIN's DELETE left AGENT's row alone
    cur.execute(INSERT_METADATA, t="PORTS", c="LOCATION")  # and the name is free again


@pytest.mark.parametrize("sql, code", [
    # a second row for the same column
    (INSERT_METADATA.replace(":t, :c", "'PORTS', 'LOCATION'"), 13223),
    # DIMINFO must be an SDO_DIM_ARRAY, which holds at most four dimensions
    ("INSERT INTO user_sdo_geom_metadata VALUES ('PORTS', 'X', 'X -180 180', 4326)", 932),
    ("INSERT INTO user_sdo_geom_metadata VALUES ('PORTS', 'X', SDO_DIM_ARRAY(" + ", ".join(
        f"SDO_DIM_ELEMENT('D{i}', 0, 1, 0.5)" for i in range(5)) + "), NULL)", 22909),
    ("SELECT SDO_DIM_ELEMENT('X', -180, 180) FROM dual", 2315),
    ("INSERT INTO user_sdo_geom_metadata (table_name, column_name) VALUES (NULL, 'LOCATION')", 1400),
    # ALL_SDO_GEOM_METADATA is read-only, and the USER_ view is no schema's table
    ("INSERT INTO all_sdo_geom_metadata (owner, table_name, column_name) VALUES ('X', 'T', 'C')", 1031),
    ("DELETE FROM all_sdo_geom_metadata", 1031),
    ("SELECT * FROM supplychain.user_sdo_geom_metadata", 942),
])
def test_geometry_metadata_rejects_what_oracle_rejects(owner: LiteConnection, sql: str, code: int) -> None:
    owner.cursor().execute(INSERT_METADATA, t="PORTS", c="LOCATION")
    assert error_code(owner, sql)[0] == code
    with owner.cursor() as cur:
        cur.execute("SELECT table_name, column_name FROM user_sdo_geom_metadata")
        assert cur.fetchall() == [("PORTS", "LOCATION")]  # the failed statement changed nothing


def test_mdsys_qualified_constructors(owner: LiteConnection) -> None:
    with owner.cursor() as cur:
        cur.execute("INSERT INTO user_sdo_geom_metadata VALUES ('PORTS', 'LOCATION', MDSYS.SDO_DIM_ARRAY("
                    "MDSYS.SDO_DIM_ELEMENT('X', -180, 180, 0.05), MDSYS.SDO_DIM_ELEMENT('Y', -90, 90, 0.05)), 4326)")
        cur.execute("SELECT diminfo FROM user_sdo_geom_metadata")
        assert json.loads(cur.fetchone()[0]) == DIMINFO


def test_spatial_index_is_a_domain_index_in_the_dictionary(owner: LiteConnection, tmp_path: Path) -> None:
    cur = owner.cursor()
    cur.execute(INSERT_PORT, code="SGSIN", name="Singapore", lon=103.84, lat=1.26)
    cur.execute(INSERT_METADATA, t="PORTS", c="LOCATION")
    cur.execute(PORTS_INDEX)
    cur.execute("SELECT index_name, index_type, ityp_owner, ityp_name, parameters, table_name, status, "
                "domidx_status FROM user_indexes WHERE index_type = 'DOMAIN'")
    assert cur.fetchall() == [("PORTS_LOCATION_SX", "DOMAIN", "MDSYS", "SPATIAL_INDEX_V2", "layer_gtype=POINT",
                               "PORTS", "VALID", "VALID")]
    with connect(tmp_path, "AGENT") as agent, agent.cursor() as other:
        other.execute("SELECT owner, index_name, index_type, ityp_owner FROM all_indexes WHERE table_name = 'PORTS' "
                      "AND index_type = 'DOMAIN'")
        assert other.fetchall() == [("SUPPLYCHAIN", "PORTS_LOCATION_SX", "DOMAIN", "MDSYS")]
        other.execute("SELECT COUNT(*) FROM user_indexes WHERE index_type = 'DOMAIN'")
        assert other.fetchone() == (0,)
    within = ("SELECT unlocode FROM supplychain.ports p WHERE SDO_WITHIN_DISTANCE(p.location, SDO_GEOMETRY(2001, "
              "4326, SDO_POINT_TYPE(103.8, 1.3, NULL), NULL, NULL), 'distance=10 unit=KM') = 'TRUE'")
    cur.execute(within)
    assert cur.fetchall() == [("SGSIN",)]
    cur.execute("DROP INDEX supplychain.ports_location_sx")
    assert error_code(owner, within)[0] == 13226  # the plan made while the index existed is not reused
    # The older indextype is accepted as well.
    cur.execute("CREATE INDEX ports_location_sx ON ports (location) INDEXTYPE IS MDSYS.SPATIAL_INDEX")
    cur.execute("SELECT ityp_name, parameters FROM user_indexes WHERE index_type = 'DOMAIN'")
    assert cur.fetchall() == [("SPATIAL_INDEX", None)]
    cur.execute(within)
    assert cur.fetchall() == [("SGSIN",)]


@pytest.mark.parametrize("sql, code, cause", [
    ("CREATE INDEX ports_name_sx ON ports (port_name) INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2", 29855, "ORA-13228"),
    ("CREATE INDEX ports_two_sx ON ports (location, port_name) INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2", 29851, ""),
    ("CREATE INDEX ports_location_sx ON ports (location) INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2 "
     "PARAMETERS ('layer_gtype=BLOB')", 29855, "ORA-13376"),
    ("CREATE INDEX ports_location_sx ON ports (location) INDEXTYPE IS MDSYS.SPATIAL_INDEX_V3", 3001, ""),
    ("CREATE INDEX ports_location_sx ON ports (no_such_column) INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2", 904, ""),
])
def test_spatial_index_creation_errors(owner: LiteConnection, sql: str, code: int, cause: str) -> None:
    owner.cursor().execute(INSERT_METADATA, t="PORTS", c="LOCATION")
    error, message = error_code(owner, sql)
    assert error == code, message
    assert cause in message
    with owner.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM user_indexes WHERE index_type = 'DOMAIN'")
        assert cur.fetchone() == (0,)


def test_spatial_index_needs_metadata_or_data_and_matching_srid(owner: LiteConnection) -> None:
    cur = owner.cursor()
    # An empty table without a metadata row: nothing to build the index from (Oracle 23ai creates missing
    # metadata from the rows, so it needs at least one geometry).
    error, message = error_code(owner, PORTS_INDEX)
    assert error == 29855 and "ORA-13203" in message and "user_sdo_geom_metadata" in message
    cur.execute(INSERT_PORT, code="SGSIN", name="Singapore", lon=103.84, lat=1.26)
    cur.execute("INSERT INTO user_sdo_geom_metadata VALUES ('PORTS', 'LOCATION', NULL, 8307)")
    error, message = error_code(owner, PORTS_INDEX)
    assert error == 29855 and "ORA-13365" in message  # the metadata's SRID is not the rows' 4326
    cur.execute("UPDATE user_sdo_geom_metadata SET srid = 4326")
    cur.execute(PORTS_INDEX)
    error, message = error_code(owner, PORTS_INDEX.replace("ports_location_sx", "ports_location_sx2"))
    assert error == 29879 and "PORTS_LOCATION_SX" in message


def test_within_distance_needs_a_spatial_index(owner: LiteConnection) -> None:
    cur = owner.cursor()
    cur.executemany(INSERT_PORT, [{"code": p[0], "name": p[1], "lon": p[2], "lat": p[3]} for p in PORTS])
    error, message = error_code(owner, WITHIN_SQL, lon=SINGAPORE[0], lat=SINGAPORE[1])
    assert error == 13226 and "SUPPLYCHAIN.PORTS.LOCATION" in message and "SPATIAL_INDEX_V2" in message
    point = "SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(103.84, 1.26, NULL), NULL, NULL)"
    constant = f"SELECT 1 FROM dual WHERE SDO_WITHIN_DISTANCE({point}, {point}, 'distance=1 unit=KM') = 'TRUE'"
    assert error_code(owner, constant)[0] == 13226  # the first argument must be an indexed column
    cur.execute(INSERT_METADATA, t="PORTS", c="LOCATION")
    cur.execute(PORTS_INDEX)
    expected = sorted(p[0] for p in PORTS if from_singapore(p) <= 1500)
    cur.execute(WITHIN_SQL, lon=SINGAPORE[0], lat=SINGAPORE[1])
    assert [r[0] for r in cur.fetchall()] == expected
    # The index is found through an inline view too, as Oracle merges the view into the query.
    cur.execute("SELECT v.unlocode FROM (SELECT unlocode, location FROM ports) v WHERE SDO_WITHIN_DISTANCE("
                f"v.location, {point}, 'distance=1500 unit=KM') = 'TRUE' ORDER BY v.unlocode")
    assert [r[0] for r in cur.fetchall()] == expected
    # SDO_GEOM.SDO_DISTANCE is a function, not an index operator: it never needed the index.
    cur.execute(f"SELECT ROUND(SDO_GEOM.SDO_DISTANCE(location, {point}, 0.005, 'unit=KM')) FROM ports "
                "WHERE unlocode = 'SGSIN'")
    assert cur.fetchone() == (0,)


# --------------------------------------------------------------------------- secondary objects

REAL_TABLES_SQL = ("SELECT table_name FROM all_tables WHERE owner = :owner AND secondary = 'N' "
                   "ORDER BY table_name")
SECONDARY_SQL = "SELECT table_name FROM all_tables WHERE owner = :owner AND secondary = 'Y'"


def _names(conn: LiteConnection, sql: str, **binds: object) -> list[str]:
    with conn.cursor() as cur:
        cur.execute(sql, **binds)
        return [r[0] for r in cur.fetchall()]


def test_a_spatial_index_lists_its_mdrt_table_as_a_secondary_object_as_oracle_does(owner: LiteConnection) -> None:
    """Oracle's SPATIAL_INDEX_V2 leaves MDRT_<hex>$ (NODE_ID, NODE_LEVEL, INFO) in the owner's schema, SECONDARY = 'Y'."""
    with owner.cursor() as cur:
        cur.execute(INSERT_METADATA, t="PORTS", c="LOCATION")
        owner.commit()
        cur.execute(PORTS_INDEX)
    secondary = _names(owner, SECONDARY_SQL, owner="SUPPLYCHAIN")
    assert len(secondary) == 1 and secondary[0].startswith("MDRT_") and secondary[0].endswith("$")
    assert _names(owner, "SELECT table_name FROM user_tables WHERE secondary = 'Y'") == secondary
    assert _names(owner, REAL_TABLES_SQL, owner="SUPPLYCHAIN") == ["PORTS"]
    assert _names(owner, "SELECT table_name FROM all_tables WHERE owner = :owner AND dropped = 'NO' "
                         "ORDER BY table_name", owner="SUPPLYCHAIN") == sorted(["PORTS", secondary[0]])
    cols = _names(owner, "SELECT column_name FROM all_tab_columns WHERE owner = :owner AND table_name = :t "
                         "ORDER BY column_id", owner="SUPPLYCHAIN", t=secondary[0])
    assert cols == ["NODE_ID", "NODE_LEVEL", "INFO"]
    with owner.cursor() as cur:   # a real (empty) table, as in Oracle
        cur.execute(f'SELECT COUNT(*) FROM supplychain."{secondary[0]}"')
        assert cur.fetchone()[0] == 0
        cur.execute("DROP INDEX supplychain.ports_location_sx")
    assert _names(owner, SECONDARY_SQL, owner="SUPPLYCHAIN") == [], "dropping the index drops its table"
    with owner.cursor() as cur:
        cur.execute(PORTS_INDEX)
        assert len(_names(owner, SECONDARY_SQL, owner="SUPPLYCHAIN")) == 1
        cur.execute("DROP TABLE supplychain.ports PURGE")
    assert _names(owner, "SELECT table_name FROM all_tables WHERE owner = :owner", owner="SUPPLYCHAIN") == []


def test_the_seeded_catalog_has_two_mdrt_tables_that_real_table_queries_skip(tmp_path: Path) -> None:
    from workshop_lib.config import SEED_TABLES, SPATIAL_INDEXES
    from workshop_lib.seed import run_seed

    with connect(tmp_path, "SUPPLYCHAIN") as owner:
        run_seed(owner, atomic=True, label="lite")
        secondary = _names(owner, SECONDARY_SQL, owner="SUPPLYCHAIN")
        assert len(secondary) == len(SPATIAL_INDEXES)
        assert sorted(_names(owner, REAL_TABLES_SQL, owner="SUPPLYCHAIN")) == sorted(SEED_TABLES)
