//! A fleet being placed by hand: one slot per ship of the fleet, each on the board or
//! in the dock, every position checked against the ships already placed.
//!
//! No egui here; the placement screen shows it and sends it the player's gestures.

use rand::RngExt;

use crate::rules::{CellSet, Coord, Dir, Fleet, FleetSpec, Placer, Ship};

/// Tries at placing the docked ships around the placed ones before saying there is
/// no room (each try draws every docked ship among the places left to it).
const REST_TRIES: usize = 200;

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

    /// Automatic placement: the ships still in the dock go where they may lie around
    /// those on the board, which stay. With none on the board (or none left in the
    /// dock) a whole new fleet, every legal layout equally likely. `false`, nothing
    /// changed, when no room for the rest was found.
    pub fn place_rest<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        let docked: Vec<usize> = (0..self.slots.len())
            .filter(|&slot| self.slots[slot].is_none())
            .collect();
        if docked.is_empty() || docked.len() == self.slots.len() {
            let fleet = Placer::new(&self.spec).place(rng);
            self.fill(&fleet);
            return true;
        }
        let kept = self.slots.clone();
        for _ in 0..REST_TRIES {
            if docked.iter().all(|&slot| self.place_anywhere(slot, rng)) {
                return true;
            }
            self.slots.clone_from(&kept);
        }
        false
    }

    /// Puts slot `slot`'s ship at one of the places left to it, drawn at random.
    fn place_anywhere<R: rand::Rng + ?Sized>(&mut self, slot: usize, rng: &mut R) -> bool {
        let len = self.lengths()[slot];
        let dirs: &[Dir] = if len == 1 {
            &[Dir::Across]
        } else {
            &[Dir::Across, Dir::Down]
        };
        let places: Vec<Ship> = self
            .spec
            .size()
            .cells()
            .flat_map(|bow| dirs.iter().map(move |&dir| Ship::new(bow, dir, len)))
            .filter(|&ship| self.check(slot, ship).is_ok())
            .collect();
        if places.is_empty() {
            return false;
        }
        self.slots[slot] = Some(places[rng.random_range(0..places.len())]);
        true
    }

    /// Whether some ships are on the board and some in the dock.
    pub fn partly_placed(&self) -> bool {
        self.slots.iter().any(Option::is_some) && self.slots.iter().any(Option::is_none)
    }

    /// The fleet, once every ship is placed (and so, by the checks, legal).
    pub fn fleet(&self) -> Option<Fleet> {
        let ships: Option<Vec<Ship>> = self.slots.iter().copied().collect();
        Fleet::new(&self.spec, ships?).ok()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::rules::Variant;

    #[test]
    fn placing_the_rest_keeps_the_ships_on_the_board() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..50 {
            let mut draft = Draft::new(Variant::Armada.fleet());
            let battleship = Ship::new(Coord::new(3, 4).unwrap(), Dir::Down, 4);
            let boat = Ship::new(Coord::new(9, 9).unwrap(), Dir::Across, 1);
            draft.place(0, battleship).unwrap();
            let last = draft.lengths().len() - 1;
            draft.place(last, boat).unwrap();
            assert!(draft.partly_placed());
            assert!(draft.place_rest(&mut rng));
            assert_eq!(
                (draft.ship(0), draft.ship(last)),
                (Some(battleship), Some(boat))
            );
            assert!(draft.fleet().is_some(), "every ship placed, legally");
        }
    }

    #[test]
    fn placing_the_rest_with_no_room_changes_nothing() {
        // Cruisers across D2 and D5, destroyers across E8 and E10, boats at B3, B8,
        // I3 and I8: their rings cut every row and column into runs of at most three
        // free cells, so the battleship has nowhere to go.
        let mut draft = Draft::new(Variant::Armada.fleet());
        let at = |col, row, len| Ship::new(Coord::new(col, row).unwrap(), Dir::Across, len);
        let placed = [
            (1, at(3, 1, 3)),
            (2, at(3, 4, 3)),
            (3, at(4, 7, 2)),
            (4, at(4, 9, 2)),
            (6, at(1, 2, 1)),
            (7, at(1, 7, 1)),
            (8, at(8, 2, 1)),
            (9, at(8, 7, 1)),
        ];
        for (slot, ship) in placed {
            draft.place(slot, ship).unwrap();
        }
        let slots = |d: &Draft| (0..10).map(|s| d.ship(s)).collect::<Vec<_>>();
        let before = slots(&draft);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        assert!(!draft.place_rest(&mut rng));
        assert_eq!(slots(&draft), before);
        // With the boat at I8 back in the dock there is room again.
        draft.lift(9);
        assert!(draft.place_rest(&mut rng));
        assert!(draft.fleet().is_some());
    }
}
