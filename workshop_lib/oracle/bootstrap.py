"""``workshop setup --backend oracle``: bring an Oracle database up to date, idempotently.

Order of work, each step safe to repeat and each reported as done / skipped:

1. wait (bounded) until the database accepts logins;
2. as the admin user: create or update the SUPPLYCHAIN and AGENT users
   (password from .env, default tablespace checked to be ASSM, bounded quota)
   and grant the least privileges in :mod:`.privileges` (no ANY privilege);
3. as SUPPLYCHAIN: run the seed when any table is missing or holds another
   row count than the seed script inserts (its manifest), or the spatial
   indexes are missing; then grant SELECT on each of its tables to AGENT (and
   re-grant to learners after a reseed);
4. as AGENT: load the ONNX embedding model when it is missing and check it
   returns 384-dim vectors, create OAMP's tables, create the Oracle Text index
   on the memory table's ``content`` (rebuilding an invalid one or one that does
   not sync on commit, synchronising pending rows) and prove it syncs on commit;
5. the caller's ``then`` steps: :class:`~workshop_lib.backends.oracle.OracleBackend`
   adds the catalog scan (stale fact memories removed) and the re-embedding of
   memories without a chunk/vector, shared with lite.

A failed step raises :class:`OracleSetupError` carrying the step name and a
:class:`~.diagnosis.Diagnosis` (cause + exact fix); nothing it leaves behind
blocks the next run (existing users are altered, grants are idempotent, a
half-built text index is dropped and rebuilt).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..config import (
    AGENT_ID,
    CHUNKS_TABLE,
    EMBED_DIM,
    EMBED_MODEL,
    MEMORY_TABLE,
    SCHEMA,
    TEXT_INDEX,
    masked_dsn,
)
from .. import dictionary
from ..errors import WorkshopError
from . import privileges as P
from ._sql import execute as _execute, rows as _rows, scalar as _scalar
from .connection import connect_admin, connect_as, create_pool_as
from .diagnosis import Diagnosis, diagnose, error_codes

Echo = Callable[[str], Any]
PROBE_USER_ID = "workshop_setup_probe"  # never a learner's scope, so a probe row is never seen


class OracleSetupError(WorkshopError):
    """A setup step failed; ``step`` names it and ``diagnosis`` says why and how to fix it."""

    def __init__(self, step: str, diagnosis: Diagnosis):
        super().__init__(f"Setup step '{step}' failed. {diagnosis}")
        self.step = step
        self.diagnosis = diagnosis


@dataclass
class StepResult:
    """One line of the setup report."""

    name: str
    status: str  # "done", "skipped" or "failed"
    detail: str = ""


@dataclass
class BootstrapReport:
    """What :func:`bootstrap` did, step by step (no secrets in it)."""

    backend: str
    steps: list[StepResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when no step failed."""
        return all(step.status != "failed" for step in self.steps)

    def summary(self) -> str:
        """A short multi-line text for the terminal."""
        lines = [f"Workshop setup ({self.backend}) {'finished' if self.ok else 'FAILED'} "
                 f"in {self.seconds:.1f}s:"]
        lines += [f"  [{s.status:>7}] {s.name}: {s.detail}" for s in self.steps]
        return "\n".join(lines)

    def to_json(self) -> str:
        """The report as JSON (for CI logs and instructors' scripts)."""
        return json.dumps({"backend": self.backend, "ok": self.ok, "seconds": round(self.seconds, 2),
                           "steps": [dataclasses.asdict(s) for s in self.steps]}, indent=2)


class _Steps:
    """Runs named steps, records their outcome and turns exceptions into OracleSetupError."""

    def __init__(self, report: BootstrapReport, echo: Echo):
        self.report, self.echo = report, echo

    def run(self, name: str, fn: Callable[[], tuple[str, str]]) -> None:
        try:
            status, detail = fn()
        except OracleSetupError as exc:
            self._record(name, "failed", str(exc.diagnosis))
            raise
        except WorkshopError as exc:
            diagnosis = _diagnosis_of(exc)
            self._record(name, "failed", str(diagnosis))
            raise OracleSetupError(name, diagnosis) from exc
        except Exception as exc:  # noqa: BLE001 - every database error gets a diagnosis
            diagnosis = diagnose(exc)
            self._record(name, "failed", str(diagnosis))
            raise OracleSetupError(name, diagnosis) from exc
        self._record(name, status, detail)

    def _record(self, name: str, status: str, detail: str) -> None:
        self.report.steps.append(StepResult(name, status, detail))
        self.echo(f"  [{status:>7}] {name}: {detail}")


def _diagnosis_of(exc: WorkshopError) -> Diagnosis:
    """A workshop error as cause + fix: its message already says both (``... Fix: ...``) or only the cause."""
    text = str(exc).strip()
    code = getattr(getattr(exc, "diagnosis", None), "code", None)
    cause, sep, fix = text.partition(" Fix: ")
    if sep:
        return Diagnosis(code if code and code not in cause else None, cause, fix)
    return Diagnosis(None, text, "correct what the message names, then re-run `workshop setup --backend oracle`.")


# --- small SQL helpers ---------------------------------------------------------



def _has_code(exc: BaseException, *codes: str) -> bool:
    found = error_codes(exc)
    return any(code in found for code in codes)


# --- admin part: users and privileges -------------------------------------------

def default_tablespace(conn: Any) -> str:
    """The database's default permanent tablespace, checked to use ASSM.

    VECTOR and JSON columns are stored as SecureFiles, which need Automatic
    Segment Space Management; USERS (Oracle Free) and DATA (Autonomous
    Database) both qualify.
    """
    name = _scalar(conn, P.DEFAULT_TABLESPACE_SQL) or "USERS"
    mode = _scalar(conn, P.TABLESPACE_ASSM_SQL, {"name": name})
    if mode is not None and str(mode).upper() != "AUTO":
        raise OracleSetupError("tablespace", Diagnosis(
            None,
            f"The default tablespace {name} uses manual segment space management; VECTOR and "
            "JSON columns need ASSM.",
            "ask the DBA for an ASSM tablespace and make it the default "
            "(ALTER DATABASE DEFAULT TABLESPACE <name>).",
        ))
    return P.validate_identifier(name, "tablespace")


def ensure_user(conn: Any, user: str, password: str, tablespace: str,
                quota: str = P.DEFAULT_QUOTA, *, can_login: Callable[[str, str], bool] | None = None,
                reset_password: bool = False, target: str = "oracle") -> str:
    """Create ``user``, or bring an existing one in line; return what happened.

    The password is validated for ``target`` (``oracle`` or ``adb``) before any
    SQL. An existing user gets its tablespace, quota and ``ACCOUNT UNLOCK``;
    its password is set only when ``reset_password`` is asked for or when
    ``can_login(user, password)`` says the password from .env does not log in
    (wrong or expired). Re-setting an unchanged password on every run would
    fail on Autonomous Database with ORA-28007 (reused, or changed within 24
    hours); when a needed reset is refused that way the error says to choose a
    new password.
    """
    name = P.validate_identifier(user, "user name")
    P.validate_password(password, name, target)
    exists = int(_scalar(conn, P.USER_EXISTS_SQL, {"name": name}) or 0) > 0
    if not exists:
        try:
            _execute(conn, P.create_user_sql(name, password, tablespace, quota, target))
            return "created"
        except Exception as exc:
            # ORA-01920: created meanwhile (another run); fall through to ALTER.
            if not _has_code(exc, "ORA-01920"):
                raise
    _execute(conn, P.alter_user_sql(name, tablespace, quota))
    if not reset_password and (can_login is None or can_login(name, password)):
        return "exists, password unchanged"
    try:
        _execute(conn, P.password_sql(name, password, target))
    except Exception as exc:
        if _has_code(exc, "ORA-28007"):
            raise OracleSetupError("users and privileges", Diagnosis(
                "ORA-28007",
                f"The password in .env for {name} does not log in, and the database refused to set it "
                "again: it was used before (Autonomous Database keeps the last four and refuses a "
                "change within 24 hours).",
                f"put a new password for {name} in .env (12-30 characters with upper, lower and a digit "
                "on Autonomous Database) and re-run `workshop setup`.",
            )) from exc
        raise
    return "password reset from .env" if reset_password else "password set from .env (the old one did not log in)"


def login_probe(settings: Any) -> Callable[[str, str], bool]:
    """``can_login(user, password)`` for :func:`ensure_user`: True when the login succeeds.

    A wrong (ORA-01017) or expired (ORA-28001) password is False; any other
    error (the database down, say) is raised.
    """
    def can_login(user: str, password: str) -> bool:
        try:
            conn = connect_as(settings, user, password, tcp_connect_timeout=10)
        except Exception as exc:  # noqa: BLE001 - classified below
            if _has_code(exc, "ORA-01017", "ORA-28001"):
                return False
            raise
        conn.close()
        return True

    return can_login


def ensure_role_grants(conn: Any, user: str) -> list[str]:
    """Grant the workshop roles and privileges ``user`` lacks; return the statements run.

    Reads DBA_ROLE_PRIVS / DBA_SYS_PRIVS to report "already granted"; when the
    admin cannot read them (ORA-00942) it simply grants everything, which
    Oracle treats as a no-op for what is already held.
    """
    name = P.validate_identifier(user, "user name")
    try:
        roles = [r[0] for r in _rows(conn, P.GRANTED_ROLES_SQL, {"name": name})]
        privs = [r[0] for r in _rows(conn, P.GRANTED_SYS_PRIVS_SQL, {"name": name})]
        todo = P.missing_grants(name, roles, privs)
    except Exception as exc:
        if not _has_code(exc, "ORA-00942", "ORA-01031"):
            raise
        todo = P.role_and_privilege_grants(name)
    for sql in todo:
        _execute(conn, sql)
    return todo


# --- SUPPLYCHAIN part: seed and catalog grants --------------------------------

def seed_state(conn: Any) -> dict[str, int | None]:
    """Row count per expected SUPPLYCHAIN table (None when the table is missing), as its owner."""
    present = {r[0] for r in _rows(conn, P.OWNED_TABLES_SQL)}
    state: dict[str, int | None] = {}
    for table in P.SEED_TABLES:
        if table in present:
            state[table] = int(_scalar(conn, f"SELECT COUNT(*) FROM {P.quote_identifier(table)}") or 0)
        else:
            state[table] = None
    return state


def ensure_catalog_grants(conn: Any, grantees: Iterable[str]) -> list[str]:
    """As SUPPLYCHAIN: GRANT SELECT on each seed table it owns to each grantee; return the statements.

    Only the seed's tables: never a spatial index's MDRT_…$ table or an
    Oracle Text DR$… table (secondary objects), nor anything else in the schema.
    """
    tables = P.seed_tables_present(r[0] for r in _rows(conn, P.OWNED_TABLES_SQL))
    done: list[str] = []
    for grantee in dict.fromkeys(P.validate_identifier(g, "grantee") for g in grantees):
        for sql in P.catalog_grants(tables, grantee):
            _execute(conn, sql)
            done.append(sql)
    return done


def existing_catalog_grantees(conn: Any) -> list[str]:
    """Users SUPPLYCHAIN has granted SELECT to (so a reseed can restore learners' grants)."""
    try:
        return sorted({r[0] for r in _rows(conn, P.GRANTS_MADE_SQL)})
    except Exception as exc:
        if _has_code(exc, "ORA-00942"):
            return []
        raise


# --- AGENT part: model, memory schema, text index -----------------------------

def model_loaded(conn: Any, model: str = EMBED_MODEL) -> bool:
    """True when ``model`` is in USER_MINING_MODELS of the connected schema."""
    return dictionary.model_loaded(conn, P.validate_identifier(model, "model name"))


def embedding_dimension(conn: Any, model: str = EMBED_MODEL) -> int:
    """Embed a probe sentence in SQL and return the vector's dimension count."""
    name = P.validate_identifier(model, "model name")
    sql = (f"SELECT VECTOR_DIMENSION_COUNT(VECTOR_EMBEDDING({name} USING :q AS DATA)) "
           "FROM dual")
    return int(_scalar(conn, sql, {"q": "container vessel capacity in TEU"}))


TEXT_INDEX_STATE_SQL = (
    "SELECT index_name, status, domidx_status, domidx_opstatus FROM user_indexes "
    "WHERE table_name = :t AND ityp_owner = 'CTXSYS' AND ityp_name = 'CONTEXT'"
)


def _memory_tables_present(conn: Any) -> bool:
    names = {str(r[0]).upper() for r in _rows(conn, "SELECT table_name FROM user_tables")}
    return {MEMORY_TABLE.upper(), CHUNKS_TABLE.upper()} <= names


def text_index_sql(table: str = MEMORY_TABLE, index: str = TEXT_INDEX) -> str:
    """The Oracle Text CONTEXT index on ``table(content)``, synchronised at each commit."""
    return dictionary.text_index_sql(P.validate_identifier(table, "table name"),
                                     P.validate_identifier(index, "index name"))


TEXT_INDEX_PENDING_SQL = "SELECT COUNT(*) FROM ctx_user_pending WHERE pnd_index_name = :n"
SYNC_TEXT_INDEX_PLSQL = "BEGIN CTX_DDL.SYNC_INDEX(:n); END;"


def ensure_text_index(conn: Any, table: str = MEMORY_TABLE, index: str = TEXT_INDEX, *,
                      rebuild: bool = False) -> str:
    """Create the CONTEXT index unless a valid one is there; rebuild a half-built one; sync pending rows.

    A valid index with rows waiting in CTX_USER_PENDING (what the doctor
    fails on) is synchronised with ``CTX_DDL.SYNC_INDEX``; ``rebuild=True``
    drops even a valid one (one that does not sync on commit) and recreates it.
    """
    t = P.validate_identifier(table, "table name")
    i = P.validate_identifier(index, "index name")
    rows = _rows(conn, TEXT_INDEX_STATE_SQL, {"t": t})
    for name, status, dom_status, dom_opstatus in rows:
        healthy = (str(status).upper() == "VALID" and str(dom_status or "VALID").upper() == "VALID"
                   and str(dom_opstatus or "VALID").upper() == "VALID")
        if healthy and not rebuild:
            present = "already present" if name == i else f"already present as {name}"
            pending = int(_scalar(conn, TEXT_INDEX_PENDING_SQL, {"n": name}) or 0)
            if pending:
                _execute(conn, SYNC_TEXT_INDEX_PLSQL, {"n": name})
                return f"{present}; synchronised {pending} pending rows"
            return present
        # A failed CREATE INDEX leaves a FAILED domain index that blocks the next attempt.
        _execute(conn, f"DROP INDEX {P.quote_identifier(name)} FORCE")
    _execute(conn, text_index_sql(t, i))
    if not rows:
        return "created"
    return "rebuilt (the previous one did not sync on commit)" if rebuild else \
        "rebuilt (the previous one was not valid)"


def probe_text_sync(conn: Any, table: str = MEMORY_TABLE) -> None:
    """Insert a probe memory, commit, find it with CONTAINS, delete it; raise if it is not found."""
    t = P.validate_identifier(table, "table name").lower()
    token = "wsprobe" + secrets.token_hex(6)
    record_id = f"workshop-text-probe-{token}"
    _execute(conn,
             f"INSERT INTO {t} (record_id, user_id, agent_id, memory_type, content) "
             "VALUES (:rid, :u, :a, 'memory', :c)",
             {"rid": record_id, "u": PROBE_USER_ID, "a": AGENT_ID,
              "c": f"Setup probe {token} checks that the Oracle Text index syncs on commit."})
    conn.commit()
    try:
        found = int(_scalar(conn, f"SELECT COUNT(*) FROM {t} WHERE record_id = :rid "
                                  "AND CONTAINS(content, :kw, 1) > 0",
                            {"rid": record_id, "kw": token}) or 0)
    finally:
        _execute(conn, f"DELETE FROM {t} WHERE record_id = :rid", {"rid": record_id})
        conn.commit()
    if found != 1:
        raise OracleSetupError("text index sync", Diagnosis(
            None,
            f"A row committed to {t} was not found by CONTAINS: the Oracle Text index is not "
            "synchronised on commit.",
            f"as {t}'s owner run `DROP INDEX {TEXT_INDEX.lower()} FORCE;` and re-run "
            "`workshop setup --backend oracle` (it recreates the index with SYNC (ON COMMIT)).",
        ))


def setup_agent_schema(settings: Any, user: str, password: str, steps: _Steps,
                       *, label: str = "") -> None:
    """Model, OAMP tables and text index in one agent schema (AGENT or a learner)."""
    prefix = f"{label} " if label else ""
    agent_settings = dataclasses.replace(settings, oracle_user=user, oracle_password=password)
    conn = connect_as(settings, user, password)
    try:
        def load_model() -> tuple[str, str]:
            from ..embedding import ensure_model
            from ..embedding.oracle_loader import load_model_oracle

            had = model_loaded(conn)
            built = ensure_model(settings)
            load_model_oracle(conn, EMBED_MODEL, built, force=False)
            dim = embedding_dimension(conn)
            if dim != EMBED_DIM:
                raise OracleSetupError(f"{prefix}embedding model", Diagnosis(
                    None, f"{EMBED_MODEL} returns {dim}-dimensional vectors, not {EMBED_DIM}.",
                    "rebuild the model (`workshop model build`) and re-run setup.",
                ))
            state = "already loaded" if had else "loaded"
            return ("skipped" if had else "done"), f"{EMBED_MODEL} {state}; returns {dim}-dim vectors"

        steps.run(f"{prefix}embedding model", load_model)

        def memory_schema() -> tuple[str, str]:
            from .memory import build_oracle_memory_client

            had = _memory_tables_present(conn)
            pool = create_pool_as(settings, user, password)
            try:
                build_oracle_memory_client(pool, agent_settings)
            finally:
                pool.close(force=True)
            if not _memory_tables_present(conn):
                raise OracleSetupError(f"{prefix}memory tables", Diagnosis(
                    None, f"OAMP did not create {MEMORY_TABLE} and {CHUNKS_TABLE} in {user} "
                          "(its CREATE_IF_NECESSARY schema policy raised no error).",
                    f"check that {user} holds DB_DEVELOPER_ROLE and a quota on its default tablespace "
                    "(ORACLE_ADMIN_PASSWORD set lets setup grant both), then re-run "
                    "`workshop setup --backend oracle`.",
                ))
            return ("skipped" if had else "done"), f"OAMP tables ({MEMORY_TABLE}, {CHUNKS_TABLE}, ...) present"

        steps.run(f"{prefix}memory tables", memory_schema)

        def text_index() -> tuple[str, str]:
            outcome = ensure_text_index(conn)
            try:
                probe_text_sync(conn)
            except OracleSetupError:
                # a valid index that does not sync on commit (created without SYNC (ON COMMIT)): rebuild once
                outcome = ensure_text_index(conn, rebuild=True)
                try:
                    probe_text_sync(conn)
                except OracleSetupError as exc:
                    raise OracleSetupError(f"{prefix}text index", Diagnosis(
                        None, exc.diagnosis.cause + " Setup dropped and recreated it with SYNC (ON COMMIT) "
                        "and the probe still was not found.",
                        "Oracle Text is not processing this schema's syncs: ask the DBA to look at "
                        "CTX_USER_INDEX_ERRORS and the CTXSYS installation (docs/troubleshooting.md, Oracle).",
                    )) from exc
            status = "skipped" if outcome.startswith("already present") and ";" not in outcome else "done"
            return status, f"{TEXT_INDEX} {outcome}; syncs on commit (probe found and removed)"

        steps.run(f"{prefix}text index", text_index)
    finally:
        conn.close()


# --- vector pool, before anything is created ---------------------------------------

def check_vector_pool_early(settings: Any, agent: str, target: str, schemas: int = 1) -> tuple[str, str]:
    """Read VECTOR_MEMORY_SIZE (as the admin user, else as AGENT) and fail now when the pool cannot hold the index.

    Without this, a database whose pool is 0 fails only at the memory-table
    step (ORA-51962), after users, seed and model were set up.
    """
    from .vector_pool import pool_problem, pool_request, read_pool

    if target == "adb":
        return "skipped", "managed automatically by Autonomous Database"
    try:
        conn = (connect_admin(settings) if settings.admin_password
                else connect_as(settings, agent, settings.oracle_password))
    except Exception as exc:  # noqa: BLE001 - the users step / seed step report login problems
        if not settings.admin_password and _has_code(exc, "ORA-01017", "ORA-28000", "ORA-28001"):
            return "skipped", f"could not log in as {agent} to read VECTOR_MEMORY_SIZE"
        raise
    try:
        size, schemas = read_pool(conn, schemas, as_admin=bool(settings.admin_password))
    finally:
        conn.close()
    if size is None:
        return "skipped", ("VECTOR_MEMORY_SIZE is not readable by this user (needs SELECT_CATALOG_ROLE); "
                           "if the memory tables step fails with ORA-51962, " + pool_request(schemas))
    problem = pool_problem(size, schemas=schemas)
    if problem:
        raise OracleSetupError("vector pool", Diagnosis("ORA-51962", problem + ".", pool_request(schemas)))
    return "done", f"VECTOR_MEMORY_SIZE {size // (1024 * 1024)} MB"


# --- entry point -----------------------------------------------------------------

#: A step the caller adds after the agent schema: (name, fn) with fn() -> (status, detail).
Step = tuple[str, Callable[[], tuple[str, str]]]


def bootstrap(settings: Any, *, echo: Echo = print, reseed: bool = False,
              wait_timeout_s: float = 180.0, reset_passwords: bool = False,
              then: Iterable[Step] = ()) -> BootstrapReport:
    """Set up an Oracle database idempotently and return a report of what was done.

    See the module docstring for the steps. Admin credentials are optional: without
    ORACLE_ADMIN_PASSWORD the users are assumed to exist (an instructor or DBA
    created them) and only the schema-level steps run. ``reseed`` re-runs the
    seed even when SUPPLYCHAIN is already populated; ``reset_passwords`` sets
    both users' passwords from .env even when they still log in. ``then``: steps run
    after the agent schema, reported and diagnosed like the others (the backend adds
    the memory repairs it shares with lite there). (Lite is set up by
    :meth:`workshop_lib.backends.lite.LiteBackend.setup`.) Raises
    :class:`OracleSetupError` (with cause and fix) on the first failed step.
    Passwords are never echoed.
    """
    started = time.monotonic()
    report = BootstrapReport(backend="oracle")
    steps = _Steps(report, echo)
    try:
        _bootstrap_oracle(settings, steps, echo, reseed=reseed, wait_timeout_s=wait_timeout_s,
                          reset_passwords=reset_passwords)
        for name, fn in then:
            steps.run(name, fn)
    finally:
        report.seconds = time.monotonic() - started
    echo(report.summary())
    return report


def _bootstrap_oracle(settings: Any, steps: _Steps, echo: Echo, *, reseed: bool,
                      wait_timeout_s: float, reset_passwords: bool = False) -> None:
    from .waiting import wait_for_database

    target = P.password_target(settings)

    def check_settings() -> tuple[str, str]:
        settings.require_oracle(supplychain=True)
        if reset_passwords and not settings.admin_password:
            raise OracleSetupError("settings", Diagnosis(
                None, "--reset-passwords sets the SUPPLYCHAIN and AGENT passwords as the admin user, and "
                      "ORACLE_ADMIN_PASSWORD is not set.",
                "put ORACLE_ADMIN_USER/ORACLE_ADMIN_PASSWORD in .env (ADMIN on Autonomous Database) and re-run "
                "`workshop setup --backend oracle --reset-passwords`, or ask your DBA to set the passwords.",
            ))
        if settings.admin_password:
            # setup will create or alter these users: refuse a password the database would refuse
            P.validate_password(settings.supplychain_password, SCHEMA, target)
            P.validate_password(settings.oracle_password, P.validate_identifier(settings.oracle_user), target)
        label = "Autonomous Database" if target == "adb" else "Oracle Database"
        return "done", f"DSN {masked_dsn(settings.oracle_dsn)} ({label} password rules)"

    steps.run("settings", check_settings)
    steps.run("database reachable",
              lambda: ("done", f"logged in after {wait_for_database(settings, wait_timeout_s, echo):.0f}s"))

    agent = P.validate_identifier(settings.oracle_user, "ORACLE_USER")
    steps.run("vector pool", lambda: check_vector_pool_early(settings, agent, target))
    if settings.admin_password:
        def users() -> tuple[str, str]:
            conn = connect_admin(settings)
            try:
                tablespace = default_tablespace(conn)
                parts = []
                for user, password in ((SCHEMA, settings.supplychain_password),
                                       (agent, settings.oracle_password)):
                    what = ensure_user(conn, user, password, tablespace, can_login=login_probe(settings),
                                       reset_password=reset_passwords, target=target)
                    granted = ensure_role_grants(conn, user)
                    parts.append(f"{user} {what}" + (f", {len(granted)} grants added" if granted
                                                     else ", privileges already granted"))
            finally:
                conn.close()
            return "done", "; ".join(parts) + f" (tablespace {tablespace}, quota {P.DEFAULT_QUOTA})"

        steps.run("users and privileges", users)
    else:
        steps.run("users and privileges", lambda: (
            "skipped", "ORACLE_ADMIN_PASSWORD not set: using existing users "
                       f"{SCHEMA} and {agent} (created by your DBA/instructor)"))

    def seed_and_grants() -> tuple[str, str]:
        from ..dictionary import spatial_indexes_present
        from ..seed import run_seed, seed_differences

        conn = connect_as(settings, SCHEMA, settings.supplychain_password)
        try:
            state = seed_state(conn)
            # every table against the seed script's row counts (what the doctor checks), and the
            # spatial indexes (a schema seeded before they existed, or one a learner dropped)
            why = seed_differences(state)
            if not why and not spatial_indexes_present(conn):
                why = ["spatial indexes missing"]
            grantees = [agent] + [g for g in existing_catalog_grantees(conn) if g != agent]
            if not why and not reseed:
                status = "skipped"
                detail = "SUPPLYCHAIN already seeded (" + ", ".join(
                    f"{t.lower()} {n}" for t, n in state.items()) + ")"
            else:
                run_seed(conn, atomic=False, label="oracle")
                conn.commit()
                state = seed_state(conn)
                status = "done"
                reason = "--reseed" if not why else "; ".join(why)
                detail = f"seeded SUPPLYCHAIN ({reason} -> " + ", ".join(
                    f"{t.lower()} {n}" for t, n in state.items()) + ")"
            granted = ensure_catalog_grants(conn, grantees)
        finally:
            conn.close()
        tables = len(granted) // max(1, len(grantees))
        return status, f"{detail}; SELECT on {tables} tables granted to {', '.join(grantees)}"

    steps.run("seed SUPPLYCHAIN", seed_and_grants)
    setup_agent_schema(settings, agent, settings.oracle_password, steps)
