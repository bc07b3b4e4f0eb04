//! One side of an Archimedes table between friends, sans-IO: frames and commands in; frames, events and deadlines out.
//!
//! The shape of the sea battle's [`super::Session`] (the same invite, hellos,
//! settings, nonces, refusals, early frames, resync and `Gone`), over the Archimedes
//! observer [`fair::archimedes::Table`]: there is nothing to hide, so nothing to
//! commit, answer or reveal. This side moves, resigns, plays again or leaves; it
//! signs its verdict when the end is settled (or when its own frame settles it),
//! and claims a forfeit when the other side's move is overdue by the table's move
//! time and the grace.
//!
//! Architecture invariant: as the sea battle's session — no sockets, no clock, no
//! threads; the only randomness it draws is its nonces; every frame it sends goes
//! through its own table first.

use std::collections::{BTreeMap, VecDeque};

use armada_proto::{self as proto, Body, PROTOCOL_VERSION, Payload};

use crate::archimedes::Move;
// The observer's vocabulary, for the session's shells.
pub use crate::fair::archimedes::{Note, Outcome, Reason, Table, Verdict};
use crate::fair::code::{CodeKey, code_proof};
use crate::fair::hash::Hash;
use crate::fair::secret::Secret;
use crate::fair::sign::Identity;
use crate::fair::table::{ClaimState, Rejected, join_proof, table_id};
use crate::fair::wire;
use crate::rules::Seat;

use super::{CommandError, Millis};

/// Frames from the peer held back until the ones before them arrive.
const MAX_EARLY: usize = 64;

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

/// What a player asks of an Archimedes session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Move(Move),
    Resign,
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
pub enum Event {
    Table(Note),
    Refused(Rejected),
    /// The peer refused a frame (its word, unsigned).
    PeerRefused(proto::ProtocolError),
    /// The peer said it cannot go on at this table.
    PeerGone(String),
    /// This client broke its own protocol (a bug).
    Internal(String),
}

/// One side of an Archimedes table.
#[derive(Clone, Debug)]
pub struct Session {
    me: Seat,
    identity: Identity,
    secret: Hash,
    settings: Option<proto::Settings>,
    table: Table,
    outbox: VecDeque<Vec<u8>>,
    refusal: Option<proto::ProtocolError>,
    may_refuse: bool,
    events: VecDeque<Event>,
    early: BTreeMap<u32, Vec<u8>>,
    /// Since when the other side owes its move (for a forfeit claim).
    waiting_since: Option<Millis>,
    peer_gone: Option<String>,
    /// The player asked to leave during a game: this side resigned, and says its leave
    /// (with this reason) once the game is settled, so it has a verdict on both
    /// records. Not saved: a side restarted meanwhile has resigned all the same.
    leaving: Option<String>,
    code_keys: Vec<CodeKey>,
}

impl Session {
    /// The host's side of a new table; `secret` goes into the invite.
    pub fn host(identity: Identity, secret: Hash, settings: proto::Settings) -> Self {
        Self::new(Seat::Host, identity, secret, Some(settings))
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

    /// The guest's side admitted by a short code's handshake.
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

    /// The host learns that a short code's handshake succeeded with `key`.
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
            table: Table::for_seat(table_id(&secret), me),
            outbox: VecDeque::new(),
            refusal: None,
            may_refuse: true,
            events: VecDeque::new(),
            early: BTreeMap::new(),
            waiting_since: None,
            peer_gone: None,
            leaving: None,
            code_keys: Vec::new(),
        }
    }

    pub fn seat(&self) -> Seat {
        self.me
    }

    /// The key this side signs with.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Why the peer said it cannot go on at this table, if it did.
    pub fn peer_gone(&self) -> Option<&str> {
        self.peer_gone.as_deref()
    }

    /// What the table waits for from this side now.
    pub fn owed(&self) -> Owed {
        let table = &self.table;
        let parted = table.left(self.me) || table.left(self.me.other()) || self.leaving.is_some();
        if parted || table.pending_claim().is_some() {
            return Owed::Nothing;
        }
        if table.settled().is_some() {
            return if table.wants_again(self.me) {
                Owed::Nothing
            } else {
                Owed::PlayAgain
            };
        }
        if table.mover() == Some(self.me) {
            Owed::Move
        } else {
            Owed::Nothing
        }
    }

    /// The running score in half points (host, guest), over settled games.
    pub fn score(&self) -> [u32; 2] {
        let mut score = [0; 2];
        for verdict in self.table.verdicts() {
            match verdict.winner() {
                Some(winner) => score[winner.index()] += 2,
                None => score.iter_mut().for_each(|s| *s += 1),
            }
        }
        score
    }

    /// Whether anything waits to be sent.
    pub fn has_outgoing(&self) -> bool {
        !self.outbox.is_empty() || self.refusal.is_some()
    }

    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.outbox.pop_front()
    }

    /// The next stream message for the peer: a refusal, then frames.
    pub fn poll_wire(&mut self) -> Option<Vec<u8>> {
        let wire = match self.refusal.take() {
            Some(error) => proto::Wire::Error(error),
            None => proto::Wire::Frame(self.outbox.pop_front()?),
        };
        Some(proto::encode_wire(&wire))
    }

    /// The first message on a new connection: how far this side holds the peer's chain.
    pub fn sync_wire(&self) -> Vec<u8> {
        let (next, _) = self.table.chain_head(self.me.other());
        proto::encode_wire(&proto::Wire::Sync {
            table: self.table.id(),
            next,
        })
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// When [`Session::handle_timeout`] should next be called: when the other
    /// side's move is overdue (at once if it said it is gone).
    pub fn poll_timeout(&self) -> Option<Millis> {
        let settings = self.table.settings()?;
        let since = self.waiting_since?;
        if self.peer_gone.is_some() {
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
        let Some(game) = self.table.game_id() else {
            return;
        };
        // One claim at a time; after a refuted one the clock starts again from the
        // move that refuted it.
        let standing = self
            .table
            .claim()
            .is_some_and(|c| c.state != ClaimState::Refuted);
        if self.table.mover() != Some(self.me.other()) || standing {
            return;
        }
        if let Ok(notes) = self.send(Payload::Forfeit {
            game,
            owed: proto::Owed::Move,
        }) {
            self.react(now, notes);
        }
    }

    /// A stream message from the peer.
    pub fn handle_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        match proto::decode_wire(bytes) {
            Ok(proto::Wire::Frame(frame)) => self.handle_message(now, &frame),
            Ok(proto::Wire::Error(error)) => {
                self.events.push_back(Event::PeerRefused(error));
                Ok(())
            }
            Ok(proto::Wire::Sync { table, next }) => {
                let (mine, _) = self.table.chain_head(self.me);
                if table == self.table.id() && next <= mine {
                    self.outbox = self.table.frames_from(self.me, next).into();
                }
                Ok(())
            }
            Ok(proto::Wire::Gone { table, reason }) => {
                if table == self.table.id() && self.peer_gone.is_none() {
                    self.events.push_back(Event::PeerGone(reason.clone()));
                    self.peer_gone = Some(reason);
                    self.waiting_since = self.waiting_since.map(|_| now);
                }
                Ok(())
            }
            Err(error) => Err(self.refuse(bytes, error.into())),
        }
    }

    /// A frame from the peer. Refused frames change nothing.
    pub fn handle_message(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        let them = self.me.other();
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
                Ok(())
            }
            Err(rejected @ Rejected::OutOfOrder { got, .. }) => {
                if self.early.len() < MAX_EARLY {
                    self.early.insert(got, bytes.to_vec());
                }
                self.events.push_back(Event::Refused(rejected.clone()));
                Err(rejected)
            }
            Err(Rejected::NoHello) if self.me == Seat::Guest => {
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

    /// A player's command; on error nothing changed.
    pub fn handle_command(&mut self, now: Millis, command: Command) -> Result<(), CommandError> {
        if self.table.left(self.me) || self.leaving.is_some() {
            return Err(CommandError::NotNow("you left the table"));
        }
        let claim_waits = self
            .table
            .pending_claim()
            .is_some_and(|c| c.claimant == self.me);
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
                    .table
                    .position()
                    .ok_or(CommandError::NotNow("no game"))?;
                position.check(mv)?;
                let side = position.size().side();
                let index = |c: crate::rules::Coord| c.row() * side + c.col();
                Payload::Move {
                    game: self
                        .table
                        .game_id()
                        .ok_or(CommandError::NotNow("no game"))?,
                    number: self.table.steps().len() as u32,
                    from: index(mv.from),
                    to: index(mv.to),
                }
            }
            Command::Resign => {
                if self.table.position().is_none() || self.table.ended() {
                    return Err(CommandError::NotNow("no game under way"));
                }
                Payload::Resign {
                    game: self
                        .table
                        .game_id()
                        .ok_or(CommandError::NotNow("no game"))?,
                }
            }
            Command::PlayAgain => {
                if self.owed() != Owed::PlayAgain {
                    return Err(CommandError::NotNow("the game is not settled"));
                }
                Payload::PlayAgain {
                    number: self.table.game_number().unwrap_or(0) + 1,
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
        let notes = self.send(payload)?;
        self.react(now, notes);
        Ok(())
    }

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
            self.events.push_back(Event::Internal(lie.to_string()));
            return Err(CommandError::NotNow("the message would break the protocol"));
        }
        self.outbox.push_back(frame);
        Ok(notes)
    }

    /// Hands the notes out and follows up what is owed without being asked: the
    /// host's hello and settings, the next nonce, the verdict; then the deadline.
    fn react(&mut self, now: Millis, notes: Vec<Note>) {
        let mut work: VecDeque<Note> = notes.into();
        loop {
            while let Some(note) = work.pop_front() {
                if matches!(note, Note::Hello(seat) if seat != self.me && self.me == Seat::Host) {
                    work.extend(self.greet());
                }
                self.events.push_back(Event::Table(note));
            }
            let Some(more) = self.owed_frame() else {
                break;
            };
            work.extend(more);
        }
        // The other side's clock runs from the moment its move became due here.
        self.waiting_since = match (self.table.mover(), self.waiting_since) {
            (Some(mover), since) if mover != self.me && self.table.pending_claim().is_none() => {
                since.or(Some(now))
            }
            _ => None,
        };
    }

    /// The host answers the guest's hello with its own and the table's settings.
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

    /// A frame this side owes without being asked: the next nonce, or its verdict.
    fn owed_frame(&mut self) -> Option<Vec<Note>> {
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
        if let (Some(verdict), Some(game)) = (self.table.verdict_due(self.me), self.table.game_id())
        {
            return self
                .send(Payload::Verdict {
                    game,
                    verdict: verdict.wire(),
                })
                .ok();
        }
        self.leave_step()
    }

    /// The next frame of a leave the player asked for: the resignation of a game under
    /// way, then the leave itself once the game is settled, this side's forfeit claim
    /// made, or nobody is left to settle it with.
    fn leave_step(&mut self) -> Option<Vec<Note>> {
        let reason = self.leaving.clone()?;
        let table = &self.table;
        let me = self.me;
        let nobody = self.peer_gone.is_some() || table.left(me.other());
        let claimed = table.claim().is_some_and(|c| c.claimant == me);
        let under_way = table.position().is_some() && !table.ended();
        if under_way && !nobody && table.pending_claim().is_none() {
            let id = table.game_id()?;
            // Should the resignation be refused (a bug), the leave goes at once.
            if let Ok(notes) = self.send(Payload::Resign { game: id }) {
                return Some(notes);
            }
        } else if table.position().is_some() && table.settled().is_none() && !claimed && !nobody {
            return None;
        }
        self.leaving = None;
        self.send(Payload::Leave { reason }).ok()
    }
}

const MAGIC: [u8; 8] = *b"ARMADA\0A";

/// An Archimedes session as saved: everything else follows from its frames.
#[derive(serde::Serialize, serde::Deserialize)]
struct Saved {
    magic: [u8; 8],
    seat: proto::Seat,
    key: Hash,
    secret: Hash,
    settings: Option<proto::Settings>,
    /// How many frames of the table's transcript file the session holds.
    journal: u32,
    outbox: Vec<Vec<u8>>,
}

impl Session {
    /// Everything needed to go on after a restart but the frames (they are the
    /// table's transcript file, which the caller keeps) and the identity key.
    pub fn save_state(&self) -> Vec<u8> {
        let saved = Saved {
            magic: MAGIC,
            seat: wire::seat(self.me),
            key: self.identity.public(),
            secret: self.secret,
            settings: self.settings,
            journal: self.table.transcript().len() as u32,
            outbox: self.outbox.iter().cloned().collect(),
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
        use super::RestoreError;
        let saved: Saved = super::snapshot::decode(bytes, &MAGIC, "not an Archimedes table")?;
        if saved.key != identity.public() {
            return Err(RestoreError::Identity);
        }
        let me = wire::from_seat(saved.seat);
        let mut session = Self::new(me, identity, saved.secret, saved.settings);
        let frames = super::snapshot::journal_prefix(journal, saved.journal)?;
        session.table = Table::new(session.table.id());
        super::snapshot::replay(frames.iter(), me, |from, bytes| {
            let notes = session.table.receive(from, bytes)?;
            Ok(notes
                .into_iter()
                .filter_map(|note| match note {
                    Note::LieProven(lie) => Some(lie),
                    _ => None,
                })
                .collect())
        })?;
        session.table.own_from_now(me);
        session.outbox = saved.outbox.into();
        // The other side's clock starts again now; owed frames were saved with it.
        session.react(now, Vec::new());
        Ok(session)
    }
}
