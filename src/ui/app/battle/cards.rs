//! The weapon cards under the boards: each tool a card with its drawing, its name, how many are left and its key, one row that never moves.

use egui::{Color32, Pos2, Rect, Response, Sense, Stroke, Vec2};

use super::super::super::i18n::{Arg, Text};
use super::super::super::palette;
use super::super::{Play, Tool, arrow};
use super::{next_heading, tool_tip};
use crate::rules::{Game, Weapon};

/// A card's height; its width shares the row between the four cards.
const HEIGHT: f32 = 50.0;
const GAP: f32 = 8.0;

impl Play {
    pub(super) fn weapon_cards(&mut self, ui: &mut egui::Ui, t: &Text, game: &Game) {
        let stock = game.stock(self.driver.session().seat());
        let tools = [
            (Tool::Shot, "card-shot", None, "weapon-shot"),
            (
                Tool::Weapon(Weapon::Torpedo),
                "card-torpedo",
                Some(stock.torpedoes),
                "weapon-torpedo",
            ),
            (
                Tool::Weapon(Weapon::AirStrike),
                "card-air",
                Some(stock.air_strikes),
                "weapon-air",
            ),
            (
                Tool::Weapon(Weapon::Radar),
                "card-radar",
                Some(stock.radars),
                "weapon-radar",
            ),
        ];
        // The torpedo's heading has its own place at the row's end, kept while
        // another tool is chosen: choosing the torpedo moves nothing.
        let heading_width = 150.0;
        let width = ((ui.available_width() - heading_width - 4.0 * GAP) / 4.0).clamp(96.0, 150.0);
        let row = 4.0 * (width + GAP) + heading_width;
        super::super::centre::centred(ui, row, |ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            for (key, (tool, name, left, label)) in (1u8..).zip(tools) {
                let label = match left {
                    None => t.get(label),
                    Some(n) => t.with(label, &[("left", Arg::from(u32::from(n)))]),
                };
                let card = Card {
                    tool,
                    name: t.get(name),
                    left,
                    key,
                    selected: self.tool == tool,
                };
                let tip = tool_tip(t, tool, stock);
                let response = card
                    .show(ui, width, &label)
                    .on_hover_text(&tip)
                    .on_disabled_hover_text(&tip);
                if response.clicked() {
                    self.tool = tool;
                }
            }
            let (rect, _) =
                ui.allocate_exact_size(Vec2::new(heading_width, HEIGHT), Sense::hover());
            if self.tool == Tool::Weapon(Weapon::Torpedo) {
                let arrow = [("arrow", Arg::from(arrow(t, self.heading)))];
                let lines = [t.with("heading-way", &arrow), t.get("heading-key")];
                let label = t.with("heading", &arrow);
                if heading_button(ui, rect, &lines, &label).clicked() {
                    self.heading = next_heading(self.heading);
                }
            }
        });
    }
}

/// The torpedo's heading as a button of two lines, where it runs over which key
/// turns it, so neither breaks mid-phrase; `label` is its one-line name for screen
/// readers and the tests.
fn heading_button(ui: &mut egui::Ui, rect: Rect, lines: &[String; 2], label: &str) -> Response {
    let response = ui.allocate_rect(rect.shrink2(Vec2::new(0.0, 4.0)), Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, label));
    if !ui.is_rect_visible(response.rect) {
        return response;
    }
    let visuals = ui.style().interact(&response);
    let rect = response.rect;
    ui.painter().rect(
        rect,
        visuals.corner_radius,
        visuals.weak_bg_fill,
        visuals.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let font = egui::TextStyle::Body.resolve(ui.style());
    let colours = [visuals.text_color(), ui.visuals().weak_text_color()];
    let centre = rect.center();
    let offsets = [-8.0, 10.0];
    for (line, (colour, dy)) in lines.iter().zip(colours.into_iter().zip(offsets)) {
        let galley = ui
            .painter()
            .layout_no_wrap(line.clone(), font.clone(), colour);
        // Centred; a line wider than the button (none in the three languages) is
        // clipped at its edge, never drawn over the next widget.
        let at = Pos2::new(
            centre.x - galley.size().x.min(rect.width() - 8.0) / 2.0,
            centre.y + dy - galley.size().y / 2.0,
        );
        ui.painter()
            .with_clip_rect(rect.shrink(2.0))
            .galley(at, galley, colour);
    }
    response
}

/// One tool as a card.
struct Card {
    tool: Tool,
    name: String,
    /// How many are left; none for the shot, which never runs out.
    left: Option<u8>,
    key: u8,
    selected: bool,
}

impl Card {
    /// Draws the card; `label` is its name for screen readers and the tests.
    fn show(&self, ui: &mut egui::Ui, width: f32, label: &str) -> Response {
        let enabled = self.left != Some(0);
        let sense = if enabled {
            Sense::click()
        } else {
            Sense::hover()
        };
        let (rect, response) = ui.allocate_exact_size(Vec2::new(width, HEIGHT), sense);
        response.widget_info(|| {
            egui::WidgetInfo::selected(egui::WidgetType::Button, enabled, self.selected, label)
        });
        if !ui.is_rect_visible(rect) {
            return response;
        }
        let visuals = ui.visuals();
        let (fill, edge) = if self.selected {
            (
                Color32::from_rgb(24, 64, 96),
                Stroke::new(2.0, palette::AIM),
            )
        } else if response.hovered() {
            (
                visuals.widgets.hovered.weak_bg_fill,
                visuals.widgets.hovered.bg_stroke,
            )
        } else {
            (
                visuals.widgets.inactive.weak_bg_fill,
                Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
            )
        };
        let fade = if enabled { 1.0 } else { 0.35 };
        let painter = ui.painter();
        painter.rect(
            rect,
            6.0,
            fill.gamma_multiply(fade),
            edge,
            egui::StrokeKind::Inside,
        );
        let text = visuals.text_color().gamma_multiply(fade);
        let icon = Rect::from_center_size(
            Pos2::new(rect.left() + 24.0, rect.center().y),
            Vec2::splat(30.0),
        );
        paint_icon(painter, icon, self.tool, text);
        let x = icon.right() + 8.0;
        let font = egui::FontId::proportional(15.0);
        painter.text(
            Pos2::new(x, rect.top() + 8.0),
            egui::Align2::LEFT_TOP,
            &self.name,
            font,
            text,
        );
        if let Some(left) = self.left {
            painter.text(
                Pos2::new(x, rect.bottom() - 7.0),
                egui::Align2::LEFT_BOTTOM,
                format!("×{left}"),
                egui::FontId::proportional(14.0),
                if left > 0 {
                    palette::AIM.gamma_multiply(fade)
                } else {
                    text
                },
            );
        }
        // The key, in a small box at the card's corner.
        let key = Rect::from_min_size(
            Pos2::new(rect.right() - 20.0, rect.bottom() - 20.0),
            Vec2::splat(14.0),
        );
        painter.rect_stroke(
            key,
            3.0,
            Stroke::new(1.0, text.gamma_multiply(0.7)),
            egui::StrokeKind::Inside,
        );
        painter.text(
            key.center(),
            egui::Align2::CENTER_CENTER,
            self.key.to_string(),
            egui::FontId::monospace(11.0),
            text,
        );
        response
    }
}

/// Each tool's drawing in `rect`: a sight for the shot, a torpedo under way, an
/// aircraft from above, a radar's sweep.
fn paint_icon(painter: &egui::Painter, rect: Rect, tool: Tool, colour: Color32) {
    let c = rect.center();
    let r = rect.width() / 2.0;
    let line = Stroke::new(2.0, colour);
    match tool {
        Tool::Shot => {
            painter.circle_stroke(c, r * 0.6, line);
            for (dx, dy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
                let d = Vec2::new(dx, dy);
                painter.line_segment([c + d * r * 0.35, c + d * r], line);
            }
        }
        Tool::Weapon(Weapon::Torpedo) => {
            let body =
                Rect::from_center_size(c + Vec2::new(r * 0.15, 0.0), Vec2::new(r * 1.4, r * 0.45));
            painter.rect_filled(body, r * 0.22, colour);
            let tail = body.left();
            painter.add(egui::Shape::convex_polygon(
                vec![
                    Pos2::new(tail + 2.0, c.y),
                    Pos2::new(tail - r * 0.3, c.y - r * 0.35),
                    Pos2::new(tail - r * 0.3, c.y + r * 0.35),
                ],
                colour,
                Stroke::NONE,
            ));
            // The wake behind it.
            let wake = Stroke::new(1.0, colour.gamma_multiply(0.6));
            for dy in [-0.45, 0.45] {
                painter.line_segment(
                    [
                        Pos2::new(tail - r * 0.95, c.y + dy * r),
                        Pos2::new(tail - r * 0.4, c.y + dy * r * 0.6),
                    ],
                    wake,
                );
            }
        }
        Tool::Weapon(Weapon::AirStrike) => {
            // Nose at the top: fuselage, wings, tailplane.
            let p = |x: f32, y: f32| c + Vec2::new(x * r, y * r);
            painter.add(egui::Shape::convex_polygon(
                vec![
                    p(0.0, -0.95),
                    p(0.14, -0.6),
                    p(0.14, 0.8),
                    p(-0.14, 0.8),
                    p(-0.14, -0.6),
                ],
                colour,
                Stroke::NONE,
            ));
            painter.add(egui::Shape::convex_polygon(
                vec![
                    p(0.0, -0.3),
                    p(0.95, 0.15),
                    p(0.95, 0.3),
                    p(0.0, 0.1),
                    p(-0.95, 0.3),
                    p(-0.95, 0.15),
                ],
                colour,
                Stroke::NONE,
            ));
            painter.add(egui::Shape::convex_polygon(
                vec![
                    p(0.0, 0.6),
                    p(0.4, 0.85),
                    p(0.4, 0.95),
                    p(-0.4, 0.95),
                    p(-0.4, 0.85),
                ],
                colour,
                Stroke::NONE,
            ));
        }
        Tool::Weapon(Weapon::Radar) => {
            let base = c + Vec2::new(-r * 0.6, r * 0.6);
            painter.circle_filled(base, 3.0, colour);
            for k in [0.55_f32, 1.0, 1.45] {
                let arc: Vec<Pos2> = (0..=8u8)
                    .map(|i| {
                        let a = -std::f32::consts::FRAC_PI_2 * (f32::from(i) / 8.0);
                        base + Vec2::new(a.cos(), a.sin()) * r * k
                    })
                    .collect();
                painter.add(egui::Shape::line(arc, line));
            }
        }
    }
}
