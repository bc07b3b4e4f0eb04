//! The benchmark commands (feature `bench`, not shipped): `bench-ai`, `bench-net`,
//! `bench-window`; each prints its figures, the last line `key=value` pairs.

use anyhow::{Context as _, Result};
use rand::SeedableRng as _;
use rand::rngs::ChaCha8Rng;

use armada::demo::SoloGame;
use armada::demo::play_levels;
use armada::driver::Level;
use armada::rules::{Seat, Variant};

use super::{emit, started};

/// `armada bench-window`: the window's first frame, frames during an air strike,
/// memory; the last line carries the figures.
pub fn bench_window(fps: u32, game: &str, shots: Option<&std::path::Path>) -> Result<u8> {
    if let Some(dir) = shots {
        anyhow::ensure!(
            game == "icehouse",
            "--shots takes pictures of --game icehouse"
        );
        let data = tempfile::tempdir()?;
        let store = armada::driver::Store::open(Some(data.path()))?;
        std::fs::create_dir_all(dir)?;
        let saved = armada::ui::icehouse_shots(store, dir)?;
        for name in &saved {
            println!("{}", dir.join(format!("{name}.png")).display());
        }
        anyhow::ensure!(
            saved.len() == 5,
            "only {} of 5 pictures were taken",
            saved.len()
        );
        return Ok(0);
    }
    let screen = match game {
        "sea" | "armada" => armada::ui::BenchScreen::Sea,
        "icehouse" => armada::ui::BenchScreen::Icehouse,
        other => anyhow::bail!("{other:?}: --game takes sea or icehouse"),
    };
    let dir = tempfile::tempdir()?;
    let store = armada::driver::Store::open(Some(dir.path()))?;
    let figures = armada::ui::bench(store, started(), fps, screen)?;
    let stats = |v: &[f64]| {
        let mut sorted = v.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        (at(0.5), at(0.99))
    };
    let (cpu_p50, cpu_p99) = stats(&figures.frame_cpu_ms);
    let (wall_p50, wall_p99) = stats(&figures.frame_wall_ms);
    let (show_p50, show_p99) = stats(&figures.show_ms);
    println!(
        "fps={fps} frames={} first_frame_ms={:.0} frame_cpu_p50_ms={cpu_p50:.2} frame_cpu_p99_ms={cpu_p99:.2} \
         frame_wall_p50_ms={wall_p50:.2} frame_wall_p99_ms={wall_p99:.2} show_p50_ms={show_p50:.2} \
         show_p99_ms={show_p99:.2} rss_mib={:.0} peak_rss_mib={:.0} {}={}",
        figures.frame_cpu_ms.len(),
        figures.first_frame_ms,
        figures.rss_mib,
        figures.peak_rss_mib,
        if screen == armada::ui::BenchScreen::Sea {
            "weapons"
        } else {
            "aimed"
        },
        figures.weapons
    );
    Ok(0)
}

/// `armada bench-ai`: one level alone, or two against each other.
pub fn bench_ai(
    level: Option<Level>,
    versus: Option<&str>,
    games: u32,
    classic: bool,
    seed: u64,
    placement: Option<Level>,
) -> Result<u8> {
    let variant = if classic {
        Variant::classic(10)?
    } else {
        Variant::Armada
    };
    anyhow::ensure!(games > 0, "--games must be at least 1");
    match (level, versus) {
        (Some(level), None) => {
            bench_level(
                level,
                placement.unwrap_or(Level::Random),
                variant,
                games,
                seed,
            );
        }
        (None, Some(pair)) => {
            let (a, b) = pair
                .split_once(':')
                .context("--match takes A:B, like hard:medium")?;
            let levels = [
                a.parse::<Level>().map_err(anyhow::Error::msg)?,
                b.parse::<Level>().map_err(anyhow::Error::msg)?,
            ];
            bench_match(levels, variant, games, seed);
        }
        _ => anyhow::bail!("say --level L or --match A:B"),
    }
    Ok(0)
}

/// `armada bench-net`.
pub fn bench_net() -> Result<u8> {
    let figures = tokio::runtime::Runtime::new()?.block_on(armada::driver::bench_net())?;
    let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    emit(&format!(
        "tcp_connect_ms={:.2} moves={}\nping_rtt_us={:.0} move_rtt_us={:.0} ratio={:.2} quic_connect_ms={:.2} game_ms={:.0}\n",
        ms(figures.tcp_connect),
        figures.moves,
        us(figures.ping_rtt),
        us(figures.move_rtt),
        us(figures.move_rtt) / us(figures.ping_rtt).max(1.0),
        ms(figures.quic_connect),
        ms(figures.game),
    ));
    Ok(0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or(0.0)
}

/// The mean of `values` and its standard error.
fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    (mean, sd / n.sqrt())
}

fn bench_level(level: Level, placement: Level, variant: Variant, games: u32, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut shots = Vec::with_capacity(games as usize);
    let mut turns = Vec::with_capacity(games as usize);
    let mut times = Vec::new();
    for _ in 0..games {
        let fleet = placement.place(&variant.fleet(), &mut rng);
        let mut game = SoloGame::new(variant, fleet);
        while !game.is_over() {
            let start = std::time::Instant::now();
            let action = level.choose(&game.view(), &mut rng);
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            game.play(action, &mut rng)
                .expect("levels only choose legal actions");
        }
        shots.push(f64::from(game.actions()));
        turns.push(f64::from(game.turns()));
    }
    let (turns_mean, turns_se) = mean_se(&turns);
    let (mean, se) = mean_se(&shots);
    shots.sort_by(f64::total_cmp);
    times.sort_by(f64::total_cmp);
    println!(
        "{variant}: median {} shots, p90 {} shots; {turns_mean:.2} ± {turns_se:.2} turns (actions that passed the turn)",
        percentile(&shots, 0.5),
        percentile(&shots, 0.9)
    );
    println!(
        "level={level} games={games} mean_shots={mean:.2} se={se:.2} p50_ms={:.3} p99_ms={:.3}",
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
}

fn bench_match(levels: [Level; 2], variant: Variant, games: u32, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut wins, mut losses, mut draws) = (0u32, 0u32, 0u32);
    for game in 0..games {
        // Seats alternate: A is the host (and moves first) in even games.
        let a = if game % 2 == 0 {
            Seat::Host
        } else {
            Seat::Guest
        };
        let seated = if a == Seat::Host {
            levels
        } else {
            [levels[1], levels[0]]
        };
        let fleets = seated.map(|level| level.place(&variant.fleet(), &mut rng));
        let record = play_levels(variant, seated, Seat::Host, fleets, &mut rng);
        match record.game.ending().and_then(|e| e.winner) {
            Some(w) if w == a => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let rate = f64::from(wins) / f64::from(games);
    let margin = 1.96 * (rate * (1.0 - rate) / f64::from(games)).sqrt();
    println!(
        "{variant}: 95% interval for the win rate {:.3}–{:.3}",
        rate - margin,
        rate + margin
    );
    println!(
        "match={}:{} games={games} wins={wins} losses={losses} draws={draws} win_rate={rate:.3}",
        levels[0], levels[1]
    );
}
