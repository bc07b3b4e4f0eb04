//! The table as any observer sees it: every frame of both peers checked, in order, without any secret.
//!
//! Both sessions and `armada verify` run this same code: a session feeds it the
//! frames it sends and receives; the verifier feeds it a saved transcript. What
//! it decides depends only on the frames and their `seen` links, never on the
//! order two crossing frames happened to arrive in, so all three agree.
//!
//! Architecture invariant: no secrets, no clock, no IO; a frame it rejects
//! changes nothing, and a signed frame that breaks a rule is named as a lie.

use std::collections::{HashSet, VecDeque};

use armada_proto::{self as proto, Body, Frame, PROTOCOL_VERSION, Payload};
use thiserror::Error;

use crate::fair::commit::{Binding, root_of};
use crate::fair::hash::{Hash, label, labelled};
use crate::fair::shared::{
    STRIKES, contribution_commitment, shell_order, strike_number, timeout_cell,
};
use crate::fair::sign::{PeerKey, frame_hash};
use crate::rules::{
    Action, ActionError, CellSet, Chart, Consistency, Content, Coord, Ending, Facts, Fleet, Game,
    Recorder, Report, Sea, SeaError, Seat, ShellOrder, Variant, fit_fleet,
};

use super::wire;

/// Positions the consistency search may try after one answer before it gives up
/// (undecided, not a lie). Honest games stay far below it.
const FIT_BUDGET: u32 = 200_000;
/// Bytes of frames a table takes in at most (compacted ones included): its
/// transcript stays readable by `verify`.
const MAX_STORED: usize = proto::MAX_TRANSCRIPT - 1024 * 1024;
/// The move timer, as RULES.md fixes it.
pub const MOVE_MS: u32 = 15_000;
/// Frames of a table beyond which an observer stops accepting more (a table of
/// about 2,500 games; bounds what a peer can make the other store).
const MAX_FRAMES: usize = 400_000;

/// A frame that was not taken in; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Rejected {
    #[error(transparent)]
    Decode(#[from] proto::DecodeError),
    #[error("the message says it is from the {claimed}, but came from the {actual}")]
    Sender { claimed: Seat, actual: Seat },
    #[error("the first message of a peer must be its hello")]
    NoHello,
    #[error("not invited: the hello does not prove the invite's table secret")]
    NotInvited,
    #[error("the message is not signed by the {0}'s key")]
    Signature(Seat),
    #[error("the message belongs to another table")]
    OtherTable,
    #[error("message {seq} from the {from} was already received")]
    Duplicate { from: Seat, seq: u32 },
    #[error("message {got} from the {from} arrived before message {expected}")]
    OutOfOrder { from: Seat, expected: u32, got: u32 },
    #[error("the table has ended")]
    Closed,
}

impl Rejected {
    /// The refusal's code on the wire.
    pub fn code(&self) -> proto::ErrorCode {
        use proto::{DecodeError as D, ErrorCode as C};
        match self {
            Self::Decode(D::TooLarge(_)) => C::TooLarge,
            Self::Decode(D::Version(_)) => C::Version,
            Self::Decode(_) => C::Malformed,
            Self::Sender { .. } => C::Sender,
            Self::NoHello | Self::NotInvited => C::NotInvited,
            Self::Signature(_) => C::Signature,
            Self::OtherTable => C::OtherTable,
            Self::Duplicate { .. } => C::Duplicate,
            Self::OutOfOrder { .. } => C::OutOfOrder,
            Self::Closed => C::Closed,
        }
    }
}

/// A proven lie: who told it, in which of their messages, and which rule or proof failed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lie {
    pub liar: Seat,
    pub seq: u32,
    pub reason: String,
}

impl std::fmt::Display for Lie {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} lied in message {}: {}",
            self.liar, self.seq, self.reason
        )
    }
}

/// What the observer learnt from one accepted frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    Hello(Seat),
    Settings(proto::Settings),
    /// Both nonces are in: game `number` has its id; fleets may be placed.
    GameOpened {
        number: u32,
        id: Hash,
        variant: Variant,
        first: Seat,
    },
    Committed(Seat),
    /// The host started the game; `timer`: whether the move timer runs in it.
    Started {
        timer: bool,
    },
    /// An action waits for its answer.
    Acted {
        seat: Seat,
        number: u32,
        action: Action,
        timeout: bool,
    },
    /// An action was answered and checked.
    Resolved {
        seat: Seat,
        number: u32,
        report: Report,
    },
    DrawOffered(Seat),
    /// Two offers crossed: both lapsed, and the game goes on.
    DrawOffersCrossed,
    DrawDeclined(Seat),
    /// The draw was accepted; it takes effect when the offerer confirms.
    DrawAccepted(Seat),
    Ended(Ending),
    LieProven(Lie),
    /// A forfeit claim, pending until the debtor's next message answers it.
    ForfeitClaimed {
        claimant: Seat,
        owed: proto::Owed,
    },
    /// The debtor's message `by` was sent before the claim arrived: the debtor was
    /// not absent, the claim is void and the game goes on.
    ClaimRefuted {
        claimant: Seat,
        by: u32,
    },
    Revealed(Seat),
    /// Both sides' outcomes are settled: `None` while a reveal is missing.
    Settled(Verdict),
    VerdictSent {
        seat: Seat,
        verdict: proto::WireVerdict,
    },
    PlayAgain(Seat),
    Left {
        seat: Seat,
        reason: String,
    },
    /// A frame that crossed the end of the game (or a lapsed offer): it changes nothing.
    Void,
}

/// The outcome of one game after the reveals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both reveals checked out; the ending stands.
    Honest(Ending),
    /// A lie was proven; the liar lost.
    Lie(Lie),
    /// A reveal is missing, or a forfeit was claimed.
    Incomplete(String),
}

#[derive(Clone, Debug, Default)]
struct Chain {
    /// The seq of `frames[0]`: frames before it were compacted away.
    base: u32,
    /// Each frame's message hash and its place in the transcript (bytes are kept once).
    frames: VecDeque<(Hash, usize)>,
    /// Index into the other chain of the newest frame this chain has seen.
    seen: Option<u32>,
}

impl Chain {
    fn next(&self) -> u32 {
        self.base + self.frames.len() as u32
    }

    fn last(&self) -> Hash {
        self.frames.back().map_or([0; 32], |(h, _)| *h)
    }

    fn position(&self, hash: &Hash) -> Option<u32> {
        self.frames
            .iter()
            .rposition(|(h, _)| h == hash)
            .map(|i| self.base + i as u32)
    }

    /// Frame `seq`'s hash and place in the transcript, unless compacted away.
    fn get(&self, seq: u32) -> Option<(Hash, usize)> {
        self.frames
            .get(seq.checked_sub(self.base)? as usize)
            .copied()
    }

    /// Forgets the frames before `seq` (never the newest one).
    fn forget_before(&mut self, seq: u32) {
        while self.base < seq && self.frames.len() > 1 {
            self.frames.pop_front();
            self.base += 1;
        }
    }
}

#[derive(Clone, Debug)]
struct Commit {
    fleet: Hash,
    contributions: Vec<Hash>,
}

/// An action waiting for its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The attacker.
    pub seat: Seat,
    pub number: u32,
    pub action: Action,
    /// The attacker's revealed contribution, for an air strike.
    pub contribution: Option<Hash>,
    /// The air strike's number in the game.
    pub strike: Option<u8>,
    /// The attacker's message.
    pub seq: u32,
}

/// A draw acceptance. It binds the acceptor until the offerer's frame that decides
/// it: the first that saw it confirms the draw; an `Act` or `Resign` that crossed it
/// makes it lapse. Both are told by `seen`, so every order of frames agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Acceptance {
    acceptor: Seat,
    seq: u32,
    /// The offerer's frame that crossed the acceptance: it lapsed there.
    lapsed_by: Option<u32>,
    /// The offerer's frame that saw it: the draw stands from there.
    confirmed_by: Option<u32>,
}

impl Acceptance {
    fn waiting(&self) -> bool {
        self.lapsed_by.is_none() && self.confirmed_by.is_none()
    }
}

/// A claim that the other peer owes a message past its deadline (TRUST.md §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForfeitClaim {
    pub claimant: Seat,
    pub owed: proto::Owed,
    /// The claimant's message.
    pub seq: u32,
    pub state: ClaimState,
    /// The debtor's message that decided the claim (confirmed or refuted it).
    pub decided_by: Option<u32>,
    /// Whether the debtor owed nothing of the kind as far as the claimant had seen:
    /// a lie, proven when the claim is confirmed.
    pub unfounded: bool,
}

const UNFOUNDED: &str = "a forfeit claim, but the other peer owed nothing of the kind";

impl ForfeitClaim {
    /// What the claim says, in words.
    pub fn reason(&self) -> String {
        format!(
            "the {} claimed a forfeit: the {} owed {}",
            self.claimant,
            self.claimant.other(),
            match self.owed {
                proto::Owed::Answer => "an answer",
                proto::Owed::Move => "a move",
                proto::Owed::Reveal => "a reveal",
            }
        )
    }
}

/// Where a forfeit claim stands. The claim proves only who owed the next message;
/// the debtor's next message decides it: one that saw the claim confirms it, one
/// sent before the claim arrived refutes it (the debtor was there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimState {
    /// Nothing from the debtor since: the debtor is absent, as far as anyone knows.
    Pending,
    /// The game ended by forfeit.
    Confirmed,
    /// Void: the game goes on.
    Refuted,
}

/// One resolved action, kept to re-check the defender's answers after its reveal.
#[derive(Clone, Debug)]
pub struct Played {
    pub seat: Seat,
    pub action: Action,
    pub shells: Option<ShellOrder>,
    pub report: Report,
    /// The defender's answer message.
    pub answer_seq: u32,
    before: Game,
}

#[derive(Clone, Debug)]
struct Round {
    number: u32,
    nonces: [Option<Hash>; 2],
    id: Option<Hash>,
    variant: Variant,
    first: Seat,
    commits: [Option<Commit>; 2],
    game: Option<Game>,
    /// Whether the move timer runs in this game (the host's `Start` says).
    timer: bool,
    pending: Option<Pending>,
    /// Cells each attacker's radar proved: (decks, water).
    seen: [(CellSet, CellSet); 2],
    history: Vec<Played>,
    /// The seat and seq of the newest draw offer.
    offer: Option<(Seat, u32)>,
    /// The newest draw acceptance, waiting for the offerer, or decided.
    accept: Option<Acceptance>,
    /// The seat and seq of each message that ended the game (two for resignations
    /// that crossed). A frame whose sender sent or had seen one of them knew the
    /// game was over, whatever order an observer took the frames in.
    ends: Vec<(Seat, u32)>,
    lie: Option<Lie>,
    claim: Option<ForfeitClaim>,
    reveals: [Option<Fleet>; 2],
    /// Whether each seat sent its reveal (good or not).
    revealed: [bool; 2],
    settled: Option<Verdict>,
    verdicts: [Option<proto::WireVerdict>; 2],
    again: [bool; 2],
}

impl Round {
    /// Whether `revealed` is what `seat` (with public key `key`) committed to for `strike`.
    fn check_contribution(
        &self,
        key: &Hash,
        seat: Seat,
        strike: u8,
        revealed: &Hash,
    ) -> Result<(), String> {
        let id = self.id.unwrap_or_default();
        let committed = &self.commits[idx(seat)]
            .as_ref()
            .ok_or("no commitment")?
            .contributions;
        if committed.get(strike as usize)
            == Some(&contribution_commitment(&id, seat, key, strike, revealed))
        {
            Ok(())
        } else {
            Err(format!(
                "the contribution to air strike {strike} does not match its commitment"
            ))
        }
    }
}

/// The observer of one table.
#[derive(Clone, Debug)]
pub struct Table {
    id: Hash,
    keys: [Option<Hash>; 2],
    /// The same keys, decoded for checking signatures.
    peer_keys: [Option<PeerKey>; 2],
    settings: Option<proto::Settings>,
    chains: [Chain; 2],
    /// Every accepted frame in the order it was taken in: the transcript (but the
    /// first `compacted`, forgotten by [`Table::compact`]).
    transcript: VecDeque<(Seat, Vec<u8>)>,
    compacted: usize,
    round: Option<Round>,
    /// Games finished at this table: their verdicts, in order.
    finished: Vec<Verdict>,
    /// The first lie proven outside a game's settlement, and how many games had
    /// begun when it was told (it comes after those games' own lies).
    outside_lie: Option<(usize, Lie)>,
    /// Bytes of all frames taken in (compacted ones included).
    stored: usize,
    /// (sender, seq) of every equivocation already on the record.
    equivocations: HashSet<(Seat, u32)>,
    /// The seats that left the table, in the order their leaves came: a leaver's
    /// later frames are refused, the other's are not (until it leaves too).
    leavers: Vec<Seat>,
    /// The seat whose frames this process signed itself (a session's own): their
    /// signatures and the fleet-consistency of their answers need no re-check.
    own: Option<Seat>,
}

/// The table id of an invite's secret.
pub fn table_id(secret: &Hash) -> Hash {
    labelled(label::TABLE, &[secret])
}

/// The guest's proof that it holds the invite's secret, bound to its own key.
pub fn join_proof(secret: &Hash, key: &Hash) -> Hash {
    labelled(label::JOIN, &[secret, key])
}

fn idx(seat: Seat) -> usize {
    seat.index()
}

impl Table {
    pub fn new(id: Hash) -> Self {
        Self {
            id,
            keys: [None; 2],
            peer_keys: [None, None],
            settings: None,
            chains: [Chain::default(), Chain::default()],
            transcript: VecDeque::new(),
            compacted: 0,
            round: None,
            finished: Vec::new(),
            outside_lie: None,
            equivocations: HashSet::new(),
            stored: 0,
            leavers: Vec::new(),
            own: None,
        }
    }

    /// The observer a session keeps: frames from `me` are its own, made by this process.
    pub fn for_seat(id: Hash, me: Seat) -> Self {
        Self {
            own: Some(me),
            ..Self::new(id)
        }
    }

    pub fn id(&self) -> Hash {
        self.id
    }

    /// Whether `seat` left the table.
    pub fn left(&self, seat: Seat) -> bool {
        self.leavers.contains(&seat)
    }

    pub fn key(&self, seat: Seat) -> Option<Hash> {
        self.keys[idx(seat)]
    }

    pub fn settings(&self) -> Option<proto::Settings> {
        self.settings
    }

    /// The transcript's frames still held (all of them unless compacted).
    pub fn transcript(&self) -> &VecDeque<(Seat, Vec<u8>)> {
        &self.transcript
    }

    /// How many frames the transcript holds (compacted ones included).
    pub fn transcript_len(&self) -> usize {
        self.compacted + self.transcript.len()
    }

    /// The transcript's frames from number `n` on (`n` not before those compacted).
    pub fn transcript_from(&self, n: usize) -> impl ExactSizeIterator<Item = &(Seat, Vec<u8>)> {
        self.transcript
            .range(n.saturating_sub(self.compacted).min(self.transcript.len())..)
    }

    /// Whether every frame is still held ([`Table::compact`] was never of use).
    pub fn is_whole(&self) -> bool {
        self.compacted == 0
    }

    /// `seat`'s own frames from its seq `seq` on, as signed.
    pub fn frames_from(&self, seat: Seat, seq: u32) -> Vec<Vec<u8>> {
        let chain = &self.chains[idx(seat)];
        (seq.max(chain.base)..chain.next())
            .filter_map(|s| chain.get(s))
            .map(|(_, at)| self.transcript[at - self.compacted].1.clone())
            .collect()
    }

    /// Forgets frames nobody can need again: those of each chain before the newest
    /// one the other chain has seen (a later `seen` link cannot point before it, and
    /// the other side saved them before it sent that link), and the bytes of every
    /// frame before the oldest kept. A table that went on for thousands of games keeps
    /// only what its recent frames need; the frames live on in the saved transcript.
    /// A repeat of a forgotten frame is refused as a duplicate (equivocation about a
    /// frame both sides have long acknowledged is no longer looked for).
    pub fn compact(&mut self) {
        for seat in [Seat::Host, Seat::Guest] {
            if let Some(seen) = self.chains[idx(seat.other())].seen {
                self.chains[idx(seat)].forget_before(seen);
            }
        }
        let oldest = self
            .chains
            .iter()
            .filter_map(|chain| chain.frames.front().map(|(_, at)| *at))
            .min()
            .unwrap_or(self.compacted);
        while self.compacted < oldest {
            if self.transcript.pop_front().is_none() {
                break;
            }
            self.compacted += 1;
        }
    }

    /// The transcript as a file `armada verify` reads; only whole (before any
    /// [`Table::compact`]) — a compacted table's transcript is its saved file.
    pub fn transcript_file(&self) -> Vec<u8> {
        debug_assert!(self.is_whole(), "a compacted table has no whole transcript");
        proto::encode_transcript(&proto::Transcript {
            magic: proto::TRANSCRIPT_MAGIC,
            version: PROTOCOL_VERSION,
            table: self.id,
            frames: self
                .transcript
                .iter()
                .map(|(seat, bytes)| proto::SavedFrame {
                    from: wire::seat(*seat),
                    bytes: bytes.clone(),
                })
                .collect(),
        })
    }

    /// The next seq `seat` will send, and the hash its next frame must link to.
    pub fn chain_head(&self, seat: Seat) -> (u32, Hash) {
        let chain = &self.chains[idx(seat)];
        (chain.next(), chain.last())
    }

    /// The hash of the newest frame received from `seat` (zeros if none).
    pub fn last_hash(&self, seat: Seat) -> Hash {
        self.chains[idx(seat)].last()
    }

    pub fn game(&self) -> Option<&Game> {
        self.round.as_ref()?.game.as_ref()
    }

    /// Whether the move timer runs in the current game (false before its start).
    pub fn timer(&self) -> bool {
        self.round
            .as_ref()
            .is_some_and(|r| r.game.is_some() && r.timer)
    }

    pub fn game_id(&self) -> Option<Hash> {
        self.round.as_ref()?.id
    }

    pub fn game_number(&self) -> Option<u32> {
        self.round.as_ref().map(|r| r.number)
    }

    pub fn variant(&self) -> Option<Variant> {
        self.round.as_ref().map(|r| r.variant)
    }

    pub fn committed(&self, seat: Seat) -> bool {
        self.round
            .as_ref()
            .is_some_and(|r| r.commits[idx(seat)].is_some())
    }

    /// The fleet commitment and contribution commitments of `seat` in this game.
    pub fn commitment(&self, seat: Seat) -> Option<(Hash, &[Hash])> {
        let commit = self.round.as_ref()?.commits[idx(seat)].as_ref()?;
        Some((commit.fleet, &commit.contributions))
    }

    /// The action waiting for its answer.
    pub fn pending(&self) -> Option<&Pending> {
        self.round.as_ref()?.pending.as_ref()
    }

    /// A draw acceptance by `acceptor` that waits for the offerer to confirm.
    pub fn accepted_draw(&self) -> Option<Seat> {
        self.round
            .as_ref()?
            .accept
            .filter(Acceptance::waiting)
            .map(|a| a.acceptor)
    }

    pub fn ended(&self) -> bool {
        self.game().is_some_and(Game::is_over)
    }

    pub fn revealed(&self, seat: Seat) -> bool {
        self.round.as_ref().is_some_and(|r| r.revealed[idx(seat)])
    }

    pub fn settled(&self) -> Option<&Verdict> {
        self.round.as_ref()?.settled.as_ref()
    }

    pub fn wants_again(&self, seat: Seat) -> bool {
        self.round.as_ref().is_some_and(|r| r.again[idx(seat)])
    }

    pub fn history(&self) -> &[Played] {
        self.round.as_ref().map_or(&[], |r| &r.history)
    }

    /// The verdicts of every finished game, and of the current one once settled.
    pub fn verdicts(&self) -> Vec<Verdict> {
        let mut all = self.finished.clone();
        if let Some(v) = self.settled() {
            all.push(v.clone());
        }
        all
    }

    /// The first lie proven at this table, in a game or outside one, in the order
    /// they were told: a game's lie, then one told after that game settled.
    pub fn first_lie(&self) -> Option<Lie> {
        let in_games = self
            .finished
            .iter()
            .chain(self.settled())
            .enumerate()
            .find_map(|(i, v)| match v {
                Verdict::Lie(lie) => Some((i, lie.clone())),
                _ => None,
            })
            .or_else(|| {
                let lie = self.round.as_ref()?.lie.clone()?;
                Some((self.finished.len(), lie))
            });
        match (in_games, &self.outside_lie) {
            (Some((game, lie)), Some((begun, _))) if game < *begun => Some(lie),
            (_, Some((_, lie))) => Some(lie.clone()),
            (in_games, None) => in_games.map(|(_, lie)| lie),
        }
    }

    /// The fleet `seat` revealed in the current game, if its reveal checked out.
    pub fn revealed_fleet(&self, seat: Seat) -> Option<&Fleet> {
        self.round.as_ref()?.reveals[idx(seat)].as_ref()
    }

    /// The game number for which `seat` still owes its nonce, once the table is ready for one.
    pub fn nonce_due(&self, seat: Seat) -> Option<u32> {
        match &self.round {
            None if self.settings.is_some() && self.keys.iter().all(Option::is_some) => Some(0),
            Some(round) if round.nonces[idx(seat)].is_none() => Some(round.number),
            _ => None,
        }
    }

    /// The current game's forfeit claim, if one was made.
    pub fn claim(&self) -> Option<ForfeitClaim> {
        self.round.as_ref().and_then(|r| r.claim)
    }

    /// The current game's forfeit claim unless it was refuted: one that waits or one
    /// that decided the game. While one stands, no other may be made.
    pub fn standing_claim(&self) -> Option<ForfeitClaim> {
        self.claim().filter(|c| c.state != ClaimState::Refuted)
    }

    /// The current game's forfeit claim while it waits for the debtor's next message.
    pub fn pending_claim(&self) -> Option<ForfeitClaim> {
        self.claim().filter(|c| c.state == ClaimState::Pending)
    }

    /// Radar knowledge of `attacker` about the enemy board: (decks, water).
    pub fn radar_seen(&self, attacker: Seat) -> (CellSet, CellSet) {
        self.round
            .as_ref()
            .map_or((CellSet::EMPTY, CellSet::EMPTY), |r| r.seen[idx(attacker)])
    }

    /// Takes in one frame sent by `from`. On `Err` nothing changed.
    pub fn receive(&mut self, from: Seat, bytes: &[u8]) -> Result<Vec<Note>, Rejected> {
        if self.left(from)
            || self.transcript_len() >= MAX_FRAMES
            || self.stored + bytes.len() > MAX_STORED
        {
            return Err(Rejected::Closed);
        }
        let frame = Frame::decode(bytes)?;
        let body = &frame.body;
        let claimed = wire::from_seat(body.from);
        if claimed != from {
            return Err(Rejected::Sender {
                claimed,
                actual: from,
            });
        }
        let hello_key;
        let key = match (&self.peer_keys[idx(from)], &body.payload) {
            (Some(key), _) => Some(key),
            (None, Payload::Hello { key, .. }) if body.seq == 0 => {
                hello_key = PeerKey::parse(key);
                hello_key.as_ref()
            }
            (None, _) => return Err(Rejected::NoHello),
        };
        if self.own != Some(from) && !key.is_some_and(|k| k.check(&frame)) {
            return Err(Rejected::Signature(from));
        }
        if body.table != self.id {
            return Err(Rejected::OtherTable);
        }
        let chain = &self.chains[idx(from)];
        if body.seq < chain.next() {
            return self.earlier(from, &frame, bytes);
        }
        if body.seq > chain.next() {
            return Err(Rejected::OutOfOrder {
                from,
                expected: chain.next(),
                got: body.seq,
            });
        }
        // In order: from here on the frame is part of the record.
        let hash = frame_hash(bytes);
        let link_ok = body.prev == chain.last();
        let seen = if body.seen == [0; 32] {
            Some(None)
        } else {
            self.chains[idx(from.other())]
                .position(&body.seen)
                .map(Some)
        };
        let previous_seen = chain.seen;
        self.chains[idx(from)]
            .frames
            .push_back((hash, self.transcript_len()));
        self.transcript.push_back((from, bytes.to_vec()));
        self.stored += bytes.len();
        if body.version != PROTOCOL_VERSION || !link_ok {
            return Ok(self.prove(Lie {
                liar: from,
                seq: body.seq,
                reason: "the message does not follow the sender's previous message".into(),
            }));
        }
        let Some(seen) = seen.filter(|s| *s >= previous_seen) else {
            return Ok(self.prove(Lie {
                liar: from,
                seq: body.seq,
                reason: "the message refers to a message of the other peer that was never sent, or to an older one than before".into(),
            }));
        };
        self.chains[idx(from)].seen = seen;
        let mut notes = Vec::new();
        match self.payload(from, body, seen, &mut notes) {
            Ok(()) => {
                self.resign_leaver(&mut notes);
                Ok(notes)
            }
            Err(reason) => {
                notes.extend(self.prove(Lie {
                    liar: from,
                    seq: body.seq,
                    reason,
                }));
                Ok(notes)
            }
        }
    }

    /// Leaving a game under way is resigning it: the round still settles, by the
    /// reveal the leaver no longer sends (a forfeit on the record). Checked after
    /// every frame, so a game that starts after a leave it crossed is resigned too.
    /// The resignation waits while the leaver's own action waits for its answer, its
    /// own forfeit claim for the other peer's next message, or its draw acceptance for
    /// the offerer's decision (when a `Resign` would be refused): it takes effect after
    /// the frame that settles them, as at a table that took that frame in before the
    /// leave.
    /// When both left, the first leaver whose resignation can take effect resigns.
    fn resign_leaver(&mut self, notes: &mut Vec<Note>) {
        // By index: the leavers are read while the round changes (no copy per frame).
        for i in 0..self.leavers.len() {
            let leaver = self.leavers[i];
            // The leave is the leaver's last frame.
            let leave = self.chains[idx(leaver)].next().saturating_sub(1);
            // The other's leave, if neither leave had seen the other: two resignations
            // that crossed, whichever of them could take effect first here.
            let other = leaver.other();
            let other_leave = self.chains[idx(other)].next().saturating_sub(1);
            let crossing = self.left(other)
                && !Self::covers(self.chains[idx(leaver)].seen, other_leave)
                && !Self::covers(self.chains[idx(other)].seen, leave);
            let Some(round) = self.round.as_mut() else {
                return;
            };
            // Who accepted a draw is bound by it: its leave resigns only if the
            // acceptance lapses; the offerer's confirmation makes the game a draw.
            let waits = round
                .claim
                .is_some_and(|c| c.claimant == leaver && c.state == ClaimState::Pending)
                || round.pending.as_ref().is_some_and(|p| p.seat == leaver)
                || round
                    .accept
                    .is_some_and(|a| a.waiting() && a.acceptor == leaver);
            if !waits
                && let Some(game) = round.game.as_mut()
                && !game.is_over()
                && let Ok(ending) = game.resign(leaver)
            {
                round.pending = None;
                round.ends.push((leaver, leave));
                let ending = if crossing {
                    round.ends.push((other, other_leave));
                    game.mutual_resignation()
                } else {
                    ending
                };
                notes.push(Note::Ended(ending));
                return;
            }
        }
    }

    /// A frame whose number was already taken: a harmless repeat, or equivocation.
    fn earlier(&mut self, from: Seat, frame: &Frame, bytes: &[u8]) -> Result<Vec<Note>, Rejected> {
        let seq = frame.body.seq;
        let Some((_, at)) = self.chains[idx(from)].get(seq) else {
            // Compacted away: long acknowledged by both sides.
            return Err(Rejected::Duplicate { from, seq });
        };
        let earlier = &self.transcript[at - self.compacted].1;
        let earlier_body = &earlier[..earlier.len() - proto::SIGNATURE_LEN];
        // One piece of evidence per number is kept; more add nothing.
        if earlier_body == frame.body_bytes() || !self.equivocations.insert((from, seq)) {
            return Err(Rejected::Duplicate { from, seq });
        }
        // Two different signed messages with one number: provable to anyone.
        self.transcript.push_back((from, bytes.to_vec()));
        self.stored += bytes.len();
        Ok(self.prove(Lie {
            liar: from,
            seq,
            reason: "two different signed messages carry this number (equivocation)".into(),
        }))
    }

    /// Whether the frame that `seen` points at (the newest of the other chain seen by
    /// a sender) is at or after the other chain's frame `seq`.
    fn covers(seen: Option<u32>, seq: u32) -> bool {
        seen.is_some_and(|s| s >= seq)
    }

    fn prove(&mut self, lie: Lie) -> Vec<Note> {
        let mut notes = Vec::new();
        match self.round.as_mut() {
            Some(round) if round.lie.is_none() && round.settled.is_none() => {
                round.lie = Some(lie.clone());
                if let Some(game) = round.game.as_mut()
                    && !game.is_over()
                {
                    round.pending = None;
                    if let Ok(ending) = game.forfeit(lie.liar) {
                        round.ends.push((lie.liar, lie.seq));
                        notes.push(Note::Ended(ending));
                    }
                }
                notes.push(Note::LieProven(lie));
                Self::try_settle(round, &mut notes);
            }
            // A lie already stands: a later one (a bad reveal after it, say) still
            // completes what the round was waiting for.
            Some(round) if round.settled.is_none() => Self::try_settle(round, &mut notes),
            // After the settlement a lie is kept at table level, never dropped.
            Some(_) | None => {
                if self.outside_lie.is_none() {
                    let begun = self.finished.len() + usize::from(self.round.is_some());
                    self.outside_lie = Some((begun, lie.clone()));
                    notes.push(Note::LieProven(lie));
                }
            }
        }
        notes
    }

    #[allow(clippy::too_many_lines)]
    fn payload(
        &mut self,
        from: Seat,
        body: &Body,
        seen: Option<u32>,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let seq = body.seq;
        let game_move = matches!(
            body.payload,
            Payload::Act { .. }
                | Payload::Answer { .. }
                | Payload::DrawOffer { .. }
                | Payload::DrawAnswer { .. }
                | Payload::Resign { .. }
        );
        // A pending forfeit claim is decided by the debtor's next message.
        if let Some(round) = self.round.as_mut()
            && let Some(claim) = round.claim.as_mut()
            && claim.claimant == from.other()
            && claim.decided_by.is_none()
        {
            claim.decided_by = Some(seq);
            let confirms = match claim.state {
                ClaimState::Pending if Self::covers(seen, claim.seq) && claim.unfounded => {
                    let lie = Lie {
                        liar: claim.claimant,
                        seq: claim.seq,
                        reason: UNFOUNDED.into(),
                    };
                    claim.state = ClaimState::Refuted;
                    notes.extend(self.prove(lie));
                    false
                }
                ClaimState::Pending if Self::covers(seen, claim.seq) => {
                    Self::confirm(round, notes);
                    true
                }
                ClaimState::Pending => {
                    claim.state = ClaimState::Refuted;
                    notes.push(Note::ClaimRefuted {
                        claimant: claim.claimant,
                        by: seq,
                    });
                    false
                }
                // Confirmed at once at the debtor's own table: this is its next frame.
                ClaimState::Confirmed => true,
                ClaimState::Refuted => false,
            };
            // The debtor learnt of the end with the claim itself: a move it sends
            // with that knowledge confirms the forfeit and counts for nothing (a late
            // answer is lateness, not a false statement).
            if confirms && game_move {
                notes.push(Note::Void);
                return Ok(());
            }
        }
        // Who claimed a forfeit waits for the debtor's decision, and may only leave
        // until it has seen it (told by `seen`, not by what arrived first here).
        if let Some(round) = self.round.as_ref()
            && let Some(claim) = round.claim
            && claim.claimant == from
            && !claim.decided_by.is_some_and(|by| Self::covers(seen, by))
            && !matches!(body.payload, Payload::Leave { .. })
        {
            return Err("a message while its own forfeit claim waits for the other peer".into());
        }
        // A draw acceptance takes effect at the offerer's first message that saw it.
        if let Some(round) = self.round.as_mut()
            && let Some(accept) = round.accept.as_mut()
            && accept.waiting()
            && accept.acceptor == from.other()
        {
            if Self::covers(seen, accept.seq) {
                accept.confirmed_by = Some(seq);
                let acceptor = accept.acceptor;
                let game = round.game.as_mut().ok_or("no game")?;
                if let Ok(Some(ending)) = game.answer_draw(acceptor, true) {
                    round.ends.push((from, seq));
                    notes.push(Note::Ended(ending));
                }
            } else if matches!(body.payload, Payload::Act { .. } | Payload::Resign { .. }) {
                // The offerer acted instead: the acceptance crossed it and lapses.
                accept.lapsed_by = Some(seq);
            }
        }
        // Who accepted a draw is bound by it: no more moves, offers or resignations,
        // unless it had seen the offerer's frame that made the acceptance lapse.
        if let Some(round) = self.round.as_ref()
            && round.accept.is_some_and(|a| {
                a.acceptor == from && !a.lapsed_by.is_some_and(|by| Self::covers(seen, by))
            })
            && matches!(
                body.payload,
                Payload::Act { .. }
                    | Payload::DrawOffer { .. }
                    | Payload::DrawAnswer { .. }
                    | Payload::Resign { .. }
            )
        {
            return Err("a move after accepting a draw".into());
        }
        match &body.payload {
            Payload::Hello { key, join } => {
                if seq != 0 {
                    return Err("a second hello".into());
                }
                self.keys[idx(from)] = Some(*key);
                self.peer_keys[idx(from)] = PeerKey::parse(key);
                notes.push(Note::Hello(from));
                // Only the guest proves the invite (the proof itself needs the secret,
                // which no observer holds); a host's proof would mean nothing.
                if join.is_some() != (from == Seat::Guest) {
                    return Err(
                        "a hello with a join proof from the host, or without one from the guest"
                            .into(),
                    );
                }
            }
            Payload::Settings(settings) => {
                if from != Seat::Host || self.settings.is_some() {
                    return Err("only the host sets the table, once".into());
                }
                wire::variant(settings.game).map_err(|e| e.to_string())?;
                // RULES.md fixes the move timer at 15 s; the other deadlines must let a
                // game be played, and must not let a peer stall for days.
                let bounded = |ms: u32, low: u32, high: u32| (low..=high).contains(&ms);
                if settings.move_ms != MOVE_MS
                    || !bounded(settings.answer_ms, 100, 120_000)
                    || !bounded(settings.reveal_ms, 100, 600_000)
                    || !bounded(settings.grace_ms, 0, 600_000)
                {
                    return Err("the table's deadlines are outside what the rules allow".into());
                }
                self.settings = Some(*settings);
                notes.push(Note::Settings(*settings));
            }
            Payload::Nonce { number, nonce } => self.nonce(from, *number, *nonce, notes)?,
            Payload::Commit {
                game,
                fleet,
                contributions,
            } => {
                let round = self.round_for(game)?;
                if round.commits[idx(from)].is_some() || round.game.is_some() {
                    return Err("a second commitment in one game".into());
                }
                let want = if round.variant.has_weapons() {
                    STRIKES as usize
                } else {
                    0
                };
                if contributions.len() != want {
                    return Err(format!(
                        "{} air-strike commitments, not {want}",
                        contributions.len()
                    ));
                }
                if let Some(other) = &round.commits[idx(from.other())] {
                    let copied = other.fleet == *fleet
                        || contributions
                            .iter()
                            .any(|c| other.contributions.contains(c));
                    if copied {
                        return Err("the commitment copies the other peer's".into());
                    }
                }
                if contributions.iter().collect::<HashSet<_>>().len() != contributions.len() {
                    return Err("two air-strike commitments are the same".into());
                }
                round.commits[idx(from)] = Some(Commit {
                    fleet: *fleet,
                    contributions: contributions.clone(),
                });
                notes.push(Note::Committed(from));
            }
            Payload::Start { game, timer } => {
                let round = self.round_for(game)?;
                if from != Seat::Host
                    || round.game.is_some()
                    || round.commits.iter().any(Option::is_none)
                {
                    return Err(
                        "only the host starts, once, after both fleets are committed".into(),
                    );
                }
                round.game = Some(Game::new(round.variant, round.first, true));
                round.timer = *timer;
                notes.push(Note::Started { timer: *timer });
            }
            Payload::Act {
                game,
                number,
                action,
                timeout,
                contribution,
            } => {
                self.act(
                    from,
                    seen,
                    (game, *number, *action, *timeout, *contribution),
                    (seq, body.prev),
                    notes,
                )?;
            }
            Payload::Answer {
                game,
                number,
                openings,
                contribution,
            } => {
                self.answer(
                    from,
                    seq,
                    seen,
                    (game, *number, openings, *contribution),
                    notes,
                )?;
            }
            Payload::DrawOffer { game, number } => {
                let round = self.round_for(game)?;
                let g = round.game.as_mut().ok_or("a draw offer before the start")?;
                if g.is_over() && knew_end(&round.ends, from, seen) {
                    return Err("a draw offer after the game ended".into());
                }
                // Stale (an action was made since) or crossing the end: it lapsed.
                if *number < g.actions() || g.is_over() || round.pending.is_some() {
                    notes.push(Note::Void);
                    return Ok(());
                }
                if *number > g.actions() {
                    return Err("a draw offer for an action not yet played".into());
                }
                // Two offers that crossed both lapse. Agreeing a draw here would hang
                // on arrival order: either offerer may have acted or resigned after its
                // offer, before the other's arrived, and a table that took that in
                // first has moved on already.
                if let Some((offerer, offer_seq)) = round.offer
                    && offerer == from.other()
                    && g.draw_offer() == Some(offerer)
                    && !Self::covers(seen, offer_seq)
                {
                    g.cross_offers(from)
                        .map_err(|e| format!("draw offer refused: {e}"))?;
                    round.offer = None;
                    notes.push(Note::DrawOffersCrossed);
                    return Ok(());
                }
                g.offer_draw(from)
                    .map_err(|e| format!("draw offer refused: {e}"))?;
                round.offer = Some((from, seq));
                notes.push(Note::DrawOffered(from));
            }
            Payload::DrawAnswer {
                game,
                number,
                accept,
            } => {
                let round = self.round_for(game)?;
                let g = round
                    .game
                    .as_mut()
                    .ok_or("a draw answer before the start")?;
                if g.is_over() && knew_end(&round.ends, from, seen) {
                    return Err("a draw answer after the game ended".into());
                }
                // An acceptance that crossed the offerer's action lapsed at it, as it
                // does where the action arrived second; it still binds the acceptor
                // until it sees that action.
                if *accept
                    && let Some(p) = &round.pending
                    && p.seat == from.other()
                    && p.number == *number
                    && g.draw_offer() == Some(from.other())
                    && !Self::covers(seen, p.seq)
                {
                    round.accept = Some(Acceptance {
                        acceptor: from,
                        seq,
                        lapsed_by: Some(p.seq),
                        confirmed_by: None,
                    });
                    notes.push(Note::Void);
                    return Ok(());
                }
                // Stale (an action was made since the offer) or crossing the end: it lapsed.
                if *number < g.actions() || g.is_over() || round.pending.is_some() {
                    notes.push(Note::Void);
                    return Ok(());
                }
                if *number > g.actions() || g.draw_offer() != Some(from.other()) {
                    return Err("an answer to a draw offer that was not made".into());
                }
                if *accept {
                    round.accept = Some(Acceptance {
                        acceptor: from,
                        seq,
                        lapsed_by: None,
                        confirmed_by: None,
                    });
                    notes.push(Note::DrawAccepted(from));
                } else {
                    g.answer_draw(from, false).map_err(|e| e.to_string())?;
                    notes.push(Note::DrawDeclined(from));
                }
            }
            Payload::Resign { game } => {
                // The other peer's leave, if this resignation did not see it.
                let l = from.other();
                let crossed_leave = self.left(l)
                    && !Self::covers(seen, self.chains[idx(l)].next().saturating_sub(1));
                let round = self.round_for(game)?;
                let g = round.game.as_mut().ok_or("resigning before the start")?;
                if g.is_over() {
                    if knew_end(&round.ends, from, seen) {
                        return Err("a resignation after the game ended".into());
                    }
                    // Two resignations that crossed: both gave up, nobody wins.
                    if g.ending()
                        .is_some_and(|e| e.reason == crate::rules::EndReason::Resigned)
                    {
                        let ending = g.mutual_resignation();
                        round.ends.push((from, seq));
                        notes.push(Note::Ended(ending));
                        return Ok(());
                    }
                    notes.push(Note::Void);
                    return Ok(());
                }
                // An answer already on its way would cross the resignation and the two
                // sides could disagree on the ending: wait for it first.
                if round.pending.as_ref().is_some_and(|p| p.seat == from) {
                    return Err("a resignation while the own action waits for its answer".into());
                }
                // It crossed a leave whose resignation waits here (for an answer, or for
                // a claim to be decided) but stood already where the leave came second.
                if crossed_leave {
                    let ending = g.mutual_resignation();
                    round.pending = None;
                    round.ends.push((from, seq));
                    notes.push(Note::Ended(ending));
                    return Ok(());
                }
                let ending = g.resign(from).map_err(|e| e.to_string())?;
                round.pending = None;
                round.ends.push((from, seq));
                notes.push(Note::Ended(ending));
            }
            Payload::Lie {
                game,
                seq: accused,
                reason: _,
            } => {
                let round = self.round_for(game)?;
                let confirmed = round
                    .lie
                    .as_ref()
                    .is_some_and(|l| l.liar == from.other() && l.seq == *accused);
                if !confirmed {
                    return Err("it accuses the other peer of a lie that is not proven".into());
                }
            }
            Payload::Forfeit { game, owed } => {
                // A claim is judged when its sender had seen every frame of the other
                // peer: then the other must really owe what it names. A claim that
                // had not seen them all is refuted by the ones it missed.
                let other_next = self.chains[idx(from.other())].next();
                let saw_all = other_next == 0 || seen == Some(other_next - 1);
                let (own, debtor_left) = (self.own, self.left(from.other()));
                let round = self.round_for(game)?;
                if round.claim.is_some_and(|c| c.state != ClaimState::Refuted) {
                    return Err("a second forfeit claim for one game".into());
                }
                // Judged against what the claimant had seen; a lie once the debtor's
                // next frame confirms it (one the claim did not see refutes it, lie or
                // not, as it would where that frame arrived first).
                let unfounded = saw_all && !owes(round, from.other(), *owed);
                round.claim = Some(ForfeitClaim {
                    claimant: from,
                    owed: *owed,
                    seq,
                    state: ClaimState::Pending,
                    decided_by: None,
                    unfounded,
                });
                notes.push(Note::ForfeitClaimed {
                    claimant: from,
                    owed: *owed,
                });
                if !saw_all {
                    if let Some(claim) = round.claim.as_mut() {
                        claim.state = ClaimState::Refuted;
                        claim.decided_by = Some(seen.map_or(0, |s| s + 1));
                    }
                    notes.push(Note::ClaimRefuted {
                        claimant: from,
                        by: seen.map_or(0, |s| s + 1),
                    });
                } else if own == Some(from.other()) || debtor_left {
                    // At the debtor's own table every later message of its sees the
                    // claim; a debtor that left sends none, so nothing can refute it
                    // (its leave, which the claim saw, decided it).
                    if debtor_left && let Some(claim) = round.claim.as_mut() {
                        claim.decided_by = Some(other_next.saturating_sub(1));
                    }
                    if unfounded {
                        return Err(UNFOUNDED.into());
                    }
                    Self::confirm(round, notes);
                }
            }
            Payload::Reveal {
                game,
                ships,
                salts,
                contributions,
            } => {
                self.reveal(from, seen, (game, ships, salts, contributions), notes)?;
            }
            Payload::Verdict { game, verdict } => {
                let round = self.round_for(game)?;
                if round.verdicts[idx(from)].is_some() {
                    return Err("a second verdict for one game".into());
                }
                // A verdict is a signed claim like any other: it must say what the
                // frames its sender had seen prove.
                let settled = round
                    .settled
                    .as_ref()
                    .ok_or("a verdict before the game was settled")?;
                if !says(verdict, settled) {
                    return Err(format!(
                        "a verdict that contradicts the record (which says: {})",
                        describe(settled)
                    ));
                }
                round.verdicts[idx(from)] = Some(verdict.clone());
                notes.push(Note::VerdictSent {
                    seat: from,
                    verdict: verdict.clone(),
                });
            }
            Payload::PlayAgain { number } => {
                let round = self.round.as_mut().ok_or("play again before any game")?;
                if *number != round.number + 1 || round.settled.is_none() || round.again[idx(from)]
                {
                    return Err(
                        "play again before the game is settled, or for the wrong game".into(),
                    );
                }
                round.again[idx(from)] = true;
                notes.push(Note::PlayAgain(from));
                if round.again.iter().all(|a| *a) {
                    let number = round.number + 1;
                    let done = self.round.take().and_then(|r| r.settled);
                    self.finished.extend(done);
                    self.round = Some(self.new_round(number)?);
                }
            }
            Payload::Leave { reason } => {
                self.leavers.push(from);
                notes.push(Note::Left {
                    seat: from,
                    reason: reason.clone(),
                });
                // Leaving a game under way is resigning it (see `resign_leaver`); a
                // leave that crossed the other's resignation makes two that crossed.
                if let Some(round) = self.round.as_mut()
                    && let Some(g) = round.game.as_mut()
                    && g.is_over()
                    && !knew_end(&round.ends, from, seen)
                    && g.ending()
                        .is_some_and(|e| e.reason == crate::rules::EndReason::Resigned)
                {
                    let ending = g.mutual_resignation();
                    round.ends.push((from, seq));
                    notes.push(Note::Ended(ending));
                }
            }
        }
        Ok(())
    }

    fn new_round(&self, number: u32) -> Result<Round, String> {
        let settings = self.settings.ok_or("a game before the table's settings")?;
        let variant = wire::variant(settings.game).map_err(|e| e.to_string())?;
        Ok(Round {
            number,
            nonces: [None; 2],
            id: None,
            variant,
            first: if number.is_multiple_of(2) {
                Seat::Host
            } else {
                Seat::Guest
            },
            commits: [None, None],
            game: None,
            timer: false,
            pending: None,
            seen: [(CellSet::EMPTY, CellSet::EMPTY); 2],
            history: Vec::new(),
            offer: None,
            accept: None,
            ends: Vec::new(),
            lie: None,
            claim: None,
            reveals: [None, None],
            revealed: [false; 2],
            settled: None,
            verdicts: [None, None],
            again: [false; 2],
        })
    }

    fn nonce(
        &mut self,
        from: Seat,
        number: u32,
        nonce: Hash,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        if self.round.is_none() && number == 0 {
            if self.keys.iter().any(Option::is_none) {
                return Err("a nonce before both hellos".into());
            }
            self.round = Some(self.new_round(0)?);
        }
        let settings = self.settings.ok_or("a nonce before the table's settings")?;
        let (host_key, guest_key) = (
            self.keys[0].unwrap_or_default(),
            self.keys[1].unwrap_or_default(),
        );
        let table = self.id;
        let round = self.round.as_mut().ok_or("a nonce outside a game")?;
        if round.number != number || round.nonces[idx(from)].is_some() {
            return Err("a nonce for the wrong game, or a second one".into());
        }
        round.nonces[idx(from)] = Some(nonce);
        if let [Some(host), Some(guest)] = round.nonces {
            let id = game_id(
                &table, &settings, number, &host, &guest, &host_key, &guest_key,
            );
            round.id = Some(id);
            notes.push(Note::GameOpened {
                number,
                id,
                variant: round.variant,
                first: round.first,
            });
        }
        Ok(())
    }

    fn round_for(&mut self, game: &Hash) -> Result<&mut Round, String> {
        match self.round.as_mut() {
            Some(round) if round.id.as_ref() == Some(game) => Ok(round),
            _ => Err("the message names another game".into()),
        }
    }

    #[allow(clippy::type_complexity)]
    fn act(
        &mut self,
        from: Seat,
        seen: Option<u32>,
        (game, number, action, timeout, contribution): (
            &Hash,
            u32,
            proto::WireAction,
            bool,
            Option<Hash>,
        ),
        (seq, prev): (u32, Hash),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let key = self.keys[idx(from)].unwrap_or_default();
        let round = self.round_for(game)?;
        let id = round.id.unwrap_or_default();
        let g = round.game.as_ref().ok_or("an action before the start")?;
        if g.is_over() {
            if !knew_end(&round.ends, from, seen) {
                notes.push(Note::Void);
                return Ok(());
            }
            return Err("an action after the game ended".into());
        }
        if round.pending.is_some() {
            return Err("an action while the last one waits for its answer".into());
        }
        if number != g.actions() {
            return Err(format!(
                "action number {number}, but {} actions were played",
                g.actions()
            ));
        }
        let size = round.variant.size();
        let action = wire::from_action(action, size).map_err(|e| e.to_string())?;
        g.check(from, &action)
            .map_err(|e| format!("illegal action {action}: {e}"))?;
        if timeout {
            if !round.timer {
                return Err("a timeout shot in a game without the move timer".into());
            }
            let due = timeout_cell(&id, &prev, number, g.chart(from).unmarked());
            if due.map(Action::Shot) != Some(action) {
                return Err(format!(
                    "a timeout shot at {action}, but the timeout cell is {}",
                    due.map_or("none".into(), |c| c.to_string())
                ));
            }
        }
        let strike = match action {
            Action::AirStrike(_) => {
                let ordinal = 2 - g.stock(from).air_strikes;
                let strike = strike_number(from, ordinal);
                let revealed = contribution.ok_or("an air strike without its contribution")?;
                round.check_contribution(&key, from, strike, &revealed)?;
                Some(strike)
            }
            _ if contribution.is_some() => {
                return Err("a contribution with an action that is no air strike".into());
            }
            _ => None,
        };
        // Acting lapses any draw offer, whoever made it.
        if let Some(game) = round.game.as_mut() {
            game.lapse_draw_offer();
        }
        round.pending = Some(Pending {
            seat: from,
            number,
            action,
            contribution,
            strike,
            seq,
        });
        notes.push(Note::Acted {
            seat: from,
            number,
            action,
            timeout,
        });
        Ok(())
    }

    #[allow(clippy::type_complexity, clippy::too_many_lines)]
    fn answer(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        (game, number, openings, contribution): (&Hash, u32, &[proto::WireOpening], Option<Hash>),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let key = self.keys[idx(from)].unwrap_or_default();
        let own_answer = self.own == Some(from);
        let round = self.round_for(game)?;
        let id = round.id.unwrap_or_default();
        let g = round.game.as_ref().ok_or("an answer before the start")?;
        if g.is_over() {
            if !knew_end(&round.ends, from, seen) {
                notes.push(Note::Void);
                return Ok(());
            }
            return Err("an answer after the game ended".into());
        }
        let pending = round.pending.clone().ok_or("an answer to no action")?;
        if pending.seat == from || pending.number != number {
            return Err(format!(
                "an answer to action {number}, which does not wait for one"
            ));
        }
        let attacker = pending.seat;
        let shells = match pending.strike {
            Some(strike) => {
                let mine = contribution
                    .ok_or("an air strike's answer without the defender's contribution")?;
                round.check_contribution(&key, from, strike, &mine)?;
                let theirs = pending.contribution.unwrap_or_default();
                let (host, guest) = if attacker == Seat::Host {
                    (theirs, mine)
                } else {
                    (mine, theirs)
                };
                Some(shell_order(&id, strike, &host, &guest))
            }
            None if contribution.is_some() => {
                return Err("a contribution in an answer to no air strike".into());
            }
            None => None,
        };
        // A radar shows deck or water, nothing more: "sinks" there would tell what the
        // rules do not, and nothing could check it.
        if matches!(pending.action, Action::Radar(_))
            && openings.iter().any(|o| o.claim == proto::Claim::Sinks)
        {
            return Err("a radar answer claims a deck sinks; a radar shows deck or water".into());
        }
        let size = round.variant.size();
        let root = round.commits[idx(from)]
            .as_ref()
            .ok_or("no commitment")?
            .fleet;
        let binding = Binding {
            game: id,
            seat: from,
            size,
        };
        let mut proven = Vec::with_capacity(openings.len());
        for wire_opening in openings {
            let (opening, content) =
                wire::from_opening(wire_opening, size).map_err(|e| e.to_string())?;
            opening.check(&binding, &root).map_err(|e| e.to_string())?;
            if proven.iter().any(|(c, _)| *c == opening.cell) {
                return Err(format!("{} is opened twice", opening.cell));
            }
            proven.push((opening.cell, content));
        }
        let before = g.clone();
        let mut game = g.clone();
        let mut view = Recorder::new(Openings(proven.clone()));
        let report = game
            .play(attacker, pending.action, shells, &mut view)
            .map_err(|e| match e {
                ActionError::Sea(SeaError::Unknown(cell)) => {
                    format!("the answer leaves out {cell}, which the rules need")
                }
                ActionError::Sea(SeaError::Contradiction { cell, why }) => {
                    format!("{why} (at {cell})")
                }
                other => format!("the answer cannot be resolved: {other}"),
            })?;
        let looked: HashSet<Coord> = view.looked.iter().map(|(c, _)| *c).collect();
        if proven.iter().any(|(c, _)| !looked.contains(c)) {
            return Err("the answer opens cells the rules did not ask for".into());
        }
        if !proven
            .iter()
            .map(|(c, _)| *c)
            .eq(view.looked.iter().map(|(c, _)| *c))
        {
            return Err(
                "the answer's openings are not in the order the rules looked at them".into(),
            );
        }
        let seen_by = &mut round.seen[idx(attacker)];
        for effect in &report.effects {
            if let crate::rules::Effect::Scanned { cell, deck } = *effect {
                if deck {
                    seen_by.0.insert(cell);
                } else {
                    seen_by.1.insert(cell);
                }
            }
        }
        let chart = *game.chart(attacker);
        let facts = Facts {
            water: chart.misses() | seen_by.1,
            seen_decks: seen_by.0 - chart.decks(),
            ..Facts::from_chart(&chart)
        };
        // An honest client's own answers come from its legal fleet: no search needed.
        if !own_answer
            && let Consistency::Impossible(why) =
                fit_fleet(&round.variant.fleet(), &facts, FIT_BUDGET)
        {
            return Err(format!("no legal fleet fits the answers any more: {why}"));
        }
        round.history.push(Played {
            seat: attacker,
            action: pending.action,
            shells,
            report: report.clone(),
            answer_seq: seq,
            before,
        });
        round.game = Some(game);
        round.pending = None;
        let ending = report.ending;
        notes.push(Note::Resolved {
            seat: attacker,
            number,
            report,
        });
        if let Some(ending) = ending {
            round.ends.push((from, seq));
            notes.push(Note::Ended(ending));
        }
        Ok(())
    }

    #[allow(clippy::type_complexity)]
    fn reveal(
        &mut self,
        from: Seat,
        seen: Option<u32>,
        (game, ships, salts, contributions): (&Hash, &[proto::WireShip], &[[u8; 16]], &[Hash]),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let key = self.keys[idx(from)].unwrap_or_default();
        let round = self.round_for(game)?;
        let id = round.id.unwrap_or_default();
        // Over as its sender knew it: it sent or had seen a frame that ended the game
        // (before the start, a proven lie ends the round with nothing to play).
        let over = match &round.game {
            Some(game) => game.is_over() && knew_end(&round.ends, from, seen),
            None => round.lie.is_some(),
        };
        if !over || round.revealed[idx(from)] {
            return Err("a reveal before its sender saw the end, or a second one".into());
        }
        round.revealed[idx(from)] = true;
        // One encoding per fleet: ships by their bow's cell index, a boat never "down".
        if !ships.windows(2).all(|w| w[0].bow < w[1].bow)
            || ships.iter().any(|s| s.len == 1 && s.down)
        {
            return Err("the reveal is not in its one canonical form (ships in ascending order of their bow, a one-deck ship not down)".into());
        }
        let size = round.variant.size();
        let ships = ships
            .iter()
            .map(|s| wire::from_ship(*s, size))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let fleet = Fleet::new(&round.variant.fleet(), ships)
            .map_err(|e| format!("the revealed fleet is illegal: {e}"))?;
        let commit = round.commits[idx(from)]
            .as_ref()
            .ok_or("a reveal without a commitment")?;
        let binding = Binding {
            game: id,
            seat: from,
            size,
        };
        if root_of(&binding, fleet.decks(), salts) != Some(commit.fleet) {
            return Err("the revealed fleet is not the one committed to".into());
        }
        if contributions.len() != commit.contributions.len()
            || contributions.iter().enumerate().any(|(s, c)| {
                contribution_commitment(&id, from, &key, s as u8, c) != commit.contributions[s]
            })
        {
            return Err("a revealed contribution does not match its commitment".into());
        }
        // Every past answer of this seat, re-checked against its real fleet.
        for played in round.history.iter().filter(|p| p.seat == from.other()) {
            let mut again = played.before.clone();
            let mut sea = fleet.clone();
            let report = again.play(played.seat, played.action, played.shells, &mut sea);
            if report.as_ref() != Ok(&played.report) {
                let lie = Lie {
                    liar: from,
                    seq: played.answer_seq,
                    reason: format!(
                        "the answer to {} does not match the revealed fleet",
                        played.action
                    ),
                };
                round.reveals[idx(from)] = Some(fleet);
                notes.push(Note::Revealed(from));
                let mut more = self.prove(lie);
                notes.append(&mut more);
                return Ok(());
            }
        }
        round.reveals[idx(from)] = Some(fleet);
        notes.push(Note::Revealed(from));
        Self::try_settle(round, notes);
        Ok(())
    }

    /// A forfeit claim stands: the debtor loses the game, if it was still on.
    fn confirm(round: &mut Round, notes: &mut Vec<Note>) {
        let Some(claim) = round.claim.as_mut() else {
            return;
        };
        claim.state = ClaimState::Confirmed;
        let (claimant, seq) = (claim.claimant, claim.seq);
        if let Some(g) = round.game.as_mut()
            && !g.is_over()
            && let Ok(ending) = g.forfeit(claimant.other())
        {
            round.pending = None;
            round.ends.push((claimant, seq));
            notes.push(Note::Ended(ending));
        }
        Self::try_settle(round, notes);
    }

    fn try_settle(round: &mut Round, notes: &mut Vec<Note>) {
        if round.settled.is_some() {
            return;
        }
        let claim = round.claim.filter(|c| c.state == ClaimState::Confirmed);
        let revealed = round.revealed.iter().all(|r| *r);
        let ending = round.game.as_ref().and_then(Game::ending);
        let started = round.game.is_some();
        let verdict = match (&round.lie, claim, ending) {
            // A proven lie stands once both reveals are in, or once waiting for them
            // ended, or at once before the start (there is nothing to reveal).
            (Some(lie), claim, _) if revealed || claim.is_some() || !started => {
                Verdict::Lie(lie.clone())
            }
            (None, Some(claim), _) => Verdict::Incomplete(claim.reason()),
            (None, None, Some(ending)) if revealed => Verdict::Honest(ending),
            // Waiting: for the reveals after a lie or an ending.
            _ => return,
        };
        round.settled = Some(verdict.clone());
        notes.push(Note::Settled(verdict));
    }
}

/// Whether `debtor` owes `owed` in this round, as things stand.
fn owes(round: &Round, debtor: Seat, owed: proto::Owed) -> bool {
    let game = round.game.as_ref();
    let over = game.is_some_and(Game::is_over) || round.lie.is_some();
    match owed {
        proto::Owed::Answer => round.pending.as_ref().is_some_and(|p| p.seat != debtor) && !over,
        proto::Owed::Move => {
            round.timer
                && !over
                && round.pending.is_none()
                && game.is_some_and(|g| g.mover() == debtor)
        }
        // After the end; or, for an offerer whose draw was accepted, as its confirmation.
        proto::Owed::Reveal => {
            (over
                || round
                    .accept
                    .is_some_and(|a| a.waiting() && a.acceptor == debtor.other()))
                && !round.revealed[idx(debtor)]
        }
    }
}

/// Whether a signed verdict says what the settled one is: the same winner, the
/// same liar and message, or incomplete (reasons are free text).
fn says(wire: &proto::WireVerdict, settled: &Verdict) -> bool {
    match (wire, settled) {
        (proto::WireVerdict::Honest { winner }, Verdict::Honest(ending)) => {
            winner.map(wire::from_seat) == ending.winner
        }
        (proto::WireVerdict::Lie { liar, seq, .. }, Verdict::Lie(lie)) => {
            wire::from_seat(*liar) == lie.liar && *seq == lie.seq
        }
        (proto::WireVerdict::Incomplete { .. }, Verdict::Incomplete(_)) => true,
        _ => false,
    }
}

fn describe(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Honest(ending) => match ending.winner {
            Some(winner) => format!("honest, the {winner} won"),
            None => "honest, no winner".into(),
        },
        Verdict::Lie(lie) => lie.to_string(),
        Verdict::Incomplete(why) => format!("incomplete: {why}"),
    }
}

/// Whether `from`, having seen the other chain up to `seen`, knew the game was
/// over: one of the frames that ended it is its own or one it had seen. A frame
/// sent without that knowledge crossed the end.
fn knew_end(ends: &[(Seat, u32)], from: Seat, seen: Option<u32>) -> bool {
    ends.iter()
        .any(|&(seat, seq)| seat == from || Table::covers(seen, seq))
}

/// The id of game `number` at a table: binds the table, its settings, both nonces and both keys.
pub fn game_id(
    table: &Hash,
    settings: &proto::Settings,
    number: u32,
    host_nonce: &Hash,
    guest_nonce: &Hash,
    host_key: &Hash,
    guest_key: &Hash,
) -> Hash {
    let settings = labelled(label::SETTINGS, &[&proto::encode_settings(settings)]);
    labelled(
        label::GAME,
        &[
            table,
            &settings,
            &number.to_be_bytes(),
            host_nonce,
            guest_nonce,
            host_key,
            guest_key,
        ],
    )
}

/// The attacker's view of the enemy sea: checked openings and nothing else.
#[derive(Clone, Debug)]
struct Openings(Vec<(Coord, Content)>);

impl Sea for Openings {
    fn look(&mut self, cell: Coord, _chart: &Chart) -> Result<Content, SeaError> {
        self.0
            .iter()
            .find(|(c, _)| *c == cell)
            .map(|(_, content)| *content)
            .ok_or(SeaError::Unknown(cell))
    }
}
