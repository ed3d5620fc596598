"""Connections for both backends, with the same python-oracledb calling shape.

``connect()`` returns a python-oracledb thin-mode connection for ``oracle``
and a :class:`~workshop_lib.lite.LiteConnection` for ``lite``; notebook code
(cursor, execute with named binds, fetch, commit) is identical for both. The
choice is the backend seam's (:mod:`workshop_lib.backends`).
"""

from __future__ import annotations

from typing import Any

from .backends import get_backend
from .config import Settings, load_settings


def connect(backend: str | None = None, *, settings: Settings | None = None, user: str | None = None) -> Any:
    """Open a connection as the workshop's agent user (or ``user``) on the configured backend.

    ``backend`` overrides WORKSHOP_BACKEND. An unknown backend or a missing
    Oracle setting raises :class:`~workshop_lib.errors.ConfigError` naming it.
    """
    return get_backend(settings or load_settings(backend=backend)).connect(user)
