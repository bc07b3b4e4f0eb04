//! The view of the enemy sea: the one question the rules ask of a board they cannot see.
//!
//! The defender answers from its whole fleet; an attacker re-resolving an answer
//! it received answers from the checked openings alone. Both go through the same
//! rules code, so they cannot disagree about what an action did.

use thiserror::Error;

use super::chart::Chart;
use super::coord::Coord;
use super::fleet::Fleet;

/// What lies in a cell, as far as the rules need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Content {
    Water,
    /// A deck; `sinks` says whether hitting it now sinks its ship (its other decks are all hit).
    Deck {
        sinks: bool,
    },
}

/// A view that cannot give the answer the rules need.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SeaError {
    /// The view knows nothing of the cell (an answer that left out an opening).
    #[error("nothing is known of {0}, but the rules need it")]
    Unknown(Coord),
    /// The view's answers cannot all be true.
    #[error("the answers contradict each other at {cell}: {why}")]
    Contradiction { cell: Coord, why: &'static str },
}

/// The enemy sea as one side can see it.
pub trait Sea {
    /// What is in `cell`; `chart` is the attacker's chart before this look, which
    /// a whole board needs to tell whether a deck is its ship's last.
    fn look(&mut self, cell: Coord, chart: &Chart) -> Result<Content, SeaError>;
}

impl Sea for Fleet {
    fn look(&mut self, cell: Coord, chart: &Chart) -> Result<Content, SeaError> {
        Ok(match self.ship_cells_at(cell) {
            None => Content::Water,
            Some(mut ship) => {
                ship.remove(cell);
                Content::Deck {
                    sinks: ship.is_subset(&chart.hits()),
                }
            }
        })
    }
}

impl<S: Sea + ?Sized> Sea for &mut S {
    fn look(&mut self, cell: Coord, chart: &Chart) -> Result<Content, SeaError> {
        (**self).look(cell, chart)
    }
}

/// Wraps a sea and records every cell the rules looked at, in order: exactly the
/// cells an answer must open.
#[derive(Debug)]
pub struct Recorder<S> {
    pub sea: S,
    pub looked: Vec<(Coord, Content)>,
}

impl<S: Sea> Recorder<S> {
    pub fn new(sea: S) -> Self {
        Self {
            sea,
            looked: Vec::new(),
        }
    }
}

impl<S: Sea> Sea for Recorder<S> {
    fn look(&mut self, cell: Coord, chart: &Chart) -> Result<Content, SeaError> {
        let content = self.sea.look(cell, chart)?;
        self.looked.push((cell, content));
        Ok(content)
    }
}
