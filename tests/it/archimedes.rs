//! Archimedes' rules from pictures (`x` the first side, `o` the second, the top row
//! first): the start, queen moves, sight, sinking in waves, the end; every example of
//! the source page; and properties over random games.

use armada::archimedes::{
    EndReason, Ending, Move, MoveError, Position, QUIET_LIMIT, Side, parse, render,
};
use armada::rules::{BoardSize, CellSet, Coord};
use proptest::prelude::*;
use rand::SeedableRng as _;

fn at(text: &str) -> Coord {
    Coord::parse(text, BoardSize::STANDARD).unwrap()
}

fn mv(text: &str) -> Move {
    Move::parse(text, BoardSize::STANDARD).unwrap()
}

fn cells(names: &str) -> CellSet {
    let mut set = CellSet::EMPTY;
    for name in names.split_whitespace() {
        set.insert(at(name));
    }
    set
}

/// That `played` ended the game with `winner` (`None`: a draw) for `reason`.
fn assert_ends(played: &armada::archimedes::Played, winner: Option<Side>, reason: EndReason) {
    assert_eq!(played.ending, Some(Ending { winner, reason }), "{played:?}");
}

fn position(picture: &str) -> Position {
    parse(picture, Side::First).unwrap()
}

/// The cells of the ships that sank in each wave, in board order.
fn waves(played: &armada::archimedes::Played) -> Vec<Vec<String>> {
    played
        .waves
        .iter()
        .map(|wave| wave.iter().map(|s| s.cell.to_string()).collect())
        .collect()
}

#[test]
fn each_fleet_starts_as_the_triangle_in_its_corner() {
    for (side, first, count) in [
        (6, "B1 C1 A2 B2 C2 A3 B3", 7),
        (8, "B1 C1 D1 A2 B2 C2 D2 A3 B3 C3 A4 B4", 12),
        (
            10,
            "B1 C1 D1 E1 A2 B2 C2 D2 E2 A3 B3 C3 D3 A4 B4 C4 A5 B5",
            18,
        ),
    ] {
        let start = Position::start(side).unwrap();
        assert_eq!(start.ships(Side::First), cells(first), "{side}");
        assert_eq!(start.count(Side::First), count);
        assert_eq!(start.count(Side::Second), count);
        // The second fleet is the first's mirror through the centre.
        let n = side - 1;
        for c in &start.ships(Side::First) {
            let mirror = Coord::new(n - c.col(), n - c.row()).unwrap();
            assert_eq!(start.at(mirror), Some(Side::Second), "{side}: {mirror}");
        }
        assert_eq!(start.mover(), Side::First);
        assert_eq!(start.ending(), None);
        // Nothing sinks before the first move: no ship sees three enemies.
        for c in start
            .ships(Side::First)
            .iter()
            .chain(start.ships(Side::Second).iter())
        {
            assert!(start.watchers(c).len() < 3, "{side}: {c}");
        }
    }
    for side in [0, 5, 7, 9, 12] {
        assert!(Position::start(side).is_err(), "{side}");
    }
}

#[test]
fn a_ship_moves_like_a_queen_through_empty_cells_only() {
    let mut p = position(
        "
        x . . . . .
        . . . . . .
        . . o . . .
        . . . . . .
        . x . . . .
        x . . o o o
        ",
    );
    assert_eq!(
        p.reach(at("B2")),
        cells("A2 C2 D2 E2 F2 B1 B3 B4 B5 B6 A3 C3 D4 E5 F6 C1"),
        "A1 holds a ship: nothing down-left"
    );
    let before = p.clone();
    for (m, error) in [
        ("B2-B2", MoveError::Still),
        ("B2-C4", MoveError::NotALine(mv("B2-C4"))),
        ("A1-D4", MoveError::Blocked(at("B2"))),
        ("A1-B2", MoveError::Taken(at("B2"))),
        ("D1-D2", MoveError::NotYours(at("D1"))),
        ("C6-C5", MoveError::Empty(at("C6"))),
    ] {
        assert_eq!(p.check(mv(m)), Err(error.clone()), "{m}");
        assert_eq!(p.play(mv(m)), Err(error), "{m}");
        assert_eq!(p, before, "a refused move changes nothing");
    }
    let played = p.play(mv("B2-E5")).unwrap();
    assert!(played.waves.is_empty());
    assert_eq!(p.at(at("E5")), Some(Side::First));
    assert_eq!(p.at(at("B2")), None);
    assert_eq!(p.mover(), Side::Second);
    assert_eq!((p.moves(), p.quiet()), (1, 1));
    // Moving straight back is allowed.
    p.play(mv("E1-E2")).unwrap();
    p.play(mv("E5-B2")).unwrap();
    assert_eq!(p.at(at("B2")), Some(Side::First));
}

#[test]
fn a_ship_sees_the_first_ship_on_each_of_its_eight_lines() {
    let p = position(
        "
        o . . o . .
        . . . . . .
        . . . x o .
        o . . . . .
        . x o . . .
        o . . o . o
        ",
    );
    let seen = p.seen(at("D4")).fold(CellSet::EMPTY, |mut s, c| {
        s.insert(c);
        s
    });
    // Right, up, down and down-left; left and the other diagonals run to the edge.
    assert_eq!(seen, cells("E4 D6 D1 B2"));
    // Any ship blocks the view beyond it: B2 (its own side) hides A1.
    let mut watchers = p.watchers(at("D4"));
    watchers.sort();
    assert_eq!(watchers, [at("D1"), at("E4"), at("D6")]);
    assert!(
        p.watchers(at("C5")).is_empty(),
        "an empty cell has no sight"
    );
}

/// The source: "you can sink an enemy ship by bringing a third ship of yours onto
/// its lines".
#[test]
fn a_third_ship_brought_onto_a_line_sinks_the_enemy() {
    let mut p = position(
        "
        o o . . x .
        . . . . . .
        . . . . . .
        x . o . . .
        . . . . . .
        . . x . . .
        ",
    );
    assert_eq!(p.watchers(at("C3")).len(), 2, "two are not enough");
    let played = p.play(mv("E6-E5")).unwrap();
    assert_eq!(waves(&played), [["C3"]]);
    let sunk = &played.waves[0][0];
    assert_eq!(sunk.side, Side::Second);
    assert_eq!(
        sunk.by
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>(),
        [at("A3"), at("C1"), at("E5")].into()
    );
    assert_eq!(p.at(at("C3")), None);
    assert_eq!(p.quiet(), 0);
    // Two ships left: the second side has lost.
    assert_ends(&played, Some(Side::First), EndReason::Fleet);
    assert_eq!(p.play(mv("A3-A4")), Err(MoveError::Over));
}

/// The source: "your ship placed on a cell three enemy ships watch sinks at once".
#[test]
fn a_ship_moved_onto_a_cell_three_enemies_watch_sinks_at_once() {
    let mut p = position(
        "
        . . o . . .
        o . . . . .
        . . . . . .
        . . . . . o
        . . . . . .
        x x x x . .
        ",
    );
    let played = p.play(mv("C1-C3")).unwrap();
    assert_eq!(waves(&played), [["C3"]]);
    assert_eq!(played.waves[0][0].side, Side::First);
    assert_eq!(p.count(Side::First), 3);
    assert_eq!(played.ending, None, "three ships are enough to play on");
    assert_eq!(p.quiet(), 0, "a suicide is a sinking too");
}

/// The source: "moving a ship off a line can open it, and a ship sinks, yours or
/// theirs".
#[test]
fn a_ship_moved_away_opens_a_line_against_its_own_side() {
    let mut p = position(
        "
        . . . . . .
        . . o . o .
        . . . . . .
        o x x . . .
        . . . . . .
        . . . . x x
        ",
    );
    let played = p.play(mv("B3-B2")).unwrap();
    assert_eq!(waves(&played), [["C3"]]);
    assert_eq!(played.waves[0][0].side, Side::First);
    assert_eq!(played.ending, None);
}

/// The source: "all ships that qualify are removed at the same time, even one that
/// helped sink another".
#[test]
fn a_ship_that_helped_sink_another_sinks_in_the_same_wave() {
    let mut p = position(
        "
        o o . . . o
        . . . . . o
        . . . . . .
        x . o . . .
        . . . . x .
        . . x . . .
        ",
    );
    let played = p.play(mv("E2-E5")).unwrap();
    // E5 is one of C3's three, and C3 one of E5's: both go in one wave.
    assert_eq!(waves(&played), [["C3", "E5"]]);
    let e5 = played.waves[0].iter().find(|s| s.cell == at("E5")).unwrap();
    assert!(e5.by.contains(&at("C3")));
    let c3 = played.waves[0].iter().find(|s| s.cell == at("C3")).unwrap();
    assert!(c3.by.contains(&at("E5")));
    // The mover's own move left it two ships: it has lost.
    assert_ends(&played, Some(Side::Second), EndReason::Fleet);
}

/// The source: "their removal can open new lines, so the check repeats until nothing
/// more sinks" — one move sinks ships of both sides, in two waves (a position from
/// `armada demo --game archimedes --match easy:easy --seed 118`, move 6).
#[test]
fn a_cascade_sinks_ships_of_both_sides_in_two_waves() {
    let mut p = parse(
        "
        . . . o o .
        . . . o o o
        o . . . . .
        x . . . . .
        x x . . o .
        x . x . . .
        ",
        Side::Second,
    )
    .unwrap();
    let played = p.play(mv("D5-B3")).unwrap();
    // Wave 1: the arriving B3 is the third for B2 and A3, and they with A2 are three
    // for B3, which sinks with them. Wave 2: with B2 and A3 gone, A2 sees E2 and A4,
    // and E6 past where B3 stood.
    assert_eq!(waves(&played), [vec!["B2", "A3", "B3"], vec!["A2"]]);
    let sides: Vec<Side> = played.waves[0].iter().map(|s| s.side).collect();
    assert_eq!(sides, [Side::First, Side::First, Side::Second]);
    assert_eq!(played.waves[1][0].by.len(), 3);
    assert_ends(&played, Some(Side::Second), EndReason::Fleet);
}

#[test]
fn both_fleets_below_three_after_one_move_is_a_draw() {
    let mut p = position(
        "
        . . . . . o
        . . . . . o
        . . . . . .
        x . o . . .
        . . . . x .
        . . x . . .
        ",
    );
    let played = p.play(mv("E2-E5")).unwrap();
    assert_eq!(waves(&played), [["C3", "E5"]]);
    assert_ends(&played, None, EndReason::Fleet);
}

#[test]
fn a_side_without_a_legal_move_loses() {
    // Not a position a game reaches (the walls would sink), so the rule is checked
    // as the end judges a position: the second side to move, walled in.
    let p = parse(
        "
        . . . x o o
        . . . x x o
        . . . . x x
        . . . . . .
        . . . . . .
        . . . . . .
        ",
        Side::Second,
    )
    .unwrap();
    assert!(p.stuck());
    assert_eq!(
        p.judge(),
        Some(Ending {
            winner: Some(Side::First),
            reason: EndReason::NoMove
        })
    );
    // The first side to move is not stuck, and nothing ends.
    let free = parse(&render(&p), Side::First).unwrap();
    assert!(!free.stuck());
    assert_eq!(free.judge(), None);
}

#[test]
fn fifty_moves_without_a_sinking_end_the_game_for_the_larger_fleet() {
    let larger = position(
        "
        o . . . . o
        . . . . . .
        . . . o . .
        . . . . . .
        . . . . . .
        x x . x . x
        ",
    )
    .with_quiet(QUIET_LIMIT - 1);
    let mut p = larger.clone();
    let played = p.play(mv("B1-B2")).unwrap();
    assert!(played.waves.is_empty(), "{}", render(&p));
    assert_ends(&played, Some(Side::First), EndReason::Quiet);
    // One move earlier the game goes on.
    let mut p = larger.with_quiet(QUIET_LIMIT - 2);
    assert_eq!(p.play(mv("B1-B2")).unwrap().ending, None);
    assert_eq!(p.quiet(), QUIET_LIMIT - 1);
}

#[test]
fn fifty_quiet_moves_with_equal_fleets_are_a_draw() {
    let mut p = position(
        "
        o . . . . o
        . . . . . .
        . . . o . .
        . . . . . .
        . . . . . .
        x x . . . x
        ",
    )
    .with_quiet(QUIET_LIMIT - 1);
    let played = p.play(mv("B1-B2")).unwrap();
    assert!(played.waves.is_empty(), "{}", render(&p));
    assert_ends(&played, None, EndReason::Quiet);
}

#[test]
fn either_side_may_resign_on_either_turn() {
    for side in Side::BOTH {
        let mut p = Position::start(6).unwrap();
        let ending = p.resign(side).unwrap();
        assert_eq!(ending.winner, Some(side.other()));
        assert_eq!(ending.reason, EndReason::Resigned);
        assert_eq!(p.ending(), Some(ending));
        assert_eq!(p.resign(side.other()), Err(MoveError::Over));
        assert!(p.legal_moves().is_empty());
    }
}

#[test]
fn moves_and_pictures_read_back_what_they_print() {
    let start = Position::start(8).unwrap();
    assert_eq!(parse(&render(&start), Side::First).unwrap(), start);
    for text in ["B1-B4", "b1 b4", " B1–B4 "] {
        assert_eq!(
            mv(text),
            Move {
                from: at("B1"),
                to: at("B4")
            }
        );
    }
    for bad in ["", "B1", "B1-B4-B5", "Z1-B2", "B1-B11"] {
        assert!(
            Move::parse(bad, BoardSize::new(8).unwrap()).is_err(),
            "{bad:?}"
        );
    }
    assert!(parse(". .\n. .", Side::First).is_err());
    assert!(parse(&"x . . . . .\n".repeat(5), Side::First).is_err());
}

/// Plays `n` random legal moves from the start of a `side` board, checking after
/// each what every position must hold.
fn random_game(side: u8, seed: u64, n: usize) {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut p = Position::start(side).unwrap();
    for _ in 0..n {
        let moves = p.legal_moves();
        if p.is_over() {
            assert!(moves.is_empty());
            return;
        }
        assert!(!moves.is_empty(), "a fleet without a move:\n{}", render(&p));
        // A refused move changes nothing.
        let before = p.clone();
        let (from, to) = (rng.random_range(0..side), rng.random_range(0..side));
        let wild = Move {
            from: Coord::new(from, rng.random_range(0..side)).unwrap(),
            to: Coord::new(to, rng.random_range(0..side)).unwrap(),
        };
        if p.check(wild).is_err() {
            assert!(p.play(wild).is_err());
            assert_eq!(p, before);
        } else {
            assert!(moves.contains(&wild));
        }
        let m = moves[rng.random_range(0..moves.len())];
        let counts = Side::BOTH.map(|s| p.count(s));
        let played = p.play(m).unwrap();
        let sunk = played.sunk().count();
        assert_eq!(
            counts.iter().sum::<usize>() - sunk,
            Side::BOTH.map(|s| p.count(s)).iter().sum::<usize>()
        );
        // Stable: no ship left sees three enemies; every sunk one was seen by three.
        for s in Side::BOTH {
            for c in &p.ships(s) {
                assert!(p.watchers(c).len() < 3, "{c} stays:\n{}", render(&p));
            }
        }
        assert!(played.sunk().all(|s| s.by.len() >= 3));
        assert_eq!(p.quiet() == 0, sunk > 0 || p.moves() == 0);
        assert_eq!(p.ending(), played.ending);
    }
}

#[test]
fn random_games_keep_every_invariant() {
    for (side, seed) in [(6, 1), (6, 2), (8, 3), (10, 4)] {
        random_game(side, seed, 400);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_sequence_of_legal_moves_keeps_the_invariants(seed in any::<u64>(), side in prop::sample::select(vec![6u8, 8, 10])) {
        random_game(side, seed, 200);
    }
}

/// Every level plays a winning move it sees — Easy too, whose moves are otherwise a
/// third random.
#[test]
fn every_level_plays_a_winning_move_it_sees() {
    use armada::archimedes::{Level, choose};
    let p = position(
        "
        o o . . x .
        . . . . . .
        . . . . . .
        x . o . . .
        . . . . . .
        . . x . . .
        ",
    );
    for level in Level::ALL {
        for seed in 0..20 {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
            let m = choose(&p, level, &mut rng).unwrap();
            let mut next = p.clone();
            let played = next.play(m).unwrap();
            assert_eq!(
                played.ending.and_then(|e| e.winner),
                Some(Side::First),
                "{level} seed {seed} played {m}"
            );
        }
    }
}

/// The computer's moves are legal, the same for the same seed, and it has none
/// once the game is over.
#[test]
fn the_computer_moves_legally_and_the_same_for_the_same_seed() {
    use armada::archimedes::{Level, choose};
    for level in Level::ALL {
        // Insane thinks longest: its first moves are enough to compare.
        let limit = if level == Level::Insane { 6 } else { 300 };
        let play = |seed: u64| {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
            let mut p = Position::start(6).unwrap();
            let mut moves = Vec::new();
            while !p.is_over() && moves.len() < limit {
                let m = choose(&p, level, &mut rng).unwrap();
                assert!(p.legal_moves().contains(&m), "{level}: {m}");
                p.play(m).unwrap();
                moves.push(m);
            }
            if limit == 300 {
                assert!(p.is_over(), "{level}: 300 moves without an end");
                assert_eq!(choose(&p, level, &mut rng), None);
            }
            moves
        };
        assert_eq!(play(7), play(7), "{level}");
    }
}

/// The levels are ordered: over a dozen 6×6 games with seats alternating (four for
/// Insane), each level wins more than it loses against the one below (fixed seeds;
/// the figures for the targets come from `armada bench-ai --game archimedes`).
#[test]
fn each_level_beats_the_one_below_more_often_than_not() {
    use armada::archimedes::{Level, choose};
    for pair in Level::ALL.windows(2) {
        let (lower, upper) = (pair[0], pair[1]);
        let (mut won, mut lost) = (0, 0);
        // Insane's games are the slow ones: fewer of them.
        let games = if upper == Level::Insane { 4 } else { 12 };
        for game in 0..games {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(game);
            let upper_side = if game % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut p = Position::start(6).unwrap();
            while !p.is_over() {
                let level = if p.mover() == upper_side {
                    upper
                } else {
                    lower
                };
                let m = choose(&p, level, &mut rng).unwrap();
                p.play(m).unwrap();
            }
            match p.ending().unwrap().winner {
                Some(w) if w == upper_side => won += 1,
                Some(_) => lost += 1,
                None => {}
            }
        }
        assert!(
            won > lost,
            "{upper} against {lower}: won {won}, lost {lost}"
        );
    }
}
