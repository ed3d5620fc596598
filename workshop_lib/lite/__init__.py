"""The lite backend: Oracle SQL on SQLite, with python-oracledb's connection shape.

``connect(home)`` opens the lite database under ``<home>/lite``. See
connection.py for how statements run, translate.py for the rewrites,
guard.py for the non-Oracle syntax it rejects, and text.py for Oracle Text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .connection import LiteConnection, LiteCursor
from .errors import LiteDatabaseError, LiteNotSupportedError


def connect(home: Path | str | None = None, user: str | None = None, *, model_runner: Any = None,
            lexer: Any = None) -> LiteConnection:
    """Open a lite connection for ``user`` (default: the workshop's agent user) under ``home``.

    ``home`` defaults to the configured WORKSHOP_HOME. Opening creates the
    folder and catalog when they are new, so a fresh WORKSHOP_HOME is a fresh,
    isolated workshop.
    """
    if home is None or user is None:
        from workshop_lib.config import AGENT_SCHEMA, load_settings

        settings = load_settings()
        home = home if home is not None else settings.home
        user = user or AGENT_SCHEMA
    return LiteConnection(home, user, model_runner=model_runner, lexer=lexer)


__all__ = ["connect", "LiteConnection", "LiteCursor", "LiteDatabaseError", "LiteNotSupportedError"]
