//! Fleets: what each variant places, and every way a layout can be illegal, named.

use armada::rules::{Dir, Fleet, Placer, Ship, Variant, parse_fleet};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::support::{FLEET, cell};

fn check(picture: &str) -> Result<Fleet, String> {
    parse_fleet(&Variant::Armada.fleet(), picture).map_err(|e| e.to_string())
}

fn ships(list: &[(&str, Dir, u8)]) -> Result<Fleet, String> {
    let ships = list
        .iter()
        .map(|&(bow, dir, len)| Ship::new(cell(bow), dir, len))
        .collect();
    Fleet::new(&Variant::Armada.fleet(), ships).map_err(|e| e.to_string())
}

/// The standard fleet as ships, with one ship replaced.
fn standard_with(replace: usize, ship: (&'static str, Dir, u8)) -> Result<Fleet, String> {
    let mut list = vec![
        ("A1", Dir::Across, 4),
        ("A3", Dir::Across, 3),
        ("E3", Dir::Across, 3),
        ("A5", Dir::Across, 2),
        ("D5", Dir::Across, 2),
        ("G5", Dir::Across, 2),
        ("J1", Dir::Across, 1),
        ("J3", Dir::Across, 1),
        ("A7", Dir::Across, 1),
        ("C7", Dir::Across, 1),
    ];
    list[replace] = ship;
    ships(&list)
}

#[test]
fn fleets_per_variant() {
    let count = |v: Variant| (v.fleet().lengths().len(), v.fleet().decks());
    assert_eq!(count(Variant::Armada), (10, 20));
    assert_eq!(
        Variant::Armada.fleet().lengths(),
        [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    );
    assert_eq!(count(Variant::classic(8).unwrap()), (6, 13));
    assert_eq!(count(Variant::classic(10).unwrap()), (10, 20));
    assert_eq!(count(Variant::classic(12).unwrap()), (13, 28));
    assert_eq!(Variant::classic(12).unwrap().fleet().count(5), 1);
}

#[test]
fn the_test_fleet_is_legal_and_reads_back_its_ships() {
    let fleet = check(FLEET).unwrap();
    assert_eq!(fleet.ships().len(), 10);
    assert_eq!(fleet.decks().len(), 20);
    assert_eq!(fleet.ships()[0].to_string(), "battleship A1–D1");
    assert_eq!(
        fleet.ship_at(cell("F3")).unwrap().to_string(),
        "cruiser E3–G3"
    );
    assert_eq!(fleet.ship_at(cell("J3")).unwrap().to_string(), "boat J3");
    assert_eq!(fleet.ship_at(cell("F4")), None);
    assert_eq!(standard_with(0, ("A1", Dir::Across, 4)).unwrap(), fleet);
}

#[test]
fn a_ship_off_the_board_is_refused() {
    assert_eq!(
        standard_with(0, ("H9", Dir::Across, 4)),
        Err("battleship H9–K9 runs off the 10×10 board".into())
    );
    assert_eq!(
        standard_with(1, ("H9", Dir::Down, 3)),
        Err("cruiser H9–H11 runs off the 10×10 board".into())
    );
}

/// [`FLEET`] with rows replaced: `(row number, new row)`.
fn with_rows(changes: &[(usize, &str)]) -> String {
    let mut rows: Vec<String> = FLEET
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    for &(row, text) in changes {
        text.clone_into(&mut rows[row - 1]);
    }
    rows.join("\n")
}

#[test]
fn a_bent_ship_is_refused() {
    // The boat J1 moves to I2 and J2, joining J3 in an L.
    let bent = with_rows(&[(1, "# # # # . . . . . ."), (2, ". . . . . . . . # #")]);
    assert_eq!(
        check(&bent),
        Err("the ship at I2, J2, J3 is bent: a ship is one straight line".into())
    );
}

#[test]
fn wrong_counts_are_refused() {
    let no_boat = with_rows(&[(7, "# . . . . . . . . .")]);
    assert_eq!(
        check(&no_boat),
        Err("the fleet needs 4 boats (1 decks), not 3".into())
    );
    let extra_boat = with_rows(&[(10, ". . . . . . . . . #")]);
    assert_eq!(
        check(&extra_boat),
        Err("the fleet needs 4 boats (1 decks), not 5".into())
    );
    assert_eq!(
        standard_with(0, ("A1", Dir::Across, 5)),
        Err("five-decker A1–E1: this fleet has no ship of 5 decks".into())
    );
}

#[test]
fn overlapping_ships_are_refused() {
    assert_eq!(
        standard_with(7, ("B1", Dir::Across, 1)),
        Err("battleship A1–D1 overlaps boat B1 at B1".into())
    );
}

#[test]
fn touching_by_a_corner_is_refused_and_named() {
    // The boat from J3 moved to E2: diagonal to the battleship's D1.
    assert_eq!(
        standard_with(7, ("E2", Dir::Across, 1)),
        Err("battleship A1–D1 touches boat E2 by a corner at E2".into())
    );
    // The same from a picture: the boat from C7 moved to I4, diagonal to H5 (and to J3).
    let touching = with_rows(&[(4, ". . . . . . . . # ."), (7, "# . . . . . . . . .")]);
    assert_eq!(
        check(&touching),
        Err("destroyer G5–H5 touches boat I4 by a corner at I4".into())
    );
}

#[test]
fn touching_by_a_side_is_refused_and_named() {
    assert_eq!(
        standard_with(7, ("A2", Dir::Across, 1)),
        Err("battleship A1–D1 touches boat A2 by a side at A2".into())
    );
}

#[test]
fn automatic_placement_is_legal_on_every_board_and_repeats_with_its_seed() {
    for variant in [
        Variant::Armada,
        Variant::classic(8).unwrap(),
        Variant::classic(12).unwrap(),
    ] {
        let spec = variant.fleet();
        let placer = Placer::new(&spec);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..50 {
            let placed = placer.place(&mut rng);
            let again =
                Fleet::new(&spec, placed.ships().to_vec()).expect("placed fleets are legal");
            assert_eq!(again, placed);
        }
        let a = placer.place(&mut ChaCha8Rng::seed_from_u64(5));
        let b = placer.place(&mut ChaCha8Rng::seed_from_u64(5));
        assert_eq!(a, b);
    }
}

#[test]
fn a_picture_of_the_wrong_shape_is_refused() {
    assert_eq!(
        check("# . #"),
        Err("the picture has 1 rows, the board 10".into())
    );
    let wide = with_rows(&[(2, ". . . . . . . . . . .")]);
    assert_eq!(
        check(&wide),
        Err("row 2 of the picture has 11 cells, the board 10".into())
    );
    let odd = with_rows(&[(2, ". . . . ? . . . . .")]);
    assert_eq!(
        check(&odd),
        Err("row 2 of the picture has '?': cells are '#' (deck) or '.' (water)".into())
    );
}
