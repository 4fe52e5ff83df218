#!/usr/bin/env bash
# Perft speed of postal against Fairy-Stockfish on the same positions, in
# the same run (benches/perft.rs). Installs Debian's fairy-stockfish when
# it is missing (needs root and apt).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v fairy-stockfish >/dev/null && [ ! -x /usr/games/fairy-stockfish ]; then
  apt-get update -qq && apt-get install -y -qq fairy-stockfish >/dev/null
fi
cargo bench --bench perft
