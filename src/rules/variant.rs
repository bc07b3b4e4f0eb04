//! What game is played: Armada or classic, the board, the fleet and the weapon stock each implies.

use std::fmt;

use thiserror::Error;

use super::coord::BoardSize;

/// The game chosen for a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// 10×10, the standard fleet, and the weapon stock of [`Stock::ARMADA`].
    Armada,
    /// Plain shots only, on 8×8, 10×10 or 12×12.
    Classic(BoardSize),
}

/// A board size no variant offers.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("classic boards are 8×8, 10×10 or 12×12, not {side}×{side}")]
pub struct VariantError {
    pub side: u8,
}

impl Variant {
    /// Classic mode on a `side`×`side` board: 8, 10 or 12.
    pub fn classic(side: u8) -> Result<Self, VariantError> {
        match side {
            8 => Ok(Self::Classic(BoardSize::SMALL)),
            10 => Ok(Self::Classic(BoardSize::STANDARD)),
            12 => Ok(Self::Classic(BoardSize::LARGE)),
            _ => Err(VariantError { side }),
        }
    }

    pub fn size(self) -> BoardSize {
        match self {
            Self::Armada => BoardSize::STANDARD,
            Self::Classic(size) => size,
        }
    }

    /// The ships each player places.
    pub fn fleet(self) -> FleetSpec {
        let lengths: &[u8] = match self.size().side() {
            8 => &[4, 3, 2, 2, 1, 1],
            12 => &[5, 4, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1],
            _ => &[4, 3, 3, 2, 2, 2, 1, 1, 1, 1],
        };
        FleetSpec::new(self.size(), lengths.to_vec()).expect("built-in fleets are valid")
    }

    /// The weapons each player starts every game with.
    pub fn stock(self) -> Stock {
        match self {
            Self::Armada => Stock::ARMADA,
            Self::Classic(_) => Stock::NONE,
        }
    }

    pub fn has_weapons(self) -> bool {
        self.stock() != Stock::NONE
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Armada => f.write_str("Armada"),
            Self::Classic(size) => write!(f, "classic {size}"),
        }
    }
}

/// A board and the lengths of the ships on it, longest first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FleetSpec {
    size: BoardSize,
    lengths: Vec<u8>,
}

/// A fleet that could never be placed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FleetSpecError {
    #[error("a fleet needs at least one ship")]
    Empty,
    #[error("a ship of {len} decks does not fit on a {size} board")]
    Length { len: u8, size: BoardSize },
}

impl FleetSpec {
    /// Any fleet of ships from 1 deck up to the board's side (small ones serve tests).
    pub fn new(size: BoardSize, mut lengths: Vec<u8>) -> Result<Self, FleetSpecError> {
        if lengths.is_empty() {
            return Err(FleetSpecError::Empty);
        }
        if let Some(&len) = lengths.iter().find(|&&l| l == 0 || l > size.side()) {
            return Err(FleetSpecError::Length { len, size });
        }
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        Ok(Self { size, lengths })
    }

    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Ship lengths, longest first.
    pub fn lengths(&self) -> &[u8] {
        &self.lengths
    }

    /// How many ships of `len` decks the fleet has.
    pub fn count(&self, len: u8) -> usize {
        self.lengths.iter().filter(|&&l| l == len).count()
    }

    /// All decks of the fleet: 20 for the standard one.
    pub fn decks(&self) -> usize {
        self.lengths.iter().map(|&l| l as usize).sum()
    }
}

/// The name a player knows a ship by, from its length.
pub fn ship_name(len: u8) -> &'static str {
    match len {
        1 => "boat",
        2 => "destroyer",
        3 => "cruiser",
        4 => "battleship",
        5 => "five-decker",
        _ => "ship",
    }
}

/// One kind of weapon from the stock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weapon {
    Torpedo,
    AirStrike,
    Radar,
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Torpedo => "torpedo",
            Self::AirStrike => "air strike",
            Self::Radar => "radar",
        })
    }
}

/// Weapons left to one player in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stock {
    pub torpedoes: u8,
    pub air_strikes: u8,
    pub radars: u8,
}

impl Stock {
    /// Every Armada game starts with these, for both players; no setting changes them.
    pub const ARMADA: Self = Self {
        torpedoes: 2,
        air_strikes: 2,
        radars: 1,
    };
    /// Classic mode.
    pub const NONE: Self = Self {
        torpedoes: 0,
        air_strikes: 0,
        radars: 0,
    };

    /// How many of `weapon` are left.
    pub fn left(&self, weapon: Weapon) -> u8 {
        match weapon {
            Weapon::Torpedo => self.torpedoes,
            Weapon::AirStrike => self.air_strikes,
            Weapon::Radar => self.radars,
        }
    }

    pub(crate) fn spend(&mut self, weapon: Weapon) {
        let left = match weapon {
            Weapon::Torpedo => &mut self.torpedoes,
            Weapon::AirStrike => &mut self.air_strikes,
            Weapon::Radar => &mut self.radars,
        };
        *left = left.saturating_sub(1);
    }
}
