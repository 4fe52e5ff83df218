"""Games played to their end by Fairy-Stockfish, for tests/ini_endings.rs.

Usage: playout.py INI JOBS

INI is a variants.ini file; JOBS a JSON list of {"variant", "seed",
"plies", "style", "immediate"} ("immediate": false where the variant has
no extinction, flag or connect rule, which spares a call a ply), with
"moves" (UCI) to play first where a test gives a line of its own. For each job it plays one game from the variant's
start, seeded, until pyffish says it has ended or PLIES are played, and
prints, as one JSON list: the start FEN, the moves (UCI), and how it ended:
"immediate" (`is_immediate_game_end`: extinction, flag and the like),
"optional" (`is_optional_game_end`: n-fold repetition, the n-move rule,
which Fairy-Stockfish's search scores as the end of the game), "no move"
(`game_result`: checkmate, stalemate), or null; with the value for the
side to move (positive a win, 0 a draw, negative a loss).

Style "random" picks among the legal moves; "shuffle" mostly takes back
its own last move, so that positions repeat; "quiet" prefers moves that
neither capture nor move a pawn, so that the n-move rule comes into play.
"""
import json
import random
import re
import sys

import pyffish as sf

SQUARES = re.compile(r"([a-z])(\d+)([a-z])(\d+)(.*)")


def board(fen):
    """The FEN's cells by square name ("a1"), None where empty."""
    placement = fen.split(" ")[0].split("[")[0]
    rows = placement.split("/")
    cells = {}
    for r, row in enumerate(rows):
        rank = len(rows) - r
        f = 0
        for token in re.findall(r"\d+|\+?[A-Za-z]~?|\*", row):
            if token.isdigit():
                f += int(token)
                continue
            cells[f"{chr(ord('a') + f)}{rank}"] = None if token == "*" else token
            f += 1
    return cells


def pick(style, moves, played, fen, rng):
    if style == "shuffle" and len(played) >= 2 and rng.random() < 0.75:
        m = SQUARES.fullmatch(played[-2])
        if m and not m.group(5):
            back = f"{m.group(3)}{m.group(4)}{m.group(1)}{m.group(2)}"
            if back in moves:
                return back
    if style == "quiet" and rng.random() < 0.95:
        cells = board(fen)
        quiet = []
        for mv in moves:
            m = SQUARES.fullmatch(mv)
            if not m or m.group(5):
                continue
            piece = cells.get(m.group(1) + m.group(2)) or ""
            if cells.get(m.group(3) + m.group(4)) is None and piece.lower() != "p":
                quiet.append(mv)
        if quiet:
            return rng.choice(quiet)
    return rng.choice(moves)


def play(variant, seed, plies, style, immediate, line):
    rng = random.Random(seed)
    line = list(line)
    start = sf.get_fen(variant, sf.start_fen(variant), [])
    moves = []
    end, value = None, 0
    while True:
        ended, v = sf.is_immediate_game_end(variant, start, moves) if immediate else (False, 0)
        if ended:
            end, value = "immediate", v
            break
        ended, v = sf.is_optional_game_end(variant, start, moves)
        if ended:
            end, value = "optional", v
            break
        legal = sorted(sf.legal_moves(variant, start, moves))
        if not legal:
            end, value = "no move", sf.game_result(variant, start, moves)
            break
        if len(moves) >= plies:
            break
        fen = sf.get_fen(variant, start, moves) if style == "quiet" else ""
        moves.append(line.pop(0) if line else pick(style, legal, moves, fen, rng))
    return {"start": start, "moves": moves, "end": end, "value": value}


def main():
    with open(sys.argv[1]) as f:
        sf.load_variant_config(f.read())
    with open(sys.argv[2]) as f:
        jobs = json.load(f)
    json.dump([play(j["variant"], j["seed"], j["plies"], j["style"], j["immediate"], j.get("moves", [])) for j in jobs], sys.stdout)


main()
