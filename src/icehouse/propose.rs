//! Proposing, not deciding: turns a heading or a pointer into the nearest integer
//! step, and searches for a line of fire at a target. Floats are allowed here
//! because every proposal is checked by the exact rules before anyone uses it.

use rand::RngExt;

use super::fleet::Fleet;
use super::game::{Game, Goal, HOME_DEPTH, Placed, Refusal, Shot, Side, Step};
use super::geometry::{Broadside, Point, Pose, Size, TABLE_H, TABLE_W, Triangle};

/// Headings tried either side of the asked one, half a degree apart.
const TURN_STEP: f64 = std::f64::consts::PI / 360.0;
/// Where along a side the large pyramid is tried: this many places from 0 to `max`.
const OFFSETS: i64 = 9;
/// Where along the field's base a line of fire is tried: every 50 thousandths.
const ORIGINS: i64 = 50;

/// A pose's heading: the angle from the x axis to the bow, in radians.
pub fn heading(pose: Pose) -> f64 {
    let d = (pose.bow.x - pose.stern.x, pose.bow.y - pose.stern.y);
    (d.1 as f64).atan2(d.0 as f64)
}

/// The pose one step on from `from`, heading `angle`: the bow's integer point
/// nearest the true one (always within the rules' 2 µm of a ship length).
pub fn step_at(from: Pose, size: Size, angle: f64) -> Pose {
    let s = size.slant() as f64;
    let bow = Point::new(
        from.bow.x + (s * angle.cos()).round() as i64,
        from.bow.y + (s * angle.sin()).round() as i64,
    );
    Pose::new(from.bow, bow)
}

/// A pose for a ship of `size` with its stern at `stern`, heading `angle`.
pub fn pose_at(stern: Point, size: Size, angle: f64) -> Pose {
    step_at(Pose::new(stern, stern), size, angle)
}

/// The step from `from` pointing at `toward` and what the rules say of it.
pub fn step_toward(
    game: &Game,
    number: u8,
    from: Pose,
    toward: (f64, f64),
) -> Result<(Pose, Result<Step, Refusal>), Refusal> {
    let size = ship_size(game, number)?;
    let angle = (toward.1 - from.bow.y as f64).atan2(toward.0 - from.bow.x as f64);
    let next = step_at(from, size, angle);
    Ok((next, game.check_step(number, from, next.bow)))
}

/// The legal step nearest in heading to `angle`, or the refusal of `angle`'s own
/// step when no heading is legal (a ship stuck at the edge, or boxed in).
pub fn nearest_step(
    game: &Game,
    number: u8,
    from: Pose,
    angle: f64,
) -> Result<(Pose, Step), Refusal> {
    let size = ship_size(game, number)?;
    let asked = step_at(from, size, angle);
    let refusal = match game.check_step(number, from, asked.bow) {
        Ok(step) => return Ok((asked, step)),
        Err(refusal) => refusal,
    };
    for k in 1..=360 {
        for sign in [1.0, -1.0] {
            let next = step_at(from, size, angle + sign * f64::from(k) * TURN_STEP);
            if let Ok(step) = game.check_step(number, from, next.bow) {
                return Ok((next, step));
            }
        }
    }
    Err(refusal)
}

fn ship_size(game: &Game, number: u8) -> Result<Size, Refusal> {
    let side = game.to_move();
    let ship = game
        .ships(side)
        .get(usize::from(number))
        .ok_or(Refusal::NoShip { side, number })?;
    Ok(ship.size())
}

/// A legal shot of the side to move's ship `ship` at enemy ship `target`, on
/// `side` or on either side, with the large pyramid anywhere along it; `None` when
/// the search finds no clear line (the rules may still allow one it missed).
pub fn find_shot(game: &Game, ship: u8, side: Option<Broadside>, target: u8) -> Option<Shot> {
    let size = game.ships(game.to_move()).get(usize::from(ship))?.size();
    let max = size.max_offset();
    let sides = side.map_or(Broadside::BOTH.to_vec(), |s| vec![s]);
    for side in sides {
        for k in 0..OFFSETS {
            let o = max * k / (OFFSETS - 1);
            if let Some(shot) = shot_from(game, ship, side, o, target) {
                return Some(shot);
            }
        }
    }
    None
}

/// A legal shot with the large pyramid at `o` along `side` (the window's shadow
/// under the pointer), if the search finds one.
pub fn shot_from(game: &Game, ship: u8, side: Broadside, o: i64, target: u8) -> Option<Shot> {
    let mover = game.to_move();
    let firing = game.ships(mover).get(usize::from(ship))?;
    let enemy = game.ships(mover.other()).get(usize::from(target))?;
    if !firing.afloat || !enemy.afloat {
        return None;
    }
    let field = firing.pose.field(firing.size(), side, o).triangle();
    if !field.touches(&enemy.footprint()) {
        return None;
    }
    for at in candidates(&field, &enemy.footprint()) {
        for j in (0..=1000).step_by(ORIGINS as usize) {
            let shot = Shot {
                ship,
                side,
                o,
                j,
                target,
                at,
            };
            if game.check_shot(&shot).is_ok() {
                return Some(shot);
            }
        }
    }
    None
}

/// The `o` whose field's middle lies nearest the pointer along `side` of `pose`.
pub fn offset_toward(pose: Pose, size: Size, side: Broadside, pointer: (f64, f64)) -> i64 {
    let (port, starboard) = pose.corners(size);
    let b = match side {
        Broadside::Port => port,
        Broadside::Starboard => starboard,
    };
    let w = ((pose.bow.x - b.x) as f64, (pose.bow.y - b.y) as f64);
    let l = size.long_side() as f64;
    let along = ((pointer.0 - b.x as f64) * w.0 + (pointer.1 - b.y as f64) * w.1) / l;
    let o = along - Size::Large.base() as f64 / 2.0;
    (o.round() as i64).clamp(0, size.max_offset())
}

/// Integer points worth trying as a line's end: the corners of the part of the
/// target inside the field, pulled towards its middle, and the middle itself.
fn candidates(field: &Triangle, target: &Triangle) -> Vec<Point> {
    let clipped = clip(&to_f(target), &to_f(field));
    if clipped.is_empty() {
        return Vec::new();
    }
    let n = clipped.len() as f64;
    let mid = clipped
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
    let mut points = vec![round(mid)];
    for pull in [0.1, 0.5] {
        for p in &clipped {
            points.push(round((
                p.0 + (mid.0 - p.0) * pull,
                p.1 + (mid.1 - p.1) * pull,
            )));
        }
    }
    points.dedup();
    points
}

fn to_f(t: &Triangle) -> Vec<(f64, f64)> {
    t.0.iter().map(|p| (p.x as f64, p.y as f64)).collect()
}

fn round(p: (f64, f64)) -> Point {
    Point::new(p.0.round() as i64, p.1.round() as i64)
}

/// The convex polygon `subject` clipped by the convex polygon `by`
/// (Sutherland–Hodgman), in floats.
fn clip(subject: &[(f64, f64)], by: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let area: f64 = (0..by.len())
        .map(|i| {
            let (a, b) = (by[i], by[(i + 1) % by.len()]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let orient = area.signum();
    // Which side of the edge from `start` to `end` a point lies on (positive: in).
    let side = |start: (f64, f64), end: (f64, f64), at: (f64, f64)| {
        orient * ((end.0 - start.0) * (at.1 - start.1) - (end.1 - start.1) * (at.0 - start.0))
    };
    let mut out = subject.to_vec();
    for i in 0..by.len() {
        let (start, end) = (by[i], by[(i + 1) % by.len()]);
        let input = std::mem::take(&mut out);
        for k in 0..input.len() {
            let (here, next) = (input[k], input[(k + 1) % input.len()]);
            let (d_here, d_next) = (side(start, end, here), side(start, end, next));
            if d_here >= 0.0 {
                out.push(here);
            }
            if (d_here >= 0.0) != (d_next >= 0.0) {
                let ratio = d_here / (d_here - d_next);
                out.push((
                    here.0 + (next.0 - here.0) * ratio,
                    here.1 + (next.1 - here.1) * ratio,
                ));
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// A legal placement of `fleet` in `side`'s home strip, drawn with `rng`: each ship
/// laid at a random place and heading until it fits beside the ones before (the
/// first ship flagship when `goal` asks for one).
pub fn random_placement<R: rand::Rng + ?Sized>(
    side: Side,
    fleet: Fleet,
    goal: Goal,
    rng: &mut R,
) -> Vec<Placed> {
    let sizes: Vec<Size> = fleet.sizes().collect();
    let mut laid = vec![None; sizes.len()];
    loop {
        if let Some(placed) = complete_placement(side, &sizes, goal, &mut laid, rng) {
            return placed;
        }
    }
}

/// The ships of `sizes` not yet laid (`None` in `laid`) laid at random beside the
/// ones that are, in `side`'s home strip; the whole placement in `sizes`' order
/// (the first ship flagship when `goal` asks for one), or `None` when the ships
/// laid by hand leave no room the search finds (nothing is changed then).
pub fn complete_placement<R: rand::Rng + ?Sized>(
    side: Side,
    sizes: &[Size],
    goal: Goal,
    laid: &mut [Option<Pose>],
    rng: &mut R,
) -> Option<Vec<Placed>> {
    let margin = 30_000;
    let (lo, hi) = match side {
        Side::South => (margin, HOME_DEPTH - margin),
        Side::North => (TABLE_H - HOME_DEPTH + margin, TABLE_H - margin),
    };
    let mut poses: Vec<Option<Pose>> = laid.to_vec();
    for (i, &size) in sizes.iter().enumerate() {
        if poses[i].is_some() {
            continue;
        }
        let others: Vec<Triangle> = poses
            .iter()
            .zip(sizes)
            .filter_map(|(p, &s)| p.map(|p| p.footprint(s)))
            .collect();
        let fits = (0..1000).find_map(|_| {
            let stern = Point::new(
                rng.random_range(margin..TABLE_W - margin),
                rng.random_range(lo..hi),
            );
            let angle = rng.random_range(-std::f64::consts::PI..std::f64::consts::PI);
            let pose = pose_at(stern, size, angle);
            let t = pose.footprint(size);
            let clear = pose.legal(size)
                && t.on_table()
                && side.at_home(&t)
                && others.iter().all(|o| !o.touches(&t));
            clear.then_some(pose)
        });
        poses[i] = Some(fits?);
    }
    laid.copy_from_slice(&poses);
    poses
        .iter()
        .zip(sizes)
        .enumerate()
        .map(|(i, (pose, &size))| {
            pose.map(|pose| Placed {
                size,
                pose,
                flagship: goal == Goal::Flagship && i == 0,
            })
        })
        .collect()
}
