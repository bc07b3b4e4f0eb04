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

use crate::fair::table::observer::rounds;
use armada_proto::{self as proto, Payload, WireVerdict};

use crate::archimedes::{self as arch, Move, Position, SIZES, Side};
use crate::fair::hash::Hash;
use crate::fair::table::chain::Chain;
use crate::fair::table::protocol::{covers, end_final, game_notes, knew_end};
use crate::fair::table::{ClaimState, Core, Heard, Lie, Observer, Rules};
use crate::fair::wire;
use crate::rules::{BoardSize, Seat};

/// The bounds of a move's deadline at an Archimedes table, in milliseconds.
pub const MOVE_MS: std::ops::RangeInclusive<u32> = 10_000..=600_000;

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

game_notes! {
    /// What the observer learnt from one accepted frame.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Note for Verdict {
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
    }
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
    rounds!(Round, Verdict, Note);
    const UNFOUNDED: &'static str = "a forfeit claim, but the other peer owed no move";
    fn check_settings(settings: &proto::Settings) -> Result<(), String> {
        check_settings(settings).map(|_| ())
    }
    fn new_round(_: &Table, number: u32) -> Result<Round, String> {
        Ok(Round {
            core: Core::new(number),
            position: None,
            before: None,
            steps: Vec::new(),
            outcome: None,
        })
    }
    fn opened(round: &mut Round, id: Hash, settings: &proto::Settings) -> Result<Note, String> {
        let size = check_settings(settings)?;
        round.position = Some(Position::start(size.side()).map_err(|e| e.to_string())?);
        Ok(Note::Opened {
            number: round.core.number,
            id,
            first: round.core.first,
        })
    }
    fn game_move(payload: &Payload) -> bool {
        matches!(payload, Payload::Move { .. } | Payload::Resign { .. })
    }
    fn play(table: &mut Table, frame: Heard<'_>, notes: &mut Vec<Note>) -> Result<(), String> {
        let Heard {
            from, seq, seen, ..
        } = frame;
        match frame.payload {
            Payload::Move {
                game,
                number,
                from: a,
                to: b,
            } => table.play(from, (seq, seen), game, *number, (*a, *b), notes),
            Payload::Resign { game } => {
                let round = table.round_for(game)?;
                if round.position.is_none() {
                    return Err("a resignation before the game".into());
                }
                Table::give_up(round, from, seq, seen, notes)
            }
            _ => Err("a sea battle's message at an Archimedes table".into()),
        }
    }
    fn after_frame(table: &mut Table, notes: &mut Vec<Note>) {
        table.resign_leaver(notes);
        table.try_settle(notes);
    }
    fn lie_in_game(table: &mut Table, lie: &Lie, notes: &mut Vec<Note>) -> bool {
        match table.round.as_mut() {
            Some(round) if round.core.settled.is_none() && round.position.is_some() => {
                if round.core.lie.is_none() {
                    round.core.lie = Some(lie.clone());
                    notes.push(Note::LieProven(lie.clone()));
                    Table::settle(round, &table.ledger.chains, notes);
                }
                true
            }
            _ => false,
        }
    }
    fn settle(table: &mut Table, notes: &mut Vec<Note>) {
        table.try_settle(notes);
    }
    fn owes(round: &Round, debtor: Seat, owed: proto::Owed) -> Result<bool, String> {
        if owed != proto::Owed::Move {
            return Err("at an Archimedes table only a move can be owed".into());
        }
        Ok(round.outcome.is_none()
            && round.core.lie.is_none()
            && round
                .position
                .as_ref()
                .is_some_and(|p| round.seat(p.mover()) == debtor))
    }
    fn forfeit(round: &mut Round, claimant: Seat, seq: u32, notes: &mut Vec<Note>) {
        if round.outcome.is_none() && round.core.lie.is_none() {
            let outcome = Outcome {
                winner: Some(claimant),
                reason: Reason::Forfeit,
            };
            round.outcome = Some(outcome);
            round.core.ends.push((claimant, seq));
            notes.push(Note::Ended(outcome));
        }
    }
    fn says(settled: &Verdict, signed: &WireVerdict) -> bool {
        settled.said_by(signed)
    }
    fn describe(settled: &Verdict) -> String {
        settled.to_string()
    }
    fn verdict_lie(verdict: &Verdict) -> Option<&Lie> {
        match verdict {
            Verdict::Lie(lie) => Some(lie),
            Verdict::Decided(_) => None,
        }
    }
}

/// The observer of one Archimedes table.
pub type Table = Observer<Archimedes>;

fn idx(seat: Seat) -> usize {
    seat.index()
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
}
