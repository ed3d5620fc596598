"""Oracle DDL on the lite backend: tables, comments, indexes (including Oracle Text, spatial and vector).

Each statement is read with the workshop's Oracle dialect (dialect.py parses
CREATE INDEX's INDEXTYPE/ORGANIZATION clauses and options into the tree this
module reads), turned into SQLite DDL, and recorded in the catalog so the
dictionary views and the type-aware translator see it. Only TRUNCATE and
CREATE USER, which sqlglot does not parse into trees, are matched by pattern.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Protocol

from sqlglot import exp

from . import add_constraints, alter_columns, catalog, ctas, sequences, views
from .privileges import require_owner
from .dialect import IndexTypeClause, LiteSQLite, Oracle
from .error_catalogue import (
    ERR_CONSTRAINT_NAME_USED, ERR_NO_PRIMARY_KEY_TO_DROP, ERR_NO_UNIQUE_KEY_TO_DROP,
    ERR_DROP_KEY_INDEX, ERR_INDEX_DOES_NOT_EXIST, ERR_INVALID_DATATYPE, ERR_INVALID_IDENTIFIER,
    ERR_NAME_ALREADY_USED,
    ERR_REFERENCED_BY_FOREIGN_KEYS, ERR_SPATIAL_INDEX_EXISTS, ERR_SPATIAL_INDEX_ONE_COLUMN,
    ERR_SPATIAL_INDEX_TYPE, ERR_SPATIAL_LAYER_GTYPE, ERR_SPATIAL_NO_METADATA, ERR_SPATIAL_SRID_MISMATCH,
    ERR_TABLE_DOES_NOT_EXIST, ERR_TEXT_INDEX_COLUMN, ERR_TRUNCATE_REFERENCED, ERR_UNSUPPORTED, ERR_UNSUPPORTED_CASCADE,
    ERR_UNSUPPORTED_FUNCTION_INDEX,
    ERR_UNSUPPORTED_COLUMN_CONSTRAINT, ERR_UNSUPPORTED_COLUMN_TYPE, ERR_UNSUPPORTED_COMMENT,
    ERR_UNSUPPORTED_GRANT, ERR_UNSUPPORTED_INDEX_CLAUSE,
    ERR_COLUMN_ALREADY_EXISTS, ERR_NOT_NULL_COLUMN_NEEDS_EMPTY_TABLE, ERR_UNSUPPORTED_ADDED_COLUMN_CONSTRAINT,
    ERR_UNSUPPORTED_ALTER_TABLE, ERR_UNSUPPORTED_DEFAULT, ERR_NOT_ORACLE_SYNTAX,
    ERR_UNSUPPORTED_PLAIN_INDEX_CLAUSE, ERR_UNSUPPORTED_STATEMENT, ERR_UNSUPPORTED_TABLE_CONSTRAINT,
    ERR_UNSUPPORTED_TABLE_ELEMENT, ERR_UNSUPPORTED_TEXT_INDEXTYPE, ERR_UNSUPPORTED_TEXT_PARAMETER,
    ERR_TEXT_PARAMETERS_SYNTAX, ERR_UNSUPPORTED_VECTOR_INDEX,
    ERR_VECTOR_INDEX_COLUMN, ERR_SEQUENCE_DOES_NOT_EXIST, ERR_SEQUENCE_NOT_ALLOWED, error, from_sqlite,
    ERR_UNSUPPORTED_DICTIONARY_NAME,
)
from .scope import DICTIONARY_VIEWS, is_sequence_number
from .translate import Context, Translator, name_of, table_ref



class DdlTarget(Protocol):
    """What DDL needs from a connection: its user, the SQLite handle, and attaching a schema.

    A protocol rather than the connection class, so this module and
    connection.py do not import each other.
    """

    username: str

    @property
    def sqlite(self) -> sqlite3.Connection: ...

    def attach(self, schema: str) -> None: ...


_IDENT = r'(?:"[^"]+"|[A-Za-z][\w$#]*)'
_QNAME = rf"(?:{_IDENT}\s*\.\s*)?{_IDENT}"
# Geometry types a spatial index's layer_gtype parameter may name (Oracle Spatial, CREATE INDEX).
_LAYER_GTYPES = {"POINT", "LINE", "CURVE", "POLYGON", "SURFACE", "COLLECTION", "MULTIPOINT", "MULTILINE",
                 "MULTICURVE", "MULTIPOLYGON", "MULTISURFACE", "SOLID", "MULTISOLID"}
_TEXT_INDEXTYPES = ("CONTEXT", "CTXCAT", "CTXRULE")
_SPATIAL_INDEXTYPES = ("SPATIAL_INDEX_V2", "SPATIAL_INDEX")
# IndexParameters sqlglot reads for other dialects (USING, INCLUDE, WHERE, WITH, ...): not Oracle's CREATE INDEX
_FOREIGN_INDEX_PARAMETERS = ("using", "include", "partition_by", "where", "with_storage", "on")
_TRUNCATE_RE = re.compile(rf"^\s*TRUNCATE\s+TABLE\s+(?P<table>{_QNAME})\s*(?:DROP\s+STORAGE|REUSE\s+STORAGE)?\s*$",
                          re.I | re.S)
_ADD_COLUMN_RE = re.compile(r"\bADD\s+COLUMN\b", re.I)
_MODIFY_RE = re.compile(r"^\s*ALTER\s+TABLE\s+(?P<table>\S+)\s+MODIFY\s+(?P<rest>.+?)\s*$", re.I | re.S)
_CREATE_USER_RE = re.compile(rf"^\s*CREATE\s+USER\s+(?P<ifne>IF\s+NOT\s+EXISTS\s+)?(?P<name>{_IDENT})\b", re.I)


def _split_qname(text: str, user: str) -> tuple[str, str]:
    parts = [p.strip() for p in re.split(r"\s*\.\s*(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", text.strip())]
    names = [p[1:-1] if p.startswith('"') else p.upper() for p in parts]
    return (names[0], names[1]) if len(names) == 2 else (user, names[0])


@dataclass
class DdlResult:
    """What a DDL statement changed (for cache invalidation and text indexes)."""

    kind: str
    owner: str | None = None
    table: str | None = None
    fill: str | None = None   # CREATE TABLE ... AS SELECT: the INSERT ... SELECT the cursor runs next


_NEW_SCHEMA_RE = re.compile(
    rf"^\s*CREATE\s+(?:TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<owner>{_IDENT})\s*\.|USER\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<user>{_IDENT}))",
    re.I)


def new_schema_of(sql: str, user: str) -> str | None:
    """The schema a CREATE TABLE owner.x / CREATE USER statement may need attached first, if any."""
    match = _NEW_SCHEMA_RE.match(sql)
    if not match:
        return None
    name = match.group("owner") or match.group("user")
    name = name[1:-1] if name.startswith('"') else name.upper()
    return None if name == user else name


def is_ddl(sql: str) -> bool:
    """True for statements executed here rather than by the translator."""
    head = re.match(r"^\s*(\w+)(?:\s+(\w+))?", sql)
    if not head:
        return False
    word = head.group(1).upper()
    return word in ("CREATE", "DROP", "COMMENT", "TRUNCATE", "ALTER", "GRANT", "REVOKE")


def execute_ddl(conn: DdlTarget, sql: str, ctx: Context) -> DdlResult:
    """Run one DDL statement on the lite database and record it in the catalog."""
    con = conn.sqlite
    user = conn.username
    match = _TRUNCATE_RE.match(sql)
    if match:
        owner, table = _split_qname(match.group("table"), user)
        if not catalog.table_exists(con, owner, table):
            raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=table)
        require_owner(user, owner, table, "TRUNCATE TABLE")
        db = _db(conn, owner)
        if con.execute(
                f"SELECT 1 FROM \"{db}\".sqlite_master m WHERE m.type = 'table' AND m.name != ? AND "
                f"EXISTS (SELECT 1 FROM pragma_foreign_key_list(m.name, ?) f WHERE f.\"table\" = ?)",
                (table, db, table)).fetchone():
            # Oracle refuses whatever the children hold (it does not look at their rows)
            raise error(ERR_TRUNCATE_REFERENCED, owner=owner, table=table)
        con.execute(f'DELETE FROM "{db}"."{table}"')
        return DdlResult("TRUNCATE", owner, table)
    match = _CREATE_USER_RE.match(sql)
    if match:
        name = name_of(match.group("name").strip('"')) if not match.group("name").startswith('"') else match.group("name")[1:-1]
        conn.attach(name)
        return DdlResult("CREATE USER", name)
    match = _MODIFY_RE.match(sql)
    if match:   # sqlglot reads Oracle's MODIFY as an opaque command
        owner, table = _split_qname(match.group("table"), user)
        _check_alterable(conn, owner, table)
        return _modify(conn, owner, table, match.group("rest"), ctx)
    head = sql.lstrip()[:6].upper()
    if head.startswith("GRANT") or head.startswith("REVOKE"):
        raise error(ERR_UNSUPPORTED_GRANT)
    from .translate import parse  # local: parse errors are Oracle-shaped

    tree = parse(sql)
    kind = (tree.args.get("kind") or "").upper() if isinstance(tree, (exp.Create, exp.Drop)) else ""
    if isinstance(tree, exp.Create) and kind.endswith("INDEX") and isinstance(tree.this, exp.Index):
        return _create_index(conn, tree)
    if isinstance(tree, exp.Drop) and kind == "INDEX":
        return _drop_index(conn, tree)
    if isinstance(tree, exp.Create) and kind == "SEQUENCE":
        return _create_sequence(conn, tree)
    if isinstance(tree, exp.Drop) and kind == "SEQUENCE":
        return _drop_sequence(conn, tree)
    if isinstance(tree, exp.Create) and kind == "VIEW":
        return _create_view(conn, tree, sql, ctx)
    if isinstance(tree, exp.Drop) and kind == "VIEW":
        return _drop_view(conn, tree)
    if isinstance(tree, exp.Create) and kind == "TABLE" and tree.args.get("expression") is not None:
        return _create_table_as_select(conn, tree, sql, ctx)
    if isinstance(tree, exp.Create) and kind == "TABLE":
        return _create_table(conn, tree, ctx)
    if isinstance(tree, exp.Drop) and kind == "TABLE":
        return _drop_table(conn, tree)
    if isinstance(tree, exp.Comment):
        return _comment(conn, tree)
    if isinstance(tree, exp.Alter) and (tree.args.get("kind") or "").upper() == "TABLE":
        if _ADD_COLUMN_RE.search(sql):   # other databases' spelling; sqlglot reads it as Oracle's ADD
            raise error(ERR_NOT_ORACLE_SYNTAX, construct="ADD COLUMN", oracle_form="ADD (column type ...)")
        return _alter_table(conn, tree, ctx)
    raise error(ERR_UNSUPPORTED_STATEMENT, statement=sql.strip().split("(")[0][:60].upper())


def _db(conn: DdlTarget, owner: str) -> str:
    """SQLite database name holding ``owner``'s tables."""
    return "main" if owner == conn.username else owner


def _created(tree: exp.Create) -> exp.Table:
    """The object ``CREATE TABLE|VIEW name [(columns)] ...`` makes."""
    return tree.this.this if isinstance(tree.this, exp.Schema) else tree.this


def _dropped(tree: exp.Drop) -> exp.Table:
    """The object ``DROP TABLE|VIEW|SEQUENCE name`` drops."""
    return tree.args["tables"][0] if tree.args.get("tables") else tree.this


def _refuse_dictionary_name(name: str) -> None:
    """ORA-03001 for a table or view named like a dictionary view lite defines (USER_TABLES, DUAL): Oracle lets a
    user's own object take such a name, but lite's dictionary views are SQLite TEMP views, which every unqualified
    name reaches first, so the object could be created and never used."""
    if name in DICTIONARY_VIEWS:
        raise error(ERR_UNSUPPORTED_DICTIONARY_NAME, name=name)


def _create_table_as_select(conn: DdlTarget, tree: exp.Create, sql: str, ctx: Context) -> DdlResult:
    """``CREATE TABLE t [(names)] AS query``: the table as ctas.py derives it; the cursor then fills it."""
    from .translate import parse

    owner, table = table_ref(_created(tree), conn.username)
    require_owner(conn.username, owner, table, "CREATE TABLE")
    _refuse_dictionary_name(table)
    if catalog.name_used(conn.sqlite, owner, table):
        raise error(ERR_NAME_ALREADY_USED)
    _check_query(conn, ctx, ctas.query_after_as(sql))   # the query's own errors (ORA-00904 ...) first
    columns = ctas.table_columns(conn.sqlite, ctx, tree)
    result = _create_table(conn, parse(ctas.table_definition(owner, table, columns)), ctx)
    result.fill = f'INSERT INTO "{owner}"."{table}" {ctas.query_after_as(sql)}'
    return result


def _create_sequence(conn: DdlTarget, tree: exp.Create) -> DdlResult:
    """``CREATE SEQUENCE s [START WITH n] [INCREMENT BY n] [[NO]MINVALUE] [[NO]MAXVALUE] [[NO]CYCLE] [CACHE n]``."""
    owner, name = table_ref(tree.this, conn.username)
    require_owner(conn.username, owner, name, "CREATE SEQUENCE")
    if catalog.name_used(conn.sqlite, owner, name):
        raise error(ERR_NAME_ALREADY_USED)
    start, increment, low, high, cycle, cache = sequences.definition(tree)
    conn.sqlite.execute(
        "INSERT INTO LITECAT.SEQUENCES (SEQUENCE_OWNER, SEQUENCE_NAME, MIN_VALUE, MAX_VALUE, INCREMENT_BY, CYCLE_FLAG, "
        "CACHE_SIZE, NEXT_VALUE, CREATED) VALUES (?, ?, ?, ?, ?, ?, ?, ?, datetime('now'))",
        (owner, name, str(low), str(high), str(increment), "Y" if cycle else "N", cache, str(start)))
    return DdlResult("CREATE SEQUENCE", owner, None)


def _drop_sequence(conn: DdlTarget, tree: exp.Drop) -> DdlResult:
    """``DROP SEQUENCE s`` (ORA-02289 when there is none)."""
    owner, name = table_ref(_dropped(tree), conn.username)
    if not catalog.sequence_exists(conn.sqlite, owner, name):
        if tree.args.get("exists"):
            return DdlResult("DROP SEQUENCE", owner, None)
        raise error(ERR_SEQUENCE_DOES_NOT_EXIST)
    require_owner(conn.username, owner, name, "DROP SEQUENCE")
    conn.sqlite.execute("DELETE FROM LITECAT.SEQUENCES WHERE SEQUENCE_OWNER = ? AND SEQUENCE_NAME = ?", (owner, name))
    return DdlResult("DROP SEQUENCE", owner, None)


def _check_query(conn: DdlTarget, ctx: Context, text: str) -> None:
    """Translate the query ``text`` and have SQLite compile it (EXPLAIN: nothing runs), so every name in it is
    checked now, as Oracle checks a view's or a new table's query (SQLite reports a wrong column only when
    it compiles the statement)."""
    from .translate import parse

    plan = Translator(ctx).plan(views.parse_query(text, parse))
    try:
        for statement in plan.sql:
            conn.sqlite.execute("EXPLAIN " + statement, dict.fromkeys(plan.binds))   # binds: ORA-01027 later
    except sqlite3.Error as exc:
        raise from_sqlite(exc) from None


def _create_view(conn: DdlTarget, tree: exp.Create, sql: str, ctx: Context) -> DdlResult:
    """``CREATE [OR REPLACE] [[NO]FORCE] VIEW v [(names)] AS query [WITH READ ONLY | WITH CHECK OPTION]``.

    The query is translated once here, so a name it gets wrong is Oracle's
    error now (lite makes no view with errors, FORCE or not); the view's
    columns are named and typed as CREATE TABLE ... AS SELECT would (ctas.py)
    and recorded with the query text (views.py reads both).
    """
    con = conn.sqlite
    owner, view = table_ref(_created(tree), conn.username)
    require_owner(conn.username, owner, view, "CREATE VIEW")
    _refuse_dictionary_name(view)
    replacing = tree.args.get("replace") and catalog.view_text(con, owner, view) is not None
    if catalog.name_used(con, owner, view) and not replacing:
        raise error(ERR_NAME_ALREADY_USED)
    text = ctas.query_after_as(sql)
    if any(is_sequence_number(c) for c in tree.expression.find_all(exp.Column)):
        raise error(ERR_SEQUENCE_NOT_ALLOWED)   # Oracle: no sequence numbers in a view's query
    _check_query(conn, ctx, text)   # Oracle checks the query when it creates the view
    columns = ctas.table_columns(con, ctx, tree)
    # OR REPLACE keeps the view's comments, and its catalog rowid and CREATED (ALL_OBJECTS' OBJECT_ID and
    # CREATED: Oracle replaces the view in place, as the same object)
    kept = con.execute("SELECT rowid, CREATED FROM LITECAT.VIEWS WHERE OWNER = ? AND VIEW_NAME = ?",
                       (owner, view)).fetchone()
    catalog.forget_view(con, owner, view, keep_comments=True)
    if kept is None:
        con.execute("INSERT INTO LITECAT.VIEWS (OWNER, VIEW_NAME, TEXT, CREATED) VALUES (?, ?, ?, datetime('now'))",
                    (owner, view, text))
    else:
        con.execute("INSERT INTO LITECAT.VIEWS (rowid, OWNER, VIEW_NAME, TEXT, CREATED) VALUES (?, ?, ?, ?, ?)",
                    (kept[0], owner, view, text, kept[1]))
    for position, (cname, ctype, nullable) in enumerate(columns, start=1):
        catalog.record_column(con, owner, view, position, cname, ctype, nullable=nullable)
    _check_query(conn, ctx, f'SELECT * FROM "{owner}"."{view}"')   # a view reaching itself: ORA-01731
    return DdlResult("CREATE VIEW", owner, view)


def _drop_view(conn: DdlTarget, tree: exp.Drop) -> DdlResult:
    """``DROP VIEW v``: its query, columns and comments leave the catalog (ORA-00942 when there is none)."""
    owner, view = table_ref(_dropped(tree), conn.username)
    if catalog.view_text(conn.sqlite, owner, view) is None:
        if tree.args.get("exists"):
            return DdlResult("DROP VIEW", owner, view)
        raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=view)
    require_owner(conn.username, owner, view, "DROP VIEW")
    catalog.forget_view(conn.sqlite, owner, view)
    return DdlResult("DROP VIEW", owner, view)


def _create_table(conn: DdlTarget, tree: exp.Create, ctx: Context) -> DdlResult:
    con = conn.sqlite
    schema = tree.this
    properties = tree.args.get("properties")
    for prop in (properties.expressions if properties is not None else []):
        # a temporary table's rows vanish at commit or session end; a plain SQLite table would keep them
        if isinstance(prop, (exp.TemporaryProperty, exp.OnCommitProperty)):
            raise error(ERR_UNSUPPORTED, construct="temporary tables (CREATE GLOBAL|PRIVATE TEMPORARY TABLE)")
    owner, table = table_ref(schema.this, conn.username)
    require_owner(conn.username, owner, table, "CREATE TABLE")
    _refuse_dictionary_name(table)
    if catalog.name_used(con, owner, table):
        if tree.args.get("exists"):
            return DdlResult("CREATE TABLE", owner, table)
        raise error(ERR_NAME_ALREADY_USED)
    conn.attach(owner)
    translator = Translator(ctx)
    columns: list[tuple[str, catalog.ColumnType, bool, bool]] = []  # name, type, nullable, identity
    always_identity: list[str] = []
    identity_options: dict[str, tuple[int, int]] = {}   # column -> (START WITH, INCREMENT BY)
    default_on_null: dict[str, tuple[str, str]] = {}   # column -> (SQLite default, INSERT | UPDATE)
    written_defaults: dict[str, tuple[str, bool]] = {}   # column -> (DEFAULT as written, Oracle SQL; ON NULL)
    col_sql: list[str] = []
    table_sql: list[str] = []
    pk_cols: list[str] = []
    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            pk = any(isinstance(c.kind, exp.PrimaryKeyColumnConstraint) for c in item.constraints)
            if pk:
                pk_cols.append(name_of(item.this))
    for item in schema.expressions:
        if isinstance(item, exp.Constraint) or isinstance(item, exp.PrimaryKey):
            pk_node = item.find(exp.PrimaryKey)
            if pk_node is not None and not pk_cols:
                pk_cols = [name_of(c.this if isinstance(c, exp.Ordered) else c) for c in pk_node.expressions]
    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            cname = name_of(item.this)
            ctype = _column_type(item, cname)
            nullable, identity, always = True, False, False
            parts = [f'"{cname}"']
            constraint_sql = []
            for c in item.constraints:
                ck = c.kind
                if isinstance(ck, exp.GeneratedAsIdentityColumnConstraint):
                    identity = True
                    identity_options[cname] = (_identity_number(ck.args.get("start"), "START WITH"),
                                               _identity_number(ck.args.get("increment"), "INCREMENT BY"))
                    always = bool(ck.this)   # GENERATED ALWAYS (True) or BY DEFAULT (False)
                    if always:
                        always_identity.append(cname)
                elif isinstance(ck, exp.NotNullColumnConstraint):
                    if not ck.args.get("allow_null"):
                        nullable = False
                        constraint_sql.append("NOT NULL")
                elif isinstance(ck, exp.PrimaryKeyColumnConstraint):
                    nullable = False
                elif isinstance(ck, exp.UniqueColumnConstraint):
                    constraint_sql.append("UNIQUE")
                elif isinstance(ck, exp.DefaultColumnConstraint):
                    written_defaults[cname] = (ck.this.sql(dialect=Oracle), bool(ck.meta.get("on_null")))
                    default = translator.rewrite(ck.this.copy()).sql(dialect=LiteSQLite)
                    constraint_sql.append(f"DEFAULT ({default})")
                    if ck.meta.get("on_null"):
                        # DEFAULT ON NULL: an explicit NULL takes the default too; the column is NOT NULL
                        # (SQLite's NOT NULL would refuse the NULL before a trigger could replace it)
                        nullable = False
                        default_on_null[cname] = (default, ck.meta["on_null"])
                elif isinstance(ck, exp.CheckColumnConstraint):
                    check = translator.rewrite(ck.this.copy()).sql(dialect=LiteSQLite)
                    constraint_sql.append(f"CHECK ({check})")
                elif isinstance(ck, exp.Reference):
                    constraint_sql.append(_reference_sql(ck, owner, conn.username))
                elif isinstance(ck, exp.CollateColumnConstraint):
                    pass
                else:
                    raise error(ERR_UNSUPPORTED_COLUMN_CONSTRAINT, constraint=c.sql(dialect=Oracle))
            if identity and pk_cols == [cname]:
                start, increment = identity_options[cname]
                if increment != 1:
                    raise error(ERR_UNSUPPORTED, construct=f"INCREMENT BY {increment} on an identity primary key "
                                                           "(lite numbers it by 1)")
                # AUTOINCREMENT lets the first value be START WITH (sqlite_sequence is set below)
                parts.append("INTEGER PRIMARY KEY AUTOINCREMENT" if start != 1 else "INTEGER PRIMARY KEY")
            else:
                parts.append(ctype.sqlite_type)
                if cname in pk_cols and "NOT NULL" not in constraint_sql:
                    # SQLite lets NULL into a PRIMARY KEY that is not an INTEGER PRIMARY KEY; Oracle: ORA-01400
                    constraint_sql.append("NOT NULL")
            if ctype.type_class == "JSON":
                constraint_sql.append(_json_check(cname))
            parts.extend(constraint_sql)
            col_sql.append(" ".join(parts))
            columns.append((cname, ctype, nullable, identity))
        elif isinstance(item, (exp.Constraint, exp.PrimaryKey, exp.ForeignKey, exp.UniqueColumnConstraint,
                               exp.CheckColumnConstraint)):
            table_sql.append(_table_constraint_sql(item, translator, owner, conn.username, pk_cols, columns))
        else:
            raise error(ERR_UNSUPPORTED_TABLE_ELEMENT, element=item.sql(dialect=Oracle)[:60])
    ident_pk = len(pk_cols) == 1 and any(c[0] == pk_cols[0] and c[3] for c in columns)
    if pk_cols and not ident_pk and not any("PRIMARY KEY" in t for t in table_sql):
        table_sql.append("PRIMARY KEY (" + ", ".join(f'"{c}"' for c in pk_cols) + ")")
    body = ",\n  ".join(col_sql + [t for t in table_sql if t])
    db = _db(conn, owner)
    constraints = _constraints_of(schema, owner, conn.username)
    named = [c[0] for c in constraints if c[0]]
    for name in named:
        if named.count(name) > 1 or con.execute("SELECT 1 FROM LITECAT.CONSTRAINTS WHERE OWNER = ? AND "
                                                "CONSTRAINT_NAME = ?", (owner, name)).fetchone():
            raise error(ERR_CONSTRAINT_NAME_USED, name=name)
    con.execute(f'CREATE TABLE "{db}"."{table}" (\n  {body}\n)')
    for n, part in enumerate(t for t in table_sql if t):
        _unique_with_nulls(con, db, table, part, n)
    for cname, ctype, nullable, identity in columns:
        if identity and not (ident_pk and pk_cols == [cname]):
            con.execute(
                f'CREATE TRIGGER "{db}"."{table}__{cname}__IDENTITY" AFTER INSERT ON "{table}" '
                f'WHEN NEW."{cname}" IS NULL BEGIN UPDATE "{table}" SET "{cname}" = '
                f"{identity_options[cname][0]} + (NEW.rowid - 1) * {identity_options[cname][1]} "
                f"WHERE rowid = NEW.rowid; END")
        elif identity and identity_options[cname][0] != 1:
            con.execute(f'INSERT INTO "{db}".sqlite_sequence (name, seq) VALUES (?, ?)',
                        (table, identity_options[cname][0] - 1))
    for cname, (default, when) in default_on_null.items():
        con.execute(
            f'CREATE TRIGGER "{db}"."{table}__{cname}__ON_NULL_INSERT" AFTER INSERT ON "{table}" '
            f'WHEN NEW."{cname}" IS NULL BEGIN UPDATE "{table}" SET "{cname}" = ({default}) '
            f"WHERE rowid = NEW.rowid; END")
        if when == "UPDATE":
            con.execute(
                f'CREATE TRIGGER "{db}"."{table}__{cname}__ON_NULL_UPDATE" AFTER UPDATE OF "{cname}" ON "{table}" '
                f'WHEN NEW."{cname}" IS NULL BEGIN UPDATE "{table}" SET "{cname}" = ({default}) '
                f"WHERE rowid = NEW.rowid; END")
        else:
            _refuse_null(con, db, owner, table, cname, "UPDATE", "ON_NULL_UPDATE")
    for cname in always_identity:
        # GENERATED ALWAYS: Oracle refuses a value written to the column (ORA-32795 on INSERT, ORA-32796 on
        # UPDATE). An omitted INTEGER PRIMARY KEY is -1 in a BEFORE INSERT trigger, another column NULL.
        omitted = "-1" if ident_pk and pk_cols == [cname] else "NULL"
        condition = f'NEW."{cname}" <> -1' if omitted == "-1" else f'NEW."{cname}" IS NOT NULL'
        con.execute(
            f'CREATE TRIGGER "{db}"."{table}__{cname}__ALWAYS_INSERT" BEFORE INSERT ON "{table}" WHEN {condition} '
            f"BEGIN SELECT ora_raise_error(32795, 'cannot insert into a generated always identity column'); END")
        con.execute(
            f'CREATE TRIGGER "{db}"."{table}__{cname}__ALWAYS_UPDATE" BEFORE UPDATE OF "{cname}" ON "{table}" '
            f'WHEN OLD."{cname}" IS NOT NULL AND NEW."{cname}" IS NOT OLD."{cname}" '
            f"BEGIN SELECT ora_raise_error(32796, 'cannot update a generated always identity column'); END")
    con.execute("INSERT INTO LITECAT.TABLES (OWNER, TABLE_NAME, CREATED) VALUES (?, ?, datetime('now'))",
                (owner, table))
    catalog.record_constraints(con, owner, table, constraints)
    for position, (cname, ctype, nullable, identity) in enumerate(columns, start=1):
        default, on_null = written_defaults.get(cname, (None, False))
        catalog.record_column(con, owner, table, position, cname, ctype, nullable=nullable and cname not in pk_cols,
                              identity=identity, default=default, on_null=on_null)
    return DdlResult("CREATE TABLE", owner, table)


def _column_type(item: exp.ColumnDef, cname: str) -> catalog.ColumnType:
    """The lite type of a column definition (ORA-00902 without one, ORA-03001 for a type lite lacks)."""
    kind = item.args.get("kind")
    if kind is None:
        raise error(ERR_INVALID_DATATYPE, column=cname)
    type_text = kind.sql(dialect=Oracle)
    try:
        return catalog.parse_type(type_text)
    except (KeyError, ValueError):
        raise error(ERR_UNSUPPORTED_COLUMN_TYPE, type=type_text) from None


def _refuse_null(con: sqlite3.Connection, db: str, owner: str, table: str, cname: str, statement: str,
                 suffix: str) -> None:
    """A trigger refusing NULL in ``cname`` on INSERT (ORA-01400) or UPDATE (ORA-01407), in Oracle's words,
    where SQLite's own NOT NULL cannot stand (DEFAULT ON NULL FOR INSERT ONLY, a column ALTER TABLE added)."""
    column = f'("{owner}"."{table}"."{cname}")'.replace("'", "''")
    event, code, text = (("INSERT", 1400, f"cannot insert NULL into {column}") if statement == "INSERT"
                         else (f'UPDATE OF "{cname}"', 1407, f"cannot update {column} to NULL"))
    con.execute(f'CREATE TRIGGER "{db}"."{table}__{cname}__{suffix}" BEFORE {event} ON "{table}" '
                f"WHEN NEW.\"{cname}\" IS NULL BEGIN SELECT ora_raise_error({code}, '{text}'); END")


def _json_check(cname: str) -> str:
    """The CHECK that keeps a JSON column's text valid JSON (SQLite stores it as text)."""
    return f'CHECK ("{cname}" IS NULL OR json_valid("{cname}"))'


def _check_alterable(conn: DdlTarget, owner: str, table: str) -> None:
    """ORA-00942 for a table that does not exist, ORA-01031 for another user's (privileges.py: Oracle's rule
    without ALTER ANY TABLE)."""
    if not catalog.table_exists(conn.sqlite, owner, table):
        raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=table)
    require_owner(conn.username, owner, table, "ALTER TABLE")


def _alter_table(conn: DdlTarget, tree: exp.Alter, ctx: Context) -> DdlResult:
    """``ALTER TABLE t ADD (c type [DEFAULT v] [NOT NULL], ...)`` (or ``ADD c type ...``); other actions refused.

    Adding a column is the step Oracle's vector search guides start from
    (``ALTER TABLE docs ADD (embedding VECTOR(384, FLOAT32))``, then an UPDATE
    with VECTOR_EMBEDDING). As in Oracle the existing rows take the DEFAULT
    (NULL without one), a NOT NULL column without a DEFAULT needs an empty
    table (ORA-01758), a name the table has is ORA-01430, and the columns of
    one statement are added together or not at all (the statement runs in one
    transaction). Keys, CHECK, REFERENCES and identity on an added column, and
    every other ALTER TABLE action, are refused by name (ORA-03001).
    """
    con = conn.sqlite
    owner, table = table_ref(tree.this, conn.username)
    _check_alterable(conn, owner, table)
    actions = tree.args.get("actions") or []
    if len(actions) == 1 and isinstance(actions[0], (exp.Drop, exp.Command, exp.RenameColumn, exp.AlterRename)):
        return _alter_columns(conn, owner, table, actions[0])
    added = [item for action in actions if isinstance(action, (exp.AddConstraint, exp.Schema))
             for item in action.expressions]
    if added and all(isinstance(item, (exp.Constraint, exp.PrimaryKey, exp.ForeignKey, exp.UniqueColumnConstraint,
                                       exp.CheckColumnConstraint)) for item in added) \
            and len(added) == sum(len(a.expressions) for a in actions):
        return _add_constraints(conn, owner, table, added, ctx)
    items: list[exp.ColumnDef] = []
    for action in actions:
        for item in (action.expressions if isinstance(action, exp.Schema) else [action]):
            if not isinstance(item, exp.ColumnDef):
                raise error(ERR_UNSUPPORTED_ALTER_TABLE, action=" ".join(action.sql(dialect=Oracle).split())[:60])
            items.append(item)
    if not items:
        raise error(ERR_UNSUPPORTED_ALTER_TABLE, action="without an action lite runs")
    db = _db(conn, owner)
    translator = Translator(ctx)
    taken = set(catalog.column_types(con, owner, table))
    empty = con.execute(f'SELECT 1 FROM "{db}"."{table}" LIMIT 1').fetchone() is None
    position = con.execute("SELECT MAX(COLUMN_ID) FROM LITECAT.COLUMNS WHERE OWNER = ? AND TABLE_NAME = ?",
                           (owner, table)).fetchone()[0] or 0
    for item in items:
        cname = name_of(item.this)
        if cname in taken:
            raise error(ERR_COLUMN_ALREADY_EXISTS)
        taken.add(cname)
        ctype = _column_type(item, cname)
        default, not_null, written = None, None, None   # not_null: the constraint's name ("" unnamed) when NOT NULL
        for c in item.constraints:
            kind, label = c.kind, c.args.get("this")
            if isinstance(kind, exp.DefaultColumnConstraint) and not kind.meta.get("on_null"):
                written = kind.this.sql(dialect=Oracle)
                default = translator.rewrite(kind.this.copy()).sql(dialect=LiteSQLite)
            elif isinstance(kind, exp.NotNullColumnConstraint):
                if not kind.args.get("allow_null"):
                    not_null = name_of(label) if isinstance(label, exp.Identifier) else ""
            elif not isinstance(kind, exp.CollateColumnConstraint):
                raise error(ERR_UNSUPPORTED_ADDED_COLUMN_CONSTRAINT,
                            constraint=" ".join(c.sql(dialect=Oracle).split())[:60])
        if not_null is not None and default is None and not empty:
            raise error(ERR_NOT_NULL_COLUMN_NEEDS_EMPTY_TABLE)
        parts = [f'"{cname}"', ctype.sqlite_type]
        if default is not None:
            parts.append(f"DEFAULT ({default})")
            if not_null is not None:
                parts.append("NOT NULL")
        if ctype.type_class == "JSON":
            parts.append(_json_check(cname))
        try:
            con.execute(f'ALTER TABLE "{db}"."{table}" ADD COLUMN {" ".join(parts)}')
        except sqlite3.OperationalError as exc:
            if "non-constant default" in str(exc):
                raise error(ERR_UNSUPPORTED_DEFAULT, column=cname) from None
            raise
        if not_null is not None and default is None:
            # SQLite adds NOT NULL only with a default; on the (empty) table, triggers say what Oracle says
            _refuse_null(con, db, owner, table, cname, "INSERT", "NOT_NULL_INSERT")
            _refuse_null(con, db, owner, table, cname, "UPDATE", "NOT_NULL_UPDATE")
        position += 1
        catalog.record_column(con, owner, table, position, cname, ctype, nullable=not_null is None, default=written)
        if not_null is not None:
            catalog.record_constraints(con, owner, table,
                                       [(not_null or None, "C", [cname], f'"{cname}" IS NOT NULL', None)])
    return DdlResult("ALTER TABLE", owner, table)


def _modify(conn: DdlTarget, owner: str, table: str, rest: str, ctx: Context) -> DdlResult:
    """``ALTER TABLE t MODIFY (c [type] [DEFAULT v] [[CONSTRAINT n] NULL | NOT NULL], ...)`` or ``MODIFY c ...``:
    each item read as a column definition, then alter_columns.modify_columns checks and applies it."""
    from .translate import parse

    text = rest.strip()
    if text.split(None, 1)[0].upper() in ("CONSTRAINT", "PRIMARY", "UNIQUE", "PARTITION", "SUBPARTITION", "LOB",
                                          "NESTED", "VARRAY", "DEFAULT", "COLUMN"):
        raise error(ERR_UNSUPPORTED_ALTER_TABLE, action=f"MODIFY {' '.join(text.split())[:50]}")
    inner = text[1:-1] if text.startswith("(") and text.endswith(")") else text
    translator = Translator(ctx)
    changes: list[alter_columns.ColumnChange] = []
    for item in alter_columns.split_items(inner):
        tree = parse(f"CREATE TABLE lite_modify ({item})")
        column = tree.this.expressions[0] if isinstance(tree.this, exp.Schema) else None
        if not isinstance(column, exp.ColumnDef):
            raise error(ERR_UNSUPPORTED_ALTER_TABLE, action=f"MODIFY {item.strip()[:50]}")
        name = name_of(column.this)
        kind = column.args.get("kind")
        nullable_marker = isinstance(kind, exp.DataType) and kind.this == exp.DataType.Type.NULL
        ctype = _column_type(column, name) if kind is not None and not nullable_marker else None
        default, not_null, label, written = None, (False if nullable_marker else None), None, None
        for c in column.constraints:
            if isinstance(c.kind, exp.DefaultColumnConstraint) and not c.kind.meta.get("on_null"):
                value = c.kind.this
                if not isinstance(value, (exp.Literal, exp.Null, exp.Neg)):
                    raise error(ERR_UNSUPPORTED_DEFAULT, column=name)
                default = translator.rewrite(value.copy()).sql(dialect=LiteSQLite)
                written = value.sql(dialect=Oracle)
            elif isinstance(c.kind, exp.NotNullColumnConstraint):
                not_null = not c.kind.args.get("allow_null")
                label = name_of(c.args["this"]) if isinstance(c.args.get("this"), exp.Identifier) else None
            else:
                raise error(ERR_UNSUPPORTED_ALTER_TABLE, action=f"MODIFY {name} {c.sql(dialect=Oracle)[:40]}")
        changes.append(alter_columns.ColumnChange(name, ctype, default, not_null, label, written))
    db = _db(conn, owner)
    alter_columns.modify_columns(conn.sqlite, db, owner, table, changes, lambda column, statement, suffix: _refuse_null(
        conn.sqlite, db, owner, table, column, statement, suffix))
    return DdlResult("ALTER TABLE", owner, table)


def _add_constraints(conn: DdlTarget, owner: str, table: str, items: list[exp.Expression], ctx: Context) -> DdlResult:
    """``ALTER TABLE t ADD CONSTRAINT ...`` / ``ADD (CONSTRAINT ..., ...)``: each constraint as ALL_CONSTRAINTS
    will show it (``_constraints_of``, as for CREATE TABLE), a CHECK's condition translated to SQLite, then
    add_constraints.py checks the rows and enforces it."""
    translator = Translator(ctx)
    found: list[add_constraints.NewConstraint] = []
    for item in items:
        kinds = item.expressions if isinstance(item, exp.Constraint) else [item]
        for kind in kinds:
            if not isinstance(kind, (exp.PrimaryKey, exp.ForeignKey, exp.UniqueColumnConstraint,
                                     exp.CheckColumnConstraint)):
                raise error(ERR_UNSUPPORTED_TABLE_CONSTRAINT, constraint=kind.sql(dialect=Oracle)[:60])
        for name, kind, columns, condition, reference in _constraints_of(exp.Schema(expressions=[item.copy()]),
                                                                         owner, conn.username):
            check = next((k for k in kinds if isinstance(k, exp.CheckColumnConstraint)), None) if kind == "C" else None
            found.append(add_constraints.NewConstraint(
                name, kind, columns, condition, reference,
                translator.rewrite(check.this.copy()).sql(dialect=LiteSQLite) if check is not None else ""))
    db = _db(conn, owner)
    add_constraints.add_constraints(conn.sqlite, db, owner, table, found,
                                    lambda column, statement, suffix: _refuse_null(
                                        conn.sqlite, db, owner, table, column, statement, suffix))
    return DdlResult("ALTER TABLE", owner, table)


def _name_list(text: str) -> list[str]:
    """``a, "b c"``: Oracle names, unquoted ones upper-cased."""
    return [n[1:-1] if n.startswith('"') else n.upper() for n in (p.strip() for p in text.split(",")) if n]


_DROP_KEY = re.compile(r"^\s*(?P<kind>PRIMARY\s+KEY|UNIQUE\s*\((?P<cols>[^()]*)\))\s*(?P<cascade>CASCADE)?\s*$",
                       re.I)
_DROP_LIST = re.compile(r"^\s*\((?P<names>[^()]*)\)\s*(?P<cascade>CASCADE\s+CONSTRAINTS)?\s*$", re.I)


def _alter_columns(conn: DdlTarget, owner: str, table: str, action: exp.Expression) -> DdlResult:
    """``ALTER TABLE t DROP COLUMN c | DROP (c, ...) [CASCADE CONSTRAINTS]``, ``RENAME COLUMN a TO b`` and
    ``RENAME TO u`` (alter_columns.py), ``DROP CONSTRAINT n | DROP PRIMARY KEY | DROP UNIQUE (c, ...)
    [CASCADE]`` (add_constraints.py); other actions of these shapes are refused by name."""
    con, db = conn.sqlite, _db(conn, owner)
    text = " ".join(action.sql(dialect=Oracle).split())[:60]
    key = _DROP_KEY.match(str(action.expression or "")) if isinstance(action, exp.Command) else None
    if isinstance(action, exp.Drop) and (action.args.get("kind") or "").upper() == "CONSTRAINT" or key:
        if key:
            wanted = "P" if key.group("kind").upper().startswith("PRIMARY") else "U"
            cols = _name_list(key.group("cols") or "")
            names = [n for n, (k, c) in catalog.table_constraints(con, owner, table).items()
                     if k == wanted and (wanted == "P" or sorted(c) == sorted(cols))]
            if not names:
                raise error(ERR_NO_PRIMARY_KEY_TO_DROP if wanted == "P" else ERR_NO_UNIQUE_KEY_TO_DROP)
            name, cascade = names[0], bool(key.group("cascade"))
        else:
            name, cascade = name_of(action.args["tables"][0].this), bool(action.args.get("cascade"))
        add_constraints.drop_constraint(con, db, owner, table, name, cascade, lambda o: _db(conn, o))
        return DdlResult("ALTER TABLE", owner, table)
    if isinstance(action, exp.Drop) and (action.args.get("kind") or "").upper() == "COLUMN":
        names = [name_of(c.this) for c in action.args.get("tables") or []]
        cascade = bool(action.args.get("constraints"))
    elif isinstance(action, exp.Command) and action.name.upper() == "DROP" \
            and _DROP_LIST.match(str(action.expression or "")):
        match = _DROP_LIST.match(str(action.expression))
        names = _name_list(match.group("names"))
        cascade = bool(match.group("cascade"))
    elif isinstance(action, exp.RenameColumn):
        alter_columns.rename_column(con, db, owner, table, name_of(action.this.this), name_of(action.args["to"].this))
        return DdlResult("ALTER TABLE", owner, table)
    elif isinstance(action, exp.AlterRename) and not action.this.args.get("db"):
        new = name_of(action.this.this)
        _refuse_dictionary_name(new)
        alter_columns.rename_table(con, db, owner, table, new)
        return DdlResult("ALTER TABLE", owner, table)   # the old name's derived values go
    else:
        raise error(ERR_UNSUPPORTED_ALTER_TABLE, action=text)
    alter_columns.drop_columns(con, db, owner, table, names, cascade,
                               lambda index_owner, index: _forget_index(conn, index_owner, index, owner, _index_type(
                                   con, index_owner, index)),
                               lambda name: add_constraints.drop_constraint(con, db, owner, table, name, cascade,
                                                                            lambda o: _db(conn, o)))
    return DdlResult("ALTER TABLE", owner, table)


def _index_type(con: sqlite3.Connection, owner: str, name: str) -> str:
    row = con.execute("SELECT INDEX_TYPE FROM LITECAT.INDEXES WHERE OWNER = ? AND INDEX_NAME = ?",
                      (owner, name)).fetchone()
    return row[0] if row else "NORMAL"


_COMPOSITE_UNIQUE = re.compile(r'^(?:CONSTRAINT\s+"?(?P<name>[^"\s]+)"?\s+)?UNIQUE\s*\((?P<cols>"[^"]+"(?:,\s*"[^"]+")+)\)$',
                               re.I)


def _unique_with_nulls(con: sqlite3.Connection, db: str, table: str, constraint_sql: str, n: int) -> None:
    """A UNIQUE key over several columns of CREATE TABLE, as Oracle enforces it (add_constraints.null_aware_unique_index)."""
    match = _COMPOSITE_UNIQUE.match(constraint_sql.strip())
    if match is None:
        return
    add_constraints.null_aware_unique_index(con, db, table, (match.group("name") or f"{table}_UK{n}").upper(),
                                            re.findall(r'"([^"]+)"', match.group("cols")))


def _reference_of(ref: exp.Reference, user: str, delete: str | None) -> tuple:
    target = ref.this
    table = target.this if isinstance(target, exp.Schema) else target
    r_owner, r_table = table_ref(table, user)
    r_columns = [name_of(c) for c in target.expressions] if isinstance(target, exp.Schema) else []
    options = " ".join(o.upper() for o in (ref.args.get("options") or []) if isinstance(o, str))
    rule = delete.upper() if isinstance(delete, str) else ("CASCADE" if "DELETE CASCADE" in options else
                                                           "SET NULL" if "DELETE SET NULL" in options else None)
    return (r_owner, r_table, r_columns, rule)


def _constraints_of(schema: exp.Schema, owner: str, user: str) -> list[tuple]:
    """The table's constraints as ALL_CONSTRAINTS lists them: (name, P|U|R|C, columns, condition, reference)."""
    found: list[tuple] = []

    def checked_columns(condition: exp.Expression) -> list[str]:
        return list(dict.fromkeys(name_of(c.this) for c in condition.find_all(exp.Column)))

    def add_kind(name: str | None, kind: exp.Expression, column: str | None) -> None:
        if isinstance(kind, (exp.PrimaryKeyColumnConstraint, exp.PrimaryKey)):
            cols = [column] if column else [name_of(c.this if isinstance(c, exp.Ordered) else c)
                                            for c in kind.expressions]
            found.append((name, "P", cols, None, None))
        elif isinstance(kind, exp.UniqueColumnConstraint):
            target = kind.this
            cols = [column] if column and not isinstance(target, exp.Schema) else \
                [name_of(c) for c in (target.expressions if isinstance(target, exp.Schema) else [])]
            found.append((name, "U", cols, None, None))
        elif isinstance(kind, exp.NotNullColumnConstraint) and column and not kind.args.get("allow_null"):
            found.append((name, "C", [column], f'"{column}" IS NOT NULL', None))
        elif isinstance(kind, exp.CheckColumnConstraint):
            found.append((name, "C", checked_columns(kind.this), kind.this.sql(dialect=Oracle), None))
        elif isinstance(kind, exp.Reference) and column:
            found.append((name, "R", [column], None, _reference_of(kind, user, None)))
        elif isinstance(kind, exp.ForeignKey) and kind.args.get("reference") is not None:
            cols = [name_of(c) for c in kind.expressions]
            found.append((name, "R", cols, None, _reference_of(kind.args["reference"], user, kind.args.get("delete"))))

    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            column = name_of(item.this)
            for c in item.constraints:
                label = c.args.get("this")
                add_kind(name_of(label) if isinstance(label, exp.Identifier) else None, c.kind, column)
        elif isinstance(item, exp.Constraint):
            for kind in item.expressions:
                add_kind(name_of(item.this) if isinstance(item.this, exp.Identifier) else None, kind, None)
        else:
            add_kind(None, item, None)
    order = {"P": 0, "U": 1, "C": 2, "R": 3}   # keys first, so a self-reference finds its key
    return sorted(found, key=lambda c: order[c[1]])


def _identity_number(node: exp.Expression | None, option: str) -> int:
    """An identity option's integer (START WITH / INCREMENT BY; 1 when absent), ORA-03001 for anything else."""
    if node is None:
        return 1
    text = node.sql(dialect=Oracle).replace(" ", "")
    if not re.fullmatch(r"-?\d+", text):
        raise error(ERR_UNSUPPORTED, construct=f"identity {option} {text}")
    return int(text)


def _reference_sql(ref: exp.Reference, owner: str, user: str) -> str:
    target = ref.this
    table = target.this if isinstance(target, exp.Schema) else target
    r_owner, r_table = table_ref(table, user)
    if r_owner != owner:
        return ""  # SQLite cannot enforce a foreign key across databases (schemas)
    cols = ""
    if isinstance(target, exp.Schema) and target.expressions:
        cols = "(" + ", ".join(f'"{name_of(c)}"' for c in target.expressions) + ")"
    options = " ".join(o.upper() for o in (ref.args.get("options") or []) if isinstance(o, str))
    return f'REFERENCES "{r_table}"{cols} {options}'.strip()


def _table_constraint_sql(item: exp.Expression, translator: Translator, owner: str, user: str,
                          pk_cols: list[str], columns: list) -> str:
    name = name_of(item.this) if isinstance(item, exp.Constraint) and isinstance(item.this, exp.Identifier) else None
    kinds = item.expressions if isinstance(item, exp.Constraint) else [item]
    parts = []
    for kind in kinds:
        if isinstance(kind, exp.PrimaryKey):
            cols = [name_of(c.this if isinstance(c, exp.Ordered) else c) for c in kind.expressions]
            ident_pk = len(cols) == 1 and any(c[0] == cols[0] and c[3] for c in columns)
            if ident_pk:
                return ""
            parts.append("PRIMARY KEY (" + ", ".join(f'"{c}"' for c in cols) + ")")
        elif isinstance(kind, exp.ForeignKey):
            cols = ", ".join(f'"{name_of(c)}"' for c in kind.expressions)
            ref = kind.args.get("reference")
            ref_sql = _reference_sql(ref, owner, user) if ref is not None else ""
            if not ref_sql:
                return ""
            delete = kind.args.get("delete")
            on_delete = f" ON DELETE {delete.upper()}" if isinstance(delete, str) else ""
            parts.append(f"FOREIGN KEY ({cols}) {ref_sql}{on_delete}")
        elif isinstance(kind, exp.UniqueColumnConstraint):
            target = kind.this
            cols = [name_of(c) for c in (target.expressions if isinstance(target, exp.Schema) else [])]
            parts.append("UNIQUE (" + ", ".join(f'"{c}"' for c in cols) + ")")
        elif isinstance(kind, exp.CheckColumnConstraint):
            parts.append(f"CHECK ({translator.rewrite(kind.this.copy()).sql(dialect='sqlite')})")
        else:
            raise error(ERR_UNSUPPORTED_TABLE_CONSTRAINT, constraint=kind.sql(dialect=Oracle)[:60])
    prefix = f'CONSTRAINT "{name}" ' if name else ""
    return prefix + " ".join(parts)


def _drop_table(conn: DdlTarget, tree: exp.Drop) -> DdlResult:
    con = conn.sqlite
    owner, table = table_ref(_dropped(tree), conn.username)
    if not catalog.table_exists(con, owner, table):
        if tree.args.get("exists"):
            return DdlResult("DROP TABLE", owner, table)
        raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=table)
    require_owner(conn.username, owner, table, "DROP TABLE")
    db = _db(conn, owner)
    children = con.execute(
        f"SELECT m.name FROM \"{db}\".sqlite_master m WHERE m.type = 'table' AND m.name != ? AND "
        f"EXISTS (SELECT 1 FROM pragma_foreign_key_list(m.name, ?) f WHERE f.\"table\" = ?)",
        (table, db, table)).fetchall()
    if children and not tree.args.get("cascade"):
        raise error(ERR_REFERENCED_BY_FOREIGN_KEYS)
    if children:
        # Oracle drops the children's foreign keys and keeps their rows; SQLite cannot drop a constraint
        # without rebuilding the child table, so lite refuses rather than leave broken children behind.
        raise error(ERR_UNSUPPORTED_CASCADE, children=", ".join(c[0] for c in children), owner=owner, table=table)
    con.execute("PRAGMA defer_foreign_keys = ON")
    con.execute(f'DROP TABLE "{db}"."{table}"')
    catalog.drop_index_tables(con, lambda schema: _db(conn, schema), owner, table=table)
    catalog.forget_table(con, owner, table)
    return DdlResult("DROP TABLE", owner, table)


def _comment(conn: DdlTarget, tree: exp.Comment) -> DdlResult:
    con = conn.sqlite
    kind = (tree.args.get("kind") or "").upper()
    text_node = tree.args.get("expression")
    text = text_node.this if isinstance(text_node, exp.Literal) else None
    if text == "":
        text = None
    target = tree.this
    if kind == "TABLE":
        owner, table = table_ref(target, conn.username)
        if not catalog.name_used(con, owner, table):
            raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=table)
        require_owner(conn.username, owner, table, "COMMENT ON TABLE")
        con.execute("INSERT INTO LITECAT.TAB_COMMENTS (OWNER, TABLE_NAME, COMMENTS) VALUES (?, ?, ?) "
                    "ON CONFLICT (OWNER, TABLE_NAME) DO UPDATE SET COMMENTS = excluded.COMMENTS",
                    (owner, table, text))
        return DdlResult("COMMENT", owner, table)
    if kind == "COLUMN":
        column = name_of(target.this)
        table_id = target.args.get("table")
        db_id = target.args.get("db")
        owner = name_of(db_id) if db_id else conn.username
        table = name_of(table_id)
        if not catalog.name_used(con, owner, table):
            raise error(ERR_TABLE_DOES_NOT_EXIST, owner=owner, table=table)
        if column not in catalog.column_types(con, owner, table):
            raise error(ERR_INVALID_IDENTIFIER, name=column)
        require_owner(conn.username, owner, table, "COMMENT ON COLUMN")
        con.execute("INSERT INTO LITECAT.COL_COMMENTS (OWNER, TABLE_NAME, COLUMN_NAME, COMMENTS) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (OWNER, TABLE_NAME, COLUMN_NAME) "
                    "DO UPDATE SET COMMENTS = excluded.COMMENTS", (owner, table, column, text))
        return DdlResult("COMMENT", owner, table)
    raise error(ERR_UNSUPPORTED_COMMENT, kind=kind)


def _index_name(index: exp.Index, user: str) -> tuple[str, str]:
    """(owner, name) of CREATE INDEX's index: ``schema.name`` is a Table node, a bare name an Identifier."""
    name = index.this
    if isinstance(name, exp.Table):
        return table_ref(name, user)
    return user, name_of(name)


def _index_columns(params: exp.IndexParameters | None) -> list[str]:
    """The indexed column names; an expression (a function-based index) is not implemented in lite."""
    names = []
    for item in (params.args.get("columns") or []) if params is not None else []:
        column = item.this if isinstance(item, exp.Ordered) else item
        if not isinstance(column, exp.Column) or column.args.get("table") is not None:
            raise error(ERR_UNSUPPORTED_FUNCTION_INDEX, expression=column.sql(dialect=Oracle)[:60])
        names.append(name_of(column.this))
    return names


def _create_index(conn: DdlTarget, tree: exp.Create) -> DdlResult:
    """CREATE [UNIQUE|BITMAP|VECTOR|SEARCH] INDEX from its parse tree (dialect.py reads the Oracle Text,
    spatial and vector clauses and the trailing options; anything else it keeps as text, refused here)."""
    con = conn.sqlite
    user = conn.username
    index: exp.Index = tree.this
    owner, name = _index_name(index, user)
    table_node = index.args["table"]
    t_owner, table = table_ref(table_node, user)
    if table_node.args.get("db") is None and isinstance(index.this, exp.Table):
        t_owner = owner  # CREATE INDEX s.ix ON t: lite reads t in the index's schema
    params = index.args.get("params")
    clause = index.args.get("oracle")
    options = index.args.get("options")
    kind = (tree.args.get("kind") or "INDEX").upper()
    variety = "UNIQUE" if tree.args.get("unique") else kind.replace("INDEX", "").strip()
    foreign = [key for key in _FOREIGN_INDEX_PARAMETERS if params is not None and params.args.get(key)]
    unsupported = options.args.get("unsupported") if options is not None else None
    col_names = _index_columns(params)
    if not catalog.table_exists(con, t_owner, table):
        raise error(ERR_TABLE_DOES_NOT_EXIST, owner=t_owner, table=table)
    require_owner(user, owner, name, "CREATE INDEX")   # Oracle: CREATE ANY INDEX, or INDEX on the table
    require_owner(user, t_owner, table, "CREATE INDEX ON")
    known = catalog.column_types(con, t_owner, table)
    for col in col_names:
        if col not in known:
            raise error(ERR_INVALID_IDENTIFIER, name=col)
    exists = con.execute("SELECT 1 FROM LITECAT.INDEXES WHERE OWNER = ? AND INDEX_NAME = ?",
                         (owner, name)).fetchone() or catalog.key_index_exists(con, owner, name)
    if exists:
        if tree.args.get("exists"):
            return DdlResult("CREATE INDEX", t_owner, table)
        raise error(ERR_NAME_ALREADY_USED)
    ityp_owner = ityp_name = parameters = None
    if variety == "VECTOR":
        if unsupported or foreign or isinstance(clause, IndexTypeClause):
            text = unsupported or (clause.sql(dialect=Oracle) if clause is not None else ", ".join(foreign))
            raise error(ERR_UNSUPPORTED_VECTOR_INDEX, clause=text[:80])
        if len(col_names) != 1 or known[col_names[0]].type_class != "VECTOR":
            raise error(ERR_VECTOR_INDEX_COLUMN)
        index_type = "VECTOR"
        parameters = clause.sql(dialect=Oracle) if clause is not None else None
    elif isinstance(clause, IndexTypeClause):
        itype = clause.this
        ityp_owner = name_of(itype.args.get("db")) if itype.args.get("db") else ""
        ityp_name = name_of(itype.this)
        literal = clause.args.get("parameters")
        parameters = literal.this if isinstance(literal, exp.Literal) else None
        known_itype = (ityp_owner == "MDSYS" and ityp_name in _SPATIAL_INDEXTYPES) or (
            ityp_owner == "CTXSYS" and ityp_name in _TEXT_INDEXTYPES)
        if unsupported or foreign or not known_itype:
            text = unsupported if known_itype and unsupported else clause.sql(dialect=Oracle)
            raise error(ERR_UNSUPPORTED_INDEX_CLAUSE, clause=text[:80])
        if ityp_owner == "MDSYS":
            _check_spatial_index(conn, t_owner, table, col_names, known, parameters)
        else:
            if ityp_name != "CONTEXT":
                raise error(ERR_UNSUPPORTED_TEXT_INDEXTYPE, indextype=ityp_name)
            check_text_parameters(parameters)
            if len(col_names) != 1 or known[col_names[0]].type_class not in ("VARCHAR2", "CHAR", "CLOB"):
                raise error(ERR_TEXT_INDEX_COLUMN)
        index_type = "DOMAIN"
    else:
        if unsupported or foreign or clause is not None:
            text = unsupported or (clause.sql(dialect=Oracle) if clause is not None else ", ".join(foreign))
            raise error(ERR_UNSUPPORTED_PLAIN_INDEX_CLAUSE, clause=text[:80])
        index_type = "NORMAL"
        db = _db(conn, t_owner)
        unique = "UNIQUE " if variety == "UNIQUE" else ""
        con.execute(f'CREATE {unique}INDEX "{db}"."{name}" ON "{table}" ('
                    + ", ".join(f'"{c}"' for c in col_names) + ")")
    con.execute(
        "INSERT INTO LITECAT.INDEXES (OWNER, INDEX_NAME, TABLE_OWNER, TABLE_NAME, COLUMN_NAMES, INDEX_TYPE, "
        "UNIQUENESS, ITYP_OWNER, ITYP_NAME, PARAMETERS, CREATED) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, datetime('now'))",
        (owner, name, t_owner, table, ",".join(col_names), index_type,
         "UNIQUE" if variety == "UNIQUE" else "NONUNIQUE", ityp_owner, ityp_name, parameters))
    # the tables Oracle's domain index keeps for itself, SECONDARY = 'Y' (catalog.py)
    if ityp_owner == "MDSYS":
        catalog.create_spatial_index_table(con, _db(conn, t_owner), t_owner, name)
    elif ityp_owner == "CTXSYS":
        catalog.create_text_index_tables(con, _db(conn, owner), owner, name)
    return DdlResult("CREATE INDEX", t_owner, table)


# Oracle Text's CREATE INDEX parameters (Text Reference, "CREATE INDEX"): keyword -> accepted values
# (None: any value; a preference must be one whose behaviour is lite's, or the results would differ)
_TEXT_PREFERENCES = {
    "DATASTORE": {"CTXSYS.DEFAULT_DATASTORE", "CTXSYS.DIRECT_DATASTORE"},
    "FILTER": {"CTXSYS.NULL_FILTER"},
    "LEXER": {"CTXSYS.DEFAULT_LEXER"},
    "STOPLIST": {"CTXSYS.DEFAULT_STOPLIST"},
    "SECTION GROUP": {"CTXSYS.NULL_SECTION_GROUP"},
    "WORDLIST": {"CTXSYS.DEFAULT_WORDLIST"},
    "STORAGE": None,
    "MEMORY": None,
    "SYNC": None,
    "MAINTENANCE": None,
}
_TEXT_FLAGS = {"TRANSACTIONAL", "POPULATE"}
_TEXT_REFUSED_FLAGS = {"NOPOPULATE"}


def _text_parameter_words(text: str) -> list[str]:
    """The words of a PARAMETERS string; a parenthesised group (``SYNC (ON COMMIT)``) is one word."""
    words, depth, current = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch.isspace() and depth == 0:
            if current:
                words.append(current)
            current = ""
        else:
            current += ch
    if current:
        words.append(current)
    return words


def check_text_parameters(parameters: str | None) -> None:
    """Accept the Oracle Text PARAMETERS lite indexes the same way; refuse the rest by name.

    Lite's text index is Oracle's default configuration (plain text, default
    lexer and stoplist, no sections). A section group, custom lexer, stoplist
    or filter changes what Oracle indexes and finds (an HTML section group
    leaves markup out), so accepting one silently would change results: each
    is ORA-03001 naming it, an unknown keyword is Oracle's DRG-11000.
    """
    words = _text_parameter_words(parameters or "")
    i = 0
    while i < len(words):
        word = words[i].upper()
        if word in _TEXT_FLAGS:
            i += 1
            continue
        if word in _TEXT_REFUSED_FLAGS:
            raise error(ERR_UNSUPPORTED_TEXT_PARAMETER, parameter=word)
        keyword = word
        if word == "SECTION" and i + 1 < len(words) and words[i + 1].upper() == "GROUP":
            keyword, i = "SECTION GROUP", i + 1
        if keyword not in _TEXT_PREFERENCES:
            raise error(ERR_TEXT_PARAMETERS_SYNTAX, keyword=words[i])
        value = words[i + 1] if i + 1 < len(words) else ""
        if keyword == "SYNC" and not value.startswith("("):
            raise error(ERR_TEXT_PARAMETERS_SYNTAX, keyword=f"SYNC {value}".strip())
        allowed = _TEXT_PREFERENCES[keyword]
        if allowed is not None and value.upper() not in allowed:
            raise error(ERR_UNSUPPORTED_TEXT_PARAMETER, parameter=f"{keyword} {value}".strip())
        i += 2


def _drop_index(conn: DdlTarget, tree: exp.Drop) -> DdlResult:
    """DROP INDEX [IF EXISTS] [schema.]name [FORCE]: forget it in the catalog, drop SQLite's B-tree if any."""
    con = conn.sqlite
    owner, name = table_ref(tree.args["tables"][0] if tree.args.get("tables") else tree.this, conn.username)
    row = con.execute("SELECT TABLE_OWNER, TABLE_NAME, INDEX_TYPE FROM LITECAT.INDEXES "
                      "WHERE OWNER = ? AND INDEX_NAME = ?", (owner, name)).fetchone()
    if row is None and catalog.key_index_exists(con, owner, name):   # the index Oracle made for a key constraint
        raise error(ERR_DROP_KEY_INDEX, owner=owner, name=name)
    if row is None:
        if tree.args.get("exists"):
            return DdlResult("DROP INDEX")
        raise error(ERR_INDEX_DOES_NOT_EXIST)
    require_owner(conn.username, owner, name, "DROP INDEX")
    _forget_index(conn, owner, name, row[0], row[2])
    return DdlResult("DROP INDEX", row[0], row[1])


def _forget_index(conn: DdlTarget, owner: str, name: str, table_owner: str, index_type: str) -> None:
    """Remove index ``owner.name`` (on a table of ``table_owner``): its catalog row, a domain index's tables
    (a spatial index's MDRT_…$, a text index's DR$…), SQLite's B-tree of a plain index."""
    con = conn.sqlite
    if index_type == "DOMAIN":
        catalog.drop_index_tables(con, lambda schema: _db(conn, schema), owner, index=name)
    con.execute("DELETE FROM LITECAT.INDEXES WHERE OWNER = ? AND INDEX_NAME = ?", (owner, name))
    if index_type in ("NORMAL", "UNIQUE"):
        con.execute(f'DROP INDEX IF EXISTS "{_db(conn, table_owner)}"."{name}"')


def _check_spatial_index(conn: DdlTarget, owner: str, table: str, col_names: list[str],
                         known: dict[str, catalog.ColumnType], params: str | None) -> None:
    """Refuse a spatial index Oracle would refuse (wrong column, no metadata to build from, bad parameters)."""
    con = conn.sqlite
    if len(col_names) != 1:
        raise error(ERR_SPATIAL_INDEX_ONE_COLUMN)
    column = col_names[0]
    ctype = known[column]
    if ctype.type_class != "SDO_GEOMETRY":
        raise error(ERR_SPATIAL_INDEX_TYPE, owner=owner, table=table, column=column, data_type=ctype.data_type)
    if ctype.spatial_index:
        raise error(ERR_SPATIAL_INDEX_EXISTS, owner=owner, table=table, column=column, index=ctype.spatial_index)
    options = {}
    for part in (params or "").replace(",", " ").split():
        key, _, value = part.partition("=")
        options[key.strip().lower()] = value.strip().upper()
    gtype = options.get("layer_gtype")
    if gtype is not None and gtype not in _LAYER_GTYPES:
        raise error(ERR_SPATIAL_LAYER_GTYPE)
    db = _db(conn, owner)
    srids = {row[0] for row in con.execute(
        f'SELECT DISTINCT json_extract("{column}", \'$.srid\') FROM "{db}"."{table}" WHERE "{column}" IS NOT NULL')}
    metadata = catalog.geometry_metadata(con, owner, table, column)
    if metadata is None:
        # Oracle 23ai creates missing metadata from the data; with no geometry there is nothing to create it from.
        if not srids:
            raise error(ERR_SPATIAL_NO_METADATA, owner=owner, table=table, column=column)
        return
    srid = metadata[1]
    if srids - {srid}:
        raise error(ERR_SPATIAL_SRID_MISMATCH, srid=srid, table=table, column=column,
                    row_srids=", ".join(str(s) for s in sorted(srids, key=str)))
