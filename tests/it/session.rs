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
