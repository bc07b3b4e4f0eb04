//! A fleet being placed by hand: one slot per ship of the fleet, each on the board or
//! in the dock, every position checked against the ships already placed.
//!
//! No egui here; the placement screen shows it and sends it the player's gestures.

use crate::rules::{CellSet, Coord, Dir, Fleet, FleetSpec, Ship};

/// Why a ship cannot go where the player holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Part of the ship would be off the board.
    OffBoard,
    /// It would lie on another ship.
    Overlap,
    /// It would touch another ship, by a side or a corner.
    Touch,
}

/// A fleet in the making.
#[derive(Clone, Debug)]
pub struct Draft {
    spec: FleetSpec,
    slots: Vec<Option<Ship>>,
}

impl Draft {
    /// Every ship of `spec` in the dock.
    pub fn new(spec: FleetSpec) -> Self {
        let slots = vec![None; spec.lengths().len()];
        Self { spec, slots }
    }

    pub fn spec(&self) -> &FleetSpec {
        &self.spec
    }

    /// The length of each slot's ship, longest first.
    pub fn lengths(&self) -> &[u8] {
        self.spec.lengths()
    }

    /// Where slot `slot`'s ship lies, if it is on the board.
    pub fn ship(&self, slot: usize) -> Option<Ship> {
        self.slots.get(slot).copied().flatten()
    }

    /// The first ship still in the dock.
    pub fn next_free(&self) -> Option<usize> {
        self.slots.iter().position(Option::is_none)
    }

    /// The slot whose ship covers `cell`.
    pub fn slot_at(&self, cell: Coord) -> Option<usize> {
        let size = self.spec.size();
        self.slots.iter().position(|ship| {
            ship.and_then(|s| s.mask(size))
                .is_some_and(|mask| mask.contains(cell))
        })
    }

    /// The cells of every placed ship.
    pub fn decks(&self) -> CellSet {
        let size = self.spec.size();
        self.slots
            .iter()
            .flatten()
            .filter_map(|s| s.mask(size))
            .fold(CellSet::EMPTY, |all, m| all | m)
    }

    /// A ship of slot `slot`'s length at `bow` going `dir`, as it would lie.
    pub fn candidate(&self, slot: usize, bow: Coord, dir: Dir) -> Option<Ship> {
        let len = *self.lengths().get(slot)?;
        Some(Ship::new(bow, dir, len))
    }

    /// The cells `ship` would cover in slot `slot`, or why it cannot lie there (the
    /// slot's own ship, if placed, does not count: it is the one being moved).
    pub fn check(&self, slot: usize, ship: Ship) -> Result<CellSet, Problem> {
        let size = self.spec.size();
        let mask = ship.mask(size).ok_or(Problem::OffBoard)?;
        let others = self
            .slots
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != slot)
            .filter_map(|(_, s)| s.and_then(|s| s.mask(size)))
            .fold(CellSet::EMPTY, |all, m| all | m);
        if !(mask & others).is_empty() {
            return Err(Problem::Overlap);
        }
        if !(mask.surroundings(size) & others).is_empty() {
            return Err(Problem::Touch);
        }
        Ok(mask)
    }

    /// Puts slot `slot`'s ship at `ship`'s position, if it may lie there.
    pub fn place(&mut self, slot: usize, ship: Ship) -> Result<(), Problem> {
        if self.lengths().get(slot) != Some(&ship.length()) {
            return Err(Problem::OffBoard);
        }
        self.check(slot, ship)?;
        self.slots[slot] = Some(ship);
        Ok(())
    }

    /// Takes slot `slot`'s ship off the board, back to the dock.
    pub fn lift(&mut self, slot: usize) -> Option<Ship> {
        self.slots.get_mut(slot)?.take()
    }

    /// Every ship back in the dock.
    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    /// Takes over a whole fleet (automatic placement).
    pub fn fill(&mut self, fleet: &Fleet) {
        self.clear();
        for ship in fleet.ships() {
            if let Some(slot) = self
                .lengths()
                .iter()
                .enumerate()
                .position(|(i, len)| *len == ship.length() && self.slots[i].is_none())
            {
                self.slots[slot] = Some(*ship);
            }
        }
    }

    /// The fleet, once every ship is placed (and so, by the checks, legal).
    pub fn fleet(&self) -> Option<Fleet> {
        let ships: Option<Vec<Ship>> = self.slots.iter().copied().collect();
        Fleet::new(&self.spec, ships?).ok()
    }
}
