"""``workshop doctor``: check a learner's environment and say exactly what to fix.

Every check produces a :class:`Check` ``(name, ok, detail, fix)``. A failure's
``fix`` comes from :func:`~.diagnosis.diagnose` for database errors, so the
doctor, bootstrap and the wait loop give the same advice for the same error.
Oracle mode checks connectivity, version, privileges, the SUPPLYCHAIN catalog,
the embedding model, OAMP's tables, the Oracle Text index, the vector pool and
the workshop user's memories; lite mode checks the same things that exist
there (catalog, model, tables, text index, memories).
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..config import (
    CHUNKS_TABLE,
    EMBED_DIM,
    EMBED_MODEL,
    MEMORY_TABLE,
    TEXT_INDEX,
    USER_ID,
    masked_dsn,
    redact,
)
from ..dictionary import model_loaded, spatial_indexes_present
from . import privileges as P
from ._sql import rows as _rows, scalar as _scalar
from .bootstrap import TEXT_INDEX_STATE_SQL
from .diagnosis import diagnose

# What AGENT / a learner must hold in its session; DB_DEVELOPER_ROLE brings all of them (CTXAPP is
# a role inside it, so SESSION_ROLES lists it too).
REQUIRED_SESSION_PRIVILEGES = ("CREATE SESSION", "CREATE TABLE", "CREATE MINING MODEL")
REQUIRED_SESSION_ROLES = ("CTXAPP",)


class Check(NamedTuple):
    """One doctor finding; ``fix`` is empty when ``ok``."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


@dataclass
class DoctorReport:
    """All findings for one backend; ``ok`` is False when any check failed."""

    backend: str
    checks: list[Check] = field(default_factory=list)
    user: str | None = None

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return all(check.ok for check in self.checks)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: backend, host, user, time, ok and each check."""
        return {
            "backend": self.backend,
            "host": platform.node(),
            "user": self.user,
            "checked_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "ok": self.ok,
            "checks": [c._asdict() for c in self.checks],
        }

    def to_json(self) -> str:
        """JSON for instructors collecting a room's status (``workshop doctor --json``)."""
        return json.dumps(self.to_dict(), indent=2)

    def render(self) -> str:
        """Human-readable lines: one per check, failures followed by their fix."""
        lines = [f"Workshop doctor ({self.backend}):"]
        for check in self.checks:
            lines.append(f"  [{' ok ' if check.ok else 'FAIL'}] {check.name}: {check.detail}")
            if not check.ok and check.fix:
                lines.append(f"         fix: {check.fix}")
        failed = sum(not c.ok for c in self.checks)
        lines.append("All checks passed." if not failed else
                     f"{failed} check(s) failed - apply the fixes above, then run `workshop doctor` again.")
        return "\n".join(lines)

    to_text = render
    __str__ = render


def guard(name: str, fn: Callable[[], Check]) -> Check:
    """Run one check; an exception becomes a failed Check with the diagnosis' cause and fix."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - turning errors into advice is the point
        d = diagnose(exc)
        fix = d.fix
        if "workshop doctor" in fix:
            # the doctor is what is running: a fix that says "run workshop doctor" would point back at itself
            fix = ("run `workshop setup` (idempotent; it repairs what it can), then this check again; "
                   "if the message stays, see docs/troubleshooting.md.")
        return Check(name, False, f"{d.code + ': ' if d.code else ''}{d.cause}", fix)


# --- checks shared by both backends ----------------------------------------------

def check_catalog(conn: Any) -> Check:
    """Every SUPPLYCHAIN table holds exactly the rows the seed script inserts, with its spatial indexes."""
    from ..seed import seed_counts, seed_differences

    counts = seed_counts(conn)
    differ = seed_differences(counts)
    if differ:
        return Check("SUPPLYCHAIN seed", False, f"rows differ from the seed: {', '.join(differ)}",
                     "run `workshop setup`: it reseeds SUPPLYCHAIN when any table differs from the seed "
                     "(memories are kept).")
    detail = ", ".join(f"{t.lower()} {n}" for t, n in counts.items())
    if not spatial_indexes_present(conn):
        return Check("SUPPLYCHAIN seed", False,
                     f"the spatial indexes are missing, so SDO_WITHIN_DISTANCE fails with ORA-13226 ({detail})",
                     "run `workshop setup`: it recreates SUPPLYCHAIN with its spatial indexes when they are "
                     "missing (`--reseed` forces the same; memories are kept).")
    return Check("SUPPLYCHAIN seed", True, detail + "; spatial indexes present")


def check_model(conn: Any) -> Check:
    """The embedding model is registered and returns EMBED_DIM-dimensional vectors."""
    if not model_loaded(conn, EMBED_MODEL):
        return Check("embedding model", False, f"{EMBED_MODEL} is not loaded in this schema",
                     f"run `workshop setup`: it builds the ONNX file if needed and loads it as {EMBED_MODEL}.")
    vector = _scalar(conn, f"SELECT VECTOR_EMBEDDING({EMBED_MODEL} USING :q AS DATA) FROM dual",
                     {"q": "container vessel capacity in TEU"})
    dim = len(vector) if vector is not None else 0
    if dim != EMBED_DIM:
        return Check("embedding model", False, f"{EMBED_MODEL} returns {dim}-dim vectors, not {EMBED_DIM}",
                     "rebuild the model (`workshop model build`) and run `workshop setup` again.")
    return Check("embedding model", True, f"{EMBED_MODEL} loaded, returns {dim}-dim vectors")


def check_memory_tables(conn: Any) -> Check:
    """OAMP's memory and chunk tables exist in the connected schema."""
    names = {str(r[0]).upper() for r in _rows(conn, "SELECT table_name FROM user_tables")}
    wanted = [MEMORY_TABLE.upper(), CHUNKS_TABLE.upper()]
    missing = [t for t in wanted if t not in names]
    if missing:
        return Check("memory tables", False, f"missing: {', '.join(t.lower() for t in missing)}",
                     "run `workshop setup` (it creates OAMP's tables with the eda_onnx_ prefix).")
    return Check("memory tables", True, ", ".join(t.lower() for t in wanted) + " present")


def check_memory_count(conn: Any) -> Check:
    """How many valid memories the workshop user has (informational: 0 is fine before part 02)."""
    n = int(_scalar(conn, f"SELECT COUNT(*) FROM {MEMORY_TABLE} WHERE user_id = :u AND status = 'valid'",
                    {"u": USER_ID}) or 0)
    hint = "" if n else " (none yet: notebook 02 stores them)"
    return Check("workshop memories", True, f"{n} memories for {USER_ID}{hint}")


def check_catalog_memories(conn: Any) -> Check:
    """No fact memory contradicts the catalog: each one is what a scan of SUPPLYCHAIN writes today."""
    from ..scanner import stale_facts

    stale = stale_facts(conn)
    if stale:
        example = next(iter(stale.values()))[:80]
        return Check("catalog memories", False,
                     f"{len(stale)} fact memories do not match the SUPPLYCHAIN catalog (an earlier scan wrote "
                     f"them; e.g. {example!r}), so searches can return them as if they were documentation",
                     "run `workshop setup`: its scan removes them (memories you wrote yourself are kept).")
    return Check("catalog memories", True, "every fact memory matches the catalog")


def check_memory_vectors(conn: Any) -> Check:
    """Every memory has a chunk with a vector; one without can never be found by search."""
    from ..memory.setup import unsearchable_memories

    missing = unsearchable_memories(conn)
    if missing:
        return Check("memory vectors", False,
                     f"{len(missing)} memories have no chunk with a vector, so no search can find them "
                     f"(e.g. {missing[0]})",
                     "run `workshop setup`: it re-embeds them (their text, metadata and status are kept).")
    return Check("memory vectors", True, "every memory has its chunk and vector")


def check_text_index_lite(conn: Any) -> Check:
    """Lite: a CONTEXT (domain) index is recorded on the memory table."""
    rows = _rows(conn, "SELECT index_name, index_type FROM user_indexes WHERE table_name = :t",
                 {"t": MEMORY_TABLE.upper()})
    found = [r[0] for r in rows if str(r[1]).upper() == "DOMAIN" or str(r[0]).upper() == TEXT_INDEX.upper()]
    if not found:
        return Check("text index", False, f"no CONTEXT index on {MEMORY_TABLE}(content)",
                     "run `workshop setup` (it creates the index; CONTAINS needs it).")
    return Check("text index", True, f"{str(found[0]).lower()} present")


# --- Oracle-only checks -------------------------------------------------------

def describe_version(version: str) -> tuple[bool, str]:
    """Map python-oracledb's ``conn.version`` to (supported, label): 23.4-23.9 is 23ai, 23.26+ is 26ai."""
    parts = [int(p) for p in version.split(".")[:2] if p.isdigit()]
    major = parts[0] if parts else 0
    minor = parts[1] if len(parts) > 1 else 0
    if major > 23 or (major == 23 and minor >= 26):
        return True, f"Oracle AI Database 26ai ({version})"
    if major == 23:
        return True, f"Oracle Database 23ai ({version})"
    return False, f"Oracle Database {version}"


def check_version(conn: Any) -> Check:
    """The server is 23ai or 26ai (VECTOR, VECTOR_EMBEDDING and DB_DEVELOPER_ROLE exist)."""
    ok, label = describe_version(str(conn.version))
    if not ok:
        return Check("database version", False, f"{label}: too old for AI Vector Search",
                     "use Oracle AI Database 23ai/26ai (the devcontainer's Oracle Free, or an ADB 23ai/26ai).")
    return Check("database version", True, label)


def check_privileges(conn: Any) -> Check:
    """The session holds the workshop privileges and roles, and no ANY privilege."""
    privs = {str(r[0]).upper() for r in _rows(conn, "SELECT privilege FROM session_privs")}
    roles = {str(r[0]).upper() for r in _rows(conn, "SELECT role FROM session_roles")}
    missing = [p for p in REQUIRED_SESSION_PRIVILEGES if p not in privs]
    missing += [r for r in REQUIRED_SESSION_ROLES if r not in roles]
    if missing:
        d = diagnose("ORA-01031")
        return Check("privileges", False, f"missing: {', '.join(missing)}", d.fix)
    extra = sorted(p for p in privs if " ANY " in f" {p} ")
    detail = f"{len(privs)} privileges; roles {', '.join(sorted(roles)) or 'none'}"
    if extra:
        detail += (f"; note: this user holds {len(extra)} ANY privileges (e.g. {extra[0]}) - the workshop "
                   "needs none, use the least-privileged AGENT user")
    return Check("privileges", True, detail)


def check_text_index_oracle(conn: Any) -> Check:
    """The CONTEXT index on the memory table is valid, syncs on commit and has nothing pending."""
    rows = _rows(conn, TEXT_INDEX_STATE_SQL, {"t": MEMORY_TABLE.upper()})
    if not rows:
        return Check("text index", False, f"no CONTEXT index on {MEMORY_TABLE}(content)",
                     "run `workshop setup` (it creates the index; if that fails with ORA-29855, the "
                     "error under it - a DRG- or ORA- code - names the cause).")
    name, status, dom_status, dom_opstatus = rows[0]
    bad = [s for s in (status, dom_status, dom_opstatus) if s and str(s).upper() != "VALID"]
    if bad:
        return Check("text index", False, f"{name} is not valid ({'/'.join(map(str, bad))})",
                     f"run `workshop setup`: it drops the invalid index (DROP INDEX {str(name).lower()} FORCE) "
                     "and rebuilds it with SYNC (ON COMMIT).")
    pending = int(_scalar(conn, "SELECT COUNT(*) FROM ctx_user_pending WHERE pnd_index_name = :n",
                          {"n": name}) or 0)
    try:
        sync = _scalar(conn, "SELECT idx_sync_type FROM ctx_user_indexes WHERE idx_name = :n", {"n": name})
    except Exception as exc:  # noqa: BLE001 - an older Oracle Text without this column is still fine
        if "ORA-00904" not in str(exc):
            raise
        sync = None
    if pending:
        return Check("text index", False, f"{name} has {pending} rows waiting to be indexed (sync {sync})",
                     "run `workshop setup`: it synchronises them (CTX_DDL.SYNC_INDEX) and rebuilds an index "
                     "that does not sync on commit.")
    return Check("text index", True, f"{str(name).lower()} valid, sync {sync or 'unknown'}, nothing pending")


def check_vector_pool(conn: Any, settings: Any, *, schemas: int = 1) -> Check:
    """The Vector Pool can hold ``schemas`` HNSW indexes: VECTOR_MEMORY_SIZE read as AGENT, else as admin.

    Runs before the memory-table checks, so a missing pool (0, the default of
    an on-premises database) is named with the exact request for the DBA and
    its size before setup fails on it with ORA-51962. On Autonomous Database
    the pool is managed automatically.
    """
    from .vector_pool import pool_problem, pool_request, read_pool

    if P.password_target(settings) == "adb":
        return Check("vector pool", True, "managed automatically by Autonomous Database "
                                          "(VECTOR_MEMORY_SIZE reads 0 there and needs no setting)")
    sources: list[tuple[str, Callable[[], Any]]] = [("this user", lambda: conn)]
    if getattr(settings, "admin_password", None):
        from .connection import connect_admin

        sources.append(("the admin user", lambda: connect_admin(settings)))
    for label, opener in sources:
        c = opener()
        try:
            size, schemas = read_pool(c, schemas, as_admin=c is not conn)
        finally:
            if c is not conn:
                c.close()
        if size is None:
            continue
        problem = pool_problem(size, schemas=schemas)
        if problem:
            return Check("vector pool", False, problem, pool_request(schemas))
        return Check("vector pool", True, f"VECTOR_MEMORY_SIZE {size // (1024 * 1024)} MB (read as {label}); "
                                          f"enough for {schemas} workshop schema(s)")
    hnsw = int(_scalar(conn, "SELECT COUNT(*) FROM user_indexes WHERE index_type = 'VECTOR'") or 0)
    if hnsw:
        return Check("vector pool", True,
                     "size not readable without SELECT_CATALOG_ROLE; an in-memory vector index exists, "
                     "so the pool is usable")
    return Check("vector pool", True,
                 "size not readable without SELECT_CATALOG_ROLE and no vector index yet; if setup "
                 "fails with ORA-51962, " + pool_request(schemas))


# --- entry points -----------------------------------------------------------------

def doctor_oracle(settings: Any) -> DoctorReport:
    """The Oracle backend's checks: settings, connection, version, privileges, seed, model, pool, tables, index.

    Every detail and fix is redacted: a password from the settings (or written
    into the DSN) never reaches the report, even inside a driver's error text.
    """
    report = _doctor_oracle(settings)
    report.checks = [check._replace(detail=redact(check.detail, settings),
                                    fix=oracle_fix(redact(check.fix or "", settings)))
                     for check in report.checks]
    return report


#: The command that repairs what the Oracle doctor finds (the shared checks' fixes say `workshop setup`).
ORACLE_SETUP = "workshop setup --backend oracle"


def oracle_fix(fix: str) -> str:
    """A fix as the Oracle doctor prints it: `workshop setup` becomes the exact Oracle command."""
    return fix.replace("`workshop setup`", f"`{ORACLE_SETUP}`")


def _doctor_oracle(settings: Any) -> DoctorReport:
    from .connection import connect_as

    report = DoctorReport("oracle", user=settings.oracle_user)
    try:
        settings.require_oracle()
    except Exception as exc:  # noqa: BLE001
        report.checks.append(Check("settings", False, str(exc),
                                   "copy .env.example to .env in the workshop's top folder (next to "
                                   "README.md) and fill it in; the devcontainer generates it for you."))
        return report
    report.checks.append(Check("settings", True, f"DSN {masked_dsn(settings.oracle_dsn)}, user {settings.oracle_user}"))
    try:
        conn = connect_as(settings, settings.oracle_user, settings.oracle_password, tcp_connect_timeout=10)
    except Exception as exc:  # noqa: BLE001
        d = diagnose(exc)
        report.checks.append(Check("connection", False, f"{d.code + ': ' if d.code else ''}{d.cause}", d.fix))
        return report
    try:
        report.checks.append(Check("connection", True, f"logged in as {settings.oracle_user}"))
        for name, fn in (
            ("database version", lambda: check_version(conn)),
            ("privileges", lambda: check_privileges(conn)),
            ("vector pool", lambda: check_vector_pool(conn, settings)),
            ("SUPPLYCHAIN seed", lambda: check_catalog(conn)),
            ("embedding model", lambda: check_model(conn)),
            ("memory tables", lambda: check_memory_tables(conn)),
            ("memory vectors", lambda: check_memory_vectors(conn)),
            ("catalog memories", lambda: check_catalog_memories(conn)),
            ("text index", lambda: check_text_index_oracle(conn)),
            ("workshop memories", lambda: check_memory_count(conn)),
        ):
            report.checks.append(guard(name, fn))
    finally:
        conn.close()
    return report
