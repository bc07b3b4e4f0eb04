//! Secrets — cell salts and air-strike contributions — drawn only from the operating system's CSPRNG.
//!
//! Architecture invariant: outside this crate's own unit tests there is no way to
//! make a [`Secret`] from chosen bytes or from a seeded generator; `fresh` asks the
//! operating system, and `restore` (crate-internal) reloads one that was saved.

use std::fmt;

use rand::TryRng;
use rand::rngs::SysRng;
use thiserror::Error;

/// The operating system could not provide randomness; nothing secret can be made.
#[derive(Debug, Error)]
#[error("the operating system's random number generator failed: {0}")]
pub struct EntropyError(String);

/// `N` bytes of fresh secret randomness. Its `Debug` never shows them.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret<const N: usize>([u8; N]);

/// A cell's salt: 128 bits, so every cell's commitment hides its content on its own.
pub type Salt = Secret<16>;
/// A contribution to one air strike's shared randomness.
pub type Contribution = Secret<32>;

impl<const N: usize> Secret<N> {
    /// New randomness from the operating system.
    pub fn fresh() -> Result<Self, EntropyError> {
        let mut bytes = [0; N];
        SysRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| EntropyError(e.to_string()))?;
        Ok(Self(bytes))
    }

    /// The bytes, to hash or to reveal when the protocol says so.
    pub fn expose(&self) -> &[u8; N] {
        &self.0
    }

    /// A secret saved earlier by this program (its store), loaded back.
    pub(crate) fn restore(bytes: [u8; N]) -> Self {
        Self(bytes)
    }

    /// Predictable bytes for this crate's unit tests only.
    #[cfg(test)]
    pub(crate) fn for_tests(bytes: [u8; N]) -> Self {
        Self(bytes)
    }
}

impl<const N: usize> fmt::Debug for Secret<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret<{N}>(hidden)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_secrets_differ_and_do_not_print() {
        let (a, b) = (Salt::fresh().unwrap(), Salt::fresh().unwrap());
        assert_ne!(a, b);
        assert_eq!(format!("{a:?}"), "Secret<16>(hidden)");
        assert_eq!(Salt::for_tests([7; 16]).expose(), &[7; 16]);
    }
}
