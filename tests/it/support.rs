//! Helpers that make each scenario a few readable lines: boards from pictures, actions from text.

use armada::rules::{
    Action, ActionError, Coord, Fleet, Game, Report, Seat, ShellOrder, Variant, parse_fleet,
};

/// A standard legal fleet: battleship A1–D1, cruisers A3–C3 and E3–G3,
/// destroyers A5–B5, D5–E5, G5–H5, boats J1, J3, A7, C7. Rows 8–10 are open water.
pub const FLEET: &str = "
    # # # # . . . . . #
    . . . . . . . . . .
    # # # . # # # . . #
    . . . . . . . . . .
    # # . # # . # # . .
    . . . . . . . . . .
    # . # . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
";

pub fn fleet(variant: Variant, picture: &str) -> Fleet {
    parse_fleet(&variant.fleet(), picture).unwrap_or_else(|e| panic!("bad test picture: {e}"))
}

pub fn cell(text: &str) -> Coord {
    Coord::parse(text, armada::rules::BoardSize::LARGE).unwrap()
}

pub fn cells(text: &str) -> Vec<Coord> {
    text.split_whitespace().map(cell).collect()
}

/// Two fleets and a game between them; the host moves first.
pub struct Table {
    pub game: Game,
    pub fleets: [Fleet; 2],
}

impl Table {
    /// An Armada game: the host attacks `guest` (a picture), the guest attacks [`FLEET`].
    pub fn armada(guest: &str) -> Self {
        Self::new(Variant::Armada, FLEET, guest, true)
    }

    pub fn new(variant: Variant, host: &str, guest: &str, draws: bool) -> Self {
        Self {
            game: Game::new(variant, Seat::Host, draws),
            fleets: [fleet(variant, host), fleet(variant, guest)],
        }
    }

    /// Plays an action written as a player would type it; air strikes take `shells`.
    pub fn try_act(
        &mut self,
        seat: Seat,
        action: &str,
        shells: Option<[u8; 5]>,
    ) -> Result<Report, ActionError> {
        let action = Action::parse(action, self.game.variant().size()).unwrap();
        let shells = shells.map(|s| ShellOrder::new(s).unwrap());
        let enemy = &mut self.fleets[seat.other().index()];
        self.game.play(seat, action, shells, enemy)
    }

    pub fn act(&mut self, seat: Seat, action: &str) -> Report {
        self.try_act(seat, action, None)
            .unwrap_or_else(|e| panic!("{seat} {action}: {e}"))
    }

    pub fn host(&mut self, action: &str) -> Report {
        self.act(Seat::Host, action)
    }

    pub fn strike(&mut self, seat: Seat, centre: &str, shells: [u8; 5]) -> Report {
        self.try_act(seat, &format!("air {centre}"), Some(shells))
            .unwrap_or_else(|e| panic!("{seat} air {centre}: {e}"))
    }

    /// `seat` misses on purpose (its first unmarked water cell), handing the turn back.
    pub fn pass(&mut self, seat: Seat) {
        let enemy = &self.fleets[seat.other().index()];
        let water = (self.game.chart(seat).unmarked() - enemy.decks())
            .iter()
            .next()
            .expect("open water left");
        let report = self.act(seat, &water.to_string());
        assert!(!report.again);
    }

    /// The host plays `actions` in turn; whenever the turn passes, the guest misses once.
    pub fn host_plays(&mut self, actions: &[&str]) {
        for action in actions {
            if self.game.mover() == Seat::Guest {
                self.pass(Seat::Guest);
            }
            self.host(action);
        }
        if self.game.mover() == Seat::Guest && !self.game.is_over() {
            self.pass(Seat::Guest);
        }
    }

    /// The host's chart of the guest's board as marks: `.` unmarked, `o` miss, `x` hit, `X` wreck.
    pub fn chart_row(&self, row: u8) -> String {
        let chart = self.game.chart(Seat::Host);
        (0..chart.size().side())
            .map(|col| match chart.mark(Coord::new(col, row - 1).unwrap()) {
                armada::rules::Mark::Unmarked => '.',
                armada::rules::Mark::Miss => 'o',
                armada::rules::Mark::Hit => 'x',
                armada::rules::Mark::Wreck => 'X',
            })
            .collect()
    }
}

/// A transcript file of `table` holding `frames` in this order, as `armada verify` reads it.
pub fn transcript_file(table: [u8; 32], frames: &[(Seat, Vec<u8>)]) -> Vec<u8> {
    use armada_proto as proto;
    proto::encode_transcript(&proto::Transcript {
        magic: proto::TRANSCRIPT_MAGIC,
        version: proto::PROTOCOL_VERSION,
        table,
        frames: frames
            .iter()
            .map(|(seat, bytes)| proto::SavedFrame {
                from: armada::fair::wire::seat(*seat),
                bytes: bytes.clone(),
            })
            .collect(),
    })
}

/// A fresh observer of `G`'s table `table` takes `frames` in, in this order: the
/// first lie it names and its verdicts, in words (to compare two orders).
pub fn observed<G: armada::fair::table::Rules>(
    table: [u8; 32],
    frames: &[(Seat, Vec<u8>)],
) -> (Option<armada::fair::table::Lie>, String) {
    let mut observer = armada::fair::table::Observer::<G>::new(table);
    for (from, bytes) in frames {
        observer
            .receive(*from, bytes)
            .expect("a signed frame in its chain's order is taken in");
    }
    (observer.first_lie(), format!("{:?}", observer.verdicts()))
}

/// The guest's signature on a frame it builds itself, next in its chain after what
/// `view` (its own table) holds, as a lying client would.
pub fn guest_signs<G: armada::fair::table::Rules>(
    identity: &armada::fair::sign::Identity,
    view: &armada::fair::table::Observer<G>,
    payload: armada_proto::Payload,
) -> Vec<u8> {
    let (seq, prev) = view.chain_head(Seat::Guest);
    identity.seal(&armada_proto::Body {
        version: armada_proto::PROTOCOL_VERSION,
        table: view.id(),
        from: armada::fair::wire::seat(Seat::Guest),
        seq,
        prev,
        seen: view.last_hash(Seat::Host),
        payload,
    })
}

/// `before`, then both requests for the next game and the guest's frame `old` about
/// the game before, in the two orders they may arrive in (the next round opened
/// before `old` came, or after it): what a fresh observer of each says.
pub fn both_orders<G: armada::fair::table::Rules>(
    table: [u8; 32],
    before: &[(Seat, Vec<u8>)],
    [host_again, guest_again, old]: [&Vec<u8>; 3],
) -> [(Option<armada::fair::table::Lie>, String); 2] {
    let order = |tail: [(Seat, &Vec<u8>); 3]| {
        let mut frames = before.to_vec();
        frames.extend(tail.map(|(seat, bytes)| (seat, bytes.clone())));
        observed::<G>(table, &frames)
    };
    [
        order([
            (Seat::Host, host_again),
            (Seat::Guest, guest_again),
            (Seat::Guest, old),
        ]),
        order([
            (Seat::Guest, guest_again),
            (Seat::Guest, old),
            (Seat::Host, host_again),
        ]),
    ]
}
