"""Plausible wrong implementations of the graded TODOs, used to prove the checks catch them.

Each module (todo1, todo2, todo3) is written like a notebook cell: its
functions use module globals (``agent_conn``, ``memory_client``, ``USER_ID``,
``AGENT_ID``, ``rerank``, ``text_query``, ``Fact``, ...) that the test
injects from ``Workshop.notebook_globals()``. ``solution`` is the correct
implementation; every ``mutant_*`` function is wrong in one realistic way
(its docstring says how) and must fail its check. ``mutants(module)`` lists
them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any


def mutants(module: ModuleType) -> dict[str, Callable[..., Any]]:
    """name -> function for every ``mutant_*`` function defined in ``module``."""
    return {name: fn for name, fn in inspect.getmembers(module, inspect.isfunction)
            if name.startswith("mutant_") and fn.__module__ == module.__name__}
