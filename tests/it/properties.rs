//! Properties over random fleets and random games: what must hold after every action.

use armada::ai::RandomPlayer;
use armada::rules::{Action, CellSet, Effect, Fleet, Game, Placer, Seat, ShellOrder, Variant};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn variants() -> impl Strategy<Value = Variant> {
    prop_oneof![
        3 => Just(Variant::Armada),
        1 => Just(Variant::classic(8).unwrap()),
        1 => Just(Variant::classic(10).unwrap()),
        1 => Just(Variant::classic(12).unwrap()),
    ]
}

/// Chebyshev distance between two cells: ships must keep it at 2 or more.
fn distance(a: armada::rules::Coord, b: armada::rules::Coord) -> u8 {
    a.col().abs_diff(b.col()).max(a.row().abs_diff(b.row()))
}

/// The chart `seat` keeps must agree with the fleet it charts.
fn assert_chart_matches(game: &Game, seat: Seat, fleet: &Fleet) {
    let chart = game.chart(seat);
    assert!(
        !chart.misses().intersects(&fleet.decks()),
        "a miss on a deck"
    );
    assert!(chart.decks().is_subset(&fleet.decks()), "a hit on water");
    let mut wrecks = CellSet::EMPTY;
    for ship in fleet.ships() {
        let cells = ship.mask(fleet.size()).unwrap();
        if cells.is_subset(&chart.decks()) {
            wrecks |= cells;
        }
    }
    assert_eq!(
        chart.wrecks(),
        wrecks,
        "wrecks are exactly the fully hit ships"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_placed_fleet_is_legal(seed: u64, variant in variants()) {
        let spec = variant.fleet();
        let fleet = Placer::new(&spec).place(&mut ChaCha8Rng::seed_from_u64(seed));
        prop_assert!(Fleet::new(&spec, fleet.ships().to_vec()).is_ok());
        prop_assert_eq!(fleet.decks().len(), spec.decks());
        let ships: Vec<CellSet> = fleet.ships().iter().map(|s| s.mask(spec.size()).unwrap()).collect();
        for (i, a) in ships.iter().enumerate() {
            for b in &ships[i + 1..] {
                for x in a {
                    for y in b {
                        prop_assert!(distance(x, y) >= 2, "{} and {} touch", x, y);
                    }
                }
            }
        }
    }

    #[test]
    fn random_games_keep_every_invariant(seed: u64, variant in variants(), host_first: bool) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let placer = Placer::new(&variant.fleet());
        let mut fleets = [placer.place(&mut rng), placer.place(&mut rng)];
        let first = if host_first { Seat::Host } else { Seat::Guest };
        let mut game = Game::new(variant, first, true);
        let decks = variant.fleet().decks();
        let mut actions = 0;
        while !game.is_over() {
            let seat = game.mover();
            let before = game.clone();
            let action = RandomPlayer.choose(&game, seat, &mut rng);
            let shells = matches!(action, Action::AirStrike(_)).then(|| ShellOrder::random(&mut rng));
            let report = game.play(seat, action, shells, &mut fleets[seat.other().index()]).unwrap();
            actions += 1;
            prop_assert!(actions <= 3 * 144, "a game must end");

            let (old, new) = (before.chart(seat), game.chart(seat));
            prop_assert!(old.misses().is_subset(&new.misses()), "a miss was unmarked");
            prop_assert!(old.decks().is_subset(&new.decks()), "a hit was unmarked");
            prop_assert!(old.wrecks().is_subset(&new.wrecks()), "a wreck floated again");
            prop_assert_eq!(game.chart(seat.other()), before.chart(seat.other()));
            assert_chart_matches(&game, seat, &fleets[seat.other().index()]);
            // A shell is lost exactly on a cell marked before it fell (earlier in the same
            // strike included); every other effect is on an unmarked cell.
            let mut marked = old.marked();
            for effect in &report.effects {
                match *effect {
                    Effect::Lost(cell) => prop_assert!(marked.contains(cell), "{} lost on open water", cell),
                    Effect::Miss(cell) | Effect::Hit(cell) | Effect::Scanned { cell, .. } => {
                        prop_assert!(!marked.contains(cell), "{} acted on a marked cell", cell);
                        if !matches!(effect, Effect::Scanned { .. }) {
                            marked.insert(cell);
                        }
                    }
                    Effect::Sunk { cell, ship, ring } => {
                        prop_assert!(!marked.contains(cell), "{} sunk on a marked cell", cell);
                        prop_assert!(!ring.intersects(&marked), "the ring re-marked a cell");
                        marked |= ship | ring;
                    }
                }
            }
            prop_assert_eq!(marked, new.marked());

            let all_hit = new.decks().len() == decks;
            let all_sunk = new.wrecks().len() == decks;
            prop_assert_eq!(all_hit, all_sunk);
            prop_assert_eq!(all_sunk, game.is_over());
            let hit = report.effects.iter().any(Effect::is_hit);
            let radar = matches!(action, Action::Radar(_));
            prop_assert!(!(radar && report.again), "radar always ends the turn");
            prop_assert_eq!(report.again, hit && !radar && !game.is_over());
            let expected_mover = if report.again || game.is_over() { seat } else { seat.other() };
            prop_assert_eq!(game.mover(), expected_mover);
            if let Some(weapon) = action.weapon() {
                prop_assert_eq!(game.stock(seat).left(weapon) + 1, before.stock(seat).left(weapon));
            }
        }
        let ending = game.ending().unwrap();
        prop_assert_eq!(ending.winner, Some(game.mover()));
    }
}

/// Any action at all, legal or not: cells anywhere in the 12×12 frame, any line, any shells.
fn any_action() -> impl Strategy<Value = (Action, Option<[u8; 5]>)> {
    let cell = (0u8..12, 0u8..12).prop_map(|(c, r)| armada::rules::Coord::new(c, r).unwrap());
    let heading = prop_oneof![
        Just(armada::rules::Heading::Right),
        Just(armada::rules::Heading::Left),
        Just(armada::rules::Heading::Down),
        Just(armada::rules::Heading::Up),
    ];
    let shells = proptest::option::of(proptest::array::uniform5(0u8..12));
    (
        prop_oneof![
            cell.clone().prop_map(Action::Shot),
            (heading, any::<u8>()).prop_map(|(heading, line)| Action::Torpedo(
                armada::rules::Torpedo { heading, line }
            )),
            cell.clone().prop_map(Action::AirStrike),
            cell.prop_map(Action::Radar),
        ],
        shells,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The engine never panics, and whatever it refuses leaves the game exactly as it was.
    #[test]
    fn any_input_is_played_or_refused_cleanly(
        seed: u64,
        variant in variants(),
        inputs in proptest::collection::vec((any_action(), any::<bool>(), 0u8..40), 1..300),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let placer = Placer::new(&variant.fleet());
        let mut fleets = [placer.place(&mut rng), placer.place(&mut rng)];
        let mut game = Game::new(variant, Seat::Host, seed % 2 == 0);
        for ((action, shells), host, extra) in inputs {
            let seat = if host { Seat::Host } else { Seat::Guest };
            let before = game.clone();
            let shells = shells.and_then(|s| ShellOrder::new(s).ok());
            let result = match extra {
                0 => game.resign(seat).map(|_| ()),
                1 => game.offer_draw(seat).map_err(|_| armada::rules::ActionError::GameOver),
                2 => game.answer_draw(seat, seed % 3 == 0).map(|_| ()).map_err(|_| armada::rules::ActionError::GameOver),
                _ => game.play(seat, action, shells, &mut fleets[seat.other().index()]).map(|_| ()),
            };
            if result.is_err() {
                prop_assert_eq!(&game, &before);
            }
        }
    }
}
