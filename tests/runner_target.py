"""A warm-parent target for tests/test_clean_runner.py: each payload is Python source, run in the re-run's process.

``python -m runner_target`` runs stdin's source in a fresh process;
``python -m runner_target --warm`` is the warm parent (it fails to start when
``BREAK_WARM_PARENT`` is set, so a test can see the fall-back).
"""

from __future__ import annotations

import os
import sys

from workshop_lib.clean_runner import serve


def run(source: str) -> int:
    exec(compile(source, "<payload>", "exec"), {"__name__": "__payload__"})  # noqa: S102 - test payloads
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--warm"]:
        if os.environ.get("BREAK_WARM_PARENT"):
            sys.exit("the warm parent could not start")
        sys.exit(serve(run, ["json"]))
    sys.exit(run(sys.stdin.read()))
