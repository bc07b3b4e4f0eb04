//! The edges of an Icehouse Armada table between friends: a side that leaves while
//! the fleets are being placed, and a saved session whose kept placement was
//! damaged on disk (refused on restore, never revealed as a lie about a friend, its
//! intact frames counted).

use armada::fair::sign::Identity;
use armada::fair::table::open::{Outcome, Reason, Verdict};
use armada::fair::verify;
use armada::fair::wire;
use armada::icehouse::{self as ice, Fleet};
use armada::rules::Seat;
use armada::session::RestoreError;
use armada::session::icehouse::{Command, Owed, Session};
use armada_proto::{self as proto, SavedFrame};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::icehouse_table::settings;

/// Both sides of a table and their keys, every frame delivered at once.
struct Table {
    sides: [Session; 2],
    ids: [Identity; 2],
}

impl Table {
    fn new() -> Self {
        let ids = [Identity::generate(), Identity::generate()];
        let secret = [3; 32];
        let host = Session::host(
            ids[0].clone(),
            secret,
            settings(proto::IceSetup::Basic, proto::IceGoal::SinkAll, true),
        );
        let guest = Session::guest(ids[1].clone(), secret);
        let mut table = Self {
            sides: [host, guest],
            ids,
        };
        table.pump();
        table
    }

    fn pump(&mut self) {
        loop {
            let mut any = false;
            for from in 0..2 {
                while let Some(bytes) = self.sides[from].poll_wire() {
                    let _ = self.sides[1 - from].handle_wire(0, &bytes);
                    any = true;
                }
            }
            if !any {
                return;
            }
        }
    }

    fn command(&mut self, seat: Seat, command: Command) {
        self.sides[seat.index()]
            .handle_command(0, command)
            .unwrap_or_else(|e| panic!("{e:?}"));
        self.pump();
    }

    /// The guest lets the host move first (south); the host places and commits.
    fn host_committed(&mut self) {
        self.command(Seat::Guest, Command::Choose(false));
        let Owed::Place(side, fleet, goal) = self.sides[0].owed() else {
            panic!("the host places first: {:?}", self.sides[0].owed());
        };
        let ships = ice::random_placement(
            side,
            fleet.unwrap_or(Fleet::HEAVY),
            goal,
            &mut ChaCha8Rng::seed_from_u64(9),
        );
        self.command(Seat::Host, Command::Place(ships));
        assert_eq!(
            self.sides[1].owed(),
            Owed::Place(ice::Side::North, Some(Fleet::LIGHT), ice::Goal::SinkAll)
        );
    }
}

#[test]
fn a_side_that_leaves_while_the_fleets_are_placed_resigns_and_both_records_agree() {
    let mut table = Table::new();
    table.host_committed();
    table.command(Seat::Guest, Command::Leave("called away".into()));
    let resigned = Verdict::Decided(Outcome {
        winner: Some(Seat::Host),
        reason: Reason::Resigned,
    });
    for side in &table.sides {
        assert_eq!(side.table().verdicts(), vec![resigned.clone()]);
        assert!(side.table().left(Seat::Guest));
    }
    assert_eq!(
        table.sides[0].owed(),
        Owed::Nothing,
        "nobody to play again with"
    );
    for side in &table.sides {
        let report = verify::verify(&side.table().transcript_file());
        assert_eq!(
            report.outcome,
            verify::Outcome::Honest,
            "{}",
            report.to_text()
        );
        assert_eq!(report.icehouse.len(), 1);
        assert!(report.left[Seat::Guest.index()]);
    }
}

#[test]
fn a_saved_placement_damaged_on_disk_is_refused_on_restore_and_never_revealed() {
    let mut table = Table::new();
    table.host_committed();
    let host = &table.sides[0];
    let journal: Vec<SavedFrame> = host
        .table()
        .transcript()
        .iter()
        .map(|(seat, bytes)| SavedFrame {
            from: wire::seat(*seat),
            bytes: bytes.clone(),
        })
        .collect();
    let saved = host.save_state();
    // The honest save restores, its placement still kept to reveal.
    let restored = Session::restore_with(table.ids[0].clone(), &saved, &journal, 0)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        restored.table().transcript_len(),
        host.table().transcript_len()
    );
    // The last byte is the last ship's flagship flag: flipped, the save still
    // decodes, but its placement no longer opens the signed commitment.
    let mut damaged = saved.clone();
    let last = damaged.len() - 1;
    assert_eq!(damaged[last], 0, "a sink-all game has no flagship");
    damaged[last] = 1;
    let refused = Session::restore_with(table.ids[0].clone(), &damaged, &journal, 0);
    assert!(
        matches!(refused, Err(RestoreError::Secrets("placement"))),
        "{:?}",
        refused.err()
    );
    // A save cut short is refused too, with a reason, and nothing panics.
    for cut in [1, saved.len() / 2, saved.len() - 1] {
        assert!(Session::restore_with(table.ids[0].clone(), &saved[..cut], &journal, 0).is_err());
    }
}

#[test]
fn a_damaged_icehouse_save_names_how_much_of_its_transcript_is_intact() {
    let mut table = Table::new();
    table.host_committed();
    // The guest places too, and both sides act: frames only an Icehouse table takes.
    let Owed::Place(side, fleet, goal) = table.sides[1].owed() else {
        panic!("the guest places: {:?}", table.sides[1].owed());
    };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let ships = ice::random_placement(side, fleet.unwrap_or(Fleet::LIGHT), goal, &mut rng);
    table.command(Seat::Guest, Command::Place(ships));
    let mut acted = 0;
    for _ in 0..200 {
        let Some(seat) = [Seat::Host, Seat::Guest]
            .into_iter()
            .find(|s| table.sides[s.index()].owed() == Owed::Act)
        else {
            break;
        };
        let position = table.sides[seat.index()].table().position().cloned();
        let Some(game) = position.as_ref().and_then(|p| p.game()) else {
            break;
        };
        let action = ice::choose(game, ice::Level::Easy, &mut rng);
        table.command(seat, Command::Act(action));
        acted += 1;
        if acted == 12 {
            break;
        }
    }
    assert_eq!(acted, 12, "both sides act");
    let dir = tempfile::tempdir().unwrap();
    let store = armada::store::Store::open(Some(dir.path())).unwrap();
    let host = &table.sides[0];
    store.save(host).unwrap();
    let id = host.table().id();
    let path = store.session_path(&id);
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();

    let error = store
        .restore::<Session>(&id, table.ids[0].clone(), 0)
        .expect_err("a damaged session is refused");
    let damaged = error
        .downcast_ref::<armada::store::Damaged>()
        .unwrap_or_else(|| panic!("a damaged save is named as such, not {error:#}"));
    // Every frame of the transcript is an Icehouse table's, and all of it holds.
    assert!(host.table().transcript_len() > 2);
    assert_eq!(damaged.intact, host.table().transcript_len());
    assert!(
        error
            .to_string()
            .contains(&format!("first {} frames are intact", damaged.intact)),
        "{error}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing was written");
}
