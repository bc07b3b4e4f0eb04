//! Fairness without a referee: commitments, cell openings, shared randomness, signed transcripts.
//!
//! Architecture invariant: builds on `rules`, `archimedes` (the second game's
//! engine) and the wire crate only; no IO, no
//! clock, no network.
//! Secrets come only from the operating system (see `secret`); every hash goes
//! through `hash` with its own label.

pub mod archimedes;
pub mod code;
pub mod commit;
pub mod hash;
pub mod icehouse;
pub mod secret;
pub mod shared;
pub mod sign;
pub mod table;
pub mod verify;
pub mod wire;
