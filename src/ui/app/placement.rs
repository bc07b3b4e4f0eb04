//! The placement screen: the fleet placed by hand or automatically, the dock of
//! ships, Start or Ready.

use egui::{Color32, Id, Key};

use super::super::board::{self, Look, Overlay};
use super::super::draft::Problem;
use super::super::i18n::{Arg, Text};
use super::{Play, cell_name, columns, look_name};
use crate::driver::{Command, Millis};
use crate::rules::{CellSet, Coord, Dir, Seat};

impl Play {
    pub(super) fn placement(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        self.placement_keys(ui);
        ui.heading(t.get("placement-title"));
        ui.label(t.get("placement-help"));
        let size = self.draft.spec().size();
        let cell = board_cell(ui, size.side());
        let side = f32::from(size.side());
        let width = cell * (side + 0.8) + cell / 2.0 + DOCK + 2.0 * ui.spacing().item_spacing.x;
        super::centre::centred(ui, width, |ui| {
            ui.vertical(|ui| self.placement_board(ui, cell, t));
            ui.add_space(cell / 2.0);
            ui.vertical(|ui| {
                ui.set_max_width(DOCK);
                self.dock(ui, now, t);
            });
        });
    }

    /// This side's fleet is in and the game not started: the fleet stays on screen,
    /// with what the table waits for.
    pub(super) fn waiting(&self, ui: &mut egui::Ui, t: &Text) {
        let session = self.driver.session();
        let waits_for_host =
            session.seat() == Seat::Guest && matches!(self.driver, super::Driver::Remote(_));
        ui.heading(t.get("placement-fleet-in"));
        ui.label(t.get(if waits_for_host {
            "placement-waiting-host"
        } else {
            "placement-waiting"
        }));
        let variant = self.variant();
        let size = variant.size();
        let decks = session
            .fleet()
            .map_or(CellSet::EMPTY, crate::rules::Fleet::decks);
        let look = |c: Coord| {
            if decks.contains(c) {
                Look::Ship
            } else {
                Look::Sea
            }
        };
        let own = t.get("board-own");
        let cell = board_cell(ui, size.side());
        let width = cell * (f32::from(size.side()) + 0.8);
        super::centre::centred(ui, width, |ui| {
            board::show(
                ui,
                &board::Sheet {
                    id: Id::new("placement"),
                    size,
                    cell,
                    columns: columns(t, variant),
                    hulls: board::Hulls::Own,
                    look: &look,
                    overlays: &[],
                    label: &|c| own_label(t, variant, &own, c, look(c)),
                },
            )
        });
    }

    pub(super) fn placement_keys(&mut self, ui: &egui::Ui) {
        if ui.input(|i| i.key_pressed(Key::R)) {
            self.turn();
        }
    }

    pub(super) fn turn(&mut self) {
        self.dir = match self.dir {
            Dir::Across => Dir::Down,
            Dir::Down => Dir::Across,
        };
    }

    pub(super) fn placement_board(&mut self, ui: &mut egui::Ui, cell: f32, t: &Text) {
        let size = self.draft.spec().size();
        let decks = self.draft.decks();
        let mut overlays = Vec::new();
        let hovered = ui.input(|i| i.pointer.hover_pos()).is_some();
        // The ghost of the ship in hand, where the pointer is.
        let ghost_at = ui
            .ctx()
            .data(|d| d.get_temp::<(u8, u8)>(Id::new("ghost")))
            .and_then(|(c, r)| Coord::new(c, r));
        self.problem = None;
        if let (Some((slot, _)), Some(at), true) = (self.holding, ghost_at, hovered)
            && let Some(ship) = self
                .bow_for(at)
                .and_then(|bow| self.draft.candidate(slot, bow, self.dir))
        {
            match self.draft.check(slot, ship) {
                Ok(mask) => overlays.extend(mask.iter().map(|c| (c, Overlay::Fits))),
                Err(problem) => {
                    self.problem = Some(problem);
                    let cells = ship.mask(size).unwrap_or_else(|| {
                        let mut only = CellSet::EMPTY;
                        only.insert(at);
                        only
                    });
                    overlays.extend(cells.iter().map(|c| (c, Overlay::Refused)));
                }
            }
        }
        let own = t.get("board-own");
        let look = |c: Coord| {
            if decks.contains(c) {
                Look::Ship
            } else {
                Look::Sea
            }
        };
        let variant = self.variant();
        let gesture = board::show(
            ui,
            &board::Sheet {
                id: Id::new("placement"),
                size,
                cell,
                columns: columns(t, variant),
                hulls: board::Hulls::Own,
                look: &look,
                overlays: &overlays,
                label: &|c| own_label(t, variant, &own, c, look(c)),
            },
        );
        ui.ctx().data_mut(|d| match gesture.hovered {
            Some(c) => {
                d.insert_temp(Id::new("ghost"), (c.col(), c.row()));
            }
            None => d.remove::<(u8, u8)>(Id::new("ghost")),
        });
        self.placement_gesture(gesture);
        if let Some(problem) = self.problem {
            let id = match problem {
                Problem::OffBoard => "problem-off-board",
                Problem::Overlap => "problem-overlap",
                Problem::Touch => "problem-touch",
            };
            ui.colored_label(Color32::from_rgb(240, 120, 110), t.get(id));
        }
    }

    pub(super) fn placement_gesture(&mut self, gesture: board::Gesture) {
        if gesture.clicked.is_some() || gesture.drag_started.is_some() {
            self.placing_note = None;
        }
        if gesture.secondary.is_some() {
            self.turn();
        }
        if let Some(c) = gesture.drag_started
            && let Some(slot) = self.draft.slot_at(c)
        {
            self.put_back();
            self.lift(slot);
            // The ship stays under the pointer by the deck it was grabbed by.
            if let Some((_, Some(ship))) = self.holding {
                let bow = ship.bow();
                self.grab = match ship.dir() {
                    Dir::Across => c.col() - bow.col(),
                    Dir::Down => c.row() - bow.row(),
                };
            }
            self.dragging = true;
            return;
        }
        if self.dragging {
            if let Some(c) = gesture.released {
                self.dragging = false;
                if !self.put(c) {
                    self.put_back();
                }
            }
            return;
        }
        if let Some(c) = gesture.clicked {
            if self.holding.is_some() && self.put(c) {
                return;
            }
            if let Some(slot) = self.draft.slot_at(c) {
                self.put_back();
                self.lift(slot);
            }
        }
    }

    /// Takes slot `slot`'s ship off the board into the hand.
    pub(super) fn lift(&mut self, slot: usize) {
        self.grab = 0;
        let lifted = self.draft.lift(slot);
        if let Some(ship) = lifted {
            self.dir = ship.dir();
        }
        self.holding = Some((slot, lifted));
    }

    /// Puts the ship in hand at `c` if it may lie there; the next docked ship is then
    /// in hand.
    pub(super) fn put(&mut self, c: Coord) -> bool {
        let Some((slot, _)) = self.holding else {
            return false;
        };
        let Some(ship) = self
            .bow_for(c)
            .and_then(|bow| self.draft.candidate(slot, bow, self.dir))
        else {
            return false;
        };
        if self.draft.place(slot, ship).is_err() {
            return false;
        }
        self.holding = self.draft.next_free().map(|s| (s, None));
        self.grab = 0;
        true
    }

    /// Where the bow of the ship in hand goes when the pointer is on `at` (the deck
    /// it was grabbed by is under the pointer); none if it would be off the board.
    fn bow_for(&self, at: Coord) -> Option<Coord> {
        match self.dir {
            Dir::Across => Coord::new(at.col().checked_sub(self.grab)?, at.row()),
            Dir::Down => Coord::new(at.col(), at.row().checked_sub(self.grab)?),
        }
    }

    /// A lifted ship goes back where it lay.
    pub(super) fn put_back(&mut self) {
        self.grab = 0;
        if let Some((slot, Some(ship))) = self.holding {
            let _ = self.draft.place(slot, ship);
            self.holding = self.draft.next_free().map(|s| (s, None));
        }
    }

    /// Puts a lifted ship back if the player let go of it off the board.
    pub(super) fn settle_drag(&mut self, ui: &egui::Ui) {
        if self.dragging && ui.input(|i| i.pointer.any_released()) {
            self.dragging = false;
            self.put_back();
        }
    }

    pub(super) fn dock(&mut self, ui: &mut egui::Ui, now: Millis, t: &Text) {
        self.settle_drag(ui);
        let lengths: Vec<u8> = self.draft.lengths().to_vec();
        let left = (0..lengths.len())
            .filter(|s| self.draft.ship(*s).is_none())
            .count();
        // One line whatever is left, and the buttons under it: nothing here moves as
        // ships leave the dock (its list is below them).
        if left == 0 {
            ui.label(t.get("placement-ready"));
        } else {
            ui.label(t.with("placement-left", &[("count", Arg::from(left))]));
        }
        ui.add_space(8.0);
        if ui.button(t.get("placement-rotate")).clicked() {
            self.turn();
        }
        let auto = if self.draft.partly_placed() {
            "placement-auto-rest"
        } else {
            "placement-auto"
        };
        if ui.button(t.get(auto)).clicked() {
            if self.draft.place_rest(&mut rand::rng()) {
                self.holding = None;
                self.placing_note = None;
            } else {
                self.placing_note = Some("placement-no-room");
            }
        }
        if ui.button(t.get("placement-clear")).clicked() {
            self.draft.clear();
            self.holding = Some((0, None));
            self.placing_note = None;
        }
        ui.add_space(8.0);
        let fleet = self.draft.fleet();
        let me = self.driver.session().seat();
        // The host's Start waits for the guest's Ready (its committed fleet). Against
        // the computer the person starts the game from either seat: a computer that
        // hosts starts it as soon as the person's fleet is in.
        let starts = me == Seat::Host || matches!(self.driver, super::Driver::Local(_));
        let other_ready = self.driver.session().table().committed(me.other());
        if starts {
            if let Some(mut timer) = self.timer_switch()
                && ui.checkbox(&mut timer, t.get("placement-timer")).changed()
            {
                let _ = self.driver.command(now, Command::Timer(timer));
            }
            ui.label(t.get(if other_ready {
                "placement-other-ready"
            } else {
                "placement-other-placing"
            }));
        }
        let label = t.get(if starts {
            "placement-start"
        } else {
            "placement-ready-button"
        });
        let open = !self.friend_table_over();
        let start = ui.add_enabled(
            fleet.is_some() && (!starts || other_ready) && open,
            egui::Button::new(egui::RichText::new(label).size(18.0).strong())
                .min_size(egui::vec2(180.0, 36.0))
                .fill(crate::ui::palette::PRIMARY),
        );
        if start.clicked()
            && let Some(fleet) = fleet
            && self.driver.command(now, Command::Place(fleet)).is_ok()
        {
            self.holding = None;
            self.start_when_ready(now);
        }
        if let Some(note) = self.placing_note {
            ui.colored_label(Color32::from_rgb(240, 120, 110), t.get(note));
        }
        ui.add_space(8.0);
        for (slot, len) in lengths.iter().enumerate() {
            if self.draft.ship(slot).is_some() {
                continue;
            }
            let held = self.holding.is_some_and(|(s, _)| s == slot);
            let label = t.with("dock-ship", &[("len", Arg::from(u32::from(*len)))]);
            let blocks = "■".repeat(usize::from(*len));
            let response = ui
                .add(egui::Button::selectable(held, format!("{blocks}  {label}")))
                .interact(egui::Sense::drag());
            if response.clicked() {
                self.holding = Some((slot, None));
            }
            if response.drag_started() {
                self.holding = Some((slot, None));
                self.dragging = true;
            }
        }
    }
}

/// The dock's width beside the board.
const DOCK: f32 = 260.0;

/// The placement board's cell: one board and the dock beside it share the width,
/// and the board fits the height left under the heading.
fn board_cell(ui: &egui::Ui, side: u8) -> f32 {
    let board = f32::from(side) + 1.3;
    let by_width = (ui.available_width() - DOCK - 40.0) / board;
    let by_height = (ui.available_height() - 40.0) / board;
    by_width.min(by_height).clamp(22.0, 52.0).floor()
}

/// An own-board cell's name for screen readers and the tests: board, cell, look.
fn own_label(t: &Text, variant: crate::rules::Variant, own: &str, c: Coord, look: Look) -> String {
    t.with(
        "cell-label",
        &[
            ("board", Arg::from(own)),
            ("cell", Arg::from(cell_name(t, variant, c))),
            ("state", Arg::from(look_name(t, look))),
        ],
    )
}
