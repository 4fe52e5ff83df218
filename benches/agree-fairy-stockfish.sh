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
if [ -z "${FAIRY_STOCKFISH:-}" ]; then
  command -v g++ >/dev/null || { apt-get update -qq && apt-get install -y -qq g++ >/dev/null; }
  build="$root/target/fairy-stockfish-large"
  engine="$build/fairy-stockfish"
  if [ ! -x "$engine" ]; then
    rm -rf "$build" && mkdir -p "$build"
    python3 -m pip download --quiet --no-binary :all: --no-deps --dest "$build" pyffish
    tar -xzf "$build"/pyffish-*.tar.gz -C "$build"
    src=$(find "$build" -maxdepth 3 -type d -name src -path '*pyffish-*' | head -1)
    sources=$(find "$src" -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp | sort)
    # shellcheck disable=SC2086
    g++ -std=c++17 -O2 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -DLARGEBOARDS -DALLVARS \
      -DPRECOMPUTED_MAGICS -DNNUE_EMBEDDING_OFF -mpopcnt -pthread -I"$src" $sources -o "$engine.tmp"
    mv "$engine.tmp" "$engine"
  fi
  export FAIRY_STOCKFISH="$engine"
fi
echo "reference: $FAIRY_STOCKFISH"
cargo test --test ini_agree agreement_in_full -- --ignored --nocapture
