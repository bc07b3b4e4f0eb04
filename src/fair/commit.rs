//! Fleet commitments: a salted leaf per cell in a Merkle tree, and openings that prove single cells.
//!
//! A leaf binds the protocol version (through its label), the game id, the
//! committer's seat, the cell, its content and a 128-bit salt. Siblings on an
//! opening's path are hashes of salted leaves, so they say nothing of other cells.

use thiserror::Error;

use crate::rules::{BoardSize, CellSet, Coord, Seat};

use super::hash::{Hash, label, labelled};
use super::secret::{EntropyError, Salt};

/// What a commitment is bound to: one game, one seat, one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    pub game: Hash,
    pub seat: Seat,
    pub size: BoardSize,
}

impl Binding {
    fn cells(&self) -> usize {
        let side = self.size.side() as usize;
        side * side
    }

    /// Leaves in the tree: the cells, padded to a power of two.
    fn width(&self) -> usize {
        self.cells().next_power_of_two()
    }

    fn depth(&self) -> usize {
        self.width().trailing_zeros() as usize
    }
}

/// The seat's byte in every hash: host 0, guest 1.
pub fn seat_byte(seat: Seat) -> u8 {
    match seat {
        Seat::Host => 0,
        Seat::Guest => 1,
    }
}

/// A cell's leaf index: rows of `side`, from `A1` = 0.
pub fn cell_index(cell: Coord, size: BoardSize) -> u8 {
    cell.row() * size.side() + cell.col()
}

fn index_cell(index: usize, size: BoardSize) -> Option<Coord> {
    let side = size.side() as usize;
    if index >= side * side {
        return None;
    }
    Coord::new((index % side) as u8, (index / side) as u8)
}

/// The leaf of one cell.
pub fn leaf(binding: &Binding, cell: Coord, deck: bool, salt: &[u8; 16]) -> Hash {
    labelled(
        label::LEAF,
        &[
            &binding.game,
            &[
                seat_byte(binding.seat),
                cell_index(cell, binding.size),
                u8::from(deck),
            ],
            salt,
        ],
    )
}

fn pad(index: usize) -> Hash {
    labelled(label::PAD, &[&(index as u16).to_be_bytes()])
}

fn node(left: &Hash, right: &Hash) -> Hash {
    labelled(label::NODE, &[left, right])
}

/// A committed board as its owner keeps it: the decks, every salt, the whole tree.
#[derive(Clone, Debug)]
pub struct SealedBoard {
    binding: Binding,
    decks: CellSet,
    salts: Vec<Salt>,
    /// `levels[0]` are the leaves; the last level is the root alone.
    levels: Vec<Vec<Hash>>,
}

impl SealedBoard {
    /// Commits to `decks` (any set: an honest client passes a legal fleet's) with
    /// fresh salts from the operating system.
    pub fn seal(binding: Binding, decks: CellSet) -> Result<Self, EntropyError> {
        let salts = (0..binding.cells())
            .map(|_| Salt::fresh())
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::with_salts(binding, decks, salts))
    }

    pub(crate) fn with_salts(binding: Binding, decks: CellSet, salts: Vec<Salt>) -> Self {
        let mut leaves: Vec<Hash> = (0..binding.width())
            .map(|i| match index_cell(i, binding.size) {
                Some(cell) => leaf(&binding, cell, decks.contains(cell), salts[i].expose()),
                None => pad(i),
            })
            .collect();
        let mut levels = Vec::with_capacity(binding.depth() + 1);
        while leaves.len() > 1 {
            let up = leaves
                .chunks(2)
                .map(|pair| node(&pair[0], &pair[1]))
                .collect();
            levels.push(std::mem::replace(&mut leaves, up));
        }
        levels.push(leaves);
        Self {
            binding,
            decks,
            salts,
            levels,
        }
    }

    pub fn binding(&self) -> &Binding {
        &self.binding
    }

    /// The commitment: the tree's root.
    pub fn root(&self) -> Hash {
        self.levels[self.levels.len() - 1][0]
    }

    pub fn decks(&self) -> CellSet {
        self.decks
    }

    /// Every cell's salt, by leaf index: revealed only at the end of the game.
    pub fn salts(&self) -> impl Iterator<Item = &[u8; 16]> {
        self.salts.iter().map(Salt::expose)
    }

    /// The proof of one cell's content.
    pub fn open(&self, cell: Coord) -> Opening {
        let mut index = cell_index(cell, self.binding.size) as usize;
        let mut path = Vec::with_capacity(self.binding.depth());
        for level in &self.levels[..self.levels.len() - 1] {
            path.push(level[index ^ 1]);
            index /= 2;
        }
        Opening {
            cell,
            deck: self.decks.contains(cell),
            salt: *self.salts[cell_index(cell, self.binding.size) as usize].expose(),
            path,
        }
    }
}

/// One cell proven against a commitment: its content, its salt, and the sibling
/// hashes from its leaf up to the root.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    pub cell: Coord,
    pub deck: bool,
    pub salt: [u8; 16],
    pub path: Vec<Hash>,
}

/// An opening that does not prove what it claims.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningError {
    #[error("the opening of {0} is for a cell off the board")]
    OffBoard(Coord),
    #[error("the opening of {cell} has {got} hashes on its path, not {want}")]
    PathLength {
        cell: Coord,
        got: usize,
        want: usize,
    },
    #[error("the opening of {0} does not match the committed fleet")]
    Mismatch(Coord),
}

impl Opening {
    /// Checks the opening against `root`; on success its content is proven.
    pub fn check(&self, binding: &Binding, root: &Hash) -> Result<(), OpeningError> {
        if !binding.size.contains(self.cell) {
            return Err(OpeningError::OffBoard(self.cell));
        }
        if self.path.len() != binding.depth() {
            return Err(OpeningError::PathLength {
                cell: self.cell,
                got: self.path.len(),
                want: binding.depth(),
            });
        }
        let mut index = cell_index(self.cell, binding.size) as usize;
        let mut hash = leaf(binding, self.cell, self.deck, &self.salt);
        for sibling in &self.path {
            hash = if index.is_multiple_of(2) {
                node(&hash, sibling)
            } else {
                node(sibling, &hash)
            };
            index /= 2;
        }
        if &hash == root {
            Ok(())
        } else {
            Err(OpeningError::Mismatch(self.cell))
        }
    }
}

/// Recomputes a commitment from a full reveal: every cell's content and salt.
pub fn root_of(binding: &Binding, decks: CellSet, salts: &[[u8; 16]]) -> Option<Hash> {
    if salts.len() != binding.cells() {
        return None;
    }
    let salts = salts.iter().map(|s| Salt::restore(*s)).collect();
    Some(SealedBoard::with_salts(*binding, decks, salts).root())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding(side: u8) -> Binding {
        Binding {
            game: [9; 32],
            seat: Seat::Guest,
            size: BoardSize::new(side).unwrap(),
        }
    }

    fn decks() -> CellSet {
        [Coord::new(0, 0).unwrap(), Coord::new(3, 4).unwrap()]
            .into_iter()
            .collect()
    }

    #[test]
    fn every_cell_opens_and_checks_on_every_board_size() {
        for side in [8, 10, 12] {
            let b = binding(side);
            let board = SealedBoard::seal(b, decks()).unwrap();
            for cell in b.size.cells() {
                let opening = board.open(cell);
                assert_eq!(opening.deck, decks().contains(cell));
                assert_eq!(opening.check(&b, &board.root()), Ok(()));
            }
        }
    }

    #[test]
    fn a_flipped_content_or_salt_or_sibling_fails() {
        let b = binding(10);
        let board = SealedBoard::seal(b, decks()).unwrap();
        let cell = Coord::new(3, 4).unwrap();
        let honest = board.open(cell);
        let mut lie = honest.clone();
        lie.deck = false;
        assert_eq!(
            lie.check(&b, &board.root()),
            Err(OpeningError::Mismatch(cell))
        );
        let mut lie = honest.clone();
        lie.salt[0] ^= 1;
        assert_eq!(
            lie.check(&b, &board.root()),
            Err(OpeningError::Mismatch(cell))
        );
        let mut lie = honest.clone();
        lie.path[3][0] ^= 1;
        assert_eq!(
            lie.check(&b, &board.root()),
            Err(OpeningError::Mismatch(cell))
        );
        let mut lie = honest.clone();
        lie.path.pop();
        assert!(matches!(
            lie.check(&b, &board.root()),
            Err(OpeningError::PathLength { .. })
        ));
        // Another game, another seat: the same opening proves nothing there.
        let other = Binding { game: [8; 32], ..b };
        assert_eq!(
            honest.check(&other, &board.root()),
            Err(OpeningError::Mismatch(cell))
        );
        let host = Binding {
            seat: Seat::Host,
            ..b
        };
        assert_eq!(
            honest.check(&host, &board.root()),
            Err(OpeningError::Mismatch(cell))
        );
    }

    #[test]
    fn the_full_reveal_recomputes_the_root() {
        let b = binding(10);
        let board = SealedBoard::seal(b, decks()).unwrap();
        let salts: Vec<[u8; 16]> = board.salts().copied().collect();
        assert_eq!(root_of(&b, decks(), &salts), Some(board.root()));
        assert_ne!(root_of(&b, CellSet::EMPTY, &salts), Some(board.root()));
        assert_eq!(root_of(&b, decks(), &salts[1..]), None);
    }
}
