"""TODO 1 — ``_scan_tables(conn, owner) -> list[Fact]``: the solution and wrong variants.

Module globals injected by the test (as in the notebook): ``Fact``.
"""

# ruff: noqa: F821  (Fact is injected like a notebook global)

SUPPLYCHAIN_TABLES = ("CARGO_ITEMS", "CARRIERS", "CONTAINERS", "PORTS", "VESSELS", "VESSEL_POSITIONS",
                      "VOYAGES")

TABLES_SQL = """SELECT t.table_name, c.comments
FROM all_tables t
LEFT JOIN all_tab_comments c ON c.owner = t.owner AND c.table_name = t.table_name
WHERE t.owner = :owner AND t.secondary = 'N'
ORDER BY t.table_name"""


def _meta(owner, table):
    """The specified metadata, so that each mutant differs from the solution only in its own mistake."""
    return {"owner": owner, "table": table, "source": "catalog_scanner"}


def _body(owner, table, comment):
    if comment and comment.strip():
        return f"Table {owner}.{table}. Documented purpose: {comment.strip()}"
    return f"Table {owner}.{table}. Documented purpose: not documented (the table has no comment)."


def solution(conn, owner):
    """Correct: owner upper-cased and bound, LEFT JOIN, ordered, OWNER.TABLE subjects, body and metadata."""
    owner = owner.upper()
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{table}", body=_body(owner, table, comment),
                 metadata={"owner": owner, "table": table, "source": "catalog_scanner"})
            for table, comment in rows]


def mutant_index_internals_included(conn, owner):
    """Wrong: no secondary = 'N', so a spatial index's MDRT_…$ tables become facts."""
    owner = owner.upper()
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL.replace(" AND t.secondary = 'N'", ""), owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{table}", body=_body(owner, table, comment),
                 metadata=_meta(owner, table)) for table, comment in rows]


def mutant_internals_left_out_by_name(conn, owner):
    """Wrong: leaves out MDRT_% tables by name instead of secondary = 'N', so a text index's DR$ tables stay."""
    owner = owner.upper()
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL.replace(" AND t.secondary = 'N'", " AND t.table_name NOT LIKE 'MDRT%'"),
                    owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{table}", body=_body(owner, table, comment),
                 metadata=_meta(owner, table)) for table, comment in rows]


def mutant_owner_not_upper_cased(conn, owner):
    """Uses the owner as given: _scan_tables(conn, 'supplychain') finds no tables."""
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c),
                 metadata={"owner": owner, "table": t, "source": "catalog_scanner"}) for t, c in rows]


def mutant_descending_order(conn, owner):
    """Orders the tables Z to A."""
    return list(reversed(solution(conn, owner)))


def mutant_metadata_without_source(conn, owner):
    """Leaves "source" out of the metadata."""
    facts = solution(conn, owner)
    return [Fact(f.kind, f.subject, f.body, {k: v for k, v in f.metadata.items() if k != "source"}) for f in facts]


def mutant_owner_in_fstring(conn, owner):
    """Builds the owner into the SQL text instead of binding it (same rows, SQL-injection prone)."""
    sql = TABLES_SQL.replace(":owner", f"'{owner}'")
    with conn.cursor() as cur:
        cur.execute(sql)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t)) for t, c in rows]


def mutant_wrong_body_format(conn, owner):
    """Body "OWNER.TABLE: comment" instead of the documented sentence."""
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=f"{owner}.{t}: {c or ''}", metadata=_meta(owner, t)) for t, c in rows]


def mutant_none_in_body(conn, owner):
    """Formats the comment straight in: an uncommented table says "Documented purpose: None"."""
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=f"Table {owner}.{t}. Documented purpose: {c}", metadata=_meta(owner, t))
            for t, c in rows]


def mutant_subject_without_owner(conn, owner):
    """Subject is the bare table name."""
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=t, body=_body(owner, t, c), metadata=_meta(owner, t)) for t, c in rows]


def mutant_other_owners_tables(conn, owner):
    """Filters only the comment join by owner, so every schema's tables come back."""
    sql = """SELECT t.owner, t.table_name, c.comments
    FROM all_tables t
    LEFT JOIN all_tab_comments c ON c.owner = :owner AND c.table_name = t.table_name"""
    with conn.cursor() as cur:
        cur.execute(sql, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{o}.{t}", body=_body(o, t, c), metadata=_meta(o, t)) for o, t, c in rows]


def mutant_inner_join(conn, owner):
    """Plain JOIN to ALL_TAB_COMMENTS with a comment filter: tables without a comment disappear."""
    sql = """SELECT t.table_name, c.comments
    FROM all_tables t
    JOIN all_tab_comments c ON c.owner = t.owner AND c.table_name = t.table_name
    WHERE t.owner = :owner AND t.secondary = 'N' AND c.comments IS NOT NULL"""
    with conn.cursor() as cur:
        cur.execute(sql, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t)) for t, c in rows]


def mutant_hardcoded_supplychain_tables(conn, owner):
    """The seven SUPPLYCHAIN tables typed in; only the comments are looked up."""
    with conn.cursor() as cur:
        cur.execute("SELECT table_name, comments FROM all_tab_comments WHERE owner = :owner", owner=owner)
        comments = dict(cur.fetchall())
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, comments.get(t)), metadata=_meta(owner, t))
            for t in SUPPLYCHAIN_TABLES]


def mutant_wrong_kind(conn, owner):
    """Kind 'TABLE' (upper case) instead of 'table'."""
    return [Fact(kind="TABLE", subject=f.subject, body=f.body, metadata=f.metadata) for f in solution(conn, owner)]


def mutant_user_tables(conn, owner):
    """Reads USER_TABLES, i.e. the connected user's tables, whatever the owner."""
    sql = """SELECT t.table_name, c.comments
    FROM user_tables t
    LEFT JOIN all_tab_comments c ON c.owner = :owner AND c.table_name = t.table_name"""
    with conn.cursor() as cur:
        cur.execute(sql, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t)) for t, c in rows]


def mutant_empty_string_for_missing_comment(conn, owner):
    """Uses '' for a missing comment, leaving "Documented purpose: " dangling."""
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=f"Table {owner}.{t}. Documented purpose: {c or ''}", metadata=_meta(owner, t))
            for t, c in rows]


def mutant_join_on_table_name_only(conn, owner):
    """Joins comments on table_name only: a same-named table in another schema duplicates rows."""
    sql = """SELECT t.table_name, c.comments
    FROM all_tables t
    LEFT JOIN all_tab_comments c ON c.table_name = t.table_name
    WHERE t.owner = :owner AND t.secondary = 'N'"""
    with conn.cursor() as cur:
        cur.execute(sql, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t)) for t, c in rows]


def mutant_generator(conn, owner):
    """Yields the facts instead of returning a list."""
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL, owner=owner)
        rows = cur.fetchall()
    for t, c in rows:
        yield Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t))


def mutant_query_df(conn, owner):
    """Reads the catalog with the notebook's query_df helper: the notebook's connection, not its conn argument."""
    from workshop_lib.notebook import query_df

    owner = owner.upper()
    rows = query_df(TABLES_SQL, owner=owner).itertuples(index=False, name=None)
    return [Fact(kind="table", subject=f"{owner}.{table}", body=_body(owner, table, comment),
                 metadata=_meta(owner, table)) for table, comment in rows]


def mutant_user_tab_comments(conn, owner):
    """Reads the comments from USER_TAB_COMMENTS: the connected user's, so another owner's tables lose theirs."""
    owner = owner.upper()
    sql = """SELECT t.table_name, c.comments
    FROM all_tables t
    LEFT JOIN user_tab_comments c ON c.table_name = t.table_name
    WHERE t.owner = :owner AND t.secondary = 'N'
    ORDER BY t.table_name"""
    with conn.cursor() as cur:
        cur.execute(sql, owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t))
            for t, c in rows]


def _rows(conn, owner, sql=TABLES_SQL):
    with conn.cursor() as cur:
        cur.execute(sql, owner=owner)
        return cur.fetchall()


def mutant_namedtuple_of_its_own(conn, owner):
    """Returns a namedtuple with the Fact fields, not Fact: the scan cell stores only Facts."""
    import collections
    owner = owner.upper()
    row = collections.namedtuple("TableFact", "kind subject body metadata")
    return [row("table", f"{owner}.{t}", _body(owner, t, c), _meta(owner, t)) for t, c in _rows(conn, owner)]


def mutant_metadata_with_a_subject(conn, owner):
    """Adds "subject": table to the metadata, which replaces the fact's own subject in the stored memory."""
    owner = owner.upper()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c),
                 metadata={**_meta(owner, t), "subject": t}) for t, c in _rows(conn, owner)]


def mutant_comment_not_stripped(conn, owner):
    """Writes the body itself without stripping the comment: spaces around it stay."""
    owner = owner.upper()
    return [Fact(kind="table", subject=f"{owner}.{t}",
                 body=f"Table {owner}.{t}. Documented purpose: {c}" if c else _body(owner, t, c),
                 metadata=_meta(owner, t)) for t, c in _rows(conn, owner)]


def mutant_column_comments(conn, owner):
    """Joins ALL_COL_COMMENTS (one row per column) instead of ALL_TAB_COMMENTS."""
    owner = owner.upper()
    return [Fact(kind="table", subject=f"{owner}.{t}", body=_body(owner, t, c), metadata=_meta(owner, t))
            for t, c in _rows(conn, owner, TABLES_SQL.replace("all_tab_comments", "all_col_comments"))]


def mutant_internals_left_out_by_both_names(conn, owner):
    """Wrong: leaves out MDRT% and DR$% by name instead of secondary = 'N' (right here, not for other internals)."""
    owner = owner.upper()
    with conn.cursor() as cur:
        cur.execute(TABLES_SQL.replace(" AND t.secondary = 'N'", " AND t.table_name NOT LIKE 'MDRT%' "
                                                                  "AND t.table_name NOT LIKE 'DR$%'"), owner=owner)
        rows = cur.fetchall()
    return [Fact(kind="table", subject=f"{owner}.{table}", body=_body(owner, table, comment),
                 metadata=_meta(owner, table)) for table, comment in rows]
