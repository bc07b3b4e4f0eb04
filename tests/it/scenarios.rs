//! RULES.md scenario by scenario. The host attacks the guest's [`FLEET`]:
//!
//! ```text
//!    A B C D E F G H I J
//!  1 # # # # . . . . . #
//!  2 . . . . . . . . . .
//!  3 # # # . # # # . . #
//!  4 . . . . . . . . . .
//!  5 # # . # # . # # . .
//!  6 . . . . . . . . . .
//!  7 # . # . . . . . . .
//!  8-10 open water
//! ```

use std::collections::HashMap;

use armada::rules::{
    Action, ActionError, CellSet, Chart, Content, Coord, DrawError, Effect, EndReason, Recorder,
    Sea, SeaError, Seat, Variant, Weapon,
};

use crate::support::{FLEET, Table, cell, cells};

fn set(text: &str) -> CellSet {
    cells(text).into_iter().collect()
}

fn table() -> Table {
    Table::armada(FLEET)
}

/// Plays the host's actions (the guest misses whenever the turn comes to it).
fn after(actions: &[&str]) -> Table {
    let mut t = table();
    t.host_plays(actions);
    assert_eq!(
        t.game.mover(),
        Seat::Host,
        "setup should leave the host to act"
    );
    t
}

fn refused(t: &mut Table, seat: Seat, action: &str, shells: Option<[u8; 5]>) -> String {
    let before = t.game.clone();
    let error = t
        .try_act(seat, action, shells)
        .expect_err("must be refused");
    assert_eq!(t.game, before, "a refused action changes nothing");
    error.to_string()
}

mod shots {
    use super::*;

    #[test]
    fn a_miss_marks_water_and_passes_the_turn() {
        let mut t = table();
        let report = t.host("E8");
        assert_eq!(report.effects, [Effect::Miss(cell("E8"))]);
        assert!(!report.again);
        assert_eq!(t.game.mover(), Seat::Guest);
        assert_eq!(t.chart_row(8), "....o.....");
    }

    #[test]
    fn a_hit_earns_another_action() {
        let mut t = table();
        let report = t.host("B1");
        assert_eq!(report.effects, [Effect::Hit(cell("B1"))]);
        assert!(report.again);
        assert_eq!(t.game.mover(), Seat::Host);
        assert_eq!(t.chart_row(1), ".x........");
    }

    #[test]
    fn a_marked_cell_cannot_be_shot_again() {
        let mut t = after(&["E8", "A1"]);
        assert_eq!(
            refused(&mut t, Seat::Host, "E8", None),
            "E8 is already marked"
        );
        assert_eq!(
            refused(&mut t, Seat::Host, "A1", None),
            "A1 is already marked"
        );
    }

    #[test]
    fn only_the_mover_acts() {
        let mut t = table();
        assert_eq!(
            refused(&mut t, Seat::Guest, "A1", None),
            "it is the host's turn"
        );
        t.host("E8");
        assert_eq!(
            refused(&mut t, Seat::Host, "A1", None),
            "it is the guest's turn"
        );
    }

    #[test]
    fn a_cell_off_a_smaller_board_is_refused() {
        let mut t = Table::new(Variant::classic(8).unwrap(), SMALL, SMALL, false);
        let action = Action::Shot(Coord::new(9, 0).unwrap());
        let before = t.game.clone();
        let error = t
            .game
            .play(Seat::Host, action, None, &mut t.fleets[1].clone())
            .unwrap_err();
        assert_eq!(error.to_string(), "J1 is off the board");
        assert_eq!(t.game, before);
    }

    const SMALL: &str = "
        # # # # . . . #
        . . . . . . . .
        # # # . # # . .
        . . . . . . . .
        # # . # . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .";
}

mod sinking {
    use super::*;

    #[test]
    fn a_sunk_corner_boat_rings_its_three_neighbours() {
        let mut t = table();
        let report = t.host("J1");
        assert_eq!(
            report.effects,
            [Effect::Sunk {
                cell: cell("J1"),
                ship: set("J1"),
                ring: set("I1 I2 J2")
            }]
        );
        assert!(report.again, "a sink earns another action");
        assert_eq!(t.chart_row(1), "........oX");
        assert_eq!(t.chart_row(2), "........oo");
    }

    #[test]
    fn the_ring_includes_corners_and_skips_marked_cells() {
        let mut t = after(&["F4", "D5"]);
        let report = t.host("E5");
        let ring = set("C4 D4 E4 C5 F5 C6 D6 E6 F6");
        assert_eq!(
            report.effects,
            [Effect::Sunk {
                cell: cell("E5"),
                ship: set("D5 E5"),
                ring
            }]
        );
        assert_eq!(t.chart_row(4), "..oooo....", "F4 was a miss before");
        assert_eq!(t.chart_row(5), "..oXXo....");
        assert_eq!(t.chart_row(6), "..oooo....");
    }

    #[test]
    fn hits_become_wrecks_only_when_the_last_deck_falls() {
        let mut t = after(&["A1", "B1", "C1"]);
        assert_eq!(t.chart_row(1), "xxx.......");
        t.host("D1");
        assert_eq!(t.chart_row(1), "XXXXo.....");
        assert_eq!(t.chart_row(2), "ooooo.....");
    }
}

mod torpedoes {
    use super::*;

    #[test]
    fn through_open_water_every_cell_becomes_a_miss_and_the_turn_passes() {
        let mut t = table();
        let report = t.host("torpedo row 8 right");
        assert_eq!(report.effects.len(), 10);
        assert!(report.effects.iter().all(|e| matches!(e, Effect::Miss(_))));
        assert!(!report.again);
        assert_eq!(t.chart_row(8), "oooooooooo");
        assert_eq!(t.game.stock(Seat::Host).torpedoes, 1);
        assert_eq!(t.game.mover(), Seat::Guest);
    }

    #[test]
    fn it_stops_at_the_first_deck_and_marks_the_water_it_crossed() {
        let mut t = table();
        let report = t.host("torpedo column H down");
        let mut expected: Vec<Effect> =
            cells("H1 H2 H3 H4").into_iter().map(Effect::Miss).collect();
        expected.push(Effect::Hit(cell("H5")));
        assert_eq!(report.effects, expected);
        assert!(report.again, "a torpedo that hits earns another action");
        assert_eq!(
            t.game.chart(Seat::Host).mark(cell("H6")),
            armada::rules::Mark::Unmarked
        );
    }

    #[test]
    fn each_heading_enters_from_its_own_edge() {
        let mut t = table();
        assert_eq!(
            t.host("torpedo row 1 right").effects,
            [Effect::Hit(cell("A1"))]
        );
        let from_right = t.host("torpedo row 1 left");
        assert_eq!(
            from_right.effects,
            [Effect::Sunk {
                cell: cell("J1"),
                ship: set("J1"),
                ring: set("I1 I2 J2")
            }]
        );
        let mut t = table();
        let up = t.host("torpedo column C up");
        let ring = set("B6 C6 D6 B7 D7 B8 D8");
        assert_eq!(
            up.effects,
            [
                Effect::Miss(cell("C10")),
                Effect::Miss(cell("C9")),
                Effect::Miss(cell("C8")),
                Effect::Sunk {
                    cell: cell("C7"),
                    ship: set("C7"),
                    ring
                },
            ]
        );
    }

    #[test]
    fn it_passes_over_misses_hits_and_wrecks() {
        // A7 sunk (its ring marks B7), then a torpedo along row 7 runs over both to C7.
        let mut t = after(&["A7"]);
        let report = t.host("torpedo row 7 right");
        assert_eq!(
            report.effects.first(),
            Some(&Effect::Sunk {
                cell: cell("C7"),
                ship: set("C7"),
                ring: set("C6 D6 D7 C8 D8")
            })
        );
        // A5 hit, then a torpedo along row 5 runs over the hit and sinks the destroyer at B5.
        let mut t = after(&["A5"]);
        let report = t.host("torpedo row 5 right");
        assert!(matches!(report.effects[..], [Effect::Sunk { cell: c, .. }] if c == cell("B5")));
    }

    #[test]
    fn a_line_with_nothing_unmarked_is_refused_and_spends_nothing() {
        let mut t = table();
        t.host("torpedo row 8 right");
        t.pass(Seat::Guest);
        assert_eq!(
            refused(&mut t, Seat::Host, "torpedo row 8 left", None),
            "torpedo row 8 ←: every cell of that line is already marked"
        );
        assert_eq!(t.game.stock(Seat::Host).torpedoes, 1);
    }

    #[test]
    fn two_torpedoes_and_no_more() {
        let mut t = table();
        t.host("torpedo row 8 right");
        t.pass(Seat::Guest);
        t.host("torpedo row 9 right");
        t.pass(Seat::Guest);
        assert_eq!(
            refused(&mut t, Seat::Host, "torpedo row 10 right", None),
            "no torpedo left"
        );
        assert_eq!(
            t.game.stock(Seat::Guest).left(Weapon::Torpedo),
            2,
            "stocks are per player"
        );
    }
}

mod air_strikes {
    use super::*;

    #[test]
    fn five_shells_fall_in_the_given_order() {
        let mut t = table();
        let report = t.strike(Seat::Host, "B2", [0, 1, 2, 3, 4]);
        assert_eq!(
            report.effects,
            [
                Effect::Hit(cell("A1")),
                Effect::Hit(cell("B1")),
                Effect::Hit(cell("C1")),
                Effect::Miss(cell("A2")),
                Effect::Miss(cell("B2")),
            ]
        );
        assert!(
            report.again,
            "any hit among the shells earns another action"
        );
        assert_eq!(t.game.stock(Seat::Host).air_strikes, 1);
    }

    #[test]
    fn a_shell_on_a_marked_cell_is_lost() {
        let mut t = after(&["E8"]);
        let report = t.strike(Seat::Host, "E9", [1, 3, 4, 5, 6]);
        assert_eq!(report.effects[0], Effect::Lost(cell("E8")));
        assert_eq!(report.effects.len(), 5);
        assert!(!report.again, "all water: the turn passes");
        assert_eq!(t.game.mover(), Seat::Guest);
    }

    #[test]
    fn a_shell_on_a_ring_closed_earlier_in_the_same_strike_is_lost() {
        let mut t = table();
        // Square H1..J3: J1 sinks (ring I1 I2 J2), I2 is lost, J3 sinks, I3 is lost, H1 misses.
        let report = t.strike(Seat::Host, "I2", [2, 4, 8, 7, 0]);
        assert_eq!(
            report.effects,
            [
                Effect::Sunk {
                    cell: cell("J1"),
                    ship: set("J1"),
                    ring: set("I1 I2 J2")
                },
                Effect::Lost(cell("I2")),
                Effect::Sunk {
                    cell: cell("J3"),
                    ship: set("J3"),
                    ring: set("I3 I4 J4")
                },
                Effect::Lost(cell("I3")),
                Effect::Miss(cell("H1")),
            ]
        );
    }

    #[test]
    fn the_strike_stops_when_the_last_ship_sinks() {
        let all_but_c7 = "A1 B1 C1 D1 J1 A3 B3 C3 E3 F3 G3 J3 A5 B5 D5 E5 G5 H5 A7";
        let mut t = after(&all_but_c7.split(' ').collect::<Vec<_>>());
        let report = t.strike(Seat::Host, "C8", [4, 1, 0, 2, 3]);
        assert_eq!(
            report.effects.len(),
            2,
            "three shells never fall: {:?}",
            report.effects
        );
        assert_eq!(report.effects[0], Effect::Miss(cell("C8")));
        assert!(matches!(report.effects[1], Effect::Sunk { cell: c, .. } if c == cell("C7")));
        let ending = report.ending.expect("the game is over");
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Seat::Host), EndReason::FleetSunk)
        );
        assert!(!report.again);
    }

    #[test]
    fn a_centre_on_the_edge_is_refused() {
        let mut t = table();
        for centre in ["A5", "J5", "E1", "E10", "A1", "J10"] {
            let message = refused(
                &mut t,
                Seat::Host,
                &format!("air {centre}"),
                Some([0, 1, 2, 3, 4]),
            );
            assert!(
                message.starts_with(&format!("{centre} is on the edge")),
                "{message}"
            );
            let message = refused(&mut t, Seat::Host, &format!("radar {centre}"), None);
            assert!(
                message.starts_with(&format!("{centre} is on the edge")),
                "{message}"
            );
        }
        t.strike(Seat::Host, "I9", [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_square_with_nothing_unmarked_is_refused() {
        let mut t = after(&["A1", "B1", "C1", "D1", "A3", "B3", "C3"]);
        assert_eq!(
            refused(&mut t, Seat::Host, "air B2", Some([0, 1, 2, 3, 4])),
            "the square around B2 has no unmarked cell"
        );
        assert_eq!(
            refused(&mut t, Seat::Host, "radar B2", None),
            "the square around B2 has no unmarked cell"
        );
    }

    #[test]
    fn two_air_strikes_and_no_more() {
        let mut t = table();
        t.strike(Seat::Host, "E9", [0, 1, 2, 3, 4]);
        t.pass(Seat::Guest);
        t.strike(Seat::Host, "B9", [0, 1, 2, 3, 4]);
        t.pass(Seat::Guest);
        assert_eq!(
            refused(&mut t, Seat::Host, "air H9", Some([0, 1, 2, 3, 4])),
            "no air strike left"
        );
    }

    #[test]
    fn the_shell_order_goes_with_air_strikes_only() {
        let mut t = table();
        let needs = "an air strike needs its shell order, and only an air strike takes one";
        assert_eq!(refused(&mut t, Seat::Host, "air E9", None), needs);
        assert_eq!(
            refused(&mut t, Seat::Host, "E9", Some([0, 1, 2, 3, 4])),
            needs
        );
        assert!(armada::rules::ShellOrder::new([0, 1, 2, 3, 3]).is_err());
        assert!(armada::rules::ShellOrder::new([0, 1, 2, 3, 9]).is_err());
    }
}

mod radar {
    use super::*;

    #[test]
    fn it_shows_the_unmarked_cells_marks_nothing_and_ends_the_turn() {
        let mut t = after(&["E3"]);
        let chart_before = *t.game.chart(Seat::Host);
        let report = t.host("radar E4");
        let seen: Vec<(String, bool)> = report
            .effects
            .iter()
            .map(|e| match e {
                Effect::Scanned { cell, deck } => (cell.to_string(), *deck),
                other => panic!("radar did {other:?}"),
            })
            .collect();
        let expected = [
            ("D3", false),
            ("F3", true),
            ("D4", false),
            ("E4", false),
            ("F4", false),
            ("D5", true),
            ("E5", true),
            ("F5", false),
        ];
        assert_eq!(
            seen,
            expected.map(|(c, d)| (c.to_owned(), d)),
            "E3 is marked, so not shown"
        );
        assert_eq!(
            *t.game.chart(Seat::Host),
            chart_before,
            "radar marks nothing"
        );
        assert!(!report.again, "radar always ends the turn");
        // The printed record (terminal, demo) says only that the square was swept:
        // the picture is the sweeper's for a moment, not the record's.
        assert_eq!(report.to_string(), "radar E4: square swept");
        assert_eq!(t.game.mover(), Seat::Guest);
        t.pass(Seat::Guest);
        assert_eq!(
            refused(&mut t, Seat::Host, "radar E8", None),
            "no radar left"
        );
    }
}

mod classic {
    use super::*;

    #[test]
    fn classic_mode_has_no_weapons() {
        let mut t = Table::new(Variant::classic(10).unwrap(), FLEET, FLEET, true);
        for action in ["torpedo row 1 right", "radar E5"] {
            assert_eq!(
                refused(&mut t, Seat::Host, action, None),
                "classic mode has no weapons"
            );
        }
        assert_eq!(
            refused(&mut t, Seat::Host, "air E5", Some([0, 1, 2, 3, 4])),
            "classic mode has no weapons"
        );
        assert_eq!(t.host("J1").effects.len(), 1);
    }
}

mod endings {
    use super::*;

    const ALL: &str = "A1 B1 C1 D1 J1 A3 B3 C3 E3 F3 G3 J3 A5 B5 D5 E5 G5 H5 A7 C7";

    #[test]
    fn sinking_the_whole_fleet_wins_and_nothing_follows() {
        let mut t = table();
        for shot in ALL.split(' ') {
            t.host(shot);
        }
        let ending = t.game.ending().expect("over");
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Seat::Host), EndReason::FleetSunk)
        );
        assert_eq!(t.game.chart(Seat::Host).wrecks().len(), 20);
        assert_eq!(refused(&mut t, Seat::Host, "E8", None), "the game is over");
        assert_eq!(t.game.resign(Seat::Guest), Err(ActionError::GameOver));
        assert_eq!(t.game.offer_draw(Seat::Guest), Err(DrawError::GameOver));
        assert_eq!(
            (
                ending.half_points(Seat::Host),
                ending.half_points(Seat::Guest)
            ),
            (2, 0)
        );
    }

    #[test]
    fn resigning_gives_the_other_seat_the_win() {
        let mut t = table();
        let ending = t.game.resign(Seat::Guest).unwrap();
        assert_eq!(
            (ending.winner, ending.reason),
            (Some(Seat::Host), EndReason::Resigned)
        );
        assert_eq!(refused(&mut t, Seat::Host, "E8", None), "the game is over");
    }
}

mod draws {
    use super::*;

    #[test]
    fn an_accepted_offer_ends_the_game_drawn() {
        let mut t = table();
        t.game.offer_draw(Seat::Guest).unwrap();
        let ending = t
            .game
            .answer_draw(Seat::Host, true)
            .unwrap()
            .expect("ended");
        assert_eq!(
            (ending.winner, ending.reason),
            (None, EndReason::DrawAgreed)
        );
        assert_eq!(
            (
                ending.half_points(Seat::Host),
                ending.half_points(Seat::Guest)
            ),
            (1, 1)
        );
    }

    #[test]
    fn at_most_one_offer_per_player_per_move() {
        let mut t = table();
        t.game.offer_draw(Seat::Host).unwrap();
        assert_eq!(
            t.game.offer_draw(Seat::Guest),
            Err(DrawError::Pending(Seat::Host))
        );
        assert_eq!(
            t.game.answer_draw(Seat::Host, true),
            Err(DrawError::OwnOffer)
        );
        assert_eq!(t.game.answer_draw(Seat::Guest, false), Ok(None));
        assert_eq!(
            t.game.offer_draw(Seat::Host),
            Err(DrawError::AlreadyOffered)
        );
        t.host("A1");
        t.game
            .offer_draw(Seat::Host)
            .expect("a new move, a new offer");
    }

    #[test]
    fn acting_instead_of_answering_declines() {
        let mut t = table();
        t.game.offer_draw(Seat::Guest).unwrap();
        t.host("E8");
        assert_eq!(t.game.draw_offer(), None);
        assert_eq!(
            t.game.answer_draw(Seat::Host, true),
            Err(DrawError::NoOffer)
        );
        assert!(!t.game.is_over());
    }

    #[test]
    fn no_draws_against_the_computer() {
        let mut t = Table::new(Variant::Armada, FLEET, FLEET, false);
        assert_eq!(t.game.offer_draw(Seat::Host), Err(DrawError::NotAllowed));
    }
}

/// A view of the enemy sea backed only by what was opened: the attacker's view.
struct Openings(HashMap<Coord, Content>);

impl Sea for Openings {
    fn look(&mut self, cell: Coord, _chart: &Chart) -> Result<Content, SeaError> {
        self.0.get(&cell).copied().ok_or(SeaError::Unknown(cell))
    }
}

fn openings(list: &[(&str, Content)]) -> Openings {
    Openings(
        list.iter()
            .map(|&(c, content)| (cell(c), content))
            .collect(),
    )
}

mod views {
    use super::*;

    const WATER: Content = Content::Water;
    const SUNK: Content = Content::Deck { sinks: true };

    #[test]
    fn the_defender_opens_exactly_the_cells_the_rules_looked_at() {
        let mut t = table();
        let mut recorder = Recorder::new(t.fleets[1].clone());
        let action = Action::parse("J1", t.game.variant().size()).unwrap();
        let report = t
            .game
            .clone()
            .play(Seat::Host, action, None, &mut recorder)
            .unwrap();
        let looked: Vec<String> = recorder.looked.iter().map(|(c, _)| c.to_string()).collect();
        assert_eq!(looked, ["J1", "I1", "I2", "J2"], "the shot, then its ring");

        // The same answer re-resolved from those openings alone gives the same report.
        let mut view = Openings(recorder.looked.into_iter().collect());
        assert_eq!(
            t.game.play(Seat::Host, action, None, &mut view).unwrap(),
            report
        );
    }

    #[test]
    fn a_torpedo_looks_at_each_cell_once() {
        // Regression: the stop cell was looked at twice, so its answer opened it twice.
        let t = table();
        let mut recorder = Recorder::new(t.fleets[1].clone());
        let action = Action::parse("torpedo column C up", t.game.variant().size()).unwrap();
        t.game
            .clone()
            .play(Seat::Host, action, None, &mut recorder)
            .unwrap();
        let looked: Vec<String> = recorder.looked.iter().map(|(c, _)| c.to_string()).collect();
        assert_eq!(
            looked,
            [
                "C10", "C9", "C8", "C7", "B6", "C6", "D6", "B7", "D7", "B8", "D8"
            ]
        );
    }

    #[test]
    fn a_missing_opening_is_an_error_and_changes_nothing() {
        let mut t = table();
        let before = t.game.clone();
        let mut view = openings(&[("H1", WATER), ("H2", WATER), ("H3", WATER)]);
        let action = Action::parse("torpedo column H down", t.game.variant().size()).unwrap();
        let error = t
            .game
            .play(Seat::Host, action, None, &mut view)
            .unwrap_err();
        assert_eq!(error, ActionError::Sea(SeaError::Unknown(cell("H4"))));
        assert_eq!(t.game, before);
    }

    #[test]
    fn a_deck_in_the_ring_of_a_sunk_ship_is_a_contradiction() {
        let mut t = table();
        let before = t.game.clone();
        let mut view = openings(&[
            ("J1", SUNK),
            ("I1", WATER),
            ("I2", Content::Deck { sinks: false }),
            ("J2", WATER),
        ]);
        let action = Action::parse("J1", t.game.variant().size()).unwrap();
        let error = t
            .game
            .play(Seat::Host, action, None, &mut view)
            .unwrap_err();
        assert!(
            matches!(error, ActionError::Sea(SeaError::Contradiction { cell: c, .. }) if c == cell("I2")),
            "{error}"
        );
        assert_eq!(t.game, before);
    }
}
