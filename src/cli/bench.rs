//! The benchmark commands (feature `bench`, not shipped): `bench-ai`, `bench-net`,
//! `bench-window`; each prints its figures, the last line `key=value` pairs.

use std::fmt::Write as _;

use anyhow::{Context as _, Result};
use rand::SeedableRng as _;
use rand::rngs::ChaCha8Rng;

use armada::demo::play_levels;
use armada::demo::{Prior, SoloGame, knowing};
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
    knowing: bool,
) -> Result<u8> {
    let variant = if classic {
        Variant::classic(10)?
    } else {
        Variant::Armada
    };
    anyhow::ensure!(games > 0, "--games must be at least 1");
    match (level, versus) {
        (Some(level), None) => {
            let placement = placement.unwrap_or(Level::Random);
            anyhow::ensure!(
                !knowing || (level == Level::Hard && placement == Level::Hard),
                "--knowing measures --level hard against --placement hard"
            );
            // Scores of 200,000 uniform layouts: the prior's tails are what a
            // knowing hunter leans on, so they are counted generously.
            let prior = knowing.then(|| {
                Prior::of_hard_placement(
                    &variant.fleet(),
                    200_000,
                    &mut ChaCha8Rng::seed_from_u64(seed ^ 0x5eed),
                )
            });
            bench_level(level, placement, prior.as_ref(), variant, games, seed);
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

/// `play(n)` for every game number below `games`, on as many threads as the
/// machine has cores; the results in game order. Each game draws from its own
/// generator, so the figures do not depend on the number of threads.
pub(super) fn in_parallel<T: Send>(games: u32, play: impl Fn(u32) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get) as u32;
    let mut results: Vec<(u32, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|first| {
                let play = &play;
                scope.spawn(move || {
                    (first..games)
                        .step_by(threads as usize)
                        .map(|n| (n, play(n)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a benchmark thread panicked"))
            .collect()
    });
    results.sort_by_key(|(n, _)| *n);
    results.into_iter().map(|(_, r)| r).collect()
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

fn bench_level(
    level: Level,
    placement: Level,
    prior: Option<&Prior>,
    variant: Variant,
    games: u32,
    seed: u64,
) {
    let played = in_parallel(games, |n| {
        // The fleets depend on the seed and the game's number alone, so levels
        // (and versions of one) are measured against the same fleets.
        let mut placing = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(n) << 32));
        let fleet = placement.place(&variant.fleet(), &mut placing);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(n) << 32) ^ 1);
        let decks = fleet.decks().len();
        let mut game = SoloGame::new(variant, fleet);
        let mut times = Vec::new();
        let mut yields = Yields::default();
        while !game.is_over() {
            let start = std::time::Instant::now();
            let action = match prior {
                Some(prior) => knowing(prior, &game.view(), &mut rng),
                None => level.choose(&game.view(), &mut rng),
            };
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            let chart = *game.view().chart;
            let found = chart.hits().len() + chart.wrecks().len();
            let report = game
                .play(action, &mut rng)
                .expect("levels only choose legal actions");
            let hunting = chart.hits().is_empty();
            yields.count(action, hunting, found * 3 / decks, &report.effects);
        }
        (
            f64::from(game.actions()),
            f64::from(game.turns()),
            times,
            yields,
        )
    });
    let mut shots = Vec::with_capacity(games as usize);
    let mut turns = Vec::with_capacity(games as usize);
    let mut times = Vec::new();
    let mut yields = Yields::default();
    for (s, t, these, found) in played {
        shots.push(s);
        turns.push(t);
        times.extend(these);
        yields.add(&found);
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
    if variant.has_weapons() {
        yields.print(games);
    }
    println!(
        "level={level} games={games} mean_shots={mean:.2} se={se:.2} p50_ms={:.3} p99_ms={:.3}",
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
}

/// What each kind of action found, by the phase of the hunt it was played in.
#[derive(Clone, Debug, Default)]
struct Yields {
    /// `[kind][phase]`: kinds a shot while no ship is hit and afloat (hunting), a
    /// shot at a hit ship (finishing), torpedo, air strike, radar; phases by the
    /// share of the fleet's decks already found (under a third, under two thirds,
    /// more).
    uses: [[u32; 3]; 5],
    /// Decks hit (a radar: decks seen).
    decks: [[u32; 3]; 5],
    /// Actions that kept the turn (hit something).
    kept: [[u32; 3]; 5],
}

impl Yields {
    const KINDS: [&str; 5] = [
        "shot, hunting",
        "shot, finishing",
        "torpedo",
        "air strike",
        "radar",
    ];

    fn count(
        &mut self,
        action: armada::rules::Action,
        hunting: bool,
        phase: usize,
        effects: &[armada::rules::Effect],
    ) {
        use armada::rules::{Effect, Weapon};
        let kind = match action.weapon() {
            None if hunting => 0,
            None => 1,
            Some(Weapon::Torpedo) => 2,
            Some(Weapon::AirStrike) => 3,
            Some(Weapon::Radar) => 4,
        };
        let phase = phase.min(2);
        let hits = effects.iter().filter(|e| e.is_hit()).count() as u32;
        let seen = effects
            .iter()
            .filter(|e| matches!(e, Effect::Scanned { deck: true, .. }))
            .count() as u32;
        self.uses[kind][phase] += 1;
        self.decks[kind][phase] += hits + seen;
        self.kept[kind][phase] += u32::from(hits > 0);
    }

    fn add(&mut self, other: &Self) {
        for k in 0..5 {
            for p in 0..3 {
                self.uses[k][p] += other.uses[k][p];
                self.decks[k][p] += other.decks[k][p];
                self.kept[k][p] += other.kept[k][p];
            }
        }
    }

    /// A line a kind: uses a game, and decks found a use in each phase of the hunt
    /// (a shot's beside them is what the weapon is measured against).
    fn print(&self, games: u32) {
        println!("decks found a use, by the share of the fleet found before it (decks in uses):");
        for (k, name) in Self::KINDS.iter().enumerate() {
            let uses: u32 = self.uses[k].iter().sum();
            let mut line = format!(
                "  {name:<15} {:>5.2} a game;",
                f64::from(uses) / f64::from(games)
            );
            for (p, phase) in ["first third", "second", "last"].iter().enumerate() {
                let n = self.uses[k][p];
                if n == 0 {
                    line.push_str("  ");
                    line.push_str(phase);
                    line.push_str(": —");
                    continue;
                }
                let _ = write!(
                    line,
                    "  {phase}: {:.2} ({} in {n}, kept the turn {:.0} %)",
                    f64::from(self.decks[k][p]) / f64::from(n),
                    self.decks[k][p],
                    100.0 * f64::from(self.kept[k][p]) / f64::from(n)
                );
            }
            println!("{line}");
        }
    }
}

/// One level against another, seats alternating, the games shared among the cores.
fn bench_match(levels: [Level; 2], variant: Variant, games: u32, seed: u64) {
    let played = in_parallel(games, |game| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(game) << 32));
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
        (a, record.game.ending().and_then(|e| e.winner))
    });
    let (mut wins, mut losses, mut draws) = (0u32, 0u32, 0u32);
    for (a, winner) in played {
        match winner {
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
