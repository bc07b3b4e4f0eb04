//! Armada: a peer-to-peer sea battle for two friends, where proofs replace the referee.
//!
//! See ARCHITECTURE.md for the map of modules and what each must never do.

pub mod ai;
pub mod archimedes;
pub mod demo;
pub mod driver;
pub mod fair;
#[cfg(feature = "harness")]
pub mod fuzz;
pub mod icehouse;
#[cfg(feature = "net")]
pub mod net;
pub mod rules;
pub mod session;
pub mod store;
#[cfg(feature = "window")]
pub mod ui;
