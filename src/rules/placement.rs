//! Automatic fleet placement, exactly uniform over legal layouts, with the RNG passed in.
//!
//! Each ship is drawn uniformly from every position it can take on an empty
//! board, independently of the others; the whole layout is thrown away and
//! started again at the first overlap or touch. Every ordered tuple of
//! compatible positions is then equally likely, and each layout is the same
//! number of tuples (ships of one length swapped among themselves), so every
//! legal layout is equally likely. Stopping at the first conflict only skips
//! drawing ships whose fate is already sealed; it changes no probability.
//! Placing ships one at a time only where they still fit is *not* uniform: it
//! flattens the deck density that edges and corners really have.

use rand::distr::{Distribution, Uniform};

use super::cells::CellSet;
use super::coord::BoardSize;
use super::fleet::{Dir, Fleet, Ship};
use super::variant::FleetSpec;

/// One position a ship can take: its cells, and those cells with their surroundings.
#[derive(Clone, Copy, Debug)]
struct Position {
    ship: Ship,
    cells: CellSet,
    halo: CellSet,
}

/// Draws legal fleets for one [`FleetSpec`]; build it once, draw many.
#[derive(Clone, Debug)]
pub struct Placer {
    size: BoardSize,
    /// For each ship of the spec, longest first, every position it may take,
    /// and an exact uniform draw of one of them.
    positions: Vec<(Vec<Position>, Uniform<u32>)>,
}

impl Placer {
    pub fn new(spec: &FleetSpec) -> Self {
        let size = spec.size();
        let for_length = |len: u8| -> Vec<Position> {
            let mut all = Vec::new();
            for bow in size.cells() {
                let dirs: &[Dir] = if len == 1 {
                    &[Dir::Across]
                } else {
                    &[Dir::Across, Dir::Down]
                };
                for &dir in dirs {
                    let ship = Ship::new(bow, dir, len);
                    if let Some(cells) = ship.mask(size) {
                        let halo = cells | cells.surroundings(size);
                        all.push(Position { ship, cells, halo });
                    }
                }
            }
            all
        };
        Self {
            size,
            positions: spec
                .lengths()
                .iter()
                .map(|&len| {
                    let all = for_length(len);
                    // Lemire's method with rejection: exactly uniform. A ship never
                    // longer than the board has at least one position.
                    let draw = Uniform::new(0, all.len() as u32).expect("at least one position");
                    (all, draw)
                })
                .collect(),
        }
    }

    /// One legal fleet, every legal layout equally likely.
    ///
    /// Never returns for a spec that has no legal layout at all (no built-in
    /// variant is such); [`Placer::try_place`] bounds the attempts.
    pub fn place<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Fleet {
        let mut chosen = Vec::with_capacity(self.positions.len());
        loop {
            if self.attempt(rng, &mut chosen) {
                return Fleet::from_legal_parts(self.size, &mut chosen);
            }
        }
    }

    /// Like [`Placer::place`], giving up after `attempts` rejected layouts.
    pub fn try_place<R: rand::Rng + ?Sized>(&self, rng: &mut R, attempts: usize) -> Option<Fleet> {
        let mut chosen = Vec::with_capacity(self.positions.len());
        (0..attempts)
            .any(|_| self.attempt(rng, &mut chosen))
            .then(|| Fleet::from_legal_parts(self.size, &mut chosen))
    }

    /// Draws every ship; false at the first overlap or touch.
    fn attempt<R: rand::Rng + ?Sized>(
        &self,
        rng: &mut R,
        chosen: &mut Vec<(Ship, CellSet)>,
    ) -> bool {
        chosen.clear();
        let mut blocked = CellSet::EMPTY;
        for (options, draw) in &self.positions {
            let pick = &options[draw.sample(rng) as usize];
            if pick.cells.intersects(&blocked) {
                return false;
            }
            blocked |= pick.halo;
            chosen.push((pick.ship, pick.cells));
        }
        true
    }
}
