"""Turn an Oracle (or python-oracledb) error into a cause a learner understands and the exact fix.

:func:`diagnose` is pure: it reads the ``ORA-nnnnn`` / ``DPY-nnnn`` code out of
an exception, a message, a code string or a bare number and looks it up in
:data:`DIAGNOSES`. Bootstrap, the wait loop and the doctor all report failures
through it, so one table decides what every Oracle-mode error message says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..config import AGENT_SCHEMA, SCHEMA

_CODE_RE = re.compile(r"\b(ORA|DPY|DRG)-(\d{4,5})\b")


@dataclass(frozen=True)
class Diagnosis:
    """What an error means (``cause``) and what to do about it (``fix``)."""

    code: str | None
    cause: str
    fix: str

    def __str__(self) -> str:
        prefix = f"{self.code}: " if self.code else ""
        return f"{prefix}{self.cause} Fix: {self.fix}"


_SETUP = "run `workshop setup` (idempotent, safe to re-run)"

DIAGNOSES: dict[str, tuple[str, str]] = {
    # Any user may create a CONTEXT index (no CTXAPP needed); ORA-29855 only wraps the real cause,
    # the DRG-/ORA- code below it, which diagnose() reads first (see TEXT_INDEX_CAUSES).
    "ORA-29855": (
        "Oracle Text could not build the CONTEXT index; the DRG- or ORA- error reported under "
        "ORA-29855 is the real cause (e.g. no quota, ORA-01950, or a missing preference, DRG-10700).",
        "fix that cause, then as the index owner run `DROP INDEX eda_onnx_memory_ctx FORCE;` and "
        f"{_SETUP} (it recreates the index).",
    ),
    "ORA-51962": (
        "The vector memory pool is too small (or 0) for the HNSW vector index.",
        "ask your DBA to run, as SYSDBA in CDB$ROOT, `ALTER SYSTEM SET vector_memory_size=256M "
        "SCOPE=BOTH;` (enough for one schema; `workshop doctor` and `workshop provision` compute "
        "the size for a class; if it is refused, SCOPE=SPFILE and restart the database); in the "
        "devcontainer, restart the db service: `docker compose -f .devcontainer/docker-compose.yml "
        "restart db` - its startup hook sizes the pool.",
    ),
    "ORA-01017": (
        "The database rejected the user name or password.",
        "check ORACLE_USER and ORACLE_PASSWORD in your .env (see .env.example); if the workshop "
        f"users were never created, {_SETUP} with ORACLE_ADMIN_PASSWORD set. In the devcontainer "
        "the admin password in .env is the one the database was created with - do not edit it.",
    ),
    "ORA-12541": (
        "Nothing is listening at the host and port in ORACLE_DSN: the database is not up yet, "
        "or the host/port is wrong.",
        "start the database (`docker compose -f .devcontainer/docker-compose.yml up -d db`) and "
        "wait until it is healthy (`workshop doctor` retries), or correct host:port in ORACLE_DSN.",
    ),
    "ORA-12514": (
        "The listener is up but does not know the service in ORACLE_DSN: the database is still "
        "opening, or the service name is wrong.",
        "wait a minute and retry; check the service name in ORACLE_DSN (Oracle Free: "
        "`localhost:1521/FREEPDB1`; Autonomous Database: a service from tnsnames.ora such as "
        "`<db>_low`).",
    ),
    "ORA-01031": (
        "The user lacks a privilege the workshop needs.",
        f"{_SETUP} with ORACLE_ADMIN_USER/ORACLE_ADMIN_PASSWORD set, or ask your DBA to grant "
        f"DB_DEVELOPER_ROLE to {AGENT_SCHEMA} (and each learner), and CREATE SESSION, CREATE TABLE and "
        f"CREATE SEQUENCE to {SCHEMA} (see docs/oracle.md).",
    ),
    "ORA-00942": (
        "A table or view the workshop expects does not exist (or is not granted to this user).",
        f"{_SETUP}; it seeds {SCHEMA}, grants SELECT on its tables and creates the memory tables.",
    ),
    "ORA-40284": (
        "The in-database embedding model does not exist in this schema.",
        f"{_SETUP}; it builds the ONNX model if needed and loads it into the database.",
    ),
    "ORA-12154": (
        "The connect identifier in ORACLE_DSN could not be resolved (an alias not found in "
        "tnsnames.ora).",
        "use host:port/service, or set ORACLE_WALLET_DIR to the folder holding tnsnames.ora.",
    ),
    "ORA-65096": (
        "You are connected to the container root (CDB$ROOT), where local users cannot be created.",
        "connect to the pluggable database instead: ORACLE_DSN=localhost:1521/FREEPDB1.",
    ),
    "ORA-01950": (
        "The user has no quota on its tablespace.",
        f"{_SETUP} (it grants a quota on the default tablespace).",
    ),
    "ORA-28000": (
        "The account is locked.",
        "as the admin user run `ALTER USER <name> ACCOUNT UNLOCK;` or re-run setup.",
    ),
    "ORA-28001": (
        "The password has expired.",
        f"{_SETUP} with ORACLE_ADMIN_PASSWORD set: a password that no longer logs in is set again "
        "from .env (on Autonomous Database put a new one in .env first: reusing it is ORA-28007).",
    ),
    "ORA-28007": (
        "The database refused a password it has seen before for this user (Autonomous Database "
        "keeps the last four and refuses a change within 24 hours).",
        "put a new password for that user in .env (12-30 characters with upper, lower and a digit "
        "on Autonomous Database) and re-run `workshop setup`; setup changes a password only when "
        "the one in .env does not log in (or with `python -m workshop_lib.oracle setup --reset-passwords`).",
    ),
    "ORA-01033": (
        "The database is starting up or shutting down.",
        "wait until it is open (`workshop doctor` retries) and try again.",
    ),
    "ORA-01034": (
        "The database instance is not running.",
        "start the database container (`docker compose -f .devcontainer/docker-compose.yml up -d db`).",
    ),
    "ORA-12528": (
        "The listener is blocking new connections while the database opens.",
        "wait a minute and retry.",
    ),
    "ORA-12170": (
        "The connection attempt timed out.",
        "check the host in ORACLE_DSN and any firewall / access control list between you and "
        "the database.",
    ),
    "ORA-00904": (
        "A column the workshop expects does not exist: the schema is from an older or "
        "half-finished setup.",
        f"{_SETUP}.",
    ),
    "ORA-51803": (
        "The vector's dimension count does not match the VECTOR column's (the embedding model "
        "and the memory table disagree).",
        "rebuild and reload the model (`workshop model build`, then re-run setup).",
    ),
    "DPY-6005": (
        "python-oracledb could not open a network connection to ORACLE_DSN: the database is not "
        "up yet, or the host/port is wrong.",
        "start the database and wait until it is healthy, or correct host:port in ORACLE_DSN.",
    ),
    "DPY-6000": (
        "The listener refused the connection (typically the service is not registered yet).",
        "wait a minute and retry; check the service name in ORACLE_DSN.",
    ),
    "DPY-6001": (
        "The listener does not know the service in ORACLE_DSN (yet).",
        "wait a minute and retry; check the service name in ORACLE_DSN (Oracle Free: FREEPDB1).",
    ),
    "DPY-4011": (
        "The database or network closed the connection.",
        "retry; if it persists, check that the database container is healthy.",
    ),
    "DPY-4027": (
        "No configuration directory was given to look up the connect alias.",
        "set ORACLE_WALLET_DIR to the unzipped wallet folder, or use host:port/service in ORACLE_DSN.",
    ),
}

# Oracle Text errors ORA-29855 wraps, with their own cause and fix. Codes that are in DIAGNOSES
# (ORA-01950 quota, ORA-01031 privilege, ...) are explained from there.
TEXT_INDEX_CAUSES: dict[str, tuple[str, str]] = {
    "DRG-10700": (
        "a lexer, stoplist or other preference named in the index PARAMETERS does not exist",
        "the workshop's index names no preference (Oracle Text's defaults): drop the half-built index "
        "(`DROP INDEX eda_onnx_memory_ctx FORCE;`) and re-run `workshop setup`.",
    ),
    "DRG-10502": (
        "the index the statement names does not exist",
        "re-run `workshop setup`: it creates the index.",
    ),
}
# Codes that only say "an error happened below": skipped when looking for the cause.
_WRAPPERS = frozenset({"ORA-29855", "ORA-20000", "ORA-06512", "ORA-06510", "DRG-50857", "DRG-50610"})

_NOT_READY = (
    "The database is restarting, still opening, or refused the connection for now.",
    "wait a minute and retry (`python -m workshop_lib.oracle wait` and `workshop doctor` retry "
    "these); if it persists, check the database container's log.",
)
for _code in ("ORA-01089", "ORA-01109", "ORA-12505", "ORA-12521", "ORA-12526", "ORA-12537", "DPY-6003"):
    DIAGNOSES.setdefault(_code, _NOT_READY)

# Errors that mean "the database is not (yet) reachable": the wait loop retries these.
TRANSIENT_CODES = frozenset(
    {"ORA-12541", "ORA-12514", "ORA-12528", "ORA-12537", "ORA-01033", "ORA-01034",
     "ORA-01089", "ORA-01109", "ORA-12505", "ORA-12521", "ORA-12526", "ORA-12170",
     "DPY-6005", "DPY-6000", "DPY-6001", "DPY-6003", "DPY-4011"}
)


def _codes_in_order(error: BaseException | str | int) -> list[str]:
    """Every ``ORA-``/``DPY-``/``DRG-`` code in ``error``, in the order they appear (outermost first)."""
    if isinstance(error, int):
        return [f"ORA-{abs(error):05d}"]
    texts: list[str] = []
    if isinstance(error, BaseException):
        for arg in getattr(error, "args", ()):
            full = getattr(arg, "full_code", None)
            if full:
                texts.append(str(full))
            texts.append(str(getattr(arg, "message", arg)))
        texts.append(str(error))
        cause = error.__cause__ or error.__context__
        if cause is not None and cause is not error:
            texts.append(str(cause))
    else:
        texts.append(str(error))
    found: list[str] = []
    for text in texts:
        for prefix, digits in _CODE_RE.findall(text):
            code = f"{prefix}-{digits}"
            if code not in found:
                found.append(code)
    return found


def error_codes(error: BaseException | str | int) -> list[str]:
    """Every ``ORA-``/``DPY-``/``DRG-`` code found in ``error``, most specific first.

    python-oracledb thin errors often carry both a DPY code and the ORA code the
    server sent; the ORA code is the more specific one, so it comes first.
    """
    found = _codes_in_order(error)
    found.sort(key=lambda c: 0 if c.startswith("ORA") and c in DIAGNOSES else
               1 if c in DIAGNOSES else 2)
    return found


def diagnose(error: BaseException | str | int) -> Diagnosis:
    """Explain ``error`` (exception, message, ``"ORA-29855"`` or ``29855``) as cause + exact fix.

    Unknown codes still get a Diagnosis that quotes the original message and
    points at ``workshop doctor`` and docs/oracle.md, so no caller ever has to
    print a bare traceback to a learner.
    """
    codes = error_codes(error)
    if "ORA-29855" in codes:
        return _text_index_diagnosis(error)
    for code in codes:
        if code in DIAGNOSES:
            cause, fix = DIAGNOSES[code]
            return Diagnosis(code, cause, fix)
    message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return Diagnosis(
        codes[0] if codes else None,
        f"Unexpected database error: {message}",
        "run `workshop doctor` for a full check of the environment and see "
        "docs/oracle.md#troubleshooting.",
    )


def _text_index_diagnosis(error: BaseException | str | int) -> Diagnosis:
    """ORA-29855 explained by the first DRG-/ORA- code under it that says what went wrong."""
    inner = [c for c in _codes_in_order(error) if c not in _WRAPPERS]
    for code in inner:
        if code in TEXT_INDEX_CAUSES:
            cause, fix = TEXT_INDEX_CAUSES[code]
            return Diagnosis("ORA-29855", f"Oracle Text could not build the CONTEXT index: {cause} ({code}).", fix)
        if code in DIAGNOSES:
            cause, fix = DIAGNOSES[code]
            return Diagnosis("ORA-29855", f"Oracle Text could not build the CONTEXT index because of {code}: "
                                          f"{cause}", f"{fix} Then drop the half-built index "
                                                      "(`DROP INDEX eda_onnx_memory_ctx FORCE;`) if setup "
                                                      "does not.")
    cause, fix = DIAGNOSES["ORA-29855"]
    if inner:
        line = next((ln.strip() for ln in str(error).splitlines() if inner[0] in ln), inner[0])
        cause = f"Oracle Text could not build the CONTEXT index: {line}"
    return Diagnosis("ORA-29855", cause, fix)


def is_transient(error: BaseException | str | int) -> bool:
    """True when ``error`` means the database is not reachable yet (worth retrying)."""
    if isinstance(error, (ConnectionError, TimeoutError)):
        return True
    return any(code in TRANSIENT_CODES for code in error_codes(error))
