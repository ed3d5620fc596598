"""Plausible wrong implementations of the graded TODOs, used to prove the checks catch them.

Each module (todo1, todo2, todo3) is written like a notebook cell: its
functions use module globals (``agent_conn``, ``memory_client``, ``USER_ID``,
``AGENT_ID``, ``rerank``, ``text_query``, ``Fact``, ...) that the test
injects with :func:`notebook_namespace`, the names a setup cell defines. ``solution`` is the correct
implementation; every ``mutant_*`` function is wrong in one realistic way
(its docstring says how) and must fail its check. ``mutants(module)`` lists
them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any


def notebook_namespace(ws: Any) -> dict[str, Any]:
    """What a notebook's setup cell defines: every name of ``workshop_lib.notebook`` plus the workshop's objects."""
    import workshop_lib.notebook as facade

    namespace = {name: getattr(facade, name) for name in facade.__all__}
    namespace.update(ws=ws, agent_conn=ws.conn, memory_client=ws.memory_client)
    return namespace


def mutants(module: ModuleType) -> dict[str, Callable[..., Any]]:
    """name -> function for every ``mutant_*`` function defined in ``module``."""
    return {name: fn for name, fn in inspect.getmembers(module, inspect.isfunction)
            if name.startswith("mutant_") and fn.__module__ == module.__name__}
