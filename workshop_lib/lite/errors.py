"""Oracle-shaped errors for the lite backend.

Lite raises :class:`LiteDatabaseError`, a subclass of ``oracledb.DatabaseError``,
so notebook code written ``except oracledb.DatabaseError as e: err, = e.args``
works unchanged in both backends: ``err.code``, ``err.full_code`` and
``err.message`` read like python-oracledb's.
"""

from __future__ import annotations

from dataclasses import dataclass

import oracledb


@dataclass(frozen=True)
class LiteError:
    """The error object in ``exc.args[0]``, shaped like python-oracledb's ``_Error``."""

    code: int
    message: str
    offset: int = 0
    isrecoverable: bool = False

    @property
    def full_code(self) -> str:
        """The ``ORA-NNNNN`` code, as python-oracledb reports it."""
        return f"ORA-{self.code:05d}"

    def __str__(self) -> str:
        return self.message


class LiteDatabaseError(oracledb.DatabaseError):
    """A database error raised by the lite engine (message starts with its ORA code)."""

    def __init__(self, code: int, text: str, hint: str | None = None, offset: int = 0):
        message = f"ORA-{code:05d}: {text}"
        if hint:
            message += f"\nHelp: {hint}"
        super().__init__(LiteError(code, message, offset))

    def __str__(self) -> str:
        return self.args[0].message


class LiteNotSupportedError(LiteDatabaseError):
    """Valid or invalid SQL the lite engine refuses, with the construct named.

    Uses ORA-03001 ("unimplemented feature") for Oracle constructs lite does
    not cover; non-Oracle syntax is reported with the Oracle error a real
    database would give (see guard.py).
    """

    def __init__(self, construct: str, hint: str | None = None, code: int = 3001):
        super().__init__(code, f"unimplemented feature in the lite backend: {construct}", hint)
