"""Numbers that sort like a column's values, so a set of rows is ordered by them with numpy, not Python compares.

The keyword leg's tie-breaking (``ORDER BY SCORE(1) DESC, m.record_id``) needs
the first few hundred of thousands of tied rows by the column's value. Sorting
those values in Python touches every one of their string objects; with one
float per row that orders as the value does, the cut is an ``np.partition``
over an array. :class:`OrderKeys` hands out those floats for one kind of value
(text, or numbers), and keeps them ordered as values come and go.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Iterable

SPACING = float(2 ** 20)   # between neighbouring keys when (re)numbered: room for 20 halvings between two values


class OrderKeys:
    """Float keys of the distinct values of one kind: equal values one key, ``a < b`` exactly when ``key(a) < key(b)``.

    Values compare as Python compares them (text by code point, which is
    SQLite's BINARY order of their UTF-8; numbers by value, ``1 == 1.0``). A
    value not seen before gets the midpoint of its neighbours' keys, or one
    ``SPACING`` beyond the ends; when no float lies between its neighbours
    every key is renumbered and :attr:`renumbered` counts up, telling the
    caller that keys it stored are stale. Values that are gone keep their key
    (a stale key still sits in the right place).
    """

    def __init__(self, values: Iterable[Any] = ()) -> None:
        self.renumbered = 0
        self._number(sorted(set(values)))

    def _number(self, ordered: list[Any]) -> None:
        self._sorted = ordered
        self._keys = [i * SPACING for i in range(len(ordered))]
        self._key_of = dict(zip(ordered, self._keys))

    def key(self, value: Any) -> float:
        """The key of ``value`` (given one now if it has none)."""
        found = self._key_of.get(value)
        if found is not None:
            return found
        at = bisect_left(self._sorted, value)
        keys = self._keys
        if not keys:
            key = 0.0
        elif at == 0:
            key = keys[0] - SPACING
        elif at == len(keys):
            key = keys[-1] + SPACING
        else:
            low, high = keys[at - 1], keys[at]
            key = (low + high) / 2
            if not low < key < high:   # no float left between them: spread every key out again
                self._sorted.insert(at, value)
                self._number(self._sorted)
                self.renumbered += 1
                return self._key_of[value]
        self._sorted.insert(at, value)
        keys.insert(at, key)
        self._key_of[value] = key
        return key
