//! Easy and medium: hunt and target by simple rules, with the same weapons as a person.

use std::fmt;
use std::str::FromStr;

use rand::RngExt;

use super::View;
use super::random::{random_target, weapon_targets};
use crate::rules::{
    Action, BoardSize, CellSet, Coord, Fleet, FleetSpec, Heading, Placer, Torpedo, Weapon, legal,
    square,
};

/// How well a computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Any legal action at random.
    Random,
    /// Random open cells; finishes a hit ship only some of the time; weapons at random.
    Easy,
    /// Hunt with parity, then target along the hits; weapons by simple rules.
    Medium,
    /// Deck probabilities from uniformly sampled consistent layouts; every action by
    /// its expected value.
    Hard,
}

impl Level {
    pub const ALL: [Self; 4] = [Self::Random, Self::Easy, Self::Medium, Self::Hard];

    /// A fleet for a new game: uniformly random, so there is no pattern to learn; the
    /// hard level keeps the best of a few such layouts by how little water its rings
    /// give away when its ships sink.
    pub fn place<R: rand::Rng + ?Sized>(self, spec: &FleetSpec, rng: &mut R) -> Fleet {
        match self {
            Self::Hard => super::hard::place(spec, rng),
            _ => Placer::new(spec).place(rng),
        }
    }

    /// The next action, from what the view shows and nothing else.
    pub fn choose<R: rand::Rng + ?Sized>(self, view: &View, rng: &mut R) -> Action {
        let action = match self {
            Self::Random => None,
            Self::Easy => easy(view, rng),
            Self::Medium => medium(view, rng),
            // Falls back to medium's rules when the facts admit no sampling.
            Self::Hard => super::hard::hard(view, None, rng).or_else(|| medium(view, rng)),
        };
        action
            .filter(|a| legal(view.variant, view.chart, view.stock, a).is_ok())
            .unwrap_or_else(|| any_legal(view, rng))
    }
}

/// The hard level's play by an opponent who knows how the hard level hides its fleet
/// (`prior`): what `bench-ai --knowing` measures, to show that knowledge is worth
/// little.
pub fn knowing<R: rand::Rng + ?Sized>(
    prior: &super::hard::Prior,
    view: &View,
    rng: &mut R,
) -> Action {
    super::hard::hard(view, Some(prior), rng)
        .or_else(|| medium(view, rng))
        .filter(|a| legal(view.variant, view.chart, view.stock, a).is_ok())
        .unwrap_or_else(|| any_legal(view, rng))
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Random => "random",
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
        })
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_lowercase().as_str() {
            "random" => Ok(Self::Random),
            "easy" => Ok(Self::Easy),
            "medium" => Ok(Self::Medium),
            "hard" => Ok(Self::Hard),
            other => Err(format!(
                "{other:?}: the levels are random, easy, medium and hard"
            )),
        }
    }
}

fn pick<R: rand::Rng + ?Sized>(cells: CellSet, rng: &mut R) -> Option<Coord> {
    (!cells.is_empty()).then(|| cells.nth(rng.random_range(0..cells.len())))?
}

/// A uniformly random legal action (mostly shots; weapons while they last).
fn any_legal<R: rand::Rng + ?Sized>(view: &View, rng: &mut R) -> Action {
    let weapons: Vec<Weapon> = [Weapon::Torpedo, Weapon::AirStrike, Weapon::Radar]
        .into_iter()
        .filter(|&w| view.variant.has_weapons() && view.stock.left(w) > 0)
        .collect();
    if let Some(&weapon) = weapons.get(rng.random_range(0..6 + weapons.len()))
        && let Some(action) = weapon_at_random(view, weapon, rng)
    {
        return action;
    }
    let cell = pick(view.chart.unmarked(), rng).unwrap_or_else(|| Coord::new(0, 0).expect("A1"));
    Action::Shot(cell)
}

fn weapon_at_random<R: rand::Rng + ?Sized>(
    view: &View,
    weapon: Weapon,
    rng: &mut R,
) -> Option<Action> {
    let size = view.variant.size();
    let ok = |a: &Action| legal(view.variant, view.chart, view.stock, a).is_ok();
    for _ in 0..32 {
        let action = random_target(weapon, size, rng);
        if ok(&action) {
            return Some(action);
        }
    }
    let options: Vec<Action> = weapon_targets(weapon, size).filter(ok).collect();
    (!options.is_empty()).then(|| options[rng.random_range(0..options.len())])
}

/// Unmarked cells that could continue the hit ships afloat: the ends of a line of
/// hits, or all four sides of a lone hit.
fn targets(view: &View) -> CellSet {
    let chart = view.chart;
    let size = chart.size();
    let open = chart.unmarked();
    let mut cells = CellSet::EMPTY;
    for group in chart.hits().side_components() {
        let first = group.iter().next().expect("a group is never empty");
        let sides = group
            .iter()
            .fold(CellSet::EMPTY, |s, c| s | CellSet::side_neighbours(c));
        let around = sides & CellSet::board(size) & open;
        if group.len() == 1 {
            cells |= around;
        } else {
            // A line: only cells in line with it can belong to the same ship.
            let row = group.iter().all(|c| c.row() == first.row());
            cells |= around
                .iter()
                .filter(|c| {
                    if row {
                        c.row() == first.row()
                    } else {
                        c.col() == first.col()
                    }
                })
                .collect::<CellSet>();
        }
    }
    cells
}

fn easy<R: rand::Rng + ?Sized>(view: &View, rng: &mut R) -> Option<Action> {
    if view.variant.has_weapons() && rng.random_bool(0.12) {
        let weapons: Vec<Weapon> = [Weapon::Torpedo, Weapon::AirStrike, Weapon::Radar]
            .into_iter()
            .filter(|&w| view.stock.left(w) > 0)
            .collect();
        if !weapons.is_empty() {
            let weapon = weapons[rng.random_range(0..weapons.len())];
            return weapon_at_random(view, weapon, rng);
        }
    }
    if rng.random_bool(0.35)
        && let Some(cell) = pick(targets(view), rng)
    {
        return Some(Action::Shot(cell));
    }
    pick(view.chart.unmarked(), rng).map(Action::Shot)
}

/// The lengths of the ships not yet sunk.
fn afloat(view: &View) -> Vec<u8> {
    let mut lengths = view.variant.fleet().lengths().to_vec();
    for ship in view.chart.wrecks().side_components() {
        if let Some(at) = lengths.iter().position(|&l| usize::from(l) == ship.len()) {
            lengths.remove(at);
        }
    }
    lengths
}

fn medium<R: rand::Rng + ?Sized>(view: &View, rng: &mut R) -> Option<Action> {
    // What the radar just showed is used now or never.
    if let Some(seen) = view.radar
        && let Some(&(cell, _)) = seen
            .iter()
            .find(|(c, deck)| *deck && view.chart.is_unmarked(*c))
    {
        return Some(Action::Shot(cell));
    }
    if let Some(cell) = pick(targets(view), rng) {
        return Some(Action::Shot(cell));
    }
    let size = view.variant.size();
    let open = view.chart.unmarked();
    if view.variant.has_weapons() {
        if view.stock.radars > 0
            && open.len() < 80
            && let Some(centre) = best_square(size, open, rng)
        {
            return Some(Action::Radar(centre));
        }
        if view.stock.air_strikes > 0
            && rng.random_bool(0.3)
            && let Some(centre) = best_square(size, open, rng)
        {
            return Some(Action::AirStrike(centre));
        }
        if view.stock.torpedoes > 0 && rng.random_bool(0.2) {
            return Some(Action::Torpedo(best_line(size, open, rng)));
        }
    }
    // Parity: every ship of the shortest length afloat covers a cell of each diagonal
    // class; hunting the class with the fewest open cells covers them all soonest.
    let shortest = afloat(view).into_iter().min().unwrap_or(1).max(1);
    let class = |k: u8| -> CellSet {
        open.iter()
            .filter(|c| (c.col() + c.row()) % shortest == k)
            .collect()
    };
    let parity = (0..shortest)
        .map(class)
        .filter(|c| !c.is_empty())
        .min_by_key(CellSet::len);
    pick(parity.unwrap_or(open), rng).map(Action::Shot)
}

/// The centre whose 3×3 square has the most unmarked cells (ties at random).
fn best_square<R: rand::Rng + ?Sized>(
    size: BoardSize,
    open: CellSet,
    rng: &mut R,
) -> Option<Coord> {
    let scored: Vec<(usize, Coord)> = size
        .cells()
        .filter_map(|c| {
            square(c, size).map(|cells| (cells.iter().filter(|x| open.contains(**x)).count(), c))
        })
        .collect();
    let best = scored.iter().map(|(n, _)| *n).max()?;
    let top: Vec<Coord> = scored
        .iter()
        .filter(|(n, _)| *n == best && best > 0)
        .map(|(_, c)| *c)
        .collect();
    (!top.is_empty()).then(|| top[rng.random_range(0..top.len())])
}

/// The row or column with the most unmarked cells, run in a random direction.
fn best_line<R: rand::Rng + ?Sized>(size: BoardSize, open: CellSet, rng: &mut R) -> Torpedo {
    let side = size.side();
    let mut best = (
        0,
        Torpedo {
            heading: Heading::Right,
            line: 0,
        },
    );
    for line in 0..side {
        let row = open.iter().filter(|c| c.row() == line).count();
        let col = open.iter().filter(|c| c.col() == line).count();
        let (across, down) = super::random_headings(rng);
        if row > best.0 {
            best = (
                row,
                Torpedo {
                    heading: across,
                    line,
                },
            );
        }
        if col > best.0 {
            best = (
                col,
                Torpedo {
                    heading: down,
                    line,
                },
            );
        }
    }
    best.1
}
