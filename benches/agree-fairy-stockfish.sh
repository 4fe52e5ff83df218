#!/usr/bin/env bash
# The full agreement run of issue 33: every definition of
# tests/pyffish/variants.ini against Fairy-Stockfish, perft to depth 3
# (POSTAL_AGREE_DEPTH) from the start and 20 positions of random play
# (POSTAL_AGREE_POSITIONS), the 40-ply games, and the built-ins of the
# same name (tests/ini_agree.rs, agreement_in_full). pyffish plays the
# games; perft is counted by a native Fairy-Stockfish built here with
# large boards from PyPI's pyffish source (a few minutes on two cores,
# kept under target/), or by $FAIRY_STOCKFISH.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=benches/fairy-stockfish.sh
. "$root/benches/fairy-stockfish.sh"
build_fairy_stockfish "$root/target/fairy-stockfish-large" -O2 -DLARGEBOARDS -DALLVARS -DPRECOMPUTED_MAGICS
echo "reference: $FAIRY_STOCKFISH"
cargo test --test suite ini_agree::agreement_in_full -- --ignored --nocapture
