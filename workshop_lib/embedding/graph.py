"""The augmented embedding graph: string in, L2-normalised 384-float vector out.

One ONNX graph in three stages, joined with :func:`onnx.compose.merge_models`:

1. tokenizer -- onnxruntime-extensions' ``BertTokenizer`` custom op (domain
   ``ai.onnx.contrib``) built from the WordPiece vocabulary and normaliser
   settings in ``tokenizer.json``, truncating to :data:`MAX_LENGTH` tokens; its
   1-D outputs get a batch axis of 1;
2. the transformer, unchanged (``input_ids``, ``attention_mask``,
   ``token_type_ids`` -> ``last_hidden_state``);
3. attention-masked mean pooling and L2 normalisation, then the batch axis is
   squeezed away so the output ``embedding`` is ``float32[384]``.

That is the shape ``DBMS_VECTOR.LOAD_ONNX_MODEL`` accepts for an embedding
model (one string input, one float vector output), and onnxruntime runs the
same file in lite. The tokenizer op takes one string per call (two would be
read as a sentence pair), so the graph input is ``string[1]``; batching in lite
happens in :mod:`.runtime` by running stage 2-3 on padded batches (the
sub-graph from :data:`BATCH_INPUTS` to :data:`BATCH_OUTPUT` is batch-agnostic).

Only standard ONNX ops at opset 17 and IR version 8 are used outside the
tokenizer, which keeps the file loadable by the ONNX runtime inside Oracle AI
Database 23ai/26ai.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, compose, helper, numpy_helper

from ..config import EMBED_DIM
from ..errors import ModelError

INPUT_NAME = "input"
OUTPUT_NAME = "embedding"
# all-MiniLM-L6-v2 was trained with max_seq_length 256 (sentence-transformers'
# sentence_bert_config.json); the 128 in the hub's tokenizer.json is an export default.
MAX_LENGTH = 256
OPSET = 17
IR_VERSION = 8
EXT_DOMAIN = "ai.onnx.contrib"
EXT_OPSET = 1

# Tensors at the boundary between the per-string tokenizer and the batchable rest.
BATCH_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
BATCH_OUTPUT = "sentence_embedding"   # [batch, 384], L2-normalised, before the squeeze
HIDDEN = "last_hidden_state"
ENCODER_PREFIX = "encoder/"


def tokenizer_attributes(tokenizer_json: Path, max_length: int = MAX_LENGTH) -> dict:
    """Translate a Hugging Face WordPiece ``tokenizer.json`` into BertTokenizer op attributes.

    The normaliser's ``lowercase``/``strip_accents``/``handle_chinese_chars``
    follow BERT's rules (accents are stripped when lowercasing unless
    ``strip_accents`` is explicitly false). Raises ModelError for a tokenizer
    the op cannot represent (not WordPiece, gaps in the ids, missing specials).
    """
    spec = json.loads(Path(tokenizer_json).read_text(encoding="utf-8"))
    model = spec.get("model") or {}
    if model.get("type") != "WordPiece":
        raise ModelError(
            f"{tokenizer_json} describes a {model.get('type')!r} tokenizer; the in-graph "
            "BertTokenizer op needs a WordPiece vocabulary."
        )
    ordered = sorted(model["vocab"].items(), key=lambda item: item[1])
    if [token_id for _, token_id in ordered] != list(range(len(ordered))):
        raise ModelError(f"{tokenizer_json}: vocabulary ids are not contiguous from 0.")
    tokens = [token for token, _ in ordered]
    unk = model.get("unk_token", "[UNK]")
    missing = [t for t in (unk, "[CLS]", "[SEP]", "[PAD]") if t not in model["vocab"]]
    if missing:
        raise ModelError(f"{tokenizer_json}: special tokens missing from the vocabulary: {missing}")
    normalizer = spec.get("normalizer") or {}
    lowercase = bool(normalizer.get("lowercase", False))
    strip_accents = normalizer.get("strip_accents")
    return {
        "vocab_file": "\n".join(tokens),
        "do_lower_case": int(lowercase),
        "strip_accents": int(lowercase if strip_accents is None else bool(strip_accents)),
        "tokenize_chinese_chars": int(bool(normalizer.get("handle_chinese_chars", True))),
        "unk_token": unk,
        "suffix_indicator": model.get("continuing_subword_prefix", "##"),
        "max_length": int(max_length),
    }


def _int64(name: str, values: list[int]) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name=name)


def _float(name: str, value: float) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(value, dtype=np.float32), name=name)


def _opsets(custom: bool) -> list[onnx.OperatorSetIdProto]:
    opsets = [helper.make_opsetid("", OPSET)]
    if custom:
        opsets.append(helper.make_opsetid(EXT_DOMAIN, EXT_OPSET))
    return opsets


def tokenizer_model(attributes: dict) -> onnx.ModelProto:
    """Stage 1: ``string[1]`` -> ``int64[1, seq]`` ids, mask and token types."""
    raw = ("raw_ids", "raw_token_types", "raw_mask")  # the op's output order
    nodes = [
        helper.make_node(
            "BertTokenizer", [INPUT_NAME], list(raw), name="bert_tokenizer",
            domain=EXT_DOMAIN, **attributes,
        ),
        helper.make_node("Unsqueeze", ["raw_ids", "tok_axis0"], ["input_ids"]),
        helper.make_node("Unsqueeze", ["raw_mask", "tok_axis0"], ["attention_mask"]),
        helper.make_node("Unsqueeze", ["raw_token_types", "tok_axis0"], ["token_type_ids"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tokenizer",
        [helper.make_tensor_value_info(INPUT_NAME, TensorProto.STRING, [1])],
        [helper.make_tensor_value_info(n, TensorProto.INT64, [1, "sequence"]) for n in BATCH_INPUTS],
        initializer=[_int64("tok_axis0", [0])],
    )
    return helper.make_model(graph, opset_imports=_opsets(custom=True), ir_version=IR_VERSION)


def pooling_model() -> onnx.ModelProto:
    """Stage 3: masked mean over tokens, L2 normalisation, squeeze to ``float32[384]``.

    The same arithmetic as sentence-transformers' Pooling(mean) + Normalize:
    sum(hidden * mask) / max(sum(mask), 1e-9), then x / max(||x||, 1e-12).
    """
    nodes = [
        helper.make_node("Cast", ["attention_mask"], ["pool_mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["pool_mask_f", "pool_axis_last"], ["pool_mask_3d"]),
        helper.make_node("Mul", [HIDDEN, "pool_mask_3d"], ["pool_masked"]),
        helper.make_node("ReduceSum", ["pool_masked", "pool_axis1"], ["pool_sum"], keepdims=0),
        helper.make_node("ReduceSum", ["pool_mask_3d", "pool_axis1"], ["pool_count"], keepdims=0),
        helper.make_node("Max", ["pool_count", "pool_min_count"], ["pool_count_safe"]),
        helper.make_node("Div", ["pool_sum", "pool_count_safe"], ["pool_mean"]),
        # ReduceL2 takes axes as an attribute until opset 18 (ReduceSum: an input since 13).
        helper.make_node("ReduceL2", ["pool_mean"], ["pool_norm"], axes=[-1], keepdims=1),
        helper.make_node("Max", ["pool_norm", "pool_min_norm"], ["pool_norm_safe"]),
        helper.make_node("Div", ["pool_mean", "pool_norm_safe"], [BATCH_OUTPUT]),
        helper.make_node("Squeeze", [BATCH_OUTPUT, "pool_axis0"], [OUTPUT_NAME]),
    ]
    graph = helper.make_graph(
        nodes,
        "pooling",
        [
            helper.make_tensor_value_info(HIDDEN, TensorProto.FLOAT, ["batch", "sequence", EMBED_DIM]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
        ],
        [helper.make_tensor_value_info(OUTPUT_NAME, TensorProto.FLOAT, [EMBED_DIM])],
        initializer=[
            _int64("pool_axis0", [0]),
            _int64("pool_axis1", [1]),
            _int64("pool_axis_last", [-1]),
            _float("pool_min_count", 1e-9),
            _float("pool_min_norm", 1e-12),
        ],
        value_info=[
            helper.make_tensor_value_info(BATCH_OUTPUT, TensorProto.FLOAT, ["batch", EMBED_DIM]),
        ],
    )
    return helper.make_model(graph, opset_imports=_opsets(custom=False), ir_version=IR_VERSION)


def _prepare_transformer(path: Path) -> onnx.ModelProto:
    """Load the transformer and check it has the interface the pipeline wires up."""
    model = onnx.load(str(path))
    inputs = {i.name for i in model.graph.input}
    outputs = [o.name for o in model.graph.output]
    if inputs != set(BATCH_INPUTS) or HIDDEN not in outputs:
        raise ModelError(
            f"{path}: expected a BERT encoder with inputs {sorted(BATCH_INPUTS)} and output "
            f"{HIDDEN!r}, found inputs {sorted(inputs)} and outputs {outputs}."
        )
    versions = {o.domain: o.version for o in model.opset_import}
    if set(versions) - {"", "ai.onnx"} or versions.get("", versions.get("ai.onnx")) != OPSET:
        raise ModelError(f"{path}: expected default-domain opset {OPSET} only, found {versions}.")
    # The encoder needs nothing newer than IR 8 (opset-17 standard ops on float, int8,
    # int64 and bool tensors), and IR 8 is read by every onnxruntime Oracle ships;
    # onnx.checker re-validates the merged model at that version.
    model.ir_version = IR_VERSION
    return model


def build_graph(transformer_path: Path, tokenizer_json: Path, *, doc: str = "") -> onnx.ModelProto:
    """Assemble and check the full string -> ``embedding`` graph from verified inputs."""
    encoder = _prepare_transformer(transformer_path)
    # The encoder's internal names are prefixed (one of them is "embedding"); the
    # tensors it receives keep the tokenizer's names, which are BATCH_INPUTS.
    head = compose.merge_models(
        tokenizer_model(tokenizer_attributes(tokenizer_json)),
        encoder,
        io_map=[(name, name) for name in BATCH_INPUTS],
        outputs=[ENCODER_PREFIX + HIDDEN, "attention_mask"],
        prefix2=ENCODER_PREFIX,
    )
    full = compose.merge_models(
        head,
        pooling_model(),
        io_map=[(ENCODER_PREFIX + HIDDEN, HIDDEN), ("attention_mask", "attention_mask")],
        outputs=[OUTPUT_NAME],
    )
    # merge_models concatenates the parts' opset lists; declare each domain once.
    declared = {(o.domain or "", o.version) for o in full.opset_import}
    del full.opset_import[:]
    full.opset_import.extend(helper.make_opsetid(d, v) for d, v in sorted(declared))
    full.graph.name = "all_minilm_l6_v2_embedding"
    full.doc_string = doc
    full.producer_name = "workshop_lib.embedding"
    onnx.checker.check_model(full, full_check=True)
    return full
