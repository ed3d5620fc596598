"""Each submission's grading result, kept in a grading workdir so a later run reuses it while nothing changed.

Instructors grade a lab several times as submissions arrive (``workshop grade
submitted/ --workdir graded/``). A submission costs a kernel run and a clean
re-run, so a run with a workdir keeps what each one earned in
``<workdir>/results/<learner id>/<assignment>.json``, with a fingerprint of
everything the result depends on: the submitted file's bytes, the assignment's
source notebook (its checks and hidden tests), nbgrader's configuration and
the workshop library (its checks, reference code and seed). The next run reuses
a result whose fingerprint is unchanged and whose submission the gradebook
still holds; anything else is graded again. ``--regrade`` ignores kept results.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

__all__ = ["library_digest", "fingerprint", "save", "load"]

_FORMAT = 1   # bump when what is kept changes: older files are then graded again
_LIBRARY = Path(__file__).resolve().parent


def library_digest(root: Path) -> str:
    """sha256 over the workshop library's files and ``root``'s nbgrader_config.py (names and contents)."""
    digest = hashlib.sha256()
    files = sorted(p for p in _LIBRARY.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    config = Path(root) / "nbgrader_config.py"
    for path in files + ([config] if config.is_file() else []):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def fingerprint(submission: Path, source_text: str, library: str) -> str:
    """What one submission's result depends on: its bytes, its assignment's source and the library digest."""
    digest = hashlib.sha256()
    for part in (Path(submission).read_bytes(), source_text.encode("utf-8"), library.encode()):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def _path(course: Path, learner_id: str, assignment: str) -> Path:
    return Path(course) / "results" / learner_id / f"{assignment}.json"


def save(course: Path, learner_id: str, assignment: str, key: str, scores: dict[str, Any],
         notes: list[str]) -> None:
    """Keep ``scores`` (grade id -> TodoScore) and ``notes`` of one graded submission under its fingerprint."""
    path = _path(course, learner_id, assignment)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"format": _FORMAT, "fingerprint": key, "notes": list(notes),
              "scores": {grade_id: asdict(score) for grade_id, score in scores.items()}}
    part = path.with_suffix(".json.part")
    part.write_text(json.dumps(record, indent=1), encoding="utf-8")
    part.replace(path)   # never a half-written result


def load(course: Path, learner_id: str, assignment: str, key: str,
         make_score: Any) -> tuple[dict[str, Any], list[str]] | None:
    """The kept (scores, notes) of a submission when its fingerprint is ``key``, else None.

    ``make_score(**fields)`` rebuilds a score (grading's TodoScore). A missing,
    unreadable or stale file is None: the submission is graded again.
    """
    try:
        record = json.loads(_path(course, learner_id, assignment).read_text(encoding="utf-8"))
        if record.get("format") != _FORMAT or record.get("fingerprint") != key:
            return None
        return ({grade_id: make_score(**fields) for grade_id, fields in record["scores"].items()},
                [str(note) for note in record["notes"]])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
