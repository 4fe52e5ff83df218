//! Random legal games for the tests: a small xorshift generator with fixed
//! seeds, and playouts from a position that pick each turn at random. Swap
//! Chess turns are built one swap at a time from `swap_steps` (the listing
//! behind `postal moves swap --after`), so its huge move lists are never
//! enumerated.

#![allow(dead_code)]

use postal::notation::dialect::swap::swap_steps;
use postal::{Move, Position, Variant};

/// xorshift64: small, fast and the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A Swap Chess turn of swaps picked one at a time: up to six swaps,
/// stopping at random where the sequence is a legal turn. `None` when no
/// walk found a turn.
fn random_swap_turn(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let mut steps = swap_steps(pos, None, 200).ok()?;
    let mut turn = None;
    for _ in 0..6 {
        if steps.choices.is_empty() {
            break;
        }
        let c = rng.pick(&steps.choices).clone();
        if c.is_turn {
            turn = Some(c.sequence.clone());
            if c.gives_check || rng.below(2) == 0 {
                break;
            }
        }
        if c.gives_check {
            break;
        }
        match swap_steps(pos, Some(&c.sequence), 200) {
            Ok(next) => steps = next,
            Err(_) => break,
        }
    }
    turn.map(Move::Swap)
}

/// A legal turn picked at random, `None` when there is none.
pub fn random_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    if pos.variant == Variant::Swap {
        if rng.below(2) == 0 {
            if let Some(m) = random_swap_turn(pos, rng) {
                return Some(m);
            }
        }
        let mut piece = Vec::new();
        pos.legal_piece_moves(&mut piece);
        piece.retain(|m| pos.is_legal(m));
        if piece.is_empty() {
            return random_swap_turn(pos, rng);
        }
        return Some(rng.pick(&piece).clone());
    }
    let legal = pos.legal_moves();
    (!legal.is_empty()).then(|| rng.pick(&legal).clone())
}

/// A random game of up to `plies` turns from `start`, ending early when
/// the game is over.
pub fn random_game(start: &Position, plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    while out.len() < plies && pos.outcome().is_none() {
        let Some(mv) = random_move(&pos, rng) else {
            break;
        };
        pos = pos.play(&mv).expect("a random move is legal");
        out.push(mv);
    }
    out
}
