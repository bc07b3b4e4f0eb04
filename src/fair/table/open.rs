//! A game with nothing hidden at the table (Archimedes, a toy in the tests): both peers' signed moves checked by the game's engine, in order, and how resignations, leaves and forfeits cross them.
//!
//! A game of this kind implements [`OpenGame`] (its board, its moves on the wire,
//! its end) and is played at the table as [`Open<Game>`]; everything else here is
//! the same for every such game. What it decides depends only on the frames and
//! their `seen` links:
//!
//! - a move must have seen the other side's last move (the turn order says it
//!   must);
//! - a resignation (or a leave) counts from the position its sender had seen: the
//!   one move of the other side it may not have seen yet is void;
//! - two resignations that crossed make a draw;
//! - in a game that has draw offers ([`OpenGame::draw_turn`]), the side to move may
//!   offer one a turn while no offer stands; the other accepts or declines it until
//!   its own next move, which lapses it. An acceptance counts from what its sender
//!   had seen: the offerer's moves it had not seen are void (the offerer stood by
//!   its offer while it moved on), and a resignation of the offerer's it had not
//!   seen makes the game the draw it offered;
//! - a game's end is settled once the other side has sent a frame that saw it, or
//!   ended the game too (nothing can cross it after that); its verdict, signed by
//!   each side, must say what the record says.
//!
//! Architecture invariant: as `fair::table` — no secrets, no clock, no IO; a
//! rejected frame changes nothing; a signed frame that breaks a rule is a lie.

use std::marker::PhantomData;

use armada_proto::{self as proto, Payload, WireVerdict};

use super::chain::Chain;
use super::observer::rounds;
use super::protocol::{covers, end_final, game_notes, knew_end};
use super::{ClaimState, Core, Heard, Lie, Observer, Rules};
use crate::fair::hash::Hash;
use crate::fair::wire;
use crate::rules::Seat;

/// A game whose whole state both sides see: its engine as the table needs it.
pub trait OpenGame: Copy + std::fmt::Debug + PartialEq + Eq + Send + Sync + 'static {
    /// The board and whose move it is.
    type Position: Clone + std::fmt::Debug + Send + Sync;
    type Move: Copy + std::fmt::Debug + std::fmt::Display + PartialEq + Eq + Send + Sync;
    /// A move as played: the move and what it did, as the record keeps it.
    type Played: Clone + std::fmt::Debug + PartialEq + Eq + Send + Sync;
    /// The two sides of the board: the first moves first.
    type Side: Copy + std::fmt::Debug + PartialEq + Eq + Send + Sync;
    /// Why the rules ended a game, in the words `verify` and the shells use.
    type End: Copy
        + std::fmt::Debug
        + std::fmt::Display
        + PartialEq
        + Eq
        + std::hash::Hash
        + Send
        + Sync;
    /// The side that moves first.
    const FIRST: Self::Side;
    /// The second side.
    const SECOND: Self::Side;
    /// The table in words, for a frame of another game ("an Archimedes table").
    const TABLE: &'static str;
    /// What a saved session of this game begins with.
    const MAGIC: [u8; 8];

    /// Whether the host's settings are this game's, within what its rules allow.
    fn check_settings(settings: &proto::Settings) -> Result<(), String>;
    /// The first position of game `id` at a table with these (checked) settings,
    /// `first` moving first (a game that binds something to the game or a seat
    /// keeps them).
    fn start(settings: &proto::Settings, id: &Hash, first: Seat) -> Result<Self::Position, String>;
    fn mover(position: &Self::Position) -> Self::Side;
    /// Whether a payload is one of this game's moves: the game it names, and its
    /// number (from 0, both sides counted together).
    fn moved(payload: &Payload) -> Option<(&Hash, u32)>;
    /// The move such a payload makes on `position`'s board (not yet checked).
    fn decode(payload: &Payload, position: &Self::Position) -> Result<Self::Move, String>;
    /// The payload of move `number` of game `game`.
    fn encode(game: Hash, number: u32, mv: Self::Move, position: &Self::Position) -> Payload;
    /// Whether `mv` is legal on `position`, and why not.
    fn check(position: &Self::Position, mv: Self::Move) -> Result<(), String>;
    /// Plays a legal move; `Err` (nothing changed) says why it is not.
    fn play(position: &mut Self::Position, mv: Self::Move) -> Result<Self::Played, String>;
    /// Whether the move played ended the game: the winning side (none: a draw) and why.
    fn ending(played: &Self::Played) -> Option<(Option<Self::Side>, Self::End)>;
    /// The number of the turn under way, if the side to move may offer a draw now
    /// (one offer a turn); `None`, the default: the game has no draw offers.
    fn draw_turn(position: &Self::Position) -> Option<u32> {
        let _ = position;
        None
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason<E> {
    /// By the game's rules.
    Rules(E),
    /// The loser resigned (or left the table).
    Resigned,
    /// Both resigned, and neither had seen the other's resignation: a draw.
    BothResigned,
    /// One offered a draw and the other accepted it.
    DrawAgreed,
    /// The loser owed a move past its deadline (a claim its next frame confirmed).
    Forfeit,
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome<E> {
    pub winner: Option<Seat>,
    pub reason: Reason<E>,
}

impl<E: std::fmt::Display> std::fmt::Display for Outcome<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Worded as the sea battle's endings are: who resigned or owed, by name.
        match (self.winner, &self.reason) {
            (Some(w), Reason::Rules(reason)) => write!(f, "the {w} wins: {reason}"),
            (Some(w), Reason::Resigned) => write!(f, "the {w} wins: the {} resigned", w.other()),
            (Some(w), Reason::Forfeit) => write!(
                f,
                "the {w} wins by forfeit: the {} owed a move past its deadline",
                w.other()
            ),
            (Some(w), Reason::BothResigned | Reason::DrawAgreed) => write!(f, "the {w} wins"),
            (None, Reason::Rules(reason)) => write!(f, "a draw: {reason}"),
            (None, Reason::BothResigned) => f.write_str("a draw: both resigned at once"),
            (None, Reason::DrawAgreed) => f.write_str("a draw, agreed by both"),
            (None, Reason::Resigned | Reason::Forfeit) => f.write_str("no winner"),
        }
    }
}

/// A game's settled outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<E> {
    /// No lie: the game ended so.
    Decided(Outcome<E>),
    /// A lie was proven; the liar lost.
    Lie(Lie),
}

impl<E> Verdict<E> {
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

impl<E: std::fmt::Display> std::fmt::Display for Verdict<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Decided(outcome) => outcome.fmt(f),
            Self::Lie(lie) => lie.fmt(f),
        }
    }
}

/// One move as the record keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<P> {
    pub seat: Seat,
    /// The mover's message.
    pub seq: u32,
    pub played: P,
}

game_notes! {
    /// What the observer learnt from one accepted frame.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Note<G: OpenGame> for Verdict<G::End> {
        /// Both nonces are in: game `number` has its id and starts; `first` moves first.
        Opened {
            number: u32,
            id: Hash,
            first: Seat,
        },
        Moved(Step<G::Played>),
        /// A move made void by a resignation (or a draw acceptance) that had not seen it.
        Undone(Step<G::Played>),
        /// The seat offers a draw.
        DrawOffered(Seat),
        /// The seat declined the other's draw offer.
        DrawDeclined(Seat),
        Ended(Outcome<G::End>),
    }
}

/// One game at the table: its board and moves.
#[derive(Clone, Debug)]
pub struct Round<G: OpenGame> {
    core: Core<Verdict<G::End>>,
    /// The board, once both nonces are in.
    position: Option<G::Position>,
    /// The board before each move of the last run of one side's moves (a game may
    /// let a side move several times in a row), to void those a resignation had not
    /// seen.
    before: Vec<G::Position>,
    /// After the end: the board as the moves that crossed it (void) left it, so each
    /// is still checked as the move it says; and how many there were.
    shadow: Option<G::Position>,
    voided: u32,
    steps: Vec<Step<G::Played>>,
    outcome: Option<Outcome<G::End>>,
    /// The draw offer that stands, if any.
    offer: Option<Offer>,
    /// The turn of each seat's last draw offer (one a turn).
    offered: [Option<u32>; 2],
}

/// A draw offer that stands: its maker, its frame and the move number it was made at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub seat: Seat,
    pub seq: u32,
    pub number: u32,
}

impl<G: OpenGame> Round<G> {
    fn side(&self, seat: Seat) -> G::Side {
        if seat == self.core.first {
            G::FIRST
        } else {
            G::SECOND
        }
    }

    /// Whether a frame of `from` that had seen up to `seen` saw the other side's
    /// last move (the turn order says a move or an offer must).
    fn saw_last(&self, from: Seat, seen: Option<u32>) -> bool {
        self.steps
            .last()
            .is_none_or(|last| last.seat == from || covers(seen, last.seq))
    }

    fn seat(&self, side: G::Side) -> Seat {
        if side == G::FIRST {
            self.core.first
        } else {
            self.core.first.other()
        }
    }
}

/// An open game's rules at a table.
#[derive(Clone, Copy, Debug)]
pub struct Open<G>(PhantomData<G>);

impl<G: OpenGame> Rules for Open<G> {
    rounds!(Round<G>, Verdict<G::End>, Note<G>);
    const UNFOUNDED: &'static str = "a forfeit claim, but the other peer owed no move";
    fn check_settings(settings: &proto::Settings) -> Result<(), String> {
        G::check_settings(settings)
    }
    fn new_round(_: &Observer<Self>, number: u32) -> Result<Round<G>, String> {
        Ok(Round {
            core: Core::new(number),
            position: None,
            before: Vec::new(),
            shadow: None,
            voided: 0,
            steps: Vec::new(),
            outcome: None,
            offer: None,
            offered: [None; 2],
        })
    }
    fn opened(
        round: &mut Round<G>,
        id: Hash,
        settings: &proto::Settings,
    ) -> Result<Note<G>, String> {
        G::check_settings(settings)?;
        round.position = Some(G::start(settings, &id, round.core.first)?);
        Ok(Note::Opened {
            number: round.core.number,
            id,
            first: round.core.first,
        })
    }
    fn game_move(payload: &Payload) -> bool {
        G::moved(payload).is_some()
            || matches!(
                payload,
                Payload::Resign { .. } | Payload::DrawOffer { .. } | Payload::DrawAnswer { .. }
            )
    }
    fn play(
        table: &mut Observer<Self>,
        frame: Heard<'_>,
        notes: &mut Vec<Note<G>>,
    ) -> Result<(), String> {
        if let Some((game, number)) = G::moved(frame.payload) {
            return table.play(frame, game, number, notes);
        }
        let Heard {
            from, seq, seen, ..
        } = frame;
        match frame.payload {
            Payload::Resign { game } => {
                let round = table.round_for(game)?;
                if round.position.is_none() {
                    return Err("a resignation before the game".into());
                }
                Observer::give_up(round, from, seq, seen, notes)
            }
            Payload::DrawOffer { game, number } => table.offer_draw(frame, game, *number, notes),
            Payload::DrawAnswer {
                game,
                number,
                accept,
            } => table.draw_answer(frame, game, (*number, *accept), notes),
            _ => Err(format!("another game's message at {}", G::TABLE)),
        }
    }
    fn after_frame(table: &mut Observer<Self>, notes: &mut Vec<Note<G>>) {
        table.resign_leaver(notes);
        table.try_settle(notes);
    }
    fn lie_in_game(table: &mut Observer<Self>, lie: &Lie, notes: &mut Vec<Note<G>>) -> bool {
        match table.round.as_mut() {
            Some(round) if round.core.settled.is_none() && round.position.is_some() => {
                if round.core.lie.is_none() {
                    round.core.lie = Some(lie.clone());
                    notes.push(Note::LieProven(lie.clone()));
                    Observer::settle(round, &table.ledger.chains, notes);
                }
                true
            }
            _ => false,
        }
    }
    fn settle(table: &mut Observer<Self>, notes: &mut Vec<Note<G>>) {
        table.try_settle(notes);
    }
    fn owes(round: &Round<G>, debtor: Seat, owed: proto::Owed) -> Result<bool, String> {
        if owed != proto::Owed::Move {
            return Err(format!("at {} only a move can be owed", G::TABLE));
        }
        Ok(round.outcome.is_none()
            && round.core.lie.is_none()
            && round
                .position
                .as_ref()
                .is_some_and(|p| round.seat(G::mover(p)) == debtor))
    }
    fn forfeit(round: &mut Round<G>, claimant: Seat, seq: u32, notes: &mut Vec<Note<G>>) {
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
    fn says(settled: &Verdict<G::End>, signed: &WireVerdict) -> bool {
        settled.said_by(signed)
    }
    fn describe(settled: &Verdict<G::End>) -> String {
        settled.to_string()
    }
    fn verdict_lie(verdict: &Verdict<G::End>) -> Option<&Lie> {
        match verdict {
            Verdict::Lie(lie) => Some(lie),
            Verdict::Decided(_) => None,
        }
    }
}

impl<G: OpenGame> Observer<Open<G>> {
    /// The verdict `seat` may sign now: the settled one, or the outcome its next
    /// frame settles (every frame that ended the game is the other side's, or was
    /// seen by it). `None` once signed.
    pub fn verdict_due(&self, seat: Seat) -> Option<Verdict<G::End>> {
        let round = self.round.as_ref()?;
        if round.core.verdicts[seat.index()].is_some() {
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
    pub fn position(&self) -> Option<&G::Position> {
        self.round.as_ref()?.position.as_ref()
    }

    /// The side `seat` commands in the current game.
    pub fn side(&self, seat: Seat) -> Option<G::Side> {
        self.round.as_ref().map(|r| r.side(seat))
    }

    /// The seat to move, while the current game runs.
    pub fn mover(&self) -> Option<Seat> {
        let round = self.round.as_ref()?;
        let position = round.position.as_ref()?;
        (round.outcome.is_none() && round.core.lie.is_none())
            .then(|| round.seat(G::mover(position)))
    }

    /// The draw offer that stands in the current game, while it runs.
    pub fn draw_offer(&self) -> Option<Offer> {
        let round = self.round.as_ref()?;
        round
            .offer
            .filter(|_| round.outcome.is_none() && round.core.lie.is_none())
    }

    /// Why `seat` may not offer a draw now, if it may not.
    pub fn draw_offer_refusal(&self, seat: Seat) -> Option<&'static str> {
        let Some(round) = self.round.as_ref() else {
            return Some("no game under way");
        };
        let position = round.position.as_ref();
        let turn = position.and_then(|p| G::draw_turn(p));
        if self.mover() != Some(seat) || turn.is_none() {
            Some("a draw may be offered only in your own turn of the game")
        } else if round.offered[seat.index()] == turn {
            Some("one draw offer a turn")
        } else if round.offer.is_some() {
            Some("the other side's offer stands: accept or decline it first")
        } else {
            None
        }
    }

    /// Moves of the current game made void by crossing its end (they count in the
    /// move numbers all the same).
    pub fn voided(&self) -> u32 {
        self.round.as_ref().map_or(0, |r| r.voided)
    }

    /// The moves of the current game.
    pub fn steps(&self) -> &[Step<G::Played>] {
        self.round.as_ref().map_or(&[], |r| &r.steps)
    }

    pub fn outcome(&self) -> Option<Outcome<G::End>> {
        self.round.as_ref()?.outcome
    }

    /// Whether the current game is over (ended, or a lie proven).
    pub fn ended(&self) -> bool {
        self.round
            .as_ref()
            .is_some_and(|r| r.outcome.is_some() || r.core.lie.is_some())
    }

    fn try_settle(&mut self, notes: &mut Vec<Note<G>>) {
        if let Some(round) = self.round.as_mut() {
            Self::settle(round, &self.ledger.chains, notes);
        }
    }

    /// Settles a game once nothing can change its end any more: at once for a lie;
    /// for an ending, once the other side of each frame that ended it has sent a
    /// frame that saw it.
    fn settle(round: &mut Round<G>, chains: &[Chain; 2], notes: &mut Vec<Note<G>>) {
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

    /// Move `number` of game `game`, in the frame `frame`.
    fn play(
        &mut self,
        frame: Heard<'_>,
        game: &Hash,
        number: u32,
        notes: &mut Vec<Note<G>>,
    ) -> Result<(), String> {
        let Heard {
            from, seq, seen, ..
        } = frame;
        if self.settings.is_none() {
            return Err("a move before the table's settings".into());
        }
        let round = self.round_for(game)?;
        let side = round.side(from);
        let position = round.position.as_ref().ok_or("a move before the game")?;
        let ended = round.outcome.is_some() || round.core.lie.is_some();
        // A move that crossed the end (its sender had not seen it) is void, but still
        // the move it says: checked on the board the void moves before it left.
        let board = if ended {
            round.shadow.as_ref().unwrap_or(position)
        } else {
            position
        };
        let mv = G::decode(frame.payload, board)?;
        if ended && knew_end(&round.core.ends, from, seen) {
            return Err(format!("a move ({mv}) after the game ended"));
        }
        if G::mover(board) != side {
            return Err(format!("a move ({mv}) out of turn"));
        }
        if !round.saw_last(from, seen) {
            return Err(format!(
                "a move ({mv}) made without seeing the other side's move"
            ));
        }
        let made = round.steps.len() as u32 + round.voided;
        if number != made {
            return Err(format!("move number {number}, but {made} moves were made"));
        }
        let mut after = board.clone();
        let played = G::play(&mut after, mv).map_err(|e| format!("an illegal move {mv}: {e}"))?;
        if ended {
            round.shadow = Some(after);
            round.voided += 1;
            notes.push(Note::Void);
            return Ok(());
        }
        if round.steps.last().is_some_and(|last| last.seat != from) {
            round.before.clear();
        }
        // Moving is declining: the other side's offer lapses.
        if round.offer.is_some_and(|o| o.seat != from) {
            round.offer = None;
        }
        if let Some(previous) = round.position.replace(after) {
            round.before.push(previous);
        }
        let step = Step {
            seat: from,
            seq,
            played,
        };
        notes.push(Note::Moved(step.clone()));
        if let Some((winner, end)) = G::ending(&step.played) {
            let outcome = Outcome {
                winner: winner.map(|side| round.seat(side)),
                reason: Reason::Rules(end),
            };
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
        round: &mut Round<G>,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        notes: &mut Vec<Note<G>>,
    ) -> Result<(), String> {
        if round.core.lie.is_some() {
            notes.push(Note::Void);
            return Ok(());
        }
        if round.outcome.is_some() && knew_end(&round.core.ends, from, seen) {
            return Err("a resignation after the game ended".into());
        }
        Self::void_unseen(round, from, seen, notes);
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

    /// Voids the other side's moves that `from`'s frame (ending the game) had not
    /// seen: where that frame arrived first, they came after the end. Only the last
    /// run of that side's moves can be unseen, since each of its moves saw this
    /// side's. The void moves stay on the shadow board, as if they had crossed it.
    fn void_unseen(round: &mut Round<G>, from: Seat, seen: Option<u32>, notes: &mut Vec<Note<G>>) {
        let latest = round.position.clone();
        let mut undone = 0;
        while let Some(last) = round.steps.last()
            && last.seat != from
            && !covers(seen, last.seq)
            && let Some(before) = round.before.pop()
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
            undone += 1;
        }
        if undone > 0 {
            if round.shadow.is_none() {
                round.shadow = latest;
            }
            round.voided += undone;
        }
    }

    /// A draw offer by the side to move, once a turn, while no offer stands.
    fn offer_draw(
        &mut self,
        frame: Heard<'_>,
        game: &Hash,
        number: u32,
        notes: &mut Vec<Note<G>>,
    ) -> Result<(), String> {
        let Heard {
            from, seq, seen, ..
        } = frame;
        let round = self.round_for(game)?;
        let position = round
            .position
            .as_ref()
            .ok_or("a draw offer before the game")?;
        if round.core.lie.is_some() || round.outcome.is_some() {
            if round.core.lie.is_none() && knew_end(&round.core.ends, from, seen) {
                return Err("a draw offer after the game ended".into());
            }
            // It crossed the end: it lapsed with the game.
            notes.push(Note::Void);
            return Ok(());
        }
        let turn = G::draw_turn(position)
            .ok_or_else(|| format!("a draw offer where {} has none", G::TABLE))?;
        if round.seat(G::mover(position)) != from {
            return Err("a draw offer out of turn".into());
        }
        if !round.saw_last(from, seen) {
            return Err("a draw offer made without seeing the other side's move".into());
        }
        let made = round.steps.len() as u32 + round.voided;
        if number != made {
            return Err(format!(
                "a draw offer at move number {number}, but {made} moves were made"
            ));
        }
        if round.offered[from.index()] == Some(turn) {
            return Err("a second draw offer in one turn".into());
        }
        if round.offer.is_some() {
            return Err("a draw offer while the other side's offer stands".into());
        }
        round.offer = Some(Offer {
            seat: from,
            seq,
            number,
        });
        round.offered[from.index()] = Some(turn);
        notes.push(Note::DrawOffered(from));
        Ok(())
    }

    /// The answer to the other side's standing draw offer; an acceptance ends the
    /// game in a draw, counting from what its sender had seen.
    fn draw_answer(
        &mut self,
        frame: Heard<'_>,
        game: &Hash,
        (number, accept): (u32, bool),
        notes: &mut Vec<Note<G>>,
    ) -> Result<(), String> {
        let Heard {
            from, seq, seen, ..
        } = frame;
        let round = self.round_for(game)?;
        if round.position.is_none() {
            return Err("a draw answer before the game".into());
        }
        if round.core.lie.is_some() {
            notes.push(Note::Void);
            return Ok(());
        }
        let offer = round
            .offer
            .filter(|o| o.seat == from.other() && o.number == number)
            .ok_or("an answer to a draw offer that was not made")?;
        if !covers(seen, offer.seq) {
            return Err("an answer to a draw offer its sender had not seen".into());
        }
        if round.outcome.is_some() && knew_end(&round.core.ends, from, seen) {
            return Err("a draw answer after the game ended".into());
        }
        if !accept {
            if round.outcome.is_some() {
                notes.push(Note::Void);
            } else {
                round.offer = None;
                notes.push(Note::DrawDeclined(from));
            }
            return Ok(());
        }
        Self::void_unseen(round, from, seen, notes);
        match round.outcome {
            // Nothing else ended it, or only the offerer's resignation that the
            // acceptance had not seen: the draw it offered.
            None
            | Some(Outcome {
                reason: Reason::Resigned,
                ..
            }) => {}
            // A confirmed forfeit: the acceptance came too late.
            Some(_) => {
                notes.push(Note::Void);
                return Ok(());
            }
        }
        let outcome = Outcome {
            winner: None,
            reason: Reason::DrawAgreed,
        };
        round.offer = None;
        round.outcome = Some(outcome);
        round.core.ends.push((from, seq));
        notes.push(Note::Ended(outcome));
        Ok(())
    }

    /// Leaving a game under way is resigning it, once the leaver's own forfeit claim
    /// (if one waits) is decided; the leave's `seen` says what it had seen.
    fn resign_leaver(&mut self, notes: &mut Vec<Note<G>>) {
        for i in 0..self.leavers.len() {
            let leaver = self.leavers[i];
            let chain = &self.ledger.chains[leaver.index()];
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
