"""``cursor.var()`` for lite: the variable a ``RETURNING ... INTO :bind`` fills, shaped like python-oracledb's.

python-oracledb's :meth:`Variable.getvalue` of a DML returning bind gives a
list: the values of the rows the statement wrote, one list per execution
(``getvalue(i)`` for the i-th row of binds of ``executemany``). Lite's
variable keeps those lists; it is not an IN bind (lite binds plain Python
values), and binding it anywhere but RETURNING ... INTO is refused.
"""

from __future__ import annotations

from typing import Any, Callable


class LiteVar:
    """A variable for RETURNING ... INTO: ``getvalue(pos=0)`` is the list of values execution ``pos`` returned."""

    def __init__(self, typ: Any, size: int = 0, arraysize: int = 1, inconverter: Callable | None = None,
                 outconverter: Callable | None = None, typename: str | None = None, **_: Any) -> None:
        self.type = typ
        self.size = size
        self.num_elements = arraysize
        self.inconverter = inconverter
        self.outconverter = outconverter
        self._values: list[list[Any]] = []

    @property
    def values(self) -> list[Any]:
        """The value of each execution (python-oracledb's ``Variable.values``)."""
        return list(self._values)

    @property
    def actual_elements(self) -> int:
        return len(self._values)

    def getvalue(self, pos: int = 0) -> Any:
        """The values execution ``pos`` returned (a list: one per row written); None before any execution."""
        return self._values[pos] if pos < len(self._values) else None

    def setvalue(self, pos: int, value: Any) -> None:
        """Set execution ``pos``'s value (python-oracledb allows it; lite overwrites it at the next execute)."""
        while len(self._values) <= pos:
            self._values.append([])
        self._values[pos] = value

    def _start(self) -> None:
        self._values = []

    def _receive(self, values: list[Any]) -> None:
        as_type = self.type if self.type in (int, float, str) else None   # cursor.var(int) gives ints, ...
        convert = self.outconverter
        received = [as_type(v) if as_type is not None and v is not None else v for v in values]
        self._values.append([convert(v) if convert is not None and v is not None else v for v in received])
