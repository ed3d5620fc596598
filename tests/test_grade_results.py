"""grade_results: what a grading workdir keeps of each submission, and when a later run may reuse it."""

from __future__ import annotations

from pathlib import Path

from workshop_lib import grade_results
from workshop_lib.grading import TodoScore
from workshop_lib.release import REPO_ROOT

SCORES = {"check_todo2": TodoScore(0.0, 3.0, "CheckFailure: TODO 2 failed", ["refers to the checks"]),
          "check_todo3": TodoScore(4.0, 4.0)}


def test_a_kept_result_comes_back_as_it_was_saved(tmp_path):
    grade_results.save(tmp_path, "ada", "03_retrieval", "f1", SCORES, ["a note"])
    assert grade_results.load(tmp_path, "ada", "03_retrieval", "f1", TodoScore) == (SCORES, ["a note"])
    assert not list(tmp_path.rglob("*.part"))


def test_a_stale_missing_or_damaged_result_is_graded_again(tmp_path):
    grade_results.save(tmp_path, "ada", "03_retrieval", "f1", SCORES, [])
    assert grade_results.load(tmp_path, "ada", "03_retrieval", "f2", TodoScore) is None   # something changed
    assert grade_results.load(tmp_path, "bob", "03_retrieval", "f1", TodoScore) is None
    kept = tmp_path / "results" / "ada" / "03_retrieval.json"
    kept.write_text(kept.read_text(encoding="utf-8").replace('"format": 1', '"format": 0'), encoding="utf-8")
    assert grade_results.load(tmp_path, "ada", "03_retrieval", "f1", TodoScore) is None   # an older format
    for damage in ("{not json", '{"format": 1, "fingerprint": "f1", "scores": {"x": {"nope": 1}}, "notes": []}'):
        kept.write_text(damage, encoding="utf-8")
        assert grade_results.load(tmp_path, "ada", "03_retrieval", "f1", TodoScore) is None


def test_the_fingerprint_follows_the_submission_the_source_and_the_library(tmp_path):
    submission = tmp_path / "part3.ipynb"
    submission.write_text("{}", encoding="utf-8")
    library = grade_results.library_digest(REPO_ROOT)
    assert library == grade_results.library_digest(REPO_ROOT) and len(library) == 64
    first = grade_results.fingerprint(submission, "source", library)
    assert first == grade_results.fingerprint(Path(submission), "source", library)
    assert grade_results.fingerprint(submission, "source 2", library) != first
    assert grade_results.fingerprint(submission, "source", "0" * 64) != first
    submission.write_text("{ }", encoding="utf-8")
    assert grade_results.fingerprint(submission, "source", library) != first
    # nbgrader's configuration is part of the library's digest (it sets the kernels' time limits)
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n", encoding="utf-8")
    assert grade_results.library_digest(tmp_path) != grade_results.library_digest(tmp_path / "missing")
