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
    conn = workshop_lib.connect()
    with conn.cursor() as cur:
        cur.execute("DROP INDEX supplychain.ports_location_sx")
    conn.close()
    capsys.readouterr()
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "ORA-13226" in out and "--reseed" in out
