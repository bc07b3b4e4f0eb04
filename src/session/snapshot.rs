//! A session saved to bytes and restored: its secrets, every frame, what was not yet sent.
//!
//! A restarted peer re-sends the frames it had signed instead of signing new ones
//! (TRUST.md §8): every frame is taken into the session's table — and so into a
//! snapshot — before it is handed out for sending.

use armada_proto::{self as proto, SavedFrame};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::endpoint::{Endpoint, Observe, Wired as _};
use super::{Secrets, Session};
use crate::fair::commit::{Binding, SealedBoard};
use crate::fair::hash::Hash;
use crate::fair::secret::Secret;
use crate::fair::shared::contribution_commitment;
use crate::fair::sign::Identity;
use crate::fair::table::{Lie, Table, table_id};
use crate::fair::wire;
use crate::rules::{Fleet, Seat};

const MAGIC: [u8; 8] = *b"ARMADA\0S";

/// Why saved bytes cannot be a session.
#[derive(Debug, Error)]
pub enum RestoreError {
    #[error("not a saved Armada session: {0}")]
    Malformed(String),
    #[error("the saved session does not belong to this identity")]
    Identity,
    #[error("saved frame {index} does not check out: {why}")]
    Frame { index: usize, why: String },
    #[error("the saved record cannot be trusted: {0}")]
    Record(String),
    #[error("the saved fleet is not valid: {0}")]
    Fleet(String),
    #[error("the saved secrets ({0}) do not match this side's signed commitment")]
    Secrets(&'static str),
}

#[derive(Serialize, Deserialize)]
struct SavedSecrets {
    game: Hash,
    ships: Vec<proto::WireShip>,
    salts: Vec<[u8; 16]>,
    contributions: Vec<Hash>,
}

/// What every game's saved session starts with (postcard lays a nested struct's
/// fields out as if they were the outer one's).
#[derive(Serialize, Deserialize)]
pub(super) struct Head {
    /// Which game's session (each has its own).
    magic: [u8; 8],
    seat: proto::Seat,
    /// The key the session signs with: restored only by the same identity.
    key: Hash,
    pub(super) secret: Hash,
    pub(super) settings: Option<proto::Settings>,
}

impl Head {
    pub(super) fn of<T, E>(magic: [u8; 8], wire: &Endpoint<T, E>) -> Self {
        Self {
            magic,
            seat: wire::seat(wire.me),
            key: wire.identity.public(),
            secret: wire.secret,
            settings: wire.settings,
        }
    }

    /// The seat saved, once `identity` is the one the session signed with.
    pub(super) fn seat_for(&self, identity: &Identity) -> Result<Seat, RestoreError> {
        if self.key != identity.public() {
            return Err(RestoreError::Identity);
        }
        Ok(wire::from_seat(self.seat))
    }
}

#[derive(Serialize, Deserialize)]
struct Saved {
    head: Head,
    /// The host's timer switch.
    timer: bool,
    secrets: Option<SavedSecrets>,
    /// How many frames come first from the table's transcript file (the store's
    /// snapshots), before `frames`.
    journal: u32,
    frames: Vec<SavedFrame>,
    outbox: Vec<Vec<u8>>,
    revealed_for: Option<Hash>,
    verdict_for: Option<Hash>,
    lie_sent: Option<(proto::Seat, u32)>,
    forfeit_sent: Option<Hash>,
    score: [u32; 2],
}

impl Session {
    /// Everything needed to go on after a restart, but the identity key (the caller
    /// keeps that, as the network does). Contains secrets: store it privately.
    pub fn save(&self) -> Vec<u8> {
        self.save_with(false)
    }

    /// [`Session::save`] without the frames: they are the table's transcript file,
    /// which the caller keeps (and appends to) itself. Restore with
    /// [`Session::restore_with`].
    pub fn save_state(&self) -> Vec<u8> {
        self.save_with(true)
    }

    fn save_with(&self, journaled: bool) -> Vec<u8> {
        let secrets = self.secrets.as_ref().map(|s| SavedSecrets {
            game: s.game,
            ships: s
                .fleet
                .ships()
                .iter()
                .map(|ship| wire::ship(ship, s.fleet.size()))
                .collect(),
            salts: s.board.salts().copied().collect(),
            contributions: s.contributions.iter().map(|c| *c.expose()).collect(),
        });
        let saved = Saved {
            head: Head::of(MAGIC, &self.wire),
            timer: self.timer,
            secrets,
            journal: if journaled {
                self.wire.table.transcript_len() as u32
            } else {
                assert!(
                    self.wire.table.is_whole(),
                    "a compacted session is saved with save_state, its frames being in its file"
                );
                0
            },
            frames: if journaled {
                Vec::new()
            } else {
                self.wire
                    .table
                    .transcript()
                    .iter()
                    .map(|(seat, bytes)| SavedFrame {
                        from: wire::seat(*seat),
                        bytes: bytes.clone(),
                    })
                    .collect()
            },
            outbox: self.wire.outbox.iter().cloned().collect(),
            revealed_for: self.revealed_for,
            verdict_for: self.verdict_for,
            lie_sent: self.lie_sent.map(|(seat, seq)| (wire::seat(seat), seq)),
            forfeit_sent: self.forfeit_sent,
            score: self.score,
        };
        postcard::to_stdvec(&saved).expect("encoding into memory cannot fail")
    }

    /// The session saved in `bytes`, for `identity`, at time `now`: every frame is
    /// checked again, and frames that were not sent yet are queued again, unchanged.
    pub fn restore(
        identity: Identity,
        bytes: &[u8],
        now: super::Millis,
    ) -> Result<Self, RestoreError> {
        Self::restore_with(identity, bytes, &[], now)
    }

    /// The session saved by [`Session::save_state`] in `bytes`, with the frames of
    /// its table's transcript file (`journal`; frames past those the snapshot
    /// counts — appended just before a crash, never sent — are left out).
    pub fn restore_with(
        identity: Identity,
        bytes: &[u8],
        journal: &[SavedFrame],
        now: super::Millis,
    ) -> Result<Self, RestoreError> {
        let malformed = |e: &dyn std::fmt::Display| RestoreError::Malformed(e.to_string());
        let saved: Saved = decode(bytes, &MAGIC, "wrong magic")?;
        let me = saved.head.seat_for(&identity)?;
        let mut session = Self::seated(me, identity, saved.head.secret, saved.head.settings);
        session.timer = saved.timer;
        let from_journal = journal_prefix(journal, saved.journal)?;
        let (table, lies) = replay::<Table>(
            table_id(&saved.head.secret),
            from_journal.iter().chain(&saved.frames),
            me,
        )?;
        session.wire.table = table;
        // Every lie of the other side on the record was seen when its frame came, and
        // answered with an accusation: one the session never answered was made by
        // damage to the record, and is not to be signed now.
        let lie_sent = saved
            .lie_sent
            .map(|(seat, seq)| (wire::from_seat(seat), seq));
        if !lies.is_empty() && !lies.iter().any(|l| Some((l.liar, l.seq)) == lie_sent) {
            return Err(RestoreError::Record(format!(
                "it proves a lie this side never answered ({})",
                lies[0]
            )));
        }
        if let Some(s) = saved.secrets {
            let variant = session
                .wire
                .table
                .variant()
                .ok_or_else(|| malformed(&"secrets without a game"))?;
            let size = variant.size();
            let ships = s
                .ships
                .iter()
                .map(|ship| wire::from_ship(*ship, size))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| RestoreError::Fleet(e.to_string()))?;
            let fleet = Fleet::new(&variant.fleet(), ships)
                .map_err(|e| RestoreError::Fleet(e.to_string()))?;
            let cells = usize::from(size.side()) * usize::from(size.side());
            if s.salts.len() != cells {
                return Err(RestoreError::Fleet("a salt is missing".into()));
            }
            let binding = Binding {
                game: s.game,
                seat: me,
                size,
            };
            let salts = s.salts.into_iter().map(Secret::restore).collect();
            let board = SealedBoard::with_salts(binding, fleet.decks(), salts);
            // Secrets that do not open what this side signed would make it sign false
            // answers: a damaged save is refused here, before anything is signed.
            if session.wire.table.game_id() == Some(s.game)
                && let Some((root, commitments)) = session.wire.table.commitment(me)
            {
                if board.root() != root {
                    return Err(RestoreError::Secrets("the fleet and salts"));
                }
                let key = session.wire.identity.public();
                let matches = commitments.len() == s.contributions.len()
                    && s.contributions.iter().enumerate().all(|(i, c)| {
                        contribution_commitment(&s.game, me, &key, i as u8, c) == commitments[i]
                    });
                if !matches {
                    return Err(RestoreError::Secrets("the air-strike contributions"));
                }
            }
            let contributions = s.contributions.into_iter().map(Secret::restore).collect();
            session.secrets = Some(Secrets {
                game: s.game,
                fleet,
                board,
                contributions,
            });
        }
        session.wire.outbox = saved.outbox.into();
        session.revealed_for = saved.revealed_for;
        session.verdict_for = saved.verdict_for;
        session.lie_sent = lie_sent;
        session.forfeit_sent = saved.forfeit_sent;
        session.score = saved.score;
        session.refresh_wait(now);
        Ok(session)
    }
}

/// The saved value of type `T` in `bytes`, which start with `magic` (`wrong`: what
/// other bytes are taken for) and hold nothing after it.
pub(super) fn decode<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    magic: &[u8; 8],
    wrong: &str,
) -> Result<T, RestoreError> {
    let malformed = |e: &dyn std::fmt::Display| RestoreError::Malformed(e.to_string());
    if !bytes.starts_with(magic) {
        return Err(malformed(&wrong));
    }
    let (saved, rest) = postcard::take_from_bytes::<T>(bytes).map_err(|e| malformed(&e))?;
    if !rest.is_empty() {
        return Err(malformed(&"trailing bytes"));
    }
    Ok(saved)
}

/// The first `count` frames of a table's transcript file, which a snapshot counts
/// as its own (frames after them were appended just before a crash, never sent).
pub(super) fn journal_prefix(
    journal: &[SavedFrame],
    count: u32,
) -> Result<&[SavedFrame], RestoreError> {
    journal.get(..count as usize).ok_or_else(|| {
        RestoreError::Malformed(format!(
            "the snapshot counts {count} frames in the transcript, which holds {}",
            journal.len()
        ))
    })
}

/// A table of `id` for `me` with a saved record's `frames` taken in, one by one, as
/// strictly as a stranger's: a frame refused, or one of `me`'s own frames proven a
/// lie, means the record was damaged (this process signs only what its own table
/// accepted), and nothing may be signed from it. Returned with the other side's lies
/// found; from then on `me`'s frames are the table's own.
pub(super) fn replay<'a, T: Observe>(
    id: Hash,
    frames: impl Iterator<Item = &'a SavedFrame>,
    me: Seat,
) -> Result<(T, Vec<Lie>), RestoreError> {
    let mut table = T::checking(id);
    let mut theirs = Vec::new();
    for (index, frame) in frames.enumerate() {
        let notes = table
            .receive(wire::from_seat(frame.from), &frame.bytes)
            .map_err(|e| RestoreError::Frame {
                index,
                why: e.to_string(),
            })?;
        for lie in notes.iter().filter_map(crate::fair::table::TableNotes::lie) {
            if lie.liar == me {
                return Err(RestoreError::Frame {
                    index,
                    why: format!("this side's own message does not check out ({lie})"),
                });
            }
            theirs.push(lie.clone());
        }
    }
    table.own_from_now(me);
    Ok((table, theirs))
}
