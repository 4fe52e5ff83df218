"""Fairy-Stockfish's answers for tests/ini_agree.rs, from pyffish.

Usage: agree.py INI JOBS

INI is variants.ini text written by the test; JOBS a JSON list of
{"variant", "depth", "positions", "seed", "builtin"?}. For each job it
prints, as one JSON list: the start FEN; the start and POSITIONS positions
reached by random legal play (seeded), each with perft counts to DEPTH;
and a random game of up to 40 plies with the sorted legal moves before
each ply and the final FEN. With "builtin", the same start, perft and game
for pyffish's built-in variant of that name, under "builtin".

With FAIRY_STOCKFISH naming a Fairy-Stockfish engine (built with large
boards, as benches/agree-fairy-stockfish.sh does), perft is counted by its
`go perft` instead, thousands of times faster than by pyffish's calls.
"""
import json
import os
import random
import subprocess
import sys

import pyffish as sf


class Engine:
    """A Fairy-Stockfish process spoken to in UCI."""

    def __init__(self, path, ini):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send(f"setoption name VariantPath value {ini}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def perft(self, variant, fen, depth):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        for line in self.p.stdout:
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1])
        raise RuntimeError("the engine stopped")


ENGINE = None


def perft(variant, fen, depth):
    if ENGINE is not None:
        return ENGINE.perft(variant, fen, depth)
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
    # The start as Fairy-Stockfish writes it once read (`w 0 1` becomes
    # `w - - 0 1`), which is what postal writes.
    start = sf.get_fen(variant, sf.start_fen(variant), [])
    fens = [start] + [walk(variant, start, rng.randrange(4, 40), rng) for _ in range(count)]
    return {
        "start": start,
        "positions": [{"fen": f, "perft": [perft(variant, f, d) for d in range(1, depth + 1)]} for f in fens],
        "game": game(variant, start, random.Random(seed + 1)),
    }


def main():
    global ENGINE
    if os.environ.get("FAIRY_STOCKFISH"):
        ENGINE = Engine(os.environ["FAIRY_STOCKFISH"], os.path.abspath(sys.argv[1]))
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
