"""What every backend provides: the one seam between the workshop and its database.

The workshop chooses a backend once, from the settings
(:func:`workshop_lib.backends.get_backend`), and asks it for everything that
differs between Oracle and lite. Nothing outside ``workshop_lib/backends``
compares backend names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..config import Settings


class Backend(Protocol):
    """The operations whose implementation differs between Oracle and lite.

    Connections returned by :meth:`connect` have python-oracledb's shape
    (cursor, execute with named binds, fetch, commit, rollback,
    ``transaction_in_progress``), so code above the seam is the same for both.
    """

    name: str
    settings: Settings

    def connect(self, user: str | None = None) -> Any:
        """A connection as the agent user (or ``user``)."""

    def memory_target(self, conn: Any) -> Any:
        """What OAMP's client is built over: a pool on Oracle, the connection itself in lite."""

    def build_memory_client(self, target: Any, embedder: Any = None) -> Any:
        """OAMP's ``OracleAgentMemory`` over ``target`` with the workshop's embedder (or ``embedder``)."""

    def embedder(self, target: Any) -> Any:
        """The workshop's ONNX model as an OAMP embedder for this backend."""

    def load_model(self, conn: Any, *, force: bool = False) -> None:
        """Build the ONNX file if needed and load it into the database as ``EMBED_MODEL``."""

    def ensure_text_index(self, conn: Any) -> bool:
        """Create the memory table's Oracle Text index when missing; True when it was created now."""

    def seed(self, conn: Any) -> Any:
        """(Re)create SUPPLYCHAIN (as its owner where that is another user); returns the seed report."""

    def describe(self, conn: Any) -> str:
        """One line naming the database behind ``conn`` (for the notebooks' first cell)."""

    def doctor(self) -> Any:
        """Check this backend's environment; returns a DoctorReport (never raises for a problem found)."""

    def setup(self, *, upto: str, reseed: bool, echo: Callable[[str], Any], reset_passwords: bool = False) -> None:
        """``workshop setup``: bring this backend up to date, idempotently, reporting through ``echo``.

        Repairs what the doctor finds damaged and keeps the learner's own
        memories. ``reset_passwords`` (``workshop setup --reset-passwords``): on
        Oracle, set the SUPPLYCHAIN and AGENT passwords from .env even when they
        still log in; lite has no database users and says it ignores the flag.
        """

    def close_target(self, target: Any) -> None:
        """Release what :meth:`memory_target` opened (a pool), if anything."""
