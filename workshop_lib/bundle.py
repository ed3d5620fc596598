"""The student bundle: the workshop as a graded class hands it out, without solutions or hidden tests.

``python -m workshop_lib.bundle <dir>`` (``make bundle``) copies what a learner
needs — the released notebooks, the library (with the seed as package data),
the docs for learners, the README, the Makefile, ``pyproject.toml``, the
devcontainer and ``.env.example`` — and leaves out ``solutions/``, the test
suite (its mutants hold working solutions), the benchmarks, CI files and the
instructors' guides. It then scans every copied text file for solution and
hidden-test markers and refuses to finish if one slipped in.

Repository tooling (needs a source checkout), like :mod:`workshop_lib.release`.
Limit, stated in docs/instructors-grading.md: the library itself contains its
versions of the graded functions (the checks compare learners with them), so
the bundle hides solutions from the notebooks, not from a learner who reads
the library's source; the checks fail a TODO that calls them.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Sequence

from .errors import WorkshopError

REPO_ROOT = Path(__file__).resolve().parent.parent

#: What the bundle holds, relative to the repository root.
INCLUDE = ("README.md", "Makefile", "pyproject.toml", "requirements.lock", ".env.example", ".gitignore", ".devcontainer", "docs",
           "notebooks", "workshop_lib", "seed")
#: Left out of the copied folders: instructors' material and build leftovers.
EXCLUDE_NAMES = {"instructors.md", "instructors-grading.md", "__pycache__", ".ipynb_checkpoints"}
#: Text that must never reach learners.
FORBIDDEN = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS")


class BundleError(WorkshopError):
    """The bundle cannot be written, or would contain solutions."""


def _ignore(_folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in EXCLUDE_NAMES or n.endswith(".pyc")}


def build_bundle(target: Path, root: Path = REPO_ROOT) -> list[Path]:
    """Write the student bundle into ``target`` (must not exist yet); returns the files written."""
    target, root = Path(target), Path(root)
    if target.exists():
        raise BundleError(f"{target} already exists; pass a new folder (the bundle never overwrites).")
    if not (root / "notebooks").is_dir():
        raise BundleError(f"no notebooks/ under {root}: run this from a source checkout.")
    target.mkdir(parents=True)
    for name in INCLUDE:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=_ignore, symlinks=False)
        elif source.is_file():
            shutil.copy2(source, target / name)
    written = sorted(p for p in target.rglob("*") if p.is_file())
    leaks = [p for p in written if _has_forbidden(p)]
    if leaks:
        shutil.rmtree(target)
        raise BundleError(f"{leaks[0].relative_to(target)} contains solution or hidden-test code; "
                          "run `make release` and bundle again (nothing was written).")
    return written


def _has_forbidden(path: Path) -> bool:
    if path.suffix not in (".ipynb", ".py"):
        return False   # prose may name the markers; code and notebooks must not carry them
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return False
    if path.name == "bundle.py" or path.name == "release.py":
        return False   # the tooling names the markers it looks for
    return any(marker in text for marker in FORBIDDEN)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m workshop_lib.bundle <dir>``."""
    parser = argparse.ArgumentParser(prog="python -m workshop_lib.bundle", description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path, help="a new folder to write the bundle into")
    args = parser.parse_args(argv)
    try:
        files = build_bundle(args.target)
    except BundleError as exc:
        print(f"bundle: {exc}", file=sys.stderr)
        return 2
    print(f"wrote the student bundle to {args.target} ({len(files)} files, no solutions, no hidden tests)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
