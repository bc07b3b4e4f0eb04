//! Two honest sessions in memory play whole tables.

use armada::fair::table::Verdict;
use armada::rules::{Seat, Variant};

use crate::pair::Pair;

fn honest(verdicts: &[Verdict; 2]) {
    assert_eq!(
        verdicts[0], verdicts[1],
        "both sides reach the same verdict"
    );
    assert!(
        matches!(verdicts[0], Verdict::Honest(_)),
        "{:?}",
        verdicts[0]
    );
}

#[test]
fn one_armada_game_ends_honest_on_both_sides() {
    let mut pair = Pair::new(Variant::Armada, false, 1);
    let verdicts = pair.play_game();
    honest(&verdicts);
    assert_eq!(pair.host.score(), pair.guest.score());
    assert_eq!(pair.host.score().iter().sum::<u32>(), 2);
    assert_eq!(
        pair.host.table().transcript().len(),
        pair.guest.table().transcript().len()
    );
    let _ = Seat::Host;
}

#[test]
fn a_table_of_many_games_stays_honest_and_swaps_the_first_mover() {
    let mut pair = Pair::new(Variant::Armada, false, 2);
    let games = 20;
    for game in 0..games {
        let verdicts = pair.play_game();
        honest(&verdicts);
        let first = pair.host.table().history().first().map(|p| p.seat);
        let expected = if game % 2 == 0 {
            Seat::Host
        } else {
            Seat::Guest
        };
        assert_eq!(
            first,
            Some(expected),
            "game {game}: the first mover alternates"
        );
        if game + 1 < games {
            pair.play_again();
        }
    }
    assert_eq!(pair.host.score(), pair.guest.score());
    assert_eq!(pair.host.score().iter().sum::<u32>(), 2 * games);
    assert_eq!(pair.host.table().verdicts().len(), games as usize);
}

/// Plays `games` complete games at one table and checks each ends honest on both sides,
/// with every weapon used along the way.
fn honest_table(seed: u64, games: u32) {
    let mut pair = Pair::new(Variant::Armada, false, seed);
    let mut used = [0u32; 4];
    for game in 0..games {
        honest(&pair.play_game());
        for played in pair.host.table().history() {
            used[match played.action {
                armada::rules::Action::Shot(_) => 0,
                armada::rules::Action::Torpedo(_) => 1,
                armada::rules::Action::AirStrike(_) => 2,
                armada::rules::Action::Radar(_) => 3,
            }] += 1;
        }
        if game + 1 < games {
            pair.play_again();
        }
    }
    assert!(
        used.iter().all(|&n| n > games),
        "every weapon used, many times: {used:?}"
    );
    let verified = armada::fair::verify::verify(&pair.guest.table().transcript_file());
    assert_eq!(verified.outcome, armada::fair::verify::Outcome::Honest);
    assert_eq!(verified.games.len(), games as usize);
}

// A thousand games in four tables, so the test runner can spread them over cores.
#[test]
fn a_thousand_games_end_honest_table_1() {
    honest_table(101, 250);
}

#[test]
fn a_thousand_games_end_honest_table_2() {
    honest_table(102, 250);
}

#[test]
fn a_thousand_games_end_honest_table_3() {
    honest_table(103, 250);
}

#[test]
fn a_thousand_games_end_honest_table_4() {
    honest_table(104, 250);
}
