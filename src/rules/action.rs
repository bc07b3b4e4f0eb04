//! The four actions, the air strike's shell order, and the report of what an action did.

use std::fmt;

use rand::RngExt;
use thiserror::Error;

use super::cells::CellSet;
use super::coord::CoordError;
use super::coord::{BoardSize, Coord};
use super::game::Ending;
use super::variant::{Weapon, ship_name};

/// Which way a torpedo runs; it enters from the opposite edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    /// → along a row, entering at column A.
    Right,
    /// ← along a row, entering at the last column.
    Left,
    /// ↓ along a column, entering at row 1.
    Down,
    /// ↑ along a column, entering at the last row.
    Up,
}

/// A torpedo: a row (for → and ←) or a column (for ↓ and ↑), 0-based, and a heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Torpedo {
    pub heading: Heading,
    pub line: u8,
}

impl Torpedo {
    /// The cells it crosses, in the order it crosses them; `None` if the line is off `size`.
    pub fn path(&self, size: BoardSize) -> Option<impl Iterator<Item = Coord> + use<>> {
        let side = size.side();
        if self.line >= side {
            return None;
        }
        let (line, heading) = (self.line, self.heading);
        Some((0..side).filter_map(move |step| {
            let back = side - 1 - step;
            match heading {
                Heading::Right => Coord::new(step, line),
                Heading::Left => Coord::new(back, line),
                Heading::Down => Coord::new(line, step),
                Heading::Up => Coord::new(line, back),
            }
        }))
    }
}

impl fmt::Display for Torpedo {
    /// `torpedo row 3 →`, `torpedo column C ↑`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Any line at all prints (a peer may send nonsense); wider arithmetic never overflows.
        let row = u16::from(self.line) + 1;
        let column = char::from_u32(u32::from(b'A') + u32::from(self.line)).unwrap_or('?');
        match self.heading {
            Heading::Right => write!(f, "torpedo row {row} →"),
            Heading::Left => write!(f, "torpedo row {row} ←"),
            Heading::Down => write!(f, "torpedo column {column} ↓"),
            Heading::Up => write!(f, "torpedo column {column} ↑"),
        }
    }
}

/// What a player does with one action of their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Shot(Coord),
    Torpedo(Torpedo),
    /// Centre of the 3×3 square the five shells fall on.
    AirStrike(Coord),
    /// Centre of the 3×3 square swept.
    Radar(Coord),
}

impl Action {
    /// The weapon it spends, if any.
    pub fn weapon(&self) -> Option<Weapon> {
        match self {
            Self::Shot(_) => None,
            Self::Torpedo(_) => Some(Weapon::Torpedo),
            Self::AirStrike(_) => Some(Weapon::AirStrike),
            Self::Radar(_) => Some(Weapon::Radar),
        }
    }
}

/// Text that is not an action.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionParseError {
    #[error(
        "{0:?}: say a cell (E5), `torpedo row 3 right`, `torpedo column C up`, `air D4` or `radar F6`"
    )]
    Unknown(String),
    #[error("{0:?}: a torpedo runs along `row N` (right or left) or `column X` (down or up)")]
    Torpedo(String),
    #[error("\"row {line}\": row must be 1–{side}")]
    Row { line: String, side: u8 },
    #[error("\"column {line}\": column must be A–{last}")]
    Column { line: String, last: char },
    #[error(transparent)]
    Cell(#[from] CoordError),
}

impl Action {
    /// Reads what a player typed: `E5` or `shot E5`, `torpedo row 3 right` (or `←`, `left`),
    /// `torpedo column C down` (or `up`, `↓`, `↑`), `air D4` (or `air strike D4`), `radar F6`.
    /// Case and extra spaces do not matter.
    pub fn parse(text: &str, size: BoardSize) -> Result<Self, ActionParseError> {
        let lower = text.trim().to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let cell = |word: &str| Coord::parse(word, size);
        match words.as_slice() {
            [one] if !one.starts_with(|c: char| c.is_ascii_digit()) && one.len() <= 3 => {
                Ok(Self::Shot(cell(one)?))
            }
            ["shot" | "fire", at] => Ok(Self::Shot(cell(at)?)),
            ["air" | "airstrike", at] | ["air", "strike", at] => Ok(Self::AirStrike(cell(at)?)),
            ["radar", at] => Ok(Self::Radar(cell(at)?)),
            ["torpedo", kind, line, way] => {
                let bad = || ActionParseError::Torpedo(text.trim().to_owned());
                let heading = match *way {
                    "right" | "→" => Heading::Right,
                    "left" | "←" => Heading::Left,
                    "down" | "↓" => Heading::Down,
                    "up" | "↑" => Heading::Up,
                    _ => return Err(bad()),
                };
                let along_row = matches!(heading, Heading::Right | Heading::Left);
                // The line is read as a cell on the board's first column or row, and a
                // line off the board is named as the player typed it.
                let line = match (*kind, along_row) {
                    ("row", true) => cell(&format!("a{line}"))
                        .map_err(|_| ActionParseError::Row {
                            line: (*line).to_owned(),
                            side: size.side(),
                        })?
                        .row(),
                    ("column" | "col", false) => cell(&format!("{line}1"))
                        .map_err(|_| ActionParseError::Column {
                            line: line.to_uppercase(),
                            last: char::from(b'A' + size.side() - 1),
                        })?
                        .col(),
                    _ => return Err(bad()),
                };
                Ok(Self::Torpedo(Torpedo { heading, line }))
            }
            _ => Err(ActionParseError::Unknown(text.trim().to_owned())),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Shot(cell) => write!(f, "shot {cell}"),
            Self::Torpedo(torpedo) => write!(f, "{torpedo}"),
            Self::AirStrike(centre) => write!(f, "air strike {centre}"),
            Self::Radar(centre) => write!(f, "radar {centre}"),
        }
    }
}

/// The nine cells of the 3×3 square around `centre`, row by row (index 0 is top-left);
/// `None` unless the whole square lies on `size` (the centre is not on the edge).
pub fn square(centre: Coord, size: BoardSize) -> Option<[Coord; 9]> {
    let side = size.side();
    let inside = |v: u8| v >= 1 && v + 1 < side;
    if !(inside(centre.col()) && inside(centre.row())) {
        return None;
    }
    Some(std::array::from_fn(|i| {
        let (col, row) = (
            centre.col() + (i % 3) as u8 - 1,
            centre.row() + (i / 3) as u8 - 1,
        );
        Coord::new(col, row).expect("inside a board of at most 12")
    }))
}

/// The order of an air strike's five shells: distinct positions 0..9 in its square,
/// row by row. It comes from the shared randomness; the rules only take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShellOrder([u8; 5]);

/// Five positions that are not distinct cells of a 3×3 square.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("an air strike's shells are five distinct positions 0–8, not {0:?}")]
pub struct ShellOrderError(pub [u8; 5]);

impl ShellOrder {
    /// The number of distinct ordered choices: 9·8·7·6·5.
    pub const CHOICES: u32 = 15_120;

    pub fn new(positions: [u8; 5]) -> Result<Self, ShellOrderError> {
        let mut seen = 0u16;
        for &p in &positions {
            if p >= 9 || seen & (1 << p) != 0 {
                return Err(ShellOrderError(positions));
            }
            seen |= 1 << p;
        }
        Ok(Self(positions))
    }

    /// Each of the 15,120 orders equally likely (a partial Fisher–Yates with exact draws).
    /// For games without a referee the order must come from shared randomness instead.
    pub fn random<R: rand::Rng + ?Sized>(rng: &mut R) -> Self {
        let mut cells: [u8; 9] = std::array::from_fn(|i| i as u8);
        for i in 0..5 {
            let j = rng.random_range(i..9);
            cells.swap(i, j);
        }
        Self([cells[0], cells[1], cells[2], cells[3], cells[4]])
    }

    /// The ordinal 0..15120 of this order (lexicographic over the shrinking choices);
    /// a compact label for statistics.
    pub fn ordinal(&self) -> u32 {
        let mut left: Vec<u8> = (0..9).collect();
        let mut ordinal = 0;
        for (i, p) in self.0.iter().enumerate() {
            let at = left
                .iter()
                .position(|c| c == p)
                .expect("positions are distinct");
            ordinal = ordinal * (9 - i as u32) + at as u32;
            left.remove(at);
        }
        ordinal
    }

    pub fn positions(&self) -> [u8; 5] {
        self.0
    }

    /// The cells the shells fall on around `centre`, in order; `None` for an edge centre.
    pub fn cells(&self, centre: Coord, size: BoardSize) -> Option<[Coord; 5]> {
        let square = square(centre, size)?;
        Some(self.0.map(|p| square[p as usize]))
    }
}

/// One thing an action did to a cell, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Water: a shot's miss, or a cell a torpedo crossed.
    Miss(Coord),
    /// A deck hit; its ship is still afloat.
    Hit(Coord),
    /// The last deck of a ship hit: `ship` became wrecks and `ring` (the unmarked
    /// cells around it) became misses.
    Sunk {
        cell: Coord,
        ship: CellSet,
        ring: CellSet,
    },
    /// An air-strike shell on a cell that was already marked.
    Lost(Coord),
    /// A radar's look at an unmarked cell; it marks nothing.
    Scanned { cell: Coord, deck: bool },
}

impl Effect {
    /// Whether this effect hit a deck (and so earns another action).
    pub fn is_hit(&self) -> bool {
        matches!(self, Self::Hit(_) | Self::Sunk { .. })
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Miss(cell) => write!(f, "{cell} miss"),
            Self::Hit(cell) => write!(f, "{cell} hit"),
            Self::Sunk { cell, ship, .. } => {
                write!(f, "{cell} sunk ({})", ship_name(ship.len() as u8))
            }
            Self::Lost(cell) => write!(f, "{cell} lost"),
            Self::Scanned { cell, deck: true } => write!(f, "{cell} deck"),
            Self::Scanned { cell, deck: false } => write!(f, "{cell} water"),
        }
    }
}

/// What one action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub action: Action,
    pub effects: Vec<Effect>,
    /// The same player acts again (a deck was hit and the game goes on).
    pub again: bool,
    /// Set when this action ended the game.
    pub ending: Option<Ending>,
}

impl Report {
    /// The picture a radar sweep showed (each swept cell, and whether it holds a
    /// deck); `None` for any other action. RULES.md: it serves the sweeper's next
    /// action only; whoever holds it must drop it after that.
    pub fn radar_picture(&self) -> Option<Vec<(Coord, bool)>> {
        matches!(self.action, Action::Radar(_)).then(|| {
            self.effects
                .iter()
                .filter_map(|e| match *e {
                    Effect::Scanned { cell, deck } => Some((cell, deck)),
                    _ => None,
                })
                .collect()
        })
    }
}

impl fmt::Display for Report {
    /// `air strike D4: C3 miss, D4 hit, E5 lost — again`; a sweep is `radar F6: square
    /// swept` (RULES.md: its picture is shown for a moment, never kept in a record).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(self.action, Action::Radar(_)) {
            return write!(f, "{}: square swept", self.action);
        }
        write!(f, "{}:", self.action)?;
        for (i, effect) in self.effects.iter().enumerate() {
            write!(f, "{}{effect}", if i == 0 { " " } else { ", " })?;
        }
        if self.again {
            f.write_str(" — again")?;
        }
        Ok(())
    }
}
