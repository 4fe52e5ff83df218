#!/usr/bin/env bash
# Perft speed of postal against Fairy-Stockfish on the same positions, in
# the same run (benches/perft.rs prints the ratios).
#
# The reference is built here, natively, from the source in PyPI's
# `pyffish` source distribution: Debian's `fairy-stockfish` is a generic
# build that runs chess perft at about 0.37x a native one, which would
# overstate postal. The build needs g++ and a CPU with BMI2 (for PEXT);
# it takes a minute or two and is kept under target/ for later runs. Set
# FAIRY_STOCKFISH to use another engine instead.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ -z "${FAIRY_STOCKFISH:-}" ]; then
  if ! grep -qw bmi2 /proc/cpuinfo; then
    echo "this CPU has no BMI2: cannot build the native (PEXT) Fairy-Stockfish" >&2
    exit 1
  fi
  command -v g++ >/dev/null || { apt-get update -qq && apt-get install -y -qq g++ >/dev/null; }
  build="$root/target/fairy-stockfish"
  engine="$build/fairy-stockfish"
  if [ ! -x "$engine" ]; then
    rm -rf "$build" && mkdir -p "$build"
    python3 -m pip download --quiet --no-binary :all: --no-deps --dest "$build" pyffish
    tar -xzf "$build"/pyffish-*.tar.gz -C "$build"
    src=$(find "$build" -maxdepth 3 -type d -name src -path '*pyffish-*' | head -1)
    sources=$(find "$src" -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp | sort)
    # shellcheck disable=SC2086
    g++ -std=c++17 -O3 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -DUSE_PEXT -DNNUE_EMBEDDING_OFF \
      -mpopcnt -mbmi2 -pthread -I"$src" $sources -o "$engine.tmp"
    mv "$engine.tmp" "$engine"
  fi
  export FAIRY_STOCKFISH="$engine"
fi
echo "reference: $FAIRY_STOCKFISH"
cargo bench --bench perft
