"""Wait, with a bound and progress messages, until the Oracle database accepts logins.

A freshly started Oracle Free container needs one to three minutes before its
pluggable database is open; until then connections fail with "connection
refused", ORA-12514 or ORA-01033. :func:`wait_for_database` retries exactly
those, says what it is waiting for, and ends with :class:`DatabaseNotReady`
(cause + fix) when the time is up. Any other error (a wrong password, say) is
not retried: it is raised at once with its diagnosis.

With ``vector_pool_mb`` (the devcontainer and CI pass the size their startup
hook sets) a login is not enough: the database counts as ready only once
``VECTOR_MEMORY_SIZE`` has reached that size. The hook runs after the
database opens and, when the instance refuses the size at once, restarts it;
a wait that ended at the first login would hand setup a session the restart
then kills. Waiting for the sized pool covers the restart.
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
    vector_pool_mb: int | None = None,
) -> float:
    """Block until a login to ORACLE_DSN succeeds; return the seconds waited.

    Retries only "not up yet" errors (see :func:`diagnosis.is_transient`),
    printing a progress line about every ``interval_s`` seconds through
    ``echo``. Raises :class:`DatabaseNotReady` with the last error's cause and
    fix after ``timeout_s`` seconds, or at once for a non-transient error.
    ``connect`` replaces the login attempt (used by callers that already hold
    a connection factory). ``vector_pool_mb``: also wait until
    VECTOR_MEMORY_SIZE is at least that many MB (read as the admin user; when
    it cannot be read the login alone decides, with a note).
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
        pool_note = None
        try:
            pool_note = _pool_not_ready(conn, vector_pool_mb, echo) if vector_pool_mb else None
        except Exception as exc:  # noqa: BLE001 - the hook's restart can cut the session short
            if not is_transient(exc):
                raise
            pool_note = f"the database went away while the vector pool was read ({diagnose(exc).code})"
        finally:
            close = getattr(conn, "close", None)
            if close is not None:
                close()
        now = time.monotonic()
        if pool_note:
            if now >= deadline:
                raise DatabaseNotReady(
                    f"The database at {masked_dsn(settings.oracle_dsn)} accepts logins, but after "
                    f"{timeout_s:.0f} s {pool_note}. Fix: its startup hook did not size the pool - see "
                    "`docker compose -f .devcontainer/docker-compose.yml logs db` (lines starting "
                    "'workshop:'), or set it by hand as SYSDBA: ALTER SYSTEM SET vector_memory_size = "
                    f"{vector_pool_mb}M SCOPE = BOTH;",
                    Diagnosis("ORA-51962", pool_note, "see the message above."),
                )
            echo(f"The database accepts logins, but {pool_note}: its startup hook is still sizing it "
                 f"(it may restart the database once); waiting ({now - start:.0f}s of {timeout_s:.0f}s)")
            time.sleep(max(0.0, min(interval_s, deadline - now)))
            continue
        waited = now - start
        if attempt > 1:
            echo(f"The database is up (after {waited:.0f}s).")
        return waited


def _pool_not_ready(conn: Any, want_mb: int, echo: Callable[[str], Any]) -> str | None:
    """Why the pool is not yet ``want_mb`` MB, or None when it is (or cannot be read)."""
    from .vector_pool import read_vector_memory_size

    size = read_vector_memory_size(conn)
    if size is None:
        echo("Note: VECTOR_MEMORY_SIZE is not readable by this login; not waiting for the vector pool.")
        return None
    # The sub-pools' allocations can add up to a little less than the parameter; three quarters of
    # the wanted size cannot be reached without the hook having set it (the default is 0).
    if size >= want_mb * 1024 * 1024 * 3 // 4:
        return None
    return f"the vector pool is {size // (1024 * 1024)} MB, not yet {want_mb} MB"
