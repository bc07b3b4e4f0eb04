//! Between the engine's types and the wire's: every conversion checks what a peer could have sent wrong.

use armada_proto as proto;
use thiserror::Error;

use crate::fair::commit::{Opening, cell_index};
use crate::rules::{Action, BoardSize, Content, Coord, Dir, Heading, Seat, Ship, Torpedo, Variant};

/// A field a peer sent that cannot mean anything on this board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WireError {
    #[error("cell index {0} is off the board")]
    Cell(u8),
    #[error("the table's game is not one this client plays: {0}")]
    Game(String),
    #[error("torpedo line {0} is off the board")]
    Line(u8),
    #[error("a ship of {0} decks cannot lie on this board")]
    Length(u8),
}

pub fn seat(seat: Seat) -> proto::Seat {
    match seat {
        Seat::Host => proto::Seat::Host,
        Seat::Guest => proto::Seat::Guest,
    }
}

pub fn from_seat(seat: proto::Seat) -> Seat {
    match seat {
        proto::Seat::Host => Seat::Host,
        proto::Seat::Guest => Seat::Guest,
    }
}

pub fn variant(kind: proto::GameKind) -> Result<Variant, WireError> {
    match kind {
        proto::GameKind::Armada => Ok(Variant::Armada),
        proto::GameKind::Classic { side } => {
            Variant::classic(side).map_err(|e| WireError::Game(e.to_string()))
        }
        proto::GameKind::Archimedes { .. } => {
            Err(WireError::Game("Archimedes, not a sea battle".into()))
        }
        proto::GameKind::Icehouse { .. } => {
            Err(WireError::Game("Icehouse Armada, not a sea battle".into()))
        }
    }
}

pub fn game_kind(variant: Variant) -> proto::GameKind {
    match variant {
        Variant::Armada => proto::GameKind::Armada,
        Variant::Classic(size) => proto::GameKind::Classic { side: size.side() },
    }
}

pub fn cell(index: u8, size: BoardSize) -> Result<Coord, WireError> {
    let side = size.side();
    if index >= side * side {
        return Err(WireError::Cell(index));
    }
    Coord::new(index % side, index / side).ok_or(WireError::Cell(index))
}

pub fn action(action: Action, size: BoardSize) -> proto::WireAction {
    match action {
        Action::Shot(c) => proto::WireAction::Shot {
            cell: cell_index(c, size),
        },
        Action::AirStrike(c) => proto::WireAction::AirStrike {
            centre: cell_index(c, size),
        },
        Action::Radar(c) => proto::WireAction::Radar {
            centre: cell_index(c, size),
        },
        Action::Torpedo(t) => proto::WireAction::Torpedo {
            heading: match t.heading {
                Heading::Right => proto::Heading::Right,
                Heading::Left => proto::Heading::Left,
                Heading::Down => proto::Heading::Down,
                Heading::Up => proto::Heading::Up,
            },
            line: t.line,
        },
    }
}

/// The action a peer sent; a torpedo line off the board is left for the rules to refuse.
pub fn from_action(action: proto::WireAction, size: BoardSize) -> Result<Action, WireError> {
    Ok(match action {
        proto::WireAction::Shot { cell: c } => Action::Shot(cell(c, size)?),
        proto::WireAction::AirStrike { centre } => Action::AirStrike(cell(centre, size)?),
        proto::WireAction::Radar { centre } => Action::Radar(cell(centre, size)?),
        proto::WireAction::Torpedo { heading, line } => Action::Torpedo(Torpedo {
            heading: match heading {
                proto::Heading::Right => Heading::Right,
                proto::Heading::Left => Heading::Left,
                proto::Heading::Down => Heading::Down,
                proto::Heading::Up => Heading::Up,
            },
            line: if line < size.side() {
                line
            } else {
                return Err(WireError::Line(line));
            },
        }),
    })
}

pub fn claim(content: Content) -> proto::Claim {
    match content {
        Content::Water => proto::Claim::Water,
        Content::Deck { sinks: false } => proto::Claim::Deck,
        Content::Deck { sinks: true } => proto::Claim::Sinks,
    }
}

pub fn content(claim: proto::Claim) -> Content {
    match claim {
        proto::Claim::Water => Content::Water,
        proto::Claim::Deck => Content::Deck { sinks: false },
        proto::Claim::Sinks => Content::Deck { sinks: true },
    }
}

pub fn opening(opening: &Opening, content: Content, size: BoardSize) -> proto::WireOpening {
    proto::WireOpening {
        cell: cell_index(opening.cell, size),
        claim: claim(content),
        salt: opening.salt,
        path: opening.path.clone(),
    }
}

/// The opening a peer sent, and the content it claims.
pub fn from_opening(
    wire: &proto::WireOpening,
    size: BoardSize,
) -> Result<(Opening, Content), WireError> {
    let content = content(wire.claim);
    let opening = Opening {
        cell: cell(wire.cell, size)?,
        deck: content != Content::Water,
        salt: wire.salt,
        path: wire.path.clone(),
    };
    Ok((opening, content))
}

pub fn ship(ship: &Ship, size: BoardSize) -> proto::WireShip {
    proto::WireShip {
        bow: cell_index(ship.bow(), size),
        // A boat has no direction: its one encoding says across.
        down: ship.dir() == Dir::Down && ship.length() > 1,
        len: ship.length(),
    }
}

pub fn from_ship(ship: proto::WireShip, size: BoardSize) -> Result<Ship, WireError> {
    if ship.len == 0 || ship.len > size.side() {
        return Err(WireError::Length(ship.len));
    }
    let dir = if ship.down { Dir::Down } else { Dir::Across };
    Ok(Ship::new(cell(ship.bow, size)?, dir, ship.len))
}
