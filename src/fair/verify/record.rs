//! The game record as `armada verify` prints it, one shape for every game (PROTOCOL.md §7): JSON and text.
//!
//! Every game of the record has the same fields — number, id, kind, first, moves,
//! void, ending, verdict — with the same meaning; what a game adds is inside its
//! moves (a sea battle's cells, an Archimedes move's sinking waves) and beside them
//! (a sea battle's timer and revealed fleets).

use serde_json::{Map, Value, json};

use super::{ArchimedesRecord, GameRecord, IcehouseRecord, OpenRecord, Outcome, Report};
use crate::fair::archimedes as arch_table;
use crate::fair::icehouse::{self as ice_table, IcePlayed};
use crate::fair::table::open::{self, OpenGame};
use crate::fair::table::{Lie, Verdict};
use crate::fair::wire;
use crate::rules::{Action, Effect, EndReason, Fleet, Seat};

/// The record's schema, named in every record.
pub const SCHEMA: &str = "armada-game-record/4";

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

/// An ending: who won (null for a draw) and why, by a machine-readable name.
fn ending(winner: Option<Seat>, reason: &str) -> Value {
    json!({"winner": winner.map(|s| s.to_string()), "reason": reason})
}

fn sea_ending(e: &crate::rules::Ending) -> Value {
    ending(
        e.winner,
        match e.reason {
            EndReason::FleetSunk => "fleet-sunk",
            EndReason::Resigned => "resigned",
            EndReason::DrawAgreed => "draw-agreed",
            EndReason::Forfeit => "forfeit",
        },
    )
}

fn arch_ending(o: &arch_table::Outcome) -> Value {
    use crate::archimedes::EndReason as Rule;
    ending(
        o.winner,
        match o.reason {
            arch_table::Reason::Rules(Rule::Fleet) => "fleet-below-three",
            arch_table::Reason::Rules(Rule::NoMove) => "no-move",
            arch_table::Reason::Rules(Rule::Quiet) => "fifty-quiet-moves",
            arch_table::Reason::Rules(Rule::Resigned)
            | arch_table::Reason::Resigned
            | arch_table::Reason::BothResigned => "resigned",
            arch_table::Reason::DrawAgreed => "draw-agreed",
            arch_table::Reason::Forfeit => "forfeit",
        },
    )
}

fn ice_ending(o: &ice_table::Outcome) -> Value {
    use crate::icehouse::EndReason as Rule;
    ending(
        o.winner,
        match o.reason {
            open::Reason::Rules(Rule::AllSunk) => "fleet-sunk",
            open::Reason::Rules(Rule::FlagshipSunk) => "flagship-sunk",
            open::Reason::Rules(Rule::Rammed) => "flagship-rammed",
            open::Reason::Rules(Rule::Quiet) => "forty-quiet-turns",
            open::Reason::Rules(Rule::BrokeThrough) => "broke-through",
            open::Reason::Rules(Rule::Held) => "line-held",
            open::Reason::Resigned | open::Reason::BothResigned => "resigned",
            open::Reason::DrawAgreed => "draw-agreed",
            open::Reason::Forfeit => "forfeit",
        },
    )
}

/// An Icehouse step in words: what the mover did and, for a shot, what it hit.
fn ice_step(played: &IcePlayed) -> String {
    match played {
        IcePlayed::Chose { south } => match south {
            ice_table::Order::Second => "chooses to move first (south)".to_owned(),
            ice_table::Order::First => "lets the other side move first (south)".to_owned(),
        },
        IcePlayed::Committed { .. } => "commits to its placement".to_owned(),
        IcePlayed::Revealed { fleet, .. } => format!("reveals its placement ({fleet})"),
        IcePlayed::Acted { played, .. } => played.to_string(),
    }
}

fn lie_json(lie: &Lie) -> Value {
    json!({"status": "lie", "liar": lie.liar.to_string(), "message": lie.seq, "reason": lie.reason})
}

/// A game's verdict: the same object whatever the game.
fn honest(winner: Option<Seat>, ending: &Value) -> Value {
    json!({"status": "honest", "winner": winner.map(|s| s.to_string()), "ending": ending})
}

fn unsettled() -> Value {
    json!({"status": "unsettled"})
}

/// What every game's record holds, whatever the game.
struct Shared<'a> {
    number: u32,
    id: [u8; 32],
    kind: String,
    first: Seat,
    moves: Vec<Value>,
    void: &'a [(Seat, u32)],
    ending: Value,
    verdict: Value,
}

impl Shared<'_> {
    /// The game's JSON object: the shared fields, then the game's own (`extra`).
    fn json(self, extra: Map<String, Value>) -> Value {
        let mut game = Map::new();
        game.insert("number".into(), json!(self.number + 1));
        game.insert("id".into(), json!(hex::encode(self.id)));
        game.insert("kind".into(), json!(self.kind));
        game.insert("first".into(), json!(self.first.to_string()));
        game.insert("moves".into(), Value::Array(self.moves));
        game.insert(
            "void".into(),
            self.void
                .iter()
                .map(|(by, seq)| json!({"by": by.to_string(), "message": seq}))
                .collect(),
        );
        game.insert("ending".into(), self.ending);
        game.insert("verdict".into(), self.verdict);
        game.extend(extra);
        Value::Object(game)
    }
}

fn fleet_json(fleet: Option<&Fleet>) -> Value {
    fleet.map_or(Value::Null, |f| {
        f.ships()
            .iter()
            .map(|s| {
                let cells = s.mask(f.size()).unwrap_or_default();
                cells
                    .iter()
                    .map(|c| Value::String(c.to_string()))
                    .collect::<Value>()
            })
            .collect()
    })
}

fn sea_game(g: &GameRecord) -> Value {
    let finished = g.verdict.is_some();
    let moves = g
        .moves
        .iter()
        .map(|m| {
            json!({
                "number": m.number,
                "by": m.seat.to_string(),
                "action": m.report.action.to_string(),
                "timeout": m.timeout,
                "cells": m.report.effects.iter().flat_map(|e| effect_cells(e, finished)).collect::<Vec<_>>(),
                "again": m.report.again,
            })
        })
        .collect();
    let verdict = match &g.verdict {
        None => unsettled(),
        Some(Verdict::Honest(e)) => honest(e.winner, &sea_ending(e)),
        Some(Verdict::Lie(lie)) => lie_json(lie),
        Some(Verdict::Incomplete(why)) => json!({"status": "incomplete", "reason": why}),
    };
    let mut extra = Map::new();
    extra.insert("timer".into(), json!(g.timer));
    extra.insert(
        "fleets".into(),
        json!({"host": fleet_json(g.fleets[0].as_ref()), "guest": fleet_json(g.fleets[1].as_ref())}),
    );
    Shared {
        number: g.number,
        id: g.id,
        kind: g.variant.to_string(),
        first: g.first,
        moves,
        void: &g.void,
        ending: g.ending.as_ref().map_or(Value::Null, sea_ending),
        verdict,
    }
    .json(extra)
}

/// An open game's record: each move as `step` writes it, the ending as `end` names it.
fn open_game<G: OpenGame>(
    g: &OpenRecord<G>,
    kind: String,
    step: impl Fn(&G::Played) -> Map<String, Value>,
    end: impl Fn(&open::Outcome<G::End>) -> Value,
) -> Value {
    let moves = g
        .moves
        .iter()
        .enumerate()
        .map(|(number, m)| {
            let mut line = Map::new();
            line.insert("number".into(), json!(number));
            line.insert("by".into(), json!(m.seat.to_string()));
            line.extend(step(&m.played));
            Value::Object(line)
        })
        .collect();
    let verdict = match &g.verdict {
        None => unsettled(),
        Some(open::Verdict::Decided(o)) => honest(o.winner, &end(o)),
        Some(open::Verdict::Lie(lie)) => lie_json(lie),
    };
    Shared {
        number: g.number,
        id: g.id,
        kind,
        first: g.first,
        moves,
        void: &g.void,
        ending: g.outcome.as_ref().map_or(Value::Null, end),
        verdict,
    }
    .json(Map::new())
}

fn arch_game(g: &ArchimedesRecord, kind: String) -> Value {
    let step = |played: &crate::archimedes::Played| {
        let mut line = Map::new();
        line.insert("move".into(), json!(played.mv.to_string()));
        let waves: Vec<Vec<String>> = played
            .waves
            .iter()
            .map(|wave| wave.iter().map(|s| s.cell.to_string()).collect())
            .collect();
        line.insert("waves".into(), json!(waves));
        line
    };
    open_game(g, kind, step, arch_ending)
}

fn ice_game(g: &IcehouseRecord, kind: String) -> Value {
    let step = |played: &IcePlayed| {
        let mut line = Map::new();
        line.insert("move".into(), json!(ice_step(played)));
        line
    };
    open_game(g, kind, step, ice_ending)
}

/// The name of a table's game, as `settings.kind` and every game's `kind` say it.
fn kind(game: armada_proto::GameKind) -> String {
    match game {
        armada_proto::GameKind::Archimedes { side } => format!("archimedes {side}×{side}"),
        armada_proto::GameKind::Icehouse { .. } => "icehouse".to_owned(),
        game => wire::variant(game)
            .map(|v| v.to_string())
            .unwrap_or_default(),
    }
}

/// Who sent the frames listed in `void`, in words.
fn void_text(void: &[(Seat, u32)]) -> Option<String> {
    (!void.is_empty()).then(|| {
        let frames: Vec<String> = void
            .iter()
            .map(|(by, seq)| format!("the {by}'s message {seq}"))
            .collect();
        format!(
            "  void (crossed the end, counts for nothing): {}",
            frames.join(", ")
        )
    })
}

impl Report {
    /// The record as one JSON document (schema in PROTOCOL.md, "The game record").
    pub fn to_json(&self) -> Value {
        let kind = self.settings.map(|s| kind(s.game)).unwrap_or_default();
        let games: Vec<Value> = self
            .games
            .iter()
            .map(sea_game)
            .chain(self.archimedes.iter().map(|g| arch_game(g, kind.clone())))
            .chain(self.icehouse.iter().map(|g| ice_game(g, kind.clone())))
            .collect();
        let settings = self.settings.map_or(Value::Null, |s| {
            json!({
                "kind": kind,
                "move_ms": s.move_ms,
                "answer_ms": s.answer_ms,
                "reveal_ms": s.reveal_ms,
                "grace_ms": s.grace_ms,
            })
        });
        let outcome = match &self.outcome {
            Outcome::Honest => json!({"status": "honest"}),
            Outcome::Lie(lie) => lie_json(lie),
            Outcome::Malformed(why) => json!({"status": "malformed", "reason": why}),
            Outcome::Incomplete(why) => json!({"status": "incomplete", "reason": why}),
        };
        json!({
            "schema": SCHEMA,
            "table": self.table.map(hex::encode),
            "settings": settings,
            "games": games,
            "verdict": outcome,
            "exit": self.outcome.exit_code(),
        })
    }

    /// The record as text: a line per move, what counted for nothing, the result;
    /// then the verdict.
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
            if let Some(line) = void_text(&g.void) {
                let _ = writeln!(out, "{line}");
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
            if let Some(line) = void_text(&g.void) {
                let _ = writeln!(out, "{line}");
            }
            let _ = match &g.verdict {
                Some(arch_table::Verdict::Decided(o)) => writeln!(out, "  result: {o}"),
                Some(arch_table::Verdict::Lie(lie)) => {
                    writeln!(out, "  result: {lie}; the {} loses", lie.liar)
                }
                None => writeln!(out, "  result: none yet"),
            };
        }
        for g in &self.icehouse {
            let _ = writeln!(
                out,
                "Game {} (Icehouse Armada), the {} first in the table's order",
                g.number + 1,
                g.first
            );
            for (n, m) in g.moves.iter().enumerate() {
                let _ = writeln!(out, "{:>4}. {:<5} {}", n + 1, m.seat, ice_step(&m.played));
            }
            if let Some(line) = void_text(&g.void) {
                let _ = writeln!(out, "{line}");
            }
            let _ = match &g.verdict {
                Some(open::Verdict::Decided(o)) => writeln!(out, "  result: {o}"),
                Some(open::Verdict::Lie(lie)) => {
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
