#!/usr/bin/env bash
# Installs the Debian packages prmkit needs, and nothing else. Does nothing
# (and needs no root) when everything is already installed.
set -euo pipefail
# What building and running prmkit needs (`make demo`). zlib1g-dev: assimp's
# CMake files name libz.so, which only it installs (found on a fresh Debian 12).
packages=(
  build-essential cmake pkg-config zlib1g-dev
  libompl-dev libboost-filesystem-dev libboost-serialization-dev libboost-system-dev
  libboost-graph-dev libfcl-dev libeigen3-dev libyaml-cpp-dev libassimp-dev
  liburdfdom-dev libtinyxml2-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  libqhull-dev libnanoflann-dev libxsimd-dev libjs-three
)
case "${1:-}" in
  # `install-deps.sh test`: also what the tests and the reports use (`make test`): Catch2, Chromium for
  # the viewer's page, clang-format, GNU parallel and sqlite3 for the sweep tests, OMPL's benchmark
  # scripts, matplotlib for plots, pybind11, numpy and pytest for the Python module (mypy checks its
  # stubs; venv, pip, setuptools and wheel install it as the README says), Slurm and munge
  # for the test that runs the Slurm recipe on a single-node cluster (scripts/slurm-local.sh).
  test) packages+=(catch2 chromium clang-format parallel sqlite3 ompl-demos python3-matplotlib
                  pybind11-dev python3-dev python3-numpy python3-pytest python3-mypy python3-venv python3-setuptools python3-wheel python3-pip slurmctld slurmd slurm-client munge) ;;
  # `install-deps.sh fuzz`: clang and its libFuzzer runtime, for `make fuzz` only.
  fuzz) packages=(clang libclang-rt-14-dev) ;;
  "") ;;
  *) echo "install-deps.sh: unknown set '$1' (expected nothing, test or fuzz)" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
