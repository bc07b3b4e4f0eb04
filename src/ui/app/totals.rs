//! Totals across games in the window: each game counted once its verdict is settled,
//! its kind's line on the results, and every kind played on the home screen.
//! It counts what the verdict says; it never decides who won.

use egui::RichText;

use super::super::i18n::{Arg, Text};
use super::{Armada, Driver, TotalsLost};
use crate::driver::{Against, Kind, Level, Outcome, Tally};

impl Armada {
    /// Counts the game on screen once its verdict is settled (the totals remember
    /// which games they counted, so a redraw or a reopened table counts nothing
    /// again), and gives the results the figures of its kind.
    pub(super) fn count_game(&mut self) {
        let Some(play) = self.play.as_deref_mut() else {
            return;
        };
        let session = play.driver.session();
        let table = session.table();
        let (Some(verdict), Some(game), Some(variant)) =
            (table.settled(), table.game_number(), table.variant())
        else {
            play.tally = None;
            return;
        };
        let against = match &play.driver {
            Driver::Local(local) => Against::Computer(local.level()),
            Driver::Remote(_) => Against::Friend,
        };
        let kind = Kind { against, variant };
        let me = session.seat();
        // The home screen says why nothing is counted.
        if matches!(self.totals_lost, Some(TotalsLost::Unreadable(_))) {
            play.tally = None;
            return;
        }
        if self.totals.record(kind, &table.id(), game, me, verdict)
            && let Some(store) = &self.store
            && let Err(error) = store.save_totals(&self.totals)
        {
            // The totals are a convenience: failing to keep them changes no game.
            tracing::warn!(%error, "cannot save the totals");
        }
        let counted = Outcome::of(verdict, me).map(|_| self.totals.tally(kind));
        play.tally = Some((kind, counted));
    }

    /// The home screen's table of totals: a row for each kind of game played.
    pub(super) fn totals_section(&self, ui: &mut egui::Ui) {
        let t = &self.text;
        ui.add_space(12.0);
        ui.heading(t.get("totals-title"));
        let (id, path) = match &self.totals_lost {
            Some(TotalsLost::SetAside(path)) => ("totals-damaged", path),
            Some(TotalsLost::Unreadable(path)) => ("totals-unreadable", path),
            None => ("", &String::new()),
        };
        if !id.is_empty() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                t.with(id, &[("path", Arg::from(path.as_str()))]),
            );
        }
        if self.totals.is_empty() {
            ui.label(t.get("totals-none"));
            return;
        }
        egui::Grid::new("totals")
            .striped(true)
            .spacing([18.0, 4.0])
            .num_columns(8)
            .show(ui, |ui| {
                for id in [
                    "totals-against",
                    "totals-game",
                    "totals-won",
                    "totals-lost",
                    "totals-drawn",
                    "totals-percent",
                    "totals-streak",
                    "totals-best",
                ] {
                    ui.label(RichText::new(t.get(id)).strong());
                }
                ui.end_row();
                for (kind, tally) in self.totals.kinds() {
                    ui.label(against(t, kind.against));
                    ui.label(variant(t, kind.variant));
                    figure_cells(ui, tally);
                }
                for (kind, tally) in self.totals.icehouse_kinds() {
                    ui.label(super::icehouse::against_name(t, kind.against));
                    ui.label(super::icehouse::kind_name(t, kind));
                    figure_cells(ui, tally);
                }
                for (kind, tally) in self.totals.archimedes_kinds() {
                    ui.label(super::archimedes::against_name(t, kind.against));
                    ui.label(t.with(
                        "totals-archimedes",
                        &[("side", Arg::from(u32::from(kind.side)))],
                    ));
                    figure_cells(ui, tally);
                }
            });
    }
}

/// A row's figures: won, lost, drawn, the share won, the streak and the best run.
fn figure_cells(ui: &mut egui::Ui, tally: Tally) {
    for figure in [tally.won, tally.lost, tally.drawn] {
        ui.label(figure.to_string());
    }
    ui.label(format!("{} %", tally.win_percent()));
    ui.label(tally.streak.to_string());
    ui.label(tally.best.to_string());
    ui.end_row();
}

/// The results' line for `kind`: its totals with this game counted, or why this
/// game is not counted.
pub(super) fn line(t: &Text, kind: Kind, tally: Option<Tally>) -> String {
    let Some(tally) = tally else {
        return t.get("totals-not-counted");
    };
    let who = match kind.against {
        Against::Computer(level) => t.with(
            "past-computer",
            &[("level", Arg::from(level_name(t, level)))],
        ),
        Against::Friend => t.get("past-friend"),
    };
    let mut args = vec![
        ("who", Arg::from(who)),
        ("variant", Arg::from(variant(t, kind.variant))),
    ];
    args.extend(figures(tally));
    t.with("totals-line", &args)
}

/// A tally's figures as a message's arguments: won, lost, drawn, percent, streak, best.
pub(super) fn figures(tally: Tally) -> [(&'static str, Arg); 6] {
    [
        ("won", Arg::from(tally.won)),
        ("lost", Arg::from(tally.lost)),
        ("drawn", Arg::from(tally.drawn)),
        ("percent", Arg::from(tally.win_percent())),
        ("streak", Arg::from(tally.streak)),
        ("best", Arg::from(tally.best)),
    ]
}

/// Who a kind of game is against, as the home table names it.
fn against(t: &Text, against: Against) -> String {
    match against {
        Against::Computer(level) => level_name(t, level),
        Against::Friend => t.get("totals-friend"),
    }
}

fn level_name(t: &Text, level: Level) -> String {
    match level {
        Level::Easy => t.get("level-easy"),
        Level::Medium => t.get("level-medium"),
        Level::Hard => t.get("level-hard"),
        Level::Random => level.to_string(),
    }
}

fn variant(t: &Text, variant: crate::rules::Variant) -> String {
    match variant {
        crate::rules::Variant::Armada => t.get("totals-armada"),
        crate::rules::Variant::Classic(size) => t.with(
            "totals-classic",
            &[("side", Arg::from(u32::from(size.side())))],
        ),
    }
}
