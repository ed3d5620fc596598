"""The workshop started last in this process, for helpers that default to its connection.

This module imports nothing of the workshop's own, so any module (retrieval,
reference, checks) can ask for the running workshop without importing
:mod:`workshop_lib.workshop` and creating an import cycle.
"""

from __future__ import annotations

from typing import Any

_CURRENT: Any = None


def current() -> Any:
    """The workshop started last in this process (``workshop_lib.start()`` sets it).

    Raises RuntimeError with the fix when no workshop has been started yet.
    """
    if _CURRENT is None:
        raise RuntimeError("No workshop is running yet: run `ws = workshop_lib.start()` first.")
    return _CURRENT


def set_current(workshop: Any) -> None:
    """Make ``workshop`` the one :func:`current` returns (called by ``start()``)."""
    global _CURRENT
    _CURRENT = workshop


def clear_current() -> None:
    """Forget the running workshop (tests use this to start from nothing)."""
    global _CURRENT
    _CURRENT = None
