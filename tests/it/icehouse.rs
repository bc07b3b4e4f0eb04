//! Icehouse Armada's rules on constructed positions — every rule and refusal of
//! ICEHOUSE.md, exact contact cases included — and random games that never break
//! the table's invariants.

use armada::icehouse::{
    Action, Broadside, EndReason, Fleet, FleetError, Game, Goal, Level, Placed, PlacementError,
    Point, Pose, Refusal, Setup, Shot, Side, Size, Squadron, Step, Steps, check_placement,
    check_points, choose, find_shot, nearest_step, random_placement, step_at,
};
use proptest::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

fn p(x: i64, y: i64) -> Point {
    Point::new(x, y)
}

/// A ship of `size` with its stern at (x, y), heading north.
fn north(size: Size, x: i64, y: i64) -> Placed {
    Placed {
        size,
        pose: Pose::new(p(x, y), p(x, y + size.slant())),
        flagship: false,
    }
}

/// A ship of `size` with its stern at (x, y), heading west.
fn west(size: Size, x: i64, y: i64) -> Placed {
    Placed {
        size,
        pose: Pose::new(p(x, y), p(x - size.slant(), y)),
        flagship: false,
    }
}

fn flag(mut placed: Placed) -> Placed {
    placed.flagship = true;
    placed
}

fn table(goal: Goal, south: &[Placed], north: &[Placed]) -> Game {
    Game::arranged(goal, [south, north]).expect("a legal position")
}

fn mv(ship: u8, bows: &[Point]) -> Action {
    Action::Move {
        ship,
        steps: Steps::new(bows).unwrap(),
    }
}

/// Plays `action`, asserting a refusal leaves the game exactly as it was.
fn refused(game: &mut Game, action: Action) -> Refusal {
    let before = game.clone();
    let refusal = game.play(action).expect_err("refused");
    assert_eq!(*game, before, "a refusal changed the game");
    refusal
}

#[test]
fn a_step_lays_the_stern_on_the_old_bow() {
    let mut game = table(
        Goal::SinkAll,
        &[north(Size::Small, 100_000, 100_000)],
        &[north(Size::Small, 800_000, 500_000)],
    );
    let played = game.play(mv(0, &[p(100_000, 152_770)])).unwrap();
    assert!(!played.turn_ended);
    let ship = game.ships(Side::South)[0];
    assert_eq!(
        ship.pose,
        Pose::new(p(100_000, 126_385), p(100_000, 152_770))
    );
    assert_eq!(game.actions_left(), 2);
    assert_eq!(
        refused(&mut game, mv(0, &[p(100_000, 179_155)])),
        Refusal::Moved { ship: ship.name }
    );
}

#[test]
fn a_turn_of_thirty_degrees_is_a_step_and_ninety_or_reversing_is_not() {
    for size in Size::ALL {
        let mut game = table(
            Goal::SinkAll,
            &[north(size, 300_000, 200_000)],
            &[north(Size::Small, 800_000, 500_000)],
        );
        let from = game.ships(Side::South)[0].pose;
        let deg = |d: f64| (90.0 - d).to_radians();
        for turn in [30.0, -30.0, 70.0, -70.0] {
            let next = step_at(from, size, deg(turn));
            assert_eq!(
                game.check_step(0, from, next.bow),
                Ok(Step::Lays),
                "{size:?} {turn}°"
            );
        }
        for turn in [80.0, -80.0, 90.0, 180.0] {
            let next = step_at(from, size, deg(turn));
            assert_eq!(
                game.check_step(0, from, next.bow),
                Err(Refusal::StepTurnsBack { step: 1 }),
                "{size:?} {turn}°"
            );
        }
        // Reversing takes three steps: 75° at most each.
        let first = step_at(from, size, deg(-70.0));
        let second = step_at(first, size, deg(-140.0));
        let third = step_at(second, size, deg(-180.0));
        if size == Size::Small {
            game.play(mv(0, &[first.bow, second.bow, third.bow]))
                .unwrap();
            let heading = game.ships(Side::South)[0].pose;
            assert!(
                heading.bow.y < heading.stern.y,
                "the small ship now heads south"
            );
        }
    }
}

#[test]
fn a_step_that_shares_one_point_with_a_ship_touches_it_and_one_micrometre_clears_it() {
    // A large ship steps straight north: its new bow is (200 000, 192 458). A small
    // ship's port corner lies exactly there, then one micrometre east.
    let large = north(Size::Large, 200_000, 100_000);
    let step = mv(0, &[p(200_000, 192_458)]);
    for side in Side::BOTH {
        let other = north(Size::Small, 207_144, 192_458);
        assert_eq!(other.pose.corners(Size::Small).0, p(200_000, 192_458));
        let far = north(Size::Small, 800_000, 500_000);
        let (south, northern) = match side {
            Side::South => (vec![large, other], vec![far]),
            Side::North => (vec![large], vec![other]),
        };
        let mut game = table(Goal::SinkAll, &south, &northern);
        assert!(matches!(
            refused(&mut game, step),
            Refusal::StepTouches { step: 1, side: s, size: "small", .. } if s == side
        ));
        let clear = north(Size::Small, 207_145, 192_458);
        let (south, northern) = match side {
            Side::South => (vec![large, clear], vec![far]),
            Side::North => (vec![large], vec![clear]),
        };
        let mut game = table(Goal::SinkAll, &south, &northern);
        game.play(step).unwrap();
    }
}

#[test]
fn a_step_crossing_a_ship_is_refused_and_names_it() {
    let mut game = table(
        Goal::SinkAll,
        &[north(Size::Large, 200_000, 100_000)],
        &[west(Size::Medium, 230_000, 170_000)],
    );
    let refusal = refused(&mut game, mv(0, &[p(200_000, 192_458)]));
    assert_eq!(
        refusal.to_string(),
        "step 1 touches north's medium ship M1 at 193.693,170.000"
    );
}

#[test]
fn off_the_table_is_checked_first_and_the_edge_is_contact() {
    let mut game = table(
        Goal::SinkAll,
        &[
            north(Size::Large, 886_000, 300_000),
            north(Size::Small, 100_000, 100_000),
        ],
        &[north(Size::Small, 100_000, 500_000)],
    );
    // The bow on the edge itself: a point of the table rectangle, a corner not
    // strictly inside.
    let to_edge = mv(0, &[p(900_000, 390_287)]);
    assert_eq!(
        refused(&mut game, to_edge),
        Refusal::StepOffTable { step: 1 }
    );
    assert_eq!(
        refused(&mut game, mv(0, &[p(909_114, 386_229)])),
        Refusal::OffTable {
            at: p(909_114, 386_229)
        }
    );
    // After the small ship moved, an off-table point is still what is named first.
    game.play(mv(1, &[p(100_000, 152_770)])).unwrap();
    assert_eq!(
        refused(&mut game, mv(1, &[p(100_000, -1)])),
        Refusal::OffTable { at: p(100_000, -1) }
    );
    // A step of the wrong length.
    assert!(matches!(
        refused(&mut game, mv(0, &[p(886_000, 346_229 + 46_232)])),
        Refusal::StepLength { step: 1, .. }
    ));
}

#[test]
fn each_size_takes_its_own_number_of_steps() {
    let mut game = table(
        Goal::SinkAll,
        &[
            north(Size::Large, 600_000, 100_000),
            north(Size::Small, 100_000, 100_000),
        ],
        &[north(Size::Small, 800_000, 500_000)],
    );
    let large = game.ships(Side::South)[0].name;
    assert_eq!(
        refused(
            &mut game,
            mv(0, &[p(600_000, 192_458), p(600_000, 238_687)])
        ),
        Refusal::TooManySteps {
            ship: large,
            steps: 2,
            max: 1
        }
    );
    let four: Vec<Point> = (2..=5).map(|k| p(100_000, 100_000 + k * 26_385)).collect();
    game.play(mv(1, &four)).unwrap();
    assert_eq!(game.ships(Side::South)[1].pose.bow, p(100_000, 231_925));
    assert!(
        Steps::new(&[p(1, 1); 5]).is_none(),
        "five steps cannot be said"
    );
}

#[test]
fn a_turn_is_up_to_three_actions_and_may_be_ended_at_any_time() {
    let mut game = table(
        Goal::SinkAll,
        &[
            north(Size::Small, 100_000, 100_000),
            north(Size::Small, 200_000, 100_000),
            north(Size::Small, 300_000, 100_000),
            north(Size::Small, 400_000, 100_000),
        ],
        &[north(Size::Small, 800_000, 500_000)],
    );
    assert_eq!(game.to_move(), Side::South);
    for (i, x) in [100_000, 200_000].into_iter().enumerate() {
        game.play(mv(i as u8, &[p(x, 152_770)])).unwrap();
    }
    assert_eq!(game.actions_left(), 1);
    let third = game.play(mv(2, &[p(300_000, 152_770)])).unwrap();
    assert!(third.turn_ended);
    assert_eq!(game.to_move(), Side::North);
    assert_eq!(game.actions_left(), 3);
    // North passes at once; south's ships may move again.
    assert!(game.play(Action::EndTurn).unwrap().turn_ended);
    assert_eq!(game.to_move(), Side::South);
    game.play(mv(0, &[p(100_000, 179_155)])).unwrap();
    assert_eq!(game.turn(), 3);
}

/// The point `pct` percent of the way from the middle of the port field's base (the
/// large pyramid in the middle of the side) to its tip.
fn in_field(shooter: Placed, pct: i64) -> Point {
    let o = shooter.size.max_offset() / 2;
    let field = shooter.pose.field(shooter.size, Broadside::Port, o);
    let (q0, q1) = field.base;
    let mid = p(i64::midpoint(q0.x, q1.x), i64::midpoint(q0.y, q1.y));
    p(
        mid.x + (field.tip.x - mid.x) * pct / 100,
        mid.y + (field.tip.y - mid.y) * pct / 100,
    )
}

/// South's large ship heading north at (450 000, 300 000), a north small ship in
/// its port field, and another north ship far away.
fn duel() -> (Game, Shot) {
    let shooter = north(Size::Large, 450_000, 300_000);
    let at = in_field(shooter, 55);
    let target = west(Size::Small, at.x, at.y);
    let game = table(
        Goal::SinkAll,
        &[shooter],
        &[target, north(Size::Medium, 800_000, 500_000)],
    );
    let shot = find_shot(&game, 0, Some(Broadside::Port), 0).expect("a clear line");
    (game, shot)
}

#[test]
fn a_broadside_into_the_field_hits_and_sinks_a_small_ship() {
    let (mut game, shot) = duel();
    assert_eq!(find_shot(&game, 0, Some(Broadside::Starboard), 0), None);
    let wrong_side = Shot {
        side: Broadside::Starboard,
        ..shot
    };
    let target = game.ships(Side::North)[0].name;
    assert_eq!(
        refused(&mut game, Action::Fire(wrong_side)),
        Refusal::NotInField {
            target,
            at: shot.at
        }
    );
    let off_target = Shot {
        at: p(450_000, 300_000),
        ..shot
    };
    assert_eq!(
        refused(&mut game, Action::Fire(off_target)),
        Refusal::NotOnTarget {
            target,
            at: p(450_000, 300_000)
        }
    );
    let o_max = Size::Large.max_offset();
    assert!(matches!(
        refused(&mut game, Action::Fire(Shot { o: o_max + 1, ..shot })),
        Refusal::OffsetRange { o, max, .. } if o == o_max + 1 && max == 22_541
    ));
    assert_eq!(
        refused(&mut game, Action::Fire(Shot { j: 1001, ..shot })),
        Refusal::OriginRange(1001)
    );
    let played = game.play(Action::Fire(shot)).unwrap();
    let hit = played.hit.unwrap();
    assert!(hit.sunk && hit.target == target);
    assert_eq!(played.ending, None, "north still has its medium ship");
    assert_eq!(
        refused(&mut game, Action::Fire(shot)),
        Refusal::Sunk { ship: target }
    );
    assert_eq!(game.strength(Side::North), 2);
}

#[test]
fn a_line_of_fire_grazing_a_ship_is_blocked_and_one_micrometre_away_is_clear() {
    let (game, shot) = duel();
    let shooter = game.ships(Side::South)[0];
    let field = shooter.pose.field(Size::Large, shot.side, shot.o);
    let from = field.origin(shot.j);
    let target = game.ships(Side::North)[0].footprint();
    // An end whose midpoint with the start is an integer point.
    let at = [(0, 0), (1, 0), (0, 1), (1, 1)]
        .into_iter()
        .map(|(dx, dy)| p(shot.at.x + dx, shot.at.y + dy))
        .find(|a| {
            (a.x - from.x) % 2 == 0
                && (a.y - from.y) % 2 == 0
                && target.contains(*a)
                && field.triangle().contains(*a)
        })
        .expect("an end of even parity");
    let shot = Shot { at, ..shot };
    let mid = p(i64::midpoint(from.x, at.x), i64::midpoint(from.y, at.y));
    // A small ship with its bow exactly on the line, heading straight at it.
    let d = ((at.x - from.x) as f64, (at.y - from.y) as f64);
    let len = (d.0 * d.0 + d.1 * d.1).sqrt();
    let mut cases = 0;
    for sign in [1.0, -1.0] {
        let away = (-d.1 / len * sign, d.0 / len * sign);
        let s = Size::Small.slant() as f64;
        let stern = p(
            mid.x + (away.0 * s).round() as i64,
            mid.y + (away.1 * s).round() as i64,
        );
        let blocker = Placed {
            size: Size::Small,
            pose: Pose::new(stern, mid),
            flagship: false,
        };
        let ships = game.ships(Side::North);
        let north_ships = [
            Placed {
                size: Size::Small,
                pose: ships[0].pose,
                flagship: false,
            },
            Placed {
                size: Size::Medium,
                pose: ships[1].pose,
                flagship: false,
            },
        ];
        let Ok(mut blocked) = Game::arranged(
            Goal::SinkAll,
            [
                &[north(Size::Large, 450_000, 300_000), blocker],
                &north_ships,
            ],
        ) else {
            continue;
        };
        cases += 1;
        let refusal = refused(&mut blocked, Action::Fire(shot));
        assert!(
            matches!(
                refusal,
                Refusal::Blocked {
                    side: Side::South,
                    size: "small",
                    ..
                }
            ),
            "{refusal}"
        );
        let nudge = if away.0.abs() >= away.1.abs() {
            p(away.0.signum() as i64, 0)
        } else {
            p(0, away.1.signum() as i64)
        };
        let moved = Placed {
            pose: Pose::new(
                p(stern.x + nudge.x, stern.y + nudge.y),
                p(mid.x + nudge.x, mid.y + nudge.y),
            ),
            ..blocker
        };
        let mut clear = Game::arranged(
            Goal::SinkAll,
            [&[north(Size::Large, 450_000, 300_000), moved], &north_ships],
        )
        .unwrap();
        clear.play(Action::Fire(shot)).unwrap();
    }
    assert!(cases > 0, "no blocker could be laid on the line");
}

#[test]
fn each_ship_fires_as_many_times_a_turn_as_it_has_pips_and_a_large_ship_takes_three() {
    let shooter = north(Size::Large, 450_000, 300_000);
    let at = in_field(shooter, 60);
    let mut game = table(
        Goal::SinkAll,
        &[shooter],
        &[
            west(Size::Large, at.x + 5_000, at.y),
            north(Size::Small, 800_000, 500_000),
        ],
    );
    let shot = find_shot(&game, 0, None, 0).expect("a line");
    for hit in 1..=3u8 {
        let played = game.play(Action::Fire(shot)).unwrap();
        assert_eq!(played.hit.unwrap().sunk, hit == 3);
        assert_eq!(played.turn_ended, hit == 3);
    }
    // A small ship fires once a turn and no more.
    let small = north(Size::Small, 450_000, 300_000);
    let at = in_field(small, 60);
    let mut game = table(
        Goal::SinkAll,
        &[small],
        &[
            west(Size::Medium, at.x + 2_000, at.y),
            north(Size::Small, 800_000, 500_000),
        ],
    );
    let shot = find_shot(&game, 0, None, 0).expect("a line from the small ship");
    game.play(Action::Fire(shot)).unwrap();
    let name = game.ships(Side::South)[0].name;
    assert_eq!(
        refused(&mut game, Action::Fire(shot)),
        Refusal::NoShotLeft {
            ship: name,
            pips: 1
        }
    );
}

#[test]
fn sinking_the_last_ship_wins() {
    let shooter = north(Size::Large, 450_000, 300_000);
    let at = in_field(shooter, 55);
    let mut game = table(
        Goal::SinkAll,
        &[shooter],
        &[west(Size::Medium, at.x + 3_000, at.y)],
    );
    let shot = find_shot(&game, 0, None, 0).expect("a line");
    game.play(Action::Fire(shot)).unwrap();
    let last = game.play(Action::Fire(shot)).unwrap();
    assert_eq!(
        last.ending.map(|e| (e.winner, e.reason)),
        Some((Some(Side::South), EndReason::AllSunk))
    );
    assert_eq!(refused(&mut game, Action::EndTurn), Refusal::Over);
}

#[test]
fn ramming_the_enemy_flagship_wins_and_touching_ones_own_is_refused() {
    let large = north(Size::Large, 200_000, 100_000);
    let step = mv(0, &[p(200_000, 192_458)]);
    let target = flag(north(Size::Small, 207_144, 192_458));
    let mut game = table(
        Goal::Flagship,
        &[large, flag(north(Size::Small, 600_000, 50_000))],
        &[target],
    );
    let played = game.play(step).unwrap();
    assert_eq!(
        played.ending.map(|e| (e.winner, e.reason)),
        Some((Some(Side::South), EndReason::Rammed))
    );
    // A small ship rams on its second step; a third step after it is refused.
    let small = north(Size::Small, 200_000, 113_303);
    let target = flag(north(Size::Small, 207_144, 192_458));
    let mut game = table(Goal::Flagship, &[small], &[target]);
    let ram = [p(200_000, 166_073), p(200_000, 192_458)];
    assert_eq!(
        refused(&mut game, mv(0, &[ram[0], ram[1], p(200_000, 218_843)])),
        Refusal::AfterRam { step: 2 }
    );
    assert_eq!(
        game.play(mv(0, &ram)).unwrap().ending.unwrap().reason,
        EndReason::Rammed
    );
    // One's own flagship is a ship like any other.
    let own = flag(north(Size::Small, 207_144, 192_458));
    let mut game = table(
        Goal::Flagship,
        &[large, own],
        &[flag(north(Size::Small, 800_000, 500_000))],
    );
    assert!(matches!(
        refused(&mut game, step),
        Refusal::StepTouches {
            side: Side::South,
            ..
        }
    ));
    // Without the flagship goal the same contact is just contact.
    let mut game = table(
        Goal::SinkAll,
        &[large],
        &[north(Size::Small, 207_144, 192_458)],
    );
    assert!(matches!(
        refused(&mut game, step),
        Refusal::StepTouches {
            side: Side::North,
            ..
        }
    ));
}

#[test]
fn sinking_the_flagship_wins_at_once() {
    let shooter = north(Size::Large, 450_000, 300_000);
    let at = in_field(shooter, 55);
    let mut game = table(
        Goal::Flagship,
        &[flag(shooter)],
        &[
            flag(west(Size::Small, at.x, at.y)),
            north(Size::Large, 800_000, 450_000),
        ],
    );
    let shot = find_shot(&game, 0, None, 0).expect("a line");
    let played = game.play(Action::Fire(shot)).unwrap();
    assert_eq!(
        played.ending.map(|e| (e.winner, e.reason)),
        Some((Some(Side::South), EndReason::FlagshipSunk))
    );
}

#[test]
fn forty_turns_without_a_hit_end_in_quiet_waters_for_the_stronger_fleet() {
    let fleets = |north_size| {
        table(
            Goal::SinkAll,
            &[north(Size::Large, 100_000, 100_000)],
            &[north(north_size, 800_000, 500_000)],
        )
    };
    let mut game = fleets(Size::Small);
    for turn in 1..40 {
        let played = game.play(Action::EndTurn).unwrap();
        assert_eq!(played.ending, None, "turn {turn}");
    }
    assert_eq!(game.quiet(), 39);
    let end = game.play(Action::EndTurn).unwrap().ending.unwrap();
    assert_eq!(
        (end.winner, end.reason),
        (Some(Side::South), EndReason::Quiet)
    );
    // Equal strength draws.
    let mut game = table(
        Goal::SinkAll,
        &[north(Size::Small, 100_000, 100_000)],
        &[north(Size::Small, 800_000, 500_000)],
    );
    for _ in 0..39 {
        game.play(Action::EndTurn).unwrap();
    }
    let end = game.play(Action::EndTurn).unwrap().ending.unwrap();
    assert_eq!(end.winner, None);
    // A hit starts the count again.
    let (mut game, _) = duel();
    for _ in 0..38 {
        game.play(Action::EndTurn).unwrap();
    }
    let shot = find_shot(&game, 0, None, 0).unwrap();
    game.play(Action::Fire(shot)).unwrap();
    game.play(Action::EndTurn).unwrap();
    assert_eq!(game.quiet(), 0);
    game.play(Action::EndTurn).unwrap();
    assert_eq!((game.quiet(), game.ending()), (1, None));
}

#[test]
fn a_breakthrough_in_force_wins_at_the_attackers_turn_and_the_defender_holds_twenty_turns() {
    let goal = Goal::Breakthrough {
        attacker: Side::South,
    };
    // One of two large ships through: half the strength, so south wins at once.
    let through = north(Size::Large, 300_000, 540_000);
    let game = table(
        goal,
        &[through, north(Size::Large, 100_000, 100_000)],
        &[north(Size::Small, 800_000, 400_000)],
    );
    assert_eq!(
        game.ending().map(|e| (e.winner, e.reason)),
        Some((Some(Side::South), EndReason::BrokeThrough))
    );
    // A corner exactly on the line is not beyond it.
    let on_line = Placed {
        size: Size::Large,
        pose: Pose::new(p(300_000, 513_771), p(300_000, 560_000)),
        flagship: false,
    };
    let mut game = table(goal, &[on_line], &[north(Size::Small, 800_000, 400_000)]);
    assert_eq!(game.ending(), None);
    // Nobody breaks through: forty passes, and north has held at south's 21st turn
    // (quiet waters does not apply).
    for _ in 0..39 {
        assert_eq!(game.play(Action::EndTurn).unwrap().ending, None);
    }
    let end = game.play(Action::EndTurn).unwrap().ending.unwrap();
    assert_eq!(
        (end.winner, end.reason),
        (Some(Side::North), EndReason::Held)
    );
}

#[test]
fn a_placement_lies_in_its_home_strip_with_no_two_ships_touching() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for side in Side::BOTH {
        for fleet in [Fleet::HEAVY, Fleet::LIGHT, Fleet::new(1, 3, 3)] {
            let placed = random_placement(side, fleet, Goal::SinkAll, &mut rng);
            check_placement(side, Goal::SinkAll, fleet, &placed).unwrap();
            let other = side.other();
            assert!(matches!(
                check_placement(other, Goal::SinkAll, fleet, &placed),
                Err(PlacementError::NotHome { side: s, .. }) if s == other
            ));
            assert!(matches!(
                check_placement(side, Goal::Flagship, fleet, &placed),
                Err(PlacementError::Flagships(0))
            ));
            assert!(matches!(
                check_placement(side, Goal::SinkAll, Fleet::new(4, 0, 1), &placed),
                Err(PlacementError::NotTheFleet { .. })
            ));
        }
    }
    let placed = [
        north(Size::Small, 100_000, 100_000),
        north(Size::Small, 107_144 + 7_144, 100_000),
    ];
    assert!(matches!(
        check_placement(Side::South, Goal::SinkAll, Fleet::new(0, 0, 2), &placed),
        Err(PlacementError::Touching { .. })
    ));
    let flagships = [flag(north(Size::Small, 100_000, 100_000))];
    check_placement(Side::South, Goal::Flagship, Fleet::new(0, 0, 1), &flagships).unwrap();
    assert_eq!(
        check_placement(Side::South, Goal::SinkAll, Fleet::new(0, 0, 1), &flagships),
        Err(PlacementError::NoFlagshipGame)
    );
    // The strip's edge: a corner at y = 173 000 is home, at 173 001 it is not.
    let edge = Placed {
        size: Size::Large,
        pose: Pose::new(p(300_000, 126_771), p(300_000, 173_000)),
        flagship: false,
    };
    check_placement(Side::South, Goal::SinkAll, Fleet::new(1, 0, 0), &[edge]).unwrap();
    let over = Placed {
        pose: Pose::new(p(300_000, 126_772), p(300_000, 173_001)),
        ..edge
    };
    assert!(check_placement(Side::South, Goal::SinkAll, Fleet::new(1, 0, 0), &[over]).is_err());
}

#[test]
fn fleets_are_what_each_setup_allows() {
    for ok in [
        Fleet::new(4, 0, 0),
        Fleet::new(2, 3, 0),
        Fleet::new(1, 3, 3),
        Fleet::new(0, 4, 4),
    ] {
        check_points(ok).unwrap();
    }
    for bad in [
        Fleet::new(4, 0, 1),
        Fleet::new(0, 6, 0),
        Fleet::new(0, 2, 8),
        Fleet::new(3, 1, 0),
    ] {
        assert!(
            matches!(check_points(bad), Err(FleetError::Points(..))),
            "{bad}"
        );
    }
    assert_eq!(Setup::Basic.fleet(Squadron::Heavy), Some(Fleet::HEAVY));
    assert_eq!(Setup::Points.fleet(Squadron::Light), None);
    let advanced = |heavy, light| Setup::Advanced { heavy, light }.check();
    advanced(Fleet::new(1, 0, 0), Fleet::new(0, 0, 1)).unwrap();
    assert!(matches!(
        advanced(Fleet::new(0, 0, 0), Fleet::LIGHT),
        Err(FleetError::Heavy(_))
    ));
    assert!(matches!(
        advanced(Fleet::new(5, 0, 0), Fleet::LIGHT),
        Err(FleetError::Heavy(_))
    ));
    assert!(matches!(
        advanced(Fleet::HEAVY, Fleet::new(0, 0, 0)),
        Err(FleetError::Light(_))
    ));
    assert!(matches!(
        advanced(Fleet::HEAVY, Fleet::new(1, 1, 0)),
        Err(FleetError::Light(_))
    ));
}

#[test]
fn a_ship_at_the_edge_heading_out_has_no_step_and_the_nearest_step_says_why() {
    // A small ship whose bow is 5 mm from the north edge, heading north.
    let stuck = north(Size::Small, 300_000, 600_000 - 5_000 - 26_385);
    let game = table(
        Goal::SinkAll,
        &[stuck],
        &[north(Size::Small, 800_000, 400_000)],
    );
    let from = game.ships(Side::South)[0].pose;
    let refusal = nearest_step(&game, 0, from, std::f64::consts::FRAC_PI_2).unwrap_err();
    assert!(matches!(
        refusal,
        Refusal::OffTable { .. } | Refusal::StepOffTable { .. }
    ));
    // Further out it can turn away, and the nearest legal heading is offered.
    let free = north(Size::Small, 300_000, 600_000 - 20_000 - 26_385);
    let game = table(
        Goal::SinkAll,
        &[free],
        &[north(Size::Small, 800_000, 400_000)],
    );
    let from = game.ships(Side::South)[0].pose;
    let (next, step) = nearest_step(&game, 0, from, std::f64::consts::FRAC_PI_2).unwrap();
    assert_eq!(step, Step::Lays);
    assert_eq!(game.check_step(0, from, next.bow), Ok(Step::Lays));
}

#[test]
fn a_person_types_moves_and_shots_in_millimetres_and_names() {
    let (game, shot) = duel();
    let step = armada::icehouse::parse(&game, "move L1 450,392.458").unwrap();
    assert_eq!(step, mv(0, &[p(450_000, 392_458)]));
    let turned = armada::icehouse::parse(&game, "move l1 +30").unwrap();
    let Action::Move { steps, .. } = turned else {
        panic!("a move")
    };
    assert_eq!(game.check(&turned), Ok(()));
    assert!(
        steps.bows()[0].x < 450_000,
        "a turn to the left heads west of north"
    );
    let found = armada::icehouse::parse(&game, "fire L1 port at s1").unwrap();
    assert!(matches!(found, Action::Fire(s) if s.side == Broadside::Port && s.target == 0));
    let exact = format!("fire L1 port o={} j={} at S1 p={}", shot.o, shot.j, shot.at);
    assert_eq!(
        armada::icehouse::parse(&game, &exact),
        Ok(Action::Fire(shot))
    );
    assert_eq!(armada::icehouse::parse(&game, "end"), Ok(Action::EndTurn));
    for (line, error) in [
        ("sail L1", "say move, fire or end: sail L1"),
        ("move M9 1,1", "M9 is not one of your ships afloat"),
        ("fire L1 at L7", "L7 is not an enemy ship afloat"),
        (
            "move L1 12;4",
            "12;4 is not a point x,y in millimetres (up to three decimals)",
        ),
        (
            "fire L1 starboard at S1",
            "no clear line of fire from L1 at S1 was found",
        ),
    ] {
        let refusal = armada::icehouse::parse(&game, line).unwrap_err();
        assert_eq!(refusal.to_string(), error, "{line}");
    }
}

/// `place` at the terminal: at random, a points fleet of one's own, or every ship by
/// hand (size, stern, heading), each checked by the page as the session will.
#[test]
fn a_typed_placement_lays_the_fleet_at_random_or_by_hand() {
    use armada::icehouse::{Fleet, FleetError, Goal, TypedError, check_placement, parse_placement};
    let rng = &mut ChaCha8Rng::seed_from_u64(4);
    let south = Side::South;
    let random = parse_placement(south, Some(Fleet::HEAVY), Goal::SinkAll, "place", rng).unwrap();
    assert_eq!(Fleet::of(&random), Fleet::HEAVY);
    check_placement(south, Goal::SinkAll, Fleet::HEAVY, &random).unwrap();
    let own = parse_placement(south, None, Goal::SinkAll, "place 2L3M", rng).unwrap();
    assert_eq!(Fleet::of(&own), Fleet::new(2, 3, 0));
    check_placement(south, Goal::SinkAll, Fleet::new(2, 3, 0), &own).unwrap();
    let spaced = parse_placement(south, None, Goal::SinkAll, "place 1l 3m 3s", rng).unwrap();
    assert_eq!(Fleet::of(&spaced), Fleet::new(1, 3, 3));
    let line = "place L 100,60 90 L 300,60 90 L* 500,60 90 L 700,60 45.5";
    let by_hand = parse_placement(south, Some(Fleet::HEAVY), Goal::Flagship, line, rng).unwrap();
    check_placement(south, Goal::Flagship, Fleet::HEAVY, &by_hand).unwrap();
    assert_eq!(by_hand[0].pose.stern, Point::new(100_000, 60_000));
    assert_eq!(
        by_hand[0].pose.bow,
        Point::new(100_000, 60_000 + armada::icehouse::Size::Large.slant())
    );
    assert!(by_hand[2].flagship && by_hand.iter().filter(|p| p.flagship).count() == 1);
    // Without a mark, the first ship laid is the flagship.
    let unmarked = line.replace("L*", "L");
    let first = parse_placement(south, Some(Fleet::HEAVY), Goal::Flagship, &unmarked, rng).unwrap();
    assert!(first[0].flagship);
    // A ship laid in the other strip is the session's to refuse, with the page's reason.
    let far = parse_placement(
        south,
        Some(Fleet::HEAVY),
        Goal::SinkAll,
        &line.replace("L*", "L").replace("700,60", "700,560"),
        rng,
    )
    .unwrap();
    assert!(check_placement(south, Goal::SinkAll, Fleet::HEAVY, &far).is_err());
    for (line, fleet, error) in [
        (
            "place 2L3M",
            Some(Fleet::HEAVY),
            TypedError::FleetFixed(Fleet::HEAVY),
        ),
        ("place 2X", None, TypedError::Fleet("2X".into())),
        ("place L 100,60", None, TypedError::Ship("L 100,60".into())),
        (
            "place Q 100,60 90",
            None,
            TypedError::Ship("Q 100,60 90".into()),
        ),
        ("place L* 100,60 90", None, TypedError::Flagship),
        // A points fleet the page refuses is refused before it is laid: 200 large
        // ships would never fit the strip, and the search for room would not end.
        (
            "place 200L",
            None,
            TypedError::Points(FleetError::Points(Fleet::new(200, 0, 0), 600)),
        ),
        (
            "place 1L 1M",
            None,
            TypedError::Points(FleetError::Points(Fleet::new(1, 1, 0), 5)),
        ),
        (
            "place 5M 2S",
            None,
            TypedError::Points(FleetError::Points(Fleet::new(0, 5, 2), 12)),
        ),
    ] {
        assert_eq!(
            parse_placement(south, fleet, Goal::SinkAll, line, rng),
            Err(error),
            "{line}"
        );
    }
}

fn assert_sound(game: &Game) {
    let ships: Vec<_> = Side::BOTH
        .iter()
        .flat_map(|&s| game.ships(s).iter().filter(|s| s.afloat))
        .collect();
    for (i, a) in ships.iter().enumerate() {
        assert!(a.pose.legal(a.size()), "{:?}", a.name);
        assert!(a.footprint().on_table(), "{:?}", a.name);
        assert!(a.damage < a.size().pips());
        for b in &ships[i + 1..] {
            assert!(
                !a.footprint().touches(&b.footprint()),
                "{:?} touches {:?}",
                a.name,
                b.name
            );
        }
    }
}

/// One random action of the side to move: a computer captain's, or a wild one.
fn random_action(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let mine = game.ships(game.to_move());
    let ship = rng.random_range(0..mine.len()) as u8;
    match rng.random_range(0..20) {
        0 => Action::EndTurn,
        10..20 => {
            let level = Level::ALL[rng.random_range(0..3)];
            choose(game, level, rng)
        }
        1..=5 => {
            let size = mine[usize::from(ship)].size();
            let mut pose = mine[usize::from(ship)].pose;
            let mut bows = Vec::new();
            for _ in 0..rng.random_range(1..=size.steps()) {
                let turn = rng.random_range(-1.4..1.4);
                pose = step_at(pose, size, armada::icehouse::heading(pose) + turn);
                bows.push(pose.bow);
            }
            mv(ship, &bows)
        }
        _ => {
            let enemies = game.ships(game.to_move().other()).len();
            let target = rng.random_range(0..enemies) as u8;
            find_shot(game, ship, None, target).map_or(Action::EndTurn, Action::Fire)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random games from random placements: no two ships ever touch, every ship
    /// lies legally on the table, damage stays below pips while afloat, and a
    /// refused action changes nothing.
    #[test]
    fn random_games_keep_the_table_sound(seed: u64, flagship: bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let goal = if flagship { Goal::Flagship } else { Goal::SinkAll };
        let fleets = [Fleet::LIGHT, Fleet::HEAVY];
        let placements = [
            random_placement(Side::South, fleets[0], goal, &mut rng),
            random_placement(Side::North, fleets[1], goal, &mut rng),
        ];
        let mut game = Game::new(goal, fleets, [placements[0].as_slice(), placements[1].as_slice()]).unwrap();
        assert_sound(&game);
        for _ in 0..3000 {
            if game.ending().is_some() {
                break;
            }
            let action = random_action(&game, &mut rng);
            let before = game.clone();
            if game.play(action).is_err() {
                prop_assert_eq!(&game, &before);
            }
            assert_sound(&game);
        }
        // Quiet waters ends any game long before: forty turns of three actions.
        prop_assert!(game.ending().is_some(), "the game did not end");
    }
}

#[test]
fn computer_captains_finish_their_games_and_each_level_beats_the_one_below() {
    for (strong, weak) in [(Level::Medium, Level::Easy), (Level::Hard, Level::Medium)] {
        let mut wins = 0;
        for seed in 0..20u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // Seats and squadrons alternate.
            let strong_side = if seed % 2 == 0 {
                Side::South
            } else {
                Side::North
            };
            let fleets = if seed % 4 < 2 {
                [Fleet::HEAVY, Fleet::LIGHT]
            } else {
                [Fleet::LIGHT, Fleet::HEAVY]
            };
            let placements = Side::BOTH
                .map(|side| random_placement(side, fleets[side.index()], Goal::SinkAll, &mut rng));
            let mut game = Game::new(
                Goal::SinkAll,
                fleets,
                [placements[0].as_slice(), placements[1].as_slice()],
            )
            .unwrap();
            let mut actions = 0;
            while game.ending().is_none() {
                let level = if game.to_move() == strong_side {
                    strong
                } else {
                    weak
                };
                let action = choose(&game, level, &mut rng);
                game.play(action).expect("a captain's action is legal");
                actions += 1;
                assert!(actions < 10_000, "seed {seed}: the game does not end");
            }
            wins += usize::from(game.ending().unwrap().winner == Some(strong_side));
        }
        assert!(
            wins >= 14,
            "{strong:?} won only {wins} of 20 against {weak:?}"
        );
    }
}
