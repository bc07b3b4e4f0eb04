//! An Archimedes table as any observer sees it: the game's engine as an open game (`fair::table::open`), both peers' signed moves checked in order, without any secret.
//!
//! Everything but the board — frames, chains, `seen` links, hellos, settings,
//! nonces, game ids, forfeit claims, verdicts, play again, leaves, and how a
//! resignation crosses a move — is the table's (`fair::table`, PROTOCOL.md). Here:
//! the settings an Archimedes table may have, and its moves on the wire (`Move`,
//! cells `row * side + col`).

use armada_proto::{self as proto, Payload};

use crate::archimedes::{self as arch, Move, Position, SIZES, Side};
use crate::fair::hash::Hash;
use crate::fair::table::Observer;
use crate::fair::table::open::{self, Open, OpenGame};
use crate::fair::wire;
use crate::rules::BoardSize;

/// The bounds of a move's deadline at an Archimedes table, in milliseconds.
pub const MOVE_MS: std::ops::RangeInclusive<u32> = 10_000..=600_000;

/// Archimedes as an open game at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Archimedes;

impl OpenGame for Archimedes {
    type Position = Position;
    type Move = Move;
    type Played = arch::Played;
    type Side = Side;
    type End = arch::EndReason;
    const FIRST: Side = Side::First;
    const SECOND: Side = Side::Second;
    const TABLE: &'static str = "an Archimedes table";
    const MAGIC: [u8; 8] = *b"ARMADA\0A";

    fn check_settings(settings: &proto::Settings) -> Result<(), String> {
        check_settings(settings).map(|_| ())
    }
    fn start(
        settings: &proto::Settings,
        _: &Hash,
        _: crate::rules::Seat,
    ) -> Result<Position, String> {
        Position::start(check_settings(settings)?.side()).map_err(|e| e.to_string())
    }
    fn mover(position: &Position) -> Side {
        position.mover()
    }
    fn moved(payload: &Payload) -> Option<(&Hash, u32)> {
        match payload {
            Payload::Move { game, number, .. } => Some((game, *number)),
            _ => None,
        }
    }
    fn decode(payload: &Payload, position: &Position) -> Result<Move, String> {
        let Payload::Move { from, to, .. } = payload else {
            return Err("not a move".into());
        };
        let size = position.size();
        Ok(Move {
            from: wire::cell(*from, size).map_err(|e| e.to_string())?,
            to: wire::cell(*to, size).map_err(|e| e.to_string())?,
        })
    }
    fn encode(game: Hash, number: u32, mv: Move, position: &Position) -> Payload {
        let side = position.size().side();
        let index = |c: crate::rules::Coord| c.row() * side + c.col();
        Payload::Move {
            game,
            number,
            from: index(mv.from),
            to: index(mv.to),
        }
    }
    fn check(position: &Position, mv: Move) -> Result<(), String> {
        position.check(mv).map_err(|e| e.to_string())
    }
    fn play(position: &mut Position, mv: Move) -> Result<arch::Played, String> {
        position.play(mv).map_err(|e| e.to_string())
    }
    fn ending(played: &arch::Played) -> Option<(Option<Side>, arch::EndReason)> {
        played.ending.map(|e| (e.winner, e.reason))
    }
}

/// Why an Archimedes game ended.
pub type Reason = open::Reason<arch::EndReason>;
/// How an Archimedes game ended.
pub type Outcome = open::Outcome<arch::EndReason>;
/// An Archimedes game's settled outcome.
pub type Verdict = open::Verdict<arch::EndReason>;
/// One move as the record keeps it.
pub type Step = open::Step<arch::Played>;
/// What the observer of an Archimedes table learnt from one accepted frame.
pub type Note = open::Note<Archimedes>;
/// The observer of one Archimedes table.
pub type Table = Observer<Open<Archimedes>>;

/// Whether `settings` are an Archimedes table's, within what the rules allow.
pub fn check_settings(settings: &proto::Settings) -> Result<BoardSize, String> {
    let proto::GameKind::Archimedes { side } = settings.game else {
        return Err("not an Archimedes table".into());
    };
    if !SIZES.contains(&side) {
        return Err(format!("an Archimedes board of {side}×{side}"));
    }
    if !MOVE_MS.contains(&settings.move_ms)
        || settings.answer_ms != 0
        || settings.reveal_ms != 0
        || settings.grace_ms > 600_000
    {
        return Err("the table's deadlines are outside what the rules allow".into());
    }
    Position::start(side)
        .map(|p| p.size())
        .map_err(|e| e.to_string())
}
