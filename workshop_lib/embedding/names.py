"""Validation of in-database model names.

A model name cannot be a bind variable inside ``VECTOR_EMBEDDING(<model> USING
... AS DATA)``, so it is written into SQL text and must be checked first. The
rules are Oracle's for machine-learning model names: an unquoted identifier
of at most 123 characters -- a letter first, then letters, digits, ``_``,
``$`` or ``#`` -- and not a reserved word.
"""

from __future__ import annotations

import re

from ..errors import ModelError
from ..lite.reserved import ORACLE_RESERVED_WORDS

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_$#]{0,122}")

_RESERVED = ORACLE_RESERVED_WORDS   # a model name is an unquoted identifier: never one of them


def validate_model_name(name: str) -> str:
    """Return ``name`` upper-cased (as Oracle stores it) or raise ModelError saying why it is invalid."""
    if not isinstance(name, str) or not _IDENTIFIER.fullmatch(name):
        raise ModelError(
            f"Invalid model name {name!r}: use an unquoted Oracle identifier of at most 123 "
            "characters that starts with a letter and contains only letters, digits, _, $ "
            "or # (for example ALL_MINILM_L6_V2)."
        )
    upper = name.upper()
    if upper in _RESERVED:
        raise ModelError(f"Invalid model name {name!r}: {upper} is an Oracle reserved word.")
    return upper
