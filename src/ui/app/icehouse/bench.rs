//! What the window benchmarks ask of the Icehouse screen: a game opened, laid, aimed and played without a person.

use super::{
    Action, Armada, Fleet, Goal, IcehouseChoice, IcehouseGoal, Level, Millis, Mode, Point, Side,
    complete_placement, it,
};

impl Armada {
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
}
