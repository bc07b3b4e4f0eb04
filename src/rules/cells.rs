//! `CellSet`: a bitboard of cells (rows of twelve bits), with the neighbourhood tables the rules need.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

use super::coord::{BoardSize, Coord, MAX_SIZE};

const CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;
const WORDS: usize = 3;

/// A set of cells on a board of at most 12×12, as 144 bits.
///
/// The layout does not depend on the board's size, so a set never needs to know
/// its board; [`CellSet::board`] gives the mask of one size.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// No cells.
    pub const EMPTY: Self = Self([0; WORDS]);

    /// A set holding exactly `cell`.
    pub const fn single(cell: Coord) -> Self {
        let mut set = Self::EMPTY;
        let i = cell.index();
        set.0[i / 64] |= 1 << (i % 64);
        set
    }

    /// Every cell of a board of `size`.
    pub const fn board(size: BoardSize) -> Self {
        BOARDS[size.side() as usize]
    }

    /// The up-to-eight cells around `cell` (sides and corners), not `cell` itself,
    /// clipped to the 12×12 frame; intersect with [`CellSet::board`] for smaller boards.
    pub const fn neighbours(cell: Coord) -> Self {
        NEIGHBOURS[cell.index()]
    }

    /// The up-to-four cells sharing a side with `cell`.
    pub const fn side_neighbours(cell: Coord) -> Self {
        SIDE_NEIGHBOURS[cell.index()]
    }

    pub const fn contains(&self, cell: Coord) -> bool {
        let i = cell.index();
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    pub fn insert(&mut self, cell: Coord) {
        *self |= Self::single(cell);
    }

    pub fn remove(&mut self, cell: Coord) {
        *self -= Self::single(cell);
    }

    pub const fn len(&self) -> usize {
        (self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()) as usize
    }

    pub const fn is_empty(&self) -> bool {
        self.0[0] | self.0[1] | self.0[2] == 0
    }

    /// Whether the two sets share a cell.
    pub const fn intersects(&self, other: &Self) -> bool {
        (self.0[0] & other.0[0]) | (self.0[1] & other.0[1]) | (self.0[2] & other.0[2]) != 0
    }

    /// Whether every cell of `self` is in `other`.
    pub fn is_subset(&self, other: &Self) -> bool {
        (*self - *other).is_empty()
    }

    /// The cells around the set (sides and corners) that are not in it, on `size`.
    pub fn surroundings(&self, size: BoardSize) -> Self {
        let mut around = Self::EMPTY;
        for cell in self {
            around |= Self::neighbours(cell);
        }
        (around - *self) & Self::board(size)
    }

    /// The cells connected to `start` through the set by sides or corners, `start` included
    /// (empty if `start` is not in the set).
    pub fn component(&self, start: Coord) -> Self {
        self.grow(start, &NEIGHBOURS)
    }

    /// The cells connected to `start` through the set by sides only, `start` included.
    pub fn side_component(&self, start: Coord) -> Self {
        self.grow(start, &SIDE_NEIGHBOURS)
    }

    /// The set split into its groups connected by sides (ships, on a board where ships
    /// never touch), the group of the lowest cell first.
    pub fn side_components(&self) -> impl Iterator<Item = Self> {
        let mut left = *self;
        std::iter::from_fn(move || {
            let group = left.side_component(left.iter().next()?);
            left -= group;
            Some(group)
        })
    }

    fn grow(&self, start: Coord, links: &[Self; CELLS]) -> Self {
        if !self.contains(start) {
            return Self::EMPTY;
        }
        let mut found = Self::single(start);
        let mut frontier = found;
        while !frontier.is_empty() {
            let mut next = Self::EMPTY;
            for cell in &frontier {
                next |= links[cell.index()];
            }
            frontier = next & *self & !found;
            found |= frontier;
        }
        found
    }

    /// The cells in ascending order (row by row).
    pub fn iter(&self) -> Cells {
        Cells {
            words: self.0,
            word: 0,
        }
    }

    /// The `n`-th cell in ascending order, if the set has more than `n` cells.
    pub fn nth(&self, mut n: usize) -> Option<Coord> {
        for (w, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if n < ones {
                let mut bits = word;
                for _ in 0..n {
                    bits &= bits - 1;
                }
                return Some(Coord::from_index(w * 64 + bits.trailing_zeros() as usize));
            }
            n -= ones;
        }
        None
    }
}

impl FromIterator<Coord> for CellSet {
    fn from_iter<I: IntoIterator<Item = Coord>>(iter: I) -> Self {
        let mut set = Self::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl IntoIterator for &CellSet {
    type Item = Coord;
    type IntoIter = Cells;
    fn into_iter(self) -> Cells {
        self.iter()
    }
}

/// Iterator over a [`CellSet`], ascending.
#[derive(Clone, Debug)]
pub struct Cells {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Cells {
    type Item = Coord;
    fn next(&mut self) -> Option<Coord> {
        while self.word < WORDS {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some(Coord::from_index(
                    self.word * 64 + bits.trailing_zeros() as usize,
                ));
            }
            self.word += 1;
        }
        None
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.to_string()))
            .finish()
    }
}

impl fmt::Display for CellSet {
    /// `A1, B1, C4`: the cells in ascending order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{cell}")?;
        }
        Ok(())
    }
}

macro_rules! wordwise {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for CellSet {
            type Output = Self;
            fn $method(self, rhs: Self) -> Self {
                Self([self.0[0] $op rhs.0[0], self.0[1] $op rhs.0[1], self.0[2] $op rhs.0[2]])
            }
        }
        impl $assign for CellSet {
            fn $assign_method(&mut self, rhs: Self) {
                *self = *self $op rhs;
            }
        }
    };
}
wordwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wordwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

impl Sub for CellSet {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        self & !rhs
    }
}

impl SubAssign for CellSet {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl Not for CellSet {
    type Output = Self;
    /// The complement within the 12×12 frame (bits past cell 144 stay clear).
    fn not(self) -> Self {
        Self([!self.0[0], !self.0[1], !self.0[2]]) & BOARDS[MAX_SIZE as usize]
    }
}

const fn with(mut set: CellSet, col: i32, row: i32) -> CellSet {
    if col >= 0 && row >= 0 && col < MAX_SIZE as i32 && row < MAX_SIZE as i32 {
        let i = row as usize * MAX_SIZE as usize + col as usize;
        set.0[i / 64] |= 1 << (i % 64);
    }
    set
}

const fn neighbour_table(corners: bool) -> [CellSet; CELLS] {
    let mut table = [CellSet::EMPTY; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (col, row) = (
            (i % MAX_SIZE as usize) as i32,
            (i / MAX_SIZE as usize) as i32,
        );
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let diagonal = dr != 0 && dc != 0;
                if (dr != 0 || dc != 0) && (corners || !diagonal) {
                    table[i] = with(table[i], col + dc, row + dr);
                }
                dc += 1;
            }
            dr += 1;
        }
        i += 1;
    }
    table
}

const fn board_table() -> [CellSet; MAX_SIZE as usize + 1] {
    let mut table = [CellSet::EMPTY; MAX_SIZE as usize + 1];
    let mut side = 1;
    while side <= MAX_SIZE as i32 {
        let mut set = CellSet::EMPTY;
        let mut row = 0;
        while row < side {
            let mut col = 0;
            while col < side {
                set = with(set, col, row);
                col += 1;
            }
            row += 1;
        }
        table[side as usize] = set;
        side += 1;
    }
    table
}

static NEIGHBOURS: [CellSet; CELLS] = neighbour_table(true);
static SIDE_NEIGHBOURS: [CellSet; CELLS] = neighbour_table(false);
static BOARDS: [CellSet; MAX_SIZE as usize + 1] = board_table();

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> Coord {
        Coord::parse(text, BoardSize::LARGE).unwrap()
    }

    #[test]
    fn corner_cell_has_three_neighbours_and_inner_cell_eight() {
        let size = BoardSize::STANDARD;
        assert_eq!(
            (CellSet::neighbours(c("A1")) & CellSet::board(size)).len(),
            3
        );
        assert_eq!(
            (CellSet::neighbours(c("J10")) & CellSet::board(size)).len(),
            3
        );
        assert_eq!(CellSet::neighbours(c("E5")).len(), 8);
        assert_eq!(CellSet::side_neighbours(c("E5")).len(), 4);
    }

    #[test]
    fn board_masks_count_cells() {
        for side in 1..=MAX_SIZE {
            let size = BoardSize::new(side).unwrap();
            assert_eq!(CellSet::board(size).len(), side as usize * side as usize);
            assert_eq!(
                CellSet::board(size).iter().collect::<Vec<_>>(),
                size.cells().collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn nth_walks_in_order_across_words() {
        let set: CellSet = [c("A1"), c("E6"), c("L12"), c("B11")].into_iter().collect();
        let cells: Vec<_> = (0..4).map(|n| set.nth(n).unwrap()).collect();
        assert_eq!(cells, set.iter().collect::<Vec<_>>());
        assert_eq!(set.nth(4), None);
    }

    #[test]
    fn complement_stays_inside_the_frame() {
        assert_eq!((!CellSet::EMPTY).len(), CELLS);
    }

    #[test]
    fn component_follows_corners() {
        let set: CellSet = [c("A1"), c("B2"), c("D4")].into_iter().collect();
        assert_eq!(set.component(c("A1")).len(), 2);
        assert_eq!(set.component(c("D4")).len(), 1);
        assert!(set.component(c("C3")).is_empty());
    }
}
