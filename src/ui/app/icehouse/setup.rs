//! The Icehouse choices on the home screen (setup, goal, squadron, points fleet) and the words the screens name them by.

use super::super::{IceSetupKind, IceSquadron, Mode, Prefs};
use super::{Arg, Color32, Fleet, Goal, IcehouseGoal, Level, Side, Size, Text};

/// Who the totals' line was played against.
pub(in crate::ui::app) fn against_name(
    t: &Text,
    against: crate::driver::IcehouseAgainst,
) -> String {
    match against {
        crate::driver::IcehouseAgainst::Computer(level) => level_name(t, level),
        crate::driver::IcehouseAgainst::Friend => t.get("totals-friend"),
    }
}

/// The totals' game column for Icehouse Armada: the game and the squadron.
pub(in crate::ui::app) fn kind_name(t: &Text, kind: crate::driver::IcehouseKind) -> String {
    let squadron = t.get(if kind.heavy { "ice-heavy" } else { "ice-light" });
    t.with("totals-icehouse", &[("squadron", Arg::from(squadron))])
}

/// A level's name as the home screen says it.
pub(in crate::ui::app) fn level_name(t: &Text, level: Level) -> String {
    t.get(match level {
        Level::Easy => "level-easy",
        Level::Medium => "level-medium",
        Level::Hard => "level-hard",
    })
}

/// The counts of one's own points fleet, and what it is worth (red unless 12).
pub(super) fn points_editor(ui: &mut egui::Ui, t: &Text, own: &mut [u8; 3]) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t.get("ice-points-own"));
        for (value, id) in own.iter_mut().zip(["ice-large", "ice-medium", "ice-small"]) {
            ui.add(egui::DragValue::new(value).range(0..=4));
            ui.label(t.get(id));
        }
    });
    let pips = Fleet::new(own[0], own[1], own[2]).pips();
    let line = t.with("ice-points-total", &[("pips", Arg::from(pips))]);
    if pips == crate::driver::ice::POINTS {
        ui.label(line);
    } else {
        ui.colored_label(Color32::from_rgb(240, 120, 110), line);
    }
}

/// A fleet in words: "1 large, 3 medium, 3 small" (sizes it has none of left out).
pub(super) fn fleet_words(t: &Text, fleet: Fleet) -> String {
    [
        (fleet.large, "ice-count-large"),
        (fleet.medium, "ice-count-medium"),
        (fleet.small, "ice-count-small"),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, id)| t.with(id, &[("n", Arg::from(u32::from(n)))]))
    .collect::<Vec<_>>()
    .join(", ")
}

pub(super) fn size_name(t: &Text, size: Size) -> String {
    t.get(match size {
        Size::Small => "ice-small",
        Size::Medium => "ice-medium",
        Size::Large => "ice-large",
    })
}

pub(super) fn goal_name(t: &Text, goal: Goal, me: Side) -> String {
    t.get(match goal {
        Goal::SinkAll => "ice-goal-sink",
        Goal::Flagship => "ice-goal-flagship",
        Goal::Breakthrough { attacker } if attacker == me => "ice-goal-attack",
        Goal::Breakthrough { .. } => "ice-goal-defend",
    })
}

/// The home card's choices for Icehouse Armada: the goal and the squadron; whether
/// one changed.
pub(in crate::ui::app) fn options(ui: &mut egui::Ui, t: &Text, prefs: &mut Prefs) -> bool {
    let before = (prefs.ice_goal, prefs.ice_squadron, prefs.ice_setup);
    ui.indent("ice_options", |ui| {
        choice_row(
            ui,
            t,
            "ice-goal",
            &mut prefs.ice_goal,
            &[
                (IcehouseGoal::SinkAll, "ice-goal-sink"),
                (IcehouseGoal::Flagship, "ice-goal-flagship"),
                (
                    IcehouseGoal::Breakthrough {
                        person_attacks: true,
                    },
                    "ice-goal-attack",
                ),
                (
                    IcehouseGoal::Breakthrough {
                        person_attacks: false,
                    },
                    "ice-goal-defend",
                ),
            ],
        );
        let setup = &mut prefs.ice_setup;
        choice_row(
            ui,
            t,
            "ice-setup",
            &mut setup.kind,
            &[
                (IceSetupKind::Basic, "ice-setup-basic"),
                (IceSetupKind::Advanced, "ice-setup-advanced"),
                (IceSetupKind::Points, "ice-setup-points"),
            ],
        );
        let count = |ui: &mut egui::Ui, value: &mut u8, least: u8, id: &str| {
            ui.add(egui::DragValue::new(value).range(least..=4));
            ui.label(t.get(id));
        };
        match setup.kind {
            IceSetupKind::Basic => {}
            IceSetupKind::Advanced => {
                ui.horizontal_wrapped(|ui| {
                    ui.label(t.get("ice-advanced-heavy"));
                    count(ui, &mut setup.heavy, 1, "ice-large");
                    ui.label(t.get("ice-advanced-light"));
                    count(ui, &mut setup.medium, 0, "ice-medium");
                    count(ui, &mut setup.small, 0, "ice-small");
                });
            }
            IceSetupKind::Points => points_editor(ui, t, &mut setup.own),
        }
        if setup.kind != IceSetupKind::Points {
            choice_row(
                ui,
                t,
                "ice-squadron",
                &mut prefs.ice_squadron,
                &[
                    (IceSquadron::Heavy, "ice-heavy"),
                    (IceSquadron::Light, "ice-light"),
                ],
            );
        }
    });
    before != (prefs.ice_goal, prefs.ice_squadron, prefs.ice_setup)
}

/// One line of choices: its name, then a radio button for each (value, message id).
fn choice_row<V: PartialEq + Copy>(
    ui: &mut egui::Ui,
    t: &Text,
    name: &str,
    value: &mut V,
    choices: &[(V, &str)],
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(t.get(name));
        for &(choice, id) in choices {
            ui.radio_value(value, choice, t.get(id));
        }
    });
}

/// Why the Icehouse setup chosen at home cannot open a table, if it cannot: a
/// points fleet not worth 12.
pub(in crate::ui::app) fn setup_problem(t: &Text, prefs: &Prefs) -> Option<String> {
    if prefs.mode != Mode::Icehouse || prefs.ice_setup.kind != IceSetupKind::Points {
        return None;
    }
    let own = prefs.ice_setup.own();
    crate::driver::ice::check_points(own)
        .err()
        .map(|_| t.with("ice-points-wrong", &[("pips", Arg::from(own.pips()))]))
}
