//! Offline verification of a saved table: every frame re-checked, every game's record, one verdict.
//!
//! Architecture invariant: runs the very same [`Table`] the sessions ran; it adds
//! no rule of its own, only reads the transcript and reports.

use armada_proto::{self as proto, Transcript};
use std::collections::HashMap;

use serde_json::{Value, json};

use super::archimedes as arch_table;
use super::sign::frame_hash;
use super::table::{ClaimState, ForfeitClaim, Lie, Note, Table, Verdict};
use super::wire;
use crate::rules::{
    Action, Effect, EndReason, Ending, Fleet, Report as ActionReport, Seat, Variant,
};

/// What `armada verify` concludes, with its exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every game complete and every answer honest: exit 0.
    Honest,
    /// A lie proven: exit 1.
    Lie(Lie),
    /// The file cannot be read as a transcript: exit 2.
    Malformed(String),
    /// No reveal, a forfeit claimed, or the table stopped mid-game: exit 3.
    Incomplete(String),
}

impl Outcome {
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Honest => 0,
            Self::Lie(_) => 1,
            Self::Malformed(_) => 2,
            Self::Incomplete(_) => 3,
        }
    }
}

/// One action as the record keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub seat: Seat,
    pub number: u32,
    pub timeout: bool,
    pub report: ActionReport,
}

/// One game of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub number: u32,
    /// The game's id (both nonces in).
    pub id: [u8; 32],
    pub variant: Variant,
    pub first: Seat,
    /// Whether the move timer ran (`None`: the game never started).
    pub timer: Option<bool>,
    pub moves: Vec<Move>,
    pub ending: Option<Ending>,
    pub fleets: [Option<Fleet>; 2],
    pub verdict: Option<Verdict>,
    /// A forfeit claim that was not refuted.
    pub claim: Option<ForfeitClaim>,
}

/// One Archimedes game of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchimedesRecord {
    pub number: u32,
    pub id: [u8; 32],
    pub first: Seat,
    pub moves: Vec<arch_table::Step>,
    pub outcome: Option<arch_table::Outcome>,
    pub verdict: Option<arch_table::Verdict>,
    /// A forfeit claim stands against the game (it was not refuted).
    pub claimed: bool,
}

/// Everything verification found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub table: Option<[u8; 32]>,
    pub settings: Option<proto::Settings>,
    pub games: Vec<GameRecord>,
    /// The games of an Archimedes table (empty at a sea battle's).
    pub archimedes: Vec<ArchimedesRecord>,
    /// Whether each seat (host, guest) left the table: its play is over.
    pub left: [bool; 2],
    pub outcome: Outcome,
}

/// Verifies a transcript file's bytes.
pub fn verify(bytes: &[u8]) -> Report {
    let transcript: Transcript = match proto::decode_transcript(bytes) {
        Ok(t) => t,
        Err(e) => return Report::malformed(e.to_string()),
    };
    let order =
        canonical(&transcript.frames).unwrap_or_else(|| (0..transcript.frames.len()).collect());
    if is_archimedes(&transcript) {
        return verify_archimedes(&transcript, &order);
    }
    let mut table = Table::new(transcript.table);
    let mut games: Vec<GameRecord> = Vec::new();
    for i in order {
        let frame = &transcript.frames[i];
        let from = wire::from_seat(frame.from);
        let notes = match table.receive(from, &frame.bytes) {
            Ok(notes) => notes,
            Err(e) => {
                let mut report = Report::malformed(format!("frame {i} (from the {from}): {e}"));
                report.table = Some(transcript.table);
                return report;
            }
        };
        for note in notes {
            match note {
                Note::GameOpened {
                    number,
                    id,
                    variant,
                    first,
                } => games.push(GameRecord {
                    number,
                    id,
                    variant,
                    first,
                    timer: None,
                    moves: Vec::new(),
                    ending: None,
                    fleets: [None, None],
                    verdict: None,
                    claim: None,
                }),
                Note::Started { timer } => {
                    if let Some(game) = games.last_mut() {
                        game.timer = Some(timer);
                    }
                }
                Note::Resolved {
                    seat,
                    number,
                    report,
                    timeout,
                } => {
                    if let Some(game) = games.last_mut() {
                        game.moves.push(Move {
                            seat,
                            number,
                            timeout,
                            report,
                        });
                    }
                }
                Note::Ended(ending) => {
                    if let Some(game) = games.last_mut() {
                        game.ending = Some(ending);
                    }
                }
                Note::Revealed(seat) => {
                    if let Some(game) = games.last_mut() {
                        game.fleets[seat.index()] = table.revealed_fleet(seat).cloned();
                    }
                }
                Note::Settled(verdict) => {
                    if let Some(game) = games.last_mut() {
                        game.verdict = Some(verdict);
                    }
                }
                Note::ForfeitClaimed { .. } | Note::ClaimRefuted { .. } => {
                    if let Some(game) = games.last_mut() {
                        game.claim = table.claim().filter(|c| c.state != ClaimState::Refuted);
                    }
                }
                _ => {}
            }
        }
    }
    let outcome = outcome(&table, &games);
    Report {
        table: Some(transcript.table),
        settings: table.settings(),
        games,
        archimedes: Vec::new(),
        left: Seat::BOTH.map(|seat| table.left(seat)),
        outcome,
    }
}

/// Whether the table's settings (the host's, in its first frames) say Archimedes:
/// read from the first host frame that carries settings, not from every frame.
fn is_archimedes(transcript: &Transcript) -> bool {
    transcript
        .frames
        .iter()
        .filter(|saved| saved.from == proto::Seat::Host)
        .find_map(
            |saved| match proto::Frame::decode(&saved.bytes).ok()?.body.payload {
                proto::Payload::Settings(settings) => Some(settings.game),
                _ => None,
            },
        )
        .is_some_and(|game| matches!(game, proto::GameKind::Archimedes { .. }))
}

/// An Archimedes table's transcript through a fresh [`arch_table::Table`], in `order`.
fn verify_archimedes(transcript: &Transcript, order: &[usize]) -> Report {
    let mut table = arch_table::Table::new(transcript.table);
    let mut games: Vec<ArchimedesRecord> = Vec::new();
    let mut report = Report {
        table: Some(transcript.table),
        settings: None,
        games: Vec::new(),
        archimedes: Vec::new(),
        left: [false; 2],
        outcome: Outcome::Honest,
    };
    for &i in order {
        let frame = &transcript.frames[i];
        let from = wire::from_seat(frame.from);
        let notes = match table.receive(from, &frame.bytes) {
            Ok(notes) => notes,
            Err(e) => {
                report.outcome = Outcome::Malformed(format!("frame {i} (from the {from}): {e}"));
                return report;
            }
        };
        for note in notes {
            let game = games.last_mut();
            match (note, game) {
                (arch_table::Note::Opened { number, id, first }, _) => {
                    games.push(ArchimedesRecord {
                        number,
                        id,
                        first,
                        moves: Vec::new(),
                        outcome: None,
                        verdict: None,
                        claimed: false,
                    });
                }
                (arch_table::Note::Moved(step), Some(game)) => game.moves.push(step),
                (arch_table::Note::Undone(_), Some(game)) => {
                    game.moves.pop();
                    game.outcome = None;
                }
                (arch_table::Note::Ended(outcome), Some(game)) => game.outcome = Some(outcome),
                (arch_table::Note::Settled(verdict), Some(game)) => game.verdict = Some(verdict),
                (arch_table::Note::ForfeitClaimed { .. }, Some(game)) => game.claimed = true,
                (arch_table::Note::ClaimRefuted { .. }, Some(game)) => game.claimed = false,
                _ => {}
            }
        }
    }
    report.settings = table.settings();
    report.left = Seat::BOTH.map(|seat| table.left(seat));
    report.outcome = if let Some(lie) = table.first_lie() {
        Outcome::Lie(lie)
    } else if games.is_empty() {
        Outcome::Incomplete("no game was played".into())
    } else if let Some(open) = games.iter().find(|g| g.verdict.is_none()) {
        Outcome::Incomplete(match table.pending_claim() {
            Some(claim) => format!(
                "game {}: {}, and the transcript ends before the {} answered the claim",
                open.number + 1,
                claim.reason(),
                claim.claimant.other()
            ),
            None => format!(
                "game {} has no result: the transcript stops before its end was settled",
                open.number + 1
            ),
        })
    } else {
        Outcome::Honest
    };
    report.archimedes = games;
    report
}

/// The frames' canonical order (PROTOCOL §7): each chain in `seq` order, every frame
/// after the frame its `seen` names, and of two frames that could go next the host's
/// first — the order the host's own table took them in. Any legal order of the same
/// frames gives this one, so the record does not hang on which player saved the file.
/// `None` when the frames do not form two whole chains (a gap, a repeat, a link to
/// nothing, an undecodable frame): they are then taken in the file's order, and its
/// first fault is what `verify` reports.
fn canonical(frames: &[proto::SavedFrame]) -> Option<Vec<usize>> {
    let mut chains: [Vec<(usize, [u8; 32])>; 2] = [Vec::new(), Vec::new()];
    let mut at: [HashMap<[u8; 32], usize>; 2] = [HashMap::new(), HashMap::new()];
    for (i, saved) in frames.iter().enumerate() {
        let seat = wire::from_seat(saved.from).index();
        let body = proto::Frame::decode(&saved.bytes).ok()?.body;
        if body.seq as usize != chains[seat].len() {
            return None;
        }
        at[seat].insert(frame_hash(&saved.bytes), chains[seat].len());
        chains[seat].push((i, body.seen));
    }
    // Where each frame's `seen` points in the other chain (None: nothing seen yet).
    let mut seen: [Vec<Option<usize>>; 2] = [Vec::new(), Vec::new()];
    for seat in 0..2 {
        for (_, hash) in &chains[seat] {
            seen[seat].push(if *hash == [0; 32] {
                None
            } else {
                Some(*at[1 - seat].get(hash)?)
            });
        }
    }
    let mut next = [0usize; 2];
    let mut order = Vec::with_capacity(frames.len());
    while order.len() < frames.len() {
        let ready = |seat: usize| {
            next[seat] < chains[seat].len()
                && seen[seat][next[seat]].is_none_or(|k| k < next[1 - seat])
        };
        let seat = if ready(0) {
            0
        } else if ready(1) {
            1
        } else {
            return None;
        };
        order.push(chains[seat][next[seat]].0);
        next[seat] += 1;
    }
    Some(order)
}

/// The table's outcome: the first lie, else the first game without an honest result.
fn outcome(table: &Table, games: &[GameRecord]) -> Outcome {
    if let Some(lie) = table.first_lie() {
        return Outcome::Lie(lie);
    }
    if games.is_empty() {
        return Outcome::Incomplete("no game was played".into());
    }
    let Some(open) = games
        .iter()
        .find(|g| !matches!(g.verdict, Some(Verdict::Honest(_))))
    else {
        return Outcome::Honest;
    };
    let number = open.number + 1;
    Outcome::Incomplete(match (&open.verdict, open.claim) {
        (Some(Verdict::Incomplete(why)), _) => format!("game {number}: {why}"),
        (_, Some(claim)) => format!(
            "game {number}: {}, and the transcript ends before the {} answered the claim",
            claim.reason(),
            claim.claimant.other(),
        ),
        _ => format!("game {number} has no result: the transcript stops before both reveals"),
    })
}

fn effect_cells(effect: &Effect, finished: bool) -> Vec<Value> {
    match *effect {
        Effect::Miss(cell) => vec![json!({"cell": cell.to_string(), "result": "miss"})],
        Effect::Hit(cell) => vec![json!({"cell": cell.to_string(), "result": "hit"})],
        Effect::Lost(cell) => vec![json!({"cell": cell.to_string(), "result": "lost"})],
        Effect::Sunk { ship, ring, .. } => ship
            .iter()
            .map(|c| json!({"cell": c.to_string(), "result": "wreck"}))
            .chain(
                ring.iter()
                    .map(|c| json!({"cell": c.to_string(), "result": "ring"})),
            )
            .collect(),
        Effect::Scanned { cell, deck } => {
            let seen = match (finished, deck) {
                (false, _) => "scanned",
                (true, true) => "deck-seen",
                (true, false) => "water-seen",
            };
            vec![json!({"cell": cell.to_string(), "result": seen})]
        }
    }
}

fn action_text(action: &Action) -> String {
    action.to_string()
}

fn ending_json(ending: Option<Ending>) -> Value {
    ending.map_or(Value::Null, |e| {
        json!({
            "winner": e.winner.map(|s| s.to_string()),
            "reason": match e.reason {
                EndReason::FleetSunk => "fleet-sunk",
                EndReason::Resigned => "resigned",
                EndReason::DrawAgreed => "draw-agreed",
                EndReason::Forfeit => "forfeit",
            },
        })
    })
}

fn verdict_json(verdict: Option<&Verdict>) -> Value {
    match verdict {
        None => json!({"status": "unsettled"}),
        Some(Verdict::Honest(ending)) => {
            json!({"status": "honest", "ending": ending_json(Some(*ending))})
        }
        Some(Verdict::Lie(lie)) => {
            json!({"status": "lie", "liar": lie.liar.to_string(), "message": lie.seq, "reason": lie.reason})
        }
        Some(Verdict::Incomplete(why)) => json!({"status": "incomplete", "reason": why}),
    }
}

impl Report {
    fn malformed(why: String) -> Self {
        Self {
            table: None,
            settings: None,
            games: Vec::new(),
            archimedes: Vec::new(),
            left: [false; 2],
            outcome: Outcome::Malformed(why),
        }
    }

    /// The record as one JSON document (schema in PROTOCOL.md, "The game record").
    pub fn to_json(&self) -> Value {
        let games: Vec<Value> = self
            .games
            .iter()
            .map(|g| {
                let finished = g.verdict.is_some();
                let fleet = |f: &Option<Fleet>| {
                    f.as_ref().map_or(Value::Null, |f| {
                        Value::Array(
                            f.ships()
                                .iter()
                                .map(|s| {
                                    let cells = s.mask(f.size()).unwrap_or_default();
                                    Value::Array(cells.iter().map(|c| Value::String(c.to_string())).collect())
                                })
                                .collect(),
                        )
                    })
                };
                json!({
                    "number": g.number + 1,
                    "id": hex::encode(g.id),
                    "kind": g.variant.to_string(),
                    "first": g.first.to_string(),
                    "timer": g.timer,
                    "fleets": {"host": fleet(&g.fleets[0]), "guest": fleet(&g.fleets[1])},
                    "actions": g.moves.iter().map(|m| json!({
                        "number": m.number,
                        "by": m.seat.to_string(),
                        "action": action_text(&m.report.action),
                        "timeout": m.timeout,
                        "cells": m.report.effects.iter().flat_map(|e| effect_cells(e, finished)).collect::<Vec<_>>(),
                        "again": m.report.again,
                    })).collect::<Vec<_>>(),
                    "ending": ending_json(g.ending),
                    "verdict": verdict_json(g.verdict.as_ref()),
                })
            })
            .collect();
        let games: Vec<Value> = games
            .into_iter()
            .chain(self.archimedes.iter().map(|g| {
                json!({
                    "number": g.number + 1,
                    "id": hex::encode(g.id),
                    "kind": "archimedes",
                    "first": g.first.to_string(),
                    "moves": g.moves.iter().map(|m| json!({
                        "by": m.seat.to_string(),
                        "move": m.played.mv.to_string(),
                        "waves": m.played.waves.iter().map(|wave| {
                            wave.iter().map(|s| s.cell.to_string()).collect::<Vec<_>>()
                        }).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "ending": g.outcome.map(|o| o.to_string()),
                    "verdict": match &g.verdict {
                        None => json!({"status": "unsettled"}),
                        Some(arch_table::Verdict::Decided(o)) => json!({
                            "status": "honest",
                            "winner": o.winner.map(|s| s.to_string()),
                            "ending": o.to_string(),
                        }),
                        Some(arch_table::Verdict::Lie(lie)) => json!({
                            "status": "lie", "liar": lie.liar.to_string(),
                            "message": lie.seq, "reason": lie.reason,
                        }),
                    },
                })
            }))
            .collect();
        let settings = self.settings.map_or(Value::Null, |s| {
            json!({
                "kind": match s.game {
                    proto::GameKind::Archimedes { side } => format!("archimedes {side}×{side}"),
                    game => wire::variant(game).map(|v| v.to_string()).unwrap_or_default(),
                },
                "move_ms": s.move_ms,
                "answer_ms": s.answer_ms,
                "reveal_ms": s.reveal_ms,
                "grace_ms": s.grace_ms,
            })
        });
        let outcome = match &self.outcome {
            Outcome::Honest => json!({"status": "honest"}),
            Outcome::Lie(lie) => {
                json!({"status": "lie", "liar": lie.liar.to_string(), "message": lie.seq, "reason": lie.reason})
            }
            Outcome::Malformed(why) => json!({"status": "malformed", "reason": why}),
            Outcome::Incomplete(why) => json!({"status": "incomplete", "reason": why}),
        };
        json!({
            "schema": "armada-game-record/3",
            "table": self.table.map(hex::encode),
            "settings": settings,
            "games": games,
            "verdict": outcome,
            "exit": self.outcome.exit_code(),
        })
    }

    /// The record as text: a line per action, then the verdict.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for g in &self.games {
            let finished = g.verdict.is_some();
            let _ = writeln!(
                out,
                "Game {} ({}), the {} moves first{}",
                g.number + 1,
                g.variant,
                g.first,
                match g.timer {
                    Some(true) => ", with the move timer",
                    Some(false) => ", without the move timer",
                    None => "",
                }
            );
            for m in &g.moves {
                let _ = write!(out, "{:>4}. {:<5} ", m.number + 1, m.seat);
                if !finished && matches!(m.report.action, Action::Radar(_)) {
                    // What a radar saw stays private until the game is over.
                    let _ = write!(
                        out,
                        "{}: {} cells scanned",
                        m.report.action,
                        m.report.effects.len()
                    );
                } else {
                    let _ = write!(out, "{}", m.report);
                }
                let _ = writeln!(out, "{}", if m.timeout { " (timeout shot)" } else { "" });
            }
            let _ = match &g.verdict {
                Some(Verdict::Honest(ending)) => {
                    writeln!(out, "  result: {ending}; both reveals check out")
                }
                Some(Verdict::Lie(lie)) => writeln!(out, "  result: {lie}; the {} loses", lie.liar),
                Some(Verdict::Incomplete(why)) => writeln!(out, "  result: incomplete: {why}"),
                None => writeln!(out, "  result: none yet"),
            };
        }
        for g in &self.archimedes {
            let _ = writeln!(
                out,
                "Game {} (Archimedes), the {} moves first from the bottom-left corner",
                g.number + 1,
                g.first
            );
            for (n, m) in g.moves.iter().enumerate() {
                let _ = write!(out, "{:>4}. {:<5} {}", n + 1, m.seat, m.played.mv);
                for wave in &m.played.waves {
                    let cells: Vec<String> = wave.iter().map(|s| s.cell.to_string()).collect();
                    let _ = write!(out, "; sunk {}", cells.join(" "));
                }
                let _ = writeln!(out);
            }
            let _ = match &g.verdict {
                Some(arch_table::Verdict::Decided(o)) => writeln!(out, "  result: {o}"),
                Some(arch_table::Verdict::Lie(lie)) => {
                    writeln!(out, "  result: {lie}; the {} loses", lie.liar)
                }
                None => writeln!(out, "  result: none yet"),
            };
        }
        let _ = match &self.outcome {
            Outcome::Honest => writeln!(out, "verdict: complete and honest"),
            Outcome::Lie(lie) => writeln!(out, "verdict: lie proven: {lie}"),
            Outcome::Malformed(why) => writeln!(out, "verdict: unreadable: {why}"),
            Outcome::Incomplete(why) => writeln!(out, "verdict: incomplete: {why}"),
        };
        out
    }
}
