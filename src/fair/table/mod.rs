//! The table as any observer sees it: every frame of both peers checked, in order, without any secret.
//!
//! Both sessions and `armada verify` run this same code: a session feeds it the
//! frames it sends and receives; the verifier feeds it a saved transcript. What
//! it decides depends only on the frames and their `seen` links, never on the
//! order two crossing frames happened to arrive in, so all three agree.
//!
//! Architecture invariant: no secrets, no clock, no IO; a frame it rejects
//! changes nothing, and a signed frame that breaks a rule is named as a lie.

pub(crate) mod chain;
mod claims;
mod crossings;
pub(crate) mod observer;
pub mod open;
pub(crate) mod protocol;
mod round;
mod vocab;

use std::collections::HashSet;

use observer::rounds;
pub use observer::{Core, Observer, Rules};
pub use protocol::{Heard, TableNote, TableNotes};
use protocol::{covers, knew_end};
use round::{Acceptance, Commit, Round, describe, owes, says};
pub use vocab::{
    ClaimState, ForfeitClaim, Lie, Note, Pending, Played, Rejected, Verdict, owed_in_words,
};

use armada_proto::{self as proto, Payload};

use crate::fair::hash::{Hash, label, labelled};
use crate::fair::shared::STRIKES;
use crate::rules::{CellSet, Fleet, Game, Seat, Variant};

use super::wire;

/// Positions the consistency search may try after one answer before it gives up
/// (undecided, not a lie). Honest games stay far below it.
const FIT_BUDGET: u32 = 200_000;
/// The move timer, as RULES.md fixes it.
pub const MOVE_MS: u32 = 15_000;

/// The sea battle's rules at a table: a round is one game's commitments, actions,
/// answers and reveals.
#[derive(Clone, Copy, Debug)]
pub struct Sea;

impl Rules for Sea {
    rounds!(Round, Verdict, Note);
    const UNFOUNDED: &'static str = "a forfeit claim, but the other peer owed nothing of the kind";
    fn check_settings(settings: &proto::Settings) -> Result<(), String> {
        wire::variant(settings.game).map_err(|e| e.to_string())?;
        // RULES.md fixes the move timer at 15 s; the other deadlines must let a game
        // be played, and must not let a peer stall for days.
        let bounded = |ms: u32, low: u32, high: u32| (low..=high).contains(&ms);
        if settings.move_ms != MOVE_MS
            || !bounded(settings.answer_ms, 100, 120_000)
            || !bounded(settings.reveal_ms, 100, 600_000)
            || !bounded(settings.grace_ms, 0, 600_000)
        {
            return Err("the table's deadlines are outside what the rules allow".into());
        }
        Ok(())
    }
    fn new_round(table: &Table, number: u32) -> Result<Round, String> {
        table.new_round(number)
    }
    fn opened(round: &mut Round, id: Hash, _: &proto::Settings) -> Result<Note, String> {
        Ok(Note::GameOpened {
            number: round.core.number,
            id,
            variant: round.variant,
            first: round.core.first,
        })
    }
    fn game_move(payload: &Payload) -> bool {
        matches!(
            payload,
            Payload::Act { .. }
                | Payload::Answer { .. }
                | Payload::DrawOffer { .. }
                | Payload::DrawAnswer { .. }
                | Payload::Resign { .. }
        )
    }
    fn first_look(
        table: &mut Table,
        frame: Heard<'_>,
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        table.take_acceptance(frame, notes)
    }
    fn play(table: &mut Table, frame: Heard<'_>, notes: &mut Vec<Note>) -> Result<(), String> {
        table.play(frame, notes)
    }
    fn left(table: &mut Table, from: Seat, seq: u32, seen: Option<u32>, notes: &mut Vec<Note>) {
        // Leaving a game under way is resigning it (see `resign_leaver`); a leave
        // that crossed the other's resignation makes two that crossed.
        if let Some(round) = table.round.as_mut()
            && let Some(g) = round.game.as_mut()
            && g.is_over()
            && !knew_end(&round.core.ends, from, seen)
            && g.ending()
                .is_some_and(|e| e.reason == crate::rules::EndReason::Resigned)
        {
            let ending = g.mutual_resignation();
            round.core.ends.push((from, seq));
            notes.push(Note::Ended(ending));
        }
    }
    fn after_frame(table: &mut Table, notes: &mut Vec<Note>) {
        table.resign_leaver(notes);
    }
    fn lie_in_game(table: &mut Table, lie: &Lie, notes: &mut Vec<Note>) -> bool {
        match table.round.as_mut() {
            // A round takes lies once it opened (both nonces in): before, whether it
            // exists at all depends on the order the requests for it arrived in.
            Some(round) if round.core.id.is_none() => false,
            Some(round) if round.core.lie.is_none() && round.core.settled.is_none() => {
                round.core.lie = Some(lie.clone());
                if let Some(game) = round.game.as_mut()
                    && !game.is_over()
                {
                    round.pending = None;
                    if let Ok(ending) = game.forfeit(lie.liar) {
                        round.core.ends.push((lie.liar, lie.seq));
                        notes.push(Note::Ended(ending));
                    }
                }
                notes.push(Note::LieProven(lie.clone()));
                Table::try_settle(round, notes);
                true
            }
            // A lie already stands: a later one (a bad reveal after it, say) still
            // completes what the round was waiting for.
            Some(round) if round.core.settled.is_none() => {
                Table::try_settle(round, notes);
                true
            }
            // After the settlement a lie is kept at table level, never dropped.
            Some(_) | None => false,
        }
    }
    fn settle(table: &mut Table, notes: &mut Vec<Note>) {
        if let Some(round) = table.round.as_mut() {
            Table::try_settle(round, notes);
        }
    }
    fn owes(round: &Round, debtor: Seat, owed: proto::Owed) -> Result<bool, String> {
        Ok(owes(round, debtor, owed))
    }
    fn forfeit(round: &mut Round, claimant: Seat, seq: u32, notes: &mut Vec<Note>) {
        if let Some(g) = round.game.as_mut()
            && !g.is_over()
            && let Ok(ending) = g.forfeit(claimant.other())
        {
            round.pending = None;
            round.core.ends.push((claimant, seq));
            notes.push(Note::Ended(ending));
        }
        Table::try_settle(round, notes);
    }
    fn says(settled: &Verdict, signed: &proto::WireVerdict) -> bool {
        says(signed, settled)
    }
    fn describe(settled: &Verdict) -> String {
        describe(settled)
    }
    fn verdict_lie(verdict: &Verdict) -> Option<&Lie> {
        match verdict {
            Verdict::Lie(lie) => Some(lie),
            _ => None,
        }
    }
}

/// The observer of one sea-battle table.
pub type Table = Observer<Sea>;

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
    pub fn game(&self) -> Option<&Game> {
        self.round.as_ref()?.game.as_ref()
    }

    /// Whether the move timer runs in the current game (false before its start).
    pub fn timer(&self) -> bool {
        self.round
            .as_ref()
            .is_some_and(|r| r.game.is_some() && r.timer)
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

    pub fn history(&self) -> &[Played] {
        self.round.as_ref().map_or(&[], |r| &r.history)
    }

    /// The fleet `seat` revealed in the current game, if its reveal checked out.
    pub fn revealed_fleet(&self, seat: Seat) -> Option<&Fleet> {
        self.round.as_ref()?.reveals[idx(seat)].as_ref()
    }

    /// Radar knowledge of `attacker` about the enemy board: (decks, water).
    pub fn radar_seen(&self, attacker: Seat) -> (CellSet, CellSet) {
        self.round
            .as_ref()
            .map_or((CellSet::EMPTY, CellSet::EMPTY), |r| r.seen[idx(attacker)])
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
            let leave = self.ledger.chains[idx(leaver)].next().saturating_sub(1);
            // The other's leave, if neither leave had seen the other: two resignations
            // that crossed, whichever of them could take effect first here.
            let other = leaver.other();
            let other_leave = self.ledger.chains[idx(other)].next().saturating_sub(1);
            let crossing = self.left(other)
                && !covers(self.ledger.chains[idx(leaver)].seen, other_leave)
                && !covers(self.ledger.chains[idx(other)].seen, leave);
            let Some(round) = self.round.as_mut() else {
                return;
            };
            // Who accepted a draw is bound by it: its leave resigns only if the
            // acceptance lapses; the offerer's confirmation makes the game a draw.
            let waits = round
                .core
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
                round.core.ends.push((leaver, leave));
                let ending = if crossing {
                    round.core.ends.push((other, other_leave));
                    game.mutual_resignation()
                } else {
                    ending
                };
                notes.push(Note::Ended(ending));
                return;
            }
        }
    }

    /// A frame of the sea battle's own: commitments, the start, actions and answers,
    /// draws, resignations and reveals.
    fn play(&mut self, frame: Heard<'_>, notes: &mut Vec<Note>) -> Result<(), String> {
        let (from, seq, seen) = (frame.from, frame.seq, frame.seen);
        match frame.payload {
            Payload::Commit {
                game,
                fleet,
                contributions,
            } => self.commit(from, game, *fleet, contributions, notes)?,
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
                round.game = Some(Game::new(round.variant, round.core.first, true));
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
                    (seq, frame.prev),
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
                self.draw_offer(from, seq, seen, game, *number, notes)?;
            }
            Payload::DrawAnswer {
                game,
                number,
                accept,
            } => self.draw_answer(from, seq, seen, (game, *number, *accept), notes)?,
            Payload::Resign { game } => self.resign(from, seq, seen, game, notes)?,
            Payload::Reveal {
                game,
                ships,
                salts,
                contributions,
            } => {
                self.reveal(from, seen, (game, ships, salts, contributions), notes)?;
            }
            _ => return Err("an Archimedes move at a sea battle's table".into()),
        }
        Ok(())
    }

    /// `from` commits to its fleet (and its air-strike contributions) in `game`.
    fn commit(
        &mut self,
        from: Seat,
        game: &Hash,
        fleet: Hash,
        contributions: &[Hash],
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
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
            let copied = other.fleet == fleet
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
            fleet,
            contributions: contributions.to_vec(),
        });
        notes.push(Note::Committed(from));
        Ok(())
    }
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
