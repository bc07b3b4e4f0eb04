//! Deduction: a legal fleet that fits the facts is found when one exists, and its absence is
//! proven only when no fleet fits (checked against brute force on a small board).

use std::collections::HashSet;

use armada::ai::RandomPlayer;
use armada::rules::{
    Action, BoardSize, CellSet, Consistency, Dir, Facts, Fleet, FleetSpec, Game, Placer, Seat,
    ShellOrder, Ship, Variant, fit_fleet,
};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::support::cells;

const BUDGET: u32 = 200_000;

fn set(text: &str) -> CellSet {
    cells(text).into_iter().collect()
}

fn standard() -> FleetSpec {
    Variant::Armada.fleet()
}

fn impossible(facts: &Facts) -> &'static str {
    match fit_fleet(&standard(), facts, BUDGET) {
        Consistency::Impossible(why) => why,
        other => panic!("expected a proof, got {other:?}"),
    }
}

#[test]
fn nothing_known_fits_some_fleet() {
    let Consistency::Possible(fleet) = fit_fleet(&standard(), &Facts::default(), BUDGET) else {
        panic!("an empty board fits a fleet");
    };
    assert_eq!(fleet.decks().len(), 20);
}

#[test]
fn an_all_water_board_fits_no_fleet() {
    let water = CellSet::board(BoardSize::STANDARD);
    let facts = Facts {
        water,
        ..Facts::default()
    };
    assert_eq!(impossible(&facts), "no legal fleet fits the answers given");
}

#[test]
fn a_hit_boxed_in_by_water_is_a_withheld_sinking() {
    let facts = Facts {
        hits: set("E5"),
        water: set("D4 E4 F4 D5 F5 D6 E6 F6"),
        ..Facts::default()
    };
    assert_eq!(impossible(&facts), "no legal fleet fits the answers given");
    // One open neighbour and the hit may still be a destroyer.
    let open = Facts {
        water: set("D4 E4 F4 D5 D6 E6 F6"),
        ..facts
    };
    assert!(matches!(
        fit_fleet(&standard(), &open, BUDGET),
        Consistency::Possible(_)
    ));
}

#[test]
fn sunk_ships_must_be_straight_and_counted() {
    let bent = Facts {
        wrecks: set("A1 B1 B2"),
        ..Facts::default()
    };
    assert_eq!(impossible(&bent), "a sunk ship is not one straight line");
    let five_boats = Facts {
        wrecks: set("A1 C1 E1 G1 I1"),
        ..Facts::default()
    };
    assert_eq!(
        impossible(&five_boats),
        "more ships of that length are sunk than the fleet has"
    );
    let touching = Facts {
        wrecks: set("A1"),
        hits: set("B2"),
        ..Facts::default()
    };
    assert_eq!(
        impossible(&touching),
        "a deck lies on water or next to a sunk ship"
    );
}

#[test]
fn honest_charts_always_fit_during_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    for _ in 0..40 {
        let variant = Variant::Armada;
        let placer = Placer::new(&variant.fleet());
        let mut fleets = [placer.place(&mut rng), placer.place(&mut rng)];
        let mut game = Game::new(variant, Seat::Host, false);
        while !game.is_over() {
            let seat = game.mover();
            let action = RandomPlayer.choose(&game, seat, &mut rng);
            let shells =
                matches!(action, Action::AirStrike(_)).then(|| ShellOrder::random(&mut rng));
            game.play(seat, action, shells, &mut fleets[seat.other().index()])
                .unwrap();
            let facts = Facts::from_chart(game.chart(seat));
            match fit_fleet(&variant.fleet(), &facts, BUDGET) {
                Consistency::Possible(fleet) => {
                    assert!(
                        facts.hits.is_subset(&fleet.decks())
                            && !facts.water.intersects(&fleet.decks())
                    );
                }
                other => panic!("an honest chart must fit: {other:?}"),
            }
        }
    }
}

/// Whether `fleet` agrees with `facts`, straight from the definition.
fn agrees(fleet: &Fleet, facts: &Facts) -> bool {
    let decks = fleet.decks();
    let size = fleet.size();
    if !facts.hits.is_subset(&decks)
        || !facts.seen_decks.is_subset(&decks)
        || facts.water.intersects(&decks)
    {
        return false;
    }
    let masks: Vec<CellSet> = fleet
        .ships()
        .iter()
        .map(|s| s.mask(size).unwrap())
        .collect();
    let sunk: CellSet = masks
        .iter()
        .filter(|m| m.is_subset(&facts.wrecks))
        .fold(CellSet::EMPTY, |a, m| a | *m);
    sunk == facts.wrecks
        && masks
            .iter()
            .all(|m| m.is_subset(&facts.wrecks) || !m.is_subset(&facts.hits))
}

#[test]
fn proofs_agree_with_brute_force_on_a_small_board() {
    let spec = FleetSpec::new(BoardSize::new(5).unwrap(), vec![3, 2, 1]).unwrap();
    let size = spec.size();
    let mut all = HashSet::new();
    for bow3 in size.cells() {
        for bow2 in size.cells() {
            for bow1 in size.cells() {
                for d3 in [Dir::Across, Dir::Down] {
                    for d2 in [Dir::Across, Dir::Down] {
                        let ships = vec![
                            Ship::new(bow3, d3, 3),
                            Ship::new(bow2, d2, 2),
                            Ship::new(bow1, Dir::Across, 1),
                        ];
                        if let Ok(fleet) = Fleet::new(&spec, ships) {
                            all.insert(fleet);
                        }
                    }
                }
            }
        }
    }
    let all: Vec<Fleet> = all.into_iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut possible, mut proven) = (0, 0);
    for _ in 0..3000 {
        // Facts half the time from a real layout (partly revealed), else at random.
        let truth = &all[rng.random_range(0..all.len())];
        let mut facts = Facts::default();
        for ship in truth.ships() {
            let mask = ship.mask(size).unwrap();
            match rng.random_range(0..4) {
                0 => facts.wrecks |= mask,
                1 => facts.hits |= mask.iter().next().into_iter().collect(),
                _ => {}
            }
        }
        for cell in size.cells() {
            if rng.random_range(0..10) == 0 {
                if rng.random_bool(0.5) && !truth.decks().contains(cell)
                    || rng.random_range(0..6) == 0
                {
                    facts.water.insert(cell);
                } else if rng.random_range(0..4) == 0 {
                    facts.seen_decks.insert(cell);
                }
            }
        }
        facts.hits -= facts.wrecks | facts.water;
        facts.seen_decks -= facts.wrecks | facts.water | facts.hits;
        let expected = all.iter().any(|f| agrees(f, &facts));
        match fit_fleet(&spec, &facts, BUDGET) {
            Consistency::Possible(fleet) => {
                assert!(
                    expected && agrees(&fleet, &facts),
                    "{facts:?} fits {fleet:?}?"
                );
                possible += 1;
            }
            Consistency::Impossible(why) => {
                assert!(
                    !expected,
                    "{facts:?} declared impossible ({why}) but a fleet fits"
                );
                proven += 1;
            }
            Consistency::Undecided => panic!("a 5×5 board never needs the whole budget"),
        }
    }
    assert!(
        possible > 300 && proven > 300,
        "both outcomes exercised: {possible} / {proven}"
    );
}
