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

// ---------------------------------------------------------------------------
// session

/// One of the two sides.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Host,
    Guest,
}

impl Side {
    fn seat(self) -> Seat {
        match self {
            Self::Host => Seat::Host,
            Self::Guest => Seat::Guest,
        }
    }
}

/// The game the host opens.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    Armada,
    Classic8,
    Classic10,
    Classic12,
}

impl GameChoice {
    fn variant(self) -> Variant {
        match self {
            Self::Armada => Variant::Armada,
            Self::Classic8 => Variant::Classic(BoardSize::SMALL),
            Self::Classic10 => Variant::Classic(BoardSize::STANDARD),
            Self::Classic12 => Variant::Classic(BoardSize::LARGE),
        }
    }
}

/// The table: its game, the move timer, and the seed of the players' choices.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub game: GameChoice,
    pub timer: bool,
    pub seed: u16,
}

/// Bytes of any content: a length (`u16`, little-endian) then that many bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Junk(pub Vec<u8>);

impl<'a> Arbitrary<'a> for Junk {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let len = usize::from(u16::arbitrary(u)?).min(u.len());
        Ok(Self(u.bytes(len)?.to_vec()))
    }
}

/// A player's command; cells are `row * 12 + col` of the largest board.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// A uniformly placed fleet: of this game, or of another (refused).
    Place {
        foreign: bool,
    },
    Start,
    Shot(u8),
    Torpedo {
        heading: u8,
        line: u8,
    },
    AirStrike(u8),
    Radar(u8),
    OfferDraw,
    AnswerDraw(bool),
    Resign,
    PlayAgain,
    Leave,
}

/// One step of the world around two honest sessions. Messages in flight to a side
/// are stream messages ([`Wire`]), in order.
#[derive(Arbitrary, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// The next message in flight to the side, through `handle_wire`.
    Deliver(Side),
    /// The same, its frame unwrapped and given to `handle_message`.
    DeliverRaw(Side),
    /// Everything in flight both ways, until both sides are quiet.
    Flush,
    Drop(Side),
    /// A copy of the next message, the original left first in line.
    Duplicate(Side),
    /// The next two messages swap places.
    Swap(Side),
    /// A message the side already got, again (counted from the newest).
    Replay {
        to: Side,
        back: u8,
    },
    /// The next message with one byte changed (instead of the original).
    Mutate {
        to: Side,
        at: u16,
        xor: u8,
    },
    /// The next message cut short (instead of the original).
    Truncate {
        to: Side,
        keep: u16,
    },
    /// The next message for the side goes to the other side instead.
    Misroute(Side),
    /// The next message's frame signed again by a stranger, delivered before it.
    Forge(Side),
    Garbage {
        to: Side,
        bytes: Junk,
    },
    /// Time passes, in units of 8 ms; sessions past a deadline act on it.
    Wait(u16),
    /// Time jumps to the next deadline of either side, which acts on it.
    Deadline,
    /// The side's computer player does what its table waits for, if anything.
    Bot(Side),
    Command {
        side: Side,
        command: Cmd,
    },
    /// The side's process restarts from its saved snapshot: the link drops
    /// (what was in flight is lost) and comes back with a sync each way.
    Restart(Side),
    /// The link drops and comes back with a sync each way.
    Reconnect,
}

/// Operations taken from one input at most.
const MAX_OPS: usize = 4096;
/// Messages one flush delivers at most.
const MAX_FLUSH: usize = 4096;
/// Messages kept per side for replays.
const MAX_REPLAY: usize = 64;
/// Games the computer players play at one table (more need `Cmd::PlayAgain`).
const BOT_GAMES: u32 = 1;

/// Reads an input of [`session`]: the setup, then operations until the bytes run out.
pub fn session_ops(data: &[u8]) -> (Setup, Vec<Op>) {
    let mut u = Unstructured::new(data);
    // A setup reads from any bytes (zeros where they run out).
    let setup = Setup::arbitrary(&mut u).unwrap_or(Setup {
        game: GameChoice::Armada,
        timer: false,
        seed: 0,
    });
    let mut ops = Vec::new();
    while !u.is_empty() && ops.len() < MAX_OPS {
        match Op::arbitrary(&mut u) {
            Ok(op) => ops.push(op),
            Err(_) => break,
        }
    }
    (setup, ops)
}

/// What a [`session`] run ended with, for tests and the corpus generator.
#[derive(Clone, Debug)]
pub struct Run {
    /// Operations applied.
    pub ops: usize,
    /// Frames in each side's transcript (host's, guest's).
    pub frames: [usize; 2],
    /// Every game's verdict at each side.
    pub verdicts: [Vec<Verdict>; 2],
    /// `armada verify` on each side's transcript.
    pub outcomes: [Outcome; 2],
    /// Each side's transcript file (host's, guest's).
    pub transcripts: [Vec<u8>; 2],
}

/// Two honest sessions driven by the [`Op`]s in `data` (see [`session_ops`]);
/// panics when an invariant breaks.
pub fn session(data: &[u8]) {
    let _ = session_run(data);
}

/// [`session`], returning what the table came to.
pub fn session_run(data: &[u8]) -> Run {
    let (setup, ops) = session_ops(data);
    session_run_ops(setup, &ops)
}

/// [`session_run`] on operations already read (tests build them directly).
pub fn session_run_ops(setup: Setup, ops: &[Op]) -> Run {
    let mut duel = Duel::new(setup);
    for (index, op) in ops.iter().enumerate() {
        duel.step = index;
        duel.apply(op);
        duel.collect();
    }
    duel.step = ops.len();
    duel.heal();
    let outcomes = duel.check_healed();
    Run {
        ops: ops.len(),
        frames: [0, 1].map(|i| duel.peers[i].session.table().transcript().len()),
        verdicts: [0, 1].map(|i| duel.peers[i].session.table().verdicts()),
        outcomes,
        transcripts: [0, 1].map(|i| duel.peers[i].session.table().transcript_file()),
    }
}

/// One honest side and what the world keeps for it.
struct Peer {
    session: Session,
    identity: Identity,
    bot: Bot,
    /// The session's snapshot while nothing changed it (saving encodes every frame).
    snapshot: Option<Vec<u8>>,
}

impl Peer {
    fn new(session: Session, identity: Identity) -> Self {
        Self {
            session,
            identity,
            bot: Bot::new(Level::Random, BOT_GAMES),
            snapshot: None,
        }
    }

    /// Runs `f` on the session; if it refuses, the snapshot must not have changed.
    fn guarded<T, E: std::fmt::Debug>(
        &mut self,
        step: usize,
        what: &str,
        f: impl FnOnce(&mut Session) -> Result<T, E>,
    ) -> Result<T, E> {
        // A copy is far cheaper than a snapshot; it is saved only if `f` refuses.
        let before = self.snapshot.take().ok_or_else(|| self.session.clone());
        let result = f(&mut self.session);
        if let Err(error) = &result {
            let after = self.session.save();
            let before = before.unwrap_or_else(|session| session.save());
            assert!(
                after == before,
                "op {step}: the {} refused {what} ({error:?}) but its snapshot changed",
                self.session.seat()
            );
            self.snapshot = Some(after);
        }
        result
    }
}

/// The host's, the guest's and the stranger's identities: the same in every run,
/// derived once per process (a key derivation costs more than a short run).
static IDENTITIES: LazyLock<[Identity; 3]> = LazyLock::new(|| {
    [1, 2, 3].map(|seed| {
        let secret = libp2p_identity::ed25519::SecretKey::try_from_bytes([seed; 32])
            .expect("any 32 bytes are an ed25519 secret key");
        Identity::from_libp2p(secret.into())
    })
});

/// Fleets already drawn, by spec and by the state of the run's RNG (its seed and
/// position), with the position after the draw. A hit gives what the [`Placer`]
/// would have drawn and moves the RNG exactly as far, so every run plays the same
/// with or without it; it saves the rejection sampling that dominates short runs.
type Placements = HashMap<(FleetSpec, u16, u128), (Fleet, u128)>;

/// Draws kept at most; the memo starts again empty past that.
const MAX_PLACEMENTS: usize = 1 << 16;

thread_local! {
    static PLACEMENTS: RefCell<Placements> = RefCell::new(HashMap::new());
}

/// `Placer::new(spec).place(rng)`, remembered (see [`Placements`]).
fn place(spec: &FleetSpec, seed: u16, rng: &mut ChaCha8Rng) -> Fleet {
    let key = (spec.clone(), seed, rng.get_word_pos());
    if let Some((fleet, after)) = PLACEMENTS.with_borrow(|memo| memo.get(&key).cloned()) {
        rng.set_word_pos(after);
        return fleet;
    }
    let fleet = Placer::new(spec).place(rng);
    PLACEMENTS.with_borrow_mut(|memo| {
        if memo.len() >= MAX_PLACEMENTS {
            memo.clear();
        }
        memo.insert(key, (fleet.clone(), rng.get_word_pos()));
    });
    fleet
}

fn coord(cell: u8) -> Coord {
    let cell = cell % 144;
    Coord::new(cell % 12, cell / 12).expect("both below 12")
}

/// Two honest sessions, the messages in flight between them, and a clock.
struct Duel {
    peers: [Peer; 2],
    /// Stream messages in flight to each side, in order.
    inbox: [VecDeque<Vec<u8>>; 2],
    /// Messages each side got, newest last, for replays.
    delivered: [VecDeque<Vec<u8>>; 2],
    now: Millis,
    rng: ChaCha8Rng,
    /// What `rng` was seeded with.
    seed: u16,
    stranger: Identity,
    variant: Variant,
    /// The operation being applied, for messages.
    step: usize,
}

impl Duel {
    fn new(setup: Setup) -> Self {
        let variant = setup.game.variant();
        let settings = crate::session::settings(variant, crate::session::GRACE_MS);
        let mut secret = [0x5a; 32];
        secret[..2].copy_from_slice(&setup.seed.to_le_bytes());
        let [host, guest, stranger] = IDENTITIES.clone();
        let mut duel = Self {
            peers: [
                Peer::new(
                    Session::host(host.clone(), secret, settings).with_timer(setup.timer),
                    host,
                ),
                Peer::new(Session::guest(guest.clone(), secret), guest),
            ],
            inbox: [VecDeque::new(), VecDeque::new()],
            delivered: [VecDeque::new(), VecDeque::new()],
            now: 0,
            rng: ChaCha8Rng::seed_from_u64(u64::from(setup.seed)),
            seed: setup.seed,
            stranger,
            variant,
            step: 0,
        };
        duel.collect();
        duel
    }

    fn peer(&mut self, side: Side) -> &mut Peer {
        &mut self.peers[side.seat().index()]
    }

    fn inbox(&mut self, side: Side) -> &mut VecDeque<Vec<u8>> {
        &mut self.inbox[side.seat().index()]
    }

    /// Takes every side's outgoing messages onto the link and checks its events.
    fn collect(&mut self) {
        for seat in Seat::BOTH {
            let step = self.step;
            let peer = &mut self.peers[seat.index()];
            let mut sent = false;
            while let Some(message) = peer.session.poll_wire() {
                self.inbox[seat.other().index()].push_back(message);
                sent = true;
            }
            if sent {
                peer.snapshot = None;
            }
            while let Some(event) = peer.session.poll_event() {
                match &event {
                    Event::Internal(why) => {
                        panic!("op {step}: the {seat} broke its own protocol: {why}")
                    }
                    Event::Table(Note::LieProven(lie)) => {
                        panic!("op {step}: the {seat} proved an honest side lied: {lie}")
                    }
                    _ => {}
                }
                peer.bot.observe(seat, &event);
            }
        }
    }

    /// Hands `message` to the side, as a stream message or (raw) its bare frame.
    fn deliver(&mut self, to: Side, message: &[u8], raw: bool) -> Result<(), Rejected> {
        let (now, step) = (self.now, self.step);
        let delivered = &mut self.delivered[to.seat().index()];
        if delivered.len() == MAX_REPLAY {
            delivered.pop_front();
        }
        delivered.push_back(message.to_vec());
        let frame = match proto::decode_wire(message) {
            Ok(Wire::Frame(frame)) if raw => Some(frame),
            _ => None,
        };
        self.peer(to).guarded(step, "a message", |s| match &frame {
            Some(frame) => s.handle_message(now, frame),
            None => s.handle_wire(now, message),
        })
    }

    fn command(&mut self, side: Side, command: Command) {
        let (now, step) = (self.now, self.step);
        let _ = self
            .peer(side)
            .guarded(step, "a command", |s| s.handle_command(now, command));
    }

    /// Time moves to `now`; every side past its deadline acts on it.
    fn advance(&mut self, now: Millis) {
        self.now = self.now.max(now);
        for peer in &mut self.peers {
            if peer.session.poll_timeout().is_some_and(|t| t <= self.now) {
                peer.session.handle_timeout(self.now);
                peer.snapshot = None;
            }
        }
    }

    /// The link drops (what was in flight is lost) and comes back: each side first
    /// says how far it holds the other's chain.
    fn reconnect(&mut self) {
        for seat in Seat::BOTH {
            let sync = self.peers[seat.index()].session.sync_wire();
            let inbox = &mut self.inbox[seat.other().index()];
            inbox.clear();
            inbox.push_back(sync);
        }
    }

    /// Delivers everything in flight; false if the sides were still talking at the limit.
    fn flush(&mut self) -> bool {
        for _ in 0..MAX_FLUSH {
            self.collect();
            let Some(to) = [Side::Host, Side::Guest]
                .into_iter()
                .find(|s| !self.inbox[s.seat().index()].is_empty())
            else {
                return true;
            };
            if let Some(message) = self.inbox(to).pop_front() {
                let _ = self.deliver(to, &message, false);
            }
        }
        self.collect();
        self.inbox.iter().all(VecDeque::is_empty)
    }

    #[allow(clippy::too_many_lines)]
    fn apply(&mut self, op: &Op) {
        match *op {
            Op::Deliver(to) | Op::DeliverRaw(to) => {
                if let Some(message) = self.inbox(to).pop_front() {
                    let _ = self.deliver(to, &message, matches!(op, Op::DeliverRaw(_)));
                }
            }
            Op::Flush => {
                self.flush();
            }
            Op::Drop(to) => {
                self.inbox(to).pop_front();
            }
            Op::Duplicate(to) => {
                if let Some(message) = self.inbox(to).front().cloned() {
                    let _ = self.deliver(to, &message, false);
                }
            }
            Op::Swap(to) => {
                let inbox = self.inbox(to);
                if inbox.len() >= 2 {
                    inbox.swap(0, 1);
                }
            }
            Op::Replay { to, back } => {
                let delivered = &self.delivered[to.seat().index()];
                if !delivered.is_empty() {
                    let back = usize::from(back) % delivered.len();
                    let message = delivered[delivered.len() - 1 - back].clone();
                    let _ = self.deliver(to, &message, false);
                }
            }
            Op::Mutate { to, at, xor } => {
                if let Some(mut message) = self.inbox(to).pop_front() {
                    if !message.is_empty() {
                        let at = usize::from(at) % message.len();
                        message[at] ^= xor.max(1);
                    }
                    let _ = self.deliver(to, &message, false);
                }
            }
            Op::Truncate { to, keep } => {
                if let Some(mut message) = self.inbox(to).pop_front() {
                    message.truncate(usize::from(keep) % (message.len() + 1));
                    let _ = self.deliver(to, &message, false);
                }
            }
            Op::Misroute(to) => {
                if let Some(message) = self.inbox(to).pop_front() {
                    let _ = self.deliver(
                        match to {
                            Side::Host => Side::Guest,
                            Side::Guest => Side::Host,
                        },
                        &message,
                        false,
                    );
                }
            }
            Op::Forge(to) => self.forge(to),
            Op::Garbage { to, ref bytes } => {
                let _ = self.deliver(to, &bytes.0, false);
            }
            Op::Wait(units) => self.advance(self.now + Millis::from(units) * 8),
            Op::Deadline => {
                let next = self
                    .peers
                    .iter()
                    .filter_map(|p| p.session.poll_timeout())
                    .min();
                if let Some(next) = next {
                    self.advance(next);
                }
            }
            Op::Bot(side) => {
                let peer = &mut self.peers[side.seat().index()];
                // A random player's fleet is `Placer::new(spec).place(rng)`, which
                // the memo gives the same, with the RNG moved as far.
                let command = match peer.bot.fleet_due(&peer.session) {
                    Some(spec) if peer.bot.level() == Level::Random => {
                        Some(Command::Place(place(&spec, self.seed, &mut self.rng)))
                    }
                    _ => peer.bot.next(&peer.session, &mut self.rng),
                };
                if let Some(command) = command {
                    self.command(side, command);
                }
            }
            Op::Command { side, command } => {
                let command = self.player_command(side, command);
                self.command(side, command);
            }
            Op::Restart(side) => self.restart(side),
            Op::Reconnect => self.reconnect(),
        }
    }

    fn player_command(&mut self, side: Side, command: Cmd) -> Command {
        match command {
            Cmd::Place { foreign } => {
                let variant = self.peers[side.seat().index()]
                    .session
                    .table()
                    .variant()
                    .unwrap_or(self.variant);
                let spec = if foreign {
                    match variant.size().side() {
                        8 => Variant::Armada,
                        _ => Variant::Classic(BoardSize::SMALL),
                    }
                    .fleet()
                } else {
                    variant.fleet()
                };
                Command::Place(place(&spec, self.seed, &mut self.rng))
            }
            Cmd::Start => Command::Start,
            Cmd::Shot(cell) => Command::Act(Action::Shot(coord(cell))),
            Cmd::Torpedo { heading, line } => Command::Act(Action::Torpedo(Torpedo {
                heading: [Heading::Right, Heading::Left, Heading::Down, Heading::Up]
                    [usize::from(heading % 4)],
                line,
            })),
            Cmd::AirStrike(cell) => Command::Act(Action::AirStrike(coord(cell))),
            Cmd::Radar(cell) => Command::Act(Action::Radar(coord(cell))),
            Cmd::OfferDraw => Command::OfferDraw,
            Cmd::AnswerDraw(accept) => Command::AnswerDraw(accept),
            Cmd::Resign => Command::Resign,
            Cmd::PlayAgain => Command::PlayAgain,
            // The protocol's bare leave: the graceful one is a resign and a leave.
            Cmd::Leave => Command::LeaveNow("fuzz".into()),
        }
    }

    /// The next frame for the side, signed again by a stranger: always refused.
    fn forge(&mut self, to: Side) {
        let Some(Ok(Wire::Frame(frame))) = self.inbox(to).front().map(|m| proto::decode_wire(m))
        else {
            return;
        };
        let Ok(frame) = proto::Frame::decode(&frame) else {
            return;
        };
        let forged = proto::encode_wire(&Wire::Frame(self.stranger.seal(&frame.body)));
        let step = self.step;
        assert!(
            self.deliver(to, &forged, false).is_err(),
            "op {step}: the {} took a frame signed by a stranger",
            to.seat()
        );
    }

    /// The side restarts from its own snapshot, which must restore and save the same.
    fn restart(&mut self, side: Side) {
        let (now, step) = (self.now, self.step);
        let peer = self.peer(side);
        let saved = peer.session.save();
        let restored = Session::restore(peer.identity.clone(), &saved, now)
            .unwrap_or_else(|e| panic!("op {step}: the {side:?}'s own snapshot: {e}"));
        assert!(
            restored.save() == saved,
            "op {step}: a restored {side:?} saves other bytes"
        );
        peer.session = restored;
        peer.snapshot = Some(saved);
        self.reconnect();
    }

    /// The link comes back and everything in flight is delivered.
    fn heal(&mut self) {
        self.reconnect();
        let step = self.step;
        assert!(
            self.flush(),
            "op {step}: the sides were still talking after {MAX_FLUSH} messages"
        );
    }

    /// After [`Duel::heal`]: both sides hold both chains whole and agree on every
    /// verdict; `armada verify` on either transcript finds no lie and the same outcome.
    fn check_healed(&self) -> [Outcome; 2] {
        let [host, guest] = [&self.peers[0].session, &self.peers[1].session];
        for seat in Seat::BOTH {
            assert_eq!(
                host.table().chain_head(seat),
                guest.table().chain_head(seat),
                "after a reconnection both sides hold the {seat}'s frames"
            );
        }
        assert_eq!(
            host.table().verdicts(),
            guest.table().verdicts(),
            "both sides reach the same verdicts"
        );
        assert_eq!(
            host.score(),
            guest.score(),
            "both sides keep the same score"
        );
        let reports = [host, guest].map(|s| verify(&s.table().transcript_file()));
        // The two players' own files hold the same frames in their own orders: the
        // records must be the same, byte for byte (TRUST §13).
        assert_eq!(
            reports[0].to_json().to_string(),
            reports[1].to_json().to_string(),
            "the host's and the guest's transcripts give different records"
        );
        let outcomes = reports.map(|r| r.outcome);
        for (seat, outcome) in Seat::BOTH.iter().zip(&outcomes) {
            assert!(
                !matches!(outcome, Outcome::Lie(_) | Outcome::Malformed(_)),
                "the {seat}'s transcript verifies as {outcome:?}"
            );
        }
        assert_eq!(outcomes[0], outcomes[1], "both transcripts verify the same");
        outcomes
    }
}

// ---------------------------------------------------------------------------
// seeds

/// Writes the bytes that `arbitrary` reads back as `self` (for the seed corpus).
pub trait Seed {
    fn put(&self, out: &mut Vec<u8>);
}

/// The variant `index` of an enum of `count`, as the derive reads it: a `u32` whose
/// product with `count`, shifted down 32 bits, is `index`.
fn put_variant(out: &mut Vec<u8>, index: u32, count: u32) {
    let x = (u64::from(index) << 32).div_ceil(u64::from(count));
    out.extend_from_slice(&(x as u32).to_le_bytes());
}

impl Seed for u8 {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }
}

impl Seed for u16 {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl Seed for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
}

impl Seed for Side {
    fn put(&self, out: &mut Vec<u8>) {
        put_variant(out, *self as u32, 2);
    }
}

impl Seed for GameChoice {
    fn put(&self, out: &mut Vec<u8>) {
        put_variant(out, *self as u32, 4);
    }
}

impl Seed for Setup {
    fn put(&self, out: &mut Vec<u8>) {
        self.game.put(out);
        self.timer.put(out);
        self.seed.put(out);
    }
}

impl Seed for Junk {
    fn put(&self, out: &mut Vec<u8>) {
        let len = u16::try_from(self.0.len()).unwrap_or(u16::MAX);
        len.put(out);
        out.extend_from_slice(&self.0[..usize::from(len)]);
    }
}

impl Seed for Cmd {
    fn put(&self, out: &mut Vec<u8>) {
        let count = 11;
        match *self {
            Self::Place { foreign } => {
                put_variant(out, 0, count);
                foreign.put(out);
            }
            Self::Start => put_variant(out, 1, count),
            Self::Shot(cell) => {
                put_variant(out, 2, count);
                cell.put(out);
            }
            Self::Torpedo { heading, line } => {
                put_variant(out, 3, count);
                heading.put(out);
                line.put(out);
            }
            Self::AirStrike(cell) => {
                put_variant(out, 4, count);
                cell.put(out);
            }
            Self::Radar(cell) => {
                put_variant(out, 5, count);
                cell.put(out);
            }
            Self::OfferDraw => put_variant(out, 6, count),
            Self::AnswerDraw(accept) => {
                put_variant(out, 7, count);
                accept.put(out);
            }
            Self::Resign => put_variant(out, 8, count),
            Self::PlayAgain => put_variant(out, 9, count),
            Self::Leave => put_variant(out, 10, count),
        }
    }
}

impl Seed for Op {
    fn put(&self, out: &mut Vec<u8>) {
        let count = 18;
        match self {
            Self::Deliver(side) => {
                put_variant(out, 0, count);
                side.put(out);
            }
            Self::DeliverRaw(side) => {
                put_variant(out, 1, count);
                side.put(out);
            }
            Self::Flush => put_variant(out, 2, count),
            Self::Drop(side) => {
                put_variant(out, 3, count);
                side.put(out);
            }
            Self::Duplicate(side) => {
                put_variant(out, 4, count);
                side.put(out);
            }
            Self::Swap(side) => {
                put_variant(out, 5, count);
                side.put(out);
            }
            Self::Replay { to, back } => {
                put_variant(out, 6, count);
                to.put(out);
                back.put(out);
            }
            Self::Mutate { to, at, xor } => {
                put_variant(out, 7, count);
                to.put(out);
                at.put(out);
                xor.put(out);
            }
            Self::Truncate { to, keep } => {
                put_variant(out, 8, count);
                to.put(out);
                keep.put(out);
            }
            Self::Misroute(side) => {
                put_variant(out, 9, count);
                side.put(out);
            }
            Self::Forge(side) => {
                put_variant(out, 10, count);
                side.put(out);
            }
            Self::Garbage { to, bytes } => {
                put_variant(out, 11, count);
                to.put(out);
                bytes.put(out);
            }
            Self::Wait(units) => {
                put_variant(out, 12, count);
                units.put(out);
            }
            Self::Deadline => put_variant(out, 13, count),
            Self::Bot(side) => {
                put_variant(out, 14, count);
                side.put(out);
            }
            Self::Command { side, command } => {
                put_variant(out, 15, count);
                side.put(out);
                command.put(out);
            }
            Self::Restart(side) => {
                put_variant(out, 16, count);
                side.put(out);
            }
            Self::Reconnect => put_variant(out, 17, count),
        }
    }
}

impl Seed for Edit {
    fn put(&self, out: &mut Vec<u8>) {
        let count = 10;
        match *self {
            Self::Cut(n) => {
                put_variant(out, 0, count);
                n.put(out);
            }
            Self::Drop(i) => {
                put_variant(out, 1, count);
                i.put(out);
            }
            Self::Duplicate(i) => {
                put_variant(out, 2, count);
                i.put(out);
            }
            Self::Swap(a, b) => {
                put_variant(out, 3, count);
                a.put(out);
                b.put(out);
            }
            Self::Move { from, to } => {
                put_variant(out, 4, count);
                from.put(out);
                to.put(out);
            }
            Self::Reseat(i) => {
                put_variant(out, 5, count);
                i.put(out);
            }
            Self::Flip { frame, at, xor } => {
                put_variant(out, 6, count);
                frame.put(out);
                at.put(out);
                xor.put(out);
            }
            Self::Truncate { frame, keep } => {
                put_variant(out, 7, count);
                frame.put(out);
                keep.put(out);
            }
            Self::Table { at, xor } => {
                put_variant(out, 8, count);
                at.put(out);
                xor.put(out);
            }
            Self::Version(v) => {
                put_variant(out, 9, count);
                v.put(out);
            }
        }
    }
}

/// An input of [`session`]: the setup, then the operations.
pub fn session_input(setup: Setup, ops: &[Op]) -> Vec<u8> {
    let mut out = Vec::new();
    setup.put(&mut out);
    for op in ops {
        op.put(&mut out);
    }
    out
}

/// An input of [`verifier`]: a transcript file as it is (`edits` empty), or changed by `edits`.
pub fn verifier_input(edits: &[Edit], file: &[u8]) -> Vec<u8> {
    let mut out = vec![u8::from(!edits.is_empty())];
    if !edits.is_empty() {
        for edit in edits {
            true.put(&mut out);
            edit.put(&mut out);
        }
        false.put(&mut out);
    }
    out.extend_from_slice(file);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// The memo draws what the placer draws and leaves the RNG where the placer
    /// leaves it, on a miss and on a hit, so runs replay the same either way.
    #[test]
    fn a_remembered_fleet_is_the_placers_and_moves_the_rng_as_far() {
        for (variant, seed) in [
            (Variant::Armada, 7),
            (Variant::Classic(BoardSize::LARGE), 9),
        ] {
            let spec = variant.fleet();
            let mut direct = ChaCha8Rng::seed_from_u64(seed.into());
            let placer = Placer::new(&spec);
            let expected = [(); 3].map(|()| {
                let fleet = placer.place(&mut direct);
                (fleet, direct.get_word_pos(), direct.next_u64())
            });
            for _pass in ["miss", "hit"] {
                let mut rng = ChaCha8Rng::seed_from_u64(seed.into());
                for (fleet, position, next) in &expected {
                    assert_eq!(&place(&spec, seed, &mut rng), fleet);
                    assert_eq!(rng.get_word_pos(), *position);
                    assert_eq!(rng.next_u64(), *next, "the stream goes on the same");
                }
            }
            let hits = PLACEMENTS.with_borrow(|memo| {
                memo.keys()
                    .filter(|(s, seed2, _)| *s == spec && *seed2 == seed)
                    .count()
            });
            assert_eq!(hits, 3, "each draw remembered once");
        }
    }
}
