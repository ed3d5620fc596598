"""Write a benchmark's figures into docs/benchmarks.md, so every figure there is a script's output.

Each ``benchmarks/bench_*.py`` owns one section of docs/benchmarks.md, between
``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``. A script measures, puts its
raw figures in a dict, and calls :func:`write_section` with a ``render``
function (figures -> markdown). The section holds the rendered text, a header
line (date, commit, machine, the command that ran) and the figures themselves
as JSON in an HTML comment, so ``tests/test_benchmarks_doc.py`` can render the
recorded figures again and compare with the text: a hand-edited number or a
table whose format drifted from the script's fails that test.

Ratios are *paired*: the two sides of a comparison run back to back, each pair
gives one ratio, and the section reports min / median / max of the ratios (the
machine is shared, so one pair alone can mislead; pairing cancels most of the
load that moves both sides alike).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "benchmarks.md"
_FIGURES = re.compile(r"<!-- figures (\{.*?\}) -->", re.S)


def markers(name: str) -> tuple[str, str]:
    """The begin and end markers of section ``name`` in docs/benchmarks.md."""
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def environment(command: str) -> dict[str, str]:
    """Date, commit and machine of this run, and the command that produced it (for the header line).

    The commit is ``git rev-parse --short HEAD`` with ``+dirty`` when tracked
    files differ from it, so a figure measured on uncommitted code says so.
    """
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    if git("status", "--porcelain", "--untracked-files=no"):
        commit += "+dirty"
    try:
        memory_gb = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    except (ValueError, OSError, AttributeError):
        memory_gb = 0
    machine = (f"{os.cpu_count()} cores, {memory_gb} GB, {platform.system()} {platform.machine()}, "
               f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}")
    return {"date": dt.date.today().isoformat(), "commit": commit, "machine": machine, "command": command}


def header(env: dict[str, str]) -> str:
    """The first line of every section: when, on which commit and machine, by which command."""
    return f"Measured {env['date']} at commit `{env['commit']}` on {env['machine']}, by `{env['command']}`."


def spread(values: Iterable[float]) -> dict[str, float]:
    """``{"min", "median", "max"}`` of ``values`` (one entry per paired run)."""
    values = list(values)
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def fmt_spread(s: dict[str, float], digits: int = 2, unit: str = "") -> str:
    """``median (min – max)`` for a table cell."""
    return f"{s['median']:.{digits}f}{unit} ({s['min']:.{digits}f} – {s['max']:.{digits}f})"


def timed_ms(fn: Callable[[], Any], before: Callable[[], Any] | None = None) -> float:
    """Wall time of one call of ``fn`` in milliseconds; ``before`` runs untimed first."""
    if before is not None:
        before()
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def paired_ms(a: Callable[[], Any], b: Callable[[], Any], runs: int, *,
              before_a: Callable[[], Any] | None = None,
              before_b: Callable[[], Any] | None = None) -> dict[str, Any]:
    """Run ``a`` and ``b`` back to back ``runs`` times; their times and the spread of ``a / b``.

    The order alternates (a then b, then b then a) so neither side always
    runs on a cache the other warmed. Returns ``{"a_ms": spread, "b_ms":
    spread, "ratio": spread}``.
    """
    a_times, b_times = [], []
    for run in range(runs):
        if run % 2 == 0:
            a_times.append(timed_ms(a, before_a))
            b_times.append(timed_ms(b, before_b))
        else:
            b_times.append(timed_ms(b, before_b))
            a_times.append(timed_ms(a, before_a))
    return {"a_ms": spread(a_times), "b_ms": spread(b_times),
            "ratio": spread(x / y for x, y in zip(a_times, b_times))}


def section(name: str, body: str, figures: dict[str, Any]) -> str:
    """The full text of section ``name``: markers, ``body`` (rendered figures) and the figures as JSON."""
    begin, end = markers(name)
    return f"{begin}\n{body.rstrip()}\n<!-- figures {json.dumps(figures, sort_keys=True)} -->\n{end}"


def read_section(name: str, text: str | None = None) -> tuple[str, dict[str, Any]] | None:
    """``(body, figures)`` of section ``name`` as docs/benchmarks.md holds it, or None when absent."""
    text = DOC.read_text(encoding="utf-8") if text is None else text
    begin, end = markers(name)
    match = re.search(re.escape(begin) + r"\n(.*?)" + re.escape(end), text, flags=re.S)
    if match is None:
        return None
    inner = match.group(1)
    found = _FIGURES.search(inner)
    if found is None:
        return inner.rstrip(), {}
    return inner[:found.start()].rstrip(), json.loads(found.group(1))


def write_section(name: str, title: str, body: str, figures: dict[str, Any]) -> None:
    """Replace section ``name`` of docs/benchmarks.md (or append it under ``## title``), nothing else."""
    text = DOC.read_text(encoding="utf-8")
    new = section(name, body, figures)
    begin, end = markers(name)
    if begin in text:
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), lambda _m: new, text, count=1, flags=re.S)
    else:
        text = text.rstrip() + f"\n\n## {title}\n\n{new}\n"
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote section {name} of {DOC.relative_to(REPO)}", file=sys.stderr)


def publish(name: str, title: str, body: str, figures: dict[str, Any], write: bool) -> None:
    """Print the section ``body``; with ``write``, replace section ``name`` of docs/benchmarks.md with it."""
    print(body)
    if write:
        write_section(name, title, body, figures)


def command_line(script: str, argv: list[str] | None) -> str:
    """How the script was run, as the header shows it (``python benchmarks/x.py args``)."""
    args = sys.argv[1:] if argv is None else argv
    return " ".join(["python", f"benchmarks/{script}", *args])
