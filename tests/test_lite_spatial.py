"""Spatial SQL in lite: SDO_GEOMETRY points, SDO_WITHIN_DISTANCE and SDO_GEOM.SDO_DISTANCE.

A small table of real container ports (approximate WGS 84 positions of the port
areas, longitude first as in SDO_POINT_TYPE) is queried with the Oracle SQL the
workshop uses; every expected answer comes from a haversine written here, in
the test, independently of the engine. Lite computes great-circle distances on
a sphere of the mean Earth radius, Oracle on the WGS 84 ellipsoid (up to ~0.5 %
apart), so the fixtures keep every port well clear of the thresholds used.
"""

from __future__ import annotations

import math

import oracledb
import pytest

from workshop_lib.lite import LiteConnection, connect

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


@pytest.fixture(scope="module")
def conn(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    connection = connect(tmp_path_factory.mktemp("lite_spatial"), "AGENT")
    cur = connection.cursor()
    cur.execute("""CREATE TABLE supplychain.ports (
                     unlocode  CHAR(5) PRIMARY KEY,
                     port_name VARCHAR2(80) NOT NULL,
                     location  SDO_GEOMETRY)""")
    cur.executemany(
        "INSERT INTO supplychain.ports (unlocode, port_name, location) VALUES (:code, :name, "
        "SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(:lon, :lat, NULL), NULL, NULL))",
        [{"code": p[0], "name": p[1], "lon": p[2], "lat": p[3]} for p in PORTS])
    cur.execute("INSERT INTO supplychain.ports (unlocode, port_name, location) VALUES ('XXNUL', 'Unplaced', NULL)")
    connection.commit()
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
