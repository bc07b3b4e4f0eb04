//! One computer player against a hidden fleet and nothing else: how many actions it needs.

use super::{Level, View};
use crate::rules::{
    Action, Chart, Coord, Fleet, Report, ShellOrder, Stock, Variant, legal, resolve,
};

/// A player's side of a game with no opponent moving: for measuring strength.
#[derive(Clone, Debug)]
pub struct SoloGame {
    variant: Variant,
    fleet: Fleet,
    chart: Chart,
    stock: Stock,
    radar: Option<Vec<(Coord, bool)>>,
    actions: u32,
    turns: u32,
}

impl SoloGame {
    pub fn new(variant: Variant, fleet: Fleet) -> Self {
        Self {
            variant,
            chart: Chart::new(variant.size()),
            stock: variant.stock(),
            fleet,
            radar: None,
            actions: 0,
            turns: 0,
        }
    }

    pub fn is_over(&self) -> bool {
        self.chart.wrecks().len() >= self.fleet.decks().len()
    }

    pub fn actions(&self) -> u32 {
        self.actions
    }

    /// Actions that passed the turn (hit nothing, or swept with the radar): in a game
    /// against an opponent these are what the race is lost by.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// What the player may know now (the radar picture only right after a sweep).
    pub fn view(&self) -> View<'_> {
        View {
            variant: self.variant,
            chart: &self.chart,
            stock: self.stock,
            radar: self.radar.as_deref(),
        }
    }

    /// Plays a legal action; an air strike's shells are drawn from `rng` (no peer here).
    pub fn play<R: rand::Rng + ?Sized>(&mut self, action: Action, rng: &mut R) -> Option<Report> {
        legal(self.variant, &self.chart, self.stock, &action).ok()?;
        let shells = matches!(action, Action::AirStrike(_)).then(|| ShellOrder::random(rng));
        let mut chart = self.chart;
        let effects = resolve(
            &mut chart,
            self.fleet.decks().len(),
            action,
            shells,
            &mut self.fleet,
        )
        .ok()?;
        self.chart = chart;
        if let Some(weapon) = action.weapon() {
            self.stock.spend(weapon);
        }
        self.actions += 1;
        if matches!(action, Action::Radar(_)) || !effects.iter().any(crate::rules::Effect::is_hit) {
            self.turns += 1;
        }
        let report = Report {
            action,
            effects,
            again: false,
            ending: None,
        };
        self.radar = report.radar_picture();
        Some(report)
    }
}

/// Actions `level` needs to sink `fleet` alone.
pub fn solo_game<R: rand::Rng + ?Sized>(
    level: Level,
    variant: Variant,
    fleet: Fleet,
    rng: &mut R,
) -> u32 {
    let mut game = SoloGame::new(variant, fleet);
    while !game.is_over() {
        let action = level.choose(&game.view(), rng);
        game.play(action, rng)
            .expect("levels only choose legal actions");
    }
    game.actions()
}
