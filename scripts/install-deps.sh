#!/usr/bin/env bash
# Installs the Debian packages prmkit needs, and nothing else. Does nothing
# (and needs no root) when everything is already installed.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libompl-dev libboost-filesystem-dev libboost-serialization-dev libboost-system-dev
  libboost-graph-dev libfcl-dev libeigen3-dev libyaml-cpp-dev catch2 libassimp-dev
  liburdfdom-dev libtinyxml2-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  libqhull-dev libnanoflann-dev ompl-demos python3-matplotlib parallel sqlite3
  libjs-three chromium clang-format
)
# `install-deps.sh fuzz`: clang and its libFuzzer runtime, for `make fuzz` only.
if [ "${1:-}" = fuzz ]; then packages=(clang libclang-rt-14-dev); fi
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
