"""The Codespaces / local Docker setup: devcontainer.json, docker-compose.yml, scripts, workflows.

``devcontainer.json`` is validated against the Dev Container schema subset in
tests/data (no schema is fetched at run time); ``docker-compose.yml`` with
``docker compose config`` when a Compose CLI is installed, and always against
the Compose Specification's JSON schema vendored in tests/data.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from workshop_lib.config import load_settings

REPO = Path(__file__).resolve().parent.parent
DC = REPO / ".devcontainer"
DATA = Path(__file__).resolve().parent / "data"
FIRST_NOTEBOOK = "notebooks/01_seed_and_explore/01_seed_and_explore.ipynb"


def strip_jsonc(text: str) -> str:
    """Remove // and /* */ comments outside strings (devcontainer.json is JSON with comments)."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@pytest.fixture(scope="module")
def devcontainer() -> dict:
    return json.loads(strip_jsonc((DC / "devcontainer.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DC / "docker-compose.yml").read_text(encoding="utf-8"))


GO_DURATION = re.compile(r"^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$")


def _validator(schema_file: str):
    schema = json.loads((DATA / schema_file).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft201909Validator)
    cls.check_schema(schema)
    checker = jsonschema.FormatChecker()
    # Compose's "duration" format is a Go duration ("10s", "1m30s"), not ISO 8601.
    checker.checks("duration")(lambda value: not isinstance(value, str) or bool(GO_DURATION.match(value)))
    return cls(schema, format_checker=checker)


def test_jsonc_stripper_keeps_strings():
    text = '{"a": "http://x//y", /* c */ "b": "/*no*/" // end\n}'
    assert json.loads(strip_jsonc(text)) == {"a": "http://x//y", "b": "/*no*/"}


# --------------------------------------------------------------------------- devcontainer.json

def test_devcontainer_json_validates_against_the_schema(devcontainer):
    errors = sorted(_validator("devcontainer.schema.json").iter_errors(devcontainer), key=str)
    assert not errors, [e.message for e in errors]


@pytest.mark.parametrize("mutation", [
    lambda d: d.update(forwardPort=[1521]),                         # misspelled property
    lambda d: d["hostRequirements"].update(memory="16 GB"),         # wrong unit format
    lambda d: d.pop("workspaceFolder"),                              # required for compose
    lambda d: d["customizations"]["vscode"].update(extensions=["not an id"]),
])
def test_schema_rejects_broken_devcontainer(devcontainer, mutation):
    broken = json.loads(json.dumps(devcontainer))
    mutation(broken)
    assert list(_validator("devcontainer.schema.json").iter_errors(broken))


def test_devcontainer_content(devcontainer, compose):
    assert (DC / devcontainer["dockerComposeFile"]).is_file()
    assert devcontainer["service"] in compose["services"]
    assert set(devcontainer["runServices"]) <= set(compose["services"])
    assert {1521, 8888} <= set(devcontainer["forwardPorts"])
    vscode = devcontainer["customizations"]["vscode"]
    assert {"ms-python.python", "ms-toolsai.jupyter"} <= set(vscode["extensions"])
    assert vscode["settings"]["python.defaultInterpreterPath"].endswith("/.venv/bin/python")
    assert devcontainer["customizations"]["codespaces"]["openFiles"] == [FIRST_NOTEBOOK]
    req = devcontainer["hostRequirements"]
    assert req["cpus"] >= 4 and req["memory"] in ("8gb", "16gb")
    for key in ("onCreateCommand", "postCreateCommand"):
        script = REPO / devcontainer[key].split()[-1]
        assert script.is_file(), script
    on_create = (REPO / devcontainer["onCreateCommand"].split()[-1]).read_text()
    assert "make .venv/.installed" in on_create and "workshop model build" in on_create
    post_create = (REPO / devcontainer["postCreateCommand"].split()[-1]).read_text()
    assert post_create.index("wait-for-db.sh") < post_create.index("workshop setup --backend oracle")


# --------------------------------------------------------------------------- docker-compose.yml

def test_compose_file_validates_against_the_compose_spec(compose):
    errors = sorted(_validator("compose-spec.json").iter_errors(compose), key=str)
    assert not errors, [e.message for e in errors]
    broken = json.loads(json.dumps(compose))
    broken["services"]["db"]["healthcheck"]["intervall"] = "10s"
    assert list(_validator("compose-spec.json").iter_errors(broken))
    broken = json.loads(json.dumps(compose))
    broken["services"]["db"]["healthcheck"]["interval"] = "10 seconds"
    assert list(_validator("compose-spec.json").iter_errors(broken))


def _compose_cli() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_docker_compose_config_accepts_the_file(tmp_path):
    cli = _compose_cli()
    if cli is None:
        pytest.skip("no `docker compose` plugin or docker-compose CLI here; the schema test above "
                    "and CI's devcontainer-config job cover the file")
    result = subprocess.run([*cli, "-f", str(DC / "docker-compose.yml"), "config", "--quiet"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_oracle_service(compose):
    services = compose["services"]
    db = services["db"]
    image = db["image"]
    assert re.fullmatch(r"container-registry\.oracle\.com/database/free:\d+\.\d+\.\d+\.\d+", image), \
        "pin a full release tag of the full image (the -lite variant lacks Oracle Text)"
    assert "lite" not in image and "latest" not in image
    assert db["healthcheck"]["test"] and "checkDBStatus" in " ".join(db["healthcheck"]["test"])
    mounts = {v.split(":")[1]: v.split(":")[0] for v in db["volumes"]}
    assert mounts["/opt/oracle/oradata"] in compose["volumes"], "database files on a named volume"
    startup = DC / mounts["/opt/oracle/scripts/startup"].removeprefix("./")
    hook = (startup / "01-vector-pool.sh").read_text()
    assert "ALTER SYSTEM SET vector_memory_size" in hook
    assert "WORKSHOP_VECTOR_POOL_MB" in db["environment"]
    # The admin password reaches the image only as a secret file written by the env service.
    assert mounts["/run/secrets"] == "workshop-secrets" and "ORACLE_PWD" not in db.get("environment", {})
    assert db["depends_on"]["env"]["condition"] == "service_completed_successfully"
    env = services["env"]
    assert "make_env.py" in " ".join(env["command"]) and "--secret-dir" in env["command"]
    workspace = services["workspace"]
    assert workspace["network_mode"] == "service:db"
    assert not any(re.search(r"(?i)password\s*[:=]\s*\S", json.dumps(s)) for s in services.values())


def test_shell_scripts_parse():
    for script in [*DC.glob("*.sh"), *DC.glob("oracle-startup/*.sh")]:
        result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert result.returncode == 0, (script, result.stderr)
    for script in DC.glob("*.sh"):
        assert os.access(script, os.X_OK), f"{script} should be executable"


# --------------------------------------------------------------------------- .env generation

def _run_make_env(repo: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(DC / "make_env.py"), "--repo", str(repo), *extra],
                          capture_output=True, text=True, check=True)


def _read(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines()
                if line and not line.startswith("#"))


def test_make_env_generates_private_env_and_secret(tmp_path):
    secrets_dir = tmp_path / "secrets"
    result = _run_make_env(tmp_path, "--secret-dir", str(secrets_dir))
    env_file = tmp_path / ".env"
    values = _read(env_file)
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    assert values["WORKSHOP_BACKEND"] == "oracle" and values["ORACLE_DSN"] == "localhost:1521/FREEPDB1"
    passwords = [values[k] for k in ("ORACLE_PASSWORD", "SUPPLYCHAIN_PASSWORD", "ORACLE_ADMIN_PASSWORD")]
    assert len(set(passwords)) == 3 and all(len(p) == 24 for p in passwords)
    assert (secrets_dir / "oracle_pwd").read_text() == values["ORACLE_ADMIN_PASSWORD"]
    assert not any(p in result.stdout + result.stderr for p in passwords)
    # the generated file is exactly what workshop_lib.config reads
    settings = load_settings(values)
    assert settings.backend == "oracle" and settings.oracle_user == "AGENT"
    settings.require_oracle(admin=True, supplychain=True)


def test_make_env_never_changes_existing_values(tmp_path):
    (tmp_path / ".env").write_text("ORACLE_ADMIN_PASSWORD=KeepThis1234567\nORACLE_DSN=db:1521/FREEPDB1\n"
                                   "EXTRA_SETTING=1\n")
    _run_make_env(tmp_path)
    first = _read(tmp_path / ".env")
    assert first["ORACLE_ADMIN_PASSWORD"] == "KeepThis1234567" and first["ORACLE_DSN"] == "db:1521/FREEPDB1"
    assert first["EXTRA_SETTING"] == "1" and first["ORACLE_PASSWORD"]
    result = _run_make_env(tmp_path)
    assert _read(tmp_path / ".env") == first and "left unchanged" in result.stdout


def test_env_example_lists_config_names_without_secrets():
    values = {}
    for line in (REPO / ".env.example").read_text().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key] = value
    assert {"WORKSHOP_BACKEND", "ORACLE_DSN", "ORACLE_USER", "ORACLE_PASSWORD", "SUPPLYCHAIN_PASSWORD",
            "ORACLE_ADMIN_USER", "ORACLE_ADMIN_PASSWORD", "ORACLE_WALLET_DIR"} <= set(values)
    assert all(values[k] == "" for k in values if "PASSWORD" in k)
    # every name is one that workshop_lib.config actually reads
    config_source = (REPO / "workshop_lib" / "config.py").read_text()
    assert all(f'"{k}"' in config_source for k in values)
    assert ".env" in (REPO / ".gitignore").read_text().split()


# --------------------------------------------------------------------------- GitHub workflows

def _workflow(name: str) -> dict:
    return yaml.safe_load((REPO / ".github" / "workflows" / name).read_text())


def _run_lines(job: dict) -> list[str]:
    return [step.get("run", "") for step in job["steps"]]


def test_ci_workflow_runs_make_test_and_checks_compose():
    jobs = _workflow("ci.yml")["jobs"]
    assert any(line.strip() == "make test" for line in _run_lines(jobs["test"]))
    assert any("docker compose" in line and "config" in line for line in _run_lines(jobs["devcontainer-config"]))


def test_oracle_workflow_bootstraps_before_the_oracle_tests():
    job = _workflow("oracle.yml")["jobs"]["oracle"]
    runs = "\n".join(_run_lines(job))
    order = [runs.index(s) for s in ("make_env.py", "docker compose up", "workshop_lib.oracle wait",
                                     "workshop setup --backend oracle", "make test-oracle")]
    assert order == sorted(order)
    assert "GITHUB_ENV" in runs and "::add-mask::" in runs, "ORACLE_DSN etc. exported, passwords masked"
