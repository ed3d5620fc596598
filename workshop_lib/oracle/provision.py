"""``workshop provision --learners N``: per-learner schemas on a shared Oracle (e.g. an ADB).

Each learner (LEARNER01 … LEARNERnn) is an ordinary least-privilege user like
AGENT: the workshop roles, a bounded quota, SELECT on each SUPPLYCHAIN table
and nothing else. Learners receive no grants on each other's objects (and
nothing is granted to PUBLIC), so one learner's ``eda_onnx_memory`` is
invisible to another (ORA-00942). Passwords are generated with ``secrets``,
returned once in :class:`LearnerAccount` objects for :func:`connection_sheet`
and never printed by this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import SCHEMA
from ..errors import ConfigError
from . import privileges as P
from ._sql import execute as _execute, rows as _rows, scalar as _scalar

MAX_LEARNERS = 200
LEARNER_QUOTA = "1G"


@dataclass(frozen=True)
class LearnerAccount:
    """One learner's login. ``password`` is None when an existing account was left unchanged."""

    username: str
    dsn: str
    password: str | None = field(default=None, repr=False)
    created: bool = True

    def env_text(self) -> str:
        """The .env lines this learner pastes into .env in the workshop's top folder."""
        lines = ["WORKSHOP_BACKEND=oracle", f"ORACLE_DSN={self.dsn}", f"ORACLE_USER={self.username}"]
        lines.append(f"ORACLE_PASSWORD={self.password}" if self.password else
                     "ORACLE_PASSWORD=<unchanged - use the password you were given before>")
        return "\n".join(lines) + "\n"


def learner_names(n: int, prefix: str = "LEARNER") -> list[str]:
    """``PREFIX01`` … ``PREFIXnn`` (at least two digits), validated as Oracle identifiers."""
    if not 1 <= n <= MAX_LEARNERS:
        raise ConfigError(f"The number of learners must be between 1 and {MAX_LEARNERS}; got {n}.")
    width = max(2, len(str(n)))
    base = P.validate_identifier(prefix, "learner prefix")
    return [P.validate_identifier(f"{base}{i:0{width}d}", "learner name") for i in range(1, n + 1)]


def plan_learner_grants(learners: Sequence[str], tables: Sequence[str]) -> list[str]:
    """Every GRANT a class needs: workshop roles/privileges and SELECT on SUPPLYCHAIN tables.

    Pure, so the isolation rules are unit-tested: every object grant is on a
    SUPPLYCHAIN table, every grantee is the learner itself, no ANY privilege,
    nothing to PUBLIC, and never a grant from one learner to another.
    """
    statements: list[str] = []
    for learner in learners:
        statements += P.role_and_privilege_grants(learner)
        statements += P.catalog_grants(tables, learner, owner=SCHEMA)
    return statements


def provision_learners(
    settings: Any,
    n: int,
    prefix: str = "LEARNER",
    *,
    echo: Callable[[str], Any] = print,
    reset_passwords: bool = False,
    setup_schemas: bool = False,
) -> list[LearnerAccount]:
    """Create (or update) ``n`` learner users on the settings' database; return their accounts.

    Needs ORACLE_ADMIN_USER/PASSWORD (to create users) and SUPPLYCHAIN_PASSWORD
    (the catalog owner grants SELECT on its own tables; no ANY privilege is
    used). Existing learners keep their password unless ``reset_passwords``.
    With ``setup_schemas`` each learner's model, memory tables and text index
    are created now (otherwise the first notebook's setup cell does it).
    Idempotent: re-running adds missing learners and grants only.
    """
    from .bootstrap import BootstrapReport, _Steps, default_tablespace, ensure_role_grants, setup_agent_schema
    from .connection import connect_admin, connect_as

    settings.require_oracle(admin=True, supplychain=True)
    names = learner_names(n, prefix)
    target = P.password_target(settings)
    accounts: list[LearnerAccount] = []
    admin = connect_admin(settings)
    try:
        from .vector_pool import pool_problem, pool_request, read_vector_memory_size

        # every learner gets its own HNSW index: check the pool holds them all before creating anyone
        schemas = len(names) + 1
        problem = pool_problem(read_vector_memory_size(admin), schemas=schemas, autonomous=target == "adb")
        if problem:
            raise ConfigError(f"{problem}. Fix: {pool_request(schemas)}")
        tablespace = default_tablespace(admin)
        for name in names:
            exists = int(_scalar(admin, P.USER_EXISTS_SQL, {"name": name}) or 0) > 0
            if not exists:
                password = P.generate_password()
                _execute(admin, P.create_user_sql(name, password, tablespace, LEARNER_QUOTA, target))
                state = "created"
            elif reset_passwords:
                password = P.generate_password()
                _execute(admin, P.alter_user_sql(name, tablespace, LEARNER_QUOTA))
                _execute(admin, P.password_sql(name, password, target))
                state = "password reset"
            else:
                password = None
                state = "exists, password unchanged"
            ensure_role_grants(admin, name)
            accounts.append(LearnerAccount(name, settings.oracle_dsn, password, created=not exists))
            echo(f"  {name}: {state}")
    finally:
        admin.close()

    owner = connect_as(settings, SCHEMA, settings.supplychain_password)
    try:
        tables = P.seed_tables_present(r[0] for r in _rows(owner, P.OWNED_TABLES_SQL))
        if not tables:
            raise ConfigError(f"{SCHEMA} has no tables yet: run `workshop setup --backend oracle` "
                              "before provisioning learners.")
        for sql in plan_learner_grants(names, tables):
            if " ON " in sql:  # object grants are the owner's to give
                _execute(owner, sql)
    finally:
        owner.close()
    echo(f"Granted SELECT on {len(tables)} {SCHEMA} tables to {len(names)} learners.")

    if setup_schemas:
        steps = _Steps(BootstrapReport(backend="oracle"), echo)
        for account in accounts:
            if account.password:
                setup_agent_schema(settings, account.username, account.password, steps,
                                   label=account.username)
    return accounts


def drop_learners_sql(learners: Iterable[str]) -> list[str]:
    """``DROP USER … CASCADE`` for each learner (end of class); names validated."""
    return [f"DROP USER {P.quote_identifier(n, 'learner name')} CASCADE" for n in learners]


def connection_sheet(accounts: Sequence[LearnerAccount]) -> str:
    """A printable sheet (Markdown) with each learner's user, password and DSN, plus .env lines.

    This is the only place passwords appear: show it once, or write it with
    :func:`write_connection_sheet` to a file only the instructor can read.
    """
    lines = ["# Workshop connection sheet", "",
             "Each learner: put these lines in a file named `.env` in the workshop's top folder (next to README.md) "
             "(or export them), then run `workshop doctor`.", "",
             "| User | Password | DSN |", "|---|---|---|"]
    for a in accounts:
        lines.append(f"| {a.username} | {a.password or '(unchanged)'} | {a.dsn} |")
    for a in accounts:
        lines += ["", f"## {a.username}", "", "```", a.env_text().rstrip("\n"), "```"]
    return "\n".join(lines) + "\n"


def write_connection_sheet(accounts: Sequence[LearnerAccount], path: str | os.PathLike[str]) -> Path:
    """Write :func:`connection_sheet` to ``path`` readable by its owner only (mode 0600)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(connection_sheet(accounts))
    os.chmod(target, 0o600)
    return target
