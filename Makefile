# Two entry points: `make demo` and `make test`. Both create .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck lit pytest bench clean docs perf-docs

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	@$(PY) examples/demo.py --python $(PY) --out build/demo

pytest: $(STAMP)
	$(PY) -m pytest

lit: $(STAMP)
	$(VENV)/bin/lit -sv tests/lit

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy over spec, refimpl, verifier and parallel; the settings are pyproject.toml's [tool.mypy].
typecheck: $(STAMP)
	$(PY) -m mypy

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest
	$(PY) tests/run_lit.py

bench: $(STAMP)
	$(PY) bench/bench_parse.py
	$(PY) bench/bench_pass.py
	$(PY) bench/bench_verify.py
	$(PY) bench/bench_explore.py
	$(PY) bench/bench_gate.py
	$(PY) bench/verdicts.py --generated 200

# The user's guide (docs/, mkdocs.yml) into build/site; --strict makes every
# warning (a broken link or anchor, a page left out of the nav) an error.
docs: $(STAMP)
	@$(PY) -c 'import mkdocs' 2>/dev/null || $(PY) -m pip install -q -e '.[docs]'
	$(PY) -m mkdocs build --strict --quiet

# Regenerate docs/performance.md's figures (stamped with command, date, machine).
perf-docs: $(STAMP)
	$(PY) docs/gen_performance.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
