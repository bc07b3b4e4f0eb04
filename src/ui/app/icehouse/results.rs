//! The Icehouse results: who won and how (from the verdict), ships lost, shots fired and hit, turns, and what the window offers next.

use super::super::totals;
use super::{
    Action, Arg, Asked, IcePlay, RichText, Side, Size, Text, Vec2, against_name, kind_name,
};

impl IcePlay {
    pub(super) fn results(
        &mut self,
        ui: &mut egui::Ui,
        t: &Text,
        totals: &crate::driver::Totals,
    ) -> Asked {
        let mut asked = Asked::Nothing;
        let friend = self.table.level().is_none();
        let Some(decided) = self.table.decided() else {
            if friend {
                ui.label(t.get("arch-settling"));
            }
            return asked;
        };
        let me = self.me();
        let headline = match decided.winner {
            Some(w) if w == me => "arch-won",
            Some(_) => "arch-lost",
            None => "arch-drawn",
        };
        let why = decided.words(t, &me);
        let (lost, shots, turns) = self.figures();
        let again = self.table.again();
        let left = self.table.friend_left();
        let kind = self.kind();
        egui::Frame::group(ui.style())
            .fill(ui.visuals().faint_bg_color)
            .inner_margin(12.0)
            .show(ui, |ui| {
                ui.heading(RichText::new(t.get(headline)).size(26.0).strong());
                ui.label(why);
                let id = if friend {
                    "ice-results-friend"
                } else {
                    "ice-results"
                };
                ui.label(t.with(
                    id,
                    &[
                        ("mine", Arg::from(lost[0])),
                        ("theirs", Arg::from(lost[1])),
                        ("myshots", Arg::from(shots[0])),
                        ("theirshots", Arg::from(shots[1])),
                        ("turns", Arg::from(turns)),
                    ],
                ));
                if let Some(kind) = kind {
                    let mut args = vec![
                        ("against", Arg::from(against_name(t, kind.against))),
                        ("game", Arg::from(kind_name(t, kind))),
                    ];
                    args.extend(totals::figures(totals.icehouse_tally(kind)));
                    ui.label(t.with("ice-totals", &args));
                }
                if friend && left {
                    ui.label(t.get("arch-friend-left"));
                } else if friend && again[0] {
                    ui.label(t.get("ice-again-waiting"));
                } else if friend && again[1] {
                    ui.label(t.get("ice-again-asked"));
                }
                ui.horizontal(|ui| {
                    let label = if friend {
                        "ice-play-again"
                    } else {
                        "arch-new-game"
                    };
                    let button = egui::Button::new(RichText::new(t.get(label)).size(18.0))
                        .min_size(Vec2::new(160.0, 38.0));
                    if ui.add_enabled(!left && !again[0], button).clicked() {
                        asked = Asked::NewGame;
                    }
                    if ui.button(t.get("home")).clicked() {
                        asked = Asked::Home;
                    }
                });
            });
        if friend && matches!(asked, Asked::NewGame) {
            self.table.play_again();
            asked = Asked::Nothing;
        }
        asked
    }

    /// The totals' key of this game: the opponent and the person's squadron.
    pub(super) fn kind(&self) -> Option<crate::driver::IcehouseKind> {
        let me = self.me();
        let heavy = match self.table.game() {
            Some(game) => game.ships(me).iter().any(|s| s.size() == Size::Large),
            None => self.table.fleet_and_goal(self.own)?.0.large > 0,
        };
        let against = self.table.level().map_or(
            crate::driver::IcehouseAgainst::Friend,
            crate::driver::IcehouseAgainst::Computer,
        );
        Some(crate::driver::IcehouseKind { against, heavy })
    }

    /// Ships lost and shots that hit (the person's, the other side's), and turns.
    pub(super) fn figures(&self) -> ([usize; 2], [usize; 2], u32) {
        let Some(game) = self.table.game() else {
            return ([0, 0], [0, 0], 0);
        };
        let me = self.me();
        let lost = |side: Side| game.ships(side).iter().filter(|s| !s.afloat).count();
        let mut shots = [0, 0];
        for (side, action) in self.table.history() {
            if matches!(action, Action::Fire(_)) {
                shots[usize::from(side != me)] += 1;
            }
        }
        ([lost(me), lost(me.other())], shots, game.turn())
    }
}
