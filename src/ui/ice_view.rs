//! Icehouse Armada's table seen from above: a piece of the table (micrometres, north up) fitted to a screen rectangle, and the painting of its pyramids (two shaded faces so the bow reads at a glance, pips as dots, damage in red), fields of fire and lines of fire.

use eframe::egui::{Color32, Painter, Pos2, Rect, Shape, Stroke, Vec2};

use crate::driver::ice::{Field, Point, Pose, Size, Triangle};

use super::palette::{FIRE, MINE, THEIRS};

/// A piece of the table drawn in a screen rectangle, at one scale both ways.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The table point drawn at the rectangle's bottom-left corner, µm.
    origin: (f64, f64),
    /// Points per micrometre.
    scale: f64,
    /// Where on screen the piece is drawn.
    pub rect: Rect,
    /// Turned half round (north at the bottom): the north player sees their own
    /// fleet nearest, as the south player does.
    turned: bool,
}

impl View {
    /// The piece from `lo` to `hi` (µm) as large as it fits in `screen`, centred.
    pub fn fit(screen: Rect, lo: Point, hi: Point) -> Self {
        let (w, h) = ((hi.x - lo.x).max(1) as f64, (hi.y - lo.y).max(1) as f64);
        let scale = (f64::from(screen.width()) / w).min(f64::from(screen.height()) / h);
        let size = Vec2::new((w * scale) as f32, (h * scale) as f32);
        Self {
            origin: (lo.x as f64, lo.y as f64),
            scale,
            rect: Rect::from_center_size(screen.center(), size),
            turned: false,
        }
    }

    /// The same piece turned half round when `turned`.
    #[must_use]
    pub const fn turned(mut self, turned: bool) -> Self {
        self.turned = turned;
        self
    }

    /// A table point on screen.
    pub fn pos(&self, p: Point) -> Pos2 {
        self.pos_f((p.x as f64, p.y as f64))
    }

    /// A table point in floating micrometres on screen.
    pub fn pos_f(&self, (x, y): (f64, f64)) -> Pos2 {
        let dx = ((x - self.origin.0) * self.scale) as f32;
        let dy = ((y - self.origin.1) * self.scale) as f32;
        if self.turned {
            Pos2::new(self.rect.right() - dx, self.rect.top() + dy)
        } else {
            Pos2::new(self.rect.left() + dx, self.rect.bottom() - dy)
        }
    }

    /// The table point under a screen point, in floating micrometres (for proposals).
    pub fn table_at(&self, at: Pos2) -> (f64, f64) {
        let (dx, dy) = if self.turned {
            (self.rect.right() - at.x, at.y - self.rect.top())
        } else {
            (at.x - self.rect.left(), self.rect.bottom() - at.y)
        };
        (
            f64::from(dx) / self.scale + self.origin.0,
            f64::from(dy) / self.scale + self.origin.1,
        )
    }

    /// A length on the table in screen points.
    pub fn len(&self, micrometres: i64) -> f32 {
        (micrometres as f64 * self.scale) as f32
    }

    fn triangle(&self, t: &Triangle) -> Vec<Pos2> {
        t.0.iter().map(|&p| self.pos(p)).collect()
    }
}

/// The colour of a squadron: the south's (the first to move), the north's.
pub const fn squadron(north: bool) -> Color32 {
    if north { THEIRS } else { MINE }
}

/// How solid a ship is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    Solid,
    /// A ghost (a step not yet laid) or a trace of the last turn.
    Faint,
    /// A ghost in red: a refused place.
    Refused,
    /// Grey, crossed out.
    Sunk,
}

/// How a ship is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub colour: Color32,
    /// Hits taken, marked on its pips.
    pub damage: u8,
    pub flagship: bool,
    pub shade: Shade,
}

impl Look {
    pub const fn of(colour: Color32) -> Self {
        Self {
            colour,
            damage: 0,
            flagship: false,
            shade: Shade::Solid,
        }
    }
}

/// A pyramid lying on its side, seen from above: the ridge from the middle of its
/// base to its tip splits it into a lit face and a shaded one, so the bow reads at a
/// glance; its pips sit by the stern, red where it was hit; a flagship wears a ring.
pub fn paint_ship(painter: &Painter, view: &View, pose: Pose, size: Size, look: Look) {
    let (port, starboard) = pose.corners(size);
    let [p, s, bow, stern] = [port, starboard, pose.bow, pose.stern].map(|q| view.pos(q));
    let base = match look.shade {
        Shade::Refused => FIRE,
        Shade::Sunk => Color32::from_gray(95),
        Shade::Solid | Shade::Faint => look.colour,
    };
    let faint = matches!(look.shade, Shade::Faint | Shade::Refused);
    let alpha = if faint { 0.45 } else { 1.0 };
    let lit = base.gamma_multiply(alpha);
    let shade = Color32::from_rgb(
        (f32::from(base.r()) * 0.62) as u8,
        (f32::from(base.g()) * 0.62) as u8,
        (f32::from(base.b()) * 0.62) as u8,
    )
    .gamma_multiply(alpha);
    painter.add(Shape::convex_polygon(
        vec![p, stern, bow],
        lit,
        Stroke::NONE,
    ));
    painter.add(Shape::convex_polygon(
        vec![stern, s, bow],
        shade,
        Stroke::NONE,
    ));
    // A ghost is outlined in its own colour, so it reads over the water.
    let edge = if faint {
        Stroke::new(1.5, base)
    } else {
        Stroke::new(1.0, Color32::BLACK.gamma_multiply(0.6))
    };
    painter.add(Shape::closed_line(vec![p, s, bow], edge));
    painter.line_segment([stern, bow], Stroke::new(0.8, edge.color));
    // The pips, from the stern toward the bow along the ridge.
    let pips = size.pips();
    let dot = view.len(size.base()).mul_add(0.09, 0.8).min(4.0);
    for k in 0..pips {
        let t = 0.16 + 0.13 * f32::from(k);
        let at = stern + (bow - stern) * t;
        let hit = k < look.damage;
        let colour = if hit { FIRE } else { Color32::WHITE };
        painter.circle_filled(at, dot, colour.gamma_multiply(alpha));
    }
    if look.flagship {
        let r = view.len(size.base()) * 0.5;
        painter.circle_stroke(
            stern + (bow - stern) * 0.45,
            r.max(4.0),
            Stroke::new(1.5, Color32::from_rgb(255, 220, 80).gamma_multiply(alpha)),
        );
    }
    if look.shade == Shade::Sunk {
        let cross = Stroke::new(2.0, FIRE.gamma_multiply(0.8));
        painter.line_segment([p, stern + (bow - stern) * 0.8], cross);
        painter.line_segment([s, stern + (bow - stern) * 0.8], cross);
    }
}

/// A field of fire: the large pyramid's shadow laid against a side.
pub fn paint_field(painter: &Painter, view: &View, field: &Field, colour: Color32) {
    let points = view.triangle(&field.triangle());
    painter.add(Shape::convex_polygon(
        points.clone(),
        colour.gamma_multiply(0.22),
        Stroke::NONE,
    ));
    painter.add(Shape::closed_line(points, Stroke::new(1.2, colour)));
}

/// A line of fire from `from` to `to`.
pub fn paint_line(painter: &Painter, view: &View, from: Point, to: Point, colour: Color32) {
    let (a, b) = (view.pos(from), view.pos(to));
    painter.line_segment([a, b], Stroke::new(2.0, colour));
    painter.circle_filled(b, 3.0, colour);
}
