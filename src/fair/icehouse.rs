//! An Icehouse Armada table as any observer sees it: the choice of who moves first,
//! both placements committed with a salted hash before either is revealed, the
//! reveals checked against their commitments and the rules, then both sides' signed
//! actions checked by the engine — an open game (`fair::table::open`) whose first
//! steps carry the placement.
//!
//! Everything else — frames, chains, `seen` links, hellos, settings, nonces, game
//! ids, forfeit claims, verdicts, play again, leaves, how a resignation crosses a
//! step — is the table's. The choices this table makes where ICEHOUSE.md leaves
//! them open (PROTOCOL.md §10): the side that does not move first in the table's
//! order (the guest in game 0) chooses who moves first; the host's squadron and,
//! in the advanced setup, the numbers hold for every game at the table; the
//! commitment is `H("armada/1/icehouse", game id ‖ seat ‖ salt ‖ postcard(ships))`.

use std::fmt;

use armada_proto::{self as proto, IceAct, IcePlaced, IcePoint, Payload};

use crate::fair::hash::{Hash, labelled};
use crate::fair::table::Observer;
use crate::fair::table::open::{self, Open, OpenGame};
use crate::icehouse::{
    self as ice, Action, Broadside, Fleet, Game, Goal, Placed, Point, Pose, Setup, Shot, Size,
    Squadron, Steps,
};
use crate::rules::Seat;

/// The bounds of an action's deadline at an Icehouse table, in milliseconds.
pub const MOVE_MS: std::ops::RangeInclusive<u32> = 10_000..=600_000;
/// The commitment's label.
pub const LABEL: &str = "armada/1/icehouse";
/// The most ships a placement holds (four of each size).
pub const MAX_SHIPS: usize = 12;

/// The table's order: the first mover of this game (the host in even games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    First,
    Second,
}

impl Order {
    const fn other(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }
}

/// A step of the game as the table carries it.
#[expect(
    clippy::large_enum_variant,
    reason = "the table's moves are Copy values; a reveal (12 ships at most) comes twice a game"
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IceMove {
    /// The chooser moves first (`true`) or lets the other (and, in the advanced
    /// setup, swaps the squadrons).
    Choose {
        chooser_first: bool,
    },
    Commit(Hash),
    Reveal {
        salt: Hash,
        ships: [Placed; MAX_SHIPS],
        count: u8,
    },
    Act(Action),
}

impl IceMove {
    /// A reveal of `ships` (at most [`MAX_SHIPS`]) with `salt`.
    pub fn reveal(salt: Hash, ships: &[Placed]) -> Option<Self> {
        if ships.len() > MAX_SHIPS {
            return None;
        }
        let none = Placed {
            size: Size::Small,
            pose: Pose::new(Point::default(), Point::default()),
            flagship: false,
        };
        let mut all = [none; MAX_SHIPS];
        all[..ships.len()].copy_from_slice(ships);
        Some(Self::Reveal {
            salt,
            ships: all,
            count: ships.len() as u8,
        })
    }
}

impl fmt::Display for IceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Choose { chooser_first } => f.write_str(if *chooser_first {
                "moves first"
            } else {
                "lets the other move first"
            }),
            Self::Commit(_) => f.write_str("commits to its placement"),
            Self::Reveal { count, .. } => write!(f, "reveals its placement of {count} ships"),
            Self::Act(Action::EndTurn) => f.write_str("ends its turn"),
            Self::Act(Action::Move { ship, steps }) => {
                let bows: Vec<String> = steps.bows().iter().map(ToString::to_string).collect();
                write!(f, "moves ship {ship} to {}", bows.join(" "))
            }
            Self::Act(Action::Fire(shot)) => write!(
                f,
                "fires ship {} {} o={} j={} at ship {} p={}",
                shot.ship,
                shot.side.name(),
                shot.o,
                shot.j,
                shot.target,
                shot.at
            ),
        }
    }
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IcePlayed {
    Chose { south: Order },
    Committed { by: Order },
    Revealed { by: Order, fleet: Fleet },
    Acted { played: ice::Played, south: Order },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    Choosing,
    Committing {
        south: Order,
        swapped: bool,
        commits: [Option<Hash>; 2],
    },
    Revealing {
        south: Order,
        swapped: bool,
        commits: [Hash; 2],
        placed: [Option<(Fleet, Vec<Placed>)>; 2],
    },
    Playing {
        south: Order,
        game: Box<Game>,
    },
}

/// An Icehouse game at a table: its settings, whose seat moves first, and where
/// the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    id: Hash,
    first: Seat,
    setup: Setup,
    goal: proto::IceGoal,
    host_heavy: bool,
    phase: Phase,
}

/// Index of a side in pairs kept in the table's order.
const fn at(order: Order) -> usize {
    match order {
        Order::First => 0,
        Order::Second => 1,
    }
}

impl Position {
    fn seat(&self, order: Order) -> Seat {
        match order {
            Order::First => self.first,
            Order::Second => self.first.other(),
        }
    }

    fn order_of(south: Order, side: ice::Side) -> Order {
        match side {
            ice::Side::South => south,
            ice::Side::North => south.other(),
        }
    }

    fn side_of(south: Order, order: Order) -> ice::Side {
        if order == south {
            ice::Side::South
        } else {
            ice::Side::North
        }
    }

    /// The game in play, once both placements are revealed.
    pub fn game(&self) -> Option<&Game> {
        match &self.phase {
            Phase::Playing { game, .. } => Some(game),
            _ => None,
        }
    }

    /// The seat that is south (moves first in the game), once chosen.
    pub fn south(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Choosing => None,
            Phase::Committing { south, .. }
            | Phase::Revealing { south, .. }
            | Phase::Playing { south, .. } => Some(self.seat(*south)),
        }
    }

    /// The fleet `order` commands (none in the points setup: its own, revealed).
    fn fleet(&self, order: Order, swapped: bool) -> Option<Fleet> {
        let host = self.seat(order) == Seat::Host;
        let heavy = host == (self.host_heavy != swapped);
        let squadron = if heavy {
            Squadron::Heavy
        } else {
            Squadron::Light
        };
        self.setup.fleet(squadron)
    }

    fn goal(&self, south: Order) -> Goal {
        match self.goal {
            proto::IceGoal::SinkAll => Goal::SinkAll,
            proto::IceGoal::Flagship => Goal::Flagship,
            proto::IceGoal::Breakthrough { host_attacks } => {
                let host = if self.seat(south) == Seat::Host {
                    ice::Side::South
                } else {
                    ice::Side::North
                };
                Goal::Breakthrough {
                    attacker: if host_attacks { host } else { host.other() },
                }
            }
        }
    }

    /// The commitment `order`'s seat makes to `ships` with `salt`.
    fn commitment(&self, order: Order, salt: &Hash, ships: &[Placed]) -> Hash {
        commitment(&self.id, self.seat(order), salt, ships)
    }

    fn order(&self, seat: Seat) -> Order {
        if seat == self.first {
            Order::First
        } else {
            Order::Second
        }
    }

    /// What `seat` needs to place its fleet, once the first mover is chosen: its
    /// side of the table, its fleet (none in the points setup: its own choice worth
    /// 12) and the goal.
    pub fn placing(&self, seat: Seat) -> Option<(ice::Side, Option<Fleet>, Goal)> {
        let (Phase::Committing { south, swapped, .. } | Phase::Revealing { south, swapped, .. }) =
            &self.phase
        else {
            return None;
        };
        let order = self.order(seat);
        Some((
            Self::side_of(*south, order),
            self.fleet(order, *swapped),
            self.goal(*south),
        ))
    }

    /// The south and whether the squadrons swap, as the chooser's choice falls.
    fn chosen(&self, chooser_first: bool) -> (Order, bool) {
        let south = if chooser_first {
            Order::Second
        } else {
            Order::First
        };
        let swapped = !chooser_first && matches!(self.setup, Setup::Advanced { .. });
        (south, swapped)
    }

    /// The fleet `seat` would command if the chooser chose `chooser_first`, while
    /// the first mover is being chosen (none in the points setup: its own).
    pub fn fleet_if_chosen(&self, seat: Seat, chooser_first: bool) -> Option<Fleet> {
        if self.phase != Phase::Choosing {
            return None;
        }
        let (_, swapped) = self.chosen(chooser_first);
        self.fleet(self.order(seat), swapped)
    }

    /// The commitment `seat` makes to `ships` with `salt` in this game.
    pub fn commit_for(&self, seat: Seat, salt: &Hash, ships: &[Placed]) -> Hash {
        self.commitment(self.order(seat), salt, ships)
    }

    /// The commitment `seat` signed in this game, while it is not yet revealed.
    pub fn committed(&self, seat: Seat) -> Option<Hash> {
        let order = self.order(seat);
        match &self.phase {
            Phase::Committing { commits, .. } => commits[at(order)],
            Phase::Revealing {
                commits, placed, ..
            } => placed[at(order)].is_none().then_some(commits[at(order)]),
            _ => None,
        }
    }

    /// Whether `seat` is the one to choose who moves first now.
    pub fn choosing(&self, seat: Seat) -> bool {
        self.phase == Phase::Choosing && self.order(seat) == Order::Second
    }

    /// Whether `seat` is to reveal its placement now.
    pub fn revealing(&self, seat: Seat) -> bool {
        matches!(self.phase, Phase::Revealing { .. }) && self.mover() == self.order(seat)
    }

    /// The side to move in the table's order.
    pub fn mover(&self) -> Order {
        match &self.phase {
            Phase::Choosing => Order::Second,
            Phase::Committing { south, commits, .. } => {
                if commits[at(*south)].is_none() {
                    *south
                } else {
                    south.other()
                }
            }
            Phase::Revealing { south, placed, .. } => {
                if placed[at(*south)].is_none() {
                    *south
                } else {
                    south.other()
                }
            }
            Phase::Playing { south, game } => Self::order_of(*south, game.to_move()),
        }
    }

    /// Plays `mv` by the side to move; `Err` (nothing changed) says why not.
    pub fn play(&mut self, mv: IceMove) -> Result<IcePlayed, String> {
        let by = self.mover();
        let next = match (&self.phase, mv) {
            (Phase::Choosing, IceMove::Choose { chooser_first }) => {
                let (south, swapped) = self.chosen(chooser_first);
                let phase = Phase::Committing {
                    south,
                    swapped,
                    commits: [None; 2],
                };
                (phase, IcePlayed::Chose { south })
            }
            (
                Phase::Committing {
                    south,
                    swapped,
                    commits,
                },
                IceMove::Commit(hash),
            ) => {
                if commits.iter().flatten().any(|c| *c == hash) {
                    return Err("a commitment equal to the other side's".into());
                }
                let mut commits = *commits;
                commits[at(by)] = Some(hash);
                let phase = match commits {
                    [Some(a), Some(b)] => Phase::Revealing {
                        south: *south,
                        swapped: *swapped,
                        commits: [a, b],
                        placed: [None, None],
                    },
                    _ => Phase::Committing {
                        south: *south,
                        swapped: *swapped,
                        commits,
                    },
                };
                (phase, IcePlayed::Committed { by })
            }
            (
                Phase::Revealing {
                    south,
                    swapped,
                    commits,
                    placed,
                },
                IceMove::Reveal { salt, ships, count },
            ) => {
                let ships = &ships[..usize::from(count)];
                if self.commitment(by, &salt, ships) != commits[at(by)] {
                    return Err("the placement revealed does not match its commitment".into());
                }
                let (phase, fleet) =
                    self.revealed(by, (*south, *swapped), commits, placed, ships)?;
                (phase, IcePlayed::Revealed { by, fleet })
            }
            (Phase::Playing { south, game }, IceMove::Act(action)) => {
                let mut game = game.clone();
                let played = game.play(action).map_err(|e| e.to_string())?;
                let south = *south;
                (
                    Phase::Playing { south, game },
                    IcePlayed::Acted { played, south },
                )
            }
            (Phase::Choosing, _) => return Err("the chooser has not said who moves first".into()),
            (Phase::Committing { .. }, _) => return Err("a placement is not committed yet".into()),
            (Phase::Revealing { .. }, _) => return Err("a placement is not revealed yet".into()),
            (Phase::Playing { .. }, _) => return Err("the placements are already revealed".into()),
        };
        self.phase = next.0;
        Ok(next.1)
    }
}

impl Position {
    /// The phase after `by`'s reveal of `ships` (which opened its commitment), and
    /// the fleet it revealed; `Err` if the placement breaks the rules.
    fn revealed(
        &self,
        by: Order,
        (south, swapped): (Order, bool),
        commits: &[Hash; 2],
        placed: &[Option<(Fleet, Vec<Placed>)>; 2],
        ships: &[Placed],
    ) -> Result<(Phase, Fleet), String> {
        let fleet = if let Some(fleet) = self.fleet(by, swapped) {
            fleet
        } else {
            let fleet = Fleet::of(ships);
            ice::check_points(fleet).map_err(|e| e.to_string())?;
            fleet
        };
        let side = Self::side_of(south, by);
        ice::check_placement(side, self.goal(south), fleet, ships)
            .map_err(|e| format!("the placement revealed breaks the rules: {e}"))?;
        let mut placed = placed.clone();
        placed[at(by)] = Some((fleet, ships.to_vec()));
        let phase = match placed {
            [Some(a), Some(b)] => {
                let (s, n) = if south == Order::First {
                    (a, b)
                } else {
                    (b, a)
                };
                let game = Game::new(
                    self.goal(south),
                    [s.0, n.0],
                    [s.1.as_slice(), n.1.as_slice()],
                )
                .map_err(|(_, e)| e.to_string())?;
                Phase::Playing {
                    south,
                    game: Box::new(game),
                }
            }
            placed => Phase::Revealing {
                south,
                swapped,
                commits: *commits,
                placed,
            },
        };
        Ok((phase, fleet))
    }
}

/// `H("armada/1/icehouse", game id ‖ seat ‖ salt ‖ postcard(ships))`.
pub fn commitment(id: &Hash, seat: Seat, salt: &Hash, ships: &[Placed]) -> Hash {
    let wire: Vec<IcePlaced> = ships.iter().map(|s| placed(*s)).collect();
    let encoded = postcard::to_stdvec(&wire).unwrap_or_default();
    labelled(LABEL, &[id, &[seat.index() as u8], salt, &encoded])
}

fn point(p: Point) -> IcePoint {
    // Points a side plays lie on the table, so they fit i32.
    IcePoint {
        x: i32::try_from(p.x).unwrap_or(i32::MAX),
        y: i32::try_from(p.y).unwrap_or(i32::MAX),
    }
}

fn from_point(p: IcePoint) -> Point {
    Point::new(i64::from(p.x), i64::from(p.y))
}

fn placed(p: Placed) -> IcePlaced {
    IcePlaced {
        size: match p.size {
            Size::Small => 0,
            Size::Medium => 1,
            Size::Large => 2,
        },
        stern: point(p.pose.stern),
        bow: point(p.pose.bow),
        flagship: p.flagship,
    }
}

fn from_placed(p: IcePlaced) -> Result<Placed, String> {
    let size = match p.size {
        0 => Size::Small,
        1 => Size::Medium,
        2 => Size::Large,
        other => return Err(format!("no ship size {other}")),
    };
    Ok(Placed {
        size,
        pose: Pose::new(from_point(p.stern), from_point(p.bow)),
        flagship: p.flagship,
    })
}

/// The wire form of a step.
pub fn act(mv: &IceMove) -> IceAct {
    match *mv {
        IceMove::Choose { chooser_first } => IceAct::Choose { chooser_first },
        IceMove::Commit(placement) => IceAct::Commit { placement },
        IceMove::Reveal { salt, ships, count } => IceAct::Reveal {
            salt,
            ships: ships[..usize::from(count)]
                .iter()
                .map(|s| placed(*s))
                .collect(),
        },
        IceMove::Act(Action::EndTurn) => IceAct::EndTurn,
        IceMove::Act(Action::Move { ship, steps }) => IceAct::Move {
            ship,
            bows: steps.bows().iter().map(|b| point(*b)).collect(),
        },
        IceMove::Act(Action::Fire(shot)) => IceAct::Fire {
            ship: shot.ship,
            starboard: shot.side == Broadside::Starboard,
            o: i32::try_from(shot.o).unwrap_or(i32::MAX),
            j: i32::try_from(shot.j).unwrap_or(i32::MAX),
            target: shot.target,
            at: point(shot.at),
        },
    }
}

/// A step from its wire form; `Err` when it cannot be one (too many ships or steps,
/// a size that does not exist).
pub fn from_act(act: &IceAct) -> Result<IceMove, String> {
    Ok(match act {
        IceAct::Choose { chooser_first } => IceMove::Choose {
            chooser_first: *chooser_first,
        },
        IceAct::Commit { placement } => IceMove::Commit(*placement),
        IceAct::Reveal { salt, ships } => {
            let ships: Vec<Placed> = ships
                .iter()
                .map(|s| from_placed(*s))
                .collect::<Result<_, _>>()?;
            IceMove::reveal(*salt, &ships)
                .ok_or_else(|| format!("a placement of {} ships", ships.len()))?
        }
        IceAct::EndTurn => IceMove::Act(Action::EndTurn),
        IceAct::Move { ship, bows } => {
            let bows: Vec<Point> = bows.iter().map(|b| from_point(*b)).collect();
            let steps =
                Steps::new(&bows).ok_or_else(|| format!("a move of {} steps", bows.len()))?;
            IceMove::Act(Action::Move { ship: *ship, steps })
        }
        IceAct::Fire {
            ship,
            starboard,
            o,
            j,
            target,
            at,
        } => IceMove::Act(Action::Fire(Shot {
            ship: *ship,
            side: if *starboard {
                Broadside::Starboard
            } else {
                Broadside::Port
            },
            o: i64::from(*o),
            j: i64::from(*j),
            target: *target,
            at: from_point(*at),
        })),
    })
}

/// Icehouse Armada as an open game at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Icehouse;

impl OpenGame for Icehouse {
    type Position = Position;
    type Move = IceMove;
    type Played = IcePlayed;
    type Side = Order;
    type End = ice::EndReason;
    const FIRST: Order = Order::First;
    const SECOND: Order = Order::Second;
    const TABLE: &'static str = "an Icehouse Armada table";
    const MAGIC: [u8; 8] = *b"ARMADA\0I";

    fn check_settings(settings: &proto::Settings) -> Result<(), String> {
        check_settings(settings).map(|_| ())
    }
    fn start(settings: &proto::Settings, id: &Hash, first: Seat) -> Result<Position, String> {
        let (setup, goal, host_heavy) = check_settings(settings)?;
        Ok(Position {
            id: *id,
            first,
            setup,
            goal,
            host_heavy,
            phase: Phase::Choosing,
        })
    }
    fn mover(position: &Position) -> Order {
        position.mover()
    }
    fn moved(payload: &Payload) -> Option<(&Hash, u32)> {
        match payload {
            Payload::Ice { game, number, .. } => Some((game, *number)),
            _ => None,
        }
    }
    fn decode(payload: &Payload, _: &Position) -> Result<IceMove, String> {
        let Payload::Ice { act, .. } = payload else {
            return Err("not an Icehouse step".into());
        };
        from_act(act)
    }
    fn encode(game: Hash, number: u32, mv: IceMove, _: &Position) -> Payload {
        Payload::Ice {
            game,
            number,
            act: act(&mv),
        }
    }
    fn check(position: &Position, mv: IceMove) -> Result<(), String> {
        position.clone().play(mv).map(|_| ())
    }
    fn play(position: &mut Position, mv: IceMove) -> Result<IcePlayed, String> {
        position.play(mv)
    }
    fn ending(played: &IcePlayed) -> Option<(Option<Order>, ice::EndReason)> {
        let IcePlayed::Acted { played, south } = played else {
            return None;
        };
        played.ending.map(|e| {
            (
                e.winner.map(|side| Position::order_of(*south, side)),
                e.reason,
            )
        })
    }
    /// Draws are offered in the game proper, once the fleets are on the table.
    fn draw_turn(position: &Position) -> Option<u32> {
        position
            .game()
            .filter(|g| g.ending().is_none())
            .map(ice::Game::turn)
    }
}

/// Why an Icehouse game ended.
pub type Reason = open::Reason<ice::EndReason>;
/// How an Icehouse game ended.
pub type Outcome = open::Outcome<ice::EndReason>;
/// An Icehouse game's settled outcome.
pub type Verdict = open::Verdict<ice::EndReason>;
/// One step as the record keeps it.
pub type Step = open::Step<IcePlayed>;
/// What the observer of an Icehouse table learnt from one accepted frame.
pub type Note = open::Note<Icehouse>;
/// The observer of one Icehouse table.
pub type Table = Observer<Open<Icehouse>>;

/// Whether `settings` are an Icehouse table's, within what the rules allow: its
/// setup, goal and the host's squadron.
pub fn check_settings(settings: &proto::Settings) -> Result<(Setup, proto::IceGoal, bool), String> {
    let proto::GameKind::Icehouse {
        setup,
        goal,
        host_heavy,
    } = settings.game
    else {
        return Err("not an Icehouse Armada table".into());
    };
    let fleet = |f: proto::IceFleet| Fleet::new(f.large, f.medium, f.small);
    let setup = match setup {
        proto::IceSetup::Basic => Setup::Basic,
        proto::IceSetup::Advanced { heavy, light } => Setup::Advanced {
            heavy: fleet(heavy),
            light: fleet(light),
        },
        proto::IceSetup::Points => Setup::Points,
    };
    setup.check().map_err(|e| e.to_string())?;
    if setup == Setup::Points && host_heavy {
        return Err("a points table has no squadrons to choose".into());
    }
    if !MOVE_MS.contains(&settings.move_ms)
        || settings.answer_ms != 0
        || settings.reveal_ms != 0
        || settings.grace_ms > 600_000
    {
        return Err("the table's deadlines are outside what the rules allow".into());
    }
    Ok((setup, goal, host_heavy))
}
