//! The results screen: who won and how, both fleets revealed, the figures of the game, and the verification verdict.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Play {
    /// The results, laid out to fit the window without scrolling: the outcome and
    /// the buttons in one band, both boards (the revealed fleet) sized by the height
    /// left as well as the width, and the figures and verdicts beside them (under
    /// them in a narrow window); true when the player asked to go home.
    pub(super) fn over(
        &mut self,
        ui: &mut egui::Ui,
        now: Millis,
        t: &Text,
        store: Option<&Store>,
        game: &Game,
    ) -> bool {
        // The result is a panel of its own, centred over the boards: who won and
        // why, then Play again as the one big button, Save and Home beside it.
        let mut home = false;
        ui.vertical_centered(|ui| {
            egui::Frame::group(ui.style())
                .fill(ui.visuals().faint_bg_color)
                .inner_margin(egui::Margin::symmetric(24, 12))
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| home = self.result_panel(ui, now, t, store, game));
                });
        });
        let spacing = ui.spacing().item_spacing;
        let wide = ui.available_width() >= 900.0;
        let column = if wide {
            (ui.available_width() * 0.27).clamp(280.0, 400.0)
        } else {
            0.0
        };
        // Each board has its name above it, the enemy's a line under it, and the
        // move log's header comes last.
        let line = ui.text_style_height(&egui::TextStyle::Body) + spacing.y;
        let height = ui.available_height() - 3.0 * line - 3.0 * spacing.y - 12.0;
        let width = ui.available_width() - column - 2.0 * spacing.x;
        let cell = over_cell(width, height, game.variant().size().side());
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.label(RichText::new(t.get("board-own")).strong());
                self.own_board(ui, now, t, game, cell);
            });
            ui.add_space(cell);
            ui.vertical(|ui| {
                ui.label(RichText::new(t.get("board-enemy")).strong());
                self.enemy_board(ui, now, t, game, cell, false);
            });
            if wide {
                ui.add_space(spacing.x);
                ui.vertical(|ui| {
                    ui.set_max_width(column);
                    self.figures(ui, t);
                });
            }
        });
        if !wide {
            self.figures(ui, t);
        }
        home
    }

    /// The figures beside the boards: statistics, verdicts, where the transcript
    /// went, and the move log (folded).
    pub(super) fn figures(&self, ui: &mut egui::Ui, t: &Text) {
        let session = self.driver.session();
        stats(ui, t, session);
        verdicts(ui, t, session);
        if let Some(saved) = &self.saved {
            ui.add_space(6.0);
            // A path is long and has no spaces: it wraps where it must, whole on hover.
            ui.add(egui::Label::new(saved).wrap()).on_hover_text(saved);
        }
        ui.add_space(6.0);
        ui.collapsing(t.get("log-title"), |ui| {
            // A long game's log scrolls in the room left, the boards stay in view.
            egui::ScrollArea::vertical()
                .id_salt("over_log")
                .max_height(ui.available_height().max(160.0))
                .show(ui, |ui| {
                    for line in &self.log {
                        ui.label(line);
                    }
                });
        });
    }

    /// The result panel's contents: who won and how, then the buttons and this kind
    /// of game's totals; true when the player asked to go home.
    fn result_panel(
        &mut self,
        ui: &mut egui::Ui,
        now: Millis,
        t: &Text,
        store: Option<&Store>,
        game: &Game,
    ) -> bool {
        let session = self.driver.session();
        let me = session.seat();
        let table = session.table();
        if let Some((id, how)) = headline(t, me, table, game.ending()) {
            let colour = match id {
                "result-win" => Color32::from_rgb(120, 220, 140),
                "result-lose" => Color32::from_rgb(240, 120, 110),
                _ => ui.visuals().text_color(),
            };
            ui.label(RichText::new(t.get(id)).size(30.0).strong().color(colour));
            ui.label(RichText::new(how).size(16.0));
        }
        let settled = table.settled().is_some();
        // Another game needs both: at a friend's table, say who has asked (the
        // computer always has).
        let (mine, theirs) = (table.wants_again(me), table.wants_again(me.other()));
        let friend = matches!(self.driver, crate::ui::app::Driver::Remote(_));
        if settled && friend && (mine || theirs) {
            let (id, colour) = if mine {
                ("again-asked", ui.visuals().text_color())
            } else {
                ("again-theirs", Color32::from_rgb(255, 220, 110))
            };
            ui.label(RichText::new(t.get(id)).size(16.0).color(colour));
        }
        // A friend who left, or a table whose network side has ended, plays no more.
        let left = table.left(me.other());
        let over = self
            .driver
            .remote_ref()
            .is_some_and(|r| r.ended().is_some());
        if friend && left {
            ui.label(
                RichText::new(t.get("link-left"))
                    .size(16.0)
                    .color(Color32::from_rgb(255, 220, 110)),
            );
        }
        let mut home = false;
        ui.add_space(6.0);
        super::super::centre::centred_as_drawn(ui, "results", |ui| {
            let again = egui::Button::new(RichText::new(t.get("play-again")).size(18.0).strong())
                .min_size(egui::vec2(170.0, 34.0))
                .fill(crate::ui::palette::PRIMARY);
            if ui
                .add_enabled(settled && !mine && !left && !over, again)
                .clicked()
            {
                let _ = self.driver.command(now, Command::PlayAgain);
            }
            if let Some(store) = store
                && ui.button(t.get("save-transcript")).clicked()
            {
                let id = self.driver.session().table().id();
                self.saved = Some(match store.save(self.driver.session()) {
                    Ok(()) => t.with(
                        "saved-to",
                        &[(
                            "path",
                            Arg::from(store.transcript_path(&id).display().to_string()),
                        )],
                    ),
                    Err(error) => error.to_string(),
                });
            }
            if ui.button(t.get("home")).clicked() {
                home = true;
            }
        });
        if let Some((kind, tally)) = self.tally {
            ui.label(crate::ui::app::totals::line(t, kind, tally));
        }
        home
    }
}

/// The results' cell size: two boards of `side` cells and a cell between them in
/// `width`, one board in `height`.
fn over_cell(width: f32, height: f32, side: u8) -> f32 {
    let board = f32::from(side) + 0.8;
    (width / (2.0 * board + 1.0))
        .min(height / board)
        .clamp(14.0, 40.0)
}

/// Each side's figures for the game: actions, cells fired at, decks hit, accuracy,
/// weapons used.
fn stats(ui: &mut egui::Ui, t: &Text, session: &crate::driver::Session) {
    let me = session.seat();
    let history = session.table().history();
    let figures = |seat: Seat| {
        let played: Vec<_> = history.iter().filter(|p| p.seat == seat).collect();
        let fired = played
            .iter()
            .flat_map(|p| &p.report.effects)
            .filter(|e| !matches!(e, crate::rules::Effect::Scanned { .. }))
            .count();
        let hits = played
            .iter()
            .flat_map(|p| &p.report.effects)
            .filter(|e| e.is_hit())
            .count();
        let weapons = played
            .iter()
            .filter(|p| p.action.weapon().is_some())
            .count();
        let accuracy = if fired == 0 {
            0.0
        } else {
            100.0 * hits as f64 / fired as f64
        };
        [
            played.len().to_string(),
            fired.to_string(),
            hits.to_string(),
            format!("{accuracy:.0} %"),
            weapons.to_string(),
        ]
    };
    let (mine, theirs) = (figures(me), figures(me.other()));
    ui.add_space(6.0);
    ui.label(RichText::new(t.get("stats-title")).strong());
    egui::Grid::new("stats").striped(true).show(ui, |ui| {
        ui.label("");
        ui.label(t.get("stats-you"));
        ui.label(t.get("stats-them"));
        ui.end_row();
        for (i, id) in [
            "stats-moves",
            "stats-shots",
            "stats-hits",
            "stats-accuracy",
            "stats-weapons",
        ]
        .into_iter()
        .enumerate()
        {
            ui.label(t.get(id));
            ui.label(&mine[i]);
            ui.label(&theirs[i]);
            ui.end_row();
        }
    });
}

/// A proven lie in words: the move it answered (its number in the game and the
/// action), or the message number where the lie was no answer to a move.
/// The results' headline (`result-win`, `-lose`, `-draw`) and how the game was
/// decided: from the settled verdict once there is one — a proven lie decides
/// against the liar, whatever the boards said — and from the game's ending until then.
fn headline(
    t: &Text,
    me: Seat,
    table: &crate::driver::Table,
    ending: Option<crate::rules::Ending>,
) -> Option<(&'static str, String)> {
    // A reveal that did not check out leaves its seat revealed without a fleet: the
    // fleet itself was the lie.
    let reveal_lied = |liar| table.revealed(liar) && table.revealed_fleet(liar).is_none();
    decided(t, me, table.settled(), ending, table.history(), reveal_lied)
}

/// [`headline`] from its parts.
fn decided(
    t: &Text,
    me: Seat,
    settled: Option<&Verdict>,
    ending: Option<crate::rules::Ending>,
    history: &[crate::driver::Played],
    reveal_lied: impl Fn(Seat) -> bool,
) -> Option<(&'static str, String)> {
    if let Some(Verdict::Lie(lie)) = settled {
        let (id, who) = if lie.liar == me {
            ("result-lose", "you")
        } else {
            ("result-win", "they")
        };
        let who = ("who", Arg::from(who));
        let how = match history
            .iter()
            .position(|p| p.seat != lie.liar && p.answer_seq == lie.seq)
        {
            Some(index) => t.with("how-lie-move", &[who, ("move", Arg::from(index + 1))]),
            None if reveal_lied(lie.liar) => t.with("how-lie-reveal", &[who]),
            None => t.with("how-lie-message", &[who, ("seq", Arg::from(lie.seq))]),
        };
        return Some((id, how));
    }
    let ending = match settled {
        Some(Verdict::Honest(ending)) => *ending,
        _ => ending?,
    };
    let id = match ending.winner {
        Some(w) if w == me => "result-win",
        Some(_) => "result-lose",
        None => "result-draw",
    };
    let how = match ending.reason {
        EndReason::FleetSunk => t.get("how-sunk"),
        EndReason::Resigned => {
            let who = if ending.winner == Some(me) {
                "they"
            } else {
                "you"
            };
            t.with("how-resigned", &[("who", Arg::from(who))])
        }
        EndReason::Forfeit => t.get("how-forfeit"),
        EndReason::DrawAgreed => t.get("how-draw"),
    };
    Some((id, how))
}

fn lie_line(t: &Text, lie: &crate::driver::Lie, history: &[crate::driver::Played]) -> String {
    let reason = ("reason", Arg::from(lie.reason.clone()));
    match history
        .iter()
        .position(|p| p.seat != lie.liar && p.answer_seq == lie.seq)
    {
        Some(index) => t.with(
            "verdict-lie-move",
            &[
                ("move", Arg::from(index + 1)),
                ("action", Arg::from(history[index].action.to_string())),
                reason,
            ],
        ),
        None => t.with("verdict-lie", &[("seq", Arg::from(lie.seq)), reason]),
    }
}

/// The verification verdict for each side's answers.
fn verdicts(ui: &mut egui::Ui, t: &Text, session: &crate::driver::Session) {
    let me = session.seat();
    let table = session.table();
    // A side answers the other side's actions.
    let answers = |seat: Seat| table.history().iter().filter(|p| p.seat != seat).count();
    ui.add_space(6.0);
    ui.label(RichText::new(t.get("verdict-title")).strong());
    for (seat, id) in [(me, "verdict-you"), (me.other(), "verdict-them")] {
        let line = match table.settled() {
            None => t.get("verdict-pending"),
            Some(Verdict::Lie(lie)) if lie.liar == seat => lie_line(t, lie, table.history()),
            Some(Verdict::Incomplete(why)) => {
                t.with("verdict-incomplete", &[("why", Arg::from(why.clone()))])
            }
            Some(_) => t.with("verdict-honest", &[("answers", Arg::from(answers(seat)))]),
        };
        ui.label(format!("{}: {line}", t.get(id)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::Lie;
    use crate::ui::Lang;
    use rand::SeedableRng;

    /// A lie in an answer names the move it answered; any other lie its message.
    #[test]
    fn a_lie_in_an_answer_names_its_move() {
        let mut duet = crate::driver::Duet::new(crate::rules::Variant::Armada).unwrap();
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        assert!(duet.play_game(&mut rng));
        let history = duet.host.table().history();
        let (index, played) = history
            .iter()
            .enumerate()
            .find(|(i, p)| *i >= 3 && p.seat == Seat::Host)
            .unwrap();
        let t = Text::new(Lang::En);
        let lie = |seq| Lie {
            liar: Seat::Guest,
            seq,
            reason: "no such ship".into(),
        };
        assert_eq!(
            lie_line(&t, &lie(played.answer_seq), history),
            format!(
                "A lie, proven: move {} ({}): no such ship",
                index + 1,
                played.action
            )
        );
        let unanswered = (0..u32::MAX).find(|s| history.iter().all(|p| p.answer_seq != *s));
        let seq = unanswered.unwrap();
        assert_eq!(
            lie_line(&t, &lie(seq), history),
            format!("A lie, proven: message {seq}: no such ship")
        );
    }

    /// Found looking at the results screen: a liar who sank every ship and was
    /// caught at the reveal was shown as the winner ("You lose. Every ship sunk.")
    /// above "Opponent: a lie, proven". The headline follows the verdict.
    #[test]
    fn the_headline_follows_the_verdict_not_the_sunk_fleet() {
        let mut duet = crate::driver::Duet::new(crate::rules::Variant::Armada).unwrap();
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        assert!(duet.play_game(&mut rng));
        let history = duet.host.table().history();
        let t = Text::new(Lang::En);
        // The guest's fleet went down, but the guest proved the host lied in its
        // answer to a move.
        let ending = crate::rules::Ending {
            winner: Some(Seat::Host),
            reason: EndReason::FleetSunk,
        };
        let sunk = Some(ending);
        let (index, played) = history
            .iter()
            .enumerate()
            .find(|(_, p)| p.seat == Seat::Guest)
            .unwrap();
        let lie = Verdict::Lie(Lie {
            liar: Seat::Host,
            seq: played.answer_seq,
            reason: "no such ship".into(),
        });
        let (id, how) = decided(&t, Seat::Guest, Some(&lie), sunk, history, |_| false).unwrap();
        assert_eq!(id, "result-win");
        assert_eq!(
            how,
            format!(
                "Your opponent's answer to move {} was a proven lie.",
                index + 1
            )
        );
        let (id, how) = decided(&t, Seat::Host, Some(&lie), sunk, history, |_| false).unwrap();
        assert_eq!(id, "result-lose");
        assert_eq!(
            how,
            format!("Your answer to move {} was a proven lie.", index + 1)
        );
        // A lie told by the reveal itself is named as such, not by its message number.
        let at_reveal = Verdict::Lie(Lie {
            liar: Seat::Host,
            seq: 200,
            reason: "the revealed fleet is illegal".into(),
        });
        let (id, how) = decided(&t, Seat::Guest, Some(&at_reveal), sunk, history, |s| {
            s == Seat::Host
        })
        .unwrap();
        assert_eq!(id, "result-win");
        assert_eq!(
            how,
            "The fleet your opponent revealed at the end was a proven lie."
        );
        // Until the verdict, and with an honest one, the boards decide.
        let (id, _) = decided(&t, Seat::Guest, None, sunk, history, |_| false).unwrap();
        assert_eq!(id, "result-lose");
        let honest = Verdict::Honest(ending);
        assert_eq!(
            decided(&t, Seat::Host, Some(&honest), sunk, history, |_| false).unwrap(),
            (
                "result-win",
                "Every ship of the losing fleet was sunk.".into()
            )
        );
    }
}
