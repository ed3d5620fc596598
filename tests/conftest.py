"""Shared fixtures: every test gets an isolated, empty WORKSHOP_HOME unless it asks otherwise."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh WORKSHOP_HOME for one test (lite backend)."""
    monkeypatch.setenv("WORKSHOP_HOME", str(tmp_path))
    monkeypatch.setenv("WORKSHOP_BACKEND", "lite")
    return tmp_path


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``oracle`` need a live database: skip them, with the reason, when ORACLE_DSN is unset."""
    if os.environ.get("ORACLE_DSN"):
        return
    skip = pytest.mark.skip(reason="needs a live Oracle database: set ORACLE_DSN (and ORACLE_USER/ORACLE_PASSWORD)")
    for item in items:
        if "oracle" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def memory_ws(tmp_path_factory: pytest.TempPathFactory):
    """A lite workshop of its own (model, seed, OAMP tables, profiles, text index), shared by one module."""
    from workshop_lib.workshop import start

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKSHOP_HOME", str(tmp_path_factory.mktemp("memory_ws")))
        mp.setenv("WORKSHOP_BACKEND", "lite")
        workshop = start(upto="memory")
        workshop.ensure_memory()
        yield workshop
        workshop.close()
