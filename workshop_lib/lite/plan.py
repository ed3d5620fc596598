"""What the translator takes and gives: its view of the database (:class:`Context`) and the
:class:`Plan` of one statement, with the "slots" the connection fills once per execution
(vector distances with numpy, Oracle Text scores from the text index, embedding inputs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .catalog import ColumnType


@dataclass
class VectorSlot:
    """VECTOR_DISTANCE(<table column>, <row-constant vector>, metric), computed with numpy."""

    slot: int
    owner: str
    table: str
    column: str
    query_sql: str          # SQLite expression yielding the query vector (binds allowed)
    metric: str
    prune_sql: str | None = None   # the block's row probe, restricted to candidate rows (see vector_topk.py)
    limit_sql: str | None = None   # its FETCH FIRST count


@dataclass
class TextSlot:
    """CONTAINS(<indexed column>, <row-constant query>, label), answered by the text index."""

    slot: int
    owner: str
    table: str
    column: str
    query_sql: str
    label: int | None
    prune_sql: str | None = None   # the row probe of the block ordered by SCORE DESC (vector_topk.py)
    limit_sql: str | None = None   # its FETCH FIRST count
    tie_key: str | None = None     # the column that orders equal scores in that block, if readable


@dataclass
class EmbedPrefetch:
    """Texts that VECTOR_EMBEDDING will see, gathered up front so the model runs in batches."""

    model: str
    bind: str | None = None          # the input is this bind variable
    query_sql: str | None = None     # or: SQLite SELECT returning the inputs


@dataclass
class Returning:
    """``RETURNING exprs INTO :outs`` of a DML plan: the query that reads the returned values.

    For INSERT and UPDATE the DML's SQLite text ends with ``RETURNING rowid``
    and ``sql`` reads each written row by ``:LITE_ROWID`` afterwards (after
    the triggers that fill identity and ON NULL columns); for DELETE ``sql``
    reads the rows before they go, with the DELETE's own WHERE and binds.
    """

    outs: list[str]              # the INTO bind names, upper case, in order
    sql: str                     # SQLite query of the returned values
    binds: list[str]             # its binds (LITE_ROWID, or the DELETE's)
    types: list[str | None]      # Oracle type class of each value
    before: bool                 # DELETE: read before the statement runs


@dataclass
class Plan:
    """A translated statement, ready for the connection to run."""

    kind: str                                   # SELECT | INSERT | UPDATE | DELETE | MERGE
    sql: list[str]                              # SQLite statements (MERGE needs two)
    binds: list[str]                            # bind names (upper case), order of first use
    columns: list[tuple[str, str | None]] = field(default_factory=list)  # (name, type class)
    target: tuple[str, str] | None = None       # (owner, table) written by DML
    also_written: list[tuple[str, str]] = field(default_factory=list)   # the other tables of an INSERT ALL
    vector_slots: list[VectorSlot] = field(default_factory=list)
    text_slots: list[TextSlot] = field(default_factory=list)
    prefetch: list[EmbedPrefetch] = field(default_factory=list)
    star: bool = False                          # names come from SQLite's description
    returning: "Returning | None" = None        # DML ... RETURNING ... INTO :out
    described: dict = field(default_factory=dict)  # SQLite column names -> (description, types), per plan

    def written(self) -> list[tuple[str, str]]:
        """Every (owner, table) the statement writes (the caches of each are invalidated after it)."""
        return ([self.target] if self.target else []) + self.also_written


class Context:
    """What the translator needs to know about the database (supplied by the connection)."""

    def __init__(self, user: str, columns_of: Callable[[str, str], dict[str, ColumnType]],
                 text_index_on: Callable[[str, str, str], bool], next_slot: Callable[[], int],
                 view_query: Callable[[str, str], str | None] = lambda owner, name: None,
                 sequence_exists: Callable[[str, str], bool] = lambda owner, name: False,
                 column_default: Callable[[str, str, str], tuple[str | None, bool]] = (
                     lambda owner, table, column: (None, False))):
        self.user = user
        self.columns_of = columns_of
        self.text_index_on = text_index_on
        self.next_slot = next_slot
        self.view_query = view_query   # (owner, name) -> a view's Oracle query text, None for anything else
        self.sequence_exists = sequence_exists
        self.column_default = column_default   # (owner, table, column) -> catalog.column_default's answer
