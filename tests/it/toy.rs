//! A third game plugged into the table from outside the crate, as ARCHITECTURE.md's "Adding a game" says: tic-tac-toe as an [`OpenGame`], played between two sessions with signed moves, its lies named and its transcript re-checked by a fresh observer.
//!
//! Everything here is the toy's own: its board, its moves, its end. The table's
//! protocol (hellos, settings, nonces, turns, `seen`, resignations, verdicts, play
//! again, the transcript) and the session's wire side come from the crate. A real
//! game also adds its `GameKind` and its move payload to the wire crate; the toy,
//! living in a test, borrows Archimedes' `Move` payload (one cell as both ends) and
//! plays on a 3×3 `GameKind::Archimedes`, a size Archimedes itself refuses.

use std::collections::VecDeque;
use std::fmt;

use armada::fair::hash::Hash;
use armada::fair::sign::Identity;
use armada::fair::table::Observer;
use armada::fair::table::open::{Open, OpenGame, Outcome, Reason, Verdict};
use armada::fair::wire;
use armada::rules::Seat;
use armada::session::CommandError;
use armada::session::open::{Command, Owed, Session};
use armada_proto::{self as proto, Body, PROTOCOL_VERSION, Payload};

/// Tic-tac-toe: X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TicTacToe;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    X,
    O,
}

/// A cell, `row * 3 + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell(u8);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 / 3 + 1, self.0 % 3 + 1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    Line,
    Full,
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Line => "three in a row",
            Self::Full => "the board is full",
        })
    }
}

#[derive(Clone, Debug)]
struct Board {
    cells: [Option<Mark>; 9],
    mover: Mark,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Played {
    mark: Mark,
    cell: Cell,
    ending: Option<(Option<Mark>, End)>,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl OpenGame for TicTacToe {
    type Position = Board;
    type Move = Cell;
    type Played = Played;
    type Side = Mark;
    type End = End;
    const FIRST: Mark = Mark::X;
    const SECOND: Mark = Mark::O;
    const TABLE: &'static str = "a tic-tac-toe table";
    const MAGIC: [u8; 8] = *b"ARMADA\0T";

    fn check_settings(settings: &proto::Settings) -> Result<(), String> {
        match settings.game {
            proto::GameKind::Archimedes { side: 3 } => Ok(()),
            _ => Err("not a tic-tac-toe table".into()),
        }
    }
    fn start(_: &proto::Settings, _: &Hash, _: Seat) -> Result<Board, String> {
        Ok(Board {
            cells: [None; 9],
            mover: Mark::X,
        })
    }
    fn mover(board: &Board) -> Mark {
        board.mover
    }
    fn moved(payload: &Payload) -> Option<(&Hash, u32)> {
        match payload {
            Payload::Move { game, number, .. } => Some((game, *number)),
            _ => None,
        }
    }
    fn decode(payload: &Payload, _: &Board) -> Result<Cell, String> {
        match payload {
            Payload::Move { from, to, .. } if from == to && *to < 9 => Ok(Cell(*to)),
            _ => Err("not a cell of the board".into()),
        }
    }
    fn encode(game: Hash, number: u32, cell: Cell, _: &Board) -> Payload {
        Payload::Move {
            game,
            number,
            from: cell.0,
            to: cell.0,
        }
    }
    fn check(board: &Board, cell: Cell) -> Result<(), String> {
        let over = LINES.iter().any(|l| line(board, *l).is_some())
            || board.cells.iter().all(Option::is_some);
        match board.cells.get(usize::from(cell.0)) {
            _ if over => Err("the game is over".into()),
            Some(None) => Ok(()),
            Some(Some(_)) => Err(format!("{cell} is taken")),
            None => Err("not a cell of the board".into()),
        }
    }
    fn play(board: &mut Board, cell: Cell) -> Result<Played, String> {
        Self::check(board, cell)?;
        let mark = board.mover;
        board.cells[usize::from(cell.0)] = Some(mark);
        board.mover = if mark == Mark::X { Mark::O } else { Mark::X };
        let ending = if LINES.iter().any(|l| line(board, *l).is_some()) {
            Some((Some(mark), End::Line))
        } else if board.cells.iter().all(Option::is_some) {
            Some((None, End::Full))
        } else {
            None
        };
        Ok(Played { mark, cell, ending })
    }
    fn ending(played: &Played) -> Option<(Option<Mark>, End)> {
        played.ending
    }
}

/// The mark that fills a line, if one does.
fn line(board: &Board, [a, b, c]: [usize; 3]) -> Option<Mark> {
    let mark = board.cells[a]?;
    (board.cells[b] == Some(mark) && board.cells[c] == Some(mark)).then_some(mark)
}

/// Two sides of a tic-tac-toe table, every frame delivered at once.
struct Pair {
    sides: [Session<TicTacToe>; 2],
    guest_id: Identity,
}

impl Pair {
    fn new() -> Self {
        let secret = [3; 32];
        let settings = proto::Settings {
            game: proto::GameKind::Archimedes { side: 3 },
            move_ms: 60_000,
            answer_ms: 0,
            reveal_ms: 0,
            grace_ms: 0,
        };
        let guest_id = Identity::generate();
        let host = Session::host(Identity::generate(), secret, settings);
        let mut pair = Self {
            sides: [host, Session::guest(guest_id.clone(), secret)],
            guest_id,
        };
        pair.deliver();
        pair
    }

    fn deliver(&mut self) {
        let mut flight: VecDeque<(usize, Vec<u8>)> = VecDeque::new();
        loop {
            for (i, side) in self.sides.iter_mut().enumerate() {
                while let Some(frame) = side.poll_transmit() {
                    flight.push_back((1 - i, frame));
                }
            }
            let Some((to, frame)) = flight.pop_front() else {
                return;
            };
            self.sides[to]
                .handle_message(0, &frame)
                .expect("an honest frame is taken");
        }
    }

    /// The side to move plays `cell`, and it is delivered.
    fn play(&mut self, cell: u8) {
        let mover = self.sides[0].table().mover().expect("a game under way");
        self.sides[mover.index()]
            .handle_command(0, Command::Move(Cell(cell)))
            .expect("a legal move");
        self.deliver();
    }

    /// A fresh observer takes `seat`'s whole transcript in: its verdicts.
    fn replayed(&self, seat: Seat) -> Vec<Verdict<End>> {
        let table = self.sides[seat.index()].table();
        let mut check = Observer::<Open<TicTacToe>>::new(table.id());
        for (from, bytes) in table.transcript() {
            check
                .receive(*from, bytes)
                .expect("a recorded frame checks again");
        }
        check.verdicts()
    }
}

#[test]
fn a_toy_game_plugged_into_the_table_is_played_between_two_sessions_and_verified() {
    let mut pair = Pair::new();
    // Game 1: the host is X and takes the top row.
    for cell in [0, 3, 1, 4, 2] {
        pair.play(cell);
    }
    let won = Verdict::Decided(Outcome {
        winner: Some(Seat::Host),
        reason: Reason::Rules(End::Line),
    });
    for side in &pair.sides {
        assert_eq!(side.table().settled(), Some(&won));
        assert_eq!(side.owed(), Owed::PlayAgain);
    }
    for side in &mut pair.sides {
        side.handle_command(0, Command::PlayAgain)
            .expect("another game");
    }
    pair.deliver();
    // Game 2: the guest moves first now; nobody gets a line.
    assert_eq!(pair.sides[1].owed(), Owed::Move);
    for cell in [4, 0, 8, 2, 1, 7, 5, 3, 6] {
        pair.play(cell);
    }
    let drawn = Verdict::Decided(Outcome {
        winner: None,
        reason: Reason::Rules(End::Full),
    });
    for side in &pair.sides {
        assert_eq!(side.table().verdicts(), vec![won.clone(), drawn.clone()]);
        assert_eq!(side.score(), [3, 1]);
    }
    // Anyone holding either side's frames reaches the same verdicts.
    assert_eq!(pair.replayed(Seat::Host), vec![won.clone(), drawn.clone()]);
    assert_eq!(pair.replayed(Seat::Guest), vec![won, drawn]);
}

#[test]
fn a_toy_move_on_a_taken_cell_is_refused_and_signed_it_is_a_named_lie() {
    let mut pair = Pair::new();
    pair.play(4);
    // Asked of the session, the move is refused with the toy's reason.
    let refused = pair.sides[1].handle_command(0, Command::Move(Cell(4)));
    assert!(
        matches!(&refused, Err(CommandError::Illegal(why)) if why == "r2c2 is taken"),
        "{refused:?}"
    );
    // Signed by a lying client, it is named a lie and the liar loses.
    let guest = pair.sides[1].table();
    let (seq, prev) = guest.chain_head(Seat::Guest);
    let lie = pair.guest_id.seal(&Body {
        version: PROTOCOL_VERSION,
        table: guest.id(),
        from: wire::seat(Seat::Guest),
        seq,
        prev,
        seen: guest.last_hash(Seat::Host),
        payload: Payload::Move {
            game: guest.game_id().expect("a game"),
            number: 1,
            from: 4,
            to: 4,
        },
    });
    pair.sides[0]
        .handle_message(0, &lie)
        .expect("a signed lie is taken in");
    let named = pair.sides[0].table().settled().cloned();
    let Some(Verdict::Lie(told)) = &named else {
        panic!("no lie named: {named:?}");
    };
    assert_eq!((told.liar, told.seq), (Seat::Guest, seq));
    assert_eq!(told.reason, "an illegal move r2c2: r2c2 is taken");
    assert!(
        pair.sides[0]
            .table()
            .steps()
            .iter()
            .all(|s| s.seat == Seat::Host),
        "the lie changed nothing on the board"
    );
    assert_eq!(pair.replayed(Seat::Host), vec![Verdict::Lie(told.clone())]);
}
