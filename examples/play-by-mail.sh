#!/usr/bin/env bash
# The main job of postal on a fresh machine, with the embedded defaults (no
# configuration, no mail server): two players start a Swap Chess game and
# play its first moves by mail. Each move is validated, saved to the game's
# state file, and mailed to the player to move; with no settings the mail
# goes to the `outbox` folder beside the game as .eml files.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
postal="$PWD/target/release/postal"
game_dir="${1:-$(mktemp -d)}"
mkdir -p "$game_dir"
cd "$game_dir"
rm -f game.json
"$postal" new swap -o game.json \
  --white "Ana <ana@example.org>" --black "Ben <ben@example.org>" \
  --time-control 3d --mail
for move in e2-e4 e7-e5 Nb1-c3 Nb8-c6 g2-g4 Bf8-c5 Qd1/g4/g7/h8; do
  echo
  echo "\$ postal move game.json $move --mail"
  "$postal" move game.json "$move" --mail
done
echo
echo "The last message, as Ben receives it (headers and text part):"
sed -n '1,/^--.*$/p;/^Content-Type: text\/plain/,/^--/p' "outbox/game-7.eml" | head -60
echo
echo "The game is in $game_dir/game.json; the mails are in $game_dir/outbox/."
