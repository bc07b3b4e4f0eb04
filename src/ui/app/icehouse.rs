//! The Icehouse Armada screen against the computer: the fleet laid by hand or
//! automatically, then the table from above — a ghost step after the pointer, the
//! large pyramid's shadow with its lit targets, the turn's actions at a glance, the
//! last turn's traces — and the results.

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
                } else {
                    self.placing_panel(ui, now, t);
                }
                if placed && !self.table.ended() {
                    self.draw_offers(ui, t);
                }
                if !self.table.ended() {
                    ui.add_space(10.0);
                    if ui.button(t.get("arch-resign")).clicked() {
                        self.table.resign();
                    }
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

    fn placing_table(
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
    fn bow_near(&self, p: Point) -> Option<usize> {
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

    fn placing_panel(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) {
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

    /// A friend's table: the time left for the person's action (after it the friend
    /// may claim the game), or for the friend's.
    fn clock_line(&self, ui: &mut egui::Ui, now: Millis, t: &Text) {
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
    fn draw_offers(&mut self, ui: &mut egui::Ui, t: &Text) {
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

    fn refusal_line(&self, ui: &mut egui::Ui) {
        if let Some(why) = &self.refused {
            ui.colored_label(Color32::from_rgb(240, 120, 110), why);
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

    // ----- Results -----

    fn results(&mut self, ui: &mut egui::Ui, t: &Text, totals: &crate::driver::Totals) -> Asked {
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
        let why = match &decided.lie {
            Some(lie) => t.with(decided.why, &[("lie", Arg::from(lie.as_str()))]),
            None => t.get(decided.why),
        };
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
                    args.extend(super::totals::figures(totals.icehouse_tally(kind)));
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
    fn kind(&self) -> Option<crate::driver::IcehouseKind> {
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
    fn figures(&self) -> ([usize; 2], [usize; 2], u32) {
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

/// Who the totals' line was played against.
pub(super) fn against_name(t: &Text, against: crate::driver::IcehouseAgainst) -> String {
    match against {
        crate::driver::IcehouseAgainst::Computer(level) => level_name(t, level),
        crate::driver::IcehouseAgainst::Friend => t.get("totals-friend"),
    }
}

/// The totals' game column for Icehouse Armada: the game and the squadron.
pub(super) fn kind_name(t: &Text, kind: crate::driver::IcehouseKind) -> String {
    let squadron = t.get(if kind.heavy { "ice-heavy" } else { "ice-light" });
    t.with("totals-icehouse", &[("squadron", Arg::from(squadron))])
}

/// A level's name as the home screen says it.
pub(super) fn level_name(t: &Text, level: Level) -> String {
    t.get(match level {
        Level::Easy => "level-easy",
        Level::Medium => "level-medium",
        Level::Hard => "level-hard",
    })
}

/// The counts of one's own points fleet, and what it is worth (red unless 12).
fn points_editor(ui: &mut egui::Ui, t: &Text, own: &mut [u8; 3]) {
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
fn fleet_words(t: &Text, fleet: Fleet) -> String {
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

fn size_name(t: &Text, size: Size) -> String {
    t.get(match size {
        Size::Small => "ice-small",
        Size::Medium => "ice-medium",
        Size::Large => "ice-large",
    })
}

fn goal_name(t: &Text, goal: Goal, me: Side) -> String {
    t.get(match goal {
        Goal::SinkAll => "ice-goal-sink",
        Goal::Flagship => "ice-goal-flagship",
        Goal::Breakthrough { attacker } if attacker == me => "ice-goal-attack",
        Goal::Breakthrough { .. } => "ice-goal-defend",
    })
}

/// The home card's choices for Icehouse Armada: the goal and the squadron; whether
/// one changed.
pub(super) fn options(ui: &mut egui::Ui, t: &Text, prefs: &mut super::Prefs) -> bool {
    use super::{IceSetupKind, IceSquadron};
    let before = (prefs.ice_goal, prefs.ice_squadron, prefs.ice_setup);
    ui.indent("ice_options", |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(t.get("ice-goal"));
            for (choice, id) in [
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
            ] {
                ui.radio_value(&mut prefs.ice_goal, choice, t.get(id));
            }
        });
        let setup = &mut prefs.ice_setup;
        ui.horizontal_wrapped(|ui| {
            ui.label(t.get("ice-setup"));
            ui.radio_value(
                &mut setup.kind,
                IceSetupKind::Basic,
                t.get("ice-setup-basic"),
            );
            ui.radio_value(
                &mut setup.kind,
                IceSetupKind::Advanced,
                t.get("ice-setup-advanced"),
            );
            ui.radio_value(
                &mut setup.kind,
                IceSetupKind::Points,
                t.get("ice-setup-points"),
            );
        });
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
            ui.horizontal_wrapped(|ui| {
                ui.label(t.get("ice-squadron"));
                ui.radio_value(
                    &mut prefs.ice_squadron,
                    IceSquadron::Heavy,
                    t.get("ice-heavy"),
                );
                ui.radio_value(
                    &mut prefs.ice_squadron,
                    IceSquadron::Light,
                    t.get("ice-light"),
                );
            });
        }
    });
    before != (prefs.ice_goal, prefs.ice_squadron, prefs.ice_setup)
}

/// Why the Icehouse setup chosen at home cannot open a table, if it cannot: a
/// points fleet not worth 12.
pub(super) fn setup_problem(t: &Text, prefs: &super::Prefs) -> Option<String> {
    if prefs.mode != super::Mode::Icehouse || prefs.ice_setup.kind != super::IceSetupKind::Points {
        return None;
    }
    let own = prefs.ice_setup.own();
    crate::driver::ice::check_points(own)
        .err()
        .map(|_| t.with("ice-points-wrong", &[("pips", Arg::from(own.pips()))]))
}

impl Armada {
    /// The person's Icehouse choices as the home screen holds them (medium level).
    pub(super) fn ice_choice(&self) -> IcehouseChoice {
        IcehouseChoice {
            level: Level::Medium,
            setup: self.prefs.ice_setup.setup(),
            own: self.prefs.ice_setup.own(),
            squadron: match self.prefs.ice_squadron {
                super::IceSquadron::Heavy => crate::driver::ice::Squadron::Heavy,
                super::IceSquadron::Light => crate::driver::ice::Squadron::Light,
            },
            goal: self.prefs.ice_goal,
        }
    }

    /// A new game of Icehouse Armada against the computer.
    pub(super) fn open_icehouse(&mut self, choice: IcehouseChoice, now: Millis) {
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
    pub(super) fn show_friend_icehouse(
        &mut self,
        remote: Box<crate::driver::Remote<crate::driver::ice_table::Session>>,
    ) {
        let mut play = IcePlay::new(IceTable::Friend(remote));
        play.own = self.prefs.ice_setup.own();
        self.ice = Some(Box::new(play));
        self.home = None;
    }

    /// The saved game of Icehouse Armada, where it was left.
    pub(super) fn resume_icehouse(&mut self, now: Millis) {
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
    pub(super) fn icehouse_screen(&mut self, ui: &mut egui::Ui, now: Millis) {
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
        if matches!(self.totals_lost, Some(super::TotalsLost::Unreadable(_))) {
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
