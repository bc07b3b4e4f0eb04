//! The table as text, for the terminal and the demo: a sketch of the ships' places
//! and headings (one character a centimetre across, two down; the bow an arrow),
//! then each ship's exact pose, heading and damage.

use std::fmt::Write;

use super::game::{Game, Ship, Side};
use super::geometry::{Point, TABLE_H, TABLE_W};
use super::propose::heading;

/// Micrometres a character covers across and down.
const CELL_W: i64 = 10_000;
const CELL_H: i64 = 20_000;

/// The sketch and the list of ships afloat; south's ships in capitals.
pub fn render(game: &Game) -> String {
    let cols = (TABLE_W / CELL_W) as usize;
    let rows = (TABLE_H / CELL_H) as usize;
    let mut grid = vec![vec!['.'; cols]; rows];
    for side in Side::BOTH {
        for ship in game.ships(side).iter().filter(|s| s.afloat) {
            draw(&mut grid, ship);
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "+{}+  north", "-".repeat(cols));
    for row in grid.iter().rev() {
        let line: String = row.iter().collect();
        let _ = writeln!(out, "|{line}|");
    }
    let _ = writeln!(out, "+{}+  south", "-".repeat(cols));
    for side in Side::BOTH {
        let ships: Vec<String> = game
            .ships(side)
            .iter()
            .filter(|s| s.afloat)
            .map(describe)
            .collect();
        let _ = writeln!(
            out,
            "{side} ({} afloat, strength {}): {}",
            ships.len(),
            game.strength(side),
            ships.join("; ")
        );
    }
    out
}

/// A ship in words: name, stern → bow in mm, heading in degrees, damage.
pub fn describe(ship: &Ship) -> String {
    let mm = |p: Point| format!("{:.1},{:.1}", p.x as f64 / 1000.0, p.y as f64 / 1000.0);
    let degrees = heading(ship.pose).to_degrees().rem_euclid(360.0);
    let mut text = format!(
        "{}{} {}→{} {:.0}°",
        ship.name,
        if ship.flagship { "*" } else { "" },
        mm(ship.pose.stern),
        mm(ship.pose.bow),
        degrees
    );
    if ship.damage > 0 {
        let _ = write!(text, " hit {}/{}", ship.damage, ship.size().pips());
    }
    text
}

/// Marks the cells whose middle the ship covers (its bow's cell at least), with
/// its letter: a capital for south.
fn draw(grid: &mut [Vec<char>], ship: &Ship) {
    let letter = match ship.name.side {
        Side::South => ship.size().letter(),
        Side::North => ship.size().letter().to_ascii_lowercase(),
    };
    let t = ship.footprint();
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let xs = t.0.iter().map(|p| p.x);
    let ys = t.0.iter().map(|p| p.y);
    let col = |x: i64| ((x / CELL_W).max(0) as usize).min(cols - 1);
    let row = |y: i64| ((y / CELL_H).max(0) as usize).min(rows - 1);
    let (c0, c1) = (
        col(xs.clone().min().unwrap_or(0)),
        col(xs.max().unwrap_or(0)),
    );
    let (r0, r1) = (
        row(ys.clone().min().unwrap_or(0)),
        row(ys.max().unwrap_or(0)),
    );
    for (r, cells) in grid.iter_mut().enumerate().take(r1 + 1).skip(r0) {
        for (c, cell) in cells.iter_mut().enumerate().take(c1 + 1).skip(c0) {
            let middle = Point::new(
                c as i64 * CELL_W + CELL_W / 2,
                r as i64 * CELL_H + CELL_H / 2,
            );
            if t.contains(middle) {
                *cell = letter;
            }
        }
    }
    // The bow shows the heading, to the nearest eighth of a turn.
    let octant = (heading(ship.pose).to_degrees() / 45.0)
        .round()
        .rem_euclid(8.0) as usize;
    let bow = ship.pose.bow;
    grid[row(bow.y)][col(bow.x)] = ['>', '/', '^', '\\', '<', '/', 'v', '\\'][octant];
}
