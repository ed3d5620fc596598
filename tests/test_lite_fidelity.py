"""Lite against Oracle SQL written by others (issue 15): a corpus of foreign statements.

Each item is a statement taken (or minimally adapted: table subset, no
trailing ``;``) from a public source nobody on this project wrote, with its
source, and the outcome Oracle gives:

* ``Rows(expected)``: ``expected`` is computed here in plain Python from the
  same data lite was loaded with (tests/data/fidelity/hr_subset.json, a subset
  of Oracle's HR sample schema), or worked out by hand from Oracle's
  documentation, never by running lite;
* ``Refused(code, fragment)``: Oracle raises ``code`` (lite must too), or lite
  does not implement the construct (``ORA-03001``) and its message names it.

The standard (issue 15): every statement ends in the right rows or an
``ORA-nnnnn`` error that says what is wrong or unsupported, never a silent
wrong result, never SQLite's or sqlglot's text.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import oracledb
import pytest

from workshop_lib.backends.lite import connect_lite as connect
from workshop_lib.lite import LiteConnection

DATA = json.loads((Path(__file__).parent / "data" / "fidelity" / "hr_subset.json").read_text())

# Sources (attribution for the statements below)
HR_SCHEMA = "oracle-samples/db-sample-schemas human_resources (hr_create.sql, hr_populate.sql)"
SQL_REF = "Oracle Database SQL Language Reference 23ai (examples of the function or clause named)"
ORACLEDB = "oracle/python-oracledb samples (bind_insert.py, query_arraysize.py, json_*.py)"
AI_VECTOR = "Oracle AI Vector Search User's Guide 23ai (exact and approximate similarity search)"


def _dates(table: str) -> list[dict[str, Any]]:
    cols = DATA[table]["columns"]
    return [{c: (dt.datetime.fromisoformat(v) if c.endswith("_date") and v else v) for c, v in zip(cols, row)}
            for row in DATA[table]["rows"]]


D = dt.datetime
EMP = _dates("employees")
_BY_ID_EARLY = sorted(EMP, key=lambda e: e["employee_id"])
DEPT = _dates("departments")
JOBS = _dates("jobs")

# The HR tables as hr_create.sql creates them, with its ALTER TABLE ... ADD CONSTRAINT folded into the CREATE
# (the constraint names are hr_create.sql's).
HR_DDL = [
    """CREATE TABLE departments
    ( department_id    NUMBER(4) CONSTRAINT dept_id_pk PRIMARY KEY
    , department_name  VARCHAR2(30) CONSTRAINT dept_name_nn NOT NULL
    , manager_id       NUMBER(6)
    , location_id      NUMBER(4)
    )""",
    """CREATE TABLE jobs
    ( job_id         VARCHAR2(10) CONSTRAINT job_id_pk PRIMARY KEY
    , job_title      VARCHAR2(35) CONSTRAINT job_title_nn NOT NULL
    , min_salary     NUMBER(6)
    , max_salary     NUMBER(6)
    )""",
    """CREATE TABLE employees
    ( employee_id    NUMBER(6) CONSTRAINT emp_emp_id_pk PRIMARY KEY
    , first_name     VARCHAR2(20)
    , last_name      VARCHAR2(25) CONSTRAINT emp_last_name_nn NOT NULL
    , email          VARCHAR2(25) CONSTRAINT emp_email_nn NOT NULL
    , phone_number   VARCHAR2(20)
    , hire_date      DATE CONSTRAINT emp_hire_date_nn NOT NULL
    , job_id         VARCHAR2(10) CONSTRAINT emp_job_nn NOT NULL
    , salary         NUMBER(8,2)
    , commission_pct NUMBER(2,2)
    , manager_id     NUMBER(6)
    , department_id  NUMBER(4)
    , CONSTRAINT     emp_salary_min CHECK (salary > 0)
    , CONSTRAINT     emp_email_uk UNIQUE (email)
    , CONSTRAINT     emp_dept_fk FOREIGN KEY (department_id) REFERENCES departments
    , CONSTRAINT     emp_job_fk FOREIGN KEY (job_id) REFERENCES jobs (job_id)
    )""",
]


@pytest.fixture(scope="module")
def hr(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    """A lite HR schema filled the way python-oracledb's samples load data: executemany with :1..:n binds."""
    conn = connect(tmp_path_factory.mktemp("fidelity"), "HR")
    cur = conn.cursor()
    for ddl in HR_DDL:
        cur.execute(ddl)
    for table, rows in (("departments", DEPT), ("jobs", JOBS), ("employees", EMP)):
        cols = DATA[table]["columns"]
        cur.executemany(f"INSERT INTO {table} ({', '.join(cols)}) "
                        f"VALUES ({', '.join(f':{i + 1}' for i in range(len(cols)))})",
                        [tuple(r[c] for c in cols) for r in rows])
    conn.commit()
    yield conn
    conn.close()


@dataclass
class Rows:
    """The rows Oracle returns (``ordered``: in this order; otherwise compared as a multiset)."""

    expected: list[tuple]
    ordered: bool = True


@dataclass
class Refused:
    """Oracle's error (or lite's ORA-03001 for what it does not implement), with a fragment of its message."""

    code: str
    fragment: str = ""


@dataclass
class Rejected:
    """Oracle rejects the statement (a syntax error); lite must refuse it too, with an ORA error of its own
    (its parser's position message where Oracle's parser names another number) and no SQLite/sqlglot text."""

    oracle_code: str


@dataclass
class Item:
    source: str
    sql: str
    outcome: Rows | Refused | Rejected
    binds: dict[str, Any] | tuple = field(default_factory=dict)
    setup: list[str] = field(default_factory=list)


def _norm(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, float):
        return round(value, 9)
    return value


def run_item(conn: LiteConnection, item: Item) -> None:
    """Run one corpus item and hold lite to its outcome; the transaction is rolled back afterwards."""
    cur = conn.cursor()
    try:
        for statement in item.setup:
            cur.execute(statement)
        if isinstance(item.outcome, Rejected):
            with pytest.raises(oracledb.DatabaseError) as info:
                cur.execute(item.sql, item.binds)
            err = info.value.args[0]
            assert err.full_code.startswith("ORA-") and err.full_code not in ("ORA-00604", "ORA-03001"), err.message
            assert "sqlite" not in err.message.lower() and "Expecting" not in err.message \
                and "tokeniz" not in err.message.lower(), err.message
            return
        if isinstance(item.outcome, Refused):
            with pytest.raises(oracledb.DatabaseError) as info:   # raised by the execute or the fetch
                cur.execute(item.sql, item.binds)
                if cur.description:
                    cur.fetchall()
            err = info.value.args[0]
            assert err.full_code == item.outcome.code, err.message
            assert item.outcome.fragment.upper() in err.message.upper(), err.message
            assert "sqlite" not in err.message.lower() and "Expecting" not in err.message, err.message
            return
        cur.execute(item.sql, item.binds)
        got = [tuple(_norm(v) for v in row) for row in cur.fetchall()] if cur.description else []
        want = [tuple(_norm(v) for v in row) for row in item.outcome.expected]
        if item.outcome.ordered:
            assert got == want
        else:
            assert sorted(got, key=repr) == sorted(want, key=repr)
    finally:
        conn.rollback()


def by(key: Callable[[Any], Any], rows: list[Any]) -> list[Any]:
    """``rows`` sorted by ``key`` (Oracle's ORDER BY with NULLS LAST for ascending keys)."""
    return sorted(rows, key=lambda r: (key(r) is None, key(r) if key(r) is not None else 0))


_EMPTY_DEPTS = [d for d in DEPT if d["department_id"] not in {e["department_id"] for e in EMP}]
DEPT_TOTALS = {d: sum(e["salary"] for e in EMP if e["department_id"] == d) for d in {e["department_id"] for e in EMP}}


def oracle_number_text(x: float | int) -> str:
    """A number as Oracle converts it to text without a format: no trailing .0, no leading zero (``.4``)."""
    text = str(int(x)) if float(x).is_integer() else repr(float(x))
    return text[1:] if text.startswith("0.") else text


def listagg(values: list[Any], sep: str = "") -> str | None:
    texts = [v if isinstance(v, str) else oracle_number_text(v) for v in values if v is not None]
    return sep.join(texts) if texts else None


def keep(rows: list[dict], value: str | None, aggregate: Callable[[list], Any], key: str, *, last: bool = False,
         desc: bool = False, nulls_first: bool | None = None) -> Any:
    """``AGG(value) KEEP (DENSE_RANK FIRST|LAST ORDER BY key [DESC] [NULLS ...])`` by the Reference's definition:
    the rows whose key ranks first (or last) in that order, NULLs where the ORDER BY puts them (``value``
    None: COUNT(*))."""
    nulls_first = desc if nulls_first is None else nulls_first
    keys = [r[key] for r in rows]
    present = sorted({k for k in keys if k is not None}, reverse=desc)
    ordered = ([None] if None in keys and nulls_first else []) + present + \
        ([None] if None in keys and not nulls_first else [])
    edge = ordered[-1 if last else 0]
    chosen = [r for r in rows if r[key] == edge]
    return aggregate([1 if value is None else r[value] for r in chosen])


def percentile(values: list[Any], p: float, *, discrete: bool, desc: bool = False) -> Any:
    """PERCENTILE_CONT / PERCENTILE_DISC by the SQL Language Reference's definitions."""
    ordered = sorted((v for v in values if v is not None), reverse=desc)
    if discrete:
        return ordered[max(1, math.ceil(p * len(ordered))) - 1]
    row = 1 + p * (len(ordered) - 1)
    low, high = math.floor(row), math.ceil(row)
    return ordered[low - 1] if low == high else (high - row) * ordered[low - 1] + (row - low) * ordered[high - 1]


def hierarchy(rows: list[dict], key: str, parent: str, is_root: Callable[[dict], bool]
              ) -> list[tuple[dict, int, list[dict]]]:
    """START WITH is_root CONNECT BY PRIOR key = parent, as the SQL Reference defines it: (row, LEVEL, the
    rows from the root to it), depth first (siblings in no particular order)."""
    out: list[tuple[dict, int, list[dict]]] = []

    def visit(row: dict, chain: list[dict]) -> None:
        out.append((row, len(chain) + 1, chain + [row]))
        for child in rows:
            if child[parent] is not None and child[parent] == row[key]:
                visit(child, chain + [row])
    for root in [r for r in rows if is_root(r)]:
        visit(root, [])
    return out


def grouped(rows: list[dict], sets: list[tuple[str, ...]], columns: tuple[str, ...],
            value: Callable[[list[dict]], Any]) -> list[tuple]:
    """GROUP BY ROLLUP / CUBE / GROUPING SETS as Oracle defines them, in Python: for each grouping set the
    groups of ``rows``, the set's columns valued and the others NULL, then ``value(group)``."""
    out = []
    for grouping_set in sets:
        groups: dict[tuple, list[dict]] = {}
        for row in rows:
            groups.setdefault(tuple(row[c] if c in grouping_set else None for c in columns), []).append(row)
        out += [key + (value(members),) for key, members in groups.items()]
    return out


CORPUS: list[Item] = [
    # ----------------------------------------------------------------- the sample schema's own queries
    Item(HR_SCHEMA, "SELECT last_name, salary FROM employees WHERE department_id = 30 ORDER BY salary DESC",
         Rows([(e["last_name"], e["salary"]) for e in sorted(EMP, key=lambda e: -e["salary"])
               if e["department_id"] == 30])),
    Item(HR_SCHEMA, "SELECT d.department_name, COUNT(e.employee_id) FROM departments d "
                    "LEFT OUTER JOIN employees e ON e.department_id = d.department_id "
                    "GROUP BY d.department_name ORDER BY d.department_name",
         Rows([(d["department_name"], sum(1 for e in EMP if e["department_id"] == d["department_id"]))
               for d in sorted(DEPT, key=lambda d: d["department_name"])])),
    # ----------------------------------------------------------------- LISTAGG ... WITHIN GROUP (ORDER BY ...)
    Item(SQL_REF, "SELECT department_id, LISTAGG(last_name, '; ') WITHIN GROUP (ORDER BY hire_date, last_name) "
                  "FROM employees WHERE department_id IS NOT NULL GROUP BY department_id ORDER BY department_id",
         Rows([(d, listagg([e["last_name"] for e in sorted(EMP, key=lambda e: (e["hire_date"], e["last_name"]))
                            if e["department_id"] == d], "; "))
               for d in sorted({e["department_id"] for e in EMP if e["department_id"] is not None})])),
    Item(SQL_REF, "SELECT LISTAGG(last_name, ',') WITHIN GROUP (ORDER BY hire_date DESC, last_name) "
                  "FROM employees WHERE department_id = 30",
         Rows([(listagg([e["last_name"] for e in sorted((e for e in EMP if e["department_id"] == 30),
                                                        key=lambda e: (-e["hire_date"].timestamp(), e["last_name"]))],
                        ","),)])),
    Item(SQL_REF, "SELECT LISTAGG(commission_pct, ',') WITHIN GROUP (ORDER BY commission_pct DESC, employee_id) "
                  "FROM employees",
         # DESC puts NULLs first in Oracle, but LISTAGG leaves NULL values out; numbers as Oracle writes them
         Rows([(listagg([e["commission_pct"] for e in sorted(
             (e for e in EMP if e["commission_pct"] is not None),
             key=lambda e: (-e["commission_pct"], e["employee_id"]))], ","),)])),
    Item(SQL_REF, "SELECT LISTAGG(DISTINCT job_id, ',') WITHIN GROUP (ORDER BY job_id DESC) FROM employees",
         Rows([(",".join(sorted({e["job_id"] for e in EMP}, reverse=True)),)])),
    Item(SQL_REF, "SELECT employee_id, LISTAGG(last_name, ',') WITHIN GROUP (ORDER BY employee_id DESC) "
                  "OVER (PARTITION BY department_id) FROM employees WHERE department_id = 90 ORDER BY employee_id",
         Rows([(e["employee_id"], listagg([x["last_name"] for x in sorted(
             (x for x in EMP if x["department_id"] == 90), key=lambda x: -x["employee_id"])], ","))
               for e in sorted(EMP, key=lambda e: e["employee_id"]) if e["department_id"] == 90])),
    Item(SQL_REF, "SELECT LISTAGG(first_name) WITHIN GROUP (ORDER BY first_name NULLS FIRST) FROM employees "
                  "WHERE employee_id > 300",
         Rows([(None,)])),  # no rows: NULL
    # ----------------------------------------------------------------- what Oracle refuses (SQLite would run it)
    Item(SQL_REF, "SELECT department_id, last_name, COUNT(*) FROM employees GROUP BY department_id",
         Refused("ORA-00979", "not a GROUP BY expression")),
    Item(SQL_REF, "SELECT department_id, COUNT(*) FROM employees",
         Refused("ORA-00937", "not a single-group group function")),
    Item(SQL_REF, "SELECT department_id, SUM(salary) OVER () FROM employees GROUP BY department_id",
         Refused("ORA-00979")),
    Item(SQL_REF, "SELECT department_id FROM employees GROUP BY department_id ORDER BY salary",
         Refused("ORA-00979")),
    Item(SQL_REF, "SELECT salary * 12 annual_salary FROM employees WHERE annual_salary > 100000",
         Refused("ORA-00904", '"ANNUAL_SALARY": invalid identifier')),
    Item(SQL_REF, 'SELECT first_name FROM employees WHERE last_name = "King"',
         Refused("ORA-00904", '"King": invalid identifier')),
    Item(SQL_REF, 'SELECT "Hello" FROM dual', Refused("ORA-00904", '"Hello"')),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE phone_number > 5",   # implicit TO_NUMBER of the text
         Refused("ORA-01722", "invalid number")),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary = '24,000'", Refused("ORA-01722")),
    # ROWNUM (the SQL Reference's own examples): numbered as rows pass WHERE, before ORDER BY
    Item(SQL_REF, "SELECT COUNT(*) FROM (SELECT * FROM employees WHERE ROWNUM < 10)", Rows([(9,)])),
    Item(SQL_REF, "SELECT employee_id FROM (SELECT * FROM employees ORDER BY employee_id) WHERE ROWNUM < 11",
         Rows(sorted((e["employee_id"],) for e in EMP)[:10])),
    Item(SQL_REF, "SELECT * FROM employees WHERE ROWNUM > 1", Rows([])),
    Item(SQL_REF, "SELECT * FROM employees WHERE ROWNUM < 11 ORDER BY last_name", Refused("ORA-03001", "ORDER BY")),
    Item(SQL_REF, "UPDATE employees SET salary = ROWNUM", Refused("ORA-03001", "ROWNUM")),
    # ----------------------------------------------------------------- constructs lite does not implement: named
    Item(SQL_REF, "SELECT employee_id, last_name, manager_id FROM employees START WITH employee_id = 100 "
                  "CONNECT BY PRIOR employee_id = manager_id",
         Rows([(e["employee_id"], e["last_name"], e["manager_id"])
               for e, _, _ in hierarchy(EMP, "employee_id", "manager_id", lambda e: e["employee_id"] == 100)],
              ordered=False)),
    Item(SQL_REF, "WITH org (employee_id, manager_id, lvl) AS (SELECT employee_id, manager_id, 1 FROM employees "
                  "WHERE manager_id IS NULL UNION ALL SELECT e.employee_id, e.manager_id, o.lvl + 1 FROM employees e "
                  "JOIN org o ON e.manager_id = o.employee_id) SEARCH DEPTH FIRST BY employee_id SET ord "
                  "SELECT employee_id FROM org ORDER BY ord", Refused("ORA-03001", "SEARCH DEPTH")),
    Item(SQL_REF, "SELECT department_id, job_id, SUM(salary) FROM employees "
                  "GROUP BY GROUPING SETS ((department_id), (job_id))",
         Rows(grouped(EMP, [("department_id",), ("job_id",)], ("department_id", "job_id"),
                      lambda rows: sum(e["salary"] for e in rows)), ordered=False)),
    Item(SQL_REF, "SELECT department_id, SUM(salary) FROM employees GROUP BY ROLLUP (department_id)",
         Rows(grouped(EMP, [("department_id",), ()], ("department_id",), lambda rows: sum(e["salary"] for e in rows)),
              ordered=False)),
    Item(SQL_REF, "SELECT department_id, MIN(salary) KEEP (DENSE_RANK FIRST ORDER BY commission_pct) "
                  "FROM employees GROUP BY department_id",
         Rows([(d, keep([e for e in EMP if e["department_id"] == d], "salary", min, "commission_pct"))
               for d in {e["department_id"] for e in EMP}], ordered=False)),
    Item(SQL_REF, "SELECT department_id, MAX(salary) KEEP (DENSE_RANK LAST ORDER BY commission_pct) "
                  "FROM employees GROUP BY department_id",
         Rows([(d, keep([e for e in EMP if e["department_id"] == d], "salary", max, "commission_pct", last=True))
               for d in {e["department_id"] for e in EMP}], ordered=False)),
    Item(SQL_REF, "SELECT COUNT(*) KEEP (DENSE_RANK LAST ORDER BY commission_pct NULLS FIRST), "
                  "AVG(salary) KEEP (DENSE_RANK FIRST ORDER BY hire_date DESC) FROM employees",
         Rows([(keep(EMP, None, len, "commission_pct", last=True, nulls_first=True),
                keep(EMP, "salary", lambda v: sum(v) / len(v), "hire_date", desc=True))])),
    Item(SQL_REF, "SELECT employee_id, MIN(last_name) KEEP (DENSE_RANK FIRST ORDER BY salary DESC) "
                  "OVER (PARTITION BY department_id) FROM employees WHERE department_id IN (30, 90) "
                  "ORDER BY employee_id",
         Rows([(e["employee_id"], keep([x for x in EMP if x["department_id"] == e["department_id"]],
                                       "last_name", min, "salary", desc=True))
               for e in _BY_ID_EARLY if e["department_id"] in (30, 90)])),
    # the Reference's example: where a salary of 15500 would rank, highest first
    Item(SQL_REF, "SELECT RANK(15500) WITHIN GROUP (ORDER BY salary DESC) FROM employees",
         Rows([(1 + sum(1 for e in EMP if e["salary"] > 15500),)])),
    Item(SQL_REF, "SELECT CUME_DIST(15500, .05) WITHIN GROUP (ORDER BY salary, commission_pct) FROM employees",
         Rows([((sum(1 for e in EMP if e["salary"] < 15500 or (e["salary"] == 15500 and e["commission_pct"]
                                                                is not None and e["commission_pct"] <= .05))
                 + 1) / (len(EMP) + 1),)])),
    Item(SQL_REF, "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY salary) FROM employees",
         Rows([(percentile([e["salary"] for e in EMP], 0.5, discrete=False),)])),
    Item(SQL_REF, "SELECT department_id, PERCENTILE_CONT(0.3) WITHIN GROUP (ORDER BY salary DESC), "
                  "PERCENTILE_DISC(0.3) WITHIN GROUP (ORDER BY salary DESC), "
                  "PERCENTILE_DISC(0.7) WITHIN GROUP (ORDER BY hire_date) FROM employees GROUP BY department_id",
         Rows([(d, pytest.approx(percentile(s, 0.3, discrete=False, desc=True)),
                percentile(s, 0.3, discrete=True, desc=True), percentile(h, 0.7, discrete=True))
               for d in {e["department_id"] for e in EMP}
               for s, h in [([e["salary"] for e in EMP if e["department_id"] == d],
                             [e["hire_date"] for e in EMP if e["department_id"] == d])]], ordered=False)),
    Item(SQL_REF, "SELECT employee_id, PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY salary) "
                  "OVER (PARTITION BY department_id) FROM employees WHERE department_id IN (30, 60) "
                  "ORDER BY employee_id",
         Rows([(e["employee_id"], percentile([x["salary"] for x in EMP if x["department_id"] == e["department_id"]],
                                             0.5, discrete=False))
               for e in _BY_ID_EARLY if e["department_id"] in (30, 60)])),
    Item(SQL_REF, "SELECT PERCENTILE_CONT(1.5) WITHIN GROUP (ORDER BY salary) FROM employees",
         Refused("ORA-30493", "between 0 and 1")),
    Item(SQL_REF, "SELECT jt.a FROM JSON_TABLE('[{\"a\":1},{\"a\":2}]', '$[*]' COLUMNS (a NUMBER PATH '$.a')) jt",
         Rows([(1,), (2,)])),
    # HR's own sequence (hr_create.sql's definition), then the row it numbers (rolled back after the item)
    Item(HR_SCHEMA, "INSERT INTO departments (department_id, department_name) "
                    "SELECT departments_seq.NEXTVAL, 'Gaming' FROM dual WHERE departments_seq.CURRVAL IS NULL",
         Refused("ORA-02287"),
         setup=["CREATE SEQUENCE departments_seq START WITH 280 INCREMENT BY 10 MAXVALUE 9990 NOCACHE NOCYCLE"]),
    Item(HR_SCHEMA, "SELECT departments_seq.NEXTVAL, departments_seq.NEXTVAL + 0 FROM dual", Rows([(280, 280)])),
    Item(HR_SCHEMA, "INSERT INTO departments (department_id, department_name) "
                    "VALUES (departments_seq.NEXTVAL, 'Gaming')", Rows([])),
    Item(HR_SCHEMA, "SELECT departments_seq.CURRVAL FROM dual", Rows([(290,)])),
    Item(SQL_REF, "SELECT d.department_name, e.hire_year FROM departments d PARTITION BY (d.department_id) "
                  "RIGHT OUTER JOIN (SELECT DISTINCT EXTRACT(YEAR FROM hire_date) hire_year FROM employees) e "
                  "ON 1 = 1", Refused("ORA-03001", "partitioned outer joins")),
    # MERGE ... DELETE WHERE: the updated rows for which the condition holds on their new values are deleted
    Item(SQL_REF, "SELECT manager_id FROM departments WHERE department_id = 10", Rows([(200,)]),
         setup=["MERGE INTO departments d USING (SELECT 10 id FROM dual) s ON (d.department_id = s.id) "
                "WHEN MATCHED THEN UPDATE SET d.manager_id = 200 DELETE WHERE d.manager_id = 1"]),
    Item(SQL_REF, "SELECT COUNT(*), COUNT(CASE WHEN location_id = 1700 THEN 1 END) FROM departments",
         Rows([(len(DEPT) - len([d for d in _EMPTY_DEPTS if d["department_id"] > 200]),
                sum(1 for d in DEPT if d["location_id"] == 1700 and d not in _EMPTY_DEPTS)
                + sum(1 for d in _EMPTY_DEPTS if d["department_id"] <= 200))]),
         setup=["MERGE INTO departments d USING (SELECT department_id id FROM departments WHERE department_id NOT IN "
                "(SELECT department_id FROM employees WHERE department_id IS NOT NULL)) s "
                "ON (d.department_id = s.id) WHEN MATCHED THEN UPDATE SET d.location_id = 1700 "
                "DELETE WHERE d.department_id > 200"]),
    Item(SQL_REF, "MERGE INTO departments d USING (SELECT 10 id FROM dual) s ON (d.department_id = s.id) "
                  "WHEN MATCHED THEN UPDATE SET d.manager_id = 200 DELETE WHERE d.manager_id = 1 "
                  "WHEN NOT MATCHED THEN INSERT (department_id, department_name) VALUES (s.id, 'x')",
         Refused("ORA-03001", "DELETE WHERE together with")),
    # RETURNING ... INTO runs with a cursor.var() bound to :s (tests/test_lite_returning.py); without one it is
    # Oracle's "not all variables bound"
    Item(ORACLEDB, "UPDATE employees SET salary = salary * 1.1 WHERE employee_id = :id RETURNING salary INTO :s",
         Refused("ORA-01008", ":s"), binds={"id": 100}),
    # FROM LAST counts back from the frame's end (here the current row): the previous row's name
    Item(SQL_REF, "SELECT employee_id, NTH_VALUE(last_name, 2) FROM LAST OVER (ORDER BY salary, employee_id) "
                  "FROM employees",
         Rows([(e["employee_id"], ordered[i - 1]["last_name"] if i else None)
               for ordered in [sorted(EMP, key=lambda x: (x["salary"], x["employee_id"]))]
               for i, e in enumerate(ordered)], ordered=False)),
    Item(SQL_REF, "SELECT PREDICTION(reranker USING 'q' AS query, last_name AS passage) FROM employees",
         Refused("ORA-03001", "PREDICTION")),
    # ... and what it accepts
    Item(SQL_REF, "INSERT INTO departments (department_id, department_name) "
                  "(SELECT 300, 'Gaming' FROM dual)", Rows([])),   # the query in parentheses; no rows to fetch
    Item(SQL_REF, "SELECT last_name FROM employees WHERE employee_id = :limit", Rows([("King",)]),
         binds={"limit": 100}),   # a bind named :limit is not the LIMIT clause
    Item(AI_VECTOR, "SELECT last_name, salary FROM employees ORDER BY salary DESC, employee_id "
                    "FETCH APPROX FIRST 3 ROWS ONLY WITH TARGET ACCURACY 90",
         Rows([(e["last_name"], e["salary"]) for e in sorted(EMP, key=lambda e: (-e["salary"], e["employee_id"]))[:3]])),
    Item(SQL_REF, "SELECT TO_CHAR(TRUNC(SYSDATE), 'HH24:MI:SS') FROM dual", Rows([("00:00:00",)])),
    Item(HR_SCHEMA, "SELECT TO_CHAR(TRUNC(hire_date, 'MM'), 'YYYY-MM-DD HH24:MI') FROM employees "
                    "WHERE employee_id = 100",
         Rows([(f"{e['hire_date']:%Y-%m}-01 00:00",) for e in EMP if e["employee_id"] == 100])),
    Item(SQL_REF, "SELECT TO_DATE('01-JAN-2018', 'DD-MON-RR'), TO_DATE('01-JAN-18', 'DD-MON-RR') FROM dual",
         Rows([(D(2018, 1, 1), D(2018, 1, 1))])),   # RR takes a four-digit year as written
    Item(HR_SCHEMA, "SELECT COUNT(*) FROM employees WHERE hire_date > '01-JAN-2017'",
         Rows([(sum(1 for e in EMP if e["hire_date"] > D(2017, 1, 1)),)])),
    # SQL Language Reference examples, results as the reference states them
    Item(SQL_REF, "SELECT INSTR('CORPORATE FLOOR', 'OR', 3, 2), INSTR('CORPORATE FLOOR', 'OR', -3, 2) FROM dual",
         Rows([(14, 2)])),
    Item(SQL_REF, "SELECT TRANSLATE('SQL*Plus User''s Guide', ' */''', '___') FROM dual",
         Rows([("SQL_Plus_Users_Guide",)])),
    Item(SQL_REF, "SELECT NEXT_DAY(DATE '2024-08-17', 'MONDAY') FROM dual", Rows([(D(2024, 8, 19),)])),
    Item(SQL_REF, "SELECT SUBSTR('ABCDEFG', -3, 2), LPAD('x', 5, '*.'), RPAD('abc', 2) FROM dual",
         Rows([("EF", "*.*.x", "ab")])),
    # || converts numbers and dates as TO_CHAR does: .4, not 0.4; a DATE in NLS_DATE_FORMAT (DD-MON-RR)
    Item(HR_SCHEMA, "SELECT last_name || ' earns ' || commission_pct FROM employees WHERE employee_id = 145",
         Rows([(f"{e['last_name']} earns {oracle_number_text(e['commission_pct'])}",)
               for e in EMP if e["employee_id"] == 145])),
    Item(HR_SCHEMA, "SELECT 'hired ' || hire_date FROM employees WHERE employee_id = 100",
         Rows([("hired " + f"{e['hire_date']:%d-%b-%y}".upper(),) for e in EMP if e["employee_id"] == 100])),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE department_id = ANY (30, 60) AND salary > ALL (2600, 3000) "
                  "ORDER BY last_name",
         Rows(sorted((e["last_name"],) for e in EMP if e["department_id"] in (30, 60) and e["salary"] > 3000))),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary = ANY (SELECT MAX(salary) FROM employees "
                  "GROUP BY department_id) ORDER BY last_name",
         Rows(sorted((e["last_name"],) for e in EMP if e["salary"] in {
             max(x["salary"] for x in EMP if x["department_id"] == d) for d in {x["department_id"] for x in EMP}}))),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE department_id <> ALL (SELECT department_id FROM departments "
                  "WHERE department_id < 90) ORDER BY last_name",
         Rows(sorted((e["last_name"],) for e in EMP if e["department_id"] is not None and e["department_id"] not in {
             d["department_id"] for d in DEPT if d["department_id"] < 90}))),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary > ALL (SELECT salary FROM employees "
                  "WHERE department_id = 30) ORDER BY last_name",
         Rows(sorted((e["last_name"],) for e in EMP
                     if all(e["salary"] > x["salary"] for x in EMP if x["department_id"] == 30)))),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary < ANY (SELECT salary FROM employees "
                  "WHERE department_id = 60) AND department_id <> 60 ORDER BY last_name",
         Rows(sorted((e["last_name"],) for e in EMP if e["department_id"] not in (60, None)
                     and any(e["salary"] < x["salary"] for x in EMP if x["department_id"] == 60)))),
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE salary > ALL (SELECT salary FROM employees "
                  "WHERE department_id = 999)", Rows([(len(EMP),)])),   # ALL of no rows is true
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE salary > ALL (SELECT commission_pct FROM employees)",
         Rows([(0,)])),   # a NULL among the values: never true
    # under NOT, UNKNOWN stays UNKNOWN: only the rows some salary is not below (the NULL-free case)
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE NOT (salary > ALL (SELECT salary FROM employees))",
         Rows([(len(EMP),)])),
    # a NULL among the values makes ALL UNKNOWN, never FALSE: NOT keeps no row, the CASE says NULL
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE NOT (salary > ALL (SELECT commission_pct FROM employees))",
         Rows([(sum(1 for e in EMP if any(c is not None and e["salary"] <= c
                                          for c in (x["commission_pct"] for x in EMP))),)])),
    Item(SQL_REF, "SELECT employee_id, CASE WHEN salary < ANY (SELECT commission_pct FROM employees) THEN 'yes' "
                  "WHEN NOT (salary < ANY (SELECT commission_pct FROM employees)) THEN 'no' END FROM employees "
                  "WHERE employee_id IN (100, 101) ORDER BY employee_id",
         Rows([(100, None), (101, None)])),   # no commission exceeds a salary, and NULLs leave it UNKNOWN
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE salary >= ALL (SELECT salary FROM employees) "
                  "OR salary <= ALL (SELECT salary FROM employees)",
         Rows([(sum(1 for e in EMP if e["salary"] in (max(x["salary"] for x in EMP),
                                                        min(x["salary"] for x in EMP))),)])),
    Item(SQL_REF, "SELECT JSON_ARRAYAGG(last_name ORDER BY last_name) FROM employees",
         Rows([(json.dumps(sorted(e["last_name"] for e in EMP), separators=(",", ":")),)])),
    Item(SQL_REF, "SELECT JSON_ARRAYAGG(commission_pct ORDER BY employee_id DESC NULL ON NULL) FROM employees "
                  "WHERE department_id = 90",
         Rows([(json.dumps([e["commission_pct"] for e in sorted(EMP, key=lambda e: -e["employee_id"])
                            if e["department_id"] == 90], separators=(",", ":")),)])),
    Item(SQL_REF, "SELECT employee_id, RATIO_TO_REPORT(salary) OVER () FROM employees ORDER BY employee_id",
         Rows([(e["employee_id"], e["salary"] / sum(x["salary"] for x in EMP))
               for e in sorted(EMP, key=lambda e: e["employee_id"])])),
    # where SQLite's built-ins differ from Oracle's (results from the SQL Language Reference's rules)
    Item(HR_SCHEMA, "SELECT COUNT(*) FROM employees WHERE last_name LIKE 'k%'", Rows([(0,)])),  # case-sensitive
    Item(HR_SCHEMA, "SELECT first_name || ' ' || commission_pct || '|' FROM employees WHERE employee_id = 100",
         Rows([("Steven |",)])),    # a NULL operand of || is the empty string
    Item(SQL_REF, "SELECT CONCAT(NULL, 'y'), NULL || NULL FROM dual", Rows([("y", None)])),
    Item(SQL_REF, "SELECT SUBSTR('ABCDEFG', 0, 3), SUBSTR('ABCDEFG', -3, 2), SUBSTR('ABC', 2, -1) FROM dual",
         Rows([("ABC", "EF", None)])),
    Item(SQL_REF, "SELECT REPLACE('JACK and JUE', 'J', 'BL'), REPLACE('abcabc', 'b'), REPLACE('abc', 'b', NULL) "
                  "FROM dual", Rows([("BLACK and BLUE", "acac", "ac")])),
    Item(SQL_REF, "SELECT UPPER('école'), LOWER('ÉCOLE') FROM dual", Rows([("ÉCOLE", "école")])),
    Item(HR_SCHEMA, "SELECT LISTAGG(hire_date, ',') WITHIN GROUP (ORDER BY hire_date) FROM employees "
                    "WHERE department_id = 90",
         Rows([(",".join(f"{e['hire_date']:%d-%b-%y}".upper() for e in sorted(
             (e for e in EMP if e["department_id"] == 90), key=lambda e: e["hire_date"])),)])),
    Item(SQL_REF, "SELECT employee_id, FIRST_VALUE(commission_pct IGNORE NULLS) OVER (ORDER BY employee_id) "
                  "FROM employees",
         Rows([(e["employee_id"], next((x["commission_pct"] for x in _BY_ID_EARLY[:i + 1]
                                        if x["commission_pct"] is not None), None))
               for i, e in enumerate(_BY_ID_EARLY)], ordered=False)),
    Item(SQL_REF, "SELECT employee_id, LAG(commission_pct, 1, 0) IGNORE NULLS OVER (ORDER BY employee_id) "
                  "FROM employees ORDER BY employee_id",
         Rows([(e["employee_id"], next((x["commission_pct"] for x in reversed(_BY_ID_EARLY[:i])
                                        if x["commission_pct"] is not None), 0))
               for i, e in enumerate(_BY_ID_EARLY)])),
    Item(SQL_REF, "SELECT employee_id, LISTAGG(last_name, ',') WITHIN GROUP (ORDER BY last_name) "
                  "OVER (ORDER BY employee_id) FROM employees", Refused("ORA-30487", "ORDER BY not allowed")),
    # a RANGE offset over a DATE key counts days (INTERVAL DAY TO SECOND or a number): the frame holds every row
    # hired within the year before, ties included
    Item(SQL_REF, "SELECT employee_id, SUM(salary) OVER (ORDER BY hire_date RANGE BETWEEN INTERVAL '365' DAY "
                  "PRECEDING AND CURRENT ROW) FROM employees ORDER BY employee_id",
         Rows([(e["employee_id"], sum(x["salary"] for x in EMP
                                      if 0 <= (e["hire_date"] - x["hire_date"]).days <= 365))
               for e in sorted(EMP, key=lambda e: e["employee_id"])])),
    Item(SQL_REF, "SELECT employee_id, COUNT(*) OVER (ORDER BY hire_date DESC RANGE BETWEEN CURRENT ROW AND 30.5 "
                  "FOLLOWING) FROM employees ORDER BY employee_id",
         Rows([(e["employee_id"], sum(1 for x in EMP if 0 <= (e["hire_date"] - x["hire_date"]).total_seconds()
                                      <= 30.5 * 86400))
               for e in sorted(EMP, key=lambda e: e["employee_id"])])),
    Item(SQL_REF, "SELECT SUM(salary) OVER (ORDER BY last_name RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) "
                  "FROM employees", Refused("ORA-00932", "inconsistent datatypes")),
    Item(SQL_REF, "SELECT SUM(salary) OVER (ORDER BY hire_date RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND "
                  "CURRENT ROW) FROM employees", Refused("ORA-03001", "YEAR TO MONTH")),
    Item(SQL_REF, "SELECT MONTHS_BETWEEN(DATE '2024-03-15', DATE '2024-01-31'), ADD_MONTHS(DATE '2024-04-30', 1) "
                  "FROM dual", Rows([(2 + (15 - 31) / 31, D(2024, 5, 31))])),   # the reference's formula, by hand
    Item(ORACLEDB, "SELECT last_name FROM employees WHERE employee_id = :id FOR UPDATE NOWAIT",
         Rows([("King",)]), binds={"id": 100}),
    Item(ORACLEDB, "COMMIT", Rows([])),   # the session's own transaction: tests/test_lite_transactions.py
    Item(SQL_REF, "SAVEPOINT before_raise", Rows([])),
    Item(SQL_REF, "CREATE GLOBAL TEMPORARY TABLE tmp_emp (id NUMBER) ON COMMIT DELETE ROWS",
         Refused("ORA-03001", "temporary tables")),
    Item(SQL_REF, "INSERT ALL INTO jobs (job_id, job_title) VALUES ('A1', 'a') "
                  "INTO jobs (job_id, job_title) VALUES ('A2', 'b') SELECT * FROM dual",
         Rows([])),   # runs (rolled back after the item); what it inserts: tests/test_lite_multitable.py
    # (ALTER TABLE ... ADD of a column or constraint runs: tests/test_lite_alter_table.py, on tables of its own, as
    # DDL commits); hr_create.sql's EMP_EMAIL_UK already makes EMAIL unique
    Item(HR_SCHEMA, "ALTER TABLE employees ADD CONSTRAINT emp_nick_uk UNIQUE (email)", Refused("ORA-02261")),
    # ----------------------------------------------------------------- more of Oracle's documented examples
    Item(SQL_REF, "SELECT NVL2(commission_pct, 'has', 'none'), DECODE(department_id, 90, 'exec', 60, 'it', 'other') "
                  "FROM employees WHERE employee_id IN (100, 103, 145) ORDER BY employee_id",
         Rows([("has" if e["commission_pct"] is not None else "none",
                {90: "exec", 60: "it"}.get(e["department_id"], "other"))
               for e in sorted(EMP, key=lambda e: e["employee_id"]) if e["employee_id"] in (100, 103, 145)])),
    Item(SQL_REF, "SELECT employee_id, LAG(salary, 1, 0) OVER (ORDER BY employee_id), SUM(salary) OVER "
                  "(ORDER BY employee_id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM employees "
                  "WHERE department_id = 90 ORDER BY employee_id",
         Rows([(e["employee_id"], rows[i - 1]["salary"] if i else 0,
                e["salary"] + (rows[i - 1]["salary"] if i else 0))
               for rows in [sorted((e for e in EMP if e["department_id"] == 90), key=lambda e: e["employee_id"])]
               for i, e in enumerate(rows)])),
    Item(SQL_REF, "SELECT COUNT(DISTINCT department_id), COUNT(department_id), COUNT(*) FROM employees",
         Rows([(len({e["department_id"] for e in EMP} - {None}),
                sum(1 for e in EMP if e["department_id"] is not None), len(EMP))])),
    Item(SQL_REF, "SELECT last_name FROM employees ORDER BY commission_pct NULLS FIRST, employee_id "
                  "FETCH FIRST 2 ROWS ONLY",
         Rows([(e["last_name"],) for e in sorted(EMP, key=lambda e: (e["commission_pct"] is not None,
                                                                     e["commission_pct"] or 0, e["employee_id"]))[:2]])),
    Item(SQL_REF, "SELECT employee_id FROM employees ORDER BY employee_id OFFSET 20 ROWS FETCH NEXT 2 ROWS ONLY",
         Rows([(e["employee_id"],) for e in sorted(EMP, key=lambda e: e["employee_id"])[20:22]])),
    Item(SQL_REF, "SELECT EXTRACT(MONTH FROM hire_date), TO_CHAR(hire_date, 'fmDay, Month DD, YYYY') "
                  "FROM employees WHERE employee_id = 100",
         Rows([(e["hire_date"].month, f"{e['hire_date']:%A}, {e['hire_date']:%B} {e['hire_date']:%d}, "
                                      f"{e['hire_date']:%Y}".replace(", 0", ", ")) for e in EMP
               if e["employee_id"] == 100])),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE REGEXP_LIKE(last_name, '^K', 'i') ORDER BY 1",
         Rows(sorted((e["last_name"],) for e in EMP if e["last_name"].lower().startswith("k")))),
    Item(SQL_REF, "SELECT e.last_name, m.last_name FROM employees e JOIN employees m "
                  "ON e.manager_id = m.employee_id WHERE e.department_id = 60 ORDER BY 1",
         Rows(sorted((e["last_name"], m["last_name"]) for e in EMP for m in EMP
                     if e["manager_id"] == m["employee_id"] and e["department_id"] == 60))),
    Item(SQL_REF, "SELECT last_name, CASE WHEN salary > 10000 THEN 'high' WHEN salary > 5000 THEN 'mid' "
                  "ELSE 'low' END FROM employees WHERE department_id = 30 ORDER BY employee_id",
         Rows([(e["last_name"], "high" if e["salary"] > 10000 else "mid" if e["salary"] > 5000 else "low")
               for e in sorted(EMP, key=lambda e: e["employee_id"]) if e["department_id"] == 30])),
    Item(SQL_REF, "SELECT GREATEST('apple', 'banana'), LEAST(3, NULL), COALESCE(NULL, NULL, 'c') FROM dual",
         Rows([("banana", None, "c")])),
    Item(SQL_REF, "SELECT 5 FROM dual UNION SELECT 3 FROM dual MINUS SELECT 5 FROM dual", Rows([(3,)])),
    Item(SQL_REF, "SELECT employee_id FROM employees WHERE employee_id NOT IN (100, NULL)", Rows([])),
    Item(SQL_REF, "SELECT ROUND(1.005, 2), ROUND(-2.5), TRUNC(-2.7), CEIL(-2.5), FLOOR(-2.5), MOD(-7, 3) FROM dual",
         Rows([(1.01, -3, -2, -2, -3, -1)])),
    Item(SQL_REF, "SELECT REGEXP_SUBSTR('500 Oracle Parkway, Redwood Shores, CA', ',[^,]+,'), "
                  "REGEXP_COUNT('123123123', '123') FROM dual", Rows([(", Redwood Shores,", 3)])),
    Item(SQL_REF, "SELECT TO_CHAR(12345.678, 'FM99,999.00'), TO_CHAR(-0.5) FROM dual", Rows([("12,345.68", "-.5")])),
    Item(SQL_REF, "SELECT TO_CHAR(1234.5, 'L9999.99') FROM dual", Refused("ORA-01481", "L9999.99")),
    Item(SQL_REF, "SELECT INITCAP('hello wORLD-x'), TRIM(BOTH 'x' FROM 'xxaxx'), LTRIM('xxyx', 'x') FROM dual",
         Rows([("Hello World-X", "a", "yx")])),
    Item(HR_SCHEMA, "UPDATE employees e SET salary = (SELECT MAX(salary) FROM employees m "
                    "WHERE m.department_id = e.department_id) WHERE employee_id = 119", Rows([])),
    Item(HR_SCHEMA, "SELECT d.department_name, NVL(SUM(e.salary), 0) FROM departments d LEFT JOIN employees e "
                    "ON e.department_id = d.department_id GROUP BY d.department_name ORDER BY 2 DESC, 1",
         Rows(sorted(((d["department_name"], sum(e["salary"] for e in EMP if e["department_id"] == d["department_id"]))
                      for d in DEPT), key=lambda r: (-r[1], r[0])))),
    Item(HR_SCHEMA, "WITH dept_costs AS (SELECT department_id, SUM(salary) dept_total FROM employees "
                    "GROUP BY department_id) SELECT department_id FROM dept_costs "
                    "WHERE dept_total > (SELECT AVG(dept_total) FROM dept_costs) ORDER BY 1",
         Rows(by(lambda r: r[0], [(d,) for d, t in DEPT_TOTALS.items()
                                  if t > sum(DEPT_TOTALS.values()) / len(DEPT_TOTALS)]))),
    # JSON: Oracle's defaults (JSON_ARRAY and JSON_ARRAYAGG: ABSENT ON NULL; JSON_OBJECT: NULL ON NULL)
    Item(SQL_REF, "SELECT JSON_ARRAYAGG(commission_pct) FROM employees WHERE department_id = 90 OR employee_id = 145",
         Rows([("[" + ",".join(str(e["commission_pct"]) for e in sorted(EMP, key=lambda e: e["employee_id"])
                               if (e["department_id"] == 90 or e["employee_id"] == 145)
                               and e["commission_pct"] is not None) + "]",)])),
    Item(SQL_REF, "SELECT JSON_ARRAY(1, NULL NULL ON NULL), JSON_ARRAY(1, NULL), JSON_OBJECT('k' VALUE NULL) FROM dual",
         Rows([("[1,null]", "[1]", '{"k":null}')])),
    Item(SQL_REF, "SELECT JSON_ARRAY(last_name, commission_pct) FROM employees WHERE employee_id = 100",
         Rows([('["King"]',)])),
    # item methods and filters (lax mode): size() counts an array's elements; a filter keeps the items it holds for
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b.size()') FROM dual", Rows([("2",)])),
    Item(SQL_REF, "SELECT 1 FROM dual WHERE JSON_EXISTS('{\"b\":[1,2]}', '$.b[*]?(@ == 2)')", Rows([(1,)])),
    Item(SQL_REF, "SELECT COUNT(*) FROM dual WHERE JSON_EXISTS('{\"b\":[1,2]}', '$.b[*]?(@ > 2)')", Rows([(0,)])),
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b.type()'), JSON_VALUE('{\"s\":\"ab\"}', '$.s.upper()'), "
                  "JSON_VALUE('{\"b\":[1,2]}', '$.b.avg()') FROM dual", Rows([("array", "AB", "1.5")])),
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b.date()') FROM dual", Refused("ORA-03001", "date()")),
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b.nosuch()') FROM dual",
         Refused("ORA-40442", "JSON path expression syntax error")),
    Item(SQL_REF, "SELECT JSON_OBJECT('k' VALUE NULL ABSENT ON NULL) FROM dual", Rows([("{}",)])),
    # ABSENT ON NULL is the outer object's: a nested JSON_OBJECT keeps its own NULL member (NULL ON NULL)
    Item(SQL_REF, "SELECT JSON_OBJECT('id' VALUE employee_id, 'pct' VALUE commission_pct, 'inner' VALUE "
                  "JSON_OBJECT('pct' VALUE commission_pct) ABSENT ON NULL) FROM employees WHERE employee_id IN "
                  "(100, 145) ORDER BY employee_id",
         Rows([(json.dumps({"id": e["employee_id"], **({"pct": e["commission_pct"]} if e["commission_pct"]
                                                       is not None else {}),
                            "inner": {"pct": e["commission_pct"]}}, separators=(",", ":")),)
               for e in _BY_ID_EARLY if e["employee_id"] in (100, 145)])),
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE '{\"a\":1}' IS JSON AND last_name IS NOT JSON",
         Rows([(len(EMP),)])),
    # numbers where SQLite's arithmetic differs from Oracle's (results from the reference's definitions)
    Item(SQL_REF, "SELECT ROUND(1234.5678, -2), ROUND(15.193, -1), ROUND(2.675, 2) FROM dual",
         Rows([(1200, 20, 2.68)])),
    Item(SQL_REF, "SELECT MOD(11, 4), MOD(11, -4), MOD(-11, 4), MOD(11, 0), MOD(7.5, 2) FROM dual",
         Rows([(3, 3, -3, 11, 1.5)])),
    Item(SQL_REF, "SELECT salary / 0 FROM employees", Refused("ORA-01476", "divisor is equal to zero")),
    Item(SQL_REF, "SELECT salary / commission_pct FROM employees WHERE employee_id = 145",
         Rows([(e["salary"] / e["commission_pct"],) for e in EMP if e["employee_id"] == 145])),
    Item(HR_SCHEMA, "INSERT INTO departments (department_id, department_name) "
                    "VALUES (999, 'A department name longer than thirty')",
         Refused("ORA-12899", "maximum: 30")),     # DEPARTMENT_NAME VARCHAR2(30)
    Item(HR_SCHEMA, "UPDATE employees SET first_name = last_name || last_name || last_name || last_name "
                    "WHERE employee_id = 108", Refused("ORA-12899", "maximum: 20")),
    Item(AI_VECTOR, "SELECT * FROM TABLE(DBMS_VECTOR_CHAIN.UTL_TO_CHUNKS('some text'))",
         Refused("ORA-03001", "table functions")),
    Item(SQL_REF, "SELECT e.last_name, l.n FROM employees e, LATERAL (SELECT COUNT(*) n FROM employees m "
                  "WHERE m.manager_id = e.employee_id) l", Refused("ORA-03001", "LATERAL")),
    # JSON_OBJECT(*): one member per column, named as the column is (NULL ON NULL, JSON_OBJECT's default)
    Item(SQL_REF, "SELECT JSON_OBJECT(*) FROM departments ORDER BY department_id",
         Rows([(json.dumps({k.upper(): v for k, v in d.items()}, separators=(",", ":")),)
               for d in sorted(DEPT, key=lambda d: d["department_id"])])),
    Item(SQL_REF, "SELECT JSON_OBJECT(*) FROM employees WHERE employee_id = 100",
         Rows([(json.dumps({k.upper(): (f"{v:%Y-%m-%dT%H:%M:%S}" if isinstance(v, dt.datetime) else v)
                            for k, v in EMP[0].items()}, separators=(",", ":")),)])),
    # WITH with a column list (the recursive form requires one): the declared names are the CTE's columns
    Item(SQL_REF, "WITH t (a, b) AS (SELECT employee_id, salary FROM employees) SELECT a FROM t WHERE b > 20000",
         Rows([(e["employee_id"],) for e in EMP if e["salary"] > 20000])),
    Item(SQL_REF, "WITH org (id, mgr, lvl) AS (SELECT employee_id, manager_id, 1 FROM employees "
                  "WHERE manager_id IS NULL UNION ALL SELECT e.employee_id, e.manager_id, o.lvl + 1 "
                  "FROM employees e JOIN org o ON e.manager_id = o.id) SELECT id, lvl FROM org WHERE lvl = 2 ORDER BY id",
         Rows(sorted((e["employee_id"], 2) for e in EMP
                     if e["manager_id"] in {x["employee_id"] for x in EMP if x["manager_id"] is None}))),
    Item(SQL_REF, "SELECT department_id, COUNT(*) OVER () FROM employees GROUP BY department_id ORDER BY 1",
         Rows(by(lambda r: r[0], [(d, len(DEPT_TOTALS)) for d in DEPT_TOTALS]))),
    Item(SQL_REF, "SELECT department_id, COUNT(*) cnt FROM employees GROUP BY department_id HAVING cnt > 5 "
                  "ORDER BY 1",   # 23ai: HAVING may name a select-list alias
         Rows(by(lambda r: r[0], [(d, n) for d in DEPT_TOTALS
                                  if (n := sum(1 for e in EMP if e["department_id"] == d)) > 5]))),
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b[1]'), JSON_VALUE('{\"a b\":{\"c\":3}}', '$.\"a b\".c') "
                  "FROM dual", Rows([("2", "3")])),
    # two values for JSON_VALUE is an error, NULL ON ERROR by default; one value through [*] is that value
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b[*]'), JSON_VALUE('{\"b\":[7]}', '$.b[*]') FROM dual",
         Rows([(None, "7")])),
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b[*]' ERROR ON ERROR) FROM dual",
         Refused("ORA-40470", "multiple values")),
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2]}', '$.b[last]') FROM dual", Rows([("2",)])),
    # [last - n] counts back from the last item; past the first one nothing matches (NULL ON EMPTY)
    Item(SQL_REF, "SELECT JSON_VALUE('{\"b\":[1,2,3]}', '$.b[last - 1]'), JSON_VALUE('{\"b\":[1,2,3]}', "
                  "'$.b[last-3]'), JSON_QUERY('{\"b\":[{\"x\":[1,2]},{\"x\":[3,4]}]}', '$.b[*].x[last]' "
                  "WITH WRAPPER) FROM dual", Rows([("2", None, "[2,4]")])),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary > '20000'",
         Rows([(e["last_name"],) for e in EMP if e["salary"] > 20000])),
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE department_id IN ('30', '60')",
         Rows([(sum(1 for e in EMP if e["department_id"] in (30, 60)),)])),
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE SUBSTR(phone_number, 1, 3) = 515",  # '515' -> 515
         Rows([(sum(1 for e in EMP if e["phone_number"][:3] == "515"),)])),
    Item(SQL_REF, "SELECT department_id dept, COUNT(*) n FROM employees WHERE department_id IS NOT NULL "
                  "GROUP BY dept HAVING COUNT(*) > 3 ORDER BY dept",   # 23ai: GROUP BY a select-list alias
         Rows(sorted((d, n) for d in {e["department_id"] for e in EMP if e["department_id"]}
                     if (n := sum(1 for e in EMP if e["department_id"] == d)) > 3))),
    Item(SQL_REF, "SELECT department_id, SUM(salary), RANK() OVER (ORDER BY SUM(salary) DESC) FROM employees "
                  "WHERE department_id IS NOT NULL GROUP BY department_id ORDER BY 3",
         Rows([(d, t, i + 1) for i, (t, d) in enumerate(sorted(
             ((sum(e["salary"] for e in EMP if e["department_id"] == d), d)
              for d in {e["department_id"] for e in EMP if e["department_id"]}), reverse=True))])),
    Item(SQL_REF, "SELECT e.department_id, MAX(e.salary) FROM employees e GROUP BY department_id "
                  "HAVING MAX(salary) > 10000 ORDER BY e.department_id",
         Rows(by(lambda r: r[0], [(d, m) for d in {e["department_id"] for e in EMP}
                                   if (m := max(e["salary"] for e in EMP if e["department_id"] == d)) > 10000]))),
    Item(HR_SCHEMA, 'SELECT "LAST_NAME" FROM employees WHERE "EMPLOYEE_ID" = 100', Rows([("King",)])),
    Item(SQL_REF, "SELECT x.n FROM (SELECT salary n FROM employees) x WHERE n > 20000",
         Rows([(e["salary"],) for e in EMP if e["salary"] > 20000])),
]


@pytest.mark.parametrize("item", CORPUS, ids=lambda i: i.sql[:60])
def test_corpus(hr: LiteConnection, item: Item) -> None:
    run_item(hr, item)


# --------------------------------------------------------------------------- positional binds (python-oracledb)

def test_positional_binds_follow_the_text_when_json_and_dates_come_first(hr: LiteConnection) -> None:
    """python-oracledb binds a sequence by position in the text; a JSON/DATE/TIMESTAMP column first must not
    shift the values (the rewritten statement wraps those binds, so a tree walk meets them late)."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE pos_binds (payload JSON, created DATE, stamp TIMESTAMP, note VARCHAR2(40), n NUMBER)")
    row = ({"kind": "fact", "tags": [1, 2]}, dt.datetime(2024, 2, 29, 8, 30), dt.datetime(2024, 3, 1, 1, 2, 3, 500000),
           "a text note", 7)
    cur.execute("INSERT INTO pos_binds VALUES (:1, :2, :3, :4, :5)", row)
    cur.executemany("INSERT INTO pos_binds (payload, created, stamp, note, n) VALUES (:a, :b, :c, :d, :e)",
                    [row, row])
    cur.execute("SELECT payload, created, stamp, note, n FROM pos_binds")
    assert cur.fetchall() == [row] * 3
    # by position in the text, not by the number in the name (python-oracledb's "binding by position")
    cur.execute("SELECT note FROM pos_binds WHERE created = :2 AND n = :1", (row[1], 7))
    assert cur.fetchall() == [("a text note",)] * 3
    cur.execute("DROP TABLE pos_binds")


# --------------------------------------------------------------------------- ROUND/TRUNC(date, fmt), every unit

# (format model, ROUND, TRUNC) of 2024-08-17 13:35:31 (a Saturday), worked out by hand from Oracle's table
# "ROUND and TRUNC Date Functions" (SQL Language Reference): 1 Jan 2024 is a Monday, 1 Aug 2024 a Thursday,
# the ISO year 2024 starts on Monday 1 Jan 2024; NLS_TERRITORY AMERICA starts weeks on Sunday.
DATE_UNITS = [
    ("CC", D(2001, 1, 1), D(2001, 1, 1)),
    ("SCC", D(2001, 1, 1), D(2001, 1, 1)),
    ("YYYY", D(2025, 1, 1), D(2024, 1, 1)),     # rounds up on July 1
    ("YEAR", D(2025, 1, 1), D(2024, 1, 1)),
    ("Y", D(2025, 1, 1), D(2024, 1, 1)),
    ("Q", D(2024, 10, 1), D(2024, 7, 1)),       # Q3; rounds up on 16 August, so the 17th rounds to Q4
    ("MONTH", D(2024, 9, 1), D(2024, 8, 1)),    # rounds up on the 16th
    ("MON", D(2024, 9, 1), D(2024, 8, 1)),
    ("MM", D(2024, 9, 1), D(2024, 8, 1)),
    ("RM", D(2024, 9, 1), D(2024, 8, 1)),
    ("WW", D(2024, 8, 19), D(2024, 8, 12)),     # weeks start on Mondays (1 Jan); Saturday 13:35 is past half-way
    ("IW", D(2024, 8, 19), D(2024, 8, 12)),
    ("W", D(2024, 8, 15), D(2024, 8, 15)),      # weeks start on Thursdays (1 Aug); Saturday is before half-way
    ("DDD", D(2024, 8, 18), D(2024, 8, 17)),    # past noon
    ("DD", D(2024, 8, 18), D(2024, 8, 17)),
    ("J", D(2024, 8, 18), D(2024, 8, 17)),
    ("DAY", D(2024, 8, 18), D(2024, 8, 11)),    # weeks start on Sundays; Saturday afternoon rounds to Sunday
    ("DY", D(2024, 8, 18), D(2024, 8, 11)),
    ("D", D(2024, 8, 18), D(2024, 8, 11)),
    ("HH", D(2024, 8, 17, 14), D(2024, 8, 17, 13)),
    ("HH24", D(2024, 8, 17, 14), D(2024, 8, 17, 13)),
    ("MI", D(2024, 8, 17, 13, 36), D(2024, 8, 17, 13, 35)),
]


@pytest.mark.parametrize("unit, rounded, truncated", DATE_UNITS, ids=[u for u, _, _ in DATE_UNITS])
def test_round_and_trunc_of_a_date_for_every_format_model(hr: LiteConnection, unit: str, rounded: dt.datetime,
                                                          truncated: dt.datetime) -> None:
    cur = hr.cursor()
    value = "TO_DATE('2024-08-17 13:35:31', 'YYYY-MM-DD HH24:MI:SS')"
    cur.execute(f"SELECT ROUND({value}, '{unit}'), TRUNC({value}, '{unit}'), "
                f"ROUND(CAST({value} AS TIMESTAMP), '{unit}') FROM dual")
    assert cur.fetchone() == (rounded, truncated, rounded)


def test_round_of_a_date_column_and_the_default_unit(hr: LiteConnection) -> None:
    cur = hr.cursor()
    cur.execute("SELECT employee_id, ROUND(hire_date, 'YEAR'), ROUND(hire_date), TRUNC(hire_date, 'MM') "
                "FROM employees ORDER BY employee_id")
    expected = [(e["employee_id"], D(e["hire_date"].year + (e["hire_date"].month >= 7), 1, 1), e["hire_date"],
                 D(e["hire_date"].year, e["hire_date"].month, 1)) for e in sorted(EMP, key=lambda e: e["employee_id"])]
    assert cur.fetchall() == expected
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute("SELECT TRUNC(SYSDATE, 'FORTNIGHT') FROM dual").fetchall()
    assert info.value.args[0].full_code == "ORA-01899"


# --------------------------------------------------------------------------- fractional seconds into TIMESTAMP(6)

@pytest.mark.parametrize("value, expected", [
    # Oracle rounds a more precise fraction to the column's precision (SQL Language Reference, "TIMESTAMP Data
    # Type": fractional_seconds_precision); expected values by hand
    ("TIMESTAMP '2024-01-01 10:00:00.1234567'", D(2024, 1, 1, 10, 0, 0, 123457)),
    ("TIMESTAMP '2024-01-01 10:00:00.1234564'", D(2024, 1, 1, 10, 0, 0, 123456)),
    ("TIMESTAMP '2024-01-01 10:00:00.1234565'", D(2024, 1, 1, 10, 0, 0, 123457)),   # half up, not to even
    ("TO_TIMESTAMP('2024-12-31 23:59:59.9999999', 'YYYY-MM-DD HH24:MI:SS.FF9')", D(2025, 1, 1)),  # carries
    ("TO_TIMESTAMP('2024-01-01 10:00:00.5', 'YYYY-MM-DD HH24:MI:SS.FF')", D(2024, 1, 1, 10, 0, 0, 500000)),
])
def test_fractional_seconds_are_rounded_into_timestamp_6(hr: LiteConnection, value: str, expected: dt.datetime) -> None:
    cur = hr.cursor()
    cur.execute("CREATE TABLE frac6 (t TIMESTAMP(6))")
    try:
        cur.execute(f"INSERT INTO frac6 VALUES ({value})")
        cur.execute("SELECT t FROM frac6")
        assert cur.fetchall() == [(expected,)]
    finally:
        cur.execute("DROP TABLE frac6")


def test_timestamp_p_rounds_to_its_precision(hr: LiteConnection) -> None:
    """TIMESTAMP(3)/TIMESTAMP(0) columns keep 3/0 fractional digits, rounded half up (values by hand)."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE frac_p (t3 TIMESTAMP(3), t0 TIMESTAMP(0))")
    try:
        cur.execute("INSERT INTO frac_p VALUES (TIMESTAMP '2024-01-01 10:00:00.1235', "
                    "TIMESTAMP '2024-01-01 10:00:59.5')")
        cur.execute("INSERT INTO frac_p VALUES (:1, :2)", (D(2024, 1, 1, 10, 0, 0, 999600), D(2024, 1, 1, 10, 0, 0, 499999)))
        cur.execute("SELECT t3, t0 FROM frac_p")
        assert cur.fetchall() == [(D(2024, 1, 1, 10, 0, 0, 124000), D(2024, 1, 1, 10, 1)),
                                  (D(2024, 1, 1, 10, 0, 1), D(2024, 1, 1, 10, 0, 0))]
        cur.execute("SELECT data_type FROM user_tab_columns WHERE table_name = 'FRAC_P' ORDER BY column_id")
        assert cur.fetchall() == [("TIMESTAMP(3)",), ("TIMESTAMP(0)",)]
    finally:
        cur.execute("DROP TABLE frac_p")


@pytest.mark.parametrize("ddl, insert", [
    ("CREATE TABLE pk_null (a NUMBER, b VARCHAR2(5), CONSTRAINT pk_null_pk PRIMARY KEY (a, b))",
     "INSERT INTO pk_null (a, b) VALUES (1, NULL)"),
    ("CREATE TABLE pk_null (code VARCHAR2(5) PRIMARY KEY, n NUMBER)", "INSERT INTO pk_null VALUES ('', 1)"),
    ("CREATE TABLE pk_null (code VARCHAR2(5) CONSTRAINT pk_null_pk PRIMARY KEY)", "INSERT INTO pk_null VALUES (NULL)"),
])
def test_null_into_a_primary_key_is_ora_01400(hr: LiteConnection, ddl: str, insert: str) -> None:
    """A primary key column is NOT NULL in Oracle (SQLite lets NULL into a non-INTEGER primary key)."""
    cur = hr.cursor()
    cur.execute(ddl)
    try:
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute(insert)
        assert info.value.args[0].full_code == "ORA-01400"
        cur.execute("SELECT nullable FROM user_tab_columns WHERE table_name = 'PK_NULL' AND column_id = 1")
        assert cur.fetchone() == ("N",)
    finally:
        cur.execute("DROP TABLE pk_null")


# --------------------------------------------------------------------------- 23ai distance operators

VECS = {1: [1.0, 0.0, 0.0], 2: [0.6, 0.8, 0.0], 3: [0.0, 0.0, 2.0], 4: [-1.0, 0.5, 0.5]}
QUERY = [1.0, 1.0, 0.0]


def _cosine_distance(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    return 1 - dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


@pytest.mark.parametrize("operator, distance", [
    ("<=>", _cosine_distance),
    ("<->", lambda a, b: math.dist(a, b)),
    ("<#>", lambda a, b: -sum(x * y for x, y in zip(a, b))),
])
def test_distance_operators_are_vector_distance(hr: LiteConnection, operator: str, distance: Callable) -> None:
    """AI Vector Search User's Guide: ``<=>`` cosine, ``<->`` Euclidean, ``<#>`` negative dot product."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE op_vecs (id NUMBER PRIMARY KEY, v VECTOR(3, FLOAT32))")
    try:
        cur.executemany("INSERT INTO op_vecs VALUES (:1, TO_VECTOR(:2))", [(k, str(v)) for k, v in VECS.items()])
        cur.execute(f"SELECT id, v {operator} TO_VECTOR(:q) FROM op_vecs ORDER BY v {operator} TO_VECTOR(:q), id "
                    "FETCH APPROX FIRST 3 ROWS ONLY WITH TARGET ACCURACY 95", q=str(QUERY))
        got = [(i, round(d, 5)) for i, d in cur.fetchall()]
        want = sorted(((k, round(distance(v, QUERY), 5)) for k, v in VECS.items()), key=lambda r: (r[1], r[0]))[:3]
        assert got == want
    finally:
        cur.execute("DROP TABLE op_vecs")


# --------------------------------------------------------------------------- Oracle Text index PARAMETERS

TEXT_REF = "Oracle Text Reference 23ai, CREATE INDEX (CONTEXT parameters)"


@pytest.mark.parametrize("parameters", [
    "SYNC (ON COMMIT)",                                            # the workshop's own
    "filter ctxsys.null_filter",
    "SYNC (EVERY \"SYSDATE+1/24\") MEMORY 50M",
    "lexer ctxsys.default_lexer stoplist ctxsys.default_stoplist TRANSACTIONAL",
    "section group ctxsys.null_section_group sync (manual)",
])
def test_text_parameters_lite_indexes_the_same_way_are_accepted(hr: LiteConnection, parameters: str) -> None:
    cur = hr.cursor()
    cur.execute("CREATE TABLE text_docs (id NUMBER PRIMARY KEY, body VARCHAR2(200))")
    try:
        cur.execute("INSERT INTO text_docs VALUES (1, 'the harbour pilot boards the vessel')")
        hr.commit()
        cur.execute(f"CREATE INDEX text_docs_ctx ON text_docs (body) INDEXTYPE IS CTXSYS.CONTEXT "
                    f"PARAMETERS ('{parameters.replace(chr(39), chr(39) * 2)}')")
        cur.execute("SELECT id FROM text_docs WHERE CONTAINS(body, 'pilot', 1) > 0")
        assert cur.fetchall() == [(1,)]
    finally:
        cur.execute("DROP TABLE text_docs")


@pytest.mark.parametrize("parameters, code, fragment", [
    # Text Reference's first example: with HTML sections, markup is not indexed (CONTAINS(.., 'html') finds none)
    ("filter ctxsys.null_filter section group ctxsys.html_section_group", "ORA-03001",
     "SECTION GROUP ctxsys.html_section_group"),
    ("stoplist ctxsys.empty_stoplist", "ORA-03001", "STOPLIST ctxsys.empty_stoplist"),
    ("lexer my_lexer", "ORA-03001", "LEXER my_lexer"),
    ("datastore ctxsys.url_datastore", "ORA-03001", "DATASTORE"),
    ("NOPOPULATE", "ORA-03001", "NOPOPULATE"),
    ("sections html", "ORA-29855", "DRG-11000"),
])
def test_text_parameters_that_change_results_are_refused_by_name(hr: LiteConnection, parameters: str, code: str,
                                                                 fragment: str) -> None:
    cur = hr.cursor()
    cur.execute("CREATE TABLE text_docs (id NUMBER PRIMARY KEY, body VARCHAR2(200))")
    try:
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute(f"CREATE INDEX text_docs_ctx ON text_docs (body) INDEXTYPE IS CTXSYS.CONTEXT "
                        f"PARAMETERS ('{parameters}')")
        assert info.value.args[0].full_code == code and fragment in info.value.args[0].message
        cur.execute("SELECT COUNT(*) FROM user_indexes WHERE table_name = 'TEXT_DOCS' AND index_type = 'DOMAIN'")
        assert cur.fetchone() == (0,)
    finally:
        cur.execute("DROP TABLE text_docs")


# --------------------------------------------------------------------------- python-oracledb's bind_query.py

@pytest.mark.parametrize("sql, values, expected", [
    # "With bind-by-position, the order of the data in the bind list matches the order of the placeholders"
    ("SELECT last_name FROM employees WHERE employee_id = :2 AND 456 = :1", [100, 456], [("King",)]),
    # "repeated use of bind placeholder names in the SQL statement requires the input list data to be repeated"
    ("SELECT last_name FROM employees WHERE employee_id = :2 AND 101 = :2", [101, 101], [("Yang",)]),
    ("SELECT last_name FROM employees WHERE employee_id = :bvid AND 123 = :otherbind", [102, 123], [("Garcia",)]),
])
def test_bind_by_position_as_python_oracledb_samples_do(hr: LiteConnection, sql: str, values: list,
                                                        expected: list) -> None:
    cur = hr.cursor()
    cur.execute(sql, values)
    assert cur.fetchall() == expected


def test_repeated_positional_bind_needs_a_value_per_occurrence(hr: LiteConnection) -> None:
    cur = hr.cursor()
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute("SELECT last_name FROM employees WHERE employee_id = :2 AND 3 = :2", [100])
    assert info.value.args[0].full_code == "ORA-01008"
    with pytest.raises(oracledb.DatabaseError) as info:   # Oracle would bind 100 and 3 apart; lite cannot
        cur.execute("SELECT last_name FROM employees WHERE employee_id = :2 AND 3 = :2", [100, 3])
    assert info.value.args[0].full_code == "ORA-03001"


# --------------------------------------------------------------------------- values written to NUMBER(p, s)

def test_number_columns_round_to_their_scale_and_check_their_precision(hr: LiteConnection) -> None:
    """python-oracledb's tutorial EMP table (setup_tutorial.sql): SAL NUMBER(7, 2); values by hand from the
    SQL Language Reference's NUMBER rules (rounded to the scale; ORA-01438 beyond the precision)."""
    cur = hr.cursor()
    cur.execute("create table emp (empno number(4) not null, ename varchar2(10), sal number(7, 2), deptno number(2))")
    try:
        cur.execute("insert into emp values (7369, 'SMITH', 800, 20)")
        cur.execute("insert into emp values (:1, :2, :3, :4)", (7499, "ALLEN", 1600.005, "30"))
        cur.execute("update emp set sal = sal * 1.1 where ename = 'SMITH'")   # 880.0000000000001 in binary floats
        cur.execute("select empno, sal, deptno from emp order by empno")
        assert cur.fetchall() == [(7369, 880, 20), (7499, 1600.01, 30)]
        for bad, code in (("insert into emp values (1, 'X', 123456, 10)", "ORA-01438"),
                          ("insert into emp values (12345, 'X', 1, 10)", "ORA-01438"),
                          ("insert into emp values (1, 'X', 'lots', 10)", "ORA-01722")):
            with pytest.raises(oracledb.DatabaseError) as info:
                cur.execute(bad)
            assert info.value.args[0].full_code == code, bad
        cur.execute("insert into emp (empno, ename, sal) select 1, 'Y', 99.999 from dual")
        cur.execute("select sal from emp where empno = 1")
        assert cur.fetchone() == (100,)
    finally:
        hr.rollback()
        cur.execute("drop table emp")


def test_simple_dot_notation_on_a_json_column(hr: LiteConnection) -> None:
    """python-oracledb's json_direct.py: ``select c.json_data.location from CustomersAsJson c``; field names
    are case-sensitive; a missing field is NULL; an object comes back as a dict (Oracle 23ai's JSON type)."""
    cur = hr.cursor()
    cur.execute("create table CustomersAsJson (id number(9) not null primary key, json_data json)")
    try:
        doc = {"name": "Rod", "dept": "Sales", "location": "Germany", "addr": {"city": "Bonn", "Zip": 53111}}
        cur.execute("insert into CustomersAsJson values (:1, :2)", [1, doc])
        cur.execute("select c.json_data.location from CustomersAsJson c")
        assert cur.fetchall() == [(doc["location"],)]
        cur.execute("select c.json_data.addr, c.json_data.addr.city, c.json_data.addr.Zip, c.json_data.addr.zip "
                    "from CustomersAsJson c")
        assert cur.fetchall() == [(doc["addr"], "Bonn", 53111, None)]
    finally:
        cur.execute("drop table CustomersAsJson")


# --------------------------------------------------------------------------- AI Vector Search examples

GALAXIES = {1: ("M31", [0, 2, 2, 0, 0]), 2: ("M33", [0, 0, 1, 0, 0]), 3: ("M58", [1, 1, 1, 0, 0])}


@pytest.fixture()
def galaxies(hr: LiteConnection):
    """The AI Vector Search User's Guide's GALAXIES table (a three-row subset, five dimensions)."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE galaxies (id NUMBER, name VARCHAR2(50), embedding VECTOR)")
    cur.executemany("INSERT INTO galaxies VALUES (:1, :2, :3)", [(k, n, str(v)) for k, (n, v) in GALAXIES.items()])
    hr.commit()
    yield cur
    cur.execute("DROP TABLE galaxies")


def _l2(a: list[float], b: list[float]) -> float:
    return math.dist(a, b)


@pytest.mark.parametrize("sql, expected", [
    ("SELECT name FROM galaxies WHERE name <> 'NGC1073' ORDER BY VECTOR_DISTANCE(embedding, "
     "(SELECT embedding FROM galaxies WHERE name = 'M31'), COSINE) FETCH EXACT FIRST 2 ROWS ONLY",
     [(GALAXIES[k][0],) for k in sorted(GALAXIES, key=lambda k: _cosine_distance(GALAXIES[k][1], GALAXIES[1][1]))[:2]]),
    ("SELECT id, ROUND(L2_DISTANCE(embedding, TO_VECTOR('[0,0,1,0,0]')), 6), "
     "ROUND(COSINE_DISTANCE(embedding, TO_VECTOR('[0,0,1,0,0]')), 6), "
     "INNER_PRODUCT(embedding, TO_VECTOR('[0,0,1,0,0]')) FROM galaxies ORDER BY id",
     [(k, round(_l2(v, [0, 0, 1, 0, 0]), 6), round(_cosine_distance(v, [0, 0, 1, 0, 0]), 6), v[2])
      for k, (_, v) in sorted(GALAXIES.items())]),
    ("SELECT COUNT(*) FROM galaxies WHERE VECTOR_DISTANCE(embedding, TO_VECTOR('[0,1,1,0,0]'), COSINE) < 0.25",
     [(sum(1 for _, v in GALAXIES.values() if _cosine_distance(v, [0, 1, 1, 0, 0]) < 0.25),)]),
])
def test_vector_search_examples(galaxies, sql: str, expected: list) -> None:
    galaxies.execute(sql)
    assert galaxies.fetchall() == expected


def test_hr_countries_ddl_with_organization_index(hr: LiteConnection) -> None:
    """hr_create.sql's COUNTRIES is an index-organized table: storage only, so lite accepts it as a table."""
    cur = hr.cursor()
    cur.execute("""CREATE TABLE countries
        ( country_id      CHAR(2) CONSTRAINT  country_id_nn NOT NULL
        , country_name    VARCHAR2(60)
        , region_id       NUMBER
        , CONSTRAINT     country_c_id_pk PRIMARY KEY (country_id)
        ) ORGANIZATION INDEX""")
    try:
        cur.executemany("INSERT INTO countries VALUES (:1, :2, :3)", [("UK", "United Kingdom", 1), ("US", "USA", 2)])
        cur.execute("SELECT country_name FROM countries WHERE country_id = 'US'")
        assert cur.fetchall() == [("USA",)]
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute("INSERT INTO countries VALUES ('US', 'again', 2)")
        assert info.value.args[0].full_code == "ORA-00001"
    finally:
        cur.execute("DROP TABLE countries")


@pytest.mark.parametrize("ddl", [
    "CREATE TABLE gen_always (id NUMBER GENERATED ALWAYS AS IDENTITY PRIMARY KEY, x NUMBER)",
    "CREATE TABLE gen_always (k NUMBER PRIMARY KEY, id NUMBER GENERATED ALWAYS AS IDENTITY, x NUMBER)",
])
def test_generated_always_identity_refuses_written_values(hr: LiteConnection, ddl: str) -> None:
    """SQL Language Reference, identity_clause: ALWAYS means Oracle always generates the value (ORA-32795 for
    an INSERT that gives one, ORA-32796 for an UPDATE); BY DEFAULT takes a given value."""
    cur = hr.cursor()
    cur.execute(ddl)
    try:
        key = ", k" if "(k NUMBER" in ddl else ""
        cur.execute(f"INSERT INTO gen_always (x{key}) VALUES (1{', 1' if key else ''})")
        for sql, code in ((f"INSERT INTO gen_always (id, x{key}) VALUES (5, 2{', 2' if key else ''})", "ORA-32795"),
                          ("UPDATE gen_always SET id = 9", "ORA-32796")):
            with pytest.raises(oracledb.DatabaseError) as info:
                cur.execute(sql)
            assert info.value.args[0].full_code == code
        cur.execute("UPDATE gen_always SET x = 3")
        cur.execute("SELECT id, x FROM gen_always")
        assert cur.fetchall() == [(1, 3)]
    finally:
        hr.rollback()
        cur.execute("DROP TABLE gen_always")


def test_update_of_several_columns_from_one_subquery(hr: LiteConnection) -> None:
    """SQL Language Reference, UPDATE: ``SET (col, col) = (subquery)`` (was an ORA-00904 with an empty name)."""
    cur = hr.cursor()
    try:
        cur.execute("UPDATE employees e SET (salary, commission_pct) = (SELECT MAX(salary), MAX(commission_pct) "
                    "FROM employees m WHERE m.department_id = 80) WHERE employee_id = 119")
        assert cur.rowcount == 1
        cur.execute("SELECT salary, commission_pct FROM employees WHERE employee_id = 119")
        sales = [e for e in EMP if e["department_id"] == 80]
        assert cur.fetchall() == [(max(e["salary"] for e in sales), max(e["commission_pct"] for e in sales))]
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute("UPDATE employees SET (salary, bonus) = (SELECT 1, 2 FROM dual)")
        assert info.value.args[0].full_code == "ORA-00904" and "BONUS" in info.value.args[0].message
    finally:
        hr.rollback()


def test_merge_example_of_the_sql_reference(hr: LiteConnection) -> None:
    """SQL Language Reference, MERGE (the BONUSES example without its DELETE clause, which lite refuses):
    matched rows get 1% of the salary added, the others are inserted when the salary is at most 8000."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE bonuses (employee_id NUMBER, bonus NUMBER DEFAULT 100)")
    try:
        cur.execute("INSERT INTO bonuses (employee_id) SELECT e.employee_id FROM employees e "
                    "WHERE e.department_id = 80 AND e.commission_pct > 0.35")   # the 'early' bonus holders
        cur.execute("""MERGE INTO bonuses D
               USING (SELECT employee_id, salary, department_id FROM employees
               WHERE department_id = 80 OR department_id IS NULL) S
               ON (D.employee_id = S.employee_id)
               WHEN MATCHED THEN UPDATE SET D.bonus = D.bonus + S.salary*.01
               WHEN NOT MATCHED THEN INSERT (D.employee_id, D.bonus)
                 VALUES (S.employee_id, S.salary*.01)
                 WHERE (S.salary <= 8000)""")
        source = [e for e in EMP if e["department_id"] == 80 or e["department_id"] is None]
        early = {e["employee_id"] for e in EMP if e["department_id"] == 80 and e["commission_pct"] > 0.35}
        expected = sorted([(e["employee_id"], 100 + e["salary"] * 0.01) for e in source if e["employee_id"] in early]
                          + [(e["employee_id"], e["salary"] * 0.01) for e in source
                             if e["employee_id"] not in early and e["salary"] <= 8000])
        cur.execute("SELECT employee_id, bonus FROM bonuses ORDER BY employee_id")
        assert cur.fetchall() == expected
    finally:
        hr.rollback()
        cur.execute("DROP TABLE bonuses")


def test_identity_start_with_and_increment_by(hr: LiteConnection) -> None:
    """SQL Language Reference, identity_options: values start at START WITH and step by INCREMENT BY
    (lite numbered every identity 1, 2, 3 ...)."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE id_pk (id NUMBER GENERATED BY DEFAULT AS IDENTITY (START WITH 100) PRIMARY KEY, x NUMBER)")
    cur.execute("CREATE TABLE id_col (k NUMBER PRIMARY KEY, "
                "n NUMBER GENERATED ALWAYS AS IDENTITY (START WITH 1000 INCREMENT BY 10))")
    try:
        cur.executemany("INSERT INTO id_pk (x) VALUES (:1)", [(1,), (2,)])
        cur.executemany("INSERT INTO id_col (k) VALUES (:1)", [(1,), (2,), (3,)])
        cur.execute("SELECT id FROM id_pk ORDER BY id")
        assert cur.fetchall() == [(100,), (101,)]
        cur.execute("SELECT n FROM id_col ORDER BY k")
        assert cur.fetchall() == [(1000,), (1010,), (1020,)]
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute("CREATE TABLE id_bad (id NUMBER GENERATED AS IDENTITY (INCREMENT BY 2) PRIMARY KEY)")
        assert info.value.args[0].full_code == "ORA-03001" and "INCREMENT BY 2" in info.value.args[0].message
    finally:
        cur.execute("DROP TABLE id_pk")
        cur.execute("DROP TABLE id_col")


@pytest.mark.parametrize("option", ["batcherrors", "arraydmlrowcounts"])
def test_executemany_options_lite_lacks_are_refused(hr: LiteConnection, option: str) -> None:
    """python-oracledb's batch_errors.py / array_dml_rowcounts.py: lite would stop at the first failing row or
    give no per-row counts, so the option is ORA-03001 rather than silently ignored."""
    with pytest.raises(oracledb.DatabaseError) as info:
        hr.cursor().executemany("UPDATE employees SET salary = salary WHERE employee_id = :1", [(100,)],
                                **{option: True})
    assert info.value.args[0].full_code == "ORA-03001" and option in info.value.args[0].message


# =========================================================================== the corpus, grown (issue 15)
#
# Two more sample schemas with their own data and INSERT statements, loaded exactly as their scripts write them:
# python-oracledb's tutorial EMP/DEPT (tests/data/fidelity/tutorial_emp_dept.json) and Oracle's Customer Orders
# (CO, tests/data/fidelity/co_subset.json). Expected rows are computed below in plain Python from the rows those
# files hold (parsed from the scripts' literals, not read back through lite), or taken from the documentation.

TUTORIAL = json.loads((Path(__file__).parent / "data" / "fidelity" / "tutorial_emp_dept.json").read_text())
CO_DATA = json.loads((Path(__file__).parent / "data" / "fidelity" / "co_subset.json").read_text())
TUTORIAL_SQL = "oracle/python-oracledb samples/tutorial/sql/setup_tutorial.sql (EMP/DEPT) with the SQL Reference's examples"
CO_SCHEMA = "oracle-samples/db-sample-schemas customer_orders (co_create.sql, co_populate.sql)"
JSON_DEV = "Oracle Database JSON Developer's Guide 23ai (examples of the function named)"
TEXT_REF = "Oracle Text Reference 23ai (CONTAINS operator examples)"


def _rows(data: dict, table: str) -> list[dict[str, Any]]:
    return [dict(zip(data[table]["columns"], r)) for r in data[table]["rows"]]


SEMP = [dict(e, hiredate=dt.datetime.fromisoformat(e["hiredate"])) for e in _rows(TUTORIAL, "emp")]
SDEPT = _rows(TUTORIAL, "dept")


def _co_timestamp(text: str) -> dt.datetime:
    """'04-FEB-2021 13.20.22.245676861' (DD-MON-YYYY HH24.MI.SS.FF) as Oracle stores it in a TIMESTAMP (6):
    the fraction rounded half up to microseconds."""
    day, clock = text.split(" ")
    hh, mi, ss, ff = clock.split(".")
    base = dt.datetime.strptime(f"{day} {hh}:{mi}:{ss}", "%d-%b-%Y %H:%M:%S")
    nanos = int(ff.ljust(9, "0"))
    return base + dt.timedelta(microseconds=(nanos + 500) // 1000)


CUSTOMERS = _rows(CO_DATA, "customers")
STORES = _rows(CO_DATA, "stores")
PRODUCTS = _rows(CO_DATA, "products")
ORDERS = [dict(o, order_tms=_co_timestamp(o["order_tms"])) for o in _rows(CO_DATA, "orders")]
ORDER_ITEMS = _rows(CO_DATA, "order_items")


def store_orders() -> list[tuple]:
    """co_create.sql's STORE_ORDERS view computed in Python: GROUPING SETS over stores and order status, the
    TOTAL label from GROUPING_ID(store_name, order_status) (store_name the high bit)."""
    orders = {o["order_id"]: o for o in ORDERS}
    stores = {s["store_id"]: s for s in STORES}
    joined = [(stores[orders[i["order_id"]]["store_id"]], orders[i["order_id"]], i) for i in ORDER_ITEMS]
    out = []
    for by_store, by_status in ((True, False), (True, True), (False, True), (False, False)):
        groups: dict[tuple, list] = {}
        for store, order, item in joined:
            place = (store["store_name"], store["web_address"] or store["physical_address"], store["latitude"],
                     store["longitude"]) if by_store else (None,) * 4
            groups.setdefault(place + (order["order_status"] if by_status else None,), []).append((order, item))
        total = {1: "STORE TOTAL", 2: "STATUS TOTAL", 3: "GRAND TOTAL"}.get((0 if by_store else 2) + (0 if by_status else 1))
        out += [(total, *key, len({o["order_id"] for o, _ in members}),
                 round(sum(i["quantity"] * i["unit_price"] for _, i in members), 2)) for key, members in groups.items()]
    return out


def product_reviews() -> list[tuple]:
    """co_create.sql's PRODUCT_REVIEWS view computed in Python: one row per review in each product's JSON
    details (NESTED PATH: a product whose details have no reviews keeps one row of NULLs; NULL details give
    no row), with the product name's average rating rounded half up to 2 places."""
    found = []
    for p in PRODUCTS:
        if p["product_details"] is None:
            continue
        reviews = json.loads(p["product_details"]).get("reviews")
        reviews = [] if reviews is None else reviews if isinstance(reviews, list) else [reviews]
        found += [(p["product_name"], r.get("rating"), r.get("review") or None) for r in reviews] \
            or [(p["product_name"], None, None)]
    out = []
    for name, rating, review in found:
        ratings = [r for n, r, _ in found if n == name and r is not None]
        average = None if not ratings else float(decimal.Decimal(repr(sum(ratings) / len(ratings))).quantize(
            decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP))
        out.append((name, rating, int(average) if average is not None and average.is_integer() else average, review))
    return out


SHIPMENTS = _rows(CO_DATA, "shipments")
INVENTORY = _rows(CO_DATA, "inventory")
PRODUCT_BY_ID = {p["product_id"]: p for p in PRODUCTS}
CUSTOMER_BY_ID = {c["customer_id"]: c for c in CUSTOMERS}

# co_create.sql's tables with its ALTER TABLE ... ADD CONSTRAINT statements folded in (lite has no ALTER TABLE;
# the ALTER statements themselves are corpus items below); PRODUCT_DETAILS is a BLOB holding JSON there, a CLOB
# with the same IS JSON check here (lite does not read JSON from a BLOB).
CO_DDL = [
    """CREATE TABLE customers
    ( customer_id     INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY,
      email_address   VARCHAR2(255 CHAR) NOT NULL,
      full_name       VARCHAR2(255 CHAR) NOT NULL,
      CONSTRAINT customers_pk PRIMARY KEY (customer_id),
      CONSTRAINT customers_email_u UNIQUE (email_address) )""",
    """CREATE TABLE stores
    ( store_id            INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY,
      store_name          VARCHAR2(255 CHAR) NOT NULL,
      web_address         VARCHAR2(100 CHAR),
      physical_address    VARCHAR2(512 CHAR),
      latitude            NUMBER(9,6),
      longitude           NUMBER(9,6),
      logo                BLOB,
      logo_mime_type      VARCHAR2(512 CHAR),
      logo_filename       VARCHAR2(512 CHAR),
      logo_charset        VARCHAR2(512 CHAR),
      logo_last_updated   DATE,
      CONSTRAINT stores_pk PRIMARY KEY (store_id),
      CONSTRAINT store_name_u UNIQUE (store_name),
      CONSTRAINT store_at_least_one_address_c CHECK (web_address IS NOT NULL or physical_address IS NOT NULL) )""",
    """CREATE TABLE products
    ( product_id           INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY,
      product_name         VARCHAR2(255 CHAR) NOT NULL,
      unit_price           NUMBER(10,2),
      product_details      CLOB,
      product_image        BLOB,
      image_mime_type      VARCHAR2(512 CHAR),
      image_filename       VARCHAR2(512 CHAR),
      image_charset        VARCHAR2(512 CHAR),
      image_last_updated   DATE,
      CONSTRAINT products_pk PRIMARY KEY (product_id),
      CONSTRAINT products_json_c CHECK ( product_details is json ) )""",
    """CREATE TABLE orders
    ( order_id       INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY,
      order_tms      TIMESTAMP NOT NULL,
      customer_id    INTEGER NOT NULL,
      order_status   VARCHAR2(10 CHAR) NOT NULL,
      store_id       INTEGER NOT NULL,
      CONSTRAINT orders_pk PRIMARY KEY (order_id),
      CONSTRAINT orders_customer_id_fk FOREIGN KEY (customer_id) REFERENCES customers (customer_id),
      CONSTRAINT orders_status_c CHECK ( order_status in
                    ( 'CANCELLED','COMPLETE','OPEN','PAID','REFUNDED','SHIPPED')),
      CONSTRAINT orders_store_id_fk FOREIGN KEY (store_id) REFERENCES stores (store_id) )""",
    """CREATE TABLE shipments
    ( shipment_id        INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY,
      store_id           INTEGER NOT NULL,
      customer_id        INTEGER NOT NULL,
      delivery_address   VARCHAR2(512 CHAR) NOT NULL,
      shipment_status    VARCHAR2(100 CHAR) NOT NULL,
      CONSTRAINT shipments_pk PRIMARY KEY (shipment_id),
      CONSTRAINT shipments_store_id_fk FOREIGN KEY (store_id) REFERENCES stores (store_id),
      CONSTRAINT shipments_customer_id_fk FOREIGN KEY (customer_id) REFERENCES customers (customer_id),
      CONSTRAINT shipment_status_c CHECK ( shipment_status in ( 'CREATED', 'SHIPPED', 'IN-TRANSIT', 'DELIVERED')) )""",
    """CREATE TABLE order_items
    ( order_id       INTEGER NOT NULL,
      line_item_id   INTEGER NOT NULL,
      product_id     INTEGER NOT NULL,
      unit_price     NUMBER(10,2) NOT NULL,
      quantity       INTEGER NOT NULL,
      shipment_id    INTEGER,
      CONSTRAINT order_items_pk PRIMARY KEY ( order_id, line_item_id ),
      CONSTRAINT order_items_order_id_fk FOREIGN KEY (order_id) REFERENCES orders (order_id),
      CONSTRAINT order_items_shipment_id_fk FOREIGN KEY (shipment_id) REFERENCES shipments (shipment_id),
      CONSTRAINT order_items_product_id_fk FOREIGN KEY (product_id) REFERENCES products (product_id),
      CONSTRAINT order_items_product_u UNIQUE ( product_id, order_id ) )""",
    """CREATE TABLE inventory
    ( inventory_id        INTEGER GENERATED BY DEFAULT ON NULL AS IDENTITY,
      store_id            INTEGER NOT NULL,
      product_id          INTEGER NOT NULL,
      product_inventory   INTEGER NOT NULL,
      CONSTRAINT inventory_pk PRIMARY KEY (inventory_id),
      CONSTRAINT inventory_store_product_u UNIQUE (store_id, product_id),
      CONSTRAINT inventory_store_id_fk FOREIGN KEY (store_id) REFERENCES stores (store_id),
      CONSTRAINT inventory_product_id_fk FOREIGN KEY (product_id) REFERENCES products (product_id) )""",
]


@pytest.fixture(scope="module")
def co(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    """The CO schema, filled by co_populate.sql's own INSERT statements (one execute each, as SQL*Plus runs them)."""
    conn = connect(tmp_path_factory.mktemp("fidelity_co"), "CO")
    cur = conn.cursor()
    for ddl in CO_DDL:
        cur.execute(ddl)
    for table in ("customers", "stores", "products", "orders", "shipments", "order_items", "inventory"):
        for insert in CO_DATA[table]["inserts"]:
            cur.execute(insert)
    conn.commit()
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def scott(tmp_path_factory: pytest.TempPathFactory) -> LiteConnection:
    """python-oracledb's tutorial EMP and DEPT, created and filled by setup_tutorial.sql's statements."""
    conn = connect(tmp_path_factory.mktemp("fidelity_scott"), "PYTHONDEMO")
    cur = conn.cursor()
    for statement in TUTORIAL["ddl"] + TUTORIAL["emp"]["inserts"] + TUTORIAL["dept"]["inserts"]:
        cur.execute(statement)
    conn.commit()
    yield conn
    conn.close()


def _sal_rank(rows: list[dict], key: str, dense: bool = False) -> list[int]:
    """RANK()/DENSE_RANK() OVER (ORDER BY key DESC) of each row, by the SQL Reference's definition."""
    values = sorted((r[key] for r in rows), reverse=True)
    distinct = sorted(set(values), reverse=True)
    return [(distinct.index(r[key]) + 1) if dense else (values.index(r[key]) + 1) for r in rows]


_S_BY_NO = sorted(SEMP, key=lambda e: e["empno"])
_DNAME = {d["deptno"]: d["dname"] for d in SDEPT}

SCOTT_CORPUS: list[Item] = [
    Item(TUTORIAL_SQL, "select ename, sal from emp where deptno = 10 order by sal desc",
         Rows([(e["ename"], e["sal"]) for e in sorted(SEMP, key=lambda e: -e["sal"]) if e["deptno"] == 10])),
    Item(TUTORIAL_SQL, "select * from dept order by deptno",
         Rows([(d["deptno"], d["dname"], d["loc"]) for d in SDEPT])),
    Item(TUTORIAL_SQL, "select e.ename, d.dname from emp e join dept d on e.deptno = d.deptno order by e.empno",
         Rows([(e["ename"], _DNAME[e["deptno"]]) for e in _S_BY_NO])),
    Item(TUTORIAL_SQL, "select d.dname, count(e.empno) from dept d left outer join emp e on e.deptno = d.deptno "
                       "group by d.dname order by d.dname",
         Rows(sorted((d["dname"], sum(1 for e in SEMP if e["deptno"] == d["deptno"])) for d in SDEPT))),
    Item(TUTORIAL_SQL, "select ename, sal + nvl(comm, 0) total from emp where job = 'SALESMAN' order by total desc, ename",
         Rows(sorted(((e["ename"], e["sal"] + (e["comm"] or 0)) for e in SEMP if e["job"] == "SALESMAN"),
                     key=lambda r: (-r[1], r[0])))),
    Item(TUTORIAL_SQL, "select job, min(sal), max(sal), avg(sal) from emp group by job order by job",
         Rows([(j, min(s), max(s), sum(s) / len(s)) for j in sorted({e["job"] for e in SEMP})
               for s in [[e["sal"] for e in SEMP if e["job"] == j]]])),
    Item(TUTORIAL_SQL, "select deptno, sum(sal) from emp group by deptno having sum(sal) > 9000 order by deptno",
         Rows([(d, t) for d in sorted({e["deptno"] for e in SEMP})
               if (t := sum(e["sal"] for e in SEMP if e["deptno"] == d)) > 9000])),
    Item(TUTORIAL_SQL, "select ename, sal, rank() over (order by sal desc) from emp order by sal desc, ename",
         Rows(sorted(((e["ename"], e["sal"], r) for e, r in zip(SEMP, _sal_rank(SEMP, "sal"))),
                     key=lambda t: (-t[1], t[0])))),
    Item(TUTORIAL_SQL, "select ename, sal, dense_rank() over (order by sal desc) from emp order by sal desc, ename",
         Rows(sorted(((e["ename"], e["sal"], r) for e, r in zip(SEMP, _sal_rank(SEMP, "sal", dense=True))),
                     key=lambda t: (-t[1], t[0])))),
    Item(TUTORIAL_SQL, "select ename, deptno, sal, sum(sal) over (partition by deptno) from emp order by empno",
         Rows([(e["ename"], e["deptno"], e["sal"], sum(x["sal"] for x in SEMP if x["deptno"] == e["deptno"]))
               for e in _S_BY_NO])),
    Item(TUTORIAL_SQL, "select ename, sal, sum(sal) over (order by empno) from emp order by empno",
         Rows([(e["ename"], e["sal"], sum(x["sal"] for x in _S_BY_NO[:i + 1])) for i, e in enumerate(_S_BY_NO)])),
    Item(TUTORIAL_SQL, "select ename, sal, avg(sal) over (partition by job) from emp where job = 'CLERK' order by ename",
         Rows(sorted((e["ename"], e["sal"], sum(x["sal"] for x in SEMP if x["job"] == "CLERK") / 4)
                     for e in SEMP if e["job"] == "CLERK"))),
    Item(TUTORIAL_SQL, "select w.ename worker, m.ename manager from emp w left outer join emp m on w.mgr = m.empno "
                       "order by w.empno",
         Rows([(e["ename"], next((m["ename"] for m in SEMP if m["empno"] == e["mgr"]), None)) for e in _S_BY_NO])),
    Item(TUTORIAL_SQL, "select ename from emp where sal > (select avg(sal) from emp) order by ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["sal"] > sum(x["sal"] for x in SEMP) / len(SEMP)))),
    Item(TUTORIAL_SQL, "select ename from emp e where sal > (select avg(sal) from emp where deptno = e.deptno) "
                       "order by ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["sal"] > sum(x["sal"] for x in SEMP if x["deptno"] == e["deptno"])
                     / sum(1 for x in SEMP if x["deptno"] == e["deptno"])))),
    Item(TUTORIAL_SQL, "select dname from dept d where not exists (select 1 from emp e where e.deptno = d.deptno)",
         Rows([("OPERATIONS",)])),
    Item(TUTORIAL_SQL, "select ename, hiredate from emp where hiredate between to_date('01-JAN-1981', 'DD-MON-YYYY') "
                       "and to_date('31-MAR-1981', 'DD-MON-YYYY') order by hiredate",
         Rows([(e["ename"], e["hiredate"]) for e in sorted(SEMP, key=lambda e: e["hiredate"])
               if D(1981, 1, 1) <= e["hiredate"] <= D(1981, 3, 31)])),
    Item(TUTORIAL_SQL, "select to_char(hiredate, 'YYYY') yr, count(*) from emp group by to_char(hiredate, 'YYYY') "
                       "order by yr",
         Rows(sorted((str(y), sum(1 for e in SEMP if e["hiredate"].year == y)) for y in {e["hiredate"].year for e in SEMP}))),
    Item(TUTORIAL_SQL, "select ename, to_char(hiredate, 'DD-MON-YYYY') from emp where empno = 7566",
         Rows([("JONES", "02-APR-1981")])),
    Item(TUTORIAL_SQL, "select ename, to_char(hiredate, 'fmDD Month YYYY') from emp where empno = 7566",
         Rows([("JONES", "2 April 1981")])),
    Item(TUTORIAL_SQL, "select ename, to_char(sal, '$99,999.00') from emp where empno = 7839",
         Rows([("KING", "  $5,000.00")])),
    Item(TUTORIAL_SQL, "select ename, decode(job, 'CLERK', 'C', 'MANAGER', 'M', 'other') from emp "
                       "where deptno = 10 order by empno",
         Rows([(e["ename"], {"CLERK": "C", "MANAGER": "M"}.get(e["job"], "other")) for e in _S_BY_NO if e["deptno"] == 10])),
    Item(TUTORIAL_SQL, "select ename, comm from emp where comm is not null order by comm nulls last",
         Rows([(e["ename"], e["comm"]) for e in sorted(SEMP, key=lambda e: e["comm"] or 0) if e["comm"] is not None])),
    Item(TUTORIAL_SQL, "select ename, comm from emp order by comm desc, ename fetch first 3 rows only",
         # DESC puts NULLs first (Oracle's default)
         Rows([(e["ename"], e["comm"]) for e in sorted(SEMP, key=lambda e: (e["comm"] is not None,
                                                                            -(e["comm"] or 0), e["ename"]))[:3]])),
    Item(TUTORIAL_SQL, "select deptno, listagg(ename, ',') within group (order by ename) from emp group by deptno "
                       "order by deptno",
         Rows([(d, ",".join(sorted(e["ename"] for e in SEMP if e["deptno"] == d))) for d in (10, 20, 30)])),
    Item(TUTORIAL_SQL, "select count(*), count(comm), count(distinct job), sum(comm) from emp",
         Rows([(14, sum(1 for e in SEMP if e["comm"] is not None), len({e["job"] for e in SEMP}),
                sum(e["comm"] for e in SEMP if e["comm"] is not None))])),
    Item(TUTORIAL_SQL, "select ename from emp where ename like '_A%' order by ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["ename"][1] == "A"))),
    Item(TUTORIAL_SQL, "select ename from emp where job in ('ANALYST', 'PRESIDENT') order by ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["job"] in ("ANALYST", "PRESIDENT")))),
    Item(TUTORIAL_SQL, "select deptno from dept minus select deptno from emp", Rows([(40,)])),
    Item(TUTORIAL_SQL, "select deptno from dept intersect select deptno from emp order by 1",
         Rows([(10,), (20,), (30,)])),
    Item(TUTORIAL_SQL, "select job from emp where deptno = 10 union select job from emp where deptno = 20 order by 1",
         Rows(sorted((j,) for j in {e["job"] for e in SEMP if e["deptno"] in (10, 20)}))),
    Item(TUTORIAL_SQL, "select job from emp where deptno = 10 union all select job from emp where deptno = 20",
         Rows([(e["job"],) for e in SEMP if e["deptno"] in (10, 20)], ordered=False)),
    Item(TUTORIAL_SQL, "select ename, lag(ename) over (order by hiredate), lead(sal, 1, 0) over (order by hiredate) "
                       "from emp where deptno = 10 order by hiredate",
         Rows([(r[i]["ename"], r[i - 1]["ename"] if i else None, r[i + 1]["sal"] if i + 1 < len(r) else 0)
               for r in [sorted((e for e in SEMP if e["deptno"] == 10), key=lambda e: e["hiredate"])]
               for i in range(len(r))])),
    Item(TUTORIAL_SQL, "select ename, row_number() over (partition by deptno order by sal desc, ename) rn from emp "
                       "order by deptno, rn",
         Rows([(e["ename"], i + 1) for d in (10, 20, 30) for i, e in enumerate(
             sorted((e for e in SEMP if e["deptno"] == d), key=lambda e: (-e["sal"], e["ename"])))])),
    Item(TUTORIAL_SQL, "select * from (select ename, sal, row_number() over (order by sal desc, ename) rn from emp) "
                       "where rn <= 3 order by rn",
         Rows([(e["ename"], e["sal"], i + 1) for i, e in enumerate(sorted(SEMP, key=lambda e: (-e["sal"], e["ename"]))[:3])])),
    Item(TUTORIAL_SQL, "select ename, first_value(ename) over (partition by deptno order by hiredate) from emp "
                       "where deptno = 20 order by empno",
         Rows([(e["ename"], min((x for x in SEMP if x["deptno"] == 20), key=lambda x: x["hiredate"])["ename"])
               for e in _S_BY_NO if e["deptno"] == 20])),
    Item(TUTORIAL_SQL, "select ename, ntile(4) over (order by sal desc, empno) from emp where deptno = 30 order by 2, 1",
         # NTILE(4) of 6 rows: buckets of 2, 2, 1, 1
         Rows(sorted(((e["ename"], b) for e, b in zip(sorted((e for e in SEMP if e["deptno"] == 30),
                                                             key=lambda e: (-e["sal"], e["empno"])), [1, 1, 2, 2, 3, 4])),
                     key=lambda r: (r[1], r[0])))),
    Item(TUTORIAL_SQL, "select ename, case when comm is null then 'none' when comm = 0 then 'zero' else 'some' end "
                       "from emp where deptno = 30 order by empno",
         Rows([(e["ename"], "none" if e["comm"] is None else "zero" if e["comm"] == 0 else "some")
               for e in _S_BY_NO if e["deptno"] == 30])),
    Item(TUTORIAL_SQL, "select ename, months_between(date '1983-01-12', hiredate) from emp where empno = 7876",
         Rows([("ADAMS", 0)])),
    Item(TUTORIAL_SQL, "select ename, add_months(hiredate, 6), last_day(hiredate) from emp where empno = 7369",
         Rows([("SMITH", D(1981, 6, 17), D(1980, 12, 31))])),
    Item(TUTORIAL_SQL, "select ename, hiredate + 30, hiredate - date '1980-12-01' from emp where empno = 7369",
         Rows([("SMITH", D(1981, 1, 16), 16)])),
    Item(TUTORIAL_SQL, "select ename, extract(year from hiredate), extract(day from hiredate) from emp where empno = 7934",
         Rows([("MILLER", 1982, 23)])),
    Item(TUTORIAL_SQL, "select lower(ename), initcap(job), length(ename), substr(ename, 2, 3) from emp where empno = 7654",
         Rows([("martin", "Salesman", 6, "ART")])),
    Item(TUTORIAL_SQL, "select ename || ' (' || job || ')' from emp where empno = 7788", Rows([("SCOTT (ANALYST)",)])),
    Item(TUTORIAL_SQL, "select lpad(ename, 8, '.'), rpad(ename, 8, '-') from emp where empno = 7521",
         Rows([("....WARD", "WARD----")])),
    Item(TUTORIAL_SQL, "select deptno, round(avg(sal), 2), trunc(avg(sal)) from emp group by deptno order by deptno",
         Rows([(d, round(a + 1e-9, 2), math.trunc(a)) for d in (10, 20, 30)
               for a in [sum(e["sal"] for e in SEMP if e["deptno"] == d) / sum(1 for e in SEMP if e["deptno"] == d)]])),
    Item(TUTORIAL_SQL, "select ename from emp where mgr is null", Rows([("KING",)])),
    Item(TUTORIAL_SQL, "select ename from emp where empno = :1", Rows([("FORD",)]), binds=(7902,)),
    Item(TUTORIAL_SQL, "select ename from emp where deptno = :dept and sal >= :sal order by ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["deptno"] == 20 and e["sal"] >= 2000)),
         binds={"dept": 20, "sal": 2000}),
    Item(TUTORIAL_SQL, "with d as (select deptno, max(sal) m from emp group by deptno) "
                       "select e.ename from emp e join d on e.deptno = d.deptno and e.sal = d.m order by e.ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["sal"] == max(x["sal"] for x in SEMP if x["deptno"] == e["deptno"])))),
    Item(TUTORIAL_SQL, "with chain (empno, ename, lvl) as (select empno, ename, 1 from emp where mgr is null "
                       "union all select e.empno, e.ename, c.lvl + 1 from emp e join chain c on e.mgr = c.empno) "
                       "select lvl, count(*) from chain group by lvl order by lvl",
         Rows([(1, 1), (2, 3), (3, 8), (4, 2)])),
    Item(TUTORIAL_SQL, "select ename, level from emp start with mgr is null connect by prior empno = mgr",
         Rows([(e["ename"], level) for e, level, _ in hierarchy(SEMP, "empno", "mgr", lambda e: e["mgr"] is None)],
              ordered=False)),
    Item(TUTORIAL_SQL, "select ename, sys_connect_by_path(ename, '/') from emp start with mgr is null "
                       "connect by prior empno = mgr",
         Rows([(e["ename"], "".join("/" + a["ename"] for a in chain))
               for e, _, chain in hierarchy(SEMP, "empno", "mgr", lambda e: e["mgr"] is None)], ordered=False)),
    Item(TUTORIAL_SQL, "select deptno, job, sum(sal) from emp group by rollup (deptno, job)",
         Rows(grouped(SEMP, [("deptno", "job"), ("deptno",), ()], ("deptno", "job"),
                      lambda rows: sum(e["sal"] for e in rows)), ordered=False)),
    Item(TUTORIAL_SQL, "select deptno, job, sum(sal) from emp group by cube (deptno, job)",
         Rows(grouped(SEMP, [("deptno", "job"), ("deptno",), ("job",), ()], ("deptno", "job"),
                      lambda rows: sum(e["sal"] for e in rows)), ordered=False)),
    Item(TUTORIAL_SQL, "select rownum, ename from (select ename, sal from emp order by sal desc, ename) "
                       "where rownum <= 3",
         Rows([(i + 1, e["ename"]) for i, e in enumerate(sorted(SEMP, key=lambda e: (-e["sal"], e["ename"]))[:3])])),
    Item(TUTORIAL_SQL, "select ename from (select a.*, rownum rnum from (select ename from emp order by empno) a "
                       "where rownum <= :last) where rnum >= :first",
         Rows([(e["ename"],) for e in sorted(SEMP, key=lambda e: e["empno"])[4:8]]), binds={"first": 5, "last": 8}),
    Item(TUTORIAL_SQL, "select d.dname, (select e.ename from emp e where e.deptno = d.deptno and rownum = 1) "
                       "from dept d where d.deptno = 40", Rows([("OPERATIONS", None)])),
    Item(TUTORIAL_SQL, "select count(*) from emp where rownum <= 3", Refused("ORA-03001", "aggregate function")),
    Item(TUTORIAL_SQL, "select ename from emp where rownum <= 3 or deptno = 10", Refused("ORA-03001", "ROWNUM")),
    Item(TUTORIAL_SQL, "select e.ename, d.dname from emp e, dept d where e.deptno = d.deptno(+)",
         Rows([(e["ename"], next(d["dname"] for d in SDEPT if d["deptno"] == e["deptno"])) for e in SEMP],
              ordered=False)),
    Item(TUTORIAL_SQL, "select d.dname, e.ename from emp e, dept d where e.deptno(+) = d.deptno and d.deptno = 40",
         Rows([("OPERATIONS", None)])),
    Item(TUTORIAL_SQL, "select e.ename from emp e, dept d where e.deptno = d.deptno(+) or e.sal > 1000",
         Refused("ORA-01719")),
    Item(TUTORIAL_SQL, "select e.ename, d.dname from emp e, dept d where e.deptno = d.deptno and e.empno = 7839",
         Rows([("KING", "ACCOUNTING")])),
    Item(TUTORIAL_SQL, "select ename from emp natural join dept where loc = 'DALLAS' order by ename",
         Rows(sorted((e["ename"],) for e in SEMP if e["deptno"] == 20))),
    Item(TUTORIAL_SQL, "select ename, dname from emp join dept using (deptno) where empno = 7499",
         Rows([("ALLEN", "SALES")])),
    Item(TUTORIAL_SQL, "select e.ename, d.deptno from emp e join dept d using (deptno)",
         Refused("ORA-25154", "USING")),   # was accepted
    Item(TUTORIAL_SQL, "select count(*) from emp cross join dept", Rows([(56,)])),
    Item(TUTORIAL_SQL, "select d.dname, e.ename from dept d full outer join emp e on e.deptno = d.deptno "
                       "where e.ename is null", Rows([("OPERATIONS", None)])),
    # Oracle refuses these
    Item(TUTORIAL_SQL, "select ename, sal from emp group by deptno", Refused("ORA-00979")),
    Item(TUTORIAL_SQL, "select deptno, avg(sal) from emp", Refused("ORA-00937")),
    Item(TUTORIAL_SQL, "select ename from emp where sal > avg(sal)", Refused("ORA-00934")),
    Item(TUTORIAL_SQL, "select enam from emp", Refused("ORA-00904", "ENAM")),
    Item(TUTORIAL_SQL, "select ename from empl", Refused("ORA-00942")),
    Item(TUTORIAL_SQL, "select ename from emp where hiredate > 'yesterday'", Refused("ORA-01858")),
    Item(TUTORIAL_SQL, "select ename from emp where empno = 'x'", Refused("ORA-01722")),
    Item(TUTORIAL_SQL, "select deptno from emp e join dept d on e.deptno = d.deptno", Refused("ORA-00918", "DEPTNO")),
    Item(TUTORIAL_SQL, "select ename from emp where sal > (select sal from emp where deptno = 30)",
         Refused("ORA-01427")),
    Item(TUTORIAL_SQL, "select ename from emp order by 3", Refused("ORA-01785")),
    Item(TUTORIAL_SQL, "select ename, sal from emp union select dname from dept", Refused("ORA-01789")),
    Item(TUTORIAL_SQL, "select ename from emp union select deptno from dept", Refused("ORA-01790")),
    Item(TUTORIAL_SQL, "insert into dept values (50, 'A NAME TOO LONG!', 'X')", Refused("ORA-12899", "maximum: 14")),
    Item(TUTORIAL_SQL, "insert into dept values (100, 'X', 'Y')", Refused("ORA-01438")),
    Item(TUTORIAL_SQL, "insert into dept values (50, 'X')", Refused("ORA-00947")),
    Item(TUTORIAL_SQL, "insert into dept values (50, 'X', 'Y', 'Z')", Refused("ORA-00913")),
    Item(TUTORIAL_SQL, "insert into emp (ename) values ('NOBODY')", Refused("ORA-01400", "EMPNO")),
    Item(TUTORIAL_SQL, "update emp set sal = sal * 1.1 where deptno = 20", Rows([])),
    Item(TUTORIAL_SQL, "delete from emp where deptno = 10", Rows([])),
    Item(TUTORIAL_SQL, "select ename from emp where comm = null", Rows([])),
    Item(TUTORIAL_SQL, "select nvl(comm, 'none') from emp", Refused("ORA-01722")),
    Item(TUTORIAL_SQL, "select to_char(hiredate, 'YYYY-MM-DD') from emp where empno = 7900", Rows([("1981-12-03",)])),
    Item(TUTORIAL_SQL, "select count(*) from emp where hiredate = to_date('03-DEC-1981', 'DD-MON-YYYY')", Rows([(2,)])),
    Item(TUTORIAL_SQL, "select count(*) from emp where hiredate < '01-JAN-81'", Rows([(1,)])),
    Item(TUTORIAL_SQL, "select sal * 12 + nvl(comm, 0) from emp where empno = 7654", Rows([(1250 * 12 + 1400,)])),
    Item(TUTORIAL_SQL, "select max(ename) keep (dense_rank first order by sal desc) from emp",
         Rows([(keep(SEMP, "ename", max, "sal", desc=True),)])),
    Item(TUTORIAL_SQL, "select median(sal) from emp",
         Rows([(sorted(e["sal"] for e in SEMP)[6] / 2 + sorted(e["sal"] for e in SEMP)[7] / 2,)])),
    Item(TUTORIAL_SQL, "select deptno, median(sal) from emp group by deptno order by deptno",
         Rows([(d, (v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2))
               for d in (10, 20, 30) for v in [sorted(e["sal"] for e in SEMP if e["deptno"] == d)]])),
    Item(TUTORIAL_SQL, "select stddev(sal) from emp", Rows([(statistics.stdev(e["sal"] for e in SEMP),)])),
    Item(TUTORIAL_SQL, "select ename, sal, cume_dist() over (order by sal) from emp where deptno = 20 order by sal, ename",
         Rows(sorted(((e["ename"], e["sal"], sum(1 for x in SEMP if x["deptno"] == 20 and x["sal"] <= e["sal"]) / 5)
                      for e in SEMP if e["deptno"] == 20), key=lambda r: (r[1], r[0])))),
    Item(TUTORIAL_SQL, "select ename, percent_rank() over (order by sal) from emp where deptno = 10 order by sal",
         Rows([(e["ename"], i / 2) for i, e in enumerate(sorted((e for e in SEMP if e["deptno"] == 10),
                                                                 key=lambda e: e["sal"]))])),
    Item(TUTORIAL_SQL, "select ename from emp where exists (select 1 from dept where dept.deptno = emp.deptno "
                       "and loc = 'NEW YORK') order by 1",
         Rows(sorted((e["ename"],) for e in SEMP if e["deptno"] == 10))),
    Item(TUTORIAL_SQL, "select ename from emp where (deptno, job) in (select deptno, job from emp where ename = 'FORD') "
                       "order by 1", Rows([("FORD",), ("SCOTT",)])),
    Item(TUTORIAL_SQL, "select ename, sal from emp where sal between 1000 and 1500 order by sal, ename",
         Rows(sorted(((e["ename"], e["sal"]) for e in SEMP if 1000 <= e["sal"] <= 1500), key=lambda r: (r[1], r[0])))),
    Item(TUTORIAL_SQL, "select distinct deptno, job from emp where deptno = 30",
         Rows([(30, j) for j in {e["job"] for e in SEMP if e["deptno"] == 30}], ordered=False)),
    Item(TUTORIAL_SQL, "select greatest(sal, nvl(comm, 0)), least(sal, comm) from emp where empno = 7654",
         Rows([(1400, 1250)])),
    Item(TUTORIAL_SQL, "select sum(case when deptno = 10 then sal end), sum(case when deptno = 20 then sal else 0 end) "
                       "from emp",
         Rows([(sum(e["sal"] for e in SEMP if e["deptno"] == 10), sum(e["sal"] for e in SEMP if e["deptno"] == 20))])),
    Item(TUTORIAL_SQL, "select * from (select deptno, job, sal from emp) pivot (sum(sal) for deptno in (10, 20, 30))",
         Rows([(job, *[sum(e["sal"] for e in SEMP if e["job"] == job and e["deptno"] == d) or None
                       for d in (10, 20, 30)]) for job in {e["job"] for e in SEMP}], ordered=False)),
    Item(TUTORIAL_SQL, "select * from (select job, deptno from emp) pivot (count(*) as n for job in "
                       "('CLERK' as clerks, 'MANAGER' as managers)) order by deptno",
         Rows([(d, sum(1 for e in SEMP if e["deptno"] == d and e["job"] == "CLERK"),
                sum(1 for e in SEMP if e["deptno"] == d and e["job"] == "MANAGER"))
               for d in sorted({e["deptno"] for e in SEMP})])),
]

_ITEMS_BY_ORDER = {o["order_id"]: [i for i in ORDER_ITEMS if i["order_id"] == o["order_id"]] for o in ORDERS}


def _order_total(order_id: int) -> float:
    return round(sum(i["quantity"] * i["unit_price"] for i in _ITEMS_BY_ORDER[order_id]), 2)


CO_CORPUS: list[Item] = [
    # co_create.sql's views: the SELECT of CUSTOMER_ORDER_PRODUCTS (LISTAGG ... ON OVERFLOW TRUNCATE WITH COUNT)
    Item(CO_SCHEMA, """SELECT o.order_id, o.order_tms, o.order_status,
         c.customer_id, c.email_address, c.full_name,
         SUM ( oi.quantity * oi.unit_price ) order_total,
         LISTAGG (
           p.product_name, ', '
           ON OVERFLOW TRUNCATE '...' WITH COUNT
         ) WITHIN GROUP ( ORDER BY oi.line_item_id ) items
  FROM   orders o
  JOIN   order_items oi
  ON     o.order_id = oi.order_id
  JOIN   customers c
  ON     o.customer_id = c.customer_id
  JOIN   products p
  ON     oi.product_id = p.product_id
  GROUP  BY o.order_id, o.order_tms, o.order_status,
         c.customer_id, c.email_address, c.full_name""",
         Rows([(o["order_id"], o["order_tms"], o["order_status"], o["customer_id"],
                CUSTOMER_BY_ID[o["customer_id"]]["email_address"], CUSTOMER_BY_ID[o["customer_id"]]["full_name"],
                _order_total(o["order_id"]),
                ", ".join(PRODUCT_BY_ID[i["product_id"]]["product_name"]
                          for i in sorted(_ITEMS_BY_ORDER[o["order_id"]], key=lambda i: i["line_item_id"])))
               for o in ORDERS if _ITEMS_BY_ORDER[o["order_id"]]], ordered=False)),
    # PRODUCT_ORDERS
    Item(CO_SCHEMA, """SELECT p.product_name, o.order_status,
         SUM ( oi.quantity * oi.unit_price ) total_sales,
         COUNT (*) order_count
  FROM   orders o
  JOIN   order_items oi
  ON     o.order_id = oi.order_id
  JOIN   customers c
  ON     o.customer_id = c.customer_id
  JOIN   products p
  ON     oi.product_id = p.product_id
  GROUP  BY p.product_name, o.order_status""",
         Rows([(name, status, round(sum(i["quantity"] * i["unit_price"] for i in grp), 2), len(grp))
               for name, status, grp in [
                   (n, s, [i for i in ORDER_ITEMS if PRODUCT_BY_ID[i["product_id"]]["product_name"] == n
                           and next(o for o in ORDERS if o["order_id"] == i["order_id"])["order_status"] == s])
                   for n, s in {(PRODUCT_BY_ID[i["product_id"]]["product_name"],
                                 next(o for o in ORDERS if o["order_id"] == i["order_id"])["order_status"])
                                for i in ORDER_ITEMS}]], ordered=False)),
    # STORE_ORDERS (GROUPING SETS with GROUPING_ID) and PRODUCT_REVIEWS (JSON_TABLE ... NESTED PATH) run
    Item(CO_SCHEMA, """SELECT CASE
           grouping_id ( store_name, order_status )
           WHEN 1 THEN 'STORE TOTAL'
           WHEN 2 THEN 'STATUS TOTAL'
           WHEN 3 THEN 'GRAND TOTAL'
         END total,
         s.store_name,
         COALESCE ( s.web_address, s.physical_address ) address,
         s.latitude, s.longitude,
         o.order_status,
         COUNT ( DISTINCT o.order_id ) order_count,
         SUM ( oi.quantity * oi.unit_price ) total_sales
  FROM   stores s
  JOIN   orders o
  ON     s.store_id = o.store_id
  JOIN   order_items oi
  ON     o.order_id = oi.order_id
  GROUP  BY GROUPING SETS (
    ( s.store_name, COALESCE ( s.web_address, s.physical_address ), s.latitude, s.longitude ),
    ( s.store_name, COALESCE ( s.web_address, s.physical_address ), s.latitude, s.longitude, o.order_status ),
    o.order_status,
    ()
  )""", Rows(store_orders(), ordered=False)),
    Item(CO_SCHEMA, """SELECT p.product_name, r.rating,
         ROUND (
           AVG ( r.rating ) over (
             PARTITION BY product_name
           ),
           2
         ) avg_rating,
         r.review
  FROM   products p,
         JSON_TABLE (
           p.product_details, '$'
           COLUMNS (
             NESTED PATH '$.reviews[*]'
             COLUMNS (
               rating INTEGER PATH '$.rating',
               review VARCHAR2(4000) PATH '$.review'
             )
           )
         ) r""", Rows(product_reviews(), ordered=False)),
    # a view (DDL commits: the corpus drops it again, so the other items meet the tables alone)
    Item(CO_SCHEMA, "CREATE OR REPLACE VIEW product_names AS SELECT product_id, product_name FROM products", Rows([])),
    Item(CO_SCHEMA, "SELECT COUNT(*) FROM product_names", Rows([(len(PRODUCTS),)])),
    Item(CO_SCHEMA, "SELECT view_name FROM user_views", Rows([("PRODUCT_NAMES",)])),
    Item(CO_SCHEMA, "DROP VIEW product_names", Rows([])),
    # the data as loaded: identity ON NULL columns, TIMESTAMP rounding of FF9 literals, the JSON documents
    Item(CO_SCHEMA, "SELECT order_id, order_tms FROM orders WHERE order_id <= 5 ORDER BY order_id",
         Rows([(o["order_id"], o["order_tms"]) for o in ORDERS if o["order_id"] <= 5])),
    Item(CO_SCHEMA, "SELECT COUNT(*), MIN(inventory_id), MAX(inventory_id) FROM inventory",
         Rows([(len(INVENTORY), 1, len(INVENTORY))])),   # ON NULL identity numbered the rows 1..n
    Item(CO_SCHEMA, "INSERT INTO customers (customer_id, email_address, full_name) VALUES (NULL, 'x@y', 'X Y')",
         Rows([])),   # ON NULL: an explicit NULL takes the identity's next value
    Item(CO_SCHEMA, "SELECT product_name, JSON_VALUE(product_details, '$.colour'), "
                    "JSON_VALUE(product_details, '$.brand') FROM products WHERE product_id IN (1, 2) ORDER BY 1",
         Rows(sorted((p["product_name"], json.loads(p["product_details"] or "{}").get("colour"),
                      json.loads(p["product_details"] or "{}").get("brand")) for p in PRODUCTS if p["product_id"] in (1, 2)))),
    Item(CO_SCHEMA, "SELECT COUNT(*) FROM products WHERE JSON_EXISTS(product_details, '$.reviews[0]')",
         Rows([(sum(1 for p in PRODUCTS if json.loads(p["product_details"] or "{}").get("reviews")),)])),
    Item(CO_SCHEMA, "SELECT product_id FROM products WHERE JSON_VALUE(product_details, '$.gender') = 'Girl''s' "
                    "ORDER BY product_id",
         Rows([(p["product_id"],) for p in PRODUCTS if json.loads(p["product_details"] or "{}").get("gender") == "Girl's"])),
    Item(CO_SCHEMA, "SELECT JSON_QUERY(product_details, '$.sizes') FROM products WHERE product_id = 2",
         Rows([(json.dumps(json.loads(PRODUCT_BY_ID[2]["product_details"])["sizes"], separators=(",", ":")),)])),
    Item(CO_SCHEMA, "SELECT JSON_VALUE(product_details, '$.reviews[0].rating' RETURNING NUMBER) FROM products "
                    "WHERE product_id = 2",
         Rows([(json.loads(PRODUCT_BY_ID[2]["product_details"])["reviews"][0]["rating"],)])),
    # Oracle reads dot notation on a CLOB with an IS JSON check constraint; lite only on a JSON column
    # (docs/lite-engine.md, known differences): a refusal naming the column
    Item(CO_SCHEMA, "SELECT p.product_details.brand FROM products p WHERE p.product_id = 1",
         Refused("ORA-00904", "PRODUCT_DETAILS")),
    Item(CO_SCHEMA, "SELECT COUNT(*) FROM products WHERE product_details IS JSON",   # NULL IS JSON is not true
         Rows([(sum(1 for p in PRODUCTS if p["product_details"] is not None),)])),
    Item(CO_SCHEMA, "INSERT INTO products (product_name, unit_price, product_details) VALUES ('Bad', 1, '{oops')",
         Refused("ORA-02290", "PRODUCTS_JSON_C")),
    Item(CO_SCHEMA, "INSERT INTO orders (order_tms, customer_id, order_status, store_id) "
                    "VALUES (SYSTIMESTAMP, 3, 'LOST', 1)", Refused("ORA-02290", "ORDERS_STATUS_C")),
    Item(CO_SCHEMA, "INSERT INTO orders (order_tms, customer_id, order_status, store_id) "
                    "VALUES (SYSTIMESTAMP, 99999, 'OPEN', 1)", Refused("ORA-02291")),
    Item(CO_SCHEMA, "INSERT INTO stores (store_name) VALUES ('Nowhere')",
         Refused("ORA-02290", "STORE_AT_LEAST_ONE_ADDRESS_C")),
    Item(CO_SCHEMA, "INSERT INTO customers (email_address, full_name) VALUES ('tammy.bryant@internalmail', 'T')",
         Refused("ORA-00001")),
    Item(CO_SCHEMA, "INSERT INTO order_items (order_id, line_item_id, product_id, unit_price, quantity) "
                    "VALUES (1, 1, 1, 1, 1)", Refused("ORA-00001")),
    Item(CO_SCHEMA, "DELETE FROM customers WHERE customer_id = 3", Refused("ORA-02292")),
    Item(CO_SCHEMA, "SELECT store_name, COALESCE(web_address, physical_address) FROM stores WHERE store_id <= 2 "
                    "ORDER BY store_id",
         Rows([(s["store_name"], s["web_address"] or s["physical_address"]) for s in STORES if s["store_id"] <= 2])),
    Item(CO_SCHEMA, "SELECT store_name, latitude, longitude FROM stores WHERE latitude > 40 ORDER BY latitude DESC",
         Rows([(s["store_name"], s["latitude"], s["longitude"])
               for s in sorted(STORES, key=lambda s: -(s["latitude"] or 0)) if (s["latitude"] or 0) > 40])),
    Item(CO_SCHEMA, "SELECT order_status, COUNT(*) FROM orders GROUP BY order_status ORDER BY order_status",
         Rows(sorted((s, sum(1 for o in ORDERS if o["order_status"] == s)) for s in {o["order_status"] for o in ORDERS}))),
    Item(CO_SCHEMA, "SELECT TRUNC(order_tms), COUNT(*) FROM orders GROUP BY TRUNC(order_tms) ORDER BY 1 "
                    "FETCH FIRST 3 ROWS ONLY",
         Rows(sorted((d, sum(1 for o in ORDERS if o["order_tms"].date() == d.date()))
                     for d in {dt.datetime.combine(o["order_tms"].date(), dt.time()) for o in ORDERS})[:3])),
    Item(CO_SCHEMA, "SELECT TO_CHAR(order_tms, 'YYYY-MM-DD HH24:MI:SS.FF3') FROM orders WHERE order_id = 1",
         Rows([(f"{ORDERS[0]['order_tms']:%Y-%m-%d %H:%M:%S}.{ORDERS[0]['order_tms'].microsecond // 1000:03d}",)])),
    Item(CO_SCHEMA, "SELECT c.full_name, COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.customer_id "
                    "GROUP BY c.full_name HAVING COUNT(*) > 1 ORDER BY 2 DESC, 1",
         Rows(sorted(((CUSTOMER_BY_ID[c]["full_name"], n) for c in {o["customer_id"] for o in ORDERS}
                      if (n := sum(1 for o in ORDERS if o["customer_id"] == c)) > 1), key=lambda r: (-r[1], r[0])))),
    Item(CO_SCHEMA, "SELECT o.order_id, SUM(oi.quantity * oi.unit_price) FROM orders o JOIN order_items oi "
                    "ON oi.order_id = o.order_id GROUP BY o.order_id ORDER BY 2 DESC, 1 FETCH FIRST 5 ROWS ONLY",
         Rows(sorted(((o, _order_total(o)) for o in _ITEMS_BY_ORDER if _ITEMS_BY_ORDER[o]),
                     key=lambda r: (-r[1], r[0]))[:5])),
    Item(CO_SCHEMA, "SELECT product_name FROM products p WHERE NOT EXISTS (SELECT 1 FROM order_items oi "
                    "WHERE oi.product_id = p.product_id) ORDER BY 1",
         Rows(sorted((p["product_name"],) for p in PRODUCTS if p["product_id"] not in {i["product_id"] for i in ORDER_ITEMS}))),
    Item(CO_SCHEMA, "SELECT s.shipment_status, COUNT(DISTINCT oi.order_id) FROM shipments s JOIN order_items oi "
                    "ON oi.shipment_id = s.shipment_id GROUP BY s.shipment_status ORDER BY 1",
         Rows(sorted((st, len({i["order_id"] for i in ORDER_ITEMS for s in SHIPMENTS
                               if i["shipment_id"] == s["shipment_id"] and s["shipment_status"] == st}))
                     for st in {s["shipment_status"] for s in SHIPMENTS}))),
    Item(CO_SCHEMA, "SELECT store_id, SUM(product_inventory) FROM inventory GROUP BY store_id ORDER BY store_id",
         Rows([(s, sum(i["product_inventory"] for i in INVENTORY if i["store_id"] == s)) for s in (1, 2, 3)])),
    Item(CO_SCHEMA, "SELECT email_address FROM customers WHERE full_name = 'Tammy Bryant'",
         Rows([("tammy.bryant@internalmail",)])),
    Item(CO_SCHEMA, "SELECT MAX(unit_price), MIN(unit_price), ROUND(AVG(unit_price), 2) FROM products",
         Rows([(max(p["unit_price"] for p in PRODUCTS), min(p["unit_price"] for p in PRODUCTS),
                round(sum(p["unit_price"] for p in PRODUCTS) / len(PRODUCTS) + 1e-9, 2))])),
    Item(CO_SCHEMA, "SELECT product_name FROM products WHERE UPPER(product_name) LIKE '%SHIRT%' ORDER BY 1",
         Rows(sorted((p["product_name"],) for p in PRODUCTS if "SHIRT" in p["product_name"].upper()))),
    Item(CO_SCHEMA, "SELECT product_name FROM products WHERE REGEXP_LIKE(product_name, '\\((Red|Blue)\\)$') ORDER BY 1",
         Rows(sorted((p["product_name"],) for p in PRODUCTS if p["product_name"].endswith(("(Red)", "(Blue)"))))),
    Item(CO_SCHEMA, "SELECT EXTRACT(MONTH FROM order_tms), COUNT(*) FROM orders GROUP BY EXTRACT(MONTH FROM order_tms) "
                    "ORDER BY 1",
         Rows(sorted((m, sum(1 for o in ORDERS if o["order_tms"].month == m)) for m in {o["order_tms"].month for o in ORDERS}))),
    Item(CO_SCHEMA, "UPDATE orders SET order_status = 'SHIPPED' WHERE order_id = 1", Rows([])),
    Item(CO_SCHEMA, "TRUNCATE TABLE customers", Refused("ORA-02266")),
    Item(CO_SCHEMA, "ALTER TABLE customers ADD CONSTRAINT customers_pk PRIMARY KEY (customer_id)",
         Refused("ORA-02264", "CUSTOMERS_PK")),   # co_create.sql added it already
    Item(CO_SCHEMA, "SELECT JSON_ARRAYAGG(order_id ORDER BY order_id) FROM orders WHERE customer_id = 3",
         Rows([("[" + ",".join(str(o["order_id"]) for o in ORDERS if o["customer_id"] == 3) + "]",)])),
    Item(CO_SCHEMA, "SELECT JSON_OBJECT('id' VALUE customer_id, 'name' VALUE full_name) FROM customers "
                    "WHERE customer_id = 1", Rows([('{"id":1,"name":"Tammy Bryant"}',)])),
    Item(CO_SCHEMA, "SELECT JSON_QUERY(product_details, '$.reviews[*].rating' WITH WRAPPER) FROM products "
                    "WHERE product_id = 2",
         Rows([("[" + ",".join(str(r["rating"]) for r in json.loads(PRODUCT_BY_ID[2]["product_details"])["reviews"])
                + "]",)])),
]

# The SQL Language Reference's own examples that run on DUAL, with the results the reference prints.
DOC_CORPUS: list[Item] = [
    Item(SQL_REF, "SELECT SUBSTR('ABCDEFG',3,4) \"Substring\" FROM DUAL", Rows([("CDEF",)])),
    Item(SQL_REF, "SELECT SUBSTR('ABCDEFG',-5,4) \"Substring\" FROM DUAL", Rows([("CDEF",)])),
    Item(SQL_REF, "SELECT LPAD('Page 1',15,'*.') \"LPAD example\" FROM DUAL", Rows([("*.*.*.*.*Page 1",)])),
    Item(SQL_REF, "SELECT RPAD('Page 1',15,'*.') FROM DUAL", Rows([("Page 1*.*.*.*.*",)])),
    Item(SQL_REF, "SELECT LTRIM('<=====>BROWNING<=====>', '<>=') \"LTRIM Example\" FROM DUAL",
         Rows([("BROWNING<=====>",)])),
    Item(SQL_REF, "SELECT RTRIM('<=====>BROWNING<=====>', '<>=') \"RTRIM Example\" FROM DUAL",
         Rows([("<=====>BROWNING",)])),
    Item(SQL_REF, "SELECT TRIM(LEADING 0 FROM '0009872348900') FROM DUAL", Rows([("9872348900",)])),
    Item(SQL_REF, "SELECT TRIM(TRAILING '0' FROM '0009872348900') FROM DUAL", Rows([("00098723489",)])),
    Item(SQL_REF, "SELECT INITCAP('the soap') \"Capitals\" FROM DUAL", Rows([("The Soap",)])),
    Item(SQL_REF, "SELECT LOWER('MR. SCOTT MCMILLAN') \"Lowercase\" FROM DUAL", Rows([("mr. scott mcmillan",)])),
    Item(SQL_REF, "SELECT LENGTH('CANDIDE') \"Length in characters\" FROM DUAL", Rows([(7,)])),
    Item(SQL_REF, "SELECT INSTR('CORPORATE FLOOR','OR', 3, 2) \"Instring\" FROM DUAL", Rows([(14,)])),
    Item(SQL_REF, "SELECT CONCAT(CONCAT('Hello', ' '), 'World') FROM DUAL", Rows([("Hello World",)])),
    Item(SQL_REF, "SELECT CHR(67)||CHR(65)||CHR(84) \"Dog\" FROM DUAL", Rows([("CAT",)])),
    Item(SQL_REF, "SELECT ASCII('Q') FROM DUAL", Rows([(81,)])),
    Item(SQL_REF, "SELECT REPLACE('JACK and JUE','J','BL') \"Changes\" FROM DUAL", Rows([("BLACK and BLUE",)])),
    Item(SQL_REF, "SELECT TRANSLATE('SQL*Plus User''s Guide', ' */''', '___') FROM DUAL",
         Rows([("SQL_Plus_Users_Guide",)])),
    Item(SQL_REF, "SELECT REVERSE('abc') FROM DUAL", Refused("ORA-03001", "the Oracle function REVERSE")),
    Item(SQL_REF, "SELECT REGEXP_REPLACE('500   Oracle     Parkway,    Redwood  Shores, CA', '( ){2,}', ' ') "
                  "\"REGEXP_REPLACE\" FROM DUAL", Rows([("500 Oracle Parkway, Redwood Shores, CA",)])),
    Item(SQL_REF, "SELECT REGEXP_SUBSTR('http://www.example.com/products', "
                  "'http://([[:alnum:]]+\\.?){3,4}/?') \"REGEXP_SUBSTR\" FROM DUAL", Rows([("http://www.example.com/",)])),
    Item(SQL_REF, "SELECT REGEXP_INSTR('500 Oracle Parkway, Redwood Shores, CA', '[^ ]+', 1, 6) \"REGEXP_INSTR\" "
                  "FROM DUAL", Rows([(37,)])),
    Item(SQL_REF, "SELECT REGEXP_COUNT('reinitializing', 'i', 1) FROM DUAL", Rows([(5,)])),
    Item(SQL_REF, "SELECT ROUND(15.193,1) \"Round\" FROM DUAL", Rows([(15.2,)])),
    Item(SQL_REF, "SELECT ROUND(15.193,-1) \"Round\" FROM DUAL", Rows([(20,)])),
    Item(SQL_REF, "SELECT TRUNC(15.79,1) \"Truncate\" FROM DUAL", Rows([(15.7,)])),
    Item(SQL_REF, "SELECT TRUNC(15.79,-1) \"Truncate\" FROM DUAL", Rows([(10,)])),
    Item(SQL_REF, "SELECT ABS(-15) \"Absolute\" FROM DUAL", Rows([(15,)])),
    Item(SQL_REF, "SELECT CEIL(15.7) \"Ceiling\", FLOOR(15.7) \"Floor\" FROM DUAL", Rows([(16, 15)])),
    Item(SQL_REF, "SELECT MOD(11,4) \"Modulus\" FROM DUAL", Rows([(3,)])),
    Item(SQL_REF, "SELECT POWER(3,2) \"Raised\" FROM DUAL", Rows([(9,)])),
    Item(SQL_REF, "SELECT POWER(-8, 1/3) FROM DUAL", Refused("ORA-01428", "argument")),
    Item(SQL_REF, "SELECT SQRT(26) \"Square root\" FROM DUAL", Rows([(math.sqrt(26),)])),
    Item(SQL_REF, "SELECT SQRT(-1) FROM DUAL", Refused("ORA-01428")),
    Item(SQL_REF, "SELECT LN(95) \"Natural log of 95\" FROM DUAL", Rows([(math.log(95),)])),
    Item(SQL_REF, "SELECT LOG(10,100) \"Log base 10 of 100\" FROM DUAL", Rows([(2,)])),
    Item(SQL_REF, "SELECT EXP(4) \"e to the 4th power\" FROM DUAL", Rows([(math.exp(4),)])),
    Item(SQL_REF, "SELECT SIGN(-15) \"Sign\" FROM DUAL", Rows([(-1,)])),
    Item(SQL_REF, "SELECT BITAND(6,3) FROM DUAL", Rows([(2,)])),
    Item(SQL_REF, "SELECT REMAINDER(11, 4) FROM DUAL", Rows([(-1,)])),
    Item(SQL_REF, "SELECT WIDTH_BUCKET(5, 0, 10, 5) FROM DUAL", Rows([(3,)])),
    Item(SQL_REF, "SELECT NULLIF(1, 1), NULLIF(1, 2) FROM DUAL", Rows([(None, 1)])),
    Item(SQL_REF, "SELECT NVL(NULL, 'Not Applicable') FROM DUAL", Rows([("Not Applicable",)])),
    Item(SQL_REF, "SELECT TO_CHAR('01110' + 1) FROM DUAL", Rows([("1111",)])),
    Item(SQL_REF, "SELECT TO_NUMBER('-123.45') FROM DUAL", Rows([(-123.45,)])),
    Item(SQL_REF, "SELECT TO_NUMBER('1,234.50', '9G999D99') FROM DUAL", Rows([(1234.5,)])),
    Item(SQL_REF, "SELECT TO_NUMBER('abc') FROM DUAL", Refused("ORA-01722")),
    Item(SQL_REF, "SELECT TO_CHAR(TO_DATE('27-OCT-98', 'DD-MON-RR'), 'YYYY') \"Year\" FROM DUAL", Rows([("1998",)])),
    Item(SQL_REF, "SELECT TO_CHAR(TO_DATE('27-OCT-17', 'DD-MON-RR'), 'YYYY') \"Year\" FROM DUAL", Rows([("2017",)])),
    Item(SQL_REF, "SELECT TO_DATE('January 15, 1989, 11:00 A.M.', 'Month dd, YYYY, HH:MI A.M.') FROM DUAL",
         Rows([(D(1989, 1, 15, 11, 0),)])),
    # Oracle: ORA-01839 (date not valid for month); lite says ORA-01847 (day of month out of range)
    Item(SQL_REF, "SELECT TO_DATE('2009-02-30', 'YYYY-MM-DD') FROM DUAL", Rejected("ORA-01839")),
    Item(SQL_REF, "SELECT TO_DATE('2009-13-01', 'YYYY-MM-DD') FROM DUAL", Refused("ORA-01843")),
    Item(SQL_REF, "SELECT TO_TIMESTAMP('10-Sep-02 14:10:10.123000', 'DD-Mon-RR HH24:MI:SS.FF') FROM DUAL",
         Rows([(D(2002, 9, 10, 14, 10, 10, 123000),)])),
    Item(SQL_REF, "SELECT ADD_MONTHS(DATE '2016-02-29', 12) FROM DUAL", Rows([(D(2017, 2, 28),)])),
    Item(SQL_REF, "SELECT LAST_DAY(DATE '2024-02-10') FROM DUAL", Rows([(D(2024, 2, 29),)])),
    Item(SQL_REF, "SELECT MONTHS_BETWEEN(TO_DATE('02-02-1995','MM-DD-YYYY'), TO_DATE('01-01-1995','MM-DD-YYYY')) "
                  "\"Months\" FROM DUAL", Rows([(1 + 1 / 31,)])),
    Item(SQL_REF, "SELECT NEXT_DAY(TO_DATE('15-OCT-2009', 'DD-MON-YYYY'), 'TUESDAY') \"NEXT DAY\" FROM DUAL",
         Rows([(D(2009, 10, 20),)])),
    Item(SQL_REF, "SELECT ROUND(TO_DATE('27-OCT-00', 'DD-MON-RR'), 'YEAR') \"New Year\" FROM DUAL",
         Rows([(D(2001, 1, 1),)])),
    Item(SQL_REF, "SELECT TRUNC(TO_DATE('27-OCT-92','DD-MON-YY'), 'YEAR') \"New Year\" FROM DUAL",
         Rows([(D(2092, 1, 1),)])),   # YY takes the current century
    Item(SQL_REF, "SELECT EXTRACT(YEAR FROM DATE '1998-03-07') FROM DUAL", Rows([(1998,)])),
    Item(SQL_REF, "SELECT EXTRACT(HOUR FROM TIMESTAMP '2000-01-01 17:30:00') FROM DUAL", Rows([(17,)])),
    Item(SQL_REF, "SELECT DATE '1998-03-07' + INTERVAL '1' MONTH FROM DUAL", Rows([(D(1998, 4, 7),)])),
    Item(SQL_REF, "SELECT TIMESTAMP '2009-10-29 01:30:00' + INTERVAL '30' MINUTE FROM DUAL",
         Rows([(D(2009, 10, 29, 2, 0),)])),
    Item(SQL_REF, "SELECT DATE '2024-01-31' + INTERVAL '1' MONTH FROM DUAL", Refused("ORA-01839")),
    Item(SQL_REF, "SELECT TO_CHAR(DATE '2024-08-17', 'Day') FROM DUAL", Rows([("Saturday ",)])),
    Item(SQL_REF, "SELECT TO_CHAR(DATE '2024-08-17', 'DDD') FROM DUAL", Rows([("230",)])),
    Item(SQL_REF, "SELECT TO_CHAR(1234567, '9G999G999') FROM DUAL", Rows([(" 1,234,567",)])),
    Item(SQL_REF, "SELECT TO_CHAR(0.5, '0.00'), TO_CHAR(-7, '999') FROM DUAL", Rows([(" 0.50", "  -7")])),
    Item(SQL_REF, "SELECT TO_CHAR(12345, '999') FROM DUAL", Rows([("####",)])),
    Item(SQL_REF, "SELECT CAST('22-OCT-1997' AS DATE) FROM DUAL", Rows([(D(1997, 10, 22),)])),
    Item(SQL_REF, "SELECT CAST(15.649 AS NUMBER(5,1)), CAST(7 AS VARCHAR2(3)) FROM DUAL", Rows([(15.6, "7")])),
    Item(SQL_REF, "SELECT CAST('abc' AS VARCHAR2(2)) FROM DUAL", Refused("ORA-25137")),
    Item(SQL_REF, "SELECT COALESCE(NULL, NULL, 3, 4) FROM DUAL", Rows([(3,)])),
    Item(SQL_REF, "SELECT DECODE(NULL, NULL, 'null matches', 'no') FROM DUAL", Rows([("null matches",)])),
    # LNNVL(c): TRUE where c is FALSE or UNKNOWN (the rows a NOT would lose to NULL)
    Item(SQL_REF, "SELECT LNNVL(1 = 2) FROM DUAL", Rows([(1,)])),
    Item(SQL_REF, "SELECT 1 FROM DUAL WHERE LNNVL(1 = 2)", Rows([(1,)])),
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE LNNVL(commission_pct > .2)",
         Rows([(sum(1 for e in EMP if e["commission_pct"] is None or not e["commission_pct"] > .2),)])),
    Item(SQL_REF, "SELECT SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') FROM DUAL", Rows([("HR",)])),
    # RAW values: SYS_GUID is 16 random bytes; the Reference's RAWTOHEX example shows 7D
    Item(SQL_REF, "SELECT LENGTH(RAWTOHEX(SYS_GUID())), RAWTOHEX(HEXTORAW('7d')) FROM DUAL", Rows([(32, "7D")])),
    Item(SQL_REF, "SELECT NANVL(1, 0), TO_BINARY_DOUBLE('2.5'), BIN_TO_NUM(1, 0, 1, 1), NLS_UPPER('abc'), "
                  "TO_NCHAR(12) FROM DUAL", Rows([(1, 2.5, 11, "ABC", "12")])),
    Item(SQL_REF, "SELECT ORA_HASH('abc') FROM DUAL", Refused("ORA-03001", "the Oracle function ORA_HASH")),
    Item(SQL_REF, "SELECT ora_to_char(1) FROM DUAL", Refused("ORA-00904", "ORA_TO_CHAR")),   # lite's own helper
    Item(SQL_REF, "SELECT SOUNDEX('SMYTHE'), SOUNDEX('Smith') FROM DUAL", Rows([("S530", "S530")])),
    Item(SQL_REF, "SELECT 'a' || NULL || 'b' FROM DUAL", Rows([("ab",)])),
    Item(SQL_REF, "SELECT 10 / 4, 10 / 5, -7 / 2 FROM DUAL", Rows([(2.5, 2, -3.5)])),
    Item(SQL_REF, "SELECT 1 FROM DUAL WHERE '' IS NULL", Rows([(1,)])),
    Item(SQL_REF, "SELECT LENGTH('') FROM DUAL", Rows([(None,)])),
    Item(SQL_REF, "SELECT CASE 1 WHEN 1 THEN 'one' ELSE 'other' END FROM DUAL", Rows([("one",)])),
    Item(SQL_REF, "SELECT 1 FROM DUAL WHERE 'abc' < 'abd' AND 'B' < 'a'", Rows([(1,)])),   # binary comparison
    Item(SQL_REF, "SELECT 1 FROM DUAL WHERE 'a ' = 'a'", Rows([])),   # VARCHAR2 literals: non-padded? CHAR literals pad
    Item(SQL_REF, "SELECT UPPER(NULL), ABS(NULL), 5 + NULL FROM DUAL", Rows([(None, None, None)])),
    Item(SQL_REF, "SELECT SELECT FROM DUAL", Rejected("ORA-00936")),
    Item(SQL_REF, "SELECT * FROM", Rejected("ORA-00903")),
    Item(SQL_REF, "SELECT 1 FROM DUAL WHERE", Rejected("ORA-00936")),
    Item(SQL_REF, "SELECT 1 FROM DUAL ORDER", Rejected("ORA-00924")),
    Item(SQL_REF, "SELEC 1 FROM DUAL", Rejected("ORA-00900")),
    Item(SQL_REF, "SELECT 1 + FROM DUAL", Rejected("ORA-00936")),
    Item(SQL_REF, "SELECT 'abc FROM DUAL", Refused("ORA-01756", "not properly terminated")),
    Item(SQL_REF, "SELECT 1 FROM", Rejected("ORA-00903")),
    # JSON Developer's Guide and SQL Reference JSON examples
    Item(JSON_DEV, "SELECT JSON_VALUE('{\"a\":100}', '$.a') FROM DUAL", Rows([("100",)])),
    Item(JSON_DEV, "SELECT JSON_VALUE('{a:100}', '$.a') FROM DUAL", Rows([("100",)])),   # lax JSON syntax
    Item(JSON_DEV, "SELECT JSON_VALUE('{\"a\":[0, 1, 2]}', '$.a[2]' RETURNING NUMBER) FROM DUAL", Rows([(2,)])),
    Item(JSON_DEV, "SELECT JSON_VALUE('{\"a\":{\"b\":1}}', '$.a') FROM DUAL", Rows([(None,)])),   # NULL ON ERROR
    Item(JSON_DEV, "SELECT JSON_VALUE('{\"a\":{\"b\":1}}', '$.a' ERROR ON ERROR) FROM DUAL", Refused("ORA-40456")),
    Item(JSON_DEV, "SELECT JSON_VALUE('{\"a\":\"x\"}', '$.b' DEFAULT 'none' ON EMPTY) FROM DUAL", Rows([("none",)])),
    Item(JSON_DEV, "SELECT JSON_QUERY('{\"a\":100, \"b\":200, \"c\":300}', '$.a' WITH WRAPPER) FROM DUAL",
         Rows([("[100]",)])),
    Item(JSON_DEV, "SELECT JSON_QUERY('{\"a\":100, \"b\":200, \"c\":300}', '$.*' WITH WRAPPER) FROM DUAL",
         Rows([("[100,200,300]",)])),
    Item(JSON_DEV, "SELECT JSON_QUERY('[0,1,2,3,4]', '$[*]' WITH WRAPPER) FROM DUAL", Rows([("[0,1,2,3,4]",)])),
    Item(JSON_DEV, "SELECT JSON_QUERY('{\"a\":{\"b\":1}}', '$.a') FROM DUAL", Rows([('{"b":1}',)])),
    Item(JSON_DEV, "SELECT JSON_QUERY('{\"a\":100}', '$.a') FROM DUAL", Rows([(None,)])),   # a scalar: NULL ON ERROR
    Item(JSON_DEV, "SELECT JSON_OBJECT('name' VALUE 'Foo', 'age' VALUE 42) FROM DUAL",
         Rows([('{"name":"Foo","age":42}',)])),
    Item(JSON_DEV, "SELECT JSON_OBJECT(KEY 'deptno' VALUE 10) FROM DUAL", Rows([('{"deptno":10}',)])),
    # found by this corpus: RETURNING NUMBER of a non-number was 0 (Oracle: NULL ON ERROR), "" was '' (NULL),
    # and a DATE in JSON_OBJECT was lite's stored text (Oracle writes ISO 8601): now a named refusal
    Item(JSON_DEV, "SELECT JSON_VALUE('{\"a\":\"x\"}', '$.a' RETURNING NUMBER), "
                   "JSON_VALUE('{\"a\":\"12\"}', '$.a' RETURNING NUMBER) FROM DUAL", Rows([(None, 12)])),
    Item(JSON_DEV, "SELECT NVL(JSON_VALUE('{\"a\":\"\"}', '$.a'), 'empty') FROM DUAL", Rows([("empty",)])),
    # a DATE in generated JSON is ISO 8601 without a fraction, as the Guide's own example shows
    Item(JSON_DEV, "SELECT JSON_OBJECT('name' VALUE last_name, 'hired' VALUE hire_date) FROM employees "
                   "WHERE employee_id = 100",
         Rows([(json.dumps({"name": EMP[0]["last_name"], "hired": f"{EMP[0]['hire_date']:%Y-%m-%dT%H:%M:%S}"},
                           separators=(",", ":")),)])),
    Item(JSON_DEV, "SELECT JSON_OBJECT('t' VALUE CAST(hire_date AS TIMESTAMP)) FROM employees "
                   "WHERE employee_id = 100", Refused("ORA-03001", "TIMESTAMP value in JSON_OBJECT")),
    Item(JSON_DEV, "SELECT JSON_OBJECT('hired' VALUE TO_CHAR(hire_date, 'YYYY-MM-DD')) FROM employees "
                   "WHERE employee_id = 100",
         Rows([(json.dumps({"hired": f"{EMP[0]['hire_date']:%Y-%m-%d}"}, separators=(",", ":")),)])),
    Item(JSON_DEV, "SELECT JSON_ARRAY(1, 'two', 3) FROM DUAL", Rows([('[1,"two",3]',)])),
    Item(JSON_DEV, "SELECT JSON_ARRAY(JSON_OBJECT('a' VALUE 1), JSON_ARRAY(2)) FROM DUAL", Rows([('[{"a":1},[2]]',)])),
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE JSON_EXISTS('{\"a\":[1,2]}', '$.a')", Rows([(1,)])),
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE JSON_EXISTS('{\"a\":[1,2]}', '$.b')", Rows([])),
    Item(JSON_DEV, "SELECT JSON_SERIALIZE('{\"a\":1}' PRETTY) FROM DUAL", Refused("ORA-03001", "PRETTY")),
    Item(JSON_DEV, "SELECT JSON_MERGEPATCH('{\"a\":1}', '{\"b\":2}') FROM DUAL", Rows([('{"a":1,"b":2}',)])),
    Item(JSON_DEV, "SELECT JSON_TRANSFORM('{\"a\":1}', SET '$.b' = 2) FROM DUAL", Refused("ORA-03001", "JSON_TRANSFORM")),
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE '{\"a\":1}' IS JSON STRICT", Rows([(1,)])),
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE '{a:1}' IS JSON", Rows([(1,)])),   # lax by default
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE '{a:1}' IS JSON STRICT", Rows([])),   # lax syntax is not strict JSON
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE '{\"a\":1,\"a\":2}' IS JSON WITH UNIQUE KEYS", Rows([])),
    Item(JSON_DEV, "SELECT 1 FROM DUAL WHERE '{\"a\":1,\"a\":2}' IS JSON", Rows([(1,)])),   # WITHOUT by default
    # AI Vector Search User's Guide (SQL functions chapter)
    Item(AI_VECTOR, "SELECT VECTOR_DIMENSION_COUNT(TO_VECTOR('[34.6, 77.8]')) FROM DUAL", Rows([(2,)])),
    Item(AI_VECTOR, "SELECT VECTOR_NORM(TO_VECTOR('[4, 3]', 2, FLOAT32)) FROM DUAL", Rows([(5,)])),
    Item(AI_VECTOR, "SELECT VECTOR_DISTANCE(TO_VECTOR('[1, 1]'), TO_VECTOR('[4, 5]'), EUCLIDEAN) FROM DUAL",
         Rows([(5,)])),
    Item(AI_VECTOR, "SELECT VECTOR_DISTANCE(TO_VECTOR('[1, 1]'), TO_VECTOR('[4, 5]'), MANHATTAN) FROM DUAL",
         Rows([(7,)])),
    Item(AI_VECTOR, "SELECT VECTOR_DISTANCE(TO_VECTOR('[1, 0]'), TO_VECTOR('[0, 1]'), COSINE) FROM DUAL",
         Rows([(1,)])),
    Item(AI_VECTOR, "SELECT VECTOR_DISTANCE(TO_VECTOR('[1, 2]'), TO_VECTOR('[3, 4]'), DOT) FROM DUAL",
         Rows([(-11,)])),
    Item(AI_VECTOR, "SELECT TO_VECTOR('[1, 2]') <-> TO_VECTOR('[4, 6]') FROM DUAL", Rows([(5,)])),
    Item(AI_VECTOR, "SELECT VECTOR_DISTANCE(TO_VECTOR('[1, 2]'), TO_VECTOR('[1, 2, 3]'), COSINE) FROM DUAL",
         Refused("ORA-51808")),
    Item(AI_VECTOR, "SELECT VECTOR_DIMENSION_FORMAT(TO_VECTOR('[1, 2]', 2, FLOAT64)) FROM DUAL",
         Refused("ORA-03001", "the Oracle function VECTOR_DIMENSION_FORMAT")),
    Item(AI_VECTOR, "SELECT FROM_VECTOR(TO_VECTOR('[1, 2]')) FROM DUAL",
         Refused("ORA-03001", "the Oracle function FROM_VECTOR")),
    Item(AI_VECTOR, "SELECT TO_VECTOR('[1, 2]', 2, INT8) FROM DUAL", Refused("ORA-51813", "INT8")),   # named as lite's limit
    Item(AI_VECTOR, "SELECT TO_VECTOR('[1, x]') FROM DUAL", Refused("ORA-51805")),
]


import re as _re  # noqa: E402  (the expected values of the regular-expression examples below)


def _phone(p: str) -> str:
    return _re.sub(r"^([0-9]{3})\.([0-9]{3})\.([0-9]{4})$", r"(\1) \2-\3", p)


_BY_ID = sorted(EMP, key=lambda e: e["employee_id"])

# More of the SQL Language Reference's examples, on the HR rows (expected rows computed in Python).
DOC_CORPUS += [
    # REGEXP_REPLACE's example: phone numbers xxx.xxx.xxxx as (xxx) xxx-xxxx, POSIX classes and back-references
    Item(SQL_REF, "SELECT REGEXP_REPLACE(phone_number, '([[:digit:]]{3})\\.([[:digit:]]{3})\\.([[:digit:]]{4})', "
                  "'(\\1) \\2-\\3') \"REGEXP_REPLACE\" FROM employees ORDER BY employee_id",
         Rows([(_re.sub(r"([0-9]{3})\.([0-9]{3})\.([0-9]{4})", r"(\1) \2-\3", e["phone_number"]),) for e in _BY_ID])),
    # REGEXP_LIKE's example: first names Steven or Stephen
    Item(SQL_REF, "SELECT first_name, last_name FROM employees WHERE REGEXP_LIKE (first_name, '^Ste(v|ph)en$') "
                  "ORDER BY first_name, last_name",
         Rows(sorted((e["first_name"], e["last_name"]) for e in EMP
                     if _re.match(r"^Ste(v|ph)en$", e["first_name"] or "")))),
    # REGEXP_LIKE's example: last names with a double vowel, case-insensitively
    Item(SQL_REF, "SELECT last_name FROM employees WHERE REGEXP_LIKE (last_name, '([aeiou])\\1', 'i') "
                  "ORDER BY last_name",
         Rows(sorted((e["last_name"],) for e in EMP if _re.search(r"([aeiou])\1", e["last_name"], _re.I)))),
    Item(SQL_REF, "SELECT COUNT(*) FROM employees WHERE REGEXP_LIKE(phone_number, '^[[:digit:]]{3}\\.')",
         Rows([(sum(1 for e in EMP if _re.match(r"^[0-9]{3}\.", e["phone_number"])),)])),
    Item(SQL_REF, "SELECT REGEXP_SUBSTR(phone_number, '[^.]+', 1, 2) FROM employees WHERE employee_id = 100",
         Rows([(EMP[0]["phone_number"].split(".")[1],)])),
    Item(SQL_REF, "SELECT REGEXP_SUBSTR('1234567890', '(123)(4(56)(78))', 1, 1, 'i', 4) \"REGEXP_SUBSTR\" FROM DUAL",
         Rows([("78",)])),
    Item(SQL_REF, "SELECT REGEXP_INSTR('1234567890', '(123)(4(56)(78))', 1, 1, 0, 'i', 2) \"REGEXP_INSTR\" FROM DUAL",
         Rows([(4,)])),
    Item(SQL_REF, "SELECT REGEXP_COUNT('123123123123', '123', 3, 'i') COUNT FROM DUAL", Rows([(3,)])),
    Item(SQL_REF, "SELECT REGEXP_REPLACE('aaa bbb', '[[:space:]]+', '_'), REGEXP_REPLACE('a1b2', '[^[:alpha:]]') "
                  "FROM DUAL", Rows([("aaa_bbb", "ab")])),
    Item(SQL_REF, "SELECT REGEXP_SUBSTR('abc', '[[=a=]]') FROM DUAL", Refused("ORA-03001", "[=a=]")),
    # analytic functions
    Item(SQL_REF, "SELECT last_name, salary, NTH_VALUE(salary, 2) OVER (PARTITION BY department_id ORDER BY salary "
                  "DESC, employee_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM employees "
                  "WHERE department_id = 90 ORDER BY employee_id",
         Rows([(e["last_name"], e["salary"], sorted((x for x in EMP if x["department_id"] == 90),
                                                    key=lambda x: (-x["salary"], x["employee_id"]))[1]["salary"])
               for e in _BY_ID if e["department_id"] == 90])),
    Item(SQL_REF, "SELECT employee_id, LAST_VALUE(salary) OVER (ORDER BY employee_id ROWS BETWEEN UNBOUNDED "
                  "PRECEDING AND UNBOUNDED FOLLOWING) FROM employees WHERE department_id = 30 ORDER BY employee_id",
         Rows([(e["employee_id"], [x for x in _BY_ID if x["department_id"] == 30][-1]["salary"])
               for e in _BY_ID if e["department_id"] == 30])),
    Item(SQL_REF, "SELECT department_id, COUNT(*) OVER (PARTITION BY department_id) FROM employees "
                  "WHERE department_id IN (30, 90) ORDER BY employee_id",
         Rows([(e["department_id"], sum(1 for x in EMP if x["department_id"] == e["department_id"]))
               for e in _BY_ID if e["department_id"] in (30, 90)])),
    Item(SQL_REF, "SELECT employee_id, AVG(salary) OVER (ORDER BY employee_id ROWS BETWEEN 1 PRECEDING AND "
                  "1 FOLLOWING) FROM employees WHERE department_id = 90 ORDER BY employee_id",
         Rows([(e["employee_id"], sum(x["salary"] for x in w) / len(w))
               for d in [[x for x in _BY_ID if x["department_id"] == 90]]
               for i, e in enumerate(d) for w in [d[max(0, i - 1):i + 2]]])),
    # the third-highest salary's ties come too (the two 17000s tie with each other, in an open order)
    Item(SQL_REF, "SELECT last_name FROM employees ORDER BY salary DESC FETCH FIRST 3 ROWS WITH TIES",
         Rows([(e["last_name"],) for e in EMP
               if e["salary"] >= sorted((x["salary"] for x in EMP), reverse=True)[2]], ordered=False)),
    # 10 PERCENT of 24 rows is CEIL(2.4) = 3 rows, as Oracle rounds
    Item(SQL_REF, "SELECT last_name FROM employees ORDER BY salary DESC FETCH FIRST 10 PERCENT ROWS ONLY",
         Rows([(e["last_name"],) for e in sorted(EMP, key=lambda x: -x["salary"])[:math.ceil(len(EMP) * 10 / 100)]],
              ordered=False)),
    Item(SQL_REF, "SELECT employee_id FROM employees ORDER BY employee_id OFFSET 20 ROWS FETCH NEXT 50 PERCENT ROWS ONLY",
         Rows([(e["employee_id"],) for e in _BY_ID[20:20 + math.ceil(len(EMP) * 50 / 100)]])),
    # datetime examples
    # 'J': Julian day, 1 January 2000 being 2451545 (the Reference's TO_CHAR example: 1 January 2009 is 2454833)
    Item(SQL_REF, "SELECT TO_CHAR(TO_DATE('01-01-2009', 'MM-DD-YYYY'), 'J'), TO_DATE('2451545', 'J') FROM DUAL",
         Rows([("2454833", D(2000, 1, 1))])),
    Item(SQL_REF, "SELECT TO_CHAR(DATE '2024-08-17', 'Q'), TO_CHAR(DATE '2024-08-17', 'WW'), "
                  "TO_CHAR(DATE '2024-08-17', 'IW'), TO_CHAR(DATE '2024-08-17', 'J') FROM DUAL",
         Rows([("3", f"{(230 - 1) // 7 + 1:02d}", f"{D(2024, 8, 17).isocalendar()[1]:02d}",
                str(D(2024, 8, 17).toordinal() + 1721425))])),
    Item(SQL_REF, "SELECT TIMESTAMP '2024-03-01 10:00:00' - TIMESTAMP '2024-02-28 08:30:00' FROM DUAL",
         Rows([(dt.timedelta(days=2, hours=1, minutes=30),)])),
    Item(SQL_REF, "SELECT DATE '2024-03-01' - DATE '2024-02-28' FROM DUAL", Rows([(2,)])),   # leap year
    Item(SQL_REF, "SELECT SYSDATE - SYSDATE FROM DUAL", Rows([(0,)])),
    Item(SQL_REF, "SELECT EXTRACT(DAY FROM (TIMESTAMP '2024-03-01 10:00:00' - TIMESTAMP '2024-02-28 08:30:00')) "
                  "FROM DUAL", Rows([(2,)])),
    Item(SQL_REF, "SELECT DATE '2024-01-31' + NUMTODSINTERVAL(36, 'HOUR') FROM DUAL", Rows([(D(2024, 2, 1, 12),)])),
    Item(SQL_REF, "SELECT ADD_MONTHS(DATE '2024-01-31', 1), ADD_MONTHS(DATE '2024-02-29', -12) FROM DUAL",
         Rows([(D(2024, 2, 29), D(2023, 2, 28))])),
    Item(SQL_REF, "SELECT TRUNC(DATE '2024-08-17', 'IW'), ROUND(DATE '2024-08-17', 'MONTH') FROM DUAL",
         Rows([(D(2024, 8, 12), D(2024, 9, 1))])),
    Item(SQL_REF, "SELECT TO_CHAR(TIMESTAMP '2024-08-17 13:05:09.123456', 'HH12:MI:SS.FF3 AM') FROM DUAL",
         Rows([("01:05:09.123 PM",)])),
    Item(SQL_REF, "SELECT TO_DATE('2024-08-17 25:00', 'YYYY-MM-DD HH24:MI') FROM DUAL", Refused("ORA-01850")),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE hire_date BETWEEN DATE '2015-01-01' AND "
                  "DATE '2016-12-31' ORDER BY hire_date, last_name",
         Rows([(e["last_name"],) for e in sorted(EMP, key=lambda e: (e["hire_date"], e["last_name"]))
               if D(2015, 1, 1) <= e["hire_date"] <= D(2016, 12, 31)])),
    # scalar subqueries returning two rows: Oracle's ORA-01427 (SQLite took the first)
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary = (SELECT salary FROM employees "
                  "WHERE department_id = 60)", Refused("ORA-01427", "more than one row")),
    Item(SQL_REF, "SELECT (SELECT last_name FROM employees e WHERE e.department_id = d.department_id) "
                  "FROM departments d", Refused("ORA-01427")),
    Item(SQL_REF, "SELECT d.department_name, (SELECT MAX(salary) FROM employees e WHERE e.department_id = "
                  "d.department_id) FROM departments d ORDER BY d.department_id",
         Rows([(d["department_name"], max((e["salary"] for e in EMP if e["department_id"] == d["department_id"]),
                                          default=None)) for d in sorted(DEPT, key=lambda d: d["department_id"])])),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE salary > (SELECT AVG(salary) FROM employees) "
                  "AND department_id = (SELECT department_id FROM departments WHERE department_name = 'Executive')"
                  " ORDER BY 1",
         Rows(sorted((e["last_name"],) for e in EMP if e["department_id"] == 90
                     and e["salary"] > sum(x["salary"] for x in EMP) / len(EMP)))),
    # set operations with different types: ORA-01790
    Item(SQL_REF, "SELECT last_name FROM employees UNION SELECT department_id FROM departments",
         Refused("ORA-01790")),
    Item(SQL_REF, "SELECT hire_date FROM employees INTERSECT SELECT 'x' FROM dual", Refused("ORA-01790")),
    Item(SQL_REF, "SELECT employee_id, last_name FROM employees UNION ALL SELECT department_id FROM departments",
         Refused("ORA-01789")),
    # numbers
    Item(SQL_REF, "SELECT CAST(1234.567 AS NUMBER(6,2)), CAST(-0.5 AS NUMBER(3,0)) FROM DUAL",
         Rows([(1234.57, -1)])),
    Item(SQL_REF, "SELECT CAST(123456 AS NUMBER(5,0)) FROM DUAL", Refused("ORA-01438")),
    Item(SQL_REF, "SELECT POWER(2, -1), POWER(-2, 3), POWER(0, 0) FROM DUAL", Rows([(0.5, -8, 1)])),
    Item(SQL_REF, "SELECT LN(0) FROM DUAL", Refused("ORA-01428")),
    Item(SQL_REF, "SELECT LOG(1, 5) FROM DUAL", Refused("ORA-01428")),
    Item(SQL_REF, "SELECT salary FROM employees WHERE employee_id = 100 AND salary = 24000.00", Rows([(24000,)])),
    # implicit conversions SQLite does not make (found by this corpus; each was a silent wrong result)
    Item(SQL_REF, "SELECT LPAD(employee_id, 6, 0), RPAD(1.5, 5, 0) FROM employees WHERE employee_id = 100",
         Rows([("000100", "1.500")])),
    Item(SQL_REF, "SELECT DECODE(1, '1', 'a', 'b'), DECODE('1', 1, 'a', 'b') FROM DUAL", Rows([("a", "a")])),
    Item(SQL_REF, "SELECT N'Zürich', n'abc' || 'd' FROM DUAL", Rows([("Zürich", "abcd")])),   # was ORA-00904 "N"
    # the SQL Reference's nested aggregate: the largest department total (was ORA-00934 from SQLite's refusal)
    Item(SQL_REF, "SELECT MAX(SUM(salary)), MIN(COUNT(*)) FROM employees GROUP BY department_id",
         Rows([(max(DEPT_TOTALS.values()), min(sum(1 for e in EMP if e["department_id"] == d) for d in DEPT_TOTALS))])),
    Item(SQL_REF, "SELECT department_id, MAX(COUNT(*)) FROM employees GROUP BY department_id", Refused("ORA-00937")),
    Item(SQL_REF, "SELECT last_name FROM employees WHERE ROW_NUMBER() OVER (ORDER BY salary) = 1",
         Refused("ORA-30483", "window functions are not allowed here")),
    Item(SQL_REF, "SELECT TO_CHAR(0.00001), 'v' || 1e-7, TO_CHAR(-0.000012) FROM DUAL",
         Rows([(".00001", "v.0000001", "-.000012")])),   # was '1e-05': Python's repr, not Oracle's TO_CHAR
    Item(SQL_REF, "SELECT last_name, DECODE(department_id, '90', 'exec', 'other') FROM employees "
                  "WHERE employee_id IN (100, 103) ORDER BY employee_id",
         Rows([(e["last_name"], "exec" if e["department_id"] == 90 else "other")
               for e in _BY_ID if e["employee_id"] in (100, 103)])),
    Item(SQL_REF, "SELECT LENGTH(TRIM('  ')), NVL(RTRIM('   '), 'blank'), NVL(LTRIM('xx', 'x'), 'gone') FROM DUAL",
         Rows([(None, "blank", "gone")])),   # Oracle has no empty string: what trims to nothing is NULL
    Item(SQL_REF, "SELECT DISTINCT department_id FROM employees ORDER BY salary",
         Refused("ORA-01791", "not a SELECTed expression")),
    Item(SQL_REF, "SELECT DISTINCT department_id d FROM employees WHERE department_id IS NOT NULL ORDER BY d",
         Rows([(d,) for d in sorted({e["department_id"] for e in EMP if e["department_id"] is not None})])),
]

@pytest.mark.parametrize("item", SCOTT_CORPUS, ids=lambda i: i.sql[:60])
def test_tutorial_corpus(scott: LiteConnection, item: Item) -> None:
    run_item(scott, item)


@pytest.mark.parametrize("item", CO_CORPUS, ids=lambda i: i.sql[:60])
def test_customer_orders_corpus(co: LiteConnection, item: Item) -> None:
    run_item(co, item)


@pytest.mark.parametrize("item", DOC_CORPUS, ids=lambda i: i.sql[:60])
def test_documentation_corpus(hr: LiteConnection, item: Item) -> None:
    run_item(hr, item)


# --------------------------------------------------------------------------- the sample schemas' DDL scripts
#
# Every statement of hr_create.sql, hr_code.sql and co_create.sql, run in script order in an empty schema, each
# with the outcome Oracle gives or lite's named refusal. COMMENT ON a view lite refuses to create would be left
# out (_REFUSED_VIEWS; none since JSON_TABLE runs): what follows says nothing about the COMMENT itself.

SAMPLE_DDL = json.loads((Path(__file__).parent / "data" / "fidelity" / "sample_ddl.json").read_text())
_REFUSED_VIEWS: set[str] = set()   # views lite refuses to create (their COMMENT ON is left out)


def _ddl_outcome(sql: str) -> Rows | Refused | None:
    """What Oracle does with one script statement, and lite's refusal where lite lacks the statement."""
    head = " ".join(sql.split()[:4]).upper()
    if head.startswith(("CREATE TABLE", "CREATE INDEX", "CREATE UNIQUE INDEX", "COMMENT ON")):
        return Rows([])
    if head.startswith("ALTER TABLE"):   # the scripts' ADD (CONSTRAINT ...) and ADD CONSTRAINT
        return Rows([])
    if head.startswith("ALTER TRIGGER"):
        return Refused("ORA-03001", "ALTER TRIGGER")
    if head.startswith("CREATE SEQUENCE"):
        return Rows([])
    if head.startswith("CREATE OR REPLACE VIEW"):
        return Rows([])
    if head.startswith(("CREATE OR REPLACE PROCEDURE", "CREATE OR REPLACE TRIGGER")):
        return Refused("ORA-03001", "PL/SQL")
    if head.startswith("COMMIT"):
        return Rows([])
    raise AssertionError(f"no outcome rule for {head}")


DDL_ITEMS = [(script, i, sql) for script, statements in SAMPLE_DDL["scripts"].items()
             for i, sql in enumerate(statements)
             if not (sql.upper().startswith("COMMENT ON")
                     and sql.split()[3].split(".")[0].upper() in _REFUSED_VIEWS)]


@pytest.fixture(scope="module")
def ddl_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], BaseException | None]:
    """Each script run once, in order, in its own empty schema: the error (or None) of every statement."""
    results: dict[tuple[str, int], BaseException | None] = {}
    home = tmp_path_factory.mktemp("fidelity_ddl")
    for n, (script, statements) in enumerate(SAMPLE_DDL["scripts"].items()):
        conn = connect(home, f"DDL{n}")
        cur = conn.cursor()
        for i, sql in enumerate(statements):
            try:
                cur.execute(sql)
                results[(script, i)] = None
            except oracledb.DatabaseError as exc:
                results[(script, i)] = exc
        conn.close()
    return results


@pytest.mark.parametrize("script, index, sql", DDL_ITEMS, ids=lambda v: str(v)[:50] if isinstance(v, str) else str(v))
def test_sample_schema_ddl_scripts(ddl_runs, script: str, index: int, sql: str) -> None:
    outcome = _ddl_outcome(sql)
    got = ddl_runs[(script, index)]
    if isinstance(outcome, Rows):
        assert got is None, f"{sql[:80]}: {got}"
        return
    assert got is not None, f"{sql[:80]}: accepted"
    err = got.args[0]
    assert err.full_code == outcome.code and outcome.fragment.upper() in err.message.upper(), err.message
    assert "sqlite" not in err.message.lower() and "Expecting" not in err.message, err.message


def test_composite_unique_key_with_nulls(hr: LiteConnection) -> None:
    """SQL Language Reference, unique constraints: a composite unique key is violated by two rows whose
    non-NULL key values are equal and whose NULLs are in the same columns; rows with every key column NULL
    may repeat (SQLite took any NULL as distinct and stored (1, NULL) twice)."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE uk_nulls (a NUMBER, b NUMBER, c NUMBER, CONSTRAINT uk_nulls_ab UNIQUE (a, b))")
    try:
        for values in ((1, None, 1), (None, None, 2), (None, None, 3), (None, 1, 4), (1, 2, 5)):
            cur.execute("INSERT INTO uk_nulls VALUES (:1, :2, :3)", values)
        for values in ((1, None, 6), (None, 1, 7), (1, 2, 8)):
            with pytest.raises(oracledb.DatabaseError) as info:
                cur.execute("INSERT INTO uk_nulls VALUES (:1, :2, :3)", values)
            err = info.value.args[0]
            assert err.full_code == "ORA-00001" and "UK_NULLS_AB" in err.message, err.message
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute("UPDATE uk_nulls SET b = NULL WHERE c = 5")   # (1, 2) becomes a second (1, NULL)
        assert info.value.args[0].full_code == "ORA-00001"
        cur.execute("SELECT COUNT(*) FROM uk_nulls")
        assert cur.fetchone() == (5,)
    finally:
        hr.rollback()
        cur.execute("DROP TABLE uk_nulls")


@pytest.mark.parametrize("ddl, inserted", [
    # SQL Language Reference, identity_options: in any order; CACHE/NOCACHE/ORDER/NOCYCLE change no value
    ("CREATE TABLE id_opts (id NUMBER GENERATED ALWAYS AS IDENTITY (START WITH 5 INCREMENT BY 1 NOCACHE NOCYCLE) "
     "PRIMARY KEY, x NUMBER)", [(5, 1), (6, 2)]),
    ("CREATE TABLE id_opts (id NUMBER GENERATED BY DEFAULT ON NULL AS IDENTITY (CACHE 20 START WITH 10 NOORDER) "
     "PRIMARY KEY, x NUMBER)", [(10, 1), (11, 2)]),
    ("CREATE TABLE id_opts (id NUMBER GENERATED AS IDENTITY (MAXVALUE 9999 NOMINVALUE KEEP), x NUMBER)",
     [(1, 1), (2, 2)]),
])
def test_identity_options_in_any_order(hr: LiteConnection, ddl: str, inserted: list) -> None:
    cur = hr.cursor()
    cur.execute(ddl)
    try:
        cur.executemany("INSERT INTO id_opts (x) VALUES (:1)", [(1,), (2,)])
        cur.execute("SELECT id, x FROM id_opts ORDER BY x")
        assert cur.fetchall() == inserted
    finally:
        hr.rollback()
        cur.execute("DROP TABLE id_opts")


def test_start_with_limit_value_belongs_to_alter_table(hr: LiteConnection) -> None:
    """SQL Language Reference: START WITH LIMIT VALUE is specific to ALTER TABLE ... MODIFY; a CREATE TABLE
    with it is refused (lite's parser: ORA-00933 at LIMIT, never the 'LIMIT is not Oracle SQL' guard)."""
    with pytest.raises(oracledb.DatabaseError) as info:
        hr.cursor().execute("CREATE TABLE id_lim (id NUMBER GENERATED ALWAYS AS IDENTITY (START WITH LIMIT VALUE))")
    err = info.value.args[0]
    assert err.full_code == "ORA-00933" and "not Oracle SQL" not in err.message


# --------------------------------------------------------------------------- what a catalog scanner reads

CATALOG_REF = "Oracle Database Reference 23ai (ALL_CONSTRAINTS, ALL_CONS_COLUMNS, ALL_TABLES)"


@pytest.mark.parametrize("sql, expected", [
    # the primary and foreign keys of a table, joined to their columns (the form the Reference documents and
    # catalog scanners of other workshops write); expected from hr_create.sql's constraint names
    ("SELECT c.constraint_name, c.constraint_type, cc.column_name, cc.position, c.r_constraint_name "
     "FROM all_constraints c JOIN all_cons_columns cc ON cc.owner = c.owner "
     "AND cc.constraint_name = c.constraint_name WHERE c.owner = 'HR' AND c.table_name = 'EMPLOYEES' "
     "AND c.constraint_type IN ('P', 'R', 'U') ORDER BY c.constraint_type, c.constraint_name",
     [("EMP_EMP_ID_PK", "P", "EMPLOYEE_ID", 1, None),
      ("EMP_DEPT_FK", "R", "DEPARTMENT_ID", 1, "DEPT_ID_PK"), ("EMP_JOB_FK", "R", "JOB_ID", 1, "JOB_ID_PK"),
      ("EMP_EMAIL_UK", "U", "EMAIL", 1, None)]),
    ("SELECT constraint_name, search_condition FROM user_constraints WHERE table_name = 'JOBS' "
     "AND constraint_type = 'C'", [("JOB_TITLE_NN", '"JOB_TITLE" IS NOT NULL')]),
    ("SELECT p.table_name parent, c.table_name child FROM user_constraints c JOIN user_constraints p "
     "ON p.constraint_name = c.r_constraint_name WHERE c.constraint_type = 'R' ORDER BY 2, 1",
     [("DEPARTMENTS", "EMPLOYEES"), ("JOBS", "EMPLOYEES")]),
    ("SELECT table_name, last_analyzed, num_rows FROM all_tables WHERE owner = 'HR' ORDER BY table_name",
     [("DEPARTMENTS", None, None), ("EMPLOYEES", None, None), ("JOBS", None, None)]),   # never analyzed
    ("SELECT COUNT(*) FROM user_constraints WHERE status = 'ENABLED' AND generated = 'USER NAME'", [(13,)]),
])
def test_catalog_scanner_queries(hr: LiteConnection, sql: str, expected: list) -> None:
    cur = hr.cursor()
    cur.execute(sql)
    assert cur.fetchall() == expected


def test_constraint_names_are_unique_in_a_schema(hr: LiteConnection) -> None:
    """SQL Language Reference, constraint: ORA-02264 for a name an existing constraint uses (the table is not
    created)."""
    cur = hr.cursor()
    with pytest.raises(oracledb.DatabaseError) as info:
        cur.execute("CREATE TABLE dup_cons (id NUMBER CONSTRAINT emp_emp_id_pk PRIMARY KEY)")
    assert info.value.args[0].full_code == "ORA-02264"
    cur.execute("SELECT COUNT(*) FROM user_tables WHERE table_name = 'DUP_CONS'")
    assert cur.fetchone() == (0,)


def test_default_on_null(hr: LiteConnection) -> None:
    """SQL Language Reference, CREATE TABLE (DEFAULT ON NULL): an explicit NULL takes the default; the column
    is NOT NULL, so an UPDATE to NULL is ORA-01407 unless FOR INSERT AND UPDATE, where it takes the default."""
    cur = hr.cursor()
    cur.execute("CREATE TABLE on_null (id NUMBER, s VARCHAR2(10) DEFAULT ON NULL 'x', "
                "t VARCHAR2(5) DEFAULT ON NULL FOR INSERT AND UPDATE 'y')")
    try:
        cur.execute("INSERT INTO on_null (id, s, t) VALUES (1, NULL, NULL)")
        cur.execute("INSERT INTO on_null (id) VALUES (2)")
        cur.execute("INSERT INTO on_null VALUES (3, 'a', 'b')")
        cur.execute("UPDATE on_null SET t = NULL WHERE id = 3")
        cur.execute("SELECT id, s, t FROM on_null ORDER BY id")
        assert cur.fetchall() == [(1, "x", "y"), (2, "x", "y"), (3, "a", "y")]
        with pytest.raises(oracledb.DatabaseError) as info:
            cur.execute("UPDATE on_null SET s = NULL WHERE id = 3")
        assert info.value.args[0].full_code == "ORA-01407"
        cur.execute("SELECT column_name, nullable FROM user_tab_columns WHERE table_name = 'ON_NULL' "
                    "ORDER BY column_id")
        assert cur.fetchall() == [("ID", "Y"), ("S", "N"), ("T", "N")]
    finally:
        hr.rollback()
        cur.execute("DROP TABLE on_null")


# --------------------------------------------------------------------------- python-oracledb samples/sql/create_schema_23.sql

ORACLEDB_SCHEMA_23 = "oracle/python-oracledb samples/sql/create_schema_23.sql and json_duality.py (&main_user.. as PYTHONDEMO.)"
SCHEMA_23 = [
    ("""create table PYTHONDEMO.SampleVectorTab (
    id        number generated by default on null as identity primary key,
    v32       vector(3, float32),
    v64       vector(3, float64),
    v8        vector(3, int8),
    vbin      vector(24, binary),
    v64sparse vector(30, float64, sparse)
)""", Refused("ORA-03001", "VECTOR(3, INT8)")),
    ("""create table PYTHONDEMO.SampleJRDVAuthorTab (
    AuthorId number generated by default on null as identity primary key,
    AuthorName varchar2(100)
)""", Rows([])),
    ("""create table PYTHONDEMO.SampleJRDVBookTab (
    BookId number generated by default on null as identity primary key,
    BookTitle varchar2(100),
    AuthorId number references PYTHONDEMO.SampleJRDVAuthorTab (AuthorId)
)""", Rows([])),
    ("""insert into PYTHONDEMO.SampleJRDVAuthorTab values
    (1, 'Isabel M. Rich'),
    (2, 'Bobbie Cool'),
    (3, 'Charlie Shore')""", Rows([])),
    ("""insert into PYTHONDEMO.SampleJRDVBookTab values
    (1, 'The Mysterious Dog', 1),
    (2, 'The Mysterious Pony', 1),
    (3, 'The Mysterious Tiger', 1),
    (4, 'Self Help for Programmers', 2),
    (5, 'More Self Help for Programmers', 2),
    (6, 'Travel Guide Volume I', 3),
    (7, 'Travel Guide Volume II', 3)""", Rows([])),
    ("select * from SampleJRDVAuthorTab order by AuthorId",
     Rows([(1, "Isabel M. Rich"), (2, "Bobbie Cool"), (3, "Charlie Shore")])),
    ("select * from SampleJRDVBookTab order by BookId",
     Rows([(1, "The Mysterious Dog", 1), (2, "The Mysterious Pony", 1), (3, "The Mysterious Tiger", 1),
           (4, "Self Help for Programmers", 2), (5, "More Self Help for Programmers", 2),
           (6, "Travel Guide Volume I", 3), (7, "Travel Guide Volume II", 3)])),
    ("""create or replace json relational duality view BookDV as
        SampleJRDVBookTab @insert @update @delete
        {
            _id: BookId,
            book_title: BookTitle,
            author: SampleJRDVAuthorTab @insert @update
            {
                author_id: AuthorId,
                author_name: AuthorName
            }
        }""", Refused("ORA-03001")),
    ("insert into SampleJRDVBookTab (BookTitle, AuthorId) values ('Orphan', 99)", Refused("ORA-02291")),
]


def test_python_oracledb_schema_23(tmp_path: Path) -> None:
    """The 23ai part of python-oracledb's sample schema, run in order: multi-row VALUES, ON NULL identities,
    a foreign key; vector formats lite lacks (INT8, BINARY, SPARSE) and the duality view refused by name."""
    conn = connect(tmp_path, "PYTHONDEMO")
    cur = conn.cursor()
    try:
        for sql, outcome in SCHEMA_23:   # in script order, each kept (run_item would roll the rows back)
            if isinstance(outcome, Refused):
                run_item(conn, Item(ORACLEDB_SCHEMA_23, sql, outcome))
                continue
            cur.execute(sql)
            assert (cur.fetchall() if cur.description else []) == outcome.expected, sql
            conn.commit()
    finally:
        conn.close()


# --------------------------------------------------------------------------- the docs' corpus figure

def corpus_figure() -> str:
    """The corpus figure docs/lite-engine.md states, counted from the items above (every one a test)."""
    items = [i.outcome for i in CORPUS + SCOTT_CORPUS + CO_CORPUS + DOC_CORPUS]
    ddl = [_ddl_outcome(sql) for _, _, sql in DDL_ITEMS]
    outcomes = items + ddl
    ok = sum(isinstance(o, Rows) for o in outcomes)
    refused = [o for o in outcomes if isinstance(o, Refused)]
    limits = sum(o.code == "ORA-03001" for o in refused)
    rejected = sum(isinstance(o, Rejected) for o in outcomes)
    comments = sum(sql.upper().startswith("COMMENT ON") for _, _, sql in DDL_ITEMS)
    return (f"Corpus figure: **{len(outcomes)} items: {ok} ok, {len(refused)} refused by name "
            f"({limits} lite's limits, `ORA-03001`; {len(refused) - limits} Oracle's own error for the "
            f"statement), {rejected} syntax errors refused, 0 wrong, 0 crashes** (a wrong answer or a crash "
            f"fails the suite). The DDL scripts contribute {len(ddl)} of the items, {comments} of them "
            f"`COMMENT ON` statements.")


def test_the_docs_corpus_figure_is_counted_from_the_corpus() -> None:
    """docs/lite-engine.md states the figure corpus_figure() counts (copy its output there when items change)."""
    docs = (Path(__file__).parent.parent / "docs" / "lite-engine.md").read_text(encoding="utf-8")
    paragraph = " ".join(docs.split("Corpus figure:", 1)[1].split("(Counted by", 1)[0].split())
    assert "Corpus figure: " + paragraph == corpus_figure()
