//! Drawing a board as a sea: deep water where nothing is known, shallow water where
//! it is, ships as hulls across their decks, fires on hits, splashes on misses,
//! wrecks with their ring; overlays (aim previews, radar, a running animation's
//! torpedo, aircraft, shells and sweep); and each cell as a control of its own (so
//! screen readers and the tests can name it).

use egui::{Align2, Color32, FontId, Id, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2};

use super::palette::{DEEP, DEEP_WAVE, KNOWN, OWN_SEA, SEA_LINE, SPLASH};
use crate::rules::{BoardSize, Coord, Heading};

/// How one cell looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Nothing known.
    Unknown,
    /// Open sea on the player's own board.
    Sea,
    /// One of the player's own decks, afloat.
    Ship,
    /// Water that was fired at, or a sunk ship's ring.
    Miss,
    /// A deck hit, its ship afloat.
    Hit,
    /// A deck of a sunk ship.
    Wreck,
}

/// A mark drawn over a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// Where an aimed action would land.
    Aim,
    /// Where it may not be aimed.
    Refused,
    /// A ship being placed that fits.
    Fits,
    /// A radar sweep's square (faint outline).
    Swept,
    /// The radar shows a deck here.
    RadarDeck,
    /// The radar shows water here.
    RadarWater,
    /// A shell falling on this cell, `0..=255` of the way down.
    Shell(u8),
    /// The foam a torpedo left running through this cell.
    Wake(Heading),
    /// The torpedo itself, `0..=255` of the way across this cell.
    Torpedo(Heading, u8),
    /// The aircraft over the 3×3 square centred here, `0..=255` of the way across.
    Plane(u8),
    /// The radar sweeping the 3×3 square centred here, its beam at `0..=255` of a turn.
    Sweep(u8),
    /// A cell the last action touched, once its animation is over.
    Last,
    /// An air-strike shell that fell on a cell already marked: lost.
    Lost,
    /// Where a torpedo enters the board, and the way it runs.
    Arrow(Heading),
    /// The keyboard cursor.
    Cursor,
}

/// What the player did with the board this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gesture {
    /// The cell under the pointer.
    pub hovered: Option<Coord>,
    /// A cell clicked with the primary button (or activated by a screen reader).
    pub clicked: Option<Coord>,
    /// A cell clicked with the secondary button.
    pub secondary: Option<Coord>,
    /// A drag started on this cell.
    pub drag_started: Option<Coord>,
    /// The pointer was released over this cell (the end of a drag).
    pub released: Option<Coord>,
}

/// Whose ships a board's hulls are, which decides their colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hulls {
    /// The player's own fleet (its hits are decks of known hulls).
    Own,
    /// The enemy's: only sunk ships have a known shape, and, once `revealed` at the
    /// end, its whole fleet.
    Enemy { revealed: bool },
}

/// Column letters: A–L, and in Russian classic mode А–М without Й (the classic
/// Russian board's own letters).
pub const LATIN: [char; 12] = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'];
pub const CYRILLIC: [char; 12] = ['А', 'Б', 'В', 'Г', 'Д', 'Е', 'Ж', 'З', 'И', 'К', 'Л', 'М'];

/// One board to draw.
pub struct Sheet<'a> {
    pub id: Id,
    pub size: BoardSize,
    /// A cell's width in points.
    pub cell: f32,
    /// The letters along the top edge.
    pub columns: &'a [char; 12],
    pub hulls: Hulls,
    /// How each cell looks.
    pub look: &'a dyn Fn(Coord) -> Look,
    /// What lies over the cells.
    pub overlays: &'a [(Coord, Overlay)],
    /// A cell's name for screen readers.
    pub label: &'a dyn Fn(Coord) -> String,
}

/// Draws a board as [`Sheet`] says; what the player did with it.
pub fn show(ui: &mut egui::Ui, sheet: &Sheet<'_>) -> Gesture {
    let Sheet {
        id,
        size,
        cell,
        columns,
        hulls,
        look,
        overlays,
        label,
    } = *sheet;
    let side = f32::from(size.side());
    let margin = cell * 0.8;
    let (outer, _) = ui.allocate_exact_size(
        Vec2::new(margin + side * cell, margin + side * cell),
        Sense::hover(),
    );
    let origin = outer.min + Vec2::splat(margin);
    let rect_of = |c: Coord| {
        Rect::from_min_size(
            origin + Vec2::new(f32::from(c.col()) * cell, f32::from(c.row()) * cell),
            Vec2::splat(cell),
        )
    };
    let painter = ui.painter_at(outer.expand(2.0));
    let text = ui.visuals().text_color();
    let font = FontId::proportional(cell * 0.42);
    for i in 0..size.side() {
        let x = origin.x + (f32::from(i) + 0.5) * cell;
        let y = origin.y + (f32::from(i) + 0.5) * cell;
        painter.text(
            Pos2::new(x, outer.min.y + margin * 0.5),
            Align2::CENTER_CENTER,
            columns[usize::from(i)].to_string(),
            font.clone(),
            text,
        );
        painter.text(
            Pos2::new(outer.min.x + margin * 0.5, y),
            Align2::CENTER_CENTER,
            (i + 1).to_string(),
            font.clone(),
            text,
        );
    }
    let mut gesture = Gesture::default();
    let pointer = ui.input(|i| i.pointer.hover_pos());
    let released = ui.input(|i| i.pointer.primary_released());
    let looks: Vec<(Coord, Look)> = size.cells().map(|c| (c, look(c))).collect();
    for &(c, l) in &looks {
        let rect = rect_of(c);
        let response = ui.interact(rect, id.with((c.col(), c.row())), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Button, true, label(c)));
        if response.clicked() {
            gesture.clicked = Some(c);
        }
        if response.secondary_clicked() {
            gesture.secondary = Some(c);
        }
        if response.drag_started() {
            gesture.drag_started = Some(c);
        }
        if pointer.is_some_and(|p| rect.contains(p)) {
            gesture.hovered = Some(c);
            if released {
                gesture.released = Some(c);
            }
        }
        paint_water(&painter, rect, l);
    }
    for ship in ships(&looks, size, hulls) {
        let first = rect_of(ship.first);
        let span = first.union(rect_of(ship.last));
        if ship.sunk {
            // The ring around a sunk ship: no ship can be there.
            let ring = span
                .expand(cell)
                .intersect(Rect::from_min_size(origin, Vec2::splat(side * cell)))
                .shrink(2.0);
            let stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(200, 220, 240, 110));
            let corners = [
                ring.left_top(),
                ring.right_top(),
                ring.right_bottom(),
                ring.left_bottom(),
                ring.left_top(),
            ];
            painter.extend(Shape::dashed_line(&corners, stroke, 4.0, 3.0));
        }
        paint_hull(&painter, span, ship.across, ship.len, ship.colour);
    }
    for &(c, l) in &looks {
        paint_mark(&painter, rect_of(c), l);
    }
    for (c, overlay) in overlays {
        paint_overlay(&painter, rect_of(*c), *overlay);
    }
    paint_ghost(&painter, overlays, rect_of);
    let board = Rect::from_min_size(origin, Vec2::splat(side * cell));
    painter.rect_stroke(board, 0.0, Stroke::new(1.5, SEA_LINE), StrokeKind::Outside);
    gesture
}

/// The ship in hand where it would go, as the hull it will be: the cells marked
/// [`Overlay::Fits`] (one straight run, the draft's candidate).
fn paint_ghost(
    painter: &egui::Painter,
    overlays: &[(Coord, Overlay)],
    rect_of: impl Fn(Coord) -> Rect,
) {
    let mut fits = overlays
        .iter()
        .filter(|(_, o)| *o == Overlay::Fits)
        .map(|(c, _)| *c);
    let Some(first) = fits.next() else { return };
    let (mut span, mut len, mut across) = (rect_of(first), 1u8, true);
    for c in fits {
        span = span.union(rect_of(c));
        len = len.saturating_add(1);
        across &= c.row() == first.row();
    }
    paint_hull(painter, span, across, len, HullColour::Ghost);
}

/// How a hull is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HullColour {
    Own,
    Enemy,
    Wreck,
    /// The ship in hand while it is placed.
    Ghost,
}

/// A ship whose shape the board shows: its end cells.
#[derive(Clone, Copy, Debug)]
struct Drawn {
    first: Coord,
    last: Coord,
    len: u8,
    across: bool,
    sunk: bool,
    colour: HullColour,
}

/// The ships a board shows as hulls, found from the looks: ships never touch, so
/// each straight run of decks side by side is one ship. On the enemy's board a hit
/// deck has no known ship around it (a hull there would claim a shape nobody
/// knows) unless the fleet was revealed.
fn ships(looks: &[(Coord, Look)], size: BoardSize, hulls: Hulls) -> Vec<Drawn> {
    let side = usize::from(size.side());
    let at = |col: u8, row: u8| looks[usize::from(row) * side + usize::from(col)].1;
    let deck = |l: Look| match l {
        Look::Ship | Look::Wreck => true,
        Look::Hit => matches!(hulls, Hulls::Own | Hulls::Enemy { revealed: true }),
        _ => false,
    };
    let mut seen = vec![false; looks.len()];
    let mut drawn = Vec::new();
    for &(c, l) in looks {
        let index = usize::from(c.row()) * side + usize::from(c.col());
        if seen[index] || !deck(l) {
            continue;
        }
        // A ship's first deck is its top-left one: run right, or down.
        let run = |dc: u8, dr: u8| {
            let mut cells = vec![c];
            let (mut col, mut row) = (c.col() + dc, c.row() + dr);
            while col < size.side() && row < size.side() && deck(at(col, row)) {
                cells.push(Coord::new(col, row).unwrap_or(c));
                col += dc;
                row += dr;
            }
            cells
        };
        let right = run(1, 0);
        let cells = if right.len() > 1 { right } else { run(0, 1) };
        for d in &cells {
            seen[usize::from(d.row()) * side + usize::from(d.col())] = true;
        }
        let sunk = cells.iter().all(|d| at(d.col(), d.row()) == Look::Wreck);
        let colour = match (sunk, hulls) {
            (true, _) => HullColour::Wreck,
            (false, Hulls::Own) => HullColour::Own,
            (false, Hulls::Enemy { .. }) => HullColour::Enemy,
        };
        drawn.push(Drawn {
            first: c,
            last: *cells.last().unwrap_or(&c),
            len: u8::try_from(cells.len()).unwrap_or(u8::MAX),
            across: cells.len() > 1 && cells[1].row() == c.row(),
            sunk,
            colour,
        });
    }
    drawn
}

/// The home screen's banner: open sea with a swell, a squadron under way, and
/// `title` over it.
pub fn banner(ui: &mut egui::Ui, title: &str, tagline: &str) {
    let height = 112.0;
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::WidgetType::Label, true, format!("{title}: {tagline}"))
    });
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 6.0, DEEP);
    // Rows of swell, staggered: the sea's texture at a glance.
    let wave = 22.0;
    let rows = (height / 14.0) as usize;
    for row in 0..rows {
        let y = rect.min.y + 10.0 + row as f32 * 14.0;
        let shift = if row % 2 == 0 { 0.0 } else { wave / 2.0 };
        let mut x = rect.min.x + shift - wave;
        while x < rect.max.x {
            let points = [
                Pos2::new(x, y),
                Pos2::new(x + wave * 0.25, y - 2.0),
                Pos2::new(x + wave * 0.5, y),
            ];
            painter.line(points.to_vec(), Stroke::new(1.0, DEEP_WAVE));
            x += wave;
        }
    }
    // A squadron sailing right, bows ahead, at the banner's right.
    let cell = 26.0;
    for (len, col, row) in [
        (4u8, 5.5f32, 0.6f32),
        (3, 10.5, 1.6),
        (2, 6.8, 2.5),
        (1, 12.0, 0.3),
    ] {
        let min = Pos2::new(
            rect.max.x - col * cell - 30.0,
            rect.min.y + 8.0 + row * cell,
        );
        let span = Rect::from_min_size(min, Vec2::new(f32::from(len) * cell, cell));
        paint_hull(&painter, span, true, len, HullColour::Own);
        // A wake behind each stern.
        painter.line_segment(
            [
                span.left_center() - Vec2::new(cell * 1.2, 0.0),
                span.left_center(),
            ],
            Stroke::new(1.5, Color32::from_rgba_unmultiplied(215, 235, 250, 70)),
        );
    }
    painter.text(
        rect.left_top() + Vec2::new(20.0, 22.0),
        Align2::LEFT_TOP,
        title,
        FontId::proportional(40.0),
        Color32::from_rgb(235, 242, 250),
    );
    painter.text(
        rect.left_top() + Vec2::new(22.0, 74.0),
        Align2::LEFT_TOP,
        tagline,
        FontId::proportional(15.0),
        Color32::from_rgb(180, 204, 228),
    );
}

/// One cell as the boards draw it, without hulls (for the rules' diagrams): its
/// water and what happened there.
pub fn paint_look(painter: &egui::Painter, rect: Rect, look: Look) {
    paint_water(painter, rect, look);
    if look == Look::Ship {
        // A deck on its own: the hull's colour, filling the cell's middle.
        painter.rect_filled(
            rect.shrink(rect.width() * 0.16),
            rect.width() * 0.2,
            Color32::from_rgb(148, 160, 176),
        );
    }
    paint_mark(painter, rect, look);
}

fn paint_water(painter: &egui::Painter, rect: Rect, look: Look) {
    let inner = rect.shrink(0.5);
    let fill = match look {
        Look::Unknown => DEEP,
        Look::Miss => KNOWN,
        Look::Sea | Look::Ship | Look::Hit | Look::Wreck => OWN_SEA,
    };
    painter.rect_filled(inner, 1.0, fill);
    if look == Look::Unknown {
        // A swell on unknown water: one low wave per cell.
        let w = rect.width();
        let y = rect.center().y + w * 0.08;
        let points = [
            Pos2::new(rect.min.x + w * 0.22, y),
            Pos2::new(rect.min.x + w * 0.38, y - w * 0.09),
            Pos2::new(rect.min.x + w * 0.54, y),
            Pos2::new(rect.min.x + w * 0.70, y - w * 0.09),
        ];
        painter.add(Shape::line(points.to_vec(), Stroke::new(1.0, DEEP_WAVE)));
    }
}

/// A hull over `span` (its decks' rectangle): a pointed bow at the right or top end,
/// a rounded stern, and a turret on each deck.
fn paint_hull(painter: &egui::Painter, span: Rect, across: bool, len: u8, colour: HullColour) {
    let (fill, edge, detail) = match colour {
        HullColour::Own => (
            Color32::from_rgb(148, 160, 176),
            Color32::from_rgb(222, 230, 240),
            Color32::from_rgb(92, 104, 120),
        ),
        HullColour::Enemy => (
            Color32::from_rgb(178, 118, 70),
            Color32::from_rgb(240, 196, 150),
            Color32::from_rgb(112, 70, 40),
        ),
        HullColour::Wreck => (
            Color32::from_rgb(62, 46, 44),
            Color32::from_rgb(160, 76, 56),
            Color32::from_rgb(36, 26, 26),
        ),
        HullColour::Ghost => (
            Color32::from_rgba_unmultiplied(148, 160, 176, 150),
            Color32::from_rgb(150, 240, 170),
            Color32::from_rgba_unmultiplied(92, 104, 120, 150),
        ),
    };
    // Work as if the ship lay across, bow to the right, then turn the points.
    let (long, short) = if across {
        (span.width(), span.height())
    } else {
        (span.height(), span.width())
    };
    let cell = short;
    let half = cell * 0.30;
    let pad = cell * 0.10;
    let bow = cell * 0.42;
    let stern = cell * 0.14;
    let outline = [
        (pad, -half * 0.75),
        (pad + stern, -half),
        (long - pad - bow, -half),
        (long - pad, 0.0),
        (long - pad - bow, half),
        (pad + stern, half),
        (pad, half * 0.75),
    ];
    let place = |(x, y): (f32, f32)| {
        if across {
            Pos2::new(span.min.x + x, span.center().y + y)
        } else {
            // Bow at the top: the ship's x runs up from the bottom edge.
            Pos2::new(span.center().x + y, span.max.y - x)
        }
    };
    painter.add(Shape::convex_polygon(
        outline.iter().map(|p| place(*p)).collect(),
        fill,
        Stroke::new(1.2, edge),
    ));
    for deck in 0..len {
        // One turret a deck, so a hull's decks can be counted; the bow deck's sits
        // back from the point, where the hull is still wide.
        let x = ((f32::from(deck) + 0.5) * cell).min(long - pad - bow * 0.9);
        painter.circle_filled(
            place((x.max(pad + stern + cell * 0.2), 0.0)),
            cell * 0.11,
            detail,
        );
    }
}

/// What happened on a cell, over its water and hull: a fire on a hit, a splash on
/// a miss, a burnt-out mark on a wreck.
fn paint_mark(painter: &egui::Painter, rect: Rect, look: Look) {
    let c = rect.center();
    let w = rect.width();
    match look {
        Look::Miss => {
            painter.circle_filled(c, w * 0.07, SPLASH);
            painter.circle_stroke(c, w * 0.2, Stroke::new(1.0, SPLASH.gamma_multiply(0.6)));
        }
        Look::Hit => {
            // Flames: an orange tongue with a yellow heart, over the deck's turret.
            // No smoke: a grey puff on a hull reads as a turret knocked out of place.
            let tongue = |scale: f32, colour: Color32| {
                let r = w * 0.2 * scale;
                let base = c + Vec2::new(0.0, w * 0.12);
                painter.circle_filled(base, r, colour);
                painter.add(Shape::convex_polygon(
                    vec![
                        base + Vec2::new(-r, 0.0),
                        base + Vec2::new(0.0, -r * 2.6),
                        base + Vec2::new(r, 0.0),
                    ],
                    colour,
                    Stroke::NONE,
                ));
            };
            tongue(1.0, Color32::from_rgb(240, 110, 30));
            tongue(0.5, Color32::from_rgb(255, 220, 100));
        }
        Look::Wreck => {
            let d = w * 0.2;
            let stroke = Stroke::new(2.0, Color32::from_rgb(200, 90, 60));
            painter.line_segment([c - Vec2::splat(d), c + Vec2::splat(d)], stroke);
            painter.line_segment([c + Vec2::new(-d, d), c + Vec2::new(d, -d)], stroke);
        }
        Look::Unknown | Look::Sea | Look::Ship => {}
    }
}

/// A unit vector the way `heading` runs.
fn ahead(heading: Heading) -> Vec2 {
    match heading {
        Heading::Right => Vec2::new(1.0, 0.0),
        Heading::Left => Vec2::new(-1.0, 0.0),
        Heading::Down => Vec2::new(0.0, 1.0),
        Heading::Up => Vec2::new(0.0, -1.0),
    }
}

fn paint_overlay(painter: &egui::Painter, rect: Rect, overlay: Overlay) {
    let inner = rect.shrink(2.0);
    let c = rect.center();
    let w = rect.width();
    match overlay {
        Overlay::Aim => {
            painter.rect_filled(
                inner,
                2.0,
                Color32::from_rgba_unmultiplied(255, 220, 80, 70),
            );
            painter.rect_stroke(
                inner,
                2.0,
                Stroke::new(1.5, Color32::from_rgb(255, 220, 80)),
                StrokeKind::Inside,
            );
        }
        Overlay::Refused => {
            painter.rect_filled(inner, 2.0, Color32::from_rgba_unmultiplied(230, 60, 60, 90));
        }
        Overlay::Fits => {
            painter.rect_filled(
                inner,
                2.0,
                Color32::from_rgba_unmultiplied(90, 220, 120, 60),
            );
        }
        Overlay::Swept => {
            painter.rect_stroke(
                rect.shrink(3.0),
                3.0,
                Stroke::new(1.0, Color32::from_rgba_unmultiplied(220, 220, 255, 90)),
                StrokeKind::Inside,
            );
        }
        Overlay::RadarDeck => {
            painter.circle_filled(
                c,
                w * 0.3,
                Color32::from_rgba_unmultiplied(120, 255, 140, 70),
            );
            painter.circle_stroke(
                c,
                w * 0.3,
                Stroke::new(2.5, Color32::from_rgb(120, 255, 140)),
            );
        }
        Overlay::RadarWater => {
            painter.circle_stroke(
                c,
                w * 0.15,
                Stroke::new(1.0, Color32::from_rgb(120, 200, 255)),
            );
        }
        Overlay::Shell(_)
        | Overlay::Wake(_)
        | Overlay::Torpedo(..)
        | Overlay::Plane(_)
        | Overlay::Sweep(_) => paint_motion(painter, rect, overlay),
        Overlay::Last => {
            painter.rect_stroke(
                rect.shrink(1.5),
                2.0,
                Stroke::new(1.5, Color32::from_rgba_unmultiplied(255, 230, 120, 200)),
                StrokeKind::Inside,
            );
        }
        Overlay::Lost => {
            // A grey puff with a slash: the shell fell where nothing was left to hit.
            let r = w * 0.3;
            painter.circle_stroke(c, r, Stroke::new(2.0, Color32::from_gray(200)));
            painter.line_segment(
                [c + Vec2::new(-r, r), c + Vec2::new(r, -r)],
                Stroke::new(2.0, Color32::from_gray(200)),
            );
        }
        Overlay::Arrow(heading) => {
            let r = w * 0.32;
            let dir = ahead(heading);
            let side = Vec2::new(-dir.y, dir.x);
            painter.add(Shape::convex_polygon(
                vec![c + dir * r, c - dir * r + side * r, c - dir * r - side * r],
                Color32::from_rgb(255, 220, 80),
                Stroke::NONE,
            ));
        }
        Overlay::Cursor => {
            painter.rect_stroke(
                inner,
                2.0,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Inside,
            );
        }
    }
}

/// An animation's moving parts: a shell falling, a torpedo and its wake, the
/// aircraft over the square, the radar's beam.
fn paint_motion(painter: &egui::Painter, rect: Rect, overlay: Overlay) {
    let c = rect.center();
    let w = rect.width();
    let fraction = |p: u8| f32::from(p) / 255.0;
    match overlay {
        Overlay::Shell(progress) => {
            // Seen from above, a shell grows smaller as it falls away from the eye
            // and its shadow closes in on the cell's centre.
            let f = fraction(progress);
            painter.circle_stroke(
                c,
                w * (0.45 - 0.3 * f),
                Stroke::new(1.5, Color32::from_rgba_unmultiplied(255, 240, 200, 200)),
            );
            painter.circle_filled(c, w * (0.16 - 0.08 * f), Color32::from_rgb(40, 40, 46));
        }
        Overlay::Wake(heading) => {
            let along = ahead(heading) * (w * 0.5);
            let stroke = Stroke::new(
                w * 0.14,
                Color32::from_rgba_unmultiplied(230, 245, 255, 150),
            );
            painter.line_segment([c - along, c + along], stroke);
        }
        Overlay::Torpedo(heading, progress) => {
            let dir = ahead(heading);
            let nose = c + dir * (w * (fraction(progress) - 0.5));
            let side = Vec2::new(-dir.y, dir.x) * (w * 0.1);
            let tail = nose - dir * (w * 0.55);
            painter.line_segment(
                [tail - dir * (w * 0.4), nose],
                Stroke::new(
                    w * 0.14,
                    Color32::from_rgba_unmultiplied(230, 245, 255, 150),
                ),
            );
            painter.add(Shape::convex_polygon(
                vec![nose, tail + side, tail - side],
                Color32::from_rgb(235, 235, 240),
                Stroke::new(1.0, Color32::from_rgb(60, 60, 70)),
            ));
        }
        Overlay::Plane(progress) => {
            // Across the square from left to right, over three cells either side.
            let x = c.x + w * (3.0 * fraction(progress) - 1.5) * 1.4;
            let body = Pos2::new(x, c.y);
            let colour = Color32::from_rgb(235, 235, 240);
            let edge = Stroke::new(1.0, Color32::from_rgb(50, 50, 60));
            painter.circle_filled(
                body + Vec2::new(w * 0.4, w * 0.55),
                w * 0.35,
                Color32::from_rgba_unmultiplied(0, 0, 0, 60),
            );
            painter.add(Shape::convex_polygon(
                vec![
                    body + Vec2::new(w * 0.55, 0.0),
                    body + Vec2::new(w * 0.1, -w * 0.75),
                    body + Vec2::new(-w * 0.15, -w * 0.75),
                    body + Vec2::new(-w * 0.05, 0.0),
                    body + Vec2::new(-w * 0.15, w * 0.75),
                    body + Vec2::new(w * 0.1, w * 0.75),
                ],
                colour,
                edge,
            ));
            painter.add(Shape::convex_polygon(
                vec![
                    body + Vec2::new(w * 0.75, 0.0),
                    body + Vec2::new(w * 0.55, -w * 0.1),
                    body + Vec2::new(-w * 0.6, -w * 0.08),
                    body + Vec2::new(-w * 0.6, w * 0.08),
                    body + Vec2::new(w * 0.55, w * 0.1),
                ],
                colour,
                edge,
            ));
        }
        Overlay::Sweep(turn) => {
            let square = Rect::from_center_size(c, Vec2::splat(w * 3.0)).shrink(1.0);
            let green = Color32::from_rgb(120, 255, 140);
            painter.rect_filled(square, 3.0, Color32::from_rgba_unmultiplied(20, 80, 40, 70));
            painter.rect_stroke(square, 3.0, Stroke::new(1.5, green), StrokeKind::Inside);
            let angle = fraction(turn) * std::f32::consts::TAU;
            for (i, lag) in [0.0_f32, 0.18, 0.36].into_iter().enumerate() {
                let a = angle - lag;
                let beam = c + Vec2::new(a.cos(), a.sin()) * (w * 1.45);
                let alpha = [220, 120, 60][i];
                painter.line_segment(
                    [c, beam],
                    Stroke::new(2.0, Color32::from_rgba_unmultiplied(120, 255, 140, alpha)),
                );
            }
        }
        _ => {}
    }
}

/// The enemy fleet at a glance: every ship of the fleet as a small hull, longest
/// first, those sunk drawn as wrecks. `kinds` holds each length with how many of
/// that length are afloat and how many the fleet has; `label` says the same in
/// words (for screen readers, and as the tooltip).
pub fn fleet_row(
    ui: &mut egui::Ui,
    kinds: &[(u8, usize, usize)],
    label: &str,
    flash: Option<(u8, f32)>,
) {
    const DECK: f32 = 14.0;
    const GAP: f32 = 6.0;
    let ships: Vec<(u8, bool)> = kinds
        .iter()
        .flat_map(|&(len, afloat, total)| (0..total).map(move |i| (len, i < afloat)))
        .collect();
    let width: f32 = ships
        .iter()
        .map(|(len, _)| f32::from(*len) * DECK + GAP)
        .sum();
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, DECK * 1.4), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Label, true, label));
    response.on_hover_text(label);
    let painter = ui.painter_at(rect.expand(6.0));
    let mut x = rect.min.x;
    // The ship just sunk glows: the first wreck of its length (wrecks of one length
    // look alike).
    let mut glow = flash;
    for (len, afloat) in ships {
        let span = Rect::from_min_size(
            Pos2::new(x, rect.center().y - DECK / 2.0),
            Vec2::new(f32::from(len) * DECK, DECK),
        );
        let colour = if afloat {
            HullColour::Enemy
        } else {
            HullColour::Wreck
        };
        if let Some((flashing, bright)) = glow
            && flashing == len
            && !afloat
        {
            glow = None;
            let hot = Color32::from_rgb(255, 150, 60);
            painter.rect_filled(span.expand(4.0), 5.0, hot.gamma_multiply(0.45 * bright));
            painter.rect_stroke(
                span.expand(4.0),
                5.0,
                Stroke::new(2.0, hot.gamma_multiply(bright)),
                egui::StrokeKind::Outside,
            );
        }
        paint_hull(&painter, span, true, len, colour);
        if !afloat {
            painter.line_segment(
                [span.left_center(), span.right_center()],
                Stroke::new(1.5, Color32::from_rgb(220, 100, 70)),
            );
        }
        x += span.width() + GAP;
    }
}
