//! The computer at Archimedes, four levels as ARCHIMEDES.md describes them: how far
//! each looks (alpha-beta over the engine's own moves) and how often it moves at
//! random. Every level plays a winning move it sees. Deterministic for a given RNG:
//! the search is bounded by depth and by a count of positions, never by a clock.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt as _};

use super::game::{Move, Position, Side};

/// How strong the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Looks at its own move only; about a third of its moves are random.
    Easy,
    /// Looks at its move and the reply; rarely random.
    Medium,
    /// As far as Medium, weighing threats too; almost never random.
    Hard,
    /// Looks furthest; never random.
    Insane,
}

impl Level {
    pub const ALL: [Self; 4] = [Self::Easy, Self::Medium, Self::Hard, Self::Insane];

    /// The chance of a random move, in thousandths.
    fn random_per_mille(self) -> u32 {
        match self {
            Self::Easy => 333,
            Self::Medium => 80,
            Self::Hard => 10,
            Self::Insane => 0,
        }
    }

    /// Plies searched at most.
    fn depth(self) -> u8 {
        match self {
            Self::Easy => 1,
            Self::Medium | Self::Hard => 2,
            Self::Insane => 5,
        }
    }

    /// Positions the search may make (one per move tried) before it settles for the
    /// depth it finished: Insane on a crowded 10×10 board stops here.
    fn budget(self) -> u64 {
        match self {
            Self::Easy | Self::Medium | Self::Hard => 150_000,
            Self::Insane => INSANE_BUDGET,
        }
    }

    /// Whether the evaluation weighs threats (ships one enemy short of sinking),
    /// not the fleets' sizes alone.
    fn sees_threats(self) -> bool {
        matches!(self, Self::Hard | Self::Insane)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
            Self::Insane => "insane",
        })
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|l| l.to_string().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s:?}: the levels are easy, medium, hard and insane"))
    }
}

/// A won game, from the winner's side; less the further away it is, so a nearer
/// win is preferred and a loss put off.
const WIN: i32 = 1_000_000;
const SHIP: i32 = 1_000;
const THREAT: i32 = 120;
/// Insane's budget of positions a move.
const INSANE_BUDGET: u64 = 200_000;

/// What a search learnt of a position: its score to `depth` plies, exact or a bound
/// (the window cut it short), and the best move found, tried first when it is met
/// again — in the next, deeper iteration or by another order of the same moves.
#[derive(Clone, Copy, Debug)]
struct Entry {
    depth: u8,
    score: i32,
    bound: Bound,
    best: Option<Move>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this (a cut-off above the window).
    Lower,
    /// The score is at most this (nothing reached the window).
    Upper,
}

/// The computer's move for the side to move (`None` if it has none).
pub fn choose(position: &Position, level: Level, rng: &mut impl Rng) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let me = position.mover();
    // A winning move seen is always played, at every level.
    let wins: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| {
            let mut next = position.clone();
            next.apply_legal(*mv);
            next.ending().is_some_and(|e| e.winner == Some(me))
        })
        .collect();
    if !wins.is_empty() {
        return Some(wins[rng.random_range(0..wins.len())]);
    }
    if rng.random_range(0..1000) < level.random_per_mille() {
        return Some(moves[rng.random_range(0..moves.len())]);
    }
    let mut search = Search {
        threats: level.sees_threats(),
        nodes: 0,
        budget: level.budget(),
        horizon: level.depth(),
        table: std::collections::HashMap::new(),
        remember: true,
    };
    let mut best = moves.clone();
    let mut order = moves;
    // Deepening one ply at a time, the last depth's best first. A depth the budget
    // cut short still speaks for the moves it finished, the last depth's best among
    // them: the best of those is played.
    for depth in 1..=level.depth() {
        let (scored, finished) = search.root(position, &order, depth);
        if scored.is_empty() {
            break;
        }
        let top = scored.iter().map(|(_, s)| *s).max().unwrap_or(0);
        best = scored
            .iter()
            .filter(|(_, s)| *s == top)
            .map(|(m, _)| *m)
            .collect();
        order = scored.iter().map(|(m, _)| *m).collect();
        let rank: std::collections::HashMap<Move, i32> = scored.into_iter().collect();
        order.sort_by_key(|m| std::cmp::Reverse(rank.get(m).copied().unwrap_or(i32::MIN)));
        if !finished {
            break;
        }
    }
    Some(best[rng.random_range(0..best.len())])
}

struct Search {
    threats: bool,
    nodes: u64,
    budget: u64,
    /// The deepest search of this move, in plies.
    horizon: u8,
    /// Positions met, by [`Position::search_key`]; one move's search only, so the
    /// computer keeps nothing between moves.
    table: std::collections::HashMap<u64, Entry>,
    /// Whether the table is used (the tests compare a search without it).
    remember: bool,
}

impl Search {
    /// The root moves scored to `depth` plies in order, exactly for the best ones (a
    /// move that cannot reach the best so far may score anything below it), and
    /// whether all were: if the budget runs out, the moves finished before it.
    fn root(&mut self, position: &Position, moves: &[Move], depth: u8) -> (Vec<(Move, i32)>, bool) {
        let mut scored = Vec::with_capacity(moves.len());
        let mut top: Option<i32> = None;
        for &mv in moves {
            let mut next = position.clone();
            next.apply_legal(mv);
            self.nodes += 1;
            // Just below the best so far: a move as good as it is scored exactly, so
            // equal moves are told apart from worse ones.
            let alpha = top.map_or(-WIN - 100, |t| t - 1);
            let score = -self.negamax(&next, depth - 1, -WIN - 100, -alpha);
            if self.nodes > self.budget {
                return (scored, false);
            }
            top = Some(top.map_or(score, |t| t.max(score)));
            scored.push((mv, score));
        }
        (scored, true)
    }

    /// The score of `position` for its side to move, `depth` plies on.
    fn negamax(&mut self, position: &Position, depth: u8, mut alpha: i32, beta: i32) -> i32 {
        if let Some(ending) = position.ending() {
            let me = position.mover();
            return match ending.winner {
                None => 0,
                Some(w) if w == me => WIN + i32::from(depth),
                Some(_) => -WIN - i32::from(depth),
            };
        }
        if depth == 0 || self.nodes > self.budget {
            return self.evaluate(position);
        }
        let key = position.search_key(self.horizon);
        let known = self.table.get(&key).copied().filter(|_| self.remember);
        // Only a score to the same depth stands: a deeper one would make the result
        // depend on the order positions were met in (and a win's score counts the
        // plies left).
        if let Some(entry) = known
            && entry.depth == depth
        {
            let stands = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.score >= beta,
                Bound::Upper => entry.score <= alpha,
            };
            if stands {
                return entry.score;
            }
        }
        let floor = alpha;
        // Children ordered by their static score, best first, so that cuts come
        // early; the best move this position had before goes first of all.
        let mut children: Vec<(i32, Move, Position)> = position
            .candidate_moves()
            .into_iter()
            .map(|mv| {
                let mut next = position.clone();
                next.apply_legal(mv);
                (-self.evaluate_any(&next), mv, next)
            })
            .collect();
        self.nodes += children.len() as u64;
        if depth > 1 {
            let first = known.and_then(|e| e.best);
            children.sort_by_key(|(s, mv, _)| (Some(*mv) != first, std::cmp::Reverse(*s)));
        }
        let mut best = -WIN - 100;
        let mut best_move = None;
        for (quick, mv, next) in children {
            let score = if depth == 1 {
                quick
            } else {
                -self.negamax(&next, depth - 1, -beta, -alpha)
            };
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        if self.remember && self.nodes <= self.budget {
            // A search the budget cut short scored some children statically: not kept.
            let bound = if best <= floor {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.insert(
                key,
                Entry {
                    depth,
                    score: best,
                    bound,
                    best: best_move,
                },
            );
        }
        best
    }

    /// A position's static score, for its side to move, ended or not.
    fn evaluate_any(&self, position: &Position) -> i32 {
        match position.ending() {
            Some(ending) => match ending.winner {
                None => 0,
                Some(w) if w == position.mover() => WIN,
                Some(_) => -WIN,
            },
            None => self.evaluate(position),
        }
    }

    /// Fleets' sizes, and (for the stronger levels) ships one enemy short of
    /// sinking: the side to move may bring the third; the other may not yet.
    fn evaluate(&self, position: &Position) -> i32 {
        let me = position.mover();
        let them = me.other();
        let ships = |s: Side| i32::try_from(position.count(s)).unwrap_or(0);
        let mut score = SHIP * (ships(me) - ships(them));
        if self.threats {
            let exposed = position.exposed().map(i32::from);
            score += THREAT * (2 * exposed[them.index()] - exposed[me.index()]);
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng as _;

    use super::*;

    /// The table changes what is searched, never what is found: on positions of
    /// random games, every root move that reaches the best score is the same with
    /// the table and without it, at each depth, with the same best score.
    #[test]
    fn the_table_finds_what_the_plain_search_finds() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
        let mut compared = 0;
        for size in [6, 8] {
            // Transpositions meet from four plies on (two moves of one side in
            // either order before a leaf): the table is really used at depth 4.
            let deepest = if size == 6 { 4 } else { 3 };
            let mut position = Position::start(size).unwrap();
            while !position.is_over() && position.moves() < 60 {
                let moves = position.legal_moves();
                if position.moves().is_multiple_of(8) {
                    for depth in 1..=deepest {
                        let mut best = Vec::new();
                        for remember in [true, false] {
                            let mut search = Search {
                                threats: true,
                                nodes: 0,
                                budget: u64::MAX,
                                horizon: deepest,
                                table: std::collections::HashMap::new(),
                                remember,
                            };
                            // Deepened as `choose` does, so the table holds what
                            // the shallower depths learnt.
                            let mut scored = Vec::new();
                            for d in 1..=depth {
                                scored = search.root(&position, &moves, d).0;
                            }
                            let top = scored.iter().map(|(_, s)| *s).max().unwrap();
                            let mut tops: Vec<Move> = scored
                                .iter()
                                .filter(|(_, s)| *s == top)
                                .map(|(m, _)| *m)
                                .collect();
                            tops.sort();
                            best.push((top, tops));
                        }
                        assert_eq!(
                            best[0],
                            best[1],
                            "size {size}, move {}, depth {depth}",
                            position.moves()
                        );
                        compared += 1;
                    }
                }
                let mv = moves[rng.random_range(0..moves.len())];
                position.play(mv).unwrap();
            }
        }
        assert!(compared >= 20, "{compared} searches compared");
    }
}
