"""Oracle-mode operations without a database: SQL text, privileges, idempotence, diagnosis, provisioning.

There is no Oracle database on the machines that run ``make test``, so the
idempotence tests drive the real bootstrap functions against
:class:`FakeOracle`, a recording connection that keeps a little state (users,
grants, tables, indexes) and answers the dictionary queries the code asks.
Everything that can run for real here does: python-oracledb's own connection
errors, the wait loop's timing, the lite doctor.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shutil
import socket
import stat
import sys
import time
import types
from pathlib import Path

import pytest

from workshop_lib.backends import get_backend
from workshop_lib.config import (
    AGENT_SCHEMA,
    CHUNKS_TABLE,
    EMBED_DIM,
    MEMORY_TABLE,
    SCHEMA,
    TEXT_INDEX,
    load_settings,
)
from workshop_lib.errors import ConfigError
from workshop_lib.oracle import bootstrap as B
from workshop_lib.oracle import doctor as D
from workshop_lib.oracle import privileges as P
from workshop_lib.oracle import provision as PR
from workshop_lib.oracle import vector_pool as VP
from workshop_lib.oracle.diagnosis import DIAGNOSES, diagnose, error_codes, is_transient
from workshop_lib.oracle.waiting import DatabaseNotReady, wait_for_database

REPO = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- fakes

class OraError(Exception):
    """An error whose message carries an ORA code, as python-oracledb's do."""


class FakeCursor:
    def __init__(self, db: "FakeOracle", user: str):
        self.db, self.user, self._rows = db, user, []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        pass

    def execute(self, sql, params=None, **kw):
        params = dict(params or {}, **kw)
        self.db.log.append((self.user, sql, params))
        self._rows = self.db.answer(self.user, sql, params)

    def fetchall(self):
        return list(self._rows)

    def fetchone(self):
        return self._rows[0] if self._rows else None


class FakeMemoryClient:
    """OAMP's client over FakeOracle's memories: what the scan and the re-embedding call, recorded."""

    def __init__(self, db: "FakeOracle"):
        self.db = db

    def add_memory(self, content, *, memory_id, user_id, agent_id, metadata=None, memory_type="memory"):
        self.db.oamp_calls.append(("add_memory", memory_id))
        self.db.memories[memory_id] = {"content": content, "user": user_id, "agent": agent_id,
                                       "kind": (metadata or {}).get("kind"), "vector": True}
        return memory_id

    def update_memory(self, memory_id, content=None, metadata=None):
        if memory_id not in self.db.memories:
            raise KeyError(memory_id)
        self.db.oamp_calls.append(("update_memory", memory_id))
        memory = self.db.memories[memory_id]
        memory.update(content=content if content is not None else memory["content"], vector=True)  # re-embedded
        if metadata is not None:
            memory["kind"] = metadata.get("kind")
        return memory_id

    def list_memories(self, *, user_id, agent_id, limit=None):
        return [types.SimpleNamespace(id=rid, metadata={"kind": m["kind"]}) for rid, m in self.db.memories.items()
                if m["user"] == user_id and m["agent"] == agent_id]

    def delete_memory(self, memory_id):
        self.db.oamp_calls.append(("delete_memory", memory_id))
        return 1 if self.db.memories.pop(memory_id, None) else 0

    def add_user(self, actor_id, profile):
        self.db.profiles.add(actor_id)

    add_agent = add_user


class FakeConnection:
    def __init__(self, db: "FakeOracle", user: str):
        self.db, self.user = db, user.upper()
        self.version = db.version
        self.closed = False

    def cursor(self):
        return FakeCursor(self.db, self.user)

    def commit(self):
        self.db.commits += 1

    def close(self):
        self.closed = True


class FakeOracle:
    """Just enough state to answer what bootstrap/provisioning ask, and to record what they run."""

    def __init__(self):
        self.version = "23.26.0.0.0"
        self.users: set[str] = {"SYSTEM"}
        self.roles: dict[str, set[str]] = {}
        self.sys_privs: dict[str, set[str]] = {}
        self.tables: dict[str, dict[str, int]] = {}      # owner -> table -> rows
        self.obj_grants: set[tuple[str, str, str]] = set()  # (owner, table, grantee)
        self.indexes: dict[str, tuple[str, str]] = {}    # index -> (table, status)
        self.memory_rows: dict[str, str] = {}             # record_id -> content
        self.models: set[str] = set()
        self.log: list[tuple[str, str, dict]] = []
        self.commits = 0
        self.fail_dba_views = False
        self.index_syncs = True
        self.race_create_user = False
        self.passwords: dict[str, str] = {}
        self.password_history: dict[str, list[str]] = {}
        self.refuse_reuse = False   # Autonomous Database's profile: ORA-28007 on a reused password
        self.vector_memory_size: int | None = 256 * 1024 * 1024   # None: V$PARAMETER not readable
        self.spatial = False                              # the seed's spatial indexes exist
        self.pending: dict[str, int] = {}                 # text index -> rows in CTX_USER_PENDING
        self.no_sync: set[str] = set()                    # text indexes created without SYNC (ON COMMIT)
        # OAMP's memories: record_id -> {"content", "user", "agent", "kind", "vector"} (vector: a chunk has one)
        self.memories: dict[str, dict] = {}
        self.profiles: set[str] = set()
        self.catalog = [("VESSELS", "Container ships of the fleet.")]
        self.columns = [("VESSELS", "CAPACITY_TEU", "NUMBER", "Y", "Capacity in TEU.")]
        self.oamp_calls: list[tuple[str, str]] = []       # (method, memory id) called on the OAMP client

    # statements run (DDL/DCL) by a user, in order
    def ddl(self, user: str | None = None) -> list[str]:
        return [sql for who, sql, _ in self.log
                if (user is None or who == user) and not sql.lstrip().upper().startswith("SELECT")]

    def answer(self, user: str, sql: str, p: dict):
        s = " ".join(sql.split())
        u = s.upper()
        if u.startswith("SELECT COUNT(*) FROM ALL_USERS"):
            return [(1 if p["name"] in self.users else 0,)]
        if "FROM DBA_ROLE_PRIVS" in u or "FROM DBA_SYS_PRIVS" in u:
            if self.fail_dba_views:
                raise OraError("ORA-00942: table or view does not exist")
            src = self.roles if "ROLE_PRIVS" in u else self.sys_privs
            return [(r,) for r in sorted(src.get(p["name"], ()))]
        if "FROM V$PARAMETER WHERE NAME = 'VECTOR_MEMORY_SIZE'" in u or "FROM V$VECTOR_MEMORY_POOL" in u:
            if self.vector_memory_size is None:
                raise OraError("ORA-00942: table or view does not exist")
            return [(str(self.vector_memory_size),)]
        if "FROM DBA_TAB_PRIVS" in u:
            return [(len({g for o, _, g in self.obj_grants if o == p["owner"]}),)]
        if "DATABASE_PROPERTIES" in u:
            return [("USERS",)]
        if "FROM USER_TABLESPACES" in u:
            return [("AUTO",)]
        if m := re.match(r'CREATE USER "(\w+)" IDENTIFIED BY "([^"]*)"', s):
            if self.race_create_user:
                self.users.add(m.group(1))
                raise OraError("ORA-01920: user name 'X' conflicts with another user or role name")
            self.users.add(m.group(1))
            self.passwords[m.group(1)] = m.group(2)
            self.password_history.setdefault(m.group(1), []).append(m.group(2))
            return []
        if m := re.match(r'ALTER USER "(\w+)" IDENTIFIED BY "([^"]*)"', s):
            name, password = m.groups()
            if self.refuse_reuse and password in self.password_history.get(name, []):
                raise OraError("ORA-28007: the password cannot be reused")
            self.passwords[name] = password
            self.password_history.setdefault(name, []).append(password)
            return []
        if re.match(r'ALTER USER "(\w+)" DEFAULT TABLESPACE "\w+" QUOTA \w+ ON "\w+" ACCOUNT UNLOCK$', s):
            return []
        if m := re.match(r'GRANT ([\w ]+?) TO "(\w+)"$', s):
            what, grantee = m.groups()
            (self.roles if what in P.WORKSHOP_ROLES else self.sys_privs).setdefault(grantee, set()).add(what)
            return []
        if m := re.match(r'GRANT SELECT ON "(\w+)"\."(\w+)" TO "(\w+)"$', s):
            owner, table, grantee = m.groups()
            assert owner == user, "object grants must be made by the owner"
            self.obj_grants.add((owner, table, grantee))
            return []
        if u.startswith("SELECT TABLE_NAME FROM USER_TABLES"):
            real = "SECONDARY = 'N'" in u and "DROPPED = 'NO'" in u
            return [(t,) for t in sorted(self.tables.get(user, {}))
                    if not (real and (t.startswith(("MDRT_", "DR$", "BIN$"))))]
        if m := re.match(r'SELECT COUNT\(\*\) FROM "(\w+)"$', s):
            return [(self.tables[user][m.group(1)],)]
        if "FROM USER_TAB_PRIVS_MADE" in u:
            return [(g,) for g in sorted({g for o, _, g in self.obj_grants if o == user})]
        if "FROM USER_MINING_MODELS" in u:
            return [(1 if p["name"] in self.models else 0,)]
        if "VECTOR_DIMENSION_COUNT" in u:
            return [(EMBED_DIM,)]
        if u.startswith("SELECT INDEX_NAME, STATUS, DOMIDX_STATUS"):
            return [(name, status, status, status) for name, (table, status) in self.indexes.items()
                    if table == p["t"]]
        if m := re.match(r'DROP INDEX "(\w+)" FORCE', s):
            del self.indexes[m.group(1)]
            return []
        if m := re.match(r"CREATE INDEX (\w+) ON (\w+)\(content\) INDEXTYPE IS CTXSYS.CONTEXT", s):
            self.indexes[m.group(1).upper()] = (m.group(2).upper(), "VALID")
            if "SYNC (ON COMMIT)" in s:
                self.no_sync.discard(m.group(1).upper())
            return []
        return self._answer_more(user, s, u, p)

    def _answer_more(self, user: str, s: str, u: str, p: dict):
        """The doctor's questions and the memory repairs' (scan, re-embedding)."""
        from workshop_lib.memory.setup import UNSEARCHABLE_SQL
        from workshop_lib.scanner import COLUMNS_SQL, TABLES_SQL

        if u.startswith("SELECT COUNT(*) FROM CTX_USER_PENDING"):
            return [(self.pending.get(p["n"], 0),)]
        if s == "BEGIN CTX_DDL.SYNC_INDEX(:n); END;":
            self.pending[p["n"]] = 0
            return []
        if u.startswith("SELECT IDX_SYNC_TYPE FROM CTX_USER_INDEXES"):
            return [("MANUAL" if p["n"] in self.no_sync else "ON COMMIT",)]
        if "FROM ALL_INDEXES WHERE TABLE_OWNER = :OWNER AND ITYP_OWNER = 'MDSYS'" in u:
            return [(2 if self.spatial else 0,)]
        if u == "SELECT TABLE_NAME FROM ALL_TABLES WHERE OWNER = :OWNER":
            return [(t,) for t in self.tables.get(p["owner"], {})]
        if m := re.match(r"SELECT COUNT\(\*\) FROM SUPPLYCHAIN\.(\w+)$", s):
            return [(self.tables.get(SCHEMA, {}).get(m.group(1), 0),)]
        if u.startswith("SELECT PRIVILEGE FROM SESSION_PRIVS"):
            return [(x,) for x in D.REQUIRED_SESSION_PRIVILEGES]
        if u.startswith("SELECT ROLE FROM SESSION_ROLES"):
            return [("DB_DEVELOPER_ROLE",), ("CTXAPP",)]
        if u.startswith("SELECT VECTOR_EMBEDDING("):
            return [([0.0] * EMBED_DIM,)] if self.models else []
        if s == " ".join(UNSEARCHABLE_SQL.split()):
            return [(rid,) for rid, m in sorted(self.memories.items()) if not m["vector"]]
        if u.startswith(f"SELECT CONTENT FROM {MEMORY_TABLE.upper()} WHERE RECORD_ID = :ID"):
            return [(self.memories[p["id"]]["content"],)]
        if u.startswith("SELECT RECORD_ID, JSON_VALUE(METADATA, '$.KIND'), DBMS_LOB.SUBSTR(CONTENT, 4000, 1)"):
            return [(rid, m.get("kind"), m["content"]) for rid, m in self.memories.items()
                    if m["user"] == p["user_id"] and m["agent"] == p["agent_id"] and rid.startswith("fact-")]
        if u.startswith("SELECT RECORD_ID, DBMS_LOB.SUBSTR(CONTENT, 4000, 1)"):
            return [(rid, m["content"]) for rid, m in self.memories.items()
                    if m["user"] == p["user_id"] and m["agent"] == p["agent_id"]]
        if u.startswith(f"SELECT COUNT(*) FROM {MEMORY_TABLE.upper()} WHERE USER_ID = :USER_ID") and \
                u.endswith("AND RECORD_ID NOT LIKE 'FACT-%'"):
            return [(sum(m["user"] == p["user_id"] and m["agent"] == p["agent_id"] and not rid.startswith("fact-")
                         for rid, m in self.memories.items()),)]
        if u.startswith(f"SELECT COUNT(*) FROM {MEMORY_TABLE.upper()} WHERE USER_ID = :U"):
            return [(sum(m["user"] == p["u"] for m in self.memories.values()),)]
        if u.startswith("SELECT COUNT(*) FROM EDA_ONNX_ACTOR_PROFILE"):
            return [(1 if p["actor_id"] in self.profiles else 0,)]
        if s == " ".join(TABLES_SQL.split()):
            return list(self.catalog) if p["owner"] == SCHEMA else []
        if s == " ".join(COLUMNS_SQL.split()):
            return list(self.columns) if p["owner"] == SCHEMA else []
        if u.startswith(f"INSERT INTO {MEMORY_TABLE.upper()}"):
            self.memory_rows[p["rid"]] = p["c"]
            return []
        if u.startswith(f"SELECT COUNT(*) FROM {MEMORY_TABLE.upper()} WHERE RECORD_ID"):
            syncing = self.index_syncs and not any(
                i in self.no_sync for i, (t, _) in self.indexes.items() if t == MEMORY_TABLE.upper())
            hit = syncing and p["kw"] in self.memory_rows.get(p["rid"], "")
            return [(1 if hit else 0,)]
        if u.startswith(f"DELETE FROM {MEMORY_TABLE.upper()}"):
            self.memory_rows.pop(p["rid"], None)
            return []
        raise AssertionError(f"FakeOracle was not taught this statement: {s}")


def settings_for(**env):
    base = {"WORKSHOP_BACKEND": "oracle", "WORKSHOP_HOME": os.environ.get("WORKSHOP_HOME"),
            "ORACLE_DSN": "localhost:1521/FREEPDB1",
            "ORACLE_USER": AGENT_SCHEMA, "ORACLE_PASSWORD": "Kq7mPw2xLt9vBn",
            "SUPPLYCHAIN_PASSWORD": "SupplyPw123456x", "ORACLE_ADMIN_PASSWORD": "AdminPw123456x"}
    base.update(env)
    return load_settings({k: v for k, v in base.items() if v is not None})


# --------------------------------------------------------------------------- diagnosis

LISTED = {
    "ORA-29855": ["DRG-", "DROP INDEX"],
    "ORA-51962": ["vector_memory_size", "ALTER SYSTEM"],
    "ORA-01017": ["ORACLE_PASSWORD"],
    "ORA-12541": ["not up", "ORACLE_DSN"],
    "ORA-12514": ["service name", "FREEPDB1"],
    "ORA-01031": ["privilege", "workshop setup"],
    "ORA-00942": ["workshop setup"],
    "ORA-40284": ["model", "workshop setup"],
}


@pytest.mark.parametrize("code", sorted(LISTED))
def test_every_listed_error_has_cause_and_exact_fix(code):
    wanted = LISTED[code]
    for form in (code, int(code.split("-")[1]), f"{code}: message from the server",
                 OraError(f"{code}: message from the server")):
        d = diagnose(form)
        assert d.code == code, form
        text = f"{d.cause} {d.fix}"
        for word in wanted:
            assert word.lower() in text.lower(), (code, word, text)
        assert d.fix and d.cause and str(d).startswith(code)


def test_diagnose_prefers_the_specific_ora_code_in_a_wrapped_error():
    msg = 'DPY-6001: Service "FREEPDB9" is not registered with the listener. (Similar to ORA-12514)'
    assert error_codes(msg)[0] == "ORA-12514"
    assert diagnose(msg).code == "ORA-12514"
    outer = RuntimeError("setup failed")
    outer.__cause__ = OraError("ORA-29855: error occurred in the execution of ODCIINDEXCREATE routine")
    assert diagnose(outer).code == "ORA-29855"


def test_unknown_error_still_gets_advice():
    d = diagnose(ValueError("something odd"))
    assert d.code is None and "something odd" in d.cause and "workshop doctor" in d.fix
    assert diagnose("ORA-99999: new error").code == "ORA-99999"


def test_real_refused_connection_is_transient_and_explained():
    import oracledb

    port = _free_port()
    with pytest.raises(oracledb.Error) as info:
        oracledb.connect(user="a", password="b", dsn=f"127.0.0.1:{port}/FREEPDB1", tcp_connect_timeout=2)
    assert is_transient(info.value)
    d = diagnose(info.value)
    assert d.code == "DPY-6005" and "ORACLE_DSN" in d.cause
    assert not is_transient("ORA-01017: invalid username/password; logon denied")


def test_diagnosis_table_fixes_name_a_command_or_statement():
    for code, (cause, fix) in DIAGNOSES.items():
        assert cause.endswith((".", ")")) and fix, code
        assert re.match(r"^(ORA|DPY)-\d{4,5}$", code)


# --------------------------------------------------------------------------- privileges

def _all_shipped_grants() -> list[str]:
    statements = []
    for user in P.workshop_users():
        statements += P.role_and_privilege_grants(user)
        statements += P.missing_grants(user, [], [])
    statements += P.catalog_grants(list(P.SEED_TABLES), AGENT_SCHEMA)
    statements += PR.plan_learner_grants(PR.learner_names(12), list(P.SEED_TABLES))
    return statements


def test_no_any_privilege_in_any_list_or_statement_we_ship():
    lists = [P.WORKSHOP_ROLES, P.WORKSHOP_SYSTEM_PRIVILEGES, P.CATALOG_OBJECT_PRIVILEGES]
    for entries in lists:
        for entry in entries:
            assert not re.search(r"\bANY\b", entry, re.I), entry
    statements = _all_shipped_grants()
    assert len(statements) > 100
    assert P.any_privilege_violations(statements) == []
    # ... and in every SQL/shell file and Python source the project ships.
    pattern = re.compile(r"(?i)\bGRANT\s+(?:[A-Z_]+\s+){0,3}ANY\b")
    shipped = [*REPO.glob("workshop_lib/**/*.py"), *REPO.glob(".devcontainer/**/*.sh"),
               *REPO.glob(".devcontainer/**/*.sql"), *REPO.glob("seed/**/*.sql")]
    offenders = [str(f) for f in shipped if pattern.search(f.read_text(encoding="utf-8"))]
    assert offenders == []


def test_violation_detector_can_fail():
    bad = ["GRANT SELECT ANY TABLE TO AGENT", "GRANT SELECT ON SUPPLYCHAIN.VESSELS TO PUBLIC",
           "grant create any directory to learner01"]
    assert P.any_privilege_violations(bad) == bad
    good = ['GRANT SELECT ON "SUPPLYCHAIN"."COMPANY" TO "AGENT"', "CREATE TABLE ANY_THING (x NUMBER)"]
    assert P.any_privilege_violations(good) == []


def test_workshop_schema_gets_the_least_privileges_the_issue_lists():
    # AGENT and learners: DB_DEVELOPER_ROLE only (it holds CTXAPP and CREATE MINING MODEL already)
    assert P.role_and_privilege_grants("agent") == ['GRANT DB_DEVELOPER_ROLE TO "AGENT"']
    assert P.role_and_privilege_grants("LEARNER07") == ['GRANT DB_DEVELOPER_ROLE TO "LEARNER07"']
    # SUPPLYCHAIN: sessions, its tables, the spatial indexes' sequences - nothing else
    assert P.role_and_privilege_grants("supplychain") == [
        'GRANT CREATE SESSION TO "SUPPLYCHAIN"', 'GRANT CREATE TABLE TO "SUPPLYCHAIN"',
        'GRANT CREATE SEQUENCE TO "SUPPLYCHAIN"']
    assert P.catalog_grants(["VESSELS", "PORTS"], "AGENT") == [
        'GRANT SELECT ON "SUPPLYCHAIN"."VESSELS" TO "AGENT"',
        'GRANT SELECT ON "SUPPLYCHAIN"."PORTS" TO "AGENT"']
    assert P.missing_grants("AGENT", ["CTXAPP"], ["CREATE MINING MODEL"]) == [
        'GRANT DB_DEVELOPER_ROLE TO "AGENT"']
    assert P.missing_grants("SUPPLYCHAIN", [], ["CREATE SESSION"]) == [
        'GRANT CREATE TABLE TO "SUPPLYCHAIN"', 'GRANT CREATE SEQUENCE TO "SUPPLYCHAIN"']


def test_ora_29855_is_explained_by_the_error_under_it():
    quota = OraError("ORA-29855: error occurred in the execution of ODCIINDEXCREATE routine\n"
                     "ORA-20000: Oracle Text error:\nDRG-50857: oracle error in drvxtab.create_index_tables\n"
                     "ORA-01950: no privileges on tablespace 'USERS'\nORA-06512: at \"CTXSYS.DRUE\", line 192")
    d = diagnose(quota)
    assert d.code == "ORA-29855" and "ORA-01950" in d.cause and "quota" in d.fix
    assert "CTXAPP" not in str(d), "any user may create a CONTEXT index: CTXAPP is never the cause"
    pref = diagnose("ORA-29855: error\nORA-20000: Oracle Text error:\nDRG-10700: preference does not exist: X")
    assert "DRG-10700" in pref.cause and "preference" in pref.cause and "DROP INDEX" in pref.fix
    other = diagnose("ORA-29855: error\nORA-20000: Oracle Text error:\nDRG-11111: something odd")
    assert "DRG-11111: something odd" in other.cause
    assert "CTXAPP" not in str(diagnose("ORA-29855"))


def test_the_dimension_mismatch_is_ora_51803():
    d = diagnose("ORA-51803: Vector dimension count must match the dimension count specified in the column "
                 "definition (expected 384 dimensions, specified 768 dimensions).")
    assert d.code == "ORA-51803" and "workshop model build" in d.fix
    assert "ORA-51805" not in DIAGNOSES


def test_user_ddl_has_tablespace_bounded_quota_and_quoted_password():
    pw = "Abcdefgh12345xyz"
    create = P.create_user_sql("agent", pw, "users")
    assert create == (f'CREATE USER "AGENT" IDENTIFIED BY "{pw}" DEFAULT TABLESPACE "USERS" '
                      f'QUOTA {P.DEFAULT_QUOTA} ON "USERS"')
    alter = P.alter_user_sql("AGENT", "DATA", "500M")
    assert alter == 'ALTER USER "AGENT" DEFAULT TABLESPACE "DATA" QUOTA 500M ON "DATA" ACCOUNT UNLOCK'
    assert "IDENTIFIED" not in alter, "bringing a user in line must not re-set its password (ORA-28007 on ADB)"
    assert P.password_sql("agent", pw) == f'ALTER USER "AGENT" IDENTIFIED BY "{pw}" ACCOUNT UNLOCK'
    assert pw not in P.redact(create) and "IDENTIFIED BY ********" in P.redact(create)


@pytest.mark.parametrize("env, target", [
    ({}, "oracle"),
    ({"ORACLE_DSN": "dbhost.example.com:1521/ORCLPDB1"}, "oracle"),
    ({"ORACLE_DSN": "mydb_low", "ORACLE_WALLET_DIR": "/wallet"}, "adb"),
    ({"ORACLE_DSN": "mydb_tp"}, "adb"),
    ({"ORACLE_DSN": "(description=(address=(protocol=tcps)(host=adb.eu-frankfurt-1.oraclecloud.com)"
                    "(port=1522))(connect_data=(service_name=x_mydb_high.adb.oraclecloud.com)))"}, "adb"),
    ({"ORACLE_ADMIN_USER": "ADMIN"}, "adb"),
])
def test_password_target_is_read_from_the_settings(env, target):
    assert P.password_target(settings_for(**env)) == target


@pytest.mark.parametrize("password, oracle_ok, adb_ok", [
    ("Kq7mPw2xLt9vBn", True, True),
    ("abcdefgh", True, False),                 # 8 characters: Free yes, ADB no (12-30)
    ("abcdefgh1234", True, False),             # no upper-case letter
    ("ABCDEFGH1234", True, False),             # no lower-case letter
    ("Abcdefghijkl", True, False),             # no digit
    ("Abcdefgh1234" * 3, True, False),         # 36 characters: over ADB's 30
    ("Ab1" + "x" * 1021, True, False),         # 1024 bytes: Oracle's maximum
    ("Ab1" + "x" * 1022, False, False),        # 1025 bytes
])
def test_passwords_are_validated_per_target(password, oracle_ok, adb_ok):
    for target, ok in (("oracle", oracle_ok), ("adb", adb_ok)):
        if ok:
            assert P.validate_password(password, "AGENT", target) == password
        else:
            with pytest.raises(ConfigError):
                P.validate_password(password, "AGENT", target)


@pytest.mark.parametrize("name", ['AGENT"; DROP USER SYSTEM --', "1AGENT", "", "A B", "X" * 129])
def test_bad_identifiers_are_refused(name):
    with pytest.raises(ConfigError):
        P.create_user_sql(name, "Abcdefgh12345", "USERS")


@pytest.mark.parametrize("password", ['Abc"defgh123', "Abc\ndefgh123", "short1A", "", None, "xxAGENTxx123"])
def test_bad_passwords_are_refused_before_any_sql(password):
    with pytest.raises(ConfigError):
        P.validate_password(password, "AGENT")


def test_bad_quota_is_refused():
    with pytest.raises(ConfigError):
        P.create_user_sql("AGENT", "Abcdefgh12345", "USERS", quota="1G; DROP")


def test_generated_passwords_meet_oracle_and_adb_rules():
    sys.path.insert(0, str(REPO / ".devcontainer"))
    try:
        import make_env
    finally:
        sys.path.pop(0)
    seen = set()
    for gen in (P.generate_password, make_env.generate_password):
        for _ in range(50):
            pw = gen()
            assert len(pw) == 24 and pw[0].isalpha() and pw.isalnum()
            assert any(c.isupper() for c in pw) and any(c.islower() for c in pw) and any(c.isdigit() for c in pw)
            P.validate_password(pw, "LEARNER01")
            seen.add(pw)
    assert len(seen) == 100
    with pytest.raises(ValueError):
        P.generate_password(8)


# --------------------------------------------------------------------------- bootstrap steps

def _login(db):
    return lambda user, password: db.passwords.get(user) == password


def test_ensure_user_creates_then_leaves_a_working_password_alone():
    db = FakeOracle()
    admin = FakeConnection(db, "SYSTEM")
    assert B.ensure_user(admin, "agent", "Kq7mPw2xLt9vBn", "USERS", can_login=_login(db)) == "created"
    assert B.ensure_user(admin, "AGENT", "Kq7mPw2xLt9vBn", "USERS",
                         can_login=_login(db)) == "exists, password unchanged"
    ddl = db.ddl()
    assert ddl[0].startswith('CREATE USER "AGENT"')
    assert ddl[1] == P.alter_user_sql("AGENT", "USERS") and len(ddl) == 2
    assert db.password_history["AGENT"] == ["Kq7mPw2xLt9vBn"], "the password was set once"


def test_ensure_user_sets_the_password_only_when_it_does_not_log_in_or_on_reset():
    db = FakeOracle()
    admin = FakeConnection(db, "SYSTEM")
    db.users.add("AGENT")
    db.passwords["AGENT"] = "OldPassword123x"                 # someone else's, or expired
    assert B.ensure_user(admin, "AGENT", "Kq7mPw2xLt9vBn", "USERS",
                         can_login=_login(db)).startswith("password set from .env")
    assert db.ddl()[-1] == P.password_sql("AGENT", "Kq7mPw2xLt9vBn")
    assert B.ensure_user(admin, "AGENT", "Kq7mPw2xLt9vBn", "USERS",
                         can_login=_login(db)) == "exists, password unchanged"
    assert B.ensure_user(admin, "AGENT", "Nw8rTq3zLp5vBm", "USERS", can_login=_login(db),
                         reset_password=True) == "password reset from .env"
    assert db.passwords["AGENT"] == "Nw8rTq3zLp5vBm"


def test_ensure_user_explains_a_reused_password_on_adb():
    db = FakeOracle()
    db.refuse_reuse = True
    admin = FakeConnection(db, "SYSTEM")
    db.users.add("AGENT")
    db.password_history["AGENT"] = ["Kq7mPw2xLt9vBn"]
    db.passwords["AGENT"] = "Expired0000000x"
    with pytest.raises(B.OracleSetupError) as info:
        B.ensure_user(admin, "AGENT", "Kq7mPw2xLt9vBn", "DATA", can_login=_login(db), target="adb")
    assert info.value.diagnosis.code == "ORA-28007" and "new password" in info.value.diagnosis.fix
    assert "Kq7mPw2xLt9vBn" not in str(info.value)


def test_ensure_user_refuses_an_adb_password_before_any_sql():
    db = FakeOracle()
    with pytest.raises(ConfigError):
        B.ensure_user(FakeConnection(db, "SYSTEM"), "AGENT", "short1Aabc", "DATA", target="adb")
    assert db.log == []


def test_ensure_user_survives_a_concurrent_create():
    db = FakeOracle()
    db.race_create_user = True
    assert B.ensure_user(FakeConnection(db, "SYSTEM"), "AGENT", "Kq7mPw2xLt9vBn", "USERS",
                         can_login=lambda u, p: True) == "exists, password unchanged"
    assert db.ddl()[-1].startswith('ALTER USER "AGENT" DEFAULT TABLESPACE')


def test_role_grants_only_what_is_missing_and_fall_back_without_dba_views():
    db = FakeOracle()
    admin = FakeConnection(db, "SYSTEM")
    db.sys_privs["SUPPLYCHAIN"] = {"CREATE SESSION"}
    assert B.ensure_role_grants(admin, "SUPPLYCHAIN") == ['GRANT CREATE TABLE TO "SUPPLYCHAIN"',
                                                          'GRANT CREATE SEQUENCE TO "SUPPLYCHAIN"']
    assert B.ensure_role_grants(admin, "SUPPLYCHAIN") == []
    assert B.ensure_role_grants(admin, "AGENT") == ['GRANT DB_DEVELOPER_ROLE TO "AGENT"']
    assert B.ensure_role_grants(admin, "AGENT") == []
    db.fail_dba_views = True
    assert B.ensure_role_grants(admin, "AGENT") == P.role_and_privilege_grants("AGENT")


def test_text_index_created_kept_or_rebuilt():
    db = FakeOracle()
    conn = FakeConnection(db, "AGENT")
    assert B.ensure_text_index(conn) == "created"
    assert B.text_index_sql() in db.ddl()
    assert "PARAMETERS ('SYNC (ON COMMIT)')" in B.text_index_sql()
    before = len(db.ddl())
    assert B.ensure_text_index(conn) == "already present"
    assert len(db.ddl()) == before
    db.indexes[TEXT_INDEX.upper()] = (MEMORY_TABLE.upper(), "FAILED")   # half-finished earlier run
    assert B.ensure_text_index(conn).startswith("rebuilt")
    assert db.ddl()[-2] == f'DROP INDEX "{TEXT_INDEX.upper()}" FORCE'
    assert db.indexes[TEXT_INDEX.upper()][1] == "VALID"


def test_text_sync_probe_finds_and_removes_its_row():
    db = FakeOracle()
    conn = FakeConnection(db, "AGENT")
    B.probe_text_sync(conn)
    assert db.memory_rows == {} and db.commits == 2
    inserted = [p for _, sql, p in db.log if sql.startswith("INSERT")][0]
    assert inserted["u"] == B.PROBE_USER_ID
    db.index_syncs = False
    with pytest.raises(B.OracleSetupError) as info:
        B.probe_text_sync(conn)
    assert "SYNC (ON COMMIT)" in info.value.diagnosis.fix
    assert db.memory_rows == {}, "the probe row must be removed even when the check fails"


# --------------------------------------------------------------------------- whole bootstrap, twice

@pytest.fixture()
def fake_world(monkeypatch):
    """Route bootstrap's connections to one FakeOracle and stand in for the other issues' modules."""
    db = FakeOracle()
    calls = {"seed": 0, "model_load": 0, "memory": 0}

    def connect_as(settings, user, password, **kw):
        assert password, f"no password for {user}"
        if user.upper() not in db.users or db.passwords.get(user.upper(), password) != password:
            raise OraError("ORA-01017: invalid credential or not authorized; logon denied")
        return FakeConnection(db, user)

    monkeypatch.setattr(B, "connect_as", connect_as)
    monkeypatch.setattr(B, "connect_admin", lambda s: FakeConnection(db, "SYSTEM"))
    monkeypatch.setattr(B, "create_pool_as", lambda s, u, p, **kw: types.SimpleNamespace(close=lambda force=False: None, user=u))
    monkeypatch.setattr("workshop_lib.oracle.waiting.wait_for_database", lambda *a, **k: 0.0)

    def run_seed(conn, *, atomic, label):
        assert not atomic and label == "oracle" and conn.user == SCHEMA
        calls["seed"] += 1
        db.tables[SCHEMA] = {t: seed_manifest()[t] for t in P.SEED_TABLES}   # what the script inserts
        db.spatial = True
        db.obj_grants = {g for g in db.obj_grants if g[0] != SCHEMA}   # DROP TABLE drops grants

    def load_model_oracle(conn, name, built, force=False):
        calls["model_load"] += 1
        db.models.add(name)

    def build_oracle_memory_client(pool, settings):
        calls["memory"] += 1
        owned = db.tables.setdefault(pool.user.upper(), {})
        owned[MEMORY_TABLE.upper()] = 0
        owned[CHUNKS_TABLE.upper()] = 0

    from workshop_lib.seed import seed_counts, seed_differences, seed_manifest

    monkeypatch.setitem(sys.modules, "workshop_lib.seed",
                        types.SimpleNamespace(run_seed=run_seed, seed_manifest=seed_manifest, seed_counts=seed_counts,
                                              seed_differences=seed_differences))
    # the backend's memory repairs: AGENT's connection and OAMP's client, over the same FakeOracle
    from workshop_lib.backends.oracle import OracleBackend

    monkeypatch.setattr(OracleBackend, "connect", lambda self, user=None: FakeConnection(db, user or "AGENT"))
    monkeypatch.setattr(OracleBackend, "memory_target",
                        lambda self, conn: types.SimpleNamespace(close=lambda: None))
    monkeypatch.setattr(OracleBackend, "build_memory_client",
                        lambda self, target, embedder=None: FakeMemoryClient(db))
    monkeypatch.setitem(sys.modules, "workshop_lib.embedding.oracle_loader",
                        types.SimpleNamespace(load_model_oracle=load_model_oracle))
    monkeypatch.setitem(sys.modules, "workshop_lib.oracle.memory",
                        types.SimpleNamespace(build_oracle_memory_client=build_oracle_memory_client))
    import workshop_lib.embedding as emb
    monkeypatch.setattr(emb, "ensure_model", lambda s: types.SimpleNamespace(path="m.onnx"), raising=False)
    return db, calls


def test_bootstrap_is_idempotent_and_never_prints_passwords(fake_world):
    db, calls = fake_world
    settings = settings_for()
    out: list[str] = []
    first = B.bootstrap(settings, echo=out.append)
    assert first.ok and calls == {"seed": 1, "model_load": 1, "memory": 1}
    assert {"SUPPLYCHAIN", "AGENT"} <= db.users
    assert db.roles["AGENT"] == set(P.WORKSHOP_ROLES) and "AGENT" not in db.sys_privs
    assert db.sys_privs["SUPPLYCHAIN"] == set(P.OWNER_SYSTEM_PRIVILEGES) and "SUPPLYCHAIN" not in db.roles
    assert {(SCHEMA, t, "AGENT") for t in P.SEED_TABLES} <= db.obj_grants
    assert TEXT_INDEX.upper() in db.indexes

    ddl_before = len(db.ddl())
    second = B.bootstrap(settings, echo=out.append)
    assert second.ok and calls["seed"] == 1, "a complete seed is not re-run"
    statuses = {s.name: s.status for s in second.steps}
    assert statuses["seed SUPPLYCHAIN"] == "skipped" and statuses["text index"] == "skipped"
    assert statuses["embedding model"] == "skipped" and statuses["memory tables"] == "skipped"
    new = db.ddl()[ddl_before:]
    # Only idempotent statements on a re-run: ALTER USER (tablespace, quota, unlock), object grants, probe.
    assert all(s.startswith(("ALTER USER", "GRANT SELECT ON", "INSERT INTO", "DELETE FROM")) for s in new), new
    assert not any("IDENTIFIED BY" in s for s in new), "a re-run must not re-set unchanged passwords"
    printed = "\n".join(out) + first.to_json() + second.summary()
    for pw in (settings.oracle_password, settings.supplychain_password, settings.admin_password):
        assert pw not in printed
    assert json.loads(second.to_json())["ok"] is True


def test_index_internals_are_neither_granted_nor_listed(fake_world):
    db, _ = fake_world
    settings = settings_for()
    B.bootstrap(settings, echo=lambda m: None)
    # what Oracle puts in SUPPLYCHAIN next to the seed: a spatial index's table, a DBA's scratch table
    db.tables[SCHEMA].update({"MDRT_1F89F$": 0, "SCRATCH": 0})
    db.users.add("LEARNER01")
    db.obj_grants.add((SCHEMA, "VESSELS", "LEARNER01"))
    B.bootstrap(settings, echo=lambda m: None, reseed=True)
    granted = {t for _, t, _ in db.obj_grants}
    assert granted == set(P.SEED_TABLES), granted - set(P.SEED_TABLES)
    assert P.OWNED_TABLES_SQL == ("SELECT table_name FROM user_tables WHERE secondary = 'N' "
                                  "AND dropped = 'NO' ORDER BY table_name")
    assert P.seed_tables_present(["MDRT_1F89F$", "VESSELS", "DR$EDA_ONNX_MEMORY_CTX$I", "PORTS"]) == [
        t for t in P.SEED_TABLES if t in ("VESSELS", "PORTS")]
    assert not [sql for sql in db.ddl() if "MDRT_" in sql or "SCRATCH" in sql]


def test_second_setup_on_adb_keeps_the_passwords_and_succeeds(fake_world):
    db, _ = fake_world
    db.refuse_reuse = True            # ADB: a reused password is ORA-28007
    settings = settings_for(ORACLE_DSN="mydb_low", ORACLE_WALLET_DIR="/wallet", ORACLE_ADMIN_USER="ADMIN")
    assert B.bootstrap(settings, echo=lambda m: None).ok
    assert B.bootstrap(settings, echo=lambda m: None).ok
    assert db.password_history == {"SUPPLYCHAIN": [settings.supplychain_password],
                                   "AGENT": [settings.oracle_password]}
    with pytest.raises(B.OracleSetupError) as info:
        B.bootstrap(settings, echo=lambda m: None, reset_passwords=True)   # same password again
    assert info.value.diagnosis.code == "ORA-28007"


def test_setup_refuses_a_password_adb_would_refuse_before_touching_the_database(fake_world):
    db, _ = fake_world
    settings = settings_for(ORACLE_DSN="mydb_low", ORACLE_WALLET_DIR="/wallet", ORACLE_PASSWORD="alllowercase123")
    with pytest.raises(B.OracleSetupError) as info:
        B.bootstrap(settings, echo=lambda m: None)
    assert info.value.step == "settings" and "upper-case" in str(info.value)
    assert db.log == []


def test_bootstrap_recovers_from_a_half_finished_run(fake_world):
    db, calls = fake_world
    settings = settings_for()
    # State left by an interrupted run: AGENT exists without grants, the seed is partial,
    # and a failed text index blocks a naive re-create.
    db.users.add("AGENT")
    db.users.add("SUPPLYCHAIN")
    db.tables[SCHEMA] = {"CARRIERS": 15}
    db.indexes[TEXT_INDEX.upper()] = (MEMORY_TABLE.upper(), "FAILED")
    report = B.bootstrap(settings, echo=lambda m: None, reseed=False)
    assert report.ok and calls["seed"] == 1
    assert db.indexes[TEXT_INDEX.upper()][1] == "VALID"
    assert db.roles["AGENT"] == set(P.WORKSHOP_ROLES)


def test_reseed_restores_learner_grants(fake_world):
    db, calls = fake_world
    settings = settings_for()
    B.bootstrap(settings, echo=lambda m: None)
    db.users.add("LEARNER01")
    db.obj_grants.add((SCHEMA, "VESSELS", "LEARNER01"))
    B.bootstrap(settings, echo=lambda m: None, reseed=True)
    assert calls["seed"] == 2
    assert {(SCHEMA, t, "LEARNER01") for t in P.SEED_TABLES} <= db.obj_grants


def test_bootstrap_without_admin_uses_existing_users_or_explains(fake_world):
    db, _ = fake_world
    settings = settings_for(ORACLE_ADMIN_PASSWORD=None)
    with pytest.raises(B.OracleSetupError) as info:
        B.bootstrap(settings, echo=lambda m: None)
    assert info.value.step == "seed SUPPLYCHAIN" and info.value.diagnosis.code == "ORA-01017"
    assert "ORACLE_PASSWORD" in info.value.diagnosis.fix
    db.users |= {"SUPPLYCHAIN", "AGENT"}
    report = B.bootstrap(settings, echo=lambda m: None)
    steps = {step.name: step.status for step in report.steps}
    assert report.ok and steps["users and privileges"] == "skipped"


def test_bootstrap_reports_missing_settings_clearly():
    with pytest.raises(B.OracleSetupError) as info:
        B.bootstrap(settings_for(SUPPLYCHAIN_PASSWORD=None), echo=lambda m: None)
    assert info.value.step == "settings" and "SUPPLYCHAIN_PASSWORD" in str(info.value)


# --------------------------------------------------------------------------- waiting

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_wait_gives_up_after_the_timeout_with_progress_and_cause():
    settings = settings_for(ORACLE_DSN=f"127.0.0.1:{_free_port()}/FREEPDB1")
    messages: list[str] = []
    started = time.monotonic()
    with pytest.raises(DatabaseNotReady) as info:
        wait_for_database(settings, timeout_s=1.2, echo=messages.append, interval_s=0.3)
    elapsed = time.monotonic() - started
    assert 1.0 <= elapsed < 5
    assert len(messages) >= 2 and all("Waiting for the database" in m for m in messages)
    assert "not ready after" in str(info.value) and info.value.diagnosis.code == "DPY-6005"
    assert settings.admin_password not in str(info.value) + "".join(messages)


def test_wait_retries_transient_errors_then_returns():
    attempts = iter([OraError("ORA-12514: TNS:listener does not currently know of service"),
                     OraError("ORA-01033: ORACLE initialization or shutdown in progress")])

    def connect():
        err = next(attempts, None)
        if err:
            raise err
        return types.SimpleNamespace(close=lambda: None)

    messages: list[str] = []
    waited = wait_for_database(settings_for(), timeout_s=10, echo=messages.append, interval_s=0.05,
                               connect=connect)
    assert waited < 2 and len(messages) == 3 and "is up" in messages[-1]


def test_wait_for_the_vector_pool_covers_the_startup_hooks_restart():
    """Login works before the hook runs; the hook sets the SPFILE and restarts; only then is the pool sized."""
    mb = 1024 * 1024
    timeline = iter([
        pool_conn(0),                                                   # open, hook not run yet
        pool_conn(OraError("ORA-01089: immediate shutdown or close in progress")),
        OraError("ORA-12514: TNS:listener does not currently know of service"),   # restarting
        OraError("ORA-01033: ORACLE initialization or shutdown in progress"),
        pool_conn(0, 240 * mb),                 # after the restart (the PDB's own parameter stays 0)
    ])
    used = []

    def connect():
        step = next(timeline)
        used.append(step)
        if isinstance(step, Exception):
            raise step
        return step

    messages: list[str] = []
    wait_for_database(settings_for(), timeout_s=10, echo=messages.append, interval_s=0.01,
                      connect=connect, vector_pool_mb=256)
    assert len(used) == 5, "the wait ended before the restart"
    assert "0 MB, not yet 256 MB" in messages[0] and "is up" in messages[-1]
    assert [type(u) for u in used].count(ScriptedConn) == 3


def test_wait_for_the_vector_pool_gives_up_with_the_hooks_log():
    def connect():
        return pool_conn(64 * 1024 * 1024)

    with pytest.raises(DatabaseNotReady) as info:
        wait_for_database(settings_for(), timeout_s=0.05, echo=lambda m: None, interval_s=0.01,
                          connect=connect, vector_pool_mb=256)
    assert "64 MB, not yet 256 MB" in str(info.value) and "logs db" in str(info.value)
    unreadable = lambda: pool_conn(OraError("ORA-00942: table or view does not exist"))
    notes: list[str] = []
    assert wait_for_database(settings_for(), timeout_s=1, echo=notes.append, interval_s=0.01,
                             connect=unreadable, vector_pool_mb=256) < 1
    assert "not readable" in notes[0]


@pytest.mark.parametrize("state, restarts", [("WORKSHOP_POOL=ok", False), ("WORKSHOP_POOL=set", False),
                                             ("WORKSHOP_POOL=restart", True), ("ORA-01031", False)])
def test_vector_pool_hook_marks_ready_only_after_it_is_done(tmp_path, state, restarts):
    """The hook (sourced by the Oracle image) removes its done-marker first and creates it last, after any restart."""
    import subprocess

    bin_dir = tmp_path / "home" / "bin"
    bin_dir.mkdir(parents=True)
    done, log = tmp_path / "done", tmp_path / "calls.log"
    done.write_text("left from an earlier start")
    sqlplus = bin_dir / "sqlplus"
    sqlplus.write_text(f"""#!/usr/bin/env bash
input=$(cat)
if [ -e "{done}" ]; then echo "called-with-marker" >> "{log}"; fi
case "$input" in
  *SHUTDOWN*) echo "restart" >> "{log}" ;;
  *) echo "size" >> "{log}"; echo "{state}" ;;
esac
""")
    sqlplus.chmod(0o755)
    hook = REPO / ".devcontainer" / "oracle-startup" / "01-vector-pool.sh"
    out = subprocess.run(["bash", "-c", f'source "{hook}"'], capture_output=True, text=True, timeout=30,
                         env={"PATH": "/usr/bin:/bin", "ORACLE_HOME": str(tmp_path / "home"),
                              "WORKSHOP_HOOK_DONE": str(done)})
    assert out.returncode == 0, out.stderr
    calls = log.read_text().split()
    assert "called-with-marker" not in calls, "the marker must be gone while the hook works"
    assert calls == (["size", "restart"] if restarts else ["size"])
    assert done.exists() and "vector pool hook done" in out.stdout


def test_every_wait_for_the_devcontainer_database_covers_the_hook():
    compose = (REPO / ".devcontainer" / "docker-compose.yml").read_text()
    assert "test -f /dev/shm/workshop-vector-pool.done" in compose
    assert "--vector-pool-mb" in (REPO / ".devcontainer" / "wait-for-db.sh").read_text()
    workflow = (REPO / ".github" / "workflows" / "oracle.yml").read_text()
    assert "wait --timeout 900 --vector-pool-mb 256" in workflow and ".State.Health.Status" in workflow


def test_wait_does_not_retry_a_wrong_password():
    calls = []

    def connect():
        calls.append(1)
        raise OraError("ORA-01017: invalid username/password; logon denied")

    with pytest.raises(DatabaseNotReady) as info:
        wait_for_database(settings_for(), timeout_s=30, echo=lambda m: None, interval_s=5, connect=connect)
    assert len(calls) == 1 and "ORACLE_PASSWORD" in str(info.value)


# --------------------------------------------------------------------------- doctor

@pytest.mark.parametrize("version,ok,label", [
    ("23.26.0.0.0", True, "26ai"), ("23.7.0.25.1", True, "23ai"), ("23.4.0.24.5", True, "23ai"),
    ("19.24.0.0.0", False, "19.24"), ("26.1.0.0.0", True, "26ai")])
def test_version_labels(version, ok, label):
    assert D.describe_version(version)[0] is ok and label in D.describe_version(version)[1]


class ScriptedConn:
    """Answers doctor queries from a dict of (substring -> rows or exception)."""

    def __init__(self, answers, version="23.26.0.0.0"):
        self.answers, self.version = answers, version

    def cursor(self):
        conn = self

        class Cur:
            def __enter__(self):
                return self

            def __exit__(self, *a):
                pass

            def close(self):
                pass

            def execute(self, sql, params=None, **kw):
                for key, value in conn.answers.items():
                    if key in sql.lower():
                        if isinstance(value, Exception):
                            raise value
                        self.rows = value
                        return
                raise AssertionError(sql)

            def fetchall(self):
                return self.rows

        return Cur()

    def close(self):
        pass


def test_privilege_check_names_what_is_missing_and_flags_any():
    conn = ScriptedConn({"session_privs": [("CREATE SESSION",), ("CREATE TABLE",)],
                         "session_roles": [("DB_DEVELOPER_ROLE",)]})
    check = D.check_privileges(conn)
    assert not check.ok and "CREATE MINING MODEL" in check.detail and "CTXAPP" in check.detail
    assert "workshop setup" in check.fix
    conn = ScriptedConn({"session_privs": [(p,) for p in D.REQUIRED_SESSION_PRIVILEGES] + [("SELECT ANY TABLE",)],
                         "session_roles": [("CTXAPP",)]})
    check = D.check_privileges(conn)
    assert check.ok and "ANY" in check.detail


def test_text_index_check_states():
    base = {"from user_indexes": [(TEXT_INDEX.upper(), "VALID", "VALID", "VALID")],
            "ctx_user_indexes": [("ON COMMIT",)]}
    assert D.check_text_index_oracle(ScriptedConn({**base, "ctx_user_pending": [(0,)]})).ok
    pending = D.check_text_index_oracle(ScriptedConn({**base, "ctx_user_pending": [(3,)]}))
    assert not pending.ok and "SYNC_INDEX" in pending.fix
    failed = D.check_text_index_oracle(ScriptedConn({"from user_indexes": [("X", "VALID", "FAILED", "VALID")]}))
    assert not failed.ok and "FORCE" in failed.fix
    missing = D.check_text_index_oracle(ScriptedConn({"from user_indexes": []}))
    assert not missing.ok and "ORA-29855" in missing.fix and "CTXAPP" not in missing.fix


def pool_conn(parameter, allocated=None, **more):
    """A session that reads VECTOR_MEMORY_SIZE (V$PARAMETER) and the pool's allocation (V$VECTOR_MEMORY_POOL)."""
    def rows(value):
        return value if isinstance(value, Exception) else [(str(value),)]
    return ScriptedConn({"v$parameter": rows(parameter),
                         "v$vector_memory_pool": rows(parameter if allocated is None else allocated), **more})


def test_vector_pool_check_degrades_without_privileges():
    no_access = OraError("ORA-00942: table or view does not exist")
    settings = settings_for(ORACLE_ADMIN_PASSWORD=None)
    check = D.check_vector_pool(pool_conn(no_access, **{"index_type = 'vector'": [(1,)]}), settings)
    assert check.ok and "SELECT_CATALOG_ROLE" in check.detail
    empty = D.check_vector_pool(pool_conn(0), settings)
    assert not empty.ok and "VECTOR_MEMORY_SIZE is 0" in empty.detail
    assert "ALTER SYSTEM SET vector_memory_size = 256M SCOPE = BOTH" in empty.fix and "DBA" in empty.fix
    sized = D.check_vector_pool(pool_conn(256 * 1024 * 1024), settings)
    assert sized.ok and "256 MB" in sized.detail
    # in a PDB the parameter is the PDB's own limit (0 when only CDB$ROOT sets the pool); the allocation counts
    pdb = D.check_vector_pool(pool_conn(0, 250 * 1024 * 1024), settings)
    assert pdb.ok and "250 MB" in pdb.detail
    assert VP.VECTOR_MEMORY_SIZE_SQL == "SELECT value FROM v$parameter WHERE name = 'vector_memory_size'"


def test_vector_pool_check_sizes_the_request_for_a_class():
    settings = settings_for(ORACLE_ADMIN_PASSWORD=None)
    small = pool_conn(256 * 1024 * 1024)
    check = D.check_vector_pool(small, settings, schemas=31)       # AGENT + 30 learners
    assert not check.ok and "31 schema(s) x 10,000 memories" in check.detail
    mb = VP.recommended_mb(31)
    assert f"vector_memory_size = {mb}M" in check.fix and mb > 256
    # Oracle's estimate: 1.3 x vectors x 384 dims x 4 bytes, doubled for headroom
    assert VP.needed_bytes(31, 10_000) == math.ceil(1.3 * 31 * 10_000 * 384 * 4 * 2)
    assert VP.recommended_mb(1) == 256 and VP.recommended_mb(31) % 64 == 0


def test_read_pool_plans_for_the_class_only_when_read_as_the_admin():
    """The doctor and setup's early check share read_pool: the admin counts AGENT + learners, AGENT cannot."""
    admin = pool_conn(256 * 1024 * 1024, **{"dba_tab_privs": [(31,)]})
    assert VP.read_pool(admin, 1, as_admin=True) == (256 * 1024 * 1024, 31)
    assert VP.read_pool(admin, 1, as_admin=False) == (256 * 1024 * 1024, 1)
    assert VP.read_pool(admin, 40, as_admin=True) == (256 * 1024 * 1024, 40)
    unreadable = pool_conn(OraError("ORA-00942: table or view does not exist"))
    assert VP.read_pool(unreadable, 3, as_admin=True) == (None, 3)


def test_vector_pool_on_adb_is_managed_automatically():
    settings = settings_for(ORACLE_DSN="mydb_low", ORACLE_WALLET_DIR="/wallet", ORACLE_ADMIN_PASSWORD=None)
    check = D.check_vector_pool(ScriptedConn({}), settings)   # asks nothing
    assert check.ok and "Autonomous Database" in check.detail


def test_bootstrap_fails_early_without_a_vector_pool(fake_world):
    db, calls = fake_world
    db.vector_memory_size = 0
    with pytest.raises(B.OracleSetupError) as info:
        B.bootstrap(settings_for(), echo=lambda m: None)
    assert info.value.step == "vector pool" and info.value.diagnosis.code == "ORA-51962"
    assert "ALTER SYSTEM SET vector_memory_size = 256M" in info.value.diagnosis.fix
    assert db.ddl() == [] and calls == {"seed": 0, "model_load": 0, "memory": 0}, "nothing was created"
    db.vector_memory_size = None                                   # not readable: go on, say so
    report = B.bootstrap(settings_for(), echo=lambda m: None)
    assert report.ok and {s.name: s.status for s in report.steps}["vector pool"] == "skipped"


def test_setup_sizes_the_pool_for_the_learners_already_provisioned(fake_world):
    db, _ = fake_world
    db.obj_grants |= {(SCHEMA, "VESSELS", f"LEARNER{i:02d}") for i in range(1, 31)} | {(SCHEMA, "VESSELS", "AGENT")}
    with pytest.raises(B.OracleSetupError) as info:       # 256 MB holds 6 schemas, not 31
        B.bootstrap(settings_for(), echo=lambda m: None)
    assert info.value.step == "vector pool" and "31 schema(s)" in info.value.diagnosis.cause
    assert f"vector_memory_size = {VP.recommended_mb(31)}M" in info.value.diagnosis.fix
    assert VP.SCHEMAS_SQL == ("SELECT COUNT(DISTINCT grantee) FROM dba_tab_privs "
                              "WHERE owner = :owner AND privilege = 'SELECT'")


def test_provisioning_a_class_checks_the_pool_for_every_learner(monkeypatch):
    db = FakeOracle()
    monkeypatch.setattr("workshop_lib.oracle.connection.connect_admin", lambda s: FakeConnection(db, "SYSTEM"))
    monkeypatch.setattr("workshop_lib.oracle.connection.connect_as",
                        lambda s, u, p, **kw: FakeConnection(db, u))
    with pytest.raises(ConfigError) as info:
        PR.provision_learners(settings_for(), 40, echo=lambda m: None)
    assert "41 schema(s)" in str(info.value) and f"{VP.recommended_mb(41)}M" in str(info.value)
    assert db.ddl() == [], "no learner was created"


def test_model_check_wants_384_dimensions():
    import array

    good = ScriptedConn({"user_mining_models": [(1,)], "vector_embedding": [(array.array("f", [0.0] * EMBED_DIM),)]})
    assert D.check_model(good).ok
    short = ScriptedConn({"user_mining_models": [(1,)], "vector_embedding": [(array.array("f", [0.0] * 3),)]})
    assert not D.check_model(short).ok
    missing = D.check_model(ScriptedConn({"user_mining_models": [(0,)]}))
    assert not missing.ok and "workshop setup" in missing.fix


def test_doctor_without_settings_or_database_explains_and_fails():
    report = D.doctor_oracle(settings_for(ORACLE_DSN=None))
    assert not report.ok and report.checks[0].name == "settings" and ".env" in report.checks[0].fix
    report = D.doctor_oracle(settings_for(ORACLE_DSN=f"127.0.0.1:{_free_port()}/FREEPDB1"))
    assert not report.ok
    conn_check = report.checks[-1]
    assert conn_check.name == "connection" and conn_check.detail.startswith("DPY-6005")
    data = json.loads(report.to_json())
    assert data["ok"] is False and data["backend"] == "oracle" and data["checks"][-1]["fix"]
    assert {"host", "user", "checked_at"} <= set(data)
    text = report.render()
    assert "FAIL" in text and "fix:" in text and "Kq7mPw2xLt9vBn" not in text + report.to_json()


def test_lite_doctor_on_an_empty_home_points_at_setup(home):
    report = get_backend(dataclasses.replace(load_settings(), backend="lite")).doctor()
    assert report.backend == "lite" and not report.ok
    by_name = {c.name: c for c in report.checks}
    assert by_name["connection"].ok, by_name["connection"]
    seed = by_name["SUPPLYCHAIN seed"]
    assert not seed.ok and "workshop setup" in seed.fix


# --------------------------------------------------------------------------- provisioning

def test_learner_names():
    assert PR.learner_names(3) == ["LEARNER01", "LEARNER02", "LEARNER03"]
    assert PR.learner_names(120, "lab")[-1] == "LAB120"
    for bad in (0, PR.MAX_LEARNERS + 1):
        with pytest.raises(ConfigError):
            PR.learner_names(bad)
    with pytest.raises(ConfigError):
        PR.learner_names(2, "X; DROP")


def test_learner_grants_are_isolated():
    learners = PR.learner_names(5)
    statements = PR.plan_learner_grants(learners, list(P.SEED_TABLES))
    assert P.any_privilege_violations(statements) == []
    for sql in statements:
        grantee = re.search(r'TO "(\w+)"$', sql).group(1)
        assert grantee in learners
        if " ON " in sql:
            owner = re.search(r' ON "(\w+)"\.', sql).group(1)
            assert owner == SCHEMA and sql.startswith("GRANT SELECT ON"), sql
            # never a grant on another learner's objects
            assert not any(f'"{other}".' in sql for other in learners)
    per_learner = len(P.WORKSHOP_ROLES) + len(P.WORKSHOP_SYSTEM_PRIVILEGES) + len(P.SEED_TABLES)
    assert len(statements) == per_learner * len(learners)


def test_provision_learners_creates_users_grants_and_keeps_passwords_out_of_output(monkeypatch):
    db = FakeOracle()
    db.users |= {"SUPPLYCHAIN", "LEARNER02"}
    db.tables[SCHEMA] = {t: 5 for t in P.SEED_TABLES}
    monkeypatch.setattr("workshop_lib.oracle.connection.connect_admin", lambda s: FakeConnection(db, "SYSTEM"))
    monkeypatch.setattr("workshop_lib.oracle.connection.connect_as", lambda s, u, p, **k: FakeConnection(db, u))
    out: list[str] = []
    accounts = PR.provision_learners(settings_for(), 3, echo=out.append)
    assert [a.username for a in accounts] == ["LEARNER01", "LEARNER02", "LEARNER03"]
    assert accounts[1].password is None and not accounts[1].created   # existing learner untouched
    assert all(a.password for a in (accounts[0], accounts[2]))
    for name in ("LEARNER01", "LEARNER02", "LEARNER03"):
        assert db.roles[name] == set(P.WORKSHOP_ROLES)
        assert {(SCHEMA, t, name) for t in P.SEED_TABLES} <= db.obj_grants
    assert {g for _, _, g in db.obj_grants} == {"LEARNER01", "LEARNER02", "LEARNER03"}
    assert not any(sql.startswith("ALTER USER") for sql in db.ddl()), "no password reset by default"
    printed = "\n".join(out)
    assert all(a.password not in printed for a in accounts if a.password)
    assert all(a.password not in repr(a) for a in accounts if a.password)

    again = PR.provision_learners(settings_for(), 3, echo=out.append, reset_passwords=True)
    assert all(a.password for a in again) and again[0].password != accounts[0].password


def test_connection_sheet_and_private_file(tmp_path):
    accounts = [PR.LearnerAccount("LEARNER01", "adb_low", "Pw1Abcdefghijk"),
                PR.LearnerAccount("LEARNER02", "adb_low", None, created=False)]
    sheet = PR.connection_sheet(accounts)
    assert "| LEARNER01 | Pw1Abcdefghijk | adb_low |" in sheet and "(unchanged)" in sheet
    assert "ORACLE_USER=LEARNER01" in sheet and "ORACLE_PASSWORD=Pw1Abcdefghijk" in sheet
    path = PR.write_connection_sheet(accounts, tmp_path / "class" / "sheet.md")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == sheet
    assert PR.drop_learners_sql(["learner01"]) == ['DROP USER "LEARNER01" CASCADE']


def test_troubleshooting_doc_matches_the_diagnosis_table():
    doc = (REPO / "docs" / "oracle.md").read_text(encoding="utf-8")
    table = doc.split("## Troubleshooting", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"\b(?:ORA|DPY)-\d{4,5}\b", table))
    assert documented == set(DIAGNOSES), (set(DIAGNOSES) - documented, documented - set(DIAGNOSES))


def test_text_index_check_tolerates_a_missing_sync_column():
    conn = ScriptedConn({"from user_indexes": [(TEXT_INDEX.upper(), "VALID", "VALID", "VALID")],
                         "ctx_user_pending": [(0,)],
                         "ctx_user_indexes": OraError('ORA-00904: "IDX_SYNC_TYPE": invalid identifier')})
    check = D.check_text_index_oracle(conn)
    assert check.ok and "sync unknown" in check.detail


def test_lite_doctor_after_setup_is_green_and_notices_a_dropped_text_index(home):
    from workshop_lib.workshop import start

    from workshop_lib.memory.setup import ensure_memory

    settings = load_settings()
    ws = start(settings=settings, upto="memory")
    try:
        ensure_memory(ws)  # what `workshop setup` does after the client: profiles + text index
        report = get_backend(dataclasses.replace(settings, backend="lite")).doctor()
        assert report.ok, report.render()
        assert "0 memories" in {c.name: c for c in report.checks}["workshop memories"].detail
        with ws.conn.cursor() as cur:
            cur.execute(f"DROP INDEX {TEXT_INDEX}")
        ws.conn.commit()
        broken = {c.name: c for c in get_backend(dataclasses.replace(settings, backend="lite")).doctor().checks}["text index"]
        assert not broken.ok and "workshop setup" in broken.fix
    finally:
        ws.close()


def test_lite_doctor_sees_damage_and_setup_repairs_it_keeping_the_learners_memories(home, home_copy):
    """Chunks deleted, vectors nulled, a seed table emptied: doctor fails each, one setup repairs all."""
    from workshop_lib.workshop import start

    shutil.copytree(home_copy("memory", "before_damage"), home, dirs_exist_ok=True)   # set up to the memory level
    settings = load_settings()
    backend = get_backend(dataclasses.replace(settings, backend="lite"))
    ws = start(settings=settings, upto="memory")
    try:
        mine = ws.memory_client.add_memory("the learner's own note about reefer containers", user_id=ws.user_id,
                                           agent_id=ws.agent_id, metadata={"kind": "note"})
        other = ws.memory_client.add_memory("another note about vessel speeds", user_id=ws.user_id,
                                            agent_id=ws.agent_id, metadata={"kind": "note"})
        with ws.conn.cursor() as cur:
            cur.execute("DELETE FROM eda_onnx_record_chunks WHERE source_id = :id", id=mine)
            cur.execute("UPDATE eda_onnx_record_chunks SET embedding = NULL WHERE source_id = :id", id=other)
        ws.conn.commit()
        sc = backend.connect("SUPPLYCHAIN")
        with sc.cursor() as cur:
            cur.execute("DELETE FROM vessel_positions")
        sc.commit()
        sc.close()
    finally:
        ws.close()
    broken = {c.name: c for c in backend.doctor().checks}
    assert not broken["memory vectors"].ok and "2 memories" in broken["memory vectors"].detail
    assert not broken["SUPPLYCHAIN seed"].ok and "vessel_positions 0 of 28" in broken["SUPPLYCHAIN seed"].detail
    backend.setup(upto="memory", reseed=False, echo=lambda *_: None)
    report = backend.doctor()
    assert report.ok, report.render()
    ws = start(settings=settings, upto="memory")
    try:
        found = {r.id for r in ws.memory_client.search("reefer containers note", user_id=ws.user_id,
                                                         agent_id=ws.agent_id, max_results=5)}
        assert mine in found   # kept and searchable again
    finally:
        ws.close()


@pytest.mark.parametrize("damage", ["truncate", "overwrite-pages", "delete-agent", "delete-catalog"])
def test_damaged_lite_files_are_found_by_doctor_and_rebuilt_by_setup(home, home_copy, damage):
    from workshop_lib.backends.lite import damaged_files

    shutil.copytree(home_copy("memory", "before_damage"), home, dirs_exist_ok=True)   # set up to the memory level
    settings = load_settings()
    backend = get_backend(dataclasses.replace(settings, backend="lite"))
    folder = settings.home / "lite"
    target = folder / ("_catalog.db" if damage == "delete-catalog" else
                       "AGENT.db" if damage == "delete-agent" else "SUPPLYCHAIN.db")
    if damage == "truncate":
        target.write_bytes(target.read_bytes()[:1000])
    elif damage == "overwrite-pages":
        data = bytearray(target.read_bytes())
        data[4096:4096 * 3] = bytes(range(256)) * 32   # pages 2-3 overwritten
        target.write_bytes(bytes(data))
    else:
        target.unlink()
    assert damaged_files(settings.home), f"{damage} was not noticed"
    report = backend.doctor()
    assert not report.ok and report.checks[0].name == "database files" and "workshop setup" in report.checks[0].fix
    said = []
    backend.setup(upto="memory", reseed=False, echo=said.append)
    assert any("moved them aside" in line for line in said)
    assert list(settings.home.glob("lite.damaged-*")), "the damaged files are kept"
    assert not damaged_files(settings.home)
    report = backend.doctor()
    assert report.ok, report.render()


def test_garbage_model_metadata_is_seen_by_doctor_and_rebuilt_by_setup(home):
    from workshop_lib.embedding.build import METADATA_FILE, model_dir

    settings = load_settings()
    backend = get_backend(dataclasses.replace(settings, backend="lite"))
    backend.setup(upto="model", reseed=False, echo=lambda *_: None)
    meta = model_dir(settings.home) / METADATA_FILE
    meta.write_text("{ this is not json")
    check = {c.name: c for c in backend.doctor().checks}["model files"]
    assert not check.ok and "workshop setup" in check.fix
    backend.setup(upto="model", reseed=False, echo=lambda *_: None)
    assert {c.name: c for c in backend.doctor().checks}["model files"].ok


# --------------------------------------------------------------------------- setup repairs what doctor finds (issue 10, section 4)

ORACLE_FIX = "workshop setup --backend oracle"
DESTRUCTIVE = ("DROP ", "DELETE ", "TRUNCATE ", "CREATE INDEX", "BEGIN CTX_DDL", 'ALTER USER "SUPPLYCHAIN" IDENTIFIED',
               'ALTER USER "AGENT" IDENTIFIED')


def _oracle_setup(db, *, upto="scan", **kw):
    """`workshop setup --backend oracle` through the backend seam, against the FakeOracle of fake_world."""
    out: list[str] = []
    get_backend(settings_for()).setup(upto=upto, reseed=kw.pop("reseed", False), echo=out.append, **kw)
    return out


def _oracle_doctor(db, monkeypatch):
    monkeypatch.setattr("workshop_lib.oracle.connection.connect_as", lambda s, u, p, **kw: FakeConnection(db, u))
    monkeypatch.setattr("workshop_lib.oracle.connection.connect_admin", lambda s: FakeConnection(db, "SYSTEM"))
    return {c.name: c for c in get_backend(settings_for()).doctor().checks}


def _learner_note(db, record_id="learner-note-1", text="My own note: berth 7 closes at six.", vector=True):
    from workshop_lib.config import AGENT_ID, USER_ID

    db.memories[record_id] = {"content": text, "user": USER_ID, "agent": AGENT_ID, "kind": "note", "vector": vector}


def _destructive(db, since: int) -> list[str]:
    """Statements after log position ``since`` that change or remove something (the probe's own row aside)."""
    found = []
    for _, sql, params in db.log[since:]:
        if sql.startswith(f"DELETE FROM {MEMORY_TABLE}") and str(params.get("rid", "")).startswith("workshop-text-probe-"):
            continue
        if sql.lstrip().upper().startswith(DESTRUCTIVE):
            found.append(sql)
    return found


def test_a_second_oracle_setup_on_a_sound_database_sends_nothing_destructive(fake_world):
    db, calls = fake_world
    _oracle_setup(db)
    _learner_note(db)
    since, oamp = len(db.log), len(db.oamp_calls)
    out = _oracle_setup(db)
    assert _destructive(db, since) == [], _destructive(db, since)
    assert db.oamp_calls[oamp:] == [], "no memory written, re-embedded or deleted"
    assert calls["seed"] == 1, "a seed that matches its manifest is not re-run"
    assert "learner-note-1" in db.memories
    for step in ("seed SUPPLYCHAIN", "embedding model", "text index", "catalog memories", "memory vectors"):
        assert any(f"[skipped] {step}:" in line for line in out), (step, out)


@pytest.mark.parametrize("damage", ["vessel_positions emptied", "cargo_items rows deleted", "ports dropped",
                                    "spatial indexes dropped"])
def test_oracle_setup_reseeds_when_any_table_differs_from_the_seed_manifest(fake_world, damage):
    """Not only the last table: every table's count against seed_manifest(), and the spatial indexes."""
    db, calls = fake_world
    _oracle_setup(db)
    _learner_note(db)
    if damage == "vessel_positions emptied":
        db.tables[SCHEMA]["VESSEL_POSITIONS"] = 0
    elif damage == "cargo_items rows deleted":
        db.tables[SCHEMA]["CARGO_ITEMS"] -= 7
    elif damage == "ports dropped":
        del db.tables[SCHEMA]["PORTS"]
    else:
        db.spatial = False
    out = _oracle_setup(db)
    assert calls["seed"] == 2, out
    line = next(line for line in out if "] seed SUPPLYCHAIN:" in line)
    assert "[   done]" in line and {"vessel_positions emptied": "vessel_positions 0 of 28 rows",
                                     "cargo_items rows deleted": "cargo_items 293 of 300 rows",
                                     "ports dropped": "ports missing",
                                     "spatial indexes dropped": "spatial indexes missing"}[damage] in line
    assert {(SCHEMA, t, "AGENT") for t in P.SEED_TABLES} <= db.obj_grants, "grants restored after the reseed"
    assert "learner-note-1" in db.memories, "a reseed keeps the memories"


def test_oracle_setup_syncs_pending_rows_and_rebuilds_an_invalid_or_unsynced_text_index(fake_world):
    db, _ = fake_world
    _oracle_setup(db)
    name = TEXT_INDEX.upper()
    db.pending[name] = 4                                          # rows waiting: the doctor fails on them
    since = len(db.log)
    _oracle_setup(db)
    sent = [sql for _, sql, _ in db.log[since:]]
    assert "BEGIN CTX_DDL.SYNC_INDEX(:n); END;" in sent and db.pending[name] == 0
    assert not [s for s in sent if s.startswith(("DROP INDEX", "CREATE INDEX"))], "a valid index is kept"

    db.indexes[name] = (MEMORY_TABLE.upper(), "INVALID")
    since = len(db.log)
    _oracle_setup(db)
    sent = [sql for _, sql, _ in db.log[since:]]
    assert sent.index(f'DROP INDEX "{name}" FORCE') < sent.index(B.text_index_sql())
    assert db.indexes[name][1] == "VALID"

    db.no_sync.add(name)                    # a learner recreated it without PARAMETERS ('SYNC (ON COMMIT)')
    since = len(db.log)
    out = _oracle_setup(db)
    sent = [sql for _, sql, _ in db.log[since:]]
    assert f'DROP INDEX "{name}" FORCE' in sent and B.text_index_sql() in sent and not db.no_sync
    assert any("did not sync on commit" in line for line in out)


def test_oracle_setup_reloads_a_dropped_model_and_recreates_memory_tables(fake_world):
    db, calls = fake_world
    _oracle_setup(db)
    db.models.clear()
    del db.tables["AGENT"][CHUNKS_TABLE.upper()]
    out = _oracle_setup(db)
    assert db.models and any("[   done] embedding model" in line and "ALL_MINILM_L6_V2 loaded" in line for line in out)
    assert CHUNKS_TABLE.upper() in db.tables["AGENT"]
    assert any("[   done] memory tables" in line for line in out) and any(
        "[   done] embedding model" in line for line in out)


def test_oracle_setup_re_embeds_memories_without_vectors_through_oamp_keeping_them(fake_world):
    """The shared repair (memory.setup.repair_memories): same SQL as lite, OAMP's update_memory, nothing deleted."""
    from workshop_lib.memory.setup import UNSEARCHABLE_SQL

    db, _ = fake_world
    _oracle_setup(db)
    _learner_note(db, "learner-note-1", vector=False)                        # chunk rows deleted
    _learner_note(db, "learner-note-2", "Reefers need power.", vector=False)  # embeddings set to NULL
    db.memories["fact-table-supplychain-vessels"]["vector"] = False
    since, oamp = len(db.log), len(db.oamp_calls)
    out = _oracle_setup(db)
    sent = [sql for _, sql, _ in db.log[since:]]
    assert UNSEARCHABLE_SQL in sent
    assert sent.count(f"SELECT content FROM {MEMORY_TABLE} WHERE record_id = :id") == 3
    assert sorted(db.oamp_calls[oamp:]) == [("update_memory", "fact-table-supplychain-vessels"),
                                            ("update_memory", "learner-note-1"), ("update_memory", "learner-note-2")]
    assert all(m["vector"] for m in db.memories.values())
    assert db.memories["learner-note-2"]["content"] == "Reefers need power." and db.memories["learner-note-2"]["kind"] == "note"
    assert any("re-embedded 3 memories" in line for line in out)
    assert _destructive(db, since) == []


def test_oracle_setup_removes_stale_fact_memories_and_keeps_the_learners_own(fake_world):
    db, _ = fake_world
    _oracle_setup(db)
    _learner_note(db)
    from workshop_lib.config import AGENT_ID, USER_ID

    db.memories["fact-table-vessels"] = {"content": "Table VESSELS: ships (wrong subject).", "user": USER_ID,
                                         "agent": AGENT_ID, "kind": "table", "vector": True}
    oamp = len(db.oamp_calls)
    out = _oracle_setup(db)
    assert db.oamp_calls[oamp:] == [("delete_memory", "fact-table-vessels")]
    assert "learner-note-1" in db.memories and "fact-table-supplychain-vessels" in db.memories
    assert any("1 stale ones removed" in line and "1 memories of your own kept" in line for line in out)


def test_oracle_doctor_sees_each_damage_names_the_exact_setup_command_and_setup_makes_it_green(fake_world, monkeypatch):
    db, _ = fake_world
    _oracle_setup(db)
    _learner_note(db)
    assert all(c.ok for c in _oracle_doctor(db, monkeypatch).values()), _oracle_doctor(db, monkeypatch)
    from workshop_lib.config import AGENT_ID, USER_ID

    db.tables[SCHEMA]["VESSEL_POSITIONS"] = 0
    db.models.clear()
    db.memories["learner-note-1"]["vector"] = False
    db.memories["fact-table-vessels"] = {"content": "stale", "user": USER_ID, "agent": AGENT_ID,
                                         "kind": "table", "vector": True}
    db.pending[TEXT_INDEX.upper()] = 2
    broken = {n: c for n, c in _oracle_doctor(db, monkeypatch).items() if not c.ok}
    assert set(broken) == {"SUPPLYCHAIN seed", "embedding model", "memory vectors", "catalog memories", "text index"}
    for check in broken.values():
        assert f"`{ORACLE_FIX}`" in check.fix, check
        assert "`workshop setup`" not in check.fix and "workshop doctor" not in check.fix, check
    _oracle_setup(db)
    report = _oracle_doctor(db, monkeypatch)
    assert all(c.ok for c in report.values()), [c for c in report.values() if not c.ok]
    assert db.memories["learner-note-1"]["content"] == "My own note: berth 7 closes at six."

    db.spatial = False
    db.indexes[TEXT_INDEX.upper()] = (MEMORY_TABLE.upper(), "FAILED")
    del db.tables["AGENT"][MEMORY_TABLE.upper()]
    broken = {n: c for n, c in _oracle_doctor(db, monkeypatch).items() if not c.ok}
    assert {"SUPPLYCHAIN seed", "text index", "memory tables"} <= set(broken)
    assert all(f"`{ORACLE_FIX}`" in c.fix for c in broken.values()), broken
    _oracle_setup(db)
    assert all(c.ok for c in _oracle_doctor(db, monkeypatch).values())


def test_the_oracle_doctor_rewrites_every_setup_fix_to_the_oracle_command():
    assert D.oracle_fix("run `workshop setup` (idempotent)") == "run `workshop setup --backend oracle` (idempotent)"
    assert D.oracle_fix("run `workshop setup --backend oracle`") == "run `workshop setup --backend oracle`"


# --------------------------------------------------------------------------- workshop setup --reset-passwords

def test_reset_passwords_goes_through_the_backend_to_bootstrap(fake_world):
    db, _ = fake_world
    _oracle_setup(db)
    assert db.password_history == {"SUPPLYCHAIN": [settings_for().supplychain_password],
                                   "AGENT": [settings_for().oracle_password]}
    since = len(db.log)
    out = _oracle_setup(db, reset_passwords=True)
    sent = [sql for _, sql, _ in db.log[since:]]
    assert P.password_sql("SUPPLYCHAIN", settings_for().supplychain_password) in sent
    assert P.password_sql("AGENT", settings_for().oracle_password) in sent
    assert any("password reset from .env" in line for line in out)
    assert not any(settings_for().oracle_password in line for line in out)


def test_reset_passwords_without_the_admin_password_is_one_readable_error(fake_world):
    db, _ = fake_world
    with pytest.raises(B.OracleSetupError) as info:
        get_backend(settings_for(ORACLE_ADMIN_PASSWORD=None)).setup(upto="scan", reseed=False, echo=lambda m: None,
                                                                  reset_passwords=True)
    assert info.value.step == "settings" and "ORACLE_ADMIN_PASSWORD" in str(info.value)
    assert "\n" not in str(info.value) and db.log == []


def test_lite_setup_ignores_reset_passwords_and_says_so(home):
    said: list[str] = []
    get_backend(dataclasses.replace(load_settings(), backend="lite")).setup(
        upto="connect", reseed=False, echo=said.append, reset_passwords=True)
    assert any("--reset-passwords is for the Oracle backend" in line and "ignored" in line for line in said)


def test_one_oracle_setup_at_a_time_per_home(fake_world, tmp_path, monkeypatch):
    """Oracle setup holds the home's setup lock (lite's) while it bootstraps: a second one waits, with a message."""
    import fcntl

    held = []

    def bootstrap(settings, **kw):
        with open(tmp_path / ".setup.lock", "w") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held.append(True)

    monkeypatch.setattr(B, "bootstrap", bootstrap)
    get_backend(settings_for(WORKSHOP_HOME=str(tmp_path))).setup(upto="connect", reseed=False, echo=lambda m: None)
    assert held == [True]



def test_a_refused_admin_login_names_the_admin_settings(monkeypatch) -> None:
    """ORA-01017 as the admin user points at ORACLE_ADMIN_USER/PASSWORD, not the learner's pair."""
    import oracledb

    from workshop_lib.errors import ConfigError
    from workshop_lib.oracle import connection

    def refuse(**_kwargs):
        raise oracledb.DatabaseError("ORA-01017: invalid credential or not authorized; logon denied")

    monkeypatch.setattr(oracledb, "connect", refuse)
    settings = type("S", (), {"oracle_dsn": "db:1521/FREEPDB1", "admin_user": "SYSTEM",
                              "admin_password": "Wrong_pw_123456", "wallet_dir": None})()
    with pytest.raises(ConfigError) as info:
        connection.connect_admin(settings)
    message = str(info.value)
    assert "ORACLE_ADMIN_USER=SYSTEM" in message and "ORACLE_ADMIN_PASSWORD" in message
    assert "ORACLE_PASSWORD in" not in message and "Wrong_pw" not in message
