"""The built model run by onnxruntime + extensions, against an independent reference pipeline."""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np
import onnxruntime
import pytest
from tokenizers import Tokenizer

from workshop_lib.embedding import build_model, get_embedder, runtime, source
from workshop_lib.embedding.runtime import OnnxEmbedder
from workshop_lib.errors import ModelError

LONG = (
    "The SUPPLYCHAIN schema records every vessel, port call, container and shipment. "
    "Each shipment row carries a declared cargo value, an origin and destination port, "
    "a planned and an actual arrival time, and the carrier responsible for the leg. "
) * 12  # well over 256 word pieces: exercises truncation

SENTENCES = [
    "hello",
    "",
    "   ",
    "x",
    "OK",
    "Hello, World!",
    "Vessel positions are recorded in VESSEL_POSITIONS with latitude, longitude and timestamp",
    "Where do we record vessel current positions?",
    "The declared cargo value of each shipment is stored in USD.",
    "ORA-00904: invalid identifier",
    "ORA-01031: insufficient privileges when calling DBMS_VECTOR.LOAD_ONNX_MODEL",
    "ORA-00942: table or view does not exist",
    "SELECT vessel_name, capacity_teu FROM supplychain.vessels WHERE flag = 'PA'",
    "SUPPLYCHAIN.VESSELS.CAPACITY_TEU is the vessel's capacity in twenty-foot equivalent units.",
    "Container MSCU1234567 left Rotterdam on 2024-03-15 at 06:30 UTC.",
    "Invoice #INV-2024-0042 totals $1,234,567.89 (USD), due in 30 days.",
    "Temperature must stay between -18°C and -22°C for reefer containers.",
    "Is the ETA for voyage 042W still 14:00?!",
    "What's the difference between a bill of lading and an airway bill?",
    "e-mail ops@example.com or call +31 10 123 4567 for port-state control issues",
    "https://example.com/tracking?id=ABC123&lang=en",
    "Zürich",
    "Shipments from Zürich to München via Basel.",
    "東京",
    "東京の港",
    "Cargo bound for 東京 and 上海 was delayed by the typhoon.",
    "Le navire est arrivé à Marseille après une escale à Gênes.",
    "El buque llegó al puerto de Valparaíso con retraso.",
    "façade, naïve, résumé, coöperate, Ålesund, Øresund",
    "São Paulo and Göteborg are ports; Kraków is not.",
    "Привет, мир: судно прибыло в порт Мурманск.",
    "مرحبا بالعالم",
    "The shipment 🚢 arrived 📦 on time ✅",
    "🙂",
    "I ❤️ supply chains",
    "UPPERCASE SENTENCE ABOUT CUSTOMS CLEARANCE",
    "mIxEd CaSe Vessel NAME",
    "tab\tseparated\tvalues\nand a new line",
    "multiple     spaces    between   words",
    "(parenthesised) [bracketed] {braced} <angled>",
    "quotes: 'single', \"double\", `backtick`",
    "semi;colon, comma. period! question? ellipsis...",
    "snake_case_identifier and camelCaseIdentifier and kebab-case-identifier",
    "3.14159 2.71828 1.41421 0.57721",
    "1234567890",
    "Q3 2024 revenue rose 12% year over year.",
    "The hybrid search fuses vector and keyword rankings with reciprocal rank fusion.",
    "CONTAINS(content, 'vessel AND position', 1) > 0",
    "VECTOR_DISTANCE(embedding, :q, COSINE)",
    "A learner writes Oracle SQL in both the lite and the Oracle backend.",
    "word " * 400,
    LONG,
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
]


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One build shared by the embedding tests (a cache hit after the first module)."""
    return build_model(tmp_path_factory.getbasetemp() / "embedding_home")


@pytest.fixture(scope="session")
def embedder(built):
    return get_embedder(built.path)


@pytest.fixture(scope="session")
def reference():
    """The reference pipeline, independent of the built graph: HF tokenizers + raw encoder + numpy."""
    tokenizer = Tokenizer.from_file(str(source.resolve_verified(source.TOKENIZER)))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=256)
    encoder = onnxruntime.InferenceSession(
        str(source.resolve_verified(source.TRANSFORMER)), providers=["CPUExecutionProvider"]
    )

    def embed(text: str) -> np.ndarray:
        enc = tokenizer.encode(text)
        feeds = {
            "input_ids": np.array([enc.ids], dtype=np.int64),
            "attention_mask": np.array([enc.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([enc.type_ids], dtype=np.int64),
        }
        hidden = encoder.run(["last_hidden_state"], feeds)[0][0]
        mask = feeds["attention_mask"][0][:, None].astype(np.float32)
        mean = (hidden * mask).sum(axis=0) / max(mask.sum(), 1e-9)
        return mean / max(np.linalg.norm(mean), 1e-12)

    return embed


def test_matches_reference_pipeline_on_varied_sentences(embedder, reference):
    assert len(SENTENCES) >= 50
    vectors = embedder.embed(SENTENCES)
    worst = []
    for text, vector in zip(SENTENCES, vectors, strict=True):
        cos = float(vector @ reference(text))
        worst.append((cos, text[:40]))
    worst.sort()
    assert worst[0][0] >= 0.999, f"lowest cosines: {worst[:5]}"


def test_batched_equals_whole_graph_one_string_at_a_time(embedder):
    """embed() batches the file's sub-graphs; Oracle runs the whole file per string."""
    batched = embedder.embed(SENTENCES)
    whole = embedder.embed_whole_graph(SENTENCES)
    cosines = np.sum(batched * whole, axis=1)
    assert cosines.min() >= 0.99999
    assert np.abs(batched - whole).max() < 1e-4


def test_token_counts_are_the_reference_tokenizers_truncated_at_256(embedder):
    """What the encoder sees per text: the same count as HF tokenizers' encoding of tokenizer.json."""
    tokenizer = Tokenizer.from_file(str(source.resolve_verified(source.TOKENIZER)))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=256)
    counts = embedder.token_counts(SENTENCES)
    assert counts == [len(tokenizer.encode(text).ids) for text in SENTENCES]
    assert counts[0] == 3 and max(counts) == 256   # [CLS] hello [SEP]; LONG is cut


def test_output_is_float32_unit_vectors(embedder):
    vectors = embedder.embed(SENTENCES[:10])
    assert vectors.dtype == np.float32 and vectors.shape == (10, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_order_and_duplicates_are_preserved(embedder):
    texts = ["banana", "king", "a much longer sentence about ports and vessels", "king"]
    vectors = embedder.embed(texts)
    assert np.allclose(vectors[1], vectors[3], atol=1e-6)
    for text, vector in zip(texts, vectors, strict=True):
        assert np.allclose(embedder.embed([text])[0], vector, atol=1e-5)


def test_ranking_sanity(embedder):
    fact, question, cargo = embedder.embed([
        "Vessel positions are recorded in VESSEL_POSITIONS with latitude, longitude and timestamp",
        "Where do we record vessel current positions?",
        "The declared cargo value of each shipment is stored in USD in SHIPMENTS.CARGO_VALUE",
    ])
    assert fact @ question > cargo @ question
    king, queen, banana = embedder.embed(["king", "queen", "banana"])
    assert king @ queen > king @ banana


def test_empty_string_gives_a_unit_vector(embedder):
    (vector,) = embedder.embed([""])
    assert np.isfinite(vector).all()
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_100kb_text_is_truncated_not_fatal(embedder):
    head = "Vessel positions are recorded with latitude and longitude. " * 40
    huge = head + "zebra " * (100_000 // 6)
    assert len(huge) > 100_000
    big, just_head = embedder.embed([huge, head])
    assert abs(float(np.linalg.norm(big)) - 1.0) < 1e-5
    # Only the first 256 tokens count, so the tail changes nothing.
    assert float(big @ just_head) > 0.9999


def test_none_and_non_strings_are_rejected(embedder):
    with pytest.raises(TypeError, match="item 1 is NoneType"):
        embedder.embed(["fine", None])
    with pytest.raises(TypeError, match="item 0 is int"):
        embedder.embed([42])
    with pytest.raises(TypeError, match="not a single string"):
        embedder.embed("hello")


def test_empty_batch(embedder):
    assert embedder.embed([]).shape == (0, 384)


def test_scripts_the_bert_op_normalises_differently_still_embed(embedder):
    """Cyrillic й/ё, Greek tonos, Hangul, Devanagari, kana with dakuten: see docs/model.md."""
    texts = ["Новороссийск", "Ελληνικά κείμενο", "한국어 텍스트", "हिन्दी पाठ", "東京は日本の首都です", "İstanbul"]
    vectors = embedder.embed(texts)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_get_embedder_is_cached_per_file(built, embedder):
    assert get_embedder(built.path) is embedder
    assert get_embedder(str(built.path)) is embedder


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="ensure_model"):
        get_embedder(tmp_path / "nope.onnx")


def test_missing_onnxruntime_extensions_says_what_to_install(built, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime_extensions", None)  # import now fails
    with pytest.raises(ModelError, match="pip install onnxruntime-extensions"):
        OnnxEmbedder(built.path)


def test_a_file_without_the_batch_boundary_runs_whole(built, tmp_path):
    """Another vendor's string->embedding file (no named boundary) still works, one string per run."""
    import onnx

    model = onnx.load(str(built.path))
    renamed = {"input_ids": "ids_x", "attention_mask": "mask_x", "token_type_ids": "types_x"}
    for node in model.graph.node:
        node.input[:] = [renamed.get(n, n) for n in node.input]
        node.output[:] = [renamed.get(n, n) for n in node.output]
    path = tmp_path / "other.onnx"
    onnx.save(model, str(path))
    other = OnnxEmbedder(path)
    assert other._body is None
    expected = get_embedder(built.path).embed(["hello", "Zürich"])
    assert np.allclose(other.embed(["hello", "Zürich"]), expected, atol=1e-5)
    with pytest.raises(ModelError, match="run whole"):
        other.token_counts(["hello"])


def test_batch_size_constant_is_sane():
    assert 1 <= runtime.BATCH_SIZE <= 64


def _in_a_forked_child(same_as_before: Callable[[], bool], deadline: int) -> tuple[int, bytes]:
    """Fork; the child answers ``same_as_before()`` within ``deadline`` seconds through a pipe and never returns to
    pytest. Returns the child's exit status and its answer (b"same", b"different", or nothing when it hung)."""
    import os
    import signal

    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            signal.alarm(deadline)
            os.write(write, b"same" if same_as_before() else b"different")
        finally:
            os._exit(0)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    with os.fdopen(read, "rb") as pipe:
        return status, pipe.read()


def test_batches_run_side_by_side_and_a_forked_child_embeds_with_its_own_workers(embedder):
    """Several batches run on the pool's workers; a child forked after that (grading's warm parent forks)
    has none of those threads, and must still embed, not wait forever on a pool that is gone."""
    import os
    import threading

    texts = [f"vessel {i} berths at the container terminal after a delay of {i} hours"
             for i in range(5 * runtime.BATCH_SIZE)]
    expected = embedder.embed(texts)
    assert any(t.name.startswith("embed") for t in threading.enumerate())   # the pool's workers ran the batches
    status, answer = _in_a_forked_child(lambda: np.array_equal(embedder.embed(texts), expected), 60)
    assert os.WIFEXITED(status) and answer == b"same", (status, answer)


def test_a_child_forked_while_a_thread_held_the_remembered_texts_still_embeds(embedder):
    """A lock some thread of the parent held at the fork is held for ever in the child, where that thread does not
    exist: the child must get locks of its own."""
    import os

    question = ["a question asked before the fork"]
    expected = embedder.embed(question)
    with embedder._recent_lock:   # as an embedding thread of the parent would hold it
        status, answer = _in_a_forked_child(lambda: embedder.embed(question).tobytes() == expected.tobytes(), 20)
    assert os.WIFEXITED(status) and answer == b"same", (status, answer)


# --------------------------------------------------------------------------- remembered single texts

@pytest.fixture
def runs(built, monkeypatch):
    """A new embedder for the built file, and the texts each model run got (the remembered ones get none)."""
    fresh = OnnxEmbedder(built.path)
    seen: list[list[str]] = []
    real = fresh._embed
    monkeypatch.setattr(fresh, "_embed", lambda texts: seen.append(list(texts)) or real(texts))
    return fresh, seen


def test_a_single_text_is_embedded_once_and_its_vector_is_the_same_bits(runs, built):
    fresh, seen = runs
    first = fresh.embed(["Where do we record vessel current positions?"])
    again = fresh.embed(["Where do we record vessel current positions?"])
    assert seen == [["Where do we record vessel current positions?"]]
    assert again.shape == (1, 384) and again.dtype == np.float32 and again.tobytes() == first.tobytes()
    other = OnnxEmbedder(built.path).embed(["Where do we record vessel current positions?"])   # a new run
    assert other.tobytes() == first.tobytes()
    again[0, 0] = 42.0   # the caller's copy: the remembered vector is not touched
    assert fresh.embed(["Where do we record vessel current positions?"]).tobytes() == first.tobytes()


def test_batches_are_run_as_they_are(runs):
    """A batch's vectors may differ from one-text runs in the last bits (other padding), so it is never served
    from the remembered texts, nor remembered."""
    fresh, seen = runs
    fresh.embed(["hello"])
    fresh.embed(["hello", "ORA-00904: invalid identifier"])
    fresh.embed(["ORA-00904: invalid identifier"])
    assert seen == [["hello"], ["hello", "ORA-00904: invalid identifier"], ["ORA-00904: invalid identifier"]]


def test_the_oldest_text_is_forgotten_first_and_forget_recent_forgets_all(runs, monkeypatch):
    fresh, seen = runs
    monkeypatch.setattr(runtime, "RECENT_TEXTS", 2)
    for text in ("a", "b", "a", "c", "a", "b"):   # "b" is the oldest when "c" comes, and goes
        fresh.embed([text])
    assert seen == [["a"], ["b"], ["c"], ["b"]]
    fresh.forget_recent()
    fresh.embed(["a"])
    assert seen[-1] == ["a"]


def test_a_long_text_is_not_remembered(runs):
    """A document's text as the key could take hundreds of megabytes; questions and notes are short."""
    fresh, seen = runs
    document = "x" * (runtime.RECENT_TEXT_CHARS + 1)
    fresh.embed([document])
    fresh.embed([document])
    assert seen == [[document], [document]]
