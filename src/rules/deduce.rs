//! Deduction: does any legal fleet fit everything known of a board? Used to catch a lie as soon as it is provable.

use super::cells::CellSet;
use super::chart::Chart;
use super::coord::{BoardSize, Coord};
use super::fleet::{Dir, Fleet, Ship};
use super::variant::FleetSpec;

/// What is known of one board: proven water, decks hit (afloat), wrecks, and decks
/// seen but not hit (by radar).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub water: CellSet,
    pub hits: CellSet,
    pub wrecks: CellSet,
    pub seen_decks: CellSet,
}

impl Facts {
    pub fn from_chart(chart: &Chart) -> Self {
        Self {
            water: chart.misses(),
            hits: chart.hits(),
            wrecks: chart.wrecks(),
            seen_decks: CellSet::EMPTY,
        }
    }
}

/// The answer to "could these facts be true of a legal fleet?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Consistency {
    /// One legal fleet that fits them all.
    Possible(Fleet),
    /// None can: the reason names what cannot be.
    Impossible(&'static str),
    /// The search ran out of its budget first: nothing is proven either way.
    Undecided,
}

/// Searches for one legal fleet of `spec` that fits `facts`: every wreck group is a
/// whole sunk ship; every hit and seen deck lies in a ship; no ship lies on water;
/// and no ship still afloat is hit on every deck (it would have been reported sunk).
/// `budget` bounds the positions tried, so hostile facts cannot hang the caller.
pub fn fit_fleet(spec: &FleetSpec, facts: &Facts, budget: u32) -> Consistency {
    let size = spec.size();
    let board = CellSet::board(size);
    let (ships, mut counts) = match sunk_ships(spec, facts) {
        Ok(found) => found,
        Err(why) => return Consistency::Impossible(why),
    };
    let wrecks = facts.wrecks & board;
    let blocked = facts.water | wrecks | wrecks.surroundings(size);
    let must = (facts.hits | facts.seen_decks) & board;
    if must.intersects(&blocked) || wrecks.intersects(&facts.water) {
        return Consistency::Impossible("a deck lies on water or next to a sunk ship");
    }
    let mut search = Search {
        size,
        hits: facts.hits,
        budget,
        ships,
    };
    match search.cover(blocked, must, &mut counts) {
        Some(true) => {
            let fleet = Fleet::new(spec, search.ships);
            fleet.map_or(Consistency::Undecided, Consistency::Possible)
        }
        Some(false) => Consistency::Impossible("no legal fleet fits the answers given"),
        None => Consistency::Undecided,
    }
}

/// The sunk ships the wrecks make (each group of wrecks one whole ship), and how many
/// ships of each length are left afloat.
pub(super) fn sunk_ships(
    spec: &FleetSpec,
    facts: &Facts,
) -> Result<(Vec<Ship>, [u8; 13]), &'static str> {
    let size = spec.size();
    let mut counts = [0u8; 13];
    for &len in spec.lengths() {
        counts[len as usize] += 1;
    }
    let mut ships = Vec::new();
    let mut left = facts.wrecks & CellSet::board(size);
    while let Some(start) = left.iter().next() {
        let group = left.component(start);
        left -= group;
        let ship = straight(group, size).ok_or("a sunk ship is not one straight line")?;
        let count = counts
            .get_mut(group.len())
            .filter(|c| **c > 0)
            .ok_or("more ships of that length are sunk than the fleet has")?;
        *count -= 1;
        ships.push(ship);
    }
    Ok((ships, counts))
}

fn straight(group: CellSet, size: BoardSize) -> Option<Ship> {
    let first = group.iter().next()?;
    let len = group.len() as u8;
    [Dir::Across, Dir::Down]
        .into_iter()
        .map(|dir| Ship::new(first, dir, len))
        .find(|ship| ship.mask(size) == Some(group))
}

struct Search {
    size: BoardSize,
    hits: CellSet,
    budget: u32,
    ships: Vec<Ship>,
}

impl Search {
    /// Tries one more position; `None` once the budget is spent.
    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    /// Covers every `must` cell with ships from `counts`, then places the rest.
    /// `Some(true)` found (ships pushed), `Some(false)` impossible, `None` out of budget.
    fn cover(&mut self, blocked: CellSet, must: CellSet, counts: &mut [u8; 13]) -> Option<bool> {
        let Some(target) = must.iter().next() else {
            return self.fill(blocked, counts, 12, 0);
        };
        for len in (1..counts.len()).rev() {
            if counts[len] == 0 {
                continue;
            }
            for ship in through(target, len as u8, self.size) {
                self.spend()?;
                let Some(cells) = ship.mask(self.size) else {
                    continue;
                };
                let ring = cells.surroundings(self.size);
                // Not on anything blocked; not hit on every deck (it would be sunk);
                // no other deck that must exist may touch it.
                if cells.intersects(&blocked)
                    || cells.is_subset(&self.hits)
                    || ring.intersects(&must)
                {
                    continue;
                }
                counts[len] -= 1;
                self.ships.push(ship);
                let found = self.cover(blocked | cells | ring, must - cells, counts)?;
                if found {
                    return Some(true);
                }
                self.ships.pop();
                counts[len] += 1;
            }
        }
        Some(false)
    }

    /// Places the remaining ships on free water, longest first; ships of one length
    /// in increasing order of position, so no arrangement is tried twice.
    fn fill(
        &mut self,
        blocked: CellSet,
        counts: &mut [u8; 13],
        len: usize,
        from: usize,
    ) -> Option<bool> {
        let Some(len) = (1..=len).rev().find(|&l| counts[l] > 0) else {
            return Some(true);
        };
        let side = self.size.side() as usize;
        for index in from..side * side * 2 {
            let dir = if index % 2 == 0 {
                Dir::Across
            } else {
                Dir::Down
            };
            if len == 1 && dir == Dir::Down {
                continue;
            }
            let bow = Coord::new(((index / 2) % side) as u8, ((index / 2) / side) as u8)?;
            let ship = Ship::new(bow, dir, len as u8);
            let Some(cells) = ship.mask(self.size) else {
                continue;
            };
            self.spend()?;
            if cells.intersects(&blocked) {
                continue;
            }
            counts[len] -= 1;
            self.ships.push(ship);
            let next_from = if counts[len] > 0 { index + 1 } else { 0 };
            let found = self.fill(
                blocked | cells | cells.surroundings(self.size),
                counts,
                len,
                next_from,
            )?;
            if found {
                return Some(true);
            }
            self.ships.pop();
            counts[len] += 1;
        }
        Some(false)
    }
}

/// Every straight ship of `len` decks through `cell` (some may run off the board).
pub(super) fn through(cell: Coord, len: u8, size: BoardSize) -> Vec<Ship> {
    let mut ships = Vec::with_capacity(2 * len as usize);
    for back in 0..len {
        if let Some(bow) = cell.offset(-(back as i8), 0, size) {
            ships.push(Ship::new(bow, Dir::Across, len));
        }
        if len > 1
            && let Some(bow) = cell.offset(0, -(back as i8), size)
        {
            ships.push(Ship::new(bow, Dir::Down, len));
        }
    }
    ships
}
