//! One side of an Archimedes table between friends: the open game's session ([`super::open`]) playing Archimedes, and the settings of a new table.

use armada_proto as proto;

pub use super::open::Owed;
// The observer's vocabulary, for the session's shells.
pub use crate::fair::archimedes::{Archimedes, Note, Outcome, Reason, Table, Verdict};

/// One side of an Archimedes table.
pub type Session = super::open::Session<Archimedes>;
/// What a player asks of an Archimedes session.
pub type Command = super::open::Command<crate::archimedes::Move>;
/// What an Archimedes session tells its shell.
pub type Event = super::open::Event<Archimedes>;

/// A new Archimedes table's settings: the board's side (6, 8 or 10), the time a
/// move may take before the other side may claim a forfeit, and the grace.
pub fn settings(side: u8, move_ms: u32, grace_ms: u32) -> proto::Settings {
    proto::Settings {
        game: proto::GameKind::Archimedes { side },
        move_ms,
        answer_ms: 0,
        reveal_ms: 0,
        grace_ms,
    }
}
