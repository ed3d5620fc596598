"""The student bundle holds what learners need and nothing that gives the answers away."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from workshop_lib.bundle import BundleError, build_bundle

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("bundle") / "class"
    build_bundle(target)
    return target


def test_the_bundle_has_the_notebooks_library_seed_and_docs(bundle):
    for part in ("01_seed_and_explore", "02_memory_and_scanner", "03_retrieval", "04_agent_and_corrections"):
        assert (bundle / "notebooks" / part / f"{part}.ipynb").is_file()
    assert (bundle / "workshop_lib" / "data" / "supplychain.sql").is_file()
    assert (bundle / "seed" / "supplychain.sql").is_file() and not (bundle / "seed" / "supplychain.sql").is_symlink()
    assert (bundle / "docs" / "part4.md").is_file() and (bundle / "README.md").is_file()


def test_the_bundle_has_every_file_the_makefile_installs_from(bundle):
    """`make lab` in the bundle must work: the install step's prerequisites (pyproject, the lock) are there."""
    import re

    makefile = (bundle / "Makefile").read_text(encoding="utf-8")
    variables = dict(re.findall(r"^(\w+)\s*:?=\s*(\S+)\s*$", makefile, re.M))
    prerequisites = re.search(r"^\$\(STAMP\):(.*)$", makefile, re.M).group(1).split()
    files = [variables[p[2:-1]] if p.startswith("$(") else p for p in prerequisites]
    assert "requirements.lock" in files
    for name in files:
        assert (bundle / name).is_file(), f"the bundle lacks {name}, which `make` installs from"


def test_the_bundle_has_no_solutions_hidden_tests_or_instructor_material(bundle):
    assert not (bundle / "solutions").exists() and not (bundle / "tests").exists()
    assert not (bundle / "docs" / "instructors-grading.md").exists()
    for notebook in bundle.rglob("*.ipynb"):
        text = notebook.read_text()
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, notebook
        for cell in json.loads(text)["cells"]:
            assert not cell.get("outputs"), f"{notebook} ships with outputs"


def test_the_bundled_library_imports_and_seeds_from_package_data(bundle):
    code = ("import workshop_lib.seed as s, workshop_lib.notebook; "
            "print(s.DEFAULT_SQL_PATH.is_file(), s.DEFAULT_SQL_PATH.is_relative_to(__import__('pathlib').Path.cwd()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=bundle, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


def test_the_bundle_never_overwrites_and_refuses_a_leak(tmp_path, monkeypatch):
    (tmp_path / "taken").mkdir()
    with pytest.raises(BundleError, match="already exists"):
        build_bundle(tmp_path / "taken")
    fake = tmp_path / "repo"
    (fake / "notebooks" / "x").mkdir(parents=True)
    (fake / "notebooks" / "x" / "x.ipynb").write_text('{"cells": [{"source": "### BEGIN SOLUTION"}]}')
    with pytest.raises(BundleError, match="contains solution or hidden-test code"):
        build_bundle(tmp_path / "out", root=fake)
    assert not (tmp_path / "out").exists()
