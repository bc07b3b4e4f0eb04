//! `armada bench-ai --game icehouse` (feature `bench`): two captains against each
//! other with seats and squadrons alternating, every action's thinking time, and
//! how fast the proposals a window needs are (a line of fire found at a target; the
//! targets lit under a pointer sliding along a side), and how the games ended. The
//! last line carries the figures.

use std::time::Instant;

use anyhow::{Context as _, Result};
use rand::SeedableRng as _;
use rand::rngs::ChaCha8Rng;

use armada::icehouse::{
    Broadside, EndReason, Fleet, Game, Goal, Level, Side, choose, random_placement, shot_from,
};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or(0.0)
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

/// The ways a game ended, by reason and, for quiet waters, who won.
#[derive(Default)]
struct Endings {
    all_sunk: u32,
    flagship_sunk: u32,
    rammed: u32,
    quiet: [u32; 3],
    broke_through: u32,
    held: u32,
}

impl Endings {
    fn count(&mut self, game: &Game) {
        let Some(ending) = game.ending() else {
            return;
        };
        match ending.reason {
            EndReason::AllSunk => self.all_sunk += 1,
            EndReason::FlagshipSunk => self.flagship_sunk += 1,
            EndReason::Rammed => self.rammed += 1,
            EndReason::Quiet => self.quiet[ending.winner.map_or(2, Side::index)] += 1,
            EndReason::BrokeThrough => self.broke_through += 1,
            EndReason::Held => self.held += 1,
        }
    }
}

impl std::fmt::Display for Endings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "end_all_sunk={} end_flagship_sunk={} end_rammed={} end_quiet_south={} \
             end_quiet_north={} end_quiet_draw={} end_broke_through={} end_held={}",
            self.all_sunk,
            self.flagship_sunk,
            self.rammed,
            self.quiet[0],
            self.quiet[1],
            self.quiet[2],
            self.broke_through,
            self.held
        )
    }
}

/// The goal of game `n` (a breakthrough's attacker alternating every game).
fn goal_of(name: Option<&str>, n: u32) -> Result<Goal> {
    Ok(match name.unwrap_or("sink") {
        "sink" => Goal::SinkAll,
        "flagship" => Goal::Flagship,
        "breakthrough" => Goal::Breakthrough {
            attacker: if n.is_multiple_of(2) {
                Side::South
            } else {
                Side::North
            },
        },
        other => anyhow::bail!("{other} is not a goal: sink, flagship or breakthrough"),
    })
}

/// Pits `a` against `b` over `games` games (a south in even games, squadrons
/// alternating every two) with one `goal`, measuring each action and, at the start
/// of every turn, the targets lit from each ship's two sides at five places of the
/// shadow.
pub fn bench_ai(versus: Option<&str>, games: u32, seed: u64, goal: Option<&str>) -> Result<u8> {
    let (a, b) = versus
        .unwrap_or("hard:medium")
        .split_once(':')
        .context("--match takes A:B, like hard:medium")?;
    let level = |name: &str| {
        Level::parse(name).with_context(|| format!("{name} is not a level: easy, medium or hard"))
    };
    let levels = [level(a)?, level(b)?];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut wins, mut losses, mut draws, mut turns) = (0u32, 0u32, 0u32, 0u64);
    let mut think: Vec<f64> = Vec::new();
    let mut lit: Vec<f64> = Vec::new();
    let mut endings = Endings::default();
    for n in 0..games {
        let goal_n = goal_of(goal, n)?;
        let a_side = if n % 2 == 0 { Side::South } else { Side::North };
        let fleets = if n % 4 < 2 {
            [Fleet::HEAVY, Fleet::LIGHT]
        } else {
            [Fleet::LIGHT, Fleet::HEAVY]
        };
        let placements =
            Side::BOTH.map(|side| random_placement(side, fleets[side.index()], goal_n, &mut rng));
        let mut game = Game::new(
            goal_n,
            fleets,
            [placements[0].as_slice(), placements[1].as_slice()],
        )
        .map_err(|(side, e)| anyhow::anyhow!("{side}'s placement: {e}"))?;
        let mut last_turn = 0;
        while game.ending().is_none() {
            let side = game.to_move();
            if game.turn() != last_turn {
                last_turn = game.turn();
                lit.extend(light_targets(&game));
            }
            let who = if side == a_side { levels[0] } else { levels[1] };
            let start = Instant::now();
            let action = choose(&game, who, &mut rng);
            think.push(start.elapsed().as_secs_f64() * 1000.0);
            game.play(action)
                .map_err(|e| anyhow::anyhow!("a captain's action was refused: {e}"))?;
        }
        turns += u64::from(game.turn());
        endings.count(&game);
        match game.ending().and_then(|e| e.winner) {
            Some(w) if w == a_side => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    let think = sorted(think);
    let lit = sorted(lit);
    super::emit(&format!(
        "match={}:{} games={games} wins={wins} losses={losses} draws={draws} win_rate={:.3} \
         turns_mean={:.1} think_p50_ms={:.3} think_p99_ms={:.3} lit_positions={} lit_p50_ms={:.3} \
         lit_p99_ms={:.3} lit_max_ms={:.3} goal={} {endings}\n",
        levels[0].name(),
        levels[1].name(),
        f64::from(wins) / f64::from(games.max(1)),
        turns as f64 / f64::from(games.max(1)),
        percentile(&think, 0.5),
        percentile(&think, 0.99),
        lit.len(),
        percentile(&lit, 0.5),
        percentile(&lit, 0.99),
        lit.last().copied().unwrap_or(0.0),
        goal.unwrap_or("sink"),
    ));
    Ok(0)
}

/// What a window does as the pointer moves the shadow along one side: every enemy
/// target lit or not. Timed per pointer position (ms) where the shadow covers at
/// least one enemy (elsewhere nothing is searched), over the side to move's ships,
/// both sides, five places along each.
fn light_targets(game: &Game) -> Vec<f64> {
    let mine = game.ships(game.to_move());
    let enemies = game.ships(game.to_move().other());
    let mut times = Vec::new();
    for (i, ship) in mine.iter().enumerate().filter(|(_, s)| s.afloat) {
        let max = ship.size().max_offset();
        for side in Broadside::BOTH {
            for k in 0..5 {
                let o = max * k / 4;
                let shadow = ship.pose.field(ship.size(), side, o).triangle();
                if !enemies
                    .iter()
                    .any(|e| e.afloat && shadow.touches(&e.footprint()))
                {
                    continue;
                }
                let start = Instant::now();
                for target in 0..enemies.len() {
                    let _ = shot_from(game, i as u8, side, o, target as u8);
                }
                times.push(start.elapsed().as_secs_f64() * 1000.0);
            }
        }
    }
    times
}
