"""SQL/JSON path expressions in lite: filters, item methods and array selectors, in Oracle's lax mode.

The expected values are worked out by hand from the SQL/JSON path definitions
(Oracle's JSON Developer's Guide, "SQL/JSON Path Expressions" and "Item
Methods") on one purchase-order document shaped like the guide's own
``j_purchaseorder`` example; each test names the rule it holds lite to.
"""

from __future__ import annotations

import json

import pytest

from lite_sql import failure, run
from workshop_lib.backends.lite import connect_lite
from workshop_lib.lite import json_path

PO = {
    "PONumber": 1600,
    "Reference": "ABULL-20140421",
    "Requestor": "Alexis Bull",
    "ShippingInstructions": {"name": "Alexis Bull",
                             "Phone": [{"type": "Office", "number": "909-555-7307"},
                                       {"type": "Mobile", "number": "415-555-1234"}]},
    "Special Instructions": None,
    "AllowPartialShipment": True,
    "LineItems": [
        {"ItemNumber": 1, "Part": {"Description": "One Magic Christmas", "UnitPrice": 19.95}, "Quantity": 9},
        {"ItemNumber": 2, "Part": {"Description": "Lethal Weapon", "UnitPrice": 19.95}, "Quantity": 5},
        {"ItemNumber": 3, "Part": {"Description": "Sabrina", "UnitPrice": 4}, "Quantity": "3"},
    ],
    "Tags": ["film", "dvd"],
}


def found(path: str, data=PO) -> list:
    return json_path.matches(data, json_path.parse(path))


@pytest.mark.parametrize(("path", "expected"), [
    # lax mode: a field step applies to each element of an array it meets
    ("$.LineItems.Quantity", [9, 5, "3"]),
    ("$.LineItems[*].Part.Description", ["One Magic Christmas", "Lethal Weapon", "Sabrina"]),
    ("$.ShippingInstructions.Phone.type", ["Office", "Mobile"]),
    # array selectors: single, last, ranges and lists in ascending order; an array step on a non-array is [0]
    ("$.LineItems[1].ItemNumber", [2]),
    ("$.LineItems[last].ItemNumber", [3]),
    ("$.LineItems[last-2].ItemNumber", [1]),
    ("$.LineItems[0 to 1].ItemNumber", [1, 2]),
    ("$.LineItems[0, 2].ItemNumber", [1, 3]),
    ("$.LineItems[1 to last].ItemNumber", [2, 3]),
    ("$.LineItems[5].ItemNumber", []),
    ("$.PONumber[0]", [1600]),
    ("$.PONumber[1]", []),
    # filters keep the items their condition holds for; an array is filtered element by element
    ("$.LineItems?(@.Quantity > 4).ItemNumber", [1, 2]),
    ("$.LineItems[*]?(@.Part.UnitPrice == 19.95 && @.Quantity < 9).ItemNumber", [2]),
    ("$.LineItems?(@.Quantity > 8 || @.Part.UnitPrice < 5).ItemNumber", [1, 3]),
    ("$.LineItems?(!(@.Quantity > 4)).ItemNumber", []),   # "3" > 4 is unknown, and so is its negation
    ("$.LineItems?(@.Part.Description starts with \"S\").ItemNumber", [3]),
    ("$.LineItems?(@.Part.Description has substring \"Weapon\").ItemNumber", [2]),
    ("$.LineItems?(@.Part.Description like \"%Magic%\").ItemNumber", [1]),
    ("$.LineItems?(@.Part.Description like_regex \"^L.*n$\").ItemNumber", [2]),
    ("$.LineItems?(@.Part.Description eq_regex \"Sab\").ItemNumber", []),   # eq_regex matches the whole string
    ("$.ShippingInstructions?(exists(@.Phone?(@.type == \"Mobile\"))).name", ["Alexis Bull"]),
    ("$?(@.Tags == \"dvd\").PONumber", [1600]),       # a comparison with an array holds when one element does
    ("$?(@.\"Special Instructions\" == null).PONumber", [1600]),
    ("$?(@.AllowPartialShipment == true).PONumber", [1600]),
    ("$?(@.AllowPartialShipment == \"true\").PONumber", []),   # a boolean and a string do not compare
    ("$.LineItems?(@.Quantity == 3).ItemNumber", []),   # "3" is a string: no number equals it
    ("$.LineItems?(@.ItemNumber == $.PONumber).ItemNumber", []),
    # a descendant step finds the field at any depth, each object before what it holds
    ("$..Quantity", [9, 5, "3"]),
    ("$..type", ["Office", "Mobile"]),
    ("$.ShippingInstructions..number", ["909-555-7307", "415-555-1234"]),
    ("$..Part.Description", ["One Magic Christmas", "Lethal Weapon", "Sabrina"]),
    ("$..Quantity.sum()", [14]),
    # item methods: size() and type() take an array whole, the others apply to each element
    ("$.LineItems.size()", [3]),
    ("$.Requestor.size()", [1]),
    ("$.LineItems.type()", ["array"]),
    ("$.ShippingInstructions.type()", ["object"]),
    ("$.\"Special Instructions\".type()", ["null"]),
    ("$.Tags.upper()", ["FILM", "DVD"]),
    ("$.Requestor.length()", [11]),
    ("$.PONumber.length()", []),                        # not a string: no match
    ("$.LineItems.Quantity.number()", [9, 5, 3]),       # number() reads a numeric string
    ("$.LineItems.Quantity.numberOnly()", [9, 5]),
    ("$.LineItems.Quantity.string()", ["9", "5", "3"]),
    ("$.LineItems.Part.UnitPrice.floor()", [19, 19, 4]),
    ("$.LineItems.Part.UnitPrice.ceiling()", [20, 20, 4]),
    ("$.AllowPartialShipment.boolean()", [True]),
    # aggregate methods act on all targeted values together, arrays unwrapped
    ("$.LineItems.count()", [3]),
    ("$.LineItems.Quantity.sum()", [14]),               # numbers only: the string "3" is left out
    ("$.LineItems.Part.UnitPrice.maxNumber()", [19.95]),
    ("$.LineItems.Part.Description.minString()", ["Lethal Weapon"]),
    ("$.Missing.count()", [0]),
    ("$.Missing.sum()", []),
])
def test_paths_against_the_definitions(path: str, expected: list) -> None:
    assert found(path) == expected


@pytest.mark.parametrize(("path", "construct"), [
    ("$..*", "descendant steps other than"),
    ("strict $.PONumber", "strict"),
    ("$.Requestor.date()", "date()"),
    ("$.LineItems[2, 0]", "ascending order"),
    ("$.LineItems[0 to 1, 1]", "ascending order"),
    ("$.LineItems[2 to 1]", "ascending order"),
])
def test_what_lite_does_not_evaluate_is_named(path: str, construct: str) -> None:
    with pytest.raises(json_path.Unsupported) as info:
        json_path.parse(path)
    assert construct in info.value.construct


@pytest.mark.parametrize("path", ["", "PONumber", "$.", "$.a?(@.b >)", "$.a?(@.b == 1", "$[x]", "$.a.nosuch()",
                                  "$.a.size().b", "$.a?(@.b like @.c)", "$.a?(@ starts \"x\")"])
def test_what_is_not_a_path_is_ora_40442(path: str) -> None:
    with pytest.raises(json_path.PathSyntaxError, match="ORA-40442"):
        json_path.parse(path)


@pytest.fixture()
def conn(tmp_path):
    connection = connect_lite(tmp_path, "AGENT")
    cur = connection.cursor()
    cur.execute("CREATE TABLE po (id NUMBER PRIMARY KEY, doc JSON)")
    other = dict(PO, PONumber=1700, Requestor="Sarah Bell", LineItems=[
        {"ItemNumber": 1, "Part": {"Description": "Sabrina", "UnitPrice": 4}, "Quantity": 1}], Tags=["dvd"])
    for key, doc in ((1, PO), (2, other), (3, {"PONumber": 1800})):
        cur.execute("INSERT INTO po VALUES (:1, :2)", [key, json.dumps(doc)])
    yield connection
    connection.close()


def test_json_exists_with_a_filter_selects_rows(conn) -> None:
    rows = run(conn, "SELECT id FROM po WHERE JSON_EXISTS(doc, '$.LineItems?(@.Part.UnitPrice > 10)') ORDER BY id")
    assert rows == [(1,)]
    rows = run(conn, "SELECT id FROM po WHERE JSON_EXISTS(doc, '$.LineItems?(@.Part.Description == \"Sabrina\")') "
                     "ORDER BY id")
    assert rows == [(1,), (2,)]


def test_json_value_with_item_methods_and_errors(conn) -> None:
    rows = run(conn, "SELECT id, JSON_VALUE(doc, '$.LineItems.size()'), JSON_VALUE(doc, '$.Requestor.upper()'), "
                     "JSON_VALUE(doc, '$.LineItems.Quantity.sum()' RETURNING NUMBER) FROM po ORDER BY id")
    assert rows == [(1, "3", "ALEXIS BULL", 14), (2, "1", "SARAH BELL", 1), (3, None, None, None)]   # no LineItems
    # several values: NULL ON ERROR by default, ORA-40470 with ERROR ON ERROR
    assert run(conn, "SELECT JSON_VALUE(doc, '$.LineItems.ItemNumber') FROM po WHERE id = 1") == [(None,)]
    assert failure(conn, "SELECT JSON_VALUE(doc, '$.LineItems.ItemNumber' ERROR ON ERROR) FROM po WHERE id = 1"
                   ).code == 40470
    # an item method on the wrong type matches nothing: the ON EMPTY / ON ERROR handling applies
    assert run(conn, "SELECT JSON_VALUE(doc, '$.PONumber.upper()' DEFAULT 'none' ON EMPTY) FROM po WHERE id = 1") \
        == [("none",)]


def test_a_field_of_a_one_element_array_is_found_by_the_fast_path_too(conn) -> None:
    """SQLite's json_extract reads $.LineItems.ItemNumber strictly (nothing there); Oracle's lax mode finds the
    one element's field, and so does lite, for a plain path on a JSON column as for any other."""
    rows = run(conn, "SELECT id, JSON_VALUE(doc, '$.LineItems.ItemNumber'), JSON_VALUE(doc, '$.PONumber[0]') "
                     "FROM po ORDER BY id")
    assert rows == [(1, None, "1600"), (2, "1", "1700"), (3, None, "1800")]


def test_json_query_and_json_table_take_filters(conn) -> None:
    rows = run(conn, "SELECT JSON_QUERY(doc, '$.LineItems?(@.Quantity.number() >= 5).ItemNumber' WITH WRAPPER) "
                     "FROM po WHERE id = 1")
    assert rows == [([1, 2],)]   # a JSON column's JSON_QUERY is JSON, which python-oracledb returns as a list
    rows = run(conn, "SELECT p.id, j.item, j.descr FROM po p, JSON_TABLE(p.doc, '$.LineItems[*]?(@.Part.UnitPrice < 10)' "
                     "COLUMNS (item NUMBER PATH '$.ItemNumber', descr VARCHAR2(40) PATH '$.Part.Description.upper()')) j "
                     "ORDER BY p.id, j.item")
    assert rows == [(1, 3, "SABRINA"), (2, 1, "SABRINA")]


@pytest.mark.parametrize(("sql", "code", "fragment"), [
    ("SELECT JSON_VALUE(doc, '$..*') FROM po", 3001, "descendant steps other than"),
    ("SELECT id FROM po WHERE JSON_EXISTS(doc, '$.LineItems?(@.Quantity > $q)')", 40442, "$q has no PASSING"),
    ("SELECT JSON_QUERY(doc, '$.LineItems[' WITH WRAPPER) FROM po", 40442, "JSON path expression syntax error"),
    ("SELECT JSON_VALUE(doc, '$.PONumber.timestamp()') FROM po", 3001, "timestamp()"),
])
def test_paths_lite_cannot_evaluate_are_refused_before_any_row(conn, sql: str, code: int, fragment: str) -> None:
    error = failure(conn, sql)
    assert error.code == code and fragment in error.message, error.message


# JSON_SERIALIZE, JSON_MERGEPATCH and JSON_EQUAL (read and changed as whole documents)

def test_json_serialize_writes_compact_strict_text(conn) -> None:
    assert run(conn, "SELECT JSON_SERIALIZE('{a : 1, \"b\" : [true, null]}') FROM dual") == [('{"a":1,"b":[true,null]}',)]
    assert run(conn, "SELECT JSON_SERIALIZE(doc) FROM po WHERE id = 3") == [('{"PONumber":1800}',)]
    assert run(conn, "SELECT JSON_SERIALIZE(NULL) FROM dual") == [(None,)]
    assert failure(conn, "SELECT JSON_SERIALIZE('{a:') FROM dual").code == 40441


@pytest.mark.parametrize(("target", "patch", "expected"), [
    # RFC 7396's own examples (Appendix A), a selection
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
])
def test_json_mergepatch_follows_rfc_7396(conn, target, patch, expected) -> None:
    rows = run(conn, "SELECT JSON_MERGEPATCH(:t, :p) FROM dual", {"t": json.dumps(target), "p": json.dumps(patch)})
    assert json.loads(rows[0][0]) == expected


def test_json_mergepatch_changes_a_json_column(conn) -> None:
    run(conn, "UPDATE po SET doc = JSON_MERGEPATCH(doc, '{\"Requestor\":\"A. Bull\",\"Tags\":null}') WHERE id = 1")
    assert run(conn, "SELECT JSON_VALUE(doc, '$.Requestor'), JSON_EXISTS(doc, '$.Tags') FROM po WHERE id = 1") \
        == [("A. Bull", 0)]


def test_json_equal_compares_values_not_text(conn) -> None:
    rows = run(conn, "SELECT id FROM po WHERE JSON_EQUAL(doc, '{\"PONumber\" : 1800.0}') ORDER BY id")
    assert rows == [(3,)]
    cases = [('{"a":1,"b":2}', '{"b":2,"a":1}', 1), ('[1,2]', '[2,1]', 0), ('{"a":true}', '{"a":1}', 0),
             ('{"a":null}', '{}', 0), ('"x"', '"x"', 1), ('{a:1}', '{"a":1}', 1)]
    for left, right, equal in cases:
        assert run(conn, "SELECT COUNT(*) FROM dual WHERE JSON_EQUAL(:l, :r)", {"l": left, "r": right}) \
            == [(equal,)], (left, right)


@pytest.mark.parametrize(("sql", "fragment"), [
    ("SELECT JSON_TRANSFORM(doc, SET '$.a' = 1) FROM po", "JSON_TRANSFORM"),
    ("SELECT JSON_SERIALIZE(doc PRETTY) FROM po", "JSON_SERIALIZE(... PRETTY)"),
    ("SELECT JSON_MERGEPATCH(doc, '{}' RETURNING CLOB) FROM po", "JSON_MERGEPATCH(... RETURNING)"),
])
def test_json_functions_lite_lacks_are_named(conn, sql: str, fragment: str) -> None:
    error = failure(conn, sql)
    assert error.code == 3001 and fragment in error.message, error.message


DOCS = ['{"a":1}', '{a:1}', '{"a":1,"a":2}', '1', '[1,2]', "{'a':1}", 'NaN', '{"a":NaN}', 'x']


@pytest.mark.parametrize(("clause", "expected"), [
    # Oracle's defaults: LAX syntax ({a:1}, single quotes), ALLOW SCALARS, WITHOUT UNIQUE KEYS; NaN is never JSON
    ("IS JSON", [1, 1, 1, 1, 1, 1, 0, 0, 0]),
    ("IS JSON LAX", [1, 1, 1, 1, 1, 1, 0, 0, 0]),
    ("IS JSON STRICT", [1, 0, 1, 1, 1, 0, 0, 0, 0]),
    ("IS JSON WITH UNIQUE KEYS", [1, 1, 0, 1, 1, 1, 0, 0, 0]),
    ("IS JSON WITHOUT UNIQUE KEYS", [1, 1, 1, 1, 1, 1, 0, 0, 0]),
    ("IS JSON STRICT WITH UNIQUE KEYS", [1, 0, 0, 1, 1, 0, 0, 0, 0]),
    ("IS JSON DISALLOW SCALARS", [1, 1, 1, 0, 1, 1, 0, 0, 0]),
    ("IS NOT JSON STRICT", [0, 1, 0, 0, 0, 1, 1, 1, 1]),
])
def test_is_json_options(conn, clause: str, expected: list) -> None:
    got = [run(conn, f"SELECT COUNT(*) FROM dual WHERE :d {clause}", {"d": d})[0][0] for d in DOCS]
    assert got == expected


def test_is_json_of_null_is_unknown_and_a_kind_lite_lacks_is_named(conn) -> None:
    assert run(conn, "SELECT COUNT(*) FROM dual WHERE NULL IS JSON OR NULL IS NOT JSON") == [(0,)]
    assert failure(conn, "SELECT 1 FROM dual WHERE '{}' IS JSON OBJECT").code == 3001


def test_generated_json_writes_dates_and_whole_numbers_as_oracle_does(conn) -> None:
    """JSON_OBJECT / JSON_ARRAY / JSON_ARRAYAGG: a DATE as ISO 8601 without a fraction, a whole NUMBER without
    ``.0`` (SQLite's REAL would write 2.0), a TIMESTAMP refused by name."""
    rows = run(conn, "SELECT JSON_OBJECT('d' VALUE TO_DATE('2020-01-02 03:04:05', 'YYYY-MM-DD HH24:MI:SS'), "
                     "'half' VALUE 3 / 2, 'whole' VALUE 4 / 2), JSON_ARRAY(DATE '2003-06-17', 0.5 * 2) FROM dual")
    assert rows == [('{"d":"2020-01-02T03:04:05","half":1.5,"whole":2}', '["2003-06-17T00:00:00",1]')]
    assert run(conn, "SELECT JSON_ARRAYAGG(id / 1 ORDER BY id) FROM po") == [("[1,2,3]",)]
    assert failure(conn, "SELECT JSON_ARRAY(SYSTIMESTAMP) FROM dual").code == 3001


def test_json_exists_passing_gives_the_paths_variables(conn) -> None:
    """PASSING expr AS "name" is $name in the path (a bind too); an unquoted name is read in upper case."""
    sql = "SELECT id FROM po WHERE JSON_EXISTS(doc, '$.LineItems?(@.Part.UnitPrice > $p && @.Quantity >= $q)' " \
          "PASSING :price AS \"p\", 5 AS \"q\") ORDER BY id"
    assert run(conn, sql, {"price": 10}) == [(1,)]
    assert run(conn, sql, {"price": 100}) == []
    assert run(conn, "SELECT id FROM po WHERE JSON_EXISTS(doc, '$?(@.Requestor == $WHO)' PASSING 'Sarah Bell' AS who)") \
        == [(2,)]
    assert json_path.matches(PO, json_path.parse("$.LineItems?(@.ItemNumber == $n).Part.Description"), {"n": 2}) \
        == ["Lethal Weapon"]
    with pytest.raises(ValueError, match="has no PASSING value"):
        json_path.matches(PO, json_path.parse("$?(@.PONumber == $n)"))


def test_json_object_star_names_each_column(conn) -> None:
    run(conn, "CREATE TABLE star_t (id NUMBER, name VARCHAR2(10), born DATE, v VECTOR(2, FLOAT32))")
    run(conn, "INSERT INTO star_t (id, name, born) VALUES (1, 'a', DATE '2001-02-03')")
    assert run(conn, "SELECT JSON_OBJECT(*) FROM (SELECT id, name, born FROM star_t)") == \
        [('{"ID":1,"NAME":"a","BORN":"2001-02-03T00:00:00"}',)]
    error = failure(conn, "SELECT JSON_OBJECT(*) FROM star_t")
    assert error.code == 3001 and "VECTOR value in generated JSON (V)" in error.message
    assert failure(conn, "SELECT JSON_ARRAY(TO_VECTOR('[1, 2]')) FROM dual").code == 3001
