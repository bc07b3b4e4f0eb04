//! The layout sampler draws every legal fleet consistent with the facts equally often:
//! a χ² test against all consistent layouts found by brute force on a small board.

use std::collections::HashMap;

use armada::rules::{BoardSize, CellSet, Dir, Facts, Fleet, FleetSpec, SampleError, Sampler, Ship};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::support::cells;

fn set(text: &str) -> CellSet {
    cells(text).into_iter().collect()
}

fn spec() -> FleetSpec {
    FleetSpec::new(BoardSize::new(5).unwrap(), vec![3, 2, 1, 1]).unwrap()
}

fn all_layouts(spec: &FleetSpec) -> Vec<Fleet> {
    let size = spec.size();
    let ships = |len: u8| -> Vec<Ship> {
        size.cells()
            .flat_map(|b| [Ship::new(b, Dir::Across, len), Ship::new(b, Dir::Down, len)])
            .filter(|s| s.mask(size).is_some())
            .collect()
    };
    let mut found = std::collections::HashSet::new();
    for a in ships(3) {
        for b in ships(2) {
            for c in ships(1) {
                for d in ships(1) {
                    if let Ok(f) = Fleet::new(spec, vec![a, b, c, d]) {
                        found.insert(f);
                    }
                }
            }
        }
    }
    found.into_iter().collect()
}

/// A layout agrees with the facts, from the definition.
fn agrees(fleet: &Fleet, facts: &Facts) -> bool {
    let decks = fleet.decks();
    let masks: Vec<CellSet> = fleet
        .ships()
        .iter()
        .map(|s| s.mask(fleet.size()).unwrap())
        .collect();
    let sunk = masks
        .iter()
        .filter(|m| m.is_subset(&facts.wrecks))
        .fold(CellSet::EMPTY, |a, m| a | *m);
    facts.hits.is_subset(&decks)
        && facts.seen_decks.is_subset(&decks)
        && !facts.water.intersects(&decks)
        && sunk == facts.wrecks
        && masks
            .iter()
            .all(|m| m.is_subset(&facts.wrecks) || !m.is_subset(&facts.hits))
}

/// χ² critical value at p = 10⁻⁴ (Wilson–Hilferty).
fn critical(df: f64) -> f64 {
    let k = 2.0 / (9.0 * df);
    df * (1.0 - k + 3.719 * k.sqrt()).powi(3)
}

fn uniform_over_consistent(facts: Facts, seed: u64) -> usize {
    let spec = spec();
    let consistent: Vec<CellSet> = all_layouts(&spec)
        .iter()
        .filter(|f| agrees(f, &facts))
        .map(Fleet::decks)
        .collect();
    assert!(
        consistent.len() > 20,
        "a state worth testing: {} layouts",
        consistent.len()
    );
    let sampler = Sampler::new(&spec, &facts, 10_000).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let draws = 80 * consistent.len() as u64;
    let mut counts: HashMap<CellSet, u64> = HashMap::new();
    for _ in 0..draws {
        let decks = sampler.sample(&mut rng, 1_000_000).expect("a layout");
        *counts.entry(decks).or_default() += 1;
    }
    assert!(
        counts.keys().all(|d| consistent.contains(d)),
        "only consistent layouts are drawn"
    );
    assert_eq!(
        counts.len(),
        consistent.len(),
        "every consistent layout is drawn"
    );
    let expected = draws as f64 / consistent.len() as f64;
    let statistic: f64 = counts
        .values()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    let df = (consistent.len() - 1) as f64;
    assert!(
        statistic < critical(df),
        "χ² = {statistic:.1} over {df} degrees of freedom"
    );
    sampler.coverings()
}

#[test]
fn uniform_with_nothing_known() {
    uniform_over_consistent(Facts::default(), 1);
}

#[test]
fn uniform_around_a_lone_hit_with_water_nearby() {
    let coverings = uniform_over_consistent(
        Facts {
            hits: set("C3"),
            water: set("B2 D4 A5"),
            ..Facts::default()
        },
        2,
    );
    assert!(
        coverings > 3,
        "several ships could hold the hit: {coverings} coverings"
    );
}

#[test]
fn uniform_with_a_sunk_ship_hits_and_a_radar_sighting() {
    let facts = Facts {
        wrecks: set("A1"),
        water: set("B1 A2 B2 E5"),
        hits: set("D1"),
        seen_decks: set("C5"),
    };
    uniform_over_consistent(facts, 3);
}

#[test]
fn impossible_facts_are_named() {
    let spec = spec();
    let boxed_in = Facts {
        hits: set("C3"),
        water: set("B2 C2 D2 B3 D3 B4 C4 D4"),
        ..Facts::default()
    };
    // A lone hit boxed in by water could only be a boat, which would have been sunk.
    assert!(matches!(
        Sampler::new(&spec, &boxed_in, 100),
        Err(SampleError::Impossible(_))
    ));
}
