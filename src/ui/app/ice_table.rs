//! Icehouse Armada's table under the pointer: the ship in hand while placing, the
//! ghost of the next step, the large pyramid's shadow and the targets it lights —
//! proposals from the pointer, each checked by the rules before it is shown as legal.

use egui::{Color32, Painter, Pos2, Rect, Stroke};

use super::super::i18n::{Arg, Text};
use super::super::ice_view::{self, Look, Shade, View};
use super::super::palette::{DEEP, FIRE, REACH};
use crate::driver::ice::{
    Broadside, Field, Game, HOME_DEPTH, PlacementError, Point, Pose, Refusal, Shot, Side, Size,
    Step, TABLE_H, TABLE_W, heading, offset_toward, pose_at, shot_from, step_at,
};

/// A lit target's ring.
pub(super) const LIT: Color32 = Color32::from_rgb(255, 214, 90);

/// The table point nearest a floating one.
pub(super) fn point((x, y): (f64, f64)) -> Point {
    Point::new(x.round() as i64, y.round() as i64)
}

/// The middle of a footprint (its centroid), in floating micrometres.
pub(super) fn middle(t: &crate::driver::ice::Triangle) -> (f64, f64) {
    let [a, b, c] = t.0;
    (
        (a.x + b.x + c.x) as f64 / 3.0,
        (a.y + b.y + c.y) as f64 / 3.0,
    )
}

/// The angle from a table point to another.
pub(super) fn angle_to(from: Point, to: (f64, f64)) -> f64 {
    (to.1 - from.y as f64).atan2(to.0 - from.x as f64)
}

/// A ship of `size` centred on `at` (its footprint's middle under the pointer),
/// heading `angle`.
pub(super) fn pose_centred(at: (f64, f64), size: Size, angle: f64) -> Pose {
    // The footprint's centroid lies a third of the way from the stern to the bow.
    let back = size.slant() as f64 / 3.0;
    let stern = (at.0 - back * angle.cos(), at.1 - back * angle.sin());
    pose_at(point(stern), size, angle)
}

/// The sea, the two home strips (shaded while `placing`), and the back lines.
pub(super) fn paint_water(painter: &Painter, view: &View, mine: Side, placing: bool) {
    painter.rect_filled(view.rect, 4.0, DEEP);
    for side in Side::BOTH {
        let (lo, hi) = match side {
            Side::South => (0, HOME_DEPTH),
            Side::North => (TABLE_H - HOME_DEPTH, TABLE_H),
        };
        let rect = Rect::from_two_pos(
            view.pos(Point::new(0, lo)),
            view.pos(Point::new(TABLE_W, hi)),
        );
        let colour = ice_view::squadron(side == Side::North);
        let strength = if placing && side == mine { 0.18 } else { 0.06 };
        painter.rect_filled(rect, 0.0, colour.gamma_multiply(strength));
    }
    painter.rect_stroke(
        view.rect,
        4.0,
        Stroke::new(1.0, Color32::from_gray(120)),
        egui::StrokeKind::Inside,
    );
}

/// The look of a ship of `side` (the person's colour is their own, whichever side).
pub(super) fn look_of(mine: bool) -> Look {
    Look::of(ice_view::squadron(!mine))
}

/// Why a ship in hand may not lie at `pose` beside the ships laid (`others`: their
/// names and footprints); the rules decide again when the fleet is laid.
pub(super) fn placing_problem(
    side: Side,
    size: Size,
    pose: Pose,
    others: &[(String, crate::driver::ice::Triangle)],
) -> Option<Problem> {
    let t = pose.footprint(size);
    if !pose.stern.on_table_rect() || !pose.bow.on_table_rect() || !t.on_table() {
        return Some(Problem::Edge);
    }
    if !side.at_home(&t) {
        return Some(Problem::Home);
    }
    others
        .iter()
        .find(|(_, other)| other.touches(&t))
        .map(|(name, _)| Problem::Touches(name.clone()))
}

/// A place refused while placing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Problem {
    Edge,
    Home,
    Touches(String),
}

impl Problem {
    pub(super) fn say(&self, t: &Text, ship: &str) -> String {
        match self {
            Self::Edge => t.with("ice-refused-edge", &[("ship", Arg::from(ship))]),
            Self::Home => t.with("ice-refused-home", &[("ship", Arg::from(ship))]),
            Self::Touches(other) => t.with(
                "ice-refused-touch",
                &[
                    ("ship", Arg::from(ship)),
                    ("other", Arg::from(other.as_str())),
                ],
            ),
        }
    }
}

/// A placement the page refused, in the person's words.
pub(super) fn placement_refusal(t: &Text, error: &PlacementError) -> String {
    match error {
        PlacementError::OffTable { ship, .. } | PlacementError::OverTheEdge { ship } => {
            Problem::Edge.say(t, &ship.to_string())
        }
        PlacementError::NotHome { ship, .. } => Problem::Home.say(t, &ship.to_string()),
        PlacementError::Touching { ship, other } => {
            Problem::Touches(other.to_string()).say(t, &ship.to_string())
        }
        other => other.to_string(),
    }
}

/// Why the rules refused an action, in the person's words.
pub(super) fn refusal(t: &Text, refusal: &Refusal) -> String {
    let one = |id: &str, key: &str, value: String| t.with(id, &[(key, Arg::from(value))]);
    match refusal {
        Refusal::Over => t.get("arch-over"),
        Refusal::NoShip { .. } | Refusal::OffTable { .. } | Refusal::OffsetRange { .. } => {
            t.get("ice-why-no-such")
        }
        Refusal::OriginRange(_) | Refusal::StepLength { .. } => t.get("ice-why-no-such"),
        Refusal::Sunk { ship } => one("ice-why-sunk", "ship", ship.to_string()),
        Refusal::Moved { ship } => one("ice-why-moved", "ship", ship.to_string()),
        Refusal::NoShotLeft { ship, .. } => one("ice-why-no-shot", "ship", ship.to_string()),
        Refusal::TooManySteps { ship, max, .. } => t.with(
            "ice-why-too-many",
            &[
                ("ship", Arg::from(ship.to_string())),
                ("max", Arg::from(*max)),
            ],
        ),
        Refusal::StepOffTable { step } => {
            t.with("ice-why-off-table", &[("step", Arg::from(*step))])
        }
        Refusal::StepTurnsBack { step } => {
            t.with("ice-why-turns-back", &[("step", Arg::from(*step))])
        }
        Refusal::StepTouches { step, other, .. } => t.with(
            "ice-why-touches",
            &[
                ("step", Arg::from(*step)),
                ("other", Arg::from(other.to_string())),
            ],
        ),
        Refusal::AfterRam { .. } => t.get("ice-why-after-ram"),
        Refusal::NotInField { target, .. } | Refusal::NotOnTarget { target, .. } => {
            one("ice-not-lit", "ship", target.to_string())
        }
        Refusal::Blocked { by, .. } => one("ice-why-blocked", "by", by.to_string()),
    }
}

/// The poses a ship passes through with the steps laid so far (its own first).
pub(super) fn poses_along(start: Pose, bows: &[Point]) -> Vec<Pose> {
    let mut poses = vec![start];
    for &bow in bows {
        let last = poses[poses.len() - 1];
        poses.push(Pose::new(last.bow, bow));
    }
    poses
}

/// The ghost of the next step from `from`: heading `angle`, and what the rules say.
pub(super) fn ghost(
    game: &Game,
    ship: u8,
    size: Size,
    from: Pose,
    angle: f64,
) -> (Pose, Result<Step, Refusal>) {
    let next = step_at(from, size, angle);
    let verdict = game.check_step(ship, from, next.bow);
    (next, verdict)
}

/// The broadside under the pointer: the side nearer it, the shadow's place along
/// it, the field, and every enemy ship it lights with the shot found at each.
pub(super) struct Aim {
    pub field: Field,
    pub lit: Vec<Shot>,
}

pub(super) fn aim(game: &Game, ship: u8, pointer: (f64, f64)) -> Option<Aim> {
    let me = game.to_move();
    let firing = game.ships(me).get(usize::from(ship))?;
    let (size, pose) = (firing.size(), firing.pose);
    let (port, starboard) = pose.corners(size);
    let d = |p: Point| (p.x as f64 - pointer.0).hypot(p.y as f64 - pointer.1);
    let side = if d(port) <= d(starboard) {
        Broadside::Port
    } else {
        Broadside::Starboard
    };
    let o = offset_toward(pose, size, side, pointer);
    let field = pose.field(size, side, o);
    let lit = (0..game.ships(me.other()).len())
        .filter_map(|target| shot_from(game, ship, side, o, target as u8))
        .collect();
    Some(Aim { field, lit })
}

/// Draws the ghost of a step, red with its reason's colour when refused.
pub(super) fn paint_ghost(
    painter: &Painter,
    view: &View,
    size: Size,
    pose: Pose,
    ok: bool,
    mine: bool,
) {
    let look = Look {
        shade: if ok { Shade::Faint } else { Shade::Refused },
        ..look_of(mine)
    };
    ice_view::paint_ship(painter, view, pose, size, look);
}

/// A ring around a ship's footprint (picked, lit, or just hit).
pub(super) fn paint_ring(
    painter: &Painter,
    view: &View,
    pose: Pose,
    size: Size,
    colour: Color32,
    width: f32,
) {
    let t = pose.footprint(size);
    let points: Vec<Pos2> = t.0.iter().map(|&p| view.pos(p)).collect();
    painter.add(egui::Shape::closed_line(points, Stroke::new(width, colour)));
}

/// The reach of a step, drawn faintly around the bow it pivots on.
pub(super) fn paint_pivot(painter: &Painter, view: &View, from: Pose, size: Size) {
    painter.circle_stroke(
        view.pos(from.bow),
        view.len(size.slant()),
        Stroke::new(1.0, REACH.gamma_multiply(0.35)),
    );
}

/// A shot's line, drawn heavy (the one just fired) or light (the last turn's).
pub(super) fn paint_shot(painter: &Painter, view: &View, from: Point, to: Point, heavy: bool) {
    let colour = if heavy {
        FIRE
    } else {
        FIRE.gamma_multiply(0.5)
    };
    ice_view::paint_line(painter, view, from, to, colour);
}

/// The heading of a pose, for turning a laid ship picked up again.
pub(super) fn heading_of(pose: Pose) -> f64 {
    heading(pose)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::ice::{Goal, Placed, pose_at};

    fn laid(size: Size, x: i64, y: i64, degrees: f64) -> Placed {
        Placed {
            size,
            pose: pose_at(Point::new(x * 1000, y * 1000), size, degrees.to_radians()),
            flagship: false,
        }
    }

    /// The shadow under the pointer lights a target with a clear line and not the
    /// same target when a ship lies across every line to it, though it is still in
    /// the field.
    #[test]
    fn a_target_in_the_shadow_is_lit_only_with_a_clear_line() {
        let large = laid(Size::Large, 60, 60, 0.0);
        let target = laid(Size::Small, 80, 112, 0.0);
        let clear = Game::arranged(Goal::SinkAll, [&[large], &[target]]).unwrap();
        let centre = |t: &crate::driver::ice::Triangle| {
            let [a, b, c] = t.0;
            (
                (a.x + b.x + c.x) as f64 / 3.0,
                (a.y + b.y + c.y) as f64 / 3.0,
            )
        };
        let at = centre(&target.pose.footprint(target.size));
        let lit = aim(&clear, 0, at).unwrap();
        assert!(
            lit.field
                .triangle()
                .touches(&target.pose.footprint(target.size))
        );
        assert_eq!(lit.lit.len(), 1, "a clear line lights the target");
        // A large ship laid across, between the side and the target.
        let wall = laid(Size::Large, 115, 90, 180.0);
        let blocked = Game::arranged(Goal::SinkAll, [&[large], &[target, wall]]).unwrap();
        let aimed = aim(&blocked, 0, at).unwrap();
        assert!(
            aimed
                .field
                .triangle()
                .touches(&target.pose.footprint(target.size))
        );
        assert!(
            aimed.lit.iter().all(|s| s.target != 0),
            "a blocked target is not lit: {:?}",
            aimed.lit
        );
    }
}
