//! The window's screens — home, placement, battle, results — drawn from the session's
//! state; every gesture becomes a session command, and nothing here decides the game.

use std::collections::VecDeque;

use egui::Color32;

use super::board::{Look, Overlay};
use super::draft::{Draft, Problem};
use super::i18n::{Arg, Lang, Text};
use crate::driver::Note;
use crate::driver::Store;
use crate::driver::{Command, Event, Millis, Owed, Session};
use crate::rules::{
    Action, ActionError, CellSet, Coord, Dir, Effect, Heading, Mark, Seat, Torpedo, Variant, Weapon,
};
use sea_table::{Driver, Stage, link_line, open_line, stage, variant_of};

mod anim;
mod arch_rules;
mod arch_table;
mod archimedes;
mod battle;
mod centre;
mod decided;
mod home;
mod ice_rules;
mod ice_seat;
mod ice_table;
mod icehouse;
mod lot;
mod news;
mod placement;
mod rules;
mod sea_table;
mod totals;
mod words;

use anim::Anim;
use words::{arrow, cell_name, cell_size, chart_look, columns, log_line, look_name, why};

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
    /// Icehouse Armada, the third game.
    Icehouse,
}

impl Mode {
    /// The sea battle's variant (Archimedes has none: its tables go elsewhere).
    fn variant(self) -> Variant {
        match self {
            Self::Armada | Self::Archimedes(_) | Self::Icehouse => Variant::Armada,
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
    /// The host's timer switch as last set, for the next friend table (off until
    /// turned on: friends new to the game are not hurried by default).
    pub timer: bool,
    /// Friend tables use the public libp2p network (DHT, relays found there).
    pub public: bool,
    /// Actions show at once, without animations.
    pub reduce_motion: bool,
    /// Icehouse Armada against the computer: the goal chosen last.
    pub ice_goal: crate::driver::IcehouseGoal,
    /// Icehouse Armada against the computer: the person's squadron.
    pub ice_squadron: IceSquadron,
    /// Icehouse Armada: the setup and its numbers as last chosen.
    pub ice_setup: IceSetupPrefs,
}

/// How Icehouse fleets are chosen, as last set at home.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum IceSetupKind {
    #[default]
    Basic,
    Advanced,
    Points,
}

/// The Icehouse setup with the numbers of each kind, so switching keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct IceSetupPrefs {
    pub kind: IceSetupKind,
    /// Advanced: the heavy squadron's large ships, the light one's medium and small.
    pub heavy: u8,
    pub medium: u8,
    pub small: u8,
    /// Points: one's own fleet, large, medium and small.
    pub own: [u8; 3],
}

impl Default for IceSetupPrefs {
    fn default() -> Self {
        Self {
            kind: IceSetupKind::Basic,
            heavy: 4,
            medium: 4,
            small: 4,
            own: [1, 3, 3],
        }
    }
}

impl IceSetupPrefs {
    pub fn setup(&self) -> crate::driver::ice::Setup {
        use crate::driver::ice::{Fleet, Setup};
        match self.kind {
            IceSetupKind::Basic => Setup::Basic,
            IceSetupKind::Advanced => Setup::Advanced {
                heavy: Fleet::new(self.heavy, 0, 0),
                light: Fleet::new(0, self.medium, self.small),
            },
            IceSetupKind::Points => Setup::Points,
        }
    }

    pub const fn own(&self) -> crate::driver::ice::Fleet {
        crate::driver::ice::Fleet::new(self.own[0], self.own[1], self.own[2])
    }
}

/// The squadron the person commands at Icehouse Armada against the computer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum IceSquadron {
    #[default]
    Heavy,
    Light,
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            lang: Lang::En,
            mode: Mode::Armada,
            timer: false,
            public: true,
            reduce_motion: false,
            ice_goal: crate::driver::IcehouseGoal::SinkAll,
            ice_squadron: IceSquadron::Heavy,
            ice_setup: IceSetupPrefs::default(),
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
    /// A game of Icehouse Armada against the computer, on screen instead of a table.
    ice: Option<Box<icehouse::IcePlay>>,
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
    /// Which game's rules the Rules screen shows.
    rules_of: rules::Game,
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
    /// A game of Icehouse Armada against the computer left unfinished.
    icehouse: bool,
}

/// What to aim with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    Shot,
    Weapon(Weapon),
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
    /// Which deck of the ship in hand the pointer holds (from the bow): a dragged
    /// ship moves with the pointer, not with its bow.
    grab: u8,
    dir: Dir,
    problem: Option<Problem>,
    /// The enemy cell just fired at, while the pointer has not left it.
    fired_at: Option<Coord>,
    /// A word about the last automatic placement (its message id): no room for
    /// the docked ships around the placed ones.
    placing_note: Option<&'static str>,
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
    /// The latest actions' headlines, each from when its animation ends.
    news: VecDeque<news::News>,
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
            .and_then(Store::window_prefs)
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
            ice: None,
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
            rules_of: rules::Game::Sea,
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

    /// Test scaffolding: the home screen as if a LAN search had found these tables
    /// (peer, game, invite if the host accepts LAN joins without a code).
    #[cfg(feature = "harness")]
    #[must_use]
    pub fn with_lan_found(mut self, tables: Vec<(String, String, Option<String>)>) -> Self {
        let tables = tables
            .into_iter()
            .map(|(peer, game, invite)| LanTable { peer, game, invite })
            .collect();
        self.lan = Some(Lan::Found(tables));
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

    /// Whether an action of the player's own is being shown (the opponent's next
    /// one may start any frame; the player's cannot without a command).
    pub fn animating_mine(&self) -> bool {
        self.play.as_ref().is_some_and(|p| {
            let me = p.driver.session().seat();
            p.anims.iter().any(|a| a.seat == me)
        })
    }

    /// The length of the enemy ship glowing in the fleet line at `now`, the one the
    /// player just sank.
    pub fn flashing(&self, now: Millis) -> Option<u8> {
        self.play.as_ref()?.flash(now).map(|(len, _)| len)
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
            if self.rules {
                if rules::show(ui, &self.text, &mut self.rules_of) {
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
            // Solid bars take their own room: in a small window nothing (a result's
            // banner, a card's edge) lies under a scroll bar.
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::both().show(ui, |ui| {
                let mut home = false;
                match &mut self.play {
                    None if self.connecting.is_some() => self.connecting_screen(ui),
                    None if self.arch.is_some() => self.archimedes_screen(ui, now),
                    None if self.ice.is_some() => self.icehouse_screen(ui, now),
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
                // The home screen's lines are worded once a visit: word them anew.
                self.home = None;
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
                self.toggle_rules();
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
            } else if (self.play.is_some()
                || self.connecting.is_some()
                || self.arch.is_some()
                || self.ice.is_some())
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
            self.toggle_rules();
        }
    }

    /// Opens the Rules screen on the game on screen (at home: the game chosen
    /// there), or closes it.
    fn toggle_rules(&mut self) {
        self.rules = !self.rules;
        self.rules_of = match (&self.arch, &self.play, self.prefs.mode) {
            _ if self.ice.is_some() => rules::Game::Icehouse,
            (Some(arch), _, _) => rules::Game::Archimedes {
                friend: arch.table.level().is_none(),
            },
            (None, None, Mode::Archimedes(_)) => rules::Game::Archimedes { friend: false },
            (None, None, Mode::Icehouse) => rules::Game::Icehouse,
            (None, _, _) => rules::Game::Sea,
        };
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
        if let Some(ice) = self.ice.as_deref()
            && ice.table.remote_ref().is_some_and(|r| r.ended().is_none())
        {
            return !ice.table.ended() && !ice.table.friend_left();
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
        if let Some(remote) = self.ice.as_deref_mut().and_then(|a| a.table.remote()) {
            remote.leave();
        }
        self.play = None;
        self.arch = None;
        self.ice = None;
        self.connecting = None;
        self.home = None;
    }

    fn save_prefs(&self) {
        if let Some(store) = &self.store
            && let Ok(json) = serde_json::to_vec_pretty(&self.prefs)
        {
            // Preferences are a convenience: failing to keep them changes no game.
            let _ = store.save_window_prefs(&json);
        }
    }
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
            grab: 0,
            dir: Dir::Across,
            problem: None,
            fired_at: None,
            placing_note: None,
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
            news: VecDeque::new(),
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
                    self.news.clear();
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
                    let news = news::News::of(
                        t,
                        variant,
                        seat == me,
                        &report,
                        self.driver.session().fleet(),
                        shown,
                    );
                    self.tell(news);
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
                self.link_trouble(ui, t);
                self.placement(ui, now, t);
                false
            }
            Stage::Waiting => {
                self.link_trouble(ui, t);
                self.start_when_ready(now);
                self.waiting(ui, t);
                false
            }
            Stage::Battle | Stage::Over => self.battle(ui, now, t, store, stage),
        }
    }

    /// A friend table's link before the battle, said only when something is wrong
    /// (reconnecting, the friend gone or left, the network side stopped): a person
    /// placing a fleet for a table that cannot start is told so.
    fn link_trouble(&mut self, ui: &mut egui::Ui, t: &Text) {
        let reconnecting = self
            .driver
            .remote()
            .is_some_and(|remote| matches!(remote.link(), Some(crate::driver::Link::Reconnecting)));
        if reconnecting || self.friend_table_over() {
            self.link_line(ui, t);
        }
    }

    /// Whether this friend table can no longer start a game: the friend is gone or
    /// left, or the network side stopped.
    fn friend_table_over(&mut self) -> bool {
        use crate::driver::Link;
        self.driver.remote().is_some_and(|remote| {
            remote.ended().is_some()
                || matches!(remote.link(), Some(Link::Gone { .. } | Link::Left))
        })
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
