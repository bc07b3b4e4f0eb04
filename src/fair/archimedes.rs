//! An Archimedes table as any observer sees it: both peers' signed moves checked by the engine, in order, without any secret.
//!
//! The frames, chains, `seen` links, equivocation, hellos, settings, nonces, game
//! ids, forfeit claims, verdicts, play again and leaves are the sea battle's
//! (`fair::table`, PROTOCOL.md); what differs is the game. Nothing is hidden, so
//! there are no commitments, answers or reveals: a `Move` is checked by the engine
//! as it comes and takes effect at once. Both sessions and `armada verify` run this
//! code, and what it decides depends only on the frames and their `seen` links:
//!
//! - a move must have seen the other side's last move (the turn order says it
//!   must);
//! - a resignation (or a leave) counts from the position its sender had seen: the
//!   one move of the other side it may not have seen yet is void;
//! - two resignations that crossed make a draw;
//! - a game's end is settled once the other side has sent a frame that saw it, or
//!   ended the game too (nothing can cross it after that); its verdict, signed by
//!   each side, must say what the record says.
//!
//! Architecture invariant: as `fair::table` — no secrets, no clock, no IO; a
//! rejected frame changes nothing; a signed frame that breaks a rule is a lie.

use armada_proto::{self as proto, Body, Payload, WireVerdict};

use crate::archimedes::{self as arch, Move, Position, SIZES, Side};
use crate::fair::hash::Hash;
use crate::fair::table::chain::{Chain, Taken};
use crate::fair::table::observer::OTHER_GAME;
use crate::fair::table::{ClaimState, Core, ForfeitClaim, Lie, Observer, Rejected, Rules, game_id};
use crate::fair::wire;
use crate::rules::{BoardSize, Seat};

/// The bounds of a move's deadline at an Archimedes table, in milliseconds.
pub const MOVE_MS: std::ops::RangeInclusive<u32> = 10_000..=600_000;
const UNFOUNDED: &str = "a forfeit claim, but the other peer owed no move";

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// By the rules: a fleet below three, no legal move, fifty quiet moves.
    Rules(arch::EndReason),
    /// The loser resigned (or left the table).
    Resigned,
    /// Both resigned, and neither had seen the other's resignation: a draw.
    BothResigned,
    /// The loser owed a move past its deadline (a claim its next frame confirmed).
    Forfeit,
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Seat>,
    pub reason: Reason,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why: &dyn std::fmt::Display = match &self.reason {
            Reason::Rules(reason) => reason,
            Reason::Resigned => &"a resignation",
            Reason::BothResigned => &"both resigned",
            Reason::Forfeit => &"a move owed past its deadline",
        };
        match self.winner {
            Some(w) => write!(f, "the {w} wins: {why}"),
            None => write!(f, "a draw: {why}"),
        }
    }
}

/// A game's settled outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No lie: the game ended so.
    Decided(Outcome),
    /// A lie was proven; the liar lost.
    Lie(Lie),
}

impl Verdict {
    /// The winner (none for a draw).
    pub fn winner(&self) -> Option<Seat> {
        match self {
            Self::Decided(outcome) => outcome.winner,
            Self::Lie(lie) => Some(lie.liar.other()),
        }
    }

    /// The verdict as a peer signs it.
    pub fn wire(&self) -> WireVerdict {
        match self {
            Self::Decided(outcome) => WireVerdict::Honest {
                winner: outcome.winner.map(wire::seat),
            },
            Self::Lie(lie) => WireVerdict::Lie {
                liar: wire::seat(lie.liar),
                seq: lie.seq,
                reason: lie.reason.clone(),
            },
        }
    }

    /// Whether a signed verdict says this one.
    fn said_by(&self, signed: &WireVerdict) -> bool {
        match (signed, self) {
            (WireVerdict::Honest { winner }, Self::Decided(outcome)) => {
                winner.map(wire::from_seat) == outcome.winner
            }
            (WireVerdict::Lie { liar, seq, .. }, Self::Lie(lie)) => {
                wire::from_seat(*liar) == lie.liar && *seq == lie.seq
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Decided(outcome) => outcome.fmt(f),
            Self::Lie(lie) => lie.fmt(f),
        }
    }
}

/// One move as the record keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub seat: Seat,
    /// The mover's message.
    pub seq: u32,
    pub played: arch::Played,
}

/// What the observer learnt from one accepted frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    Hello(Seat),
    Settings(proto::Settings),
    /// Both nonces are in: game `number` has its id and starts; `first` moves first
    /// and commands the bottom-left fleet.
    Opened {
        number: u32,
        id: Hash,
        first: Seat,
    },
    Moved(Step),
    /// A move made void by a resignation that had not seen it.
    Undone(Step),
    Ended(Outcome),
    LieProven(Lie),
    ForfeitClaimed {
        claimant: Seat,
    },
    /// The debtor's message `by` was sent before the claim arrived: the claim is void.
    ClaimRefuted {
        claimant: Seat,
        by: u32,
    },
    Settled(Verdict),
    VerdictSent {
        seat: Seat,
        verdict: WireVerdict,
    },
    PlayAgain(Seat),
    Left {
        seat: Seat,
        reason: String,
    },
    /// A frame that crossed the end of the game: it changes nothing.
    Void,
}

#[derive(Clone, Debug)]
pub struct Round {
    core: Core<Verdict>,
    /// The board, once both nonces are in.
    position: Option<Position>,
    /// The board before the last move (to void it if a resignation crossed it).
    before: Option<Position>,
    steps: Vec<Step>,
    outcome: Option<Outcome>,
}

impl Round {
    fn side(&self, seat: Seat) -> Side {
        if seat == self.core.first {
            Side::First
        } else {
            Side::Second
        }
    }

    fn seat(&self, side: Side) -> Seat {
        match side {
            Side::First => self.core.first,
            Side::Second => self.core.first.other(),
        }
    }

    fn outcome_of(&self, ending: arch::Ending) -> Outcome {
        Outcome {
            winner: ending.winner.map(|side| self.seat(side)),
            reason: Reason::Rules(ending.reason),
        }
    }
}

/// Archimedes' rules at a table: a round is one game's board and moves.
#[derive(Clone, Copy, Debug)]
pub struct Archimedes;

impl Rules for Archimedes {
    type Round = Round;
    type Verdict = Verdict;
    fn core(round: &Round) -> &Core<Verdict> {
        &round.core
    }
    fn core_mut(round: &mut Round) -> &mut Core<Verdict> {
        &mut round.core
    }
}

/// The observer of one Archimedes table.
pub type Table = Observer<Archimedes>;

fn idx(seat: Seat) -> usize {
    seat.index()
}

/// Whether the other chain's frame `seq` is at or before what `seen` points at.
fn covers(seen: Option<u32>, seq: u32) -> bool {
    seen.is_some_and(|s| s >= seq)
}

/// Whether `from`, having seen the other chain up to `seen`, knew the game was over.
fn knew_end(ends: &[(Seat, u32)], from: Seat, seen: Option<u32>) -> bool {
    ends.iter()
        .any(|&(seat, seq)| seat == from || covers(seen, seq))
}

/// Whether nothing can cross `seat`'s frame `seq` that ended the game any more: the
/// other side has sent a frame that saw it, or ended the game itself (then every
/// later frame of it knew the end).
fn end_final(ends: &[(Seat, u32)], chains: &[Chain; 2], seat: Seat, seq: u32) -> bool {
    let other = seat.other();
    covers(chains[idx(other)].seen, seq) || ends.iter().any(|&(s, _)| s == other)
}

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

impl Table {
    /// The board's size, once the table's settings are in.
    fn size(&self) -> Option<BoardSize> {
        self.settings.as_ref().and_then(|s| check_settings(s).ok())
    }

    /// The verdict `seat` may sign now: the settled one, or the outcome its next
    /// frame settles (every frame that ended the game is the other side's, or was
    /// seen by it). `None` once signed.
    pub fn verdict_due(&self, seat: Seat) -> Option<Verdict> {
        let round = self.round.as_ref()?;
        if round.core.verdicts[idx(seat)].is_some() {
            return None;
        }
        if let Some(verdict) = &round.core.settled {
            return Some(verdict.clone());
        }
        let outcome = round.outcome.filter(|_| round.core.lie.is_none())?;
        round
            .core
            .ends
            .iter()
            .all(|&(s, q)| s != seat || end_final(&round.core.ends, &self.ledger.chains, s, q))
            .then_some(Verdict::Decided(outcome))
    }

    /// The board of the current game, once it opened.
    pub fn position(&self) -> Option<&Position> {
        self.round.as_ref()?.position.as_ref()
    }

    /// The side `seat` commands in the current game.
    pub fn side(&self, seat: Seat) -> Option<Side> {
        self.round.as_ref().map(|r| r.side(seat))
    }

    /// The seat to move, while the current game runs.
    pub fn mover(&self) -> Option<Seat> {
        let round = self.round.as_ref()?;
        let position = round.position.as_ref()?;
        (round.outcome.is_none() && round.core.lie.is_none()).then(|| round.seat(position.mover()))
    }

    /// The moves of the current game.
    pub fn steps(&self) -> &[Step] {
        self.round.as_ref().map_or(&[], |r| &r.steps)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.round.as_ref()?.outcome
    }

    /// Whether the current game is over (ended, or a lie proven).
    pub fn ended(&self) -> bool {
        self.round
            .as_ref()
            .is_some_and(|r| r.outcome.is_some() || r.core.lie.is_some())
    }

    /// The first lie proven at this table: in a game's verdict, the current game's, or outside one.
    pub fn first_lie(&self) -> Option<Lie> {
        self.verdicts()
            .into_iter()
            .find_map(|v| match v {
                Verdict::Lie(lie) => Some(lie),
                Verdict::Decided(_) => None,
            })
            .or_else(|| self.round.as_ref()?.core.lie.clone())
            .or_else(|| self.outside_lie.as_ref().map(|(_, lie)| lie.clone()))
    }

    /// Takes in one frame sent by `from`. On `Err` nothing changed.
    pub fn receive(&mut self, from: Seat, bytes: &[u8]) -> Result<Vec<Note>, Rejected> {
        let (frame, seen) = match self.ledger.take(from, bytes, self.left(from))? {
            Taken::Fresh { frame, seen } => (frame, seen),
            Taken::Lie(lie) => return Ok(self.prove(lie)),
        };
        let body = &frame.body;
        let mut notes = Vec::new();
        if let Err(reason) = self.payload(from, body, seen, &mut notes) {
            notes.extend(self.prove(Lie {
                liar: from,
                seq: body.seq,
                reason,
            }));
        }
        self.resign_leaver(&mut notes);
        self.try_settle(&mut notes);
        Ok(notes)
    }

    /// A proven lie: the current game's if it is not settled (the liar loses it),
    /// else the table's.
    fn prove(&mut self, lie: Lie) -> Vec<Note> {
        let mut notes = Vec::new();
        match self.round.as_mut() {
            Some(round) if round.core.settled.is_none() && round.position.is_some() => {
                if round.core.lie.is_none() {
                    round.core.lie = Some(lie.clone());
                    notes.push(Note::LieProven(lie));
                    Self::settle(round, &self.ledger.chains, &mut notes);
                }
            }
            _ => {
                if self.outside_lie.is_none() {
                    self.outside_lie = Some((self.begun(), lie.clone()));
                    notes.push(Note::LieProven(lie));
                }
            }
        }
        notes
    }

    fn try_settle(&mut self, notes: &mut Vec<Note>) {
        if let Some(round) = self.round.as_mut() {
            Self::settle(round, &self.ledger.chains, notes);
        }
    }

    /// Settles a game once nothing can change its end any more: at once for a lie;
    /// for an ending, once the other side of each frame that ended it has sent a
    /// frame that saw it.
    fn settle(round: &mut Round, chains: &[Chain; 2], notes: &mut Vec<Note>) {
        if round.core.settled.is_some() {
            return;
        }
        let verdict = match (&round.core.lie, round.outcome) {
            (Some(lie), _) => Verdict::Lie(lie.clone()),
            (None, Some(outcome))
                if round
                    .core
                    .ends
                    .iter()
                    .all(|&(seat, seq)| end_final(&round.core.ends, chains, seat, seq)) =>
            {
                Verdict::Decided(outcome)
            }
            _ => return,
        };
        round.core.settled = Some(verdict.clone());
        notes.push(Note::Settled(verdict));
    }

    fn round_for(&mut self, game: &Hash) -> Result<&mut Round, String> {
        match self.round.as_mut() {
            Some(round) if round.core.id.as_ref() == Some(game) => Ok(round),
            _ => Err(OTHER_GAME.into()),
        }
    }

    fn new_round(number: u32) -> Round {
        Round {
            core: Core::new(number),
            position: None,
            before: None,
            steps: Vec::new(),
            outcome: None,
        }
    }

    fn payload(
        &mut self,
        from: Seat,
        body: &Body,
        seen: Option<u32>,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let seq = body.seq;
        let game_move = matches!(body.payload, Payload::Move { .. } | Payload::Resign { .. });
        if self.decide_claim(from, seq, seen, game_move, notes) {
            notes.push(Note::Void);
            return Ok(());
        }
        self.claimant_waits(from, seen, &body.payload)?;
        match &body.payload {
            Payload::Hello { key, join } => {
                self.hello(from, seq, key)?;
                notes.push(Note::Hello(from));
                if join.is_some() != (from == Seat::Guest) {
                    return Err(
                        "a hello with a join proof from the host, or without one from the guest"
                            .into(),
                    );
                }
            }
            Payload::CodeHello { key, .. } => {
                // The key stands even when the hello is a lie (see `Payload::Hello`).
                self.hello(from, seq, key)?;
                notes.push(Note::Hello(from));
                if from != Seat::Guest {
                    return Err("a short code's hello from the host".into());
                }
            }
            Payload::Settings(settings) => {
                if from != Seat::Host || self.settings.is_some() {
                    return Err("only the host sets the table, once".into());
                }
                check_settings(settings)?;
                self.settings = Some(*settings);
                notes.push(Note::Settings(*settings));
            }
            Payload::Nonce { number, nonce } => self.nonce(from, *number, *nonce, notes)?,
            Payload::Move {
                game,
                number,
                from: a,
                to: b,
            } => self.play(from, (seq, seen), game, *number, (*a, *b), notes)?,
            Payload::Resign { game } => {
                let round = self.round_for(game)?;
                if round.position.is_none() {
                    return Err("a resignation before the game".into());
                }
                Self::give_up(round, from, seq, seen, notes)?;
            }
            Payload::Lie {
                game,
                seq: accused,
                reason: _,
            } => {
                let round = self.round_for(game)?;
                let confirmed = round
                    .core
                    .lie
                    .as_ref()
                    .is_some_and(|l| l.liar == from.other() && l.seq == *accused);
                if !confirmed {
                    return Err("it accuses the other peer of a lie that is not proven".into());
                }
            }
            Payload::Forfeit { game, owed } => {
                if *owed != proto::Owed::Move {
                    return Err("at an Archimedes table only a move can be owed".into());
                }
                self.forfeit_claim(from, seq, seen, game, notes)?;
            }
            Payload::Verdict { game, verdict } => self.verdict(from, game, verdict, notes)?,
            Payload::PlayAgain { number } => {
                let both = self.play_again(from, seq, *number)?;
                notes.push(Note::PlayAgain(from));
                if both {
                    self.begin_next(|_, number| Ok(Self::new_round(number)))?;
                }
            }
            Payload::Leave { reason } => {
                self.leavers.push(from);
                notes.push(Note::Left {
                    seat: from,
                    reason: reason.clone(),
                });
            }
            Payload::Start { .. }
            | Payload::Commit { .. }
            | Payload::Act { .. }
            | Payload::Answer { .. }
            | Payload::Reveal { .. }
            | Payload::DrawOffer { .. }
            | Payload::DrawAnswer { .. } => {
                return Err("a sea battle's message at an Archimedes table".into());
            }
        }
        Ok(())
    }

    /// A side's signed verdict: it must say what the settled record says (this very
    /// frame may be the one that settles the end).
    fn verdict(
        &mut self,
        from: Seat,
        game: &Hash,
        verdict: &WireVerdict,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let Some(round) = self
            .round
            .as_mut()
            .filter(|r| r.core.id.as_ref() == Some(game))
        else {
            return Err(OTHER_GAME.into());
        };
        if round.core.verdicts[idx(from)].is_some() {
            return Err("a second verdict for one game".into());
        }
        // This very frame may be the one that settles the end.
        Self::settle(round, &self.ledger.chains, notes);
        let settled = round
            .core
            .settled
            .as_ref()
            .ok_or("a verdict before the game was settled")?;
        if !settled.said_by(verdict) {
            return Err(format!(
                "a verdict that contradicts the record (which says: {settled})"
            ));
        }
        round.core.verdicts[idx(from)] = Some(verdict.clone());
        notes.push(Note::VerdictSent {
            seat: from,
            verdict: verdict.clone(),
        });
        Ok(())
    }

    fn hello(&mut self, from: Seat, seq: u32, key: &Hash) -> Result<(), String> {
        if seq != 0 {
            return Err("a second hello".into());
        }
        self.ledger.set_key(from, key);
        Ok(())
    }

    fn nonce(
        &mut self,
        from: Seat,
        number: u32,
        nonce: Hash,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let settings = self.settings.ok_or("a nonce before the table's settings")?;
        let size = self.size().ok_or("a nonce before the table's settings")?;
        let [Some(host_key), Some(guest_key)] = self.ledger.keys else {
            return Err("a nonce before both hellos".into());
        };
        if self.round.is_none() && number == 0 {
            self.round = Some(Self::new_round(0));
        }
        let table = self.id();
        let round = self.round.as_mut().ok_or("a nonce outside a game")?;
        if round.core.number != number || round.core.nonces[idx(from)].is_some() {
            return Err("a nonce for the wrong game, or a second one".into());
        }
        round.core.nonces[idx(from)] = Some(nonce);
        if let [Some(host), Some(guest)] = round.core.nonces {
            let id = game_id(
                &table, &settings, number, &host, &guest, &host_key, &guest_key,
            );
            round.core.id = Some(id);
            round.position = Some(Position::start(size.side()).map_err(|e| e.to_string())?);
            notes.push(Note::Opened {
                number,
                id,
                first: round.core.first,
            });
        }
        Ok(())
    }

    fn play(
        &mut self,
        from: Seat,
        (seq, seen): (u32, Option<u32>),
        game: &Hash,
        number: u32,
        (a, b): (u8, u8),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let size = self.size().ok_or("a move before the table's settings")?;
        let round = self.round_for(game)?;
        let side = round.side(from);
        let position = round.position.as_ref().ok_or("a move before the game")?;
        let mv = Move {
            from: wire::cell(a, size).map_err(|e| e.to_string())?,
            to: wire::cell(b, size).map_err(|e| e.to_string())?,
        };
        if position.mover() != side {
            return Err(format!("a move ({mv}) out of turn"));
        }
        if let Some(last) = round.steps.last()
            && last.seat != from
            && !covers(seen, last.seq)
        {
            return Err(format!(
                "a move ({mv}) made without seeing the other side's move"
            ));
        }
        if number as usize != round.steps.len() {
            return Err(format!(
                "move number {number}, but {} moves were made",
                round.steps.len()
            ));
        }
        let mut after = position.clone();
        let played = after
            .play(mv)
            .map_err(|e| format!("an illegal move {mv}: {e}"))?;
        if round.outcome.is_some() || round.core.lie.is_some() {
            // Legal, but it crossed the end (a resignation it had not seen): void.
            if knew_end(&round.core.ends, from, seen) {
                return Err(format!("a move ({mv}) after the game ended"));
            }
            notes.push(Note::Void);
            return Ok(());
        }
        round.before = round.position.replace(after);
        let step = Step {
            seat: from,
            seq,
            played,
        };
        notes.push(Note::Moved(step.clone()));
        if let Some(ending) = step.played.ending {
            let outcome = round.outcome_of(ending);
            round.outcome = Some(outcome);
            round.core.ends.push((from, seq));
            notes.push(Note::Ended(outcome));
        }
        round.steps.push(step);
        Ok(())
    }

    /// `from` resigns (a `Resign`, or a leave during the game), counting from the
    /// position its frame had seen.
    fn give_up(
        round: &mut Round,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        if round.core.lie.is_some() {
            notes.push(Note::Void);
            return Ok(());
        }
        if round.outcome.is_some() && knew_end(&round.core.ends, from, seen) {
            return Err("a resignation after the game ended".into());
        }
        // The other side's last move, if this resignation had not seen it, is void:
        // where the resignation arrived first, that move came after the end.
        if let Some(last) = round.steps.last()
            && last.seat != from
            && !covers(seen, last.seq)
            && let Some(before) = round.before.take()
            && let Some(step) = round.steps.pop()
        {
            round.position = Some(before);
            round
                .core
                .ends
                .retain(|&(seat, s)| (seat, s) != (step.seat, step.seq));
            if round.core.ends.is_empty() {
                round.outcome = None;
            }
            notes.push(Note::Undone(step));
        }
        let outcome = match round.outcome {
            // Two resignations that crossed: both gave up, nobody wins.
            Some(Outcome {
                reason: Reason::Resigned,
                ..
            }) => Outcome {
                winner: None,
                reason: Reason::BothResigned,
            },
            // Ended otherwise (a confirmed forfeit): this frame changes nothing.
            Some(_) => {
                notes.push(Note::Void);
                return Ok(());
            }
            None => Outcome {
                winner: Some(from.other()),
                reason: Reason::Resigned,
            },
        };
        round.outcome = Some(outcome);
        round.core.ends.push((from, seq));
        notes.push(Note::Ended(outcome));
        Ok(())
    }

    /// Leaving a game under way is resigning it, once the leaver's own forfeit claim
    /// (if one waits) is decided; the leave's `seen` says what it had seen.
    fn resign_leaver(&mut self, notes: &mut Vec<Note>) {
        for i in 0..self.leavers.len() {
            let leaver = self.leavers[i];
            let chain = &self.ledger.chains[idx(leaver)];
            let (leave, seen) = (chain.next().saturating_sub(1), chain.seen);
            let Some(round) = self.round.as_mut() else {
                return;
            };
            let waits = round
                .core
                .claim
                .is_some_and(|c| c.claimant == leaver && c.state == ClaimState::Pending);
            let under_way = round.position.is_some()
                && round.core.lie.is_none()
                && !round.core.ends.iter().any(|&(seat, _)| seat == leaver)
                && round.outcome.is_none_or(|o| {
                    o.reason == Reason::Resigned && !knew_end(&round.core.ends, leaver, seen)
                });
            if !waits && under_way {
                // Cannot fail: the end, if any, was not known to the leave.
                let _ = Self::give_up(round, leaver, leave, seen, notes);
            }
        }
    }

    /// Decides a pending claim against `from` by this, its next frame; true when the
    /// frame is a move or resignation that the confirmed claim makes count for nothing.
    fn decide_claim(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        game_move: bool,
        notes: &mut Vec<Note>,
    ) -> bool {
        let Some(round) = self.round.as_mut() else {
            return false;
        };
        let Some(claim) = round.core.claim.as_mut() else {
            return false;
        };
        if claim.claimant != from.other() || claim.decided_by.is_some() {
            return false;
        }
        claim.decided_by = Some(seq);
        let (claimant, claim_seq) = (claim.claimant, claim.seq);
        let confirms = match claim.state {
            ClaimState::Pending if covers(seen, claim_seq) && claim.unfounded => {
                claim.state = ClaimState::Refuted;
                notes.extend(self.prove(Lie {
                    liar: claimant,
                    seq: claim_seq,
                    reason: UNFOUNDED.into(),
                }));
                false
            }
            ClaimState::Pending if covers(seen, claim_seq) => {
                Self::confirm(round, notes);
                true
            }
            ClaimState::Pending => {
                claim.state = ClaimState::Refuted;
                notes.push(Note::ClaimRefuted { claimant, by: seq });
                false
            }
            ClaimState::Confirmed => true,
            ClaimState::Refuted => false,
        };
        confirms && game_move
    }

    fn confirm(round: &mut Round, notes: &mut Vec<Note>) {
        let Some(claim) = round.core.claim.as_mut() else {
            return;
        };
        claim.state = ClaimState::Confirmed;
        if round.outcome.is_none() && round.core.lie.is_none() {
            let outcome = Outcome {
                winner: Some(claim.claimant),
                reason: Reason::Forfeit,
            };
            round.outcome = Some(outcome);
            round.core.ends.push((claim.claimant, claim.seq));
            notes.push(Note::Ended(outcome));
        }
    }

    /// Who claimed a forfeit may send nothing but a leave until it has seen the decision.
    fn claimant_waits(
        &self,
        from: Seat,
        seen: Option<u32>,
        payload: &Payload,
    ) -> Result<(), String> {
        if let Some(claim) = self.round.as_ref().and_then(|r| r.core.claim)
            && claim.claimant == from
            && !claim.decided_by.is_some_and(|by| covers(seen, by))
            && !matches!(payload, Payload::Leave { .. })
        {
            return Err("a message while its own forfeit claim waits for the other peer".into());
        }
        Ok(())
    }

    /// A claim by `from` that the other side owes a move past its deadline: judged
    /// against what the claimant had seen, decided by the debtor's next frame.
    fn forfeit_claim(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        game: &Hash,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let other_next = self.ledger.chains[idx(from.other())].next();
        let saw_all = other_next == 0 || seen == Some(other_next - 1);
        let (own, debtor_left) = (self.ledger.own, self.left(from.other()));
        let round = self.round_for(game)?;
        if round
            .core
            .claim
            .is_some_and(|c| c.state != ClaimState::Refuted)
        {
            return Err("a second forfeit claim for one game".into());
        }
        let owes = round.outcome.is_none()
            && round.core.lie.is_none()
            && round
                .position
                .as_ref()
                .is_some_and(|p| round.seat(p.mover()) == from.other());
        let unfounded = saw_all && !owes;
        round.core.claim = Some(ForfeitClaim {
            claimant: from,
            owed: proto::Owed::Move,
            seq,
            state: ClaimState::Pending,
            decided_by: None,
            unfounded,
        });
        notes.push(Note::ForfeitClaimed { claimant: from });
        if !saw_all {
            let by = seen.map_or(0, |s| s + 1);
            if let Some(claim) = round.core.claim.as_mut() {
                claim.state = ClaimState::Refuted;
                claim.decided_by = Some(by);
            }
            notes.push(Note::ClaimRefuted { claimant: from, by });
        } else if own == Some(from.other()) || debtor_left {
            // At the debtor's own table its next frame sees the claim; a debtor that
            // left sends none, and its leave (which the claim saw) decided it.
            if debtor_left && let Some(claim) = round.core.claim.as_mut() {
                claim.decided_by = Some(other_next.saturating_sub(1));
            }
            if unfounded {
                return Err(UNFOUNDED.into());
            }
            Self::confirm(round, notes);
        }
        Ok(())
    }
}
