# Thin targets: each one calls one `translator` (or pytest/ruff) command in .venv.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed
RECIPE ?= en-es
PRESET ?=
EPOCHS ?=
RUNS ?=
OVERWRITE ?=
DATA ?=
MORE ?=
MODEL ?= saved_models/en-es
SENTENCE ?= Where is the train station?
BEAM ?=
XLA ?=
GLOSSARY ?=
AGAINST ?=

.PHONY: install data train translate evaluate export serve test test-fast lint bench notebooks

install: $(STAMP)

$(STAMP): setup.cfg pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e ".[dev,serve]"
	touch $(STAMP)

data: $(STAMP)
	$(PY) -m translator data $(if $(DATA),--data "$(DATA)")

# The whole recipe of the shipped model (hours; resumable: run it again after a stop), or one PRESET run.
train: $(STAMP)
	$(PY) -m translator train $(if $(PRESET),--preset $(PRESET) $(if $(EPOCHS),--epochs $(EPOCHS)),--recipe $(RECIPE)) \
		$(if $(DATA),--data "$(DATA)") $(if $(MORE),--more-data "$(MORE)") $(if $(RUNS),--runs "$(RUNS)") $(if $(filter 1 yes true,$(OVERWRITE)),--overwrite)

# The sentence as typed: expanded, "$84.99" would reach the translator as "4.99" (make reads "$8" as a variable, and so
# would the shell in double quotes); in single quotes, each of its own written '\''.
translate: $(STAMP)
	$(PY) -m translator translate --model "$(MODEL)" $(if $(BEAM),--beam $(BEAM)) $(if $(GLOSSARY),--glossary "$(GLOSSARY)") \
		'$(subst ','\'',$(value SENTENCE))'

evaluate: $(STAMP)
	$(PY) -m translator evaluate --model "$(MODEL)" $(if $(DATA),--data "$(DATA)") $(if $(MORE),--more-data "$(MORE)") $(if $(BEAM),--beam $(BEAM)) $(if $(XLA),--xla $(XLA)) $(if $(GLOSSARY),--glossary "$(GLOSSARY)")

export: $(STAMP)
	$(PY) -m translator export --model "$(MODEL)"

serve: $(STAMP)
	$(PY) -m translator serve --model "$(MODEL)" $(if $(XLA),--xla $(XLA))

# Two workers (pytest-xdist), each taking whole test files, so a module's fixtures are built once: most of a
# test's time is one core's (start-up, tracing, Python), so two of them keep two cores busy. More than the cores
# only contend, as each worker's TensorFlow already uses them all.
TEST_WORKERS ?= 2
test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# The inner loop: every test not marked slow (see tests/conftest.py).
test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check translator tests bench

# The bench extra (CTranslate2) only here: `make install` and the tests do without it.
$(BENCH_STAMP): $(STAMP)
	$(VENV)/bin/pip install --quiet -e ".[bench]"
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) -m bench --model "$(MODEL)" $(if $(AGAINST),--against "$(AGAINST)") $(if $(MORE),--more-data "$(MORE)")

notebooks: $(STAMP)
	$(VENV)/bin/jupyter notebook notebooks/
