//! One game between two seats: whose action it is, what each may do, and what it did.

use std::fmt;

use thiserror::Error;

use super::action::{Action, Effect, Report, ShellOrder, square};
use super::cells::CellSet;
use super::chart::Chart;
use super::coord::Coord;
use super::sea::{Content, Sea, SeaError};
use super::variant::{Stock, Variant, Weapon};

/// One of the two players at a table. The host opened it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    Host,
    Guest,
}

impl Seat {
    pub const BOTH: [Self; 2] = [Self::Host, Self::Guest];

    pub fn other(self) -> Self {
        match self {
            Self::Host => Self::Guest,
            Self::Guest => Self::Host,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Self::Host => "host",
            Self::Guest => "guest",
        })
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner sank the whole enemy fleet.
    FleetSunk,
    /// The loser resigned.
    Resigned,
    /// Both agreed to a draw.
    DrawAgreed,
    /// The loser forfeited: a proven lie, a refused reveal, a missed deadline
    /// (the session above the rules knows which).
    Forfeit,
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    pub winner: Option<Seat>,
    pub reason: EndReason,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (Some(w), EndReason::FleetSunk) => write!(f, "the {w} wins: every enemy ship sunk"),
            (Some(w), EndReason::Resigned) => write!(f, "the {w} wins: the {} resigned", w.other()),
            (Some(w), EndReason::Forfeit) => write!(f, "the {w} wins by forfeit"),
            (Some(w), EndReason::DrawAgreed) => write!(f, "the {w} wins"),
            (None, EndReason::DrawAgreed) => f.write_str("a draw, agreed by both"),
            (None, EndReason::Resigned) => f.write_str("no winner: both resigned at once"),
            (None, _) => f.write_str("no winner"),
        }
    }
}

impl Ending {
    /// Points for `seat`, in halves: a win 2, a draw 1, a loss 0 (a win is 1 point, a draw ½).
    pub fn half_points(&self, seat: Seat) -> u32 {
        match self.winner {
            None => 1,
            Some(winner) if winner == seat => 2,
            Some(_) => 0,
        }
    }
}

/// An action the rules refuse, in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    #[error("the game is over")]
    GameOver,
    #[error("it is the {mover}'s turn")]
    NotYourTurn { mover: Seat },
    #[error("{0} is off the board")]
    OffBoard(Coord),
    #[error("{0} is already marked")]
    AlreadyMarked(Coord),
    #[error("classic mode has no weapons")]
    NoWeapons,
    #[error("no {0} left")]
    Spent(Weapon),
    #[error("that torpedo line is off the board")]
    LineOffBoard,
    #[error("{0}: every cell of that line is already marked")]
    LineMarked(super::action::Torpedo),
    #[error("{0} is on the edge: the centre's whole 3×3 square must lie on the board")]
    EdgeCentre(Coord),
    #[error("the square around {0} has no unmarked cell")]
    SquareMarked(Coord),
    #[error("an air strike needs its shell order, and only an air strike takes one")]
    ShellOrder,
    #[error(transparent)]
    Sea(#[from] SeaError),
}

/// Why a draw offer or answer is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DrawError {
    #[error("the game is over")]
    GameOver,
    #[error("draw offers are only for games between friends")]
    NotAllowed,
    #[error("the {0} has offered a draw already; it waits for an answer")]
    Pending(Seat),
    #[error("you offered a draw this move already")]
    AlreadyOffered,
    #[error("there is no draw offer to answer")]
    NoOffer,
    #[error("you cannot answer your own draw offer")]
    OwnOffer,
}

/// A game from Start to its end. It holds both charts (what each seat knows of
/// the other's board) but never a fleet: the sea is asked at every action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    decks: usize,
    charts: [Chart; 2],
    stocks: [Stock; 2],
    mover: Seat,
    actions: u32,
    draws_allowed: bool,
    draw_offer: Option<Seat>,
    last_offer: [Option<u32>; 2],
    ending: Option<Ending>,
}

impl Game {
    /// A game of `variant` in which `first` acts first; `draws_allowed` at a friend
    /// table, not against the computer.
    pub fn new(variant: Variant, first: Seat, draws_allowed: bool) -> Self {
        let size = variant.size();
        Self {
            variant,
            decks: variant.fleet().decks(),
            charts: [Chart::new(size); 2],
            stocks: [variant.stock(); 2],
            mover: first,
            actions: 0,
            draws_allowed,
            draw_offer: None,
            last_offer: [None; 2],
            ending: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// What `seat` knows of the other seat's board.
    pub fn chart(&self, seat: Seat) -> &Chart {
        &self.charts[seat.index()]
    }

    pub fn stock(&self, seat: Seat) -> Stock {
        self.stocks[seat.index()]
    }

    /// Whose action it is (the last mover, once the game is over).
    pub fn mover(&self) -> Seat {
        self.mover
    }

    /// How many actions have been played.
    pub fn actions(&self) -> u32 {
        self.actions
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// The seat whose draw offer waits for an answer.
    pub fn draw_offer(&self) -> Option<Seat> {
        self.draw_offer
    }

    /// Whether `seat` may play `action` now; nothing changes.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        if self.ending.is_some() {
            return Err(ActionError::GameOver);
        }
        if seat != self.mover {
            return Err(ActionError::NotYourTurn { mover: self.mover });
        }
        legal(self.variant, self.chart(seat), self.stock(seat), action)
    }

    /// Plays `action` for `seat` against `sea`. An air strike takes its `shells`;
    /// nothing else does. On any error — an illegal action, or a sea that cannot
    /// answer what the rules need — the game is left exactly as it was.
    pub fn play(
        &mut self,
        seat: Seat,
        action: Action,
        shells: Option<ShellOrder>,
        sea: &mut impl Sea,
    ) -> Result<Report, ActionError> {
        self.check(seat, &action)?;
        let mut chart = *self.chart(seat);
        let effects = resolve(&mut chart, self.decks, action, shells, sea)?;

        // Everything resolved: commit.
        self.charts[seat.index()] = chart;
        if let Some(weapon) = action.weapon() {
            self.stocks[seat.index()].spend(weapon);
        }
        self.actions += 1;
        self.draw_offer = None;
        let hit = effects.iter().any(Effect::is_hit);
        let ending = (chart.wrecks().len() >= self.decks).then_some(Ending {
            winner: Some(seat),
            reason: EndReason::FleetSunk,
        });
        self.ending = ending;
        let again = hit && ending.is_none();
        if !again && ending.is_none() {
            self.mover = seat.other();
        }
        Ok(Report {
            action,
            effects,
            again,
            ending,
        })
    }

    /// An action was made and waits for its answer: a pending draw offer lapses now,
    /// as it would when the action resolves (the session needs it before the answer).
    pub fn lapse_draw_offer(&mut self) {
        self.draw_offer = None;
    }

    /// `seat` gives up; the other seat wins.
    pub fn resign(&mut self, seat: Seat) -> Result<Ending, ActionError> {
        self.end(Ending {
            winner: Some(seat.other()),
            reason: EndReason::Resigned,
        })
    }

    /// Both seats resigned at once: the game ends with no winner.
    pub fn mutual_resignation(&mut self) -> Ending {
        let ending = Ending {
            winner: None,
            reason: EndReason::Resigned,
        };
        self.draw_offer = None;
        self.ending = Some(ending);
        ending
    }

    /// `loser` loses by forfeit (a lie, a refused reveal, a deadline: the caller knows).
    pub fn forfeit(&mut self, loser: Seat) -> Result<Ending, ActionError> {
        self.end(Ending {
            winner: Some(loser.other()),
            reason: EndReason::Forfeit,
        })
    }

    fn end(&mut self, ending: Ending) -> Result<Ending, ActionError> {
        if self.ending.is_some() {
            return Err(ActionError::GameOver);
        }
        self.draw_offer = None;
        self.ending = Some(ending);
        Ok(ending)
    }

    /// `seat` offers a draw: at most once per move, one offer pending at a time.
    pub fn offer_draw(&mut self, seat: Seat) -> Result<(), DrawError> {
        if self.ending.is_some() {
            return Err(DrawError::GameOver);
        }
        if !self.draws_allowed {
            return Err(DrawError::NotAllowed);
        }
        if let Some(by) = self.draw_offer {
            return Err(DrawError::Pending(by));
        }
        if self.last_offer[seat.index()] == Some(self.actions) {
            return Err(DrawError::AlreadyOffered);
        }
        self.last_offer[seat.index()] = Some(self.actions);
        self.draw_offer = Some(seat);
        Ok(())
    }

    /// `seat` offered a draw while the other seat's offer was on its way: both offers
    /// lapse, and neither seat may offer again before the next action.
    pub fn cross_offers(&mut self, seat: Seat) -> Result<(), DrawError> {
        if self.ending.is_some() {
            return Err(DrawError::GameOver);
        }
        if !self.draws_allowed {
            return Err(DrawError::NotAllowed);
        }
        if self.draw_offer != Some(seat.other()) {
            return Err(DrawError::NoOffer);
        }
        if self.last_offer[seat.index()] == Some(self.actions) {
            return Err(DrawError::AlreadyOffered);
        }
        self.last_offer[seat.index()] = Some(self.actions);
        self.draw_offer = None;
        Ok(())
    }

    /// `seat` answers the other seat's pending offer; accepting ends the game drawn.
    pub fn answer_draw(&mut self, seat: Seat, accept: bool) -> Result<Option<Ending>, DrawError> {
        if self.ending.is_some() {
            return Err(DrawError::GameOver);
        }
        match self.draw_offer {
            None => Err(DrawError::NoOffer),
            Some(by) if by == seat => Err(DrawError::OwnOffer),
            Some(_) => {
                self.draw_offer = None;
                if !accept {
                    return Ok(None);
                }
                let ending = Ending {
                    winner: None,
                    reason: EndReason::DrawAgreed,
                };
                self.ending = Some(ending);
                Ok(Some(ending))
            }
        }
    }
}

/// Whether a player with this chart and stock may play `action` in `variant`
/// (turns aside): the one legality check for games, sessions and computer players.
pub fn legal(
    variant: Variant,
    chart: &Chart,
    stock: Stock,
    action: &Action,
) -> Result<(), ActionError> {
    if let Some(weapon) = action.weapon() {
        if !variant.has_weapons() {
            return Err(ActionError::NoWeapons);
        }
        if stock.left(weapon) == 0 {
            return Err(ActionError::Spent(weapon));
        }
    }
    let size = chart.size();
    match *action {
        Action::Shot(cell) => {
            if !size.contains(cell) {
                return Err(ActionError::OffBoard(cell));
            }
            if !chart.is_unmarked(cell) {
                return Err(ActionError::AlreadyMarked(cell));
            }
        }
        Action::Torpedo(torpedo) => {
            let path = torpedo.path(size).ok_or(ActionError::LineOffBoard)?;
            if !path.into_iter().any(|cell| chart.is_unmarked(cell)) {
                return Err(ActionError::LineMarked(torpedo));
            }
        }
        Action::AirStrike(centre) | Action::Radar(centre) => {
            if !size.contains(centre) {
                return Err(ActionError::OffBoard(centre));
            }
            let cells = square(centre, size).ok_or(ActionError::EdgeCentre(centre))?;
            if !cells.iter().any(|&cell| chart.is_unmarked(cell)) {
                return Err(ActionError::SquareMarked(centre));
            }
        }
    }
    Ok(())
}

/// Resolves a legal `action` on `chart` against `sea`: the effects, in order. `decks` is
/// the fleet's total (an air strike stops when the last falls). On error `chart` may be
/// half-updated: callers resolve on a copy.
pub fn resolve(
    chart: &mut Chart,
    decks: usize,
    action: Action,
    shells: Option<ShellOrder>,
    sea: &mut impl Sea,
) -> Result<Vec<Effect>, ActionError> {
    let size = chart.size();
    let mut effects = Vec::new();
    match (action, shells) {
        (Action::Shot(cell), None) => fire(chart, cell, sea, &mut effects)?,
        (Action::Torpedo(torpedo), None) => {
            let path = torpedo.path(size).ok_or(ActionError::LineOffBoard)?;
            let mut wake = Vec::new();
            let mut target = None;
            for cell in path.filter(|&cell| chart.is_unmarked(cell)) {
                match sea.look(cell, chart)? {
                    Content::Water => wake.push(cell),
                    deck @ Content::Deck { .. } => {
                        target = Some((cell, deck));
                        break;
                    }
                }
            }
            for cell in wake {
                chart.set_miss(cell);
                effects.push(Effect::Miss(cell));
            }
            if let Some((cell, deck)) = target {
                strike(chart, cell, deck, sea, &mut effects)?;
            }
        }
        (Action::AirStrike(centre), Some(order)) => {
            let cells = order
                .cells(centre, size)
                .ok_or(ActionError::EdgeCentre(centre))?;
            for cell in cells {
                if chart.wrecks().len() >= decks {
                    break;
                }
                if chart.is_unmarked(cell) {
                    fire(chart, cell, sea, &mut effects)?;
                } else {
                    effects.push(Effect::Lost(cell));
                }
            }
        }
        (Action::Radar(centre), None) => {
            let cells = square(centre, size).ok_or(ActionError::EdgeCentre(centre))?;
            for cell in cells.into_iter().filter(|&cell| chart.is_unmarked(cell)) {
                let deck = matches!(sea.look(cell, chart)?, Content::Deck { .. });
                effects.push(Effect::Scanned { cell, deck });
            }
        }
        _ => return Err(ActionError::ShellOrder),
    }
    Ok(effects)
}

/// A plain shot at an unmarked `cell` (also each air-strike shell).
fn fire(
    chart: &mut Chart,
    cell: Coord,
    sea: &mut impl Sea,
    effects: &mut Vec<Effect>,
) -> Result<(), SeaError> {
    let content = sea.look(cell, chart)?;
    strike(chart, cell, content, sea, effects)
}

/// What hitting `cell`, already looked at, does; each cell is looked at once.
fn strike(
    chart: &mut Chart,
    cell: Coord,
    content: Content,
    sea: &mut impl Sea,
    effects: &mut Vec<Effect>,
) -> Result<(), SeaError> {
    match content {
        Content::Water => {
            chart.set_miss(cell);
            effects.push(Effect::Miss(cell));
        }
        Content::Deck { sinks: false } => {
            chart.set_hit(cell);
            effects.push(Effect::Hit(cell));
        }
        Content::Deck { sinks: true } => {
            // Ships never touch, so the sunk ship is every afloat deck joined to this one.
            let ship = (chart.hits() | CellSet::single(cell)).component(cell);
            // The ring is not a gift: the sea must agree it is water.
            let ring = ship.surroundings(chart.size()) - chart.marked();
            for around in &ring {
                if sea.look(around, chart)? != Content::Water {
                    return Err(SeaError::Contradiction {
                        cell: around,
                        why: "a deck lies next to a ship reported sunk",
                    });
                }
            }
            chart.set_hit(cell);
            let ring = chart.sink(ship);
            effects.push(Effect::Sunk { cell, ship, ring });
        }
    }
    Ok(())
}
