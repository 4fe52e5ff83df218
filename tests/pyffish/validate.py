"""Fairy-Stockfish's verdict on positions, for tests/ini_positions.rs.

Usage: validate.py INI JOBS

JOBS is a JSON list of {"variant", "fen"}; prints a JSON list of
pyffish's `validate_fen` codes (1 for a position it accepts, a negative
code naming the reason otherwise). Its explanations on stderr are
dropped.
"""
import json
import os
import sys

import pyffish as sf


def main():
    with open(sys.argv[1]) as f:
        sf.load_variant_config(f.read())
    with open(sys.argv[2]) as f:
        jobs = json.load(f)
    # validate_fen explains a refusal on the C++ standard error.
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    json.dump([sf.validate_fen(j["fen"], j["variant"]) for j in jobs], sys.stdout)


main()
