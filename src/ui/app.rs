//! The window's screens — home, placement, battle, results — drawn from the session's
//! state; every gesture becomes a session command, and nothing here decides the game.

use std::collections::VecDeque;

use egui::Color32;

use super::board::{Look, Overlay};
use super::draft::{Draft, Problem};
use super::i18n::{Arg, Lang, Text};
use crate::driver::Local;
use crate::driver::Note;
use crate::driver::Remote;
use crate::driver::Store;
use crate::driver::{Command, Event, Millis, Owed, Session};
use crate::rules::{
    Action, ActionError, CellSet, Coord, Dir, Effect, Heading, Mark, Seat, Torpedo, Variant, Weapon,
};

mod arch_table;
mod archimedes;
mod battle;
mod home;
mod lot;
mod placement;
mod rules;
mod totals;

/// How long the radar picture stays on the chart.
const RADAR_MS: Millis = 3_000;
/// How many lines of the move log are kept on screen.
const LOG_LINES: usize = 200;

/// Which game a new computer table plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mode {
    Armada,
    Classic(u8),
    /// Archimedes, the second game, on a board of this side.
    Archimedes(u8),
}

impl Mode {
    /// The sea battle's variant (Archimedes has none: its tables go elsewhere).
    fn variant(self) -> Variant {
        match self {
            Self::Armada | Self::Archimedes(_) => Variant::Armada,
            Self::Classic(side) => Variant::classic(side).unwrap_or(Variant::Armada),
        }
    }
}

/// What the window remembers between runs (a setting missing from an older file
/// takes its default).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub lang: Lang,
    pub mode: Mode,
    /// The host's timer switch as last set, for the next friend table.
    pub timer: bool,
    /// Friend tables use the public libp2p network (DHT, relays found there).
    pub public: bool,
    /// Actions show at once, without animations.
    pub reduce_motion: bool,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            lang: Lang::En,
            mode: Mode::Armada,
            timer: true,
            public: true,
            reduce_motion: false,
        }
    }
}

/// The window's state: its language and preferences, and the screen shown.
#[derive(Debug)]
pub struct Armada {
    text: Text,
    prefs: Prefs,
    store: Option<Store>,
    play: Option<Box<Play>>,
    /// A game of Archimedes against the computer, on screen instead of a table.
    arch: Option<Box<archimedes::ArchPlay>>,
    /// The computer moves without pausing (for tests).
    fast: bool,
    /// What the home screen lists, found when it is first shown.
    home: Option<HomeInfo>,
    /// A network table on its way: connecting, or waiting for the friend.
    connecting: Option<Box<crate::driver::Pending>>,
    /// How network tables listen and find peers.
    net: crate::driver::Config,
    /// The absent player's grace at tables this window opens, in milliseconds.
    grace_ms: u32,
    /// The invite typed or pasted on the home screen.
    invite: String,
    /// A line for the home screen (why a table could not open).
    note: Option<String>,
    /// Tables found on the LAN: the search under way, or its result.
    lan: Option<Lan>,
    /// Whether the central panel paints its background. The native window clears
    /// each frame to that colour already, so it leaves the panel clear: one
    /// window-sized fill less per frame for a software renderer (a third of its
    /// time). Tests render on a transparent clear and keep it.
    backdrop: bool,
    /// The Rules screen is shown instead of the table or home, which wait under it.
    rules: bool,
    /// The top bar's Home: shown, or asking before a friend's game is left.
    home_button: HomeButton,
    /// Won, lost and drawn across games, per kind of game.
    totals: crate::driver::Totals,
    /// A totals file that could not be read, and what became of it.
    totals_lost: Option<TotalsLost>,
}

/// The top bar's Home button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HomeButton {
    Shown,
    /// Clicked during a friend's game: leaving it resigns it, so the bar asks first.
    Asking,
}

/// A totals file that could not be read.
#[derive(Debug)]
enum TotalsLost {
    /// Moved aside to this path: counting starts again in a fresh file.
    SetAside(String),
    /// Left where it is (it could not be moved): this window counts nothing, so
    /// the file is never written over.
    Unreadable(String),
}

/// A search for tables on the LAN (by `mDNS`, on a thread of its own).
#[derive(Debug)]
enum Lan {
    Searching(std::sync::mpsc::Receiver<Vec<LanTable>>),
    Found(Vec<LanTable>),
    /// Discovery is switched off for this window.
    Off,
}

/// One table found on the LAN.
#[derive(Clone, Debug)]
struct LanTable {
    peer: String,
    game: String,
    /// The invite, where the host accepts LAN joins without a code.
    invite: Option<String>,
}

/// A repaint of the window, for a network thread that has news.
fn waker(ctx: &egui::Context) -> std::sync::Arc<dyn Fn() + Send + Sync> {
    let ctx = ctx.clone();
    std::sync::Arc::new(move || ctx.request_repaint())
}

/// The home screen's list of saved tables.
#[derive(Clone, Debug, Default)]
struct HomeInfo {
    /// The newest unfinished game against the computer.
    unfinished: Option<[u8; 32]>,
    /// The newest unfinished game with a friend played in the window, and its game.
    friend: Option<([u8; 32], crate::driver::TableGame)>,
    /// Past tables, newest first, a line each.
    past: Vec<String>,
    /// Saved tables whose transcript this client cannot read (damaged, or written
    /// by another protocol version): neither resumed nor listed.
    unreadable: usize,
    /// A game of Archimedes against the computer left unfinished.
    archimedes: bool,
}

/// What to aim with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    Shot,
    Weapon(Weapon),
}

/// An action shown as it happens, in beats: a shell falling, a torpedo crossing a
/// cell, the aircraft's approach, the radar's turn. Each beat's effects show on the
/// board when the beat ends; the whole runs at most [`ANIM_MS`].
#[derive(Clone, Debug)]
struct Anim {
    /// Whose action it was.
    seat: Seat,
    action: Action,
    effects: Vec<Effect>,
    beats: Vec<Beat>,
    beat_ms: Millis,
    start: Millis,
}

/// One step of an animation: where it is, and the effects it brings.
#[derive(Clone, Debug)]
struct Beat {
    cell: Coord,
    effects: std::ops::Range<usize>,
}

/// The longest an action's animation runs.
const ANIM_MS: Millis = 1_400;
/// A shell's fall (a shot, each air-strike shell).
const SHELL_MS: Millis = 260;
/// The radar's turn.
const SWEEP_MS: Millis = 900;
/// A torpedo crossing one cell, on a line short enough to run it in [`ANIM_MS`].
const TORPEDO_CELL_MS: Millis = 160;

/// Where an effect happens on the board.
fn effect_cell(effect: &Effect) -> Coord {
    match effect {
        Effect::Miss(c) | Effect::Hit(c) | Effect::Lost(c) => *c,
        Effect::Sunk { cell, .. } | Effect::Scanned { cell, .. } => *cell,
    }
}

impl Anim {
    fn new(
        seat: Seat,
        action: Action,
        effects: Vec<Effect>,
        size: crate::rules::BoardSize,
        start: Millis,
    ) -> Self {
        let all = 0..effects.len();
        let (beats, beat_ms) = match action {
            Action::Shot(c) => (
                vec![Beat {
                    cell: c,
                    effects: all,
                }],
                SHELL_MS,
            ),
            Action::Radar(c) => (
                vec![Beat {
                    cell: c,
                    effects: all,
                }],
                SWEEP_MS,
            ),
            Action::AirStrike(c) => {
                // The aircraft comes in over the square, then the shells fall in
                // their order, one a beat.
                let mut beats = vec![Beat {
                    cell: c,
                    effects: 0..0,
                }];
                beats.extend((0..effects.len()).map(|i| Beat {
                    cell: effect_cell(&effects[i]),
                    effects: i..i + 1,
                }));
                let ms = (ANIM_MS / beats.len() as Millis).min(SHELL_MS);
                (beats, ms)
            }
            Action::Torpedo(torpedo) => {
                // The torpedo runs cell by cell over marked cells too, and stops at
                // the deck it hits (the last effect), or leaves the board.
                let path: Vec<Coord> = torpedo
                    .path(size)
                    .map(Iterator::collect)
                    .unwrap_or_default();
                let stop = effects
                    .iter()
                    .rev()
                    .find(|e| e.is_hit())
                    .map(effect_cell)
                    .and_then(|hit| path.iter().position(|c| *c == hit))
                    .map_or(path.len(), |i| i + 1);
                let beats: Vec<Beat> = path[..stop]
                    .iter()
                    .map(|cell| {
                        let first = effects.iter().position(|e| effect_cell(e) == *cell);
                        Beat {
                            cell: *cell,
                            effects: first.map_or(0..0, |i| i..i + 1),
                        }
                    })
                    .collect();
                let ms = (ANIM_MS / beats.len().max(1) as Millis).min(TORPEDO_CELL_MS);
                (beats, ms)
            }
        };
        Self {
            seat,
            action,
            effects,
            beats,
            beat_ms,
            start,
        }
    }

    fn end(&self) -> Millis {
        self.start + self.beats.len() as Millis * self.beat_ms
    }

    /// How many beats are over.
    fn over(&self, now: Millis) -> usize {
        ((now.saturating_sub(self.start) / self.beat_ms.max(1)) as usize).min(self.beats.len())
    }

    fn done(&self, now: Millis) -> bool {
        now >= self.end()
    }

    /// The cells whose effect has not been shown yet: each still looks as before the
    /// action (a sink's ring too). A sunk ship's other decks were hits before the
    /// action: they are in [`Anim::burning`], not here.
    fn hidden(&self, now: Millis) -> CellSet {
        let mut cells = CellSet::EMPTY;
        for beat in &self.beats[self.over(now)..] {
            for effect in &self.effects[beat.effects.clone()] {
                match effect {
                    Effect::Miss(c) | Effect::Hit(c) => cells.insert(*c),
                    Effect::Sunk { cell, ring, .. } => {
                        cells |= *ring;
                        cells.insert(*cell);
                    }
                    Effect::Lost(_) | Effect::Scanned { .. } => {}
                }
            }
        }
        cells
    }

    /// The lengths of the ships this action sinks whose sinking is not shown yet.
    fn sinks_unseen(&self, now: Millis) -> Vec<u8> {
        self.beats[self.over(now)..]
            .iter()
            .flat_map(|b| &self.effects[b.effects.clone()])
            .filter_map(|e| match e {
                Effect::Sunk { ship, .. } => u8::try_from(ship.len()).ok(),
                _ => None,
            })
            .collect()
    }

    /// The decks of a ship whose sinking has not been shown yet, but the one that
    /// sinks it: they were hit before and still burn until the sinking shows.
    fn burning(&self, now: Millis) -> CellSet {
        let mut cells = CellSet::EMPTY;
        for beat in &self.beats[self.over(now)..] {
            for effect in &self.effects[beat.effects.clone()] {
                if let Effect::Sunk { cell, ship, .. } = effect {
                    let mut others = *ship;
                    others.remove(*cell);
                    cells |= others;
                }
            }
        }
        cells
    }

    /// What the animation shows over the board now: the torpedo and its wake, the
    /// aircraft and the shell falling, the radar's beam; and every shell lost so far
    /// (on a cell already marked) marked as lost until it ends.
    fn overlays(&self, now: Millis) -> Vec<(Coord, Overlay)> {
        let over = self.over(now);
        let mut overlays: Vec<_> = self.beats[..over]
            .iter()
            .flat_map(|b| &self.effects[b.effects.clone()])
            .filter_map(|e| match e {
                Effect::Lost(c) => Some((*c, Overlay::Lost)),
                _ => None,
            })
            .collect();
        let Some(beat) = self.beats.get(over) else {
            return overlays;
        };
        let into = now.saturating_sub(self.start) % self.beat_ms.max(1);
        let progress = u8::try_from(into * 255 / self.beat_ms.max(1)).unwrap_or(u8::MAX);
        match self.action {
            Action::Shot(_) => overlays.push((beat.cell, Overlay::Shell(progress))),
            Action::Radar(c) => overlays.push((c, Overlay::Sweep(progress))),
            Action::AirStrike(c) => {
                if over > 0 {
                    overlays.push((beat.cell, Overlay::Shell(progress)));
                }
                let elapsed = now.saturating_sub(self.start);
                let total = (self.end() - self.start).max(1);
                let across = u8::try_from(elapsed * 255 / total).unwrap_or(u8::MAX);
                overlays.push((c, Overlay::Plane(across)));
            }
            Action::Torpedo(torpedo) => {
                overlays.extend(
                    self.beats[..over]
                        .iter()
                        .map(|b| (b.cell, Overlay::Wake(torpedo.heading))),
                );
                overlays.push((beat.cell, Overlay::Torpedo(torpedo.heading, progress)));
            }
        }
        overlays
    }

    /// The cells the action touched, for the highlight once it is over.
    fn touched(&self) -> Vec<Coord> {
        match self.action {
            Action::Radar(c) => vec![c],
            _ => self.effects.iter().map(effect_cell).collect(),
        }
    }
}

/// A table against the computer, as the window shows it.
#[derive(Debug)]
struct Play {
    driver: Driver,
    /// The game whose fleet the draft is.
    game: Option<u32>,
    draft: Draft,
    /// The ship in hand (a slot of the draft), and where it lay if it was lifted.
    holding: Option<(usize, Option<crate::rules::Ship>)>,
    dragging: bool,
    dir: Dir,
    problem: Option<Problem>,
    /// The game the host's Start was sent for (a network table takes it in later).
    start_sent: Option<u32>,
    tool: Tool,
    heading: Heading,
    cursor: Coord,
    /// The radar picture and when it shows (once the sweep is over).
    radar: Option<(Vec<(Coord, bool)>, Millis)>,
    anims: VecDeque<Anim>,
    /// Actions are shown at once, without animation (the player's setting).
    calm: bool,
    /// Who acted last and the cells the action touched, highlighted once shown.
    last: Option<(Seat, Vec<Coord>)>,
    /// The side whose last action hit and who acts again.
    again: Option<Seat>,
    confirm_resign: bool,
    log: VecDeque<String>,
    saved: Option<String>,
    /// Why the network side refused the player's last command.
    refused: Option<String>,
    /// Who declined the last draw offer, until the next action.
    declined: Option<Seat>,
    /// Once the game's verdict is settled: its kind, and the kind's totals with the
    /// game counted (`None` if the verdict leaves it uncounted).
    tally: Option<(crate::driver::Kind, Option<crate::driver::Tally>)>,
}

impl Armada {
    /// The window's state; `store` keeps the identity, the games and the preferences.
    pub fn new(store: Option<Store>) -> Self {
        let prefs: Prefs = store
            .as_ref()
            .and_then(|s| std::fs::read(s.dir().join("window.json")).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        let (totals, totals_lost) = match store.as_ref().map(Store::totals) {
            Some(Err(lost)) => (
                crate::driver::Totals::default(),
                Some(match lost.kept {
                    Some(kept) => TotalsLost::SetAside(kept.display().to_string()),
                    None => TotalsLost::Unreadable(lost.path.display().to_string()),
                }),
            ),
            Some(Ok(totals)) => (totals, None),
            None => (crate::driver::Totals::default(), None),
        };
        let mut armada = Self {
            text: Text::new(prefs.lang),
            prefs,
            store,
            play: None,
            arch: None,
            fast: false,
            home: None,
            connecting: None,
            net: crate::driver::Config {
                discovery: true,
                public: crate::driver::Public::Builtin.unless_refused(),
                ..crate::driver::Config::default()
            },
            grace_ms: crate::driver::GRACE_MS,
            invite: String::new(),
            note: None,
            lan: None,
            backdrop: true,
            rules: false,
            home_button: HomeButton::Shown,
            totals,
            totals_lost,
        };
        // A game left unfinished when the window closed opens again where it was.
        if let Some(id) = armada.home_info().unfinished {
            armada.resume(&id, 0);
        }
        armada
    }

    /// The network settings of a friend table: the window's, off the public network
    /// if the player turned it off.
    pub fn friend_net(&self) -> crate::driver::Config {
        let mut config = self.net.clone();
        if !self.prefs.public {
            config.public = crate::driver::Public::Off;
        }
        config
    }

    /// The computer moves at once (for tests).
    pub fn without_pauses(mut self) -> Self {
        self.fast = true;
        if let Some(play) = self.play.take()
            && let Play {
                driver: Driver::Local(local),
                ..
            } = *play
        {
            let driver = Driver::Local(Box::new(local.without_pauses()));
            self.play = Some(Box::new(Play::new(driver, 0, &self.text)));
        }
        self
    }

    /// Network tables listen and find peers as `config` says (tests: loopback only,
    /// no discovery).
    pub fn with_network(mut self, config: crate::driver::Config) -> Self {
        self.net = config;
        self
    }

    /// The grace an absent opponent gets at tables this window opens, past a deadline,
    /// before a forfeit may be claimed (30 s unless set; `armada host --grace`).
    #[must_use]
    pub fn with_grace(mut self, ms: u32) -> Self {
        self.grace_ms = ms;
        self
    }

    /// For a window that clears each frame to the panel colour
    /// ([`egui::Visuals::panel_fill`]): the central panel leaves its background to it.
    pub fn on_cleared_window(mut self) -> Self {
        self.backdrop = false;
        self
    }

    /// The invite of the table being opened, once there is one.
    pub fn invite(&self) -> Option<&str> {
        self.connecting.as_ref().and_then(|r| r.invite())
    }

    /// The short code of the table being opened, while it has one.
    pub fn short_code(&self) -> Option<&str> {
        self.connecting.as_ref().and_then(|r| r.code())
    }

    pub fn lang(&self) -> Lang {
        self.text.lang()
    }

    /// The session of the table on screen, if any.
    pub fn session(&self) -> Option<&Session> {
        self.play.as_ref().map(|p| p.driver.session())
    }

    #[cfg(feature = "bench")]
    /// For the window benchmark: opens a game against the easy computer with the
    /// fleet placed automatically and the game started.
    pub fn bench_open(&mut self, now: Millis) {
        self.open(crate::driver::Level::Easy, now);
        if let Some(play) = &mut self.play {
            let spec = play.draft.spec().clone();
            let fleet = crate::rules::Placer::new(&spec).place(&mut rand::rng());
            if play.driver.command(now, Command::Place(fleet)).is_ok() {
                play.start_when_ready(now);
            }
        }
    }

    #[cfg(feature = "bench")]
    /// For the window benchmark: fires an air strike (or, with none left, a torpedo)
    /// at the first legal place if it is the player's move and no animation runs;
    /// whether it fired.
    pub fn bench_air_strike(&mut self, now: Millis) -> bool {
        let Some(play) = &mut self.play else {
            return false;
        };
        if !play.anims.is_empty() {
            return false;
        }
        let session = play.driver.session();
        let me = session.seat();
        let Some(game) = session.table().game().cloned() else {
            return false;
        };
        if game.mover() != me || session.table().pending().is_some() {
            return false;
        }
        // Air strikes first, then torpedoes: each animates cell after cell.
        let size = game.variant().size();
        let strikes = size.cells().map(Action::AirStrike);
        let torpedoes = (0..size.side()).map(|line| {
            Action::Torpedo(Torpedo {
                heading: Heading::Right,
                line,
            })
        });
        let Some(action) = strikes
            .chain(torpedoes)
            .find(|action| game.check(me, action).is_ok())
        else {
            return false;
        };
        play.driver.command(now, Command::Act(action)).is_ok()
    }

    /// Waits up to `timeout` for news from a friend's table on its way or on
    /// screen (nothing to wait for at a table against the computer); whether any came.
    /// The next frame shows it.
    pub fn wait_for_network(&mut self, timeout: std::time::Duration) -> bool {
        if let Some(remote) = &mut self.connecting {
            return remote.wait(timeout);
        }
        if let Some(remote) = self.arch.as_deref_mut().and_then(|a| a.table.remote()) {
            return remote.wait(timeout);
        }
        match self.play.as_deref_mut().map(|p| &mut p.driver) {
            Some(Driver::Remote(remote)) => remote.wait(timeout),
            _ => false,
        }
    }

    /// Whether an action's animation is running.
    pub fn animating(&self) -> bool {
        self.play.as_ref().is_some_and(|p| !p.anims.is_empty())
    }

    /// Draws the window and handles what the player did; `now` is the window's clock.
    pub fn show(&mut self, ui: &mut egui::Ui, now: Millis) {
        if let Some(play) = &mut self.play {
            // News first (a network snapshot and its events together), then the
            // events: the screen never draws a state whose events it has not seen.
            if let Some(at) = play.driver.tick(now) {
                let wait = at.saturating_sub(now).max(16);
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(wait));
            }
            play.calm = self.prefs.reduce_motion;
            play.advance(now, &self.text);
            // A click anywhere shows the running animations' outcome at once.
            if !play.anims.is_empty() && ui.input(|i| i.pointer.any_click()) {
                play.skip(now);
            }
            if !play.anims.is_empty() || play.radar.is_some() {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
            }
        }
        self.poll_connecting(now);
        self.count_game();
        self.rules_keys(ui.ctx());
        egui::Panel::top("top").show(ui, |ui| self.top_bar(ui));
        let mut central = egui::CentralPanel::default();
        if !self.backdrop {
            central =
                central.frame(egui::Frame::central_panel(ui.style()).fill(Color32::TRANSPARENT));
        }
        central.show(ui, |ui| {
            if self.rules
                && let Some(arch) = &self.arch
            {
                let friend = arch.table.level().is_none();
                if archimedes::rules_screen(ui, &self.text, friend) {
                    self.rules = false;
                }
                return;
            }
            if self.rules {
                if rules::show(ui, &self.text) {
                    self.rules = false;
                }
                // A host waiting under the rules still starts the game once the guest
                // is ready, as the table's own screen would.
                if let Some(play) = &mut self.play
                    && stage(play.driver.session()) == Stage::Waiting
                {
                    play.start_when_ready(now);
                }
                return;
            }
            egui::ScrollArea::both().show(ui, |ui| {
                let mut home = false;
                match &mut self.play {
                    None if self.connecting.is_some() => self.connecting_screen(ui),
                    None if self.arch.is_some() => self.archimedes_screen(ui, now),
                    None => self.home(ui, now),
                    Some(play) => {
                        home = play.show(ui, now, &self.text, self.store.as_ref());
                    }
                }
                if home {
                    self.go_home();
                }
                // The host's timer switch is remembered for the next friend table.
                if let Some(on) = self.play.as_ref().and_then(|p| p.timer_switch())
                    && on != self.prefs.timer
                {
                    self.prefs.timer = on;
                    self.save_prefs();
                }
            });
        });
    }

    fn top_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.heading(self.text.get("app-title"));
            ui.separator();
            let mut lang = self.text.lang();
            egui::ComboBox::from_label(self.text.get("language"))
                .selected_text(lang.name())
                .show_ui(ui, |ui| {
                    for choice in Lang::ALL {
                        ui.selectable_value(&mut lang, choice, choice.name());
                    }
                });
            if lang != self.text.lang() {
                self.text = Text::new(lang);
                self.prefs.lang = lang;
                self.save_prefs();
            }
            if ui
                .checkbox(
                    &mut self.prefs.reduce_motion,
                    self.text.get("reduce-motion"),
                )
                .on_hover_text(self.text.get("reduce-motion-tip"))
                .changed()
            {
                self.save_prefs();
            }
            if ui
                .add(egui::Button::new(self.text.get("rules-button")).selected(self.rules))
                .clicked()
            {
                self.rules = !self.rules;
            }
            if self.home_button == HomeButton::Asking {
                ui.label(self.text.get("leave-confirm"));
                if ui.button(self.text.get("leave-yes")).clicked() {
                    self.home_button = HomeButton::Shown;
                    self.rules = false;
                    self.go_home();
                }
                if ui.button(self.text.get("leave-no")).clicked() {
                    self.home_button = HomeButton::Shown;
                }
            } else if (self.play.is_some() || self.connecting.is_some() || self.arch.is_some())
                && ui.button(self.text.get("home")).clicked()
            {
                if self.friend_game_under_way() {
                    self.home_button = HomeButton::Asking;
                } else {
                    self.rules = false;
                    self.go_home();
                }
            }
        });
    }

    /// F1 and `?` open and close the Rules screen, Escape closes it; `?` is left to a
    /// text field being typed in.
    fn rules_keys(&mut self, ctx: &egui::Context) {
        let typing = ctx.text_edit_focused();
        let open = self.rules;
        let (toggle, close) = ctx.input_mut(|i| {
            let f1 = i.consume_key(egui::Modifiers::NONE, egui::Key::F1);
            let question = !typing && i.consume_key(egui::Modifiers::NONE, egui::Key::Questionmark);
            let escape = open && i.consume_key(egui::Modifiers::NONE, egui::Key::Escape);
            (f1 || question, escape)
        });
        if close {
            self.rules = false;
        } else if toggle {
            self.rules = !self.rules;
        }
    }

    /// Whether a friend's game is under way: leaving it resigns it, so Home asks first.
    fn friend_game_under_way(&self) -> bool {
        if let Some(play) = &self.play
            && let Driver::Remote(remote) = &play.driver
            && let Some(session) = remote.session()
        {
            let table = session.table();
            return remote.ended().is_none()
                && table.game().is_some()
                && table.settled().is_none()
                && !table.left(session.seat().other());
        }
        if let Some(arch) = self.arch.as_deref()
            && arch.table.remote_ref().is_some_and(|r| r.ended().is_none())
        {
            return !arch.table.ended() && !arch.table.friend_left();
        }
        false
    }

    /// Back to the home screen: a friend table is left for good (a game under way
    /// is resigned). Only closing the window keeps it for resuming.
    fn go_home(&mut self) {
        if let Some(play) = &mut self.play
            && let Driver::Remote(remote) = &mut play.driver
        {
            remote.leave();
        }
        if let Some(remote) = &mut self.connecting {
            remote.leave();
        }
        if let Some(remote) = self.arch.as_deref_mut().and_then(|a| a.table.remote()) {
            remote.leave();
        }
        self.play = None;
        self.arch = None;
        self.connecting = None;
        self.home = None;
    }

    fn save_prefs(&self) {
        if let Some(store) = &self.store
            && let Ok(json) = serde_json::to_vec_pretty(&self.prefs)
        {
            // Preferences are a convenience: failing to keep them changes no game.
            let _ = std::fs::write(store.dir().join("window.json"), json);
        }
    }
}
/// The table behind the screen: against the computer in memory, or with a friend
/// over the network.
#[derive(Debug)]
enum Driver {
    Local(Box<Local>),
    Remote(Box<Remote>),
}

impl Driver {
    fn session(&self) -> &Session {
        match self {
            Self::Local(local) => local.session(),
            Self::Remote(remote) => remote
                .session()
                .expect("a network table is shown only once its session came"),
        }
    }

    fn command(
        &mut self,
        now: Millis,
        command: Command,
    ) -> Result<(), crate::driver::CommandError> {
        match self {
            Self::Local(local) => local.command(now, command),
            Self::Remote(remote) => remote.command(command),
        }
    }

    fn poll_event(&mut self) -> Option<Event> {
        match self {
            Self::Local(local) => local.poll_event(),
            Self::Remote(remote) => remote.poll_event(),
        }
    }

    /// Lets time pass (a computer table) or takes in the network's news; when the
    /// table next wants a look, if at a known time.
    fn tick(&mut self, now: Millis) -> Option<Millis> {
        match self {
            Self::Local(local) => local.tick(now),
            Self::Remote(remote) => {
                remote.poll();
                None
            }
        }
    }

    /// The session clock's time (the window's for a computer table, the network
    /// side's for a friend's).
    fn clock(&self, now: Millis) -> Millis {
        match self {
            Self::Local(_) => now,
            Self::Remote(remote) => remote.now(),
        }
    }

    fn remote_ref(&self) -> Option<&Remote> {
        match self {
            Self::Local(_) => None,
            Self::Remote(remote) => Some(remote),
        }
    }

    fn remote(&mut self) -> Option<&mut Remote> {
        match self {
            Self::Local(_) => None,
            Self::Remote(remote) => Some(remote),
        }
    }
}

/// The connection's state in words.
fn link_line(t: &Text, link: Option<&crate::driver::Link>) -> String {
    use crate::driver::{Link, Route, Straight};
    t.get(match link {
        None | Some(Link::Connecting) => "link-connecting",
        Some(Link::Waiting) => "link-waiting",
        Some(Link::Route(Route::Direct(_, Straight::Address))) => "link-direct",
        Some(Link::Route(Route::Direct(_, Straight::Punched))) => "link-direct-punched",
        Some(Link::Route(Route::Direct(_, Straight::Mapped))) => "link-direct-upnp",
        Some(Link::Route(Route::Relayed(_, false))) => "link-relayed",
        Some(Link::Route(Route::Relayed(_, true))) => "link-relayed-limited",
        Some(Link::Reconnecting) => "link-reconnecting",
        Some(Link::Gone) => "link-gone",
        Some(Link::Left) => "link-left",
    })
}

/// What the table waits for, as the screen shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Placing,
    Waiting,
    Battle,
    Over,
}

fn stage(session: &Session) -> Stage {
    let table = session.table();
    match table.game() {
        Some(game) if game.is_over() || table.ended() => Stage::Over,
        Some(_) => Stage::Battle,
        None if table.game_id().is_some() && !table.committed(session.seat()) => Stage::Placing,
        None => Stage::Waiting,
    }
}

/// The variant of `driver`'s table (Armada until the host's settings say).
fn variant_of(driver: &Driver) -> Variant {
    driver
        .session()
        .table()
        .variant()
        .unwrap_or(Variant::Armada)
}

impl Play {
    /// The variant of this table's game (Armada until the host's settings say).
    fn variant(&self) -> Variant {
        variant_of(&self.driver)
    }

    /// The screen of a table as it stands (new, or restored).
    fn new(driver: Driver, now: Millis, t: &Text) -> Self {
        let variant = variant_of(&driver);
        let session = driver.session();
        let table = session.table();
        let mut play = Self {
            game: table.game_number(),
            draft: Draft::new(variant.fleet()),
            holding: Some((0, None)),
            dragging: false,
            dir: Dir::Across,
            problem: None,
            start_sent: None,
            // A fleet is committed only when Start was pressed.
            tool: Tool::Shot,
            heading: Heading::Right,
            cursor: Coord::new(0, 0).expect("A1 is on every board"),
            radar: None,
            anims: VecDeque::new(),
            calm: false,
            last: None,
            again: None,
            confirm_resign: false,
            log: VecDeque::new(),
            saved: None,
            refused: None,
            declined: None,
            tally: None,
            driver,
        };
        // A restored table's moves so far, newest first, as the log shows them.
        let me = play.driver.session().seat();
        for played in play.driver.session().table().history() {
            play.log.push_front(log_line(
                t,
                variant,
                played.seat == me,
                &played.report,
                played.timeout,
            ));
        }
        play.log_lot(t);
        play.advance(now, t);
        play
    }

    /// Takes in the session's events: moves for the log, animations, the radar picture.
    fn advance(&mut self, now: Millis, t: &Text) {
        let me = self.driver.session().seat();
        while let Some(event) = self.driver.poll_event() {
            match event {
                Event::Table(Note::GameOpened {
                    number, variant, ..
                }) => {
                    self.game = Some(number);
                    self.draft = Draft::new(variant.fleet());
                    self.holding = Some((0, None));
                    self.anims.clear();
                    self.radar = None;
                    self.last = None;
                    self.again = None;
                    self.confirm_resign = false;
                    self.saved = None;
                    self.declined = None;
                }
                Event::Table(Note::DrawDeclined(seat)) => self.declined = Some(seat),
                Event::Table(Note::DrawOffered(_)) => self.declined = None,
                Event::Table(Note::Resolved {
                    seat,
                    report,
                    timeout,
                    ..
                }) => {
                    self.declined = None;
                    let variant = self.variant();
                    self.log
                        .push_front(log_line(t, variant, seat == me, &report, timeout));
                    self.log.truncate(LOG_LINES);
                    let size = variant.size();
                    // One action's animation follows the one before it.
                    let start = self.anims.back().map_or(now, |a| a.end().max(now));
                    let anim = Anim::new(seat, report.action, report.effects.clone(), size, start);
                    let shown = if self.calm { now } else { anim.end() };
                    if seat == me {
                        self.radar = report.radar_picture().map(|p| (p, shown));
                    }
                    self.again = report.again.then_some(seat);
                    self.last = Some((seat, anim.touched()));
                    if !self.calm {
                        self.anims.push_back(anim);
                    }
                }
                _ => {}
            }
        }
        while self.anims.front().is_some_and(|a| a.done(now)) {
            self.anims.pop_front();
        }
        if self
            .radar
            .as_ref()
            .is_some_and(|(_, at)| now.saturating_sub(*at) > RADAR_MS)
        {
            self.radar = None;
        }
    }

    /// Ends the running animations: their effects show at once.
    fn skip(&mut self, now: Millis) {
        self.anims.clear();
        if let Some((_, at)) = &mut self.radar {
            *at = (*at).min(now);
        }
    }

    /// Draws the table; true when the player asked to go home.
    fn show(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text, store: Option<&Store>) -> bool {
        let session = self.driver.session();
        let stage = stage(session);
        let score = session.score();
        let me = session.seat();
        ui.label(t.with(
            "score",
            &[
                ("me", Arg::Num(f64::from(score[me.index()]) / 2.0)),
                ("them", Arg::Num(f64::from(score[me.other().index()]) / 2.0)),
            ],
        ));
        match stage {
            Stage::Placing => {
                self.placement(ui, now, t);
                false
            }
            Stage::Waiting => {
                self.start_when_ready(now);
                ui.label(t.get("placement-waiting"));
                false
            }
            Stage::Battle | Stage::Over => self.battle(ui, now, t, store, stage),
        }
    }

    /// The timer switch of a friend table this side hosts.
    fn timer_switch(&self) -> Option<bool> {
        let session = self.driver.session();
        (matches!(self.driver, Driver::Remote(_)) && session.seat() == Seat::Host)
            .then(|| session.timer_switch())
    }

    /// The host's fleet goes in only when it presses Start, which it can once the
    /// guest is Ready: with both fleets in and no game running, the game starts
    /// (again after a restart between the two).
    fn start_when_ready(&mut self, now: Millis) {
        let session = self.driver.session();
        let number = session.table().game_number();
        if session.owed() == Owed::Start
            && self.start_sent != number
            && self.driver.command(now, Command::Start).is_ok()
        {
            self.start_sent = number;
        }
    }
}

/// A line of the move log: who acted (`mine`: the player), what and with what
/// effect, and whether the move timer fired it (not the player's choice).
fn log_line(
    t: &Text,
    variant: Variant,
    mine: bool,
    report: &crate::rules::Report,
    timeout: bool,
) -> String {
    let line = if mine { "log-you" } else { "log-they" };
    let mut what = describe(t, variant, report);
    if timeout {
        what = t.with("log-timeout", &[("what", Arg::from(what))]);
    }
    t.with(line, &[("what", Arg::from(what))])
}

/// An action and what it did, in the window's language.
fn describe(t: &Text, variant: Variant, report: &crate::rules::Report) -> String {
    let cell = |c: Coord| Arg::from(cell_name(t, variant, c));
    let mut text = match report.action {
        Action::Shot(c) => t.with("act-shot", &[("cell", cell(c))]),
        Action::Torpedo(Torpedo { heading, line }) => {
            let arrow = Arg::from(arrow(t, heading));
            match heading {
                Heading::Right | Heading::Left => t.with(
                    "act-torpedo-row",
                    &[("line", Arg::from(u32::from(line) + 1)), ("arrow", arrow)],
                ),
                Heading::Down | Heading::Up => t.with(
                    "act-torpedo-column",
                    &[
                        (
                            "line",
                            Arg::from(columns(t, variant)[usize::from(line)].to_string()),
                        ),
                        ("arrow", arrow),
                    ],
                ),
            }
        }
        Action::AirStrike(c) => t.with("act-air", &[("cell", cell(c))]),
        Action::Radar(c) => t.with("act-radar", &[("cell", cell(c))]),
    };
    if matches!(report.action, Action::Radar(_)) {
        // RULES.md: the picture lives a moment on the board, never in the log.
        text.push_str(": ");
        text.push_str(&t.get("fx-swept"));
        return text;
    }
    let effects: Vec<String> = report
        .effects
        .iter()
        .map(|effect| match effect {
            Effect::Miss(c) => t.with("fx-miss", &[("cell", cell(*c))]),
            Effect::Hit(c) => t.with("fx-hit", &[("cell", cell(*c))]),
            Effect::Sunk { cell: c, ship, .. } => t.with(
                "fx-sunk",
                &[("cell", cell(*c)), ("len", Arg::from(ship.len()))],
            ),
            Effect::Lost(c) => t.with("fx-lost", &[("cell", cell(*c))]),
            Effect::Scanned {
                cell: c,
                deck: true,
            } => t.with("fx-deck", &[("cell", cell(*c))]),
            Effect::Scanned {
                cell: c,
                deck: false,
            } => t.with("fx-water", &[("cell", cell(*c))]),
        })
        .collect();
    text.push_str(": ");
    text.push_str(&effects.join(", "));
    if report.again {
        text.push_str(" — ");
        text.push_str(&t.get("again"));
    }
    text
}

/// The way a torpedo runs, in words: the window's font has no arrow glyphs.
fn arrow(t: &Text, heading: Heading) -> String {
    t.get(match heading {
        Heading::Right => "dir-right",
        Heading::Down => "dir-down",
        Heading::Left => "dir-left",
        Heading::Up => "dir-up",
    })
}

/// Why an action may not be aimed there, in the window's language.
fn why(t: &Text, error: &ActionError) -> String {
    match error {
        ActionError::AlreadyMarked(_) => t.get("why-marked"),
        ActionError::EdgeCentre(_) => t.get("why-edge"),
        ActionError::SquareMarked(_) => t.get("why-square-marked"),
        ActionError::LineMarked(_) => t.get("why-line-marked"),
        ActionError::Spent(_) => t.get("why-spent"),
        ActionError::NotYourTurn { .. } => t.get("why-turn"),
        other => t.with("why-other", &[("text", Arg::from(other.to_string()))]),
    }
}

/// A cell's state for screen readers.
fn look_name(t: &Text, look: Look) -> String {
    t.get(match look {
        Look::Unknown => "cell-unknown",
        Look::Sea => "cell-water",
        Look::Ship => "cell-ship",
        Look::Miss => "cell-miss",
        Look::Hit => "cell-hit",
        Look::Wreck => "cell-wreck",
    })
}

fn chart_look(mark: Mark) -> Option<Look> {
    match mark {
        Mark::Unmarked => None,
        Mark::Miss => Some(Look::Miss),
        Mark::Hit => Some(Look::Hit),
        Mark::Wreck => Some(Look::Wreck),
    }
}

/// The column letters the window shows: the Russian classic board's own (А–К on
/// 10×10, А–М without Й on 12×12) in Russian classic mode, A–L otherwise.
fn columns(t: &Text, variant: Variant) -> &'static [char; 12] {
    if t.lang() == Lang::Ru && !variant.has_weapons() {
        &super::board::CYRILLIC
    } else {
        &super::board::LATIN
    }
}

/// A cell's name as the window writes it (`E5`, or `Д5` in Russian classic mode).
fn cell_name(t: &Text, variant: Variant, cell: Coord) -> String {
    format!(
        "{}{}",
        columns(t, variant)[usize::from(cell.col())],
        cell.row() + 1
    )
}

/// The cell size that fits two boards of `side` cells side by side in `width`.
fn cell_size(width: f32, side: u8) -> f32 {
    ((width - 80.0) / (2.0 * (f32::from(side) + 0.8))).clamp(22.0, 40.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Coord {
        Coord::parse(name, crate::rules::BoardSize::STANDARD).unwrap()
    }

    /// An air strike: the aircraft comes in, then the shells fall one a beat; each
    /// shell's cell shows its outcome when it lands, and a shell lost on a cell
    /// already marked stays marked as lost until the strike is over.
    #[test]
    fn an_air_strike_shows_its_shells_falling_one_by_one() {
        let effects = vec![
            Effect::Miss(c("A1")),
            Effect::Lost(c("B1")),
            Effect::Hit(c("C1")),
        ];
        let anim = Anim::new(
            Seat::Host,
            Action::AirStrike(c("B2")),
            effects,
            crate::rules::BoardSize::STANDARD,
            1_000,
        );
        let beat = anim.beat_ms;
        let at = |step: Millis| 1_000 + step * beat + beat / 2;
        let shells = |now| {
            anim.overlays(now)
                .into_iter()
                .filter(|(_, o)| !matches!(o, Overlay::Plane(_)))
                .map(|(cell, o)| (cell, std::mem::discriminant(&o)))
                .collect::<Vec<_>>()
        };
        let shell = std::mem::discriminant(&Overlay::Shell(0));
        let lost = std::mem::discriminant(&Overlay::Lost);
        // The approach: nothing falls yet, and nothing is shown.
        assert!(shells(at(0)).is_empty());
        assert!(
            anim.overlays(at(0))
                .iter()
                .any(|(cell, o)| *cell == c("B2") && matches!(o, Overlay::Plane(_)))
        );
        assert_eq!(anim.hidden(at(0)).len(), 2);
        assert_eq!(shells(at(1)), vec![(c("A1"), shell)]);
        assert_eq!(shells(at(2)), vec![(c("B1"), shell)]);
        assert_eq!(shells(at(3)), vec![(c("B1"), lost), (c("C1"), shell)]);
        assert!(anim.hidden(at(3)).contains(c("C1")));
        assert!(!anim.hidden(at(3)).contains(c("A1")));
        assert!(!anim.done(at(3)));
        assert!(anim.done(1_000 + 4 * beat));
        assert!(anim.end() - 1_000 <= ANIM_MS);
    }

    /// A torpedo runs over marked cells too and stops at the deck it hits, its wake
    /// behind it; the whole run fits the animation's time even on a 12×12 board.
    #[test]
    fn a_torpedo_runs_cell_by_cell_and_stops_at_its_hit() {
        let torpedo = Torpedo {
            heading: Heading::Right,
            line: 0,
        };
        // A1 was marked before: no effect there, but the torpedo crosses it.
        let effects = vec![
            Effect::Miss(c("B1")),
            Effect::Miss(c("C1")),
            Effect::Hit(c("D1")),
        ];
        let anim = Anim::new(
            Seat::Guest,
            Action::Torpedo(torpedo),
            effects,
            crate::rules::BoardSize::STANDARD,
            0,
        );
        assert_eq!(anim.beats.len(), 4);
        let beat = anim.beat_ms;
        let mid = |step: Millis| step * beat + beat / 2;
        let overlays = anim.overlays(mid(2));
        assert!(overlays.contains(&(c("A1"), Overlay::Wake(Heading::Right))));
        assert!(overlays.contains(&(c("B1"), Overlay::Wake(Heading::Right))));
        assert!(
            overlays
                .iter()
                .any(|(cell, o)| *cell == c("C1")
                    && matches!(o, Overlay::Torpedo(Heading::Right, _)))
        );
        assert!(!anim.hidden(mid(2)).contains(c("B1")));
        assert!(anim.hidden(mid(2)).contains(c("D1")));
        assert!(anim.done(4 * beat));
        let side = crate::rules::BoardSize::LARGE;
        let long = Anim::new(Seat::Guest, Action::Torpedo(torpedo), vec![], side, 0);
        assert_eq!(long.beats.len(), 12);
        assert!(long.end() <= ANIM_MS);
    }

    /// A shot the move timer fired is labelled as such in the log; the player's own
    /// shots are not.
    #[test]
    fn a_timeout_shot_is_labelled_in_the_log() {
        let report = crate::rules::Report {
            action: Action::Shot(c("E5")),
            effects: vec![Effect::Miss(c("E5"))],
            again: false,
            ending: None,
        };
        let t = Text::new(Lang::En);
        assert_eq!(
            log_line(&t, Variant::Armada, false, &report, true),
            "Opponent: shot E5: E5 miss (the move timer ran out)"
        );
        assert_eq!(
            log_line(&t, Variant::Armada, true, &report, false),
            "You: shot E5: E5 miss"
        );
    }

    /// Russian classic mode names columns as the classic Russian board does, А–К
    /// without Й; Armada, and the other languages, keep A–J.
    #[test]
    fn russian_classic_columns_run_from_a_to_ka_without_short_i() {
        let classic = Variant::classic(10).unwrap();
        let ru = Text::new(Lang::Ru);
        let names: Vec<String> = (0..10)
            .map(|col| cell_name(&ru, classic, Coord::new(col, 0).unwrap()))
            .collect();
        assert_eq!(names.join(" "), "А1 Б1 В1 Г1 Д1 Е1 Ж1 З1 И1 К1");
        assert!(!names.iter().any(|n| n.contains('Й')));
        assert_eq!(cell_name(&ru, Variant::Armada, c("J10")), "J10");
        assert_eq!(cell_name(&Text::new(Lang::Uk), classic, c("J10")), "J10");
        let twelve = Variant::classic(12).unwrap();
        assert_eq!(cell_name(&ru, twelve, Coord::new(11, 11).unwrap()), "М12");
    }

    /// Found in review: a sinking hid its whole ship until it showed, so the decks
    /// hit in earlier turns looked unknown (or, on the player's own board, whole)
    /// while the shell fell. They keep burning; only the sinking cell and the ring
    /// wait for the beat.
    #[test]
    fn a_sinking_keeps_the_earlier_hits_burning_until_it_shows() {
        let set = |names: &str| {
            let mut cells = CellSet::EMPTY;
            for name in names.split(' ') {
                cells.insert(c(name));
            }
            cells
        };
        let sunk = Effect::Sunk {
            cell: c("B2"),
            ship: set("B2 C2"),
            ring: set("A1 B1 C1 D1 A2 D2 A3 B3 C3 D3"),
        };
        let anim = Anim::new(
            Seat::Host,
            Action::Shot(c("B2")),
            vec![sunk],
            crate::rules::BoardSize::STANDARD,
            0,
        );
        let falling = anim.beat_ms / 2;
        assert!(anim.hidden(falling).contains(c("B2")));
        assert!(anim.hidden(falling).contains(c("A1")));
        assert!(!anim.hidden(falling).contains(c("C2")));
        assert_eq!(anim.burning(falling), set("C2"));
        let landed = anim.beat_ms;
        assert!(anim.hidden(landed).is_empty() && anim.burning(landed).is_empty());
    }
}
