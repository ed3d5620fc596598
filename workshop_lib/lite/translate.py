"""Oracle SQL -> SQLite SQL: the translator, for the rewrites that need scopes, types or slots.

Rewrites that need only the node itself live in transforms.py: the
one-to-one ``TRANSFORMS`` table and the named structural passes
(``transforms.PASSES``, chained like sqlglot's ``transforms.preprocess``;
MERGE → UPDATE + INSERT is ``transforms.merge_to_update_insert``). What stays
here needs to know what a column names or an expression's Oracle type
(scope.py): DATE/TIMESTAMP arithmetic and comparisons, CAST, TO_CHAR of a
datetime, values coerced to the column they are written to, object
attributes, and the "slots" whose values the connection computes once per
execution with numpy or the text index (vector distances to a constant query
vector, Oracle Text scores). The result is a :class:`Plan` (plan.py). Plans
are cached per statement text by the connection; DDL is executed by ddl.py.
"""

from __future__ import annotations

import functools
import json
import logging
import re

from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, UnsupportedError
from sqlglot.tokens import Token, TokenType

from .catalog import ColumnType
from . import connect_by, json_table, multitable, pivot, row_limits, semantics, sequences, vector_topk, views
from .functions import value_length
from .dialect import LiteSQLite, Oracle, VectorEmbedding
from .error_catalogue import (
    ERR_DATE_PLUS_DATE, ERR_DICTIONARY_READ_ONLY, ERR_INCONSISTENT_DATATYPES, ERR_INVALID_IDENTIFIER,
    ERR_INVALID_METRIC, ERR_INVALID_SDO_ATTRIBUTE,
    ERR_MORE_THAN_ONE_STATEMENT, ERR_NOT_ENOUGH_ARGUMENTS, ERR_NOT_ENOUGH_VALUES, ERR_PARSE,
    ERR_SCORE_WITHOUT_CONTAINS, ERR_SPATIAL_INDEX_NEEDED, ERR_SQLITE_AMBIGUOUS_COLUMN, ERR_TABLE_DOES_NOT_EXIST,
    ERR_TEXT_COLUMN_NOT_INDEXED,
    ERR_TEXT_INVALID_LABEL, ERR_TEXT_NOT_INDEXED, ERR_TOO_MANY_VALUES, ERR_UNSUPPORTED,
    ERR_UNSUPPORTED_CONTAINS_CORRELATED, ERR_UNSUPPORTED_CONTAINS_EXPRESSION, ERR_UNSUPPORTED_EXTRACT,
    ERR_RETURNING_NEEDS_INTO, ERR_UNSUPPORTED_RETURNING, ERR_UNSUPPORTED_SCORE_PLACE, ERR_UNSUPPORTED_STATEMENT_KIND,
    ERR_UNSUPPORTED_JSON_DATETIME, ERR_VALUE_TOO_LARGE, error,
)
from .plan import Context, EmbedPrefetch, Plan, Returning, TextSlot, VectorSlot
from .privileges import require_owner
from .shapes import PASS_THROUGH_CALLS, Shape, Template
from .scope import (
    DATETIME_TYPES, DICTIONARY_VIEWS, Scope, Source, _source_for_table, build_scope, cte_sources,
    expand_stars, infer_type, is_keep, is_sequence_number, name_of, object_column, output_columns, table_ref,
)
from .transforms import (  # noqa: F401 - TRANSFORMS and date_literal are re-exported for callers
    TRANSFORMS, _COMPARISONS, _SDO_ATTRIBUTES, _anon, _oracle_model, _ancestors, _bottom_up, _has_column, _interval_parts,
    date_literal, frame_may_be_empty, is_default_keyword, lite_call, merge_to_update_insert, prepare, rewrite_node,
)

_DAY_FRACTION = {"DAY": 1.0, "HOUR": 1 / 24, "MINUTE": 1 / 1440, "SECOND": 1 / 86400}
METRICS = {"COSINE", "EUCLIDEAN", "EUCLIDEAN_SQUARED", "L2", "L2_SQUARED", "DOT", "MANHATTAN", "L1"}



class _NoCommandFallbackNoise(logging.Filter):
    """sqlglot logs a warning when it falls back to an opaque Command; lite raises a clear error instead,
    and a notebook check cell must not write to stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        # lite reads JSON paths itself (and refuses what it cannot read): sqlglot's path warning is noise
        return "Falling back to parsing as a 'Command'" not in message and "Invalid JSON path" not in message


logging.getLogger("sqlglot").addFilter(_NoCommandFallbackNoise())

_NUMERIC_BIND = re.compile(r"(?<![\w:]):(\d+)\b")
NUMERIC_BIND_PREFIX = "P__"


def _name_numeric_binds(sql: str) -> str:
    """Oracle allows ``:1``-style binds; sqlglot does not, so they become ``:P__1`` (outside literals)."""
    from .guard import _strip_strings

    masked = _strip_strings(sql)
    if not _NUMERIC_BIND.search(masked):
        return sql
    out, last = [], 0
    for match in _NUMERIC_BIND.finditer(masked):
        out.append(sql[last:match.start()])
        out.append(f":{NUMERIC_BIND_PREFIX}{match.group(1)}")
        last = match.end()
    out.append(sql[last:])
    return "".join(out)


_ORACLE = Oracle()
_SQLITE_GENERATOR = LiteSQLite().generator()


def _merge_delete_where(sql: str, tokens: list[Token]) -> tuple[str, str] | None:
    """``MERGE ... WHEN MATCHED THEN UPDATE SET ... DELETE WHERE cond ...`` split into the MERGE without its
    DELETE WHERE clause and the text of ``cond`` (sqlglot does not read the clause); None for any other text.
    The condition runs to the next WHEN outside parentheses, or to the end."""
    if not tokens or tokens[0].token_type != TokenType.MERGE:
        return None
    for i, tok in enumerate(tokens[:-1]):
        if tok.token_type == TokenType.DELETE and tokens[i + 1].token_type == TokenType.WHERE:
            depth, end = 0, len(tokens)
            for j in range(i + 2, len(tokens)):
                kind = tokens[j].token_type
                depth += kind == TokenType.L_PAREN
                depth -= kind == TokenType.R_PAREN
                if depth == 0 and kind == TokenType.WHEN:
                    end = j
                    break
            stop = tokens[end].start if end < len(tokens) else len(sql)
            condition = sql[tokens[i + 1].end + 1:stop].strip()
            return sql[:tok.start] + " " + sql[stop:], condition
    return None


def parse(sql: str, tokens: list | None = None) -> exp.Expression:
    """Parse one Oracle statement (ORA-00900/00933 style errors on failure).

    ``tokens`` are the guard's tokens of the same text (guard.check): the
    parser reads them instead of tokenizing the text a second time, unless
    ``:1``-style binds had to be renamed first (the renamed text is tokenized).
    """
    renamed = _name_numeric_binds(sql)
    if renamed is not sql:
        tokens = None
    split = None
    if renamed.lstrip()[:5].upper() == "MERGE":
        split = _merge_delete_where(renamed, tokens if tokens is not None else _ORACLE.tokenize(renamed))
    if split is not None:   # MERGE ... DELETE WHERE cond: sqlglot reads the MERGE and the condition apart
        merge = parse(split[0])
        condition = parse(f"SELECT 1 FROM dual WHERE {split[1]}").args["where"].this
        for when in merge.args["whens"].expressions:
            if when.args.get("matched") and isinstance(when.args.get("then"), exp.Update):
                when.args["then"].meta["delete_where"] = condition
                return merge
        raise error(ERR_PARSE, where="", near=" (near 'DELETE WHERE': it belongs to WHEN MATCHED THEN UPDATE)")
    try:
        if tokens is not None:
            statements = _ORACLE.parser().parse(tokens, renamed)
        else:
            statements = _ORACLE.parse(renamed)
    except ParseError as exc:
        # Oracle's words, the place and the token; sqlglot's own description ("Expecting )") is not shown
        first = exc.errors[0] if exc.errors else {}
        where = f" at line {first.get('line')}, column {first.get('col')}" if first else ""
        token = (first.get("highlight") or "").strip() if first else ""
        raise error(ERR_PARSE, where=where, near=f" (near {token!r})" if token else "") from None
    statements = [s for s in statements if s is not None]
    if len(statements) != 1:
        raise error(ERR_MORE_THAN_ONE_STATEMENT)
    return prepare(statements[0])




def _rewrites_needed(nodes: list[exp.Expression]) -> set[str]:
    """Which of the plan-time rewrites (pivot, sequences, connect_by, row_limits) a statement's nodes call for."""
    needed: set[str] = set()
    for node in nodes:
        if pivot.has_pivot(node):
            needed.add("pivot")
        elif is_sequence_number(node):
            needed.add("sequences")
        elif isinstance(node, exp.Connect) or (isinstance(node, exp.Order) and node.args.get("siblings")):
            needed.add("connect_by")
        elif row_limits.needs_rewrite(node):
            needed.add("row_limits")
    return needed


def _plain_operand(node: exp.Expression) -> bool:
    """A column, bind or literal: cheap to read twice (once for its type, once for its value)."""
    return isinstance(node.unnest(), (exp.Column, exp.Placeholder, exp.Literal))


class Translator:
    """Translate one parsed Oracle statement into a Plan.

    With ``lift`` (the lifted literals of a statement shape: a literal's start
    offset -> its index, see shapes.py) the translator also notes what it
    decides from those literals' values: the VARCHAR2 length checks it makes
    (``lift_checks``), and ``lift_blocked`` when its output depends on a value.
    """

    def __init__(self, ctx: Context, lift: dict[int, int] | None = None):
        self.ctx = ctx
        self.lift = lift or {}
        self.lift_checks: dict[int, tuple[int, bool]] = {}
        self.lift_blocked = False
        self.template_sql: str | None = None
        self._scopes: dict[int, Scope] = {}
        self.vector_slots: list[VectorSlot] = []
        self.prunes: list[tuple[VectorSlot, exp.Select]] = []
        self.text_slots: list[TextSlot] = []
        self.prefetch: list[EmbedPrefetch] = []
        self.labels: dict[int, TextSlot] = {}
        self.handed_over: set[int] = set()   # pruned slots: SQLite reads their candidates from a TEMP table

    # -- entry point
    def plan(self, tree: exp.Expression) -> Plan:
        if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)) and tree.args.get("returning"):
            return self._plan_returning(tree)
        tree = views.expand(tree, self.ctx, self.ctx.view_query, parse)
        # one walk says which of the plan-time rewrites this statement needs (most need none)
        nodes = list(tree.walk())
        needed = _rewrites_needed(nodes)
        if isinstance(tree, exp.MultitableInserts):
            multitable.refuse_sequence_numbers(nodes)
        if "pivot" in needed:
            tree = pivot.rewrite(tree, lambda item: [name for name, _ in output_columns(
                self.ctx, exp.select(exp.Star()).from_(item.copy()))])
        if "sequences" in needed:
            tree = sequences.rewrite(tree, self.ctx.user, self.ctx.sequence_exists)
        if "connect_by" in needed:
            tree = connect_by.rewrite(tree, lambda block: self._scope_for(block.expressions[0]))
            self._scopes = {}
        rewritten = needed & {"pivot", "connect_by"}   # these make new query blocks; the walk's are the rest's
        for select in (tree.find_all(exp.Select) if rewritten else (n for n in nodes if isinstance(n, exp.Select))):
            semantics.check_select(select, self._scope_for)  # what Oracle refuses and SQLite would run
        self._scopes = {}
        if "row_limits" in needed:   # after the checks, which read the blocks as written
            tree = row_limits.rewrite(tree, lambda block: self._scope_for(block.expressions[0]))
            self._scopes = {}
        if isinstance(tree, (exp.Select, exp.SetOperation, exp.Subquery)):
            return self._plan_query(tree)
        if isinstance(tree, exp.Insert):
            return self._plan_insert(tree)
        if isinstance(tree, exp.Update):
            return self._plan_update(tree)
        if isinstance(tree, exp.Delete):
            return self._plan_delete(tree)
        if isinstance(tree, exp.Merge):
            return self._plan_merge(tree)
        if isinstance(tree, exp.MultitableInserts):
            return self._plan_multitable(tree)
        raise error(ERR_UNSUPPORTED_STATEMENT_KIND, kind=type(tree).__name__.upper())

    def _plan_returning(self, tree: exp.Expression) -> Plan:
        """``INSERT ... VALUES | UPDATE | DELETE ... RETURNING exprs INTO :outs`` (python-oracledb's DML returning).

        The statement is planned without its RETURNING clause, and the values
        are read by a query over the written table (:class:`~workshop_lib.lite.plan.Returning`).
        """
        returning = tree.args["returning"]
        into = returning.args.get("into")
        outs = into.expressions if isinstance(into, exp.Tuple) else []
        if not outs or not all(isinstance(o, exp.Placeholder) for o in outs):
            raise error(ERR_RETURNING_NEEDS_INTO)
        if len(outs) != len(returning.expressions):
            raise error(ERR_TOO_MANY_VALUES if len(returning.expressions) > len(outs) else ERR_NOT_ENOUGH_VALUES)
        if isinstance(tree, exp.Insert) and not isinstance(tree.expression, exp.Values):
            raise error(ERR_UNSUPPORTED_RETURNING)
        dml = tree.copy()
        dml.set("returning", None)
        plan = Translator(self.ctx).plan(dml)
        if len(plan.sql) != 1 or plan.vector_slots or plan.text_slots or plan.target is None:
            raise error(ERR_UNSUPPORTED, construct="RETURNING ... INTO on this statement")
        written = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        owner, name = plan.target
        alias = written.args.get("alias")
        table = exp.Table(this=exp.to_identifier(name, quoted=True), db=exp.to_identifier(owner, quoted=True),
                          alias=alias.copy() if alias is not None else None)
        query = exp.select(*[e.copy() for e in returning.expressions]).from_(table)
        before = isinstance(tree, exp.Delete)
        if before:
            if tree.args.get("where") is not None:
                query.set("where", tree.args["where"].copy())
        else:
            qualifier = name_of(alias.this) if alias is not None else name
            query = query.where(exp.EQ(this=exp.column("ROWID", table=exp.to_identifier(qualifier, quoted=True)),
                                       expression=exp.Placeholder(this="LITE_ROWID")))
            plan.sql[0] += " RETURNING rowid"
        reader = Translator(self.ctx).plan(query)
        plan.returning = Returning([o.name.upper() for o in outs], reader.sql[0], reader.binds,
                                   [t for _, t in reader.columns], before)
        return plan

    def _finish(self, kind: str, sql: list[str], tree: exp.Expression, **kw: object) -> Plan:
        for slot, block in self.prunes:  # rendered now that the whole tree is rewritten
            slot.prune_sql = self._sqlite(vector_topk.row_probe(block))   # SELECT 1 ... LIMIT n
            slot.limit_sql = self._sqlite(vector_topk.limit_count(block))
        binds: list[str] = []
        for ph in tree.find_all(exp.Placeholder):
            name = ph.name.upper()
            if name and name not in binds:
                binds.append(name)
        return Plan(kind, sql, binds, vector_slots=self.vector_slots, text_slots=self.text_slots,
                    prefetch=self.prefetch, **kw)  # type: ignore[arg-type]

    def _plan_query(self, tree: exp.Expression) -> Plan:
        columns = output_columns(self.ctx, tree)
        star = any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star))
                   for s in tree.find_all(exp.Select) if s is tree or s.parent is None for p in s.expressions)
        out = self.rewrite(tree.copy())
        return self._finish("SELECT", [self._sqlite(out)], tree, columns=columns, star=star)

    # -- DML
    def _target(self, table: exp.Table, action: str) -> tuple[str, str, dict[str, ColumnType]]:
        owner, name = table_ref(table, self.ctx.user)
        cols = self.ctx.columns_of(owner, name)
        if not cols and name in DICTIONARY_VIEWS and (not table.args.get("db") or owner == "SYS"):
            raise error(ERR_DICTIONARY_READ_ONLY, action=action, name=name)   # Oracle: SYS's, SELECT for PUBLIC
        if not cols:
            raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=name)
        require_owner(self.ctx.user, owner, name, action)
        return owner, name, cols

    def _coerce(self, value: exp.Expression, ctype: ColumnType | None) -> exp.Expression:
        """Wrap a value written to a JSON/VECTOR column so it is validated and stored canonically."""
        if ctype is None:
            return value
        if ctype.type_class == "JSON":
            if isinstance(value, exp.Anonymous) and value.name.upper() == "JSON":
                value = value.expressions[0]
            return _anon("ora_json_text", value)
        if ctype.type_class == "VECTOR":
            dims = exp.Literal.number(ctype.vector_dim) if ctype.vector_dim else exp.Null()
            fmt = exp.Literal.string(ctype.vector_format) if ctype.vector_format else exp.Null()
            return _anon("ora_to_vector", value, dims, fmt)
        if ctype.type_class == "NUMBER" and ctype.data_type == "NUMBER":
            return self._number_value(value, ctype)
        if ctype.data_type == "RAW" and not isinstance(value, exp.Null):
            # hex text is read as HEXTORAW reads it, the length checked (raw.py); SQLite would keep the text
            return _anon("ora_raw_in", value, exp.Literal.number(ctype.length) if ctype.length else exp.Null())
        if ctype.type_class in ("VARCHAR2", "CHAR") and ctype.length:
            in_bytes = ctype.char_used != "C"   # Oracle's default length semantics is BYTE
            if isinstance(value, exp.Literal) and value.is_string:
                lifted = self._lifted(value)
                if lifted is not None:   # a template repeats this check for each statement of the shape
                    self.lift_checks[lifted] = (ctype.length, in_bytes)
                actual = value_length(value.this, in_bytes)
                if actual > ctype.length:
                    raise error(ERR_VALUE_TOO_LARGE, actual=actual, maximum=ctype.length)
                return value
            if isinstance(value, (exp.Null, exp.Literal)):
                return value
            return _anon("ora_varchar_in", value, exp.Literal.number(ctype.length),
                         exp.Literal.number(int(in_bytes)))
        if ctype.type_class in DATETIME_TYPES:
            precision = _fraction_digits(ctype)
            if isinstance(value, exp.Literal) and value.is_string:
                if self._lifted(value) is not None:
                    self.lift_blocked = True   # the stored form is computed from the value now
                return date_literal(value.this, timestamp=ctype.type_class == "TIMESTAMP", precision=precision)
            if isinstance(value, exp.Null):
                return value
            if ctype.type_class == "DATE":
                return _anon("ora_as_date", value)
            return _anon("ora_as_timestamp", value, *([exp.Literal.number(precision)] if precision < 6 else []))
        return value

    def _number_value(self, value: exp.Expression, ctype: ColumnType) -> exp.Expression:
        """A value written to a NUMBER[(p, s)] column: converted, rounded to the scale, checked against the
        precision (ORA-01722, ORA-01438), as Oracle stores it; SQLite would keep text or every decimal."""
        if isinstance(value, exp.Null):
            return value
        bounded = ctype.precision is not None and ctype.scale is not None
        if isinstance(value, exp.Literal) and not value.is_string and not bounded:
            return value  # a numeric literal needs no conversion
        args = [value]
        if bounded:
            args += [exp.Literal.number(ctype.precision), exp.Literal.number(ctype.scale)]
        return _anon("ora_number_in", *args)

    def _plan_insert(self, tree: exp.Insert) -> Plan:
        out, target = self._insert_tree(tree)
        if self.lift and not self.lift_blocked:
            self.template_sql = self._template_text(out)
        return self._finish("INSERT", [self._sqlite(out)], out, target=target)

    def _lifted(self, node: exp.Expression) -> int | None:
        """The shape index of a lifted literal (None for any other node)."""
        if not self.lift or not isinstance(node, exp.Literal) or not node._meta:
            return None
        return self.lift.get(node._meta.get("start"))   # type: ignore[arg-type]

    def _template_text(self, out: exp.Expression) -> str | None:
        """The SQLite text of ``out`` with each lifted literal written as ``\\x00<index>\\x00`` (None when a
        literal the translator kept has another value or kind than the one lifted: nothing to template)."""
        probe = out.copy()
        for literal in list(probe.find_all(exp.Literal)):
            index = self._lifted(literal)
            if index is not None:
                literal.replace(exp.Var(this=f"\x00{index}\x00"))
        return to_sqlite(probe)

    def _plan_update(self, tree: exp.Update) -> Plan:
        out, target = self._update_tree(tree)
        return self._finish("UPDATE", [self._sqlite(out)], out, target=target)

    def _dml_tree(self, tree: exp.Expression) -> exp.Expression:
        """An INSERT or UPDATE (one of a MERGE's) coerced and rewritten for SQLite."""
        return (self._insert_tree(tree) if isinstance(tree, exp.Insert) else self._update_tree(tree))[0]

    def _insert_tree(self, tree: exp.Insert) -> tuple[exp.Expression, tuple[str, str]]:
        target = tree.this
        schema_cols: list[str] | None = None
        if isinstance(target, exp.Schema):
            schema_cols = [name_of(c) for c in target.expressions]
            table = target.this
        else:
            table = target
        owner, name, cols = self._target(table, "INSERT INTO")
        names = schema_cols or list(cols)
        for col in names:
            if col not in cols:
                raise error(ERR_INVALID_IDENTIFIER, name=col)
        tree = tree.copy()
        source = tree.expression
        if isinstance(source, exp.Values):
            for row in source.expressions:
                values = row.expressions
                if len(values) != len(names):
                    raise error(ERR_TOO_MANY_VALUES if len(values) > len(names) else ERR_NOT_ENOUGH_VALUES)
                for i, value in enumerate(values):
                    if is_default_keyword(value):
                        value = value.replace(self._default_of(owner, name, names[i]))
                    value.replace(self._coerce(value.copy(), cols.get(names[i])))
        elif isinstance(source, (exp.Select, exp.SetOperation, exp.Subquery)):
            select = source.this if isinstance(source, exp.Subquery) else source
            if isinstance(select, exp.Select):
                self._expand_stars(select)
                if len(select.expressions) != len(names):
                    raise error(ERR_TOO_MANY_VALUES if len(select.expressions) > len(names) else ERR_NOT_ENOUGH_VALUES)
                for i, proj in enumerate(select.expressions):
                    if i < len(names) and is_default_keyword(proj):   # a MERGE's INSERT VALUES (DEFAULT)
                        proj = proj.replace(self._default_of(owner, name, names[i]))
                    if i < len(names) and cols.get(names[i]) and cols[names[i]].type_class in (
                            "JSON", "VECTOR", "NUMBER", "VARCHAR2", "CHAR", *DATETIME_TYPES):
                        inner = proj.this if isinstance(proj, exp.Alias) else proj
                        inner.replace(self._coerce(inner.copy(), cols[names[i]]))
        self._qualify_target(table, owner, name)
        return self.rewrite(tree), (owner, name)

    def _default_of(self, owner: str, table: str, column: str) -> exp.Expression:
        """The column's DEFAULT (Oracle SQL) for the DEFAULT keyword in VALUES or SET; NULL for a column without
        one, as in Oracle (an identity column's trigger then numbers the row)."""
        text, unrecorded = self.ctx.column_default(owner, table, column)
        if unrecorded:
            raise error(ERR_UNSUPPORTED, construct=f"DEFAULT for {owner}.{table}.{column}, whose default an older "
                                                   "lite did not record (create the table again, or write the value)")
        return parse(f"SELECT {text} FROM dual").expressions[0] if text is not None else exp.Null()

    def _expand_stars(self, select: exp.Select) -> None:
        """``*`` and ``alias.*`` in an INSERT's query as the columns they stand for, so each value meets its
        target column's conversion (ORA_NUMBER_IN(*) was no SQL at all)."""
        if any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star))
               for p in select.expressions):
            select.set("expressions", expand_stars(select.expressions, self._scope_for(select.expressions[0])))

    def _update_tree(self, tree: exp.Update) -> tuple[exp.Expression, tuple[str, str]]:
        owner, name, cols = self._target(tree.this, "UPDATE")
        tree = tree.copy()
        for assign in tree.expressions:
            if isinstance(assign.this, (exp.Tuple, exp.Paren)):
                # SET (a, b) = (SELECT ...): SQLite's row values take it as written; the names are checked
                targets = assign.this.expressions if isinstance(assign.this, exp.Tuple) else [assign.this.this]
                for target in targets:
                    col = name_of(target.this if isinstance(target, exp.Column) else target)
                    if col not in cols:
                        raise error(ERR_INVALID_IDENTIFIER, name=col)
                    if isinstance(target, exp.Column) and target.args.get("table"):
                        target.set("table", None)
                continue
            col = name_of(assign.this.this if isinstance(assign.this, exp.Column) else assign.this)
            if col not in cols:
                raise error(ERR_INVALID_IDENTIFIER, name=col)
            if is_default_keyword(assign.expression):
                assign.set("expression", self._default_of(owner, name, col))
            assign.set("expression", self._coerce(assign.expression, cols[col]))
            if isinstance(assign.this, exp.Column) and assign.this.args.get("table"):
                assign.this.set("table", None)
        self._qualify_target(tree.this, owner, name)
        return self.rewrite(tree), (owner, name)

    def _plan_delete(self, tree: exp.Delete) -> Plan:
        owner, name, _ = self._target(tree.this, "DELETE FROM")
        tree = tree.copy()
        self._qualify_target(tree.this, owner, name)
        out = self.rewrite(tree)
        return self._finish("DELETE", [self._sqlite(out)], tree, target=(owner, name))

    def _plan_merge(self, tree: exp.Merge) -> Plan:
        """MERGE as the UPDATE and INSERT of ``transforms.merge_to_update_insert``, each typed and coerced
        like a plain UPDATE/INSERT (values written to JSON/VECTOR/DATE columns are checked the same way)."""
        owner, name, _cols = self._target(tree.this, "MERGE INTO")
        statements: list[str] = []
        for statement in merge_to_update_insert(tree):
            rewritten = self._dml_tree(statement)
            statements.append(self._sqlite(rewritten))
        return self._finish("MERGE", statements, tree, target=(owner, name))

    def _plan_multitable(self, tree: exp.MultitableInserts) -> Plan:
        """``INSERT ALL|FIRST [WHEN c THEN] INTO t [(cols)] [VALUES (...)] ... [ELSE INTO ...] subquery`` as one
        ``INSERT INTO t [(cols)] SELECT values FROM (subquery) q WHERE <its condition>`` per INTO clause, run in
        order as one statement (multitable.py says which rows each INTO takes)."""
        statements: list[str] = []
        targets: list[tuple[str, str]] = []
        for insert in multitable.inserts(tree, lambda table: table_ref(table, self.ctx.user)):
            out, target = self._insert_tree(insert)
            statements.append(self._sqlite(out))
            targets.append(target)
        return self._finish("INSERT", statements, tree, target=targets[0], also_written=targets[1:])

    def _qualify_target(self, table: exp.Table, owner: str, name: str) -> None:
        if not table.args.get("db") and name in DICTIONARY_VIEWS:
            # USER_SDO_GEOM_METADATA: a per-connection view whose triggers do the write (catalog.view_triggers)
            table.set("this", exp.to_identifier(name, quoted=True))
            return
        table.set("db", exp.to_identifier(owner, quoted=True))
        table.set("this", exp.to_identifier(name, quoted=True))

    # -- expression rewrites
    def rewrite(self, tree: exp.Expression) -> exp.Expression:
        """Apply every rewrite to ``tree`` (in place where possible) and return it."""
        self._rewrite_special(tree)   # needs the original table names for scopes
        self._json_tables(tree)
        self._rewrite_tables(tree)
        return _bottom_up(tree, rewrite_node)

    def _rewrite_tables(self, tree: exp.Expression) -> None:
        cte_names: set[str] = set()
        for with_ in tree.find_all(exp.With):
            for cte in with_.expressions:
                cte_names.add(name_of(cte.args["alias"].this))
        for table in list(tree.find_all(exp.Table)):
            if not isinstance(table.this, exp.Identifier):
                continue
            name = name_of(table.this)
            db = name_of(table.args.get("db")) if table.args.get("db") else None
            if db in (None, "SYS") and name in DICTIONARY_VIEWS:
                table.set("db", None)
                table.set("this", exp.to_identifier(name, quoted=True))
                continue
            if db is None and name in cte_names:
                continue
            owner = db or self.ctx.user
            table.set("db", exp.to_identifier("main" if owner == self.ctx.user else owner, quoted=False))
            table.set("this", exp.to_identifier(name, quoted=True))

    def _json_tables(self, tree: exp.Expression) -> None:
        """JSON_TABLE FROM items become ``json_each(ora_json_table(doc, spec))`` and their columns reads of
        json_each's value (json_table.py); ``*`` is spelled out first where a JSON_TABLE is in the FROM."""
        items = [t for t in tree.find_all(exp.Table) if isinstance(t.this, exp.JSONTable)]
        if not items:
            return
        for block in {id(b): b for b in (t.find_ancestor(exp.Select) for t in items) if b is not None}.values():
            if any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star))
                   for p in block.expressions):
                block.set("expressions", expand_stars(block.expressions, self._scope_for(block.expressions[0])))
        for column in list(tree.find_all(exp.Column)):
            block = column.find_ancestor(exp.Select)
            if isinstance(column.this, exp.Star) or column.args.get("db") is not None or block is None \
                    or _lite_block(block):
                continue
            scope = self._scope_for(column)
            src, name = scope.resolve(column)
            qualified = column.args.get("table") is not None
            if not qualified and _select_alias(column, name):
                continue   # ORDER BY a select-list alias
            if src is None:
                if not qualified and name.lower() in json_table.JSON_EACH_COLUMNS and any(
                        src.json_table for s in _scope_chain(scope) for src in s.sources.values()):
                    raise error(ERR_INVALID_IDENTIFIER, name=name)   # SQLite would read json_each's own column
                continue
            if not qualified:
                level = next(s for s in _scope_chain(scope) if any(v is src for v in s.sources.values()))
                if sum(any(c == name for c, _ in v.columns) for v in level.sources.values()) > 1:
                    raise error(ERR_SQLITE_AMBIGUOUS_COLUMN, column=name)   # Oracle's ORA-00918
            alias = name_of(column.args["table"]) if qualified else next(
                (a for s in _scope_chain(scope) for a in s.order if s.sources[a] is src), "__SUB")
            if not src.json_table:
                if not qualified and not alias.startswith("__SUB"):
                    # json_each has columns of its own (id, key, value, type, path, ...): a bare name beside
                    # it could be read as one of them, or be ambiguous
                    column.set("table", exp.to_identifier(alias, quoted=True))
                continue
            names = [c for c, _ in src.columns]
            if name not in names:
                raise error(ERR_INVALID_IDENTIFIER, name=f'{alias}"."{name}')
            column.replace(json_table.column_value(alias, names.index(name)))
        for table in items:
            table.replace(json_table.from_item(table.this, name_of(table.args["alias"].this)))

    def _column_source(self, column: exp.Column) -> tuple[str, str, str, str] | None:
        """(owner, table, column, alias) of a base-table column, for the slot rewrites."""
        if column.find_ancestor(exp.Select) is None:
            return None
        scope = self._scope_for(column)
        src, name = scope.resolve(column)
        if src is None or src.owner is None:
            return None
        qualifier = name_of(column.args.get("table")) if column.args.get("table") else None
        if qualifier is None:
            probe: Scope | None = scope
            while probe is not None and qualifier is None:
                for alias in probe.order:
                    if probe.sources[alias] is src:
                        qualifier = alias
                probe = probe.outer
        return src.owner, src.table or "", name, qualifier or ""

    def _rewrite_special(self, tree: exp.Expression) -> None:
        """Slot rewrites that need scope information (run before tables are renamed in output)."""
        self._scopes = {}
        for node in list(tree.find_all(exp.Anonymous)):
            fname = node.name.upper()
            if fname == "VECTOR_DISTANCE":
                self._vector_distance(node)
        for node in list(tree.find_all(exp.Contains)):
            self._contains(node)
        for node in list(tree.find_all(exp.Anonymous)):
            if node.name.upper() == "SCORE":
                self._score(node)
            elif node.name.upper() == "SDO_WITHIN_DISTANCE":
                self._spatial_operator(node)
        for node in list(tree.find_all(VectorEmbedding)):
            self._embedding_prefetch(node)
        for node in reversed(list(tree.walk(bfs=False))):
            if isinstance(node, (exp.Add, exp.Sub)):
                if not self._datetime_arith(node):
                    self._decimal_arith(node)
            elif isinstance(node, (exp.Mul, exp.Div)):
                self._decimal_arith(node)
            elif isinstance(node, (exp.Sum, exp.Avg)):
                self._decimal_sum(node)
            elif isinstance(node, _COMPARISONS + (exp.Between, exp.In)) and not _is_assignment(node):
                self._datetime_comparison(node)
                self._character_comparison(node)
            elif isinstance(node, (exp.ToChar, exp.TimeToStr)):
                self._to_char(node)
            elif isinstance(node, exp.DPipe):
                self._concat_operands(node)
            elif isinstance(node, exp.GroupConcat):
                self._listagg_value(node)
            elif isinstance(node, exp.Extract):
                self._extract(node)
            elif isinstance(node, (exp.JSONObject, exp.JSONArray, exp.JSONArrayAgg)):
                self._json_values(node)
            elif isinstance(node, exp.WindowSpec) and str(node.args.get("kind") or "").upper() == "RANGE":
                self._range_offsets(node)
            elif isinstance(node, exp.JSONValue) and self._type(node.this) == "JSON":
                node.meta["json_column"] = True  # validated on write: the C fast path needs no json_valid
            elif isinstance(node, exp.Cast):
                self._cast(node)
            elif isinstance(node, exp.Round) and self._type(node.this) in DATETIME_TYPES:
                # ROUND(date[, fmt]) rounds to a unit of time (a DATE), not to decimal places
                unit = node.args.get("decimals")
                node.replace(_anon("ora_round_date", node.this, unit if unit is not None else exp.Literal.string("DD")))
            elif isinstance(node, exp.DateTrunc) and self._type(node.this) not in (*DATETIME_TYPES, None):
                # sqlglot reads TRUNC(<expression>) as a date TRUNC when it cannot tell; numbers truncate.
                node.replace(_anon("ora_trunc", node.this))
            elif isinstance(node, exp.Column) and node.args.get("db") is not None:
                self._object_attribute(node)
            elif isinstance(node, exp.Anonymous) and node.name.upper() == "SYS_CONTEXT":
                self._sys_context(node)
            elif isinstance(node, exp.Column) and not node.args.get("table") and name_of(node.this) == "USER" \
                    and not isinstance(node.this, exp.Star):
                if self._scope_for(node).resolve(node)[0] is None:
                    node.replace(exp.Literal.string(self.ctx.user))

    # -- datetime rewrites (they need the types of columns, hence a scope)
    def _scope_for(self, node: exp.Expression) -> Scope:
        """The scope ``node`` is evaluated in: its SELECT (with enclosing CTEs and queries), or a DML target."""
        select = node.find_ancestor(exp.Select)
        key = id(select) if select is not None else id(node.root())
        cached = self._scopes.get(key)
        if cached is not None:
            return cached
        outer: Scope | None = None
        holder = select.parent if select is not None else None
        enclosing = holder.find_ancestor(exp.Select) if holder is not None else None
        if enclosing is not None:
            outer = self._scope_for(holder)
        ctes: dict[str, Source] = {}
        chain = [a for a in ([select] if select is not None else []) + list(_ancestors(select or node))]
        for anc in reversed(chain):
            if isinstance(anc, (exp.Select, exp.SetOperation)) and anc.args.get("with_"):
                ctes = cte_sources(self.ctx, anc, ctes)
        if select is not None:
            scope = build_scope(self.ctx, select, ctes)
            scope.outer = outer or self._dml_scope(select)
        else:
            scope = self._dml_scope(node) or Scope(self.ctx, ctes)
        self._scopes[key] = scope
        return scope

    def _dml_scope(self, node: exp.Expression) -> Scope | None:
        stmt = node.root()
        if isinstance(stmt, (exp.Update, exp.Delete)) and isinstance(stmt.this, exp.Table):
            scope = Scope(self.ctx, {})
            table = stmt.this
            alias = name_of(table.args["alias"].this) if table.args.get("alias") else name_of(table.this)
            scope.add(alias, _source_for_table(self.ctx, table, {}))
            return scope
        return None

    def _type(self, node: exp.Expression) -> str | None:
        return infer_type(node, self._scope_for(node))

    def _datetime_arith(self, node: exp.Expression) -> bool:
        """Date and interval arithmetic as Oracle does it; False when neither operand is a date (nothing done)."""
        left, right = node.this, node.expression
        lt, rt = self._type(left), self._type(right)
        sub = isinstance(node, exp.Sub)
        if lt not in DATETIME_TYPES and (sub or rt not in DATETIME_TYPES):
            if "INTERVAL" in (lt, rt) and (_interval_parts(left) or _interval_parts(right)) \
                    and lt != rt and None not in (lt, rt):
                raise error(ERR_INCONSISTENT_DATATYPES, expected="DATE or TIMESTAMP", got=lt or rt)
            return False
        if not sub and lt in DATETIME_TYPES and rt in DATETIME_TYPES:
            raise error(ERR_DATE_PLUS_DATE)
        if sub and lt in DATETIME_TYPES and rt in DATETIME_TYPES:
            fn = "ora_days_between" if lt == rt == "DATE" else "ora_seconds_between"
            node.replace(_anon(fn, left, right))
            return True
        if lt not in DATETIME_TYPES:  # n + date, INTERVAL + date
            left, right, lt, rt = right, left, rt, lt
        parts = _interval_parts(right)
        if parts is None and rt == "INTERVAL":
            parts = (right, "SECOND")
        if parts is not None:
            amount, unit = parts
            if sub:
                amount = exp.Neg(this=exp.Paren(this=amount))
            fn = "ora_ts_add_interval" if lt == "TIMESTAMP" else "ora_date_add_interval"
            node.replace(_anon(fn, left, amount, exp.Literal.string(unit)))
            return True
        if rt in ("VARCHAR2", "CHAR", "CLOB", "JSON", "VECTOR", "SDO_GEOMETRY"):
            raise error(ERR_INCONSISTENT_DATATYPES, expected="NUMBER", got=rt)
        amount = exp.Neg(this=exp.Paren(this=right)) if sub else right
        node.replace(_anon("ora_date_add", left, amount))
        return True

    # -- decimal arithmetic: Oracle's NUMBER is decimal, SQLite's REAL binary
    def _decimal_arith(self, node: exp.Expression) -> None:
        """``a + b``, ``a - b``, ``a * b``, ``a / b`` on NUMBER values that need not be whole numbers run in decimal,
        as in Oracle (``0.1 + 0.2 = 0.3``); whole numbers keep SQLite's exact integer arithmetic, and
        BINARY_DOUBLE / BINARY_FLOAT operands its IEEE arithmetic, which Oracle uses for them too."""
        left, right = node.this, node.expression
        if {self._type(left), self._type(right)} & {"BINARY_DOUBLE", "BINARY_FLOAT"}:
            return
        if self._integral(left) and self._integral(right):
            return
        if any(isinstance(operand.unnest(), exp.Div) for operand in (left, right)) and not isinstance(node, exp.Div):
            # a quotient reaches the next operator as a double already (1/61 has no exact form in either), so
            # decimal addition could not give Oracle's 40-digit sum back; it would only cost a call per row
            # (the hybrid query's RRF score adds two quotients on every fused row)
            return
        if isinstance(node, exp.Div):
            node.replace(_anon("ora_divide", left, right))
            return
        name = {exp.Add: "ora_dec_add", exp.Sub: "ora_dec_sub", exp.Mul: "ora_dec_mul"}[type(node)]
        decimal = _anon(name, left.copy(), right.copy())
        if not (_plain_operand(left) and _plain_operand(right)):
            node.replace(decimal)
            return
        # a bind or a column may still hold whole numbers row after row (a rank, an RRF k): those keep SQLite's
        # integer arithmetic, and only other rows call lite's decimal function (one Python call each)
        whole = exp.and_(*[exp.EQ(this=lite_call("typeof", operand.copy()), expression=exp.Literal.string("integer"))
                           for operand in (left, right)])
        node.replace(exp.Case(ifs=[exp.If(this=whole, true=node.copy())], default=decimal))

    def _decimal_sum(self, node: exp.Expression) -> None:
        """``SUM([DISTINCT] x)`` / ``AVG(...)`` of NUMBER values that need not be whole add in decimal (ora_dec_sum,
        ora_dec_avg)."""
        value = node.this
        distinct = isinstance(value, exp.Distinct)
        inner = value.expressions[0] if distinct else value
        if self._type(inner) in ("BINARY_DOUBLE", "BINARY_FLOAT") or self._integral(inner) \
                or (isinstance(node.parent, exp.Window) and is_keep(node.parent)):
            return
        if frame_may_be_empty(node.parent):   # SQLite's own SUM there: a Python one would crash the process
            return
        node.replace(_anon("ora_dec_avg" if isinstance(node, exp.Avg) else "ora_dec_sum", value.copy()))

    def _integral(self, node: exp.Expression) -> bool:
        """Whether ``node``'s values are whole numbers whatever the row: an integer literal, a NUMBER(p) /
        NUMBER(p, 0) / INTEGER column, a count, a row number or rank, or + - * of such."""
        while isinstance(node, (exp.Paren, exp.Neg)):
            node = node.this
        if isinstance(node, exp.Literal):
            return not node.is_string and re.fullmatch(r"\d+", node.this) is not None
        if isinstance(node, (exp.Add, exp.Sub, exp.Mul)):
            return self._integral(node.this) and self._integral(node.expression)
        if isinstance(node, exp.Window):
            return isinstance(node.this, (exp.RowNumber, exp.Rank, exp.DenseRank, exp.Count, exp.Ntile))
        if isinstance(node, (exp.Count, exp.Length)):
            return True
        if isinstance(node, exp.Column):
            source = self._column_source(node)
            if source is None:
                return False
            ctype = self.ctx.columns_of(source[0], source[1]).get(source[2])
            declared = ctype.data_type.upper() if ctype is not None else ""
            return ctype is not None and ctype.type_class == "NUMBER" and (
                declared.startswith(("INTEGER", "INT", "SMALLINT"))
                or (declared.startswith(("NUMBER", "DECIMAL", "NUMERIC")) and ctype.precision is not None
                    and not ctype.scale))   # FLOAT(n) has a precision and decimals: not whole
        return False

    def _sys_context(self, node: exp.Anonymous) -> None:
        """``SYS_CONTEXT('USERENV', 'SESSION_USER' | 'CURRENT_USER' | 'CURRENT_SCHEMA')`` is the connected user
        (lite has no ALTER SESSION SET CURRENT_SCHEMA, no definer's rights); other namespaces and parameters are
        ORA-03001, as the call is when its arguments are not literals."""
        args = node.expressions
        texts = [a.this.upper() for a in args if isinstance(a, exp.Literal) and a.is_string]
        if len(args) == 2 and len(texts) == 2 and texts[0] == "USERENV" \
                and texts[1] in ("SESSION_USER", "CURRENT_USER", "CURRENT_SCHEMA"):
            node.replace(exp.Literal.string(self.ctx.user))
            return
        shown = ", ".join(a.sql(dialect="oracle") for a in args)
        raise error(ERR_UNSUPPORTED, construct=f"SYS_CONTEXT({shown}) (lite answers SYS_CONTEXT('USERENV', "
                                               "'SESSION_USER' | 'CURRENT_USER' | 'CURRENT_SCHEMA'))")

    def _json_object_star(self, node: exp.JSONObject) -> None:
        """``JSON_OBJECT(*)`` / ``JSON_OBJECT(t.*)``: one member per column of the FROM items, named as the column
        is (``"EMPLOYEE_ID":100``), as Oracle 23ai writes it; :meth:`_json_values` then reads their types."""
        members: list[exp.Expression] = []
        expanded: list[exp.JSONKeyValue] = []
        for item in node.expressions:
            if not (isinstance(item, exp.Star) or (isinstance(item, exp.Column) and isinstance(item.this, exp.Star))):
                members.append(item)
                continue
            columns = [exp.JSONKeyValue(this=exp.Literal.string(column.name), expression=column)
                       for column in expand_stars([item], self._scope_for(node))]
            members += columns
            expanded += columns
        if expanded:
            node.set("expressions", members)

    def _json_values(self, node: exp.Expression) -> None:
        """Values in JSON_OBJECT, JSON_ARRAY or JSON_ARRAYAGG written as Oracle writes them: a DATE in ISO 8601
        without a fraction ("2003-06-17T00:00:00"; lite's stored text has a space and a zero fraction), a NUMBER
        that is whole without a fraction (``4/2`` is ``2``; SQLite's REAL would give ``2.0``)."""
        if isinstance(node, exp.JSONObject):
            self._json_object_star(node)
        if isinstance(node, exp.JSONArrayAgg):
            values = [node.this]
        else:
            values = [v.expression if isinstance(v, exp.JSONKeyValue) else v for v in node.expressions]
        for value in values:
            if not isinstance(value, exp.Expression) or isinstance(value, exp.Literal):
                continue
            kind = (self._type(value) or "").upper().split("(")[0].strip()
            if kind.startswith("TIMESTAMP"):   # a star-expanded column (semantics.py refuses written ones first)
                raise error(ERR_UNSUPPORTED_JSON_DATETIME)
            if kind in ("VECTOR", "SDO_GEOMETRY", "INTERVAL"):
                name = value.name if isinstance(value, exp.Column) else value.sql(dialect="oracle")[:40]
                raise error(ERR_UNSUPPORTED, construct=f"a {kind} value in generated JSON ({name}): select it as a "
                                                       "column of its own")
            if kind == "DATE":
                value.replace(_anon("ora_to_char", value.copy(), exp.Literal.string('YYYY-MM-DD"T"HH24:MI:SS'),
                                    exp.Literal.string("DATE")))
            elif kind == "NUMBER" and not self._integral(value):
                value.replace(_anon("ora_plain_number", value.copy()))

    def _range_offsets(self, spec: exp.WindowSpec) -> None:
        """``RANGE BETWEEN n PRECEDING ...`` over a DATE or TIMESTAMP key counts days, and an INTERVAL DAY TO
        SECOND offset its days and fractions of one, as in Oracle: the key becomes its Julian day number (the
        same order) and the offsets days. SQLite would compare the stored text with a number and put every row
        in a frame of its own. A character key with an offset is ORA-00932 (Oracle wants a number or a date)."""
        sides = [k for k in ("start", "end") if not isinstance(spec.args.get(k), (str, type(None)))
                 and not (isinstance(spec.args.get(k), exp.Var))]
        window = spec.parent
        order = window.args.get("order") if isinstance(window, exp.Window) else None
        if not sides or order is None or len(order.expressions) != 1:
            return
        ordered = order.expressions[0]
        key = ordered.this if isinstance(ordered, exp.Ordered) else ordered
        kind = self._type(key)
        if kind in ("VARCHAR2", "CHAR", "CLOB", "NVARCHAR2"):
            raise error(ERR_INCONSISTENT_DATATYPES, expected="NUMBER or DATE (a RANGE offset's ORDER BY key)",
                        got=kind)
        if kind not in DATETIME_TYPES:
            if any(isinstance(spec.args[k], exp.Interval) for k in sides):
                raise error(ERR_INCONSISTENT_DATATYPES, expected="DATE or TIMESTAMP (an INTERVAL RANGE offset's "
                                                               "ORDER BY key)", got=kind or "NUMBER")
            return
        for side in sides:
            parts = _interval_parts(spec.args[side])
            if parts is None:
                continue
            amount, unit = parts
            if unit in ("YEAR", "MONTH") or not isinstance(amount, exp.Literal):
                raise error(ERR_UNSUPPORTED, construct="a RANGE window frame with a YEAR TO MONTH or computed "
                                                       "INTERVAL offset (months are not a fixed number of days)")
            days = float(amount.this) * _DAY_FRACTION[unit]
            spec.set(side, exp.Literal.number(int(days) if days.is_integer() else days))
        key.replace(lite_call("julianday", key.copy()))

    def _datetime_comparison(self, node: exp.Expression) -> None:
        operands = _compared(node)
        types = [self._type(o) if o is not None and not (isinstance(o, exp.Literal) and o.is_string) else None
                 for o in operands]
        target = next((t for t in types if t in DATETIME_TYPES), None)
        if target is None:
            return
        for operand in operands:
            if isinstance(operand, exp.Literal) and operand.is_string:
                operand.replace(date_literal(operand.this, timestamp=target == "TIMESTAMP"))

    def _concat_operands(self, node: exp.DPipe) -> None:
        """``||`` converts numbers and datetimes to text as TO_CHAR does (``'x' || 0.5`` is ``x.5``, a DATE
        uses NLS_DATE_FORMAT) and a RAW to its hex digits; SQLite would write ``0.5``, the stored date text and
        the bytes themselves."""
        for operand in (node.this, node.expression):
            kind = self._type(operand)
            if kind in ("VECTOR", "SDO_GEOMETRY"):
                raise error(ERR_INCONSISTENT_DATATYPES, expected="CHAR", got=kind)
            if kind == "RAW":
                operand.replace(_anon("ora_rawtohex", operand.copy()))
            if kind in ("NUMBER", "BINARY_DOUBLE", *DATETIME_TYPES):
                operand.replace(_anon("ora_to_char", operand.copy(), exp.Null(),
                                      exp.Literal.string(kind) if kind in DATETIME_TYPES else exp.Null()))

    def _listagg_value(self, node: exp.GroupConcat) -> None:
        """LISTAGG of dates lists them as TO_CHAR does (NLS_DATE_FORMAT), not in lite's stored form."""
        holder = node.this.this if isinstance(node.this, exp.Order) else node.this
        value = holder.expressions[0] if isinstance(holder, exp.Distinct) else holder
        kind = self._type(value)
        if kind in DATETIME_TYPES:
            value.replace(_anon("ora_to_char", value.copy(), exp.Null(), exp.Literal.string(kind)))

    def _character_comparison(self, node: exp.Expression) -> None:
        """A character value compared with a number is converted to a number (ORA-01722 when it is not one),
        and one compared with a RAW is read as HEXTORAW reads it (``id = '0A0B'``), as Oracle converts them;
        SQLite would compare text with a number or with bytes and silently answer differently."""
        if isinstance(node, exp.In) and node.args.get("query") is not None:
            return
        operands = _compared(node)
        types = [self._type(o) if o is not None else None for o in operands]
        if "RAW" in types:
            convert, to_convert = "ora_hextoraw", ("VARCHAR2", "CHAR")
        elif any(t in ("NUMBER", "BINARY_DOUBLE") for t in types):
            convert, to_convert = "ora_to_number", ("VARCHAR2", "CHAR", "CLOB")
        else:
            return
        for operand, kind in zip(operands, types):
            # a bind's type is its value's, known only when it runs: converted as text would be
            if operand is not None and (kind in to_convert or (convert == "ora_hextoraw" and
                                                               isinstance(operand, exp.Placeholder))):
                operand.replace(_anon(convert, operand.copy()))

    def _to_char(self, node: exp.Expression) -> None:
        fmt = node.args.get("format")
        if isinstance(node, exp.TimeToStr) and fmt is not None:
            # sqlglot turned the model into strftime ('%H:%M:%S') when it saw a date; give back Oracle's
            fmt = exp.Literal.string(_oracle_model(node))
        kind = self._type(node.this)
        node.replace(_anon("ora_to_char", node.this, fmt if fmt is not None else exp.Null(),
                           exp.Literal.string(kind) if kind else exp.Null()))

    def _object_attribute(self, node: exp.Column) -> None:
        """alias.geometry_column.SDO_POINT.X (Oracle object attribute access, which needs the table alias)."""
        parts = [name_of(node.args[k]) for k in ("catalog", "db", "table") if node.args.get(k) is not None]
        parts.append(name_of(node.this))
        column_type = object_column(node, self._scope_for(node))[2]
        if column_type == "JSON":
            # simple dot notation on a JSON column: field names are matched as written (case-sensitive)
            raw = [node.args[k].this for k in ("catalog", "db", "table") if node.args.get(k) is not None]
            fields = (raw + [node.this.this])[2:]
            path = "$" + "".join(f".{json.dumps(f) if not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', f) else f}"
                                 for f in fields)
            column = exp.Column(this=exp.to_identifier(parts[1]), table=exp.to_identifier(parts[0]))
            node.replace(_anon("ora_json_dot", column, exp.Literal.string(path)))
            return
        if column_type != "SDO_GEOMETRY":
            return  # not an object attribute: left for the usual column resolution (and its ORA-00904)
        path = ".".join(parts[2:])
        if path not in _SDO_ATTRIBUTES:
            raise error(ERR_INVALID_SDO_ATTRIBUTE, alias=parts[0], column=parts[1], path=path)
        column = exp.Column(this=exp.to_identifier(parts[1]), table=exp.to_identifier(parts[0]))
        node.replace(_anon("ora_sdo_attribute", column, exp.Literal.string(path)))

    def _cast(self, node: exp.Cast) -> None:
        """CAST to or from DATE/TIMESTAMP: SQLite's CAST would turn the stored text into a number."""
        target = node.args["to"].sql(dialect=Oracle).upper()
        kind = self._type(node.this)
        if target.startswith(("DATE", "TIMESTAMP")):
            if isinstance(node.this, exp.Literal) and node.this.is_string:
                node.replace(date_literal(node.this.this, timestamp=target.startswith("TIMESTAMP")))
            elif kind not in (None, "DATE", "TIMESTAMP", "VARCHAR2", "CHAR", "CLOB"):
                raise error(ERR_INCONSISTENT_DATATYPES, expected=target.split("(")[0], got=kind)
            else:
                node.replace(_anon("ora_as_date" if target.startswith("DATE") else "ora_as_timestamp", node.this))
        elif kind in ("VECTOR", "SDO_GEOMETRY") and not target.startswith(kind):
            raise error(ERR_UNSUPPORTED, construct=f"CAST of a {kind} value AS {target.split('(')[0]}")
        elif kind in DATETIME_TYPES:
            if target.startswith(("VARCHAR", "CHAR", "NVARCHAR", "CLOB")):
                node.replace(_anon("ora_to_char", node.this, exp.Null(), exp.Literal.string(kind)))
            else:
                raise error(ERR_INCONSISTENT_DATATYPES, expected=target.split("(")[0], got=kind)

    def _extract(self, node: exp.Extract) -> None:
        unit = node.this.name.upper()
        kind = self._type(node.expression)
        fn = "ora_interval_part" if kind == "INTERVAL" else "ora_date_part"
        if unit not in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"):
            raise error(ERR_UNSUPPORTED_EXTRACT, unit=unit)
        node.replace(_anon(fn, node.expression, exp.Literal.string(unit)))

    def _vector_distance(self, node: exp.Anonymous) -> None:
        args = node.expressions
        if len(args) < 2:
            raise error(ERR_NOT_ENOUGH_ARGUMENTS, function="VECTOR_DISTANCE")
        metric = name_of(args[2]) if len(args) > 2 else "COSINE"
        if metric not in METRICS:
            raise error(ERR_INVALID_METRIC, metric=metric)
        for col_side, const_side in ((args[0], args[1]), (args[1], args[0])):
            const_side = vector_topk.constant_cte_value(const_side) or const_side   # q.v of WITH q AS (... FROM dual)
            if isinstance(col_side, exp.Column) and not _has_column(const_side):
                ref = self._column_source(col_side)
                if ref is None:
                    continue
                owner, table, column, alias = ref
                slot = VectorSlot(self.ctx.next_slot(), owner, table, column,
                                  self._sqlite(self.rewrite(const_side.copy())), metric)
                self.vector_slots.append(slot)
                rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
                lookup = _anon("ora_vd_lookup", exp.Literal.number(slot.slot), rowid)
                node.replace(lookup)
                block = vector_topk.prunable_block(lookup, alias)
                if block is not None and not any(s is block for _, s in self.prunes):
                    block.where(vector_topk.restriction(slot.slot, alias), copy=False)
                    self.prunes.append((slot, block))
                    self.handed_over.add(slot.slot)
                return
        node.set("expressions", [args[0], args[1], exp.Literal.string(metric)])

    def _contains(self, node: exp.Contains) -> None:
        column = node.this
        query = node.expression
        label = None
        label_node = node.args.get("json_scope")  # sqlglot keeps CONTAINS' third argument here
        if label_node is not None:
            if not (isinstance(label_node, exp.Literal) and not label_node.is_string):
                raise error(ERR_TEXT_INVALID_LABEL)
            label = int(label_node.this)
        if not isinstance(column, exp.Column):
            raise error(ERR_UNSUPPORTED_CONTAINS_EXPRESSION)
        ref = self._column_source(column)
        if ref is None:
            raise error(ERR_TEXT_NOT_INDEXED)
        owner, table, col, alias = ref
        if not self.ctx.text_index_on(owner, table, col):
            raise error(ERR_TEXT_COLUMN_NOT_INDEXED, owner=owner, table=table, column=col,
                        table_lower=table.lower(), column_lower=col.lower())
        if _has_column(query):
            raise error(ERR_UNSUPPORTED_CONTAINS_CORRELATED)
        slot = TextSlot(self.ctx.next_slot(), owner, table, col, self._sqlite(self.rewrite(query.copy())), label)
        self.text_slots.append(slot)
        if label is not None:
            self.labels[label] = slot
        rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
        call = _anon("ora_ctx_score", exp.Literal.number(slot.slot), rowid)
        parent = node.parent
        # CONTAINS(...) > 0 is by far the usual form: make it an index-driven rowid set.
        if isinstance(parent, exp.GT) and parent.this is node and isinstance(parent.expression, exp.Literal) \
                and parent.expression.this == "0":
            members = exp.select("value").from_(
                exp.Anonymous(this="json_each", expressions=[_anon("ora_ctx_rowids", exp.Literal.number(slot.slot))]))
            member = exp.In(this=rowid.copy(), query=exp.Subquery(this=members))
            parent.replace(member)
            block = vector_topk.score_ordered_block(member, label)   # the keyword leg's top-k, like the vector's
            if block is not None:
                slot.tie_key = vector_topk.tie_key(block, member)
                self.prunes.append((slot, block))  # type: ignore[arg-type]
                self.handed_over.add(slot.slot)
            return
        node.replace(call)

    def _spatial_operator(self, node: exp.Anonymous) -> None:
        """SDO_WITHIN_DISTANCE's first argument must be a column with a spatial index (ORA-13226 otherwise)."""
        first = node.expressions[0] if node.expressions else None
        if isinstance(first, exp.Column):
            ref = self._column_source(first)
            if ref is None:
                return  # a derived table's column (or a DML statement's): Oracle may still reach the index
            owner, table, col, _alias = ref
            ctype = self.ctx.columns_of(owner, table).get(col)
            if ctype is None or ctype.type_class != "SDO_GEOMETRY" or ctype.spatial_index:
                return
            where = f"{owner}.{table}.{col}"
        else:
            where = "the first argument is not a table column"
        raise error(ERR_SPATIAL_INDEX_NEEDED, where=where)

    def _score(self, node: exp.Anonymous) -> None:
        args = node.expressions
        label = int(args[0].this) if args and isinstance(args[0], exp.Literal) else None
        slot = self.labels.get(label) if label is not None else None
        if slot is None:
            raise error(ERR_SCORE_WITHOUT_CONTAINS, label=label)
        select = node.find_ancestor(exp.Select)
        alias = None
        if select is not None:
            scope = self._scope_for(node)
            for name in scope.order:
                src = scope.sources[name]
                if src.owner == slot.owner and src.table == slot.table:
                    alias = name
        if alias is None:
            raise error(ERR_UNSUPPORTED_SCORE_PLACE)
        rowid = exp.Column(this=exp.to_identifier("rowid"), table=exp.to_identifier(alias, quoted=True))
        node.replace(_anon("ora_ctx_score", exp.Literal.number(slot.slot), rowid))

    def _embedding_prefetch(self, node: VectorEmbedding) -> None:
        model = name_of(node.this.this if isinstance(node.this, exp.Column) else node.this)
        data = node.expression
        if isinstance(data, exp.Placeholder):
            self.prefetch.append(EmbedPrefetch(model, bind=data.name.upper()))
            return
        if not _has_column(data):
            return  # constant: computed once and cached
        select = node.find_ancestor(exp.Select)
        if select is None or select.find_ancestor(exp.Select) is not None:
            return
        probe = select.copy()
        probe.set("expressions", [data.copy()])
        for key in ("order", "limit", "offset", "group", "having", "distinct", "with_"):
            probe.set(key, None)
        try:
            self._rewrite_tables(probe)
            sql = to_sqlite(_bottom_up(probe, rewrite_node))
        except Exception:  # noqa: BLE001 - prefetch is only an optimisation
            return
        self.prefetch.append(EmbedPrefetch(model, query_sql=sql))

    def _sqlite(self, tree: exp.Expression) -> str:
        if self.handed_over and any(isinstance(n, exp.Anonymous) and n.name.lower().startswith(("ora_vd_", "ora_ctx_"))
                                    for n in tree.walk()):
            tree = vector_topk.hand_over(tree.copy(), self.handed_over)
        return to_sqlite(tree)


def _lite_block(block: exp.Select) -> bool:
    """Whether ``block`` is one lite wrote (over json_each or a TEMP table: a slot's candidates), not the user."""
    items = ([block.args["from_"].this] if block.args.get("from_") else []) + \
        [join.this for join in block.args.get("joins") or []]
    return any(isinstance(i, exp.Anonymous) or (isinstance(i, exp.Table) and (
        isinstance(i.this, exp.Anonymous) or name_of(i.args.get("db")) == "TEMP")) for i in items)


def _select_alias(column: exp.Column, name: str) -> bool:
    """Whether the bare ``column`` in an ORDER BY names an alias of its query block's select list."""
    order = column.find_ancestor(exp.Order)
    block = order.parent if order is not None else None
    return isinstance(block, exp.Select) and any(
        isinstance(p, exp.Alias) and name_of(p.args["alias"]) == name for p in block.expressions)


def _scope_chain(scope: Scope | None) -> list[Scope]:
    """``scope`` and the scopes of its enclosing queries, innermost first."""
    chain = []
    while scope is not None:
        chain.append(scope)
        scope = scope.outer
    return chain


def _fraction_digits(ctype: ColumnType) -> int:
    """The fractional-second precision of a TIMESTAMP(p) column (6 by default; 0 for DATE)."""
    if ctype.type_class != "TIMESTAMP":
        return 0
    match = re.search(r"\((\d)\)", ctype.data_type)
    return int(match.group(1)) if match else 6


def _compared(node: exp.Expression) -> list[exp.Expression | None]:
    """The operands of a comparison, BETWEEN (value, low, high) or IN list (value, then the list)."""
    if isinstance(node, exp.Between):
        return [node.this, node.args.get("low"), node.args.get("high")]
    if isinstance(node, exp.In):
        return [node.this, *node.expressions]
    return [node.this, node.expression]


def _is_assignment(node: exp.Expression) -> bool:
    """``SET col = value`` of an UPDATE is an EQ node too; its value is coerced to the column, not compared."""
    return isinstance(node, exp.EQ) and isinstance(node.parent, exp.Update) and node.arg_key == "expressions"


def to_sqlite(tree: exp.Expression) -> str:
    """Render a rewritten tree as SQLite SQL; a construct SQLite cannot express is an error, never a guess."""
    try:
        return tree.sql(dialect=LiteSQLite, unsupported_level=ErrorLevel.RAISE)
    except UnsupportedError as exc:
        raise error(ERR_UNSUPPORTED, construct=_unsupported_construct(str(exc))) from None


_ORACLE_NAMES = {"JSONArrayAgg": "JSON_ARRAYAGG", "JSONObjectAgg": "JSON_OBJECTAGG", "JSONObject": "JSON_OBJECT",
                 "JSONArray": "JSON_ARRAY", "GroupConcat": "LISTAGG", "NthValue": "NTH_VALUE"}
_UNSUPPORTED_ARGUMENT = re.compile(r"Argument '(\w+)' is not supported for expression '(\w+)'")


def _unsupported_construct(text: str) -> str:
    """sqlglot's refusal in Oracle's terms: ``ORDER BY in JSON_ARRAYAGG`` rather than "Argument 'order' is not
    supported for expression 'JSONArrayAgg' when targeting SQLite"."""
    first = text.strip().splitlines()[0]
    match = _UNSUPPORTED_ARGUMENT.search(first)
    if match:
        function = _ORACLE_NAMES.get(match.group(2), match.group(2).upper())
        argument = {"order": "ORDER BY", "null_handling": "NULL ON NULL", "return_type": "RETURNING"}.get(
            match.group(1), match.group(1).upper().replace("_", " "))
        return f"{argument} in {function}"
    first = re.sub(r"^SQLite does not support\s+", "", first, flags=re.I)
    return re.sub(r"\s*when targeting SQLite\.?", "", first, flags=re.I).rstrip(".")[:200]


_BIND = re.compile(r"(?<![\w:]):([A-Za-z_][\w$#]*|\d+)")


@functools.lru_cache(maxsize=1024)
def bind_occurrences(sql: str) -> tuple[str, ...]:
    """Every bind placeholder of the text in order, repeats included, named as plans name them (upper
    case, ``P__n`` for ``:n``); literals and comments are blanked out first.

    python-oracledb binds a sequence of values by position in the statement
    text, one value per occurrence. The rewritten tree cannot give that order
    (a value written to a JSON or DATE column is wrapped in a function call,
    so a tree walk meets it after later columns' binds), so it is read here.
    """
    from .guard import _strip_strings

    return tuple(f"{NUMERIC_BIND_PREFIX}{m.group(1)}" if m.group(1).isdigit() else m.group(1).upper()
                 for m in _BIND.finditer(_strip_strings(sql)))


def bind_order(sql: str) -> list[str]:
    """Bind names in order of first appearance in the text (see :func:`bind_occurrences`)."""
    return list(dict.fromkeys(bind_occurrences(sql)))


def translate(sql: str, ctx: Context, tokens: list | None = None) -> Plan:
    """Parse and translate one Oracle DML/query statement into a Plan (binds in text order).

    ``tokens``, when given, are the guard's tokens of ``sql`` (read instead of tokenizing again).
    """
    return translate_shaped(sql, ctx, None, tokens)[0]


def translate_shaped(sql: str, ctx: Context, shape: Shape | None,
                     tokens: list | None = None) -> tuple[Plan, Template | None]:
    """Translate ``sql`` like :func:`translate` and, for a statement with a shape (shapes.py), also return
    the shape's :class:`~workshop_lib.lite.shapes.Template` — or None when this statement cannot stand for
    its shape (a lifted span is not a literal in a pass-through position, the output depends on a value, or
    the template does not give back this statement's own translation).
    """
    tree = parse(sql, tokens)
    lift = _lift_map(tree, shape) if shape is not None and _name_numeric_binds(sql) is sql else None
    translator = Translator(ctx, lift)
    plan = translator.plan(tree)
    textual = [name for name in bind_order(sql) if name in plan.binds]
    plan.binds = textual + [name for name in plan.binds if name not in textual]
    template = None
    if shape is not None and lift is not None and translator.template_sql is not None \
            and not translator.lift_blocked:
        template = _template(plan, shape, translator)
    return plan, template


def _lift_map(tree: exp.Expression, shape: Shape) -> dict[int, int] | None:
    """Offset -> index of the shape's literals, when each is exactly one literal of the parsed tree, with
    the value the shape read, in a position whose translation does not depend on it; else None."""
    by_start: dict[int, list[exp.Literal]] = {}
    for literal in tree.find_all(exp.Literal):
        start = literal._meta.get("start") if literal._meta else None
        if start is not None:
            by_start.setdefault(start, []).append(literal)
    lift: dict[int, int] = {}
    for index, lifted in enumerate(shape.literals):
        nodes = by_start.get(lifted.start, [])
        if len(nodes) != 1:
            return None
        node = nodes[0]
        if node.meta.get("end") != lifted.end - 1 or bool(node.is_string) != lifted.is_string \
                or node.this != lifted.value or not _pass_through_position(node):
            return None
        lift[lifted.start] = index
    return lift


def _pass_through_position(literal: exp.Literal) -> bool:
    """A VALUES element of a single-row INSERT (a number maybe negated), an argument of SDO_GEOMETRY /
    SDO_POINT_TYPE calls that are such an element, or the value of TO_DATE/TO_TIMESTAMP(value, 'format')
    that is one: positions whose SQLite form carries the literal through unchanged."""
    def element(node: exp.Expression) -> bool:
        row = node.parent
        values = row.parent if row is not None else None
        return (isinstance(row, exp.Tuple) and node.arg_key == "expressions" and isinstance(values, exp.Values)
                and len(values.expressions) == 1 and isinstance(values.parent, exp.Insert)
                and values.arg_key == "expression")

    node, parent = literal, literal.parent
    if not literal.is_string and isinstance(parent, exp.Neg):
        node, parent = parent, parent.parent
    if element(node):
        return True
    if isinstance(parent, (exp.StrToDate, exp.StrToTime)) and node.arg_key == "this" and \
            isinstance(parent.args.get("format"), exp.Literal) and element(parent):
        return True
    while isinstance(parent, exp.Anonymous) and parent.name.upper() in PASS_THROUGH_CALLS \
            and node.arg_key == "expressions":
        if element(parent):
            return True
        node, parent = parent, parent.parent
    return False


_GAP = re.compile(r"\x00(\d+)\x00")


def _template(plan: Plan, shape: Shape, translator: Translator) -> Template | None:
    """The shape's template from this statement's translation, checked to give back its SQLite text."""
    if plan.kind != "INSERT" or len(plan.sql) != 1 or plan.vector_slots or plan.text_slots or plan.prefetch:
        return None
    text = translator.template_sql or ""
    pieces = _GAP.split(text)
    slots = [int(i) for i in pieces[1::2]]
    if sorted(set(slots)) != list(range(len(shape.literals))):
        return None   # a lifted literal was consumed by a rewrite: its value shaped the output
    template = Template("INSERT", pieces[0::2], slots, tuple(lit.is_string for lit in shape.literals),
                        list(plan.binds), plan.target, dict(translator.lift_checks),
                        quote=_SQLITE_GENERATOR.dialect.QUOTE_START, escape=_SQLITE_GENERATOR.escape_str)
    if template.render(shape.values) != plan.sql[0]:
        return None
    return template
