"""The `workshop` command in lite: setup, doctor (text and --json), bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workshop_lib.cli import build_parser, main


def test_setup_then_doctor_is_green(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup"]) == 0
    out = capsys.readouterr().out
    assert "lite workshop ready" in out and "loaded" in out
    assert main(["doctor", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True
    assert all(check["ok"] for check in report["checks"])


def test_doctor_on_an_empty_home_fails_with_fixes(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "workshop setup" in out


def test_unknown_backend_is_an_argument_error(home: Path) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["setup", "--backend", "mysql"])
    assert info.value.code == 2


def test_oracle_without_settings_exits_2_with_the_missing_names(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("ORACLE_DSN", "ORACLE_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(home)
    assert main(["seed", "--backend", "oracle"]) == 2
    assert "ORACLE_DSN" in capsys.readouterr().err


def test_doctor_notices_missing_spatial_indexes(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import workshop_lib

    assert main(["setup", "--upto", "seed"]) == 0
    conn = workshop_lib.connect(user="SUPPLYCHAIN")   # the owner: AGENT may not drop its indexes
    with conn.cursor() as cur:
        cur.execute("DROP INDEX supplychain.ports_location_sx")
    conn.close()
    capsys.readouterr()
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "ORA-13226" in out and "--reseed" in out


def test_a_read_only_home_is_one_readable_error(tmp_path, monkeypatch):
    import os

    from workshop_lib.backends import get_backend
    from workshop_lib.config import load_settings
    from workshop_lib.errors import ConfigError

    if os.geteuid() == 0:
        pytest.skip("root can write anywhere; a read-only folder cannot be made here")
    home = tmp_path / "ro"
    home.mkdir()
    home.chmod(0o500)
    monkeypatch.setenv("WORKSHOP_HOME", str(home / "inner"))
    with pytest.raises(ConfigError, match="is not writable"):
        get_backend(load_settings(backend="lite")).connect()


def test_two_setups_on_one_home_take_turns(tmp_path):
    import threading

    from workshop_lib.backends.lite import setup_lock

    said, order = [], []
    release = threading.Event()

    def first():
        with setup_lock(tmp_path, said.append):
            order.append("first in")
            release.wait(5)
            order.append("first out")

    t = threading.Thread(target=first)
    t.start()
    while not order:
        pass
    threading.Timer(0.3, release.set).start()
    with setup_lock(tmp_path, said.append):
        order.append("second in")
    t.join()
    assert order == ["first in", "first out", "second in"]
    assert any("another `workshop setup` is running" in line for line in said)


def _closed_port() -> int:
    import socket

    with socket.socket() as s:  # bound then released: nothing listens there afterwards
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("argv", [["provision", "--learners", "2"], ["model", "load", "--backend", "oracle"]])
def test_unreachable_oracle_is_one_readable_line_without_secrets(
        argv: list[str], home: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """python-oracledb's DPY-6005 reaches the top as cause + fix, exit 2, no traceback, no password."""
    monkeypatch.chdir(home)
    monkeypatch.setenv("WORKSHOP_NO_DOTENV", "1")
    monkeypatch.setenv("ORACLE_DSN", f"127.0.0.1:{_closed_port()}/FREEPDB1")
    for name, value in (("ORACLE_PASSWORD", "Agent_pw_123456"), ("SUPPLYCHAIN_PASSWORD", "Sc_pw_1234567"),
                        ("ORACLE_ADMIN_PASSWORD", "Admin_pw_12345")):
        monkeypatch.setenv(name, value)
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1, err
    assert "DPY-6005" in err and "Fix:" in err and "ORACLE_DSN" in err
    assert "Traceback" not in captured.err + captured.out
    assert not any(pw in captured.err + captured.out for pw in ("Agent_pw", "Sc_pw", "Admin_pw"))


def test_a_doctor_fix_never_points_back_at_the_doctor() -> None:
    """An error the diagnosis table does not know still gets a fix that is not `workshop doctor`."""
    from workshop_lib.oracle.doctor import guard

    def broken():
        raise RuntimeError("something nobody planned for")

    check = guard("example", broken)
    assert not check.ok and "something nobody planned for" in check.detail
    assert "workshop doctor" not in check.fix and "workshop setup" in check.fix


def test_every_option_and_subcommand_has_a_help_line() -> None:
    """`workshop … --help` explains each argument: none is left with argparse's bare name."""
    import argparse

    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helped = {choice.dest for choice in subparsers._choices_actions if choice.help}
    assert helped == set(subparsers.choices), set(subparsers.choices) - helped
    for name, sub in subparsers.choices.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"`workshop {name}` argument {action.dest!r} has no help line"


def test_the_settings_messages_put_env_where_the_readme_does() -> None:
    """The missing-settings error and the doctor's fix name the same .env place as the README."""
    from workshop_lib.config import ConfigError, load_settings

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "`.env` in this top folder, next to this README" in readme
    with pytest.raises(ConfigError) as info:
        load_settings(env={"WORKSHOP_BACKEND": "oracle"}).require_oracle()
    assert "next to README.md" in str(info.value)


def test_doctor_flags_facts_a_wrong_scan_left_and_setup_removes_them_keeping_the_learners_own(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A TODO 1 attempt that wrote `VESSELS` instead of `SUPPLYCHAIN.VESSELS` leaves facts the catalog does not yield."""
    import workshop_lib
    from workshop_lib.scanner import Fact, write_facts

    assert main(["setup"]) == 0
    ws = workshop_lib.start(upto="scan")
    try:
        write_facts(ws.memory_client, [Fact("table", "VESSELS", "Table VESSELS: ships (wrong subject).")],
                    progress=False)
        # a fact memory of a kind no scan writes is the learner's: neither flagged nor removed
        write_facts(ws.memory_client, [Fact("note", "BERTHS", "Note: berth 7 takes the largest ships.")],
                    progress=False)
        ws.memory_client.add_memory("My own note: ask the harbour master about berth 7.", user_id=ws.user_id,
                                    agent_id=ws.agent_id, memory_id="learner-note-1")
    finally:
        ws.close()
    capsys.readouterr()
    assert main(["doctor", "--json"]) == 1
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert not checks["catalog memories"]["ok"]
    assert "1 fact memories do not match" in checks["catalog memories"]["detail"]
    assert "wrong subject" in checks["catalog memories"]["detail"]
    assert "workshop setup" in checks["catalog memories"]["fix"]

    assert main(["setup"]) == 0
    assert main(["doctor", "--json"]) == 0
    capsys.readouterr()
    ws = workshop_lib.start(upto="connect")
    try:
        from workshop_lib.scanner import stored_memories

        stored = stored_memories(ws.conn)
    finally:
        ws.close()
    assert "learner-note-1" in stored and "fact-table-vessels" not in stored
    assert "fact-note-berths" in stored


def _oracle_env(monkeypatch: pytest.MonkeyPatch, dsn: str, **passwords: str) -> None:
    monkeypatch.setenv("WORKSHOP_NO_DOTENV", "1")
    monkeypatch.setenv("ORACLE_DSN", dsn)
    values = {"ORACLE_PASSWORD": "Kq7_pw_123456", "SUPPLYCHAIN_PASSWORD": "Sc_pw_1234567",
              "ORACLE_ADMIN_PASSWORD": "Admin_pw_12345", **passwords}
    for name, value in values.items():
        monkeypatch.setenv(name, value)


def test_oracle_setup_with_a_closed_port_is_one_readable_line_with_its_fix(
        home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The real python-oracledb against a port nothing listens on: the bounded wait ends in cause + fix, exit 2."""
    from workshop_lib.backends.oracle import OracleBackend

    monkeypatch.chdir(home)
    _oracle_env(monkeypatch, f"127.0.0.1:{_closed_port()}/FREEPDB1")
    monkeypatch.setattr(OracleBackend, "wait_timeout_s", 1.0)
    assert main(["setup", "--backend", "oracle"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1, err
    assert "database reachable" in err and "DPY-6005" in err and "Fix:" in err and "ORACLE_DSN" in err
    assert "Traceback" not in captured.err + captured.out
    assert not any(pw in captured.err + captured.out for pw in ("Kq7_pw", "Sc_pw", "Admin_pw"))


@pytest.mark.parametrize("env, says", [
    ({"ORACLE_PASSWORD": 'Kq7"pw_123456'}, "double quote"),             # a password the database would refuse
    ({"ORACLE_ADMIN_PASSWORD": ""}, "ORACLE_ADMIN_PASSWORD"),              # --reset-passwords needs the admin
])
def test_oracle_setup_with_bad_credentials_is_one_readable_line_before_any_connection(
        env: dict[str, str], says: str, home: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(home)
    _oracle_env(monkeypatch, f"127.0.0.1:{_closed_port()}/FREEPDB1", **env)
    assert main(["setup", "--backend", "oracle", "--reset-passwords"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in captured.err + captured.out, err
    assert "settings" in err and says in err and "Fix:" in err
    assert not any(pw in captured.err + captured.out for pw in ("Kq7_pw", "Kq7\"pw", "Sc_pw", "Admin_pw"))


def test_setup_reset_passwords_flag_reaches_the_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """`workshop setup --reset-passwords` is passed through the Backend protocol (lite ignores it, oracle bootstraps)."""
    import workshop_lib.cli as cli

    seen: dict[str, object] = {}

    class Recorder:
        def setup(self, **kw: object) -> None:
            seen.update(kw)

    monkeypatch.setattr(cli, "get_backend", lambda settings: Recorder())
    assert main(["setup", "--backend", "oracle", "--reset-passwords"]) == 0
    assert seen["reset_passwords"] is True and seen["upto"] == "scan" and seen["reseed"] is False
    assert main(["setup", "--backend", "oracle"]) == 0 and seen["reset_passwords"] is False
    help_text = build_parser()._subparsers._group_actions[0].choices["setup"].format_help()
    assert "--reset-passwords" in help_text and "lite has no passwords" in help_text
