//! Hard: the probability of a deck in every cell, from layouts sampled uniformly among all
//! that fit what is known, and each action chosen by its expected value.

use rand::RngExt;

use super::View;
use crate::rules::{
    Action, CellSet, Coord, Facts, Fleet, FleetSpec, Placer, Sampler, Torpedo, Weapon, legal,
    square,
};

/// Layouts sampled per decision, at most.
const SAMPLES: usize = 300;
/// Draws allowed per decision (each a whole layout, kept or thrown away): bounds the
/// time of a decision when little is known and most draws are thrown away.
const TRIES: usize = 400_000;
/// Coverings enumerated at most.
const COVERINGS: usize = 5_000;

/// Deck probability per unmarked cell, and the sampled layouts it was counted from.
type Density = (Vec<(Coord, f64)>, Vec<CellSet>);

/// Per-cell deck probabilities over the unmarked cells, from `SAMPLES` layouts;
/// `None` when no sampler could be built (the caller falls back to simpler play).
fn density<R: rand::Rng + ?Sized>(view: &View, rng: &mut R) -> Option<Density> {
    let chart = view.chart;
    let mut facts = Facts::from_chart(chart);
    if let Some(seen) = view.radar {
        for &(cell, deck) in seen {
            if deck {
                facts.seen_decks.insert(cell);
            } else {
                facts.water.insert(cell);
            }
        }
    }
    let sampler = Sampler::new(&view.variant.fleet(), &facts, COVERINGS).ok()?;
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..TRIES {
        if let Some(layout) = sampler.sample(rng, 1) {
            samples.push(layout);
            if samples.len() == SAMPLES {
                break;
            }
        }
    }
    if samples.is_empty() {
        return None;
    }
    let n = samples.len() as f64;
    let counts = deck_counts(samples.iter());
    let probabilities = chart
        .unmarked()
        .iter()
        .map(|cell| (cell, f64::from(counts[cell.index()]) / n))
        .collect();
    Some((probabilities, samples))
}

/// A weapon is fired when it is expected to save at least this many turns. Measured:
/// 0.5 and 1.5 both cost about a turn a game more than 1.0 (solo Armada, 1,000 games).
const WORTH: f64 = 1.0;

/// None of five shells on five of nine cells finds a deck with chance C(9 − d, 5) /
/// C(9, 5) when `d` of the nine hold decks: this table times 126.
const MISS_ALL: [f64; 10] = [126.0, 56.0, 21.0, 6.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0];

/// A weapon aimed at its best target, and the turns it is expected to save.
struct Aim {
    action: Action,
    saving: f64,
}

/// The expected saving of each weapon aimed at its best target, in turns, by a simple
/// model of the race (hits keep the turn, so turns lost are what a game is lost by):
/// hunting with shots finds the next deck after `(1 − p) / p` misses on average (`p`
/// the best shot's chance); an attack that finds a deck keeps the turn and saves that
/// hunt, one that finds none costs a turn; a radar sweep always costs its turn and
/// saves the hunt when its square holds a deck. Water an attack clears is not counted:
/// valuing it (0.1 turn a cell) made the hard level slower, and so did delaying
/// weapons to the end game.
fn weapons<R: rand::Rng + ?Sized>(
    view: &View,
    samples: &[CellSet],
    best: f64,
    rng: &mut R,
) -> Vec<Aim> {
    let size = view.variant.size();
    let open = view.chart.unmarked();
    let n = samples.len() as f64;
    let hunt = (1.0 - best) / best.max(1e-6);
    let chance =
        |cells: &CellSet| samples.iter().filter(|s| s.intersects(cells)).count() as f64 / n;
    let ok = |a: &Action| legal(view.variant, view.chart, view.stock, a).is_ok();
    let best_of = |aims: Vec<(f64, Action)>| {
        aims.into_iter()
            .filter(|(_, a)| ok(a))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(saving, action)| Aim { action, saving })
    };
    let squares: Vec<(Coord, CellSet)> = size
        .cells()
        .filter_map(|c| {
            square(c, size).map(|cells| (c, cells.into_iter().collect::<CellSet>() & open))
        })
        .filter(|(_, cells)| !cells.is_empty())
        .collect();
    let mut aims = Vec::new();
    if view.stock.left(Weapon::Torpedo) > 0 {
        let mut lines = Vec::new();
        for line in 0..size.side() {
            // The chance of a hit is the same both ways along a line: either way, at random.
            let (across, down) = super::random_headings(rng);
            for heading in [across, down] {
                let torpedo = Torpedo { heading, line };
                let cells: CellSet = torpedo
                    .path(size)
                    .into_iter()
                    .flatten()
                    .filter(|c| open.contains(*c))
                    .collect();
                if !cells.is_empty() {
                    lines.push((
                        chance(&cells) * (1.0 + hunt) - 1.0,
                        Action::Torpedo(torpedo),
                    ));
                }
            }
        }
        aims.extend(best_of(lines));
    }
    if view.stock.left(Weapon::AirStrike) > 0 {
        let strikes = squares
            .iter()
            .map(|(centre, cells)| {
                let some: f64 = samples
                    .iter()
                    .map(|sample| 1.0 - MISS_ALL[(*sample & *cells).len()] / 126.0)
                    .sum();
                (some / n * (1.0 + hunt) - 1.0, Action::AirStrike(*centre))
            })
            .collect();
        aims.extend(best_of(strikes));
    }
    if view.stock.left(Weapon::Radar) > 0 {
        let sweeps = squares
            .iter()
            .map(|(centre, cells)| (chance(cells) * hunt - 1.0, Action::Radar(*centre)))
            .collect();
        aims.extend(best_of(sweeps));
    }
    aims
}

pub(super) fn hard<R: rand::Rng + ?Sized>(view: &View, rng: &mut R) -> Option<Action> {
    let (probabilities, samples) = density(view, rng)?;
    let best = probabilities.iter().map(|(_, q)| *q).fold(0.0, f64::max);
    if view.variant.has_weapons()
        && best < 0.99
        && let Some(aim) = weapons(view, &samples, best, rng)
            .into_iter()
            .filter(|a| a.saving >= WORTH)
            .max_by(|a, b| a.saving.total_cmp(&b.saving))
    {
        return Some(aim.action);
    }
    let top: Vec<Coord> = probabilities
        .iter()
        .filter(|(_, q)| (*q - best).abs() < 1e-12)
        .map(|(c, _)| *c)
        .collect();
    (!top.is_empty()).then(|| Action::Shot(top[rng.random_range(0..top.len())]))
}

/// How many of `samples` hold a deck on each cell.
fn deck_counts<'a>(samples: impl Iterator<Item = &'a CellSet>) -> [u32; CELL_INDEX] {
    let mut counts = [0; CELL_INDEX];
    for sample in samples {
        for cell in sample {
            counts[cell.index()] += 1;
        }
    }
    counts
}

/// Cells a [`CellSet`] can hold, by [`Coord::index`].
const CELL_INDEX: usize = 144;

/// Rival layouts drawn for the hard level's fleet; the one with the least water around
/// its ships is kept.
const RIVALS: usize = 4;

/// The hard level's fleet: the best of a few uniformly random layouts by how little
/// sinking its ships gives away (the rings around them). Measured over 1,000 solo
/// Armada games each: the hard level needs 24.7 turns to sink such a fleet against
/// 23.3 for a uniform one, the medium level 27.8 against 25.8. Still random enough
/// to leave no pattern to learn: 54% of its decks lie on the edge, against 44% for a
/// uniform layout.
pub(super) fn place<R: rand::Rng + ?Sized>(spec: &FleetSpec, rng: &mut R) -> Fleet {
    let placer = Placer::new(spec);
    let size = spec.size();
    let given_away = |fleet: &Fleet| -> usize {
        fleet
            .ships()
            .iter()
            .filter_map(|ship| ship.mask(size))
            .map(|cells| cells.surroundings(size).len())
            .sum()
    };
    (0..RIVALS)
        .map(|_| placer.place(rng))
        .min_by_key(given_away)
        .expect("at least one rival")
}
