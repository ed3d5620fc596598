"""``python -m workshop_lib.oracle wait [--timeout S]``: wait for the database (devcontainer scripts).

The ``workshop`` CLI is the interface for people; this entry point exists so
.devcontainer/wait-for-db.sh needs nothing but the package.
"""

from __future__ import annotations

import argparse
import sys

from ..config import load_settings
from ..errors import WorkshopError
from .waiting import wait_for_database


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, wait for the database, return 0 when it accepts logins, 1 otherwise."""
    parser = argparse.ArgumentParser(prog="python -m workshop_lib.oracle")
    sub = parser.add_subparsers(dest="command", required=True)
    wait = sub.add_parser("wait", help="wait until the Oracle database accepts logins")
    wait.add_argument("--timeout", type=float, default=300.0, help="seconds before giving up")
    wait.add_argument("--interval", type=float, default=5.0, help="seconds between attempts")
    args = parser.parse_args(argv)
    try:
        wait_for_database(load_settings(backend="oracle"), args.timeout,
                          lambda message: print(message, flush=True), interval_s=args.interval)
    except WorkshopError as exc:
        print(f"ERROR: {exc}", file=sys.stderr)
        return 1
    print("The database accepts logins.", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
