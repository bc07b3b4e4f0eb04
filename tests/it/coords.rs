//! Cells as players write them, on every board size.

use armada::rules::{BoardSize, Coord, Variant};

fn parse(text: &str, side: u8) -> Result<String, String> {
    Coord::parse(text, BoardSize::new(side).unwrap())
        .map(|c| c.to_string())
        .map_err(|e| e.to_string())
}

#[test]
fn corners_of_the_standard_board_round_trip() {
    assert_eq!(parse("A1", 10), Ok("A1".into()));
    assert_eq!(parse("J10", 10), Ok("J10".into()));
    for cell in BoardSize::STANDARD.cells() {
        assert_eq!(parse(&cell.to_string(), 10), Ok(cell.to_string()));
    }
}

#[test]
fn case_and_surrounding_spaces_do_not_matter() {
    assert_eq!(parse("  e5 ", 10), Ok("E5".into()));
    assert_eq!(parse("\tj10\n", 10), Ok("J10".into()));
}

#[test]
fn a_column_past_the_board_is_named() {
    assert_eq!(parse("K3", 10), Err("\"K3\": column must be A–J".into()));
    assert_eq!(parse("I3", 8), Err("\"I3\": column must be A–H".into()));
    assert_eq!(parse("L12", 12), Ok("L12".into()));
}

#[test]
fn a_row_past_the_board_is_named() {
    assert_eq!(parse("A11", 10), Err("\"A11\": row must be 1–10".into()));
    assert_eq!(parse("A0", 10), Err("\"A0\": row must be 1–10".into()));
    assert_eq!(parse("A9", 8), Err("\"A9\": row must be 1–8".into()));
    assert_eq!(
        parse("A999999999999", 10),
        Err("\"A999999999999\": row must be 1–10".into())
    );
}

#[test]
fn malformed_text_gets_an_example() {
    for bad in ["", "   ", "5E", "E", "E 5", "E5x", "ÄB", "E-5", "E+5"] {
        let error = parse(bad, 10).unwrap_err();
        assert!(error.contains("like E5"), "{bad:?} gave {error}");
    }
}

#[test]
fn classic_sizes_are_eight_ten_and_twelve_only() {
    assert_eq!(Variant::classic(8).unwrap().size().side(), 8);
    assert_eq!(Variant::classic(12).unwrap().size().side(), 12);
    assert_eq!(
        Variant::classic(9).unwrap_err().to_string(),
        "classic boards are 8×8, 10×10 or 12×12, not 9×9"
    );
    assert_eq!(Variant::Armada.size().side(), 10);
}

/// Found looking at the terminal: `torpedo row 11 right` was refused as `"a11": row
/// must be 1–10`, naming a cell the player never typed.
#[test]
fn a_torpedo_line_off_the_board_is_named_as_typed() {
    use armada::rules::Action;
    let ten = BoardSize::new(10).unwrap();
    let error = |text: &str| Action::parse(text, ten).unwrap_err().to_string();
    assert_eq!(
        error("torpedo row 11 right"),
        "\"row 11\": row must be 1–10"
    );
    assert_eq!(error("torpedo row 0 left"), "\"row 0\": row must be 1–10");
    assert_eq!(
        error("torpedo column k down"),
        "\"column K\": column must be A–J"
    );
    assert_eq!(
        Action::parse("torpedo column l up", BoardSize::new(12).unwrap())
            .unwrap()
            .to_string(),
        "torpedo column L ↑"
    );
}
