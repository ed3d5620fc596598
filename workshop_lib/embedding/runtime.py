"""Run the augmented embedding model with onnxruntime (+ onnxruntime-extensions) in lite.

One :class:`OnnxEmbedder` per model file per process (:func:`get_embedder`).
The file's tokenizer op reads one string per call, so the embedder splits the
file's own graph at the tensors named in :data:`graph.BATCH_INPUTS`: the
tokenizer part runs per string (cheap), the encoder + pooling part runs on
length-sorted, padded batches. Attention and pooling are masked, so the
vectors equal the whole graph's one-string-at-a-time results (tests check
cosine >= 0.99999) -- which is what Oracle computes with the same file. A file
without those tensors (e.g. another vendor's model) runs whole, one string at
a time.

The encoder session runs each batch on one thread, and the batches of one call
run side by side, one per core (:func:`_pool`), longest first. On two cores
that embeds the catalog scan's 84 facts in about 0.6 s where one two-thread
run per batch took 0.73 s (the batches' lengths differ, and a lone thread
finishes its short batch without waiting for the other), and one query string
takes 5 ms right after a commit's disk flush where a two-thread run took 9 ms
(the flush's kernel work holds one of the two cores).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx.utils import Extractor

from ..errors import ModelError
from . import graph
from .build import METADATA_FILE
from .source import verify_file

BATCH_SIZE = 8   # measured on 2 cores: larger batches pad more and share out worse among the cores
INSTALL_HINT = "pip install onnxruntime onnxruntime-extensions"


def _runtime() -> tuple[Any, str]:
    """Import onnxruntime and return it with the extensions library path (ModelError if missing)."""
    try:
        import onnxruntime
    except ImportError:
        raise ModelError(f"onnxruntime is not installed; the lite backend needs it: {INSTALL_HINT}") from None
    try:
        from onnxruntime_extensions import get_library_path
    except ImportError:
        raise ModelError(
            "onnxruntime-extensions is not installed. The embedding model's tokenizer is an "
            "onnxruntime-extensions op, so the lite backend cannot run it without the package: "
            "pip install onnxruntime-extensions"
        ) from None
    return onnxruntime, get_library_path()


def _session(ort: Any, library: str, model: onnx.ModelProto | str, threads: int = 0) -> Any:
    options = ort.SessionOptions()
    options.register_custom_ops_library(library)
    options.intra_op_num_threads = threads
    # onnxruntime's worker threads keep spinning for a while after each run by default, and what follows an
    # embedding here is more work on the same cores (the vector matrix product, SQLite): a hybrid query at 10^5
    # memories took 32 ms with spinning, 19 ms without (docs/model.md). Batch throughput is unchanged.
    options.add_session_config_entry("session.force_spinning_stop", "1")
    payload = model if isinstance(model, str) else model.SerializeToString()
    return ort.InferenceSession(payload, options, providers=["CPUExecutionProvider"])


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """This process's workers for encoder batches, one per core it may run on (created on first use)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
            _POOL = ThreadPoolExecutor(max_workers=max(1, min(cores, 8)), thread_name_prefix="embed")
        return _POOL


def _after_fork_in_child() -> None:
    # A forked child (grading's warm parent forks) has none of the parent's threads: it starts its own pool, and
    # a lock one of those threads held at the fork would stay held in the child for ever, so every lock is new.
    global _POOL, _POOL_LOCK, _CACHE_LOCK
    _POOL, _POOL_LOCK, _CACHE_LOCK = None, threading.Lock(), threading.Lock()
    for embedder in _CACHE.values():
        embedder._lock, embedder._recent_lock = threading.Lock(), threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _as_texts(texts: Sequence[str]) -> list[str]:
    """Validate the batch: a sequence of str, no None (clear TypeError otherwise)."""
    if isinstance(texts, (str, bytes)):
        raise TypeError("embed() takes a list of strings, not a single string: use embed([text]).")
    checked = list(texts)
    for index, text in enumerate(checked):
        if not isinstance(text, str):
            raise TypeError(
                f"embed() needs str values; item {index} is {type(text).__name__}"
                + (" (None cannot be embedded; filter out NULL/None values first)." if text is None else ".")
            )
    return checked


#: How many single texts an embedder remembers the vector of (about 1.5 KB each), and the longest it remembers:
#: questions and notes, not documents, whose text as the key could take hundreds of megabytes.
RECENT_TEXTS = 4096
RECENT_TEXT_CHARS = 2000


class OnnxEmbedder:
    """Embeds text with one augmented ONNX file: ``embed(texts) -> float32 (n, 384)``.

    A call with one text remembers its vector (the last :data:`RECENT_TEXTS`
    texts of up to :data:`RECENT_TEXT_CHARS` characters), and the next
    one-text call for that text returns it: a check files one probe text a
    dozen times and searches each question for the learner's function and for
    the reference, and a notebook asks the same questions again. One text is
    always run alone, so the remembered vector is the one a new run gives, bit
    for bit; calls with several texts are run as they are.
    """

    def __init__(self, path: Path) -> None:
        ort, library = _runtime()
        self.path = Path(path)
        try:
            model = onnx.load(str(self.path))
        except Exception as exc:  # protobuf's DecodeError and friends: not an ONNX file
            raise ModelError(
                f"{self.path} is not a readable ONNX model ({type(exc).__name__}: {exc}). Rebuild it "
                "with workshop_lib.embedding.build_model(home, force=True)."
            ) from exc
        inputs = [i.name for i in model.graph.input]
        outputs = [o.name for o in model.graph.output]
        if len(inputs) != 1 or graph.OUTPUT_NAME not in outputs:
            raise ModelError(
                f"{self.path} is not a text-embedding model for this workshop: expected one "
                f"string input and an output named {graph.OUTPUT_NAME!r}, found inputs {inputs} "
                f"and outputs {outputs}."
            )
        self.input_name = inputs[0]
        self._ort, self._library = ort, library
        self._full: Any = None
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._recent_lock = threading.Lock()   # OAMP embeds from worker threads, the SQL path from its pool
        names = {name for node in model.graph.node for name in node.output}
        if set(graph.BATCH_INPUTS) | {graph.BATCH_OUTPUT} <= names:
            tokenizer, body = self._split(model)
            self._tokenizer = _session(ort, library, tokenizer, threads=1)
            self._body = _session(ort, library, body, threads=1)   # batches run side by side instead
        else:
            self._tokenizer = self._body = None
        self.dimension = graph.EMBED_DIM

    def _split(self, model: onnx.ModelProto) -> tuple[onnx.ModelProto, onnx.ModelProto]:
        """Cut the file's graph into its per-string tokenizer and its batchable body."""
        extractor = Extractor(model)
        tokenizer = extractor.extract_model([self.input_name], list(graph.BATCH_INPUTS))
        body = extractor.extract_model(list(graph.BATCH_INPUTS), [graph.BATCH_OUTPUT])
        # The tokenizer emits a batch of one; the body accepts any batch size.
        for value in body.graph.input:
            value.type.tensor_type.shape.dim[0].dim_param = "batch"
        del body.graph.value_info[:]
        return tokenizer, body

    def full_graph_session(self) -> Any:
        """A session over the whole file, exactly as Oracle runs it (one string per call)."""
        with self._lock:
            if self._full is None:
                self._full = _session(self._ort, self._library, str(self.path))
        return self._full

    def embed_whole_graph(self, texts: Sequence[str]) -> np.ndarray:
        """Embed by running the whole file once per text (the Oracle-equivalent path)."""
        checked = _as_texts(texts)
        session = self.full_graph_session()
        out = np.empty((len(checked), self.dimension), dtype=np.float32)
        for row, text in enumerate(checked):
            vector = session.run([graph.OUTPUT_NAME], {self.input_name: np.array([text], dtype=object)})[0]
            out[row] = vector.reshape(-1)
        return out

    def token_counts(self, texts: Sequence[str]) -> list[int]:
        """How many tokens the encoder sees for each text ([CLS] and [SEP] included, after truncation).

        The encoder's work grows with this count, so it is what a benchmark
        divides by. A model file run whole (no tokenizer split) raises ModelError.
        """
        checked = _as_texts(texts)
        if self._tokenizer is None:
            raise ModelError(f"{self.path} is run whole, one string at a time: its token counts are not exposed.")
        return [self._tokenize(text)[0].shape[1] for text in checked]

    def _tokenize(self, text: str) -> list[np.ndarray]:
        return self._tokenizer.run(list(graph.BATCH_INPUTS), {self.input_name: np.array([text], dtype=object)})

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed a batch of strings: float32 array of shape ``(len(texts), 384)``, rows of norm 1.

        An empty string gives a valid unit vector (the [CLS]/[SEP] tokens only);
        text beyond the model's 256 tokens is truncated; None raises TypeError.
        A single text's vector is remembered (see the class docstring).
        """
        checked = _as_texts(texts)
        if len(checked) != 1 or len(checked[0]) > RECENT_TEXT_CHARS:
            return self._embed(checked)
        text = checked[0]
        with self._recent_lock:
            known = self._recent.get(text)
            if known is not None:
                self._recent.move_to_end(text)
                return known.reshape(1, -1).copy()
        out = self._embed(checked)
        with self._recent_lock:
            self._recent[text] = out[0].copy()
            if len(self._recent) > RECENT_TEXTS:
                self._recent.popitem(last=False)
        return out

    def forget_recent(self) -> None:
        """Forget the remembered single texts (a benchmark that times the model itself calls this)."""
        with self._recent_lock:
            self._recent.clear()

    def _embed(self, checked: list[str]) -> np.ndarray:
        if self._body is None:
            return self.embed_whole_graph(checked)
        out = np.empty((len(checked), self.dimension), dtype=np.float32)
        if not checked:
            return out
        encoded = [self._tokenize(text) for text in checked]
        lengths = [ids.shape[1] for ids, _, _ in encoded]
        order = sorted(range(len(checked)), key=lengths.__getitem__, reverse=True)

        def run(rows: list[int]) -> None:
            width = lengths[rows[0]]   # the longest of the batch: rows are longest first
            feeds = {name: np.zeros((len(rows), width), dtype=np.int64) for name in graph.BATCH_INPUTS}
            for slot, row in enumerate(rows):
                for name, tensor in zip(graph.BATCH_INPUTS, encoded[row], strict=True):
                    feeds[name][slot, : lengths[row]] = tensor[0]
            out[rows] = self._body.run([graph.BATCH_OUTPUT], feeds)[0]

        batches = [order[start:start + BATCH_SIZE] for start in range(0, len(order), BATCH_SIZE)]
        if len(batches) == 1:
            run(batches[0])
        else:
            for _ in _pool().map(run, batches):   # longest first: the last batches to start are the shortest
                pass
        return out


_CACHE: dict[tuple[str, int, int], OnnxEmbedder] = {}
_CACHE_LOCK = threading.Lock()


def _check_recorded_hash(path: Path) -> None:
    """When the file sits in a build folder, check it against the sha256 recorded at build time."""
    meta = path.parent / METADATA_FILE
    if not meta.is_file():
        return
    try:
        expected = json.loads(meta.read_text(encoding="utf-8"))["model_sha256"]
    except (ValueError, KeyError):
        return
    verify_file(path, expected, fix=f"Rebuild it (workshop_lib.embedding.build_model(home, force=True)) or delete {path.parent}.")


def get_embedder(path: Path | str) -> OnnxEmbedder:
    """Return this process's embedder for the model file at ``path`` (created once, then reused).

    A rebuilt file (new size or mtime) gets a new embedder. Raises ModelError
    when the file is missing, fails its recorded sha256, or when
    onnxruntime-extensions is not installed.
    """
    resolved = Path(path).resolve()
    try:
        stat = resolved.stat()
    except FileNotFoundError:
        raise ModelError(
            f"Embedding model file {resolved} does not exist. Build it with "
            "workshop_lib.embedding.ensure_model()."
        ) from None
    key = (str(resolved), stat.st_mtime_ns, stat.st_size)
    with _CACHE_LOCK:
        embedder = _CACHE.get(key)
        if embedder is None:
            _check_recorded_hash(resolved)
            embedder = OnnxEmbedder(resolved)
            for old in [k for k in _CACHE if k[0] == key[0]]:
                del _CACHE[old]
            _CACHE[key] = embedder
        return embedder
