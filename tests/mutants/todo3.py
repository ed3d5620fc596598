"""TODO 3 — ``hybrid_rrf_search_memories(query, k=5, per_list=30, rrf_k=60) -> list[dict]``.

The solution and wrong variants. Module globals injected by the test (as in
the notebook): ``agent_conn``, ``MEMORY_TABLE``, ``ONNX_EMBED_MODEL``,
``text_query``, ``USER_ID``, ``AGENT_ID`` (and ``memory_client``,
``keyword_search_memories`` for the two-round-trip variants).
"""

# ruff: noqa: F821  (notebook globals are injected by the test)

CHUNKS = "eda_onnx_record_chunks"
NO_TERMS = "{zzzqqxnoterms}"

SCOPE = """m.user_id = :user_id AND m.agent_id = :agent_id
    AND NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'"""


def _sql(*, vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, "
                     "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)), c.source_id)",
         vec_group="GROUP BY c.source_id", vec_id="c.source_id",
         txt_rank="ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, m.record_id)",
         vec_scope=SCOPE, txt_scope=SCOPE, vec_fetch=":per_list", txt_fetch=":per_list",
         sentinel="999999", join="FULL OUTER JOIN", rrf="1 / (:rrf_k + f.r_vec) + 1 / (:rrf_k + f.r_txt)",
         order="rrf_score DESC, f.record_id", content="DBMS_LOB.SUBSTR(m.content, 500, 1)",
         vec_order="ORDER BY r_vec", txt_order="ORDER BY r_txt", embed_once=True,
         vec_valid="c.status = 'valid' AND m.status = 'valid'", txt_valid="m.status = 'valid'"):
    """The solution's statement, with one piece swapped by a mutant.

    ``embed_once`` (the instructions): the question is embedded once in a CTE ``q`` and
    the vector leg reads ``q.v``; ``embed_once=False`` is the inline form, also correct.
    """
    inline = "VECTOR_EMBEDDING({model} USING :q AS DATA)"
    head, cross = "WITH ", ""
    if embed_once and inline in vec_rank:
        vec_rank = vec_rank.replace(inline, "q.v")
        head = "WITH q AS (\n  SELECT " + inline.format(model=ONNX_EMBED_MODEL) + " AS v FROM dual\n),\n"
        cross = " CROSS JOIN q"
    return f"""{head}vec AS (
  SELECT {vec_id} AS record_id, {vec_rank.format(model=ONNX_EMBED_MODEL)} AS r_vec
  FROM {CHUNKS} c{cross} JOIN {MEMORY_TABLE} m ON m.record_id = c.source_id
  WHERE c.source_record_type = 'memory' AND {vec_valid}
    AND {vec_scope}
  {vec_group}
  {vec_order}
  FETCH FIRST {vec_fetch} ROWS ONLY
),
txt AS (
  SELECT m.record_id, {txt_rank} AS r_txt
  FROM {MEMORY_TABLE} m
  WHERE CONTAINS(m.content, :kw, 1) > 0 AND {txt_valid}
    AND {txt_scope}
  {txt_order}
  FETCH FIRST {txt_fetch} ROWS ONLY
),
fused AS (
  SELECT NVL(v.record_id, t.record_id) AS record_id,
         NVL(v.r_vec, {sentinel}) AS r_vec, NVL(t.r_txt, {sentinel}) AS r_txt
  FROM vec v {join} txt t ON t.record_id = v.record_id
)
SELECT f.record_id, JSON_VALUE(m.metadata, '$.kind') AS kind, JSON_VALUE(m.metadata, '$.subject') AS subject,
       {content} AS content, f.r_vec, f.r_txt, {rrf} AS rrf_score
FROM fused f JOIN {MEMORY_TABLE} m ON m.record_id = f.record_id
{"ORDER BY " + order if order else ""}
FETCH FIRST :k ROWS ONLY"""


def _run(sql, query, k, per_list, rrf_k, *, kw=None, binds=None, convert=True):
    values = {"q": query, "kw": kw or text_query(query) or NO_TERMS, "user_id": USER_ID, "agent_id": AGENT_ID,
              "per_list": per_list, "rrf_k": rrf_k, "k": k}
    values = {name: value for name, value in values.items() if f":{name}" in sql}
    values.update(binds or {})
    with agent_conn.cursor() as cur:
        cur.execute(sql, values)
        names = [d[0].lower() for d in cur.description]
        rows = [dict(zip(names, row)) for row in cur.fetchall()]
    if convert:
        for row in rows:
            row["r_vec"], row["r_txt"], row["rrf_score"] = int(row["r_vec"]), int(row["r_txt"]), float(row["rrf_score"])
    return rows


def solution(query, k=5, per_list=30, rrf_k=60):
    """Correct: one statement, both legs scoped and without tool output, RRF with the given parameters."""
    return _run(_sql(), query, k, per_list, rrf_k)


def solution_embedding_inline(query, k=5, per_list=30, rrf_k=60):
    """Also correct: VECTOR_EMBEDDING written inside the aggregate (the check accepts both forms)."""
    return _run(_sql(embed_once=False), query, k, per_list, rrf_k)


def mutant_zero_based_ranks(query, k=5, per_list=30, rrf_k=60):
    """ROW_NUMBER() - 1 in both legs: ranks start at 0."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)), c.source_id) - 1",
               txt_rank="ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, m.record_id) - 1")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_wrong_sentinel(query, k=5, per_list=30, rrf_k=60):
    """NVL(r, 1000): a missing leg still counts as a middling rank."""
    return _run(_sql(sentinel="1000"), query, k, per_list, rrf_k)


def mutant_distance_instead_of_rank(query, k=5, per_list=30, rrf_k=60):
    """Uses the raw distance and SCORE as 'ranks' (no ROW_NUMBER); rows are not converted to int."""
    sql = _sql(vec_rank="MIN(VECTOR_DISTANCE(c.embedding, VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE))",
               txt_rank="SCORE(1)")
    return _run(sql, query, k, per_list, rrf_k, convert=False)


def mutant_ascending_sort(query, k=5, per_list=30, rrf_k=60):
    """ORDER BY rrf_score ASC: the worst fused matches first."""
    return _run(_sql(order="rrf_score ASC, f.record_id"), query, k, per_list, rrf_k)


def mutant_text_leg_unscoped(query, k=5, per_list=30, rrf_k=60):
    """The keyword leg forgets the user/agent scope (still drops tool output)."""
    sql = _sql(txt_scope="NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_vector_leg_unscoped(query, k=5, per_list=30, rrf_k=60):
    """The vector leg forgets the user/agent scope."""
    sql = _sql(vec_scope="NVL(JSON_VALUE(m.metadata, '$.kind'), 'none') <> 'tool_output'")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_drafts_in_text_leg(query, k=5, per_list=30, rrf_k=60):
    """The keyword leg forgets status = 'valid': drafts and discarded corrections come back."""
    return _run(_sql(txt_valid="1 = 1"), query, k, per_list, rrf_k)


def mutant_drafts_in_vector_leg(query, k=5, per_list=30, rrf_k=60):
    """The vector leg forgets status = 'valid' on the chunks and the memories."""
    return _run(_sql(vec_valid="1 = 1"), query, k, per_list, rrf_k)


def mutant_tool_output_in_text_leg(query, k=5, per_list=30, rrf_k=60):
    """The keyword leg keeps tool_output memories."""
    return _run(_sql(txt_scope="m.user_id = :user_id AND m.agent_id = :agent_id"), query, k, per_list, rrf_k)


def mutant_unescaped_keywords(query, k=5, per_list=30, rrf_k=60):
    """Binds the raw question as the CONTAINS query (a phrase / operator query, not escaped terms)."""
    return _run(_sql(), query, k, per_list, rrf_k, kw=query)


def mutant_hardcoded_rows(query, k=5, per_list=30, rrf_k=60):
    """Returns the rows the TEU probe gives with the default parameters, whatever is asked."""
    return _run(_sql(), "TEU 20-foot equivalent capacity unit for vessels", 5, 30, 60)


def mutant_two_round_trips(query, k=5, per_list=30, rrf_k=60):
    """Runs the vector leg and the keyword leg as two statements and fuses them in Python."""
    vec_sql = f"""SELECT c.source_id, ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding,
        VECTOR_EMBEDDING({ONNX_EMBED_MODEL} USING :q AS DATA), COSINE)), c.source_id) AS r
      FROM {CHUNKS} c JOIN {MEMORY_TABLE} m ON m.record_id = c.source_id
      WHERE c.source_record_type = 'memory' AND c.status = 'valid' AND m.status = 'valid' AND {SCOPE}
      GROUP BY c.source_id ORDER BY r FETCH FIRST :per_list ROWS ONLY"""
    txt_sql = f"""SELECT m.record_id, ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, m.record_id) AS r
      FROM {MEMORY_TABLE} m WHERE CONTAINS(m.content, :kw, 1) > 0 AND m.status = 'valid' AND {SCOPE}
      ORDER BY r FETCH FIRST :per_list ROWS ONLY"""
    with agent_conn.cursor() as cur:
        cur.execute(vec_sql, q=query, user_id=USER_ID, agent_id=AGENT_ID, per_list=per_list)
        vec = dict(cur.fetchall())
        cur.execute(txt_sql, kw=text_query(query) or NO_TERMS, user_id=USER_ID, agent_id=AGENT_ID,
                    per_list=per_list)
        txt = dict(cur.fetchall())
        rows = []
        for rid in set(vec) | set(txt):
            cur.execute(f"SELECT JSON_VALUE(metadata, '$.kind'), JSON_VALUE(metadata, '$.subject'), "
                        f"DBMS_LOB.SUBSTR(content, 500, 1) FROM {MEMORY_TABLE} WHERE record_id = :rid", rid=rid)
            kind, subject, content = cur.fetchone()
            r_vec, r_txt = int(vec.get(rid, 999999)), int(txt.get(rid, 999999))
            rows.append({"record_id": rid, "kind": kind, "subject": subject, "content": content, "r_vec": r_vec,
                         "r_txt": r_txt, "rrf_score": 1 / (rrf_k + r_vec) + 1 / (rrf_k + r_txt)})
    rows.sort(key=lambda r: (-r["rrf_score"], r["record_id"]))
    return rows[:k]


def mutant_keyword_helper_round_trip(query, k=5, per_list=30, rrf_k=60):
    """Fetches the keyword leg with keyword_search_memories and only the vector leg in SQL."""
    hits = keyword_search_memories(query, k=per_list)
    txt = {h["record_id"]: i + 1 for i, h in enumerate(hits)}
    rows = _run(_sql(txt_scope="1 = 0 AND " + SCOPE), query, max(k, 2 * per_list), per_list, rrf_k)
    for row in rows:
        row["r_txt"] = txt.get(row["record_id"], 999999)
        row["rrf_score"] = 1 / (rrf_k + row["r_vec"]) + 1 / (rrf_k + row["r_txt"])
    rows.sort(key=lambda r: -r["rrf_score"])
    return rows[:k]


def mutant_ignores_per_list(query, k=5, per_list=30, rrf_k=60):
    """Each leg keeps a fixed 30 rows whatever per_list says."""
    return _run(_sql(vec_fetch="30", txt_fetch="30"), query, k, per_list, rrf_k)


def mutant_ignores_rrf_k(query, k=5, per_list=30, rrf_k=60):
    """The RRF constant is fixed at 60."""
    return _run(_sql(rrf="1 / (60 + f.r_vec) + 1 / (60 + f.r_txt)"), query, k, per_list, rrf_k)


def mutant_row_per_chunk(query, k=5, per_list=30, rrf_k=60):
    """Ranks chunks instead of memories: a memory with two chunks comes back twice."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE), c.chunk_id)",
               vec_group="")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_inner_join(query, k=5, per_list=30, rrf_k=60):
    """INNER JOIN of the legs: memories found by only one leg are lost."""
    return _run(_sql(join="JOIN"), query, k, per_list, rrf_k)


def mutant_keyword_rank_ascending(query, k=5, per_list=30, rrf_k=60):
    """Ranks the keyword leg by SCORE ascending (the weakest match gets rank 1)."""
    return _run(_sql(txt_rank="ROW_NUMBER() OVER (ORDER BY SCORE(1), m.record_id)"), query, k, per_list, rrf_k)


def mutant_full_content(query, k=5, per_list=30, rrf_k=60):
    """Selects the whole memory text instead of its first 500 characters."""
    return _run(_sql(content="m.content"), query, k, per_list, rrf_k)


def mutant_leg_fetch_without_order(query, k=5, per_list=30, rrf_k=60):
    """Cuts each leg with FETCH FIRST but without ORDER BY: lite's row order hides it, Oracle's does not."""
    return _run(_sql(vec_order="", txt_order=""), query, k, per_list, rrf_k)


def mutant_no_final_tiebreak(query, k=5, per_list=30, rrf_k=60):
    """Sorts by rrf_score only: rows tied on the score come out in any order."""
    return _run(_sql(order="rrf_score DESC"), query, k, per_list, rrf_k)


def mutant_leg_ties_arbitrary(query, k=5, per_list=30, rrf_k=60):
    """Ranks within each leg without an id tie-breaker."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)))",
               txt_rank="ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC)")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_per_list_in_fstring(query, k=5, per_list=30, rrf_k=60):
    """Pastes per_list into the SQL text instead of binding it."""
    return _run(_sql(vec_fetch=str(per_list), txt_fetch=str(per_list)), query, k, per_list, rrf_k)


def mutant_rrf_k_in_fstring(query, k=5, per_list=30, rrf_k=60):
    """Pastes rrf_k into the SQL text instead of binding it."""
    return _run(_sql(rrf=f"1 / ({rrf_k} + f.r_vec) + 1 / ({rrf_k} + f.r_txt)"), query, k, per_list, rrf_k)


def mutant_no_final_order_by(query, k=5, per_list=30, rrf_k=60):
    """Leaves out the final ORDER BY: the fused rows come back in whatever order the join produced."""
    return _run(_sql(order=""), query, k, per_list, rrf_k)


def mutant_ids_in_fstring(query, k=5, per_list=30, rrf_k=60):
    """Writes the user and agent ids into the SQL with an f-string instead of binding them."""
    scope = SCOPE.replace(":user_id", f"'{USER_ID}'").replace(":agent_id", f"'{AGENT_ID}'")
    return _run(_sql(vec_scope=scope, txt_scope=scope), query, k, per_list, rrf_k)


def mutant_keywords_in_fstring(query, k=5, per_list=30, rrf_k=60):
    """Writes the keyword query into CONTAINS with an f-string (a question with a quote breaks it)."""
    kw = text_query(query) or NO_TERMS
    return _run(_sql().replace("CONTAINS(m.content, :kw, 1)", f"CONTAINS(m.content, '{kw}', 1)"),
                query, k, per_list, rrf_k)


def mutant_no_keyword_fallback(query, k=5, per_list=30, rrf_k=60):
    """Binds text_query(query) as it is: None for a question without a searchable word."""
    sql = _sql()
    values = {"q": query, "kw": text_query(query), "user_id": USER_ID, "agent_id": AGENT_ID,
              "per_list": per_list, "rrf_k": rrf_k, "k": k}
    with agent_conn.cursor() as cur:
        cur.execute(sql, values)
        names = [d[0].lower() for d in cur.description]
        rows = [dict(zip(names, row)) for row in cur.fetchall()]
    for row in rows:
        row["r_vec"], row["r_txt"], row["rrf_score"] = int(row["r_vec"]), int(row["r_txt"]), float(row["rrf_score"])
    return rows


def mutant_kind_filter_without_nvl(query, k=5, per_list=30, rrf_k=60):
    """Filters tool output with JSON_VALUE(...) <> 'tool_output' alone: a memory without a kind (NULL) vanishes."""
    scope = SCOPE.replace("NVL(JSON_VALUE(m.metadata, '$.kind'), 'none')", "JSON_VALUE(m.metadata, '$.kind')")
    return _run(_sql(vec_scope=scope, txt_scope=scope), query, k, per_list, rrf_k)


def mutant_average_chunk_distance(query, k=5, per_list=30, rrf_k=60):
    """Ranks a memory by the average distance of its chunks, not by its best chunk."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY AVG(VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)), c.source_id)")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_descending_tiebreak(query, k=5, per_list=30, rrf_k=60):
    """Breaks ties by record id descending in both legs and the fusion: ties come out in the wrong order."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)), c.source_id DESC)",
               txt_rank="ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, m.record_id DESC)",
               order="rrf_score DESC, f.record_id DESC")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_largest_chunk_distance(query, k=5, per_list=30, rrf_k=60):
    """Ranks a memory by its farthest chunk (MAX), not by its closest."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MAX(VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)), c.source_id)")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_keyword_tiebreak_descending(query, k=5, per_list=30, rrf_k=60):
    """Breaks keyword-leg ties by record id descending (the fused order is right)."""
    return _run(_sql(txt_rank="ROW_NUMBER() OVER (ORDER BY SCORE(1) DESC, m.record_id DESC)"), query, k, per_list,
                rrf_k)


def mutant_vector_tiebreak_descending(query, k=5, per_list=30, rrf_k=60):
    """Breaks vector-leg ties by record id descending (the fused order is right)."""
    sql = _sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, "
                        "VECTOR_EMBEDDING({model} USING :q AS DATA), COSINE)), c.source_id DESC)")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_default_per_list_changed(query, k=5, per_list=20, rrf_k=60):
    """Changes the signature's default per_list from 30 to 20."""
    return solution(query, k, per_list, rrf_k)


def solution_positional_order_by(query, k=5, per_list=30, rrf_k=60):
    """Also correct: the final ORDER BY by position (7 is rrf_score, 1 is record_id)."""
    return _run(_sql(order="7 DESC, 1"), query, k, per_list, rrf_k)


def solution_rownum_top_n(query, k=5, per_list=30, rrf_k=60):
    """Also correct on Oracle: the classic top-N, SELECT * FROM (... ORDER BY ...) WHERE ROWNUM <= :k."""
    head, _, tail = _sql().rpartition("SELECT f.record_id")
    inner = "SELECT f.record_id" + tail.replace("FETCH FIRST :k ROWS ONLY", "")
    return _run(f"{head}SELECT * FROM ({inner}) WHERE ROWNUM <= :k", query, k, per_list, rrf_k)


def mutant_content_from_offset_zero(query, k=5, per_list=30, rrf_k=60):
    """DBMS_LOB.SUBSTR(m.content, 500, 0): an offset below 1 is NULL on Oracle (SUBSTR would start at 1)."""
    return _run(_sql(content="DBMS_LOB.SUBSTR(m.content, 500, 0)"), query, k, per_list, rrf_k)


def mutant_ordered_by_the_sum_of_ranks(query, k=5, per_list=30, rrf_k=60):
    """Orders the fused rows by r_vec + r_txt instead of rrf_score."""
    return _run(_sql(order="f.r_vec + f.r_txt, f.record_id"), query, k, per_list, rrf_k)


def mutant_fused_id_from_the_vector_leg(query, k=5, per_list=30, rrf_k=60):
    """Takes the fused id from the vector leg alone: a memory only the keyword leg found has none."""
    sql = _sql().replace("NVL(v.record_id, t.record_id) AS record_id", "v.record_id AS record_id")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_fetch_k_in_the_fusion(query, k=5, per_list=30, rrf_k=60):
    """Keeps :k rows in the fused CTE, before they are ordered by rrf_score."""
    sql = _sql().replace("ON t.record_id = v.record_id\n)",
                         "ON t.record_id = v.record_id\n  FETCH FIRST :k ROWS ONLY\n)")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_vector_leg_one_short(query, k=5, per_list=30, rrf_k=60):
    """Keeps the vector ranks below per_list (r_vec < :per_list): the memory ranked per_list is dropped."""
    sql = _sql().replace("FROM vec v FULL OUTER JOIN",
                         "FROM (SELECT * FROM vec WHERE r_vec < :per_list) v FULL OUTER JOIN")
    return _run(sql, query, k, per_list, rrf_k)


def mutant_euclidean_distance(query, k=5, per_list=30, rrf_k=60):
    """VECTOR_DISTANCE(..., EUCLIDEAN): ranks as COSINE on unit vectors; the instructions and the index say COSINE."""
    return _run(_sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(VECTOR_DISTANCE(c.embedding, "
                              "VECTOR_EMBEDDING({model} USING :q AS DATA), EUCLIDEAN)), c.source_id)"),
                query, k, per_list, rrf_k)


def mutant_dot_distance_operator(query, k=5, per_list=30, rrf_k=60):
    """Oracle 23ai's ``<#>`` operator: the negative dot product, not the cosine distance."""
    return _run(_sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(c.embedding <#> "
                              "VECTOR_EMBEDDING({model} USING :q AS DATA)), c.source_id)"),
                query, k, per_list, rrf_k)


def solution_cosine_shorthand(query, k=5, per_list=30, rrf_k=60):
    """Also correct: COSINE_DISTANCE(a, b), Oracle 23ai's shorthand for VECTOR_DISTANCE(a, b, COSINE)."""
    return _run(_sql(vec_rank="ROW_NUMBER() OVER (ORDER BY MIN(COSINE_DISTANCE(c.embedding, "
                              "VECTOR_EMBEDDING({model} USING :q AS DATA))), c.source_id)"),
                query, k, per_list, rrf_k)


def mutant_status_in_upper_case(query, k=5, per_list=30, rrf_k=60):
    """m.status = 'VALID' in the keyword leg: OAMP writes 'valid', so the leg finds nothing."""
    return _run(_sql(txt_valid="m.status = 'VALID'"), query, k, per_list, rrf_k)


def mutant_union_of_the_legs_without_group_by(query, k=5, per_list=30, rrf_k=60):
    """Fuses the legs with UNION ALL (999999 in the other rank) but forgets GROUP BY record_id."""
    sql = _sql().replace("""SELECT NVL(v.record_id, t.record_id) AS record_id,
         NVL(v.r_vec, 999999) AS r_vec, NVL(t.r_txt, 999999) AS r_txt
  FROM vec v FULL OUTER JOIN txt t ON t.record_id = v.record_id""",
                         """SELECT record_id, r_vec, 999999 AS r_txt FROM vec
  UNION ALL
  SELECT record_id, 999999 AS r_vec, r_txt FROM txt""")
    assert "UNION ALL" in sql
    return _run(sql, query, k, per_list, rrf_k)
