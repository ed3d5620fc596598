"""sqlglot's Oracle dialect, extended with the Oracle 23ai syntax the workshop uses.

sqlglot's stock Oracle parser does not know ``VECTOR_EMBEDDING(model USING
expr AS DATA)`` nor Oracle's ``VECTOR(dimensions, format)`` column type (it
reads Snowflake's ``VECTOR(type, dimensions)``). This module adds both as
small parser/generator extensions, in the style of sqlglot's own dialects, so
the same statements parse here and render back as Oracle SQL.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.dialects.oracle import Oracle as _StockOracle
from sqlglot.generators.oracle import OracleGenerator
from sqlglot.parsers.oracle import OracleParser


class VectorEmbedding(exp.Expression, exp.Func):
    """``VECTOR_EMBEDDING(model USING expr AS DATA)``: ``this`` is the model, ``expression`` the input."""

    arg_types = {"this": True, "expression": True}
    _sql_names = ["VECTOR_EMBEDDING"]


def _parse_vector_embedding(self: OracleParser) -> exp.Expression:
    model = self._parse_column()
    if not self._match_text_seq("USING"):
        self.raise_error("Expected USING in VECTOR_EMBEDDING(model USING expr AS DATA)")
    data = self._parse_bitwise()
    if not self._match_text_seq("AS", "DATA"):
        self.raise_error("Expected AS DATA in VECTOR_EMBEDDING(model USING expr AS DATA)")
    return self.expression(VectorEmbedding(this=model, expression=data))


class WorkshopOracleParser(OracleParser):
    """Oracle parser plus VECTOR_EMBEDDING and Oracle's VECTOR(dim, format) type."""

    FUNCTION_PARSERS = {
        **OracleParser.FUNCTION_PARSERS,
        "VECTOR_EMBEDDING": _parse_vector_embedding,
    }

    def _parse_vector_expressions(self, expressions: list[exp.Expr]) -> list[exp.Expr]:
        # Oracle writes VECTOR(384, FLOAT32) / VECTOR(*, FLOAT64): dimensions first.
        return expressions


class WorkshopOracleGenerator(OracleGenerator):
    """Oracle generator that renders VectorEmbedding back in Oracle syntax."""

    TRANSFORMS = {
        **OracleGenerator.TRANSFORMS,
        VectorEmbedding: lambda self, e: (
            f"VECTOR_EMBEDDING({self.sql(e, 'this')} USING {self.sql(e, 'expression')} AS DATA)"
        ),
    }


class Oracle(_StockOracle):
    """The dialect every SQL statement the workshop ships is checked against."""

    Parser = WorkshopOracleParser
    Generator = WorkshopOracleGenerator
