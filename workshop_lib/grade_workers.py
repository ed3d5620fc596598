"""Grading several submissions at once: each in a worker process with its own nbgrader run and warm parent.

nbgrader autogrades one notebook at a time, and a submission spends most of its
time in processes of its own (the nbgrader kernel, the clean re-run's child),
so a class is graded about ``jobs`` times faster on as many cores. Each worker
is a fresh ``python`` (multiprocessing's *spawn*: nothing of the grading
process's state, open gradebook sessions or kernels is inherited) that builds
its own grader over the same course folder, gradebook and prepared lite home,
and so has its own logging, environment for its kernels, and warm parent for
the clean re-runs. The gradebook is SQLite: nbgrader's writes from the workers
queue on its lock (the course's database URL gives them a long timeout), and
the learners are created before the workers start, so no two workers add the
same learner.

A learner's kernel is a child of its worker and could end it; the pool is then
broken, and the submissions it had not finished are returned to the caller,
which grades them itself, one at a time, as a run without workers would.

Ctrl-C stops a parallel run as promptly as a serial one: each worker stops the
submission it is grading (its kernel shut down, its warm parent's child
killed when the worker exits) and skips the ones already queued to it; the
grading process interrupts the workers itself when the signal reached only it
(a Jupyter kernel's interrupt, ``kill -INT``).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import signal
import time
import warnings
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

__all__ = ["default_jobs", "grade_at_once"]

#: More parallel submissions than this seldom pays: each holds a kernel and a warm parent (up to ~0.8 GB).
MAX_DEFAULT_JOBS = 4

_grader: Any = None   # this worker's grader (built by _start in each worker process)
_stopping = False     # this worker was interrupted: it grades nothing more


def default_jobs() -> int:
    """How many submissions ``workshop grade`` grades at once unless told: the usable cores, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:   # macOS and Windows have no affinity mask
        cores = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_JOBS, cores))


def _start(make_grader: Callable[[], Any], pids: Any) -> None:
    """Worker initializer: build this worker's grader, closed (its warm parent ended) when the worker exits."""
    global _grader
    from sqlalchemy.exc import SAWarning

    signal.signal(signal.SIGINT, _interrupted)
    pids.put(os.getpid())
    warnings.simplefilter("ignore", SAWarning)   # as in the grading process: nbgrader's autoflush warnings
    _grader = make_grader()
    multiprocessing.util.Finalize(_grader, _grader.close, exitpriority=10)


def _interrupted(signum: int, frame: Any) -> None:
    # Ctrl-C reaches a worker from the terminal and again from the grading process: stop once, and
    # let the second signal not break the first one's clean-up (the kernel's shutdown).
    global _stopping
    if not _stopping:
        _stopping = True
        raise KeyboardInterrupt


def _grade(index: int, submission: Any, learner_id: str) -> tuple[int, Any, list[str], float]:
    if _stopping:
        raise KeyboardInterrupt("grading was interrupted")
    started = time.perf_counter()
    scores, notes = _grader.autograde_one(submission, learner_id)
    return index, scores, notes, time.perf_counter() - started


def grade_at_once(items: Sequence[tuple[Any, str]], jobs: int, make_grader: Callable[[], Any],
                  done: Callable[[int, Any, list[str], float], None]) -> tuple[list[int], str]:
    """Autograde ``items`` ((submission, learner id) pairs) in ``jobs`` worker processes.

    ``make_grader`` (picklable, no arguments) builds a worker's grader; its
    ``autograde_one(submission, learner_id)`` grades one item. ``done(index,
    scores, notes, seconds)`` is called in this process as each item
    finishes. Returns the indexes of the items left ungraded because a worker
    ended, with the reason (empty list and "" when every item was graded).
    An error raised by ``autograde_one`` itself (not by learner code) stops
    the run and is raised here, as it would be without workers.
    """
    context = multiprocessing.get_context("spawn")
    left = set(range(len(items)))
    pids = context.SimpleQueue()   # the workers' process ids, to interrupt them
    executor = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(items))), mp_context=context,
                                   initializer=_start, initargs=(make_grader, pids))
    try:
        pending: set[Future] = {executor.submit(_grade, i, submission, learner_id)
                                for i, (submission, learner_id) in enumerate(items)}
        broken = ""
        while pending and not broken:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    index, scores, notes, seconds = future.result()
                except BrokenProcessPool as exc:
                    broken = str(exc) or "a grading worker ended"
                    continue
                left.discard(index)
                done(index, scores, notes, seconds)
        return sorted(left), broken
    except KeyboardInterrupt:
        while not pids.empty():
            try:
                os.kill(pids.get(), signal.SIGINT)
            except ProcessLookupError:
                pass
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
