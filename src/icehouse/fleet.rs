//! Icehouse Armada's fleets: how many ships of each size, the squadrons, the three
//! setups and what each allows (`docs/ICEHOUSE.md`, "Fleets and setup").

use std::fmt;

use thiserror::Error;

use super::game::Placed;
use super::geometry::Size;

/// Most ships of one size in a fleet.
pub const MAX_OF_A_SIZE: u8 = 4;
/// A points fleet's worth.
pub const POINTS: u32 = 12;

/// How many ships of each size a fleet has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Fleet {
    pub large: u8,
    pub medium: u8,
    pub small: u8,
}

impl Fleet {
    /// The basic game's heavy squadron: four large ships.
    pub const HEAVY: Self = Self::new(4, 0, 0);
    /// The basic game's light squadron: four medium and four small.
    pub const LIGHT: Self = Self::new(0, 4, 4);

    pub const fn new(large: u8, medium: u8, small: u8) -> Self {
        Self {
            large,
            medium,
            small,
        }
    }

    pub const fn count(&self, size: Size) -> u8 {
        match size {
            Size::Small => self.small,
            Size::Medium => self.medium,
            Size::Large => self.large,
        }
    }

    pub const fn ships(&self) -> usize {
        self.large as usize + self.medium as usize + self.small as usize
    }

    /// The fleet's strength: its pips.
    pub const fn pips(&self) -> u32 {
        3 * self.large as u32 + 2 * self.medium as u32 + self.small as u32
    }

    /// The ships of each size a placement lays down.
    pub fn of(placement: &[Placed]) -> Self {
        let count = |size| {
            let n = placement.iter().filter(|p| p.size == size).count();
            u8::try_from(n).unwrap_or(u8::MAX)
        };
        Self::new(count(Size::Large), count(Size::Medium), count(Size::Small))
    }

    /// The fleet's sizes, largest first.
    pub fn sizes(&self) -> impl Iterator<Item = Size> + '_ {
        Size::ALL
            .into_iter()
            .rev()
            .flat_map(|size| std::iter::repeat_n(size, usize::from(self.count(size))))
    }
}

impl fmt::Display for Fleet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}L {}M {}S", self.large, self.medium, self.small)
    }
}

/// Which squadron a player commands in the basic and advanced setups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Squadron {
    /// Large ships only.
    Heavy,
    /// Medium and small ships.
    Light,
}

/// How the fleets are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setup {
    /// Four large against four medium and four small.
    Basic,
    /// The host sets the numbers: heavy 1–4 large, light 0–4 medium and 0–4 small.
    Advanced { heavy: Fleet, light: Fleet },
    /// Each player builds a secret fleet worth 12 pips.
    Points,
}

/// A fleet the setup does not allow.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FleetError {
    #[error("a heavy squadron is 1 to 4 large ships and nothing else, not {0}")]
    Heavy(Fleet),
    #[error("a light squadron is 0 to 4 medium and 0 to 4 small ships, at least one, not {0}")]
    Light(Fleet),
    #[error("a points fleet is worth exactly 12 pips with at most 4 of a size, not {0} ({1} pips)")]
    Points(Fleet, u32),
    #[error("this setup's {squadron:?} squadron is {expected}, not {fleet}")]
    NotTheSetups {
        squadron: Squadron,
        expected: Fleet,
        fleet: Fleet,
    },
}

impl Setup {
    /// Whether the host's numbers are within the page's limits.
    pub fn check(&self) -> Result<(), FleetError> {
        if let Self::Advanced { heavy, light } = *self {
            check_heavy(heavy)?;
            check_light(light)?;
        }
        Ok(())
    }

    /// The fleet of a squadron (none in the points setup: each builds its own).
    pub const fn fleet(&self, squadron: Squadron) -> Option<Fleet> {
        match (self, squadron) {
            (Self::Basic, Squadron::Heavy) => Some(Fleet::HEAVY),
            (Self::Basic, Squadron::Light) => Some(Fleet::LIGHT),
            (Self::Advanced { heavy, .. }, Squadron::Heavy) => Some(*heavy),
            (Self::Advanced { light, .. }, Squadron::Light) => Some(*light),
            (Self::Points, _) => None,
        }
    }
}

fn check_heavy(fleet: Fleet) -> Result<(), FleetError> {
    let ok = (1..=MAX_OF_A_SIZE).contains(&fleet.large) && fleet.medium == 0 && fleet.small == 0;
    ok.then_some(()).ok_or(FleetError::Heavy(fleet))
}

fn check_light(fleet: Fleet) -> Result<(), FleetError> {
    let ok = fleet.large == 0
        && fleet.medium <= MAX_OF_A_SIZE
        && fleet.small <= MAX_OF_A_SIZE
        && fleet.ships() > 0;
    ok.then_some(()).ok_or(FleetError::Light(fleet))
}

/// Whether a points fleet is worth exactly 12 with at most four of each size.
pub fn check_points(fleet: Fleet) -> Result<(), FleetError> {
    let ok = fleet.pips() == POINTS && Size::ALL.iter().all(|&s| fleet.count(s) <= MAX_OF_A_SIZE);
    ok.then_some(())
        .ok_or(FleetError::Points(fleet, fleet.pips()))
}
