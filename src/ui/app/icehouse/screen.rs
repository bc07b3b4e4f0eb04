//! The Icehouse screen within the window: opening, resuming and counting its tables, and what its results ask of the window.

use super::super::{IceSquadron, TotalsLost};
use super::{
    Armada, Asked, Game, IcePlay, IceTable, IcehouseChoice, IcehouseTable, Level, Millis, Point,
    Pose, Side, setup_problem,
};

impl Armada {
    /// The person's Icehouse choices as the home screen holds them (medium level).
    pub(in crate::ui::app) fn ice_choice(&self) -> IcehouseChoice {
        IcehouseChoice {
            level: Level::Medium,
            setup: self.prefs.ice_setup.setup(),
            own: self.prefs.ice_setup.own(),
            squadron: match self.prefs.ice_squadron {
                IceSquadron::Heavy => crate::driver::ice::Squadron::Heavy,
                IceSquadron::Light => crate::driver::ice::Squadron::Light,
            },
            goal: self.prefs.ice_goal,
        }
    }

    /// A new game of Icehouse Armada against the computer.
    pub(in crate::ui::app) fn open_icehouse(&mut self, choice: IcehouseChoice, now: Millis) {
        if let Some(why) = setup_problem(&self.text, &self.prefs) {
            self.note = Some(why);
            return;
        }
        match IcehouseTable::new(choice, self.store.clone(), now) {
            Ok(table) => self.show_icehouse(table),
            Err(error) => self.note = Some(error),
        }
    }

    fn show_icehouse(&mut self, table: IcehouseTable) {
        let table = if self.fast {
            table.without_pauses()
        } else {
            table
        };
        self.ice = Some(Box::new(IcePlay::new(IceTable::Computer(Box::new(table)))));
        self.home = None;
    }

    /// A friend's Icehouse table on screen, both players in.
    pub(in crate::ui::app) fn show_friend_icehouse(
        &mut self,
        remote: Box<crate::driver::Remote<crate::driver::ice_table::Session>>,
    ) {
        let mut play = IcePlay::new(IceTable::Friend(remote));
        play.own = self.prefs.ice_setup.own();
        self.ice = Some(Box::new(play));
        self.home = None;
    }

    /// The saved game of Icehouse Armada, where it was left.
    pub(in crate::ui::app) fn resume_icehouse(&mut self, now: Millis) {
        let Some(store) = self.store.clone() else {
            return;
        };
        match IcehouseTable::resume(store, now, now) {
            Ok(Some(table)) => self.show_icehouse(table),
            Ok(None) => {}
            Err(error) => self.note = Some(error),
        }
    }

    /// The Icehouse screen, and what it asked.
    pub(in crate::ui::app) fn icehouse_screen(&mut self, ui: &mut egui::Ui, now: Millis) {
        let Some(play) = &mut self.ice else { return };
        play.calm = self.prefs.reduce_motion;
        if let Some(at) = play.tick(now, &self.text) {
            let wait = at.saturating_sub(now).clamp(16, 500);
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(wait));
        }
        let asked = play.show(ui, now, &self.text, &self.totals);
        if self.count_icehouse() {
            // The results show the totals with this game in the next frame.
            ui.ctx().request_repaint();
        }
        match asked {
            Asked::Nothing => {}
            Asked::Home => self.go_home(),
            Asked::NewGame => {
                let choice = self.ice_choice();
                self.open_icehouse(
                    IcehouseChoice {
                        level: self
                            .ice
                            .as_ref()
                            .and_then(|p| p.table.level())
                            .unwrap_or(choice.level),
                        ..choice
                    },
                    now,
                );
            }
        }
    }

    /// Counts the game on the Icehouse screen once its result is settled (once: by
    /// its table's name and number).
    fn count_icehouse(&mut self) -> bool {
        let Some(play) = &self.ice else { return false };
        let Some(decided) = play.table.decided() else {
            return false;
        };
        let Some(kind) = play.kind() else {
            return false;
        };
        let me = play.me();
        let outcome = match decided.winner {
            Some(w) if w == me => crate::driver::Outcome::Won,
            Some(_) => crate::driver::Outcome::Lost,
            None => crate::driver::Outcome::Drawn,
        };
        // The home screen says why nothing is counted.
        if matches!(self.totals_lost, Some(TotalsLost::Unreadable(_))) {
            return false;
        }
        let (id, game) = (play.table.id(), play.table.game_number());
        if !self.totals.record_icehouse(kind, &id, game, outcome) {
            return false;
        }
        if let Some(store) = &self.store
            && let Err(error) = store.save_totals(&self.totals)
        {
            tracing::warn!(%error, "cannot save the totals");
        }
        true
    }

    /// The game on the Icehouse screen, as the person sees it (for tests).
    pub fn icehouse_game(&self) -> Option<&Game> {
        self.ice.as_ref()?.shown.as_ref()
    }

    /// Where each of the person's ships lies while the fleet is laid (for tests).
    pub fn icehouse_laid(&self) -> Vec<Option<Pose>> {
        self.ice.as_ref().map_or_else(Vec::new, |p| p.draft.clone())
    }

    /// The person's side at the Icehouse table (for tests).
    pub fn icehouse_side(&self) -> Option<Side> {
        Some(self.ice.as_ref()?.me())
    }

    /// Where a table point was drawn in the last frame (for tests).
    pub fn icehouse_screen_pos(&self, p: Point) -> Option<egui::Pos2> {
        Some(self.ice.as_ref()?.view?.pos(p))
    }
}
