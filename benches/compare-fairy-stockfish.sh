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
# The rows on boards wider than 8 squares need an engine built with large
# boards (128-bit bitboards, as pyffish's own build), FAIRY_STOCKFISH_LARGE.
if [ -z "${FAIRY_STOCKFISH_LARGE:-}" ]; then
  FAIRY_STOCKFISH_LARGE=$(
    unset FAIRY_STOCKFISH
    build_fairy_stockfish "$root/target/fairy-stockfish-large" \
      -O3 -DLARGEBOARDS -DPRECOMPUTED_MAGICS -DALLVARS -mbmi2 >&2
    echo "$FAIRY_STOCKFISH"
  )
  export FAIRY_STOCKFISH_LARGE
fi
build_fairy_stockfish "$root/target/fairy-stockfish-pext" -O3 -DUSE_PEXT -mbmi2
echo "reference: $FAIRY_STOCKFISH; large boards: $FAIRY_STOCKFISH_LARGE"
cargo bench --bench perft
