#!/usr/bin/env bash
# Reading and verifying speed of `postal` on a real FIDE PGN corpus,
# against pgn-extract and python-chess on the same file in the same run
# (benches/records.rs prints games/s and the ratios).
#
# The corpus is caissa-ai.pgn (20,566 games, 22 MB), shipped by the Rust
# package `jja`. It is GPL-3.0, so it is fetched here at run time with
# `cargo fetch` in a scratch project and never committed. pgn-extract is
# Debian's package (installed in /usr/games, which is not on root's PATH);
# python-chess is installed with pip into a virtual environment under
# target/. Needs root for apt-get when pgn-extract is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch="$root/target/bench-corpus"

# 1. The corpus.
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<'TOML'
[package]
name = "bench-corpus"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
jja = "0.9"
TOML
: > "$scratch/src/lib.rs"
(cd "$scratch" && cargo fetch --quiet)
pgn=$(find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -path '*jja-0.9*' -name caissa-ai.pgn | sort | tail -1)
if [ -z "$pgn" ]; then
  echo "caissa-ai.pgn not found in the jja package" >&2
  exit 1
fi

# 2. pgn-extract.
if [ ! -x /usr/games/pgn-extract ] && ! command -v pgn-extract >/dev/null; then
  apt-get update -qq && apt-get install -y -qq pgn-extract >/dev/null
fi
extract=/usr/games/pgn-extract
[ -x "$extract" ] || extract=$(command -v pgn-extract)

# 3. python-chess.
venv="$root/target/bench-python"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c 'import chess' 2>/dev/null || "$venv/bin/pip" install --quiet chess

# 4. The bench.
POSTAL_BENCH_PGN="$pgn" PGN_EXTRACT="$extract" PYTHON="$venv/bin/python" \
  cargo bench --bench records
