"""Generate ``seed/supplychain.sql``: the SUPPLYCHAIN schema and its data as Oracle SQL.

Run ``python seed/generate.py`` to rewrite the file, ``python seed/generate.py
--check`` to verify the committed file is what this generator produces. The
output depends only on the constants below, a fixed random seed and a fixed
reference instant (never the clock), so two runs are byte-identical.

Sea routes come from the ``searoute`` package (a maritime network graph); a
vessel's reported position is interpolated along its voyage's route on the
great circle of the route segment it is on, so positions stay at sea and
trans-Pacific positions wrap correctly across the antimeridian.

Every statement is plain Oracle 23ai SQL (DDL, COMMENT ON, single-row INSERT,
and the geometry metadata DELETE/INSERTs the spatial indexes need), one per
``;``, so it runs unchanged in SQL*Plus/SQLcl, python-oracledb and the
workshop's lite engine.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

SEED = 20251101
# "Now" for the generated world: positions are reported up to this instant
# (UTC), voyages before it are completed, after it scheduled.
REFERENCE_INSTANT = datetime(2025, 11, 1, 0, 0, 0)
REFERENCE_DATE = REFERENCE_INSTANT.date()
# The library ships the script as package data; seed/supplychain.sql is a link to it.
OUTPUT = Path(__file__).resolve().parent.parent / "workshop_lib" / "data" / "supplychain.sql"
SCHEMA = "supplychain"

# Table names in dependency order (parents first). Tests assert these counts.
TABLES = (
    "carriers",
    "ports",
    "vessels",
    "voyages",
    "vessel_positions",
    "containers",
    "cargo_items",
)
ROW_COUNTS = {
    "carriers": 15,
    "ports": 25,
    "vessels": 30,
    "voyages": 60,
    "vessel_positions": 28,
    "containers": 150,
    "cargo_items": 300,
}
VOYAGE_STATUS_COUNTS = {"ACTIVE": 20, "DELAYED": 8, "SCHEDULED": 14, "COMPLETED": 18}
IDLE_VESSELS = 2  # vessels between voyages at the reference instant (no position)

KM_PER_NM = 1.852
EARTH_RADIUS_KM = 6371.0088

# --------------------------------------------------------------------------- #
# Reference data
# --------------------------------------------------------------------------- #

# scac, name, hq country, hq city, alliance (2025; None = independent), founded
CARRIERS = [
    ("MAEU", "A.P. Moller - Maersk", "DK", "Copenhagen", "GEMINI", 1904),
    ("MSCU", "Mediterranean Shipping Company (MSC)", "CH", "Geneva", None, 1970),
    ("CMDU", "CMA CGM", "FR", "Marseille", "OCEAN", 1978),
    ("COSU", "COSCO Shipping Lines", "CN", "Shanghai", "OCEAN", 1961),
    ("HLCU", "Hapag-Lloyd", "DE", "Hamburg", "GEMINI", 1847),
    ("ONEY", "Ocean Network Express (ONE)", "SG", "Singapore", "PREMIER", 2017),
    ("EGLV", "Evergreen Marine", "TW", "Taipei", "OCEAN", 1968),
    ("HDMU", "HMM", "KR", "Seoul", "PREMIER", 1976),
    ("YMLU", "Yang Ming Marine Transport", "TW", "Keelung", "PREMIER", 1972),
    ("ZIMU", "ZIM Integrated Shipping Services", "IL", "Haifa", None, 1945),
    ("WHLC", "Wan Hai Lines", "TW", "Taipei", None, 1965),
    ("PCIU", "Pacific International Lines (PIL)", "SG", "Singapore", None, 1967),
    ("OOLU", "Orient Overseas Container Line (OOCL)", "HK", "Hong Kong", "OCEAN", 1969),
    ("MATS", "Matson Navigation Company", "US", "Honolulu", None, 1882),
    ("APLU", "APL", "SG", "Singapore", "OCEAN", 1848),
]

# unlocode, name, lat, lon, IANA timezone, approx. 2023 throughput (TEU), zone
PORTS = [
    ("CNSHA", "Shanghai", 31.3500, 121.6000, "Asia/Shanghai", 49_160_000, "EAST_ASIA"),
    ("SGSIN", "Singapore", 1.2644, 103.8223, "Asia/Singapore", 39_010_000, "SOUTHEAST_ASIA"),
    ("CNNGB", "Ningbo-Zhoushan", 29.9333, 121.8500, "Asia/Shanghai", 35_300_000, "EAST_ASIA"),
    ("CNSZX", "Shenzhen (Yantian)", 22.5667, 114.2667, "Asia/Shanghai", 29_880_000, "EAST_ASIA"),
    ("CNTAO", "Qingdao", 36.0800, 120.3200, "Asia/Shanghai", 28_770_000, "EAST_ASIA"),
    ("KRPUS", "Busan", 35.1000, 129.0400, "Asia/Seoul", 23_040_000, "EAST_ASIA"),
    ("HKHKG", "Hong Kong", 22.3400, 114.1200, "Asia/Hong_Kong", 14_340_000, "EAST_ASIA"),
    ("AEJEA", "Jebel Ali", 25.0110, 55.0610, "Asia/Dubai", 14_470_000, "MIDDLE_EAST"),
    ("MYPKG", "Port Klang", 3.0000, 101.3600, "Asia/Kuala_Lumpur", 14_060_000, "SOUTHEAST_ASIA"),
    ("NLRTM", "Rotterdam", 51.9500, 4.0500, "Europe/Amsterdam", 13_450_000, "NORTH_EUROPE"),
    ("BEANR", "Antwerp-Bruges", 51.2800, 4.3300, "Europe/Brussels", 12_500_000, "NORTH_EUROPE"),
    ("TWKHH", "Kaohsiung", 22.5800, 120.3000, "Asia/Taipei", 8_830_000, "EAST_ASIA"),
    ("USLAX", "Los Angeles", 33.7400, -118.2700, "America/Los_Angeles", 8_630_000, "NA_WEST"),
    ("USLGB", "Long Beach", 33.7500, -118.2100, "America/Los_Angeles", 8_020_000, "NA_WEST"),
    ("USNYC", "New York and New Jersey", 40.6700, -74.0700, "America/New_York", 7_810_000, "NA_EAST"),
    ("DEHAM", "Hamburg", 53.5400, 9.9300, "Europe/Berlin", 7_700_000, "NORTH_EUROPE"),
    ("LKCMB", "Colombo", 6.9500, 79.8450, "Asia/Colombo", 6_940_000, "SOUTH_ASIA"),
    ("INNSA", "Nhava Sheva (Jawaharlal Nehru Port)", 18.9500, 72.9500, "Asia/Kolkata", 6_430_000, "SOUTH_ASIA"),
    ("GRPIR", "Piraeus", 37.9500, 23.5800, "Europe/Athens", 5_070_000, "MEDITERRANEAN"),
    ("USSAV", "Savannah", 32.1200, -81.1400, "America/New_York", 4_930_000, "NA_EAST"),
    ("ESVLC", "Valencia", 39.4450, -0.3170, "Europe/Madrid", 4_800_000, "MEDITERRANEAN"),
    ("BRSSZ", "Santos", -23.9600, -46.3100, "America/Sao_Paulo", 4_800_000, "SOUTH_AMERICA_EAST"),
    ("JPTYO", "Tokyo", 35.6000, 139.7800, "Asia/Tokyo", 4_260_000, "EAST_ASIA"),
    ("CAVAN", "Vancouver", 49.2900, -123.1000, "America/Vancouver", 3_470_000, "NA_WEST"),
    ("AUMEL", "Melbourne", -37.8300, 144.9100, "Australia/Melbourne", 3_260_000, "OCEANIA"),
]

# scac, vessel name, capacity (TEU), year built, flag state, lane end A, lane end B, region
VESSELS = [
    ("MAEU", "MAERSK HALDEN", 17480, 2019, "DK", "CNNGB", "NLRTM", "ASIA_EUROPE"),
    ("MAEU", "MAERSK SKAGEN", 8450, 2012, "DK", "BEANR", "USSAV", "TRANS_ATLANTIC"),
    ("MSCU", "MSC LIVIANA", 24116, 2023, "PA", "SGSIN", "BEANR", "ASIA_EUROPE"),
    ("MSCU", "MSC ORSOLA", 11660, 2015, "LR", "BRSSZ", "ESVLC", "SOUTH_ATLANTIC"),
    ("CMDU", "CMA CGM ESTEREL", 23112, 2021, "MT", "CNSHA", "DEHAM", "ASIA_EUROPE"),
    ("CMDU", "CMA CGM ROUSSILLON", 5770, 2009, "MT", "AUMEL", "CNSZX", "OCEANIA"),
    ("COSU", "COSCO SHIPPING DAHLIA", 20119, 2018, "HK", "CNSHA", "GRPIR", "ASIA_EUROPE"),
    ("COSU", "COSCO SHIPPING LOTUS", 13386, 2017, "HK", "CNTAO", "USLAX", "TRANS_PACIFIC"),
    ("HLCU", "KIEL EXPRESS", 10114, 2014, "DE", "DEHAM", "USNYC", "TRANS_ATLANTIC"),
    ("HLCU", "DRESDEN EXPRESS", 13312, 2016, "LR", "CNSHA", "CAVAN", "TRANS_PACIFIC"),
    ("ONEY", "ONE AURIGA", 14026, 2018, "JP", "JPTYO", "USLGB", "TRANS_PACIFIC"),
    ("ONEY", "ONE SAGITTA", 2932, 2014, "SG", "MYPKG", "JPTYO", "INTRA_ASIA"),
    ("EGLV", "EVER ARDENT", 23992, 2022, "SG", "TWKHH", "NLRTM", "ASIA_EUROPE"),
    ("EGLV", "EVER LUMEN", 4253, 2012, "TW", "TWKHH", "HKHKG", "INTRA_ASIA"),
    ("HDMU", "HMM BITGARAM", 16010, 2021, "KR", "KRPUS", "USLGB", "TRANS_PACIFIC"),
    ("HDMU", "HMM NURIMARU", 11010, 2019, "PA", "KRPUS", "INNSA", "INDIAN_OCEAN"),
    ("YMLU", "YM HARMONIA", 11356, 2018, "LR", "TWKHH", "USLAX", "TRANS_PACIFIC"),
    ("YMLU", "YM SERENITY", 6572, 2014, "TW", "CNSZX", "LKCMB", "INDIAN_OCEAN"),
    ("ZIMU", "ZIM EMERALD", 15020, 2023, "LR", "CNNGB", "USSAV", "TRANS_PACIFIC"),
    ("ZIMU", "ZIM CORAL", 4992, 2010, "MT", "GRPIR", "USNYC", "TRANS_ATLANTIC"),
    ("WHLC", "WAN HAI 359", 3055, 2017, "SG", "SGSIN", "CNSHA", "INTRA_ASIA"),
    ("WHLC", "WAN HAI 517", 5510, 2015, "SG", "MYPKG", "AEJEA", "INDIAN_OCEAN"),
    ("PCIU", "KOTA PERWIRA", 11923, 2023, "SG", "CNSHA", "AUMEL", "OCEANIA"),
    ("PCIU", "KOTA SEMARANG", 2762, 2012, "SG", "SGSIN", "LKCMB", "INDIAN_OCEAN"),
    ("OOLU", "OOCL LISBOA", 21413, 2017, "HK", "CNTAO", "BEANR", "ASIA_EUROPE"),
    ("OOLU", "OOCL TAIPEI", 8063, 2011, "HK", "HKHKG", "CAVAN", "TRANS_PACIFIC"),
    ("MATS", "KAUNANI", 3620, 2019, "US", "CNSHA", "USLGB", "TRANS_PACIFIC"),
    ("MATS", "LANIKAI", 2824, 2006, "US", "CNNGB", "USLGB", "TRANS_PACIFIC"),
    ("APLU", "APL MERLION", 13892, 2013, "SG", "SGSIN", "USLAX", "TRANS_PACIFIC"),
    ("APLU", "APL ORCHARD", 6540, 2010, "SG", "INNSA", "AEJEA", "INDIAN_OCEAN"),
]

OCEAN_REGIONS = (
    "TRANS_PACIFIC",
    "ASIA_EUROPE",
    "INTRA_ASIA",
    "INDIAN_OCEAN",
    "TRANS_ATLANTIC",
    "SOUTH_ATLANTIC",
    "OCEANIA",
)

# Passages a route may not use (searoute names). In 2025 carriers avoid the
# Red Sea, so Asia-Europe loops sail round the Cape of Good Hope.
ROUTE_RESTRICTIONS = {
    "ASIA_EUROPE": ["northwest", "babalmandab", "suez", "panama"],
}
DEFAULT_RESTRICTIONS = ["northwest"]

DELAY_REASONS = {
    "TRANS_PACIFIC": [
        "Heavy weather in the North Pacific; master reduced speed for cargo safety",
        "Berth congestion at {dest}: berthing window moved back 3 days",
        "Late departure from {origin} after a quay crane breakdown",
    ],
    "ASIA_EUROPE": [
        "Cape of Good Hope routing (Red Sea avoided) and a missed berth window at {dest}",
        "Swell off the Cape of Good Hope; reduced speed for 2 days",
        "Yard congestion at {dest}: arrival slot moved back 4 days",
    ],
    "INTRA_ASIA": [
        "Typhoon avoidance in the South China Sea; vessel held position for 36 hours",
        "Berth congestion at {dest}: waiting at anchorage for a berth",
    ],
    "INDIAN_OCEAN": [
        "Southwest monsoon swell; reduced speed",
        "Berth congestion at {dest}: waiting at anchorage for a berth",
    ],
    "TRANS_ATLANTIC": [
        "North Atlantic storm avoidance; route moved south",
        "Labour action at {dest} terminals; berthing postponed",
    ],
    "SOUTH_ATLANTIC": ["Fog closure of the {origin} channel delayed departure by 2 days"],
    "OCEANIA": ["Main engine maintenance at sea; reduced speed for 30 hours"],
}

# ISO 6346 owner codes: the carriers' own boxes, then the big lessors'.
OWNER_CODES = {
    "MAEU": ["MSKU", "MRKU"],
    "MSCU": ["MSCU", "MEDU"],
    "CMDU": ["CMAU", "CGMU"],
    "COSU": ["CSNU", "CBHU"],
    "HLCU": ["HLXU", "HLBU"],
    "ONEY": ["ONEU"],
    "EGLV": ["EGHU", "EMCU"],
    "HDMU": ["HDMU"],
    "YMLU": ["YMLU"],
    "ZIMU": ["ZIMU"],
    "WHLC": ["WHSU"],
    "PCIU": ["PCIU"],
    "OOLU": ["OOLU"],
    "MATS": ["MATU"],
    "APLU": ["APZU", "APHU"],
}
LESSOR_OWNER_CODES = ["TGHU", "TCNU", "SEGU", "CAIU", "FCIU", "BMOU"]


@dataclass(frozen=True)
class ContainerType:
    """One equipment type: ISO 6346 size-type code, weights, internal volume, cargo class."""

    code: str
    iso: str
    tare_kg: int
    max_gross_kg: int
    volume_m3: float
    cargo_class: str
    weight: int  # how common the type is in the generated fleet


CONTAINER_TYPES = [
    ContainerType("20GP", "22G1", 2200, 30480, 33.2, "DRY", 20),
    ContainerType("40GP", "42G1", 3750, 30480, 67.7, "DRY", 16),
    ContainerType("40HC", "45G1", 3900, 30480, 76.3, "DRY", 38),
    ContainerType("20RF", "22R1", 3050, 30480, 28.3, "REEFER", 4),
    ContainerType("40RH", "45R1", 4480, 34000, 67.3, "REEFER", 10),
    ContainerType("20OT", "22U1", 2350, 30480, 32.5, "OPEN", 3),
    ContainerType("40FR", "45P3", 5200, 45000, 62.0, "FLAT", 3),
    ContainerType("20TK", "22T6", 3650, 36000, 24.0, "TANK", 6),
]


@dataclass(frozen=True)
class Commodity:
    """A cargo line template: HS subheading, goods, unit, value and stowage data."""

    hs: str
    hs_description: str
    goods: tuple[str, ...]
    uom: str
    usd_per_unit: tuple[float, float]
    kg_per_unit: float
    m3_per_unit: float
    cargo_class: str
    origins: tuple[str, ...]
    un_number: str | None = None
    setpoint_c: float | None = None  # reefer carrying temperature
    max_units: int | None = None  # items that are counted in ones and twos


COMMODITIES = [
    Commodity("847130", "Portable automatic data processing machines, weighing not more than 10 kg, "
              "consisting of at least a central processing unit, a keyboard and a display",
              ("14-inch business laptops", "15.6-inch gaming laptops", "Chromebook notebooks for schools"),
              "PCS", (350, 1400), 2.8, 0.012, "DRY", ("CN", "TW")),
    Commodity("851713", "Smartphones",
              ("5G smartphones, 128 GB", "Refurbished smartphones, grade A"),
              "PCS", (120, 900), 0.45, 0.0025, "DRY", ("CN", "KR", "IN")),
    Commodity("850760", "Lithium-ion accumulators",
              ("Lithium-ion battery modules for energy storage", "Cylindrical 21700 lithium-ion cells"),
              "PCS", (25, 900), 12.0, 0.02, "DRY", ("CN", "KR"), un_number="UN3480"),
    Commodity("854143", "Photovoltaic cells assembled in modules or made up into panels",
              ("Monocrystalline solar panels, 550 W", "Bifacial PV modules, 600 W"),
              "PCS", (60, 140), 28.0, 0.06, "DRY", ("CN", "MY")),
    Commodity("850440", "Static converters",
              ("Grid-tie solar inverters, 10 kW", "EV wallbox charger power units"),
              "PCS", (400, 2500), 25.0, 0.06, "DRY", ("CN", "DE")),
    Commodity("870899", "Other parts and accessories of the motor vehicles of headings 87.01 to 87.05",
              ("Brake disc assemblies", "Aluminium alloy wheels", "Steering column assemblies"),
              "PCS", (15, 250), 9.0, 0.02, "DRY", ("DE", "JP", "KR", "CN", "US")),
    Commodity("870380", "Other motor vehicles, with only electric motor for propulsion",
              ("Battery-electric compact SUVs", "Battery-electric hatchbacks"),
              "PCS", (18000, 45000), 1900.0, 14.0, "DRY", ("CN", "KR", "DE", "US"),
              un_number="UN3556", max_units=4),
    Commodity("401110", "New pneumatic tyres, of rubber, of a kind used on motor cars",
              ("Passenger car radial tyres 205/55 R16", "All-season SUV tyres 235/60 R18"),
              "PCS", (35, 160), 9.0, 0.07, "DRY", ("CN", "JP", "KR", "DE")),
    Commodity("940360", "Other wooden furniture",
              ("Solid oak dining tables", "Rubberwood bookshelves", "Flat-pack bedroom wardrobes"),
              "PCS", (60, 700), 35.0, 0.25, "DRY", ("CN", "MY")),
    Commodity("940171", "Seats with metal frames, upholstered",
              ("Upholstered office chairs", "Steel-frame upholstered sofas"),
              "PCS", (40, 350), 18.0, 0.15, "DRY", ("CN", "TW")),
    Commodity("610910", "T-shirts, singlets and other vests, knitted or crocheted, of cotton",
              ("Men's crew-neck cotton T-shirts", "Organic cotton T-shirts"),
              "PCS", (2, 9), 0.2, 0.0015, "DRY", ("CN", "IN", "LK")),
    Commodity("620342", "Men's or boys' trousers, bib and brace overalls, breeches and shorts, of cotton",
              ("Men's denim jeans", "Cotton chino trousers"),
              "PCS", (6, 25), 0.7, 0.004, "DRY", ("CN", "IN", "LK")),
    Commodity("611030", "Jerseys, pullovers, cardigans, waistcoats and similar articles, knitted or "
              "crocheted, of man-made fibres",
              ("Polyester fleece pullovers", "Acrylic knit cardigans"),
              "PCS", (4, 20), 0.5, 0.004, "DRY", ("CN", "LK")),
    Commodity("640411", "Sports footwear with outer soles of rubber or plastics and uppers of textile materials",
              ("Running shoes", "Knit-upper training shoes"),
              "PR", (12, 45), 1.1, 0.012, "DRY", ("CN",)),
    Commodity("420222", "Handbags, with outer surface of sheeting of plastics or of textile materials",
              ("Canvas tote bags", "Nylon crossbody handbags"),
              "PCS", (3, 60), 0.5, 0.01, "DRY", ("CN", "IN")),
    Commodity("950300", "Tricycles, scooters, pedal cars and similar wheeled toys; dolls; other toys; "
              "reduced-size models; puzzles of all kinds",
              ("Construction brick toy sets", "Plush toys", "Remote-control model cars"),
              "PCS", (3, 60), 0.8, 0.008, "DRY", ("CN",)),
    Commodity("481910", "Cartons, boxes and cases, of corrugated paper or paperboard",
              ("Flat-packed corrugated shipping boxes",),
              "PCS", (0.3, 2.0), 0.4, 0.002, "DRY", ("CN", "US")),
    Commodity("721049", "Flat-rolled products of iron or non-alloy steel, of a width of 600 mm or more, "
              "plated or coated with zinc (other than electrolytically)",
              ("Hot-dip galvanised steel coils",),
              "KG", (0.8, 1.3), 1.0, 0.00013, "DRY", ("CN", "KR", "JP", "IN")),
    Commodity("732690", "Other articles of iron or steel",
              ("Steel shelving brackets", "Forged steel pipe fittings"),
              "PCS", (2, 40), 2.5, 0.002, "DRY", ("CN", "IN", "DE")),
    Commodity("841510", "Air conditioning machines of a kind designed to be fixed to a window, wall, "
              "ceiling or floor, self-contained or split-system",
              ("Split-system air conditioners, 12,000 BTU/h", "Inverter wall-mounted air conditioners"),
              "SET", (180, 600), 45.0, 0.15, "DRY", ("CN", "MY", "JP")),
    Commodity("841810", "Combined refrigerator-freezers, fitted with separate external doors or drawers",
              ("French-door refrigerator-freezers", "Bottom-freezer refrigerators"),
              "PCS", (350, 1500), 95.0, 0.9, "DRY", ("KR", "CN")),
    Commodity("845011", "Fully-automatic washing machines, each of a dry linen capacity not exceeding 10 kg",
              ("Front-loading washing machines, 8 kg",),
              "PCS", (200, 650), 70.0, 0.35, "DRY", ("KR", "CN", "DE")),
    Commodity("852872", "Reception apparatus for television, colour, not designed to incorporate a video display",
              ("55-inch 4K LED televisions", "65-inch OLED televisions"),
              "PCS", (220, 1800), 22.0, 0.12, "DRY", ("CN", "KR")),
    Commodity("854231", "Electronic integrated circuits: processors and controllers",
              ("Automotive microcontrollers, tape and reel", "Application processors, trays"),
              "PCS", (0.5, 180), 0.005, 0.0002, "DRY", ("TW", "KR", "MY", "SG", "US")),
    Commodity("847330", "Parts and accessories of the machines of heading 84.71",
              ("Server motherboards", "Laptop replacement keyboards"),
              "PCS", (4, 400), 0.6, 0.006, "DRY", ("TW", "CN")),
    Commodity("851830", "Headphones and earphones, whether or not combined with a microphone",
              ("Wireless earbuds", "Over-ear noise-cancelling headphones"),
              "PCS", (8, 180), 0.3, 0.002, "DRY", ("CN",)),
    Commodity("871200", "Bicycles and other cycles (including delivery tricycles), not motorised",
              ("Aluminium-frame city bicycles", "Hardtail mountain bikes"),
              "PCS", (90, 900), 17.0, 0.2, "DRY", ("TW", "CN")),
    Commodity("871160", "Motorcycles and cycles fitted with an auxiliary motor, with electric motor for propulsion",
              ("Pedal-assist electric bicycles", "Electric kick scooters"),
              "PCS", (350, 2200), 28.0, 0.25, "DRY", ("CN", "TW"), un_number="UN3556"),
    Commodity("940542", "Electric luminaires and lighting fittings designed for use solely with "
              "light-emitting diode (LED) light sources",
              ("LED panel lights", "LED street lights"),
              "PCS", (4, 180), 2.0, 0.01, "DRY", ("CN",)),
    Commodity("392410", "Tableware and kitchenware, of plastics",
              ("Melamine dinnerware", "Food storage containers"),
              "PCS", (1, 15), 0.4, 0.004, "DRY", ("CN", "MY")),
    Commodity("691110", "Tableware and kitchenware, of porcelain or china",
              ("Porcelain dinner sets, 16 pieces",),
              "SET", (12, 80), 6.0, 0.03, "DRY", ("CN", "DE")),
    Commodity("330499", "Beauty or make-up preparations and preparations for the care of the skin, n.e.s.",
              ("Facial moisturising creams", "Sunscreen lotions SPF 50"),
              "CTN", (30, 300), 8.0, 0.03, "DRY", ("KR", "DE", "JP", "US")),
    Commodity("271019", "Petroleum oils other than crude and other than light oils: lubricating oils",
              ("Synthetic engine oil, 4 x 5 L jerrycans",),
              "L", (2, 9), 0.9, 0.0012, "DRY", ("SG", "AE", "US", "NL")),
    Commodity("390110", "Polyethylene having a specific gravity of less than 0.94, in primary forms",
              ("LLDPE film-grade pellets, 25 kg bags",),
              "KG", (0.9, 1.4), 1.0, 0.0018, "DRY", ("AE", "US", "SG", "KR")),
    Commodity("400122", "Technically specified natural rubber (TSNR)",
              ("TSNR 20 natural rubber bales",),
              "KG", (1.4, 2.0), 1.0, 0.0012, "DRY", ("MY", "LK")),
    Commodity("090240", "Other black tea (fermented) and other partly fermented tea",
              ("Ceylon black tea, orthodox BOP grade, bulk sacks",),
              "KG", (3, 8), 1.0, 0.0025, "DRY", ("LK", "IN")),
    Commodity("090111", "Coffee, not roasted, not decaffeinated",
              ("Green arabica coffee beans, 60 kg bags",),
              "KG", (3.5, 9), 1.0, 0.0016, "DRY", ("BR",)),
    Commodity("100630", "Semi-milled or wholly milled rice, whether or not polished or glazed",
              ("Basmati rice, 25 kg bags",),
              "KG", (0.6, 1.6), 1.0, 0.0014, "DRY", ("IN",)),
    Commodity("120190", "Soya beans, whether or not broken, other than seed",
              ("Non-GMO soya beans in container liner bags",),
              "KG", (0.35, 0.6), 1.0, 0.0014, "DRY", ("BR", "US")),
    Commodity("040210", "Milk and cream in powder, granules or other solid forms, of a fat content "
              "not exceeding 1.5 % by weight",
              ("Skimmed milk powder, 25 kg bags",),
              "KG", (2.4, 3.4), 1.0, 0.002, "DRY", ("AU", "NL", "DE", "US")),
    Commodity("220421", "Wine of fresh grapes, in containers holding 2 l or less",
              ("Red wine, 750 ml bottles, cases of 12", "White wine, 750 ml bottles, cases of 12"),
              "CTN", (25, 240), 16.0, 0.02, "DRY", ("ES", "AU", "US", "DE", "GR")),
    Commodity("440711", "Wood sawn or chipped lengthwise, of a thickness exceeding 6 mm: coniferous, of pine",
              ("Kiln-dried pine lumber, 50 x 150 mm",),
              "M3", (180, 450), 500.0, 1.15, "OPEN", ("CA", "US", "BR", "DE")),
    Commodity("842952", "Self-propelled machinery with a 360 degree revolving superstructure (excavators)",
              ("Tracked hydraulic excavators, 20-tonne class", "Wheeled excavators, 14-tonne class"),
              "PCS", (85000, 240000), 20000.0, 45.0, "FLAT", ("JP", "KR", "DE", "US", "CN"), max_units=1),
    Commodity("020230", "Frozen boneless meat of bovine animals",
              ("Frozen boneless beef cuts, vacuum packed",),
              "KG", (4, 12), 1.0, 0.0018, "REEFER", ("BR", "AU", "US"), setpoint_c=-18.0),
    Commodity("030617", "Other shrimps and prawns, frozen",
              ("Frozen vannamei shrimp, peeled and deveined",),
              "KG", (5, 14), 1.0, 0.0022, "REEFER", ("IN", "CN"), setpoint_c=-20.0),
    Commodity("080810", "Apples, fresh",
              ("Fresh Gala apples, 18 kg cartons", "Fresh Fuji apples, 18 kg cartons"),
              "KG", (0.9, 2.2), 1.0, 0.0025, "REEFER", ("US", "CN", "CA"), setpoint_c=1.0),
    Commodity("080510", "Oranges, fresh or dried",
              ("Navel oranges, 15 kg cartons",),
              "KG", (0.6, 1.4), 1.0, 0.0024, "REEFER", ("ES", "US", "AU"), setpoint_c=4.0),
    Commodity("300490", "Medicaments put up in measured doses or in forms or packings for retail sale, n.e.s.",
              ("Generic paracetamol tablets, blister packs", "Antihypertensive tablets, blister packs"),
              "CTN", (40, 900), 12.0, 0.05, "REEFER", ("IN", "DE", "BE", "US"), setpoint_c=5.0),
    Commodity("151110", "Palm oil, crude",
              ("Crude palm oil, bulk liquid",),
              "KG", (0.8, 1.1), 1.0, 0.0011, "TANK", ("MY",)),
    Commodity("290511", "Methanol (methyl alcohol)",
              ("Methanol, chemical grade AA",),
              "KG", (0.25, 0.45), 1.0, 0.00127, "TANK", ("AE", "US"), un_number="UN1230"),
    Commodity("220710", "Undenatured ethyl alcohol of an alcoholic strength by volume of 80 % vol or higher",
              ("Undenatured ethanol 96 % vol, bulk liquid",),
              "KG", (0.7, 1.1), 1.0, 0.00127, "TANK", ("BR", "US"), un_number="UN1170"),
]

SEAL_PREFIX = {
    "MAEU": "ML-", "MSCU": "FX", "CMDU": "C", "COSU": "CN", "HLCU": "HLD", "ONEY": "ONE",
    "EGLV": "EMC", "HDMU": "HMM", "YMLU": "YMA", "ZIMU": "ZS", "WHLC": "WHL", "PCIU": "PIL",
    "OOLU": "OOLJ", "MATS": "MAT", "APLU": "AP",
}


# --------------------------------------------------------------------------- #
# Check digits
# --------------------------------------------------------------------------- #

def imo_check_digit(first_six: str) -> int:
    """IMO ship identification number check digit: weights 7..2 over the first six digits, mod 10."""
    return sum(int(d) * w for d, w in zip(first_six, range(7, 1, -1))) % 10


def _iso6346_letter_values() -> dict[str, int]:
    values, n = {}, 10
    for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if n % 11 == 0:  # the standard skips multiples of 11
            n += 1
        values[ch] = n
        n += 1
    return values


_ISO6346_VALUES = _iso6346_letter_values()


def iso6346_weighted_sum(first_ten: str) -> int:
    """Sum of the ten character values weighted by 2**position (ISO 6346, annex A)."""
    return sum(
        (_ISO6346_VALUES[ch] if ch.isalpha() else int(ch)) * (2**i) for i, ch in enumerate(first_ten)
    )


def iso6346_check_digit(first_ten: str) -> int:
    """ISO 6346 container number check digit (owner code + category + serial)."""
    return iso6346_weighted_sum(first_ten) % 11 % 10


# --------------------------------------------------------------------------- #
# Geometry
# --------------------------------------------------------------------------- #

def _to_vec(lon: float, lat: float) -> tuple[float, float, float]:
    la, lo = math.radians(lat), math.radians(lon)
    return (math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la))


def _from_vec(v: tuple[float, float, float]) -> tuple[float, float]:
    x, y, z = v
    lat = math.degrees(math.atan2(z, math.hypot(x, y)))
    lon = math.degrees(math.atan2(y, x))  # always in (-180, 180]: wraps the antimeridian
    return lon, lat


def _angle(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    cross = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    return math.atan2(math.sqrt(sum(c * c for c in cross)), sum(p * q for p, q in zip(a, b)))


def _slerp(a, b, t: float):
    omega = _angle(a, b)
    if omega < 1e-12:
        return a
    s = math.sin(omega)
    wa, wb = math.sin((1 - t) * omega) / s, math.sin(t * omega) / s
    return tuple(wa * p + wb * q for p, q in zip(a, b))


def initial_bearing(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Initial great-circle bearing from point 1 to point 2, degrees clockwise from true north."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360.0


@dataclass
class Route:
    """A sea route as a polyline of (lon, lat) vertices, with great-circle segment lengths in km."""

    points: list[tuple[float, float]]
    seg_km: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        vecs = [_to_vec(lon, lat) for lon, lat in self.points]
        self.seg_km = [_angle(a, b) * EARTH_RADIUS_KM for a, b in zip(vecs, vecs[1:])]

    @property
    def length_km(self) -> float:
        return sum(self.seg_km)

    def locate(self, fraction: float) -> tuple[float, float, float]:
        """Point at ``fraction`` of the route length: (lon in [-180, 180], lat, heading)."""
        target = max(0.0, min(1.0, fraction)) * self.length_km
        for i, seg in enumerate(self.seg_km):
            if target <= seg or i == len(self.seg_km) - 1:
                (lo1, la1), (lo2, la2) = self.points[i], self.points[i + 1]
                t = 0.0 if seg == 0 else min(1.0, target / seg)
                lon, lat = _from_vec(_slerp(_to_vec(lo1, la1), _to_vec(lo2, la2), t))
                return lon, lat, initial_bearing(lon, lat, lo2, la2)
            target -= seg
        raise AssertionError("unreachable")


_ROUTE_CACHE: dict[tuple[str, str, str], Route] = {}


def sea_route(origin: tuple, dest: tuple, region: str) -> Route:
    """Shortest sea route between two ports from searoute's maritime network (cached)."""
    import searoute  # imported here so the check-digit helpers need no extra package

    key = (origin[0], dest[0], region)
    if key not in _ROUTE_CACHE:
        feature = searoute.searoute(
            [origin[3], origin[2]],
            [dest[3], dest[2]],
            units="km",
            append_orig_dest=True,
            restrictions=ROUTE_RESTRICTIONS.get(region, DEFAULT_RESTRICTIONS),
        )
        points = [(float(lon), float(lat)) for lon, lat in feature["geometry"]["coordinates"]]
        # Drop consecutive duplicates so every segment has a length.
        dedup = [points[0]] + [p for prev, p in zip(points, points[1:]) if p != prev]
        _ROUTE_CACHE[key] = Route(dedup)
    return _ROUTE_CACHE[key]


def bound_of(route: Route) -> str:
    """Voyage direction letter as carriers print it (E/W, or N/S on north-south lanes)."""
    # Sum the per-segment longitude changes, each wrapped to [-180, 180), so a
    # route across the antimeridian counts as the short way round.
    dlon = sum(((b[0] - a[0] + 180.0) % 360.0) - 180.0 for a, b in zip(route.points, route.points[1:]))
    dlat = route.points[-1][1] - route.points[0][1]
    if abs(dlat) > abs(dlon):
        return "N" if dlat > 0 else "S"
    return "E" if dlon > 0 else "W"


# --------------------------------------------------------------------------- #
# Data
# --------------------------------------------------------------------------- #

@dataclass
class Voyage:
    vessel: int  # index into VESSELS
    origin: str
    dest: str
    region: str
    status: str
    departure: date
    eta: date
    arrival: date | None = None
    delay_reason: str | None = None
    voyage_id: int = 0
    voyage_number: str = ""


def _interp(table: list[tuple[float, float]], x: float) -> float:
    for (x1, y1), (x2, y2) in zip(table, table[1:]):
        if x <= x2:
            return y1 + (y2 - y1) * (max(x, x1) - x1) / (x2 - x1)
    return table[-1][1]


LOA_BY_TEU = [(2500, 200.0), (4250, 260.0), (6500, 300.0), (8500, 335.0), (11000, 350.0),
              (14000, 366.0), (18000, 399.0), (25000, 399.9)]


class SeedBuilder:
    """Builds every table's rows from the constants and one seeded random generator."""

    def __init__(self, seed: int = SEED) -> None:
        self.rng = random.Random(seed)
        self.port_index = {p[0]: i for i, p in enumerate(PORTS)}
        self.carrier_index = {c[0]: i for i, c in enumerate(CARRIERS)}

    # -- ids are 1-based positions in the constant lists ----------------------
    def port_id(self, unlocode: str) -> int:
        return self.port_index[unlocode] + 1

    def port(self, unlocode: str) -> tuple:
        return PORTS[self.port_index[unlocode]]

    def build(self) -> dict[str, list[dict]]:
        rows = {
            "carriers": self._carriers(),
            "ports": self._ports(),
            "vessels": self._vessels(),
        }
        voyages = self._voyages()
        rows["voyages"] = [self._voyage_row(v) for v in voyages]
        rows["vessel_positions"] = self._positions(voyages)
        rows["containers"], rows["cargo_items"] = self._containers_and_cargo(voyages)
        for table, expected in ROW_COUNTS.items():
            if len(rows[table]) != expected:
                raise AssertionError(f"{table}: generated {len(rows[table])} rows, expected {expected}")
        return rows

    def _carriers(self) -> list[dict]:
        return [
            {"carrier_id": i + 1, "scac_code": scac, "carrier_name": name,
             "headquarters_country": country, "headquarters_city": city,
             "alliance": alliance, "founded_year": founded}
            for i, (scac, name, country, city, alliance, founded) in enumerate(CARRIERS)
        ]

    def _ports(self) -> list[dict]:
        rows = []
        for i, (code, name, lat, lon, tz, teu, _zone) in enumerate(PORTS):
            rows.append({
                "port_id": i + 1, "unlocode": code, "port_name": name, "country_code": code[:2],
                "latitude": lat, "longitude": lon, "location": ("POINT", lon, lat),
                "timezone_name": tz, "annual_teu": teu,
            })
        return rows

    def _vessels(self) -> list[dict]:
        rows, used_imo = [], set()
        for i, (scac, name, teu, year, flag, _a, _b, _region) in enumerate(VESSELS):
            # IMO numbers are issued roughly in sequence, so newer ships have higher ones.
            base = 9_310_000 + int((year - 2005) * 36_000)
            while True:
                six = str(self.rng.randint(base - 60_000, base - 2_000) // 10)
                imo = int(six + str(imo_check_digit(six)))
                if imo not in used_imo:
                    used_imo.add(imo)
                    break
            dwt_per_teu = 14.0 - 4.2 * min(1.0, max(0.0, (teu - 2000) / 22000))
            dwt = round(teu * dwt_per_teu * self.rng.uniform(0.96, 1.04), -1)
            loa = min(399.9, round(_interp(LOA_BY_TEU, teu) + self.rng.uniform(-4, 4), 1))
            speed = round(self.rng.uniform(19.5, 21.0) if teu < 6000 else self.rng.uniform(21.5, 23.5), 1)
            rows.append({
                "vessel_id": i + 1, "imo_number": imo, "vessel_name": name,
                "carrier_id": self.carrier_index[scac] + 1, "flag_state": flag,
                "capacity_teu": teu, "deadweight_tonnes": int(dwt), "length_overall_m": loa,
                "year_built": year, "service_speed_knots": speed,
            })
        return rows

    # -- voyages --------------------------------------------------------------
    def _planned_days(self, origin: str, dest: str, region: str) -> int:
        route = sea_route(self.port(origin), self.port(dest), region)
        knots = 16.0  # slow-steaming commercial speed used in schedules
        return max(2, math.ceil(route.length_km / KM_PER_NM / (knots * 24)) + 1)

    def _voyages(self) -> list[Voyage]:
        rng = self.rng
        order = list(range(len(VESSELS)))
        rng.shuffle(order)
        idle = sorted(order[:IDLE_VESSELS])
        underway = sorted(order[IDLE_VESSELS:])
        delayed = set(rng.sample(underway, VOYAGE_STATUS_COUNTS["DELAYED"]))
        n_completed = VOYAGE_STATUS_COUNTS["COMPLETED"] - IDLE_VESSELS
        n_scheduled = VOYAGE_STATUS_COUNTS["SCHEDULED"] - IDLE_VESSELS
        with_completed = set(rng.sample(underway, n_completed))
        with_scheduled = set(rng.sample(underway, n_scheduled))

        voyages: list[Voyage] = []
        for v in range(len(VESSELS)):
            _scac, _name, _teu, _year, _flag, a, b, region = VESSELS[v]
            origin, dest = (a, b) if rng.random() < 0.5 else (b, a)
            days = self._planned_days(origin, dest, region)
            back_days = self._planned_days(dest, origin, region)
            if v in idle:
                # Arrived recently, next departure in a few days; no position report.
                arrival = REFERENCE_DATE - timedelta(days=rng.randint(2, 6))
                dep = arrival - timedelta(days=days + rng.choice([-1, 0, 0, 1]))
                voyages.append(Voyage(v, origin, dest, region, "COMPLETED", dep,
                                      dep + timedelta(days=days), arrival))
                nxt = REFERENCE_DATE + timedelta(days=rng.randint(3, 9))
                voyages.append(Voyage(v, dest, origin, region, "SCHEDULED", nxt,
                                      nxt + timedelta(days=back_days)))
                continue
            status = "DELAYED" if v in delayed else "ACTIVE"
            if status == "ACTIVE":
                # Trans-Pacific ships mid-ocean so some positions sit near the antimeridian.
                lo, hi = (0.4, 0.75) if region == "TRANS_PACIFIC" else (0.12, 0.88)
                elapsed = max(1, round(rng.uniform(lo, hi) * days))
            else:
                elapsed = max(1, round(rng.uniform(0.55, 1.05) * days))
            elapsed = min(elapsed, days + 1)
            dep = REFERENCE_DATE - timedelta(days=elapsed)
            reason = None
            if status == "DELAYED":
                reason = rng.choice(DELAY_REASONS[region]).format(
                    origin=self.port(origin)[1], dest=self.port(dest)[1])
            current = Voyage(v, origin, dest, region, status, dep, dep + timedelta(days=days),
                             delay_reason=reason)
            voyages.append(current)
            if v in with_completed:
                arrival = dep - timedelta(days=rng.randint(1, 3))
                actual = back_days + rng.choice([-1, 0, 0, 1, 2])
                pdep = arrival - timedelta(days=actual)
                voyages.append(Voyage(v, dest, origin, region, "COMPLETED", pdep,
                                      pdep + timedelta(days=back_days), arrival))
            if v in with_scheduled:
                slip = rng.randint(2, 5) if status == "DELAYED" else 0
                ndep = current.eta + timedelta(days=rng.randint(2, 4) + slip)
                voyages.append(Voyage(v, dest, origin, region, "SCHEDULED", ndep,
                                      ndep + timedelta(days=back_days)))

        voyages.sort(key=lambda x: (x.departure, x.vessel))
        counters: dict[str, int] = {}
        for i, voy in enumerate(voyages):
            voy.voyage_id = i + 1
            scac = VESSELS[voy.vessel][0]
            counters[scac] = counters.get(scac, 0) + 1
            route = sea_route(self.port(voy.origin), self.port(voy.dest), voy.region)
            voy.voyage_number = f"{scac}-{voy.departure.year % 100:02d}{counters[scac]:03d}{bound_of(route)}"
        got = {s: sum(1 for x in voyages if x.status == s) for s in VOYAGE_STATUS_COUNTS}
        if got != VOYAGE_STATUS_COUNTS:
            raise AssertionError(f"voyage statuses {got} != {VOYAGE_STATUS_COUNTS}")
        return voyages

    def _voyage_row(self, v: Voyage) -> dict:
        route = sea_route(self.port(v.origin), self.port(v.dest), v.region)
        return {
            "voyage_id": v.voyage_id, "voyage_number": v.voyage_number, "vessel_id": v.vessel + 1,
            "origin_port_id": self.port_id(v.origin), "destination_port_id": self.port_id(v.dest),
            "ocean_region": v.region, "status": v.status, "departure_date": v.departure,
            "eta_date": v.eta, "arrival_date": v.arrival, "distance_nm": round(route.length_km / KM_PER_NM),
            "delay_reason": v.delay_reason,
        }

    # -- positions ------------------------------------------------------------
    def _positions(self, voyages: list[Voyage]) -> list[dict]:
        rng = self.rng
        rows = []
        underway = [v for v in voyages if v.status in ("ACTIVE", "DELAYED")]
        for v in sorted(underway, key=lambda x: x.vessel):
            route = sea_route(self.port(v.origin), self.port(v.dest), v.region)
            recorded = REFERENCE_INSTANT - timedelta(minutes=rng.randint(4, 360))
            start = datetime.combine(v.departure, datetime.min.time())
            planned_h = (v.eta - v.departure).days * 24.0
            progress = (recorded - start).total_seconds() / 3600.0 / planned_h
            if v.status == "DELAYED":
                progress *= rng.uniform(0.6, 0.85)
                speed = rng.uniform(5.5, 11.5)
            else:
                speed = rng.uniform(13.5, 18.5)
            lon, lat, heading = route.locate(min(0.95, max(0.05, progress)))
            rows.append({
                "position_id": len(rows) + 1, "vessel_id": v.vessel + 1, "voyage_id": v.voyage_id,
                "recorded_at": recorded, "latitude": round(lat, 5), "longitude": round(lon, 5),
                "position": ("POINT", round(lon, 5), round(lat, 5)),
                "speed_knots": round(speed, 1), "heading_deg": round(heading, 1) % 360.0,
            })
        return rows

    # -- containers and cargo -------------------------------------------------
    def _container_number(self, owner: str, used: set[str]) -> str:
        while True:
            serial = f"{self.rng.randint(0, 999_999):06d}"
            first_ten = owner + serial
            # A weighted sum of 10 mod 11 gives check digit 0, which ISO 6346 advises against.
            if iso6346_weighted_sum(first_ten) % 11 == 10:
                continue
            number = first_ten + str(iso6346_check_digit(first_ten))
            if number not in used:
                used.add(number)
                return number

    def _containers_per_voyage(self, voyages: list[Voyage]) -> list[int]:
        counts = []
        for v in voyages:
            counts.append(3 if v.status in ("ACTIVE", "DELAYED") else 1)
        spare = ROW_COUNTS["containers"] - sum(counts)
        underway = [i for i, v in enumerate(voyages) if v.status in ("ACTIVE", "DELAYED")]
        for _ in range(spare):
            counts[self.rng.choice(underway)] += 1
        return counts

    def _items_per_container(self, types: list[ContainerType]) -> list[int]:
        """Cargo lines per container: one for tank and flat-rack boxes, one to four otherwise."""
        counts = [1] * len(types)
        open_slots = [i for i, t in enumerate(types) if t.cargo_class not in ("TANK", "FLAT")]
        for _ in range(ROW_COUNTS["cargo_items"] - len(types)):
            while True:
                i = self.rng.choice(open_slots)
                if counts[i] < 4:
                    counts[i] += 1
                    break
        return counts

    def _containers_and_cargo(self, voyages: list[Voyage]) -> tuple[list[dict], list[dict]]:
        rng = self.rng
        per_voyage = self._containers_per_voyage(voyages)
        weights = [t.weight for t in CONTAINER_TYPES]
        booked = [(voyage, rng.choices(CONTAINER_TYPES, weights=weights)[0])
                  for voyage, count in zip(voyages, per_voyage) for _ in range(count)]
        per_container = self._items_per_container([ctype for _, ctype in booked])
        containers, cargo, used = [], [], set()
        for (voyage, ctype), n_items in zip(booked, per_container):
            scac = VESSELS[voyage.vessel][0]
            origin_country = voyage.origin[:2]
            owner = rng.choice(OWNER_CODES[scac]) if rng.random() < 0.7 else rng.choice(LESSOR_OWNER_CODES)
            number = self._container_number(owner, used)
            container_id = len(containers) + 1
            items = self._pick_commodities(ctype, origin_country, n_items)
            setpoint = items[0].setpoint_c if ctype.cargo_class == "REEFER" else None
            containers.append({
                "container_id": container_id, "container_number": number, "owner_code": owner,
                "container_type": ctype.code, "iso_size_type": ctype.iso,
                "tare_weight_kg": ctype.tare_kg + rng.randint(-3, 3) * 10,
                "max_gross_weight_kg": ctype.max_gross_kg, "voyage_id": voyage.voyage_id,
                "seal_number": f"{SEAL_PREFIX[scac]}{rng.randint(1_000_000, 9_999_999)}",
                "reefer_setpoint_c": setpoint,
            })
            cargo.extend(self._load(container_id, ctype, items, origin_country, len(cargo)))
        return containers, cargo

    def _pick_commodities(self, ctype: ContainerType, origin_country: str, n: int) -> list[Commodity]:
        """Choose ``n`` distinct commodities that fit the box (same reefer setpoint in one box)."""
        fits = [c for c in COMMODITIES if c.cargo_class == ctype.cargo_class]
        local = [c for c in fits if origin_country in c.origins]
        first = self.rng.choice(local or fits)
        pool = [c for c in (local or fits) if c is not first and c.setpoint_c == first.setpoint_c
                and c.max_units is None]
        if first.max_units is not None:
            pool = [c for c in pool if c.kg_per_unit <= 50]
        others = self.rng.sample(pool, min(n - 1, len(pool)))
        # Tank and flat-rack boxes carry one commodity; split it into several lines (lots).
        while len(others) < n - 1:
            others.append(first if not pool else self.rng.choice(pool))
        return [first, *others]

    def _load(self, container_id: int, ctype: ContainerType, items: list[Commodity],
              origin_country: str, start: int) -> list[dict]:
        rng = self.rng
        payload = ctype.max_gross_kg - ctype.tare_kg
        utilisation = rng.uniform(0.55, 0.92)
        shares = [rng.uniform(0.5, 1.5) for _ in items]
        total = sum(shares)
        rows = []
        for item, share in zip(items, shares):
            part = utilisation * share / total
            by_volume = part * ctype.volume_m3 / item.m3_per_unit
            by_weight = part * payload / item.kg_per_unit
            quantity = max(1, int(min(by_volume, by_weight)))
            if item.max_units is not None:
                quantity = max(1, min(quantity, item.max_units))
            if item.uom in ("KG", "L", "PCS", "CTN") and quantity > 200:
                quantity = round(quantity, -1)  # shipping documents use round lot sizes
            lo, hi = item.usd_per_unit
            cents = max(1, round(rng.uniform(lo, hi) * 100))
            weight = round(quantity * item.kg_per_unit * rng.uniform(0.97, 1.05), 1)
            country = origin_country if origin_country in item.origins else rng.choice(item.origins)
            rows.append({
                "cargo_item_id": start + len(rows) + 1, "container_id": container_id,
                "hs_code": item.hs, "hs_description": item.hs_description,
                "goods_description": rng.choice(item.goods), "quantity": quantity,
                "unit_of_measure": item.uom, "unit_value_cents": cents, "gross_weight_kg": weight,
                "origin_country": country, "un_number": item.un_number,
            })
        return rows


# --------------------------------------------------------------------------- #
# DDL and comments
# --------------------------------------------------------------------------- #

DDL = {
    "carriers": """CREATE TABLE supplychain.carriers (
  carrier_id           NUMBER(6)     NOT NULL,
  scac_code            CHAR(4)       NOT NULL,
  carrier_name         VARCHAR2(100) NOT NULL,
  headquarters_country CHAR(2)       NOT NULL,
  headquarters_city    VARCHAR2(60)  NOT NULL,
  alliance             VARCHAR2(10),
  founded_year         NUMBER(4)     NOT NULL,
  CONSTRAINT carriers_pk PRIMARY KEY (carrier_id),
  CONSTRAINT carriers_scac_uk UNIQUE (scac_code),
  CONSTRAINT carriers_name_uk UNIQUE (carrier_name),
  CONSTRAINT carriers_alliance_ck CHECK (alliance IN ('GEMINI', 'OCEAN', 'PREMIER')),
  CONSTRAINT carriers_founded_ck CHECK (founded_year BETWEEN 1800 AND 2100)
)""",
    "ports": """CREATE TABLE supplychain.ports (
  port_id       NUMBER(6)    NOT NULL,
  unlocode      CHAR(5)      NOT NULL,
  port_name     VARCHAR2(80) NOT NULL,
  country_code  CHAR(2)      NOT NULL,
  latitude      NUMBER(8,5)  NOT NULL,
  longitude     NUMBER(8,5)  NOT NULL,
  location      SDO_GEOMETRY,
  timezone_name VARCHAR2(40) NOT NULL,
  annual_teu    NUMBER(10),
  CONSTRAINT ports_pk PRIMARY KEY (port_id),
  CONSTRAINT ports_unlocode_uk UNIQUE (unlocode),
  CONSTRAINT ports_country_ck CHECK (SUBSTR(unlocode, 1, 2) = country_code),
  CONSTRAINT ports_latitude_ck CHECK (latitude BETWEEN -90 AND 90),
  CONSTRAINT ports_longitude_ck CHECK (longitude BETWEEN -180 AND 180),
  CONSTRAINT ports_annual_teu_ck CHECK (annual_teu >= 0)
)""",
    "vessels": """CREATE TABLE supplychain.vessels (
  vessel_id           NUMBER(6)    NOT NULL,
  imo_number          NUMBER(7)    NOT NULL,
  vessel_name         VARCHAR2(60) NOT NULL,
  carrier_id          NUMBER(6)    NOT NULL,
  flag_state          CHAR(2)      NOT NULL,
  capacity_teu        NUMBER(6)    NOT NULL,
  deadweight_tonnes   NUMBER(7)    NOT NULL,
  length_overall_m    NUMBER(4,1)  NOT NULL,
  year_built          NUMBER(4)    NOT NULL,
  service_speed_knots NUMBER(3,1)  NOT NULL,
  CONSTRAINT vessels_pk PRIMARY KEY (vessel_id),
  CONSTRAINT vessels_imo_uk UNIQUE (imo_number),
  CONSTRAINT vessels_carrier_fk FOREIGN KEY (carrier_id) REFERENCES supplychain.carriers (carrier_id),
  CONSTRAINT vessels_imo_ck CHECK (imo_number BETWEEN 1000000 AND 9999999),
  CONSTRAINT vessels_capacity_ck CHECK (capacity_teu > 0),
  CONSTRAINT vessels_dwt_ck CHECK (deadweight_tonnes > 0),
  CONSTRAINT vessels_loa_ck CHECK (length_overall_m > 0),
  CONSTRAINT vessels_speed_ck CHECK (service_speed_knots > 0)
)""",
    "voyages": """CREATE TABLE supplychain.voyages (
  voyage_id           NUMBER(8)     NOT NULL,
  voyage_number       VARCHAR2(12)  NOT NULL,
  vessel_id           NUMBER(6)     NOT NULL,
  origin_port_id      NUMBER(6)     NOT NULL,
  destination_port_id NUMBER(6)     NOT NULL,
  ocean_region        VARCHAR2(20)  NOT NULL,
  status              VARCHAR2(10)  NOT NULL,
  departure_date      DATE          NOT NULL,
  eta_date            DATE          NOT NULL,
  arrival_date        DATE,
  distance_nm         NUMBER(6)     NOT NULL,
  delay_reason        VARCHAR2(200),
  CONSTRAINT voyages_pk PRIMARY KEY (voyage_id),
  CONSTRAINT voyages_number_uk UNIQUE (voyage_number),
  CONSTRAINT voyages_vessel_fk FOREIGN KEY (vessel_id) REFERENCES supplychain.vessels (vessel_id),
  CONSTRAINT voyages_origin_fk FOREIGN KEY (origin_port_id) REFERENCES supplychain.ports (port_id),
  CONSTRAINT voyages_destination_fk FOREIGN KEY (destination_port_id) REFERENCES supplychain.ports (port_id),
  CONSTRAINT voyages_ports_ck CHECK (origin_port_id <> destination_port_id),
  CONSTRAINT voyages_status_ck CHECK (status IN ('ACTIVE', 'DELAYED', 'SCHEDULED', 'COMPLETED')),
  CONSTRAINT voyages_region_ck CHECK (ocean_region IN ('TRANS_PACIFIC', 'ASIA_EUROPE', 'INTRA_ASIA',
    'INDIAN_OCEAN', 'TRANS_ATLANTIC', 'SOUTH_ATLANTIC', 'OCEANIA')),
  CONSTRAINT voyages_eta_ck CHECK (eta_date > departure_date),
  CONSTRAINT voyages_arrival_ck CHECK ((status = 'COMPLETED' AND arrival_date > departure_date)
    OR (status <> 'COMPLETED' AND arrival_date IS NULL)),
  CONSTRAINT voyages_delay_ck CHECK ((status = 'DELAYED' AND delay_reason IS NOT NULL)
    OR (status <> 'DELAYED' AND delay_reason IS NULL)),
  CONSTRAINT voyages_distance_ck CHECK (distance_nm > 0)
)""",
    "vessel_positions": """CREATE TABLE supplychain.vessel_positions (
  position_id NUMBER(8)    NOT NULL,
  vessel_id   NUMBER(6)    NOT NULL,
  voyage_id   NUMBER(8)    NOT NULL,
  recorded_at TIMESTAMP    NOT NULL,
  latitude    NUMBER(8,5)  NOT NULL,
  longitude   NUMBER(8,5)  NOT NULL,
  position    SDO_GEOMETRY,
  speed_knots NUMBER(3,1)  NOT NULL,
  heading_deg NUMBER(4,1)  NOT NULL,
  CONSTRAINT vessel_positions_pk PRIMARY KEY (position_id),
  CONSTRAINT vessel_positions_vessel_uk UNIQUE (vessel_id),
  CONSTRAINT vessel_positions_voyage_uk UNIQUE (voyage_id),
  CONSTRAINT vessel_positions_vessel_fk FOREIGN KEY (vessel_id) REFERENCES supplychain.vessels (vessel_id),
  CONSTRAINT vessel_positions_voyage_fk FOREIGN KEY (voyage_id) REFERENCES supplychain.voyages (voyage_id),
  CONSTRAINT vessel_positions_lat_ck CHECK (latitude BETWEEN -90 AND 90),
  CONSTRAINT vessel_positions_lon_ck CHECK (longitude BETWEEN -180 AND 180),
  CONSTRAINT vessel_positions_speed_ck CHECK (speed_knots >= 0),
  CONSTRAINT vessel_positions_heading_ck CHECK (heading_deg >= 0 AND heading_deg < 360)
)""",
    "containers": """CREATE TABLE supplychain.containers (
  container_id        NUMBER(8)    NOT NULL,
  container_number    CHAR(11)     NOT NULL,
  owner_code          CHAR(4)      NOT NULL,
  container_type      VARCHAR2(4)  NOT NULL,
  iso_size_type       CHAR(4)      NOT NULL,
  tare_weight_kg      NUMBER(6)    NOT NULL,
  max_gross_weight_kg NUMBER(6)    NOT NULL,
  voyage_id           NUMBER(8)    NOT NULL,
  seal_number         VARCHAR2(15) NOT NULL,
  reefer_setpoint_c   NUMBER(4,1),
  CONSTRAINT containers_pk PRIMARY KEY (container_id),
  CONSTRAINT containers_number_uk UNIQUE (container_number),
  CONSTRAINT containers_voyage_fk FOREIGN KEY (voyage_id) REFERENCES supplychain.voyages (voyage_id),
  CONSTRAINT containers_owner_ck CHECK (SUBSTR(container_number, 1, 4) = owner_code),
  CONSTRAINT containers_type_ck CHECK (container_type IN ('20GP', '40GP', '40HC', '20RF', '40RH',
    '20OT', '40FR', '20TK')),
  CONSTRAINT containers_weight_ck CHECK (tare_weight_kg > 0 AND max_gross_weight_kg > tare_weight_kg),
  CONSTRAINT containers_reefer_ck CHECK (reefer_setpoint_c IS NULL OR container_type IN ('20RF', '40RH'))
)""",
    "cargo_items": """CREATE TABLE supplychain.cargo_items (
  cargo_item_id     NUMBER(8)     NOT NULL,
  container_id      NUMBER(8)     NOT NULL,
  hs_code           CHAR(6)       NOT NULL,
  hs_description    VARCHAR2(200) NOT NULL,
  goods_description VARCHAR2(200) NOT NULL,
  quantity          NUMBER(10)    NOT NULL,
  unit_of_measure   VARCHAR2(3)   NOT NULL,
  unit_value_cents  NUMBER(12)    NOT NULL,
  gross_weight_kg   NUMBER(9,1)   NOT NULL,
  origin_country    CHAR(2)       NOT NULL,
  un_number         VARCHAR2(6),
  CONSTRAINT cargo_items_pk PRIMARY KEY (cargo_item_id),
  CONSTRAINT cargo_items_container_fk FOREIGN KEY (container_id) REFERENCES supplychain.containers (container_id),
  CONSTRAINT cargo_items_quantity_ck CHECK (quantity > 0),
  CONSTRAINT cargo_items_uom_ck CHECK (unit_of_measure IN ('PCS', 'PR', 'SET', 'CTN', 'KG', 'L', 'M3')),
  CONSTRAINT cargo_items_value_ck CHECK (unit_value_cents >= 0),
  CONSTRAINT cargo_items_weight_ck CHECK (gross_weight_kg > 0),
  CONSTRAINT cargo_items_un_ck CHECK (un_number IS NULL OR SUBSTR(un_number, 1, 2) = 'UN')
)""",
}

# Indexes on foreign-key columns (Oracle does not create them automatically).
INDEXES = [
    ("vessels_carrier_ix", "vessels", "carrier_id"),
    ("voyages_vessel_ix", "voyages", "vessel_id"),
    ("voyages_origin_ix", "voyages", "origin_port_id"),
    ("voyages_destination_ix", "voyages", "destination_port_id"),
    ("containers_voyage_ix", "containers", "voyage_id"),
    ("cargo_items_container_ix", "cargo_items", "container_id"),
    ("cargo_items_hs_ix", "cargo_items", "hs_code"),
]

# Spatial indexes: SDO_WITHIN_DISTANCE fails with ORA-13226 on a column without one, and the index reads
# the column's USER_SDO_GEOM_METADATA row (longitude/latitude bounds, tolerance in metres, SRID).
SPATIAL_COLUMNS = [
    ("ports_location_sx", "ports", "location"),
    ("vessel_positions_position_sx", "vessel_positions", "position"),
]
GEODETIC_SRID = 4326  # WGS 84 longitude/latitude, as in every SDO_GEOMETRY the seed writes
DIMINFO = "SDO_DIM_ARRAY(SDO_DIM_ELEMENT('X', -180, 180, 0.05), SDO_DIM_ELEMENT('Y', -90, 90, 0.05))"

TABLE_COMMENTS = {
    "carriers": (
        "Ocean container shipping lines (carriers) that operate the vessels. One row per carrier, "
        "identified by its SCAC code. Join vessels.carrier_id to carriers.carrier_id."
    ),
    "ports": (
        "Container seaports, identified by UN/LOCODE. Coordinates are WGS 84 (SRID 4326) decimal "
        "degrees, stored both as plain LATITUDE/LONGITUDE numbers and as an SDO_GEOMETRY point in LOCATION."
    ),
    "vessels": (
        "Container ships operated by the carriers. Size is CAPACITY_TEU (containers, in twenty-foot "
        "equivalent units), not tonnage; DEADWEIGHT_TONNES is the weight a ship can carry. Vessel names "
        "and IMO numbers are illustrative (IMO check digits are valid) and do not identify real ships."
    ),
    "voyages": (
        "One sailing of a vessel from an origin port to a destination port. STATUS tells whether it is "
        "SCHEDULED, ACTIVE (at sea on time), DELAYED (at sea, behind schedule) or COMPLETED. Dates are "
        "calendar days in UTC. Data is as of 2025-11-01 00:00 UTC."
    ),
    "vessel_positions": (
        "Latest AIS-style position report of each vessel that is at sea (one row per ACTIVE or DELAYED "
        "voyage). Positions lie on the voyage's sea route; POSITION is an SDO_GEOMETRY point (SRID 4326)."
    ),
    "containers": (
        "Shipping containers (boxes) booked on a voyage, identified by their ISO 6346 container number. "
        "A container on an ACTIVE or DELAYED voyage is at sea; on a SCHEDULED voyage awaiting loading; on "
        "a COMPLETED voyage delivered."
    ),
    "cargo_items": (
        "Commodity lines packed in a container: HS code, goods, quantity and value. UNIT_VALUE_CENTS is "
        "in US dollar cents per unit; line value in USD = quantity * unit_value_cents / 100."
    ),
}

COLUMN_COMMENTS = {
    "carriers": {
        "carrier_id": "Surrogate primary key of the carrier.",
        "scac_code": "Standard Carrier Alpha Code: the 4-letter carrier code assigned by the NMFTA "
                     "(e.g. MAEU = Maersk), used on bills of lading.",
        "carrier_name": "Trading name of the shipping line.",
        "headquarters_country": "Country of the head office, ISO 3166-1 alpha-2 code (e.g. DK, CH).",
        "headquarters_city": "City of the head office.",
        "alliance": "Vessel-sharing alliance in 2025: GEMINI (Maersk, Hapag-Lloyd), OCEAN (CMA CGM, "
                    "COSCO, OOCL, Evergreen, APL) or PREMIER (ONE, HMM, Yang Ming); NULL = independent.",
        "founded_year": "Founding year the carrier gives for itself (for merged lines, the year it "
                        "traces its history to).",
    },
    "ports": {
        "port_id": "Surrogate primary key of the port.",
        "unlocode": "UN/LOCODE of the port: 2-letter ISO 3166-1 country code + 3-character location "
                    "code (e.g. SGSIN = Singapore, NLRTM = Rotterdam).",
        "port_name": "Common English name of the port.",
        "country_code": "ISO 3166-1 alpha-2 country code; equals the first two letters of UNLOCODE.",
        "latitude": "Latitude in decimal degrees, WGS 84; positive = north, negative = south.",
        "longitude": "Longitude in decimal degrees, WGS 84; positive = east, negative = west of Greenwich.",
        "location": "Port position as SDO_GEOMETRY point, SRID 4326 (WGS 84), SDO_POINT X = longitude, "
                    "Y = latitude. Use SDO_WITHIN_DISTANCE / SDO_GEOM.SDO_DISTANCE with unit=KM for distances.",
        "timezone_name": "IANA time zone of the port (e.g. Asia/Singapore) for converting UTC times to local time.",
        "annual_teu": "Approximate container throughput in calendar year 2023, in TEU (twenty-foot "
                      "equivalent units) handled per year; a count of containers, not a weight.",
    },
    "vessels": {
        "vessel_id": "Surrogate primary key of the vessel.",
        "imo_number": "7-digit IMO ship identification number; the last digit is a check digit: "
                      "sum of the first six digits weighted 7,6,5,4,3,2, modulo 10.",
        "vessel_name": "Ship name as painted on the hull.",
        "carrier_id": "Operating carrier; foreign key to CARRIERS.CARRIER_ID.",
        "flag_state": "Flag state (country of registry), ISO 3166-1 alpha-2 code (e.g. PA = Panama, LR = Liberia).",
        "capacity_teu": "Nominal container capacity in TEU (twenty-foot equivalent units): how many "
                        "20-foot containers the ship can carry; a 40-foot container counts as 2 TEU. "
                        "It is a count of container slots, NOT a weight - never tons or tonnes.",
        "deadweight_tonnes": "Deadweight tonnage (DWT) in metric tonnes: the total weight of cargo, fuel, "
                             "water and stores the ship can carry. A weight, unlike CAPACITY_TEU.",
        "length_overall_m": "Length overall (LOA) in metres.",
        "year_built": "Year the ship was delivered by the shipyard.",
        "service_speed_knots": "Design service speed in knots (nautical miles per hour); ships usually "
                               "slow-steam at 14-18 knots.",
    },
    "voyages": {
        "voyage_id": "Surrogate primary key of the voyage.",
        "voyage_number": "Carrier voyage reference: SCAC, two-digit year, sequence and bound letter "
                         "(E/W/N/S = eastbound/westbound/northbound/southbound), e.g. MAEU-25007W.",
        "vessel_id": "Vessel sailing the voyage; foreign key to VESSELS.VESSEL_ID.",
        "origin_port_id": "Port of loading where the voyage starts; foreign key to PORTS.PORT_ID.",
        "destination_port_id": "Port of discharge where the voyage ends; foreign key to PORTS.PORT_ID.",
        "ocean_region": "Trade lane / ocean region of the route: TRANS_PACIFIC (Asia - North America, incl. "
                        "via Panama to the US East Coast), ASIA_EUROPE (Asia - Europe/Mediterranean, sailing "
                        "round the Cape of Good Hope), INTRA_ASIA, INDIAN_OCEAN (Asia - South Asia/Middle East), "
                        "TRANS_ATLANTIC (Europe/Mediterranean - North America), SOUTH_ATLANTIC (South America - "
                        "Europe) or OCEANIA (Australia - Asia).",
        "status": "SCHEDULED = not yet departed; ACTIVE = at sea and on schedule; DELAYED = at sea but will "
                  "arrive after ETA_DATE (see DELAY_REASON); COMPLETED = arrived (ARRIVAL_DATE set). "
                  "ACTIVE and DELAYED voyages have a row in VESSEL_POSITIONS.",
        "departure_date": "Departure day from the origin port (actual for ACTIVE/DELAYED/COMPLETED, "
                          "planned for SCHEDULED), UTC calendar date.",
        "eta_date": "Scheduled (planned) arrival day at the destination, UTC calendar date. For DELAYED "
                    "voyages the ship will arrive later than this.",
        "arrival_date": "Actual arrival day at the destination, UTC calendar date; NULL unless STATUS = "
                        "COMPLETED. Transit time in days = arrival_date - departure_date.",
        "distance_nm": "Length of the sea route in nautical miles (1 nm = 1.852 km), not kilometres.",
        "delay_reason": "Why a DELAYED voyage is behind schedule; NULL for any other status.",
    },
    "vessel_positions": {
        "position_id": "Surrogate primary key of the position report.",
        "vessel_id": "Reporting vessel; foreign key to VESSELS.VESSEL_ID (one latest report per vessel).",
        "voyage_id": "Voyage the vessel is sailing; foreign key to VOYAGES.VOYAGE_ID (an ACTIVE or DELAYED voyage).",
        "recorded_at": "Time of the position report in UTC (TIMESTAMP without time zone, always UTC).",
        "latitude": "Latitude in decimal degrees, WGS 84; negative = south.",
        "longitude": "Longitude in decimal degrees, WGS 84, between -180 and 180; negative = west. "
                     "Trans-Pacific ships near the antimeridian jump between +180 and -180.",
        "position": "Vessel position as SDO_GEOMETRY point, SRID 4326; SDO_POINT X = longitude, Y = latitude.",
        "speed_knots": "Speed over ground in knots (nautical miles per hour), not km/h.",
        "heading_deg": "Course in degrees clockwise from true north (0 = north, 90 = east), 0 to 359.9.",
    },
    "containers": {
        "container_id": "Surrogate primary key of the container.",
        "container_number": "ISO 6346 container number: 3-letter owner code + equipment category U + "
                            "6-digit serial + check digit (e.g. MSKU1234565). The check digit is the sum "
                            "of the ten character values weighted by 2^position, modulo 11, modulo 10.",
        "owner_code": "BIC owner prefix: the first four characters of CONTAINER_NUMBER (owner code ending "
                      "in U = freight container), e.g. MSKU = Maersk, TGHU = Textainer (a lessor).",
        "container_type": "Container size and type: 20GP/40GP = 20/40-foot general purpose (dry), "
                          "40HC = 40-foot high cube, 20RF/40RH = refrigerated (reefer), 20OT = open top, "
                          "40FR = flat rack, 20TK = tank. A 20-foot box is 1 TEU, a 40-foot box 2 TEU.",
        "iso_size_type": "ISO 6346 size-and-type code as marked on the box (e.g. 22G1, 45G1, 45R1).",
        "tare_weight_kg": "Weight of the empty container in kilograms.",
        "max_gross_weight_kg": "Maximum permitted weight of container plus cargo in kilograms.",
        "voyage_id": "Voyage the container is booked on; foreign key to VOYAGES.VOYAGE_ID.",
        "seal_number": "Number of the carrier's high-security seal on the container doors.",
        "reefer_setpoint_c": "Carrying temperature of a refrigerated container in degrees Celsius "
                             "(e.g. -18 frozen); NULL for non-reefer containers.",
    },
    "cargo_items": {
        "cargo_item_id": "Surrogate primary key of the cargo line.",
        "container_id": "Container holding the goods; foreign key to CONTAINERS.CONTAINER_ID.",
        "hs_code": "Harmonized System (HS 2022) subheading, 6 digits as text with leading zeros kept "
                   "(e.g. 847130 = laptops, 020230 = frozen boneless beef). The first 2 digits are the chapter.",
        "hs_description": "Official description of the HS subheading.",
        "goods_description": "Description of the goods as declared by the shipper.",
        "quantity": "Number of units of UNIT_OF_MEASURE in this line.",
        "unit_of_measure": "Unit that QUANTITY counts: PCS = pieces, PR = pairs, SET = sets, CTN = cartons, "
                           "KG = kilograms, L = litres, M3 = cubic metres.",
        "unit_value_cents": "Declared value of ONE unit in US dollar cents (USD cents), not dollars: divide "
                            "by 100 for USD. Line value in USD = quantity * unit_value_cents / 100.",
        "gross_weight_kg": "Gross weight of the whole line (all units, with packaging) in kilograms.",
        "origin_country": "Country of origin of the goods, ISO 3166-1 alpha-2 code.",
        "un_number": "UN number of dangerous goods (IMDG Code), e.g. UN3480 = lithium-ion batteries; "
                     "NULL when the goods are not dangerous.",
    },
}


# --------------------------------------------------------------------------- #
# Rendering
# --------------------------------------------------------------------------- #

def sql_literal(value) -> str:
    """Render one Python value as an Oracle SQL literal (strings quoted, dates via TO_DATE)."""
    if value is None:
        return "NULL"
    if isinstance(value, tuple) and value and value[0] == "POINT":
        _, lon, lat = value
        return (f"SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE({_num(lon)}, {_num(lat)}, NULL), "
                "NULL, NULL)")
    if isinstance(value, datetime):
        return f"TO_TIMESTAMP('{value:%Y-%m-%d %H:%M:%S}', 'YYYY-MM-DD HH24:MI:SS')"
    if isinstance(value, date):
        return f"TO_DATE('{value:%Y-%m-%d}', 'YYYY-MM-DD')"
    if isinstance(value, bool):
        raise TypeError("no boolean columns in this schema")
    if isinstance(value, (int, float)):
        return _num(value)
    return "'" + str(value).replace("'", "''") + "'"


def _num(value: float | int) -> str:
    if isinstance(value, int):
        return str(value)
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def render(rows: dict[str, list[dict]]) -> str:
    """The complete seed script: drops, tables, comments, indexes, one INSERT per row, spatial indexes."""
    out = [
        "-- SUPPLYCHAIN seed for the Oracle AI Database retrieval workshop.",
        "-- Generated by seed/generate.py - do not edit by hand; change the generator and rerun it.",
        f"-- Data as of {REFERENCE_INSTANT:%Y-%m-%d %H:%M} UTC (fixed), random seed {SEED}.",
        "-- Every statement is plain Oracle SQL (23ai and later) ending with a semicolon; run it as the",
        "-- SUPPLYCHAIN user (or with workshop_lib.seed.run_seed). Re-running drops and recreates the tables.",
        "",
        "-- Drop in reverse dependency order so a re-run starts clean.",
    ]
    for table in reversed(TABLES):
        out.append(f"DROP TABLE IF EXISTS {SCHEMA}.{table} CASCADE CONSTRAINTS PURGE;")
    for table in TABLES:
        out += ["", f"-- {table}", DDL[table] + ";"]
        out.append(f"COMMENT ON TABLE {SCHEMA}.{table} IS {sql_literal(TABLE_COMMENTS[table])};")
        for column, text in COLUMN_COMMENTS[table].items():
            out.append(f"COMMENT ON COLUMN {SCHEMA}.{table}.{column} IS {sql_literal(text)};")
    out += ["", "-- Indexes on foreign keys and lookup columns."]
    for name, table, column in INDEXES:
        out.append(f"CREATE INDEX {SCHEMA}.{name} ON {SCHEMA}.{table} ({column});")
    for table in TABLES:
        out += ["", f"-- {table}: {len(rows[table])} rows"]
        for row in rows[table]:
            columns = ", ".join(row)
            values = ", ".join(sql_literal(v) for v in row.values())
            out.append(f"INSERT INTO {SCHEMA}.{table} ({columns}) VALUES ({values});")
    out += spatial_index_statements()
    return "\n".join(out) + "\n"


def spatial_index_statements() -> list[str]:
    """Geometry metadata and spatial indexes for the SDO_GEOMETRY columns, as the SUPPLYCHAIN user runs them.

    USER_SDO_GEOM_METADATA rows belong to the connected user and outlive DROP TABLE, so the rows are
    deleted first (a re-run stays idempotent); DROP TABLE already removed the old indexes.
    """
    tables = ", ".join(f"'{table.upper()}'" for _name, table, _column in SPATIAL_COLUMNS)
    out = ["", "-- Spatial metadata and indexes (SDO_WITHIN_DISTANCE needs a spatial index on its column).",
           f"DELETE FROM user_sdo_geom_metadata WHERE table_name IN ({tables});"]
    for _name, table, column in SPATIAL_COLUMNS:
        out.append("INSERT INTO user_sdo_geom_metadata (table_name, column_name, diminfo, srid) "
                   f"VALUES ('{table.upper()}', '{column.upper()}', {DIMINFO}, {GEODETIC_SRID});")
    for name, table, column in SPATIAL_COLUMNS:
        out.append(f"CREATE INDEX {SCHEMA}.{name} ON {SCHEMA}.{table} ({column}) "
                   "INDEXTYPE IS MDSYS.SPATIAL_INDEX_V2 PARAMETERS ('layer_gtype=POINT');")
    return out


def build_sql(seed: int = SEED) -> str:
    """Generate the seed script text (deterministic for a given seed)."""
    _ROUTE_CACHE.clear()
    return render(SeedBuilder(seed).build())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if seed/supplychain.sql differs from what the generator produces")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where to write the SQL")
    args = parser.parse_args(argv)
    text = build_sql()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date: run python seed/generate.py", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.output} ({text.count(';')} statements)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
