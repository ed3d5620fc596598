"""requirements.lock: every package pinned with hashes, in step with pyproject.toml, and honoured by the install.

A class installs what the lock says, not whatever the ranges allow on the day;
`make lock` regenerates it (see README "Versions"). These tests fail when the
lock and pyproject.toml drift apart, or when the environment running the suite
(installed by `make`) is not the locked one.
"""

from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def _entries() -> list[tuple[str, str, str | None, list[str]]]:
    """(name, version, marker, hashes) for each pinned line of the lock."""
    entries: list[tuple[str, str, str | None, list[str]]] = []
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = _ENTRY.match(line)
        if match:
            entries.append((canonicalize_name(match.group(1)), match.group(2), match.group(3), []))
        elif line.strip().startswith("--hash=sha256:") and entries:
            entries[-1][3].append(line.strip().removeprefix("--hash=sha256:").rstrip(" \\"))
    return entries


def _project_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"]["dev"]]]


def _applies(marker: str | None) -> bool:
    return marker is None or Marker(marker).evaluate()


def test_every_locked_package_has_an_exact_version_and_sha256_hashes() -> None:
    entries = _entries()
    assert len(entries) > 100, "the lock looks truncated"
    for name, version, _marker, hashes in entries:
        assert hashes, f"{name}=={version} has no --hash line"
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), f"{name}: malformed sha256"


def test_every_direct_dependency_is_locked_within_its_pyproject_range() -> None:
    """A pyproject.toml edit without `make lock` leaves a range the lock does not meet: caught here."""
    locked: dict[str, list[str]] = {}
    for name, version, marker, _ in _entries():
        if _applies(marker):
            locked.setdefault(name, []).append(version)
    for requirement in _project_requirements():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is in pyproject.toml but not in requirements.lock: run `make lock`"
        assert any(requirement.specifier.contains(v, prereleases=True) for v in locked[name]), (
            f"requirements.lock pins {name}=={locked[name]} outside pyproject.toml's {requirement}: run `make lock`")


@pytest.mark.skipif(sys.version_info < (3, 11, 5), reason="the lock covers Python >= 3.11.5 (see Makefile)")
def test_the_environment_running_the_suite_is_the_locked_one() -> None:
    """`make` installed exactly the pinned versions (a fresh clone's CI run checks the real install)."""
    wrong = []
    for name, version, marker, _ in _entries():
        if not _applies(marker):
            continue
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            wrong.append(f"{name}: not installed (lock says {version})")
            continue
        if canonicalize_name(installed) != canonicalize_name(version) and installed != version:
            wrong.append(f"{name}: {installed} installed, lock says {version}")
    assert not wrong, "the environment does not match requirements.lock (run `make clean test`): " + "; ".join(wrong)


def test_make_installs_from_the_lock_with_hash_checking() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--require-hashes -r $(LOCK)" in makefile
    assert re.search(r"^\$\(STAMP\): pyproject.toml \$\(LOCK\)", makefile, re.M), "a lock change must reinstall"
    assert "--no-deps -e '.[dev]'" in makefile, "the project itself must not pull unlocked dependencies"
