//! Actions typed at the terminal, in words a person can write: `move S2 412.5,300
//! 420,326.4` (each step's new bow, in millimetres), `move S2 +30 -15` (each step's
//! turn in degrees, left positive; the program finds the integer bow), `fire L1 port
//! at m3` (the program finds a clear line), `fire L1 port o=1200 j=500 at m3
//! p=401.2,330` (the exact shot), `end`; and a placement: `place` (at random),
//! `place 2L3M` (a points fleet of one's own, at random) or `place L* 120,60 90 M
//! 300,60 90 …` (each ship's size, stern in millimetres and heading in degrees
//! counterclockwise from east; `*` marks the flagship).

use thiserror::Error;

use super::fleet::Fleet;
use super::game::{Action, Game, Goal, Placed, Shot, Side, Steps};
use super::geometry::{Broadside, Point, Size};
use super::propose::{find_shot, heading, pose_at, random_placement, step_at};

/// Why a typed line is not an action.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TypedError {
    #[error("say move, fire or end: {0}")]
    Verb(String),
    #[error("{0} is not one of your ships afloat")]
    Own(String),
    #[error("{0} is not an enemy ship afloat")]
    Enemy(String),
    #[error("a move names 1 to 4 steps, each a point x,y in mm or a turn like +30")]
    Steps,
    #[error("{0} is not a point x,y in millimetres (up to three decimals)")]
    Point(String),
    #[error("{0} is not a turn in degrees like +30 or -15")]
    Turn(String),
    #[error("a shot reads: fire SHIP [port|starboard] [o=N j=N] at TARGET [p=x,y]")]
    Shot,
    #[error("no clear line of fire from {0} at {1} was found")]
    NoLine(String, String),
    #[error("{0} is not a fleet like 2L3M or 1L 3M 3S")]
    Fleet(String),
    #[error("this setup gives you the fleet {0}; type place, or every ship by hand")]
    FleetFixed(Fleet),
    #[error(transparent)]
    Points(#[from] super::FleetError),
    #[error(
        "a ship by hand reads SIZE x,y DEGREES (stern in mm, heading counterclockwise from east), as L 120,60 90; not {0}"
    )]
    Ship(String),
    #[error("* marks the flagship, and only when the goal is the flagship, once")]
    Flagship,
}

/// The placement a typed `place …` line says, for `side` with the setup's `fleet`
/// (`None`: a points fleet of one's own; `place` alone then lays 1L 3M 3S) and
/// `goal`. Ships laid by hand are not checked here: the session checks the whole
/// placement against the page before committing to it.
pub fn parse_placement<R: rand::Rng + ?Sized>(
    side: Side,
    fleet: Option<Fleet>,
    goal: Goal,
    line: &str,
    rng: &mut R,
) -> Result<Vec<Placed>, TypedError> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    if words.is_empty() {
        let fleet = fleet.unwrap_or(Fleet::new(1, 3, 3));
        return Ok(random_placement(side, fleet, goal, rng));
    }
    if words.iter().any(|w| w.contains(',')) {
        return by_hand(goal, &words);
    }
    let chosen = fleet_of(&words.concat()).ok_or_else(|| TypedError::Fleet(words.join(" ")))?;
    match fleet {
        Some(given) if given != chosen => Err(TypedError::FleetFixed(given)),
        Some(_) => Ok(random_placement(side, chosen, goal, rng)),
        // Only a fleet the page allows is laid: a random placement of more ships
        // than the strip holds would never end.
        None => {
            super::check_points(chosen)?;
            Ok(random_placement(side, chosen, goal, rng))
        }
    }
}

/// A fleet written as counts and size letters: `2L3M`, `1l3m3s`.
fn fleet_of(text: &str) -> Option<Fleet> {
    let mut fleet = Fleet::default();
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let n: u8 = digits.parse().ok()?;
        digits.clear();
        let slot = match c.to_ascii_uppercase() {
            'L' => &mut fleet.large,
            'M' => &mut fleet.medium,
            'S' => &mut fleet.small,
            _ => return None,
        };
        *slot = slot.checked_add(n)?;
    }
    (digits.is_empty() && fleet.ships() > 0).then_some(fleet)
}

/// Ships laid by hand: `SIZE[*] x,y DEGREES`, repeated.
fn by_hand(goal: Goal, words: &[&str]) -> Result<Vec<Placed>, TypedError> {
    let mut placed = Vec::new();
    for ship in words.chunks(3) {
        let [size, at, degrees] = ship else {
            return Err(TypedError::Ship(ship.join(" ")));
        };
        let bad = || TypedError::Ship(ship.join(" "));
        let (letter, flagship) = match size.strip_suffix('*') {
            Some(letter) => (letter, true),
            None => (*size, false),
        };
        let size = Size::ALL
            .into_iter()
            .find(|s| letter.eq_ignore_ascii_case(&s.letter().to_string()))
            .ok_or_else(bad)?;
        let degrees: f64 = degrees
            .parse()
            .ok()
            .filter(|d: &f64| d.is_finite())
            .ok_or_else(bad)?;
        placed.push(Placed {
            size,
            pose: pose_at(point(at)?, size, degrees.to_radians()),
            flagship,
        });
    }
    let marked = placed.iter().filter(|p| p.flagship).count();
    match (goal, marked) {
        (Goal::Flagship, 0) => {
            if let Some(first) = placed.first_mut() {
                first.flagship = true;
            }
        }
        (Goal::Flagship, 1) | (_, 0) => {}
        _ => return Err(TypedError::Flagship),
    }
    Ok(placed)
}

/// The action a typed line says, for the side to move.
pub fn parse(game: &Game, line: &str) -> Result<Action, TypedError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["end" | "pass"] => Ok(Action::EndTurn),
        ["move", ship, steps @ ..] => parse_move(game, ship, steps),
        ["fire", rest @ ..] => parse_fire(game, rest),
        _ => Err(TypedError::Verb(line.trim().to_owned())),
    }
}

/// The number of the ship called `name` ("L1", "m3") among `side`'s afloat.
fn ship_named(game: &Game, side: Side, name: &str) -> Option<u8> {
    let upper = name.to_ascii_uppercase();
    game.ships(side)
        .iter()
        .position(|s| s.afloat && s.name.to_string() == upper)
        .and_then(|i| u8::try_from(i).ok())
}

fn parse_move(game: &Game, ship: &str, steps: &[&str]) -> Result<Action, TypedError> {
    let side = game.to_move();
    let number = ship_named(game, side, ship).ok_or_else(|| TypedError::Own(ship.to_owned()))?;
    if steps.is_empty() || steps.len() > 4 {
        return Err(TypedError::Steps);
    }
    let placed = game.ships(side)[usize::from(number)];
    let mut pose = placed.pose;
    let mut bows = Vec::with_capacity(steps.len());
    for word in steps {
        let bow = if word.starts_with(['+', '-']) && !word.contains(',') {
            let degrees: f64 = word
                .parse()
                .ok()
                .filter(|d: &f64| d.is_finite())
                .ok_or_else(|| TypedError::Turn((*word).to_owned()))?;
            step_at(pose, placed.size(), heading(pose) + degrees.to_radians()).bow
        } else {
            point(word)?
        };
        pose = super::geometry::Pose::new(pose.bow, bow);
        bows.push(bow);
    }
    Ok(Action::Move {
        ship: number,
        steps: Steps::new(&bows).ok_or(TypedError::Steps)?,
    })
}

fn parse_fire(game: &Game, words: &[&str]) -> Result<Action, TypedError> {
    let side = game.to_move();
    let (ship_word, mut rest) = words.split_first().ok_or(TypedError::Shot)?;
    let ship = ship_named(game, side, ship_word)
        .ok_or_else(|| TypedError::Own((*ship_word).to_owned()))?;
    let mut broadside = None;
    if let Some((first, tail)) = rest.split_first() {
        broadside = match *first {
            "port" => Some(Broadside::Port),
            "starboard" => Some(Broadside::Starboard),
            _ => None,
        };
        if broadside.is_some() {
            rest = tail;
        }
    }
    let (mut o, mut j, mut at, mut target) = (None, None, None, None);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if let Some(v) = word.strip_prefix("o=") {
            o = Some(v.parse::<i64>().map_err(|_| TypedError::Shot)?);
        } else if let Some(v) = word.strip_prefix("j=") {
            j = Some(v.parse::<i64>().map_err(|_| TypedError::Shot)?);
        } else if let Some(v) = word.strip_prefix("p=") {
            at = Some(point(v)?);
        } else if *word == "at" {
            let name = words.next().ok_or(TypedError::Shot)?;
            let number = ship_named(game, side.other(), name)
                .ok_or_else(|| TypedError::Enemy((*name).to_owned()))?;
            target = Some((number, *name));
        } else {
            return Err(TypedError::Shot);
        }
    }
    let (target, target_word) = target.ok_or(TypedError::Shot)?;
    match (broadside, o, j, at) {
        (Some(side), Some(o), Some(j), Some(at)) => Ok(Action::Fire(Shot {
            ship,
            side,
            o,
            j,
            target,
            at,
        })),
        (_, None, None, None) => find_shot(game, ship, broadside, target)
            .map(Action::Fire)
            .ok_or_else(|| TypedError::NoLine((*ship_word).to_owned(), target_word.to_owned())),
        _ => Err(TypedError::Shot),
    }
}

/// "412.5,300" millimetres as an exact point in micrometres.
fn point(word: &str) -> Result<Point, TypedError> {
    let bad = || TypedError::Point(word.to_owned());
    let (x, y) = word.split_once(',').ok_or_else(bad)?;
    Ok(Point::new(
        micrometres(x).ok_or_else(bad)?,
        micrometres(y).ok_or_else(bad)?,
    ))
}

/// A decimal number of millimetres, up to three decimals, as micrometres.
fn micrometres(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let digit_run = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() > 7
        || fraction.len() > 3
        || !digit_run(whole)
        || !digit_run(fraction)
    {
        return None;
    }
    let mut value: i64 = whole.parse().ok()?;
    value *= 1000;
    let padded = format!("{fraction:0<3}");
    value += padded.parse::<i64>().ok()?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::micrometres;

    #[test]
    fn millimetres_are_read_exactly() {
        assert_eq!(micrometres("412.5"), Some(412_500));
        assert_eq!(micrometres("0.001"), Some(1));
        assert_eq!(micrometres("-3"), Some(-3_000));
        assert_eq!(micrometres("1.2345"), None);
        assert_eq!(micrometres("1e3"), None);
        assert_eq!(micrometres(""), None);
        assert_eq!(micrometres("99999999"), None);
    }
}
