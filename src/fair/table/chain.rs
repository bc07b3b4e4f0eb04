//! One peer's chain of frames: seq, message hashes, what it has seen of the other.

use std::collections::VecDeque;

use crate::fair::hash::Hash;

#[derive(Clone, Debug, Default)]
pub(crate) struct Chain {
    /// The seq of `frames[0]`: frames before it were compacted away.
    pub(crate) base: u32,
    /// Each frame's message hash and its place in the transcript (bytes are kept once).
    pub(crate) frames: VecDeque<(Hash, usize)>,
    /// Index into the other chain of the newest frame this chain has seen.
    pub(crate) seen: Option<u32>,
}

impl Chain {
    pub(crate) fn next(&self) -> u32 {
        self.base + self.frames.len() as u32
    }

    pub(crate) fn last(&self) -> Hash {
        self.frames.back().map_or([0; 32], |(h, _)| *h)
    }

    pub(crate) fn position(&self, hash: &Hash) -> Option<u32> {
        self.frames
            .iter()
            .rposition(|(h, _)| h == hash)
            .map(|i| self.base + i as u32)
    }

    /// Frame `seq`'s hash and place in the transcript, unless compacted away.
    pub(crate) fn get(&self, seq: u32) -> Option<(Hash, usize)> {
        self.frames
            .get(seq.checked_sub(self.base)? as usize)
            .copied()
    }

    /// Forgets the frames before `seq` (never the newest one).
    pub(crate) fn forget_before(&mut self, seq: u32) {
        while self.base < seq && self.frames.len() > 1 {
            self.frames.pop_front();
            self.base += 1;
        }
    }
}
