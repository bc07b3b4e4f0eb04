//! Hard: the probability of a deck in every cell, from layouts sampled uniformly among all
//! that fit what is known, and each action chosen by its expected value.

use rand::RngExt;

use super::View;
use crate::rules::{
    Action, CellSet, Coord, Facts, Heading, Sampler, Torpedo, Weapon, legal, square,
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
    let open = chart.unmarked();
    let probabilities = open
        .iter()
        .map(|cell| {
            (
                cell,
                samples.iter().filter(|s| s.contains(cell)).count() as f64 / n,
            )
        })
        .collect();
    Some((probabilities, samples))
}

pub(super) fn hard<R: rand::Rng + ?Sized>(view: &View, rng: &mut R) -> Option<Action> {
    let (probabilities, samples) = density(view, rng)?;
    let p = |cell: Coord| {
        probabilities
            .iter()
            .find(|(c, _)| *c == cell)
            .map_or(0.0, |(_, q)| *q)
    };
    let best = probabilities.iter().map(|(_, q)| *q).fold(0.0, f64::max);
    let size = view.variant.size();
    let open = view.chart.unmarked();
    let ok = |a: &Action| legal(view.variant, view.chart, view.stock, a).is_ok();

    if view.variant.has_weapons() && best < 0.99 {
        // Air strike: five of the nine cells, so 5/9 of the square's expected decks.
        if view.stock.left(Weapon::AirStrike) > 0 {
            let strike = size
                .cells()
                .filter_map(|c| {
                    square(c, size)
                        .map(|cells| (c, cells.iter().map(|&x| p(x)).sum::<f64>() * 5.0 / 9.0))
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            // Worth an action when it beats a shot by far: early, or on a crowded square.
            if let Some((centre, expected)) = strike
                && expected >= 1.0
                && expected >= best + 0.5
                && ok(&Action::AirStrike(centre))
            {
                return Some(Action::AirStrike(centre));
            }
        }
        // Torpedo: the line most likely to hold a deck, when that beats any one shot.
        if view.stock.left(Weapon::Torpedo) > 0 {
            let mut lines = Vec::new();
            for line in 0..size.side() {
                for heading in [Heading::Right, Heading::Down] {
                    let torpedo = Torpedo { heading, line };
                    let cells: CellSet = torpedo
                        .path(size)
                        .into_iter()
                        .flatten()
                        .filter(|c| open.contains(*c))
                        .collect();
                    let hit = samples.iter().filter(|s| s.intersects(&cells)).count() as f64
                        / samples.len() as f64;
                    lines.push((torpedo, hit, cells.len()));
                }
            }
            if let Some(&(torpedo, hit, cleared)) = lines
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1).then(a.2.cmp(&b.2)))
                && hit >= 0.9
                && hit >= best + 0.3
                && cleared >= 4
            {
                let heading = match (torpedo.heading, rng.random_bool(0.5)) {
                    (Heading::Right, true) => Heading::Left,
                    (Heading::Down, true) => Heading::Up,
                    (h, _) => h,
                };
                let action = Action::Torpedo(Torpedo { heading, ..torpedo });
                if ok(&action) {
                    return Some(action);
                }
            }
        }
        // Radar: where the picture would settle the most doubt, while hunting.
        if view.stock.left(Weapon::Radar) > 0 && view.chart.hits().is_empty() && open.len() < 85 {
            let doubt = |c: Coord| {
                square(c, size).map(|cells| cells.iter().map(|&x| p(x) * (1.0 - p(x))).sum::<f64>())
            };
            if let Some(centre) = size.cells().filter(|&c| doubt(c).is_some()).max_by(|a, b| {
                doubt(*a)
                    .unwrap_or(0.0)
                    .total_cmp(&doubt(*b).unwrap_or(0.0))
            }) && ok(&Action::Radar(centre))
            {
                return Some(Action::Radar(centre));
            }
        }
    }
    let top: Vec<Coord> = probabilities
        .iter()
        .filter(|(_, q)| (*q - best).abs() < 1e-12)
        .map(|(c, _)| *c)
        .collect();
    (!top.is_empty()).then(|| Action::Shot(top[rng.random_range(0..top.len())]))
}
