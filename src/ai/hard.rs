//! Hard: the probability of a deck in every cell, from layouts sampled uniformly among all
//! that fit what is known, and each action chosen by its expected value.

use rand::RngExt;

use super::View;
use crate::rules::{
    Action, BoardSize, CellSet, Coord, Facts, Fleet, FleetSpec, Placer, Sampler, Torpedo, Weapon,
    legal, square,
};

/// Layouts sampled per decision, at most.
const SAMPLES: usize = 300;
/// Draws allowed per decision (each a whole layout, kept or thrown away): bounds the
/// time of a decision when little is known and most draws are thrown away.
const TRIES: usize = 400_000;
/// Coverings enumerated at most.
const COVERINGS: usize = 5_000;

/// Deck probability per unmarked cell, the sampled layouts it was counted from, and each
/// layout's weight (all equal unless the fleet is known to be placed non-uniformly).
struct Density {
    probabilities: Vec<(Coord, f64)>,
    samples: Vec<CellSet>,
    weights: Vec<f64>,
    /// The sum of `weights`.
    total: f64,
}

impl Density {
    /// The weighted share of the samples for which `hit` holds.
    fn chance(&self, hit: impl Fn(&CellSet) -> f64) -> f64 {
        self.samples
            .iter()
            .zip(&self.weights)
            .map(|(s, w)| w * hit(s))
            .sum::<f64>()
            / self.total
    }
}

/// Per-cell deck probabilities over the unmarked cells, from `SAMPLES` layouts drawn
/// uniformly among those that fit what is known, each weighted by `prior` when given;
/// `None` when no sampler could be built (the caller falls back to simpler play).
fn density<R: rand::Rng + ?Sized>(
    view: &View,
    prior: Option<&Prior>,
    rng: &mut R,
) -> Option<Density> {
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
    let size = view.variant.size();
    let weights: Vec<f64> = samples
        .iter()
        .map(|s| prior.map_or(1.0, |p| p.weight(ring_score(s, size))))
        .collect();
    let mut counts = [0.0; CELL_INDEX];
    for (sample, w) in samples.iter().zip(&weights) {
        for cell in sample {
            counts[cell.index()] += w;
        }
    }
    let total: f64 = weights.iter().sum();
    let probabilities = chart
        .unmarked()
        .iter()
        .map(|cell| (cell, counts[cell.index()] / total))
        .collect();
    Some(Density {
        probabilities,
        samples,
        weights,
        total,
    })
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
    density: &Density,
    best: f64,
    rng: &mut R,
) -> Vec<Aim> {
    let size = view.variant.size();
    let open = view.chart.unmarked();
    let hunt = (1.0 - best) / best.max(1e-6);
    let chance = |cells: &CellSet| density.chance(|s| f64::from(u8::from(s.intersects(cells))));
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
                let some = density.chance(|s| 1.0 - MISS_ALL[(*s & *cells).len()] / 126.0);
                (some * (1.0 + hunt) - 1.0, Action::AirStrike(*centre))
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

/// The hard level's action; with `prior`, as played by an opponent who knows how the
/// hard level hides its fleet (for measuring what that knowledge is worth).
pub(super) fn hard<R: rand::Rng + ?Sized>(
    view: &View,
    prior: Option<&Prior>,
    rng: &mut R,
) -> Option<Action> {
    let density = density(view, prior, rng)?;
    let probabilities = &density.probabilities;
    let best = probabilities.iter().map(|(_, q)| *q).fold(0.0, f64::max);
    if view.variant.has_weapons()
        && best < 0.99
        && let Some(aim) = weapons(view, &density, best, rng)
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

/// Cells a [`CellSet`] can hold, by [`Coord::index`].
const CELL_INDEX: usize = 144;

/// Rival layouts drawn for the hard level's fleet; the one whose larger ships give
/// away the least water is kept.
const RIVALS: usize = 16;

/// The water the rings of a layout's ships of two decks or more would give away when
/// they sink (counted per ship). Single decks are left out so they lie uniformly in
/// the water the larger ships leave: counted, they crowd into corners, and an opponent
/// who knows it finds them sooner than in a uniform layout.
fn ring_score(decks: &CellSet, size: BoardSize) -> usize {
    decks
        .side_components()
        .filter(|ship| ship.len() >= 2)
        .map(|ship| ship.surroundings(size).len())
        .sum()
}

/// The hard level's fleet: the best of `RIVALS` uniformly random layouts by
/// [`ring_score`]. Measured (1,000 games each, 2026-12-05): the hard level's hunting
/// needs 26.45 turns to sink such a fleet in Armada against 23.28 for a uniform one,
/// the medium level 28.27 against 26.59; and an opponent who knows exactly how it is
/// chosen ([`Prior`], `bench-ai --knowing`) gains nothing: 23.95 turns, and 55.98
/// shots in the classic game against 56.29 for a uniform fleet.
pub(super) fn place<R: rand::Rng + ?Sized>(spec: &FleetSpec, rng: &mut R) -> Fleet {
    let placer = Placer::new(spec);
    let size = spec.size();
    (0..RIVALS)
        .map(|_| placer.place(rng))
        .min_by_key(|fleet| ring_score(&fleet.decks(), size))
        .expect("at least one rival")
}

/// How the hard level's placement weighs a layout against a uniform draw, by its
/// [`ring_score`]: what an opponent who knows how it hides its fleet would believe.
#[derive(Clone, Debug)]
pub struct Prior {
    /// The relative chance of a layout with each score. A score above every drawn one
    /// weighs nothing: no draw scored that high, so the least of `RIVALS` never does.
    weights: Vec<f64>,
}

impl Prior {
    /// Scores counted over `draws` uniform layouts of `spec`.
    pub fn of_hard_placement<R: rand::Rng + ?Sized>(
        spec: &FleetSpec,
        draws: u32,
        rng: &mut R,
    ) -> Self {
        let placer = Placer::new(spec);
        let size = spec.size();
        let mut counts: Vec<f64> = Vec::new();
        for _ in 0..draws {
            let score = ring_score(&placer.place(rng).decks(), size);
            if counts.len() <= score {
                counts.resize(score + 1, 0.0);
            }
            counts[score] += 1.0;
        }
        let n = f64::from(draws.max(1));
        // `P(score ≥ g)` for each score.
        let mut at_least = vec![0.0; counts.len() + 1];
        for g in (0..counts.len()).rev() {
            at_least[g] = at_least[g + 1] + counts[g] / n;
        }
        let k = RIVALS as i32;
        let weights = (0..counts.len())
            .map(|g| {
                let p = counts[g] / n;
                if p > 0.0 {
                    // The chance that the least of k draws scores g, per layout scoring g.
                    (at_least[g].powi(k) - at_least[g + 1].powi(k)) / p
                } else {
                    // A score between drawn ones: the limit of the same, k · P(≥ g)^(k − 1).
                    RIVALS as f64 * at_least[g].powi(k - 1)
                }
            })
            .collect();
        Self { weights }
    }

    fn weight(&self, score: usize) -> f64 {
        self.weights.get(score).copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng as _;

    use super::*;
    use crate::rules::Variant;

    #[test]
    fn one_who_knows_the_placement_believes_tight_rings_likelier() {
        let spec = Variant::Armada.fleet();
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
        let prior = Prior::of_hard_placement(&spec, 20_000, &mut rng);
        let scores: Vec<usize> = (0..prior.weights.len()).collect();
        let (low, high) = (scores[0], scores[scores.len() - 1]);
        assert!(prior.weight(low) > 1.0, "the tightest layouts weigh more");
        assert!(prior.weight(high) < 1e-6, "the loosest are never kept");
        assert!(
            scores
                .windows(2)
                .all(|w| prior.weight(w[0]) >= prior.weight(w[1])),
            "a tighter layout never weighs less"
        );
        assert!(
            prior.weight(10_000) < 1e-12,
            "a score never met beyond the draws"
        );
    }
}
