//! The dice stream: one portable seeded generator and our own rejection sampling.
//!
//! The generator is ChaCha8 (rand's `chacha` feature, minor version pinned in Cargo.toml), seeded
//! with `SeedableRng::seed_from_u64`, whose expansion rand_core documents as stable. A die of `s`
//! sides takes 32-bit words from the stream and rejects those at or above the largest multiple of
//! `s`, so every face is equally likely and the sequence is the same on every machine.

use std::collections::VecDeque;

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

/// Uniform value in `1..=sides` from a stream of 32-bit words, by rejection.
pub fn roll_die(rng: &mut impl Rng, sides: u32) -> u32 {
    let sides = sides.max(1);
    // Largest multiple of `sides` that fits in 2^32; words at or above it are rejected.
    let zone = (1u64 << 32) - ((1u64 << 32) % sides as u64);
    loop {
        let w = rng.next_u32() as u64;
        if w < zone {
            return (w % sides as u64) as u32 + 1;
        }
    }
}

/// Where the next die comes from: forced values first (`--rolls`), then the seeded stream.
pub struct DiceStream {
    rng: ChaCha8Rng,
    forced: VecDeque<i64>,
}

/// A forced value that cannot come up on the die it was given to.
#[derive(Debug, PartialEq, Eq)]
pub struct ImpossibleRoll {
    pub value: i64,
    pub sides: u32,
}

impl DiceStream {
    pub fn new(seed: u64, forced: &[i64]) -> Self {
        DiceStream {
            rng: ChaCha8Rng::seed_from_u64(seed),
            forced: forced.iter().copied().collect(),
        }
    }

    /// Rolls one die of `sides` faces.
    pub fn die(&mut self, sides: u32) -> Result<u32, ImpossibleRoll> {
        match self.forced.pop_front() {
            Some(v) if v >= 1 && v <= sides as i64 => Ok(v as u32),
            Some(value) => Err(ImpossibleRoll { value, sides }),
            None => Ok(roll_die(&mut self.rng, sides)),
        }
    }

    /// Rolls one die whose faces are listed: a forced value must be one of them; else each face
    /// (by its place in the list) is equally likely.
    pub fn die_of(&mut self, faces: &[i64]) -> Result<i64, ImpossibleRoll> {
        let sides = faces.len().min(u32::MAX as usize) as u32;
        match self.forced.pop_front() {
            Some(v) if faces.contains(&v) => Ok(v),
            Some(value) => Err(ImpossibleRoll { value, sides }),
            None => {
                let i = roll_die(&mut self.rng, sides) as usize - 1;
                Ok(faces.get(i).copied().unwrap_or(0))
            }
        }
    }

    /// Shuffles `list` from the seeded stream (forced rolls are for dice, not for shuffles):
    /// Fisher-Yates, each place drawn uniformly.
    pub fn shuffle<T>(&mut self, list: &mut [T]) {
        for i in (1..list.len()).rev() {
            let bound = (i + 1).min(u32::MAX as usize) as u32;
            let j = roll_die(&mut self.rng, bound) as usize - 1;
            list.swap(i, j);
        }
    }

    /// A place from 0 to `n` (inclusive), uniformly, from the seeded stream (never forced): where
    /// a card shuffled into a pile of `n` cards goes.
    pub fn place(&mut self, n: usize) -> usize {
        let bound = (n + 1).min(u32::MAX as usize) as u32;
        roll_die(&mut self.rng, bound) as usize - 1
    }

    /// How many forced values are still waiting.
    pub fn forced_left(&self) -> usize {
        self.forced.len()
    }

    /// Forces more values, after those already waiting.
    pub fn force(&mut self, values: &[i64]) {
        self.forced.extend(values.iter().copied());
    }

    /// Restarts the seeded part of the stream from `seed`; forced values still come first.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }
}

/// The generator a policy draws its choices from: the same seed on its own ChaCha stream, so a
/// policy's choices never shift the dice.
pub fn policy_rng(seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1);
    rng
}
