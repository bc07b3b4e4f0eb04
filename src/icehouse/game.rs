//! The rules of Icehouse Armada (`docs/ICEHOUSE.md`): placement in the home strips,
//! turns of up to three actions, moves of whole-length steps that pivot on the bow,
//! broadsides along a clear line of fire, sinking, and the end — the last ship, the
//! flagship, a breakthrough, or quiet waters.
//!
//! Choices where the page leaves an order open, written here so that every engine
//! refuses a bad action with the same reason: an action is checked in this order —
//! the game is over; it names no ship (a ship number the fleet lacks, or a ship that
//! has sunk; the firing ship, then the target); a point off the table (every point
//! it names, in order); `o` or `j` out of range; then the rules of the turn (the
//! ship has moved, or has no shot left; too many steps); then the geometry, step by
//! step. A refused action changes nothing.

use std::fmt;

use thiserror::Error;

use super::fleet::Fleet;
use super::geometry::{Broadside, Point, Pose, Size, Triangle};

/// Actions in one turn.
pub const ACTIONS_PER_TURN: u8 = 3;
/// Turns in a row without a hit that end a game (20 of each side).
pub const QUIET_TURNS: u32 = 40;
/// The attacker of a breakthrough must be through by the start of this turn of its.
pub const BREAKTHROUGH_TURNS: u32 = 21;
/// The home strips: south's corners at most this far north, north's at least
/// `TABLE_H - HOME_DEPTH`.
pub const HOME_DEPTH: i64 = 173_000;
/// The back lines of a breakthrough: y = 560 000 (defender north), 40 000 (south).
const BACK_LINE_NORTH: i64 = 560_000;
const BACK_LINE_SOUTH: i64 = 40_000;

/// The two players: south moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    South,
    North,
}

impl Side {
    pub const BOTH: [Self; 2] = [Self::South, Self::North];

    pub const fn other(self) -> Self {
        match self {
            Self::South => Self::North,
            Self::North => Self::South,
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Self::South => 0,
            Self::North => 1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Self::South => "south",
            Self::North => "north",
        }
    }

    /// Whether every corner of `t` lies in this side's home strip.
    pub fn at_home(self, t: &Triangle) -> bool {
        t.0.iter().all(|p| match self {
            Self::South => p.y <= HOME_DEPTH,
            Self::North => p.y >= super::geometry::TABLE_H - HOME_DEPTH,
        })
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a table plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Sink every enemy ship.
    SinkAll,
    /// Sink (or ram) the enemy flagship.
    Flagship,
    /// The attacker breaks through the defender's back line in force.
    Breakthrough { attacker: Side },
}

/// A ship's name: its size's letter and its number among its fleet's ships of that
/// size (L1, M3, S2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShipName {
    pub side: Side,
    pub size: Size,
    pub number: u8,
}

impl fmt::Display for ShipName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.size.letter(), self.number)
    }
}

/// One ship as a player lays it down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    pub size: Size,
    pub pose: Pose,
    pub flagship: bool,
}

/// A ship on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ship {
    pub name: ShipName,
    pub pose: Pose,
    pub damage: u8,
    pub flagship: bool,
    pub afloat: bool,
}

impl Ship {
    pub const fn size(&self) -> Size {
        self.name.size
    }

    pub fn footprint(&self) -> Triangle {
        self.pose.footprint(self.name.size)
    }

    /// Its pips less its damage.
    pub const fn strength(&self) -> u32 {
        (self.name.size.pips() - self.damage) as u32
    }
}

/// Why a placement breaks the page.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("the placement has {placed} instead of the fleet {fleet}")]
    NotTheFleet { fleet: Fleet, placed: Fleet },
    #[error("{ship} names a point off the table: {at}")]
    OffTable { ship: ShipName, at: Point },
    #[error("{ship}'s stern and bow are not one ship length apart")]
    Length { ship: ShipName },
    #[error("{ship} lies over the table's edge")]
    OverTheEdge { ship: ShipName },
    #[error("{ship} lies outside the {side} home strip")]
    NotHome { ship: ShipName, side: Side },
    #[error("{ship} touches {other}")]
    Touching { ship: ShipName, other: ShipName },
    #[error("a flagship game needs exactly one flagship, not {0}")]
    Flagships(usize),
    #[error("only a flagship game has a flagship")]
    NoFlagshipGame,
}

/// `side`'s ships as `placement` lays them, afloat and undamaged, each named by its
/// size and its number among the ships of that size, in the order given.
fn launch(side: Side, placement: &[Placed]) -> Vec<Ship> {
    let mut counts = Fleet::default();
    placement
        .iter()
        .map(|placed| {
            let count = match placed.size {
                Size::Small => &mut counts.small,
                Size::Medium => &mut counts.medium,
                Size::Large => &mut counts.large,
            };
            *count = count.saturating_add(1);
            Ship {
                name: ShipName {
                    side,
                    size: placed.size,
                    number: *count,
                },
                pose: placed.pose,
                damage: 0,
                flagship: placed.flagship,
                afloat: true,
            }
        })
        .collect()
}

/// Whether `placement` lays `fleet` legally in `side`'s home strip for `goal`.
/// Ships are named in the order given, within their size.
pub fn check_placement(
    side: Side,
    goal: Goal,
    fleet: Fleet,
    placement: &[Placed],
) -> Result<Vec<Ship>, PlacementError> {
    let ships = launch(side, placement);
    let counts = Fleet::of(placement);
    if counts != fleet {
        return Err(PlacementError::NotTheFleet {
            fleet,
            placed: counts,
        });
    }
    for ship in &ships {
        for at in [ship.pose.stern, ship.pose.bow] {
            if !at.on_table_rect() {
                return Err(PlacementError::OffTable {
                    ship: ship.name,
                    at,
                });
            }
        }
    }
    for ship in &ships {
        if !ship.pose.legal(ship.size()) {
            return Err(PlacementError::Length { ship: ship.name });
        }
        let t = ship.footprint();
        if !t.on_table() {
            return Err(PlacementError::OverTheEdge { ship: ship.name });
        }
        if !side.at_home(&t) {
            return Err(PlacementError::NotHome {
                ship: ship.name,
                side,
            });
        }
    }
    for (i, a) in ships.iter().enumerate() {
        for b in &ships[i + 1..] {
            if a.footprint().touches(&b.footprint()) {
                return Err(PlacementError::Touching {
                    ship: a.name,
                    other: b.name,
                });
            }
        }
    }
    let flagships = ships.iter().filter(|s| s.flagship).count();
    match goal {
        Goal::Flagship if flagships != 1 => return Err(PlacementError::Flagships(flagships)),
        Goal::SinkAll | Goal::Breakthrough { .. } if flagships > 0 => {
            return Err(PlacementError::NoFlagshipGame);
        }
        _ => {}
    }
    Ok(ships)
}

/// The new bows of a move's steps, in order (1 to 4 of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Steps {
    bows: [Point; 4],
    len: u8,
}

impl Steps {
    /// Up to four steps; `None` for none or more.
    pub fn new(bows: &[Point]) -> Option<Self> {
        if bows.is_empty() || bows.len() > 4 {
            return None;
        }
        let mut all = [Point::default(); 4];
        all[..bows.len()].copy_from_slice(bows);
        Some(Self {
            bows: all,
            len: bows.len() as u8,
        })
    }

    pub fn bows(&self) -> &[Point] {
        &self.bows[..usize::from(self.len)]
    }
}

/// A broadside: the firing ship, its side, where along it the large pyramid lies
/// (`o`), the line of fire's start on the field's base (`j` thousandths) and its end
/// `at`, a point of the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shot {
    pub ship: u8,
    pub side: Broadside,
    pub o: i64,
    pub j: i64,
    pub target: u8,
    pub at: Point,
}

/// One action of the side to move; ships are numbered from 0 in their placement's
/// order (their own fleet for a move or a shot, the enemy's for a target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Move { ship: u8, steps: Steps },
    Fire(Shot),
    EndTurn,
}

/// What a legal step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The ship lies in its new place.
    Lays,
    /// It touches the enemy flagship, and nothing else: a ram, which wins.
    Rams,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The loser's last ship sank.
    AllSunk,
    /// The loser's flagship sank.
    FlagshipSunk,
    /// The winner's ship rammed the loser's flagship.
    Rammed,
    /// Forty turns without a hit: the stronger fleet won (or equal strength drew).
    Quiet,
    /// The attacker's ships worth half its strength were through at its turn's start.
    BrokeThrough,
    /// The attacker had not broken through by the start of its 21st turn.
    Held,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::AllSunk => "the last ship of a fleet sank",
            Self::FlagshipSunk => "a flagship sank",
            Self::Rammed => "a flagship was rammed",
            Self::Quiet => "forty turns passed without a hit",
            Self::BrokeThrough => "the attacker broke through",
            Self::Held => "the defender held the line for twenty turns",
        })
    }
}

/// The end of a game: the winner (`None`: a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// What a shot did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub target: ShipName,
    pub sunk: bool,
}

/// What an action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub side: Side,
    pub action: Action,
    /// The ship that moved or fired, by name.
    pub by: Option<ShipName>,
    /// A shot always hits; this names the ship and whether it sank.
    pub hit: Option<Hit>,
    /// The side's turn ended with this action (its third, or an end of turn).
    pub turn_ended: bool,
    pub ending: Option<Ending>,
}

/// An action in words, its ships by name: "L1 moves 2 steps to (3, 4)", "M2 fires
/// from its port side at L1: hit", "the turn ends".
impl fmt::Display for Played {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let by = |f: &mut fmt::Formatter<'_>| match self.by {
            Some(name) => write!(f, "{name}"),
            None => f.write_str("a ship"),
        };
        match self.action {
            Action::EndTurn => f.write_str("the turn ends"),
            Action::Move { steps, .. } => {
                let bows = steps.bows();
                by(f)?;
                write!(
                    f,
                    " moves {} step{}",
                    bows.len(),
                    if bows.len() == 1 { "" } else { "s" }
                )?;
                match bows.last() {
                    Some(bow) => write!(f, " to {bow}"),
                    None => Ok(()),
                }
            }
            Action::Fire(shot) => {
                by(f)?;
                write!(f, " fires from its {} side", shot.side.name())?;
                match self.hit {
                    Some(hit) if hit.sunk => write!(f, " at {}: sunk!", hit.target),
                    Some(hit) => write!(f, " at {}: hit", hit.target),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Why an action is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refusal {
    #[error("the game is over")]
    Over,
    #[error("{side} has no ship number {number}")]
    NoShip { side: Side, number: u8 },
    #[error("{ship} has sunk")]
    Sunk { ship: ShipName },
    #[error("{at} is off the table")]
    OffTable { at: Point },
    #[error("o = {o} is out of range for {ship} (0 to {max})")]
    OffsetRange { ship: ShipName, o: i64, max: i64 },
    #[error("j = {0} is out of range (0 to 1000)")]
    OriginRange(i64),
    #[error("{ship} has already moved this turn")]
    Moved { ship: ShipName },
    #[error("{ship} has fired all its {pips} shots this turn")]
    NoShotLeft { ship: ShipName, pips: u8 },
    #[error("{ship} takes at most {max} steps, not {steps}")]
    TooManySteps {
        ship: ShipName,
        steps: usize,
        max: usize,
    },
    #[error("step {step}: the bow {bow} is not one ship length from {stern}")]
    StepLength {
        step: usize,
        stern: Point,
        bow: Point,
    },
    #[error("step {step} leaves the table")]
    StepOffTable { step: usize },
    #[error("step {step} turns too sharply: it overlaps the ship's last place")]
    StepTurnsBack { step: usize },
    #[error("step {step} touches {side}'s {size} ship {other} at {at}")]
    StepTouches {
        step: usize,
        side: Side,
        size: &'static str,
        other: ShipName,
        at: Point,
    },
    #[error("step {step} rams the flagship, so no step may follow it")]
    AfterRam { step: usize },
    #[error("{target} is not in the field of fire at {at}")]
    NotInField { target: ShipName, at: Point },
    #[error("{at} is not a point of {target}")]
    NotOnTarget { target: ShipName, at: Point },
    #[error("the line of fire is blocked by {side}'s {size} ship {by} at {at}")]
    Blocked {
        side: Side,
        size: &'static str,
        by: ShipName,
        at: Point,
    },
}

/// A game in play: both fleets on the table and the turn's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    goal: Goal,
    ships: [Vec<Ship>; 2],
    start_strength: [u32; 2],
    to_move: Side,
    /// Turns begun, both sides counted (the first is 1).
    turn: u32,
    /// Turns begun by the breakthrough's attacker.
    attacker_turns: u32,
    actions: u8,
    moved: Vec<bool>,
    fired: Vec<u8>,
    hit_this_turn: bool,
    /// Turns ended in a row without a hit.
    quiet: u32,
    ending: Option<Ending>,
}

impl Game {
    /// The game after both placements were revealed and checked against `fleets`.
    pub fn new(
        goal: Goal,
        fleets: [Fleet; 2],
        placements: [&[Placed]; 2],
    ) -> Result<Self, (Side, PlacementError)> {
        let south = check_placement(Side::South, goal, fleets[0], placements[0])
            .map_err(|e| (Side::South, e))?;
        let north = check_placement(Side::North, goal, fleets[1], placements[1])
            .map_err(|e| (Side::North, e))?;
        Ok(Self::from_ships(goal, [south, north]))
    }

    fn from_ships(goal: Goal, ships: [Vec<Ship>; 2]) -> Self {
        let start_strength = [strength_of(&ships[0]), strength_of(&ships[1])];
        let most = ships[0].len().max(ships[1].len());
        let mut game = Self {
            goal,
            ships,
            start_strength,
            to_move: Side::South,
            turn: 0,
            attacker_turns: 0,
            actions: 0,
            moved: vec![false; most],
            fired: vec![0; most],
            hit_this_turn: false,
            quiet: 0,
            ending: None,
        };
        game.begin_turn(Side::South);
        game
    }

    pub const fn goal(&self) -> Goal {
        self.goal
    }

    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// Turns begun, both sides counted.
    pub const fn turn(&self) -> u32 {
        self.turn
    }

    /// Actions left in the turn under way.
    pub const fn actions_left(&self) -> u8 {
        ACTIONS_PER_TURN - self.actions
    }

    pub const fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Turns ended in a row without a hit.
    pub const fn quiet(&self) -> u32 {
        self.quiet
    }

    /// A side's ships, sunk ones included (`afloat` says), in placement order.
    pub fn ships(&self, side: Side) -> &[Ship] {
        &self.ships[side.index()]
    }

    /// Whether the side to move's ship `i` has moved this turn.
    pub fn has_moved(&self, i: u8) -> bool {
        self.moved.get(usize::from(i)).copied().unwrap_or(false)
    }

    /// Shots the side to move's ship `i` has fired this turn.
    pub fn shots_fired(&self, i: u8) -> u8 {
        self.fired.get(usize::from(i)).copied().unwrap_or(0)
    }

    /// A side's strength afloat: pips less damage over its ships afloat.
    pub fn strength(&self, side: Side) -> u32 {
        strength_of(&self.ships[side.index()])
    }

    /// A side's strength when the game began.
    pub const fn start_strength(&self, side: Side) -> u32 {
        self.start_strength[side.index()]
    }

    fn ship(&self, side: Side, number: u8) -> Result<&Ship, Refusal> {
        let ship = self.ships[side.index()]
            .get(usize::from(number))
            .ok_or(Refusal::NoShip { side, number })?;
        if ship.afloat {
            Ok(ship)
        } else {
            Err(Refusal::Sunk { ship: ship.name })
        }
    }

    /// Whether `action` is legal now, and why not.
    pub fn check(&self, action: &Action) -> Result<(), Refusal> {
        self.clone().play(*action).map(|_| ())
    }

    /// Plays one action of the side to move; a refusal changes nothing.
    pub fn play(&mut self, action: Action) -> Result<Played, Refusal> {
        if self.ending.is_some() {
            return Err(Refusal::Over);
        }
        let side = self.to_move;
        let mut played = Played {
            side,
            action,
            by: None,
            hit: None,
            turn_ended: false,
            ending: None,
        };
        match action {
            Action::EndTurn => {}
            Action::Move { ship, steps } => {
                let ending = self.move_ship(side, ship, &steps)?;
                played.by = Some(self.ships[side.index()][usize::from(ship)].name);
                if let Some(ending) = ending {
                    self.ending = Some(ending);
                    played.ending = Some(ending);
                    return Ok(played);
                }
                self.moved[usize::from(ship)] = true;
            }
            Action::Fire(shot) => {
                let hit = self.fire(side, &shot)?;
                played.by = Some(self.ships[side.index()][usize::from(shot.ship)].name);
                self.fired[usize::from(shot.ship)] += 1;
                self.hit_this_turn = true;
                played.hit = Some(hit);
                if hit.sunk {
                    let target = &self.ships[side.other().index()][usize::from(shot.target)];
                    let reason = if self.goal == Goal::Flagship && target.flagship {
                        Some(EndReason::FlagshipSunk)
                    } else if self.strength(side.other()) == 0 {
                        Some(EndReason::AllSunk)
                    } else {
                        None
                    };
                    if let Some(reason) = reason {
                        let ending = Ending {
                            winner: Some(side),
                            reason,
                        };
                        self.ending = Some(ending);
                        played.ending = Some(ending);
                        return Ok(played);
                    }
                }
            }
        }
        self.actions += 1;
        if action == Action::EndTurn || self.actions == ACTIONS_PER_TURN {
            played.turn_ended = true;
            played.ending = self.end_turn();
        }
        Ok(played)
    }

    /// Checks and lays a move's steps; a ram ends the game (`Some`).
    fn move_ship(
        &mut self,
        side: Side,
        number: u8,
        steps: &Steps,
    ) -> Result<Option<Ending>, Refusal> {
        let ship = *self.ship(side, number)?;
        if let Some(&at) = steps.bows().iter().find(|p| !p.on_table_rect()) {
            return Err(Refusal::OffTable { at });
        }
        if self.has_moved(number) {
            return Err(Refusal::Moved { ship: ship.name });
        }
        let size = ship.size();
        if steps.bows().len() > size.steps() {
            return Err(Refusal::TooManySteps {
                ship: ship.name,
                steps: steps.bows().len(),
                max: size.steps(),
            });
        }
        let mut pose = ship.pose;
        for (i, &bow) in steps.bows().iter().enumerate() {
            let step = i + 1;
            let next = Pose::new(pose.bow, bow);
            if self.step(&ship, pose, next, step)? == Step::Rams {
                if step < steps.bows().len() {
                    return Err(Refusal::AfterRam { step });
                }
                return Ok(Some(Ending {
                    winner: Some(side),
                    reason: EndReason::Rammed,
                }));
            }
            pose = next;
        }
        self.ships[side.index()][usize::from(number)].pose = pose;
        Ok(None)
    }

    /// Whether `ship` may step from `from` to `next` on the table as it stands
    /// (`ship`'s own place aside): step number `step` of a move, for the refusal.
    fn step(&self, ship: &Ship, from: Pose, next: Pose, step: usize) -> Result<Step, Refusal> {
        let size = ship.size();
        if !next.legal(size) {
            return Err(Refusal::StepLength {
                step,
                stern: next.stern,
                bow: next.bow,
            });
        }
        let t = next.footprint(size);
        if !t.on_table() {
            return Err(Refusal::StepOffTable { step });
        }
        if t.overlaps(&from.footprint(size)) {
            return Err(Refusal::StepTurnsBack { step });
        }
        let side = ship.name.side;
        let mut rams = false;
        for other in self.ships.iter().flatten() {
            if other.name == ship.name || !other.afloat || !t.touches(&other.footprint()) {
                continue;
            }
            if self.goal == Goal::Flagship && other.name.side != side && other.flagship {
                rams = true;
                continue;
            }
            return Err(Refusal::StepTouches {
                step,
                side: other.name.side,
                size: other.size().name(),
                other: other.name,
                at: other.pose.bow,
            });
        }
        Ok(if rams { Step::Rams } else { Step::Lays })
    }

    /// Whether the side to move's ship `number`, lying at `from` (its place now, or
    /// where the steps before have taken it), may step to the bow `bow`: what the
    /// window's ghost and the computer ask before a move is sent. Only the geometry
    /// is asked, not whether the ship may move this turn.
    pub fn check_step(&self, number: u8, from: Pose, bow: Point) -> Result<Step, Refusal> {
        let ship = *self.ship(self.to_move, number)?;
        if !bow.on_table_rect() {
            return Err(Refusal::OffTable { at: bow });
        }
        self.step(&ship, from, Pose::new(from.bow, bow), 1)
    }

    /// Whether the side to move may fire `shot` now, and why not.
    pub fn check_shot(&self, shot: &Shot) -> Result<(), Refusal> {
        if self.ending.is_some() {
            return Err(Refusal::Over);
        }
        self.aim(self.to_move, shot).map(|_| ())
    }

    /// Checks a shot and does its damage.
    fn fire(&mut self, side: Side, shot: &Shot) -> Result<Hit, Refusal> {
        self.aim(side, shot)?;
        let hit = &mut self.ships[side.other().index()][usize::from(shot.target)];
        hit.damage += 1;
        hit.afloat = hit.damage < hit.size().pips();
        Ok(Hit {
            target: hit.name,
            sunk: !hit.afloat,
        })
    }

    /// Checks a shot: the target it hits.
    fn aim(&self, side: Side, shot: &Shot) -> Result<ShipName, Refusal> {
        let ship = *self.ship(side, shot.ship)?;
        let target = *self.ship(side.other(), shot.target)?;
        if !shot.at.on_table_rect() {
            return Err(Refusal::OffTable { at: shot.at });
        }
        let max = ship.size().max_offset();
        if !(0..=max).contains(&shot.o) {
            return Err(Refusal::OffsetRange {
                ship: ship.name,
                o: shot.o,
                max,
            });
        }
        if !(0..=1000).contains(&shot.j) {
            return Err(Refusal::OriginRange(shot.j));
        }
        let pips = ship.size().pips();
        if self.shots_fired(shot.ship) >= pips {
            return Err(Refusal::NoShotLeft {
                ship: ship.name,
                pips,
            });
        }
        if !target.footprint().contains(shot.at) {
            return Err(Refusal::NotOnTarget {
                target: target.name,
                at: shot.at,
            });
        }
        let field = ship.pose.field(ship.size(), shot.side, shot.o);
        if !field.triangle().contains(shot.at) {
            return Err(Refusal::NotInField {
                target: target.name,
                at: shot.at,
            });
        }
        let from = field.origin(shot.j);
        for other_side in Side::BOTH {
            for other in &self.ships[other_side.index()] {
                let party = other.name == ship.name || other.name == target.name;
                if party || !other.afloat {
                    continue;
                }
                if other.footprint().touches_segment(from, shot.at) {
                    return Err(Refusal::Blocked {
                        side: other_side,
                        size: other.size().name(),
                        by: other.name,
                        at: other.pose.bow,
                    });
                }
            }
        }
        Ok(target.name)
    }

    /// Ends the turn under way: quiet waters, then the next side's turn begins.
    fn end_turn(&mut self) -> Option<Ending> {
        if self.hit_this_turn {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        let quiet_counts = !matches!(self.goal, Goal::Breakthrough { .. });
        if quiet_counts && self.quiet >= QUIET_TURNS {
            let [south, north] = [self.strength(Side::South), self.strength(Side::North)];
            let winner = match south.cmp(&north) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            };
            self.ending = Some(Ending {
                winner,
                reason: EndReason::Quiet,
            });
            return self.ending;
        }
        self.begin_turn(self.to_move.other());
        self.ending
    }

    fn begin_turn(&mut self, side: Side) {
        self.to_move = side;
        self.turn += 1;
        self.actions = 0;
        self.hit_this_turn = false;
        self.moved.iter_mut().for_each(|m| *m = false);
        self.fired.iter_mut().for_each(|f| *f = 0);
        let Goal::Breakthrough { attacker } = self.goal else {
            return;
        };
        if side != attacker {
            return;
        }
        self.attacker_turns += 1;
        let through: u32 = self.ships[attacker.index()]
            .iter()
            .filter(|s| s.afloat && through(attacker, &s.footprint()))
            .map(|s| u32::from(s.size().pips()))
            .sum();
        let needed = self.start_strength[attacker.index()].div_ceil(2);
        if through >= needed {
            self.ending = Some(Ending {
                winner: Some(attacker),
                reason: EndReason::BrokeThrough,
            });
        } else if self.attacker_turns >= BREAKTHROUGH_TURNS {
            self.ending = Some(Ending {
                winner: Some(attacker.other()),
                reason: EndReason::Held,
            });
        }
    }
}

/// Whether an attacker's footprint has a corner strictly beyond the defender's line.
pub fn through(attacker: Side, t: &Triangle) -> bool {
    t.0.iter().any(|p| match attacker {
        Side::South => p.y > BACK_LINE_NORTH,
        Side::North => p.y < BACK_LINE_SOUTH,
    })
}

fn strength_of(ships: &[Ship]) -> u32 {
    ships.iter().filter(|s| s.afloat).map(Ship::strength).sum()
}

impl Game {
    /// A game from ships laid anywhere on the table, south to move: a position to
    /// study or test. Each pose must be legal and on the table and no two ships may
    /// touch; the home strips are not asked for.
    pub fn arranged(goal: Goal, sides: [&[Placed]; 2]) -> Result<Self, PlacementError> {
        let ships = Side::BOTH.map(|side| launch(side, sides[side.index()]));
        let all: Vec<&Ship> = ships.iter().flatten().collect();
        for ship in &all {
            if let Some(at) = [ship.pose.stern, ship.pose.bow]
                .into_iter()
                .find(|p| !p.on_table_rect())
            {
                return Err(PlacementError::OffTable {
                    ship: ship.name,
                    at,
                });
            }
            if !ship.pose.legal(ship.size()) {
                return Err(PlacementError::Length { ship: ship.name });
            }
            if !ship.footprint().on_table() {
                return Err(PlacementError::OverTheEdge { ship: ship.name });
            }
        }
        for (i, a) in all.iter().enumerate() {
            if let Some(b) = all[i + 1..]
                .iter()
                .find(|b| a.footprint().touches(&b.footprint()))
            {
                return Err(PlacementError::Touching {
                    ship: a.name,
                    other: b.name,
                });
            }
        }
        Ok(Self::from_ships(goal, ships))
    }
}
