//! What the window says about the game in words: the log's lines, cells and columns by name, why an action is refused.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A line of the move log: who acted (`mine`: the player), what and with what
/// effect, and whether the move timer fired it (not the player's choice).
pub(super) fn log_line(
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
pub(super) fn describe(t: &Text, variant: Variant, report: &crate::rules::Report) -> String {
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
    // A plain shot's answer is about the cell just named: said without it again.
    let shot = match report.action {
        Action::Shot(c) => Some(c),
        _ => None,
    };
    let effects: Vec<String> = report
        .effects
        .iter()
        .map(|effect| match effect {
            Effect::Miss(c) if shot == Some(*c) => t.get("fx-shot-miss"),
            Effect::Hit(c) if shot == Some(*c) => t.get("fx-shot-hit"),
            Effect::Sunk { cell: c, ship, .. } if shot == Some(*c) => {
                t.with("fx-shot-sunk", &[("len", Arg::from(ship.len()))])
            }
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
pub(super) fn arrow(t: &Text, heading: Heading) -> String {
    t.get(match heading {
        Heading::Right => "dir-right",
        Heading::Down => "dir-down",
        Heading::Left => "dir-left",
        Heading::Up => "dir-up",
    })
}

/// Why an action may not be aimed there, in the window's language.
pub(super) fn why(t: &Text, error: &ActionError) -> String {
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
pub(super) fn look_name(t: &Text, look: Look) -> String {
    t.get(match look {
        Look::Unknown => "cell-unknown",
        Look::Sea => "cell-water",
        Look::Ship => "cell-ship",
        Look::Miss => "cell-miss",
        Look::Hit => "cell-hit",
        Look::Wreck => "cell-wreck",
    })
}

pub(super) fn chart_look(mark: Mark) -> Option<Look> {
    match mark {
        Mark::Unmarked => None,
        Mark::Miss => Some(Look::Miss),
        Mark::Hit => Some(Look::Hit),
        Mark::Wreck => Some(Look::Wreck),
    }
}

/// The column letters the window shows: the Russian classic board's own (А–К on
/// 10×10, А–М without Й on 12×12) in Russian classic mode, A–L otherwise.
pub(super) fn columns(t: &Text, variant: Variant) -> &'static [char; 12] {
    if t.lang() == Lang::Ru && !variant.has_weapons() {
        &crate::ui::board::CYRILLIC
    } else {
        &crate::ui::board::LATIN
    }
}

/// A cell's name as the window writes it (`E5`, or `Д5` in Russian classic mode).
pub(super) fn cell_name(t: &Text, variant: Variant, cell: Coord) -> String {
    format!(
        "{}{}",
        columns(t, variant)[usize::from(cell.col())],
        cell.row() + 1
    )
}

/// The cell size that fits two boards of `side` cells side by side in `width`, and
/// in `height` with the weapon cards and the buttons under them: a large window
/// gets large boards.
pub(super) fn cell_size(width: f32, height: f32, side: u8) -> f32 {
    let board = f32::from(side) + 0.8;
    let by_width = (width - 80.0) / (2.0 * board);
    let by_height = (height - 170.0) / board;
    by_width.min(by_height).clamp(22.0, 52.0).floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Coord {
        Coord::parse(name, crate::rules::BoardSize::STANDARD).unwrap()
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
            "Opponent: shot E5: miss (the move timer ran out)"
        );
        assert_eq!(
            log_line(&t, Variant::Armada, true, &report, false),
            "You: shot E5: miss"
        );
        // A weapon's answers name their cells.
        let air = crate::rules::Report {
            action: Action::AirStrike(c("E5")),
            effects: vec![Effect::Miss(c("E5")), Effect::Hit(c("F6"))],
            again: true,
            ending: None,
        };
        assert_eq!(
            describe(&t, Variant::Armada, &air),
            "air strike E5: E5 miss, F6 hit — again"
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
}
