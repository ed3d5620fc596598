"""Every SQL statement the package ships parses with sqlglot's Oracle dialect.

Walks ``seed/*.sql`` and any ``*.sql`` under ``workshop_lib/``, splits each file
with the seed runner's splitter and parses every statement with the workshop's
Oracle dialect. sqlglot falls back to an opaque ``exp.Command`` for syntax it
cannot model; that fallback is accepted only for ``CREATE INDEX ... INDEXTYPE
IS`` (Oracle Text / spatial domain indexes), never for tables or DML.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from workshop_lib.seed import split_statements

try:
    from workshop_lib.lite.dialect import Oracle as DIALECT
except ImportError:  # the lite engine's dialect extends sqlglot's; fall back to the stock one
    DIALECT = "oracle"

REPO = Path(__file__).resolve().parent.parent
DOMAIN_INDEX = re.compile(r"^\s*CREATE\s+INDEX\s+\S+\s+ON\s+.+\bINDEXTYPE\s+IS\b", re.IGNORECASE | re.DOTALL)


def shipped_sql_files() -> list[Path]:
    """The .sql files the project ships (seed scripts and any under the package)."""
    files = sorted((REPO / "seed").glob("**/*.sql")) + sorted((REPO / "workshop_lib").glob("**/*.sql"))
    return [f for f in files if f.is_file()]


def parse_problem(statement: str) -> str | None:
    """Why ``statement`` is not acceptable Oracle SQL for sqlglot, or None when it parses."""
    try:
        trees = sqlglot.parse(statement, read=DIALECT)
    except ParseError as exc:
        return f"parse error: {str(exc).splitlines()[0]}"
    trees = [t for t in trees if t is not None]
    if len(trees) != 1:
        return f"expected one statement, parsed {len(trees)}"
    if isinstance(trees[0], exp.Command) and not DOMAIN_INDEX.match(statement):
        return "parsed only as an opaque Command (sqlglot did not understand it)"
    return None


def test_the_seed_script_is_among_the_shipped_files() -> None:
    files = shipped_sql_files()
    assert REPO / "seed" / "supplychain.sql" in files


@pytest.mark.parametrize("path", shipped_sql_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_statement_parses_as_oracle(path: Path) -> None:
    statements = split_statements(path.read_text(encoding="utf-8"))
    assert statements, f"{path} has no statements"
    problems = []
    for number, statement in enumerate(statements, 1):
        problem = parse_problem(statement)
        if problem:
            problems.append(f"statement {number} ({statement.splitlines()[0][:80]!r}): {problem}")
    assert not problems, f"{len(problems)} statement(s) in {path.name} are not Oracle SQL:\n" + "\n".join(problems[:20])


def test_the_checker_rejects_non_oracle_and_opaque_sql() -> None:
    assert parse_problem("CREATE TABLE supplychain.t (id NUMBER(6) NOT NULL, CONSTRAINT t_pk PRIMARY KEY (id))") is None
    assert parse_problem("INSERT INTO supplychain.t (id) VALUES (1)") is None
    assert parse_problem("CREATE INDEX t_ctx ON t (c) INDEXTYPE IS CTXSYS.CONTEXT") is None
    # Statements sqlglot keeps only as an opaque Command are not accepted.
    assert parse_problem("ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD'") is not None
    assert parse_problem("INSERT INTO t (id) VALUES (1") is not None
    assert parse_problem("SELECT 1 FROM dual; SELECT 2 FROM dual") is not None


def _module_sql_constants():
    """Every module-level ``*_SQL`` string constant in workshop_lib (the SQL the library ships)."""
    import importlib
    import pkgutil

    import workshop_lib

    found = []
    for info in pkgutil.walk_packages(workshop_lib.__path__, "workshop_lib."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.endswith("_SQL") and isinstance(value, str) and getattr(module, "__name__", "") == info.name:
                found.append((f"{info.name}.{name}", value))
    return found


def test_library_sql_constants_are_oracle_sql() -> None:
    """Each SQL constant parses with the workshop's Oracle dialect as a real statement (PL/SQL blocks aside)."""
    import sqlglot
    from sqlglot import exp

    from workshop_lib.lite import guard
    from workshop_lib.lite.dialect import Oracle

    constants = _module_sql_constants()
    assert len(constants) >= 15, constants
    checked = 0
    for name, sql in constants:
        text = sql.strip()
        if text.upper().startswith(("BEGIN", "DECLARE")):
            continue  # PL/SQL, run only on Oracle
        guard.check(text)  # sqlglot alone accepts LIMIT, ?, IFNULL ...: lite's guard refuses them
        statements = [s for s in sqlglot.parse(text, dialect=Oracle) if s is not None]
        assert len(statements) == 1, f"{name}: expected one statement"
        assert not isinstance(statements[0], exp.Command), f"{name} only parses as an opaque command"
        checked += 1
    assert checked >= 12


def test_the_checks_ranking_statements_are_oracle_sql() -> None:
    """CHECK 3 builds its leg statements (whole or head, every variant it uses to explain a failure)."""
    from workshop_lib.checks.rankings import _leg_sql
    from workshop_lib.lite import guard

    variants = [{}, {"scoped": False}, {"drop_tool_output": False}, {"valid_only": False},
                {"scoped": False, "drop_tool_output": False}, {"aggregate": "AVG"}, {"aggregate": "MAX"}]
    for leg in ("vector", "keyword"):
        for variant in variants if leg == "vector" else variants[:5]:
            for head in (False, True):
                sql = _leg_sql(leg, head=head, **variant)
                guard.check(sql)
                assert parse_problem(sql) is None, (leg, variant, head, sql)
                assert ("FETCH FIRST :n ROWS ONLY" in sql) == head
