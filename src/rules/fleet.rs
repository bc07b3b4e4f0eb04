//! Ships and fleets: a layout is checked here once, and a checked [`Fleet`] is legal by construction.

use std::fmt;

use thiserror::Error;

use super::cells::CellSet;
use super::coord::{BoardSize, Coord};
use super::variant::{FleetSpec, ship_name};

/// Which way a ship lies from its bow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Along a row, towards later columns.
    Across,
    /// Along a column, towards later rows.
    Down,
}

/// A straight ship: its bow (top or left cell), direction and length.
///
/// A `Ship` may run off a board; [`Fleet::new`] is where that is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ship {
    bow: Coord,
    dir: Dir,
    len: u8,
}

impl Ship {
    /// A ship of `len` decks from `bow`; a single deck is always `Across`.
    pub fn new(bow: Coord, dir: Dir, len: u8) -> Self {
        let dir = if len == 1 { Dir::Across } else { dir };
        Self { bow, dir, len }
    }

    pub fn bow(&self) -> Coord {
        self.bow
    }

    pub fn dir(&self) -> Dir {
        self.dir
    }

    pub fn length(&self) -> u8 {
        self.len
    }

    /// Its cells, if the whole ship lies on `size`.
    pub fn mask(&self, size: BoardSize) -> Option<CellSet> {
        let (dc, dr) = match self.dir {
            Dir::Across => (1, 0),
            Dir::Down => (0, 1),
        };
        let mut mask = CellSet::EMPTY;
        for step in 0..self.len {
            let step = i8::try_from(step).ok()?;
            mask.insert(self.bow.offset(dc * step, dr * step, size)?);
        }
        (size.contains(self.bow)).then_some(mask)
    }

    /// Fleets list their ships longest first, then by bow, so equal layouts are equal values.
    fn canonical_key(&self) -> (std::cmp::Reverse<u8>, Coord) {
        (std::cmp::Reverse(self.len), self.bow)
    }

    fn stern_text(&self) -> String {
        // Wide arithmetic: a ship a peer describes may be any length at all.
        let extra = u32::from(self.len.max(1)) - 1;
        let (col, row) = match self.dir {
            Dir::Across => (u32::from(self.bow.col()) + extra, u32::from(self.bow.row())),
            Dir::Down => (u32::from(self.bow.col()), u32::from(self.bow.row()) + extra),
        };
        let letter = char::from_u32(u32::from(b'A') + col).unwrap_or('?');
        format!("{letter}{}", row + 1)
    }
}

impl fmt::Display for Ship {
    /// `cruiser C3–C5`, `boat F7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", ship_name(self.len), self.bow)?;
        if self.len > 1 {
            write!(f, "–{}", self.stern_text())?;
        }
        Ok(())
    }
}

/// Why a layout is not a legal fleet; each names the ship and the cell.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("{ship} runs off the {size} board")]
    OffBoard { ship: Ship, size: BoardSize },
    #[error("{ship}: this fleet has no ship of {} decks", ship.length())]
    UnknownLength { ship: Ship },
    #[error("the ship at {cells} is bent: a ship is one straight line")]
    Bent { cells: CellSet },
    #[error("{a} overlaps {b} at {cell}")]
    Overlap { a: Ship, b: Ship, cell: Coord },
    #[error("{a} touches {b} by a {} at {cell}", if *.corner { "corner" } else { "side" })]
    Touch {
        a: Ship,
        b: Ship,
        cell: Coord,
        corner: bool,
    },
    #[error("the fleet needs {need} {}{} ({len} decks), not {got}", ship_name(*.len), if *.need == 1 { "" } else { "s" })]
    Count { len: u8, need: usize, got: usize },
}

/// A legal layout: every ship on the board, counts as the spec says, no overlap, no touching.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fleet {
    size: BoardSize,
    ships: Vec<Ship>,
    masks: Vec<CellSet>,
    decks: CellSet,
}

impl Fleet {
    /// Checks `ships` against `spec`; the first problem found is named.
    pub fn new(spec: &FleetSpec, mut ships: Vec<Ship>) -> Result<Self, PlacementError> {
        let size = spec.size();
        ships.sort_unstable_by_key(Ship::canonical_key);
        let mut masks = Vec::with_capacity(ships.len());
        for ship in &ships {
            if spec.count(ship.len) == 0 {
                return Err(PlacementError::UnknownLength { ship: *ship });
            }
            masks.push(
                ship.mask(size)
                    .ok_or(PlacementError::OffBoard { ship: *ship, size })?,
            );
        }
        for (i, (a, mask_a)) in ships.iter().zip(&masks).enumerate() {
            for (b, mask_b) in ships[i + 1..].iter().zip(&masks[i + 1..]) {
                if let Some(cell) = (*mask_a & *mask_b).iter().next() {
                    return Err(PlacementError::Overlap { a: *a, b: *b, cell });
                }
                let near = mask_a.surroundings(size) & *mask_b;
                if let Some(cell) = near.iter().next() {
                    let side = mask_a
                        .iter()
                        .fold(CellSet::EMPTY, |s, c| s | CellSet::side_neighbours(c));
                    let (cell, corner) = match (side & *mask_b).iter().next() {
                        Some(side_cell) => (side_cell, false),
                        None => (cell, true),
                    };
                    return Err(PlacementError::Touch {
                        a: *a,
                        b: *b,
                        cell,
                        corner,
                    });
                }
            }
        }
        let mut lengths: Vec<u8> = spec.lengths().to_vec();
        lengths.dedup();
        for len in lengths {
            let got = ships.iter().filter(|s| s.len == len).count();
            let need = spec.count(len);
            if got != need {
                return Err(PlacementError::Count { len, need, got });
            }
        }
        let decks = masks.iter().fold(CellSet::EMPTY, |all, m| all | *m);
        Ok(Self {
            size,
            ships,
            masks,
            decks,
        })
    }

    /// Reads ships off a set of deck cells: each group of cells joined by sides is one ship.
    pub fn from_cells(spec: &FleetSpec, cells: CellSet) -> Result<Self, PlacementError> {
        let size = spec.size();
        let mut left = cells & CellSet::board(size);
        let mut ships = Vec::new();
        while let Some(start) = left.iter().next() {
            let group = left.side_component(start);
            left -= group;
            let first = group.iter().next().expect("a component holds its start");
            let len = group.len() as u8;
            let across = Ship::new(first, Dir::Across, len);
            let down = Ship::new(first, Dir::Down, len);
            let ship = [across, down]
                .into_iter()
                .find(|s| s.mask(size) == Some(group))
                .ok_or(PlacementError::Bent { cells: group })?;
            ships.push(ship);
        }
        Self::new(spec, ships)
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The ships, longest first.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// Every deck of every ship.
    pub fn decks(&self) -> CellSet {
        self.decks
    }

    /// The cells of the ship with a deck at `cell`, if any.
    pub fn ship_cells_at(&self, cell: Coord) -> Option<CellSet> {
        self.masks.iter().copied().find(|m| m.contains(cell))
    }

    /// The ship with a deck at `cell`, if any.
    pub fn ship_at(&self, cell: Coord) -> Option<Ship> {
        let i = self.masks.iter().position(|m| m.contains(cell))?;
        Some(self.ships[i])
    }

    /// Builds a fleet already known to be legal (the placer's output).
    pub(crate) fn from_legal_parts(size: BoardSize, parts: &mut [(Ship, CellSet)]) -> Self {
        parts.sort_unstable_by_key(|(ship, _)| ship.canonical_key());
        let (ships, masks): (Vec<Ship>, Vec<CellSet>) = parts.iter().copied().unzip();
        let decks = masks.iter().fold(CellSet::EMPTY, |all, m| all | *m);
        Self {
            size,
            ships,
            masks,
            decks,
        }
    }
}
