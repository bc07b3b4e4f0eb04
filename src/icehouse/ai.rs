//! Computer captains for Icehouse Armada: easy, medium and hard. Each chooses one
//! action at a time from the table as it stands (nothing is hidden in play), keeps
//! nothing between actions, and proposes with floats what the rules then check.

use rand::{Rng, RngExt};

use super::game::{Action, Game, Goal, Ship, Shot, Side, Step, Steps};
use super::geometry::{Point, Pose, Size, TABLE_H, TABLE_W};
use super::propose::{find_shot, heading, step_at};

/// How well a computer captain plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Fires when it happens to, wanders otherwise.
    Easy,
    /// Fires at the weakest target in reach, otherwise steers at the nearest enemy.
    Medium,
    /// Fires as medium, and moves where its broadsides reach more than the
    /// enemy's reach it, keeping off the edges.
    Hard,
}

impl Level {
    pub const ALL: [Self; 3] = [Self::Easy, Self::Medium, Self::Hard];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s).ok_or_else(|| format!("{s:?}: the levels are easy, medium and hard"))
    }
}

/// Centre-to-centre distance beyond which no broadside can reach: the largest
/// ship, a large pyramid's field and the largest target, with room to spare.
const REACH: i64 = 2 * 46_229 + 2 * 47_941;

/// The next action of the side to move.
pub fn choose<R: Rng + ?Sized>(game: &Game, level: Level, rng: &mut R) -> Action {
    if game.ending().is_some() {
        return Action::EndTurn;
    }
    let shots = shots(game);
    match level {
        Level::Easy => {
            if !shots.is_empty() && rng.random_bool(0.6) {
                return Action::Fire(shots[rng.random_range(0..shots.len())]);
            }
            if rng.random_bool(0.7)
                && let Some(action) = wander(game, rng)
            {
                return action;
            }
            Action::EndTurn
        }
        Level::Medium | Level::Hard => {
            if let Some(shot) = best_shot(game, &shots) {
                return Action::Fire(shot);
            }
            let moved = if level == Level::Hard {
                manoeuvre(game)
            } else {
                close_in(game)
            };
            moved.unwrap_or(Action::EndTurn)
        }
    }
}

/// Every shot the side to move can fire now, one per ship and target.
fn shots(game: &Game) -> Vec<Shot> {
    let side = game.to_move();
    let mut out = Vec::new();
    for (i, ship) in game.ships(side).iter().enumerate() {
        let i = i as u8;
        if !ship.afloat || game.shots_fired(i) >= ship.size().pips() {
            continue;
        }
        for (t, target) in game.ships(side.other()).iter().enumerate() {
            if target.afloat
                && near(ship, target)
                && let Some(shot) = find_shot(game, i, None, t as u8)
            {
                out.push(shot);
            }
        }
    }
    out
}

fn near(a: &Ship, b: &Ship) -> bool {
    let (p, q) = (a.pose.stern, b.pose.stern);
    let (dx, dy) = (i128::from(p.x - q.x), i128::from(p.y - q.y));
    dx * dx + dy * dy <= i128::from(REACH) * i128::from(REACH)
}

/// The shot that sinks (a flagship first), else the one at the target nearest to
/// sinking.
fn best_shot(game: &Game, shots: &[Shot]) -> Option<Shot> {
    let enemy = game.ships(game.to_move().other());
    shots.iter().copied().min_by_key(|shot| {
        let target = &enemy[usize::from(shot.target)];
        let left = target.size().pips() - target.damage;
        let flagship = game.goal() == Goal::Flagship && target.flagship;
        (left, !flagship)
    })
}

/// A random ship takes a random legal step (easy).
fn wander<R: Rng + ?Sized>(game: &Game, rng: &mut R) -> Option<Action> {
    let side = game.to_move();
    let ships = game.ships(side);
    let free: Vec<u8> = (0..ships.len() as u8)
        .filter(|&i| ships[usize::from(i)].afloat && !game.has_moved(i))
        .collect();
    if free.is_empty() {
        return None;
    }
    let i = free[rng.random_range(0..free.len())];
    let ship = ships[usize::from(i)];
    let turn = rng.random_range(-1.0..1.0);
    let next = step_at(ship.pose, ship.size(), heading(ship.pose) + turn);
    let action = Action::Move {
        ship: i,
        steps: Steps::new(&[next.bow])?,
    };
    game.check(&action).is_ok().then_some(action)
}

/// Where a side wants its ships: at the nearest enemy, or over the back line when
/// it attacks a breakthrough.
fn aim_point(game: &Game, ship: &Ship) -> Option<Point> {
    let side = ship.name.side;
    if let Goal::Breakthrough { attacker } = game.goal()
        && attacker == side
    {
        let y = match side {
            Side::South => TABLE_H - 20_000,
            Side::North => 20_000,
        };
        return Some(Point::new(ship.pose.bow.x, y));
    }
    game.ships(side.other())
        .iter()
        .filter(|e| e.afloat)
        .min_by_key(|e| dist2(e.pose.stern, ship.pose.bow))
        .map(|e| e.pose.stern)
}

fn dist2(a: Point, b: Point) -> i128 {
    let (dx, dy) = (i128::from(a.x - b.x), i128::from(a.y - b.y));
    dx * dx + dy * dy
}

/// Headings tried from a ship's heading, in radians: straight on first.
const TURNS: [f64; 9] = [0.0, 0.35, -0.35, 0.7, -0.7, 1.05, -1.05, 1.25, -1.25];

/// The steps of a move that turns each step towards `aim` as far as the rules
/// allow, stopping short of any refused step (a ram included when it wins).
fn steps_toward(game: &Game, i: u8, ship: &Ship, aim: Point, most: usize) -> Vec<Pose> {
    let mut pose = ship.pose;
    let mut out = Vec::new();
    for _ in 0..most {
        let want = ((aim.y - pose.bow.y) as f64).atan2((aim.x - pose.bow.x) as f64);
        let mut best: Option<(f64, Pose, Step)> = None;
        for turn in TURNS {
            let angle = heading(pose) + turn;
            let next = step_at(pose, ship.size(), angle);
            let Ok(step) = game.check_step(i, pose, next.bow) else {
                continue;
            };
            let off = angle_between(angle, want);
            if best.is_none_or(|(b, _, _)| off < b) {
                best = Some((off, next, step));
            }
        }
        let Some((_, next, step)) = best else { break };
        out.push(next);
        if step == Step::Rams {
            break;
        }
        pose = next;
    }
    out
}

fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    d.min(std::f64::consts::TAU - d)
}

fn move_of(i: u8, poses: &[Pose]) -> Option<Action> {
    let bows: Vec<Point> = poses.iter().map(|p| p.bow).collect();
    Some(Action::Move {
        ship: i,
        steps: Steps::new(&bows)?,
    })
}

/// Medium: the first ship free to move steers at its aim.
fn close_in(game: &Game) -> Option<Action> {
    let side = game.to_move();
    for (i, ship) in game.ships(side).iter().enumerate() {
        let i = i as u8;
        if !ship.afloat || game.has_moved(i) {
            continue;
        }
        let aim = aim_point(game, ship)?;
        let poses = steps_toward(game, i, ship, aim, ship.size().steps());
        if let Some(action) = move_of(i, &poses)
            && game.check(&action).is_ok()
        {
            return Some(action);
        }
    }
    None
}

/// Hard: of the moves each free ship could make (steering at its aim, or turning
/// a fixed amount each step, for each number of steps), the one that leaves the
/// table best for this side; none when no move improves on standing still.
fn manoeuvre(game: &Game) -> Option<Action> {
    let side = game.to_move();
    let still = score(game, side);
    let mut best: Option<(f64, Action)> = None;
    for (i, ship) in game.ships(side).iter().enumerate() {
        let i = i as u8;
        if !ship.afloat || game.has_moved(i) {
            continue;
        }
        let mut plans: Vec<Vec<Pose>> = Vec::new();
        if let Some(aim) = aim_point(game, ship) {
            plans.push(steps_toward(game, i, ship, aim, ship.size().steps()));
        }
        for turn in TURNS {
            let mut pose = ship.pose;
            let mut poses = Vec::new();
            for _ in 0..ship.size().steps() {
                pose = step_at(pose, ship.size(), heading(pose) + turn);
                poses.push(pose);
            }
            plans.push(poses);
        }
        for plan in plans {
            for n in 1..=plan.len() {
                let Some(action) = move_of(i, &plan[..n]) else {
                    continue;
                };
                let mut after = game.clone();
                let Ok(played) = after.play(action) else {
                    break;
                };
                if played.ending.is_some_and(|e| e.winner == Some(side)) {
                    return Some(action);
                }
                let value = score(&after, side);
                if best.as_ref().is_none_or(|(b, _)| value > *b) {
                    best = Some((value, action));
                }
            }
        }
    }
    best.filter(|(value, _)| *value > still).map(|(_, a)| a)
}

/// How good the table is for `side`: its broadsides' reach over the enemy's, its
/// strength over the enemy's, closeness to its aims, and no ship pointing at an
/// edge it is near.
fn score(game: &Game, side: Side) -> f64 {
    let mut value = 0.0;
    let mine = game.ships(side);
    let theirs = game.ships(side.other());
    for ship in mine.iter().filter(|s| s.afloat) {
        for enemy in theirs.iter().filter(|s| s.afloat) {
            if in_reach(ship, enemy) {
                value += f64::from(ship.size().pips()) / f64::from(enemy.strength().max(1));
            }
            if in_reach(enemy, ship) {
                value -= 0.8 * f64::from(enemy.size().pips()) / f64::from(ship.strength().max(1));
            }
        }
        if let Some(aim) = aim_point(game, ship) {
            value -= (dist2(aim, ship.pose.bow) as f64).sqrt() / 200_000.0;
        }
        value -= cornered(ship.pose, ship.size());
    }
    value += breakthrough(game, side);
    value + f64::from(game.strength(side)) - f64::from(game.strength(side.other()))
}

/// In a breakthrough, how far the attacker's ships have come toward the back line,
/// weighed by their pips: the attacker's gain and the defender's loss.
fn breakthrough(game: &Game, side: Side) -> f64 {
    let Goal::Breakthrough { attacker } = game.goal() else {
        return 0.0;
    };
    let progress: f64 = game
        .ships(attacker)
        .iter()
        .filter(|s| s.afloat)
        .map(|ship| {
            let y = ship.pose.bow.y as f64 / TABLE_H as f64;
            let ahead = match attacker {
                Side::South => y,
                Side::North => 1.0 - y,
            };
            let through = super::game::through(attacker, &ship.footprint());
            f64::from(ship.size().pips()) * (ahead * ahead + if through { 1.0 } else { 0.0 })
        })
        .sum();
    let weight = BREAKTHROUGH_WEIGHT;
    if side == attacker {
        weight * progress
    } else {
        -weight * progress
    }
}

/// How much a pip's way toward the back line counts against a pip of strength.
const BREAKTHROUGH_WEIGHT: f64 = 3.0;

/// Whether either side's field of fire of `ship`, with the large pyramid anywhere
/// along it, reaches `enemy` (blocking lines aside: a cheap estimate).
fn in_reach(ship: &Ship, enemy: &Ship) -> bool {
    if !near(ship, enemy) {
        return false;
    }
    let target = enemy.footprint();
    let max = ship.size().max_offset();
    super::geometry::Broadside::BOTH.iter().any(|&side| {
        [0, max / 2, max].iter().any(|&o| {
            ship.pose
                .field(ship.size(), side, o)
                .triangle()
                .touches(&target)
        })
    })
}

/// A penalty for a bow near an edge it heads towards (such a ship may be stuck).
fn cornered(pose: Pose, size: Size) -> f64 {
    let h = heading(pose);
    let (c, s) = (h.cos(), h.sin());
    let room = size.slant() as f64 * 1.5;
    let bow = pose.bow;
    let mut penalty = 0.0;
    for (gap, toward) in [
        ((TABLE_W - bow.x) as f64, c),
        (bow.x as f64, -c),
        ((TABLE_H - bow.y) as f64, s),
        (bow.y as f64, -s),
    ] {
        if gap < room && toward > 0.3 {
            penalty += 2.0 * (1.0 - gap / room);
        }
    }
    penalty
}
