"""Wait, with a bound and progress messages, until the Oracle database accepts logins.

A freshly started Oracle Free container needs one to three minutes before its
pluggable database is open; until then connections fail with "connection
refused", ORA-12514 or ORA-01033. :func:`wait_for_database` retries exactly
those, says what it is waiting for, and ends with :class:`DatabaseNotReady`
(cause + fix) when the time is up. Any other error (a wrong password, say) is
not retried: it is raised at once with its diagnosis.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..config import masked_dsn
from ..errors import WorkshopError
from .connection import connect_as
from .diagnosis import Diagnosis, diagnose, is_transient


class DatabaseNotReady(WorkshopError):
    """The database did not accept a login within the time allowed, or refused it for good."""

    def __init__(self, message: str, diagnosis: Diagnosis | None = None):
        super().__init__(message)
        self.diagnosis = diagnosis


def _credentials(settings: Any) -> tuple[str, str | None]:
    # The admin account exists from the container's first start; the workshop
    # users only after bootstrap, so prefer the admin login when we have it.
    if getattr(settings, "admin_password", None):
        return settings.admin_user, settings.admin_password
    return settings.oracle_user, settings.oracle_password


def wait_for_database(
    settings: Any,
    timeout_s: float = 300.0,
    echo: Callable[[str], Any] = print,
    *,
    interval_s: float = 5.0,
    connect: Callable[[], Any] | None = None,
) -> float:
    """Block until a login to ORACLE_DSN succeeds; return the seconds waited.

    Retries only "not up yet" errors (see :func:`diagnosis.is_transient`),
    printing a progress line about every ``interval_s`` seconds through
    ``echo``. Raises :class:`DatabaseNotReady` with the last error's cause and
    fix after ``timeout_s`` seconds, or at once for a non-transient error.
    ``connect`` replaces the login attempt (used by callers that already hold
    a connection factory).
    """
    if connect is None:
        user, password = _credentials(settings)

        def connect() -> Any:
            return connect_as(settings, user, password, tcp_connect_timeout=min(10.0, max(1.0, interval_s)))

    start = time.monotonic()
    deadline = start + max(0.0, timeout_s)
    attempt = 0
    while True:
        attempt += 1
        try:
            conn = connect()
        except Exception as exc:  # noqa: BLE001 - every failure is classified below
            diagnosis = diagnose(exc)
            if not is_transient(exc):
                raise DatabaseNotReady(
                    f"Cannot log in to the database at {masked_dsn(settings.oracle_dsn)}: {diagnosis}",
                    diagnosis,
                ) from exc
            now = time.monotonic()
            if now >= deadline:
                raise DatabaseNotReady(
                    f"The database at {masked_dsn(settings.oracle_dsn)} was not ready after {timeout_s:.0f} s "
                    f"({attempt} attempts). Last error: {diagnosis}",
                    diagnosis,
                ) from exc
            waited = now - start
            echo(
                f"Waiting for the database at {masked_dsn(settings.oracle_dsn)} "
                f"({waited:.0f}s of {timeout_s:.0f}s; {diagnosis.code or 'not reachable'}: "
                f"{diagnosis.cause.split(':')[0]})"
            )
            time.sleep(max(0.0, min(interval_s, deadline - now)))
            continue
        waited = time.monotonic() - start
        close = getattr(conn, "close", None)
        if close is not None:
            close()
        if attempt > 1:
            echo(f"The database is up (after {waited:.0f}s).")
        return waited
