//! The sans-IO table state machine: frames and commands in; frames, events and deadlines out.
//!
//! Like `quinn-proto`: no sockets, no clock, no threads. Inputs are
//! [`Session::handle_message`], [`Session::handle_command`] and
//! [`Session::handle_timeout`], each given the current time; outputs are pulled
//! with [`Session::poll_transmit`], [`Session::poll_event`] and
//! [`Session::poll_timeout`]. The only randomness a session draws itself is its
//! secrets (salts, contributions, nonces), which TRUST.md requires to come from the
//! operating system; everything else — time, a computer player's choices — comes in.
//!
//! Architecture invariant: knows nothing of libp2p, tokio or egui. Every frame it
//! sends goes through its own [`table::Table`] first, exactly as the peer and
//! `armada verify` will check it.

pub mod archimedes;
mod seated;
mod snapshot;

pub use seated::{TableGame, TableSession};
pub use snapshot::RestoreError;

/// The absent player's grace unless the host chooses another.
pub const GRACE_MS: u32 = 30_000;

/// A new table's settings — the one builder, with the one set of defaults: `variant`
/// and the absent player's grace; the move time is [`crate::fair::table::MOVE_MS`],
/// the answer and reveal deadlines 10 s. (The move timer is switched for each game:
/// [`Command::Timer`].)
pub fn settings(variant: crate::rules::Variant, grace_ms: u32) -> proto::Settings {
    proto::Settings {
        game: crate::fair::wire::game_kind(variant),
        move_ms: crate::fair::table::MOVE_MS,
        answer_ms: 10_000,
        reveal_ms: 10_000,
        grace_ms,
    }
}

use std::collections::{BTreeMap, VecDeque};

use armada_proto::{self as proto, Body, PROTOCOL_VERSION, Payload};
use thiserror::Error;

use crate::fair::code::{CodeKey, code_proof};
use crate::fair::commit::{Binding, SealedBoard};
use crate::fair::hash::Hash;
use crate::fair::secret::{Contribution, EntropyError, Secret};
use crate::fair::shared::{
    STRIKES, contribution_commitment, shell_order, strike_number, timeout_cell,
};
use crate::fair::sign::Identity;
use crate::rules::{
    Action, ActionError, Content, DrawError, Fleet, PlacementError, Recorder, Seat,
};

use crate::fair::table::{ClaimState, Rejected, join_proof, table_id};
// The session's vocabulary for its shells: what happened at the table (notes), the
// move log, lies and verdicts, and the table it reads them from.
pub use crate::fair::table::{Lie, Note, Played, Table, Verdict};
use crate::fair::wire;

/// Milliseconds on the caller's monotonic clock.
pub type Millis = u64;

/// Frames from the peer held back until the ones before them arrive.
const MAX_EARLY: usize = 64;

/// What a player asks of the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Commit to this fleet (for the guest, this is Ready).
    Place(Fleet),
    /// The host starts the game once both fleets are committed, with the move timer
    /// as its switch stands.
    Start,
    /// The host's timer switch: whether the move timer runs in the games it starts
    /// from now on (on at a new table). Refused while a game runs.
    Timer(bool),
    Act(Action),
    OfferDraw,
    AnswerDraw(bool),
    Resign,
    PlayAgain,
    /// Leaves the table for good: a game under way is resigned, this side's reveal
    /// and verdict still go out, and the leave follows once the game is settled, so
    /// both records hold its result.
    Leave(String),
    /// Leaves at once: a game under way counts as resigned but is left unsettled (the
    /// other side claims the reveal it misses). What the protocol allows a client
    /// that cannot wait; Armada's own shells use [`Command::Leave`].
    LeaveNow(String),
}

/// Why a command was refused; nothing changed.
#[derive(Debug, Error)]
pub enum CommandError {
    #[error("not now: {0}")]
    NotNow(&'static str),
    #[error(transparent)]
    Action(#[from] ActionError),
    #[error(transparent)]
    Draw(#[from] DrawError),
    #[error(transparent)]
    Placement(#[from] PlacementError),
    #[error(transparent)]
    Entropy(#[from] EntropyError),
    /// An Archimedes move the rules refuse, and why.
    #[error(transparent)]
    Move(#[from] crate::archimedes::MoveError),
}

/// What the table waits for from this side now: the one place that decides it, for
/// computer players, the window and the tests alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Nothing: the other side's turn, an answer or a claim pending, the game over.
    Nothing,
    /// A fleet of this spec ([`Command::Place`]).
    Fleet(crate::rules::FleetSpec),
    /// The host's [`Command::Start`]: both fleets are committed.
    Start,
    /// An action in the current game ([`Command::Act`]); the game is
    /// [`Table::game`].
    Action,
    /// The game is settled: another needs [`Command::PlayAgain`] (unless this side
    /// asked already, or is done playing).
    PlayAgain,
}

/// What the session tells its shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Something happened at the table (a frame of either side was taken in).
    Table(Note),
    /// A frame from the peer was refused and changed nothing.
    Refused(Rejected),
    /// The running score at the table, in half points (host, guest).
    Score([u32; 2]),
    /// The host's timer switch now stands so: the games it starts run the move timer
    /// or not.
    Timer(bool),
    /// The peer refused a frame (advisory: the peer's word, unsigned).
    PeerRefused(proto::ProtocolError),
    /// The peer said it cannot go on at this table (unsigned, its word about itself):
    /// every deadline waiting on it is due now.
    PeerGone(String),
    /// This client broke its own protocol (a bug): the table cannot go on.
    Internal(String),
}

/// What the session waits for, and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// My clock runs: my client fires the timeout shot at the deadline.
    MyMove { number: u32 },
    /// Their clock runs (plus the grace).
    TheirMove { number: u32 },
    /// Their answer to my action.
    Answer { number: u32 },
    /// Their reveal after the end.
    Reveal { game: u32 },
}

/// My secrets for the current game.
#[derive(Clone, Debug)]
struct Secrets {
    game: Hash,
    fleet: Fleet,
    board: SealedBoard,
    contributions: Vec<Contribution>,
}

/// One side of a table.
#[derive(Clone, Debug)]
pub struct Session {
    me: Seat,
    identity: Identity,
    secret: Hash,
    settings: Option<proto::Settings>,
    /// The host's timer switch (see [`Command::Timer`]).
    timer: bool,
    table: Table,
    secrets: Option<Secrets>,
    outbox: VecDeque<Vec<u8>>,
    /// A refusal to tell the peer about; at most one per frame accepted from it.
    refusal: Option<proto::ProtocolError>,
    may_refuse: bool,
    events: VecDeque<Event>,
    early: BTreeMap<u32, Vec<u8>>,
    wait: Option<(Wait, Millis)>,
    revealed_for: Option<Hash>,
    verdict_for: Option<Hash>,
    lie_sent: Option<(Seat, u32)>,
    forfeit_sent: Option<Hash>,
    score: [u32; 2],
    /// The peer said it cannot go on, and why ([`proto::Wire::Gone`]).
    peer_gone: Option<String>,
    /// The player asked to leave while a game was under way: this side resigns, still
    /// reveals, and says its leave (with this reason) once the game is settled, so that
    /// the game gets a verdict on both sides' records. Not saved: a side restarted
    /// meanwhile has resigned and reveals all the same.
    leaving: Option<String>,
    /// The host's keys of short-code handshakes that succeeded: a `CodeHello`
    /// proving one of them is admitted (see [`Session::expect_code`]).
    code_keys: Vec<CodeKey>,
}

impl Session {
    /// The host's side of a new table; `secret` goes into the invite.
    pub fn host(identity: Identity, secret: Hash, settings: proto::Settings) -> Self {
        Self::new(Seat::Host, identity, secret, Some(settings))
    }

    /// The host's side with its timer switch set to `on` (see [`Command::Timer`]).
    #[must_use]
    pub fn with_timer(mut self, on: bool) -> Self {
        self.timer = on && self.me == Seat::Host;
        self
    }

    /// The guest's side, from the invite's secret; its hello is ready to send.
    pub fn guest(identity: Identity, secret: Hash) -> Self {
        let mut session = Self::new(Seat::Guest, identity, secret, None);
        let key = session.identity.public();
        let join = join_proof(&secret, &key);
        let notes = session
            .send(Payload::Hello {
                key,
                join: Some(join),
            })
            .expect("a first hello is always valid");
        session.react(0, notes);
        session
    }

    /// The guest's side admitted by a short code's handshake: the invite's secret
    /// came with the admission, and the hello proves the handshake's `key` instead.
    pub fn guest_by_code(identity: Identity, secret: Hash, key: &CodeKey) -> Self {
        let mut session = Self::new(Seat::Guest, identity, secret, None);
        let game_key = session.identity.public();
        let join = code_proof(&secret, key, &game_key);
        let notes = session
            .send(Payload::CodeHello {
                key: game_key,
                join,
            })
            .expect("a first hello is always valid");
        session.react(0, notes);
        session
    }

    /// The host learns that a short code's handshake succeeded with `key`: a
    /// `CodeHello` proving it takes the guest's seat. Only the latest few are kept.
    pub fn expect_code(&mut self, key: CodeKey) {
        const KEPT: usize = 8;
        if self.code_keys.len() == KEPT {
            self.code_keys.remove(0);
        }
        self.code_keys.push(key);
    }

    fn new(me: Seat, identity: Identity, secret: Hash, settings: Option<proto::Settings>) -> Self {
        Self {
            me,
            identity,
            secret,
            settings,
            timer: me == Seat::Host,
            table: Table::for_seat(table_id(&secret), me),
            secrets: None,
            outbox: VecDeque::new(),
            refusal: None,
            may_refuse: true,
            events: VecDeque::new(),
            early: BTreeMap::new(),
            wait: None,
            revealed_for: None,
            verdict_for: None,
            lie_sent: None,
            forfeit_sent: None,
            score: [0; 2],
            peer_gone: None,
            leaving: None,
            code_keys: Vec::new(),
        }
    }

    /// What the table waits for from this side now.
    pub fn owed(&self) -> Owed {
        let me = self.me;
        let table = &self.table;
        // Nothing is asked of a side that left or is leaving, nor of one whose friend
        // left (what it still owes the record, its answers and reveal, goes out
        // without asking).
        let parted = table.left(me) || table.left(me.other()) || self.leaving.is_some();
        if table.pending_claim().is_some() || parted {
            return Owed::Nothing;
        }
        if table.game_number().is_some() && table.settled().is_some() {
            return if table.wants_again(me) {
                Owed::Nothing
            } else {
                Owed::PlayAgain
            };
        }
        let Some(variant) = table.variant() else {
            return Owed::Nothing;
        };
        if table.game_id().is_some() && !table.committed(me) {
            return Owed::Fleet(variant.fleet());
        }
        let Some(game) = table.game() else {
            let both = table.committed(Seat::Host) && table.committed(Seat::Guest);
            return if me == Seat::Host && both {
                Owed::Start
            } else {
                Owed::Nothing
            };
        };
        if game.is_over()
            || game.mover() != me
            || table.pending().is_some()
            || table.accepted_draw().is_some()
        {
            return Owed::Nothing;
        }
        Owed::Action
    }

    /// Why the peer said it cannot go on at this table, if it did.
    pub fn peer_gone(&self) -> Option<&str> {
        self.peer_gone.as_deref()
    }

    /// What a side that cannot go on at this table sends its peer instead of frames.
    pub fn gone_wire(table: Hash, reason: &str) -> Vec<u8> {
        let mut reason = reason.to_owned();
        while reason.len() > proto::MAX_TEXT {
            reason.pop();
        }
        proto::encode_wire(&proto::Wire::Gone { table, reason })
    }

    pub fn seat(&self) -> Seat {
        self.me
    }

    /// The key this side signs with.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Forgets frames of the table nobody can need again ([`Table::compact`]); for a
    /// session whose frames are saved (they stay in its transcript file), so that a
    /// table of thousands of games keeps a bounded memory.
    pub fn compact(&mut self) {
        self.table.compact();
    }

    /// The table as both sides see it: charts, stocks, whose move, the transcript.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// My fleet in the current game, once placed.
    pub fn fleet(&self) -> Option<&Fleet> {
        self.secrets.as_ref().map(|s| &s.fleet)
    }

    /// The host's timer switch: whether the next game it starts runs the move timer.
    pub fn timer_switch(&self) -> bool {
        self.timer
    }

    /// The running score in half points (host, guest); a pending forfeit claim
    /// counts for its claimant until the other peer refutes it.
    pub fn score(&self) -> [u32; 2] {
        let mut score = self.score;
        if let Some(claim) = self.table.pending_claim() {
            score[claim.claimant.index()] += 2;
        }
        score
    }

    /// The next frame to send to the peer.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.outbox.pop_front()
    }

    /// Whether anything waits to be sent (a frame or a refusal).
    pub fn has_outgoing(&self) -> bool {
        !self.outbox.is_empty() || self.refusal.is_some()
    }

    /// The first message on a new connection to the peer: how far this side holds the
    /// peer's chain, so that the peer sends again whatever was lost on the way.
    pub fn sync_wire(&self) -> Vec<u8> {
        let (next, _) = self.table.chain_head(self.me.other());
        proto::encode_wire(&proto::Wire::Sync {
            table: self.table.id(),
            next,
        })
    }

    /// The peer holds this side's frames up to `next` − 1: everything after is queued
    /// again (the same signed bytes — never signed anew). Anything else is ignored.
    fn resync(&mut self, table: Hash, next: u32) {
        let (mine, _) = self.table.chain_head(self.me);
        if table != self.table.id() || next > mine {
            return;
        }
        self.outbox = self.table.frames_from(self.me, next).into();
    }

    /// The next stream message for the peer: a refusal, then frames, each wrapped as
    /// [`proto::Wire`]. A shell uses either this or [`Session::poll_transmit`].
    pub fn poll_wire(&mut self) -> Option<Vec<u8>> {
        let wire = match self.refusal.take() {
            Some(error) => proto::Wire::Error(error),
            None => proto::Wire::Frame(self.outbox.pop_front()?),
        };
        Some(proto::encode_wire(&wire))
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// When [`Session::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<Millis> {
        let settings = self.table.settings()?;
        let (wait, since) = self.wait?;
        if self.peer_gone.is_some() {
            // Nobody is coming: my move goes as at my deadline, and what the peer
            // owes is claimed at once.
            return Some(since);
        }
        let grace = Millis::from(settings.grace_ms);
        Some(
            since
                + match wait {
                    Wait::MyMove { .. } => Millis::from(settings.move_ms),
                    Wait::TheirMove { .. } => Millis::from(settings.move_ms) + grace,
                    Wait::Answer { .. } => Millis::from(settings.answer_ms) + grace,
                    Wait::Reveal { .. } => Millis::from(settings.reveal_ms) + grace,
                },
        )
    }

    /// A stream message from the peer ([`proto::Wire`]): a frame goes to
    /// [`Session::handle_message`]; a refusal becomes [`Event::PeerRefused`].
    pub fn handle_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        match proto::decode_wire(bytes) {
            Ok(proto::Wire::Frame(frame)) => self.handle_message(now, &frame),
            Ok(proto::Wire::Error(error)) => {
                self.events.push_back(Event::PeerRefused(error));
                Ok(())
            }
            Ok(proto::Wire::Sync { table, next }) => {
                self.resync(table, next);
                Ok(())
            }
            Ok(proto::Wire::Gone { table, reason }) => {
                if table == self.table.id() && self.peer_gone.is_none() {
                    self.events.push_back(Event::PeerGone(reason.clone()));
                    self.peer_gone = Some(reason);
                }
                Ok(())
            }
            Err(error) => Err(self.refuse(bytes, error.into())),
        }
    }

    /// A frame from the peer. Refused frames change nothing (a frame that arrives
    /// early is held until the ones before it are in).
    pub fn handle_message(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        let them = self.me.other();
        // The host checks the guest's invite proof before anything else.
        if self.me == Seat::Host
            && self.table.key(them).is_none()
            && let Err(rejected) = self.admit(bytes)
        {
            return Err(self.refuse(bytes, rejected));
        }
        match self.table.receive(them, bytes) {
            Ok(notes) => {
                self.may_refuse = true;
                self.react(now, notes);
                self.drain_early(now);
                Ok(())
            }
            Err(Rejected::OutOfOrder {
                from,
                expected,
                got,
            }) => {
                if self.early.len() < MAX_EARLY {
                    self.early.insert(got, bytes.to_vec());
                }
                let rejected = Rejected::OutOfOrder {
                    from,
                    expected,
                    got,
                };
                self.events.push_back(Event::Refused(rejected.clone()));
                Err(rejected)
            }
            Err(Rejected::NoHello) if self.me == Seat::Guest => {
                // Overtook the host's hello: held until the key to check it is known.
                if let Ok(frame) = proto::Frame::decode(bytes)
                    && self.early.len() < MAX_EARLY
                {
                    self.early.insert(frame.body.seq, bytes.to_vec());
                }
                self.events.push_back(Event::Refused(Rejected::NoHello));
                Err(Rejected::NoHello)
            }
            Err(rejected) => Err(self.refuse(bytes, rejected)),
        }
    }

    /// Reports a refused frame to the shell and, once per frame accepted from the
    /// peer, to the peer (an early frame is not refused but held, and a duplicate is
    /// what a reconnecting peer re-sends: neither is worth a word).
    fn refuse(&mut self, bytes: &[u8], rejected: Rejected) -> Rejected {
        self.events.push_back(Event::Refused(rejected.clone()));
        if self.may_refuse && !matches!(rejected, Rejected::Duplicate { .. }) {
            self.may_refuse = false;
            self.refusal = Some(proto::ProtocolError {
                version: PROTOCOL_VERSION,
                code: rejected.code(),
                refused: crate::fair::sign::frame_hash(bytes),
                detail: rejected.to_string(),
            });
        }
        rejected
    }

    fn admit(&self, bytes: &[u8]) -> Result<(), Rejected> {
        let frame = proto::Frame::decode(bytes)?;
        match frame.body.payload {
            Payload::Hello {
                key,
                join: Some(join),
            } if join == join_proof(&self.secret, &key) => Ok(()),
            Payload::CodeHello { key, join }
                if self
                    .code_keys
                    .iter()
                    .any(|k| join == code_proof(&self.secret, k, &key)) =>
            {
                Ok(())
            }
            Payload::Hello { .. } | Payload::CodeHello { .. } => Err(Rejected::NotInvited),
            _ => Err(Rejected::NoHello),
        }
    }

    fn drain_early(&mut self, now: Millis) {
        let them = self.me.other();
        while let Some(entry) = self.early.first_entry() {
            let (next, _) = self.table.chain_head(them);
            if *entry.key() > next {
                break;
            }
            let bytes = entry.remove();
            if let Ok(notes) = self.table.receive(them, &bytes) {
                self.react(now, notes);
            }
        }
    }

    /// A player's command; on error nothing changed.
    pub fn handle_command(&mut self, now: Millis, command: Command) -> Result<(), CommandError> {
        if self.table.left(self.me) || self.leaving.is_some() {
            return Err(CommandError::NotNow("you left the table"));
        }
        if self
            .table
            .pending_claim()
            .is_some_and(|c| c.claimant == self.me)
            && !matches!(command, Command::Leave(_) | Command::LeaveNow(_))
        {
            return Err(CommandError::NotNow(
                "you claimed a forfeit: the other peer's next message decides it",
            ));
        }
        match command {
            Command::Place(fleet) => self.place(now, &fleet)?,
            Command::Start => {
                let id = self
                    .table
                    .game_id()
                    .ok_or(CommandError::NotNow("no game is open"))?;
                if self.me != Seat::Host
                    || self.table.game().is_some()
                    || !(self.table.committed(Seat::Host) && self.table.committed(Seat::Guest))
                {
                    return Err(CommandError::NotNow(
                        "the host starts once both fleets are placed",
                    ));
                }
                let timer = self.timer;
                self.send_now(now, Payload::Start { game: id, timer })?;
            }
            Command::Timer(on) => {
                if self.me != Seat::Host || self.table.game().is_some_and(|g| !g.is_over()) {
                    return Err(CommandError::NotNow(
                        "the host switches the timer before a game starts",
                    ));
                }
                if self.timer != on {
                    self.timer = on;
                    self.events.push_back(Event::Timer(on));
                }
            }
            Command::Act(action) => self.act(now, action, false)?,
            Command::OfferDraw => {
                let (id, game) = self.live_game()?;
                game.clone().offer_draw(self.me)?;
                let number = game.actions();
                self.send_now(now, Payload::DrawOffer { game: id, number })?;
            }
            Command::AnswerDraw(accept) => {
                let (id, game) = self.live_game()?;
                game.clone().answer_draw(self.me, accept)?;
                let number = game.actions();
                self.send_now(
                    now,
                    Payload::DrawAnswer {
                        game: id,
                        number,
                        accept,
                    },
                )?;
            }
            Command::Resign => {
                let (id, _) = self.live_game()?;
                if self.table.pending().is_some_and(|p| p.seat == self.me) {
                    return Err(CommandError::NotNow("wait for the answer to your action"));
                }
                self.send_now(now, Payload::Resign { game: id })?;
            }
            Command::PlayAgain => {
                let number = self
                    .table
                    .game_number()
                    .ok_or(CommandError::NotNow("no game yet"))?;
                if self.table.settled().is_none() || self.table.wants_again(self.me) {
                    return Err(CommandError::NotNow("the game is not settled yet"));
                }
                if self.table.left(self.me.other()) {
                    return Err(CommandError::NotNow("the other player left the table"));
                }
                self.send_now(now, Payload::PlayAgain { number: number + 1 })?;
            }
            Command::Leave(reason) => {
                // A game under way is resigned and settled first (see `leave_step`).
                self.leaving = Some(reason);
                self.react(now, Vec::new());
            }
            Command::LeaveNow(reason) => {
                self.send_now(now, Payload::Leave { reason })?;
            }
        }
        Ok(())
    }

    /// Time has passed: fire my timeout shot, or claim a forfeit from an absent peer.
    pub fn handle_timeout(&mut self, now: Millis) {
        let Some(deadline) = self.poll_timeout() else {
            return;
        };
        if now < deadline {
            return;
        }
        let Some((wait, _)) = self.wait else { return };
        match wait {
            Wait::MyMove { number } => {
                let (Some(id), Some(game)) = (self.table.game_id(), self.table.game()) else {
                    return;
                };
                let (_, prev) = self.table.chain_head(self.me);
                if let Some(cell) = timeout_cell(&id, &prev, number, game.chart(self.me).unmarked())
                {
                    let _ = self.act(now, Action::Shot(cell), true);
                }
            }
            Wait::TheirMove { .. } => self.claim(now, proto::Owed::Move),
            Wait::Answer { .. } => self.claim(now, proto::Owed::Answer),
            Wait::Reveal { .. } => self.claim(now, proto::Owed::Reveal),
        }
    }

    fn claim(&mut self, now: Millis, owed: proto::Owed) {
        let Some(id) = self.table.game_id() else {
            return;
        };
        // One standing claim per game: never a second while one waits or decided it.
        let claimed = self.table.standing_claim().is_some();
        if self.forfeit_sent == Some(id) || claimed {
            return;
        }
        self.forfeit_sent = Some(id);
        let _ = self.send_now(now, Payload::Forfeit { game: id, owed });
    }

    fn live_game(&self) -> Result<(Hash, &crate::rules::Game), CommandError> {
        let id = self
            .table
            .game_id()
            .ok_or(CommandError::NotNow("no game is open"))?;
        let game = self
            .table
            .game()
            .ok_or(CommandError::NotNow("the game has not started"))?;
        if game.is_over() {
            return Err(CommandError::Action(ActionError::GameOver));
        }
        if self.table.accepted_draw() == Some(self.me) {
            return Err(CommandError::NotNow(
                "you accepted a draw; the game ends with it",
            ));
        }
        Ok((id, game))
    }

    fn place(&mut self, now: Millis, fleet: &Fleet) -> Result<(), CommandError> {
        let id = self
            .table
            .game_id()
            .ok_or(CommandError::NotNow("no game is open"))?;
        let variant = self
            .table
            .variant()
            .ok_or(CommandError::NotNow("no game is open"))?;
        if self.table.committed(self.me) {
            return Err(CommandError::NotNow("the fleet is already committed"));
        }
        let fleet = Fleet::new(&variant.fleet(), fleet.ships().to_vec())?;
        let binding = Binding {
            game: id,
            seat: self.me,
            size: variant.size(),
        };
        let board = SealedBoard::seal(binding, fleet.decks())?;
        let strikes = if variant.has_weapons() { STRIKES } else { 0 };
        let contributions = (0..strikes)
            .map(|_| Secret::fresh())
            .collect::<Result<Vec<_>, _>>()?;
        let key = self.identity.public();
        let commitments = contributions
            .iter()
            .enumerate()
            .map(|(s, c)| contribution_commitment(&id, self.me, &key, s as u8, c.expose()))
            .collect();
        let payload = Payload::Commit {
            game: id,
            fleet: board.root(),
            contributions: commitments,
        };
        // In place for the table's own checks of the commit; put back as they were
        // (the last game's, or none) if the commit is refused.
        let before = self.secrets.replace(Secrets {
            game: id,
            fleet,
            board,
            contributions,
        });
        match self.send(payload) {
            Ok(notes) => {
                self.react(now, notes);
                Ok(())
            }
            Err(e) => {
                self.secrets = before;
                Err(e)
            }
        }
    }

    fn act(&mut self, now: Millis, action: Action, timeout: bool) -> Result<(), CommandError> {
        let (id, game) = self.live_game()?;
        if self.table.pending().is_some() {
            return Err(CommandError::NotNow("the last action waits for its answer"));
        }
        game.check(self.me, &action)?;
        let number = game.actions();
        let contribution = match action {
            Action::AirStrike(_) => {
                let strike = strike_number(self.me, 2 - game.stock(self.me).air_strikes);
                let secrets = self
                    .secrets
                    .as_ref()
                    .ok_or(CommandError::NotNow("no fleet placed"))?;
                secrets
                    .contributions
                    .get(strike as usize)
                    .map(|c| *c.expose())
            }
            _ => None,
        };
        let size = game.variant().size();
        let payload = Payload::Act {
            game: id,
            number,
            action: wire::action(action, size),
            timeout,
            contribution,
        };
        self.send_now(now, payload)
    }

    fn send_now(&mut self, now: Millis, payload: Payload) -> Result<(), CommandError> {
        let notes = self.send(payload)?;
        self.react(now, notes);
        Ok(())
    }

    /// Signs a frame, takes it into the own table, queues it. The table's notes are returned.
    fn send(&mut self, payload: Payload) -> Result<Vec<Note>, CommandError> {
        let (seq, prev) = self.table.chain_head(self.me);
        let body = Body {
            version: PROTOCOL_VERSION,
            table: self.table.id(),
            from: wire::seat(self.me),
            seq,
            prev,
            seen: self.table.last_hash(self.me.other()),
            payload,
        };
        let frame = self.identity.seal(&body);
        let notes = self
            .table
            .receive(self.me, &frame)
            .map_err(|_| CommandError::NotNow("the message would be refused"))?;
        if let Some(Note::LieProven(lie)) = notes
            .iter()
            .find(|n| matches!(n, Note::LieProven(lie) if lie.liar == self.me))
        {
            // Only a bug in this client gets here (its fleet is legal, its actions are
            // checked before sending): the frame is not sent, and the shell is told.
            self.events.push_back(Event::Internal(lie.to_string()));
            return Err(CommandError::NotNow("the message would break the protocol"));
        }
        self.outbox.push_back(frame);
        Ok(notes)
    }

    /// Follows up what the table learnt — answers, accusations, verdicts, the next
    /// nonce, the reveal — until nothing more is owed; then updates the deadline.
    fn react(&mut self, now: Millis, notes: Vec<Note>) {
        let mut work: VecDeque<Note> = notes.into();
        loop {
            while let Some(note) = work.pop_front() {
                let more = match &note {
                    Note::Hello(seat) if *seat != self.me && self.me == Seat::Host => self.greet(),
                    Note::Acted { seat, .. } if *seat != self.me => self.answer(),
                    Note::LieProven(lie) if lie.liar != self.me => self.accuse(lie),
                    Note::Settled(verdict) => self.settle(verdict),
                    Note::ForfeitClaimed { .. } => {
                        self.events.push_back(Event::Score(self.score()));
                        Vec::new()
                    }
                    Note::ClaimRefuted { claimant, .. } => {
                        if *claimant == self.me {
                            // The peer was there after all: it may be claimed against again.
                            self.forfeit_sent = None;
                        }
                        self.events.push_back(Event::Score(self.score()));
                        Vec::new()
                    }
                    _ => Vec::new(),
                };
                work.extend(more);
                self.events.push_back(Event::Table(note));
            }
            match self.send_owed() {
                Some(notes) => work.extend(notes),
                None => break,
            }
        }
        self.refresh_wait(now);
    }

    /// The host's hello and settings, once the guest's hello is in.
    fn greet(&mut self) -> Vec<Note> {
        let key = self.identity.public();
        let mut notes = self
            .send(Payload::Hello { key, join: None })
            .unwrap_or_default();
        if let Some(settings) = self.settings {
            notes.extend(self.send(Payload::Settings(settings)).unwrap_or_default());
        }
        notes
    }

    /// A frame this side owes without being asked: the next nonce, or the reveal.
    fn send_owed(&mut self) -> Option<Vec<Note>> {
        // Who left sends nothing more, not even what it would owe.
        if self.table.left(self.me) {
            return None;
        }
        if let Some(number) = self.table.nonce_due(self.me) {
            let nonce = Secret::<32>::fresh().ok()?;
            return self
                .send(Payload::Nonce {
                    number,
                    nonce: *nonce.expose(),
                })
                .ok();
        }
        // The offerer confirms an accepted draw with its reveal.
        let offered = self.table.accepted_draw() == Some(self.me.other());
        if let Some(id) = self.table.game_id()
            && (self.table.ended() || offered)
            && self.revealed_for != Some(id)
        {
            self.revealed_for = Some(id);
            if let Some(payload) = self.reveal_payload(id) {
                return self.send(payload).ok();
            }
        }
        self.leave_step()
    }

    /// The next frame of a leave the player asked for: the resignation of a game under
    /// way (once this side's action is answered; an accepted draw is settled as a
    /// draw), then — the reveals gone out as owed — the leave itself, once the game is
    /// settled, this side's forfeit claim made, or nobody is left to settle it with.
    fn leave_step(&mut self) -> Option<Vec<Note>> {
        let reason = self.leaving.clone()?;
        let table = &self.table;
        let me = self.me;
        let live = table.game().is_some_and(|g| !g.is_over()) && table.settled().is_none();
        let nobody = self.peer_gone.is_some() || table.left(me.other());
        let bound = table.accepted_draw().is_some()
            || table.pending().is_some_and(|p| p.seat == me)
            || table.pending_claim().is_some();
        if live && !bound && !nobody {
            let id = table.game_id()?;
            // Should the resignation be refused (a bug), the leave goes at once.
            if let Ok(notes) = self.send(Payload::Resign { game: id }) {
                return Some(notes);
            }
        } else {
            let table = &self.table;
            let unsettled = table.game().is_some() && table.settled().is_none();
            let claimed = table.claim().is_some_and(|c| c.claimant == me);
            if unsettled && !claimed && !nobody {
                return None;
            }
        }
        self.leaving = None;
        self.send(Payload::Leave { reason }).ok()
    }

    fn refresh_wait(&mut self, now: Millis) {
        let timer = self.table.timer();
        // A claim that stands decides the game (one per game); a pending one waits
        // for the debtor's next message, however long.
        let claimed = self.table.standing_claim().is_some();
        let wait = match (self.table.game(), self.table.pending()) {
            _ if claimed => None,
            // I accepted a draw: the offerer owes its confirming reveal.
            (Some(_), _) if self.table.accepted_draw() == Some(self.me) => {
                let number = self.table.game_number().unwrap_or(0);
                (self.forfeit_sent.is_none()).then_some(Wait::Reveal { game: number })
            }
            (Some(game), _) if game.is_over() => {
                let number = self.table.game_number().unwrap_or(0);
                (!self.table.revealed(self.me.other()) && self.forfeit_sent.is_none())
                    .then_some(Wait::Reveal { game: number })
            }
            (Some(_), Some(pending)) if pending.seat == self.me => Some(Wait::Answer {
                number: pending.number,
            }),
            (Some(game), None) if timer && self.table.accepted_draw().is_none() => {
                let number = game.actions();
                Some(if game.mover() == self.me {
                    Wait::MyMove { number }
                } else {
                    Wait::TheirMove { number }
                })
            }
            _ => None,
        };
        if wait != self.wait.map(|(w, _)| w) {
            self.wait = wait.map(|w| (w, now));
        }
    }

    /// Their action arrived and checked out: my answer, with an opening per cell looked at.
    fn answer(&mut self) -> Vec<Note> {
        let (Some(id), Some(game), Some(pending)) = (
            self.table.game_id(),
            self.table.game(),
            self.table.pending(),
        ) else {
            return Vec::new();
        };
        let (attacker, number, action) = (pending.seat, pending.number, pending.action);
        let (strike, theirs) = (pending.strike, pending.contribution);
        let Some(secrets) = self.secrets.as_ref().filter(|s| s.game == id) else {
            return Vec::new();
        };
        let mine = strike
            .and_then(|s| secrets.contributions.get(s as usize))
            .map(|c| *c.expose());
        let shells = match (strike, mine) {
            (Some(strike), Some(mine)) => {
                let theirs = theirs.unwrap_or_default();
                let (host, guest) = if attacker == Seat::Host {
                    (theirs, mine)
                } else {
                    (mine, theirs)
                };
                Some(shell_order(&id, strike, &host, &guest))
            }
            _ => None,
        };
        let mut sea = Recorder::new(secrets.fleet.clone());
        if game
            .clone()
            .play(attacker, action, shells, &mut sea)
            .is_err()
        {
            return Vec::new();
        }
        let size = game.variant().size();
        // A radar shows deck or water: whether a deck is its ship's last is not told.
        let radar = matches!(action, Action::Radar(_));
        let openings = sea
            .looked
            .iter()
            .map(|(cell, content)| {
                let content = match content {
                    Content::Deck { .. } if radar => Content::Deck { sinks: false },
                    other => *other,
                };
                wire::opening(&secrets.board.open(*cell), content, size)
            })
            .collect();
        self.send(Payload::Answer {
            game: id,
            number,
            openings,
            contribution: mine,
        })
        .unwrap_or_default()
    }

    fn accuse(&mut self, lie: &Lie) -> Vec<Note> {
        if self.lie_sent == Some((lie.liar, lie.seq)) {
            return Vec::new();
        }
        self.lie_sent = Some((lie.liar, lie.seq));
        let Some(id) = self.table.game_id() else {
            return Vec::new();
        };
        let reason = lie.reason.chars().take(proto::MAX_TEXT / 4).collect();
        self.send(Payload::Lie {
            game: id,
            seq: lie.seq,
            reason,
        })
        .unwrap_or_default()
    }

    fn reveal_payload(&self, id: Hash) -> Option<Payload> {
        let secrets = self.secrets.as_ref().filter(|s| s.game == id)?;
        let size = secrets.fleet.size();
        // The one canonical form (PROTOCOL §6): by bow, a boat never down.
        let mut ships: Vec<_> = secrets
            .fleet
            .ships()
            .iter()
            .map(|s| wire::ship(s, size))
            .collect();
        ships.sort_by_key(|s| s.bow);
        Some(Payload::Reveal {
            game: id,
            ships,
            salts: secrets.board.salts().copied().collect(),
            contributions: secrets.contributions.iter().map(|c| *c.expose()).collect(),
        })
    }

    fn settle(&mut self, verdict: &Verdict) -> Vec<Note> {
        let Some(id) = self.table.game_id() else {
            return Vec::new();
        };
        if self.verdict_for == Some(id) {
            return Vec::new();
        }
        self.verdict_for = Some(id);
        let (wire_verdict, points) = match verdict {
            Verdict::Honest(ending) => (
                proto::WireVerdict::Honest {
                    winner: ending.winner.map(wire::seat),
                },
                [
                    ending.half_points(Seat::Host),
                    ending.half_points(Seat::Guest),
                ],
            ),
            Verdict::Lie(lie) => (
                proto::WireVerdict::Lie {
                    liar: wire::seat(lie.liar),
                    seq: lie.seq,
                    reason: lie.reason.chars().take(proto::MAX_TEXT / 4).collect(),
                },
                if lie.liar == Seat::Host {
                    [0, 2]
                } else {
                    [2, 0]
                },
            ),
            Verdict::Incomplete(reason) => {
                let claimant = self
                    .table
                    .claim()
                    .filter(|c| c.state == ClaimState::Confirmed)
                    .map(|c| c.claimant);
                (
                    proto::WireVerdict::Incomplete {
                        reason: reason.chars().take(proto::MAX_TEXT / 4).collect(),
                    },
                    match claimant {
                        Some(Seat::Host) => [2, 0],
                        Some(Seat::Guest) => [0, 2],
                        None => [0, 0],
                    },
                )
            }
        };
        self.score[0] += points[0];
        self.score[1] += points[1];
        self.events.push_back(Event::Score(self.score));
        self.send(Payload::Verdict {
            game: id,
            verdict: wire_verdict,
        })
        .unwrap_or_default()
    }
}
