//! Domain-separated SHA-256: every hash in the protocol goes through here, with its own label.

use sha2::{Digest, Sha256};

/// A SHA-256 digest.
pub type Hash = [u8; 32];

/// The labels that separate one use of SHA-256 from every other; PROTOCOL.md lists
/// them. Each is hashed with a trailing zero byte, so no label is a prefix of another.
pub mod label {
    pub const LEAF: &str = "armada/1/leaf";
    pub const PAD: &str = "armada/1/pad";
    pub const NODE: &str = "armada/1/node";
    pub const CONTRIBUTION: &str = "armada/1/contribution";
    pub const SHELLS: &str = "armada/1/shells";
    pub const TIMEOUT: &str = "armada/1/timeout";
    pub const GAME: &str = "armada/1/game";
    pub const TABLE: &str = "armada/1/table";
    pub const JOIN: &str = "armada/1/join";
    pub const SETTINGS: &str = "armada/1/settings";
    pub const SIGNATURE: &str = "armada/1/signature";
    pub const MESSAGE: &str = "armada/1/message";
    pub const CODE_PASSWORD: &str = "armada/1/code-password";
    pub const CODE_HOST: &str = "armada/1/code-host";
    pub const CODE_GUEST: &str = "armada/1/code-guest";
    pub const CODE_KEY: &str = "armada/1/code-key";
    pub const CODE_JOIN: &str = "armada/1/code-join";
}

/// SHA-256 of `label`, a zero byte, then each part in order.
pub fn labelled(label: &str, parts: &[&[u8]]) -> Hash {
    let mut hasher = Sha256::new();
    hasher.update(label.as_bytes());
    hasher.update([0]);
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// A stream of unbiased draws from a seed: block `j` is SHA-256(seed ‖ j as 4 bytes,
/// big-endian), read byte by byte. Two peers with one seed draw the same numbers.
#[derive(Debug, Clone)]
pub struct Draws {
    seed: Hash,
    block: Hash,
    counter: u32,
    used: usize,
}

impl Draws {
    pub fn new(seed: Hash) -> Self {
        Self {
            seed,
            block: [0; 32],
            counter: 0,
            used: 32,
        }
    }

    fn byte(&mut self) -> u8 {
        if self.used == 32 {
            let mut hasher = Sha256::new();
            hasher.update(self.seed);
            hasher.update(self.counter.to_be_bytes());
            self.block = hasher.finalize().into();
            self.counter = self.counter.wrapping_add(1);
            self.used = 0;
        }
        self.used += 1;
        self.block[self.used - 1]
    }

    /// A number in `0..n` (1 ≤ n ≤ 256), every value equally likely: bytes at or
    /// above the largest multiple of `n` are thrown away, never folded with `%`.
    pub fn below(&mut self, n: u16) -> u8 {
        let n = n.clamp(1, 256);
        let limit = 256 - 256 % n;
        loop {
            let b = u16::from(self.byte());
            if b < limit {
                return (b % n) as u8;
            }
        }
    }
}
