# Sourced by the bench scripts that compare with Fairy-Stockfish: builds
# a native engine from the source in PyPI's `pyffish` source distribution
# into DIR (kept there for later runs) with the g++ flags given, and
# exports FAIRY_STOCKFISH; an engine already named by FAIRY_STOCKFISH is
# used as it is.
build_fairy_stockfish() {
  local build=$1; shift
  if [ -n "${FAIRY_STOCKFISH:-}" ]; then
    return
  fi
  command -v g++ >/dev/null || { apt-get update -qq && apt-get install -y -qq g++ >/dev/null; }
  local engine="$build/fairy-stockfish"
  if [ ! -x "$engine" ]; then
    rm -rf "$build" && mkdir -p "$build"
    python3 -m pip download --quiet --no-binary :all: --no-deps --dest "$build" pyffish
    tar -xzf "$build"/pyffish-*.tar.gz -C "$build"
    local src sources
    src=$(find "$build" -maxdepth 3 -type d -name src -path '*pyffish-*' | head -1)
    sources=$(find "$src" -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp | sort)
    # shellcheck disable=SC2086
    g++ -std=c++17 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -DNNUE_EMBEDDING_OFF -mpopcnt -pthread \
      "$@" -I"$src" $sources -o "$engine.tmp"
    mv "$engine.tmp" "$engine"
  fi
  export FAIRY_STOCKFISH="$engine"
}
