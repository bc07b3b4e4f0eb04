//! `armada bench-ai --game archimedes` (feature `bench`): one level against a random
//! mover, or two levels against each other with seats alternating; the last line
//! carries the figures, and every move's thinking time is measured.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::{Context as _, Result};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt as _, SeedableRng as _};

use armada::archimedes::{Level, Position, Side, choose};

/// Who plays a side in a measured game.
#[derive(Clone, Copy, Debug)]
enum Player {
    /// Any legal move, uniformly.
    Random,
    Level(Level),
}

/// A whole game from the start of a `size` board; the winner and the moves played.
/// Each computer move's thinking time (ms) goes to `times[level]`.
fn game(
    size: u8,
    players: [Player; 2],
    rng: &mut ChaCha8Rng,
    times: &mut [Vec<f64>; 4],
) -> (Option<Side>, u32) {
    let mut position = Position::start(size).expect("a size checked before");
    while !position.is_over() {
        let side = position.mover();
        let mv = match players[side.index()] {
            Player::Random => {
                let moves = position.legal_moves();
                moves[rng.random_range(0..moves.len())]
            }
            Player::Level(level) => {
                let start = Instant::now();
                let mv = choose(&position, level, rng).expect("a game not over has a move");
                times[level as usize].push(start.elapsed().as_secs_f64() * 1000.0);
                mv
            }
        };
        position.play(mv).expect("players choose legal moves");
    }
    let ending = position.ending().expect("the loop ran to the end");
    (ending.winner, position.moves())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or(0.0)
}

/// Each level's thinking time per move, p50 and p99, and on 10×10 Insane's at most.
fn print_times(times: &mut [Vec<f64>; 4]) -> String {
    let mut line = String::new();
    for level in Level::ALL {
        let t = &mut times[level as usize];
        if t.is_empty() {
            continue;
        }
        t.sort_by(f64::total_cmp);
        println!(
            "{level}: {} moves, thinking p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            t.len(),
            percentile(t, 0.5),
            percentile(t, 0.99),
            t.last().copied().unwrap_or(0.0)
        );
        let _ = write!(line, " {level}_p99_ms={:.2}", percentile(t, 0.99));
    }
    line
}

/// `armada bench-ai --game archimedes`: `--level L` or `--match A:B`.
pub fn bench_ai(
    level: Option<&str>,
    versus: Option<&str>,
    size: u8,
    games: u32,
    seed: u64,
) -> Result<u8> {
    anyhow::ensure!(games > 0, "--games must be at least 1");
    match (level, versus) {
        (Some(level), None) => bench_level(
            level.parse().map_err(anyhow::Error::msg)?,
            size,
            games,
            seed,
        ),
        (None, Some(pair)) => bench_match(pair, size, games, seed),
        _ => anyhow::bail!("say --level L or --match A:B"),
    }
}

/// `--level L`: L against a random mover, seats alternating; mean moves to win.
fn bench_level(level: Level, size: u8, games: u32, seed: u64) -> Result<u8> {
    Position::start(size)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut times: [Vec<f64>; 4] = Default::default();
    let (mut wins, mut won_in) = (0u32, Vec::new());
    for n in 0..games {
        let me = if n % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut players = [Player::Random; 2];
        players[me.index()] = Player::Level(level);
        let (winner, moves) = game(size, players, &mut rng, &mut times);
        if winner == Some(me) {
            wins += 1;
            won_in.push(f64::from(moves));
        }
    }
    let mean = won_in.iter().sum::<f64>() / (won_in.len().max(1) as f64);
    let line = print_times(&mut times);
    println!(
        "game=archimedes size={size} level={level} games={games} wins={wins} win_rate={:.3} mean_moves_to_win={mean:.1}{line}",
        f64::from(wins) / f64::from(games)
    );
    Ok(0)
}

/// `--match A:B`: A against B, A moving first in even games, the games shared
/// among the cores.
fn bench_match(pair: &str, size: u8, games: u32, seed: u64) -> Result<u8> {
    Position::start(size)?;
    let (a, b) = pair
        .split_once(':')
        .context("--match takes A:B, like insane:hard")?;
    let levels = [
        a.parse::<Level>().map_err(anyhow::Error::msg)?,
        b.parse::<Level>().map_err(anyhow::Error::msg)?,
    ];
    let played_games = super::bench::in_parallel(games, |n| {
        let a_side = if n % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut players = [Player::Level(levels[1]); 2];
        players[a_side.index()] = Player::Level(levels[0]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(n) << 32));
        let mut times: [Vec<f64>; 4] = Default::default();
        let (winner, played) = game(size, players, &mut rng, &mut times);
        (a_side, winner, played, times)
    });
    let mut times: [Vec<f64>; 4] = Default::default();
    let (mut wins, mut losses, mut draws, mut moves) = (0u32, 0u32, 0u32, 0u64);
    for (a_side, winner, played, game_times) in played_games {
        for (all, these) in times.iter_mut().zip(game_times) {
            all.extend(these);
        }
        moves += u64::from(played);
        match winner {
            Some(w) if w == a_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let line = print_times(&mut times);
    let rate = f64::from(wins) / f64::from(games);
    println!(
        "{size}×{size}: {:.1} moves a game on average",
        moves as f64 / f64::from(games)
    );
    println!(
        "match={}:{} games={games} wins={wins} losses={losses} draws={draws} win_rate={rate:.3}{line}",
        levels[0], levels[1]
    );
    Ok(0)
}
