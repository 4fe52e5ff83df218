"""Fairy-Stockfish's answers for tests/ini_agree.rs, from pyffish.

Usage: agree.py INI JOBS

INI is variants.ini text written by the test; JOBS a JSON list of
{"variant", "depth", "positions", "seed", "builtin"?}. For each job it
prints, as one JSON list: the start FEN; the start and POSITIONS positions
reached by random legal play (seeded), each with perft counts to DEPTH;
and a random game of up to 40 plies with the sorted legal moves before
each ply and the final FEN. With "builtin", the same start, perft and game
for pyffish's built-in variant of that name, under "builtin".
"""
import json
import random
import sys

import pyffish as sf


def perft(variant, fen, depth):
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    if depth == 2:
        return sum(len(sf.legal_moves(variant, fen, [m])) for m in moves)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def walk(variant, fen, plies, rng):
    for _ in range(plies):
        moves = sf.legal_moves(variant, fen, [])
        if not moves:
            break
        fen = sf.get_fen(variant, fen, [rng.choice(sorted(moves))])
    return fen


def game(variant, start, rng):
    fen, played, legal = start, [], []
    for _ in range(40):
        moves = sorted(sf.legal_moves(variant, fen, []))
        legal.append(moves)
        if not moves:
            break
        m = rng.choice(moves)
        played.append(m)
        fen = sf.get_fen(variant, fen, [m])
    return {"moves": played, "legal": legal, "fen": sf.get_fen(variant, start, played)}


def answers(variant, depth, count, seed):
    rng = random.Random(seed)
    start = sf.start_fen(variant)
    fens = [start] + [walk(variant, start, rng.randrange(4, 40), rng) for _ in range(count)]
    return {
        "start": start,
        "positions": [{"fen": f, "perft": [perft(variant, f, d) for d in range(1, depth + 1)]} for f in fens],
        "game": game(variant, start, random.Random(seed + 1)),
    }


def main():
    with open(sys.argv[1]) as f:
        sf.load_variant_config(f.read())
    with open(sys.argv[2]) as f:
        jobs = json.load(f)
    out = []
    for job in jobs:
        a = answers(job["variant"], job["depth"], job["positions"], job["seed"])
        if job.get("builtin"):
            a["builtin"] = answers(job["builtin"], job["depth"], 0, job["seed"])
        out.append(a)
    json.dump(out, sys.stdout)


main()
