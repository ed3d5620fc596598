"""sqlglot's Oracle dialect, extended with the Oracle 23ai syntax the workshop uses.

sqlglot's stock Oracle parser does not know ``VECTOR_EMBEDDING(model USING
expr AS DATA)``, Oracle's ``VECTOR(dimensions, format)`` column type (it
reads Snowflake's ``VECTOR(type, dimensions)``) nor ``FETCH APPROX FIRST n
ROWS ONLY``. This module adds them as
small parser/generator extensions, in the style of sqlglot's own dialects, so
the same statements parse here and render back as Oracle SQL.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.dialects.oracle import Oracle as _StockOracle
from sqlglot.dialects.sqlite import SQLite as _StockSQLite
from sqlglot.generators.sqlite import SQLiteGenerator
from sqlglot.tokens import TokenType
from sqlglot.generators.oracle import OracleGenerator
from sqlglot.parsers.oracle import OracleParser


class VectorEmbedding(exp.Expression, exp.Func):
    """``VECTOR_EMBEDDING(model USING expr AS DATA)``: ``this`` is the model, ``expression`` the input."""

    arg_types = {"this": True, "expression": True}
    _sql_names = ["VECTOR_EMBEDDING"]


class Prediction(exp.Expression, exp.Func):
    """``PREDICTION(model USING expr [AS name], ...)``: scoring with an in-database (e.g. ONNX) model."""

    arg_types = {"this": True, "expressions": True}
    _sql_names = ["PREDICTION"]


class IndexTypeClause(exp.Expression):
    """``INDEXTYPE IS CTXSYS.CONTEXT [PARAMETERS ('...')]`` of an Oracle Text (domain) index."""

    arg_types = {"this": True, "parameters": False}


class VectorIndexClause(exp.Expression):
    """``ORGANIZATION INMEMORY NEIGHBOR GRAPH [DISTANCE m] [WITH TARGET ACCURACY n] [PARAMETERS (...)]``."""

    arg_types = {"organization": True, "distance": False, "accuracy": False, "parameters": False,
                 "parallel": False}


class IndexOptions(exp.Expression):
    """What follows CREATE INDEX's column list and index type: ``ONLINE``, ``[NO]PARALLEL [n]``.

    ``unsupported`` keeps the text of any other trailing clause, so that DDL can
    refuse it by name instead of sqlglot falling back to an opaque Command.
    """

    arg_types = {"online": False, "parallel": False, "unsupported": False}


class NegativeDotDistance(exp.Expression, exp.Binary):
    """``a <#> b``: Oracle 23ai's shorthand for ``VECTOR_DISTANCE(a, b, DOT)`` (the negated dot product)."""


_INDEX_ORGANIZATIONS = (("INMEMORY", "NEIGHBOR", "GRAPH"), ("NEIGHBOR", "PARTITIONS"))
_VECTOR_METRICS = ("COSINE", "EUCLIDEAN", "EUCLIDEAN_SQUARED", "DOT", "MANHATTAN", "HAMMING", "JACCARD")


def _parse_vector_embedding(self: OracleParser) -> exp.Expression:
    model = self._parse_column()
    if not self._match_text_seq("USING"):
        self.raise_error("Expected USING in VECTOR_EMBEDDING(model USING expr AS DATA)")
    data = self._parse_bitwise()
    if not self._match_text_seq("AS", "DATA"):
        self.raise_error("Expected AS DATA in VECTOR_EMBEDDING(model USING expr AS DATA)")
    return self.expression(VectorEmbedding(this=model, expression=data))


def _parse_prediction(self: OracleParser) -> exp.Expression:
    model = self._parse_column()
    if not self._match_text_seq("USING"):
        self.raise_error("Expected USING in PREDICTION(model USING expr AS name, ...)")
    inputs = [exp.Star()] if self._match(TokenType.STAR) else self._parse_csv(
        lambda: self._parse_alias(self._parse_bitwise(), explicit=True))
    return self.expression(Prediction(this=model, expressions=inputs))


class VarSamp(exp.Expression, exp.AggFunc):
    """``VAR_SAMP(x)``: sqlglot reads it as VARIANCE, which differs for one row (VARIANCE 0, VAR_SAMP NULL)."""

    arg_types = {"this": True}
    _sql_names = ["VAR_SAMP"]


class JsonQuery(exp.Expression, exp.Func):
    """``JSON_QUERY(doc, path [options])`` with its options as written (``WITH [CONDITIONAL|UNCONDITIONAL]
    [ARRAY] WRAPPER``, ``RETURNING ...``, ``... ON ERROR``): the stock parser stops at WITH."""

    arg_types = {"this": True, "path": True, "options": False}
    _sql_names = ["JSON_QUERY"]


def _parse_json_query(self: OracleParser) -> exp.Expression:
    doc = self._parse_bitwise()
    if not self._match(TokenType.COMMA):
        self.raise_error("Expected , after the document in JSON_QUERY(doc, path)")
    path = self._parse_bitwise()
    words: list[str] = []
    while self._curr and self._curr.token_type != TokenType.R_PAREN:
        words.append(self._curr.text.upper())
        if self._curr.token_type == TokenType.L_PAREN:   # RETURNING VARCHAR2(4000): keep the length as text
            self._advance()
            while self._curr and self._curr.token_type != TokenType.R_PAREN:
                words.append(self._curr.text)
                self._advance()
            words.append(")")
        self._advance()
    options = " ".join(words).replace(" ( ", "(").replace(" )", ")") if words else None
    return self.expression(JsonQuery(this=doc, path=path,
                                     options=exp.Literal.string(options) if options else None))


class JsonTableColumn(exp.JSONColumnDef):
    """A JSON_TABLE column as Oracle writes it. Besides sqlglot's name, type, PATH, FOR ORDINALITY, FORMAT JSON
    and NESTED: ``exists`` (an EXISTS column), ``wrapper`` (FORMAT JSON's ``WITH [CONDITIONAL] [ARRAY]
    WRAPPER`` as 1 or 2), ``on_error`` / ``on_empty`` (a Var -- NULL, ERROR, TRUE, FALSE, EMPTY ARRAY, EMPTY
    OBJECT -- or the DEFAULT value), ``time`` (a DATE column's PRESERVE TIME) and ``truncate``."""

    arg_types = {**exp.JSONColumnDef.arg_types, "exists": False, "wrapper": False, "on_error": False,
                 "on_empty": False, "time": False, "truncate": False}


_JSON_ON_WORDS = ("NULL", "ERROR", "TRUE", "FALSE")
_JSON_PATH_TOKENS = (TokenType.VAR, TokenType.IDENTIFIER, TokenType.DOT, TokenType.L_BRACKET, TokenType.R_BRACKET,
                     TokenType.STAR, TokenType.NUMBER)


def _parse_json_path_operand(self: OracleParser) -> exp.Expression | None:
    """A JSON_TABLE path: a string literal, or Oracle's simplified dot notation (``Part.Description``,
    ``LineItems[*]``), which reads as ``$.`` followed by it."""
    if self._curr is not None and self._curr.token_type == TokenType.STRING:
        return self._parse_string()
    if self._curr is not None and self._curr.text.startswith("$"):
        self.raise_error("A JSON path starting with $ is a string literal ('$.a.b'); dot notation has no $ (a.b)")
    words: list[str] = []
    while self._curr is not None and (self._curr.token_type in _JSON_PATH_TOKENS
                                      or (self._curr.text.isidentifier() and words and words[-1] == ".")):
        if self._curr.text.upper() in _JSON_ON_WORDS + ("DEFAULT", "EMPTY") and words and words[-1] != ".":
            break
        token = self._curr
        words.append(f'"{token.text}"' if token.token_type == TokenType.IDENTIFIER else token.text)
        self._advance()
    if not words:
        return None
    return exp.Literal.string("$." + "".join(words))


def _parse_json_on_clauses(self: OracleParser, column: exp.Expression) -> None:
    """``{NULL | ERROR | TRUE | FALSE | EMPTY [ARRAY | OBJECT] | DEFAULT literal} ON {ERROR | EMPTY}``, in
    either order, into the column's ``on_error`` / ``on_empty``."""
    while self._curr is not None and (self._curr.text.upper() in _JSON_ON_WORDS + ("DEFAULT", "EMPTY")):
        if self._match_text_seq("DEFAULT"):
            handling: exp.Expression = self._parse_unary()
            if not isinstance(handling, (exp.Literal, exp.Neg)):
                self.raise_error("Expected a literal after DEFAULT in a JSON_TABLE column")
        elif self._match_text_seq("EMPTY"):
            kind = "OBJECT" if self._match_text_seq("OBJECT") else "ARRAY"
            self._match_text_seq("ARRAY")
            handling = exp.var(f"EMPTY {kind}")
        else:
            handling = exp.var(self._curr.text.upper())
            self._advance()
        if not self._match(TokenType.ON):
            self.raise_error(f"Expected ON ERROR or ON EMPTY after {handling.sql()}")
        if self._match_text_seq("ERROR"):
            column.set("on_error", handling)
        elif self._match_text_seq("EMPTY"):
            column.set("on_empty", handling)
        else:
            self.raise_error("Expected ERROR or EMPTY after ON in a JSON_TABLE column")


def _json_table_column_sql(self: OracleGenerator, e: JsonTableColumn) -> str:
    if e.args.get("nested_schema"):
        return f"NESTED PATH {self.sql(e, 'path')} {self.sql(e, 'nested_schema')}"
    parts = [self.sql(e, "this")]
    if e.args.get("ordinality"):
        return f"{parts[0]} FOR ORDINALITY"
    if e.args.get("kind"):
        parts.append(self.sql(e, "kind"))
    if e.args.get("time"):
        parts.append("PRESERVE TIME")
    if e.args.get("truncate"):
        parts.append("TRUNCATE")
    if e.args.get("exists"):
        parts.append("EXISTS")
    if e.args.get("format_json"):
        parts.append("FORMAT JSON")
    if e.args.get("wrapper"):
        parts.append("WITH CONDITIONAL WRAPPER" if e.args["wrapper"] == 2 else "WITH WRAPPER")
    if e.args.get("path"):
        parts.append(f"PATH {self.sql(e, 'path')}")
    for key, word in (("on_error", "ERROR"), ("on_empty", "EMPTY")):
        handling = e.args.get(key)
        if handling is not None:
            text = handling.name if isinstance(handling, exp.Var) else f"DEFAULT {self.sql(handling)}"
            parts.append(f"{text} ON {word}")
    return " ".join(parts)


class OrganizationProperty(exp.Property):
    """``CREATE TABLE ... ORGANIZATION INDEX | HEAP``: how Oracle stores the rows, not what they are."""

    arg_types = {"this": True}


def _parse_organization(self: OracleParser) -> exp.Expression:
    if self._match_texts(("INDEX", "HEAP")):
        return self.expression(OrganizationProperty(this=exp.var(self._prev.text.upper())))
    self.raise_error("Expected INDEX or HEAP after ORGANIZATION (lite has no external tables)")
    return OrganizationProperty(this=exp.var("HEAP"))


class WorkshopOracleParser(OracleParser):
    """Oracle parser plus VECTOR_EMBEDDING, VECTOR(dim, format), FETCH APPROX, ``:1`` binds and the
    Oracle Text / spatial / vector index clauses and options of CREATE [VECTOR|BITMAP|SEARCH] INDEX."""

    def _parse_returning(self) -> exp.Returning | None:
        """``RETURNING expr, ... INTO :a, :b``: Oracle's INTO takes a list of bind variables (sqlglot's, one name)."""
        if not self._match(TokenType.RETURNING):
            return None
        expressions = self._parse_csv(self._parse_expression)
        into = exp.Tuple(expressions=self._parse_csv(self._parse_expression)) if self._match(TokenType.INTO) else None
        return self.expression(exp.Returning(expressions=expressions, into=into))

    def _parse_is(self, this: exp.Expr | None) -> exp.Expr | None:
        """``expr IS [NOT] JSON [STRICT | LAX] [ALLOW | DISALLOW SCALARS] [WITH | WITHOUT UNIQUE KEYS]``: Oracle's
        options (sqlglot reads only the unique-keys one) go in the JSON node's ``meta``."""
        index = self._index
        negate = self._match(TokenType.NOT)
        if not self._match(TokenType.JSON):
            self._retreat(index)
            return super()._parse_is(this)
        options: dict[str, object] = {}
        while True:
            if self._match_text_seq("STRICT") or self._match_text_seq("LAX"):
                options["strict"] = self._prev.text.upper() == "STRICT"
            elif self._match_text_seq("ALLOW", "SCALARS") or self._match_text_seq("DISALLOW", "SCALARS"):
                options["scalars"] = self._tokens[self._index - 2].text.upper() == "ALLOW"
            elif self._match_text_seq("WITH", "UNIQUE", "KEYS") or self._match_text_seq("WITHOUT", "UNIQUE", "KEYS"):
                options["unique"] = self._tokens[self._index - 3].text.upper() == "WITH"
            elif self._match_texts(self.IS_JSON_PREDICATE_KIND):
                options["kind"] = self._prev.text.upper()
            else:
                break
        node = exp.JSON(this=None)
        node.meta.update(options)
        predicate = self._build_predicate(exp.Is, this, node)
        return self._parse_column_ops(exp.Not(this=predicate) if negate else predicate)

    PROPERTY_PARSERS = {
        **OracleParser.PROPERTY_PARSERS,
        "ORGANIZATION": _parse_organization,
    }

    def _parse_json_column_def(self) -> exp.JSONColumnDef:
        """One entry of JSON_TABLE's COLUMNS clause, with Oracle's whole grammar (the stock parser reads
        name, type, FORMAT JSON, PATH and FOR ORDINALITY only): ``NESTED [PATH] path COLUMNS (...)``, EXISTS
        columns, FORMAT JSON's wrapper clause, the ON ERROR / ON EMPTY clauses, DATE's PRESERVE TIME or
        TRUNCATE TIME, and paths in simplified dot notation."""
        if self._match_text_seq("NESTED"):
            self._match_text_seq("PATH")
            path = _parse_json_path_operand(self)
            if path is None:
                self.raise_error("Expected a path after NESTED PATH")
            return self.expression(JsonTableColumn(path=path, nested_schema=self._parse_json_schema()))
        name = self._parse_id_var()
        if name is None:
            self.raise_error("Expected a column name in JSON_TABLE's COLUMNS clause")
        column = JsonTableColumn(this=name)
        if self._match_pair(TokenType.FOR, TokenType.ORDINALITY):
            column.set("ordinality", True)
            return self.expression(column)
        if self._curr is not None and self._curr.text.upper() not in ("EXISTS", "FORMAT", "PATH", "TRUNCATE") \
                and self._curr.token_type not in (TokenType.COMMA, TokenType.R_PAREN):
            kind = self._parse_types(allow_identifiers=False)
            if kind is None and self._curr.token_type in (TokenType.VAR, TokenType.IDENTIFIER):
                # a type sqlglot's Oracle parser does not read (RAW(16), BINARY_DOUBLE, SDO_GEOMETRY): kept as
                # written, so that lite can refuse it by name
                start = self._curr
                self._advance()
                if self._curr is not None and self._curr.token_type == TokenType.L_PAREN:
                    self._skip_wrapped()
                kind = exp.var(self._find_sql(start, self._prev))
            if kind is None:
                self.raise_error(f"Expected a data type, EXISTS, FORMAT JSON or PATH after {name.name}")
            column.set("kind", kind)
        if self._match_text_seq("PRESERVE", "TIME"):
            column.set("time", True)
        else:
            self._match_text_seq("TRUNCATE", "TIME")
        if self._match_text_seq("TRUNCATE"):
            column.set("truncate", True)
        if self._match_text_seq("EXISTS"):
            column.set("exists", True)
        if self._match_text_seq("FORMAT", "JSON"):
            column.set("format_json", True)
        if self._match_text_seq("WITHOUT"):
            self._match_text_seq("ARRAY")
            if not self._match_text_seq("WRAPPER"):
                self.raise_error("Expected WRAPPER after WITHOUT")
        elif self._match_text_seq("WITH"):
            wrapper = 2 if self._match_text_seq("CONDITIONAL") else 1
            self._match_text_seq("UNCONDITIONAL")
            self._match_text_seq("ARRAY")
            if not self._match_text_seq("WRAPPER"):
                self.raise_error("Expected WRAPPER after WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY]")
            column.set("wrapper", wrapper)
        if self._match_text_seq("PATH"):
            path = _parse_json_path_operand(self)
            if path is None:
                self.raise_error("Expected a path after PATH")
            column.set("path", path)
        _parse_json_on_clauses(self, column)
        return self.expression(column)

    def _parse_generated_as_identity(self) -> exp.Expression:
        """Oracle's ``GENERATED [ALWAYS | BY DEFAULT [ON NULL]] AS IDENTITY [(identity_options)]`` with the
        options in any order; those that do not change the values lite gives (CACHE n, NOCACHE, ORDER,
        NOORDER, NOCYCLE, NOMAXVALUE, NOMINVALUE, KEEP, NOKEEP) are read and dropped. ``START WITH LIMIT
        VALUE`` is ALTER TABLE ... MODIFY's (Oracle refuses it in CREATE TABLE), so it fails to parse."""
        if self._match_text_seq("BY", "DEFAULT"):
            on_null = self._match_pair(TokenType.ON, TokenType.NULL)
            this = self.expression(exp.GeneratedAsIdentityColumnConstraint(this=False, on_null=on_null))
        else:
            self._match_text_seq("ALWAYS")
            this = self.expression(exp.GeneratedAsIdentityColumnConstraint(this=True))
        self._match(TokenType.ALIAS)
        if not self._match_text_seq("IDENTITY"):   # GENERATED ALWAYS AS (expr): a virtual column
            if self._match(TokenType.L_PAREN):
                this.set("expression", self._parse_disjunction())
                self._match_r_paren()
            return this
        if not self._match(TokenType.L_PAREN):
            return this
        while self._curr and self._curr.token_type != TokenType.R_PAREN:
            word = self._curr.text.upper()
            if self._match_text_seq("START", "WITH"):
                if self._curr and self._curr.text.upper() == "LIMIT":
                    self.raise_error("START WITH LIMIT VALUE belongs to ALTER TABLE ... MODIFY")
                this.set("start", self._parse_bitwise())
            elif self._match_text_seq("INCREMENT", "BY"):
                this.set("increment", self._parse_bitwise())
            elif self._match_text_seq("MAXVALUE"):
                this.set("maxvalue", self._parse_bitwise())
            elif self._match_text_seq("MINVALUE"):
                this.set("minvalue", self._parse_bitwise())
            elif self._match_text_seq("CYCLE"):
                this.set("cycle", True)
            elif self._match_text_seq("CACHE"):
                self._parse_bitwise()
            elif word in ("NOCACHE", "NOCYCLE", "ORDER", "NOORDER", "NOMAXVALUE", "NOMINVALUE", "KEEP", "NOKEEP"):
                if word == "NOCYCLE":
                    this.set("cycle", False)
                self._advance()
            else:
                self.raise_error(f"Unexpected identity option {self._curr.text}")
        self._match_r_paren()
        return this

    def _parse_oracle_default(self) -> exp.Expression:
        """``DEFAULT [ON NULL [FOR INSERT ONLY | FOR INSERT AND UPDATE]] expr``: ON NULL is kept in the node's
        meta (``on_null``: ``INSERT`` or ``UPDATE``), which ddl.py and the generator read."""
        on_null = None
        if self._match_pair(TokenType.ON, TokenType.NULL):
            on_null = "INSERT"
            if self._match_text_seq("FOR", "INSERT", "AND", "UPDATE"):
                on_null = "UPDATE"
            else:
                self._match_text_seq("FOR", "INSERT", "ONLY")
        node = self.expression(exp.DefaultColumnConstraint(this=self._parse_bitwise()))
        if on_null:
            node.meta["on_null"] = on_null
        return node

    CONSTRAINT_PARSERS = {
        **OracleParser.CONSTRAINT_PARSERS,
        "DEFAULT": lambda self: self._parse_oracle_default(),
    }

    FUNCTIONS = {
        **OracleParser.FUNCTIONS,
        "VAR_SAMP": VarSamp.from_arg_list,
    }

    FUNCTION_PARSERS = {
        **OracleParser.FUNCTION_PARSERS,
        "VECTOR_EMBEDDING": _parse_vector_embedding,
        "PREDICTION": _parse_prediction,
        "JSON_QUERY": _parse_json_query,
    }

    # Oracle 23ai's vector distance operators: <=> cosine (tokenized as NULLSAFE_EQ), <-> Euclidean, <#> dot
    FACTOR = {
        **OracleParser.FACTOR,
        TokenType.LLRR_ARROW: NegativeDotDistance,   # the tokenizer maps <#> here (Oracle has no <<->>)
    }

    PLACEHOLDER_PARSERS = {
        **OracleParser.PLACEHOLDER_PARSERS,
        # Oracle binds are :name or :1 (positional); stock sqlglot only knows :name.
        TokenType.COLON: lambda self: (
            self.expression(exp.Placeholder(this=self._prev.text))
            if self._match_set(self.COLON_PLACEHOLDER_TOKENS) or self._match(TokenType.NUMBER)
            else None
        ),
    }

    def _parse_create(self) -> exp.Expr:
        # CREATE VECTOR|BITMAP|SEARCH INDEX: the stock parser has no such creatables.
        if (self._curr is not None and self._curr.text.upper() in ("VECTOR", "BITMAP", "SEARCH")
                and self._next is not None and self._next.token_type == TokenType.INDEX):
            variety = self._curr.text.upper()
            self._advance()
            create = super()._parse_create()
            if isinstance(create, exp.Create):
                create.set("kind", f"{variety} INDEX")
            return create
        return super()._parse_create()

    def _parse_index(self, index: exp.Expr | None = None, anonymous: bool = False) -> exp.Index | None:
        if index is not None and self._match(TokenType.DOT):
            # CREATE INDEX schema.name ON ...: the stock parser reads a bare name only.
            index = exp.Table(this=self._parse_id_var(), db=index)
        parsed = super()._parse_index(index=index, anonymous=anonymous)
        if parsed is not None and (index is not None or anonymous):
            tail = self._parse_oracle_index_clause()
            if tail is not None:
                parsed.set("oracle", tail)
            options = self._parse_index_options()
            if options is not None:
                parsed.set("options", options)
        return parsed

    def _parse_index_options(self) -> IndexOptions | None:
        online = parallel = unsupported = None
        while True:
            if self._match_text_seq("ONLINE"):
                online = True
            elif self._match_text_seq("NOPARALLEL"):
                parallel = "NOPARALLEL"
            elif self._match_text_seq("PARALLEL"):
                degree = self._parse_number()
                parallel = f"PARALLEL {degree.name}" if degree is not None else "PARALLEL"
            else:
                break
        if self._index < self._tokens_size and self._curr.token_type != TokenType.SEMICOLON:
            start = self._curr
            while self._index < self._tokens_size and self._curr.token_type != TokenType.SEMICOLON:
                self._advance()
            unsupported = self._find_sql(start, self._prev)
        if online is None and parallel is None and unsupported is None:
            return None
        return self.expression(IndexOptions(online=online, parallel=parallel, unsupported=unsupported))

    def _parse_oracle_index_clause(self) -> exp.Expr | None:
        if self._match_text_seq("INDEXTYPE", "IS"):
            itype = self._parse_table_parts()
            params = None
            if self._match_text_seq("PARAMETERS"):
                self._match_l_paren()
                params = self._parse_string()
                self._match_r_paren()
            self._match_text_seq("PARALLEL") and self._parse_number()
            return self.expression(IndexTypeClause(this=itype, parameters=params))
        if not self._match_text_seq("ORGANIZATION"):
            return None
        for words in _INDEX_ORGANIZATIONS:
            if self._match_text_seq(*words):
                organization = " ".join(words)
                break
        else:
            self.raise_error("Expected INMEMORY NEIGHBOR GRAPH or NEIGHBOR PARTITIONS after ORGANIZATION")
        distance = accuracy = parameters = parallel = None
        if self._match_text_seq("DISTANCE"):
            if not self._match_texts(_VECTOR_METRICS):
                self.raise_error("Expected a vector distance metric after DISTANCE")
            distance = self._prev.text.upper()
        if self._match_text_seq("WITH", "TARGET", "ACCURACY"):
            accuracy = self._parse_number()
        if self._match_text_seq("PARAMETERS"):
            start = self._curr
            self._skip_wrapped()
            parameters = self._find_sql(start, self._prev)
        if self._match_text_seq("PARALLEL"):
            parallel = self._parse_number()
        return self.expression(VectorIndexClause(organization=organization, distance=distance, accuracy=accuracy,
                                                 parameters=parameters, parallel=parallel))

    def _skip_wrapped(self) -> None:
        """Step over a parenthesised list of any tokens (kept as text by the caller)."""
        if not self._match(TokenType.L_PAREN):
            self.raise_error("Expected (")
        depth = 1
        while self._index < self._tokens_size and depth:
            if self._curr.token_type == TokenType.L_PAREN:
                depth += 1
            elif self._curr.token_type == TokenType.R_PAREN:
                depth -= 1
            self._advance()

    def _parse_vector_expressions(self, expressions: list[exp.Expr]) -> list[exp.Expr]:
        # Oracle writes VECTOR(384, FLOAT32) / VECTOR(*, FLOAT64): dimensions first.
        return expressions

    def _parse_limit(self, this: exp.Expr | None = None, top: bool = False,
                     skip_limit_token: bool = False) -> exp.Expr | None:
        # Oracle's row limiting clause, read here rather than by sqlglot: the row count is an expression
        # (FETCH FIRST :n - 1 ROWS ONLY; sqlglot reads one field), and Oracle 23ai's vector search adds
        # FETCH APPROX|APPROXIMATE|EXACT FIRST n ROWS ONLY [WITH TARGET ACCURACY ...].
        if not top and not skip_limit_token and self._match(TokenType.FETCH):
            mode = self._prev.text.upper() + " " if self._match_texts(("APPROX", "APPROXIMATE", "EXACT")) else ""
            direction = self._prev.text.upper() if self._match_set((TokenType.FIRST, TokenType.NEXT)) else "FIRST"
            count = None if self._match_texts(("ROW", "ROWS"), advance=False) else self._parse_bitwise()
            fetch = self.expression(exp.Fetch(direction=f"{mode}{direction}", count=count,
                                              limit_options=self._parse_row_limit_options()))
            if mode and self._match_text_seq("WITH", "TARGET", "ACCURACY"):
                # WITH TARGET ACCURACY n | PARAMETERS (EFSEARCH n | NEIGHBOR PARTITION PROBES n): kept as text
                # for rendering; an exact search (lite's) meets any accuracy
                start = self._curr
                if self._match_text_seq("PARAMETERS"):
                    self._skip_wrapped()
                elif self._parse_number() is None:
                    self.raise_error("Expected a number or PARAMETERS after WITH TARGET ACCURACY")
                fetch.meta["target_accuracy"] = self._find_sql(start, self._prev)
            return fetch
        return super()._parse_limit(this, top, skip_limit_token)

    def _parse_row_limit_options(self) -> exp.LimitOptions:
        # Oracle's row limiting clause: [PERCENT] {ROW | ROWS} {ONLY | WITH TIES}, both keywords required
        # (sqlglot's reader takes either, or neither, and '%' for PERCENT)
        percent = self._match(TokenType.PERCENT)
        if not self._match_texts(("ROW", "ROWS")):
            self.raise_error("Expected ROW or ROWS in the FETCH clause")
        with_ties = self._match_text_seq("WITH", "TIES")
        if not with_ties and not self._match_text_seq("ONLY"):
            self.raise_error("Expected ONLY or WITH TIES after FETCH ... ROWS")
        return self.expression(exp.LimitOptions(percent=percent, rows=True, with_ties=with_ties))

    def _parse_offset(self, this: exp.Expr | None = None) -> exp.Expr | None:
        # Oracle: OFFSET n {ROW | ROWS}, the keyword required (sqlglot's reader makes it optional)
        if not self._match(TokenType.OFFSET):
            return this
        count = self._parse_term()
        if not self._match_texts(("ROW", "ROWS")):
            self.raise_error("Expected ROW or ROWS after OFFSET")
        return self.expression(exp.Offset(this=this, expression=count, expressions=self._parse_limit_by()))


def _vector_index_sql(self: OracleGenerator, e: VectorIndexClause) -> str:
    parts = [f"ORGANIZATION {e.args['organization']}"]
    if e.args.get("distance"):
        parts.append(f"DISTANCE {e.args['distance']}")
    if e.args.get("accuracy") is not None:
        parts.append(f"WITH TARGET ACCURACY {self.sql(e, 'accuracy')}")
    if e.args.get("parameters"):
        parts.append(f"PARAMETERS {e.args['parameters']}")
    if e.args.get("parallel") is not None:
        parts.append(f"PARALLEL {self.sql(e, 'parallel')}")
    return " ".join(parts)


class WorkshopOracleGenerator(OracleGenerator):
    """Oracle generator that renders the extensions back in Oracle syntax."""

    TRANSFORMS = {
        **OracleGenerator.TRANSFORMS,
        VectorEmbedding: lambda self, e: (
            f"VECTOR_EMBEDDING({self.sql(e, 'this')} USING {self.sql(e, 'expression')} AS DATA)"
        ),
        IndexTypeClause: lambda self, e: (
            f"INDEXTYPE IS {self.sql(e, 'this')}"
            + (f" PARAMETERS ({self.sql(e, 'parameters')})" if e.args.get("parameters") else "")
        ),
        VectorIndexClause: _vector_index_sql,
        OrganizationProperty: lambda self, e: f"ORGANIZATION {self.sql(e, 'this')}",
        exp.DefaultColumnConstraint: lambda self, e: (
            "DEFAULT " + {"INSERT": "ON NULL ", "UPDATE": "ON NULL FOR INSERT AND UPDATE "}.get(
                e.meta.get("on_null"), "") + self.sql(e, "this")
        ),
        JsonQuery: lambda self, e: (
            f"JSON_QUERY({self.sql(e, 'this')}, {self.sql(e, 'path')}"
            + (f" {e.args['options'].name}" if e.args.get("options") else "") + ")"
        ),
        JsonTableColumn: _json_table_column_sql,
        Prediction: lambda self, e: f"PREDICTION({self.sql(e, 'this')} USING {self.expressions(e, flat=True)})",
        exp.NullSafeEQ: lambda self, e: self.binary(e, "<=>"),
        exp.Distance: lambda self, e: self.binary(e, "<->"),
        NegativeDotDistance: lambda self, e: self.binary(e, "<#>"),
        IndexOptions: lambda self, e: " ".join(
            part for part in ("ONLINE" if e.args.get("online") else "", e.args.get("parallel") or "",
                              e.args.get("unsupported") or "") if part),
        # DATE '2025-01-01' is an Oracle literal: keep it one (the stock generator writes TO_DATE(...)).
        exp.DateStrToDate: lambda self, e: (
            f"DATE {self.sql(e, 'this')}" if isinstance(e.this, exp.Literal) and e.this.is_string
            else OracleGenerator.TRANSFORMS[exp.DateStrToDate](self, e)
        ),
        # TRUNC(date) means TRUNC(date, 'DD'); sqlglot fills the unit in, render it as written.
        exp.DateTrunc: lambda self, e: (
            self.func("TRUNC", e.this)
            if isinstance(e.args.get("unit"), exp.Literal) and e.args["unit"].name.upper() == "DD"
            else self.func("TRUNC", e.this, e.args.get("unit"))
        ),
    }

    PROPERTIES_LOCATION = {
        **OracleGenerator.PROPERTIES_LOCATION,
        OrganizationProperty: exp.Properties.Location.POST_SCHEMA,
    }

    def fetch_sql(self, expression: exp.Fetch) -> str:
        sql = super().fetch_sql(expression)
        accuracy = expression.meta.get("target_accuracy")
        return f"{sql} WITH TARGET ACCURACY {accuracy}" if accuracy else sql

    def index_sql(self, expression: exp.Index) -> str:
        sql = super().index_sql(expression)
        for key in ("oracle", "options"):
            clause = expression.args.get(key)
            if clause is not None:
                sql = f"{sql} {self.sql(clause)}"
        return sql


class WorkshopOracleTokenizer(_StockOracle.Tokenizer):
    """Oracle tokenizer that keeps BINARY_DOUBLE / BINARY_FLOAT as written.

    The stock one reads them as DOUBLE / FLOAT and writes them back as DOUBLE
    PRECISION / FLOAT, which in Oracle are NUMBER types, not IEEE floats.
    """

    KEYWORDS = {**{k: v for k, v in _StockOracle.Tokenizer.KEYWORDS.items()
                   if k not in ("BINARY_DOUBLE", "BINARY_FLOAT")},
                "<#>": TokenType.LLRR_ARROW}   # the negative-dot distance operator (parsed in FACTOR)
    KEYWORDS.pop("<<->>", None)


class Oracle(_StockOracle):
    """The dialect every SQL statement the workshop ships is checked against."""

    Tokenizer = WorkshopOracleTokenizer
    Parser = WorkshopOracleParser
    Generator = WorkshopOracleGenerator


# SQLite's keywords (sqlite.org/lang_keywords.html) but the three it reads as the current date/time: an
# Oracle name that is one of them (a column or an alias called NOTHING, PLAN, QUERY, ...) is quoted in the
# SQLite text, where quoting changes nothing else (SQLite matches quoted names without regard to case).
SQLITE_KEYWORDS = frozenset("""
    abort action add after all alter always analyze and as asc attach autoincrement before begin between by
    cascade case cast check collate column commit conflict constraint create cross current database default
    deferrable deferred delete desc detach distinct do drop each else end escape except exclude exclusive
    exists explain fail filter first following for foreign from full generated glob group groups having if
    ignore immediate in index indexed initially inner insert instead intersect into is isnull join key last
    left like limit match materialized natural no not nothing notnull null nulls of offset on or order
    others outer over partition plan pragma preceding primary query raise range recursive references regexp
    reindex release rename replace restrict returning right rollback row rows savepoint select set table
    temp temporary then ties to transaction trigger unbounded union unique update using vacuum values view
    virtual when where window with without""".split())


class LiteSQLiteGenerator(SQLiteGenerator):
    """SQLite's generator, quoting names that are SQLite keywords."""

    RESERVED_KEYWORDS = SQLITE_KEYWORDS


class LiteSQLite(_StockSQLite):
    """The SQLite dialect lite writes its translations in."""

    Generator = LiteSQLiteGenerator
