#!/usr/bin/env bash
# The main job of postal on a fresh machine, with the embedded defaults (no
# configuration, no mail server): two players start a Swap Chess game and
# play its first moves by mail, with a draw offer and its refusal. Each act
# is validated, saved to the game's state file, and mailed to the player
# who should hear of it; with no settings the mail goes to the `outbox`
# Maildir beside the game (open it with `neomutt -f outbox`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
postal="$PWD/target/release/postal"
game_dir="${1:-$(mktemp -d)}"
mkdir -p "$game_dir"
cd "$game_dir"
rm -rf game.json outbox
"$postal" new swap -o game.json \
  --white "Ana <ana@example.org>" --black "Ben <ben@example.org>" \
  --time-control 3d --mail
act() {
  echo
  echo "\$ postal $* --mail"
  "$postal" "$@" --mail
}
for move in e2-e4 e7-e5 Nb1-c3; do act move game.json "$move"; done
act draw offer game.json
act draw decline game.json
for move in Nb8-c6 g2-g4 Bf8-c5 Qd1/g4/g7/h8; do act move game.json "$move"; done
echo
echo "The thread, as the outbox holds it (To, Subject, first line):"
python3 - <<'PY'
import email, email.policy, mailbox
box = mailbox.Maildir("outbox", factory=None, create=False)
msgs = [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default) for k in box.keys()]
msgs.sort(key=lambda m: len(str(m.get("References", "")).split()))
for m in msgs:
    text = m.get_body(preferencelist=("plain",)).get_content()
    print("%-22s %s\n    %s" % (m["To"], m["Subject"], text.splitlines()[0]))
PY
echo
echo "The game is in $game_dir/game.json; the mails are in the Maildir $game_dir/outbox/."
