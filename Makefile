# The workshop's commands. The first use of any target creates .venv and
# installs the package with its dev extras; later uses reuse it.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export WORKSHOP_HOME ?= $(CURDIR)/.workshop
# Jupyter refuses to start as root unless told; root is normal in containers and some Docker setups.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab demo test test-oracle release bundle grade model setup doctor bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m ipykernel install --prefix $(VENV) --name python3 --display-name "Python 3 (workshop)" >/dev/null
	@touch $(STAMP)

## lab: open the workshop in JupyterLab (lite backend unless WORKSHOP_BACKEND says otherwise)
lab: $(STAMP)
	$(BIN)/workshop setup
	$(BIN)/jupyter lab --notebook-dir=notebooks $(ROOT_FLAG)

## test: the whole test suite (lite; tests marked oracle run only when ORACLE_DSN is set)
test: $(STAMP)
	$(BIN)/python -m pytest -q

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

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .workshop .pytest_cache
