# The workshop's commands. The first use of any target creates .venv and
# installs the package with its dev extras; later uses reuse it.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export WORKSHOP_HOME ?= $(CURDIR)/.workshop
# Jupyter refuses to start as root unless told; root is normal in containers and some Docker setups.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab demo test test-oracle release bundle grade model setup doctor bench lock clean

# requirements.lock pins every package (exact version + sha256) to what the suite was run with;
# pip checks the hashes. It covers Python >= 3.11.5 (Codespaces has 3.12); an older Python
# installs from pyproject.toml's ranges instead, and says so.
LOCK := requirements.lock

$(STAMP): pyproject.toml $(LOCK)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@if $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))'; then \
	  echo "installing the locked versions ($(LOCK))"; \
	  $(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK) && \
	  $(BIN)/python -m pip install --quiet --no-deps -e '.[dev]'; \
	else \
	  echo "Python older than 3.11.5: $(LOCK) does not apply, installing from pyproject.toml's ranges"; \
	  $(BIN)/python -m pip install --quiet -e '.[dev]'; \
	fi
	$(BIN)/python -m ipykernel install --prefix $(VENV) --name python3 --display-name "Python 3 (workshop)" >/dev/null
	@touch $(STAMP)

## lab: open the workshop in JupyterLab (lite backend unless WORKSHOP_BACKEND says otherwise)
lab: $(STAMP)
	$(BIN)/workshop setup
	$(BIN)/jupyter lab --notebook-dir=notebooks $(ROOT_FLAG)

## test: the whole test suite (lite; tests marked oracle run only when ORACLE_DSN is set)
# PYTHONDONTWRITEBYTECODE is emptied: containers often set it, and the suite's many fresh processes
# (kernels, graders, CLI runs) would then recompile the package, and pytest re-rewrite every test, each run.
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q

test-oracle: $(STAMP)
	$(BIN)/python -m pytest -q -m oracle

## setup: build the model and bring the selected backend up to date
setup: $(STAMP)
	$(BIN)/workshop setup

doctor: $(STAMP)
	$(BIN)/workshop doctor

model: $(STAMP)
	$(BIN)/workshop model build

## release: regenerate the student notebooks in notebooks/ from solutions/
release: $(STAMP)
	$(BIN)/python -m workshop_lib.release

## bundle: the student bundle for a graded class, without solutions/ or hidden tests (DIR=...)
bundle: $(STAMP)
	$(BIN)/python -m workshop_lib.bundle $(or $(DIR),student-bundle)

## grade: autograde submissions in submitted/ (see docs/instructors-grading.md)
grade: $(STAMP)
	$(BIN)/workshop grade submitted

## lock: re-resolve requirements.lock from pyproject.toml (keeps current pins; UPGRADE=1 takes the newest allowed)
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet 'uv>=0.9'
	$(BIN)/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11.5 \
	  --generate-hashes --quiet --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade,) -o $(LOCK)
	@echo "$(LOCK) written: run make test on a fresh clone before committing it"

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .workshop .pytest_cache
