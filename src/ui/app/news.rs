//! The news line under the turn banner: the latest action of either side as a headline ("Hit!", "They sank your cruiser!") once its animation has shown it, the lot before the first; always one line, so nothing below it moves.

use egui::{Color32, RichText};

use super::super::i18n::{Arg, Text};
use super::words::{cell_name, describe};
use super::{Play, Stage, stage};
use crate::driver::Millis;
use crate::rules::{Effect, Fleet, Report, Variant};

/// How much an action weighed: what the headline's colour says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Weight {
    Sunk,
    Hit,
    Quiet,
}

/// One action as the news line tells it, from the moment its animation ends.
#[derive(Clone, Debug)]
pub(super) struct News {
    pub(super) at: Millis,
    pub(super) mine: bool,
    pub(super) weight: Weight,
    pub(super) headline: String,
    pub(super) detail: String,
    /// The length of the ship the action sank, if it sank one.
    pub(super) sunk: Option<u8>,
}

/// How long a ship just sunk glows in the fleet line, in milliseconds.
const FLASH: Millis = 1_600;

/// How many actions' news wait for their animations.
const KEPT: usize = 4;

impl News {
    /// The news of `report`; `own` is the player's fleet (to name the ship the
    /// opponent hit).
    pub(super) fn of(
        t: &Text,
        variant: Variant,
        mine: bool,
        report: &Report,
        own: Option<&Fleet>,
        at: Millis,
    ) -> Self {
        let sunk = report.effects.iter().find_map(|e| match e {
            Effect::Sunk { ship, .. } => u8::try_from(ship.len()).ok(),
            _ => None,
        });
        let hit = report.effects.iter().find_map(|e| match e {
            Effect::Hit(c) => Some(*c),
            _ => None,
        });
        let radar = matches!(report.action, crate::rules::Action::Radar(_));
        let (weight, headline) = match (mine, sunk, hit) {
            (true, Some(len), _) => (
                Weight::Sunk,
                t.with("news-you-sunk", &[("len", Arg::from(u32::from(len)))]),
            ),
            (false, Some(len), _) => (
                Weight::Sunk,
                t.with("news-they-sunk", &[("len", Arg::from(u32::from(len)))]),
            ),
            (true, None, Some(_)) => (Weight::Hit, t.get("news-you-hit")),
            (false, None, Some(cell)) => {
                let len = own
                    .and_then(|f| f.ship_at(cell))
                    .map_or(1, |s| usize::from(s.length()));
                let args = [
                    ("len", Arg::from(len)),
                    ("cell", Arg::from(cell_name(t, variant, cell))),
                ];
                (Weight::Hit, t.with("news-they-hit", &args))
            }
            (true, None, None) if radar => (Weight::Quiet, t.get("news-you-radar")),
            (false, None, None) if radar => (Weight::Quiet, t.get("news-they-radar")),
            (true, None, None) => (Weight::Quiet, t.get("news-you-miss")),
            (false, None, None) => (Weight::Quiet, t.get("news-they-miss")),
        };
        Self {
            at,
            mine,
            weight,
            headline,
            detail: describe(t, variant, report),
            sunk,
        }
    }
}

impl Play {
    /// Keeps `news` until its action has been shown and a newer one has.
    pub(super) fn tell(&mut self, news: News) {
        self.news.push_back(news);
        while self.news.len() > KEPT {
            self.news.pop_front();
        }
    }

    /// The latest news the board already shows.
    pub(super) fn shown_news(&self, now: Millis) -> Option<&News> {
        self.news.iter().rev().find(|n| n.at <= now)
    }

    /// The enemy ship the player sank last while it glows in the fleet line: its
    /// length and brightness.
    pub(super) fn flash(&self, now: Millis) -> Option<(u8, f32)> {
        glow(self.shown_news(now)?, now, self.calm)
    }

    /// The news line: the latest action shown, or the lot before the first.
    pub(super) fn news_line(&self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        if stage(self.driver.session()) != Stage::Battle {
            return;
        }
        ui.horizontal(|ui| {
            ui.set_min_height(26.0);
            if let Some(news) = self.shown_news(now) {
                let colour = match (news.weight, news.mine) {
                    (Weight::Sunk, true) => Color32::from_rgb(255, 206, 84),
                    (Weight::Sunk, false) => Color32::from_rgb(255, 120, 100),
                    (Weight::Hit, true) => Color32::from_rgb(255, 226, 150),
                    (Weight::Hit, false) => Color32::from_rgb(255, 160, 140),
                    (Weight::Quiet, _) => ui.visuals().text_color(),
                };
                let size = if news.weight == Weight::Sunk {
                    20.0
                } else {
                    17.0
                };
                ui.add(
                    egui::Label::new(
                        RichText::new(&news.headline)
                            .size(size)
                            .strong()
                            .color(colour),
                    )
                    .truncate(),
                );
                ui.add(egui::Label::new(RichText::new(&news.detail).weak()).truncate());
            } else {
                let lot = self
                    .driver
                    .session()
                    .table()
                    .history()
                    .is_empty()
                    .then(|| self.lot(t))
                    .flatten();
                ui.label(RichText::new(lot.unwrap_or_default()).size(17.0).italics());
            }
        });
    }
}

/// How a ship `news` sank glows at `now`: its length and how bright (1 at first,
/// 0 when the glow is over); steady with reduced motion (`calm`), pulsing otherwise.
/// Only the player's own sinking glows: the fleet line is the enemy's.
#[allow(clippy::cast_precision_loss)] // ages under FLASH ms are exact in f32
fn glow(news: &News, now: Millis, calm: bool) -> Option<(u8, f32)> {
    let len = news.sunk.filter(|_| news.mine)?;
    let age = now.checked_sub(news.at)?;
    if age >= FLASH {
        return None;
    }
    let age = age as f32;
    let fade = 1.0 - age / FLASH as f32;
    let pulse = if calm {
        1.0
    } else {
        0.65 + 0.35 * (age / 130.0).cos()
    };
    Some((len, fade * pulse))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Action, CellSet, Coord, Placer};
    use crate::ui::i18n::Lang;

    fn report(effects: Vec<Effect>) -> Report {
        let at = Coord::new(2, 1).unwrap();
        Report {
            action: Action::Shot(at),
            again: effects.iter().any(Effect::is_hit),
            effects,
            ending: None,
        }
    }

    #[test]
    fn a_sinking_a_hit_and_a_miss_each_have_their_own_headline() {
        let t = Text::new(Lang::En);
        let variant = Variant::Armada;
        let at = Coord::new(2, 1).unwrap();
        let mut cruiser = CellSet::EMPTY;
        for col in 0..3 {
            cruiser.insert(Coord::new(col, 1).unwrap());
        }
        let sunk = report(vec![Effect::Sunk {
            cell: at,
            ship: cruiser,
            ring: CellSet::EMPTY,
        }]);
        let news = News::of(&t, variant, true, &sunk, None, 0);
        assert_eq!(
            (news.weight, news.headline.as_str()),
            (Weight::Sunk, "You sank their cruiser!")
        );
        let news = News::of(&t, variant, false, &sunk, None, 0);
        assert_eq!(news.headline, "They sank your cruiser!");
        let hit = report(vec![Effect::Hit(at)]);
        assert_eq!(News::of(&t, variant, true, &hit, None, 0).headline, "Hit!");
        let miss = report(vec![Effect::Miss(at)]);
        let news = News::of(&t, variant, false, &miss, None, 0);
        assert_eq!(
            (news.weight, news.headline.as_str()),
            (Weight::Quiet, "They missed.")
        );
        assert_eq!(news.detail, "shot C2: miss");
    }

    #[test]
    fn the_ship_just_sunk_glows_for_a_moment_and_only_the_players_own_sinking() {
        let t = Text::new(Lang::En);
        let mut cruiser = CellSet::EMPTY;
        for col in 0..3 {
            cruiser.insert(Coord::new(col, 1).unwrap());
        }
        let sunk = report(vec![Effect::Sunk {
            cell: Coord::new(2, 1).unwrap(),
            ship: cruiser,
            ring: CellSet::EMPTY,
        }]);
        let mine = News::of(&t, Variant::Armada, true, &sunk, None, 1_000);
        assert_eq!(glow(&mine, 1_000, false), Some((3, 1.0)));
        assert_eq!(glow(&mine, 999, false), None, "not before it is shown");
        assert_eq!(glow(&mine, 1_000 + FLASH, false), None, "over after FLASH");
        // Calm: no pulse, only a steady fade.
        let calm: Vec<f32> = (0..FLASH)
            .step_by(100)
            .map(|age| glow(&mine, 1_000 + age, true).unwrap().1)
            .collect();
        assert!(calm.windows(2).all(|w| w[1] < w[0]), "{calm:?}");
        // Moving: it pulses (brightness rises again at some point).
        let moving: Vec<f32> = (0..FLASH)
            .step_by(50)
            .map(|age| glow(&mine, 1_000 + age, false).unwrap().1)
            .collect();
        assert!(moving.windows(2).any(|w| w[1] > w[0]), "{moving:?}");
        let theirs = News::of(&t, Variant::Armada, false, &sunk, None, 1_000);
        assert_eq!(glow(&theirs, 1_000, false), None);
        let hit = report(vec![Effect::Hit(Coord::new(2, 1).unwrap())]);
        let hit = News::of(&t, Variant::Armada, true, &hit, None, 1_000);
        assert_eq!(glow(&hit, 1_000, false), None);
    }

    #[test]
    fn a_hit_on_the_players_fleet_names_the_ship() {
        let t = Text::new(Lang::En);
        let variant = Variant::Armada;
        let mut rng = rand::rng();
        let fleet = Placer::new(&variant.fleet()).place(&mut rng);
        let battleship = fleet.ships().iter().find(|s| s.length() == 4).unwrap();
        let cell = battleship.bow();
        let news = News::of(
            &t,
            variant,
            false,
            &report(vec![Effect::Hit(cell)]),
            Some(&fleet),
            0,
        );
        let name = cell_name(&t, variant, cell);
        assert_eq!(
            news.headline,
            format!("They hit your battleship at {name}.")
        );
    }
}
