//! Armada's wire protocol: the only code that defines the bytes peers exchange.
//!
//! This crate is filled in by the trust core (messages, postcard encoding,
//! size limits checked before decoding); `PROTOCOL.md` beside it is the spec.
//! It must never depend on the game engine: the protocol describes bytes,
//! the engine gives them meaning.

/// The protocol version every message carries; peers refuse any other.
pub const PROTOCOL_VERSION: u16 = 1;
