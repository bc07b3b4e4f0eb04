//! The Icehouse Armada screen, against the computer or a friend: the table from above
//! — a ghost step after the pointer, the large pyramid's shadow with its lit targets,
//! the turn's actions at a glance, the last turn's traces. Laying the fleet, the
//! results, the home screen's choices and the window's part are the modules below.

use std::collections::VecDeque;

use egui::{Color32, Key, RichText, Sense, Vec2};

use super::super::i18n::{Arg, Text};
use super::super::ice_view::{self, Look, Shade, View};
use super::Armada;
use super::ice_seat::{Before, IceTable, Seen};
use super::ice_table::{self as it, LIT};
use crate::driver::ice::{
    Action, Fleet, Game, Goal, Level, Placed, Point, Pose, Ship, Side, Size, Step, Steps, TABLE_H,
    TABLE_W, complete_placement,
};
use crate::driver::{IcehouseChoice, IcehouseError, IcehouseGoal, IcehouseTable, Millis};

#[cfg(feature = "bench")]
mod bench;
mod controls;
mod placing;
mod results;
mod screen;
mod setup;

pub(super) use setup::{against_name, kind_name, level_name, options, setup_problem};
use setup::{fleet_words, goal_name, points_editor, size_name};

/// How many lines of news stay on screen.
const NEWS_LINES: usize = 6;
/// A fine turn of the ghost or the ship in hand (arrow keys), and a coarse one.
const FINE: f64 = std::f64::consts::PI / 180.0;
const COARSE: f64 = std::f64::consts::PI / 12.0;
/// The side panel's width.
const PANEL: f32 = 270.0;
/// How long a sinking glows.
const SINK_MS: Millis = 1_600;

/// What a picked ship does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Move,
    Fire,
}

/// One of the last turn's actions, drawn faintly.
#[derive(Clone, Copy, Debug)]
enum Trace {
    /// A ship of `side` sailed from `from`.
    Sailed { side: Side, size: Size, from: Pose },
    /// A shot from `from` to `to`.
    Fired { from: Point, to: Point },
}

/// A game of Icehouse Armada on screen.
#[derive(Debug)]
pub(super) struct IcePlay {
    pub(super) table: IceTable,
    /// Resign was clicked once: the panel asks whether to.
    confirm_resign: bool,
    /// The person's ships by size, in the fleet's order.
    sizes: Vec<Size>,
    /// Placement: where each ship is laid so far.
    draft: Vec<Option<Pose>>,
    /// The ship in hand while placing.
    hand: Option<usize>,
    /// The heading of the ship in hand.
    heading: f64,
    /// A laid ship turned by dragging its bow: the middle it turns about.
    pivot: Option<(f64, f64)>,
    /// The game as shown: the table's, action by action as they are taken.
    shown: Option<Game>,
    picked: Option<u8>,
    mode: Mode,
    /// Steps laid and not yet sailed.
    steps: Vec<Point>,
    /// The ghost's heading turned by keys, until the pointer moves.
    turned: Option<f64>,
    last_pointer: Option<(f64, f64)>,
    /// Why the last gesture was refused.
    refused: Option<String>,
    news: VecDeque<String>,
    /// The last turn's actions of each side.
    traces: [Vec<Trace>; 2],
    /// The turn each side's traces belong to.
    trace_turn: [u32; 2],
    /// A ship just sunk (side, pose, size) and since when.
    sinking: Option<(Side, Pose, Size, Millis)>,
    /// The last frame's view of the table (tests click through it).
    view: Option<View>,
    /// A pointer the window benchmark moves over the table instead of the mouse.
    stand_in: Option<(f64, f64)>,
    /// The number of the game whose placement was laid.
    laid_in: Option<u32>,
    /// A placement laid before the table takes it (a friend commits first).
    queued: Option<Vec<Placed>>,
    /// The person's own fleet at a friend's points table.
    own: Fleet,
    /// A friend's table: since when the person's current action is owed.
    owed_since: Option<Millis>,
    pub(super) calm: bool,
}

/// The pointer over the table this frame.
#[derive(Clone, Copy, Debug)]
struct Gesture {
    pointer: Option<(f64, f64)>,
    clicked: bool,
    secondary: bool,
}

/// Where the table is drawn this frame.
struct Drawn<'a> {
    painter: &'a egui::Painter,
    view: &'a View,
}

/// What the screen asks of the window.
pub(super) enum Asked {
    Nothing,
    Home,
    NewGame,
}

impl IcePlay {
    pub(super) fn new(table: IceTable) -> Self {
        let shown = table.game().cloned();
        let mut play = Self {
            draft: Vec::new(),
            hand: None,
            sizes: Vec::new(),
            heading: 0.0,
            pivot: None,
            shown,
            picked: None,
            mode: Mode::Move,
            steps: Vec::new(),
            turned: None,
            last_pointer: None,
            refused: None,
            news: VecDeque::new(),
            traces: [Vec::new(), Vec::new()],
            trace_turn: [0, 0],
            sinking: None,
            view: None,
            stand_in: None,
            laid_in: None,
            queued: None,
            own: Fleet::new(1, 3, 3),
            owed_since: None,
            calm: false,
            table,
            confirm_resign: false,
        };
        play.ready_to_place();
        play
    }

    /// The fleet to lay, once the table says which (a friend's: once the first
    /// mover is chosen), the first ship in hand, heading toward the enemy.
    fn ready_to_place(&mut self) {
        if !self.sizes.is_empty() || self.table.before() != Some(Before::Place) {
            return;
        }
        let Some((fleet, _)) = self.table.fleet_and_goal(self.own) else {
            return;
        };
        self.sizes = fleet.sizes().collect();
        self.draft = vec![None; self.sizes.len()];
        self.hand = (!self.sizes.is_empty()).then_some(0);
        self.heading = match self.me() {
            Side::South => std::f64::consts::FRAC_PI_2,
            Side::North => -std::f64::consts::FRAC_PI_2,
        };
    }

    fn me(&self) -> Side {
        self.table.person().unwrap_or(Side::South)
    }

    /// Lets the computer act when due and takes what was played; when to look again.
    pub(super) fn tick(&mut self, now: Millis, t: &Text) -> Option<Millis> {
        if self.queued.is_some() && self.table.owes_placement() {
            let placement = self.queued.take().unwrap_or_default();
            if let Err(e) = self.table.place(now, placement) {
                self.refused = Some(e.to_string());
                self.laid_in = None;
            }
        }
        // Both fleets laid: the battle is shown from its first action on.
        self.sync(t);
        for seen in self.table.poll(now) {
            match seen {
                Seen::Played(played) => self.take(&played, now, t),
                Seen::Changed => {}
            }
        }
        if let Some(why) = self.table.take_refused() {
            self.refused = Some(why);
        }
        self.sync(t);
        if self.laid_in.is_some_and(|n| n != self.table.game_number()) {
            // Another game at a friend's table: a fresh placement.
            self.sizes.clear();
            self.draft.clear();
            self.picked = None;
            self.laid_in = None;
            self.queued = None;
        }
        self.ready_to_place();
        if self.table.my_turn() {
            self.owed_since.get_or_insert(now);
        } else {
            self.picked = None;
            self.steps.clear();
            self.owed_since = None;
        }
        let glow = self
            .sinking
            .filter(|_| !self.calm)
            .map(|(.., at)| at + SINK_MS)
            .filter(|&end| now < end);
        match (self.table.poll_timeout(), glow) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The table's game as it is, after a reveal, a new game or a move made void.
    fn sync(&mut self, t: &Text) {
        if self.shown.as_ref() == self.table.game() {
            return;
        }
        let revealed = self.shown.is_none();
        self.shown = self.table.game().cloned();
        self.traces = [Vec::new(), Vec::new()];
        self.steps.clear();
        if revealed && self.shown.is_some() {
            let id = if self.table.level().is_some() {
                "ice-revealed"
            } else {
                "ice-revealed-friend"
            };
            self.news.push_back(t.get(id));
        }
    }

    /// One action played: its news line, its trace, its sinking.
    fn take(&mut self, played: &crate::driver::ice::Played, now: Millis, t: &Text) {
        let mine = played.side == self.me();
        let friend = self.table.level().is_none();
        let Some(game) = self.shown.as_mut() else {
            self.shown = self.table.game().cloned();
            return;
        };
        let side = played.side;
        if self.trace_turn[side.index()] != game.turn() {
            self.traces[side.index()].clear();
            self.trace_turn[side.index()] = game.turn();
        }
        let name = |game: &Game, side: Side, i: u8| {
            game.ships(side)
                .get(usize::from(i))
                .map_or_else(String::new, |s| s.name.to_string())
        };
        let line = match played.action {
            Action::Move { ship, steps } => {
                if let Some(s) = game.ships(side).get(usize::from(ship)) {
                    self.traces[side.index()].push(Trace::Sailed {
                        side,
                        size: s.size(),
                        from: s.pose,
                    });
                }
                let id = match (mine, friend) {
                    (true, _) => "ice-news-you-moved",
                    (false, false) => "ice-news-they-moved",
                    (false, true) => "ice-news-friend-moved",
                };
                t.with(
                    id,
                    &[
                        ("ship", Arg::from(name(game, side, ship))),
                        ("steps", Arg::from(steps.bows().len())),
                    ],
                )
            }
            Action::Fire(shot) => {
                if let Some(s) = game.ships(side).get(usize::from(shot.ship)) {
                    let from = s.pose.field(s.size(), shot.side, shot.o).origin(shot.j);
                    self.traces[side.index()].push(Trace::Fired { from, to: shot.at });
                }
                let sunk = played.hit.is_some_and(|h| h.sunk);
                if sunk && let Some(target) = game.ships(side.other()).get(usize::from(shot.target))
                {
                    self.sinking = Some((side.other(), target.pose, target.size(), now));
                }
                let id = match (mine, sunk) {
                    (true, false) => "ice-news-you-hit",
                    (true, true) => "ice-news-you-sank",
                    (false, false) => "ice-news-they-hit",
                    (false, true) => "ice-news-they-sank",
                };
                t.with(
                    id,
                    &[
                        ("ship", Arg::from(name(game, side, shot.ship))),
                        ("target", Arg::from(name(game, side.other(), shot.target))),
                    ],
                )
            }
            Action::EndTurn => t.get(match (mine, friend) {
                (true, _) => "ice-news-you-ended",
                (false, false) => "ice-news-they-ended",
                (false, true) => "ice-news-friend-ended",
            }),
        };
        // The table played it: the copy shown plays it too.
        let _ = game.play(played.action);
        self.news.push_back(line);
        while self.news.len() > NEWS_LINES {
            self.news.pop_front();
        }
    }

    /// The screen; what it asks of the window.
    pub(super) fn show(
        &mut self,
        ui: &mut egui::Ui,
        now: Millis,
        t: &Text,
        totals: &crate::driver::Totals,
    ) -> Asked {
        let mut asked = Asked::Nothing;
        self.header(ui, t);
        if self.table.ended() {
            asked = self.results(ui, t, totals);
        }
        match self.table.before() {
            Some(Before::Choose) => {
                ui.label(RichText::new(t.get("ice-choose")).size(18.0));
                ui.horizontal(|ui| {
                    if ui.button(t.get("ice-choose-me")).clicked() {
                        self.table.choose(true);
                    }
                    if ui.button(t.get("ice-choose-friend")).clicked() {
                        self.table.choose(false);
                    }
                });
                if let Some((first, second)) = self.table.fleets_if_chosen()
                    && first != second
                {
                    ui.label(t.with(
                        "ice-choose-swap",
                        &[
                            ("first", Arg::from(fleet_words(t, first))),
                            ("second", Arg::from(fleet_words(t, second))),
                        ],
                    ));
                }
                return asked;
            }
            Some(Before::FriendChooses) => {
                ui.label(t.get("ice-friend-chooses"));
                return asked;
            }
            Some(Before::Starting) => {
                ui.label(t.get("arch-opening"));
                return asked;
            }
            _ => {}
        }
        let placed = self.table.game().is_some();
        ui.horizontal_top(|ui| {
            let width = (ui.available_width() - PANEL - 16.0).max(360.0);
            let height = (width * (TABLE_H as f32) / (TABLE_W as f32))
                .min((ui.available_height() - 8.0).max(240.0));
            let (rect, response) =
                ui.allocate_exact_size(Vec2::new(width, height), Sense::click_and_drag());
            let view = View::fit(rect, Point::new(0, 0), Point::new(TABLE_W, TABLE_H))
                .turned(self.me() == Side::North);
            self.view = Some(view);
            let pointer = self
                .stand_in
                .or_else(|| response.hover_pos().map(|p| view.table_at(p)));
            if pointer != self.last_pointer && pointer.is_some() {
                self.turned = None;
            }
            self.last_pointer = pointer;
            let painter = ui.painter_at(rect);
            it::paint_water(&painter, &view, self.me(), !placed);
            if placed {
                self.battle_table(ui, &painter, &view, &response, pointer, now, t);
            } else {
                self.placing_table(ui, &painter, &view, &response, pointer, t);
            }
            ui.vertical(|ui| {
                ui.set_width(PANEL);
                if placed {
                    self.battle_panel(ui, now, t);
                } else if !self.table.ended() {
                    self.placing_panel(ui, now, t);
                }
                if placed && !self.table.ended() {
                    self.draw_offers(ui, t);
                }
                if !self.table.ended() {
                    ui.add_space(10.0);
                    self.resign(ui, t);
                }
            });
        });
        asked
    }

    /// Who is played against, the goal, and who moves first.
    fn header(&self, ui: &mut egui::Ui, t: &Text) {
        ui.horizontal(|ui| {
            let goal = self
                .table
                .goal()
                .map_or_else(String::new, |g| goal_name(t, g, self.me()));
            let against = match self.table.level() {
                // A friend's goal is told once the side that plays it is known.
                None if goal.is_empty() => t.get("ice-friend-table"),
                Some(level) => t.with(
                    "ice-against",
                    &[
                        ("level", Arg::from(level_name(t, level))),
                        ("goal", Arg::from(goal)),
                    ],
                ),
                None => t.with("ice-against-friend", &[("goal", Arg::from(goal))]),
            };
            ui.label(against);
            if let Some(side) = self.table.person() {
                ui.separator();
                let first = match (side, self.table.level().is_some()) {
                    (Side::South, _) => "ice-you-first",
                    (Side::North, true) => "ice-they-first",
                    (Side::North, false) => "ice-friend-first",
                };
                ui.label(t.get(first));
            }
            if let Some(remote) = self.table.remote_ref() {
                ui.separator();
                ui.label(super::link_line(t, remote.link()));
            }
        });
    }

    // ----- Placement -----

    fn ship_name(&self, i: usize) -> String {
        let size = self.sizes[i];
        let number = self.sizes[..=i].iter().filter(|&&s| s == size).count();
        format!("{}{number}", size.letter())
    }

    fn others(&self, except: usize) -> Vec<(String, crate::driver::ice::Triangle)> {
        self.draft
            .iter()
            .enumerate()
            .filter(|&(i, p)| i != except && p.is_some())
            .filter_map(|(i, p)| p.map(|p| (self.ship_name(i), p.footprint(self.sizes[i]))))
            .collect()
    }

    fn flagship(&self, i: usize) -> bool {
        self.table.goal() == Some(Goal::Flagship) && i == 0
    }

    /// Keys turn the ship in hand or the ghost: Q and E coarsely, the arrows finely,
    /// the wheel over the table.
    fn turn_by_keys(&mut self, ui: &egui::Ui, hovered: bool) {
        let turn = ui.input(|i| {
            let mut d = 0.0;
            if i.key_pressed(Key::Q) {
                d += COARSE;
            }
            if i.key_pressed(Key::E) {
                d -= COARSE;
            }
            if i.key_pressed(Key::ArrowLeft) {
                d += FINE;
            }
            if i.key_pressed(Key::ArrowRight) {
                d -= FINE;
            }
            let notches: f32 = i
                .events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::MouseWheel { delta, .. } if hovered => Some(delta.y.signum()),
                    _ => None,
                })
                .sum();
            d + f64::from(notches) * FINE * 5.0
        });
        if turn == 0.0 {
            return;
        }
        // On the turned table (north at the bottom) turning left is the same turn.
        if self.shown.is_some() {
            let base = self.turned.or(self.ghost_angle()).unwrap_or(0.0);
            self.turned = Some(base + turn);
        } else {
            self.heading += turn;
        }
    }

    // ----- Battle -----

    /// The pose the picked ship's next step starts from (after the steps laid).
    fn step_from(&self, game: &Game, ship: u8) -> Option<Pose> {
        let s = game.ships(self.me()).get(usize::from(ship))?;
        it::poses_along(s.pose, &self.steps).last().copied()
    }

    fn ghost_angle(&self) -> Option<f64> {
        let game = self.shown.as_ref()?;
        let from = self.step_from(game, self.picked?)?;
        self.last_pointer.map(|p| it::angle_to(from.bow, p))
    }

    #[allow(clippy::too_many_arguments)]
    fn battle_table(
        &mut self,
        ui: &egui::Ui,
        painter: &egui::Painter,
        view: &View,
        response: &egui::Response,
        pointer: Option<(f64, f64)>,
        now: Millis,
        t: &Text,
    ) {
        let Some(game) = self.shown.clone() else {
            return;
        };
        self.paint_traces(painter, view);
        self.paint_fleets(painter, view, &game, now);
        if !self.table.my_turn() || self.table.game() != Some(&game) {
            return;
        }
        self.turn_by_keys(ui, response.hovered());
        self.battle_keys(ui, now, t);
        let gesture = Gesture {
            pointer,
            clicked: response.clicked(),
            secondary: response.secondary_clicked(),
        };
        let me = self.me();
        // A click on one of the person's own ships picks it (not in the middle of a move).
        if gesture.clicked
            && self.steps.is_empty()
            && let Some(p) = pointer.map(it::point)
            && let Some(i) = game
                .ships(me)
                .iter()
                .position(|s| s.afloat && s.footprint().contains(p))
        {
            self.pick(&game, i as u8);
            return;
        }
        let Some(ship) = self.picked else { return };
        let Some(s) = game.ships(me).get(usize::from(ship)).copied() else {
            return;
        };
        it::paint_ring(painter, view, s.pose, s.size(), LIT, 2.0);
        let drawn = Drawn { painter, view };
        match self.mode {
            Mode::Move => self.move_ghost(&drawn, &game, &s, ship, gesture, now, t),
            Mode::Fire => self.fire_aim(&drawn, &game, &s, ship, gesture, now, t),
        }
    }

    /// Both fleets, and the glow of a ship just sunk.
    fn paint_fleets(&self, painter: &egui::Painter, view: &View, game: &Game, now: Millis) {
        let me = self.me();
        for side in Side::BOTH {
            for ship in game.ships(side) {
                let look = Look {
                    damage: ship.damage,
                    flagship: ship.flagship,
                    shade: if ship.afloat {
                        Shade::Solid
                    } else {
                        Shade::Sunk
                    },
                    ..it::look_of(side == me)
                };
                ice_view::paint_ship(painter, view, ship.pose, ship.size(), look);
            }
        }
        if let Some((_, pose, size, at)) = self.sinking
            && (self.calm || now < at + SINK_MS)
        {
            let fade = if self.calm {
                1.0
            } else {
                1.0 - (now - at) as f32 / SINK_MS as f32
            };
            let colour = super::super::palette::FIRE.gamma_multiply(fade);
            it::paint_ring(painter, view, pose, size, colour, 4.0);
        }
    }

    /// The steps laid, the ghost of the next after the pointer, and its click.
    #[allow(clippy::too_many_arguments)]
    fn move_ghost(
        &mut self,
        drawn: &Drawn<'_>,
        game: &Game,
        s: &Ship,
        ship: u8,
        gesture: Gesture,
        now: Millis,
        t: &Text,
    ) {
        let (painter, view) = (drawn.painter, drawn.view);
        let Some(from) = self.step_from(game, ship) else {
            return;
        };
        for pose in it::poses_along(s.pose, &self.steps).iter().skip(1) {
            it::paint_ghost(painter, view, s.size(), *pose, true, true);
        }
        if gesture.secondary {
            self.sail(now, t);
            return;
        }
        if self.steps.len() >= s.size().steps() || game.has_moved(ship) {
            return;
        }
        let Some(angle) = self.turned.or(self.ghost_angle()) else {
            return;
        };
        it::paint_pivot(painter, view, from, s.size());
        let (next, verdict) = it::ghost(game, ship, s.size(), from, angle);
        it::paint_ghost(painter, view, s.size(), next, verdict.is_ok(), true);
        if !gesture.clicked {
            return;
        }
        match verdict {
            Ok(step) => {
                self.steps.push(next.bow);
                self.turned = None;
                self.refused = None;
                // No step follows the last one allowed, or a ram.
                if self.steps.len() == s.size().steps() || step == Step::Rams {
                    self.sail(now, t);
                }
            }
            Err(why) => self.refused = Some(it::refusal(t, &why)),
        }
    }

    /// The large pyramid's shadow after the pointer, its lit targets, and a click
    /// that fires at one.
    #[allow(clippy::too_many_arguments)]
    fn fire_aim(
        &mut self,
        drawn: &Drawn<'_>,
        game: &Game,
        s: &Ship,
        ship: u8,
        gesture: Gesture,
        now: Millis,
        t: &Text,
    ) {
        let (painter, view) = (drawn.painter, drawn.view);
        let Some(at) = gesture.pointer else { return };
        let Some(aim) = it::aim(game, ship, at) else {
            return;
        };
        ice_view::paint_field(painter, view, &aim.field, LIT);
        let enemy = game.ships(self.me().other());
        for shot in &aim.lit {
            if let Some(target) = enemy.get(usize::from(shot.target)) {
                it::paint_ring(painter, view, target.pose, target.size(), LIT, 3.0);
            }
        }
        let p = it::point(at);
        let Some(target) = enemy
            .iter()
            .position(|e| e.afloat && e.footprint().contains(p))
        else {
            return;
        };
        let shot = aim.lit.iter().find(|s| usize::from(s.target) == target);
        if let Some(shot) = shot {
            it::paint_shot(painter, view, aim.field.origin(shot.j), shot.at, true);
        }
        if !gesture.clicked {
            return;
        }
        if let Some(shot) = shot {
            self.act(now, Action::Fire(*shot), t);
        } else if game.shots_fired(ship) >= s.size().pips() {
            let name = Arg::from(s.name.to_string());
            self.refused = Some(t.with("ice-why-no-shot", &[("ship", name)]));
        } else {
            let name = Arg::from(enemy[target].name.to_string());
            self.refused = Some(t.with("ice-not-lit", &[("ship", name)]));
        }
    }

    fn paint_traces(&self, painter: &egui::Painter, view: &View) {
        for traces in &self.traces {
            for trace in traces {
                match *trace {
                    Trace::Sailed { side, size, from } => {
                        let look = Look {
                            shade: Shade::Faint,
                            ..it::look_of(side == self.me())
                        };
                        let look = Look {
                            colour: look.colour.gamma_multiply(0.5),
                            ..look
                        };
                        ice_view::paint_ship(painter, view, from, size, look);
                    }
                    Trace::Fired { from, to, .. } => it::paint_shot(painter, view, from, to, false),
                }
            }
        }
    }

    fn pick(&mut self, game: &Game, ship: u8) {
        self.picked = Some(ship);
        self.steps.clear();
        self.turned = None;
        self.refused = None;
        self.mode = if game.has_moved(ship) {
            Mode::Fire
        } else {
            Mode::Move
        };
    }

    /// M, F, Enter, Escape and Space at the person's turn.
    fn battle_keys(&mut self, ui: &egui::Ui, now: Millis, t: &Text) {
        let (m, f, enter, escape, space) = ui.input(|i| {
            (
                i.key_pressed(Key::M),
                i.key_pressed(Key::F),
                i.key_pressed(Key::Enter),
                i.key_pressed(Key::Escape),
                i.key_pressed(Key::Space),
            )
        });
        // Space on a focused button presses that button; it ends no turn besides.
        let space = space && ui.ctx().memory(|m| m.focused().is_none());
        if m && self.steps.is_empty() {
            self.mode = Mode::Move;
        }
        if f && self.steps.is_empty() {
            self.mode = Mode::Fire;
        }
        if enter {
            self.sail(now, t);
        }
        if escape {
            if self.steps.is_empty() {
                self.picked = None;
            }
            self.steps.clear();
            self.refused = None;
        }
        if space {
            self.act(now, Action::EndTurn, t);
        }
    }

    /// Sends the steps laid as one move.
    fn sail(&mut self, now: Millis, t: &Text) {
        let (Some(ship), Some(steps)) = (self.picked, Steps::new(&self.steps)) else {
            return;
        };
        self.act(now, Action::Move { ship, steps }, t);
    }

    fn act(&mut self, now: Millis, action: Action, t: &Text) {
        match self.table.play(now, action) {
            Ok(()) => {
                self.steps.clear();
                self.refused = None;
                for seen in self.table.poll(now) {
                    if let Seen::Played(played) = seen {
                        self.take(&played, now, t);
                    }
                }
                // A ship that sailed may still fire; the end of a turn puts it down.
                self.mode = Mode::Fire;
                self.owed_since = Some(now);
                if action == Action::EndTurn {
                    self.picked = None;
                }
            }
            Err(IcehouseError::Refused(why)) => self.refused = Some(it::refusal(t, &why)),
            Err(e) => self.refused = Some(e.to_string()),
        }
    }

    /// What the picked ship does: move or fire, the steps left or the targets lit.
    fn picked_panel(&mut self, ui: &mut egui::Ui, game: &Game, ship: u8, now: Millis, t: &Text) {
        let me = self.me();
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui
                .selectable_label(self.mode == Mode::Move, t.get("ice-mode-move"))
                .clicked()
                && self.steps.is_empty()
            {
                self.mode = Mode::Move;
            }
            if ui
                .selectable_label(self.mode == Mode::Fire, t.get("ice-mode-fire"))
                .clicked()
                && self.steps.is_empty()
            {
                self.mode = Mode::Fire;
            }
        });
        match self.mode {
            Mode::Move => {
                let max = game
                    .ships(me)
                    .get(usize::from(ship))
                    .map_or(0, |s| s.size().steps());
                ui.label(t.with(
                    "ice-move-help",
                    &[("left", Arg::from(max.saturating_sub(self.steps.len())))],
                ));
                if !self.steps.is_empty()
                    && ui
                        .button(t.with("ice-sail", &[("steps", Arg::from(self.steps.len()))]))
                        .clicked()
                {
                    self.sail(now, t);
                }
            }
            Mode::Fire => {
                ui.label(t.get("ice-fire-help"));
                // The line of fire's words take their room whether the pointer is on
                // the table or not, so that End turn below never moves from under it.
                let top = ui.cursor().top();
                let room = 2.0 * ui.text_style_height(&egui::TextStyle::Body)
                    + ui.spacing().item_spacing.y;
                if let Some(at) = self.last_pointer
                    && let Some(aim) = it::aim(game, ship, at)
                {
                    let names: Vec<String> = aim
                        .lit
                        .iter()
                        .filter_map(|s| game.ships(me.other()).get(usize::from(s.target)))
                        .map(|s| s.name.to_string())
                        .collect();
                    if names.is_empty() {
                        ui.label(t.get("ice-lit-none"));
                    } else {
                        ui.label(t.with("ice-lit", &[("ships", Arg::from(names.join(", ")))]));
                    }
                }
                let used = ui.cursor().top() - top;
                if used < room {
                    ui.add_space(room - used);
                }
            }
        }
    }

    fn battle_panel(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        let Some(game) = self.shown.clone() else {
            return;
        };
        let me = self.me();
        if !self.table.ended() {
            if self.table.my_turn() {
                ui.heading(t.get("ice-your-turn"));
                ui.label(
                    RichText::new(t.with(
                        "ice-actions-left",
                        &[("left", Arg::from(u32::from(game.actions_left())))],
                    ))
                    .size(18.0)
                    .strong(),
                );
            } else if self.table.level().is_some() {
                ui.heading(t.get("ice-their-turn"));
            } else {
                ui.heading(t.get("ice-their-turn-friend"));
            }
            ui.label(t.with("ice-turn-number", &[("turn", Arg::from(game.turn()))]));
            self.clock_line(ui, now, t);
        }
        ui.add_space(6.0);
        let my_turn = self.table.my_turn();
        for (i, s) in game.ships(me).iter().enumerate() {
            let i = i as u8;
            let state = if !s.afloat {
                t.get("ice-ship-sunk")
            } else if !my_turn {
                t.with("ice-ship-hits", &[("left", Arg::from(s.strength()))])
            } else {
                let shots = u32::from(s.size().pips() - game.shots_fired(i).min(s.size().pips()));
                let id = if game.has_moved(i) {
                    "ice-ship-moved"
                } else {
                    "ice-ship-may-move"
                };
                t.with(id, &[("shots", Arg::from(shots))])
            };
            let text = format!("{} — {state}", s.name);
            if ui
                .add_enabled(
                    s.afloat && my_turn,
                    egui::Button::selectable(self.picked == Some(i), text),
                )
                .clicked()
            {
                self.pick(&game, i);
            }
        }
        if my_turn && let Some(ship) = self.picked {
            self.picked_panel(ui, &game, ship, now, t);
        } else if my_turn {
            ui.label(t.get("ice-pick"));
        }
        if my_turn {
            ui.add_space(6.0);
            let end = egui::Button::new(RichText::new(t.get("ice-end-turn")).size(16.0))
                .min_size(Vec2::new(180.0, 34.0));
            if ui.add(end).clicked() {
                self.act(now, Action::EndTurn, t);
            }
        }
        self.refusal_line(ui);
        ui.add_space(8.0);
        for line in &self.news {
            ui.label(line);
        }
    }
}
