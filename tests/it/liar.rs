//! A lying peer: a test double that plays the guest, builds its lies itself and signs
//! them with its own key, so an honest session can only catch them by the rules and
//! proofs, never by a bad signature.

use std::collections::VecDeque;

use armada::fair::commit::{Binding, SealedBoard};
use armada::fair::secret::Contribution;
use armada::fair::shared::{STRIKES, contribution_commitment, shell_order, strike_number};
use armada::fair::sign::Identity;
use armada::fair::table::{Note, Table, join_proof, table_id};
use armada::fair::wire;
use armada::rules::{Action, CellSet, Chart, Content, Coord, Fleet, Recorder, Sea, SeaError, Seat};
use armada::session::{Command, Millis, Session};
use armada_proto::{self as proto, Body, PROTOCOL_VERSION, Payload};

use crate::pair::settings;

/// The lie the double tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cheat {
    /// Answers its first hit deck as water (C1).
    MissOnDeck,
    /// Answers its first missed water as a deck (C2).
    HitOnWater,
    /// Answers its first hit that does not sink as a sinking (C3).
    FalseSunk,
    /// Never says "sunk" for the ship with a deck at this cell (C4).
    WithholdSunk(Coord),
    /// Commits to exactly these decks (legal or not) and answers by them (C5).
    Decks(CellSet),
    /// Sends a wrong salt in its first opening (C6).
    BadSalt,
    /// After its first answer, answers from another layout (C6).
    ChangeLayout(CellSet),
    /// Reveals a wrong contribution with its air-strike answer (C7).
    BadContribution,
    /// Copies the host's contribution commitments (C7).
    CopyCommitment,
    /// Opens the torpedo's stop cell as if it were a deck in the water before it (C8).
    TorpedoRunsPast,
    /// Answers radar cells all as water (C9).
    RadarBlind,
    /// Refuses to reveal at the end (C13).
    NoReveal,
    /// Stops answering after its first answer (C14).
    Stall,
    /// Signs every message with another key (C11).
    ForeignKey,
    /// Tells the truth.
    None,
}

/// An answer's looks, as the double's own board gives them.
struct Decks {
    decks: CellSet,
    withhold: CellSet,
}

impl Sea for Decks {
    fn look(&mut self, cell: Coord, chart: &Chart) -> Result<Content, SeaError> {
        if !self.decks.contains(cell) {
            return Ok(Content::Water);
        }
        let mut ship = self.decks.side_component(cell);
        let withheld = ship.intersects(&self.withhold);
        ship.remove(cell);
        Ok(Content::Deck {
            sinks: ship.is_subset(&chart.hits()) && !withheld,
        })
    }
}

pub struct Liar {
    pub identity: Identity,
    pub signer: Identity,
    pub table: Table,
    pub cheat: Cheat,
    pub fleet: Fleet,
    pub board: Option<SealedBoard>,
    pub decks: CellSet,
    pub contributions: Vec<Contribution>,
    pub outbox: VecDeque<Vec<u8>>,
    answers: u32,
    host_commitments: Vec<[u8; 32]>,
}

impl Liar {
    pub fn new(secret: [u8; 32], fleet: Fleet, cheat: Cheat) -> Self {
        Self::speaking_as(Identity::generate(), secret, fleet, cheat)
    }

    /// A liar signing with `identity` (a network peer's own key, so that a host
    /// admits its hello).
    pub fn speaking_as(identity: Identity, secret: [u8; 32], fleet: Fleet, cheat: Cheat) -> Self {
        let signer = identity.clone();
        let decks = match &cheat {
            Cheat::Decks(cells) => *cells,
            _ => fleet.decks(),
        };
        let mut liar = Self {
            identity,
            signer,
            table: Table::new(table_id(&secret)),
            cheat,
            fleet,
            board: None,
            decks,
            contributions: Vec::new(),
            outbox: VecDeque::new(),
            answers: 0,
            host_commitments: Vec::new(),
        };
        let key = liar.identity.public();
        liar.send(Payload::Hello {
            key,
            join: Some(join_proof(&secret, &key)),
        });
        if liar.cheat == Cheat::ForeignKey {
            liar.signer = Identity::generate();
        }
        liar
    }

    /// The body of the liar's next frame: `payload`, linked to its chain and to the
    /// newest frame of the host it holds.
    pub fn next_body(&self, payload: Payload) -> Body {
        let (seq, prev) = self.table.chain_head(Seat::Guest);
        Body {
            version: PROTOCOL_VERSION,
            table: self.table.id(),
            from: proto::Seat::Guest,
            seq,
            prev,
            seen: self.table.last_hash(Seat::Host),
            payload,
        }
    }

    /// Signs and queues a frame, taking it into its own table first.
    pub fn send(&mut self, payload: Payload) -> Vec<Note> {
        let body = self.next_body(payload);
        let frame = self.signer.seal(&body);
        let notes = self.table.receive(Seat::Guest, &frame).unwrap_or_default();
        self.outbox.push_back(frame);
        for note in &notes {
            self.react(note);
        }
        notes
    }

    /// Takes in a frame from the host and does what the protocol (or its cheat) says;
    /// what the frame told.
    pub fn receive(&mut self, frame: &[u8]) -> Vec<Note> {
        let Ok(notes) = self.table.receive(Seat::Host, frame) else {
            return Vec::new();
        };
        for note in &notes {
            self.react(note);
        }
        notes
    }

    fn react(&mut self, note: &Note) {
        match note {
            Note::Settings(_) => {
                let nonce: [u8; 32] = *Contribution::fresh().unwrap().expose();
                self.send(Payload::Nonce { number: 0, nonce });
            }
            Note::Committed(Seat::Host) => {
                self.host_commitments = self.table.commitment(Seat::Host).unwrap().1.to_vec();
                if self.cheat == Cheat::CopyCommitment {
                    let (id, variant) =
                        (self.table.game_id().unwrap(), self.table.variant().unwrap());
                    self.commit(id, variant);
                }
            }
            Note::GameOpened { .. } if self.cheat == Cheat::CopyCommitment => {}
            Note::GameOpened { id, variant, .. } => self.commit(*id, *variant),
            Note::Acted {
                seat: Seat::Host, ..
            } => self.answer(),
            Note::Ended(_) if self.cheat != Cheat::NoReveal => self.reveal(),
            _ => {}
        }
    }

    fn commit(&mut self, id: [u8; 32], variant: armada::rules::Variant) {
        let id = &id;
        let binding = Binding {
            game: *id,
            seat: Seat::Guest,
            size: variant.size(),
        };
        let board = SealedBoard::seal(binding, self.decks).unwrap();
        let key = self.identity.public();
        let strikes = if variant.has_weapons() { STRIKES } else { 0 };
        self.contributions = (0..strikes)
            .map(|_| Contribution::fresh().unwrap())
            .collect();
        let contributions = if self.cheat == Cheat::CopyCommitment {
            self.host_commitments.clone()
        } else {
            self.contributions
                .iter()
                .enumerate()
                .map(|(s, c)| contribution_commitment(id, Seat::Guest, &key, s as u8, c.expose()))
                .collect()
        };
        let fleet = board.root();
        self.board = Some(board);
        self.send(Payload::Commit {
            game: *id,
            fleet,
            contributions,
        });
    }

    pub fn answer(&mut self) {
        if self.cheat == Cheat::Stall && self.answers > 0 {
            return;
        }
        let table = &self.table;
        let (id, game, pending) = (
            table.game_id().unwrap(),
            table.game().unwrap().clone(),
            table.pending().unwrap().clone(),
        );
        let mine = pending
            .strike
            .map(|s| *self.contributions[s as usize].expose());
        let shells = pending
            .strike
            .map(|s| shell_order(&id, s, &pending.contribution.unwrap(), &mine.unwrap()));
        let withhold = match self.cheat {
            Cheat::WithholdSunk(cell) => self.decks.side_component(cell),
            _ => CellSet::EMPTY,
        };
        let mut sea = Recorder::new(Decks {
            decks: self.decks,
            withhold,
        });
        let _ = game
            .clone()
            .play(Seat::Host, pending.action, shells, &mut sea);
        let mut looks = sea.looked;
        let size = game.variant().size();
        let board = self.board.as_ref().unwrap();
        let mut openings: Vec<proto::WireOpening> = looks
            .iter()
            .map(|(c, content)| wire::opening(&board.open(*c), *content, size))
            .collect();
        match self.cheat {
            Cheat::MissOnDeck => {
                lie_first(&mut openings, proto::Claim::Deck, proto::Claim::Water)
                    || lie_first(&mut openings, proto::Claim::Sinks, proto::Claim::Water)
            }
            Cheat::HitOnWater => lie_first(&mut openings, proto::Claim::Water, proto::Claim::Deck),
            Cheat::FalseSunk => {
                let lied = lie_first(&mut openings, proto::Claim::Deck, proto::Claim::Sinks);
                if let (true, Action::Shot(cell)) = (lied, pending.action) {
                    // Opens the ring a sinking needs, honestly: a deck shows up in it.
                    let chart = game.chart(Seat::Host);
                    let ship = (chart.hits() | CellSet::single(cell)).component(cell);
                    for around in &(ship.surroundings(size) - chart.marked()) {
                        let content = Decks {
                            decks: self.decks,
                            withhold,
                        }
                        .look(around, chart)
                        .unwrap();
                        openings.push(wire::opening(&board.open(around), content, size));
                    }
                }
                lied
            }
            Cheat::BadSalt if self.answers == 0 => {
                openings[0].salt[0] ^= 1;
                true
            }
            Cheat::ChangeLayout(other) if self.answers > 0 => {
                let binding = *board.binding();
                let changed = SealedBoard::seal(binding, other).unwrap();
                let mut sea = Recorder::new(Decks {
                    decks: other,
                    withhold,
                });
                let _ = game
                    .clone()
                    .play(Seat::Host, pending.action, shells, &mut sea);
                looks = sea.looked;
                openings = looks
                    .iter()
                    .map(|(c, content)| wire::opening(&changed.open(*c), *content, size))
                    .collect();
                true
            }
            Cheat::TorpedoRunsPast if matches!(pending.action, Action::Torpedo(_)) => {
                lie_first(&mut openings, proto::Claim::Deck, proto::Claim::Water)
                    || lie_first(&mut openings, proto::Claim::Sinks, proto::Claim::Water)
            }
            Cheat::RadarBlind if matches!(pending.action, Action::Radar(_)) => {
                lie_first(&mut openings, proto::Claim::Deck, proto::Claim::Water)
            }
            _ => false,
        };
        let contribution = match (&self.cheat, mine) {
            (Cheat::BadContribution, Some(mut c)) => {
                c[0] ^= 1;
                Some(c)
            }
            (_, mine) => mine,
        };
        self.answers += 1;
        self.send(Payload::Answer {
            game: id,
            number: pending.number,
            openings,
            contribution,
        });
    }

    fn reveal(&mut self) {
        let Some(board) = &self.board else { return };
        let id = self.table.game_id().unwrap();
        let size = self.fleet.size();
        let payload = Payload::Reveal {
            game: id,
            ships: ships_of(self.decks, size),
            salts: board.salts().copied().collect(),
            contributions: self.contributions.iter().map(|c| *c.expose()).collect(),
        };
        self.send(payload);
    }

    /// Plays `action` as its move (legal or not), with its strike contribution if any.
    pub fn act(&mut self, action: Action, timeout: bool) {
        let table = &self.table;
        let (id, game) = (table.game_id().unwrap(), table.game().unwrap());
        let contribution = matches!(action, Action::AirStrike(_)).then(|| {
            let strike = strike_number(Seat::Guest, 2 - game.stock(Seat::Guest).air_strikes.min(2));
            *self.contributions[strike as usize].expose()
        });
        let number = game.actions();
        let wire_action = wire::action(action, game.variant().size());
        self.send(Payload::Act {
            game: id,
            number,
            action: wire_action,
            timeout,
            contribution,
        });
    }
}

/// The straight runs of `decks` as ships (whatever the fleet rules say of them).
fn ships_of(decks: CellSet, size: armada::rules::BoardSize) -> Vec<proto::WireShip> {
    let mut left = decks;
    let mut ships = Vec::new();
    while let Some(first) = left.iter().next() {
        let run = left.side_component(first);
        left -= run;
        let down = run.iter().any(|c| c.col() == first.col() && c != first);
        let bow = armada::fair::commit::cell_index(first, size);
        ships.push(proto::WireShip {
            bow,
            down,
            len: run.len() as u8,
        });
    }
    ships
}

/// Rewrites the first opening claiming `from` to claim `to`; false if there is none.
fn lie_first(openings: &mut [proto::WireOpening], from: proto::Claim, to: proto::Claim) -> bool {
    match openings.iter_mut().find(|o| o.claim == from) {
        Some(opening) => {
            opening.claim = to;
            true
        }
        None => false,
    }
}

/// An honest host against the lying guest, frames moved by hand.
pub struct Duel {
    pub host: Session,
    pub liar: Liar,
    pub now: Millis,
}

impl Duel {
    pub fn new(
        variant: armada::rules::Variant,
        host_fleet: Fleet,
        guest_fleet: Fleet,
        cheat: Cheat,
    ) -> Self {
        Self::timed(variant, host_fleet, guest_fleet, cheat, false)
    }

    /// A duel whose host starts the game with the move timer on or off (the clock
    /// stays at 0 unless a test moves it).
    pub fn timed(
        variant: armada::rules::Variant,
        host_fleet: Fleet,
        guest_fleet: Fleet,
        cheat: Cheat,
        timer: bool,
    ) -> Self {
        let secret = [42; 32];
        let host = Session::host(Identity::generate(), secret, settings(variant)).with_timer(timer);
        let liar = Liar::new(secret, guest_fleet, cheat);
        let mut duel = Self { host, liar, now: 0 };
        duel.drive();
        let _ = duel.host.handle_command(0, Command::Place(host_fleet));
        duel.drive();
        if duel.host.table().committed(Seat::Guest) && duel.host.table().committed(Seat::Host) {
            let _ = duel.host.handle_command(0, Command::Start);
            duel.drive();
        }
        duel
    }

    pub fn drive(&mut self) {
        loop {
            let mut moved = false;
            while let Some(frame) = self.host.poll_transmit() {
                self.liar.receive(&frame);
                moved = true;
            }
            while let Some(frame) = self.liar.outbox.pop_front() {
                let _ = self.host.handle_message(self.now, &frame);
                moved = true;
            }
            if !moved {
                break;
            }
        }
    }

    /// The host plays `action` (typed as a player would) and the frames settle.
    pub fn host(&mut self, action: &str) {
        let size = self.host.table().variant().unwrap().size();
        let action = Action::parse(action, size).unwrap();
        self.host
            .handle_command(self.now, Command::Act(action))
            .unwrap_or_else(|e| panic!("{action}: {e}"));
        self.drive();
    }

    /// The host misses on purpose somewhere open, so the liar gets the move.
    pub fn host_misses(&mut self) {
        let table = self.host.table();
        let game = table.game().unwrap();
        let open = game.chart(Seat::Host).unmarked() - self.liar.fleet.decks() - self.liar.decks;
        let cell = open.iter().last().unwrap();
        self.host(&cell.to_string());
    }

    /// The liar misses on purpose (an open water cell of the host), handing the move back.
    pub fn liar_misses(&mut self, host_fleet: &Fleet) {
        let chart = self.liar.table.game().unwrap().chart(Seat::Guest);
        let cell = (chart.unmarked() - host_fleet.decks())
            .iter()
            .last()
            .unwrap();
        self.liar.act(Action::Shot(cell), false);
        self.drive();
    }

    /// The lie the honest host proved, if any.
    pub fn proven(&self) -> Option<armada::fair::table::Lie> {
        self.host.table().first_lie()
    }
}

/// Regression: a host whose first frame is a short code's hello (which only a guest
/// may send) lied, but its key was never taken, so every later frame of its was
/// refused and `verify` called the whole record malformed. Now the key stands, as
/// for a host's `Hello` with a proof, and the record names the lie — in both games.
#[test]
fn a_host_whose_first_frame_is_a_short_code_hello_is_named_a_liar() {
    let secret = [7; 32];
    let table = table_id(&secret);
    let sea = settings(armada::rules::Variant::Armada);
    let archimedes = armada::session::archimedes::settings(6, 60_000, 0);
    for settings in [sea, archimedes] {
        let (host, guest) = (Identity::generate(), Identity::generate());
        let sign = |who: &Identity, seat: Seat, seq: u32, prev: [u8; 32], seen, payload| {
            who.seal(&Body {
                version: PROTOCOL_VERSION,
                table,
                from: wire::seat(seat),
                seq,
                prev,
                seen,
                payload,
            })
        };
        let hello = sign(
            &host,
            Seat::Host,
            0,
            [0; 32],
            [0; 32],
            Payload::CodeHello {
                key: host.public(),
                join: [1; 32],
            },
        );
        let guest_hello = sign(
            &guest,
            Seat::Guest,
            0,
            [0; 32],
            armada::fair::sign::frame_hash(&hello),
            Payload::Hello {
                key: guest.public(),
                join: Some(join_proof(&secret, &guest.public())),
            },
        );
        let host_settings = sign(
            &host,
            Seat::Host,
            1,
            armada::fair::sign::frame_hash(&hello),
            armada::fair::sign::frame_hash(&guest_hello),
            Payload::Settings(settings),
        );
        let file = crate::support::transcript_file(
            table,
            &[
                (Seat::Host, hello),
                (Seat::Guest, guest_hello),
                (Seat::Host, host_settings),
            ],
        );
        let report = armada::fair::verify::verify(&file);
        match &report.outcome {
            armada::fair::verify::Outcome::Lie(lie) => {
                assert_eq!((lie.liar, lie.seq), (Seat::Host, 0), "{settings:?}");
                assert_eq!(lie.reason, "a short code's hello from the host");
            }
            other => panic!(
                "{:?}: the record should name the host's lie: {other:?}",
                settings.game
            ),
        }
    }
}
