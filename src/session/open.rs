//! One side of a table of an open game (nothing hidden: Archimedes, the toy of the tests) between friends, sans-IO: frames and commands in; frames, events and deadlines out.
//!
//! The wire side is every game's ([`super::endpoint`]: invite, hellos, settings,
//! nonces, refusals, early frames, resync and `Gone`), over the open game's
//! observer ([`Table`]): there is nothing to hide, so nothing to
//! commit, answer or reveal. This side moves, resigns, plays again or leaves; it
//! signs its verdict when the end is settled (or when its own frame settles it),
//! and claims a forfeit when the other side's move is overdue by the table's move
//! time and the grace.
//!
//! Architecture invariant: as the sea battle's session — no sockets, no clock, no
//! threads; the only randomness it draws is its nonces; every frame it sends goes
//! through its own table first.

use armada_proto::{self as proto, Payload};

use crate::fair::code::CodeKey;
use crate::fair::hash::Hash;
use crate::fair::sign::Identity;
use crate::fair::table::open::{Note, Open, OpenGame};
use crate::fair::table::{ClaimState, Observer, Rejected};
use crate::rules::Seat;

use super::endpoint::{Endpoint, LeaveGame, Wired, wired};
use super::{CommandError, Millis};

/// The observer of an open game's table.
pub type Table<G> = Observer<Open<G>>;

/// What a player asks of an open game's session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<M> {
    Move(M),
    Resign,
    /// Offers a draw (in a game that has draw offers, in this side's turn).
    OfferDraw,
    /// Accepts or declines the other side's standing draw offer.
    AnswerDraw(bool),
    PlayAgain,
    /// Leaves the table for good: a game under way is resigned and settled first.
    Leave(String),
    /// Leaves at once, a game under way resigned but unsettled (see the sea battle's
    /// `Command::LeaveNow`).
    LeaveNow(String),
}

/// What the table waits for from this side now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Nothing: the other side's move, the game over, a claim pending.
    Nothing,
    /// A move ([`Command::Move`]) on [`Table::position`].
    Move,
    /// The game is settled: another needs [`Command::PlayAgain`].
    PlayAgain,
}

/// What the session tells its shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<G: OpenGame> {
    Table(Note<G>),
    Refused(Rejected),
    /// The peer refused a frame (its word, unsigned).
    PeerRefused(proto::ProtocolError),
    /// The peer said it cannot go on at this table.
    PeerGone(String),
    /// This client broke its own protocol (a bug).
    Internal(String),
}

/// One side of an open game's table.
#[derive(Clone, Debug)]
pub struct Session<G: OpenGame> {
    wire: Endpoint<Table<G>, Event<G>>,
    /// Since when the other side owes its move (for a forfeit claim).
    waiting_since: Option<Millis>,
    /// Since when this side owes its move (for the person's warning: the other side
    /// may claim it once its own clock says the move time and grace are past).
    moving_since: Option<Millis>,
    /// The player asked to leave during a game: this side resigned, and says its leave
    /// (with this reason) once the game is settled, so it has a verdict on both
    /// records. Not saved: a side restarted meanwhile has resigned all the same.
    leaving: Option<String>,
}

impl<G: OpenGame> Session<G> {
    super::endpoint::wired_api!(Table<G>, Event<G>);

    /// The host's side of a new table; `secret` goes into the invite.
    pub fn host(identity: Identity, secret: Hash, settings: proto::Settings) -> Self {
        Self::seated(Seat::Host, identity, secret, Some(settings))
    }

    /// What the table waits for from this side now.
    pub fn owed(&self) -> Owed {
        let table = &self.wire.table;
        let parted =
            table.left(self.wire.me) || table.left(self.wire.me.other()) || self.leaving.is_some();
        if parted || table.pending_claim().is_some() {
            return Owed::Nothing;
        }
        if table.settled().is_some() {
            return if table.wants_again(self.wire.me) {
                Owed::Nothing
            } else {
                Owed::PlayAgain
            };
        }
        if table.mover() == Some(self.wire.me) {
            Owed::Move
        } else {
            Owed::Nothing
        }
    }

    /// The running score in half points (host, guest), over settled games.
    pub fn score(&self) -> [u32; 2] {
        let mut score = [0; 2];
        for verdict in self.wire.table.verdicts() {
            match verdict.winner() {
                Some(winner) => score[winner.index()] += 2,
                None => score.iter_mut().for_each(|s| *s += 1),
            }
        }
        score
    }

    /// When [`Session::handle_timeout`] should next be called: when the other
    /// side's move is overdue (at once if it said it is gone).
    pub fn poll_timeout(&self) -> Option<Millis> {
        let settings = self.wire.table.settings()?;
        let since = self.waiting_since?;
        if self.wire.peer_gone.is_some() {
            return Some(since);
        }
        Some(since + Millis::from(settings.move_ms) + Millis::from(settings.grace_ms))
    }

    /// The deadline passed: the other side's overdue move is claimed as a forfeit.
    pub fn handle_timeout(&mut self, now: Millis) {
        if self.poll_timeout().is_none_or(|at| now < at) {
            return;
        }
        self.waiting_since = None;
        let Some(game) = self.wire.table.game_id() else {
            return;
        };
        // One claim at a time; after a refuted one the clock starts again from the
        // move that refuted it.
        let standing = self
            .wire
            .table
            .claim()
            .is_some_and(|c| c.state != ClaimState::Refuted);
        if self.wire.table.mover() != Some(self.wire.me.other()) || standing {
            return;
        }
        if let Ok(notes) = self.wire.send(Payload::Forfeit {
            game,
            owed: proto::Owed::Move,
        }) {
            self.react(now, notes);
        }
    }

    /// A player's command; on error nothing changed.
    pub fn handle_command(
        &mut self,
        now: Millis,
        command: Command<G::Move>,
    ) -> Result<(), CommandError> {
        if self.wire.table.left(self.wire.me) || self.leaving.is_some() {
            return Err(CommandError::NotNow("you left the table"));
        }
        let claim_waits = self
            .wire
            .table
            .pending_claim()
            .is_some_and(|c| c.claimant == self.wire.me);
        if claim_waits && !matches!(command, Command::Leave(_) | Command::LeaveNow(_)) {
            return Err(CommandError::NotNow(
                "your forfeit claim waits for the other side",
            ));
        }
        let payload = match command {
            Command::Move(mv) => {
                if self.owed() != Owed::Move {
                    return Err(CommandError::NotNow("it is not your move"));
                }
                let position = self
                    .wire
                    .table
                    .position()
                    .ok_or(CommandError::NotNow("no game"))?;
                G::check(position, mv).map_err(CommandError::Illegal)?;
                let game = self
                    .wire
                    .table
                    .game_id()
                    .ok_or(CommandError::NotNow("no game"))?;
                G::encode(game, self.wire.table.steps().len() as u32, mv, position)
            }
            Command::Resign => {
                if self.wire.table.position().is_none() || self.wire.table.ended() {
                    return Err(CommandError::NotNow("no game under way"));
                }
                Payload::Resign {
                    game: self
                        .wire
                        .table
                        .game_id()
                        .ok_or(CommandError::NotNow("no game"))?,
                }
            }
            Command::OfferDraw => {
                let table = &self.wire.table;
                if let Some(why) = table.draw_offer_refusal(self.wire.me) {
                    return Err(CommandError::NotNow(why));
                }
                Payload::DrawOffer {
                    game: table.game_id().ok_or(CommandError::NotNow("no game"))?,
                    number: table.steps().len() as u32 + table.voided(),
                }
            }
            Command::AnswerDraw(accept) => {
                let table = &self.wire.table;
                let offer = table
                    .draw_offer()
                    .filter(|o| o.seat != self.wire.me)
                    .ok_or(CommandError::NotNow(
                        "no draw offer of the other side stands",
                    ))?;
                Payload::DrawAnswer {
                    game: table.game_id().ok_or(CommandError::NotNow("no game"))?,
                    number: offer.number,
                    accept,
                }
            }
            Command::PlayAgain => {
                if self.owed() != Owed::PlayAgain {
                    return Err(CommandError::NotNow("the game is not settled"));
                }
                Payload::PlayAgain {
                    number: self.wire.table.game_number().unwrap_or(0) + 1,
                }
            }
            Command::Leave(mut reason) => {
                while reason.len() > proto::MAX_TEXT {
                    reason.pop();
                }
                // A game under way is resigned and settled first (see `leave_step`).
                self.leaving = Some(reason);
                self.react(now, Vec::new());
                return Ok(());
            }
            Command::LeaveNow(mut reason) => {
                while reason.len() > proto::MAX_TEXT {
                    reason.pop();
                }
                Payload::Leave { reason }
            }
        };
        let notes = self.wire.send(payload)?;
        self.react(now, notes);
        Ok(())
    }

    /// Hands the notes out and follows up what is owed without being asked: the
    /// host's hello and settings, the next nonce, the verdict; then the deadline.
    fn react(&mut self, now: Millis, notes: Vec<Note<G>>) {
        self.pump(notes);
        // The other side's clock runs from the moment its move became due here.
        self.waiting_since = match (self.wire.table.mover(), self.waiting_since) {
            (Some(mover), since)
                if mover != self.wire.me && self.wire.table.pending_claim().is_none() =>
            {
                since.or(Some(now))
            }
            _ => None,
        };
        self.moving_since = match (self.wire.table.mover(), self.moving_since) {
            (Some(mover), since)
                if mover == self.wire.me && self.wire.table.pending_claim().is_none() =>
            {
                since.or(Some(now))
            }
            _ => None,
        };
    }

    /// When this side's move time runs out, while it owes a move (on its own clock;
    /// after it and the grace the other side may claim the game).
    pub fn move_deadline(&self) -> Option<Millis> {
        let settings = self.wire.table.settings()?;
        Some(self.moving_since? + Millis::from(settings.move_ms))
    }

    /// The move time of this table's games, in seconds, once the settings are in.
    pub fn move_seconds(&self) -> Option<u32> {
        self.wire.table.settings().map(|s| s.move_ms / 1000)
    }

    /// A frame this side owes without being asked: its verdict, or a leave's next step.
    fn owed_frame(&mut self) -> Option<Vec<Note<G>>> {
        if let (Some(verdict), Some(game)) = (
            self.wire.table.verdict_due(self.wire.me),
            self.wire.table.game_id(),
        ) {
            return self
                .wire
                .send(Payload::Verdict {
                    game,
                    verdict: verdict.wire(),
                })
                .ok();
        }
        self.leave_step()
    }
}

impl<G: OpenGame> Wired for Session<G> {
    wired!(Table<G>, Event<G>);
    fn with_wire(wire: Endpoint<Table<G>, Event<G>>) -> Self {
        Self {
            wire,
            waiting_since: None,
            moving_since: None,
            leaving: None,
        }
    }
    fn react(&mut self, now: Millis, notes: Vec<Note<G>>) {
        Session::react(self, now, notes);
    }
    fn unasked(&mut self) -> Option<Vec<Note<G>>> {
        self.owed_frame()
    }
    fn leaving(&mut self) -> &mut Option<String> {
        &mut self.leaving
    }
    fn leave_game(&self) -> LeaveGame {
        let table = &self.wire.table;
        match table.game_id() {
            Some(id)
                if table.position().is_some()
                    && !table.ended()
                    && table.pending_claim().is_none() =>
            {
                LeaveGame::Resign(id)
            }
            _ if table.position().is_some() && table.settled().is_none() => LeaveGame::Wait,
            _ => LeaveGame::Free,
        }
    }
    /// Nobody is coming: what the other side owes is claimed at once.
    fn peer_left(&mut self, now: Millis) {
        self.waiting_since = self.waiting_since.map(|_| now);
    }
}

super::endpoint::told_events!(Event<G: OpenGame>, Note<G>);

/// An open game's session as saved: everything else follows from its frames.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    head: super::snapshot::Head,
    /// How many frames of the table's transcript file the session holds.
    journal: u32,
    outbox: Vec<Vec<u8>>,
}

impl<G: OpenGame> Session<G> {
    /// Everything needed to go on after a restart but the frames (they are the
    /// table's transcript file, which the caller keeps) and the identity key.
    pub fn save_state(&self) -> Vec<u8> {
        let saved = Saved {
            head: super::snapshot::Head::of(G::MAGIC, &self.wire),
            journal: self.wire.table.transcript().len() as u32,
            outbox: self.wire.outbox.iter().cloned().collect(),
        };
        postcard::to_stdvec(&saved).expect("encoding into memory cannot fail")
    }

    /// The session saved by [`Session::save_state`] in `bytes`, with the frames of
    /// its transcript file (`journal`; frames past those the snapshot counts were
    /// never sent, and are left out). Every frame is checked again.
    pub fn restore_with(
        identity: Identity,
        bytes: &[u8],
        journal: &[proto::SavedFrame],
        now: Millis,
    ) -> Result<Self, super::RestoreError> {
        let saved: Saved = super::snapshot::decode(bytes, &G::MAGIC, &format!("not {}", G::TABLE))?;
        let me = saved.head.seat_for(&identity)?;
        let mut session = Self::seated(me, identity, saved.head.secret, saved.head.settings);
        let frames = super::snapshot::journal_prefix(journal, saved.journal)?;
        (session.wire.table, _) =
            super::snapshot::replay(session.wire.table.id(), frames.iter(), me)?;
        session.wire.outbox = saved.outbox.into();
        // The other side's clock starts again now; owed frames were saved with it.
        session.react(now, Vec::new());
        Ok(session)
    }
}
