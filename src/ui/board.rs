//! Drawing a board: the grid with its A–J / 1–10 edges, each cell as it should look,
//! overlays (aim previews, radar outlines, a running animation), and each cell as a
//! control of its own (so screen readers and the tests can name it).

use egui::{Align2, Color32, FontId, Id, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};

use crate::rules::{BoardSize, Coord, Heading};

/// How one cell looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Nothing known.
    Unknown,
    /// Open sea on the player's own board.
    Sea,
    /// One of the player's own decks, afloat.
    Ship,
    /// Water that was fired at, or a sunk ship's ring.
    Miss,
    /// A deck hit, its ship afloat.
    Hit,
    /// A deck of a sunk ship.
    Wreck,
}

/// A mark drawn over a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Where an aimed action would land.
    Aim,
    /// Where it may not be aimed.
    Refused,
    /// A ship being placed that fits.
    Fits,
    /// A radar sweep's square (faint outline).
    Swept,
    /// The radar shows a deck here.
    RadarDeck,
    /// The radar shows water here.
    RadarWater,
    /// The cell an animation is at now.
    Flash,
    /// An air-strike shell that fell on a cell already marked: lost.
    Lost,
    /// Where a torpedo enters the board, and the way it runs.
    Arrow(Heading),
    /// The keyboard cursor.
    Cursor,
}

/// What the player did with the board this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gesture {
    /// The cell under the pointer.
    pub hovered: Option<Coord>,
    /// A cell clicked with the primary button (or activated by a screen reader).
    pub clicked: Option<Coord>,
    /// A cell clicked with the secondary button.
    pub secondary: Option<Coord>,
    /// A drag started on this cell.
    pub drag_started: Option<Coord>,
    /// The pointer was released over this cell (the end of a drag).
    pub released: Option<Coord>,
}

const WATER: Color32 = Color32::from_rgb(24, 58, 92);
const SEA_LINE: Color32 = Color32::from_rgb(60, 100, 140);

/// Draws a board of `size` with cells `cell` points wide; `look` says how each cell
/// looks, `overlays` what lies over it, `label` its name for screen readers.
pub fn show(
    ui: &mut egui::Ui,
    id: Id,
    size: BoardSize,
    cell: f32,
    look: &dyn Fn(Coord) -> Look,
    overlays: &[(Coord, Overlay)],
    label: &dyn Fn(Coord) -> String,
) -> Gesture {
    let side = f32::from(size.side());
    let margin = cell * 0.8;
    let (outer, _) = ui.allocate_exact_size(
        Vec2::new(margin + side * cell, margin + side * cell),
        Sense::hover(),
    );
    let origin = outer.min + Vec2::splat(margin);
    let rect_of = |c: Coord| {
        Rect::from_min_size(
            origin + Vec2::new(f32::from(c.col()) * cell, f32::from(c.row()) * cell),
            Vec2::splat(cell),
        )
    };
    let painter = ui.painter_at(outer.expand(2.0));
    let text = ui.visuals().text_color();
    let font = FontId::proportional(cell * 0.42);
    for i in 0..size.side() {
        let x = origin.x + (f32::from(i) + 0.5) * cell;
        let y = origin.y + (f32::from(i) + 0.5) * cell;
        let letter = char::from(b'A' + i).to_string();
        painter.text(
            Pos2::new(x, outer.min.y + margin * 0.5),
            Align2::CENTER_CENTER,
            letter,
            font.clone(),
            text,
        );
        painter.text(
            Pos2::new(outer.min.x + margin * 0.5, y),
            Align2::CENTER_CENTER,
            (i + 1).to_string(),
            font.clone(),
            text,
        );
    }
    let mut gesture = Gesture::default();
    let pointer = ui.input(|i| i.pointer.hover_pos());
    let released = ui.input(|i| i.pointer.primary_released());
    for c in size.cells() {
        let rect = rect_of(c);
        let response = ui.interact(rect, id.with((c.col(), c.row())), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, label(c)));
        if response.clicked() {
            gesture.clicked = Some(c);
        }
        if response.secondary_clicked() {
            gesture.secondary = Some(c);
        }
        if response.drag_started() {
            gesture.drag_started = Some(c);
        }
        if pointer.is_some_and(|p| rect.contains(p)) {
            gesture.hovered = Some(c);
            if released {
                gesture.released = Some(c);
            }
        }
        paint_cell(&painter, rect, look(c));
    }
    for (c, overlay) in overlays {
        paint_overlay(&painter, rect_of(*c), *overlay);
    }
    let board = Rect::from_min_size(origin, Vec2::splat(side * cell));
    painter.rect_stroke(board, 0.0, Stroke::new(1.5, SEA_LINE), StrokeKind::Outside);
    gesture
}

fn paint_cell(painter: &egui::Painter, rect: Rect, look: Look) {
    let inner = rect.shrink(1.0);
    let fill = match look {
        Look::Unknown => Color32::from_rgb(34, 72, 110),
        Look::Sea | Look::Miss => WATER,
        Look::Ship => Color32::from_rgb(150, 160, 170),
        Look::Hit => Color32::from_rgb(200, 120, 40),
        Look::Wreck => Color32::from_rgb(110, 40, 40),
    };
    painter.rect_filled(inner, 2.0, fill);
    let c = rect.center();
    let r = rect.width() * 0.12;
    match look {
        Look::Miss => {
            painter.circle_filled(c, r, Color32::from_rgb(170, 200, 230));
        }
        Look::Hit | Look::Wreck => {
            let d = rect.width() * 0.28;
            let stroke = Stroke::new(2.5, Color32::from_rgb(250, 230, 210));
            painter.line_segment([c - Vec2::splat(d), c + Vec2::splat(d)], stroke);
            painter.line_segment([c + Vec2::new(-d, d), c + Vec2::new(d, -d)], stroke);
        }
        _ => {}
    }
}

fn paint_overlay(painter: &egui::Painter, rect: Rect, overlay: Overlay) {
    let inner = rect.shrink(2.0);
    match overlay {
        Overlay::Aim => {
            painter.rect_filled(
                inner,
                2.0,
                Color32::from_rgba_unmultiplied(255, 220, 80, 70),
            );
            painter.rect_stroke(
                inner,
                2.0,
                Stroke::new(1.5, Color32::from_rgb(255, 220, 80)),
                StrokeKind::Inside,
            );
        }
        Overlay::Refused => {
            painter.rect_filled(inner, 2.0, Color32::from_rgba_unmultiplied(230, 60, 60, 90));
        }
        Overlay::Fits => {
            painter.rect_filled(
                inner,
                2.0,
                Color32::from_rgba_unmultiplied(90, 220, 120, 110),
            );
        }
        Overlay::Swept => {
            painter.rect_stroke(
                rect.shrink(3.0),
                3.0,
                Stroke::new(1.0, Color32::from_rgba_unmultiplied(220, 220, 255, 90)),
                StrokeKind::Inside,
            );
        }
        Overlay::RadarDeck => {
            painter.circle_stroke(
                rect.center(),
                rect.width() * 0.3,
                Stroke::new(2.5, Color32::from_rgb(120, 255, 140)),
            );
        }
        Overlay::RadarWater => {
            painter.circle_stroke(
                rect.center(),
                rect.width() * 0.15,
                Stroke::new(1.0, Color32::from_rgb(120, 200, 255)),
            );
        }
        Overlay::Flash => {
            painter.rect_filled(
                inner,
                2.0,
                Color32::from_rgba_unmultiplied(255, 255, 255, 120),
            );
        }
        Overlay::Lost => {
            // A grey puff with a slash: the shell fell where nothing was left to hit.
            let c = rect.center();
            let r = rect.width() * 0.3;
            painter.circle_stroke(c, r, Stroke::new(2.0, Color32::from_gray(200)));
            painter.line_segment(
                [c + Vec2::new(-r, r), c + Vec2::new(r, -r)],
                Stroke::new(2.0, Color32::from_gray(200)),
            );
        }
        Overlay::Arrow(heading) => {
            let c = rect.center();
            let r = rect.width() * 0.32;
            let (dx, dy) = match heading {
                Heading::Right => (1.0, 0.0),
                Heading::Left => (-1.0, 0.0),
                Heading::Down => (0.0, 1.0),
                Heading::Up => (0.0, -1.0),
            };
            let ahead = Vec2::new(dx, dy);
            let side = Vec2::new(-dy, dx);
            painter.add(egui::Shape::convex_polygon(
                vec![
                    c + ahead * r,
                    c - ahead * r + side * r,
                    c - ahead * r - side * r,
                ],
                Color32::from_rgb(255, 220, 80),
                Stroke::NONE,
            ));
        }
        Overlay::Cursor => {
            painter.rect_stroke(
                inner,
                2.0,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Inside,
            );
        }
    }
}
