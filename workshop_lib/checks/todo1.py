"""The check of TODO 1 ``_scan_tables(conn, owner)``: the owner's tables as Facts, owner bound, read-only."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..config import SCHEMA
from ..scanner import Fact
from .connection import _fetch, _transaction_open
from .harness import _Grader, _listed, _short
from .scratch import _scratch_schema
from .spies import _bind_values, _ConnectionSpy, _Log


def _catalog_tables(conn: Any, owner: str) -> dict[str, str | None]:
    """table -> comment for ``owner``, from two plain dictionary queries of the check's own."""
    # secondary = 'N': not the tables Oracle's domain indexes keep in the schema (MDRT_…$, DR$…$I, ...)
    tables = [row[0] for row in _fetch(conn, "SELECT table_name FROM all_tables WHERE owner = :owner "
                                             "AND secondary = 'N'", owner=owner)]
    comments = dict(_fetch(conn, "SELECT table_name, comments FROM all_tab_comments WHERE owner = :owner",
                           owner=owner))
    return {table: comments.get(table) for table in tables}


def _secondary_tables(conn: Any, owner: str) -> set[str]:
    """The owner's secondary objects (tables domain indexes create for themselves, SECONDARY = 'Y')."""
    return {row[0] for row in _fetch(conn, "SELECT table_name FROM all_tables WHERE owner = :owner "
                                           "AND secondary = 'Y'", owner=owner)}


def todo1(fn: Callable[..., Any], *, timeout: float | None = None) -> None:
    """Grade TODO 1 ``_scan_tables(conn, owner) -> list[Fact]``.

    Checks, against the check's own ALL_TABLES / ALL_TAB_COMMENTS queries:
    exactly one Fact per (real, ``secondary = 'N'``) table of the owner - never
    a spatial index's MDRT_…$ or a text index's DR$ table - (SUPPLYCHAIN and a second,
    freshly created schema with an uncommented table), kind ``table``,
    subject ``OWNER.TABLE``, body exactly ``table_body``'s format with the
    comment text and never "None", metadata ``{"owner", "table", "source":
    "catalog_scanner"}``, the facts in table-name order, the owner upper-cased
    (``_scan_tables(conn, "supplychain")`` finds SUPPLYCHAIN's tables) and
    passed as a bind variable (never in the SQL text), read-only use of the
    connection.
    """
    from ..scanner import table_body

    grader = _Grader(1, fn, timeout)
    with grader.session():
        ws = grader.workshop()
        conn = ws.conn
        sql_texts = _grade_scan(grader, conn, SCHEMA, table_body)
        try:
            owner = grader.stack.enter_context(_scratch_schema(conn))
        except Exception as exc:  # noqa: BLE001
            grader.fail(f"the check could not create its scratch tables ({type(exc).__name__}: {exc}).",
                        hint="this is a problem of the environment, not of your code: run `workshop doctor`.")
        _grade_scan(grader, conn, owner, table_body)
        _grade_scan(grader, conn, SCHEMA.lower(), table_body)   # the instructions: upper-case the owner
        # After every scan was right: the rule the instructions state, which these schemas cannot all show
        if not any(re.search(r"\bsecondary\b", sql, re.IGNORECASE) for sql in sql_texts):
            grader.fail(f"{grader.name} returned the right tables, but its SQL never reads SECONDARY: index "
                        "internals are left out by name (or by chance), which holds only for the kinds named.",
                        got=_short(sql_texts[0], 200),
                        hint="keep only real tables with AND t.secondary = 'N', as the instructions say: it leaves "
                             "out every table Oracle marks as an index's own, whatever its name.")


def _grade_scan(grader: _Grader, conn: Any, given: str, table_body: Callable[..., str]) -> list[str]:
    owner = given.upper()
    expected = _catalog_tables(conn, owner)
    log = _Log()
    spy = _ConnectionSpy(conn, log)
    # The notebook global too, so that a function ignoring its conn argument is recognised.
    global_log = _Log()
    scope = getattr(grader.fn, "__globals__", None)
    lent: dict[str, Any] = {}
    if isinstance(scope, dict) and "agent_conn" in scope:
        lent["agent_conn"] = _ConnectionSpy(scope["agent_conn"], global_log)
    was_open = _transaction_open(conn)
    described = f"{grader.name}(conn, {given!r})"
    try:
        with grader.lent(lent):
            facts = grader.call(described, spy, given)
    finally:
        log.live = global_log.live = False
        spy.restore()
        for lent_spy in lent.values():
            lent_spy.restore()
    grader.after_call(log, conn, was_open)
    grader.after_call(global_log, conn, was_open)
    if global_log.statements and not log.statements:
        grader.fail(f"{described} queried the notebook global agent_conn instead of its conn argument.",
                    hint="use the connection you are given: `with conn.cursor() as cur:`.")

    for item in facts:
        if not isinstance(item, Fact):
            grader.fail(f"{described} returned a {type(item).__name__}, not a Fact: the scan cell stores only "
                        "Facts (it would fall back to the library's scanner).", got=_short(item, 200),
                        hint="build each item with Fact(kind='table', subject=f'{owner}.{table}', "
                             "body=table_body(owner, table, comment), metadata={...}), the notebook's Fact.")
    subjects = [str(f.subject) for f in facts]
    wanted = {f"{owner}.{t}": c for t, c in expected.items()}
    dup = sorted({s for s in subjects if subjects.count(s) > 1})
    if dup:
        columns = any("col_comments" in sql.lower() for sql, _, _ in log.statements)
        grader.fail(f"{described} returned the same table more than once.", got=_listed(dup),
                    hint="a table's comment is in ALL_TAB_COMMENTS; ALL_COL_COMMENTS has one row per column."
                    if columns else "one Fact per table: join ALL_TAB_COMMENTS on both owner and table_name.")
    missing = sorted(set(wanted) - set(subjects))
    extra = sorted(set(subjects) - set(wanted))
    if missing or extra:
        hint = "select from ALL_TABLES WHERE owner = :owner, LEFT JOIN ALL_TAB_COMMENTS ON owner AND table_name."
        if extra and all("." not in s for s in extra):
            hint = f"the subject is OWNER.TABLE, e.g. {owner}.{next(iter(expected), 'TABLE')}."
        elif missing and not extra:
            undocumented = [s for s in missing if not (wanted[s] or "").strip()]
            if undocumented:
                hint = ("tables without a comment are missing: use a LEFT JOIN to ALL_TAB_COMMENTS so they "
                        "are kept.")
        elif any(not s.upper().startswith(f"{owner}.") for s in extra):
            hint = "only the tables of the given owner: filter ALL_TABLES with WHERE owner = :owner."
        elif extra and set(extra) <= {f"{owner}.{t}" for t in _secondary_tables(conn, owner)}:
            hint = ("tables such as MDRT_…$ (a spatial index's) and DR$…$I (an Oracle Text index's) are an "
                    "index's internals (secondary objects), not tables of the catalog: keep only real tables "
                    "with AND t.secondary = 'N', which covers every kind, rather than leaving names out.")
        if given != owner and not subjects:
            hint = (f"the dictionary stores names in upper case: owner = owner.upper() first, so "
                    f"{given!r} finds {owner}'s tables.")
        elif given != owner and extra and all(s.startswith(f"{given}.") for s in extra):
            hint = "upper-case the owner before using it: subjects are OWNER.TABLE in upper case."
        grader.fail(f"{described} did not return exactly the tables of {owner}.",
                    expected=f"{len(wanted)} facts, subjects {_listed(sorted(wanted))}",
                    got=f"{len(subjects)} facts; missing {_listed(missing)}, unexpected {_listed(extra)}", hint=hint)
    for fact in facts:
        if str(fact.kind) != "table":
            grader.fail(f"{described}: the Fact for {fact.subject} has kind {fact.kind!r}.",
                        expected="'table'", got=repr(fact.kind), hint="use kind='table' for table facts.")
    # "None" first: a body that formats the comment straight in is named for that, whichever table comes first
    for fact in facts:
        if "None" in str(fact.body):
            table = str(fact.subject).split(".", 1)[1]
            grader.fail(f"{described}: the body of {fact.subject} contains 'None'.",
                        expected=repr(table_body(owner, table, wanted[str(fact.subject)])), got=repr(fact.body),
                        hint="a table without a comment must say 'not documented (the table has no comment).', "
                             "never format None into the text.")
    for fact in facts:
        table = str(fact.subject).split(".", 1)[1]
        body = table_body(owner, table, wanted[str(fact.subject)])
        if fact.body != body and fact.body == table_body(owner, table, None):
            grader.fail(f"{described}: the body of {fact.subject} says the table has no comment, but "
                        f"ALL_TAB_COMMENTS has one for {fact.subject}.", expected=repr(body), got=_short(fact.body),
                        hint="LEFT JOIN ALL_TAB_COMMENTS c ON c.owner = t.owner AND c.table_name = t.table_name: "
                             "USER_TAB_COMMENTS holds only the connected user's tables, not the owner's.")
        if fact.body != body:
            grader.fail(f"{described}: the body of {fact.subject} is not in the required format.",
                        expected=repr(body), got=_short(fact.body),
                        hint="body = f'Table {owner}.{table}. Documented purpose: {comment}' (comment stripped), "
                             "or the 'not documented' sentence when there is no comment.")

    sql_texts = [sql for sql, _, _ in log.statements]
    if not sql_texts:
        grader.fail(f"{described} ran no SQL through its conn argument, yet returned facts: it read them some "
                    "other way (query_df, agent_conn or a connection of its own all query the notebook's own "
                    "connection, not the one it was given)." if facts else f"{described} ran no SQL.",
                    hint="query ALL_TABLES and ALL_TAB_COMMENTS with conn.cursor() on the conn parameter; the check "
                         "passes connections of its own (another schema, a bind check).")
    literal = re.compile(rf"\b{re.escape(owner)}\b", re.IGNORECASE)   # catches 'supplychain' too
    inlined = [sql for sql in sql_texts if literal.search(sql)]
    if inlined:
        grader.fail(f"{described} wrote the owner {owner!r} into the SQL text.", got=_short(inlined[0], 200),
                    hint="use a bind variable: WHERE t.owner = :owner, then cur.execute(sql, owner=owner).")
    bound = any(str(v).upper() == owner.upper()
                for _, params, kwargs in log.statements for v in _bind_values(params, kwargs))
    if not bound:
        grader.fail(f"{described} did not pass the owner as a bind variable.",
                    hint="cur.execute(sql, owner=owner) with WHERE t.owner = :owner in the SQL.")
    order = [str(f.subject).split(".", 1)[1] for f in facts]
    if order != sorted(order):
        grader.fail(f"{described} returned the tables out of order.", expected=_listed(sorted(order)),
                    got=_listed(order), hint="ORDER BY t.table_name (ascending).")
    for fact in facts:
        table = str(fact.subject).split(".", 1)[1]
        wanted_meta = {"owner": owner, "table": table, "source": "catalog_scanner"}
        got_meta = dict(getattr(fact, "metadata", None) or {})
        if got_meta != wanted_meta:
            clash = sorted({"kind", "subject"} & set(got_meta))
            grader.fail(f"{described}: the metadata of {fact.subject} is not as specified"
                        + (f" ({' and '.join(clash)} in it would replace the fact's own {' and '.join(clash)}: "
                           "the memory's metadata is the fact's kind and subject plus this dict)." if clash else
                           "."), expected=repr(wanted_meta), got=_short(got_meta, 150),
                        hint='exactly metadata={"owner": owner, "table": table, "source": "catalog_scanner"}.')
    return sql_texts
