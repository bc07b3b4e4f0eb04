//! Archimedes positions as text pictures: the top row first, as the board is seen
//! (row 1 is at the bottom); `x` a ship of the first side, `o` of the second, `.`
//! an empty cell, spaces ignored (and the row numbers and column letters of a
//! rendered one). Tests are written in them; the demo prints them.

use std::fmt::Write as _;

use thiserror::Error;

use super::game::{Position, SIZES, Side};
use crate::rules::Coord;

/// Why a text is not a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PictureError {
    #[error("a picture has 6, 8 or 10 rows, not {0}")]
    Rows(usize),
    #[error("row {row} has {found} cells, not {side}")]
    Width {
        row: usize,
        found: usize,
        side: usize,
    },
    #[error("{0:?} is not a cell: x, o or .")]
    Cell(char),
}

/// The position a picture shows, `mover` to move.
pub fn parse(text: &str, mover: Side) -> Result<Position, PictureError> {
    // A rendered picture's row numbers and column letters are skipped.
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .skip_while(char::is_ascii_digit)
                .collect::<Vec<_>>()
        })
        .filter(|r| !r.is_empty() && !r.iter().all(|c| ('A'..='L').contains(c)))
        .collect();
    let side = rows.len();
    if !SIZES.iter().any(|s| usize::from(*s) == side) {
        return Err(PictureError::Rows(side));
    }
    let mut ships = Vec::new();
    for (from_top, row) in rows.iter().enumerate() {
        if row.len() != side {
            return Err(PictureError::Width {
                row: side - from_top,
                found: row.len(),
                side,
            });
        }
        for (col, c) in row.iter().enumerate() {
            let ship = match c {
                'x' | 'X' => Side::First,
                'o' | 'O' => Side::Second,
                '.' => continue,
                other => return Err(PictureError::Cell(*other)),
            };
            let cell = u8::try_from(col)
                .ok()
                .zip(u8::try_from(side - 1 - from_top).ok())
                .and_then(|(c, r)| Coord::new(c, r));
            ships.extend(cell.map(|cell| (cell, ship)));
        }
    }
    let side = u8::try_from(side).map_err(|_| PictureError::Rows(side))?;
    Position::with_ships(side, ships, mover).map_err(|_| PictureError::Rows(side.into()))
}

/// The picture of a position, with row numbers on the left and column letters below.
pub fn render(position: &Position) -> String {
    let side = position.size().side();
    let mut out = String::new();
    for row in (0..side).rev() {
        let _ = write!(out, "{:>2} ", row + 1);
        for col in 0..side {
            let c = match Coord::new(col, row).and_then(|c| position.at(c)) {
                Some(Side::First) => 'x',
                Some(Side::Second) => 'o',
                None => '.',
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for col in 0..side {
        out.push(' ');
        out.push(char::from(b'A' + col));
    }
    out.push('\n');
    out
}
