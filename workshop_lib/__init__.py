"""Retrieval workshop on Oracle AI Database: the helper library behind the notebooks.

Public surface (see docs/architecture.md)::

    import workshop_lib
    ws = workshop_lib.start()          # connect and prepare (idempotent)
    conn = workshop_lib.connect()      # a python-oracledb-shaped connection
"""

from __future__ import annotations

from .db import connect
from .workshop import Workshop, current, start

__all__ = ["connect", "start", "current", "Workshop"]
__version__ = "0.1.0"
