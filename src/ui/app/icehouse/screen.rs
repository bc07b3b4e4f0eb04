//! The Icehouse screen within the window: opening, resuming and counting its tables, and what its results ask of the window.

use super::super::{IceSquadron, TotalsLost};
use super::{
    Action, Armada, Asked, Fleet, Game, Goal, IcePlay, IceTable, IcehouseChoice, IcehouseGoal,
    IcehouseTable, Level, Millis, Mode, Point, Pose, Side, complete_placement, it, setup_problem,
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

    #[cfg(feature = "bench")]
    /// For the window benchmark: a game against the easy computer, the fleet laid
    /// automatically.
    pub fn bench_open_icehouse(&mut self, now: Millis) {
        let choice = IcehouseChoice {
            level: Level::Easy,
            setup: crate::driver::ice::Setup::Basic,
            own: Fleet::new(1, 3, 3),
            squadron: crate::driver::ice::Squadron::Heavy,
            goal: IcehouseGoal::SinkAll,
        };
        self.open_icehouse(choice, now);
        if let Some(play) = &mut self.ice {
            let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(now);
            let goal = play.table.goal().unwrap_or(Goal::SinkAll);
            if let Some(placement) =
                complete_placement(play.me(), &play.sizes, goal, &mut play.draft, &mut rng)
            {
                let _ = play.table.place(now, placement);
                play.laid_in = Some(0);
                play.shown = play.table.game().cloned();
            }
        }
    }

    #[cfg(feature = "bench")]
    /// For the window benchmark: at the person's turn, a ship picked and the pointer
    /// circling it — the large pyramid's shadow lighting targets (`fire`) or a step's
    /// ghost; whether it is aiming.
    pub fn bench_icehouse_aim(&mut self, frame: u64, fire: bool) -> bool {
        let Some(play) = &mut self.ice else {
            return false;
        };
        let Some(game) = play.shown.clone().filter(|_| play.table.my_turn()) else {
            return false;
        };
        let me = play.me();
        let Some(i) = game.ships(me).iter().position(|s| s.afloat) else {
            return false;
        };
        let ship = game.ships(me)[i];
        play.picked = Some(i as u8);
        play.mode = if fire { Mode::Fire } else { Mode::Move };
        let angle = frame as f64 * 0.05;
        let r = 90_000.0;
        play.stand_in = Some((
            ship.pose.bow.x as f64 + r * angle.cos(),
            ship.pose.bow.y as f64 + r * angle.sin(),
        ));
        true
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

    #[cfg(feature = "bench")]
    /// For `bench-window --shots`: a game against the hard computer, the fleet not
    /// laid yet.
    pub fn bench_open_icehouse_unlaid(&mut self, now: Millis) {
        let choice = IcehouseChoice {
            level: Level::Hard,
            setup: crate::driver::ice::Setup::Basic,
            own: Fleet::new(1, 3, 3),
            squadron: crate::driver::ice::Squadron::Light,
            goal: IcehouseGoal::SinkAll,
        };
        self.open_icehouse(choice, now);
    }

    #[cfg(feature = "bench")]
    /// For `bench-window --shots`: all but the last ship laid automatically, the last
    /// in hand over a place where it would touch another (drawn red, with the
    /// reason once clicked); whether the scene is set. Once pictured, the rest is laid
    /// and the battle begins.
    pub fn bench_icehouse_lay(&mut self, now: Millis) -> bool {
        let Some(play) = self.ice.as_deref_mut() else {
            return false;
        };
        if play.sizes.is_empty() || play.table.game().is_some() {
            return false;
        }
        let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(now);
        let goal = play.table.goal().unwrap_or(Goal::SinkAll);
        if play.stand_in.is_some() {
            // Pictured: the last ship laid too, and Ready.
            play.stand_in = None;
            if let Some(placement) =
                complete_placement(play.me(), &play.sizes, goal, &mut play.draft, &mut rng)
            {
                let _ = play.table.place(now, placement);
                play.laid_in = Some(0);
            }
            return false;
        }
        let last = play.sizes.len() - 1;
        let mut draft = play.draft.clone();
        draft[last] = Some(crate::driver::ice::Pose::new(
            Point::new(0, 0),
            Point::new(0, 0),
        ));
        if complete_placement(play.me(), &play.sizes, goal, &mut draft, &mut rng).is_none() {
            return false;
        }
        draft[last] = None;
        play.draft = draft;
        play.hand = Some(last);
        // The ship in hand half over the first ship laid.
        let Some(first) = play.draft[0].map(|p| p.bow) else {
            return false;
        };
        play.stand_in = Some((first.x as f64 + 4_000.0, first.y as f64));
        true
    }

    #[cfg(feature = "bench")]
    /// For `bench-window --shots`: plays the person's side of the Icehouse table
    /// with the hard captain and sets up each scene worth a picture that `done`
    /// does not hold yet — a step's ghost, a lit target under the shadow, a sinking,
    /// the results; the scene's name when this frame shows one.
    pub fn bench_icehouse_scene(&mut self, now: Millis, done: &[&str]) -> Option<&'static str> {
        let play = self.ice.as_deref_mut()?;
        if play.table.ended() {
            return Some("icehouse_results");
        }
        if let Some((.., at)) = play.sinking
            && now.saturating_sub(at) < 200
            && !done.contains(&"icehouse_sinking")
        {
            return Some("icehouse_sinking");
        }
        let game = play.shown.clone().filter(|_| play.table.my_turn())?;
        if play.table.game() != Some(&game) {
            return None;
        }
        let me = play.me();
        let ships = game.ships(me);
        if !done.contains(&"icehouse_ghost") {
            let i = ships.iter().position(|s| s.afloat)?;
            let bow = ships[i].pose.bow;
            let forward = if me == Side::South { 1.0 } else { -1.0 };
            play.picked = Some(i as u8);
            play.mode = Mode::Move;
            play.stand_in = Some((bow.x as f64 + 30_000.0, bow.y as f64 + forward * 60_000.0));
            return Some("icehouse_ghost");
        }
        // A target lit under the shadow where the pointer lies on it: the picture,
        // once; afterwards the shot is fired.
        for (i, ship) in ships.iter().enumerate() {
            if !ship.afloat || game.shots_fired(i as u8) >= ship.size().pips() {
                continue;
            }
            for enemy in game.ships(me.other()).iter().filter(|e| e.afloat) {
                let [a, b, c] = enemy.footprint().0;
                let at = (
                    (a.x + b.x + c.x) as f64 / 3.0,
                    (a.y + b.y + c.y) as f64 / 3.0,
                );
                let Some(aim) = it::aim(&game, i as u8, at) else {
                    continue;
                };
                let Some(shot) = aim
                    .lit
                    .iter()
                    .find(|s| game.ships(me.other())[usize::from(s.target)].name == enemy.name)
                else {
                    continue;
                };
                if !done.contains(&"icehouse_fire") {
                    play.picked = Some(i as u8);
                    play.mode = Mode::Fire;
                    play.stand_in = Some(at);
                    return Some("icehouse_fire");
                }
                let _ = play.table.play(now, Action::Fire(*shot));
                return None;
            }
        }
        play.stand_in = None;
        play.picked = None;
        let action = crate::driver::ice::choose(&game, Level::Hard, &mut rand::rng());
        let _ = play.table.play(now, action);
        None
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
