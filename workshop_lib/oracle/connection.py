"""Open python-oracledb (thin mode) connections as a given workshop user.

The notebooks connect through ``workshop_lib.connect()``; operations code
needs other identities too (the admin for bootstrap, SUPPLYCHAIN for the seed
and its grants, one learner at a time for provisioning), so it uses
:func:`connect_as`. A wallet folder (Autonomous Database) is used when
ORACLE_WALLET_DIR is set.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError


def connect_params(settings: Any) -> dict[str, Any]:
    """The keyword arguments (besides user and password) every workshop connection uses."""
    if not settings.oracle_dsn:
        raise ConfigError(
            "ORACLE_DSN is not set. Put it in .env (e.g. ORACLE_DSN=localhost:1521/FREEPDB1) "
            "or use WORKSHOP_BACKEND=lite."
        )
    params: dict[str, Any] = {"dsn": settings.oracle_dsn}
    wallet = getattr(settings, "wallet_dir", None)
    if wallet:
        params["config_dir"] = wallet
        params["wallet_location"] = wallet
        # Only an ADB mTLS wallet (ewallet.pem) needs a password; Settings may not carry one.
        wallet_password = getattr(settings, "wallet_password", None)
        if wallet_password:
            params["wallet_password"] = wallet_password
    return params


def connect_as(settings: Any, user: str, password: str | None, **extra: Any):
    """Return a python-oracledb connection as ``user`` to the settings' DSN (thin mode)."""
    import oracledb

    if not password:
        raise ConfigError(f"No password is configured for Oracle user {user}; see .env.example.")
    return oracledb.connect(user=user, password=password, **connect_params(settings), **extra)


def connect_admin(settings: Any):
    """Connect as ORACLE_ADMIN_USER (bootstrap and provisioning only).

    A refused login (ORA-01017) becomes a ConfigError that names the admin
    settings: the general ORA-01017 advice names ORACLE_USER/ORACLE_PASSWORD,
    which is the wrong pair to check here.
    """
    try:
        return connect_as(settings, settings.admin_user, settings.admin_password)
    except ConfigError:
        raise
    except Exception as exc:
        if "ORA-01017" not in str(exc):
            raise
        raise ConfigError(
            f"ORA-01017: the database refused ORACLE_ADMIN_USER={settings.admin_user} with ORACLE_ADMIN_PASSWORD. "
            "Fix: put the password the database was created with in .env (the devcontainer's generated .env "
            "already has it: do not edit it; on Autonomous Database the user is ADMIN), or unset "
            "ORACLE_ADMIN_PASSWORD to use workshop users your DBA created."
        ) from exc


def create_pool_as(settings: Any, user: str, password: str | None, *, max_size: int = 2):
    """A small python-oracledb pool as ``user`` (OAMP prefers a pool over a raw connection)."""
    import oracledb

    if not password:
        raise ConfigError(f"No password is configured for Oracle user {user}; see .env.example.")
    return oracledb.create_pool(
        user=user, password=password, min=1, max=max_size, increment=1, **connect_params(settings)
    )
