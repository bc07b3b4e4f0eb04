//! The rules of Archimedes: start positions, queen moves through empty cells, lines
//! of sight, sinking in simultaneous waves until nothing more sinks, and the end in
//! the order ARCHIMEDES.md gives.

use std::fmt;

use thiserror::Error;

use crate::rules::{BoardSize, CellSet, Coord, CoordError};

/// The sides of the boards Archimedes is played on: Quick, Classic, Large.
pub const SIZES: [u8; 3] = [6, 8, 10];
/// Moves in a row without a sinking that end the game.
pub const QUIET_LIMIT: u8 = 50;
/// Enemy ships a ship must see to sink.
const SINKS_AT: usize = 3;
/// A fleet below this many ships has lost.
const FLEET_MIN: usize = 3;
/// The largest board's cells.
const CELLS: usize = 100;
/// The eight lines a ship moves and looks along.
const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// A fleet: the first starts in the bottom-left corner and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub const BOTH: [Self; 2] = [Self::First, Self::Second];

    pub const fn other(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Self::First => 0,
            Self::Second => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::First => "first (bottom-left)",
            Self::Second => "second (top-right)",
        })
    }
}

/// A board side Archimedes is not played on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("Archimedes is played on 6×6, 8×8 or 10×10, not {0}×{0}")]
pub struct SizeError(pub u8);

/// One ship moved from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Coord,
    pub to: Coord,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    #[error("{0:?}: a move is two cells, from and to, like B1-B4")]
    Malformed(String),
    #[error(transparent)]
    Cell(#[from] CoordError),
}

impl Move {
    /// Parses `B1-B4`, `b1 b4` or `B1–B4` on a board of `size`.
    pub fn parse(text: &str, size: BoardSize) -> Result<Self, MoveParseError> {
        let parts: Vec<&str> = text
            .split(|c: char| c == '-' || c == '–' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let [from, to] = parts[..] else {
            return Err(MoveParseError::Malformed(text.trim().to_owned()));
        };
        Ok(Self {
            from: Coord::parse(from, size)?,
            to: Coord::parse(to, size)?,
        })
    }
}

/// Why a move is refused; a refused move changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("the game is over")]
    Over,
    #[error("{0} is not on the board")]
    OffBoard(Coord),
    #[error("there is no ship at {0}")]
    Empty(Coord),
    #[error("the ship at {0} is not yours")]
    NotYours(Coord),
    #[error("a ship must move at least one cell")]
    Still,
    #[error("{0} is not a straight line: a ship moves across, up or down, or diagonally")]
    NotALine(Move),
    #[error("the ship at {0} is in the way")]
    Blocked(Coord),
    #[error("{0} is taken: a ship stops only on an empty cell")]
    Taken(Coord),
}

/// A ship that sank, and the enemy ships that saw it (three or more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sunk {
    pub cell: Coord,
    pub side: Side,
    pub by: Vec<Coord>,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A side was left with fewer than three ships (both: a draw).
    Fleet,
    /// The side to move had no legal move.
    NoMove,
    /// Fifty moves in a row without a sinking: the larger fleet won.
    Quiet,
    /// A player resigned.
    Resigned,
}

impl std::fmt::Display for EndReason {
    /// The one wording of each end, wherever English names it (demo, terminal, `verify`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Fleet => "a fleet fell below three ships",
            Self::NoMove => "the side to move had no move",
            Self::Quiet => "fifty moves passed without a sinking",
            Self::Resigned => "a resignation",
        })
    }
}

/// The end of a game: the winning side (`None`: a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// What a move did: the waves of ships that sank (each decided on the board as the
/// wave before left it), and the end if the move ended the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub side: Side,
    pub mv: Move,
    pub waves: Vec<Vec<Sunk>>,
    pub ending: Option<Ending>,
}

impl Played {
    /// Every ship the move sank, wave by wave.
    pub fn sunk(&self) -> impl Iterator<Item = &Sunk> {
        self.waves.iter().flatten()
    }
}

/// A position: the ships on the board, whose move it is, and the move counts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    side: u8,
    cells: [Option<Side>; CELLS],
    mover: Side,
    quiet: u8,
    moves: u32,
    ending: Option<Ending>,
}

impl Position {
    /// The start of a game on a `side`×`side` board: each fleet a triangle in its
    /// corner (the corner cell and the two tips of the long side empty), the first
    /// fleet bottom-left and to move.
    pub fn start(side: u8) -> Result<Self, SizeError> {
        if !SIZES.contains(&side) {
            return Err(SizeError(side));
        }
        let k = side / 2;
        let mut ships = Vec::new();
        for x in 0..=k {
            for y in 0..=k - x {
                if (x, y) == (0, 0) || (x, y) == (k, 0) || (x, y) == (0, k) {
                    continue;
                }
                ships.extend(
                    [
                        (Coord::new(x, y), Side::First),
                        (Coord::new(side - 1 - x, side - 1 - y), Side::Second),
                    ]
                    .into_iter()
                    .filter_map(|(c, s)| Some((c?, s))),
                );
            }
        }
        Self::with_ships(side, ships, Side::First)
    }

    /// A position of `ships` on a `side`×`side` board, `mover` to move, nothing played
    /// yet (for tests and pictures). Cells off the board are refused.
    pub fn with_ships(
        side: u8,
        ships: impl IntoIterator<Item = (Coord, Side)>,
        mover: Side,
    ) -> Result<Self, SizeError> {
        if !SIZES.contains(&side) {
            return Err(SizeError(side));
        }
        let mut position = Self {
            side,
            cells: [None; CELLS],
            mover,
            quiet: 0,
            moves: 0,
            ending: None,
        };
        for (cell, ship) in ships {
            let index = position.index(cell).ok_or(SizeError(side))?;
            position.cells[index] = Some(ship);
        }
        Ok(position)
    }

    /// The same position with `quiet` moves since the last sinking (for tests).
    #[must_use]
    pub fn with_quiet(mut self, quiet: u8) -> Self {
        self.quiet = quiet.min(QUIET_LIMIT);
        self
    }

    pub fn size(&self) -> BoardSize {
        BoardSize::new(self.side).unwrap_or(BoardSize::STANDARD)
    }

    /// Whose move it is.
    pub fn mover(&self) -> Side {
        self.mover
    }

    /// Moves played since the last one that sank a ship.
    pub fn quiet(&self) -> u8 {
        self.quiet
    }

    /// Moves played in the game.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    fn index(&self, cell: Coord) -> Option<usize> {
        self.size()
            .contains(cell)
            .then(|| usize::from(cell.row()) * usize::from(self.side) + usize::from(cell.col()))
    }

    /// The ship at `cell`, if any.
    pub fn at(&self, cell: Coord) -> Option<Side> {
        self.cells[self.index(cell)?]
    }

    /// The cells of `side`'s ships.
    pub fn ships(&self, side: Side) -> CellSet {
        let mut set = CellSet::EMPTY;
        for cell in self.size().cells() {
            if self.at(cell) == Some(side) {
                set.insert(cell);
            }
        }
        set
    }

    /// How many ships `side` has left.
    pub fn count(&self, side: Side) -> usize {
        self.cells.iter().filter(|c| **c == Some(side)).count()
    }

    /// The first ship seen from `cell` in each direction that has one.
    pub fn seen(&self, cell: Coord) -> impl Iterator<Item = Coord> + '_ {
        let size = self.size();
        DIRS.iter().filter_map(move |&(dc, dr)| {
            let mut at = cell;
            loop {
                at = at.offset(dc, dr, size)?;
                if self.at(at).is_some() {
                    return Some(at);
                }
            }
        })
    }

    /// The enemy ships the ship at `cell` sees (none if the cell is empty).
    pub fn watchers(&self, cell: Coord) -> Vec<Coord> {
        let Some(ship) = self.at(cell) else {
            return Vec::new();
        };
        self.seen(cell)
            .filter(|c| self.at(*c) == Some(ship.other()))
            .collect()
    }

    /// The cells the ship at `from` can move to: along each line, every empty cell
    /// up to the first ship or the edge.
    pub fn reach(&self, from: Coord) -> CellSet {
        let mut set = CellSet::EMPTY;
        let size = self.size();
        if self.at(from).is_none() {
            return set;
        }
        for &(dc, dr) in &DIRS {
            let mut at = from;
            while let Some(next) = at.offset(dc, dr, size) {
                if self.at(next).is_some() {
                    break;
                }
                set.insert(next);
                at = next;
            }
        }
        set
    }

    /// Every legal move of the side to move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        self.moves_of(self.mover)
    }

    fn moves_of(&self, side: Side) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in self.size().cells().filter(|c| self.at(*c) == Some(side)) {
            moves.extend(self.reach(from).iter().map(|to| Move { from, to }));
        }
        moves
    }

    fn has_move(&self, side: Side) -> bool {
        self.size()
            .cells()
            .any(|c| self.at(c) == Some(side) && !self.reach(c).is_empty())
    }

    /// Whether the side to move may play `mv`, and if not, why.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::Over);
        }
        let size = self.size();
        for cell in [mv.from, mv.to] {
            if !size.contains(cell) {
                return Err(MoveError::OffBoard(cell));
            }
        }
        match self.at(mv.from) {
            None => return Err(MoveError::Empty(mv.from)),
            Some(side) if side != self.mover => return Err(MoveError::NotYours(mv.from)),
            Some(_) => {}
        }
        if mv.from == mv.to {
            return Err(MoveError::Still);
        }
        let dc = i16::from(mv.to.col()) - i16::from(mv.from.col());
        let dr = i16::from(mv.to.row()) - i16::from(mv.from.row());
        if dc != 0 && dr != 0 && dc.abs() != dr.abs() {
            return Err(MoveError::NotALine(mv));
        }
        let step = (dc.signum() as i8, dr.signum() as i8);
        let mut at = mv.from;
        while let Some(next) = at.offset(step.0, step.1, size) {
            if self.at(next).is_some() {
                return Err(if next == mv.to {
                    MoveError::Taken(next)
                } else {
                    MoveError::Blocked(next)
                });
            }
            if next == mv.to {
                return Ok(());
            }
            at = next;
        }
        Err(MoveError::NotALine(mv))
    }

    /// Plays `mv` for the side to move: the ship moves, the waves sink what they
    /// sink, then the end is checked. A refused move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<Played, MoveError> {
        self.check(mv)?;
        let side = self.mover;
        let mut waves = Vec::new();
        self.apply(mv, Some(&mut waves));
        Ok(Played {
            side,
            mv,
            waves,
            ending: self.ending,
        })
    }

    /// Plays a move known to be legal, without the record of who saw what: the
    /// computer's search. Returns how many ships sank.
    pub(super) fn apply_legal(&mut self, mv: Move) -> usize {
        self.apply(mv, None)
    }

    fn apply(&mut self, mv: Move, mut record: Option<&mut Vec<Vec<Sunk>>>) -> usize {
        let (Some(from), Some(to)) = (self.index(mv.from), self.index(mv.to)) else {
            return 0;
        };
        self.cells[to] = self.cells[from].take();
        let mut sank = 0;
        loop {
            // A wave is decided on the board as it stands, then removed at once.
            let doomed = self.doomed();
            if doomed.is_empty() {
                break;
            }
            if let Some(waves) = record.as_deref_mut() {
                waves.push(
                    doomed
                        .iter()
                        .map(|&cell| Sunk {
                            cell,
                            side: self.at(cell).unwrap_or(Side::First),
                            by: self.watchers(cell),
                        })
                        .collect(),
                );
            }
            for cell in &doomed {
                if let Some(index) = self.index(*cell) {
                    self.cells[index] = None;
                }
            }
            sank += doomed.len();
        }
        self.moves += 1;
        self.quiet = if sank > 0 {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        self.mover = self.mover.other();
        self.ending = self.judge();
        sank
    }

    /// The ships that see three or more enemies, found by sweeping each of the
    /// board's lines once: two ships next to each other on a line (nothing between
    /// them) see each other.
    fn doomed(&self) -> Vec<Coord> {
        let enemies = self.enemies_seen();
        self.size()
            .cells()
            .filter(|c| {
                self.index(*c)
                    .is_some_and(|i| usize::from(enemies[i]) >= SINKS_AT)
            })
            .collect()
    }

    /// How many of each side's ships see exactly two enemies: one more brought onto
    /// their lines sinks them.
    pub fn exposed(&self) -> [u8; 2] {
        let enemies = self.enemies_seen();
        let mut exposed = [0u8; 2];
        for (ship, seen) in self.cells.iter().zip(enemies) {
            if let (Some(ship), 2) = (ship, seen) {
                exposed[ship.index()] += 1;
            }
        }
        exposed
    }

    /// For each cell, the enemy ships its ship sees.
    fn enemies_seen(&self) -> [u8; CELLS] {
        let n = i16::from(self.side);
        let mut enemies = [0u8; CELLS];
        let mut sweep = |start: (i16, i16), step: (i16, i16)| {
            let mut last: Option<(usize, Side)> = None;
            let (mut col, mut row) = start;
            while (0..n).contains(&col) && (0..n).contains(&row) {
                let index = (row * n + col) as usize;
                if let Some(ship) = self.cells[index] {
                    if let Some((before, other)) = last
                        && other != ship
                    {
                        enemies[before] += 1;
                        enemies[index] += 1;
                    }
                    last = Some((index, ship));
                }
                col += step.0;
                row += step.1;
            }
        };
        for i in 0..n {
            sweep((0, i), (1, 0));
            sweep((i, 0), (0, 1));
        }
        for i in 0..2 * n - 1 {
            // Up-right diagonals start on the left column or the bottom row; up-left
            // ones on the right column or the bottom row.
            sweep(if i < n { (0, i) } else { (i - n + 1, 0) }, (1, 1));
            sweep(
                if i < n {
                    (n - 1, i)
                } else {
                    (2 * n - 2 - i, 0)
                },
                (-1, 1),
            );
        }
        enemies
    }

    /// The end as the rules judge this position after a move and all its waves: a
    /// fleet below three, then no legal move for the side to move, then fifty quiet
    /// moves. (A game's own end is [`Position::ending`]; this is the check itself.)
    pub fn judge(&self) -> Option<Ending> {
        let [first, second] = Side::BOTH.map(|s| self.count(s));
        let fleet = |winner| {
            Some(Ending {
                winner,
                reason: EndReason::Fleet,
            })
        };
        match (first < FLEET_MIN, second < FLEET_MIN) {
            (true, true) => return fleet(None),
            (true, false) => return fleet(Some(Side::Second)),
            (false, true) => return fleet(Some(Side::First)),
            (false, false) => {}
        }
        if !self.has_move(self.mover) {
            return Some(Ending {
                winner: Some(self.mover.other()),
                reason: EndReason::NoMove,
            });
        }
        if self.quiet >= QUIET_LIMIT {
            let winner = match first.cmp(&second) {
                std::cmp::Ordering::Greater => Some(Side::First),
                std::cmp::Ordering::Less => Some(Side::Second),
                std::cmp::Ordering::Equal => None,
            };
            return Some(Ending {
                winner,
                reason: EndReason::Quiet,
            });
        }
        None
    }

    /// `side` resigns (on either turn): the other side wins.
    pub fn resign(&mut self, side: Side) -> Result<Ending, MoveError> {
        if self.is_over() {
            return Err(MoveError::Over);
        }
        let ending = Ending {
            winner: Some(side.other()),
            reason: EndReason::Resigned,
        };
        self.ending = Some(ending);
        Ok(ending)
    }

    /// Whether the side to move has no legal move (the second rule of the end, for
    /// a constructed position).
    pub fn stuck(&self) -> bool {
        !self.has_move(self.mover)
    }

    /// What decides this position's future for a search looking at most `horizon`
    /// plies ahead, hashed: the ships, the side to move, and the quiet count only
    /// where the quiet limit lies within the horizon (elsewhere it changes nothing,
    /// and leaving it out lets positions reached in another order meet).
    pub(super) fn search_key(&self, horizon: u8) -> u64 {
        use std::hash::{Hash as _, Hasher as _};
        // SipHash with fixed keys: the same key on every run, so searches repeat.
        let mut hasher = std::hash::DefaultHasher::new();
        self.side.hash(&mut hasher);
        self.cells.hash(&mut hasher);
        self.mover.hash(&mut hasher);
        let quiet = if self.quiet.saturating_add(horizon) >= QUIET_LIMIT {
            self.quiet
        } else {
            0
        };
        quiet.hash(&mut hasher);
        hasher.finish()
    }

    /// The moves of the side to move, whatever the game's state (the computer's
    /// search stops at the end itself).
    pub(super) fn candidate_moves(&self) -> Vec<Move> {
        self.moves_of(self.mover)
    }
}
