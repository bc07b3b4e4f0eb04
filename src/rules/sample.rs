//! Layouts drawn uniformly from every legal fleet that fits what is known of a board.
//!
//! Every such layout splits one way into a *covering* — the ships that hold the hit
//! (and radar-seen) decks — and *free* ships, which touch nothing known. Coverings
//! are few and are all enumerated. A covering `C` with `m_L` free ships of length
//! `L`, each with `N_L` allowed positions, is chosen with weight `∏ N_L^m_L / m_L!`;
//! then each free ship is drawn uniformly from its positions and the draw is thrown
//! away at the first touch. A layout is then reached with probability
//! `w_C · ∏ m_L! / ∏ N_L^m_L / Σw = 1 / Σw`: every consistent layout is equally likely.

use rand::RngExt;
use thiserror::Error;

use super::cells::CellSet;
use super::coord::BoardSize;
use super::deduce::{Facts, sunk_ships, through};
use super::fleet::{Dir, Ship};
use super::variant::FleetSpec;

/// Why no sampler could be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SampleError {
    #[error("no legal fleet fits what is known: {0}")]
    Impossible(&'static str),
    #[error("more than {0} ways to cover the known decks")]
    TooMany(usize),
}

#[derive(Clone, Debug)]
struct Covering {
    decks: CellSet,
    /// For each free ship (longest first): the index of its length's position list.
    free: Vec<usize>,
    /// Allowed positions (cells, cells with surroundings) per free length.
    positions: Vec<Vec<(CellSet, CellSet)>>,
}

/// Draws layouts consistent with a board's facts, each equally likely.
#[derive(Clone, Debug)]
pub struct Sampler {
    sunk: CellSet,
    coverings: Vec<Covering>,
    /// Cumulative weights, for choosing a covering.
    cumulative: Vec<f64>,
}

impl Sampler {
    /// Enumerates the coverings of what `facts` say; at most `limit` of them.
    pub fn new(spec: &FleetSpec, facts: &Facts, limit: usize) -> Result<Self, SampleError> {
        let size = spec.size();
        let (sunk_list, mut counts) = sunk_ships(spec, facts).map_err(SampleError::Impossible)?;
        let sunk = sunk_list.iter().fold(CellSet::EMPTY, |all, s| {
            all | s.mask(size).unwrap_or_default()
        });
        let blocked = facts.water | sunk | sunk.surroundings(size);
        let must = (facts.hits | facts.seen_decks) & CellSet::board(size);
        if must.intersects(&blocked) {
            return Err(SampleError::Impossible(
                "a deck lies on water or next to a sunk ship",
            ));
        }
        let mut found = Vec::new();
        let mut chosen = CellSet::EMPTY;
        enumerate(
            size,
            facts.hits,
            blocked,
            must,
            &mut counts,
            &mut chosen,
            &mut found,
            limit,
        )?;
        let mut coverings = Vec::new();
        let mut cumulative = Vec::new();
        let mut total = 0.0;
        for (decks, blocked, counts) in found {
            let mut free = Vec::new();
            let mut positions = Vec::new();
            let mut weight = 1.0;
            for len in (1..counts.len()).rev().filter(|&l| counts[l] > 0) {
                let allowed = positions_avoiding(size, len as u8, blocked);
                let m = i32::from(counts[len]);
                weight *= (allowed.len() as f64).powi(m) / factorial(m);
                free.extend(std::iter::repeat_n(positions.len(), counts[len] as usize));
                positions.push(allowed);
            }
            if weight > 0.0 {
                total += weight;
                cumulative.push(total);
                coverings.push(Covering {
                    decks,
                    free,
                    positions,
                });
            }
        }
        if coverings.is_empty() {
            return Err(SampleError::Impossible(
                "no legal fleet fits the answers given",
            ));
        }
        Ok(Self {
            sunk,
            coverings,
            cumulative,
        })
    }

    /// How many coverings there are.
    pub fn coverings(&self) -> usize {
        self.coverings.len()
    }

    /// One consistent layout's decks; `None` if `tries` draws were all thrown away.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R, tries: usize) -> Option<CellSet> {
        let total = *self.cumulative.last()?;
        for _ in 0..tries {
            let pick = rng.random::<f64>() * total;
            let at = self
                .cumulative
                .partition_point(|&c| c <= pick)
                .min(self.coverings.len() - 1);
            let covering = &self.coverings[at];
            if let Some(decks) = draw_free(covering, rng) {
                return Some(decks | covering.decks | self.sunk);
            }
        }
        None
    }
}

fn draw_free<R: rand::Rng + ?Sized>(covering: &Covering, rng: &mut R) -> Option<CellSet> {
    let mut decks = CellSet::EMPTY;
    let mut halo = CellSet::EMPTY;
    for &list in &covering.free {
        let options = &covering.positions[list];
        let (cells, around) = options[rng.random_range(0..options.len())];
        if cells.intersects(&halo) {
            return None;
        }
        decks |= cells;
        halo |= around;
    }
    Some(decks)
}

fn factorial(m: i32) -> f64 {
    (1..=m).map(f64::from).product()
}

fn positions_avoiding(size: BoardSize, len: u8, blocked: CellSet) -> Vec<(CellSet, CellSet)> {
    let dirs: &[Dir] = if len == 1 {
        &[Dir::Across]
    } else {
        &[Dir::Across, Dir::Down]
    };
    size.cells()
        .flat_map(|bow| dirs.iter().map(move |&dir| Ship::new(bow, dir, len)))
        .filter_map(|ship| ship.mask(size))
        .filter(|cells| !cells.intersects(&blocked))
        .map(|cells| (cells, cells | cells.surroundings(size)))
        .collect()
}

type Found = Vec<(CellSet, CellSet, [u8; 13])>;

/// Every way to cover `must` with ships from `counts`: the lowest uncovered cell is
/// covered first, so each covering is found exactly once.
#[allow(clippy::too_many_arguments)]
fn enumerate(
    size: BoardSize,
    hits: CellSet,
    blocked: CellSet,
    must: CellSet,
    counts: &mut [u8; 13],
    chosen: &mut CellSet,
    found: &mut Found,
    limit: usize,
) -> Result<(), SampleError> {
    let Some(target) = must.iter().next() else {
        if found.len() >= limit {
            return Err(SampleError::TooMany(limit));
        }
        found.push((*chosen, blocked, *counts));
        return Ok(());
    };
    for len in (1..counts.len()).rev() {
        if counts[len] == 0 {
            continue;
        }
        for ship in through(target, len as u8, size) {
            let Some(cells) = ship.mask(size) else {
                continue;
            };
            let ring = cells.surroundings(size);
            if cells.intersects(&blocked) || cells.is_subset(&hits) || ring.intersects(&must) {
                continue;
            }
            counts[len] -= 1;
            let before = *chosen;
            *chosen |= cells;
            let result = enumerate(
                size,
                hits,
                blocked | cells | ring,
                must - cells,
                counts,
                chosen,
                found,
                limit,
            );
            *chosen = before;
            counts[len] += 1;
            result?;
        }
    }
    Ok(())
}
