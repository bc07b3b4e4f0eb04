//! One game at the table: its round (nonces, commitments, the game, the pending
//! action, draws, the end, reveals, claims, verdicts) and the checks of each game
//! message: actions, answers, reveals, settlement.

use armada_proto as proto;

use super::Core;

use crate::fair::commit::{Binding, root_of};
use crate::fair::hash::Hash;
use crate::fair::shared::{contribution_commitment, shell_order, strike_number, timeout_cell};
use crate::rules::{
    Action, ActionError, CellSet, Chart, Consistency, Content, Coord, Facts, Fleet, Game, Recorder,
    Sea, SeaError, Seat, Variant, fit_fleet,
};

use super::{
    ClaimState, FIT_BUDGET, HashSet, Lie, Note, Pending, Played, Table, Verdict, idx, knew_end,
    wire,
};

#[derive(Clone, Debug)]
pub(super) struct Commit {
    pub(super) fleet: Hash,
    pub(super) contributions: Vec<Hash>,
}

/// A draw acceptance. It binds the acceptor until the offerer's frame that decides
/// it: the first that saw it confirms the draw; an `Act` or `Resign` that crossed it
/// makes it lapse. Both are told by `seen`, so every order of frames agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Acceptance {
    pub(super) acceptor: Seat,
    pub(super) seq: u32,
    /// The offerer's frame that crossed the acceptance: it lapsed there.
    pub(super) lapsed_by: Option<u32>,
    /// The offerer's frame that saw it: the draw stands from there.
    pub(super) confirmed_by: Option<u32>,
}

impl Acceptance {
    pub(super) fn waiting(&self) -> bool {
        self.lapsed_by.is_none() && self.confirmed_by.is_none()
    }
}

#[derive(Clone, Debug)]
pub struct Round {
    pub(super) core: Core<Verdict>,
    pub(super) variant: Variant,
    pub(super) commits: [Option<Commit>; 2],
    pub(super) game: Option<Game>,
    /// Whether the move timer runs in this game (the host's `Start` says).
    pub(super) timer: bool,
    pub(super) pending: Option<Pending>,
    /// Cells each attacker's radar proved: (decks, water).
    pub(super) seen: [(CellSet, CellSet); 2],
    pub(super) history: Vec<Played>,
    /// The seat and seq of the newest draw offer.
    pub(super) offer: Option<(Seat, u32)>,
    /// The newest draw acceptance, waiting for the offerer, or decided.
    pub(super) accept: Option<Acceptance>,
    pub(super) reveals: [Option<Fleet>; 2],
    /// Whether each seat sent its reveal (good or not).
    pub(super) revealed: [bool; 2],
}

impl Round {
    /// Whether `revealed` is what `seat` (with public key `key`) committed to for `strike`.
    pub(super) fn check_contribution(
        &self,
        key: &Hash,
        seat: Seat,
        strike: u8,
        revealed: &Hash,
    ) -> Result<(), String> {
        let id = self.core.id.unwrap_or_default();
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

impl Table {
    pub(super) fn new_round(&self, number: u32) -> Result<Round, String> {
        let settings = self.settings.ok_or("a game before the table's settings")?;
        let variant = wire::variant(settings.game).map_err(|e| e.to_string())?;
        Ok(Round {
            core: Core::new(number),
            variant,
            commits: [None, None],
            game: None,
            timer: false,
            pending: None,
            seen: [(CellSet::EMPTY, CellSet::EMPTY); 2],
            history: Vec::new(),
            offer: None,
            accept: None,
            reveals: [None, None],
            revealed: [false; 2],
        })
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn act(
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
        let key = self.ledger.keys[idx(from)].unwrap_or_default();
        let round = self.round_for(game)?;
        let id = round.core.id.unwrap_or_default();
        let g = round.game.as_ref().ok_or("an action before the start")?;
        if g.is_over() {
            if !knew_end(&round.core.ends, from, seen) {
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
            timeout,
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
    pub(super) fn answer(
        &mut self,
        from: Seat,
        seq: u32,
        seen: Option<u32>,
        (game, number, openings, contribution): (&Hash, u32, &[proto::WireOpening], Option<Hash>),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let key = self.ledger.keys[idx(from)].unwrap_or_default();
        let own_answer = self.ledger.own == Some(from);
        let round = self.round_for(game)?;
        let id = round.core.id.unwrap_or_default();
        let g = round.game.as_ref().ok_or("an answer before the start")?;
        if g.is_over() {
            if !knew_end(&round.core.ends, from, seen) {
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
            timeout: pending.timeout,
            before,
        });
        round.game = Some(game);
        round.pending = None;
        let ending = report.ending;
        notes.push(Note::Resolved {
            seat: attacker,
            number,
            report,
            timeout: pending.timeout,
        });
        if let Some(ending) = ending {
            round.core.ends.push((from, seq));
            notes.push(Note::Ended(ending));
        }
        Ok(())
    }

    #[allow(clippy::type_complexity)]
    pub(super) fn reveal(
        &mut self,
        from: Seat,
        seen: Option<u32>,
        (game, ships, salts, contributions): (&Hash, &[proto::WireShip], &[[u8; 16]], &[Hash]),
        notes: &mut Vec<Note>,
    ) -> Result<(), String> {
        let key = self.ledger.keys[idx(from)].unwrap_or_default();
        let round = self.round_for(game)?;
        let id = round.core.id.unwrap_or_default();
        // Over as its sender knew it: it sent or had seen a frame that ended the game
        // (before the start, a proven lie ends the round with nothing to play).
        let over = match &round.game {
            Some(game) => game.is_over() && knew_end(&round.core.ends, from, seen),
            None => round.core.lie.is_some(),
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

    pub(super) fn try_settle(round: &mut Round, notes: &mut Vec<Note>) {
        if round.core.settled.is_some() {
            return;
        }
        let claim = round
            .core
            .claim
            .filter(|c| c.state == ClaimState::Confirmed);
        let revealed = round.revealed.iter().all(|r| *r);
        let ending = round.game.as_ref().and_then(Game::ending);
        let started = round.game.is_some();
        let verdict = match (&round.core.lie, claim, ending) {
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
        round.core.settled = Some(verdict.clone());
        notes.push(Note::Settled(verdict));
    }
}

/// Whether `debtor` owes `owed` in this round, as things stand.
pub(super) fn owes(round: &Round, debtor: Seat, owed: proto::Owed) -> bool {
    let game = round.game.as_ref();
    let over = game.is_some_and(Game::is_over) || round.core.lie.is_some();
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
pub(super) fn says(wire: &proto::WireVerdict, settled: &Verdict) -> bool {
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

pub(super) fn describe(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Honest(ending) => match ending.winner {
            Some(winner) => format!("honest, the {winner} won"),
            None => "honest, no winner".into(),
        },
        Verdict::Lie(lie) => lie.to_string(),
        Verdict::Incomplete(why) => format!("incomplete: {why}"),
    }
}

/// The attacker's view of the enemy sea: checked openings and nothing else.
#[derive(Clone, Debug)]
pub(super) struct Openings(Vec<(Coord, Content)>);

impl Sea for Openings {
    fn look(&mut self, cell: Coord, _chart: &Chart) -> Result<Content, SeaError> {
        self.0
            .iter()
            .find(|(c, _)| *c == cell)
            .map(|(_, content)| *content)
            .ok_or(SeaError::Unknown(cell))
    }
}
