"""An Oracle function lite lacks is named as lite's limit (ORA-03001); only a name Oracle lacks too is ORA-00904.

Every name in ``lite/oracle_functions.py`` (the SQL Language Reference's function list) is called with a
few argument shapes; whatever the outcome (a value, a wrong-argument error, ORA-03001), it is never the
"invalid identifier" a misspelt name gets, nor an internal error. And lite's own ``ora_*`` helpers are not
names Oracle SQL can call.
"""

from __future__ import annotations

import oracledb
import pytest

from lite_sql import failure, run
from workshop_lib.backends.lite import connect_lite
from workshop_lib.lite.oracle_functions import ORACLE_FUNCTIONS

@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = connect_lite(tmp_path_factory.mktemp("functions"), "AGENT")
    yield connection
    connection.close()


def outcome(conn, name: str) -> str:
    """'ok', or the ORA code of the last argument shape tried (shapes with the wrong argument count go on)."""
    code = "ok"
    for args in ("1", "1, 1", "'a'"):
        try:
            run(conn, f"SELECT {name}({args}) FROM dual")
            return "ok"
        except oracledb.DatabaseError as exc:
            code = exc.args[0].full_code
            if code not in ("ORA-00904", "ORA-00909", "ORA-00938", "ORA-00939"):
                return code
    return code


def test_no_oracle_function_is_an_invalid_identifier_or_an_internal_error(conn) -> None:
    wrong = {name: code for name in sorted(ORACLE_FUNCTIONS)
             if (code := outcome(conn, name)) in ("ORA-00904", "ORA-00604")}
    assert wrong == {}


@pytest.mark.parametrize(("name", "args"), [("DUMP", "'a'"), ("ORA_HASH", "'a'"), ("NANVL_X", "1, 2"),
                                          ("STANDARD_HASH", "'a'"), ("REVERSE", "'ab'"),
                                          ("XMLELEMENT", "\"a\", 1"), ("REGR_SLOPEX", "1, 2")])
def test_the_message_says_which_kind_of_name_it_is(conn, name: str, args: str) -> None:
    error = failure(conn, f"SELECT {name}({args}) FROM dual")
    if name in ORACLE_FUNCTIONS:
        assert error.code == 3001 and f"the Oracle function {name}" in error.message, error.message
    else:
        assert error.code == 904 and name in error.message and "spelling" in error.message, error.message


@pytest.mark.parametrize("helper", ["ora_to_char", "ORA_JSON_VALUE", "ora_stat", "ora_vd_lookup"])
def test_lites_own_helpers_are_not_oracle_sql(conn, helper: str) -> None:
    assert failure(conn, f"SELECT {helper}(1) FROM dual").code == 904


def test_functions_lite_adds_here(conn) -> None:
    assert run(conn, "SELECT TO_BINARY_FLOAT(0.1), TO_BINARY_DOUBLE('-INF'), NANVL(2, 0), BIN_TO_NUM(1, 1, 0), "
                     "NLS_LOWER('ÄB'), NLS_INITCAP('hello world'), TO_CLOB('x') FROM dual") \
        == [(0.10000000149011612, float("-inf"), 2, 6, "äb", "Hello World", "x")]
    assert failure(conn, "SELECT BIN_TO_NUM(1, 2) FROM dual").code == 1760
    assert failure(conn, "SELECT TO_BINARY_DOUBLE('one') FROM dual").code == 1722
    assert failure(conn, "SELECT NLS_UPPER('a', 'NLS_SORT=XGERMAN') FROM dual").code == 3001
    assert run(conn, "SELECT APPROX_COUNT_DISTINCT(x) FROM (SELECT MOD(LEVEL, 3) x FROM dual CONNECT BY LEVEL <= 10)") \
        == [(3,)]


def test_sys_context_names_the_user_and_refuses_the_rest(conn) -> None:
    assert run(conn, "SELECT SYS_CONTEXT('USERENV', 'SESSION_USER'), SYS_CONTEXT('userenv', 'current_user') "
                     "FROM dual") == [("AGENT", "AGENT")]
    error = failure(conn, "SELECT SYS_CONTEXT('USERENV', 'IP_ADDRESS') FROM dual")
    assert error.code == 3001 and "IP_ADDRESS" in error.message


def test_lnnvl_is_true_for_false_and_unknown(conn) -> None:
    rows = run(conn, "SELECT x FROM (SELECT 1 x FROM dual UNION ALL SELECT 3 FROM dual UNION ALL "
                     "SELECT NULL FROM dual) WHERE LNNVL(x > 2) ORDER BY x")
    assert rows == [(1,), (None,)]
    assert failure(conn, "SELECT 1 FROM dual WHERE LNNVL(1 = 1 AND 2 = 2)").code == 3001


def test_raw_values_sys_guid_hextoraw_rawtohex(conn) -> None:
    """The RAW(16) the guard offers for UUIDs works as Oracle's: SYS_GUID() fills it, hex text is read as hex."""
    guid, = run(conn, "SELECT SYS_GUID() FROM dual")[0]
    assert isinstance(guid, bytes) and len(guid) == 16 and run(conn, "SELECT SYS_GUID() FROM dual")[0][0] != guid
    assert run(conn, "SELECT RAWTOHEX(HEXTORAW('0a0B')), RAWTOHEX(HEXTORAW('ABC')), RAWTOHEX('AA'), HEXTORAW(10), "
                     "HEXTORAW(''), RAWTOHEX(NULL) FROM dual") == [("0A0B", "0ABC", "4141", b"\x10", None, None)]
    assert failure(conn, "SELECT HEXTORAW('G1') FROM dual").code == 1465
    assert failure(conn, "SELECT RAWTOHEX(12) FROM dual").code == 3001
    run(conn, "CREATE TABLE raw_ids (id RAW(16) DEFAULT SYS_GUID(), tag RAW(4), n NUMBER)")
    try:
        run(conn, "INSERT INTO raw_ids (tag, n) VALUES ('0a0b', 1)")
        run(conn, "INSERT INTO raw_ids (tag, n) VALUES (:tag, 2)", {"tag": b"\x01\xab"})
        run(conn, "INSERT INTO raw_ids (tag, n) VALUES (:tag, 3)", {"tag": "CAFE"})
        run(conn, "UPDATE raw_ids SET tag = 'BEEF' WHERE n = 3")
        assert run(conn, "SELECT RAWTOHEX(tag), LENGTH(RAWTOHEX(id)) FROM raw_ids ORDER BY n") == \
            [("0A0B", 32), ("01AB", 32), ("BEEF", 32)]
        assert run(conn, "SELECT COUNT(DISTINCT id) FROM raw_ids") == [(3,)]
        assert run(conn, "SELECT n FROM raw_ids WHERE tag = HEXTORAW('0A0B')") == [(1,)]
        # text compared with a RAW is read as HEXTORAW reads it; a RAW in || shows its hex digits
        assert run(conn, "SELECT n FROM raw_ids WHERE tag = '0a0b'") == [(1,)]
        assert run(conn, "SELECT n FROM raw_ids WHERE tag = :tag", {"tag": "BEEF"}) == [(3,)]
        assert run(conn, "SELECT n FROM raw_ids WHERE tag IN ('01AB', 'BEEF') ORDER BY n") == [(2,), (3,)]
        assert run(conn, "SELECT 'tag ' || tag FROM raw_ids WHERE n = 1") == [("tag 0A0B",)]
        assert failure(conn, "SELECT n FROM raw_ids WHERE tag = 'zz'").code == 1465
        with conn.cursor() as cur:
            cur.execute("SELECT tag, SYS_GUID() FROM raw_ids WHERE n = 1")
            assert [d[1] for d in cur.description] == [oracledb.DB_TYPE_RAW, oracledb.DB_TYPE_RAW]
            cur.fetchall()
        assert run(conn, "SELECT column_name, data_length FROM user_tab_columns WHERE table_name = 'RAW_IDS' "
                         "AND data_type = 'RAW' ORDER BY 1") == [("ID", 16), ("TAG", 4)]
        assert failure(conn, "INSERT INTO raw_ids (tag, n) VALUES ('0102030405', 4)").code == 12899
        assert failure(conn, "INSERT INTO raw_ids (tag, n) VALUES ('xyz', 5)").code == 1465
        assert failure(conn, "INSERT INTO raw_ids (tag, n) VALUES (12, 6)").code == 932
    finally:
        run(conn, "DROP TABLE raw_ids PURGE")


@pytest.mark.parametrize(("call", "expected"), [
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 3, 1)", "abc"),
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 3, 2)", "bcd"),
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 3)", "abc"),
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 3, 0)", None),   # offset below 1: NULL (SUBSTR would start at 1)
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 0, 1)", None),   # amount below 1
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 32768, 1)", None),   # amount above 32767
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), NULL, 1)", None),
    ("DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 3, NULL)", None),
])
def test_dbms_lob_substr_is_null_where_oracle_says_so(conn, call: str, expected: str | None) -> None:
    """DBMS_LOB.SUBSTR returns NULL for a NULL argument, an amount outside 1..32767 or an offset below 1
    (PL/SQL Packages and Types Reference); lite read offset 0 as 1 and a NULL amount as 32767."""
    assert run(conn, f"SELECT {call} FROM dual") == [(expected,)]
