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

if [ -z "${FAIRY_STOCKFISH:-}" ] && ! grep -qw bmi2 /proc/cpuinfo; then
  echo "this CPU has no BMI2: cannot build the native (PEXT) Fairy-Stockfish" >&2
  exit 1
fi
# shellcheck source=benches/fairy-stockfish.sh
. "$root/benches/fairy-stockfish.sh"
build_fairy_stockfish "$root/target/fairy-stockfish-pext" -O3 -DUSE_PEXT -mbmi2
echo "reference: $FAIRY_STOCKFISH"
cargo bench --bench perft
