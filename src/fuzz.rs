//! Fuzz harnesses: the bodies of the `fuzz/` targets and of the test that replays their corpus; each panics only when an invariant breaks.
//!
//! Four targets, each a function of raw bytes:
//! - [`wire`]: every decoder of `armada-proto` (bodies, frames, stream messages,
//!   transcript files) and the conversions of `fair::wire`; what decodes must
//!   encode back to the same bytes.
//! - [`session`]: two honest in-memory [`Session`]s driven by an [`Op`] sequence
//!   (deliver, drop, duplicate, replay, mutate, misroute, forge, garbage, time,
//!   player commands, computer players, restarts, reconnections). A refused input
//!   changes nothing in the refusing side's snapshot, no honest side is ever
//!   accused of a lie, a restored snapshot saves the same bytes, and after a final
//!   reconnection both sides hold the same frames and reach the same verdicts, and
//!   `armada verify` gives the same record from either side's transcript.
//! - [`verifier`]: `armada verify` on arbitrary bytes, or on a real transcript
//!   changed by structured [`Edit`]s; a prefix of an honest transcript is never a lie.
//! - [`invite`]: invite links and codes, and LAN offers; what parses, round-trips.
//!
//! Deterministic: identities, fleets and players' choices come from the input.
//! Only the secrets a session draws itself (salts, contributions, nonces) come from
//! the operating system, as TRUST.md requires; no invariant depends on them.
//!
//! Architecture invariant: drives the library only through its public API, as a
//! shell would; no IO. The [`Seed`] encoders write the bytes `arbitrary` reads back
//! as the same operations, so the checked-in corpus can be generated.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::LazyLock;

use arbitrary::{Arbitrary, Unstructured};
use armada_proto::{self as proto, Payload, Wire};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::ai::Level;
use crate::driver::Bot;
use crate::fair::sign::Identity;
use crate::fair::table::{Note, Rejected, Verdict};
use crate::fair::verify::{Outcome, Report, verify};
use crate::fair::wire as conv;
use crate::rules::{
    Action, BoardSize, Coord, Fleet, FleetSpec, Heading, Placer, Seat, Torpedo, Variant,
};
use crate::session::{Command, Event, Millis, Session};

mod duel;
mod seed;

pub use duel::*;
pub use seed::*;

// ---------------------------------------------------------------------------
// wire

/// Every decoder of the wire crate on `data`; what decodes encodes back to `data`.
pub fn wire(data: &[u8]) {
    if let Ok(body) = proto::decode_body(data) {
        assert_eq!(
            proto::encode_body(&body),
            data,
            "a decoded body is canonical"
        );
        payload_fields(&body.payload);
    }
    match proto::Frame::decode(data) {
        Ok(frame) => {
            assert_eq!(frame.bytes, data, "a frame keeps its bytes");
            assert_eq!(
                proto::encode_body(&frame.body),
                frame.body_bytes(),
                "a frame's body is canonical"
            );
            assert_eq!(
                &data[data.len() - proto::SIGNATURE_LEN..],
                frame.signature,
                "the signature is the frame's tail"
            );
        }
        Err(error) => refusal(error),
    }
    match proto::decode_wire(data) {
        Ok(message) => {
            assert_eq!(
                proto::encode_wire(&message),
                data,
                "a decoded stream message is canonical"
            );
            if let Wire::Frame(inner) = &message
                && let Err(error) = proto::Frame::decode(inner)
            {
                refusal(error);
            }
        }
        Err(error) => refusal(error),
    }
    if let Ok(transcript) = proto::decode_transcript(data) {
        let again = proto::encode_transcript(&transcript);
        assert_eq!(
            proto::decode_transcript(&again).as_ref(),
            Ok(&transcript),
            "a decoded transcript round-trips"
        );
    }
}

/// A decoding error as the session reports it, to the shell and to the peer.
fn refusal(error: proto::DecodeError) {
    let rejected = Rejected::from(error);
    let _ = (rejected.code(), rejected.to_string());
}

/// The conversions every field of a peer's payload goes through, on every board.
fn payload_fields(payload: &Payload) {
    for size in [BoardSize::SMALL, BoardSize::STANDARD, BoardSize::LARGE] {
        match payload {
            Payload::Settings(settings) => {
                if let Ok(variant) = conv::variant(settings.game) {
                    assert_eq!(conv::game_kind(variant), settings.game);
                }
            }
            Payload::Act { action, .. } => {
                if let Ok(a) = conv::from_action(*action, size) {
                    assert_eq!(conv::action(a, size), *action, "an action round-trips");
                    let _ = a.to_string();
                }
            }
            Payload::Answer { openings, .. } => {
                for opening in openings {
                    if let Ok((o, content)) = conv::from_opening(opening, size) {
                        assert_eq!(
                            &conv::opening(&o, content, size),
                            opening,
                            "an opening round-trips"
                        );
                    }
                }
            }
            Payload::Reveal { ships, .. } => {
                for ship in ships {
                    if let Ok(s) = conv::from_ship(*ship, size) {
                        // A single deck has no direction: it always reads back across.
                        let expected = proto::WireShip {
                            down: ship.down && ship.len > 1,
                            ..*ship
                        };
                        assert_eq!(conv::ship(&s, size), expected, "a ship round-trips");
                        let _ = s.mask(size);
                    }
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------
// invite

/// Invite links and codes (`data` as text) and LAN offers (`data` as bytes).
pub fn invite(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match proto::Invite::parse(&text) {
        Ok(invite) => {
            let code = invite.to_code();
            assert_eq!(
                proto::Invite::parse(&code).as_ref(),
                Ok(&invite),
                "a parsed invite's code reads back"
            );
            assert_eq!(
                proto::Invite::parse(&invite.to_link()).as_ref(),
                Ok(&invite),
                "a parsed invite's link reads back"
            );
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
    match proto::LanOffer::decode(data) {
        Ok(offer) => assert_eq!(
            proto::LanOffer::decode(&offer.encode()).as_ref(),
            Ok(&offer),
            "a LAN offer round-trips"
        ),
        Err(error) => {
            let _ = error.to_string();
        }
    }
}

// ---------------------------------------------------------------------------
// verifier

/// A structured change to a real transcript; frame indices wrap around its length.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Keep the first `n` frames (a transcript saved mid-game).
    Cut(u16),
    Drop(u16),
    /// The frame again, right after itself.
    Duplicate(u16),
    Swap(u16, u16),
    /// Take a frame out and put it back elsewhere.
    Move {
        from: u16,
        to: u16,
    },
    /// The frame is filed under the other seat.
    Reseat(u16),
    Flip {
        frame: u16,
        at: u16,
        xor: u8,
    },
    Truncate {
        frame: u16,
        keep: u16,
    },
    /// Another table id.
    Table {
        at: u8,
        xor: u8,
    },
    Version(u16),
}

/// Edits applied to one transcript at most (more add nothing but time).
const MAX_EDITS: usize = 64;

/// `armada verify` on `data`: if its first byte is even, on the rest as a file; if
/// odd, the rest is [`Edit`]s (each behind a continue byte, as `arbitrary` reads a
/// sequence) and then a transcript file they change. Never panics; the record
/// renders; a prefix of a transcript that is not a lie is not a lie either.
pub fn verifier(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        render(&verify(rest));
        return;
    }
    let mut u = Unstructured::new(rest);
    let mut edits = Vec::new();
    if let Ok(iter) = u.arbitrary_iter::<Edit>() {
        for edit in iter.take(MAX_EDITS) {
            let Ok(edit) = edit else { break };
            edits.push(edit);
        }
    }
    let file = u.take_rest();
    let Ok(mut transcript) = proto::decode_transcript(file) else {
        render(&verify(file));
        return;
    };
    let cuts_only = edits.iter().all(|e| matches!(e, Edit::Cut(_)));
    let before = (cuts_only && !edits.is_empty()).then(|| verify(file).outcome);
    for edit in &edits {
        apply_edit(&mut transcript, *edit);
    }
    let report = verify(&proto::encode_transcript(&transcript));
    render(&report);
    if let Some(before) = before
        && !matches!(before, Outcome::Lie(_) | Outcome::Malformed(_))
    {
        assert!(
            !matches!(report.outcome, Outcome::Lie(_) | Outcome::Malformed(_)),
            "a prefix of a transcript that was {before:?} is {:?}",
            report.outcome
        );
    }
}

fn render(report: &Report) {
    let _ = report.to_text();
    let _ = report.to_json().to_string();
    let _ = report.outcome.exit_code();
}

fn apply_edit(t: &mut proto::Transcript, edit: Edit) {
    let len = t.frames.len();
    let at = |i: u16| usize::from(i) % len.max(1);
    match edit {
        Edit::Table { at, xor } => t.table[usize::from(at) % 32] ^= xor,
        Edit::Version(v) => t.version = v,
        _ if len == 0 => {}
        Edit::Cut(n) => t.frames.truncate(usize::from(n) % (len + 1)),
        Edit::Drop(i) => {
            t.frames.remove(at(i));
        }
        Edit::Duplicate(i) => {
            let frame = t.frames[at(i)].clone();
            t.frames.insert(at(i) + 1, frame);
        }
        Edit::Swap(a, b) => t.frames.swap(at(a), at(b)),
        Edit::Move { from, to } => {
            let frame = t.frames.remove(at(from));
            let to = usize::from(to) % (t.frames.len() + 1);
            t.frames.insert(to, frame);
        }
        Edit::Reseat(i) => {
            let frame = &mut t.frames[at(i)];
            frame.from = match frame.from {
                proto::Seat::Host => proto::Seat::Guest,
                proto::Seat::Guest => proto::Seat::Host,
            };
        }
        Edit::Flip {
            frame,
            at: byte,
            xor,
        } => {
            let bytes = &mut t.frames[at(frame)].bytes;
            if !bytes.is_empty() {
                let i = usize::from(byte) % bytes.len();
                bytes[i] ^= xor.max(1);
            }
        }
        Edit::Truncate { frame, keep } => {
            let bytes = &mut t.frames[at(frame)].bytes;
            bytes.truncate(usize::from(keep) % (bytes.len() + 1));
        }
    }
}
