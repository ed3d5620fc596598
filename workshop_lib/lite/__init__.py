"""The lite backend: Oracle SQL on SQLite, with python-oracledb's connection shape.

``connect(home, user, model_runner=..., lexer=...)`` opens the lite database
under ``<home>/lite``. See
connection.py for how statements run, translate.py for the rewrites,
guard.py for the non-Oracle syntax it rejects, and text.py for Oracle Text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from .connection import LiteConnection
from .cursor import LiteCursor
from .errors import LiteDatabaseError, LiteNotSupportedError
from .text import Lexer


def connect(home: Path | str, user: str, *, model_runner: Callable[[Path], Any], lexer: Lexer) -> LiteConnection:
    """Open a lite connection for ``user`` under ``home`` (the database lives in ``<home>/lite``).

    Opening creates the folder and catalog when they are new, so a fresh
    ``home`` is a fresh, isolated workshop. The engine owns no model runtime
    and no lexer: ``model_runner(path)`` returns an object whose
    ``embed(texts)`` gives one vector per text for the ONNX file at ``path``
    (VECTOR_EMBEDDING calls it), and ``lexer`` is Oracle Text's lexer and
    stoplist (:class:`~workshop_lib.lite.text.Lexer`). The workshop opens
    lite through ``workshop_lib.backends.lite.connect_lite``, which passes both.
    """
    return LiteConnection(home, user, model_runner=model_runner, lexer=lexer)


__all__ = ["connect", "LiteConnection", "LiteCursor", "LiteDatabaseError", "LiteNotSupportedError"]
