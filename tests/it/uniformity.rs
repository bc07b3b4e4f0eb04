//! Automatic placement is uniform over whole layouts, shown by a χ² test on a board
//! small enough to enumerate every legal layout; and the test has the power to reject
//! the tempting wrong method.

use std::collections::HashMap;

use armada::rules::{BoardSize, CellSet, Dir, Fleet, FleetSpec, Placer, ShellOrder, Ship};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Upper critical value of χ² with `df` degrees of freedom at p = 10⁻⁴
/// (Wilson–Hilferty; z = 3.719). A true null fails this test once in ten thousand.
fn critical(df: f64) -> f64 {
    let z = 3.719;
    let k = 2.0 / (9.0 * df);
    df * (1.0 - k + z * k.sqrt()).powi(3)
}

fn chi_square(counts: &HashMap<Fleet, u64>, categories: usize, draws: u64) -> f64 {
    let expected = draws as f64 / categories as f64;
    let seen: f64 = counts
        .values()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    // Categories never drawn contribute their full expectation.
    seen + (categories - counts.len()) as f64 * expected
}

/// Every legal layout of `spec`, found by trying every tuple of positions.
fn all_layouts(spec: &FleetSpec) -> Vec<Fleet> {
    let size = spec.size();
    let positions = |len: u8| -> Vec<Ship> {
        let mut all = Vec::new();
        for bow in size.cells() {
            for dir in [Dir::Across, Dir::Down] {
                let ship = Ship::new(bow, dir, len);
                if ship.mask(size).is_some() && !all.contains(&ship) {
                    all.push(ship);
                }
            }
        }
        all
    };
    let mut layouts = std::collections::HashSet::new();
    let mut stack = vec![Vec::new()];
    while let Some(partial) = stack.pop() {
        if partial.len() == spec.lengths().len() {
            if let Ok(fleet) = Fleet::new(spec, partial) {
                layouts.insert(fleet);
            }
            continue;
        }
        for ship in positions(spec.lengths()[partial.len()]) {
            let mut next = partial.clone();
            next.push(ship);
            stack.push(next);
        }
    }
    layouts.into_iter().collect()
}

/// The wrong method: each ship only where it still fits, one after another.
fn place_where_it_fits(spec: &FleetSpec, rng: &mut ChaCha8Rng) -> Option<Fleet> {
    let size = spec.size();
    let mut blocked = CellSet::EMPTY;
    let mut ships = Vec::new();
    for &len in spec.lengths() {
        let fits: Vec<Ship> = size
            .cells()
            .flat_map(|bow| {
                [
                    Ship::new(bow, Dir::Across, len),
                    Ship::new(bow, Dir::Down, len),
                ]
            })
            .filter(|s| s.mask(size).is_some_and(|m| !m.intersects(&blocked)))
            .collect();
        if fits.is_empty() {
            return None;
        }
        let ship = fits[rng.random_range(0..fits.len())];
        let cells = ship.mask(size)?;
        blocked |= cells | cells.surroundings(size);
        ships.push(ship);
    }
    Fleet::new(spec, ships).ok()
}

/// The legal layouts of a cruiser, a destroyer and a boat on 5×5 (a separate brute force in Python agreed when the test was written).
const LAYOUTS: usize = 3944;

fn small_spec() -> FleetSpec {
    FleetSpec::new(BoardSize::new(5).unwrap(), vec![3, 2, 1]).unwrap()
}

#[test]
fn placement_is_uniform_over_every_legal_layout() {
    let spec = small_spec();
    let layouts = all_layouts(&spec);
    assert_eq!(
        layouts.len(),
        LAYOUTS,
        "every legal layout, counted independently"
    );
    let draws = 60 * layouts.len() as u64;
    let placer = Placer::new(&spec);
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut counts: HashMap<Fleet, u64> = HashMap::new();
    for _ in 0..draws {
        *counts.entry(placer.place(&mut rng)).or_default() += 1;
    }
    assert!(
        counts.keys().all(|f| layouts.contains(f)),
        "only legal layouts are drawn"
    );
    assert_eq!(counts.len(), layouts.len(), "every legal layout is drawn");
    let df = (layouts.len() - 1) as f64;
    let statistic = chi_square(&counts, layouts.len(), draws);
    assert!(
        statistic < critical(df),
        "χ² = {statistic:.1} over {df} degrees of freedom"
    );
}

#[test]
fn the_test_rejects_placing_ships_only_where_they_fit() {
    let spec = small_spec();
    let layouts = all_layouts(&spec);
    let draws = 60 * layouts.len() as u64;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut counts: HashMap<Fleet, u64> = HashMap::new();
    let mut drawn = 0;
    while drawn < draws {
        if let Some(fleet) = place_where_it_fits(&spec, &mut rng) {
            *counts.entry(fleet).or_default() += 1;
            drawn += 1;
        }
    }
    let df = (layouts.len() - 1) as f64;
    let statistic = chi_square(&counts, layouts.len(), draws);
    assert!(
        statistic > critical(df),
        "χ² = {statistic:.1} should reject over {df} degrees of freedom"
    );
}

/// χ² over the 15,120 ordered shell choices, 30 draws expected per choice.
fn assert_uniform_orders(mut draw: impl FnMut(u64) -> ShellOrder) {
    let categories = ShellOrder::CHOICES as usize;
    let draws = 30 * categories as u64;
    let mut counts = vec![0u64; categories];
    for i in 0..draws {
        counts[draw(i).ordinal() as usize] += 1;
    }
    let expected = draws as f64 / categories as f64;
    let statistic: f64 = counts
        .iter()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    assert!(
        statistic < critical((categories - 1) as f64),
        "χ² = {statistic:.1}"
    );
    assert!(counts.iter().all(|&n| n > 0), "every order occurs");
}

#[test]
fn random_shell_orders_are_uniform_over_all_15120() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    assert_uniform_orders(|_| ShellOrder::random(&mut rng));
}

#[test]
fn shared_shell_orders_are_uniform_over_all_15120() {
    // Contributions as peers would draw them; the derivation must not favour any order.
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    assert_uniform_orders(|strike| {
        let (host, guest): ([u8; 32], [u8; 32]) = (rng.random(), rng.random());
        armada::fair::shared::shell_order(&[7; 32], (strike % 4) as u8, &host, &guest)
    });
}
