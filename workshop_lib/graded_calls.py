"""Counts of calls to the library's own versions of the graded functions, per thread.

A check must notice when a learner's function hands its work to the library's
version of itself (``workshop_lib.reference``), under whatever alias the
learner imported it. Each library version calls :func:`note` first; a check
reads :func:`count` in the thread that runs the learner's function, before and
after the call. This replaced a ``sys.setprofile`` hook, which ran on every
Python and C call the learner's code made (importing litellm inside a check
went from 2.4 s to 4 s).
"""

from __future__ import annotations

import threading
from collections import Counter

__all__ = ["note", "count"]

_counts: Counter[tuple[str, int]] = Counter()


def note(name: str) -> None:
    """Record one call of the library's version of graded function ``name`` in the current thread."""
    _counts[(name, threading.get_ident())] += 1


def count(name: str) -> int:
    """How many calls of the library's ``name`` the current thread has made so far."""
    return _counts[(name, threading.get_ident())]
