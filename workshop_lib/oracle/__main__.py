"""``python -m workshop_lib.oracle wait|setup``: wait for the database, or run setup with Oracle-only options.

The ``workshop`` CLI is the interface for people; this entry point exists so
.devcontainer/wait-for-db.sh needs nothing but the package, and for
``setup --reset-passwords`` (set both users' passwords from .env even when
they still log in - normally setup leaves a working password alone).
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
    wait.add_argument("--vector-pool-mb", type=int, default=None,
                      help="also wait until VECTOR_MEMORY_SIZE reaches this many MB (the devcontainer's "
                           "startup hook sets it, restarting the database if it must)")
    setup = sub.add_parser("setup", help="workshop setup --backend oracle, with Oracle-only options")
    setup.add_argument("--reseed", action="store_true", help="re-run the seed")
    setup.add_argument("--reset-passwords", action="store_true",
                       help="set SUPPLYCHAIN's and AGENT's passwords from .env even when they log in")
    args = parser.parse_args(argv)
    if args.command == "setup":
        from .bootstrap import bootstrap

        try:
            report = bootstrap(load_settings(backend="oracle"), echo=lambda m: print(m, flush=True),
                               reseed=args.reseed, reset_passwords=args.reset_passwords)
        except WorkshopError as exc:
            print(f"ERROR: {exc}", file=sys.stderr)
            return 1
        return 0 if report.ok else 1
    try:
        wait_for_database(load_settings(backend="oracle"), args.timeout,
                          lambda message: print(message, flush=True), interval_s=args.interval,
                          vector_pool_mb=args.vector_pool_mb)
    except WorkshopError as exc:
        print(f"ERROR: {exc}", file=sys.stderr)
        return 1
    print("The database accepts logins.", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
