//! The session target's harness: two honest sessions, an [`Op`] sequence of what a hostile network and the players do to them, and the invariants checked after each.

#[allow(clippy::wildcard_imports)]
use super::*;

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
