//! The Rules screen: each game's rules in the window's language, in headed sections, with a small drawing of each rule at work (the sea battle's weapons; Archimedes' moves, sight and sinking, and Icehouse Armada's steps and broadsides, drawn from their engines).
//!
//! It reads only the text and paints; it never looks at or changes a table, so
//! closing it finds the game as it was.

use std::ops::Range;

use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, RichText, Sense, Shape, Stroke, Vec2};

use super::super::board::{self, Look};
use super::super::i18n::Text;
// The cells are painted by the boards' own painter (board.rs); the diagrams add
// the outline, the fleet's decks, the aim and the radar's rings.
use super::super::palette::{AIM, RADAR_DECK, RADAR_WATER, SEA_LINE, SHIP};

/// A drawn cell's side, in points.
const CELL: f32 = 18.0;
/// The column on the left that holds each section's heading and drawing.
const SIDE_WIDTH: f32 = 250.0;
/// The widest a paragraph runs: longer lines are hard to follow.
pub(super) const TEXT_WIDTH: f32 = 720.0;

/// A drawn cell: column and row from 0, as on the board.
type Cell = (u8, u8);

/// The cell named by its letter and number: `at(b'E', 5)` is E5.
const fn at(col: u8, row: u8) -> Cell {
    (col - b'A', row - 1)
}

/// What a drawn cell shows underneath any overlay.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Nothing known.
    Open,
    /// Unmarked, over a deck the shooter cannot see: outlined faintly for the reader.
    Hidden,
    /// One of the player's own decks.
    Ship,
    Miss,
    Hit,
    Wreck,
}

/// What is drawn over the cells.
enum Over {
    /// Where the action stopped.
    Aim(Cell),
    /// The 3×3 square around a centre.
    Square(Cell),
    /// A dashed frame from one corner cell to the other: where a centre may lie.
    Zone(Cell, Cell),
    /// A cell no other ship may take.
    Barred(Cell),
    /// A cell this very action marked.
    Fresh(Cell),
    /// A shell that fell on a cell already marked.
    Lost(Cell),
    RadarDeck(Cell),
    RadarWater(Cell),
    /// A torpedo's run along a row from the left edge to the cell it stopped at.
    Run(Cell),
}

/// A piece of a board: which columns and rows, the cells that are not open, and what
/// lies over them.
struct Drawing<'a> {
    cols: Range<u8>,
    rows: Range<u8>,
    marks: &'a [(Cell, Mark)],
    over: &'a [Over],
    /// Whether the column letters stand above (not under a row drawn just above).
    letters: bool,
}

/// Which game's rules the screen shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Game {
    #[default]
    Sea,
    /// Archimedes; `friend`: as played with a friend (who moves first differs).
    Archimedes {
        friend: bool,
    },
    Icehouse,
}

/// Draws the Rules screen of `game` (the player may switch to the other game's);
/// true when the player pressed Back.
pub(super) fn show(ui: &mut egui::Ui, t: &Text, game: &mut Game) -> bool {
    let mut back = false;
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let title = match game {
                Game::Sea => "rules-title",
                Game::Archimedes { .. } => "arch-rules-title",
                Game::Icehouse => "ice-rules-title",
            };
            // The tabs come before the title, whose length changes with the game:
            // each tab stays where it is whichever page is open.
            ui.horizontal(|ui| {
                back |= ui.button(t.get("rules-back")).clicked();
                ui.add_space(16.0);
                let sea = *game == Game::Sea;
                if ui.selectable_label(sea, t.get("rules-of-sea")).clicked() {
                    *game = Game::Sea;
                }
                let arch = matches!(game, Game::Archimedes { .. });
                if ui
                    .selectable_label(arch, t.get("rules-of-archimedes"))
                    .clicked()
                    && !arch
                {
                    *game = Game::Archimedes { friend: false };
                }
                let ice = *game == Game::Icehouse;
                if ui
                    .selectable_label(ice, t.get("rules-of-icehouse"))
                    .clicked()
                {
                    *game = Game::Icehouse;
                }
            });
            ui.add_space(6.0);
            ui.label(RichText::new(t.get(title)).heading().strong());
            ui.add_space(6.0);
            match *game {
                Game::Archimedes { friend } => super::arch_rules::sections(ui, t, friend),
                Game::Icehouse => super::ice_rules::sections(ui, t),
                Game::Sea => sea_sections(ui, t),
            }
            ui.add_space(12.0);
            back |= ui.button(t.get("rules-back")).clicked();
            ui.add_space(12.0);
        });
    back
}

/// The sea battle's rules, a section a rule, each weapon with its drawing.
fn sea_sections(ui: &mut egui::Ui, t: &Text) {
    paragraphs(ui, t, SIDE_WIDTH + TEXT_WIDTH, &["rules-intro"]);
    ui.label(RichText::new(t.get("rules-keys")).weak());
    let text =
        |ids: &'static [&'static str]| move |ui: &mut egui::Ui| paragraphs(ui, t, TEXT_WIDTH, ids);
    section(
        ui,
        &t.get("rules-board-title"),
        |ui| {
            ui.horizontal_top(|ui| {
                fleet(ui);
                ui.add_space(16.0);
                no_touching(ui);
            });
            caption(ui, t, "rules-touch-caption");
        },
        text(&["rules-board", "rules-touch", "rules-classic"]),
    );
    section(
        ui,
        &t.get("rules-turns-title"),
        |_| {},
        text(&["rules-turns", "rules-again", "rules-shots"]),
    );
    section(ui, &t.get("rules-legend"), |_| {}, |ui| legend(ui, t));
    section(
        ui,
        &t.get("rules-torpedo-title"),
        |ui| {
            torpedo(ui, t);
            caption(ui, t, "rules-torpedo-caption");
        },
        text(&["rules-torpedo", "rules-torpedo-aim"]),
    );
    section(
        ui,
        &t.get("rules-air-title"),
        |ui| {
            air_strike(ui);
            caption(ui, t, "rules-air-caption");
        },
        text(&["rules-air"]),
    );
    section(
        ui,
        &t.get("rules-radar-title"),
        |ui| {
            radar(ui);
            caption(ui, t, "rules-radar-caption");
        },
        text(&["rules-radar"]),
    );
    section(
        ui,
        &t.get("rules-ring-title"),
        |ui| {
            ring(ui);
            caption(ui, t, "rules-ring-caption");
        },
        text(&["rules-ring"]),
    );
    section(
        ui,
        &t.get("rules-timer-title"),
        |_| {},
        text(&["rules-timer"]),
    );
    section(
        ui,
        &t.get("rules-end-title"),
        |_| {},
        text(&["rules-end", "rules-draw", "rules-reveal"]),
    );
}

/// A section: its heading with `side` (a drawing) under it on the left, `body` on
/// the right.
pub(super) fn section(
    ui: &mut egui::Ui,
    title: &str,
    side: impl FnOnce(&mut egui::Ui),
    body: impl FnOnce(&mut egui::Ui),
) {
    ui.add_space(8.0);
    ui.separator();
    ui.horizontal_top(|ui| {
        ui.allocate_ui_with_layout(
            Vec2::new(SIDE_WIDTH, 0.0),
            egui::Layout::top_down(egui::Align::Min),
            |ui| {
                ui.set_width(SIDE_WIDTH);
                ui.label(RichText::new(title).heading());
                ui.add_space(4.0);
                side(ui);
            },
        );
        ui.add_space(12.0);
        ui.vertical(|ui| {
            ui.set_max_width(TEXT_WIDTH);
            body(ui);
        });
    });
}

/// The messages `ids`, a paragraph each, no wider than `width`.
pub(super) fn paragraphs(ui: &mut egui::Ui, t: &Text, width: f32, ids: &[&str]) {
    ui.vertical(|ui| {
        ui.set_max_width(width);
        for id in ids {
            ui.label(t.get(id));
            ui.add_space(4.0);
        }
    });
}

/// The words under a drawing.
pub(super) fn caption(ui: &mut egui::Ui, t: &Text, id: &str) {
    ui.add_space(4.0);
    ui.label(t.get(id));
}

/// The marks the drawings use, each with its name.
fn legend(ui: &mut egui::Ui, t: &Text) {
    let keys = [
        (Mark::Open, None, "rules-key-open"),
        (Mark::Hidden, None, "rules-key-deck"),
        (Mark::Miss, None, "rules-key-miss"),
        (Mark::Hit, None, "rules-key-hit"),
        (Mark::Wreck, None, "rules-key-wreck"),
        (Mark::Miss, Some(Over::Fresh((0, 0))), "rules-key-fresh"),
        (Mark::Miss, Some(Over::Lost((0, 0))), "rules-key-lost"),
    ];
    ui.horizontal_wrapped(|ui| {
        for (mark, over, id) in keys {
            // A swatch and its name are placed as one item, so a line never breaks
            // between them or inside the name.
            let name = t.get(id);
            let galley = ui.painter().layout_no_wrap(
                name.clone(),
                egui::TextStyle::Body.resolve(ui.style()),
                ui.visuals().text_color(),
            );
            let width = CELL + 6.0 + galley.size().x;
            let (item, response) =
                ui.allocate_exact_size(Vec2::new(width, CELL.max(galley.size().y)), Sense::hover());
            response.widget_info(|| {
                egui::WidgetInfo::labeled(egui::WidgetType::Label, true, name.clone())
            });
            let rect = Rect::from_min_size(
                Pos2::new(item.min.x, item.center().y - CELL / 2.0),
                Vec2::splat(CELL),
            );
            let painter = ui.painter_at(item.expand(1.0));
            paint_mark(&painter, rect, mark);
            if let Some(over) = over {
                paint_over(&painter, &|_| rect, &over);
            }
            let text_at = Pos2::new(rect.max.x + 6.0, item.center().y - galley.size().y / 2.0);
            painter.galley(text_at, galley, ui.visuals().text_color());
            ui.add_space(14.0);
        }
    });
}

/// The standard fleet, a ship a block: 4, 3 3, 2 2 2, 1 1 1 1.
fn fleet(ui: &mut egui::Ui) {
    let cell = CELL * 0.75;
    let rows: [&[u8]; 4] = [&[4], &[3, 3], &[2, 2, 2], &[1, 1, 1, 1]];
    let gap = cell * 0.6;
    let width = rows
        .iter()
        .map(|ships| {
            let decks: u8 = ships.iter().sum();
            f32::from(decks) * cell + (ships.len() - 1) as f32 * gap
        })
        .fold(0.0, f32::max);
    let (outer, _) = ui.allocate_exact_size(
        Vec2::new(width, rows.len() as f32 * (cell + 4.0)),
        Sense::hover(),
    );
    let painter = ui.painter_at(outer);
    for (i, ships) in rows.iter().enumerate() {
        let mut x = outer.min.x;
        let y = outer.min.y + i as f32 * (cell + 4.0);
        for &len in *ships {
            for _ in 0..len {
                let rect = Rect::from_min_size(Pos2::new(x, y), Vec2::splat(cell));
                painter.rect_filled(rect.shrink(0.5), 2.0, SHIP);
                x += cell;
            }
            x += gap;
        }
    }
}

/// A cruiser of the player's own and the cells around it, where no ship may lie.
fn no_touching(ui: &mut egui::Ui) {
    let ship = [at(b'B', 3), at(b'C', 3), at(b'D', 3)];
    let marks = ship.map(|c| (c, Mark::Ship));
    let mut over = Vec::new();
    for col in 0..5u8 {
        for row in 1..4u8 {
            if !ship.contains(&(col, row)) {
                over.push(Over::Barred((col, row)));
            }
        }
    }
    Drawing {
        cols: 0..6,
        rows: 0..5,
        marks: &marks,
        over: &over,
        letters: true,
    }
    .show(ui);
}

/// Row 5 before and after a torpedo → : it crosses water (now misses), slides over a
/// miss and a hit, and stops at the first hidden deck; the deck behind it stays hidden.
fn torpedo(ui: &mut egui::Ui, t: &Text) {
    let row = 4;
    let before = [
        ((1, row), Mark::Miss),
        ((3, row), Mark::Hit),
        ((4, row), Mark::Hidden),
        ((5, row), Mark::Hidden),
    ];
    let after = [
        ((0, row), Mark::Miss),
        ((1, row), Mark::Miss),
        ((2, row), Mark::Miss),
        ((3, row), Mark::Hit),
        ((4, row), Mark::Hit),
        ((5, row), Mark::Hidden),
    ];
    let after_over = [
        Over::Run((4, row)),
        Over::Fresh((0, row)),
        Over::Fresh((2, row)),
        Over::Aim((4, row)),
    ];
    for (id, marks, over, letters) in [
        ("rules-before", &before[..], &[][..], true),
        ("rules-after", &after[..], &after_over[..], false),
    ] {
        ui.label(RichText::new(t.get(id)).weak());
        Drawing {
            cols: 0..10,
            rows: row..row + 1,
            marks,
            over,
            letters,
        }
        .show(ui);
    }
}

/// A whole board: the frame the centre must lie in, and a strike on E5 — four shells
/// on open cells, one lost on an old miss.
fn air_strike(ui: &mut egui::Ui) {
    let marks = [
        (at(b'D', 4), Mark::Miss),
        (at(b'E', 4), Mark::Miss),
        (at(b'F', 5), Mark::Hit),
        (at(b'F', 6), Mark::Hidden),
        (at(b'D', 6), Mark::Miss),
        (at(b'E', 6), Mark::Miss),
    ];
    let over = [
        Over::Zone(at(b'B', 2), at(b'I', 9)),
        Over::Square(at(b'E', 5)),
        Over::Fresh(at(b'D', 4)),
        Over::Fresh(at(b'F', 5)),
        Over::Fresh(at(b'D', 6)),
        Over::Fresh(at(b'E', 6)),
        Over::Lost(at(b'E', 4)),
    ];
    Drawing {
        cols: 0..10,
        rows: 0..10,
        marks: &marks,
        over: &over,
        letters: true,
    }
    .show(ui);
}

/// A sweep centred on G7: decks and water in its unmarked cells, nothing on the old
/// miss.
fn radar(ui: &mut egui::Ui) {
    let marks = [(at(b'F', 6), Mark::Miss)];
    let mut over = vec![Over::Square(at(b'G', 7))];
    for col in b'F'..=b'H' {
        for row in 6..=8 {
            if (col, row) == (b'F', 6) {
                continue;
            }
            let cell = at(col, row);
            over.push(if col == b'H' {
                Over::RadarDeck(cell)
            } else {
                Over::RadarWater(cell)
            });
        }
    }
    Drawing {
        cols: 4..9,
        rows: 4..9,
        marks: &marks,
        over: &over,
        letters: true,
    }
    .show(ui);
}

/// A cruiser sunk on D4–F4 and the ring of misses it leaves at once.
fn ring(ui: &mut egui::Ui) {
    let mut marks = Vec::new();
    let mut over = Vec::new();
    for col in b'C'..=b'G' {
        for row in 3..=5 {
            let cell = at(col, row);
            if row == 4 && (b'D'..=b'F').contains(&col) {
                marks.push((cell, Mark::Wreck));
            } else {
                marks.push((cell, Mark::Miss));
                over.push(Over::Fresh(cell));
            }
        }
    }
    Drawing {
        cols: 1..8,
        rows: 1..6,
        marks: &marks,
        over: &over,
        letters: true,
    }
    .show(ui);
}

impl Drawing<'_> {
    fn show(&self, ui: &mut egui::Ui) {
        let top = if self.letters { CELL } else { 0.0 };
        let width = CELL + CELL * f32::from(self.cols.end - self.cols.start);
        let height = top + CELL * f32::from(self.rows.end - self.rows.start);
        let (outer, _) =
            ui.allocate_exact_size(Vec2::new(width + 2.0, height + 2.0), Sense::hover());
        let painter = ui.painter_at(outer);
        let origin = outer.min + Vec2::new(CELL, top);
        let rect = |(col, row): Cell| {
            Rect::from_min_size(
                origin
                    + Vec2::new(
                        f32::from(col - self.cols.start) * CELL,
                        f32::from(row - self.rows.start) * CELL,
                    ),
                Vec2::splat(CELL),
            )
        };
        let font = FontId::proportional(CELL * 0.5);
        let ink = ui.visuals().weak_text_color();
        if self.letters {
            for col in self.cols.clone() {
                let centre = rect((col, self.rows.start)).center_top() - Vec2::new(0.0, CELL * 0.5);
                let letter = char::from(b'A' + col).to_string();
                painter.text(centre, Align2::CENTER_CENTER, letter, font.clone(), ink);
            }
        }
        let run = self.over.iter().find_map(|o| match o {
            Over::Run((_, row)) => Some(*row),
            _ => None,
        });
        // A torpedo's row has its entry arrow where the number would stand.
        for row in self.rows.clone().filter(|row| Some(*row) != run) {
            let centre = rect((self.cols.start, row)).left_center() - Vec2::new(CELL * 0.5, 0.0);
            let number = (row + 1).to_string();
            painter.text(centre, Align2::CENTER_CENTER, number, font.clone(), ink);
        }
        let mark_of = |cell: Cell| {
            self.marks
                .iter()
                .find(|(c, _)| *c == cell)
                .map_or(Mark::Open, |(_, m)| *m)
        };
        for col in self.cols.clone() {
            for row in self.rows.clone() {
                paint_mark(&painter, rect((col, row)), mark_of((col, row)));
            }
        }
        // The torpedo's run, over the cells it passed (faint enough to read them).
        for over in self.over {
            if let Over::Run(stop) = over {
                let end = rect(*stop).left_center();
                let entry = Pos2::new(origin.x - CELL * 0.5, end.y);
                painter.line_segment([entry, end], Stroke::new(3.0, AIM.gamma_multiply(0.7)));
                for tip in [entry, end] {
                    let head = CELL * 0.3;
                    painter.add(Shape::convex_polygon(
                        vec![
                            tip + Vec2::new(head, 0.0),
                            tip + Vec2::new(-head * 0.6, -head),
                            tip + Vec2::new(-head * 0.6, head),
                        ],
                        AIM,
                        Stroke::NONE,
                    ));
                }
            }
        }
        for over in self.over {
            paint_over(&painter, &rect, over);
        }
        let board = Rect::from_min_max(
            rect((self.cols.start, self.rows.start)).min,
            rect((self.cols.end - 1, self.rows.end - 1)).max,
        );
        painter.rect_stroke(
            board,
            0.0,
            Stroke::new(1.0, SEA_LINE),
            egui::StrokeKind::Outside,
        );
    }
}

fn paint_mark(painter: &Painter, rect: Rect, mark: Mark) {
    // The same water, decks, fires and splashes as the boards.
    let look = match mark {
        Mark::Open | Mark::Hidden => Look::Unknown,
        Mark::Ship => Look::Ship,
        Mark::Miss => Look::Miss,
        Mark::Hit => Look::Hit,
        Mark::Wreck => Look::Wreck,
    };
    board::paint_look(painter, rect, look);
    if mark == Mark::Hidden {
        painter.rect_stroke(
            rect.shrink(4.0),
            2.0,
            Stroke::new(1.5, SHIP.gamma_multiply(0.8)),
            egui::StrokeKind::Inside,
        );
    }
}

fn paint_lost(painter: &Painter, rect: Rect) {
    let c = rect.center();
    let r = rect.width() * 0.32;
    let stroke = Stroke::new(1.5, Color32::from_gray(210));
    painter.circle_stroke(c, r, stroke);
    painter.line_segment([c + Vec2::new(-r, r), c + Vec2::new(r, -r)], stroke);
}

fn paint_over(painter: &Painter, rect: &dyn Fn(Cell) -> Rect, over: &Over) {
    match *over {
        Over::Aim(cell) => {
            painter.rect_stroke(
                rect(cell).shrink(0.5),
                2.0,
                Stroke::new(2.0, AIM),
                egui::StrokeKind::Inside,
            );
        }
        Over::Square((col, row)) => {
            let square =
                Rect::from_min_max(rect((col - 1, row - 1)).min, rect((col + 1, row + 1)).max);
            painter.rect_stroke(square, 2.0, Stroke::new(2.0, AIM), egui::StrokeKind::Middle);
        }
        Over::Zone(from, to) => {
            let zone = Rect::from_min_max(rect(from).min, rect(to).max).shrink(1.5);
            let path = [
                zone.left_top(),
                zone.right_top(),
                zone.right_bottom(),
                zone.left_bottom(),
                zone.left_top(),
            ];
            painter.extend(Shape::dashed_line(
                &path,
                Stroke::new(1.5, Color32::from_gray(225)),
                4.0,
                3.0,
            ));
        }
        Over::Barred(cell) => {
            painter.rect_filled(
                rect(cell).shrink(1.0),
                2.0,
                Color32::from_rgba_unmultiplied(230, 60, 60, 90),
            );
        }
        Over::Fresh(cell) => {
            painter.rect_filled(
                rect(cell).shrink(1.0),
                2.0,
                Color32::from_rgba_unmultiplied(255, 220, 80, 80),
            );
        }
        Over::Lost(cell) => paint_lost(painter, rect(cell)),
        Over::RadarDeck(cell) => {
            painter.circle_stroke(
                rect(cell).center(),
                CELL * 0.3,
                Stroke::new(2.0, RADAR_DECK),
            );
        }
        Over::RadarWater(cell) => {
            painter.circle_stroke(
                rect(cell).center(),
                CELL * 0.15,
                Stroke::new(1.0, RADAR_WATER),
            );
        }
        // Drawn under the marks, with the cells.
        Over::Run(_) => {}
    }
}
