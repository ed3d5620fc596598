"""Every file the README and docs/ name exists: a renamed test or module cannot leave a doc pointing nowhere."""

from __future__ import annotations

import re

from workshop_lib import release

ROOT = release.REPO_ROOT
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: a path written from the repository root, or (`lite/text.py`, `checks/todo3.py`) from inside workshop_lib/
PATH = re.compile(r"(?<![\w./-])((?:\.?[A-Za-z0-9_-]+/)+[A-Za-z0-9_.-]+\.(?:py|md|ipynb|json|sql|ya?ml|toml|lock))\b")


def named_paths() -> dict[str, set[str]]:
    """path -> the docs that name it."""
    found: dict[str, set[str]] = {}
    for doc in DOCS:
        for match in PATH.finditer(doc.read_text(encoding="utf-8")):
            found.setdefault(match.group(1), set()).add(doc.name)
    return found


def test_the_docs_name_files_at_all() -> None:
    paths = named_paths()
    assert len(paths) > 50 and "tests/test_checks_on_a_used_store.py" in paths


def test_every_file_the_docs_name_exists() -> None:
    """Paths in the project's own folders; examples (``submitted/alice.ipynb``) and files inside packages are not."""
    ours = {p.name for base in (ROOT, ROOT / "workshop_lib") for p in base.iterdir() if p.is_dir()}
    missing = {path: sorted(docs) for path, docs in named_paths().items()
               if path.split("/")[0] in ours
               and not (ROOT / path).exists() and not (ROOT / "workshop_lib" / path).exists()}
    assert not missing, f"docs name files that do not exist: {missing}"
