"""Configuration: backend choice, Oracle settings, WORKSHOP_HOME, and their errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import workshop_lib
from workshop_lib.config import load_settings
from workshop_lib.errors import ConfigError


def test_default_backend_is_lite(tmp_path: Path) -> None:
    settings = load_settings({"WORKSHOP_HOME": str(tmp_path)})
    assert settings.backend == "lite"
    assert settings.home == tmp_path
    assert settings.lite_dir == tmp_path / "lite"


def test_unknown_backend_names_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"Unknown workshop backend 'postgres'.*lite, oracle"):
        load_settings({"WORKSHOP_BACKEND": "postgres"})


def test_backend_override_wins_over_environment() -> None:
    assert load_settings({"WORKSHOP_BACKEND": "oracle"}, backend="lite").backend == "lite"


def test_missing_oracle_settings_are_all_named() -> None:
    settings = load_settings({"WORKSHOP_BACKEND": "oracle", "ORACLE_DSN": "db:1521/FREEPDB1"})
    with pytest.raises(ConfigError) as info:
        settings.require_oracle(admin=True)
    message = str(info.value)
    assert "ORACLE_PASSWORD" in message and "ORACLE_ADMIN_PASSWORD" in message
    assert "ORACLE_DSN" not in message.split("not set:")[1].split(".")[0]


def test_connect_oracle_without_settings_fails_clearly(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ORACLE_DSN", "ORACLE_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(home)  # no .env here
    with pytest.raises(ConfigError, match="ORACLE_DSN"):
        workshop_lib.connect("oracle")


def test_dotenv_is_read_but_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("WORKSHOP_BACKEND=oracle\nORACLE_DSN=fromfile:1521/x\n# comment\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ORACLE_DSN", "fromenv:1521/y")
    monkeypatch.delenv("WORKSHOP_BACKEND", raising=False)
    settings = load_settings()
    assert settings.backend == "oracle"
    assert settings.oracle_dsn == "fromenv:1521/y"


def test_lite_connect_gives_a_fresh_isolated_database(home: Path) -> None:
    conn = workshop_lib.connect()
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM all_tables")
        assert cur.fetchone() == (0,)
    conn.close()
    assert (home / "lite").is_dir()


def test_a_password_in_the_dsn_is_never_printed():
    from workshop_lib.config import masked_dsn

    assert masked_dsn("agent/Sup3r-secret@db.example.com:1521/FREEPDB1") == "agent/***@db.example.com:1521/FREEPDB1"
    assert masked_dsn("localhost:1521/FREEPDB1") == "localhost:1521/FREEPDB1"
    assert masked_dsn("mydb_high") == "mydb_high" and masked_dsn(None) == "None"


def test_doctor_settings_line_masks_the_dsn_password(monkeypatch):
    import dataclasses

    from workshop_lib.oracle import doctor

    settings = dataclasses.replace(load_settings(backend="lite"), backend="oracle",
                                   oracle_dsn="agent/Sup3r-secret@127.0.0.1:9/FREEPDB1", oracle_user="agent",
                                   oracle_password="x")
    report = doctor.doctor_oracle(settings)
    assert "Sup3r-secret" not in report.render() and "agent/***@" in report.render()
