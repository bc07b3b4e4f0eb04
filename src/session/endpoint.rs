//! The wire side every table session shares, whatever its game: its seat and key, the outbox, refusals, early frames, resync, `Gone`, admission by invite or short code, hellos, nonces and signing.
//!
//! A game's session keeps an [`Endpoint`] over its table observer ([`Observe`]) and
//! implements [`Wired`]: how it reacts to what its table learnt. Taking frames in
//! ([`Wired::take_wire`], [`Wired::take_message`]) is then the same code for every
//! game, so every game admits, refuses, holds and resyncs a peer's frames alike.

use std::collections::{BTreeMap, VecDeque};

use armada_proto::{self as proto, Body, PROTOCOL_VERSION, Payload, SavedFrame};

use super::{CommandError, Millis};
use crate::fair::code::{CodeKey, code_proof};
use crate::fair::hash::Hash;
use crate::fair::secret::Secret;
use crate::fair::sign::Identity;
use crate::fair::table::{Observer, Rejected, Rules, TableNotes, join_proof, table_id};
use crate::fair::wire;
use crate::rules::Seat;

/// Frames from the peer held back until the ones before them arrive.
const MAX_EARLY: usize = 64;

/// The most frames in a row from the peer that tell nothing (each lapsed with a
/// game that ended, or is a further lie of a proven liar) a side takes in. An
/// honest peer sends a few, those that crossed an end; past this many the peer could
/// only grow the record and every copy of it, so its frames are refused as the
/// table's end.
pub const MAX_VOID_RUN: u32 = 64;
/// Short-code keys the host keeps (the latest).
const CODE_KEYS: usize = 8;

/// What the shared wire side needs of a game's table observer: the ledger's view of
/// both chains, and taking a frame in.
pub trait Observe: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// What the observer learnt from one accepted frame.
    type Note: Clone + std::fmt::Debug + TableNotes;
    /// A table that checks every frame, both sides' (what `verify` and a replay use).
    fn checking(id: Hash) -> Self;
    /// The observer a session keeps: frames from `me` are its own.
    fn for_seat(id: Hash, me: Seat) -> Self;
    /// From now on `me`'s frames are this process's own (after a checked replay).
    fn own_from_now(&mut self, me: Seat);
    fn id(&self) -> Hash;
    fn key(&self, seat: Seat) -> Option<Hash>;
    /// The next seq `seat` will send, and the hash its next frame must link to.
    fn chain_head(&self, seat: Seat) -> (u32, Hash);
    /// The hash of the newest frame taken in from `seat`.
    fn last_hash(&self, seat: Seat) -> Hash;
    /// `seat`'s own frames from its seq `seq` on, as signed.
    fn frames_from(&self, seat: Seat, seq: u32) -> Vec<Vec<u8>>;
    /// The game number for which `seat` still owes its nonce.
    fn nonce_due(&self, seat: Seat) -> Option<u32>;
    /// Takes in one frame sent by `from`. On `Err` nothing changed.
    fn receive(&mut self, from: Seat, bytes: &[u8]) -> Result<Vec<Self::Note>, Rejected>;
    /// Whether `seat` left the table.
    fn left(&self, seat: Seat) -> bool;
    /// Whether `seat` made the current game's forfeit claim (whatever became of it).
    fn claimed_by(&self, seat: Seat) -> bool;
}

impl<G: Rules> Observe for Observer<G>
where
    G::Round: Send + Sync,
    G::Verdict: Send + Sync,
    G::Note: Clone + std::fmt::Debug,
{
    type Note = G::Note;
    fn checking(id: Hash) -> Self {
        Self::new(id)
    }
    fn for_seat(id: Hash, me: Seat) -> Self {
        Self::for_seat(id, me)
    }
    fn own_from_now(&mut self, me: Seat) {
        Self::own_from_now(self, me);
    }
    fn id(&self) -> Hash {
        Self::id(self)
    }
    fn key(&self, seat: Seat) -> Option<Hash> {
        Self::key(self, seat)
    }
    fn chain_head(&self, seat: Seat) -> (u32, Hash) {
        Self::chain_head(self, seat)
    }
    fn last_hash(&self, seat: Seat) -> Hash {
        Self::last_hash(self, seat)
    }
    fn frames_from(&self, seat: Seat, seq: u32) -> Vec<Vec<u8>> {
        Self::frames_from(self, seat, seq)
    }
    fn nonce_due(&self, seat: Seat) -> Option<u32> {
        Self::nonce_due(self, seat)
    }
    fn receive(&mut self, from: Seat, bytes: &[u8]) -> Result<Vec<G::Note>, Rejected> {
        Self::receive(self, from, bytes)
    }
    fn left(&self, seat: Seat) -> bool {
        Self::left(self, seat)
    }
    fn claimed_by(&self, seat: Seat) -> bool {
        self.claim().is_some_and(|c| c.claimant == seat)
    }
}

/// Where this side's game stands for a leave the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LeaveGame {
    /// A game under way that this side may resign now (the game with this id).
    Resign(Hash),
    /// A game not settled yet that the leave waits for (this side's action waits
    /// for its answer, its draw acceptance for the offerer, a claim for its debtor).
    Wait,
    /// Nothing holds the leave.
    Free,
}

/// How many of `frames` an observer of table `table` takes in before one fails.
pub fn intact<T: Observe>(table: Hash, frames: &[SavedFrame]) -> usize {
    let mut check = T::checking(table);
    frames
        .iter()
        .take_while(|f| check.receive(wire::from_seat(f.from), &f.bytes).is_ok())
        .count()
}

/// What the wire side tells a session's shell, in every game's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Told {
    /// A frame from the peer was refused and changed nothing.
    Refused(Rejected),
    /// The peer refused a frame (advisory: the peer's word, unsigned).
    PeerRefused(proto::ProtocolError),
    /// The peer said it cannot go on at this table (unsigned, its word about itself).
    PeerGone(String),
    /// This client broke its own protocol (a bug): the table cannot go on.
    Internal(String),
}

/// Every game's `Event` has the [`Told`] variants under the same names, and its
/// table's notes as `Table(note)`.
macro_rules! told_events {
    ($event:ident $(<$g:ident: $bound:path>)?, $note:ty) => {
        impl $(<$g: $bound>)? From<$note> for $event $(<$g>)? {
            fn from(note: $note) -> Self {
                Self::Table(note)
            }
        }

        impl $(<$g: $bound>)? From<$crate::session::endpoint::Told> for $event $(<$g>)? {
            fn from(told: $crate::session::endpoint::Told) -> Self {
                use $crate::session::endpoint::Told;
                match told {
                    Told::Refused(rejected) => Self::Refused(rejected),
                    Told::PeerRefused(error) => Self::PeerRefused(error),
                    Told::PeerGone(reason) => Self::PeerGone(reason),
                    Told::Internal(bug) => Self::Internal(bug),
                }
            }
        }
    };
}
pub(super) use told_events;

/// One side's wire: who it is, its table observer, and what goes out and comes early.
#[derive(Clone, Debug)]
pub struct Endpoint<T, E> {
    pub(super) me: Seat,
    pub(super) identity: Identity,
    pub(super) secret: Hash,
    /// The host's settings for the table (the guest learns them from the host).
    pub(super) settings: Option<proto::Settings>,
    pub(super) table: T,
    pub(super) outbox: VecDeque<Vec<u8>>,
    /// A refusal to tell the peer about; at most one per frame accepted from it.
    refusal: Option<proto::ProtocolError>,
    may_refuse: bool,
    pub(super) events: VecDeque<E>,
    early: BTreeMap<u32, Vec<u8>>,
    /// The peer said it cannot go on, and why ([`proto::Wire::Gone`]).
    pub(super) peer_gone: Option<String>,
    /// The peer's frames in a row that changed nothing (see [`MAX_VOID_RUN`]).
    void_run: u32,
    /// The host's keys of short-code handshakes that succeeded: a `CodeHello`
    /// proving one of them is admitted.
    code_keys: Vec<CodeKey>,
}

impl<T: Observe, E: From<Told>> Endpoint<T, E> {
    pub(super) fn new(
        me: Seat,
        identity: Identity,
        secret: Hash,
        settings: Option<proto::Settings>,
    ) -> Self {
        Self {
            me,
            identity,
            secret,
            settings,
            table: T::for_seat(table_id(&secret), me),
            outbox: VecDeque::new(),
            refusal: None,
            may_refuse: true,
            events: VecDeque::new(),
            early: BTreeMap::new(),
            peer_gone: None,
            void_run: 0,
            code_keys: Vec::new(),
        }
    }

    /// Counts a frame from the peer by what the table learnt from it: one that
    /// lapsed, or told nothing (a further lie of a liar is taken in silently),
    /// lengthens the run; one that told anything ends it.
    fn count_void(&mut self, notes: &[T::Note]) {
        if notes.iter().any(|note| !note.is_void()) {
            self.void_run = 0;
        } else {
            self.void_run += 1;
        }
    }

    /// The guest's hello: the invite's proof, or a short code's (`code`).
    pub(super) fn hello(&self, code: Option<&CodeKey>) -> Payload {
        let key = self.identity.public();
        match code {
            None => Payload::Hello {
                key,
                join: Some(join_proof(&self.secret, &key)),
            },
            Some(code) => Payload::CodeHello {
                key,
                join: code_proof(&self.secret, code, &key),
            },
        }
    }

    /// The host learns that a short code's handshake succeeded with `key`: a
    /// `CodeHello` proving it takes the guest's seat. Only the latest few are kept.
    pub(super) fn expect_code(&mut self, key: CodeKey) {
        if self.code_keys.len() == CODE_KEYS {
            self.code_keys.remove(0);
        }
        self.code_keys.push(key);
    }

    pub(super) fn tell(&mut self, told: Told) {
        self.events.push_back(told.into());
    }

    /// The next frame to send to the peer.
    pub(super) fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.outbox.pop_front()
    }

    /// Whether anything waits to be sent (a frame or a refusal).
    pub(super) fn has_outgoing(&self) -> bool {
        !self.outbox.is_empty() || self.refusal.is_some()
    }

    /// The first message on a new connection to the peer: how far this side holds the
    /// peer's chain, so that the peer sends again whatever was lost on the way.
    pub(super) fn sync_wire(&self) -> Vec<u8> {
        let (next, _) = self.table.chain_head(self.me.other());
        proto::encode_wire(&proto::Wire::Sync {
            table: self.table.id(),
            next,
        })
    }

    /// The next stream message for the peer: a refusal, then frames.
    pub(super) fn poll_wire(&mut self) -> Option<Vec<u8>> {
        let wire = match self.refusal.take() {
            Some(error) => proto::Wire::Error(error),
            None => proto::Wire::Frame(self.outbox.pop_front()?),
        };
        Some(proto::encode_wire(&wire))
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

    /// Reports a refused frame to the shell and, once per frame accepted from the
    /// peer, to the peer. A duplicate is what a reconnecting peer re-sends, and an
    /// early frame is not refused but held: neither is worth a word to either.
    fn refuse(&mut self, bytes: &[u8], rejected: Rejected) -> Rejected {
        if matches!(rejected, Rejected::Duplicate { .. }) {
            return rejected;
        }
        self.tell(Told::Refused(rejected.clone()));
        if self.may_refuse {
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

    /// The host checks the guest's first frame: a hello with the invite's proof (or
    /// a short code's).
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

    /// Holds a frame that came before those it follows (at most [`MAX_EARLY`]).
    fn hold(&mut self, seq: u32, bytes: &[u8]) {
        if self.early.len() < MAX_EARLY {
            self.early.insert(seq, bytes.to_vec());
        }
    }

    /// The next held frame, once the peer's chain has reached it.
    fn next_early(&mut self) -> Option<Vec<u8>> {
        let (next, _) = self.table.chain_head(self.me.other());
        let entry = self.early.first_entry()?;
        (*entry.key() <= next).then(|| entry.remove())
    }

    /// Signs a frame, takes it into the own table, queues it; the table's notes.
    pub(super) fn send(&mut self, payload: Payload) -> Result<Vec<T::Note>, CommandError> {
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
        if let Some(lie) = notes
            .iter()
            .filter_map(TableNotes::lie)
            .find(|lie| lie.liar == self.me)
        {
            // Only a bug in this client gets here (what it sends is checked before):
            // the frame is not sent, and the shell is told.
            self.tell(Told::Internal(lie.to_string()));
            return Err(CommandError::NotNow("the message would break the protocol"));
        }
        self.outbox.push_back(frame);
        Ok(notes)
    }

    /// The host's hello and settings, once the guest's hello is in.
    pub(super) fn greet(&mut self) -> Vec<T::Note> {
        let key = self.identity.public();
        let mut notes = self
            .send(Payload::Hello { key, join: None })
            .unwrap_or_default();
        if let Some(settings) = self.settings {
            notes.extend(self.send(Payload::Settings(settings)).unwrap_or_default());
        }
        notes
    }

    /// This side's nonce for the next game, when it owes one.
    pub(super) fn nonce(&mut self) -> Option<Vec<T::Note>> {
        let number = self.table.nonce_due(self.me)?;
        let nonce = Secret::<32>::fresh().ok()?;
        self.send(Payload::Nonce {
            number,
            nonce: *nonce.expose(),
        })
        .ok()
    }
}

/// What a side that cannot go on at a table sends its peer instead of frames.
pub fn gone_wire(table: Hash, reason: &str) -> Vec<u8> {
    let mut reason = reason.to_owned();
    while reason.len() > proto::MAX_TEXT {
        reason.pop();
    }
    proto::encode_wire(&proto::Wire::Gone { table, reason })
}

/// The public face every session has over its [`Endpoint`] (written once, expanded
/// in each game's `impl Session`).
macro_rules! wired_api {
    ($table:ty, $event:ty) => {
        /// The guest's side, from the invite's secret; its hello is ready to send.
        pub fn guest(identity: Identity, secret: Hash) -> Self {
            <Self as $crate::session::endpoint::Wired>::guest_with(identity, secret, None)
        }

        /// The guest's side admitted by a short code's handshake: the invite's secret
        /// came with the admission, and the hello proves the handshake's `key` instead.
        pub fn guest_by_code(identity: Identity, secret: Hash, key: &CodeKey) -> Self {
            <Self as $crate::session::endpoint::Wired>::guest_with(identity, secret, Some(key))
        }

        /// The host learns that a short code's handshake succeeded with `key`: a
        /// `CodeHello` proving it takes the guest's seat.
        pub fn expect_code(&mut self, key: CodeKey) {
            self.wire.expect_code(key);
        }

        pub fn seat(&self) -> Seat {
            self.wire.me
        }

        /// The key this side signs with.
        pub fn identity(&self) -> &Identity {
            &self.wire.identity
        }

        /// The table as both sides see it.
        pub fn table(&self) -> &$table {
            &self.wire.table
        }

        /// Why the peer said it cannot go on at this table, if it did.
        pub fn peer_gone(&self) -> Option<&str> {
            self.wire.peer_gone.as_deref()
        }

        /// A resumed side recalls that the peer said it cannot go on: nothing is
        /// told or claimed again (what followed is in the saved frames).
        pub fn recall_peer_gone(&mut self, reason: String) {
            self.wire.peer_gone.get_or_insert(reason);
        }

        /// What a side that cannot go on at this table sends its peer instead of frames.
        pub fn gone_wire(table: Hash, reason: &str) -> Vec<u8> {
            $crate::session::endpoint::gone_wire(table, reason)
        }

        /// The next frame to send to the peer.
        pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
            self.wire.poll_transmit()
        }

        /// Whether anything waits to be sent (a frame or a refusal).
        pub fn has_outgoing(&self) -> bool {
            self.wire.has_outgoing()
        }

        /// The first message on a new connection to the peer: how far this side
        /// holds the peer's chain, so that the peer sends again what was lost.
        pub fn sync_wire(&self) -> Vec<u8> {
            self.wire.sync_wire()
        }

        /// The next stream message for the peer: a refusal, then frames, each
        /// wrapped as [`proto::Wire`]. A shell uses this or `poll_transmit`.
        pub fn poll_wire(&mut self) -> Option<Vec<u8>> {
            self.wire.poll_wire()
        }

        pub fn poll_event(&mut self) -> Option<$event> {
            self.wire.events.pop_front()
        }

        /// A stream message from the peer ([`proto::Wire`]); refused ones change nothing.
        pub fn handle_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
            self.take_wire(now, bytes)
        }

        /// A frame from the peer. Refused frames change nothing (a frame that
        /// arrives early is held until the ones before it are in).
        pub fn handle_message(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
            self.take_message(now, bytes)
        }
    };
}
pub(super) use wired_api;

/// The associated types of a game's [`Wired`] impl and its `wire` field as the
/// endpoint: `wired!(Table, Event);` inside the impl.
macro_rules! wired {
    ($table:ty, $event:ty) => {
        type Table = $table;
        type Event = $event;
        fn endpoint(&mut self) -> &mut $crate::session::endpoint::Endpoint<$table, $event> {
            &mut self.wire
        }
    };
}
pub(super) use wired;

/// A game's session over an [`Endpoint`]: how it follows up what its table learnt.
/// Taking the peer's stream messages in is then the same for every game.
pub(super) trait Wired {
    type Table: Observe;
    type Event: From<Told> + From<<Self::Table as Observe>::Note>;
    fn endpoint(&mut self) -> &mut Endpoint<Self::Table, Self::Event>;
    /// A session of this game over `wire`, nothing else done yet.
    fn with_wire(wire: Endpoint<Self::Table, Self::Event>) -> Self;
    /// Follows up what the table learnt from a frame (or nothing: `notes` empty).
    fn react(&mut self, now: Millis, notes: Vec<<Self::Table as Observe>::Note>);
    /// The peer said it is gone (after [`Told::PeerGone`] is out).
    fn peer_left(&mut self, _now: Millis) {}
    /// Follows up one note the table learnt: the frames that answered it (an
    /// answer, an accusation, a verdict), before the note goes out as an event.
    fn follow(
        &mut self,
        note: &<Self::Table as Observe>::Note,
    ) -> Vec<<Self::Table as Observe>::Note> {
        let _ = note;
        Vec::new()
    }
    /// A frame of the game this side owes without being asked (a reveal, a verdict,
    /// a leave's next step), once no nonce is due; what the table learnt from it.
    fn unasked(&mut self) -> Option<Vec<<Self::Table as Observe>::Note>>;

    /// The player's pending leave (`Command::Leave`), until its `Leave` is sent.
    fn leaving(&mut self) -> &mut Option<String>;
    /// Where this side's game stands for that leave.
    fn leave_game(&self) -> LeaveGame;

    /// The next frame of a leave the player asked for: the resignation of a game
    /// under way, then — what the game owes gone out as owed — the leave itself, once
    /// the game is settled, this side's forfeit claim made, or nobody is left to
    /// settle it with.
    fn leave_step(&mut self) -> Option<Vec<<Self::Table as Observe>::Note>> {
        let reason = self.leaving().clone()?;
        let game = self.leave_game();
        let wire = self.endpoint();
        let me = wire.me;
        let nobody = wire.peer_gone.is_some() || wire.table.left(me.other());
        let claimed = wire.table.claimed_by(me);
        match game {
            LeaveGame::Resign(id) if !nobody => {
                // Should the resignation be refused (a bug), the leave goes at once.
                if let Ok(notes) = wire.send(Payload::Resign { game: id }) {
                    return Some(notes);
                }
            }
            LeaveGame::Resign(_) | LeaveGame::Wait if !claimed && !nobody => return None,
            _ => {}
        }
        *self.leaving() = None;
        self.endpoint().send(Payload::Leave { reason }).ok()
    }

    /// Hands the notes out as events and follows them up until nothing more is
    /// owed: the host greets the guest's hello with its own and the settings, each
    /// note is followed ([`Wired::follow`]), then the next nonce or what else is owed
    /// unasked goes out ([`Wired::unasked`]). Who left sends nothing more.
    fn pump(&mut self, notes: Vec<<Self::Table as Observe>::Note>) {
        let mut work: VecDeque<_> = notes.into();
        loop {
            while let Some(note) = work.pop_front() {
                let wire = self.endpoint();
                if wire.me == Seat::Host && note.hello() == Some(Seat::Guest) {
                    work.extend(wire.greet());
                }
                work.extend(self.follow(&note));
                self.endpoint().events.push_back(note.into());
            }
            let wire = self.endpoint();
            let more = if wire.table.left(wire.me) {
                None
            } else if wire.table.nonce_due(wire.me).is_some() {
                wire.nonce()
            } else {
                self.unasked()
            };
            match more {
                Some(more) => work.extend(more),
                None => break,
            }
        }
    }

    /// A new session at `me`'s seat of the table of the invite's `secret`.
    fn seated(me: Seat, identity: Identity, secret: Hash, settings: Option<proto::Settings>) -> Self
    where
        Self: Sized,
    {
        Self::with_wire(Endpoint::new(me, identity, secret, settings))
    }

    /// The guest's side, its hello (the invite's proof, or a short code's) sent.
    fn guest_with(identity: Identity, secret: Hash, code: Option<&CodeKey>) -> Self
    where
        Self: Sized,
    {
        let mut wire = Endpoint::new(Seat::Guest, identity, secret, None);
        let hello = wire.hello(code);
        let notes = wire.send(hello).expect("a first hello is always valid");
        let mut session = Self::with_wire(wire);
        session.react(0, notes);
        session
    }

    /// A stream message from the peer ([`proto::Wire`]): a frame goes to
    /// [`Wired::take_message`]; a refusal becomes [`Told::PeerRefused`].
    fn take_wire(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        match proto::decode_wire(bytes) {
            Ok(proto::Wire::Frame(frame)) => self.take_message(now, &frame),
            Ok(proto::Wire::Error(error)) => {
                self.endpoint().tell(Told::PeerRefused(error));
                Ok(())
            }
            Ok(proto::Wire::Sync { table, next }) => {
                self.endpoint().resync(table, next);
                Ok(())
            }
            Ok(proto::Wire::Gone { table, reason }) => {
                let wire = self.endpoint();
                if table == wire.table.id() && wire.peer_gone.is_none() {
                    wire.tell(Told::PeerGone(reason.clone()));
                    wire.peer_gone = Some(reason);
                    self.peer_left(now);
                }
                Ok(())
            }
            Err(error) => Err(self.endpoint().refuse(bytes, error.into())),
        }
    }

    /// A frame from the peer. Refused frames change nothing (a frame that arrives
    /// early is held until the ones before it are in).
    fn take_message(&mut self, now: Millis, bytes: &[u8]) -> Result<(), Rejected> {
        let wire = self.endpoint();
        let me = wire.me;
        let them = me.other();
        // The host checks the guest's invite proof before anything else.
        if me == Seat::Host
            && wire.table.key(them).is_none()
            && let Err(rejected) = wire.admit(bytes)
        {
            return Err(wire.refuse(bytes, rejected));
        }
        if wire.void_run >= MAX_VOID_RUN {
            // Told once: the rest of such a flood goes unsaid as well as unsaved.
            if wire.void_run > MAX_VOID_RUN {
                return Err(Rejected::Closed);
            }
            wire.void_run += 1;
            return Err(wire.refuse(bytes, Rejected::Closed));
        }
        match wire.table.receive(them, bytes) {
            Ok(notes) => {
                wire.may_refuse = true;
                wire.count_void(&notes);
                self.react(now, notes);
                while self.endpoint().void_run < MAX_VOID_RUN
                    && let Some(bytes) = self.endpoint().next_early()
                {
                    if let Ok(notes) = self.endpoint().table.receive(them, &bytes) {
                        self.endpoint().count_void(&notes);
                        self.react(now, notes);
                    }
                }
                Ok(())
            }
            Err(rejected @ Rejected::OutOfOrder { got, .. }) => {
                wire.hold(got, bytes);
                wire.tell(Told::Refused(rejected.clone()));
                Err(rejected)
            }
            Err(Rejected::NoHello) if me == Seat::Guest => {
                // Overtook the host's hello: held until the key to check it is known.
                if let Ok(frame) = proto::Frame::decode(bytes) {
                    wire.hold(frame.body.seq, bytes);
                }
                wire.tell(Told::Refused(Rejected::NoHello));
                Err(Rejected::NoHello)
            }
            Err(rejected) => Err(wire.refuse(bytes, rejected)),
        }
    }
}
