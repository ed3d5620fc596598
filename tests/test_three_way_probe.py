"""Part 3's three-way probe keeps teaching what it says: each leg finds what the other misses, hybrid keeps both.

The question is read from the solution notebook, so a change to the question,
to the scanner's memories or to the retrievers that flattens the lesson (the
three lists the same, or hybrid dropping one leg's find) fails here instead of
silently on a learner's screen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import workshop_lib
from workshop_lib.oracle_text import STOPWORDS, tokenize
from workshop_lib.reference import SENTINEL_RANK, hybrid_rrf_search_memories, retrieve_knowledge
from workshop_lib.retrieval import keyword_search_memories

NOTEBOOK = Path(__file__).resolve().parents[1] / "solutions" / "03_retrieval" / "03_retrieval.ipynb"


def _question() -> str:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    section = next(i for i, c in enumerate(cells) if "".join(c["source"]).startswith("## 7. The three-way probe"))
    match = re.search(r'^question = "([^"]+)"', "".join(cells[section + 1]["source"]), re.M)
    assert match, "section 7's code cell no longer starts with question = \"...\""
    return match.group(1)


@pytest.fixture(scope="module")
def legs(home_copy):
    mp = pytest.MonkeyPatch()
    mp.setenv("WORKSHOP_HOME", str(home_copy("scan", "probe-home")))
    mp.setenv("WORKSHOP_BACKEND", "lite")
    ws = workshop_lib.start(upto="scan")
    question = _question()
    try:
        yield (question, retrieve_knowledge(question, k=5), keyword_search_memories(question, k=5),
               hybrid_rrf_search_memories(question, k=5))
    finally:
        ws.close()
        mp.undo()


def _key(hit: dict) -> tuple[str, str]:
    return hit["kind"], hit["subject"]


def _words(text: str) -> set[str]:
    return {t for t in tokenize(text) if t not in STOPWORDS}


def test_the_keyword_leg_finds_the_exact_code_that_the_vector_leg_ranks_low(legs) -> None:
    question, vector, keyword, hybrid = legs
    code = re.search(r"\b[A-Z]{2,3}-?\d{4,6}\b", question)
    assert code, f"the probe question should carry an exact code: {question!r}"
    assert keyword and code.group(0) in keyword[0]["content"], "keyword #1 should be the memory naming the code"
    assert all(code.group(0) not in hit["body"] for hit in vector), "the vector top 5 should miss the code"
    assert _key(hybrid[0]) == _key(keyword[0]), "hybrid should keep the exact-code hit first"
    assert hybrid[0]["r_txt"] == 1 and hybrid[0]["r_vec"] > 5


def test_the_vector_leg_finds_a_paraphrase_sharing_no_word_and_hybrid_keeps_it(legs) -> None:
    question, vector, keyword, hybrid = legs
    asked = _words(question)
    paraphrases = [h for h in vector if not asked & _words(h["body"])]
    assert paraphrases, "some vector hit should share no word with the question"
    keyword_keys = {_key(h) for h in keyword}
    assert all(_key(h) not in keyword_keys for h in paraphrases)
    kept = [h for h in hybrid if h["r_txt"] == SENTINEL_RANK]
    assert {_key(h) for h in paraphrases} & {_key(h) for h in kept}, "hybrid should keep a vector-only paraphrase"


def test_the_three_lists_differ(legs) -> None:
    _, vector, keyword, hybrid = legs
    lists = [tuple(_key(h) for h in hits) for hits in (vector, keyword, hybrid)]
    assert len(set(lists)) == 3, lists
