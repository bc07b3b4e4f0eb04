//! Board sizes and cells: parsing and printing `A1`..`L12`, and nothing about what lies there.

use std::fmt;

use thiserror::Error;

/// The largest board any variant uses (classic 12×12).
pub const MAX_SIZE: u8 = 12;

/// The side of a square board, 1..=12. Variants restrict it further (8, 10 or 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize(u8);

impl BoardSize {
    /// Classic 8×8.
    pub const SMALL: Self = Self(8);
    /// Armada and classic 10×10.
    pub const STANDARD: Self = Self(10);
    /// Classic 12×12.
    pub const LARGE: Self = Self(12);

    /// A board of `side`×`side` cells; any side from 1 to 12 (small boards serve tests).
    pub const fn new(side: u8) -> Option<Self> {
        if side >= 1 && side <= MAX_SIZE {
            Some(Self(side))
        } else {
            None
        }
    }

    /// The number of rows (and of columns).
    pub const fn side(self) -> u8 {
        self.0
    }

    /// Whether `cell` lies on this board.
    pub const fn contains(self, cell: Coord) -> bool {
        cell.col < self.0 && cell.row < self.0
    }

    /// The letter of the last column: `J` on 10×10.
    pub const fn last_column(self) -> char {
        (b'A' + self.0 - 1) as char
    }

    /// Every cell, row by row from `A1`.
    pub fn cells(self) -> impl Iterator<Item = Coord> {
        let side = self.0;
        (0..side).flat_map(move |row| (0..side).map(move |col| Coord { row, col }))
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}×{0}", self.0)
    }
}

/// One cell: a column (0 = `A`) and a row (0 = `1`), on a board of at most 12×12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    // Field order gives row-major ordering: A1 < B1 < ... < A2.
    row: u8,
    col: u8,
}

/// Why a text is not a cell of the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CoordError {
    #[error("{input:?}: a cell is a column letter and a row number, like E5")]
    Malformed { input: String },
    #[error("{input:?}: column must be A–{last}")]
    Column { input: String, last: char },
    #[error("{input:?}: row must be 1–{side}")]
    Row { input: String, side: u8 },
}

impl Coord {
    /// The cell at 0-based `col` and `row`, if both are below 12.
    pub const fn new(col: u8, row: u8) -> Option<Self> {
        if col < MAX_SIZE && row < MAX_SIZE {
            Some(Self { row, col })
        } else {
            None
        }
    }

    /// 0-based column (0 = `A`).
    pub const fn col(self) -> u8 {
        self.col
    }

    /// 0-based row (0 = row `1`).
    pub const fn row(self) -> u8 {
        self.row
    }

    /// Parses `E5`, `e5`, ` J10 ` on a board of `size`; anything else is a clear error.
    pub fn parse(text: &str, size: BoardSize) -> Result<Self, CoordError> {
        let trimmed = text.trim();
        let malformed = || CoordError::Malformed {
            input: trimmed.to_owned(),
        };
        let mut chars = trimmed.chars();
        let letter = chars.next().ok_or_else(malformed)?;
        let digits = chars.as_str();
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(malformed());
        }
        let col = letter.to_ascii_uppercase() as u8 - b'A';
        if col >= size.side() {
            return Err(CoordError::Column {
                input: trimmed.to_owned(),
                last: size.last_column(),
            });
        }
        // At most two digits can name a row; longer strings are out of range, not overflow.
        let row = match digits.parse::<u8>() {
            Ok(n) if (1..=size.side()).contains(&n) && digits.len() <= 2 => n - 1,
            _ => {
                return Err(CoordError::Row {
                    input: trimmed.to_owned(),
                    side: size.side(),
                });
            }
        };
        Ok(Self { row, col })
    }

    /// The cell `dc` columns and `dr` rows away, if it is still on `size`.
    pub fn offset(self, dc: i8, dr: i8, size: BoardSize) -> Option<Self> {
        let col = self.col.checked_add_signed(dc)?;
        let row = self.row.checked_add_signed(dr)?;
        let cell = Self { row, col };
        size.contains(cell).then_some(cell)
    }

    /// The bit index used by [`CellSet`](super::CellSet): rows of twelve, whatever the board.
    pub(crate) const fn index(self) -> usize {
        self.row as usize * MAX_SIZE as usize + self.col as usize
    }

    pub(crate) const fn from_index(index: usize) -> Self {
        Self {
            row: (index / MAX_SIZE as usize) as u8,
            col: (index % MAX_SIZE as usize) as u8,
        }
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col) as char, self.row + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_for_every_cell() {
        for cell in BoardSize::LARGE.cells() {
            assert_eq!(Coord::from_index(cell.index()), cell);
        }
    }
}
