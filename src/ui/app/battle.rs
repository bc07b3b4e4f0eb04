//! The battle and results screens: both boards, the turn and its timer, the weapon
//! bar with aiming previews, animations, the radar picture, resigning, the move log
//! (the results at the end are `battle/results.rs`).

use egui::{Color32, Id, Key, RichText};

use super::super::board::{self, Look, Overlay};
use super::super::i18n::{Arg, Text};
use super::{Anim, Play, Stage, Tool, cell_name, cell_size, chart_look, columns, look_name, why};
use crate::driver::Store;
use crate::driver::Verdict;
use crate::driver::{Command, Millis};
use crate::rules::{
    Action, CellSet, Coord, EndReason, Game, Heading, Seat, Torpedo, Weapon, square,
};

mod cards;
mod results;

impl Play {
    /// Draws the battle (and the results once the game is over); true when the
    /// player asked to go home.
    pub(super) fn battle(
        &mut self,
        ui: &mut egui::Ui,
        now: Millis,
        t: &Text,
        store: Option<&Store>,
        stage: Stage,
    ) -> bool {
        let session = self.driver.session();
        let Some(game) = session.table().game().cloned() else {
            return false;
        };
        let me = session.seat();
        let mine =
            stage == Stage::Battle && game.mover() == me && session.table().pending().is_none();
        if mine {
            self.battle_keys(ui, now, &game);
        }
        self.link_line(ui, t);
        self.turn_line(ui, now, t, &game, stage);
        self.news_line(ui, now, t);
        if stage == Stage::Battle {
            // A sinking not shown yet is not told yet either.
            let unseen: Vec<u8> = self
                .anims
                .iter()
                .filter(|a| a.seat == me)
                .flat_map(|a| a.sinks_unseen(now))
                .collect();
            // Nor is a weapon the opponent fired spent before its action shows.
            let mut theirs = game.stock(me.other());
            for anim in self.anims.iter().filter(|a| a.seat != me) {
                match anim.action.weapon() {
                    Some(Weapon::Torpedo) => theirs.torpedoes += 1,
                    Some(Weapon::AirStrike) => theirs.air_strikes += 1,
                    Some(Weapon::Radar) => theirs.radars += 1,
                    None => {}
                }
            }
            let flash = self.flash(now);
            if flash.is_some() {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(33));
            }
            hud(ui, t, &game, me, &unseen, theirs, flash);
        }
        if stage == Stage::Over {
            return self.over(ui, now, t, store, &game);
        }
        let cell = cell_size(
            ui.available_width(),
            ui.available_height(),
            game.variant().size().side(),
        );
        // Two boards (each its labels' margin and its cells) and a cell between them.
        let side = f32::from(game.variant().size().side());
        let width = 2.0 * cell * (side + 0.8) + cell + 2.0 * ui.spacing().item_spacing.x;
        super::centre::centred(ui, width, |ui| {
            ui.vertical(|ui| {
                ui.label(RichText::new(t.get("board-own")).strong());
                self.own_board(ui, now, t, &game, cell);
            });
            ui.add_space(cell);
            ui.vertical(|ui| {
                ui.label(RichText::new(t.get("board-enemy")).strong());
                self.enemy_board(ui, now, t, &game, cell, mine);
            });
        });
        if stage == Stage::Battle {
            if game.variant().has_weapons() {
                self.weapon_cards(ui, t, &game);
            }
            if matches!(self.driver, super::Driver::Remote(_)) {
                self.draw(ui, now, t, &game);
            }
            self.resign(ui, now, t);
        }
        ui.add_space(8.0);
        ui.collapsing(t.get("log-title"), |ui| {
            for line in &self.log {
                ui.label(line);
            }
        });
        false
    }

    fn battle_keys(&mut self, ui: &egui::Ui, now: Millis, game: &Game) {
        let size = game.variant().size();
        let (dc, dr, fire, keys) = ui.input(|i| {
            let dc =
                i8::from(i.key_pressed(Key::ArrowRight)) - i8::from(i.key_pressed(Key::ArrowLeft));
            let dr =
                i8::from(i.key_pressed(Key::ArrowDown)) - i8::from(i.key_pressed(Key::ArrowUp));
            let fire = i.key_pressed(Key::Enter) || i.key_pressed(Key::Space);
            let keys =
                [Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::R].map(|k| i.key_pressed(k));
            (dc, dr, fire, keys)
        });
        if let Some(cell) = self.cursor.offset(dc, dr, size) {
            self.cursor = cell;
        }
        let tools = [
            Tool::Shot,
            Tool::Weapon(Weapon::Torpedo),
            Tool::Weapon(Weapon::AirStrike),
            Tool::Weapon(Weapon::Radar),
        ];
        for (tool, pressed) in tools.into_iter().zip(keys) {
            if pressed && (tool == Tool::Shot || game.variant().has_weapons()) {
                self.tool = tool;
            }
        }
        if keys[4] {
            self.heading = next_heading(self.heading);
        }
        if fire {
            self.fire(now, game, self.cursor);
        }
    }

    /// The action the current tool makes at `cell`.
    fn aim(&self, cell: Coord) -> Action {
        match self.tool {
            Tool::Shot => Action::Shot(cell),
            Tool::Weapon(Weapon::Torpedo) => Action::Torpedo(Torpedo {
                heading: self.heading,
                line: match self.heading {
                    Heading::Right | Heading::Left => cell.row(),
                    Heading::Down | Heading::Up => cell.col(),
                },
            }),
            Tool::Weapon(Weapon::AirStrike) => Action::AirStrike(cell),
            Tool::Weapon(Weapon::Radar) => Action::Radar(cell),
        }
    }

    fn fire(&mut self, now: Millis, game: &Game, cell: Coord) {
        let me = self.driver.session().seat();
        let action = self.aim(cell);
        if game.check(me, &action).is_ok() && self.driver.command(now, Command::Act(action)).is_ok()
        {
            // The radar picture serves one action, then it is gone for good.
            self.radar = None;
            self.refused = None;
            self.tool = Tool::Shot;
            self.fired_at = Some(cell);
        }
    }

    /// The banner: whose turn it is (and another action after a hit), with the move
    /// timer beside it at a friend's table.
    fn turn_line(&self, ui: &mut egui::Ui, now: Millis, t: &Text, game: &Game, stage: Stage) {
        let session = self.driver.session();
        let me = session.seat();
        let waiting = session.table().pending().is_some();
        // The game may have passed the turn already; the player's own shells are
        // still being shown falling, and the label waits for the last one.
        let landing = self.anims.iter().find(|a| a.seat == me && a.start <= now);
        // Likewise the opponent's: the turn is not the player's until its last shell
        // is seen to land.
        let arriving = self.anims.iter().any(|a| a.seat != me && a.start <= now);
        let id = match stage {
            Stage::Over => "turn-over",
            _ if waiting => "turn-answer",
            _ if landing.is_some_and(|a| matches!(a.action, Action::Radar(_))) => "turn-sweeping",
            _ if landing.is_some_and(|a| matches!(a.action, Action::Torpedo(_))) => "turn-running",
            _ if landing.is_some_and(|a| matches!(a.action, Action::Shot(_))) => "turn-falling",
            _ if landing.is_some() => "turn-landing",
            _ if arriving => "turn-theirs",
            _ if game.mover() == me => "turn-yours",
            _ => "turn-theirs",
        };
        // A sinking is not just another hit: the banner says which it was.
        let sank = self
            .shown_news(now)
            .is_some_and(|n| n.weight == super::news::Weight::Sunk);
        let again = match (id, self.again, sank) {
            ("turn-yours", Some(seat), false) if seat == me => Some(t.get("turn-again")),
            ("turn-yours", Some(seat), true) if seat == me => Some(t.get("turn-again-sunk")),
            ("turn-theirs", Some(seat), false) if seat != me => Some(t.get("turn-again-theirs")),
            ("turn-theirs", Some(seat), true) if seat != me => {
                Some(t.get("turn-again-theirs-sunk"))
            }
            _ => None,
        };
        let fill = match id {
            "turn-yours" => Color32::from_rgb(28, 96, 52),
            "turn-theirs" => Color32::from_rgb(96, 50, 40),
            _ => Color32::from_rgb(44, 52, 72),
        };
        let timer = self.timer_left(now, game, stage);
        egui::Frame::new()
            .fill(fill)
            .corner_radius(6.0)
            .inner_margin(egui::Margin::symmetric(12, 6))
            .show(ui, |ui| {
                ui.set_min_width(ui.available_width());
                ui.horizontal(|ui| {
                    ui.label(
                        RichText::new(t.get(id))
                            .size(22.0)
                            .strong()
                            .color(Color32::WHITE),
                    );
                    if let Some(again) = again {
                        ui.label(
                            RichText::new(again)
                                .size(18.0)
                                .color(Color32::from_rgb(255, 220, 110)),
                        );
                    }
                    if let Some((left, fraction)) = timer {
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            let seconds = left.div_ceil(1000) as u32;
                            // The last five seconds in red: the clock is about to shoot.
                            let colour = if seconds <= 5 {
                                Color32::from_rgb(255, 110, 100)
                            } else {
                                Color32::WHITE
                            };
                            ui.add(
                                egui::ProgressBar::new(fraction)
                                    .desired_width(160.0)
                                    .fill(colour.gamma_multiply(0.7)),
                            );
                            ui.label(
                                RichText::new(
                                    t.with("timer-left", &[("seconds", Arg::from(seconds))]),
                                )
                                .size(22.0)
                                .strong()
                                .color(colour),
                            );
                        });
                    }
                });
            });
    }

    /// The move timer's milliseconds left and the fraction of the move they are,
    /// while it runs.
    fn timer_left(&self, now: Millis, game: &Game, stage: Stage) -> Option<(Millis, f32)> {
        let session = self.driver.session();
        let me = session.seat();
        let settings = session.table().settings()?;
        if stage != Stage::Battle || !session.table().timer() || session.table().pending().is_some()
        {
            return None;
        }
        let deadline = session.poll_timeout()?;
        let now = self.driver.clock(now);
        let move_ms = Millis::from(settings.move_ms);
        let end = if game.mover() == me {
            deadline
        } else {
            deadline.saturating_sub(Millis::from(settings.grace_ms))
        };
        let left = end.saturating_sub(now).min(move_ms);
        Some((left, left as f32 / move_ms as f32))
    }

    fn own_board(&self, ui: &mut egui::Ui, now: Millis, t: &Text, game: &Game, cell: f32) {
        let session = self.driver.session();
        let me = session.seat();
        let size = game.variant().size();
        let decks = session
            .fleet()
            .map_or(CellSet::EMPTY, crate::rules::Fleet::decks);
        let chart = game.chart(me.other());
        let (hidden, burning) = self.hidden(now, me.other());
        let look = |c: Coord| {
            let afloat = if decks.contains(c) {
                Look::Ship
            } else {
                Look::Sea
            };
            if hidden.contains(c) {
                return afloat;
            }
            if burning.contains(c) {
                return Look::Hit;
            }
            chart_look(chart.mark(c)).unwrap_or(afloat)
        };
        let (seen_decks, seen_water) = session.table().radar_seen(me.other());
        let mut overlays: Vec<(Coord, Overlay)> = (seen_decks | seen_water)
            .iter()
            .map(|c| (c, Overlay::Swept))
            .collect();
        overlays.extend(self.anim_overlays(now, me.other()));
        overlays.extend(self.last_overlays(me.other()));
        let name = t.get("board-own");
        let variant = game.variant();
        board::show(
            ui,
            &board::Sheet {
                id: Id::new("own"),
                size,
                cell,
                columns: columns(t, variant),
                hulls: board::Hulls::Own,
                look: &look,
                overlays: &overlays,
                label: &|c| cell_label(t, variant, &name, c, look(c), &overlays),
            },
        );
    }

    fn enemy_board(
        &mut self,
        ui: &mut egui::Ui,
        now: Millis,
        t: &Text,
        game: &Game,
        cell: f32,
        mine: bool,
    ) {
        let me = self.driver.session().seat();
        let size = game.variant().size();
        let chart = *game.chart(me);
        let (hidden, burning) = self.hidden(now, me);
        // Once revealed at the end, the enemy's ships are shown where they lay.
        let revealed = self
            .driver
            .session()
            .table()
            .revealed_fleet(me.other())
            .map_or(CellSet::EMPTY, crate::rules::Fleet::decks);
        let look = |c: Coord| {
            if hidden.contains(c) {
                return Look::Unknown;
            }
            if burning.contains(c) {
                return Look::Hit;
            }
            let unknown = if revealed.contains(c) {
                Look::Ship
            } else {
                Look::Unknown
            };
            chart_look(chart.mark(c)).unwrap_or(unknown)
        };
        let mut overlays = self.last_overlays(me);
        let radar = self.radar.clone().filter(|(_, at)| now >= *at);
        if let Some((picture, _)) = &radar {
            overlays.extend(radar_overlays(picture));
        }
        overlays.extend(self.anim_overlays(now, me));
        let hover = ui
            .ctx()
            .data(|d| d.get_temp::<(u8, u8)>(Id::new("aim")))
            .and_then(|(c, r)| Coord::new(c, r));
        let mut refused = None;
        // No aim over the player's own action still being shown: its cells are not
        // drawn yet, and a preview there would be refused for no visible reason.
        let landing = self.anims.iter().any(|a| a.seat == me);
        // Nor on the cell just fired at while the pointer rests there: it is marked
        // now, and "not here" would answer a question nobody asked.
        let resting = hover.is_some() && hover == self.fired_at;
        if mine && !landing && !resting {
            let at = hover.unwrap_or(self.cursor);
            let action = self.aim(at);
            let cells = preview(&action, size);
            match game.check(me, &action) {
                Ok(()) => overlays.extend(cells.iter().map(|c| (*c, Overlay::Aim))),
                Err(error) => {
                    refused = Some(why(t, &error));
                    overlays.extend(cells.iter().map(|c| (*c, Overlay::Refused)));
                }
            }
            // The torpedo's arrow where it enters the board, pointing the way it runs.
            if let (Action::Torpedo(torpedo), Some(entry)) = (&action, cells.first()) {
                overlays.push((*entry, Overlay::Arrow(torpedo.heading)));
            }
            overlays.push((self.cursor, Overlay::Cursor));
        }
        let name = t.get("board-enemy");
        let variant = game.variant();
        let gesture = board::show(
            ui,
            &board::Sheet {
                id: Id::new("enemy"),
                size,
                cell,
                columns: columns(t, variant),
                hulls: board::Hulls::Enemy {
                    revealed: !revealed.is_empty(),
                },
                look: &look,
                overlays: &overlays,
                label: &|c| cell_label(t, variant, &name, c, look(c), &overlays),
            },
        );
        ui.ctx().data_mut(|d| match gesture.hovered {
            Some(c) => {
                d.insert_temp(Id::new("aim"), (c.col(), c.row()));
            }
            None => d.remove::<(u8, u8)>(Id::new("aim")),
        });
        if gesture.hovered != self.fired_at {
            self.fired_at = None;
        }
        if gesture.secondary.is_some() {
            self.heading = next_heading(self.heading);
        }
        if mine && let Some(c) = gesture.clicked {
            self.cursor = c;
            self.fire(now, game, c);
        }
        // One line under the chart, always there (the controls below never jump): why
        // the aim is refused where the pointer is, or what the radar shows.
        let line = match (&radar, refused.filter(|_| hover.is_some())) {
            (Some((picture, _)), _) => {
                let decks = picture.iter().filter(|(_, deck)| *deck).count();
                RichText::new(t.with("radar-picture", &[("decks", Arg::from(decks))]))
            }
            (None, Some(why)) => RichText::new(t.with("aim-refused", &[("why", Arg::from(why))]))
                .color(Color32::from_rgb(240, 120, 110)),
            (None, None) => RichText::new(" "),
        };
        ui.label(line);
    }

    /// Cells of `seat`'s running or queued animations not shown yet, and the decks
    /// of ships whose sinking is not shown yet (still burning).
    fn hidden(&self, now: Millis, seat: Seat) -> (CellSet, CellSet) {
        self.anims
            .iter()
            .filter(|a| a.seat == seat)
            .fold((CellSet::EMPTY, CellSet::EMPTY), |(hidden, burning), a| {
                (hidden | a.hidden(now), burning | a.burning(now))
            })
    }

    /// The cells `seat`'s last action touched, on the board it hit, once no
    /// animation of `seat`'s runs there.
    fn last_overlays(&self, seat: Seat) -> Vec<(Coord, Overlay)> {
        match &self.last {
            Some((by, cells)) if *by == seat && self.anims.iter().all(|a| a.seat != seat) => {
                cells.iter().map(|c| (*c, Overlay::Last)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// What the running animation of `seat`'s action shows over the board it hits.
    fn anim_overlays(&self, now: Millis, seat: Seat) -> Vec<(Coord, Overlay)> {
        self.anims
            .front()
            .filter(|a: &&Anim| a.seat == seat && a.start <= now)
            .map_or_else(Vec::new, |a| a.overlays(now))
    }

    /// A friend table's connection, and what the network side refused of ours.
    pub(super) fn link_line(&mut self, ui: &mut egui::Ui, t: &Text) {
        let Some(remote) = self.driver.remote() else {
            return;
        };
        if let Some(why) = remote.take_refused() {
            self.refused = Some(why);
        }
        let link = super::link_line(t, remote.link());
        let over = matches!(
            remote.link(),
            Some(crate::driver::Link::Gone { .. } | crate::driver::Link::Left)
        );
        let failed = match remote.ended() {
            Some(Err(why)) => Some(t.with("friend-failed", &[("why", Arg::from(why.clone()))])),
            _ => None,
        };
        if over {
            ui.colored_label(Color32::from_rgb(240, 170, 80), link);
        } else {
            ui.label(link);
        }
        if let Some(line) = failed {
            ui.colored_label(Color32::from_rgb(240, 120, 110), line);
        }
        if let Some(why) = &self.refused {
            ui.colored_label(
                Color32::from_rgb(240, 120, 110),
                t.with("refused", &[("why", Arg::from(why.clone()))]),
            );
        }
    }

    /// Draw offers, at a friend's table.
    fn draw(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text, game: &Game) {
        let me = self.driver.session().seat();
        ui.horizontal(|ui| match game.draw_offer() {
            Some(seat) if seat == me => {
                ui.label(t.get("draw-offered"));
            }
            Some(_) => {
                ui.label(t.get("draw-theirs"));
                if ui.button(t.get("draw-accept")).clicked() {
                    let _ = self.driver.command(now, Command::AnswerDraw(true));
                }
                if ui.button(t.get("draw-decline")).clicked() {
                    let _ = self.driver.command(now, Command::AnswerDraw(false));
                }
            }
            None => {
                if ui.button(t.get("draw-offer")).clicked() {
                    let _ = self.driver.command(now, Command::OfferDraw);
                }
                match self.declined {
                    Some(seat) if seat == me => ui.label(t.get("draw-declined-mine")),
                    Some(_) => ui.label(t.get("draw-declined-theirs")),
                    None => ui.label(""),
                };
            }
        });
    }

    fn resign(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        if !self.confirm_resign {
            if ui.button(t.get("resign")).clicked() {
                self.confirm_resign = true;
            }
            return;
        }
        ui.horizontal(|ui| {
            ui.label(t.get("resign-confirm"));
            if ui.button(t.get("resign-yes")).clicked() {
                self.confirm_resign = false;
                let _ = self.driver.command(now, Command::Resign);
            }
            if ui.button(t.get("resign-no")).clicked() {
                self.confirm_resign = false;
            }
        });
    }
}

/// What a player may know of the other side at a glance: its ships still afloat,
/// by kind (from the player's own chart), and its weapons left (public knowledge).
fn hud(
    ui: &mut egui::Ui,
    t: &Text,
    game: &Game,
    me: Seat,
    unseen: &[u8],
    stock: crate::rules::Stock,
    flash: Option<(u8, f32)>,
) {
    let spec = game.variant().fleet();
    let mut sunk = game.chart(me).sunk_lengths();
    for len in unseen {
        if let Some(i) = sunk.iter().position(|l| l == len) {
            sunk.swap_remove(i);
        }
    }
    let mut kinds: Vec<u8> = spec.lengths().to_vec();
    kinds.sort_unstable_by(|a, b| b.cmp(a));
    kinds.dedup();
    let counts: Vec<(u8, usize, usize)> = kinds
        .iter()
        .map(|&len| {
            let gone = sunk.iter().filter(|&&l| l == len).count();
            let total = spec.count(len);
            (len, total.saturating_sub(gone), total)
        })
        .collect();
    let afloat: Vec<String> = counts
        .iter()
        .map(|&(len, left, _)| {
            format!(
                "{} ×{left}",
                t.with("ship", &[("len", Arg::from(u32::from(len)))])
            )
        })
        .collect();
    let line = t.with("hud-afloat", &[("ships", Arg::from(afloat.join(" · ")))]);
    // Wrapped: in a narrow window the other side's weapons go under its fleet rather
    // than past the right edge.
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(t.get("hud-fleet")).strong());
        board::fleet_row(ui, &counts, &line, flash);
        if game.variant().has_weapons() {
            ui.add_space(16.0);
            ui.label(t.with(
                "hud-their-stock",
                &[
                    ("torpedoes", Arg::from(u32::from(stock.torpedoes))),
                    ("air", Arg::from(u32::from(stock.air_strikes))),
                    ("radar", Arg::from(u32::from(stock.radars))),
                ],
            ));
        }
    });
}

/// The radar picture over the chart: a ring on each deck, a small one on water.
fn radar_overlays(picture: &[(Coord, bool)]) -> impl Iterator<Item = (Coord, Overlay)> + '_ {
    picture.iter().map(|&(c, deck)| {
        let overlay = if deck {
            Overlay::RadarDeck
        } else {
            Overlay::RadarWater
        };
        (c, overlay)
    })
}

/// What a tool does and how many are left, for its button's tooltip.
fn tool_tip(t: &Text, tool: Tool, stock: crate::rules::Stock) -> String {
    let (id, left) = match tool {
        Tool::Shot => return t.get("tip-shot"),
        Tool::Weapon(Weapon::Torpedo) => ("tip-torpedo", stock.torpedoes),
        Tool::Weapon(Weapon::AirStrike) => ("tip-air", stock.air_strikes),
        Tool::Weapon(Weapon::Radar) => ("tip-radar", stock.radars),
    };
    t.with(id, &[("left", Arg::from(u32::from(left)))])
}

fn next_heading(heading: Heading) -> Heading {
    match heading {
        Heading::Right => Heading::Down,
        Heading::Down => Heading::Left,
        Heading::Left => Heading::Up,
        Heading::Up => Heading::Right,
    }
}

/// The cells an action would touch, for the preview.
fn preview(action: &Action, size: crate::rules::BoardSize) -> Vec<Coord> {
    match action {
        Action::Shot(c) => vec![*c],
        Action::Torpedo(torpedo) => torpedo
            .path(size)
            .map(Iterator::collect)
            .unwrap_or_default(),
        Action::AirStrike(c) | Action::Radar(c) => {
            square(*c, size).map_or_else(|| vec![*c], |cells| cells.to_vec())
        }
    }
}

/// A cell's name for screen readers: the board, the cell, what it shows, and what
/// lies over it that a player acts on (the aim, a refused aim, a lost shell).
fn cell_label(
    t: &Text,
    variant: crate::rules::Variant,
    board: &str,
    cell: Coord,
    look: Look,
    overlays: &[(Coord, Overlay)],
) -> String {
    let label = t.with(
        "cell-label",
        &[
            ("board", Arg::from(board)),
            ("cell", Arg::from(cell_name(t, variant, cell))),
            ("state", Arg::from(look_name(t, look))),
        ],
    );
    let notes: Vec<String> = overlays
        .iter()
        .filter(|(c, _)| *c == cell)
        .filter_map(|(_, overlay)| match overlay {
            Overlay::Aim => Some(t.get("cell-aimed")),
            Overlay::Refused => Some(t.get("cell-refused")),
            Overlay::Lost => Some(t.get("cell-lost")),
            // The radar picture, while it shows, is read out where it is.
            Overlay::RadarDeck => Some(t.get("cell-radar-deck")),
            Overlay::RadarWater => Some(t.get("cell-radar-water")),
            _ => None,
        })
        .collect();
    if notes.is_empty() {
        label
    } else {
        format!("{label} ({})", notes.join(", "))
    }
}
