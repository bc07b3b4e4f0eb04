//! The chart a player keeps of the enemy board: unmarked, miss, hit or wreck, per cell.

use super::cells::CellSet;
use super::coord::{BoardSize, Coord};

/// What a chart says of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    Unmarked,
    /// Known water (a miss, a torpedo's wake, or a sunk ship's ring).
    Miss,
    /// A deck of a ship still afloat.
    Hit,
    /// A deck of a sunk ship.
    Wreck,
}

/// One player's chart of the enemy board. Cells only ever go from unmarked to
/// marked, and a hit only ever becomes a wreck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chart {
    size: BoardSize,
    misses: CellSet,
    hits: CellSet,
    wrecks: CellSet,
}

impl Chart {
    /// An empty chart of a board of `size`.
    pub fn new(size: BoardSize) -> Self {
        Self {
            size,
            misses: CellSet::EMPTY,
            hits: CellSet::EMPTY,
            wrecks: CellSet::EMPTY,
        }
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    pub fn mark(&self, cell: Coord) -> Mark {
        if self.misses.contains(cell) {
            Mark::Miss
        } else if self.hits.contains(cell) {
            Mark::Hit
        } else if self.wrecks.contains(cell) {
            Mark::Wreck
        } else {
            Mark::Unmarked
        }
    }

    /// The lengths of the ships sunk on this chart, one per ship: ships never touch,
    /// so each side-joined group of wrecks is one ship.
    pub fn sunk_lengths(&self) -> Vec<u8> {
        let mut left = self.wrecks;
        let mut lengths = Vec::new();
        while let Some(cell) = left.iter().next() {
            let ship = left.side_component(cell);
            lengths.push(u8::try_from(ship.len()).unwrap_or(u8::MAX));
            for c in &ship {
                left.remove(c);
            }
        }
        lengths
    }

    pub fn is_unmarked(&self, cell: Coord) -> bool {
        self.size.contains(cell) && !self.marked().contains(cell)
    }

    pub fn misses(&self) -> CellSet {
        self.misses
    }

    pub fn hits(&self) -> CellSet {
        self.hits
    }

    pub fn wrecks(&self) -> CellSet {
        self.wrecks
    }

    /// Every cell known to hold a deck, afloat or sunk.
    pub fn decks(&self) -> CellSet {
        self.hits | self.wrecks
    }

    pub fn marked(&self) -> CellSet {
        self.misses | self.hits | self.wrecks
    }

    pub fn unmarked(&self) -> CellSet {
        CellSet::board(self.size) - self.marked()
    }

    pub(crate) fn set_miss(&mut self, cell: Coord) {
        self.misses.insert(cell);
    }

    pub(crate) fn set_hit(&mut self, cell: Coord) {
        self.hits.insert(cell);
    }

    /// Turns `ship` (hit decks) into wrecks and its unmarked surroundings into misses;
    /// returns that ring.
    pub(crate) fn sink(&mut self, ship: CellSet) -> CellSet {
        self.hits -= ship;
        self.wrecks |= ship;
        let ring = ship.surroundings(self.size) - self.marked();
        self.misses |= ring;
        ring
    }
}
