//! Armada's wire protocol: the only code that defines the bytes peers exchange.
//!
//! A *frame* is a postcard-encoded [`Body`] followed by a 64-byte ed25519
//! signature. `PROTOCOL.md` beside this crate specifies every message and every
//! hash input. Architecture invariant: this crate never depends on the game
//! engine; it checks sizes before decoding, decodes strictly (no trailing bytes,
//! canonical encoding only) and refuses any other protocol version.

mod code;
mod codec;
mod invite;
mod message;

pub use code::{
    CodeError, CodeMessage, MAX_CODE_MESSAGE, RENDEZVOUS, Refusal, ShortCode, TRIES, WORDS,
};
pub use codec::{
    DecodeError, Frame, MAX_BODY, MAX_FRAME, MAX_TEXT, MAX_TRANSCRIPT, MAX_WIRE, SIGNATURE_LEN,
    TRANSCRIPT_MAGIC, decode_body, decode_transcript, decode_transcript_prefix, decode_wire,
    encode_body, encode_saved_frame, encode_settings, encode_transcript, encode_wire, split_frame,
};
pub use invite::{
    INVITE_PREFIX, Invite, InviteError, LAN_OFFER_VERSION, LanOffer, MAX_ADDRS, MAX_INVITE,
};
pub use message::{
    Body, Claim, ErrorCode, GameKind, Hash, Heading, IceAct, IceFleet, IceGoal, IcePlaced,
    IcePoint, IceSetup, Owed, Payload, ProtocolError, SavedFrame, Seat, Settings, Transcript, Wire,
    WireAction, WireOpening, WireShip, WireVerdict,
};

/// The protocol version every body starts with; peers refuse any other.
pub const PROTOCOL_VERSION: u16 = 3;
