"""Hard-stop checks for the graded TODOs: ``checks.todo1(fn)`` ... ``checks.todo5(fn)``.

Each check is called from a locked notebook cell right below its TODO with
the learner's function. It recomputes what the function must return from the
database (its own catalog queries, OAMP searches and rank computations, the
library's reference functions called with explicit arguments) — never from a
stored answer — and checks behaviour, not shape alone: bind variables, the
oversampled search call, the rerank call and the single SQL round trip are
observed through recording proxies that temporarily replace the notebook
globals the function uses (``memory_client``, ``agent_conn``, ``rerank``, ...).

A passing check prints exactly one line to stdout (``TODO 2 passed —
retrieve_knowledge``). A failing check raises :class:`CheckFailure` (an
``AssertionError``) saying what was expected, what came back, and a hint.
Nothing is written to stderr: the learner's function and the library run with
stdout/stderr captured, warnings silenced and logging disabled (nbgrader
scores a cell that writes to stderr as failed).

Bad input is graded, never fatal: a function that raises, returns ``None`` or
a generator, runs longer than the timeout (``timeout=`` argument, the
``WORKSHOP_CHECK_TIMEOUT`` environment variable, default 60 s), closes the
shared connection or leaves a transaction open fails its check with a clear
message, and the workshop is left as it was (globals restored, probe memories
and scratch tables removed, open transactions rolled back), so the next
TODO still grades.

Modules: ``harness`` (running the learner's function, failure messages),
``spies`` (the recording proxies), ``scratch`` (probe memories and scratch
tables), ``rankings`` (the checks' own vector/keyword rankings),
``connection`` (small SQL helpers) and one module per TODO. The names
``todo1`` ... ``todo5`` on this package are the check functions; the
modules of the same name are reached through ``importlib.import_module``.
"""

from __future__ import annotations

from .harness import DEFAULT_TIMEOUT, TIMEOUT_ENV, CheckFailure
from .scratch import (
    PROBE_PREFIX as PROBE_PREFIX,  # tests and instructors look probes up by it
)
from .todo1 import todo1
from .todo2 import todo2
from .todo3 import todo3
from .todo4 import todo4
from .todo5 import todo5

# Tracebacks show the public name learners import, not the module that defines it.
CheckFailure.__module__ = __name__

__all__ = ["DEFAULT_TIMEOUT", "TIMEOUT_ENV", "CheckFailure", "todo1", "todo2", "todo3", "todo4", "todo5"]
