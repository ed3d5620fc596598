"""text_query: free text in, a safe Oracle Text query (or None) out."""

from __future__ import annotations

import random
import re

import pytest

from workshop_lib.lite.text import TextIndex, parse_query as parse_with_lexer
from workshop_lib import oracle_text
from workshop_lib.oracle_text import STOPWORDS, tokenize
from workshop_lib.oracle_text import MAX_QUERY_BYTES, MAX_TERMS, text_query


def parse_query(text):
    """parse_query with the workshop's lexer (the one connect_lite gives the engine)."""
    return parse_with_lexer(text, oracle_text)


SAFE_SHAPE = re.compile(r"\{[^\W_]+\}(?: ACCUM \{[^\W_]+\})*")


def terms_of(query: str) -> list[str]:
    return [t[1:-1] for t in query.split(" ACCUM ")]


def test_documented_example():
    assert text_query("TEU 20-foot equivalent") == "{teu} ACCUM {20} ACCUM {foot} ACCUM {equivalent}"


@pytest.mark.parametrize("user_text, expected", [
    ("ORA-00904", "{ora} ACCUM {00904}"),
    ("AT&T invoice", "{invoice}"),
    ("Vessel vessel VESSEL positions vessel", "{vessel} ACCUM {positions}"),
    ("Where do we record vessel current positions?",
     "{record} ACCUM {vessel} ACCUM {current} ACCUM {positions}"),
    ("divide unit_value_cents by 100", "{divide} ACCUM {unit} ACCUM {value} ACCUM {cents} ACCUM {100}"),
    ('he said "NEAR"; about {braces} & (parens) - 50% off?',
     "{said} ACCUM {near} ACCUM {about} ACCUM {braces} ACCUM {parens} ACCUM {50} ACCUM {off}"),
    ("MINUS accum WITHIN fuzzy SQE", "{minus} ACCUM {accum} ACCUM {within} ACCUM {fuzzy} ACCUM {sqe}"),
    ("Straße Café 東京", "{straße} ACCUM {café} ACCUM {東京}"),
])
def test_terms_are_lowered_deduplicated_and_escaped(user_text, expected):
    assert text_query(user_text) == expected


@pytest.mark.parametrize("user_text", ["", "   ", "the of and", "AT&T", "!!! ... ---", "{}", "it is what it is"])
def test_nothing_searchable_gives_none(user_text):
    assert text_query(user_text) is None


def test_type_errors_name_the_problem():
    with pytest.raises(TypeError, match="got None.*text_query\\('"):
        text_query(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got bytes"):
        text_query(b"TEU")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got int"):
        text_query(42)  # type: ignore[arg-type]


def test_long_text_is_capped():
    rng = random.Random(3)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 10)))
             for _ in range(2000)]
    text = " ".join(words)[:10_240]
    query = text_query(text)
    assert query is not None and SAFE_SHAPE.fullmatch(query)
    terms = terms_of(query)
    assert len(terms) == MAX_TERMS
    assert terms == list(dict.fromkeys(t for t in tokenize(text) if t not in STOPWORDS))[:MAX_TERMS]
    parse_query(query)


def test_query_fits_in_4000_bytes():
    words = [f"{i:02d}" + "x" * 58 for i in range(MAX_TERMS)]      # 60-byte terms
    query = text_query(" ".join(words))
    assert query is not None
    assert len(query.encode("utf-8")) <= MAX_QUERY_BYTES
    assert 0 < len(terms_of(query)) < MAX_TERMS
    parse_query(query)


def test_overlong_tokens_are_skipped():
    assert text_query("x" * 65 + " vessel " + "é" * 33) == "{vessel}"    # 'é'*33 is 66 bytes
    assert text_query("y" * 64) == "{" + "y" * 64 + "}"


def test_result_finds_the_text_it_came_from():
    ix = TextIndex(oracle_text)
    ix.rebuild([(1, "Runbook: ORA-00904 invalid identifier"), (2, "TEU is a 20-foot equivalent unit"),
                (3, "AT&T invoice in USD cents")])
    assert set(ix.search(text_query("ora-00904?"))) == {1}
    assert set(ix.search(text_query("20-foot"))) == {2}
    assert set(ix.search(text_query("AT&T's invoices; invoice"))) == {3}


NASTY_PIECES = [
    "{", "}", "}}", "{{", "(", ")", "[", "]", "\\", "\\\\", "'", '"', "`", "&", "|", ",", "~", "-", ";",
    "=", "?", "$", "!", ">", "*", "%", "_", ":", ".", "/", "+", "#", "@", "^", "\t", "\n", " ", "  ",
    "AND", "and", "OR", "NOT", "MINUS", "ACCUM", "NEAR", "near", "ABOUT", "WITHIN", "EQUIV", "FUZZY",
    "SQE", "SYN", "BT", "NT", "TT", "HASPATH", "INPATH", "MDATA", "PATTERN", "MNOT",
    "the", "a", "of", "t", "s", "ORA-00904", "AT&T", "20-foot", "TEU", "vessel", "capacity",
    "unit_value_cents", "100%", "é", "東京", "Ω", "\u0301", "x" * 70, "0",
]


def test_property_never_raises_and_always_parses():
    rng = random.Random(20240611)
    filler = TextIndex(oracle_text)
    for _ in range(3000):
        text = "".join(rng.choice(NASTY_PIECES) for _ in range(rng.randint(0, 12)))
        query = text_query(text)
        if query is None:
            assert not [t for t in tokenize(text) if t not in STOPWORDS and len(t.encode()) <= 64]
            continue
        assert SAFE_SHAPE.fullmatch(query), (text, query)
        terms = terms_of(query)
        assert len(terms) == len(set(terms)) <= MAX_TERMS
        assert all(t not in STOPWORDS and t in tokenize(text) for t in terms)
        parsed = parse_query(query)                       # must never raise
        assert not parsed.matches_nothing
        filler.rebuild([(1, text), (2, "unrelated filler words")])
        assert 1 in filler.search(parsed), (text, query)  # the text matches its own query


def test_dotted_capital_i_is_one_term_in_queries_and_rows():
    """'İstanbul' (Turkish dotted I) and 'Istanbul' are one term; text_query and braces find the same rows."""
    assert tokenize("İstanbul port") == ["istanbul", "port"] and tokenize("İSTANBUL") == ["istanbul"]
    assert text_query("İstanbul") == "{istanbul}"
    ix = TextIndex(oracle_text)
    ix.rebuild([(1, "Port of İstanbul, Türkiye"), (2, "Istanbul transshipment"), (3, "Izmir")])
    assert set(ix.search(text_query("İstanbul"))) == set(ix.search("{İstanbul}")) == {1, 2}
