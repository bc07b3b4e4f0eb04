//! Two honest sessions in memory play whole tables.

use armada::rules::{Seat, Variant};
use armada::session::table::Verdict;

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
