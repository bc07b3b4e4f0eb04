//! Icehouse Armada on the Rules screen: its rules in sections, each beside a piece of the table drawn from a real position and the engine's own answers (a step laid and one refused, a field of fire with its line, a line blocked).

use egui::{Sense, Vec2};

use super::super::i18n::Text;
use super::super::ice_view::{self, Look, Shade, View};
use super::super::palette::{FIRE, REACH};
use super::rules::{TEXT_WIDTH, caption, paragraphs, section};
use crate::driver::ice::{
    Broadside, Game, Goal, Placed, Point, Pose, Refusal, Shot, Side, Size, pose_at, shot_from,
    step_at,
};

/// A drawing's size on screen, in points.
const DRAWING: Vec2 = Vec2::new(240.0, 160.0);

/// A ship laid with its stern at (x, y) mm heading `degrees` counterclockwise from east.
fn laid(size: Size, x: i64, y: i64, degrees: f64) -> Placed {
    Placed {
        size,
        pose: pose_at(Point::new(x * 1000, y * 1000), size, degrees.to_radians()),
        flagship: false,
    }
}

/// A drawing of the piece of the table from `lo` to `hi` (mm).
fn piece(ui: &mut egui::Ui, lo: (i64, i64), hi: (i64, i64)) -> (egui::Painter, View) {
    let (rect, _) = ui.allocate_exact_size(DRAWING, Sense::hover());
    let view = View::fit(
        rect,
        Point::new(lo.0 * 1000, lo.1 * 1000),
        Point::new(hi.0 * 1000, hi.1 * 1000),
    );
    let painter = ui.painter_at(rect);
    painter.rect_filled(view.rect, 2.0, super::super::palette::DEEP);
    (painter, view)
}

/// A step: a medium ship heading east, the step that turns 30° laid from its bow
/// (the engine's answer), and a turn of 100° refused.
pub(super) struct StepDrawing {
    pub ship: Placed,
    pub laid: Pose,
    pub laid_ok: Result<(), Refusal>,
    pub refused: Pose,
    pub refused_why: Result<(), Refusal>,
}

pub(super) fn step_drawing() -> Option<StepDrawing> {
    let ship = laid(Size::Medium, 70, 80, 0.0);
    let enemy = laid(Size::Small, 170, 120, 180.0);
    let game = Game::arranged(Goal::SinkAll, [&[ship], &[enemy]]).ok()?;
    let turn = |degrees: f64| step_at(ship.pose, ship.size, degrees.to_radians());
    let (laid, refused) = (turn(30.0), turn(100.0));
    Some(StepDrawing {
        ship,
        laid,
        laid_ok: game.check_step(0, ship.pose, laid.bow).map(|_| ()),
        refused,
        refused_why: game.check_step(0, ship.pose, refused.bow).map(|_| ()),
    })
}

/// A broadside: a large ship's port field at the middle of its side, a small enemy
/// ship in it, and the line the engine found; with a ship laid across that line,
/// the same shot refused.
pub(super) struct FireDrawing {
    pub ships: [Placed; 2],
    pub enemies: Vec<Placed>,
    pub game: Game,
    pub shot: Shot,
    pub check: Result<(), Refusal>,
}

pub(super) fn fire_drawing(blocked: bool) -> Option<FireDrawing> {
    let large = laid(Size::Large, 60, 60, 0.0);
    let own = laid(Size::Small, 150, 50, 0.0);
    let target = laid(Size::Small, 95, 110, 0.0);
    let clear = Game::arranged(Goal::SinkAll, [&[large, own], &[target]]).ok()?;
    let shot = shot_from(&clear, 0, Broadside::Port, Size::Large.max_offset() / 2, 0)?;
    let mut enemies = vec![target];
    if blocked {
        // A small ship laid across the very line found above.
        enemies.push(laid(Size::Small, 78, 86, 0.0));
    }
    let game = Game::arranged(Goal::SinkAll, [&[large, own], &enemies]).ok()?;
    let check = game.check_shot(&shot);
    Some(FireDrawing {
        ships: [large, own],
        enemies,
        game,
        shot,
        check,
    })
}

fn paint_placed(painter: &egui::Painter, view: &View, placed: &Placed, north: bool) {
    ice_view::paint_ship(
        painter,
        view,
        placed.pose,
        placed.size,
        Look::of(ice_view::squadron(north)),
    );
}

fn paint_fire(ui: &mut egui::Ui, drawing: &FireDrawing) {
    let (painter, view) = piece(ui, (45, 40), (170, 125));
    for ship in &drawing.ships {
        paint_placed(&painter, &view, ship, false);
    }
    for ship in &drawing.enemies {
        paint_placed(&painter, &view, ship, true);
    }
    let ship = drawing.game.ships(Side::South)[0];
    let field = ship
        .pose
        .field(ship.size(), drawing.shot.side, drawing.shot.o);
    let colour = if drawing.check.is_ok() { REACH } else { FIRE };
    ice_view::paint_field(&painter, &view, &field, colour);
    ice_view::paint_line(
        &painter,
        &view,
        field.origin(drawing.shot.j),
        drawing.shot.at,
        colour,
    );
}

/// The sections of Icehouse Armada's rules.
pub(super) fn sections(ui: &mut egui::Ui, t: &Text) {
    let text =
        |ids: &'static [&'static str]| move |ui: &mut egui::Ui| paragraphs(ui, t, TEXT_WIDTH, ids);
    section(
        ui,
        &t.get("ice-rules-fleets-title"),
        |ui| {
            let (painter, view) = piece(ui, (40, 45), (175, 115));
            for (i, size) in Size::ALL.into_iter().enumerate() {
                let x = 70 + 45 * i as i64;
                paint_placed(&painter, &view, &laid(size, x, 60, 90.0), false);
            }
            caption(ui, t, "ice-rules-fleets-caption");
        },
        text(&["ice-rule-table", "ice-rule-fleets"]),
    );
    section(
        ui,
        &t.get("ice-rules-step-title"),
        |ui| {
            if let Some(d) = step_drawing() {
                let (painter, view) = piece(ui, (55, 50), (150, 125));
                paint_placed(&painter, &view, &d.ship, false);
                for (pose, ok) in [
                    (d.laid, d.laid_ok.is_ok()),
                    (d.refused, d.refused_why.is_ok()),
                ] {
                    let mut look = Look::of(REACH);
                    look.shade = if ok { Shade::Faint } else { Shade::Refused };
                    ice_view::paint_ship(&painter, &view, pose, d.ship.size, look);
                }
            }
            caption(ui, t, "ice-rules-step-caption");
        },
        text(&["ice-rule-step"]),
    );
    section(
        ui,
        &t.get("ice-rules-fire-title"),
        |ui| {
            if let Some(d) = fire_drawing(false) {
                paint_fire(ui, &d);
            }
            caption(ui, t, "ice-rules-fire-caption");
        },
        text(&["ice-rule-fire"]),
    );
    section(
        ui,
        &t.get("ice-rules-blocked-title"),
        |ui| {
            if let Some(d) = fire_drawing(true) {
                paint_fire(ui, &d);
            }
            caption(ui, t, "ice-rules-blocked-caption");
        },
        text(&["ice-rule-blocked"]),
    );
    section(
        ui,
        &t.get("ice-rules-turn-title"),
        |_| {},
        text(&["ice-rule-turn"]),
    );
    section(
        ui,
        &t.get("ice-rules-end-title"),
        |_| {},
        text(&["ice-rule-end", "ice-rule-friends"]),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drawings show what the engine says: the 30° step is laid, the 100° turn
    /// refused for overlapping the ship's last place; the line found is clear, and
    /// blocked by a ship laid across it.
    #[test]
    fn the_drawings_show_the_engines_answers() {
        let step = step_drawing().expect("the step's position is legal");
        assert_eq!(step.laid_ok, Ok(()));
        assert!(
            matches!(step.refused_why, Err(Refusal::StepTurnsBack { .. })),
            "{:?}",
            step.refused_why
        );
        let fire = fire_drawing(false).expect("a clear line is found");
        assert_eq!(fire.check, Ok(()));
        let blocked = fire_drawing(true).expect("the blocked position is legal");
        assert!(
            matches!(blocked.check, Err(Refusal::Blocked { .. })),
            "{:?}",
            blocked.check
        );
    }
}
