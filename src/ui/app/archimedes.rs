//! The Archimedes screen against the computer: the board (green dots where the chosen ship can go, red lines from the ships that sank one), the score line, the pause menu, and the results with the totals for that board and level.

use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, Vec2};

use super::super::i18n::{Arg, Text};
use super::Armada;
use super::arch_table::{ArchTable, Decided, Seen};
use crate::driver::arch::{Level, Move, Played, Position, Side};
use crate::driver::{ArchimedesAgainst, ArchimedesKind, ArchimedesTable, Millis, Outcome};
use crate::rules::Coord;
use crate::ui::palette::{FIRE, MINE, OWN_SEA, REACH, SEA_LINE, THEIRS};

/// How long the red lines of a sinking stay on the board.
const FLASH_MS: Millis = 1_500;

/// A game of Archimedes on screen.
#[derive(Debug)]
pub(super) struct ArchPlay {
    pub(super) table: ArchTable,
    /// The person's ship picked up, whose reach shows as green dots.
    selected: Option<Coord>,
    /// Moves whose sinkings are flashing, and since when.
    flashes: Vec<(Played, Millis)>,
    last: Option<Move>,
    /// The keyboard's cursor, once an arrow key was pressed.
    cursor: Option<Coord>,
    /// The ships the last move sank (a faint cross stays on each until the next move).
    last_sunk: Vec<Coord>,
    menu: Menu,
    start: [usize; 2],
    /// The number of the game whose result was handed to the totals (which count
    /// each game once, by its table and number).
    counted: Option<u32>,
    /// Reduce motion: the red lines of a sinking do not fade; they stay, steady,
    /// until the next move.
    pub(super) calm: bool,
    /// Why the friend's table refused the person's last command.
    refused: Option<String>,
}

/// The pause menu: closed, open, open with the short rules, or asking whether to
/// resign (a slip of the pointer must not end a game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Menu {
    Closed,
    Open,
    Rules,
    Resign,
}

/// What the screen asks of the window.
pub(super) enum Asked {
    Nothing,
    Home,
    NewGame,
}

impl ArchPlay {
    pub(super) fn new(table: ArchTable) -> Self {
        let size = table.position().size().side();
        let start =
            Position::start(size).map_or([0, 0], |p| [p.count(Side::First), p.count(Side::Second)]);
        let last = table.last_move();
        Self {
            table,
            selected: None,
            flashes: Vec::new(),
            last,
            cursor: None,
            last_sunk: Vec::new(),
            menu: Menu::Closed,
            start,
            counted: None,
            calm: false,
            refused: None,
        }
    }

    fn me(&self) -> Side {
        self.table.person()
    }

    /// Ships lost by (the person, the other side).
    fn lost(&self) -> [usize; 2] {
        let position = self.table.position();
        let me = self.me();
        [
            self.start[me.index()].saturating_sub(position.count(me)),
            self.start[me.other().index()].saturating_sub(position.count(me.other())),
        ]
    }

    /// Takes the moves played, starts their flashes, lets the computer move when due.
    pub(super) fn tick(&mut self, now: Millis) -> Option<Millis> {
        let played = self.table.poll(now);
        if let Some(why) = self
            .table
            .remote()
            .and_then(crate::driver::Remote::take_refused)
        {
            self.refused = Some(why);
        }
        if !played.is_empty() {
            self.refused = None;
        }
        for seen in played {
            match seen {
                Seen::Played(played) => {
                    if self.calm {
                        self.flashes.clear();
                    }
                    self.last = Some(played.mv);
                    self.last_sunk = played.sunk().map(|s| s.cell).collect();
                    if !played.waves.is_empty() {
                        self.flashes.push((played, now));
                    }
                }
                Seen::Undone => {
                    self.last = self.table.last_move();
                    self.last_sunk.clear();
                    self.flashes.clear();
                }
                Seen::NewGame => {
                    // Play again at a friend's table: a fresh board.
                    self.selected = None;
                    self.cursor = None;
                    self.flashes.clear();
                    self.last = None;
                    self.last_sunk.clear();
                    self.menu = Menu::Closed;
                }
            }
        }
        if self.calm {
            // Steady: drawn as they were at their start, until the next move.
            for (_, at) in &mut self.flashes {
                *at = now;
            }
        }
        self.flashes.retain(|(_, at)| now < at + FLASH_MS);
        let flash = (!self.calm)
            .then(|| self.flashes.iter().map(|(_, at)| at + FLASH_MS).min())
            .flatten();
        [self.table.poll_timeout(), flash]
            .into_iter()
            .flatten()
            .min()
    }

    pub(super) fn show(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) -> Asked {
        let mut asked = Asked::Nothing;
        let position = self.table.position();
        ui.horizontal(|ui| {
            if ui.button(t.get("arch-menu")).clicked() {
                self.menu = match self.menu {
                    Menu::Closed => Menu::Open,
                    Menu::Open | Menu::Rules | Menu::Resign => Menu::Closed,
                };
            }
            ui.add_space(12.0);
            ui.label(
                RichText::new(self.score_line(t, &position))
                    .size(18.0)
                    .strong(),
            );
        });
        ui.add_space(4.0);
        if self.menu != Menu::Closed {
            asked = self.pause_menu(ui, t);
            if self.menu == Menu::Rules {
                ui.add_space(8.0);
                for id in [
                    "arch-rule-move",
                    "arch-rule-sight",
                    "arch-rule-sink",
                    "arch-rule-end",
                ] {
                    ui.label(format!("• {}", t.get(id)));
                }
            }
            return asked;
        }
        let decided = self.table.decided();
        let friend = self.table.level().is_none();
        let status = if decided.is_some() {
            t.get("arch-over")
        } else if self.table.ended() {
            t.get("arch-settling")
        } else if !self.table.open() {
            t.get("arch-opening")
        } else if self.table.my_move() {
            t.get("arch-your-move")
        } else if friend {
            t.get("arch-friend-move")
        } else {
            t.get("arch-their-move")
        };

        ui.label(RichText::new(status).size(16.0));
        ui.add_space(4.0);
        let side = (ui.available_width() - 260.0)
            .min(ui.available_height().max(360.0) - 8.0)
            .clamp(300.0, 620.0);
        let mut chosen = None;
        ui.horizontal_top(|ui| {
            chosen = self.board(ui, now, &position, side);
            ui.add_space(16.0);
            ui.vertical(|ui| {
                // The result heads the column beside the board, where it is seen
                // whole at any window size, never below the board's edge.
                if let Some(decided) = &decided {
                    egui::Frame::group(ui.style())
                        .inner_margin(egui::Margin::same(10))
                        .show(ui, |ui| asked = self.results(ui, t, &position, decided));
                    ui.add_space(10.0);
                }
                self.side_panel(ui, t);
            });
        });
        if let Some(mv) = chosen
            && self.table.play(now, mv)
        {
            self.selected = None;
        }
        asked
    }

    /// Beside the board: the opponent and the board, the fleets' colours, the last
    /// move and what it sank.
    fn side_panel(&self, ui: &mut egui::Ui, t: &Text) {
        let side = self.table.position().size().side();
        let against = match self.table.level() {
            Some(level) => t.with(
                "arch-against",
                &[
                    ("level", Arg::from(level_name(t, level))),
                    ("side", Arg::from(u32::from(side))),
                ],
            ),
            None => t.with(
                "arch-against-friend",
                &[("side", Arg::from(u32::from(side)))],
            ),
        };
        ui.label(RichText::new(against).strong());
        ui.add_space(8.0);
        let (mine, theirs) = match (self.table.level(), self.me()) {
            (Some(_), _) => ("arch-your-fleet", "arch-their-fleet"),
            (None, Side::First) => ("arch-your-fleet", "arch-friend-fleet-top"),
            (None, Side::Second) => ("arch-your-fleet-top", "arch-friend-fleet-bottom"),
        };
        if let Some(remote) = self.table.remote_ref() {
            ui.label(super::link_line(t, remote.link()));
            if let Some(Err(why)) = remote.ended() {
                ui.colored_label(
                    FIRE,
                    t.with("friend-failed", &[("why", Arg::from(why.clone()))]),
                );
            }
            if let Some(why) = &self.refused {
                ui.colored_label(FIRE, t.with("refused", &[("why", Arg::from(why.clone()))]));
            }
            ui.add_space(4.0);
        }
        for (colour, id) in [(MINE, mine), (THEIRS, theirs)] {
            ui.horizontal(|ui| {
                let (rect, _) = ui.allocate_exact_size(Vec2::splat(14.0), Sense::hover());
                ui.painter().circle_filled(rect.center(), 6.0, colour);
                ui.label(t.get(id));
            });
        }
        if let Some(last) = self.last {
            ui.add_space(8.0);
            ui.label(t.with("arch-last", &[("move", Arg::from(last.to_string()))]));
        }
        if !self.last_sunk.is_empty() {
            let cells: Vec<String> = self.last_sunk.iter().map(ToString::to_string).collect();
            ui.colored_label(
                FIRE,
                t.with("arch-sunk", &[("cells", Arg::from(cells.join(" ")))]),
            );
        }
    }

    fn score_line(&self, t: &Text, position: &Position) -> String {
        let me = self.me();
        t.with(
            if self.table.level().is_some() {
                "arch-score"
            } else {
                "arch-score-friend"
            },
            &[
                ("mine", Arg::from(position.count(me) as u32)),
                ("theirs", Arg::from(position.count(me.other()) as u32)),
                ("moves", Arg::from(position.moves())),
            ],
        )
    }

    fn pause_menu(&mut self, ui: &mut egui::Ui, t: &Text) -> Asked {
        let mut asked = Asked::Nothing;
        ui.heading(t.get("arch-paused"));
        ui.horizontal(|ui| {
            if ui.button(t.get("arch-continue")).clicked() {
                self.menu = Menu::Closed;
            }
            if self.table.level().is_some() && ui.button(t.get("arch-new-game")).clicked() {
                asked = Asked::NewGame;
            }
            if ui.button(t.get("arch-rules")).clicked() {
                self.menu = match self.menu {
                    Menu::Rules => Menu::Open,
                    _ => Menu::Rules,
                };
            }
            let playing = self.table.open() && !self.table.ended();
            if playing && self.menu != Menu::Resign && ui.button(t.get("arch-resign")).clicked() {
                self.menu = Menu::Resign;
            }
            if ui.button(t.get("home")).clicked() {
                asked = Asked::Home;
            }
        });
        if self.menu == Menu::Resign {
            ui.horizontal(|ui| {
                ui.label(t.get("resign-confirm"));
                if ui.button(t.get("resign-yes")).clicked() {
                    self.table.resign();
                    self.menu = Menu::Closed;
                }
                if ui.button(t.get("resign-no")).clicked() {
                    self.menu = Menu::Open;
                }
            });
        }
        asked
    }

    /// A click (or Enter) on cell `c`: picks up one of the person's ships or puts it
    /// down again, or moves the ship picked up to a green dot.
    fn pick(&mut self, position: &Position, c: Coord) -> Option<Move> {
        let me = self.me();
        match position.at(c) {
            Some(s) if s == me => {
                self.selected = (self.selected != Some(c)).then_some(c);
                None
            }
            None if self
                .selected
                .is_some_and(|from| position.reach(from).contains(c)) =>
            {
                self.selected.map(|from| Move { from, to: c })
            }
            _ => {
                self.selected = None;
                None
            }
        }
    }

    /// The keyboard: arrows move a cursor, Enter or Space picks as a click does,
    /// Escape puts the ship down; whether Enter or Space was pressed.
    fn keyboard(&mut self, ui: &egui::Ui, position: &Position) -> bool {
        let (step, enter, escape) = ui.input(|i| {
            let key = |k| i.key_pressed(k);
            let dx = i8::from(key(egui::Key::ArrowRight)) - i8::from(key(egui::Key::ArrowLeft));
            let dy = i8::from(key(egui::Key::ArrowUp)) - i8::from(key(egui::Key::ArrowDown));
            (
                (dx, dy),
                key(egui::Key::Enter) || key(egui::Key::Space),
                key(egui::Key::Escape),
            )
        });
        if step != (0, 0)
            && let Some(from) = self.cursor.or(self.selected).or(Coord::new(0, 0))
        {
            self.cursor = Some(from.offset(step.0, step.1, position.size()).unwrap_or(from));
        }
        if escape {
            self.selected = None;
        }
        enter
    }

    /// Draws the board and returns the move the person's clicks made, if any.
    fn board(
        &mut self,
        ui: &mut egui::Ui,
        now: Millis,
        position: &Position,
        side: f32,
    ) -> Option<Move> {
        let n = position.size().side();
        // Room for the row numbers on the left and the column letters below, in a
        // size read at a glance like the sea battle's.
        let label = 26.0;
        let (outer, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
        let cell = (side - label) / f32::from(n);
        // The column letters sit under the board, in the label's band.
        let origin = Pos2::new(outer.left() + label, outer.top());
        let rect_of = |c: Coord| {
            Rect::from_min_size(
                origin + Vec2::new(f32::from(c.col()) * cell, f32::from(n - 1 - c.row()) * cell),
                Vec2::splat(cell),
            )
        };
        let painter = ui.painter_at(outer);
        paint_grid(&painter, ui.visuals().text_color(), outer, origin, cell, n);
        let me = self.me();
        let mine_to_move = self.table.my_move();
        let reach = self.selected.map(|c| position.reach(c)).unwrap_or_default();
        if let Some(last) = self.last {
            for c in [last.from, last.to] {
                painter.rect_stroke(
                    rect_of(c).shrink(1.5),
                    3.0,
                    Stroke::new(2.0, Color32::from_rgb(0xf2, 0xe2, 0x8c)),
                    egui::StrokeKind::Inside,
                );
            }
        }
        let mut chosen = None;
        for row in 0..n {
            for col in 0..n {
                let Some(c) = Coord::new(col, row) else {
                    continue;
                };
                let rect = rect_of(c);
                let owner = position.at(c);
                match owner {
                    Some(s) => {
                        let colour = if s == me { MINE } else { THEIRS };
                        painter.circle_filled(rect.center(), cell * 0.34, colour);
                        painter.circle_stroke(
                            rect.center(),
                            cell * 0.34,
                            Stroke::new(1.5, Color32::from_black_alpha(120)),
                        );
                        if self.selected == Some(c) {
                            painter.circle_stroke(
                                rect.center(),
                                cell * 0.44,
                                Stroke::new(3.0, REACH),
                            );
                        }
                    }
                    None if reach.contains(c) => {
                        painter.circle_filled(rect.center(), cell * 0.13, REACH);
                    }
                    None => {}
                }
                let name = match owner {
                    Some(s) if s == me => format!("{c}: your ship"),
                    Some(_) => format!("{c}: enemy ship"),
                    None if reach.contains(c) => format!("{c}: move here"),
                    None => format!("{c}: water"),
                };
                let response = ui.interact(rect, ui.id().with(("arch", col, row)), Sense::click());
                response.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::WidgetType::Button, true, name.clone())
                });
                if response.clicked() && mine_to_move {
                    chosen = self.pick(position, c);
                }
            }
        }
        let enter = self.keyboard(ui, position);
        if let Some(c) = self.cursor {
            painter.rect_stroke(
                rect_of(c).shrink(3.0),
                2.0,
                Stroke::new(2.0, Color32::WHITE),
                egui::StrokeKind::Inside,
            );
            if enter && mine_to_move {
                chosen = self.pick(position, c);
            }
        }
        for c in &self.last_sunk {
            let (centre, r) = (rect_of(*c).center(), cell * 0.22);
            let stroke = Stroke::new(2.0, FIRE.gamma_multiply(0.45));
            painter.line_segment(
                [centre + Vec2::new(-r, -r), centre + Vec2::new(r, r)],
                stroke,
            );
            painter.line_segment(
                [centre + Vec2::new(-r, r), centre + Vec2::new(r, -r)],
                stroke,
            );
        }
        paint_flashes(&painter, &self.flashes, now, cell, &rect_of);
        chosen
    }

    fn results(
        &mut self,
        ui: &mut egui::Ui,
        t: &Text,
        position: &Position,
        decided: &Decided,
    ) -> Asked {
        let me = self.me();
        let headline = match decided.winner {
            Some(w) if w == me => t.get("arch-won"),
            Some(_) => t.get("arch-lost"),
            None => t.get("arch-drawn"),
        };
        ui.heading(RichText::new(headline).size(22.0).strong());
        ui.label(decided.words(t, &me));
        let [mine, theirs] = self.lost();
        let friend = self.table.level().is_none();
        ui.label(t.with(
            if friend {
                "arch-results-friend"
            } else {
                "arch-results"
            },
            &[
                ("mine", Arg::from(mine as u32)),
                ("theirs", Arg::from(theirs as u32)),
                ("moves", Arg::from(position.moves())),
            ],
        ));
        let mut asked = Asked::Nothing;
        if friend {
            let [asked_again, theirs_again] = self.table.again();
            if self.table.friend_left() {
                ui.label(t.get("arch-friend-left"));
            } else if asked_again {
                ui.label(t.get("again-asked"));
            } else if theirs_again {
                ui.label(t.get("again-theirs"));
            }
        }
        ui.horizontal(|ui| {
            if friend {
                let [asked_again, _] = self.table.again();
                if !asked_again
                    && !self.table.friend_left()
                    && ui.button(t.get("play-again")).clicked()
                {
                    self.table.play_again();
                }
            } else if ui.button(t.get("arch-new-game")).clicked() {
                asked = Asked::NewGame;
            }
            if ui.button(t.get("home")).clicked() {
                asked = Asked::Home;
            }
        });
        asked
    }

    /// The totals' line this game counts in: its opponent and board.
    fn kind(&self) -> ArchimedesKind {
        ArchimedesKind {
            against: self
                .table
                .level()
                .map_or(ArchimedesAgainst::Friend, ArchimedesAgainst::Computer),
            side: self.table.position().size().side(),
        }
    }

    /// How the game ended for the person, once it did (at a friend's table, once
    /// its end is settled: a lie loses it for the liar).
    pub(super) fn outcome(&self) -> Option<Outcome> {
        let decided = self.table.decided()?;
        Some(match decided.winner {
            Some(w) if w == self.me() => Outcome::Won,
            Some(_) => Outcome::Lost,
            None => Outcome::Drawn,
        })
    }
}

/// The sea, its grid, and the row numbers and column letters around it.
pub(super) fn paint_grid(
    painter: &egui::Painter,
    ink_colour: Color32,
    outer: Rect,
    origin: Pos2,
    cell: f32,
    n: u8,
) {
    let label = origin.x - outer.left();
    let board = Rect::from_min_size(origin, Vec2::splat(cell * f32::from(n)));
    painter.rect_filled(board, 4.0, OWN_SEA);
    for i in 0..=n {
        let d = f32::from(i) * cell;
        let stroke = Stroke::new(1.0, SEA_LINE);
        painter.line_segment(
            [
                board.left_top() + Vec2::new(d, 0.0),
                board.left_bottom() + Vec2::new(d, 0.0),
            ],
            stroke,
        );
        painter.line_segment(
            [
                board.left_top() + Vec2::new(0.0, d),
                board.right_top() + Vec2::new(0.0, d),
            ],
            stroke,
        );
    }
    let (font, ink) = (egui::FontId::proportional(15.0), ink_colour);
    for i in 0..n {
        // Row 1 at the bottom, column A at the left.
        let y = origin.y + (f32::from(n - 1 - i) + 0.5) * cell;
        let x = origin.x + (f32::from(i) + 0.5) * cell;
        let row = (i + 1).to_string();
        painter.text(
            Pos2::new(outer.left() + label / 2.0, y),
            egui::Align2::CENTER_CENTER,
            row,
            font.clone(),
            ink,
        );
        let col = char::from(b'A' + i).to_string();
        painter.text(
            Pos2::new(x, board.bottom() + 2.0),
            egui::Align2::CENTER_TOP,
            col,
            font.clone(),
            ink,
        );
    }
}

/// Red lines from the ships that sank one, and a cross on it, fading as the flash ends.
fn paint_flashes(
    painter: &egui::Painter,
    flashes: &[(Played, Millis)],
    now: Millis,
    cell: f32,
    rect_of: &impl Fn(Coord) -> Rect,
) {
    // Red lines from the ships that sank one, while the sinking flashes.
    for (played, at) in flashes {
        let fade = 1.0 - (now.saturating_sub(*at) as f32 / FLASH_MS as f32).clamp(0.0, 1.0);
        let colour = FIRE.gamma_multiply(0.35 + 0.65 * fade);
        for sunk in played.sunk() {
            let target = rect_of(sunk.cell).center();
            for by in &sunk.by {
                painter.line_segment([rect_of(*by).center(), target], Stroke::new(3.0, colour));
            }
            let r = cell * 0.3;
            painter.line_segment(
                [target + Vec2::new(-r, -r), target + Vec2::new(r, r)],
                Stroke::new(4.0, colour),
            );
            painter.line_segment(
                [target + Vec2::new(-r, r), target + Vec2::new(r, -r)],
                Stroke::new(4.0, colour),
            );
        }
    }
}

/// Who a line of the totals was played against, in words.
pub(super) fn against_name(t: &Text, against: ArchimedesAgainst) -> String {
    match against {
        ArchimedesAgainst::Computer(level) => level_name(t, level),
        ArchimedesAgainst::Friend => t.get("totals-friend"),
    }
}

pub(super) fn level_name(t: &Text, level: Level) -> String {
    t.get(match level {
        Level::Easy => "level-easy",
        Level::Medium => "level-medium",
        Level::Hard => "level-hard",
        Level::Insane => "level-insane",
    })
}

impl Armada {
    /// A new game of Archimedes on a `side` board against `level`.
    pub(super) fn open_archimedes(&mut self, side: u8, level: Level, now: Millis) {
        let seed = now ^ u64::from(side) << 32;
        match ArchimedesTable::new(side, level, self.store.clone(), seed) {
            Ok(table) => self.show_archimedes(table),
            Err(error) => self.note = Some(error),
        }
    }

    /// `table` on screen (the computer without its pause in tests).
    fn show_archimedes(&mut self, table: ArchimedesTable) {
        let table = if self.fast {
            table.without_pauses()
        } else {
            table
        };
        self.arch = Some(Box::new(ArchPlay::new(ArchTable::Computer(Box::new(
            table,
        )))));
        self.home = None;
    }

    /// A friend's Archimedes table on screen, both players in.
    pub(super) fn show_friend_archimedes(
        &mut self,
        remote: Box<crate::driver::Remote<crate::driver::arch_table::Session>>,
    ) {
        self.arch = Some(Box::new(ArchPlay::new(ArchTable::Friend(remote))));
        self.home = None;
    }

    /// The saved game of Archimedes, where it was left.
    pub(super) fn resume_archimedes(&mut self, now: Millis) {
        let Some(store) = self.store.clone() else {
            return;
        };
        match ArchimedesTable::resume(store, now, now) {
            Ok(Some(table)) => self.show_archimedes(table),
            Ok(None) => {}
            Err(error) => self.note = Some(error),
        }
    }

    /// The Archimedes screen, and what it asked.
    pub(super) fn archimedes_screen(&mut self, ui: &mut egui::Ui, now: Millis) {
        let Some(play) = &mut self.arch else {
            return;
        };
        play.calm = self.prefs.reduce_motion;
        if let Some(at) = play.tick(now) {
            let wait = at.saturating_sub(now).clamp(16, 500);
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(wait));
        }
        let asked = play.show(ui, now, &self.text);
        self.count_archimedes();
        if let Some(play) = &self.arch
            && play.outcome().is_some()
        {
            let kind = play.kind();
            let tally = self.totals.archimedes_tally(kind);
            let mut args = vec![
                ("level", Arg::from(against_name(&self.text, kind.against))),
                ("side", Arg::from(u32::from(kind.side))),
            ];
            args.extend(super::totals::figures(tally));
            ui.label(self.text.with("arch-totals", &args));
        }
        match asked {
            Asked::Nothing => {}
            Asked::Home => {
                if let Some(play) = &mut self.arch
                    && let Some(remote) = play.table.remote()
                {
                    // A friend's table is left for good (a game under way resigned).
                    remote.leave();
                }
                self.arch = None;
                self.home = None;
            }
            Asked::NewGame => {
                if let Some(play) = self.arch.take()
                    && let Some(level) = play.table.level()
                {
                    let side = play.table.position().size().side();
                    self.open_archimedes(side, level, now);
                }
            }
        }
    }

    /// Counts a finished game once into the totals (against the computer by its
    /// level, with a friend each game of the table by its number), and keeps them.
    fn count_archimedes(&mut self) {
        let Some(play) = &mut self.arch else {
            return;
        };
        let game = play.table.game_number();
        let Some(outcome) = play.outcome().filter(|_| play.counted != Some(game)) else {
            return;
        };
        play.counted = Some(game);
        let kind = play.kind();
        let id = play.table.id();
        // The home screen says why nothing is counted.
        if matches!(self.totals_lost, Some(super::TotalsLost::Unreadable(_))) {
            return;
        }
        // A game counted before (a finished game resumed) is not counted again.
        if self.totals.record_archimedes(kind, &id, game, outcome)
            && let Some(store) = &self.store
            && let Err(error) = store.save_totals(&self.totals)
        {
            tracing::warn!(%error, "cannot save the totals");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::arch::Sunk;

    fn play() -> ArchPlay {
        let table = ArchimedesTable::new(6, Level::Easy, None, 1).unwrap();
        ArchPlay::new(ArchTable::Computer(Box::new(table)))
    }

    fn sinking() -> Played {
        let c = |s: &str| Coord::parse(s, crate::rules::BoardSize::new(6).unwrap()).unwrap();
        Played {
            side: Side::First,
            mv: Move {
                from: c("A1"),
                to: c("A2"),
            },
            waves: vec![vec![Sunk {
                cell: c("D4"),
                side: Side::Second,
                by: vec![c("A2"), c("B1"), c("C1")],
            }]],
            ending: None,
        }
    }

    /// The red lines fade out after a moment; with Reduce motion they stay steady
    /// until the next move instead.
    #[test]
    fn red_lines_fade_unless_motion_is_reduced() {
        let mut moving = play();
        moving.flashes.push((sinking(), 0));
        moving.tick(FLASH_MS + 1);
        assert!(moving.flashes.is_empty(), "faded out");
        let mut calm = play();
        calm.calm = true;
        calm.flashes.push((sinking(), 0));
        calm.tick(FLASH_MS * 10);
        assert_eq!(calm.flashes.len(), 1, "still there, long after");
        assert_eq!(calm.flashes[0].1, FLASH_MS * 10, "drawn at full strength");
    }
}
