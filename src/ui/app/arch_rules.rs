//! Archimedes on the Rules screen: its rules in sections, each beside a small board drawn from a real position and the engine's own answers (where a ship may go, what it sees, what sinks).

use egui::{Color32, Pos2, Sense, Stroke, Vec2};

use super::super::i18n::Text;
use super::super::palette::{FIRE, MINE, REACH, THEIRS};
use super::archimedes::paint_grid;
use super::rules::{TEXT_WIDTH, caption, paragraphs, section};
use crate::driver::arch::{Position, Side, parse};
use crate::rules::Coord;

/// A drawn cell's side, in points.
const CELL: f32 = 30.0;
/// Room for the row numbers at the left and the letters under the board.
const LABELS: f32 = 16.0;

/// Three ships in a line and a lone one: where the lone ship at B3 may go.
const MOVES: &str = "
    . . . . . .
    . . . o . .
    . . . . . .
    . x . . o .
    . . . . . .
    x . . . . .
";
/// The ship at C3 sees the first ship in each direction, its own side's too; the
/// one at C6 stands behind C5 and is not seen.
const SIGHT: &str = "
    . . o . . .
    . . o . o .
    . . . . . .
    x . x . . .
    . . . . . .
    . . . . . .
";
/// The ship at D3 is seen by three enemy ships: it sinks.
const SINKING: &str = "
    . . . o . .
    . . . . . o
    . . . . . .
    o . . x . .
    . . . . . .
    . . . . . .
";

/// The sections of Archimedes' rules.
pub(super) fn sections(ui: &mut egui::Ui, t: &Text, friend: bool) {
    let text =
        |ids: &'static [&'static str]| move |ui: &mut egui::Ui| paragraphs(ui, t, TEXT_WIDTH, ids);
    let start = if friend {
        "arch-rule-start-friend"
    } else {
        "arch-rule-start"
    };
    section(
        ui,
        &t.get("arch-rules-start-title"),
        |ui| {
            if let Ok(position) = Position::start(6) {
                diagram(ui, &position, &Drawn::default());
            }
        },
        move |ui: &mut egui::Ui| paragraphs(ui, t, TEXT_WIDTH, &[start]),
    );
    section(
        ui,
        &t.get("arch-rules-move-title"),
        |ui| {
            if let Ok(position) = parse(MOVES, Side::First) {
                let from = cell(1, 2);
                let dots = position.reach(from).iter().collect();
                diagram(
                    ui,
                    &position,
                    &Drawn {
                        dots,
                        ..Drawn::default()
                    },
                );
            }
            caption(ui, t, "arch-rules-move-caption");
        },
        text(&["arch-rule-move"]),
    );
    section(
        ui,
        &t.get("arch-rules-sight-title"),
        |ui| {
            if let Ok(position) = parse(SIGHT, Side::First) {
                let from = cell(2, 2);
                let lines = position.seen(from).map(|c| (from, c)).collect();
                diagram(
                    ui,
                    &position,
                    &Drawn {
                        lines,
                        colour: REACH,
                        ..Drawn::default()
                    },
                );
            }
            caption(ui, t, "arch-rules-sight-caption");
        },
        text(&["arch-rule-sight"]),
    );
    section(
        ui,
        &t.get("arch-rules-sink-title"),
        |ui| {
            if let Ok(position) = parse(SINKING, Side::First) {
                let target = cell(3, 2);
                let lines = position
                    .seen(target)
                    .filter(|c| position.at(*c) == Some(Side::Second))
                    .map(|c| (c, target))
                    .collect();
                diagram(
                    ui,
                    &position,
                    &Drawn {
                        lines,
                        colour: FIRE,
                        ring: Some(target),
                        ..Drawn::default()
                    },
                );
            }
            caption(ui, t, "arch-rules-sink-caption");
        },
        text(&["arch-rule-sink"]),
    );
    section(
        ui,
        &t.get("arch-rules-end-title"),
        |_| {},
        text(&["arch-rule-end"]),
    );
}

/// What a diagram adds to its position: green dots, lines between cells in one
/// colour, a ring around a sinking ship.
struct Drawn {
    dots: Vec<Coord>,
    lines: Vec<(Coord, Coord)>,
    colour: Color32,
    ring: Option<Coord>,
}

impl Default for Drawn {
    fn default() -> Self {
        Self {
            dots: Vec::new(),
            lines: Vec::new(),
            colour: REACH,
            ring: None,
        }
    }
}

/// Column and row from 0, row 0 at the bottom as on the board.
fn cell(col: u8, row: u8) -> Coord {
    Coord::new(col, row).expect("a cell of the drawings' 6×6 board")
}

/// A small board: the position's ships and what `drawn` adds.
fn diagram(ui: &mut egui::Ui, position: &Position, drawn: &Drawn) {
    let n = position.size().side();
    let size = Vec2::new(LABELS + CELL * f32::from(n), CELL * f32::from(n) + LABELS);
    let (outer, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(outer.expand(2.0));
    let origin = Pos2::new(outer.left() + LABELS, outer.top());
    paint_grid(
        &painter,
        ui.visuals().weak_text_color(),
        outer,
        origin,
        CELL,
        n,
    );
    let centre = |c: Coord| {
        Pos2::new(
            origin.x + (f32::from(c.col()) + 0.5) * CELL,
            origin.y + (f32::from(n - 1 - c.row()) + 0.5) * CELL,
        )
    };
    for &(a, b) in &drawn.lines {
        painter.line_segment([centre(a), centre(b)], Stroke::new(2.5, drawn.colour));
    }
    for row in 0..n {
        for col in 0..n {
            let c = cell(col, row);
            if let Some(side) = position.at(c) {
                let colour = if side == Side::First { MINE } else { THEIRS };
                painter.circle_filled(centre(c), CELL * 0.36, colour);
            }
        }
    }
    for &c in &drawn.dots {
        painter.circle_filled(centre(c), CELL * 0.13, REACH);
    }
    if let Some(c) = drawn.ring {
        painter.circle_stroke(centre(c), CELL * 0.46, Stroke::new(2.5, FIRE));
    }
}
