//! Laying the Icehouse fleet: ships dragged into the home strip and turned by the bow, refused places named, the panel of ships to lay.

use super::{
    Before, COARSE, Fleet, Goal, IcePlay, IcehouseError, Key, Look, Millis, Placed, Point, Pose,
    RichText, Text, Vec2, View, complete_placement, ice_view, it, points_editor, size_name,
};

impl IcePlay {
    pub(super) fn placing_table(
        &mut self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        view: &View,
        response: &egui::Response,
        pointer: Option<(f64, f64)>,
        t: &Text,
    ) {
        self.turn_by_keys(ui, response.hovered());
        for (i, pose) in self.draft.iter().enumerate() {
            if let Some(pose) = pose {
                let look = Look {
                    flagship: self.flagship(i),
                    ..it::look_of(true)
                };
                ice_view::paint_ship(painter, view, *pose, self.sizes[i], look);
            }
        }
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            // The ship in hand is put back on the list (wherever the pointer is).
            self.hand = None;
            self.pivot = None;
        }
        let Some(at) = pointer else { return };
        if response.secondary_clicked() {
            self.heading += COARSE * 2.0;
        }
        // A laid ship dragged is picked up, and laid where it is let go.
        let (grab, lay) = (
            response.drag_started() && self.hand.is_none(),
            response.clicked() || (response.drag_stopped() && self.hand.is_some()),
        );
        match self.hand {
            Some(i) => {
                let size = self.sizes[i];
                // Turned by its bow: it stays where it lay, heading for the pointer.
                let centre = match self.pivot {
                    Some(c) => {
                        self.heading = (at.1 - c.1).atan2(at.0 - c.0);
                        c
                    }
                    None => at,
                };
                let pose = it::pose_centred(centre, size, self.heading);
                let problem = it::placing_problem(self.me(), size, pose, &self.others(i));
                it::paint_ghost(painter, view, size, pose, problem.is_none(), true);
                if lay {
                    self.pivot = None;
                    match problem {
                        None => {
                            self.draft[i] = Some(pose);
                            self.refused = None;
                            self.hand = self.draft.iter().position(Option::is_none);
                        }
                        Some(problem) => self.refused = Some(problem.say(t, &self.ship_name(i))),
                    }
                }
            }
            None if response.clicked() || grab => {
                // A drag picks up the ship it began on.
                let from = ui.input(|i| i.pointer.press_origin()).filter(|_| grab);
                let p = it::point(from.map_or(at, |p| view.table_at(p)));
                // A drag from near a bow turns that ship about its middle.
                if grab && let Some(i) = self.bow_near(p) {
                    let pose = self.draft[i].take().unwrap_or(Pose::new(p, p));
                    self.pivot = Some(it::middle(&pose.footprint(self.sizes[i])));
                    self.heading = it::heading_of(pose);
                    self.hand = Some(i);
                    return;
                }
                let under = self.draft.iter().enumerate().find_map(|(i, pose)| {
                    pose.filter(|pose| pose.footprint(self.sizes[i]).contains(p))
                        .map(|pose| (i, pose))
                });
                if let Some((i, pose)) = under {
                    self.draft[i] = None;
                    self.heading = it::heading_of(pose);
                    self.hand = Some(i);
                }
            }
            None => {}
        }
    }

    /// The laid ship whose bow lies within 8 mm of `p`, the nearest.
    pub(super) fn bow_near(&self, p: Point) -> Option<usize> {
        self.draft
            .iter()
            .enumerate()
            .filter_map(|(i, pose)| {
                let bow = pose.as_ref()?.bow;
                let d = ((bow.x - p.x) as f64).hypot((bow.y - p.y) as f64);
                (d <= 8_000.0).then_some((i, d))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    pub(super) fn placing_panel(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        if self.table.before() == Some(Before::Laid) || self.laid_in.is_some() {
            ui.heading(t.get("ice-laid"));
            ui.label(t.get("ice-friend-laying"));
            return;
        }
        ui.heading(t.get("ice-place-title"));
        ui.label(t.get("ice-place-help"));
        let hidden = if self.table.level().is_some() {
            "ice-hidden"
        } else {
            "ice-hidden-friend"
        };
        ui.weak(t.get(hidden));
        if self.table.fleet_is_own() {
            // A friend's points table: each side lays a fleet of its own worth 12.
            let mut own = [self.own.large, self.own.medium, self.own.small];
            points_editor(ui, t, &mut own);
            let own = Fleet::new(own[0], own[1], own[2]);
            if own != self.own {
                self.own = own;
                self.sizes.clear();
                self.ready_to_place();
            }
        }
        ui.add_space(6.0);
        for i in 0..self.sizes.len() {
            let mut label = format!("{} · {}", self.ship_name(i), size_name(t, self.sizes[i]));
            if self.flagship(i) {
                label = format!("{label} · {}", t.get("ice-flagship"));
            }
            let laid = self.draft[i].is_some();
            let text = if laid { format!("✔ {label}") } else { label };
            if ui.selectable_label(self.hand == Some(i), text).clicked() {
                self.draft[i] = None;
                self.hand = Some(i);
            }
        }
        ui.add_space(6.0);
        if ui.button(t.get("ice-place-auto")).clicked() {
            let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(now);
            let goal = self.table.goal().unwrap_or(Goal::SinkAll);
            if complete_placement(self.me(), &self.sizes, goal, &mut self.draft, &mut rng).is_some()
            {
                self.hand = None;
                self.refused = None;
            } else {
                self.refused = Some(t.get("ice-place-no-room"));
            }
        }
        if ui.button(t.get("ice-place-clear")).clicked() {
            self.draft.iter_mut().for_each(|p| *p = None);
            self.hand = Some(0);
        }
        ui.add_space(6.0);
        let all = self.draft.iter().all(Option::is_some)
            && (!self.table.fleet_is_own() || crate::driver::ice::check_points(self.own).is_ok());
        let ready = egui::Button::new(RichText::new(t.get("ice-ready")).size(18.0))
            .min_size(Vec2::new(200.0, 40.0));
        if ui.add_enabled(all, ready).clicked() {
            let placement: Vec<Placed> = self
                .draft
                .iter()
                .zip(&self.sizes)
                .enumerate()
                .filter_map(|(i, (pose, &size))| {
                    pose.map(|pose| Placed {
                        size,
                        pose,
                        flagship: self.flagship(i),
                    })
                })
                .collect();
            if !self.table.owes_placement() {
                self.queued = Some(placement);
                self.laid_in = Some(self.table.game_number());
                self.hand = None;
                return;
            }
            match self.table.place(now, placement) {
                Ok(()) => {
                    self.laid_in = Some(self.table.game_number());
                    self.hand = None;
                    self.refused = None;
                }
                Err(IcehouseError::Placement(e)) => {
                    self.refused = Some(it::placement_refusal(t, &e));
                }
                Err(e) => self.refused = Some(e.to_string()),
            }
        }
        self.refusal_line(ui);
    }
}
