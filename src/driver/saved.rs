//! The saved tables as the home screen lists them: which can be resumed, and each
//! finished one's opponent, score and verification verdict.

use crate::ai::Level;
use crate::fair::verify::{Outcome, verify};
use crate::rules::Seat;
use crate::store::{Other, PlayedBy, Store};

/// The saved tables of a store, newest first.
#[derive(Clone, Debug, Default)]
pub struct SavedTables {
    /// The newest unfinished game against the computer.
    pub unfinished: Option<[u8; 32]>,
    /// The newest unfinished game with a friend played in the window (once a game
    /// opened: the other player's address is saved by then).
    pub friend: Option<[u8; 32]>,
    /// The game that friend table plays.
    pub friend_game: crate::session::TableGame,
    /// Finished tables, newest first, at most `listed`.
    pub past: Vec<PastTable>,
    /// Saved tables that cannot be read (damaged, or saved by another version):
    /// neither resumed nor listed.
    pub unreadable: usize,
}

/// A finished table.
#[derive(Clone, Debug)]
pub struct PastTable {
    pub id: [u8; 32],
    /// The computer's level, or `None` for a friend.
    pub computer: Option<Level>,
    /// The board's side, at an Archimedes table.
    pub side: Option<u8>,
    pub games: usize,
    /// In half points: this side's, the other's.
    pub points: [u32; 2],
    /// What `armada verify` says of its transcript.
    pub outcome: Outcome,
}

/// Reads `store`'s tables, newest first, verifying a transcript only where the
/// table could still be listed (at most `listed`) or resumed.
pub fn saved_tables(store: &Store, listed: usize) -> SavedTables {
    let mut info = SavedTables::default();
    for id in store.tables().unwrap_or_default() {
        let Ok(meta) = store.load_meta(&id) else {
            // Damaged (or another version's): named, never played.
            info.unreadable += 1;
            continue;
        };
        let may_list = info.past.len() < listed;
        // Friend tables the window played can be resumed from it.
        let friend = meta.by == PlayedBy::Window && !meta.is_computer();
        let may_resume =
            (meta.is_computer() && info.unfinished.is_none()) || (friend && info.friend.is_none());
        if !may_list && !may_resume {
            continue;
        }
        let bytes = match crate::store::read_saved(
            &store.transcript_path(&id),
            crate::store::MAX_TRANSCRIPT_FILE,
        ) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            // Too large, or no file at all (a pipe, a device): never read whole.
            Err(_) => {
                info.unreadable += 1;
                continue;
            }
        };
        // One cut short by a crash still reads (its whole frames); one of another
        // protocol version or not a transcript cannot be resumed or listed.
        if armada_proto::decode_transcript_prefix(&bytes).is_err() {
            info.unreadable += 1;
            continue;
        }
        let report = verify(&bytes);
        // A table either side left is over, whatever its last game became: nobody
        // is coming back to it.
        let parted = report.left.contains(&true);
        let finished = parted || report.last_done();
        let game = if !report.archimedes.is_empty() {
            crate::session::TableGame::Archimedes
        } else if !report.icehouse.is_empty() {
            crate::session::TableGame::Icehouse
        } else {
            crate::session::TableGame::default()
        };
        if meta.is_computer() && !finished && info.unfinished.is_none() {
            info.unfinished = Some(id);
            continue;
        }
        if friend && !finished && report.game_count() > 0 && info.friend.is_none() {
            info.friend = Some(id);
            info.friend_game = game;
            continue;
        }
        if !finished || info.past.len() >= listed {
            continue;
        }
        let me = Seat::from(meta.seat);
        info.past.push(PastTable {
            id,
            computer: match meta.other {
                Other::Computer { level } => Some(level),
                Other::Peer { .. } => None,
            },
            side: report.settings.and_then(|s| match s.game {
                armada_proto::GameKind::Archimedes { side } => Some(side),
                _ => None,
            }),
            games: report.game_count(),
            points: [report.half_points(me), report.half_points(me.other())],
            outcome: report.outcome,
        });
    }
    info
}
