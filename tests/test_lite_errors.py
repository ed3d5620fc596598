"""The lite error catalogue (workshop_lib/lite/error_catalogue.py): every entry formats, numbers are Oracle's,
and the engine builds its errors only from the catalogue."""

from __future__ import annotations

import ast
import re
import sqlite3
import string
from pathlib import Path

import oracledb
import pytest

import workshop_lib.lite as lite_pkg
from workshop_lib.lite import error_catalogue as catalogue
from workshop_lib.lite.error_catalogue import CATALOGUE, ErrorSpec, error, from_function_error, from_sqlite
from workshop_lib.lite.errors import LiteDatabaseError, LiteNotSupportedError

LITE = Path(lite_pkg.__file__).parent


def _fields(template: str | None) -> set[str]:
    if template is None:
        return set()
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_the_catalogue_is_not_empty_and_names_are_unique_specs() -> None:
    assert len(CATALOGUE) >= 80
    assert all(isinstance(spec, ErrorSpec) for spec in CATALOGUE.values())


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_every_entry_formats_with_an_oracle_shaped_code(name: str) -> None:
    spec = CATALOGUE[name]
    assert re.fullmatch(r"ORA-\d{5}", spec.full_code) and 0 < spec.code < 100000, name
    params = {field: f"<{field}>" for field in _fields(spec.message) | _fields(spec.hint)}
    exc = error(spec, **params)
    assert isinstance(exc, LiteDatabaseError) and isinstance(exc, oracledb.DatabaseError)
    err = exc.args[0]
    assert err.code == spec.code and err.full_code == spec.full_code
    assert err.message.startswith(spec.full_code + ": ")
    for value in params.values():
        assert value in err.message, (name, value)
    assert "{" not in err.message.replace("{...}", "") and "}" not in err.message.replace("{...}", "")
    if spec.hint is not None:
        assert "\nHelp: " in err.message
    if spec.unsupported:
        assert isinstance(exc, LiteNotSupportedError) and spec.code == 3001
        assert err.message.startswith("ORA-03001: unimplemented feature in the lite backend: ")


def test_a_missing_parameter_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        error(catalogue.ERR_TABLE_DOES_NOT_EXIST, owner="AGENT")


def test_messages_read_exactly_as_before() -> None:
    assert str(error(catalogue.ERR_TABLE_DOES_NOT_EXIST, owner="AGENT", table="T")) == \
        'ORA-00942: table or view "AGENT"."T" does not exist'
    assert str(error(catalogue.ERR_TEXT_QUERY, detail="DRG-50901: x")) == (
        "ORA-29902: error in executing ODCIIndexStart() routine\nORA-20000: Oracle Text error:\nDRG-50901: x"
        "\nHelp: escape user text with workshop_lib.retrieval.text_query(...) or braces {...}")
    assert str(error(catalogue.ERR_UNSUPPORTED_ROWNUM_CLAUSE, clause="ORDER BY")).startswith(
        "ORA-03001: unimplemented feature in the lite backend: ROWNUM in a query block with ORDER BY (Oracle "
        "numbers the rows before ORDER BY applies)\nHelp: for the first n rows in an order write ORDER BY ... "
        "FETCH FIRST n ROWS ONLY")


@pytest.mark.parametrize("sqlite_text, code, text", [
    ("no such table: supplychain.vessels", 942, 'table or view "VESSELS" does not exist'),
    ("no such column: v.nope", 904, '"V"."NOPE": invalid identifier'),
    ("UNIQUE constraint failed: t.a", 1, "unique constraint (T.A) violated"),
    ("FOREIGN KEY constraint failed", 2291, "parent key not found"),
    ("NOT NULL constraint failed: t.a", 1400, "cannot insert NULL into (T.A)"),
    ("database is locked", 54, "resource busy"),
    ("something else entirely", 604, "error in the lite engine: something else entirely"),
])
def test_sqlite_errors_map_through_the_catalogue(sqlite_text: str, code: int, text: str) -> None:
    exc = from_sqlite(sqlite3.OperationalError(sqlite_text))
    assert exc.args[0].code == code and text in str(exc)


def test_errors_raised_inside_sql_functions_keep_their_number() -> None:
    assert from_function_error(ValueError("ORA-01722: invalid number: 'x'")).args[0].code == 1722
    assert str(from_function_error(ValueError("ORA-01722: invalid number: 'x'"))) == "ORA-01722: invalid number: 'x'"
    assert str(from_function_error(ValueError("boom"))) == "ORA-00604: error in a SQL function: boom"
    same = LiteDatabaseError(1, "x")
    assert from_function_error(same) is same


def test_the_engine_builds_errors_only_from_the_catalogue() -> None:
    """No inline LiteDatabaseError(code, text, hint) outside errors.py / error_catalogue.py."""
    inline = []
    for path in sorted(LITE.glob("*.py")):
        if path.name in ("errors.py", "error_catalogue.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                    "LiteDatabaseError", "LiteNotSupportedError"):
                inline.append(f"{path.name}:{node.lineno}")
    assert inline == []


def test_every_catalogue_entry_is_used() -> None:
    sources = "\n".join(p.read_text() for p in LITE.glob("*.py") if p.name != "error_catalogue.py")
    own = (LITE / "error_catalogue.py").read_text()
    unused = [name for name in CATALOGUE
              if not re.search(rf"\b{name}\b", sources) and len(re.findall(rf"\b{name}\b", own)) < 2]
    assert unused == []


def test_the_docs_list_every_refusal_the_catalogue_has() -> None:
    """docs/lite-engine.md's table of ORA-03001 refusals is the catalogue's (regenerate it with
    ``python -c "from workshop_lib.lite.error_catalogue import unsupported_markdown as u; print(u())"``)."""
    from pathlib import Path

    from workshop_lib.lite.error_catalogue import DOC_BEGIN, DOC_END, unsupported_markdown

    docs = (Path(__file__).parent.parent / "docs" / "lite-engine.md").read_text()
    start, end = docs.index(DOC_BEGIN), docs.index(DOC_END) + len(DOC_END)
    assert docs[start:end] == unsupported_markdown()
    assert unsupported_markdown().count("\n| ") >= 40


def test_a_write_blocked_by_another_connections_open_change_says_what_to_do(tmp_path, monkeypatch) -> None:
    """SQLite's single writer surfaces as ORA-00054 naming the other connection's uncommitted change."""
    from workshop_lib.backends.lite import connect_lite
    from workshop_lib.lite import connection

    monkeypatch.setattr(connection, "BUSY_TIMEOUT_SECONDS", 0.2)   # the wait itself is SQLite's (default 5 s)

    first, second = connect_lite(tmp_path / "lite"), connect_lite(tmp_path / "lite")
    try:
        first.cursor().execute("CREATE TABLE t1 (x NUMBER)")
        first.commit()
        first.cursor().execute("INSERT INTO t1 VALUES (1)")   # left uncommitted
        with pytest.raises(Exception) as info:
            second.cursor().execute("CREATE TABLE t2 (y NUMBER)")
        message = str(info.value)
        assert message.startswith("ORA-00054") and "uncommitted change" in message
        assert "commit or roll back in the other connection" in message
        first.rollback()
        second.cursor().execute("CREATE TABLE t2 (y NUMBER)")   # free again
    finally:
        first.close()
        second.close()


def test_a_not_null_violation_names_owner_table_and_column_as_oracle_does(tmp_path) -> None:
    """SQLite's message names TABLE.COLUMN; Oracle's ("OWNER"."TABLE"."COLUMN"), ORA-01407 for an UPDATE."""
    from workshop_lib.backends.lite import connect_lite

    conn = connect_lite(tmp_path, "HR")
    cur = conn.cursor()
    cur.execute("CREATE TABLE nn (id NUMBER, name VARCHAR2(10) NOT NULL)")
    with pytest.raises(oracledb.DatabaseError, match=r'^ORA-01400: cannot insert NULL into \("HR"."NN"."NAME"\)'):
        cur.execute("INSERT INTO nn (id) VALUES (1)")
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.executemany("INSERT INTO nn VALUES (:1, :2)", [(1, "a"), (2, None)])
    assert info.value.args[0].offset == 1 and '("HR"."NN"."NAME")' in str(info.value)
    with pytest.raises(oracledb.DatabaseError, match=r'^ORA-01407: cannot update \("HR"."NN"."NAME"\) to NULL'):
        cur.execute("UPDATE nn SET name = NULL")
    conn.close()
