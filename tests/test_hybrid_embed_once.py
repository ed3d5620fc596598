"""TODO 3's hybrid statement embeds the question once (a CTE over dual), and the check accepts both forms.

Inside ``MIN(VECTOR_DISTANCE(c.embedding, VECTOR_EMBEDDING(... USING :q ...)))``
Oracle may evaluate the embedding once per chunk row; the reference, the
instructions and the solution compute it once in ``WITH q AS (SELECT
VECTOR_EMBEDDING(...) AS v FROM dual)``. The inline form gives the same rows
and still passes the check. Lite runs both here; the ``oracle`` integration
test compares them on Oracle.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from mutants import notebook_namespace, todo3

import workshop_lib
from workshop_lib import checks, config, reference
from workshop_lib.oracle_text import text_query

REPO = Path(__file__).resolve().parent.parent
QUESTIONS = ["TEU 20-foot equivalent capacity unit for vessels", "Where is the vessel carrying UN3480 batteries?",
             "port congestion runbook", "deadweight tonnes"]


@pytest.fixture(scope="module")
def ws(home_copy) -> Any:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKSHOP_HOME", str(home_copy("scan", "embed_once")))
        mp.setenv("WORKSHOP_BACKEND", "lite")
        mp.delenv(checks.TIMEOUT_ENV, raising=False)
        workshop = workshop_lib.start(upto="scan")
        vars(todo3).update(notebook_namespace(workshop))
        yield workshop
        workshop.close()


def inline_form(sql: str) -> str:
    """The same statement with VECTOR_EMBEDDING written inside the aggregate (the older form)."""
    embed = f"VECTOR_EMBEDDING({config.EMBED_MODEL} USING :q AS DATA)"
    out = re.sub(r"WITH q AS \(\s*SELECT VECTOR_EMBEDDING\([^)]*\) AS v FROM dual\s*\),\s*", "WITH ", sql)
    return out.replace("q.v", embed).replace("\n  CROSS JOIN q", "")


def test_the_reference_embeds_the_question_once() -> None:
    sql = reference.HYBRID_SQL
    assert sql.count("VECTOR_EMBEDDING(") == 1
    assert re.match(rf"WITH q AS \(\s*SELECT VECTOR_EMBEDDING\({config.EMBED_MODEL} USING :q AS DATA\) AS v "
                    r"FROM dual\s*\)", sql)
    assert "MIN(VECTOR_DISTANCE(c.embedding, q.v, COSINE))" in sql and "CROSS JOIN q" in sql
    assert inline_form(sql).count("VECTOR_EMBEDDING(") == 1 and "q.v" not in inline_form(sql)


@pytest.mark.parametrize("question", QUESTIONS)
def test_both_forms_return_the_same_rows(ws: Any, question: str) -> None:
    binds = {"q": question, "kw": text_query(question) or reference.NO_TERMS_QUERY, "user_id": config.USER_ID,
             "agent_id": config.AGENT_ID, "per_list": 30, "rrf_k": 60, "k": 10}
    results = []
    for sql in (reference.HYBRID_SQL, inline_form(reference.HYBRID_SQL)):
        with ws.conn.cursor() as cur:
            cur.execute(sql, binds)
            results.append(cur.fetchall())
    assert results[0] and results[0] == results[1]


def test_the_check_accepts_both_forms(ws: Any) -> None:
    checks.todo3(todo3.solution)                    # the instructions' form: embedded once
    checks.todo3(todo3.solution_embedding_inline)   # VECTOR_EMBEDDING inside the aggregate


def test_the_solution_and_the_instructions_embed_once() -> None:
    nb = json.loads((REPO / "solutions" / "03_retrieval" / "03_retrieval.ipynb").read_text(encoding="utf-8"))
    source = {c["id"]: "".join(c["source"]) for c in nb["cells"]}
    todo = next(s for s in source.values() if s.startswith("# TODO 3"))
    assert "WITH q AS (" in todo and "MIN(VECTOR_DISTANCE(c.embedding, q.v, COSINE))" in todo
    assert todo.count("VECTOR_EMBEDDING(") == 1
    assert any("embedded **once**" in s for s in source.values())
    student = (REPO / "notebooks" / "03_retrieval" / "03_retrieval.ipynb").read_text(encoding="utf-8")
    assert "embedded **once**" in student and "FETCH APPROX FIRST 5 ROWS ONLY" in student
