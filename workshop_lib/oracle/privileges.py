"""The least privileges the workshop grants, and the SQL that creates its users.

Everything here is pure text building, so it is unit-tested without a
database and a test asserts that no statement or list in this module grants an
``ANY`` privilege. Identifiers are validated and passwords checked before they
are spliced into DDL (Oracle cannot bind identifiers or passwords in DDL), and
:func:`redact` hides passwords whenever a statement is shown to a person.
"""

from __future__ import annotations

import re
import secrets
import string
from collections.abc import Iterable, Sequence

from ..config import AGENT_SCHEMA, SCHEMA, SEED_TABLES as _SEED_TABLES
from ..errors import ConfigError

# What each kind of workshop user is granted - exactly what it needs, no ANY privilege:
# * AGENT and every learner: DB_DEVELOPER_ROLE (23ai+), which already holds CREATE SESSION/TABLE/
#   VIEW/SEQUENCE/PROCEDURE/TYPE/JOB/PROPERTY GRAPH, CREATE MINING MODEL (LOAD_ONNX_MODEL) and the
#   CTXAPP role (Oracle Text); OAMP, the model and the text index need nothing else;
# * SUPPLYCHAIN, the catalog owner: only what its seed uses - sessions, tables, and sequences (a
#   spatial index keeps an MDRS_…$ sequence next to its MDRT_…$ table) - plus its quota.
WORKSHOP_ROLES: tuple[str, ...] = ("DB_DEVELOPER_ROLE",)
WORKSHOP_SYSTEM_PRIVILEGES: tuple[str, ...] = ()
OWNER_ROLES: tuple[str, ...] = ()
OWNER_SYSTEM_PRIVILEGES: tuple[str, ...] = ("CREATE SESSION", "CREATE TABLE", "CREATE SEQUENCE")
# What AGENT and learners may do with the SUPPLYCHAIN catalog: read it, nothing else.
CATALOG_OBJECT_PRIVILEGES: tuple[str, ...] = ("SELECT",)
# A bounded quota: enough for the seed, the model (~90 MB) and tens of thousands of memories.
DEFAULT_QUOTA = "2G"

# The seven SUPPLYCHAIN tables the seed creates (issue 2); the doctor checks them.
SEED_TABLES: tuple[str, ...] = _SEED_TABLES

_IDENT_RE = re.compile(r"^[A-Z][A-Z0-9_$#]{0,127}$")
_QUOTA_RE = re.compile(r"^(UNLIMITED|\d{1,6}[KMGT]?)$")
_PASSWORD_FORBIDDEN = re.compile(r'["\x00-\x1f\x7f]')
_ANY_RE = re.compile(r"\bANY\b", re.IGNORECASE)

# --- dictionary queries (bind variables; all readable by the roles involved) ----
USER_EXISTS_SQL = "SELECT COUNT(*) FROM all_users WHERE username = :name"
GRANTED_ROLES_SQL = "SELECT granted_role FROM dba_role_privs WHERE grantee = :name"
GRANTED_SYS_PRIVS_SQL = "SELECT privilege FROM dba_sys_privs WHERE grantee = :name"
DEFAULT_TABLESPACE_SQL = (
    "SELECT property_value FROM database_properties "
    "WHERE property_name = 'DEFAULT_PERMANENT_TABLESPACE'"
)
TABLESPACE_ASSM_SQL = (
    "SELECT segment_space_management FROM user_tablespaces WHERE tablespace_name = :name"
)
# Real tables only: USER_TABLES also lists the secondary objects domain indexes create in the
# owner's schema (MDRT_…$ for each spatial index, DR$… for Oracle Text; SECONDARY = 'Y') and, with
# the recycle bin on, dropped tables (BIN$…; DROPPED = 'YES'). Neither is ever granted or scanned.
OWNED_TABLES_SQL = ("SELECT table_name FROM user_tables WHERE secondary = 'N' AND dropped = 'NO' "
                    "ORDER BY table_name")
GRANTS_MADE_SQL = (
    "SELECT DISTINCT grantee FROM user_tab_privs_made WHERE privilege = 'SELECT'"
)


def validate_identifier(name: str, what: str = "identifier") -> str:
    """Return ``name`` upper-cased if it is a plain Oracle identifier, else raise ConfigError."""
    candidate = (name or "").strip().upper()
    if not _IDENT_RE.match(candidate):
        raise ConfigError(
            f"{what} {name!r} is not a plain Oracle identifier (a letter, then letters, digits, "
            "_, $ or #; at most 128 characters)."
        )
    return candidate


def quote_identifier(name: str, what: str = "identifier") -> str:
    """The validated identifier in double quotes, safe to splice into DDL."""
    return f'"{validate_identifier(name, what)}"'


# Password rules per kind of database. Oracle 23ai/26ai (Free, on-premises) takes up to 1024
# bytes; the workshop asks for at least 8 characters. Autonomous Database's default profile
# demands 12-30 characters with an upper-case letter, a lower-case letter and a digit, and
# refuses a password set less than 24 hours ago or among the last four (ORA-28007).
PASSWORD_TARGETS = ("oracle", "adb")
_ADB_DSN_RE = re.compile(r"(oraclecloud\.com|\.adb\.|_(low|medium|high|tp|tpurgent)\b)", re.IGNORECASE)


def password_target(settings: object) -> str:
    """``"adb"`` when the settings point at an Autonomous Database, else ``"oracle"``.

    Decided from the settings alone, so passwords are validated before any
    connection: a wallet folder, the ADB admin user ``ADMIN``, or a DSN naming
    an ADB host (``…oraclecloud.com``) or a wallet alias (``mydb_low``, ``_tp`` …).
    """
    dsn = str(getattr(settings, "oracle_dsn", "") or "")
    if getattr(settings, "wallet_dir", None) or _ADB_DSN_RE.search(dsn):
        return "adb"
    if str(getattr(settings, "admin_user", "") or "").upper() == "ADMIN":
        return "adb"
    return "oracle"


def validate_password(password: str | None, user: str, target: str = "oracle") -> str:
    """Check a password can be used in ``IDENTIFIED BY "..."`` on ``target`` (``oracle`` or ``adb``).

    Oracle cannot bind a password in DDL, so a double quote or control
    character would break (or inject into) the statement. ``oracle`` (Free,
    on-premises 23ai/26ai): 8 characters to 1024 bytes. ``adb``: Autonomous
    Database's rules, 12-30 characters with upper, lower and digit. Neither
    may contain the user name. :func:`generate_password` satisfies both.
    """
    if target not in PASSWORD_TARGETS:
        raise ValueError(f"unknown password target {target!r}; one of {PASSWORD_TARGETS}")
    if not password:
        raise ConfigError(f"No password was given for Oracle user {user}; see .env.example.")
    if _PASSWORD_FORBIDDEN.search(password):
        raise ConfigError(
            f"The password for {user} contains a double quote or a control character, which "
            "Oracle passwords cannot contain. Choose another one (letters and digits are safest)."
        )
    if target == "adb":
        if not 12 <= len(password) <= 30:
            raise ConfigError(f"The password for {user} must be 12 to 30 characters long on Autonomous "
                              f"Database (it has {len(password)}).")
        missing = [what for what, test in (("an upper-case letter", str.isupper),
                                           ("a lower-case letter", str.islower), ("a digit", str.isdigit))
                   if not any(test(c) for c in password)]
        if missing:
            raise ConfigError(f"The password for {user} needs {', '.join(missing)} on Autonomous Database.")
    elif len(password) < 8 or len(password.encode("utf-8")) > 1024:
        raise ConfigError(f"The password for {user} must be 8 characters to 1024 bytes long.")
    if user.upper() in password.upper():
        raise ConfigError(f"The password for {user} must not contain the user name.")
    return password


def generate_password(length: int = 24) -> str:
    """A random password (python ``secrets``) that meets Oracle and Autonomous Database rules.

    Letters and digits only, starting with a letter, with at least one upper,
    one lower and one digit, so it needs no quoting in shells or .env files.
    """
    if length < 12:
        raise ValueError("passwords shorter than 12 characters are refused by Autonomous Database")
    alphabet = string.ascii_letters + string.digits
    while True:
        candidate = secrets.choice(string.ascii_letters) + "".join(
            secrets.choice(alphabet) for _ in range(length - 1)
        )
        if (any(c.islower() for c in candidate) and any(c.isupper() for c in candidate)
                and any(c.isdigit() for c in candidate)):
            return candidate


def redact(sql: str) -> str:
    """``sql`` with any ``IDENTIFIED BY "..."`` password replaced by asterisks (for display)."""
    return re.sub(r'(?i)(IDENTIFIED\s+BY\s+)("[^"]*"|\S+)', r"\1********", sql)


def _quota_clause(quota: str, tablespace: str) -> str:
    quota = quota.strip().upper()
    if not _QUOTA_RE.match(quota):
        raise ConfigError(f"Quota {quota!r} must look like 500M, 2G or UNLIMITED.")
    return f"QUOTA {quota} ON {quote_identifier(tablespace, 'tablespace')}"


def create_user_sql(user: str, password: str, tablespace: str, quota: str = DEFAULT_QUOTA,
                    target: str = "oracle") -> str:
    """``CREATE USER`` with its password, default tablespace and a bounded quota on it."""
    validate_password(password, user, target)
    ts = quote_identifier(tablespace, "tablespace")
    return (
        f'CREATE USER {quote_identifier(user, "user name")} IDENTIFIED BY "{password}" '
        f"DEFAULT TABLESPACE {ts} {_quota_clause(quota, tablespace)}"
    )


def alter_user_sql(user: str, tablespace: str, quota: str = DEFAULT_QUOTA) -> str:
    """Bring an existing user in line - tablespace, quota, unlocked - without touching its password.

    Re-setting an unchanged password is refused on Autonomous Database
    (ORA-28007: reused, or changed twice within 24 hours), so the password is
    changed only by :func:`password_sql`, when a login with it fails or on an
    explicit reset.
    """
    ts = quote_identifier(tablespace, "tablespace")
    return (f'ALTER USER {quote_identifier(user, "user name")} DEFAULT TABLESPACE {ts} '
            f"{_quota_clause(quota, tablespace)} ACCOUNT UNLOCK")


def password_sql(user: str, password: str, target: str = "oracle") -> str:
    """``ALTER USER … IDENTIFIED BY "…" ACCOUNT UNLOCK``: set a new password (validated for ``target``)."""
    validate_password(password, user, target)
    return f'ALTER USER {quote_identifier(user, "user name")} IDENTIFIED BY "{password}" ACCOUNT UNLOCK'


def _grants_for(user: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(roles, system privileges) for ``user``: the catalog owner's, or an agent's / learner's."""
    if validate_identifier(user, "user name") == SCHEMA:
        return OWNER_ROLES, OWNER_SYSTEM_PRIVILEGES
    return WORKSHOP_ROLES, WORKSHOP_SYSTEM_PRIVILEGES


def role_and_privilege_grants(user: str) -> list[str]:
    """The GRANT statements for one workshop user (roles, then system privileges)."""
    grantee = quote_identifier(user, "user name")
    roles, privileges = _grants_for(user)
    return [f"GRANT {role} TO {grantee}" for role in roles] + [f"GRANT {p} TO {grantee}" for p in privileges]


def missing_grants(user: str, granted_roles: Iterable[str], granted_privileges: Iterable[str]) -> list[str]:
    """The subset of :func:`role_and_privilege_grants` not yet held (from DBA_ROLE/SYS_PRIVS)."""
    held_roles = {r.upper() for r in granted_roles}
    held_privs = {p.upper() for p in granted_privileges}
    grantee = quote_identifier(user, "user name")
    roles, privileges = _grants_for(user)
    todo = [f"GRANT {role} TO {grantee}" for role in roles if role not in held_roles]
    todo += [f"GRANT {p} TO {grantee}" for p in privileges if p not in held_privs]
    return todo


def seed_tables_present(tables: Iterable[str]) -> list[str]:
    """The seed's tables among ``tables`` (in the seed's order): what AGENT and learners may read.

    Grants are made on this list, never on whatever else SUPPLYCHAIN holds
    (index internals, a DBA's scratch table).
    """
    present = {str(t).upper() for t in tables}
    return [t for t in SEED_TABLES if t in present]


def catalog_grants(tables: Sequence[str], grantee: str, owner: str = SCHEMA) -> list[str]:
    """``GRANT SELECT ON owner.table TO grantee`` for each table (object grants, never ANY)."""
    who = quote_identifier(grantee, "grantee")
    schema = quote_identifier(owner, "schema")
    return [
        f"GRANT {priv} ON {schema}.{quote_identifier(t, 'table name')} TO {who}"
        for t in tables
        for priv in CATALOG_OBJECT_PRIVILEGES
    ]


def workshop_users() -> tuple[str, str]:
    """The two bootstrap schemas: the catalog owner and the agent (OAMP memory) user."""
    return SCHEMA, AGENT_SCHEMA


def any_privilege_violations(statements: Iterable[str]) -> list[str]:
    """Statements that grant an ``ANY`` privilege or grant to PUBLIC (both must never ship)."""
    bad = []
    for sql in statements:
        upper = sql.upper()
        if not upper.lstrip().startswith("GRANT"):
            continue
        privilege_part = upper.split(" TO ", 1)[0]
        if _ANY_RE.search(privilege_part) or re.search(r"\bTO\s+\"?PUBLIC\"?\b", upper):
            bad.append(sql)
    return bad
