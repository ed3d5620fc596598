"""The memory lifecycle on OAMP (lite store): every allowed and refused move, and retrieval never sees drafts."""

from __future__ import annotations

import itertools

import pytest

from workshop_lib.memory.lifecycle import (ALLOWED_TRANSITIONS, LifecycleError, Status, lifecycle_rows,
                                           propose_memory, read_lifecycle, review_queue)
from workshop_lib.reference import hybrid_rrf_search_memories, retrieve_knowledge, set_memory_status

SUBJECT = "CARGO_ITEMS.UNIT_VALUE_CENTS"
TEXT = "Zorblatt correction: CARGO_ITEMS.UNIT_VALUE_CENTS holds US cents; divide by 100 for dollars."


@pytest.fixture(scope="module")
def ws(memory_ws):
    return memory_ws


def _draft(ws, text=TEXT, **links):
    return propose_memory(ws.memory_client, text, user_id=ws.user_id, agent_id=ws.agent_id, subject=SUBJECT,
                          **links)


def _to(ws, memory_id, status):
    """Bring a fresh draft to ``status`` by allowed moves."""
    if status is Status.ACCEPTED:
        set_memory_status(memory_id, "accepted")
    elif status is Status.DISCARD:
        set_memory_status(memory_id, "discard")


def _visible(ws, memory_id):
    in_search = any(r.id == memory_id for r in ws.memory_client.search(
        "Zorblatt correction unit value cents", user_id=ws.user_id, agent_id=ws.agent_id, max_results=50))
    in_rk = any(h["metadata"].get("memory_id") == memory_id
                for h in retrieve_knowledge("Zorblatt correction unit value cents", k=10))
    in_hybrid = any(memory_id in map(str, h.values())
                    for h in hybrid_rrf_search_memories("Zorblatt correction", k=10))
    return in_search, in_rk, in_hybrid


@pytest.mark.parametrize("start,target", list(itertools.product(Status, Status)),
                         ids=lambda s: s.value)
def test_every_move_is_allowed_or_refused_as_the_table_says(ws, start, target):
    memory_id = _draft(ws)
    _to(ws, memory_id, start)
    before = read_lifecycle(ws.conn, memory_id)
    if target in ALLOWED_TRANSITIONS[start]:
        after = set_memory_status(memory_id, target.value)
        assert after.status is target
        assert after.oamp_status == ("valid" if target is Status.ACCEPTED else "invalid")
        assert after.updated_at > before.updated_at
        assert {k: v for k, v in after.metadata.items() if k not in ("lifecycle", "updated_at")} == \
            {k: v for k, v in before.metadata.items() if k not in ("lifecycle", "updated_at")}
    else:
        with pytest.raises(LifecycleError, match=f"from {start.value} to {target.value}"):
            set_memory_status(memory_id, target.value)
        assert read_lifecycle(ws.conn, memory_id) == before


def test_only_accepted_memories_are_retrieved(ws):
    draft, accepted, discarded = _draft(ws), _draft(ws), _draft(ws)
    set_memory_status(accepted, "accepted")
    set_memory_status(discarded, "discard")
    assert _visible(ws, draft) == (False, False, False)
    assert _visible(ws, discarded) == (False, False, False)
    assert _visible(ws, accepted)[:2] == (True, True)
    assert draft in {s.memory_id for s in review_queue(ws.conn, ws.user_id, ws.agent_id)}
    assert accepted not in {s.memory_id for s in review_queue(ws.conn, ws.user_id, ws.agent_id)}


def test_unknown_status_and_unknown_memory_are_refused_clearly(ws):
    memory_id = _draft(ws)
    with pytest.raises(LifecycleError, match="'approved' is not a memory status"):
        set_memory_status(memory_id, "approved")
    with pytest.raises(LifecycleError, match="no memory with id 'nope'"):
        set_memory_status("nope", "accepted")
    assert read_lifecycle(ws.conn, memory_id).status is Status.DRAFT


def test_a_correction_records_what_it_contradicts_as_an_oamp_link(ws):
    wrong = _draft(ws, "CARGO_ITEMS.UNIT_VALUE_CENTS is in US dollars.")
    right = _draft(ws, contradicts=wrong)
    links_sql = ("SELECT target_record_id, relation_type, opposite_relation_type FROM eda_onnx_record_relations "
                 "WHERE source_record_id = :s")
    with ws.conn.cursor() as cur:
        cur.execute(links_sql, s=right)
        assert cur.fetchall() == [(wrong, "contradicts", "contradicts")]
    assert read_lifecycle(ws.conn, right).metadata["contradicts"] == wrong
    ws.memory_client.delete_memory(wrong)   # deleting an endpoint removes the link with it
    with ws.conn.cursor() as cur:
        cur.execute(links_sql, s=right)
        assert cur.fetchall() == []


def test_proposals_must_say_something_and_link_at_most_one_memory(ws):
    with pytest.raises(LifecycleError, match="non-empty"):
        _draft(ws, "   ")
    with pytest.raises(LifecycleError, match="not both"):
        _draft(ws, contradicts="a", supersedes="b")


def test_a_fixed_scan_removes_the_facts_a_wrong_scan_left_behind(ws):
    """Part 2's full scan (and start's catch-up scan) keep exactly the catalog's facts: a wrong first attempt goes."""
    from workshop_lib.notebook import write_facts
    from workshop_lib.scanner import EXTRA_MEMORIES, Fact, reference_scan, scan_columns, scan_tables

    wrong = [Fact("table", table.subject.split(".", 1)[1], table.body, dict(table.metadata))
             for table in scan_tables(ws.conn)]          # subject without the owner: other ids
    correction = _draft(ws)                               # not a scanner fact: must survive
    write_facts(ws.memory_client, wrong, progress=False)
    ids = lambda: {m.id for m in ws.memory_client.list_memories(user_id=ws.user_id, agent_id=ws.agent_id,
                                                                 limit=None)}
    assert {f.memory_id for f in wrong} <= ids()
    reference_scan(ws)                                    # the catch-up scan removes them
    assert not {f.memory_id for f in wrong} & ids() and correction in ids()
    write_facts(ws.memory_client, wrong, progress=False)
    facts = [*scan_tables(ws.conn), *scan_columns(ws.conn), *EXTRA_MEMORIES]
    write_facts(ws.memory_client, facts, progress=False)  # the learner's fixed full scan
    assert not {f.memory_id for f in wrong} & ids() and {f.memory_id for f in facts} <= ids()


def test_the_review_queue_and_the_lifecycle_table_read_their_rows_in_one_statement(ws, monkeypatch):
    """At 10^5 memories, one read per memory took seconds: the database filters, one statement per call."""
    from workshop_lib.lite import LiteCursor

    draft, accepted = _draft(ws), _draft(ws)
    set_memory_status(accepted, "accepted")
    statements: list[str] = []
    real_execute = LiteCursor.execute

    def counting(self, sql, *args, **kwargs):
        statements.append(sql)
        return real_execute(self, sql, *args, **kwargs)

    monkeypatch.setattr(LiteCursor, "execute", counting)
    queue = review_queue(ws.conn, ws.user_id, ws.agent_id)
    assert len(statements) == 1
    assert draft in {s.memory_id for s in queue} and accepted not in {s.memory_id for s in queue}
    assert all(s.status is Status.DRAFT for s in queue)
    statements.clear()
    every = lifecycle_rows(ws.conn, ws.user_id, ws.agent_id, kind=None)
    assert len(statements) == 1
    facts = [s for s in every if "lifecycle" not in s.metadata]   # the scan's facts: written without one
    assert facts and all(s.status is Status.ACCEPTED for s in facts)
    assert {s.memory_id for s in lifecycle_rows(ws.conn, ws.user_id, ws.agent_id, kind=None, status="accepted")} == \
        {s.memory_id for s in every if s.status is Status.ACCEPTED}


def test_restarting_the_demo_deletes_what_propose_correction_filed_and_nothing_else(ws):
    """A re-run of Part 4 starts from drafts: its earlier corrections go with their chunks and links; others stay."""
    from workshop_lib.notebook import propose_correction, restart_correction_demo

    kept = [_draft(ws, "Zorblatt: a reviewer's own draft."),
            *(propose_memory(ws.memory_client, f"Zorblatt: a draft filed by the {source}.", user_id=ws.user_id,
                             agent_id=ws.agent_id, subject=SUBJECT, source=source) for source in ("agent", "session"))]
    wrong = propose_correction("CARGO_ITEMS.UNIT_VALUE_CENTS is in US dollars.", subject=SUBJECT)
    right = propose_correction(TEXT, subject=SUBJECT, contradicts=wrong)
    set_memory_status(right, "accepted")
    set_memory_status(wrong, "discard")
    counts = {"memories": "SELECT COUNT(*) FROM eda_onnx_memory WHERE record_id IN (:a, :b)",
              "chunks": "SELECT COUNT(*) FROM eda_onnx_record_chunks WHERE source_id IN (:a, :b)",
              "links": "SELECT COUNT(*) FROM eda_onnx_record_relations WHERE source_record_id IN (:a, :b) "
                       "OR target_record_id IN (:a, :b)"}

    def count(what):
        with ws.conn.cursor() as cur:
            cur.execute(counts[what], a=wrong, b=right)
            return cur.fetchone()[0]

    assert (count("memories"), count("links")) == (2, 1) and count("chunks") >= 2
    facts = len(lifecycle_rows(ws.conn, ws.user_id, ws.agent_id, kind=None))
    assert restart_correction_demo() == ("Deleted 2 corrections an earlier run of this notebook filed "
                                         "(1 accepted, 1 discard): the demo starts from drafts again.")
    assert (count("memories"), count("chunks"), count("links")) == (0, 0, 0)
    assert len(lifecycle_rows(ws.conn, ws.user_id, ws.agent_id, kind=None)) == facts - 2
    assert [read_lifecycle(ws.conn, memory_id).status for memory_id in kept] == [Status.DRAFT] * 3
    assert restart_correction_demo() == "No corrections from an earlier run of this notebook to delete."


def test_a_failed_set_memory_status_is_undone_before_the_librarys_version_runs(ws, capsys):
    """The demo cells' fallback starts from the memory as it was, not from what a broken function left."""
    from workshop_lib.notebook import yours_or_reference

    def set_memory_status(memory_id, new_status):   # stores the move, drops every other key, returns nothing
        ws.memory_client.update_memory(memory_id, metadata={"lifecycle": new_status}, status="valid")

    memory_id = _draft(ws)
    before = read_lifecycle(ws.conn, memory_id)
    after = yours_or_reference(set_memory_status, memory_id, "accepted")
    out = capsys.readouterr().out
    assert "returned something this cell cannot use" in out
    assert f"your set_memory_status changed memory {memory_id} but did not give a usable result; the change " \
           "was undone (it is draft again)." in out
    assert after.status is Status.ACCEPTED and after.oamp_status == "valid"
    assert {k: v for k, v in after.metadata.items() if k not in ("lifecycle", "updated_at")} == \
        {k: v for k, v in before.metadata.items() if k not in ("lifecycle", "updated_at")}, "kind and subject kept"
    assert read_lifecycle(ws.conn, memory_id) == after


def test_a_refused_move_that_wrote_first_is_undone_and_still_refused(ws, capsys):
    from workshop_lib.notebook import yours_or_reference

    def set_memory_status(memory_id, new_status):   # writes, then refuses
        ws.memory_client.update_memory(memory_id, metadata={"lifecycle": "accepted"}, status="valid")
        raise LifecycleError("cannot move from discard to accepted")

    memory_id = _draft(ws)
    _to(ws, memory_id, Status.DISCARD)
    before = read_lifecycle(ws.conn, memory_id)
    with pytest.raises(LifecycleError, match="from discard to accepted"):
        yours_or_reference(set_memory_status, memory_id, "accepted")
    assert "the change was undone (it is discard again)" in capsys.readouterr().out
    assert read_lifecycle(ws.conn, memory_id) == before


def test_a_correct_set_memory_status_is_used_as_it_is(ws, capsys):
    from workshop_lib.notebook import yours_or_reference
    from workshop_lib.reference import set_memory_status

    memory_id = _draft(ws)
    assert yours_or_reference(set_memory_status, memory_id, "accepted").status is Status.ACCEPTED
    assert capsys.readouterr().out == ""


def test_the_review_widget_says_what_the_store_holds_after_each_click(ws, capsys):
    """Accept / Discard call the learner's function; the line printed is the stored status, never only a claim."""
    from workshop_lib.memory.review import review_widget
    from workshop_lib.reference import set_memory_status

    def stores_but_returns_nothing(memory_id, new_status):
        set_memory_status(memory_id, new_status)

    def stores_then_raises(memory_id, new_status):
        set_memory_status(memory_id, new_status)
        raise RuntimeError("oops")

    def stores_nothing(memory_id, new_status):
        return read_lifecycle(ws.conn, memory_id)

    def click(transition, button):
        """Click Accept (0) or Discard (1) of a new draft in a widget over ``transition``; its id and buttons."""
        memory_id = _draft(ws)
        rows = {row.children[2].value.split("</b>")[0].removeprefix("<b>"): row.children[:2]
                for row in review_widget(ws.conn, ws.user_id, ws.agent_id, transition).children[:-1]}
        rows[memory_id[:8]][button].click()
        return memory_id[:8], rows[memory_id[:8]]

    short, buttons = click(set_memory_status, 0)
    assert capsys.readouterr().out == f"{short}: now accepted\n"
    assert all(b.disabled for b in buttons)
    short, buttons = click(set_memory_status, 1)
    assert capsys.readouterr().out == f"{short}: now discard\n"
    short, buttons = click(stores_but_returns_nothing, 0)
    assert capsys.readouterr().out == f"{short}: now accepted; your function returned 'None'\n"
    short, buttons = click(stores_then_raises, 1)
    assert capsys.readouterr().out == f"{short}: RuntimeError: oops (it stored discard first)\n"
    short, buttons = click(stores_nothing, 0)
    assert capsys.readouterr().out == f"{short}: now draft\n"
    assert not any(b.disabled for b in buttons), "nothing was stored: the learner may try again"
