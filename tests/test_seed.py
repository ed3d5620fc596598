"""The SUPPLYCHAIN seed: generated content, the statement splitter, and seed runs in lite.

Content checks read ``seed/supplychain.sql`` with sqlglot (Oracle dialect) and
recompute every invariant here (check digits, foreign keys, dates, geometry)
rather than trusting the generator. Run checks execute the script through
``workshop_lib.seed.run_seed`` on the lite engine under a temporary
WORKSHOP_HOME.
"""

from __future__ import annotations

import importlib.util
import math
import re
import shutil
import sys
from datetime import date, datetime
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from workshop_lib.errors import SeedError
from workshop_lib.backends.lite import connect_lite as lite_connect
from workshop_lib.seed import DEFAULT_SQL_PATH, SeedReport, created_tables, run_seed, split_statements

from workshop_lib.lite.dialect import Oracle as DIALECT

REPO = Path(__file__).resolve().parent.parent
SEED_SQL = REPO / "seed" / "supplychain.sql"
GENERATOR = REPO / "seed" / "generate.py"

EXPECTED_COUNTS = {
    "carriers": 15,
    "ports": 25,
    "vessels": 30,
    "voyages": 60,
    "vessel_positions": 28,
    "containers": 150,
    "cargo_items": 300,
}
PRIMARY_KEYS = {
    "carriers": "carrier_id",
    "ports": "port_id",
    "vessels": "vessel_id",
    "voyages": "voyage_id",
    "vessel_positions": "position_id",
    "containers": "container_id",
    "cargo_items": "cargo_item_id",
}
AS_OF = datetime(2025, 11, 1)  # the seed's fixed "now" (see the VOYAGES table comment)
ALLOWED_TYPES = re.compile(
    r"^(NUMBER(\(\d+(, ?\d+)?\))?|VARCHAR2\(\d+\)|CHAR\(\d+\)|DATE|TIMESTAMP|CLOB|JSON|SDO_GEOMETRY)$")


# --------------------------------------------------------------------------- #
# Reading the generated SQL
# --------------------------------------------------------------------------- #

def _value(node: exp.Expression):
    """Python value of one VALUES item: numbers, strings, NULL, dates, SDO_GEOMETRY points."""
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Neg):
        return -_value(node.this)
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        text = node.this
        return int(text) if re.fullmatch(r"\d+", text) else float(text)
    if isinstance(node, exp.StrToDate):
        return date.fromisoformat(node.this.this)
    if isinstance(node, exp.StrToTime):
        return datetime.fromisoformat(node.this.this)
    if isinstance(node, exp.Anonymous) and node.name.upper() == "SDO_DIM_ARRAY":
        dims = []
        for element in node.expressions:
            assert isinstance(element, exp.Anonymous) and element.name.upper() == "SDO_DIM_ELEMENT"
            dims.append(tuple(_value(v) for v in element.expressions))
        return dims
    if isinstance(node, exp.Anonymous) and node.name.upper() == "SDO_GEOMETRY":
        gtype, srid, point, elem_info, ordinates = (node.expressions + [None] * 5)[:5]
        assert isinstance(point, exp.Anonymous) and point.name.upper() == "SDO_POINT_TYPE"
        x, y, z = (_value(p) for p in point.expressions)
        return {"gtype": _value(gtype), "srid": _value(srid), "x": x, "y": y, "z": z,
                "elem_info": _value(elem_info), "ordinates": _value(ordinates)}
    raise AssertionError(f"unexpected value expression in seed INSERT: {node.sql(DIALECT)}")


class SeedContent:
    """The seed script parsed: statements, CREATE TABLE definitions, rows and comments."""

    def __init__(self, text: str):
        self.statements = split_statements(text)
        self.tables: dict[str, exp.Schema] = {}
        self.rows: dict[str, list[dict]] = {}
        self.table_comments: dict[str, str] = {}
        self.column_comments: dict[tuple[str, str], str] = {}
        self.geom_metadata: list[dict] = []       # INSERT INTO user_sdo_geom_metadata rows
        self.metadata_deletes: list[exp.Delete] = []
        self.spatial_indexes: dict[tuple[str, str], str] = {}  # (table, column) -> CREATE INDEX text
        self.position: dict[str, int] = {}         # first words of a statement -> its index (for ordering)
        for number, stmt in enumerate(self.statements):
            tree = sqlglot.parse_one(stmt, read=DIALECT)
            if isinstance(tree, exp.Create) and tree.kind == "TABLE":
                self.tables[tree.this.this.name.lower()] = tree.this
            elif isinstance(tree, exp.Insert) and tree.this.this.name.lower() == "user_sdo_geom_metadata":
                columns = [c.name.lower() for c in tree.this.expressions]
                (tup,) = tree.expression.expressions
                self.geom_metadata.append(dict(zip(columns, (_value(v) for v in tup.expressions), strict=True)))
                self.position[f"metadata {self.geom_metadata[-1]['table_name']}"] = number
            elif isinstance(tree, exp.Insert):
                table = tree.this.this.name.lower()
                columns = [c.name.lower() for c in tree.this.expressions]
                for tup in tree.expression.expressions:
                    self.rows.setdefault(table, []).append(
                        dict(zip(columns, (_value(v) for v in tup.expressions), strict=True)))
                self.position[f"last insert {table}"] = number
            elif isinstance(tree, exp.Delete):
                self.metadata_deletes.append(tree)
                self.position["metadata delete"] = number
            elif isinstance(tree, exp.Create) and tree.kind == "INDEX" and "INDEXTYPE" in stmt.upper():
                index = tree.this
                table = index.args["table"].name.lower()
                (column,) = [c.name.lower() for c in index.args["params"].args["columns"]]
                self.spatial_indexes[(table, column)] = stmt
                self.position[f"spatial index {table}"] = number
            elif isinstance(tree, exp.Comment):
                text_ = tree.expression.this
                target = tree.this
                if tree.args["kind"].upper() == "TABLE":
                    self.table_comments[target.name.lower()] = text_
                else:
                    self.column_comments[(target.table.lower(), target.name.lower())] = text_

    def columns(self, table: str) -> dict[str, str]:
        """Column name -> Oracle type text for one table."""
        return {c.name.lower(): c.args["kind"].sql("oracle") for c in self.tables[table].expressions
                if isinstance(c, exp.ColumnDef)}

    def foreign_keys(self) -> list[tuple[str, str, str, str]]:
        """(child table, child column, parent table, parent column) for every FOREIGN KEY."""
        fks = []
        for table, schema in self.tables.items():
            for fk in schema.find_all(exp.ForeignKey):
                ref = fk.args["reference"].this
                for child, parent in zip(fk.expressions, ref.expressions, strict=True):
                    fks.append((table, child.name.lower(), ref.this.name.lower(), parent.name.lower()))
        return fks


@pytest.fixture(scope="module")
def seed() -> SeedContent:
    return SeedContent(SEED_SQL.read_text(encoding="utf-8"))


def _by_id(rows: list[dict], key: str) -> dict:
    return {r[key]: r for r in rows}


def _imo_valid(number: int) -> bool:
    digits = f"{number:07d}"
    return len(digits) == 7 and sum(int(d) * w for d, w in zip(digits[:6], (7, 6, 5, 4, 3, 2))) % 10 == int(digits[6])


def _iso6346_valid(number: str) -> bool:
    if not re.fullmatch(r"[A-Z]{3}U\d{7}", number):
        return False
    values, v = {}, 10
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if v in (11, 22, 33):
            v += 1
        values[letter] = v
        v += 1
    total = sum((values[c] if c.isalpha() else int(c)) << i for i, c in enumerate(number[:10]))
    return total % 11 % 10 == int(number[10])


def _haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


# --------------------------------------------------------------------------- #
# Content of seed/supplychain.sql
# --------------------------------------------------------------------------- #

def test_seed_file_is_plain_sql_statements(seed: SeedContent) -> None:
    text = SEED_SQL.read_text(encoding="utf-8")
    assert not re.search(r"(?im)^\s*/\s*$", text), "no SQL*Plus '/' terminator lines"
    assert not re.search(r"(?im)^\s*(BEGIN|DECLARE|SET |SPOOL|PROMPT|@)", text), "no PL/SQL or SQL*Plus commands"
    assert all(s.split()[0].upper() in ("DROP", "CREATE", "COMMENT", "INSERT", "DELETE") for s in seed.statements)
    assert all(s.startswith("DELETE FROM user_sdo_geom_metadata ") for s in seed.statements if s.startswith("DELETE"))
    assert all(re.match(r"(?i)(DROP TABLE IF EXISTS|CREATE TABLE|CREATE INDEX) supplychain\.", s)
               for s in seed.statements if s.upper().startswith(("DROP", "CREATE")))


def test_exact_row_counts(seed: SeedContent) -> None:
    assert set(seed.tables) == set(EXPECTED_COUNTS)
    assert {t: len(seed.rows.get(t, [])) for t in EXPECTED_COUNTS} == EXPECTED_COUNTS


def test_drops_come_first_in_reverse_dependency_order(seed: SeedContent) -> None:
    drops = [s for s in seed.statements if s.upper().startswith("DROP TABLE")]
    assert drops == seed.statements[: len(drops)]
    dropped = [re.search(r"supplychain\.(\w+)", d).group(1) for d in drops]
    assert sorted(dropped) == sorted(EXPECTED_COUNTS)
    for child, _col, parent, _pcol in seed.foreign_keys():
        assert dropped.index(child) < dropped.index(parent), f"{child} must be dropped before {parent}"
    for d in drops:
        assert d.upper().endswith("CASCADE CONSTRAINTS PURGE")


def test_column_types_are_oracle_types_from_the_allowed_list(seed: SeedContent) -> None:
    for table in seed.tables:
        for column, type_text in seed.columns(table).items():
            assert ALLOWED_TYPES.match(type_text), f"{table}.{column} has type {type_text}"
    assert seed.columns("ports")["location"] == "SDO_GEOMETRY"
    assert seed.columns("vessel_positions")["position"] == "SDO_GEOMETRY"
    assert seed.columns("vessel_positions")["recorded_at"] == "TIMESTAMP"


def test_primary_keys_are_unique_and_match_ddl(seed: SeedContent) -> None:
    for table, key in PRIMARY_KEYS.items():
        pks = list(seed.tables[table].find_all(exp.PrimaryKey))
        assert [c.name.lower() for c in pks[0].expressions] == [key]
        ids = [r[key] for r in seed.rows[table]]
        assert len(ids) == len(set(ids)) and all(isinstance(i, int) for i in ids)


def test_every_foreign_key_resolves(seed: SeedContent) -> None:
    fks = seed.foreign_keys()
    assert len(fks) == 8  # vessels->carriers, voyages->vessels/ports x2, positions->vessels/voyages, ...
    for child, column, parent, parent_column in fks:
        parents = {r[parent_column] for r in seed.rows[parent]}
        orphans = [r[column] for r in seed.rows[child] if r[column] is not None and r[column] not in parents]
        assert not orphans, f"{child}.{column} values missing from {parent}.{parent_column}: {orphans[:5]}"


def test_carriers_have_real_scac_codes(seed: SeedContent) -> None:
    scacs = {r["scac_code"]: r["carrier_name"] for r in seed.rows["carriers"]}
    assert len(scacs) == 15 and all(re.fullmatch(r"[A-Z]{4}", s) for s in scacs)
    for scac, fragment in {"MAEU": "Maersk", "MSCU": "MSC", "CMDU": "CMA CGM", "COSU": "COSCO",
                           "HLCU": "Hapag", "ONEY": "ONE", "EGLV": "Evergreen", "HDMU": "HMM"}.items():
        assert fragment in scacs[scac]


def test_ports_unlocode_coordinates_and_geometry(seed: SeedContent) -> None:
    ports = seed.rows["ports"]
    assert len({p["unlocode"] for p in ports}) == 25
    for p in ports:
        assert re.fullmatch(r"[A-Z]{2}[A-Z2-9]{3}", p["unlocode"])
        assert p["unlocode"][:2] == p["country_code"]
        assert -90 <= p["latitude"] <= 90 and -180 <= p["longitude"] <= 180
        g = p["location"]
        assert (g["gtype"], g["srid"], g["z"], g["elem_info"], g["ordinates"]) == (2001, 4326, None, None, None)
        assert (g["x"], g["y"]) == (p["longitude"], p["latitude"]), "SDO_POINT X is longitude, Y latitude"
    # A few well-known ports, so a swapped lat/lon or a wrong sign cannot slip through.
    known = {"SGSIN": (1.26, 103.82), "NLRTM": (51.95, 4.05), "USLAX": (33.74, -118.27),
             "BRSSZ": (-23.96, -46.31), "AUMEL": (-37.83, 144.91)}
    by_code = {p["unlocode"]: p for p in ports}
    for code, (lat, lon) in known.items():
        assert _haversine_km(lat, lon, by_code[code]["latitude"], by_code[code]["longitude"]) < 25


def test_every_geometry_column_has_metadata_and_a_spatial_index(seed: SeedContent) -> None:
    """SDO_WITHIN_DISTANCE needs a spatial index (ORA-13226), the index a USER_SDO_GEOM_METADATA row."""
    geometry_columns = {(t, c) for t in seed.tables for c, typ in seed.columns(t).items() if typ == "SDO_GEOMETRY"}
    assert geometry_columns == {("ports", "location"), ("vessel_positions", "position")}
    # Metadata: one row per geometry column, names upper-case (as Oracle stores and looks them up), the rows'
    # SRID, and X/Y bounds that hold every point of the column.
    assert sorted((m["table_name"], m["column_name"]) for m in seed.geom_metadata) == sorted(
        (t.upper(), c.upper()) for t, c in geometry_columns)
    for meta in seed.geom_metadata:
        table, column = meta["table_name"].lower(), meta["column_name"].lower()
        points = [r[column] for r in seed.rows[table] if r[column] is not None]
        assert points and {g["srid"] for g in points} == {meta["srid"]} == {4326}
        (x_name, x_lo, x_hi, x_tol), (y_name, y_lo, y_hi, y_tol) = meta["diminfo"]
        assert (x_name, y_name) == ("X", "Y") and 0 < x_tol == y_tol <= 0.05
        assert all(x_lo <= g["x"] <= x_hi and y_lo <= g["y"] <= y_hi for g in points)
        assert (x_lo, x_hi, y_lo, y_hi) == (-180, 180, -90, 90)
    # The DELETE that makes a re-run idempotent names exactly those tables and comes before the INSERTs.
    (delete,) = seed.metadata_deletes
    assert delete.this.name.lower() == "user_sdo_geom_metadata"
    assert {lit.this for lit in delete.args["where"].this.expressions} == {m["table_name"] for m in seed.geom_metadata}
    # Each index: MDSYS.SPATIAL_INDEX_V2 for points, created after its table is filled and its metadata inserted.
    assert set(seed.spatial_indexes) == geometry_columns
    for (table, column), stmt in seed.spatial_indexes.items():
        assert re.fullmatch(rf"CREATE INDEX supplychain\.{table}_{column}_sx ON supplychain\.{table} \({column}\) "
                            r"INDEXTYPE IS MDSYS\.SPATIAL_INDEX_V2 PARAMETERS \('layer_gtype=POINT'\)", stmt), stmt
        assert all(r[column] is None or r[column]["gtype"] == 2001 for r in seed.rows[table])  # layer_gtype=POINT
        at = seed.position[f"spatial index {table}"]
        assert seed.position["metadata delete"] < seed.position[f"metadata {table.upper()}"] < at
        assert seed.position[f"last insert {table}"] < at


def test_imo_numbers_have_valid_check_digits(seed: SeedContent) -> None:
    imos = [v["imo_number"] for v in seed.rows["vessels"]]
    assert len(set(imos)) == 30
    assert all(_imo_valid(n) for n in imos), [n for n in imos if not _imo_valid(n)]
    assert not _imo_valid(imos[0] + 1 if imos[0] % 10 != 9 else imos[0] - 1)  # the check really checks
    for v in seed.rows["vessels"]:
        assert 1_000 <= v["capacity_teu"] <= 25_000
        assert v["deadweight_tonnes"] > v["capacity_teu"]  # tonnes per TEU is ~10-14 for box ships


def test_container_numbers_follow_iso_6346(seed: SeedContent) -> None:
    numbers = [c["container_number"] for c in seed.rows["containers"]]
    assert len(set(numbers)) == 150
    bad = [n for n in numbers if not _iso6346_valid(n)]
    assert not bad, bad
    assert _iso6346_valid("CSQU3054383")  # the standard's worked example
    assert not _iso6346_valid("CSQU3054384")
    for c in seed.rows["containers"]:
        assert c["owner_code"] == c["container_number"][:4] and c["owner_code"].endswith("U")
        reefer = c["container_type"] in ("20RF", "40RH")
        assert (c["reefer_setpoint_c"] is not None) == reefer


def test_voyage_statuses_dates_and_regions(seed: SeedContent) -> None:
    voyages = seed.rows["voyages"]
    statuses = {s: sum(1 for v in voyages if v["status"] == s) for s in ("ACTIVE", "DELAYED", "SCHEDULED", "COMPLETED")}
    assert statuses == {"ACTIVE": 20, "DELAYED": 8, "SCHEDULED": 14, "COMPLETED": 18}
    assert {v["ocean_region"] for v in voyages} == {
        "TRANS_PACIFIC", "ASIA_EUROPE", "INTRA_ASIA", "INDIAN_OCEAN", "TRANS_ATLANTIC", "SOUTH_ATLANTIC", "OCEANIA"}
    as_of = AS_OF.date()
    for v in voyages:
        assert v["origin_port_id"] != v["destination_port_id"]
        assert v["eta_date"] > v["departure_date"]
        if v["status"] == "COMPLETED":
            assert v["departure_date"] < v["arrival_date"] <= as_of
        else:
            assert v["arrival_date"] is None
        if v["status"] == "SCHEDULED":
            assert v["departure_date"] > as_of
        if v["status"] in ("ACTIVE", "DELAYED"):
            assert v["departure_date"] < as_of
        if v["status"] == "ACTIVE":
            assert v["eta_date"] > as_of
        assert (v["delay_reason"] is not None) == (v["status"] == "DELAYED")
    # A vessel is on at most one voyage at a time, and its voyages do not overlap.
    by_vessel: dict[int, list[dict]] = {}
    for v in voyages:
        by_vessel.setdefault(v["vessel_id"], []).append(v)
    for vessel_voyages in by_vessel.values():
        vessel_voyages.sort(key=lambda v: v["departure_date"])
        assert sum(1 for v in vessel_voyages if v["status"] in ("ACTIVE", "DELAYED")) <= 1
        for a, b in zip(vessel_voyages, vessel_voyages[1:]):
            assert (a["arrival_date"] or a["eta_date"]) <= b["departure_date"] or a["status"] == "DELAYED"
            assert a["destination_port_id"] == b["origin_port_id"], "a vessel sails on from where it arrived"


def test_positions_belong_to_underway_voyages_and_lie_on_the_route(seed: SeedContent) -> None:
    voyages = _by_id(seed.rows["voyages"], "voyage_id")
    ports = _by_id(seed.rows["ports"], "port_id")
    positions = seed.rows["vessel_positions"]
    underway = {v["voyage_id"] for v in voyages.values() if v["status"] in ("ACTIVE", "DELAYED")}
    assert {p["voyage_id"] for p in positions} == underway
    assert len({p["vessel_id"] for p in positions}) == len(positions)
    pacific_lons = []
    for p in positions:
        v = voyages[p["voyage_id"]]
        assert p["vessel_id"] == v["vessel_id"]
        assert datetime.fromisoformat(str(v["departure_date"])) < p["recorded_at"] <= AS_OF
        g = p["position"]
        assert (g["gtype"], g["srid"], g["x"], g["y"]) == (2001, 4326, p["longitude"], p["latitude"])
        assert -180 <= p["longitude"] <= 180 and 0 <= p["heading_deg"] < 360 and 0 < p["speed_knots"] < 30
        o, d = ports[v["origin_port_id"]], ports[v["destination_port_id"]]
        to_pos = _haversine_km(o["latitude"], o["longitude"], p["latitude"], p["longitude"])
        from_pos = _haversine_km(p["latitude"], p["longitude"], d["latitude"], d["longitude"])
        # A point on a route of length L is never further than L from both ends together.
        assert to_pos + from_pos <= v["distance_nm"] * 1.852 * 1.01, (v["voyage_number"], p)
        assert min(to_pos, from_pos) > 20, "a ship at sea is not sitting in a port"
        if v["ocean_region"] == "TRANS_PACIFIC":
            pacific_lons.append(p["longitude"])
        if min(o["longitude"], d["longitude"]) < -100 and max(o["longitude"], d["longitude"]) > 100:
            # Near the great circle across the Pacific: interpolating longitudes naively
            # (through 0 degrees) would put the ship in the Atlantic, thousands of km away.
            direct = _haversine_km(o["latitude"], o["longitude"], d["latitude"], d["longitude"])
            assert to_pos + from_pos < 1.3 * direct, (v["voyage_number"], p)
            assert abs(p["longitude"]) > 120
    # Ships on both sides of the antimeridian: east of it longitudes are negative.
    assert len(pacific_lons) >= 5
    assert any(lon > 150 for lon in pacific_lons) and any(-180 < lon < -140 for lon in pacific_lons), pacific_lons


def test_positions_are_at_sea(seed: SeedContent) -> None:
    globe = pytest.importorskip("global_land_mask.globe", reason="needs global-land-mask (dev extra)")
    positions = seed.rows["vessel_positions"]
    on_land = [p for p in positions if globe.is_land(p["latitude"], p["longitude"])]
    assert not on_land


def test_cargo_items_values_codes_and_weights(seed: SeedContent) -> None:
    containers = _by_id(seed.rows["containers"], "container_id")
    load: dict[int, float] = {}
    for item in seed.rows["cargo_items"]:
        assert re.fullmatch(r"\d{6}", item["hs_code"]), item["hs_code"]
        assert 1 <= int(item["hs_code"][:2]) <= 97  # HS chapters
        assert isinstance(item["unit_value_cents"], int) and item["unit_value_cents"] > 0
        assert isinstance(item["quantity"], int) and item["quantity"] > 0
        assert item["un_number"] is None or re.fullmatch(r"UN\d{4}", item["un_number"])
        load[item["container_id"]] = load.get(item["container_id"], 0.0) + item["gross_weight_kg"]
    assert set(load) == set(containers), "every container carries at least one cargo line"
    for cid, kg in load.items():
        c = containers[cid]
        assert kg <= c["max_gross_weight_kg"] - c["tare_weight_kg"], f"container {cid} overweight"
    hs = {i["hs_code"]: i["hs_description"] for i in seed.rows["cargo_items"]}
    assert "Portable automatic data processing machines" in hs.get("847130", "")
    assert hs.get("020230") == "Frozen boneless meat of bovine animals"
    assert len(hs) >= 30


def test_every_table_and_column_has_a_comment(seed: SeedContent) -> None:
    assert set(seed.table_comments) == set(EXPECTED_COUNTS)
    assert all(len(text) > 40 for text in seed.table_comments.values())
    for table in seed.tables:
        for column in seed.columns(table):
            assert (table, column) in seed.column_comments, f"{table}.{column} has no COMMENT"


def test_unit_comments_say_teu_and_usd_cents(seed: SeedContent) -> None:
    teu = seed.column_comments[("vessels", "capacity_teu")].lower()
    assert "twenty-foot equivalent unit" in teu and "teu" in teu
    assert "not a weight" in teu and "never tons" in teu
    cents = seed.column_comments[("cargo_items", "unit_value_cents")].lower()
    assert "us dollar cents" in cents and "usd cents" in cents
    assert "not dollars" in cents and "divide by 100" in cents
    for text in seed.column_comments.values():
        if "capacity" in text.lower() and "teu" in text.lower():
            assert not re.search(r"capacity in (metric )?tons", text.lower())
    assert "check digit" in seed.column_comments[("vessels", "imo_number")]
    assert "UN/LOCODE" in seed.column_comments[("ports", "unlocode")]
    assert "ISO 6346" in seed.column_comments[("containers", "container_number")]
    assert "Harmonized System" in seed.column_comments[("cargo_items", "hs_code")]
    assert "UTC" in seed.column_comments[("vessel_positions", "recorded_at")]
    status = seed.column_comments[("voyages", "status")]
    assert all(s in status for s in ("ACTIVE", "DELAYED", "SCHEDULED", "COMPLETED"))


def _load_generator():
    pytest.importorskip("searoute", reason="the generator needs searoute (dev extra)")
    spec = importlib.util.spec_from_file_location("seed_generate", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    sys.modules["seed_generate"] = module
    spec.loader.exec_module(module)
    return module


def test_generator_is_deterministic_and_the_committed_file_is_current() -> None:
    generator = _load_generator()
    first = generator.build_sql()
    second = generator.build_sql()
    assert first == second
    assert first == SEED_SQL.read_text(encoding="utf-8"), \
        "seed/supplychain.sql is stale: run python seed/generate.py"


# --------------------------------------------------------------------------- #
# split_statements / created_tables
# --------------------------------------------------------------------------- #

def test_split_statements_handles_strings_comments_and_quotes() -> None:
    script = """
    -- header; with a semicolon
    /* block; comment */
    INSERT INTO t (a) VALUES ('x;y');
    INSERT INTO t (a) VALUES ('it''s; fine');  -- trailing; comment
    SELECT "odd;name" FROM dual;
    SELECT q'[a;b]' , Q'{c';d}' FROM dual;
    SELECT 1 /* inline; */ FROM dual
    """
    assert split_statements(script) == [
        "INSERT INTO t (a) VALUES ('x;y')",
        "INSERT INTO t (a) VALUES ('it''s; fine')",
        'SELECT "odd;name" FROM dual',  # the comment before it is dropped
        "SELECT q'[a;b]' , Q'{c';d}' FROM dual",
        "SELECT 1 /* inline; */ FROM dual",
    ]


def test_split_statements_drops_empty_and_comment_only_chunks() -> None:
    assert split_statements(";;\n-- only a comment;\n  ;") == []
    assert split_statements("SELECT 1 FROM dual;\n\n-- end\n") == ["SELECT 1 FROM dual"]
    # An identifier ending in q is not a q-quote.
    assert split_statements("SELECT seq'x' FROM dual; SELECT 2 FROM dual") == [
        "SELECT seq'x' FROM dual", "SELECT 2 FROM dual"]


def test_split_statements_rejects_unterminated_strings_and_comments() -> None:
    with pytest.raises(SeedError, match="Unterminated string"):
        split_statements("INSERT INTO t VALUES ('oops);")
    with pytest.raises(SeedError, match="Unterminated /\\* comment"):
        split_statements("SELECT 1 FROM dual; /* never closed")


def test_created_tables_lists_create_table_targets() -> None:
    stmts = ["DROP TABLE IF EXISTS s.a CASCADE CONSTRAINTS PURGE", "CREATE TABLE s.a (x NUMBER)",
             "create table s.b (x NUMBER)", "CREATE INDEX i ON s.a (x)", "INSERT INTO s.a (x) VALUES (1)"]
    assert created_tables(stmts) == ["s.a", "s.b"]


def test_seed_file_statement_count_matches_split(seed: SeedContent) -> None:
    expected = (7 + 7 + len(seed.table_comments) + len(seed.column_comments) + 7 + sum(EXPECTED_COUNTS.values())
                + 1 + 2 + 2)
    # drops, creates, comments, indexes, one INSERT per row; then the metadata DELETE, 2 metadata INSERTs
    # and 2 spatial indexes
    assert len(seed.statements) == expected


# --------------------------------------------------------------------------- #
# Running the seed in lite
# --------------------------------------------------------------------------- #

def _connect(home: Path):
    """A connection as SUPPLYCHAIN, the user the seed script runs as (AGENT may only read its tables)."""
    return lite_connect(home, "SUPPLYCHAIN")


def _plain(value):
    """A comparable text form of one fetched value (SDO_GEOMETRY objects by their attributes)."""
    if hasattr(value, "SDO_GTYPE"):
        point = value.SDO_POINT
        return repr((value.SDO_GTYPE, value.SDO_SRID, point.X, point.Y, point.Z))
    return repr(value)


def _dump(conn) -> dict[str, list[tuple]]:
    """Every seed table's rows ordered by primary key, as comparable text."""
    cur = conn.cursor()
    out = {}
    for table, key in PRIMARY_KEYS.items():
        cur.execute(f"SELECT * FROM supplychain.{table} ORDER BY {key}")
        out[table] = [tuple(_plain(v) for v in row) for row in cur.fetchall()]
    return out


def _tables(conn) -> set[str]:
    cur = conn.cursor()
    cur.execute("SELECT table_name FROM all_tables WHERE owner = 'SUPPLYCHAIN'")
    return {r[0].lower() for r in cur.fetchall()}


@pytest.fixture(scope="module")
def seeded_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SeedReport, dict]:
    """One lite home seeded once; tests copy it instead of seeding from scratch each time."""
    home = tmp_path_factory.mktemp("seeded")
    conn = _connect(home)
    try:
        report = run_seed(conn, atomic=True, label="lite")
        dump = _dump(conn)
    finally:
        conn.close()
    return home, report, dump


@pytest.fixture()
def seeded_home(seeded_template, home: Path) -> Path:
    template, _report, _dump = seeded_template
    shutil.copytree(template / "lite", home / "lite")
    return home


def test_run_seed_lite_reports_counts(seeded_template) -> None:
    _home, report, _dump = seeded_template
    assert report.backend == "lite"
    assert report.row_counts == EXPECTED_COUNTS
    assert report.statements == len(split_statements(SEED_SQL.read_text(encoding="utf-8")))
    assert report.elapsed_seconds > 0 and report.sql_path == DEFAULT_SQL_PATH
    assert "cargo_items=300" in str(report)


def test_lite_row_counts_and_foreign_keys_via_sql(seeded_home: Path, seed: SeedContent) -> None:
    conn = _connect(seeded_home)
    cur = conn.cursor()
    for table, count in EXPECTED_COUNTS.items():
        cur.execute(f"SELECT COUNT(*) FROM supplychain.{table}")
        assert cur.fetchone()[0] == count
    for child, column, parent, parent_column in seed.foreign_keys():
        cur.execute(f"SELECT COUNT(*) FROM supplychain.{child} c JOIN supplychain.{parent} p "
                    f"ON p.{parent_column} = c.{column}")
        joined = cur.fetchone()[0]
        cur.execute(f"SELECT COUNT(*) FROM supplychain.{child} WHERE {column} IS NOT NULL")
        assert joined == cur.fetchone()[0], f"{child}.{column} -> {parent}"
    cur.execute("SELECT comments FROM all_col_comments WHERE owner = 'SUPPLYCHAIN' "
                "AND table_name = 'VESSELS' AND column_name = 'CAPACITY_TEU'")
    assert "twenty-foot equivalent units" in cur.fetchone()[0]
    cur.execute("SELECT COUNT(*) FROM all_tab_comments WHERE owner = 'SUPPLYCHAIN' AND comments IS NOT NULL")
    assert cur.fetchone()[0] == 7
    cur.execute("SELECT index_name FROM all_indexes WHERE owner = 'SUPPLYCHAIN'")
    assert {"VESSELS_CARRIER_IX", "CONTAINERS_VOYAGE_IX", "CARGO_ITEMS_HS_IX"} <= {r[0] for r in cur.fetchall()}
    cur.execute("SELECT departure_date, location FROM supplychain.voyages v "
                "JOIN supplychain.ports p ON p.port_id = v.origin_port_id WHERE v.voyage_id = 1")
    departure, location = cur.fetchone()
    assert isinstance(departure, datetime)
    assert location.SDO_SRID == 4326
    conn.close()


SPATIAL_INDEXES = [("PORTS_LOCATION_SX", "DOMAIN", "MDSYS", "SPATIAL_INDEX_V2", "layer_gtype=POINT", "PORTS"),
                   ("VESSEL_POSITIONS_POSITION_SX", "DOMAIN", "MDSYS", "SPATIAL_INDEX_V2", "layer_gtype=POINT",
                    "VESSEL_POSITIONS")]
SPATIAL_INDEX_SQL = ("SELECT index_name, index_type, ityp_owner, ityp_name, parameters, table_name FROM {view} "
                     "WHERE index_type = 'DOMAIN' {where}ORDER BY index_name")
METADATA_SQL = "SELECT table_name, column_name, srid FROM user_sdo_geom_metadata ORDER BY table_name"


def _spatial_state(conn) -> tuple[list[tuple], list[tuple]]:
    """(SUPPLYCHAIN's spatial indexes from ALL_INDEXES, the connected user's geometry metadata rows)."""
    cur = conn.cursor()
    cur.execute(SPATIAL_INDEX_SQL.format(view="all_indexes", where="AND owner = 'SUPPLYCHAIN' "))
    indexes = cur.fetchall()
    cur.execute(METADATA_SQL)
    return indexes, cur.fetchall()


def test_second_run_leaves_identical_data(seeded_home: Path, seeded_template) -> None:
    _template, _report, first_dump = seeded_template
    conn = _connect(seeded_home)
    assert _spatial_state(conn) == (SPATIAL_INDEXES, [("PORTS", "LOCATION", 4326),
                                                      ("VESSEL_POSITIONS", "POSITION", 4326)])
    report = run_seed(conn, atomic=True, label="lite")
    assert report.row_counts == EXPECTED_COUNTS
    assert _dump(conn) == first_dump
    # The metadata DELETE made the re-run possible (no ORA-13223) and left one row per column; the
    # dropped tables took their old spatial indexes with them (no ORA-00955).
    assert _spatial_state(conn) == (SPATIAL_INDEXES, [("PORTS", "LOCATION", 4326),
                                                      ("VESSEL_POSITIONS", "POSITION", 4326)])
    conn.close()


def test_part1_spatial_query_runs_on_the_seed(seeded_home: Path, seed: SeedContent) -> None:
    """Part 1's "vessels within 1500 km of Singapore", answered from the seed rows with a haversine here."""
    singapore = (1.26, 103.82)  # latitude, longitude
    vessels = _by_id(seed.rows["vessels"], "vessel_id")
    distance = {p["position_id"]: _haversine_km(*singapore, p["latitude"], p["longitude"])
                for p in seed.rows["vessel_positions"]}
    assert all(abs(km - 1500) > 1500 * 0.006 for km in distance.values()), "a position sits on the boundary"
    near = sorted((km, pid) for pid, km in distance.items() if km <= 1500)
    assert near, "the seed has ships near Singapore"
    by_position = _by_id(seed.rows["vessel_positions"], "position_id")
    conn = _connect(seeded_home)
    cur = conn.cursor()
    cur.execute("""SELECT v.vessel_name,
                          ROUND(SDO_GEOM.SDO_DISTANCE(
                                  vp.position,
                                  SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(103.82, 1.26, NULL), NULL, NULL),
                                  0.005, 'unit=KM')) AS km_from_singapore
                   FROM supplychain.vessel_positions vp
                   JOIN supplychain.vessels v ON v.vessel_id = vp.vessel_id
                   WHERE SDO_WITHIN_DISTANCE(
                           vp.position,
                           SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(103.82, 1.26, NULL), NULL, NULL),
                           'distance=1500 unit=KM') = 'TRUE'
                   ORDER BY km_from_singapore""")
    assert cur.fetchall() == [(vessels[by_position[pid]["vessel_id"]]["vessel_name"], round(km)) for km, pid in near]
    conn.close()


def _ports_only_seed(tmp_path: Path) -> Path:
    """The seed's own statements for PORTS alone: table, comments, rows, geometry metadata, spatial index."""
    statements = [s for s in split_statements(SEED_SQL.read_text(encoding="utf-8"))
                  if re.match(r"(DROP TABLE IF EXISTS|CREATE TABLE|COMMENT ON \w+|INSERT INTO|CREATE INDEX \S+ ON) "
                              r"supplychain\.ports\b", s) or s.startswith("DELETE FROM user_sdo_geom_metadata")
                  or s.startswith("INSERT INTO user_sdo_geom_metadata") and "'PORTS'" in s]
    path = tmp_path / "ports.sql"
    path.write_text(";\n".join(statements) + ";\n", encoding="utf-8")
    return path


def test_seed_as_supplychain_owns_the_metadata_and_reruns(home: Path, tmp_path: Path) -> None:
    """Run as SUPPLYCHAIN, as on Oracle: the metadata rows are SUPPLYCHAIN's, and a second run is clean."""
    path = _ports_only_seed(tmp_path)
    owner = lite_connect(home, "SUPPLYCHAIN")
    for _run in range(2):
        assert run_seed(owner, path, atomic=True, label="lite").row_counts == {"ports": 25}
        cur = owner.cursor()
        cur.execute(METADATA_SQL)
        assert cur.fetchall() == [("PORTS", "LOCATION", 4326)]
        cur.execute(SPATIAL_INDEX_SQL.format(view="user_indexes", where=""))
        assert cur.fetchall() == SPATIAL_INDEXES[:1]
    owner.close()
    agent = lite_connect(home, "AGENT")
    cur = agent.cursor()
    cur.execute("SELECT owner, table_name, column_name FROM all_sdo_geom_metadata")
    assert cur.fetchall() == [("SUPPLYCHAIN", "PORTS", "LOCATION")]
    cur.execute(METADATA_SQL)
    assert cur.fetchall() == []  # USER_SDO_GEOM_METADATA is per user
    cur.execute("SELECT p.unlocode FROM supplychain.ports p WHERE SDO_WITHIN_DISTANCE(p.location, SDO_GEOMETRY(2001, "
                "4326, SDO_POINT_TYPE(103.82, 1.26, NULL), NULL, NULL), 'distance=50 unit=KM') = 'TRUE'")
    assert ("SGSIN",) in cur.fetchall()
    agent.close()


def test_seed_repairs_a_half_created_schema(seeded_home: Path, seeded_template) -> None:
    _template, _report, first_dump = seeded_template
    conn = _connect(seeded_home)
    cur = conn.cursor()
    # A previous run that died part-way: a missing table, a wrong-shaped one, a stray one.
    cur.execute("DROP TABLE supplychain.cargo_items PURGE")
    cur.execute("DROP TABLE supplychain.containers PURGE")
    cur.execute("CREATE TABLE supplychain.containers (junk NUMBER)")
    cur.execute("INSERT INTO supplychain.containers (junk) VALUES (1)")
    cur.execute("CREATE TABLE supplychain.scratch (note VARCHAR2(20))")
    conn.commit()
    report = run_seed(conn, atomic=True, label="lite")
    assert report.row_counts == EXPECTED_COUNTS
    assert _dump(conn) == first_dump
    assert "scratch" in _tables(conn)  # tables the seed does not own are left alone
    conn.close()


def test_seed_into_a_fresh_home_with_stray_tables(home: Path, seed: SeedContent) -> None:
    conn = _connect(home)
    cur = conn.cursor()
    cur.execute("CREATE TABLE supplychain.carriers (carrier_id NUMBER(6) PRIMARY KEY)")
    cur.execute("INSERT INTO supplychain.carriers (carrier_id) VALUES (999)")
    conn.commit()
    path, _number = _broken_copy(home, None, "")
    report = run_seed(conn, path, atomic=True, label="lite")
    assert report.row_counts == {"carriers": 15, "ports": 25, "vessels": 30}
    cur.execute("SELECT MAX(carrier_id) FROM supplychain.carriers")
    assert cur.fetchone()[0] == 15
    conn.close()


def _broken_copy(tmp_path: Path, bad: str | None, after: str) -> tuple[Path, int]:
    """The seed script with ``bad`` inserted as a statement right after the first ``after`` statement.

    With ``bad=None`` the script is cut instead: only carriers, ports and vessels (a
    smaller seed, for tests that need a full run but not all the rows).
    """
    statements = split_statements(SEED_SQL.read_text(encoding="utf-8"))
    if bad is None:
        keep = ("carriers", "ports", "vessels")
        statements = [s for s in statements if not re.search(r"supplychain\.(\w+)", s)
                      or re.search(r"supplychain\.(\w+)", s).group(1) in keep or s.startswith("DROP")]
        path = tmp_path / "small.sql"
        path.write_text(";\n".join(statements) + ";\n", encoding="utf-8")
        return path, 0
    index = next(i for i, s in enumerate(statements) if s.startswith(after)) + 1
    statements.insert(index, bad)
    path = tmp_path / "broken.sql"
    path.write_text(";\n".join(statements) + ";\n", encoding="utf-8")
    return path, index + 1


def test_broken_statement_fails_and_keeps_previous_data(seeded_home: Path, seeded_template,
                                                        tmp_path: Path) -> None:
    _template, _report, first_dump = seeded_template
    bad = "INSERT INTO supplychain.ports (port_id, no_such_column) VALUES (99, 1)"
    path, number = _broken_copy(tmp_path, bad, "INSERT INTO supplychain.ports")
    conn = _connect(seeded_home)
    with pytest.raises(SeedError) as info:
        run_seed(conn, path, atomic=True, label="lite")
    message = str(info.value)
    assert f"statement {number} of" in message
    assert bad in message and "ORA-00904" in message
    assert "previous SUPPLYCHAIN tables and rows are intact" in message
    assert _dump(conn) == first_dump
    conn.close()


def test_failed_first_seed_leaves_no_tables(home: Path, tmp_path: Path) -> None:
    path, _number = _broken_copy(tmp_path, "INSERT INTO supplychain.nowhere (x) VALUES (1)",
                                 "INSERT INTO supplychain.voyages")
    conn = _connect(home)
    with pytest.raises(SeedError, match="ORA-00942"):
        run_seed(conn, path, atomic=True, label="lite")
    assert not _tables(conn) & set(EXPECTED_COUNTS)
    conn.close()


def test_oracle_path_drops_the_tables_it_created(home: Path, tmp_path: Path) -> None:
    # The Oracle code path (DDL commits, so clean up by dropping) run on lite, whose DDL
    # outside conn.atomic() commits implicitly exactly as Oracle's does.
    path, number = _broken_copy(tmp_path, "INSERT INTO supplychain.vessels (vessel_id) VALUES ('x', 2)",
                                "CREATE TABLE supplychain.vessels")
    conn = _connect(home)
    cur = conn.cursor()
    cur.execute("CREATE TABLE supplychain.scratch (note VARCHAR2(20))")
    with pytest.raises(SeedError) as info:
        run_seed(conn, path, atomic=False, label="oracle")
    message = str(info.value)
    assert f"statement {number} of" in message
    assert "dropped again (supplychain.carriers, supplychain.ports, supplychain.vessels)" in message
    assert _tables(conn) == {"scratch"}
    conn.close()


def test_oracle_path_commits_a_good_run(home: Path, seeded_template) -> None:
    _template, _report, first_dump = seeded_template
    path, _number = _broken_copy(home, None, "")  # carriers, ports and vessels only: quicker
    conn = _connect(home)
    report = run_seed(conn, path, atomic=False, label="oracle")
    assert report.row_counts == {"carriers": 15, "ports": 25, "vessels": 30}
    conn.rollback()  # nothing may be left uncommitted
    cur = conn.cursor()
    for table in report.row_counts:
        cur.execute(f"SELECT * FROM supplychain.{table} ORDER BY {PRIMARY_KEYS[table]}")
        assert [tuple(_plain(v) for v in row) for row in cur.fetchall()] == first_dump[table]
    conn.close()


def test_bad_arguments_are_clear(home: Path, tmp_path: Path) -> None:
    conn = _connect(home)
    with pytest.raises(TypeError, match="atomic"):
        run_seed(conn)  # the caller (the backend) must say whether DDL can be rolled back
    with pytest.raises(SeedError, match="not found"):
        run_seed(conn, tmp_path / "missing.sql", atomic=True, label="lite")
    empty = tmp_path / "empty.sql"
    empty.write_text("-- nothing here\n", encoding="utf-8")
    with pytest.raises(SeedError, match="no SQL statements"):
        run_seed(conn, empty, atomic=True, label="lite")
    conn.close()


@pytest.mark.oracle
def test_seed_runs_twice_on_oracle() -> None:
    """Live Oracle: seed as the SUPPLYCHAIN user twice; counts match and data is identical."""
    import oracledb

    from workshop_lib.config import load_settings

    settings = load_settings(backend="oracle")
    if not settings.supplychain_password:
        pytest.skip("set SUPPLYCHAIN_PASSWORD to seed a live Oracle database")
    conn = oracledb.connect(user="SUPPLYCHAIN", password=settings.supplychain_password, dsn=settings.oracle_dsn)
    try:
        first = run_seed(conn, atomic=False, label="oracle")
        dump = _dump(conn)
        second = run_seed(conn, atomic=False, label="oracle")
        assert first.row_counts == second.row_counts == EXPECTED_COUNTS
        assert _dump(conn) == dump
    finally:
        conn.close()


def test_config_names_the_tables_the_seed_creates() -> None:
    """config.SEED_TABLES (used by start() and the Oracle grants) matches seed/supplychain.sql."""
    from workshop_lib import config
    from workshop_lib.seed import DEFAULT_SQL_PATH, created_tables, split_statements

    names = [t.split(".")[-1].upper() for t in created_tables(split_statements(DEFAULT_SQL_PATH.read_text()))]
    assert tuple(names) == config.SEED_TABLES


def test_start_reseeds_a_schema_without_spatial_indexes(home) -> None:
    """A home seeded before the spatial indexes existed is brought up to date by start()."""
    import workshop_lib
    from workshop_lib.dictionary import spatial_indexes_present

    ws = workshop_lib.start(upto="seed")
    assert ws.seed_present() and spatial_indexes_present(ws.conn)
    with workshop_lib.connect(user="SUPPLYCHAIN") as owner, owner.cursor() as cur:   # AGENT may only read
        cur.execute("DROP INDEX supplychain.vessel_positions_position_sx")
    assert not ws.seed_present()
    ws.close()
    again = workshop_lib.start(upto="seed")
    assert spatial_indexes_present(again.conn)
    again.close()


def test_seed_script_is_package_data_and_seed_folder_links_to_it() -> None:
    """A non-editable install can seed: the script ships inside the package, and seed/ shows the same file."""
    import tomllib

    import workshop_lib

    package = Path(workshop_lib.__file__).resolve().parent
    assert DEFAULT_SQL_PATH.resolve().is_relative_to(package)
    repo = package.parent
    assert (repo / "seed" / "supplychain.sql").resolve() == DEFAULT_SQL_PATH.resolve()
    patterns = tomllib.loads((repo / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert any(DEFAULT_SQL_PATH.resolve().relative_to(package).match(p) for p in patterns["workshop_lib"])
