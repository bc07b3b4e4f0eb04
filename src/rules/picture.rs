//! Boards as text: a fleet read from a picture of `#` and `.`, and a board or chart drawn for a terminal.

use std::fmt::Write as _;

use thiserror::Error;

use super::cells::CellSet;
use super::chart::{Chart, Mark};
use super::coord::Coord;
use super::fleet::{Fleet, PlacementError};
use super::variant::FleetSpec;

/// Why a picture is not a fleet.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PictureError {
    #[error("the picture has {got} rows, the board {want}")]
    Rows { got: usize, want: u8 },
    #[error("row {row} of the picture has {got} cells, the board {want}")]
    Columns { row: usize, got: usize, want: u8 },
    #[error("row {row} of the picture has {found:?}: cells are '#' (deck) or '.' (water)")]
    Symbol { row: usize, found: char },
    #[error(transparent)]
    Placement(#[from] PlacementError),
}

/// Reads a fleet from rows of `#` (deck) and `.` (water), one text line per board row.
///
/// Blank lines and spaces are ignored, and so are a header line of column letters
/// and row numbers at the start of a line, so a board drawn by [`render`] reads
/// back (its hit `x` and wreck `X` count as decks, its miss `o` as water).
pub fn parse_fleet(spec: &FleetSpec, picture: &str) -> Result<Fleet, PictureError> {
    let size = spec.size();
    let side = size.side();
    let rows: Vec<&str> = picture
        .lines()
        .map(|line| line.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' '))
        .filter(|line| !line.trim().is_empty() && !is_header(line))
        .collect();
    if rows.len() != side as usize {
        return Err(PictureError::Rows {
            got: rows.len(),
            want: side,
        });
    }
    let mut decks = CellSet::EMPTY;
    for (r, line) in rows.iter().enumerate() {
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != side as usize {
            return Err(PictureError::Columns {
                row: r + 1,
                got: cells.len(),
                want: side,
            });
        }
        for (c, &symbol) in cells.iter().enumerate() {
            match symbol {
                '#' | 'x' | 'X' => decks.insert(Coord::new(c as u8, r as u8).expect("side ≤ 12")),
                '.' | 'o' => {}
                found => return Err(PictureError::Symbol { row: r + 1, found }),
            }
        }
    }
    Ok(Fleet::from_cells(spec, decks)?)
}

fn is_header(line: &str) -> bool {
    line.chars().all(|c| c.is_ascii_uppercase() || c == ' ')
}

/// Draws a board: with `fleet`, a player's own sea (`#` unhit deck) under the enemy's
/// `chart`; without, just the chart. `o` miss, `x` hit, `X` wreck, `.` unknown water.
pub fn render(fleet: Option<&Fleet>, chart: &Chart) -> String {
    let size = chart.size();
    let mut out = String::from("   ");
    for col in 0..size.side() {
        let _ = write!(out, " {}", char::from(b'A' + col));
    }
    out.push('\n');
    for row in 0..size.side() {
        let _ = write!(out, "{:>3}", row + 1);
        for col in 0..size.side() {
            let cell = Coord::new(col, row).expect("side ≤ 12");
            let symbol = match chart.mark(cell) {
                Mark::Miss => 'o',
                Mark::Hit => 'x',
                Mark::Wreck => 'X',
                Mark::Unmarked if fleet.is_some_and(|f| f.decks().contains(cell)) => '#',
                Mark::Unmarked => '.',
            };
            let _ = write!(out, " {symbol}");
        }
        out.push('\n');
    }
    out
}
