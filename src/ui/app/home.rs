//! The home screen: new games, friend tables (open, join, LAN), the connecting
//! screen, and the saved tables (resume, past results).

use egui::{Color32, RichText};

use super::super::board;
use super::super::i18n::{Arg, Text};
use super::{Armada, Driver, HomeInfo, Lan, LanTable, Mode, Play, link_line, open_line, waker};
use crate::driver::{Level, Local, Millis, Pending, Ready, Store};

/// The saved tables chosen to resume: against the computer, with a friend (and its
/// game), Archimedes against the computer, Icehouse Armada against the computer.
type Resumes = (
    Option<[u8; 32]>,
    Option<([u8; 32], crate::driver::TableGame)>,
    bool,
    bool,
);

impl Armada {
    /// The home screen's lower card: resume buttons and past tables; returns the
    /// table chosen to resume (against the computer, with a friend).
    pub(super) fn saved_tables_section(&mut self, ui: &mut egui::Ui) -> Resumes {
        let info = self.home_info();
        let t = &self.text;
        let mut resume = None;
        let mut resume_arch = false;
        if let Some(id) = info.unfinished {
            if ui.add(big_button(t.get("home-resume"), 200.0)).clicked() {
                resume = Some(id);
            }
            ui.add_space(6.0);
        }
        if info.archimedes {
            if ui
                .add(big_button(t.get("home-resume-archimedes"), 200.0))
                .clicked()
            {
                resume_arch = true;
            }
            ui.add_space(6.0);
        }
        let mut resume_ice = false;
        if info.icehouse {
            if ui
                .add(big_button(t.get("home-resume-icehouse"), 200.0))
                .clicked()
            {
                resume_ice = true;
            }
            ui.add_space(6.0);
        }
        let mut resume_friend = None;
        if let Some(friend) = info.friend {
            if ui
                .add(big_button(t.get("home-resume-friend"), 200.0))
                .clicked()
            {
                resume_friend = Some(friend);
            }
            ui.add_space(6.0);
        }
        ui.heading(t.get("home-past"));
        if info.past.is_empty() {
            ui.label(t.get("home-past-none"));
        }
        for line in &info.past {
            ui.label(line);
        }
        if info.unreadable > 0 {
            ui.label(t.with("home-unreadable", &[("count", Arg::from(info.unreadable))]));
        }
        (resume, resume_friend, resume_arch, resume_ice)
    }
}

/// A new game chosen on the home screen.
enum Chosen {
    Sea(Level),
    Archimedes(u8, crate::driver::arch::Level),
    Icehouse(crate::driver::ice::Level),
}

impl Armada {
    pub(super) fn home(&mut self, ui: &mut egui::Ui, now: Millis) {
        board::banner(
            ui,
            &self.text.get("app-title"),
            &self.text.get("home-tagline"),
        );
        ui.add_space(12.0);
        let mut mode = self.prefs.mode;
        let mut chosen = None;
        let mut friend = Friend::default();
        // Side by side when both cards fit; one above the other in a narrow window,
        // so that nothing (the Join button) is pushed past its right edge.
        if ui.available_width() >= NEW_GAME_WIDTH + FRIEND_WIDTH + 12.0 + 2.0 * CARD_EXTRA {
            ui.horizontal_top(|ui| {
                card(ui, NEW_GAME_WIDTH, |ui| {
                    chosen = self.new_game_card(ui, &mut mode);
                });
                ui.add_space(12.0);
                let width = ui.available_width() - CARD_EXTRA;
                card(ui, width, |ui| friend = self.friend_card(ui));
            });
        } else {
            let width = ui.available_width() - CARD_EXTRA;
            card(ui, width, |ui| chosen = self.new_game_card(ui, &mut mode));
            ui.add_space(12.0);
            card(ui, width, |ui| friend = self.friend_card(ui));
        }
        if friend.public {
            self.save_prefs();
        }
        if let Some(invite) = friend.lan {
            self.invite = invite;
            self.open_friend(ui.ctx(), true);
            return;
        }
        if friend.host || friend.join {
            self.open_friend(ui.ctx(), friend.join);
            return;
        }
        ui.add_space(12.0);
        let width = ui.available_width() - CARD_EXTRA;
        let mut resume = (None, None, false, false);
        card(ui, width, |ui| {
            resume = self.saved_tables_section(ui);
            self.totals_section(ui);
        });
        if mode != self.prefs.mode {
            self.prefs.mode = mode;
            self.save_prefs();
        }
        if let Some(Chosen::Sea(level)) = chosen {
            self.open(level, now);
        } else if let Some(Chosen::Archimedes(side, level)) = chosen {
            self.open_archimedes(side, level, now);
        } else if let Some(Chosen::Icehouse(level)) = chosen {
            self.open_icehouse(
                crate::driver::IcehouseChoice {
                    level,
                    ..self.ice_choice()
                },
                now,
            );
        } else if resume.2 {
            self.resume_archimedes(now);
        } else if resume.3 {
            self.resume_icehouse(now);
        } else if let Some(id) = resume.0 {
            self.resume(&id, now);
        } else if let Some((id, game)) = resume.1 {
            self.resume_friend(ui.ctx(), &id, game);
        }
    }

    /// The home card of a new game against the computer: the game, then the level
    /// (the level chosen, if one was).
    fn new_game_card(&mut self, ui: &mut egui::Ui, mode: &mut Mode) -> Option<Chosen> {
        let t = &self.text;
        ui.heading(t.get("home-mode"));
        ui.radio_value(mode, Mode::Armada, t.get("mode-armada"));
        for side in [8u8, 10, 12] {
            ui.radio_value(
                mode,
                Mode::Classic(side),
                t.with("mode-classic", &[("side", Arg::from(u32::from(side)))]),
            );
        }
        ui.horizontal(|ui| {
            ui.label(t.get("mode-archimedes"))
                .on_hover_text(t.get("mode-archimedes-tip"));
            for side in crate::driver::arch::SIZES {
                ui.radio_value(mode, Mode::Archimedes(side), format!("{side}×{side}"))
                    .on_hover_text(t.get("mode-archimedes-tip"));
            }
        });
        ui.radio_value(mode, Mode::Icehouse, t.get("mode-icehouse"))
            .on_hover_text(t.get("mode-icehouse-tip"));
        if *mode == Mode::Icehouse && super::icehouse::options(ui, t, &mut self.prefs) {
            self.save_prefs();
        }
        ui.add_space(14.0);
        ui.heading(t.get("home-computer"));
        let mut chosen = None;
        ui.horizontal(|ui| {
            if *mode == Mode::Icehouse {
                for level in crate::driver::ice::Level::ALL {
                    let name = super::icehouse::level_name(t, level);
                    if ui.add(big_button(name, 110.0)).clicked() {
                        chosen = Some(Chosen::Icehouse(level));
                    }
                }
                return;
            }
            if let Mode::Archimedes(side) = *mode {
                use crate::driver::arch::Level as A;
                for level in [A::Easy, A::Medium, A::Hard, A::Insane] {
                    let name = super::archimedes::level_name(t, level);
                    if ui.add(big_button(name, 84.0)).clicked() {
                        chosen = Some(Chosen::Archimedes(side, level));
                    }
                }
                return;
            }
            for (level, id) in [
                (Level::Easy, "level-easy"),
                (Level::Medium, "level-medium"),
                (Level::Hard, "level-hard"),
            ] {
                if ui.add(big_button(t.get(id), 110.0)).clicked() {
                    chosen = Some(Chosen::Sea(level));
                }
            }
        });
        chosen
    }

    /// The home card of a friend's table: open one, join by code or invite, the
    /// public network's switch, the LAN.
    fn friend_card(&mut self, ui: &mut egui::Ui) -> Friend {
        let t = &self.text;
        let mut friend = Friend::default();
        ui.heading(t.get("home-friend"));
        friend.host = ui.add(big_button(t.get("home-host"), 160.0)).clicked();
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.invite)
                    .hint_text(t.get("home-invite-hint"))
                    .desired_width((ui.available_width() - 70.0).clamp(160.0, 360.0)),
            )
            .widget_info(|| {
                egui::WidgetInfo::labeled(
                    egui::WidgetType::TextEdit,
                    true,
                    t.get("home-invite-hint"),
                )
            });
            friend.join = ui
                .add_enabled(
                    !self.invite.trim().is_empty(),
                    egui::Button::new(t.get("home-join")),
                )
                .clicked();
        });
        ui.add_space(6.0);
        if self.net.public.is_on() {
            friend.public = ui
                .checkbox(&mut self.prefs.public, t.get("home-public"))
                .changed();
            ui.weak(t.get("home-public-why"));
        } else {
            // Forced off for this run: the switch shows what is in force, not the
            // remembered choice, and cannot be turned.
            ui.add_enabled(false, egui::Checkbox::new(&mut false, t.get("home-public")));
            ui.weak(t.get("home-public-refused"));
        }
        if let Some(note) = &self.note {
            ui.colored_label(Color32::from_rgb(240, 120, 110), note);
        }
        ui.add_space(6.0);
        friend.lan = self.lan_tables(ui);
        friend
    }

    /// The LAN search button and what it found; the invite of a table chosen to join.
    pub(super) fn lan_tables(&mut self, ui: &mut egui::Ui) -> Option<String> {
        let t = &self.text;
        if let Some(Lan::Searching(rx)) = &self.lan
            && let Ok(found) = rx.try_recv()
        {
            self.lan = Some(Lan::Found(found));
        }
        let mut chosen = None;
        let searching = matches!(self.lan, Some(Lan::Searching(_)));
        if ui
            .add_enabled(!searching, egui::Button::new(t.get("home-lan")))
            .clicked()
        {
            self.lan = Some(self.search_lan(ui.ctx()));
        }
        match &self.lan {
            None => {}
            Some(Lan::Off) => {
                ui.label(t.get("lan-off"));
            }
            Some(Lan::Searching(_)) => {
                ui.label(t.get("lan-searching"));
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(200));
            }
            Some(Lan::Found(tables)) => {
                // Only tables one can join from here; those whose host gives the
                // invite by hand are counted, not listed.
                let closed = tables.iter().filter(|t| t.invite.is_none()).count();
                let mut open = tables.iter().filter_map(|t| Some((t, t.invite.as_ref()?)));
                if closed == tables.len() {
                    ui.label(t.get("lan-none"));
                }
                for (table, invite) in open.by_ref() {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(t.with(
                            "lan-table",
                            &[
                                ("game", Arg::from(table.game.as_str())),
                                ("peer", Arg::from(short_peer(&table.peer))),
                            ],
                        ))
                        .on_hover_text(&table.peer);
                        if ui.button(t.get("home-join")).clicked() {
                            chosen = Some(invite.clone());
                        }
                    });
                }
                if closed > 0 {
                    ui.add(
                        egui::Label::new(t.with("lan-closed", &[("count", Arg::from(closed))]))
                            .wrap(),
                    );
                }
            }
        }
        chosen
    }

    /// Starts looking for tables on the LAN (never where discovery is off: `mDNS`
    /// multicasts on the network).
    pub(super) fn search_lan(&self, ctx: &egui::Context) -> Lan {
        if !self.net.discovery {
            return Lan::Off;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let config = self.net.clone();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let found = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .map(|runtime| {
                    runtime.block_on(async move {
                        let identity = crate::driver::Identity::generate();
                        let wait = std::time::Duration::from_secs(3);
                        crate::driver::lan_tables(&identity, config, wait)
                            .await
                            .unwrap_or_default()
                            .into_iter()
                            .map(|(peer, offer)| LanTable {
                                peer: peer.to_string(),
                                game: match offer.game {
                                    armada_proto::GameKind::Armada => "Armada".to_owned(),
                                    armada_proto::GameKind::Archimedes { side } => {
                                        format!("Archimedes {side}×{side}")
                                    }
                                    armada_proto::GameKind::Classic { side } => {
                                        format!("{side}×{side}")
                                    }
                                    armada_proto::GameKind::Icehouse { .. } => {
                                        "Icehouse Armada".to_owned()
                                    }
                                },
                                invite: offer.invite.map(|i| i.to_link()),
                            })
                            .collect()
                    })
                })
                .unwrap_or_default();
            let _ = tx.send(found);
            ctx.request_repaint();
        });
        Lan::Searching(rx)
    }

    /// Plays on a saved friend table: connecting, then the table where it was.
    pub(super) fn resume_friend(
        &mut self,
        ctx: &egui::Context,
        id: &[u8; 32],
        game: crate::driver::TableGame,
    ) {
        let Some(store) = self.store.clone() else {
            return;
        };
        let remote = Pending::resume(store, self.friend_net(), id, game, waker(ctx));
        self.note = None;
        self.home = None;
        self.connecting = Some(Box::new(remote));
    }

    /// Opens a table for a friend (`join`: joins the pasted invite instead).
    pub(super) fn open_friend(&mut self, ctx: &egui::Context, join: bool) {
        let Some(store) = self.store.clone() else {
            self.note = Some(self.text.get("friend-no-store"));
            return;
        };
        let wake = waker(ctx);
        let remote = if join {
            let text = self.invite.trim();
            // A short code read out, or an invite pasted: each checked as what it
            // looks like, so the reason names the right mistake.
            let checked = if armada_proto::ShortCode::is_meant(text) {
                armada_proto::ShortCode::parse(text)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            } else {
                armada_proto::Invite::parse(text)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            };
            if let Err(error) = checked {
                self.note = Some(
                    self.text
                        .with("friend-bad-invite", &[("why", Arg::from(error))]),
                );
                return;
            }
            let pending = Pending::join(store, self.friend_net(), &self.invite, wake);
            // Used: the next code is typed or pasted into an empty field.
            self.invite.clear();
            pending
        } else {
            if let Some(why) = super::icehouse::setup_problem(&self.text, &self.prefs) {
                self.note = Some(why);
                return;
            }
            let settings = match self.prefs.mode {
                Mode::Icehouse => crate::driver::ice_table::settings(
                    self.prefs.ice_setup.setup(),
                    self.prefs.ice_goal.hosted(),
                    self.prefs.ice_squadron == super::IceSquadron::Heavy,
                    ICEHOUSE_MOVE_MS,
                    self.grace_ms,
                ),
                Mode::Archimedes(side) => {
                    crate::driver::arch_table::settings(side, ARCHIMEDES_MOVE_MS, self.grace_ms)
                }
                mode => crate::driver::settings(mode.variant(), self.grace_ms),
            };
            Pending::host(store, self.friend_net(), settings, self.prefs.timer, wake)
        };
        self.note = None;
        self.home = None;
        self.connecting = Some(Box::new(remote));
    }

    /// Moves a network table on screen once both players are in; back home with the
    /// reason if it failed first.
    pub(super) fn poll_connecting(&mut self, now: Millis) {
        let Some(pending) = self.connecting.take() else {
            return;
        };
        let mut pending = *pending;
        pending.poll();
        match pending.take_ready() {
            Ok(Ready::Sea(remote)) => {
                let driver = Driver::Remote(remote);
                self.play = Some(Box::new(Play::new(driver, now, &self.text)));
                return;
            }
            Ok(Ready::Icehouse(remote)) => {
                self.show_friend_icehouse(remote);
            }
            Ok(Ready::Archimedes(remote)) => {
                self.show_friend_archimedes(remote);
                return;
            }
            Err(pending) => self.connecting = Some(Box::new(pending)),
        }
        let Some(remote) = &self.connecting else {
            return;
        };
        if let Some(Err(why)) = remote.ended() {
            self.note = Some(
                self.text
                    .with("friend-failed", &[("why", Arg::from(why.clone()))]),
            );
            self.connecting = None;
        }
    }

    pub(super) fn connecting_screen(&mut self, ui: &mut egui::Ui) {
        let t = &self.text;
        let Some(remote) = &self.connecting else {
            return;
        };
        ui.heading(t.get("home-friend"));
        ui.label(link_line(t, remote.link()));
        if let Some(open) = remote.open() {
            let (line, warning) = open_line(t, open);
            if warning {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            } else {
                ui.label(line);
            }
        }
        if remote.codes_withdrawn() > 0 {
            ui.add_space(8.0);
            let note = if remote.code().is_some() {
                "friend-code-withdrawn"
            } else {
                "friend-codes-off"
            };
            ui.colored_label(ui.visuals().warn_fg_color, t.get(note));
        }
        if let Some(code) = remote.code() {
            ui.add_space(8.0);
            ui.label(t.get("friend-code"));
            ui.label(egui::RichText::new(code).monospace().size(28.0).strong());
            copy_row(ui, t, "friend-copy-code", code);
        }
        if let Some(invite) = remote.invite() {
            ui.add_space(8.0);
            ui.label(t.get(if remote.code().is_some() {
                "friend-or-invite"
            } else {
                "friend-waiting"
            }));
            let mut shown = invite.to_owned();
            ui.add(
                egui::TextEdit::multiline(&mut shown)
                    .desired_width(560.0)
                    .desired_rows(3),
            )
            .widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::TextEdit, true, invite));
            copy_row(ui, t, "friend-copy", invite);
        }
        ui.add_space(8.0);
        if ui.button(t.get("cancel")).clicked() {
            self.connecting = None;
        }
    }

    pub(super) fn identity(&self) -> crate::driver::Identity {
        self.store
            .as_ref()
            .and_then(|s| s.identity().ok())
            .unwrap_or_else(crate::driver::Identity::generate)
    }

    pub(super) fn open(&mut self, level: Level, now: Millis) {
        let variant = self.prefs.mode.variant();
        let Ok(mut local) = Local::new(self.identity(), level, variant) else {
            tracing::error!("no randomness from the operating system: cannot open a table");
            return;
        };
        if self.fast {
            local = local.without_pauses();
        }
        if let Some(store) = &self.store {
            local = match local.saved_in(store.clone()) {
                Ok(local) => local,
                Err(error) => {
                    tracing::error!(%error, "cannot save the table: cannot open it");
                    return;
                }
            };
        }
        self.play = Some(Box::new(Play::new(
            Driver::Local(Box::new(local)),
            now,
            &self.text,
        )));
        self.home = None;
    }

    pub(super) fn resume(&mut self, id: &[u8; 32], now: Millis) {
        let Some(store) = self.store.clone() else {
            return;
        };
        match Local::restore(store, id, self.identity(), now) {
            Ok(mut local) => {
                if self.fast {
                    local = local.without_pauses();
                }
                self.play = Some(Box::new(Play::new(
                    Driver::Local(Box::new(local)),
                    now,
                    &self.text,
                )));
                self.home = None;
            }
            Err(error) => {
                tracing::error!(%error, "cannot resume the table");
                self.note = Some(self.text.with(
                    "home-resume-failed",
                    &[("why", Arg::from(format!("{error:#}")))],
                ));
            }
        }
    }

    /// What the home screen lists (found once per visit).
    pub(super) fn home_info(&mut self) -> HomeInfo {
        if let Some(info) = &self.home {
            return info.clone();
        }
        let info = self
            .store
            .as_ref()
            .map(|store| saved_tables(store, &self.text))
            .unwrap_or_default();
        self.home = Some(info.clone());
        info
    }
}

/// The step time at Icehouse tables between friends the window opens (the host's
/// person asks nothing: the terminal's default).
const ICEHOUSE_MOVE_MS: u32 = 90_000;

/// The move time at Archimedes tables between friends the window opens.
const ARCHIMEDES_MOVE_MS: u32 = 60_000;

/// The saved tables, newest first: the newest unfinished game against the computer,
/// and a line per table with its score and its verification verdict.
fn saved_tables(store: &Store, t: &Text) -> HomeInfo {
    const LISTED: usize = 8;
    let saved = crate::driver::saved_tables(store, LISTED);
    let past = saved
        .past
        .iter()
        .map(|table| {
            let who = match table.computer {
                Some(level) => {
                    let level = match level {
                        Level::Easy => t.get("level-easy"),
                        Level::Medium => t.get("level-medium"),
                        Level::Hard => t.get("level-hard"),
                        Level::Random => level.to_string(),
                    };
                    t.with("past-computer", &[("level", Arg::from(level))])
                }
                None => match table.side {
                    Some(side) => t.with(
                        "past-friend-archimedes",
                        &[("side", Arg::from(usize::from(side)))],
                    ),
                    None => t.get("past-friend"),
                },
            };
            let verdict = t.get(match table.outcome {
                crate::driver::verify::Outcome::Honest => "past-honest",
                crate::driver::verify::Outcome::Lie(_) => "past-lie",
                _ => "past-incomplete",
            });
            t.with(
                "past-line",
                &[
                    ("who", Arg::from(who)),
                    ("games", Arg::from(table.games)),
                    ("me", Arg::Num(f64::from(table.points[0]) / 2.0)),
                    ("them", Arg::Num(f64::from(table.points[1]) / 2.0)),
                    ("verdict", Arg::from(verdict)),
                ],
            )
        })
        .collect();
    HomeInfo {
        unfinished: saved.unfinished,
        friend: saved.friend.map(|id| (id, saved.friend_game)),
        past,
        unreadable: saved.unreadable,
        // A damaged file is said when it is resumed, not hidden here.
        icehouse: match store.icehouse() {
            Ok(Some(game)) => game
                .game()
                .is_ok_and(|g| game.resigned.is_none() && g.is_none_or(|g| g.ending().is_none())),
            Ok(None) => false,
            Err(_) => true,
        },
        archimedes: match store.archimedes() {
            Ok(Some(game)) => game.position().is_ok_and(|p| !p.is_over()),
            Ok(None) => false,
            Err(_) => true,
        },
    }
}

/// The inner width of the card of a game against the computer, when side by side.
const NEW_GAME_WIDTH: f32 = 400.0;
/// The least inner width of the friend card beside it.
const FRIEND_WIDTH: f32 = 360.0;
/// What a card adds around its inner width: margins and stroke, both sides.
const CARD_EXTRA: f32 = 34.0;

/// A framed card of the home screen, `width` wide inside.
fn card(ui: &mut egui::Ui, width: f32, add: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::group(ui.style())
        .fill(ui.visuals().faint_bg_color)
        .corner_radius(8.0)
        .inner_margin(14.0)
        .show(ui, |ui| {
            ui.set_width(width);
            ui.vertical(add);
        });
}

/// What the friend card asked for.
#[derive(Default)]
struct Friend {
    host: bool,
    join: bool,
    /// The public network's switch was turned.
    public: bool,
    /// The invite of a LAN table chosen to join.
    lan: Option<String>,
}

/// A large button of the home screen, at least `width` wide.
fn big_button(text: String, width: f32) -> egui::Button<'static> {
    egui::Button::new(RichText::new(text).size(18.0)).min_size(egui::Vec2::new(width, 40.0))
}

/// A peer id as a person reads it: its last few characters (the whole on hover).
fn short_peer(peer: &str) -> String {
    let tail: String = peer
        .chars()
        .rev()
        .take(6)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if tail.len() < peer.len() {
        format!("…{tail}")
    } else {
        tail
    }
}

/// A copy button (its message `id`) that copies `text`, and "Copied!" beside it once
/// it did, on the same row (nothing below moves).
fn copy_row(ui: &mut egui::Ui, t: &Text, id: &'static str, text: &str) {
    let copied = egui::Id::new(("copied", id));
    ui.horizontal(|ui| {
        if ui.button(t.get(id)).clicked() {
            ui.ctx().copy_text(text.to_owned());
            ui.ctx().data_mut(|d| d.insert_temp(copied, true));
        }
        if ui
            .ctx()
            .data(|d| d.get_temp::<bool>(copied))
            .unwrap_or(false)
        {
            ui.label(t.get("friend-copied"));
        }
    });
}
