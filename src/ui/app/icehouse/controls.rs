//! The controls beside the Icehouse table: a friend's move clock and draw offers, Resign asked twice, the last refusal.

use super::{Arg, Color32, IcePlay, Millis, RichText, Text};

impl IcePlay {
    /// A friend's table: the time left for the person's action (after it the friend
    /// may claim the game), or for the friend's.
    pub(super) fn clock_line(&self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        let (id, left) = if self.table.my_turn() {
            let (Some(step), Some(since)) = (self.table.step_ms(), self.owed_since) else {
                return;
            };
            (
                "ice-clock-mine",
                step.saturating_sub(now.saturating_sub(since)),
            )
        } else {
            let Some(left) = self.table.friend_time_left() else {
                return;
            };
            ("ice-clock-friend", left)
        };
        let seconds = u32::try_from(left.div_ceil(1000)).unwrap_or(u32::MAX);
        let line = t.with(id, &[("seconds", Arg::from(seconds))]);
        if seconds <= 10 {
            ui.colored_label(Color32::from_rgb(240, 120, 110), line);
        } else {
            ui.label(line);
        }
        // Once a second: the count is in whole seconds.
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs(1));
    }

    /// A friend's table: offer a draw in one's turn, or answer the friend's offer.
    /// Resign, asked twice: the button stands beside the turn's own, and a slip
    /// of the pointer must not end a game.
    pub(super) fn resign(&mut self, ui: &mut egui::Ui, t: &Text) {
        if !self.confirm_resign {
            if ui.button(t.get("resign")).clicked() {
                self.confirm_resign = true;
            }
            return;
        }
        ui.label(t.get("resign-confirm"));
        ui.horizontal(|ui| {
            if ui.button(t.get("resign-yes")).clicked() {
                self.confirm_resign = false;
                self.table.resign();
            }
            if ui.button(t.get("resign-no")).clicked() {
                self.confirm_resign = false;
            }
        });
    }

    pub(super) fn draw_offers(&mut self, ui: &mut egui::Ui, t: &Text) {
        match self.table.draw_offer() {
            Some(true) => {
                ui.label(t.get("draw-offered"));
            }
            Some(false) => {
                ui.label(RichText::new(t.get("ice-draw-theirs")).strong());
                ui.horizontal(|ui| {
                    if ui.button(t.get("draw-accept")).clicked() {
                        self.table.answer_draw(true);
                    }
                    if ui.button(t.get("draw-decline")).clicked() {
                        self.table.answer_draw(false);
                    }
                });
            }
            None if self.table.level().is_none() => {
                let may = self.table.may_offer_draw();
                if ui
                    .add_enabled(may, egui::Button::new(t.get("draw-offer")))
                    .clicked()
                {
                    self.table.offer_draw();
                }
            }
            None => {}
        }
    }

    pub(super) fn refusal_line(&self, ui: &mut egui::Ui) {
        if let Some(why) = &self.refused {
            ui.colored_label(Color32::from_rgb(240, 120, 110), why);
        }
    }
}
